"""The web API's contract: every request body and every answer, as pydantic models.

These models are the one description of the API. FastAPI validates request
bodies with them (they are the routes' body parameters), and ``/openapi.json``
is generated from them and from what each route declares (its operation id,
the model of each answer and the links from one answer to the next request).
The answers built from the library's results (the position, its cards, a
move, a hint, the chance to win, the statistics) are the library's own shapes,
derived from them field by field and narrowed only where the API promises
more: a face-down card, for instance, is exactly ``{"card": null, "up":
false}``, so an answer that leaked one would not match. The test suite holds
the server to this description: every answer it receives is checked against
its model (:class:`tableaux.web.middleware.AnswerCheck`), and
tests/web/test_fuzz_openapi.py runs schemathesis against it.

Each refusal must say what was wrong and what is accepted, so the validators
of the models' fields (in :mod:`tableaux.web.fields`) raise errors with finished
sentences (:class:`ContractError`), which the app's 422 handler passes on as
they are. The checks that depend on the game being played (a pile Eagle Wing
does not have, an illegal move) are made by the engine, after these.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Discriminator, Field, Tag, model_validator

from ..advice.fair import Chance as LibraryChance
from ..advice.hints import HintDict
from ..catalogue import GRADES
from ..play.game import Position as PositionDict
from ..rulebook.deal import MAX_DEAL
from ..rulebook.engine import CardDict, MoveDict
from ..rulebook.guide import Shape as LibraryShape
from ..rulebook.guide import Spot as LibrarySpot
from ..rulebook.shapes import Items as LibraryItems
from ..rulebook.shapes import Paragraph as LibraryParagraph
from ..rulebook.shapes import PileKind
from .fields import (
    CARD_CODE,
    DATE,
    GAME_ID,
    MAX_COUNT,
    MAX_MOVE_TEXT,
    WEB_GAMES,
    ContractError,
    Count,
    Deal,
    DisplayName,
    Flag,
    Game,
    GameName,
    Grade,
    GradeName,
    Keep,
    LanguageCode,
    Mode,
    Pile,
    PileName,
    Played,
    RankLetter,
    Strict,
    Version,
    check_move_kind,
    check_move_text,
    derive,
    move_kind,
)
from .names import NAME_MAX, NAME_MIN, PUNCTUATION
from .player_stats import GameStats as PlayerStats
from .standings import NAME_CHANGES, TOP


# --- requests ------------------------------------------------------------------------------
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

    source: Pile = Field(description="the pile the cards come from")
    count: Count | None = None
    target: Pile = Field(description="the pile the cards go to")
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


class VersionRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"version": 4}]})

    version: Version


class ChangeRequest(VersionRequest):
    """A change of the game that takes nothing but the version it was chosen in (undo, redo, restart, give up)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"version": 4, "played": 61.5}]})

    played: Played | None = Field(None, description=PLAYED)


