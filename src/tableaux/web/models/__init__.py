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

# The contract is one package, read as one module (``from tableaux.web.models import View``), in parts by
# what they describe: requests.py (every request body), answer.py (what all answers share), play.py (the
# answers about one game), page.py (what the page needs before its first game), player.py (statistics and the
# daily race), routes.py (the refusals, headers and links every route declares). The routes' field types that
# come from elsewhere (the game's name, the language code, the deal's bounds) are handed out here too.

from ...rulebook.deal import MAX_DEAL
from ..fields import GAME_ID, WEB_GAMES, Game, LanguageCode, SourcePile, TargetPile
from .answer import Answer, CardCode, DealNumber, NonNegative, Share
from .page import (
    GameEntry,
    GameInfo,
    GridPlace,
    Items,
    Language,
    Layout,
    Paragraph,
    RulesPage,
    Shape,
    Spot,
    Translations,
)
from .play import (
    Card,
    Chance,
    FaceDownCard,
    FaceUpCard,
    Hint,
    HintAnswer,
    LegalMove,
    Lost,
    Position,
    Refusal,
    Resume,
    Solution,
    View,
    Worked,
)
from .player import AllStats, GameStats, Leaderboard, NameAnswer, RaceEntry, Seconds, WinRate
from .requests import (
    PLAYED,
    AnyMove,
    ChangeRequest,
    DailyRequest,
    HintRequest,
    MoveRequest,
    MoveSpec,
    MoveText,
    NameRequest,
    NewGameRequest,
    ResetRequest,
    RewindRequest,
    VersionRequest,
)
from .routes import (
    BODY_ERRORS,
    ERRORS,
    HEALTH_REFUSALS,
    KEY_ACCEPTED,
    KEY_HEADER,
    KEY_PATTERN,
    RETRY_ANSWER,
    TOKEN_ANSWER,
    TOKEN_HEADER,
    UNAVAILABLE,
    Conflict,
    Error,
    Health,
    Unavailable,
    answers,
    game_links,
    route,
)

__all__ = [
    "AllStats",
    "Answer",
    "AnyMove",
    "BODY_ERRORS",
    "Card",
    "CardCode",
    "Chance",
    "ChangeRequest",
    "Conflict",
    "DailyRequest",
    "DealNumber",
    "ERRORS",
    "HEALTH_REFUSALS",
    "Error",
    "FaceDownCard",
    "FaceUpCard",
    "GAME_ID",
    "Game",
    "GameEntry",
    "GameInfo",
    "GameStats",
    "GridPlace",
    "Health",
    "Hint",
    "HintAnswer",
    "HintRequest",
    "Items",
    "KEY_ACCEPTED",
    "KEY_HEADER",
    "KEY_PATTERN",
    "Language",
    "LanguageCode",
    "Layout",
    "Leaderboard",
    "LegalMove",
    "Lost",
    "MAX_DEAL",
    "MoveRequest",
    "MoveSpec",
    "MoveText",
    "NameAnswer",
    "NameRequest",
    "NewGameRequest",
    "NonNegative",
    "PLAYED",
    "Paragraph",
    "Position",
    "Refusal",
    "RETRY_ANSWER",
    "RaceEntry",
    "ResetRequest",
    "Resume",
    "RewindRequest",
    "RulesPage",
    "Seconds",
    "Shape",
    "Share",
    "Solution",
    "SourcePile",
    "Spot",
    "TargetPile",
    "TOKEN_ANSWER",
    "TOKEN_HEADER",
    "Translations",
    "UNAVAILABLE",
    "Unavailable",
    "VersionRequest",
    "View",
    "WEB_GAMES",
    "WinRate",
    "Worked",
    "answers",
    "game_links",
    "route",
]
