"""The text board: a position drawn as lines of text, as the terminal shows it.

One drawing for every text view of a game: ``tableaux play`` and ``tableaux
deal`` print these lines in colour, and ``str(game)`` gives them as plain text.
It draws from a public position (:meth:`Game.public_position`), so it never
learns what a face-down card is and cannot show one.

A line is drawn as runs: pieces of text, each with the ``rich`` style it is shown in (:func:`draw`).
:func:`render` turns them into ``rich`` Text for a colour terminal; plain text needs no more than the runs,
so ``str(game)`` and the line mode printing to a pipe (:mod:`tableaux.terminal.plain`) never load ``rich``,
whose import costs more than the rest of a command's start-up (``python benchmarks/cli.py``). Each run is one
span of the Text that :func:`render` makes, so a colour terminal gets exactly the escape codes it always got.
"""

from __future__ import annotations

from collections import namedtuple

from ..i18n import _
from ..rulebook.cards import RANK_LABELS
from ..rulebook.engine import short_name

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from typing import Any

    from rich.text import Text

COLUMN = 5
"""Screen width of one pile column: a 3-character card plus a gap."""
TRUNK = COLUMN + 3
"""Eagle Wing's reserve column, a little wider so it stands apart from the wings."""

Run = tuple[str, str]
"""A piece of a line and its ``rich`` style (``""``: none)."""
Line = list[Run]


class Glyphs(namedtuple("Glyphs", "suits back empty")):
    """Suit signs and card backs; plain letters for terminals that cannot show the symbols."""

    __slots__ = ()
    suits: dict[str, str]
    back: str
    empty: str


UNICODE = Glyphs({"C": "♣", "D": "♦", "H": "♥", "S": "♠"}, "▒▒▒", " · ")
ASCII = Glyphs({"C": "C", "D": "D", "H": "H", "S": "S"}, "###", " - ")


def card_label(code: str, glyphs: Glyphs = UNICODE) -> str:
    """How a face-up card reads on screen: ``10♥``, `` A♠`` (always 3 wide, so columns line up)."""
    return f"{RANK_LABELS[code[0]]}{glyphs.suits[code[1]]}".rjust(3)


def card_run(card: dict[str, Any], glyphs: Glyphs) -> Run:
    """A card as it lies: its label in its colour, or a back."""
    if not card["up"] or card["card"] is None:
        return glyphs.back, "blue"
    code = card["card"]
    return card_label(code, glyphs), "bold red" if code[1] in "DH" else "bold"


def card_text(card: dict[str, Any], glyphs: Glyphs) -> Text:
    """A card as ``rich`` Text, styled as on the board."""
    from rich.text import Text

    text, style = card_run(card, glyphs)
    return Text(text, style=style)


def top_run(pile: list[dict[str, Any]], glyphs: Glyphs) -> Run:
    return card_run(pile[-1], glyphs) if pile else (glyphs.empty, "dim")


def cell(run: Run, width: int = COLUMN) -> Run:
    """``run`` padded to a column, the padding in its style."""
    text, style = run
    return text.ljust(width), style


def blank(width: int = COLUMN) -> Run:
    return " " * width, ""


def label(name: str, width: int = COLUMN) -> Run:
    return cell((short_name(name).rjust(3), "cyan"), width)


def plain(line: Line) -> str:
    return "".join(text for text, _style in line)


def rstrip(line: Line) -> Line:
    """``line`` without the whitespace at its end, the runs cut where it ends (as rich's ``Text.rstrip``)."""
    return cut(line, 0, len(plain(line).rstrip()))


def cut(line: Line, start: int, end: int) -> Line:
    """The characters ``start`` to ``end`` of ``line``, each run cut to them (as slicing a rich Text)."""
    out, at = [], 0
    for text, style in line:
        piece = text[max(0, start - at): max(0, end - at)]
        if piece:
            out.append((piece, style))
        at += len(text)
    return out


def row(cells: list[Run]) -> Line:
    return rstrip([(" ", ""), *cells])


def columns(piles: list[list[dict[str, Any]]], glyphs: Glyphs) -> list[Line]:
    """Tableau piles drawn as columns, bottom card at the top of the screen as on a table."""
    height = max((len(p) for p in piles), default=0)
    lines = []
    for depth in range(max(height, 1)):
        cells = []
        for pile in piles:
            if depth < len(pile):
                cells.append(cell(card_run(pile[depth], glyphs)))
            elif depth == 0:
                cells.append(cell((glyphs.empty, "dim")))
            else:
                cells.append(blank())
        lines.append(row(cells))
    return lines