class HintRequest(BaseModel):
    """Which hint (no body at all: a fair one). Other fields are ignored, as before the mode existed."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"mode": "fair"}]})

    mode: Mode = Field("fair", description="fair: from the cards the player has seen; peek: the solver sees them all "
                       "(a peeking hint marks the game assisted)")
    played: Played | None = Field(None, description=PLAYED + " (stored when a peeking hint marks the game assisted)")

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            raise ContractError(f"request body must be a JSON object (or nothing), not {type(data).__name__}")
        return data


class ResetRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"game": None, "confirm": True}]})

    game: Game | None = Field(None, description="null or absent: every game")
    confirm: Literal[True] = Field(description='resetting statistics needs "confirm": true')

    @model_validator(mode="before")
    @classmethod
    def _confirmed(cls, data: Any) -> Any:
        if isinstance(data, dict) and "confirm" in data and data["confirm"] is not True:
            raise ContractError(f'resetting statistics needs "confirm": true, not {data["confirm"]!r}')
        return data


class NameRequest(Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Ada L."}, {"name": None}]})

    name: DisplayName = Field(description=f"the name the daily race's leaderboard shows for the player: "
                              f"{NAME_MIN} to {NAME_MAX} letters, digits, spaces or {' '.join(PUNCTUATION)} "
                              f"(trimmed), unique on the server whatever the case; null: no name (shown as "
                              f"anonymous). At most {NAME_CHANGES} changes a day")


# --- responses ---------------------------------------------------------------------------
class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


NonNegative = Annotated[int, Field(ge=0)]
Share = Annotated[float, Field(ge=0, le=1)]
CardCode = Annotated[str, Field(pattern=CARD_CODE)]
DealNumber = Annotated[int, Field(ge=0, le=MAX_DEAL)]

# The position, the move and the hint are the library's shapes (tableaux.play.game.Position, engine.CardDict,
# engine.MoveDict, hints.HintDict), each narrowed only where the API promises more than the library's types say.
FaceUpCard = derive("FaceUpCard", CardDict, Answer, "A card the player can see.",
                    card=CardCode, up=Literal[True])
FaceDownCard = derive("FaceDownCard", CardDict, Answer, "A face-down card: its identity is never sent.",
                      card=None, up=Literal[False])
Card = FaceUpCard | FaceDownCard
Position = derive(
    "Position", PositionDict, Answer,
    "``Game.public_position()``: the library's position with every card the player cannot see hidden. "
        "``stock_left``, ``reserve_left``, ``base_rank``, ``base_card`` and ``redeals_left``: games with a stock.",
    game=GameName, deal=DealNumber, piles=dict[PileName, list[Card]], score=Annotated[int, Field(ge=0, le=52)],
    moves_played=NonNegative, stock_left=NonNegative, reserve_left=NonNegative, base_rank=RankLetter,
    base_card=CardCode, redeals_left=NonNegative,
)
LegalMove = derive("LegalMove", MoveDict, Answer, "``Move.to_dict()``: a move and its notation.",
                   source=PileName, count=Annotated[int, Field(ge=1, le=MAX_COUNT)], target=PileName)
Hint = derive(
    "Hint", HintDict, Answer,
    "``Hint.to_dict()`` (tableaux.advice.hints): the suggested move, where it came from, and whether the solver "
        "looked at face-down cards (``peeks``, a hint asked for in peek mode).",
    move=LegalMove | None,
)


class View(Answer):
    """Everything a player's page shows of one game."""

    id: Annotated[str, Field(pattern=GAME_ID)]
    version: Annotated[int, Field(ge=0)]
    game: GameName
    title: str
    deal: Annotated[int, Field(ge=0, le=MAX_DEAL)]
    position: Position
    legal_moves: list[LegalMove]
    home_moves: dict[PileName, LegalMove]
    safe_moves: list[LegalMove] = Field(
        description="moves the solver proves can never cost a win (what 'move safe cards home' plays)"
    )
    finish: list[LegalMove] = Field(
        description="when no choice is left to make, the moves that play the game home (what 'Finish' plays): "
        "every card is on view and safe moves alone win; else empty. Worked out from the cards on view only")
    elapsed_seconds: Annotated[float, Field(ge=0)] = Field(
        description="the time played up to the last change: what the page counted, within the server's own count "
        "of the time between changes; it starts at the first move")
    moves: Annotated[int, Field(ge=0)]
    won: bool
    over: bool
    given_up: bool = Field(description="the player gave this game up: it is finished and lost")
    assisted: bool = Field(description="the solver showed the way: the statistics count this game apart")
    daily: Annotated[str, Field(pattern=DATE)] | None = Field(description="the UTC date of this daily deal, or null")
    grade: GradeName | None = Field(description="the grade, when the deal was picked as winnable (or is a daily)")
    par: Annotated[int, Field(ge=1)] | None = Field(
        None, description="the deal's par, when the graded catalogue holds the deal (every graded and daily deal): "
        "the fewest moves of a winning line the solver found")


class HintAnswer(Answer):
    hint: Hint
    view: View


class Worked(Answer):
    version: NonNegative = Field(description="the version of the game it was worked out for")


Chance = derive(
    "Chance", LibraryChance, Worked,
    "``tableaux.advice.fair.win_chance`` of the game's observation (``Chance.to_dict()``): the chance that the "
        "cards the player has not seen lie in a winnable way. An upper bound on what a player who does not "
        "peek can achieve. ``share``: the share of sampled layouts the solver wins; ``low`` and ``high``: its "
        "95% interval.",
    share=Share, low=Share, high=Share, samples=NonNegative, decided=NonNegative, winnable=NonNegative,
)


