"""The building blocks of the web API's contract: field types, their validators, and the strict object.

Each refusal must say what was wrong and what is accepted, so the validators
here raise errors with finished sentences (:class:`ContractError`), which the
app's 422 handler passes on as they are. The checks that depend on the game
being played (a pile Eagle Wing does not have, an illegal move) are made by
the engine, after these.

The request and answer models built from these live in
:mod:`tableaux.web.models`, the one description of the API.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Annotated, Any, Literal, NotRequired, get_args, get_origin, get_type_hints

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationInfo, create_model, model_validator
from pydantic_core import PydanticCustomError

from ..advice.hints import HINT_MODES
from ..catalogue import GRADES
from ..i18n import _, languages
from ..rulebook import deal
from ..rulebook.cards import RANKS
from ..rulebook.deal import MAX_DEAL
from ..rulebook.engine import Rules, short_name
from ..rulebook.registry import browser_games
from . import names

WEB_RULES: tuple[Rules, ...] = browser_games()
"""The games the browser offers, in the order of ``tableaux.GAMES``."""
WEB_GAMES: tuple[str, ...] = tuple(r.name for r in WEB_RULES)
PILES: tuple[str, ...] = tuple(sorted({name for r in WEB_RULES for name in r.pile_names}))
GameName = Literal[WEB_GAMES]  # type: ignore[valid-type]
LANGUAGES: tuple[str, ...] = languages()
"""The languages the page can speak: English and every catalogue under tableaux/i18n/locale."""
LanguageCode = Literal[LANGUAGES]  # type: ignore[valid-type]
GradeName = Literal[GRADES]  # type: ignore[valid-type]
HintMode = Literal[HINT_MODES]  # type: ignore[valid-type]
MOVERS = ("player", "solution")
"""Who may choose a move: the player, or the solver's line that "Show solution" plays."""
MoverName = Literal[MOVERS]  # type: ignore[valid-type]
DATE = r"^\d{4}-\d{2}-\d{2}$"
PileName = Literal[PILES]  # type: ignore[valid-type]
LABELS: dict[str, str] = {short_name(pile): pile for pile in PILES}
"""Each pile's name in move notation (T3, S: ``labels`` in ``GET /api/games/info``) and the pile it stands for."""
RankLetter = Literal[tuple(RANKS)]  # type: ignore[valid-type]
MAX_COUNT = 52
MAX_MOVE_TEXT = 64
CARD_CODE = r"^[A2-9TJQK][CDHS]$"
GAME_ID = r"^[A-Za-z0-9_-]{22}$"
"""Game ids are ``secrets.token_urlsafe(16)``: 22 URL-safe characters."""
CONTRACT_ERROR = "tableaux"
"""The error type of every :class:`ContractError`: its message is a finished sentence for the player."""


def ContractError(message: str) -> PydanticCustomError:  # noqa: N802 - raised like an exception class
    """A validation error whose message is shown as it is (braces in it are not placeholders)."""
    return PydanticCustomError(CONTRACT_ERROR, "{message}", {"message": message})


# --- field types: the JSON Schema type, plus a validator that says what is accepted -----------------
def whole_number(value: object) -> int | None:
    """An int for a JSON number with no fractional part (``2`` or ``2.0``, as JSON Schema's ``integer``), else None.

    Booleans and strings are not numbers, and NaN or infinities (which Python's
    JSON reader lets through) are not whole.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def shown(value: object) -> str:
    """A value the client sent, in an error: text in quotes, anything else in JSON's spelling (true, null, 1.5),
    as the client wrote it, not Python's (True, None)."""
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def check_deal(value: object) -> int | None:
    """A JSON deal number: :func:`tableaux.rulebook.deal.check_deal` says which numbers are deals; JSON adds null
    (a random deal) and takes ``17.0`` for 17, as JSON Schema's ``integer`` does."""
    if value is None:
        return None
    number = whole_number(value)
    if number is None:
        raise ContractError(
            f"deal number must be a whole number from 0 to {MAX_DEAL}, or null for a random deal, not {shown(value)}"
        )
    try:
        return deal.check_deal(number)
    except deal.DealError as exc:
        raise ContractError(str(exc)) from None