def header(position: dict[str, Any]) -> list[Line]:
    title = _("{game}  deal {deal}").format(game=_(position["title"]), deal=position["deal"])
    score = _("Score {score}   Moves {moves}").format(score=position["score"], moves=position["moves_played"])
    lines: list[Line] = [[(f"{title}    {score}", "bold")]]
    if position.get("status"):
        lines.append([(position["status"], "")])
    return lines


def of_kind(names: list[str], kind: str) -> list[str]:
    """The piles of one kind (``tableau``, ``foundation``...) in the game's order: layouts come from pile names."""
    return [n for n in names if n.partition("-")[0] == kind]


def draw_reserve_row(piles: dict[str, list[dict[str, Any]]], glyphs: Glyphs) -> list[Line]:
    """Foundations above the tableau, reserve cells in a row below (King Albert)."""
    names = list(piles)
    foundations, tableau, reserve = (of_kind(names, k) for k in ("foundation", "tableau", "reserve"))
    lines = [row([label(n) for n in foundations]), row([cell(top_run(piles[n], glyphs)) for n in foundations])]
    lines += [[], row([label(n) for n in tableau])]
    lines += columns([piles[n] for n in tableau], glyphs)
    lines += [[], row([label(n) for n in reserve]), row([cell(top_run(piles[n], glyphs)) for n in reserve])]
    return lines


def count_run(n: int) -> Run:
    return cell((f"{n:>3}", "dim"))


def draw_stock_and_wings(piles: dict[str, list[dict[str, Any]]], glyphs: Glyphs) -> list[Line]:
    """Stock, waste and foundations on top; the tableau as two wings either side of one reserve pile (Eagle Wing)."""
    names = list(piles)
    trunk_at = names.index("reserve")
    foundations = of_kind(names, "foundation")
    left, right = of_kind(names[:trunk_at], "tableau"), of_kind(names[trunk_at:], "tableau")
    gap = blank()
    stock, waste, reserve = piles["stock"], piles["waste"], piles["reserve"]
    lines = [
        row([label("stock"), label("waste"), gap, *[label(n) for n in foundations]]),
        row([cell(top_run(stock, glyphs)), cell(top_run(waste, glyphs)), gap,
             *[cell(top_run(piles[n], glyphs)) for n in foundations]]),
        row([count_run(len(stock)), count_run(len(waste))]),
        [],
        row([*[label(n) for n in left], ("  ", ""), label("reserve", TRUNK - 2), *[label(n) for n in right]]),
    ]
    body = columns([piles[n] for n in (*left, *right)], glyphs)
    # The reserve ("trunk") sits between the wings: its top card (face down until
    # only the bottom card is left) and how many cards it holds.
    top = top_run(reserve, glyphs)
    trunk = [[("  ", ""), top, blank(TRUNK - 2 - len(top[0]))], [cell((f"  {len(reserve):>3}", "dim"), TRUNK)]]
    while len(body) < len(trunk):
        body.append([])
    out = []
    split = 1 + len(left) * COLUMN
    for i, line in enumerate(body):
        left_part = cut(line, 0, split)
        left_part.append(blank(split - len(plain(left_part))))
        out.append(rstrip([*left_part, *(trunk[i] if i < len(trunk) else [blank(TRUNK)]), *cut(line, split, 1 << 30)]))
    return lines + out


def draw(position: dict[str, Any], glyphs: Glyphs = UNICODE) -> list[Line]:
    """The board as lines of runs. Give it a public position: it draws whatever cards it is given."""
    piles = position["piles"]
    body = draw_stock_and_wings(piles, glyphs) if "stock" in piles else draw_reserve_row(piles, glyphs)
    return [*header(position), [], *body]


def text_of(line: Line) -> Text:
    """One line as ``rich`` Text: a span for each styled run."""
    from rich.text import Text

    text = Text()
    for piece, style in line:
        text.append(piece, style or None)
    return text


def render(position: dict[str, Any], glyphs: Glyphs = UNICODE) -> list[Text]:
    """The board as lines of styled ``rich`` Text, for a colour terminal."""
    return [text_of(line) for line in draw(position, glyphs)]


def board_text(position: dict[str, Any], glyphs: Glyphs = UNICODE) -> str:
    """The board as plain text, without colour: what ``str(game)`` gives."""
    return "\n".join(plain(line).rstrip() for line in draw(position, glyphs))