class Lost(Answer):
    """Where a lost or given-up game was lost (``tableaux.advice.fair.where_lost``; the game is over, so it may look
    at every card). ``verdict``: ``lost`` (``moves[move_index]`` was the first move after which no line wins),
    ``winnable`` (the last position can still be won), ``never`` (the deal was never winnable) or ``unknown``
    (the solver could not decide within its budget)."""

    version: Annotated[int, Field(ge=0)]
    verdict: Literal["lost", "winnable", "never", "unknown"]
    move_index: Annotated[int, Field(ge=0)] | None = None
    move: str | None = None
    certain: bool = True
    last_possible: Annotated[int, Field(ge=0)] | None = None
    line: list[str] = Field(default_factory=list, description="a winning line from just before that move")
    cards: list[str] = Field(default_factory=list, description="the cards that move took, by code, as the player "
                             "saw them (face-down ones are left out)")


class Solution(Answer):
    """The solver's winning line from the current position (it looks at the face-down cards: ``peeks``)."""

    verdict: Literal["winnable", "unwinnable", "unknown"]
    moves: list[str]
    peeks: Literal[True]
    view: View


class Resume(Answer):
    """The player's unfinished game, or null when there is none (a new player)."""

    view: View | None


GridPlace = Annotated[int, Field(ge=1, le=16)]
Spot = derive(
    "Spot", LibrarySpot, Answer,
    "Where one pile sits on the table (``tableaux.rulebook.guide.Spot``): its column and row, how it shows its "
        "cards, its place on a portrait screen's grid (``tall``), how many steps lower it stands (``drop``), and "
        "the row of piles it is drawn in instead of the grid (``group``).",
    pile=PileName, kind=PileKind, row=GridPlace, col=GridPlace | None, tall=tuple[GridPlace, GridPlace] | None,
    side=tuple[GridPlace, GridPlace, GridPlace] | None, drop=NonNegative,
)
Shape = derive(
    "Shape", LibraryShape, Answer,
    "A grid of the table (``tableaux.rulebook.guide.Shape``): its columns, the height its rows need in card "
        "widths, whether a row lies below its fans (``stacked``), and how many steps piles may step down.",
    cols=GridPlace, depth=Annotated[float, Field(gt=0)], steps=NonNegative, rows=GridPlace, beside=NonNegative,
)


class Layout(Answer):
    """The table of one game: every pile's spot in reading order, its grid on a wide screen and, for a game that
    stands upright on a phone, on a tall one (``tableaux.rulebook.guide.Layout``)."""

    spots: list[Spot]  # type: ignore[valid-type]
    wide: Shape  # type: ignore[valid-type]
    tall: Shape | None  # type: ignore[valid-type]
    side: Shape | None  # type: ignore[valid-type]


Paragraph = derive("Paragraph", LibraryParagraph, Answer, "A paragraph of the rules: one or more sentences.")
Items = derive("Items", LibraryItems, Answer, "A bulleted list in the rules, one sentence or more per item.")


class RulesPage(Answer):
    """A game's rules in a player's words, in the request's language. Its sentences may mark words with
    ``<b>`` and keys with ``<kbd>``, nothing else (the page builds those elements itself)."""

    title: str
    guide: list[Annotated[Paragraph | Items, Discriminator("kind")]]  # type: ignore[valid-type]
    safe_cards: str = Field(description="which cards 'move safe cards home' plays, in a sentence (empty: none)")


class GameEntry(Answer):
    """One game the browser offers, and what its page needs to know about it."""

    name: GameName
    title: str
    piles: list[PileName]
    labels: dict[PileName, str] = Field(description="each pile's short name in move notation (T3, F1...)")
    words: dict[PileName, str] = Field(description="how a sentence names each pile (tableau 3, the trunk), in the "
                                       "request's language")
    has_stock: bool = Field(description="whether the game deals from a stock (a 'deal' key and stock fields)")
    layout: Layout
    rules: RulesPage


class GameInfo(Answer):
    """What the page needs before its first game: the games on offer and the facts it shows, so that it
    repeats none of them."""

    games: list[GameEntry] = Field(description="the games the browser offers, the default first")
    max_deal: Literal[MAX_DEAL] = Field(description="deal numbers run from 0 to this")  # type: ignore[valid-type]
    rank_labels: dict[RankLetter, str] = Field(
        description="how each rank letter of the card codes reads on a card face (T reads 10)"
    )
    leaderboard: bool = Field(description="whether this server runs the daily race (its leaderboard and display "
                              "names); false: tableaux serve --no-leaderboard")


class WinRate(Answer):
    win_rate: Share = Field(description="games won of games played (0 before the first game)")


