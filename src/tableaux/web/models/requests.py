"""The API's requests: every body a route accepts, checked field by field before anything is done.

They stand apart from the answers because they flow the other way: their validators (from
:mod:`tableaux.web.fields`) refuse bad input with a sentence saying what is accepted, while the answers only
describe what the server sends.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, ConfigDict, Discriminator, Field, Tag, model_validator

from ...catalogue import GRADES
from ..fields import (
    MAX_MOVE_TEXT,
    WEB_GAMES,
    ContractError,
    Count,
    Deal,
    DisplayName,
    Flag,
    Game,
    Grade,
    Keep,
    Mode,
    Mover,
    Played,
    SourcePile,
    Strict,
    TargetPile,
    Version,
    check_move_kind,
    check_move_text,
    move_kind,
    shown,
)
from ..names import NAME_MAX, NAME_MIN, PUNCTUATION
from ..standings import NAME_CHANGES


class NewGameRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={
        "examples": [{"game": WEB_GAMES[0], "deal": 17}, {"game": WEB_GAMES[-1], "winnable": True,
                                                          "difficulty": "easy"}],
        # A deal number, or a choice from the catalogue: never both.
        "anyOf": [{"properties": {"deal": {"type": "null"}}},
                  {"properties": {"winnable": {"const": False}, "difficulty": {"type": "null"}}}],
    })

    game: Game = Field(description=f"choose one of {', '.join(WEB_GAMES)}")
    deal: Deal = Field(None, description="null or absent: a random deal")
    winnable: Flag = Field(False, description="true: a random deal the solver has won, from the graded catalogue")
    difficulty: Grade | None = Field(None, description=f"one of {', '.join(GRADES)} (a winnable deal of that grade)")

    @model_validator(mode="after")
    def _one_way_to_choose(self) -> NewGameRequest:
        if self.deal is not None and (self.winnable or self.difficulty is not None):
            raise ContractError("give either a deal number or winnable/difficulty, not both")
        return self


class DailyRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"game": WEB_GAMES[0]}]})

    game: Game = Field(description=f"choose one of {', '.join(WEB_GAMES)}")


PLAYED = ("the game's time played so far in seconds, as the page counts it (not while hidden, unfocused or idle); "
          "the server keeps it within its own count of the time between changes. Absent: the server's count")


class RewindRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"version": 30, "keep": 22}]})

    version: Version
    keep: Keep = Field(description="how many of the moves played to keep (where the game could still be won)")
    played: Played | None = Field(None, description=PLAYED)


class MoveSpec(Strict):
    """A move as an object; without ``count`` the server fills it in when only one count fits."""

    source: SourcePile = Field(description="the pile the cards come from: tableau-3, or T3 as move text names it")
    count: Count | None = None
    target: TargetPile = Field(description="the pile the cards go to: foundation-1, or F1 as move text names it")
    text: str | None = Field(None, description="ignored: lets a legal_moves entry be sent back as it is")

    @classmethod
    def noun(cls) -> str:
        return "move"


MoveText = Annotated[
    str, Field(max_length=MAX_MOVE_TEXT, description="move text such as 'T1>T3' or 'T1:2>T4'"),
    BeforeValidator(check_move_text),
]
AnyMove = Annotated[
    Annotated[MoveSpec, Tag("object")] | Annotated[MoveText, Tag("text")],
    Discriminator(move_kind),
    BeforeValidator(check_move_kind),
]


class MoveRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"move": "T1>T3", "version": 4}]})

    move: AnyMove = Field(description='send {"source", "count", "target"} or text like "T1>T3"')
    version: Version
    played: Played | None = Field(None, description=PLAYED)
    by: Mover = Field(
        "player", description='who chose the move: "player", or "solution" for a move of the solver\'s line that '
        '"Show solution" plays (it marks the game assisted, and a win it makes is the solution\'s: the view\'s '
        '"won_by")')


class VersionRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"version": 4}]})

    version: Version


class ChangeRequest(VersionRequest):
    """A change of the game that takes nothing but the version it was chosen in (undo, redo, restart, give up, a
    solution shown)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"version": 4, "played": 61.5}]})

    played: Played | None = Field(None, description=PLAYED)


class HintRequest(Strict):
    """Which hint (no body at all: a fair one). An unknown field is refused like any request's: a misspelt
    ``mode`` must not quietly give the other kind of hint."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"mode": "fair"}]})

    mode: Mode = Field("fair", description="fair: from the cards the player has seen; peek: the solver sees them all "
                       "(a peeking hint marks the game assisted)")
    played: Played | None = Field(None, description=PLAYED + " (stored when a peeking hint marks the game assisted)")
    version: Version | None = Field(None, description="the version of the view the hint was asked from, if the "
                                    "client sends it: a hint changes nothing, so it is not checked")


class ResetRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"game": None, "confirm": True}]})

    game: Game | None = Field(None, description="null or absent: every game")
    confirm: Literal[True] = Field(description='resetting statistics needs "confirm": true')

    @model_validator(mode="before")
    @classmethod
    def _confirmed(cls, data: Any) -> Any:
        if isinstance(data, dict) and "confirm" in data and data["confirm"] is not True:
            raise ContractError(f'resetting statistics needs "confirm": true, not {shown(data["confirm"])}')
        return data


class NameRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Ada L."}, {"name": None}]})

    name: DisplayName = Field(description=f"the name the daily race's leaderboard shows for the player: "
                              f"{NAME_MIN} to {NAME_MAX} letters, digits, spaces or {' '.join(PUNCTUATION)} "
                              f"(trimmed), unique on the server whatever the case; null: no name (shown as "
                              f"anonymous). At most {NAME_CHANGES} changes a day")
