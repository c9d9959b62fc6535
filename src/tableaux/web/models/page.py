"""What the page needs before its first game: the games on offer, each one's table layout and rules in words,
and the page's messages in a language.

None of it depends on a game being played; it is the page's setting, so it stands apart from the play answers.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Discriminator, Field

from ...rulebook.deal import MAX_DEAL
from ...rulebook.guide import Shape as LibraryShape
from ...rulebook.guide import Spot as LibrarySpot
from ...rulebook.shapes import Items as LibraryItems
from ...rulebook.shapes import Paragraph as LibraryParagraph
from ...rulebook.shapes import PileKind
from ..fields import GameName, LanguageCode, PileName, RankLetter, derive
from .answer import Answer, NonNegative

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