Seconds = Annotated[float, Field(ge=0)]
GameStats = derive(
    "GameStats", PlayerStats, WinRate,
    "One game's statistics for the player (``tableaux.web.player_stats.GameStats.to_dict()``).",
    played=NonNegative, won=NonNegative, current_streak=NonNegative, best_streak=NonNegative,
    best_time=Seconds | None, worst_time=Seconds | None, fewest_moves=Annotated[int, Field(ge=1)] | None,
    assisted=Annotated[int, Field(ge=0, description="games played with the solver's help, counted apart")],
    daily_played=NonNegative, daily_won=NonNegative,
    daily_streak=Annotated[int, Field(ge=0, description="UTC days in a row with the daily deal won")],
    best_daily_streak=NonNegative,
)
AllStats = dict[GameName, GameStats]


class Language(Answer):
    code: LanguageCode
    name: str = Field(description="the language's name in that language, for the language menu")


class Translations(Answer):
    """The page's messages in one language. A message missing here is shown in English (its msgid)."""

    lang: LanguageCode = Field(description="the language chosen: the one asked for, or the best for Accept-Language")
    languages: list[Language]
    plural_categories: list[str] = Field(
        description="the CLDR plural category (Intl.PluralRules) of each form in `plurals`, in order"
    )
    messages: dict[str, str] = Field(description="English text (msgid) to its translation")
    plurals: dict[str, list[str]] = Field(description="English singular (msgid) to the translated plural forms")
    ranks: dict[str, str] = Field(description="each rank's letter (`A23456789TJQK`) to its name in this language")
    suits: dict[str, str] = Field(description="each suit's letter (`CDHS`) to its name in this language")
    card_name: str = Field(description="how a card is named: `{rank} of {suit}` in English, `{suit}-{rank}` in German")


class RaceEntry(Answer):
    """One place on the daily race's leaderboard: nothing in it but a name, moves, a time and a rank."""

    rank: Annotated[int, Field(ge=1)] = Field(description="1 for the best; wins equal in moves and time share one")
    name: Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX)] | None = Field(
        description="the player's display name; null for a player without one (the page shows 'Anonymous')")
    moves: Annotated[int, Field(ge=1)] = Field(description="moves of the winning game (fewer ranks higher)")
    seconds: Annotated[float, Field(ge=0)] = Field(
        description="the server's time from the game's first change to its win, cut to a tenth (less ranks higher "
        "among equal moves): the server's own clock, not the time the page counts")
    you: bool = Field(description="this is the asking player's entry")


class Leaderboard(Answer):
    """The daily race of one game for today (UTC): the unassisted wins of the daily deal, fewest moves first, then
    the shortest time by the server's clock. Assisted, given-up and unfinished games are not ranked."""

    game: GameName
    date: Annotated[str, Field(pattern=DATE)] = Field(description="the UTC date of the daily deal")
    top: list[RaceEntry] = Field(max_length=TOP, description=f"the first {TOP} places")
    you: RaceEntry | None = Field(description="the asking player's place, wherever it is (null: not ranked)")
    status: Literal["ranked", "not-played", "playing", "assisted", "given-up", "played-before"] = Field(
        description="where the asking player's game of today's deal stands: ranked; not played yet; still being "
        "played; won or played with the solver's help (not ranked); given up; or won after playing another "
        "game of the same deal first (not ranked)")
    ranked: Annotated[int, Field(ge=0)] = Field(description="how many players are ranked today")
    name: Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX)] | None = Field(
        description="the asking player's display name (null: none, shown as anonymous)")
    changes_left: Annotated[int, Field(ge=0, le=NAME_CHANGES)] = Field(
        description=f"changes of that name left for now (at most {NAME_CHANGES} in 24 hours)")


class NameAnswer(Answer):
    """The player's display name on the daily race's leaderboard."""

    name: Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX)] | None = Field(
        description="null: none (the leaderboard shows the player as anonymous)")
    changes_left: Annotated[int, Field(ge=0, le=NAME_CHANGES)] = Field(
        description=f"changes of name left for now (at most {NAME_CHANGES} in 24 hours)")


class Error(Answer):
    error: Annotated[str, Field(min_length=1, description="what was wrong and what is accepted")]


class Conflict(Answer):
    """A stale version: nothing was changed; here is the game as it is now."""

    error: Annotated[str, Field(min_length=1)]
    view: View


class Unavailable(Answer):
    """Nothing could be done just now: the saved games database is away (503), its disk is full (507), or the
    solver's workers are all busy (503). The Retry-After header says when to try again, as ``retry_after`` does."""

    error: Annotated[str, Field(min_length=1, description="what happened, and that earlier moves are safe")]
    cause: Literal["database", "disk", "solver"]
    outcome: Literal["unchanged", "unknown"] = Field(description=(
        "unchanged: this request changed nothing. unknown: a change was on its way to the database when it "
        "stopped answering, so it may have been stored; send the same request again with the same "
        "Idempotency-Key to find out (it is never applied twice)"))
    retry_after: Annotated[int, Field(ge=1, description="seconds to wait before trying again")]


