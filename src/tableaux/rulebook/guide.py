"""What a player's screen needs to know about a game besides its rules: where each pile sits on the table, what
each pile is called in a sentence, and the rules in words.

Named tuples made with :func:`collections.namedtuple`, not dataclasses or ``typing.NamedTuple``, so that a quick
command (which imports the games) loads nothing more (tests/cli/test_cli_startup.py); the annotations in their
bodies are for type checkers and for the web API's models, which are derived from them; they assign nothing, since
a value there would hide the field (the defaults are in each ``namedtuple`` call). The JSON shapes of the
rules in words (``Paragraph``, ``Items``) and the kinds of pile (``PileKind``) are kept in :mod:`.shapes`, with
``typing``, and handed out from here by name.

Each game declares these next to its rules (its :class:`~tableaux.rulebook.engine.Rules` subclass), so a game
added to the registry brings its table and its rules page with it, and no front end writes a game's name into
its own code. The browser's page gets them from ``GET /api/games/info``, in the page's language.

The rules in words are a short list of blocks (:data:`Guide`): paragraphs and bulleted lists of whole
sentences. A sentence may mark words with ``<b>`` and keys with ``<kbd>``, and nothing else; translations keep
the markup of their English text (tests/project/test_i18n.py), and the page builds those two elements itself,
so no markup from a catalogue is ever parsed as HTML.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from .shapes import Items, Paragraph


class Spot(namedtuple("Spot", "pile kind row col tall side drop group", defaults=(None, None, None, 0, None))):
    """Where one pile sits: column and row of the game's grid, how it shows its cards, and its place on the
    game's other grids, when it has them: ``tall`` (column, row) on the narrower grid of a portrait screen,
    ``side`` (column, row, rows it spans) on the wider one of a short window, where the top row of piles
    stands at the sides of the fans. ``drop``: steps the pile stands lower than its row on a wide screen (the
    eagle's wings). ``group``: piles drawn together, in a row of their own on a wide table, spread evenly (King
    Albert's reserve), or in a column at the first one's place on the side grid."""

    __slots__ = ()
    pile: str
    kind: str  # a :data:`tableaux.rulebook.shapes.PileKind`
    row: int
    col: int | None
    tall: tuple[int, int] | None
    side: tuple[int, int, int] | None
    drop: int
    group: str | None


class Shape(namedtuple("Shape", "cols depth stacked steps rows beside", defaults=(False, 0, 2, 0))):
    """A grid of the table: its columns, and the height its rows need in card widths (the first row plus the
    room the fans below it usually take; longer fans are squeezed to fit). ``stacked``: a row of piles lies
    below fans, which therefore may not open up into spare height. ``steps``: piles step down by up to this
    many steps into the height the window has to spare; their fans never open up. ``rows``: the rows of piles,
    and ``beside``: the columns of overlapping piles (the pile labels, when shown, take a line above each row
    and a narrow column beside each of those)."""

    __slots__ = ()
    cols: int
    depth: float
    stacked: bool
    steps: int
    rows: int
    beside: int


class Layout(namedtuple("Layout", "spots wide tall side", defaults=(None, None))):
    """The table of one game: every pile's spot, in reading order (the order the keyboard's Left and Right
    walk), its grid on a wide screen and, where the game has them, on a tall one (a phone held upright) and on
    a side one (a short window: a phone held sideways). The page chooses among them for its window."""

    __slots__ = ()
    spots: tuple[Spot, ...]
    wide: Shape
    tall: Shape | None
    side: Shape | None


def __getattr__(name: str) -> object:
    """The JSON shapes of the rules in words, kept in :mod:`.shapes`, handed out from here."""
    if name in ("PileKind", "Paragraph", "Items", "Block", "Guide"):
        from . import shapes

        return getattr(shapes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def paragraph(text: str) -> Paragraph:
    return {"kind": "paragraph", "text": text}


def items(*texts: str) -> Items:
    return {"kind": "list", "items": list(texts)}


def numbered(kind: str, count: int) -> list[str]:
    """``kind-1`` to ``kind-count``: the names of a row of piles."""
    return [f"{kind}-{i}" for i in range(1, count + 1)]
