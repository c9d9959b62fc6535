"""The text board: a position drawn as lines of text, as the terminal shows it.

One drawing for every text view of a game: ``tableaux play`` and ``tableaux
deal`` print these lines in colour, and ``str(game)`` gives them as plain text.
It draws from a public position (:meth:`Game.public_position`), so it never
learns what a face-down card is and cannot show one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from ..i18n import _
from ..rulebook.cards import RANK_LABELS
from ..rulebook.engine import short_name

COLUMN = 5
"""Screen width of one pile column: a 3-character card plus a gap."""
TRUNK = COLUMN + 3
"""Eagle Wing's reserve column, a little wider so it stands apart from the wings."""


@dataclass(frozen=True)
class Glyphs:
    """Suit signs and card backs; plain letters for terminals that cannot show the symbols."""

    suits: dict[str, str]
    back: str
    empty: str


UNICODE = Glyphs({"C": "♣", "D": "♦", "H": "♥", "S": "♠"}, "▒▒▒", " · ")
ASCII = Glyphs({"C": "C", "D": "D", "H": "H", "S": "S"}, "###", " - ")


def card_label(code: str, glyphs: Glyphs = UNICODE) -> str:
    """How a face-up card reads on screen: ``10♥``, `` A♠`` (always 3 wide, so columns line up)."""
    return f"{RANK_LABELS[code[0]]}{glyphs.suits[code[1]]}".rjust(3)


def card_text(card: dict[str, Any], glyphs: Glyphs) -> Text:
    if not card["up"] or card["card"] is None:
        return Text(glyphs.back, style="blue")
    code = card["card"]
    return Text(card_label(code, glyphs), style="bold red" if code[1] in "DH" else "bold")


def top_text(pile: list[dict[str, Any]], glyphs: Glyphs) -> Text:
    return card_text(pile[-1], glyphs) if pile else Text(glyphs.empty, style="dim")


def cell(text: Text | str, width: int = COLUMN) -> Text:
    """``text`` padded to a column, keeping its style."""
    out = Text(text) if isinstance(text, str) else text.copy()
    out.pad_right(max(0, width - out.cell_len))
    return out


def label(name: str, width: int = COLUMN) -> Text:
    return cell(Text(short_name(name).rjust(3), style="cyan"), width)


def row(cells: list[Text]) -> Text:
    line = Text(" ")
    for c in cells:
        line.append_text(c)
    line.rstrip()
    return line


def columns(piles: list[list[dict[str, Any]]], glyphs: Glyphs) -> list[Text]:
    """Tableau piles drawn as columns, bottom card at the top of the screen as on a table."""
    height = max((len(p) for p in piles), default=0)
    lines = []
    for depth in range(max(height, 1)):
        cells = []
        for pile in piles:
            if depth < len(pile):
                cells.append(cell(card_text(pile[depth], glyphs)))
            elif depth == 0:
                cells.append(cell(Text(glyphs.empty, style="dim")))
            else:
                cells.append(cell(""))
        lines.append(row(cells))
    return lines


def header(position: dict[str, Any]) -> list[Text]:
    title = Text(_("{game}  deal {deal}").format(game=_(position["title"]), deal=position["deal"]), style="bold")
    title.append("    " + _("Score {score}   Moves {moves}").format(score=position["score"],
                                                               moves=position["moves_played"]))
    lines = [title]
    if position.get("status"):
        lines.append(Text(position["status"]))
    return lines


def of_kind(names: list[str], kind: str) -> list[str]:
    """The piles of one kind (``tableau``, ``foundation``...) in the game's order: layouts come from pile names."""
    return [n for n in names if n.partition("-")[0] == kind]


def draw_reserve_row(piles: dict[str, list[dict[str, Any]]], glyphs: Glyphs) -> list[Text]:
    """Foundations above the tableau, reserve cells in a row below (King Albert)."""
    names = list(piles)
    foundations, tableau, reserve = (of_kind(names, k) for k in ("foundation", "tableau", "reserve"))
    lines = [row([label(n) for n in foundations]), row([cell(top_text(piles[n], glyphs)) for n in foundations])]
    lines += [Text(), row([label(n) for n in tableau])]
    lines += columns([piles[n] for n in tableau], glyphs)
    lines += [Text(), row([label(n) for n in reserve]), row([cell(top_text(piles[n], glyphs)) for n in reserve])]
    return lines


def count_text(n: int) -> Text:
    return cell(Text(f"{n:>3}", style="dim"))


def draw_stock_and_wings(piles: dict[str, list[dict[str, Any]]], glyphs: Glyphs) -> list[Text]:
    """Stock, waste and foundations on top; the tableau as two wings either side of one reserve pile (Eagle Wing)."""
    names = list(piles)
    trunk_at = names.index("reserve")
    foundations = of_kind(names, "foundation")
    left, right = of_kind(names[:trunk_at], "tableau"), of_kind(names[trunk_at:], "tableau")
    gap = cell("")
    stock, waste, reserve = piles["stock"], piles["waste"], piles["reserve"]
    lines = [
        row([label("stock"), label("waste"), gap, *[label(n) for n in foundations]]),
        row([cell(top_text(stock, glyphs)), cell(top_text(waste, glyphs)), gap,
             *[cell(top_text(piles[n], glyphs)) for n in foundations]]),
        row([count_text(len(stock)), count_text(len(waste))]),
        Text(),
        row([*[label(n) for n in left], Text("  ") + label("reserve", TRUNK - 2), *[label(n) for n in right]]),
    ]
    body = columns([piles[n] for n in (*left, *right)], glyphs)
    # The reserve ("trunk") sits between the wings: its top card (face down until
    # only the bottom card is left) and how many cards it holds.
    trunk = [cell(Text("  ") + top_text(reserve, glyphs), TRUNK),
             cell(Text(f"  {len(reserve):>3}", style="dim"), TRUNK)]
    while len(body) < len(trunk):
        body.append(Text())
    out = []
    for i, line in enumerate(body):
        left_part = line[: 1 + len(left) * COLUMN]
        left_part.pad_right(1 + len(left) * COLUMN - left_part.cell_len)
        merged = left_part + (trunk[i] if i < len(trunk) else cell("", TRUNK)) + line[1 + len(left) * COLUMN:]
        merged.rstrip()
        out.append(merged)
    return lines + out


def render(position: dict[str, Any], glyphs: Glyphs = UNICODE) -> list[Text]:
    """The board as lines of styled text. Give it a public position: it draws whatever cards it is given."""
    piles = position["piles"]
    body = draw_stock_and_wings(piles, glyphs) if "stock" in piles else draw_reserve_row(piles, glyphs)
    return [*header(position), Text(), *body]


def board_text(position: dict[str, Any], glyphs: Glyphs = UNICODE) -> str:
    """The board as plain text, without colour: what ``str(game)`` gives."""
    return "\n".join(line.plain.rstrip() for line in render(position, glyphs))
