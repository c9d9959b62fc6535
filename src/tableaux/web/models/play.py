"""The answers about one game being played: its view (the position with face-down cards hidden, the legal moves,
the time), a hint, the chance to win, where it was lost, a solution, the game to resume.

These are the answers a move or a question about the game returns, most of them derived from the library's
own shapes (``Position``, ``CardDict``, ``MoveDict``, ``HintDict``, ``Chance``), so they stand together.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ...advice.fair import Chance as LibraryChance
from ...advice.hints import HintDict
from ...play.game import Position as PositionDict
from ...rulebook.deal import MAX_DEAL
from ...rulebook.engine import CardDict, MoveDict
from ..fields import DATE, GAME_ID, MAX_COUNT, GameName, GradeName, MoverName, PileName, RankLetter, derive
from .answer import Answer, CardCode, DealNumber, NonNegative, Share

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
        "looked at face-down cards (``peeks``, a hint asked for in peek mode). ``message`` names moves in notation; "
        "``reason`` says why with every other move named by its cards and the hint's own move left to "
        "``sentence``, for a page that hides the pile labels.",
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
    won_by: MoverName | None = Field(
        description='who made the winning move of a won game: "solution" when the solver\'s line played for "Show '
        'solution" made it, else "player" (the player\'s win, assisted if help was taken); null until it is won')
    daily: Annotated[str, Field(pattern=DATE)] | None = Field(description="the UTC date of this daily deal, or null")
    grade: GradeName | None = Field(description="the grade, when the deal was picked as winnable (or is a daily)")
    par: Annotated[int, Field(ge=1)] | None = Field(
        None, description="the deal's par, when the graded catalogue holds the deal (every graded and daily deal): "
        "the fewest moves of a winning line the solver found")


class Refusal(Answer):
    """Why the rules refuse a move in the game as it stands (``Rules.why_illegal``): one sentence in the request's
    language, which names no card the player cannot see; null when the move is legal."""

    move: str = Field(description="the move asked about, in notation")
    reason: str | None


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
        "95% interval; ``known``: no card is left to guess, so the one layout there is was solved and the share "
        "is the solver's verdict.",
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