def check_version(value: object) -> int:
    number = whole_number(value)
    if number is None or number < 0:
        raise ContractError(f"version must be a whole number of at least 0 (from the last view), not {shown(value)}")
    return number


def check_count(value: object) -> int:
    number = whole_number(value)
    if number is None or not 1 <= number <= MAX_COUNT:
        raise ContractError(f"move count must be a whole number from 1 to {MAX_COUNT}, not {shown(value)}")
    return number


def check_game(value: object) -> object:
    if value is not None and (not isinstance(value, str) or value not in WEB_GAMES):
        raise ContractError(f"unknown game {shown(value)}; choose one of {', '.join(WEB_GAMES)}")
    return value


def check_flag(value: object, info: ValidationInfo) -> object:
    if not isinstance(value, bool):
        raise ContractError(f"{info.field_name} must be true or false, not {shown(value)}")
    return value


def check_grade(value: object) -> object:
    if value is not None and (not isinstance(value, str) or value not in GRADES):
        raise ContractError(f"unknown difficulty {shown(value)}; choose one of {', '.join(GRADES)}, or null for any")
    return value


def check_mode(value: object) -> object:
    if not isinstance(value, str) or value not in HINT_MODES:
        raise ContractError(
            f"unknown hint mode {shown(value)}; choose fair (uses only the cards you have seen) "
            "or peek (the solver looks at the face-down cards)"
        )
    return value


def check_mover(value: object) -> object:
    if not isinstance(value, str) or value not in MOVERS:
        raise ContractError(f"unknown mover {shown(value)} as by; choose player (the default) or solution "
                            "(a move of the solver's line that Show solution plays)")
    return value


MAX_PLAYED = 10 * 365 * 24 * 3600.0
"""Ten years in seconds: the most time played a request may state (the server caps it far lower anyway)."""


def check_played(value: object) -> float:
    """A time played in seconds: a finite number, at least 0."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_PLAYED:
        raise ContractError(f"played must be a number of seconds from 0 to {MAX_PLAYED:.0f}, not {shown(value)}")
    return float(value)


def check_keep(value: object) -> int:
    number = whole_number(value)
    if number is None or number < 0:
        raise ContractError(f"keep must be a whole number of moves, at least 0, not {shown(value)}")
    return number


def pile_checker(role: str) -> Callable[[object], str]:
    """The check of a move's ``role`` pile (source or target): text, and a pile's move-notation name (T3) read as
    its full name (tableau-3).

    Whether the game has the pile is the game's to say (:func:`tableaux.web.operations.read_move`, which names the
    piles that game has): a list of every game's piles here would offer King Albert a stock. (A query parameter's
    validator is not told its name, so the role is given here.)
    """
    def check_pile(value: object) -> str:
        if not isinstance(value, str):
            # TRANSLATORS: {role} is "source" or "target", the name of the move's field in a request, in English.
            raise ContractError(_("unknown pile {pile} as move {role}; a pile is named by text, such as tableau-3 or "
                                  "T3").format(pile=shown(value), role=role))
        return LABELS.get(value, value)

    return check_pile


def check_move_text(value: object) -> object:
    if isinstance(value, str) and len(value) > MAX_MOVE_TEXT:
        raise ContractError(f"move text is too long (at most {MAX_MOVE_TEXT} characters)")
    return value


def check_move_kind(value: object) -> object:
    if not isinstance(value, str | dict):
        raise ContractError(
            'move must be an object {"source": pile, "count": n, "target": pile} or move text such as "T1>T3", '
            f"not {type(value).__name__}"
        )
    return value


def move_kind(value: object) -> str:
    """Which form of a move this is (anything else was refused by :func:`check_move_kind`)."""
    return "text" if isinstance(value, str) else "object"


def check_name(value: object) -> str | None:
    """A display name as :func:`tableaux.web.names.read_name` reads it (null: no name)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ContractError(_("name must be text, or null for no name, not {kind}; {accepted}").format(
            kind=type(value).__name__, accepted=names.accepted()))
    try:
        return names.read_name(value)
    except names.NameRefused as exc:
        raise ContractError(str(exc)) from None