# --- what the routes declare ------------------------------------------------------------
ERRORS = {
    400: "the body is not valid JSON, or Content-Length is not a number",
    401: "an X-Player-Token this server did not issue",
    404: "no such game for this player (another player's game answers the same)",
    409: "the game changed since that version",
    413: "the body is over 16 KiB",
    415: "a body not sent as application/json",
    422: "the request is well-formed JSON but not acceptable; the error says why",
    429: "too many new games this minute, for this player or this client address: try again after Retry-After",
    503: "the saved games database cannot be reached (or, for the solver's answers, its workers are all busy): "
         "try again after Retry-After; the answer says whether this request changed anything",
    507: "the saved games database's disk is full: nothing was changed",
}
BODY_ERRORS = (400, 413, 415, 422)
UNAVAILABLE = (503, 507)
"""What every route that reads or writes the database may answer."""
TOKEN_HEADER = "X-Player-Token"
KEY_HEADER = "Idempotency-Key"
KEY_PATTERN = r"^[A-Za-z0-9_-]{1,64}$"
RETRY_ANSWER = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
TOKEN_ANSWER = {
    TOKEN_HEADER: {
        "description": "the player's token, when the request sent it as X-Player-Token or the server made a new "
        "player: send it back as X-Player-Token to act as the same player",
        "schema": {"type": "string"},
    }
}


def game_links(view: str) -> dict[str, Any]:
    """OpenAPI links from an answer holding a view (at JSON pointer ``view``) to what can be done next.

    A generic client that follows links (schemathesis's stateful phase) then
    plays real games as the page does: the game id and the version come from
    the previous answer, and the player token from its X-Player-Token header.
    """
    common = {"game_id": f"$response.body#{view}/id", f"header.{TOKEN_HEADER}": f"$response.header.{TOKEN_HEADER}"}
    version = {"version": f"$response.body#{view}/version"}
    links: dict[str, Any] = {"getGame": {"operationId": "getGame", "parameters": common},
                             "hint": {"operationId": "hint", "parameters": common}}
    for op in ("undo", "redo", "restart"):
        links[op] = {"operationId": op, "parameters": common, "requestBody": version}
    links["move"] = {"operationId": "move", "parameters": common,
                     "requestBody": {**version, "move": f"$response.body#{view}/legal_moves/0"}}
    return links


def answers(success: int, errors: tuple[int, ...], links: str | None = None,
            also: dict[int, str] | None = None, why: dict[int, str] | None = None) -> dict[int | str, Any]:
    """A route's ``responses`` beside its model: headers and links of its success, and each error it can give.

    ``also``: other success statuses with the same model (and their descriptions); ``why``: what an error means
    on this route, where it is not what :data:`ERRORS` says.
    """
    done: dict[str, Any] = {"description": "done", "headers": TOKEN_ANSWER}
    if links is not None:
        done["links"] = game_links(links)
    out: dict[int | str, Any] = {success: done}
    for status, description in (also or {}).items():
        out[status] = {**done, "description": description}
    for code in sorted({*errors, 401, *UNAVAILABLE}):
        model = Conflict if code == 409 else Unavailable if code in UNAVAILABLE else Error
        headers = {**TOKEN_ANSWER, **RETRY_ANSWER} if code in (429, *UNAVAILABLE) else TOKEN_ANSWER
        out[code] = {"model": model, "description": (why or {}).get(code, ERRORS[code]), "headers": headers}
        if code == 409:  # the current view comes with a conflict: play on from it
            out[code]["links"] = game_links("/view")
    return out


def route(success: int, model: Any, errors: tuple[int, ...], links: str | None = None,
          also: dict[int, str] | None = None, why: dict[int, str] | None = None) -> dict[str, Any]:
    """What a route declares: its success status and model, and every other answer (see :func:`answers`).

    The model is the contract: ``/openapi.json`` describes it, and with answer checking on (the test suite
    turns it on) every answer is validated against it (:class:`tableaux.web.middleware.AnswerCheck`).
    """
    responses = answers(success, errors, links, also, why)
    for status in also or {}:
        responses[status]["model"] = model
    return {"status_code": success, "response_model": model, "responses": responses}