Deal = Annotated[Annotated[int, Field(ge=0, le=MAX_DEAL)] | None, BeforeValidator(check_deal)]
DisplayName = Annotated[str | None, BeforeValidator(check_name)]
"""Text of any length in the schema: spaces at either end are trimmed before the length is counted."""
Version = Annotated[
    int, Field(ge=0, description="the version of the view the request was made from"),
    BeforeValidator(check_version),
]
Count = Annotated[int, Field(ge=1, le=MAX_COUNT), BeforeValidator(check_count)]
Game = Annotated[GameName, BeforeValidator(check_game)]
Flag = Annotated[bool, BeforeValidator(check_flag)]
Grade = Annotated[GradeName, BeforeValidator(check_grade)]
Mode = Annotated[HintMode, BeforeValidator(check_mode)]
Mover = Annotated[MoverName, BeforeValidator(check_mover)]
Keep = Annotated[int, Field(ge=0), BeforeValidator(check_keep)]
Played = Annotated[float, Field(ge=0, le=MAX_PLAYED), BeforeValidator(check_played)]
PILE_SCHEMA = {"enum": [*PILES, *LABELS]}
"""Every name of a pile some game has, in full or as move notation writes it; each game takes its own."""
SourcePile = Annotated[str, Field(json_schema_extra=PILE_SCHEMA), BeforeValidator(pile_checker("source"))]
TargetPile = Annotated[str, Field(json_schema_extra=PILE_SCHEMA), BeforeValidator(pile_checker("target"))]


class Strict(BaseModel):
    """An object with exactly the fields below: an unknown or missing field is named in the refusal."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _exactly_these_fields(cls, data: Any) -> Any:
        what = cls.noun()
        if not isinstance(data, dict):
            raise ContractError(f"{what} must be a JSON object, not {type(data).__name__}")
        fields = cls.model_fields
        names = [f.alias or name for name, f in fields.items()]
        unknown = sorted(set(data) - set(names))
        if unknown:
            field = "move field" if what == "move" else "field"
            raise ContractError(f"unexpected {field} {unknown[0]!r}; accepted fields are {', '.join(names)}")
        for name, info in fields.items():
            key = info.alias or name
            if info.is_required() and key not in data:
                field = "move field" if what == "move" else "field"
                why = f"; {info.description}" if info.description else ""
                raise ContractError(f"{field} {key!r} is missing{why}")
        return data

    @classmethod
    def noun(cls) -> str:
        return "request body"



# --- answers derived from the library's shapes ----------------------------------------------------
def library_fields(shape: type) -> dict[str, tuple[Any, bool]]:
    """Each field of a library shape (a TypedDict, a dataclass or a named tuple) with its type and whether it is
    always there.

    A TypedDict's ``NotRequired`` fields may be absent; a dataclass's ``to_dict`` and a named tuple's ``_asdict``
    write every field.
    """
    hints = get_type_hints(shape, include_extras=True)
    if dataclasses.is_dataclass(shape):
        return {f.name: (hints[f.name], True) for f in dataclasses.fields(shape)}
    if issubclass(shape, tuple) and hasattr(shape, "_fields"):
        return {name: (hints[name], True) for name in shape._fields}
    out = {}
    for name, hint in hints.items():
        optional = get_origin(hint) is NotRequired
        out[name] = (get_args(hint)[0] if optional else hint, not optional)
    return out


def derive(name: str, shape: type, base: type[BaseModel], doc: str, /, **tighter: Any) -> type[BaseModel]:
    """The API's model of a library shape: the same fields, each always or sometimes there as in the library,
    with the type the library gives unless ``tighter`` narrows it to what the API guarantees (a face-down
    card has no code, a pile name is one the games have).

    So a field added to, renamed in or dropped from the library's shape is in the API's model at once, and
    a tightening that names no field of the shape is refused here, when the module is imported. (The first
    four arguments are positional, so that any field name can be narrowed.)
    """
    fields = library_fields(shape)
    unknown = sorted(set(tighter) - set(fields))
    if unknown:
        raise TypeError(f"{name}: {shape.__name__} has no field {', '.join(unknown)}")
    spec: dict[str, Any] = {}
    for field, (kind, always) in fields.items():
        chosen = tighter.get(field, kind)
        spec[field] = (chosen, ...) if always else (chosen, None)  # absent, never null
    model: type[BaseModel] = create_model(name, __base__=base, __doc__=doc, __module__=base.__module__, **spec)
    return model
