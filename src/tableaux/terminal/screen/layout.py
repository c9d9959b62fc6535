"""The full-screen board laid out and painted: where each pile and card goes for a given screen size.

Pure drawing, without Textual, so it can be read (and tested) on its own: :func:`lay_out` takes a public
position (:meth:`Game.public_position`, which never holds a face-down card's identity), the room there is
and what to mark (the cursor, the cards picked up, the piles they may go to), and returns the painted lines
with a map of every card's place, which the widget uses to turn a mouse click into a card.

The table is drawn as it lies: King Albert's foundations and reserve across the top and the nine columns
below; Eagle Wing's stock, waste (with their counts and the redeals left) and foundations across the top,
and the trunk between the two wings of four piles below. Which pile goes where comes from the pile names
(``stock``, ``foundation-N``, ``tableau-N``...), as in :mod:`tableaux.play.board`. Cards are drawn with their
own background (ivory faces, blue backs), so they read the same on a dark and a light terminal; every mark
also has a sign of its own (brackets round the cursor, underlined picked cards, arrows at a target's name),
so the board reads without colour (``NO_COLOR``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.style import Style
from rich.text import Text

from ...i18n import _
from ...play.board import UNICODE, card_label, of_kind
from ...rulebook.engine import short_name

FACE = Style(color="#1a1a1a", bgcolor="#f4f1e8", bold=True)
RED_FACE = Style(color="#c8102e", bgcolor="#f4f1e8", bold=True)
BACK = Style(color="#c9d6ff", bgcolor="#27408b")
BACK_ALTERNATE = Style(color="#c9d6ff", bgcolor="#3a5cb8")
"""Every other card back of a pile is a shade lighter, so the cards of a face-down stack can be counted."""
EMPTY = Style(color="#8a8a8a")
LABEL = Style(color="#4fa3c7", bold=True)
TARGET = Style(color="#111111", bgcolor="#7ccf6b", bold=True)
CURSOR = Style(reverse=True)
PICKED = Style(underline=True, bgcolor="#e6c229", color="#1a1a1a")
HINTED = Style(color="#111111", bgcolor="#c7a4ff", bold=True)
COUNT = Style(color="#8a8a8a")

BACK_FILL = "░"
BACK_FILL_ALTERNATE = "▒"
EMPTY_MARK = "·"


@dataclass(frozen=True)
class Spot:
    """Where one card is drawn (``index`` is its place in the pile), or an empty pile's place (``index`` -1)."""

    pile: str
    index: int
    x: int
    y: int
    width: int


@dataclass(frozen=True)
class Marks:
    """What the board shows besides the cards: the cursor, the cards picked up, the piles they may go to."""

    cursor: tuple[str, int] | None = None
    picked: tuple[str, int] | None = None
    """The pile and how many of its top cards are picked up."""
    targets: frozenset[str] = frozenset()
    hinted: frozenset[str] = frozenset()
    """The piles of the last hint's move (its source and target)."""


@dataclass
class Board:
    """The painted board and the map from screen places to cards."""

    width: int
    height: int
    lines: list[list[tuple[str, Style | None]]] = field(default_factory=list)
    spots: list[Spot] = field(default_factory=list)
    labels: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    """Each pile's name on screen: x, y and width; a click there means the pile."""
    rows: list[list[str]] = field(default_factory=list)
    """The piles as the cursor moves between them: one list a row of the table, left to right."""

    def __post_init__(self) -> None:
        self.lines = [[(" ", None)] * self.width for _row in range(self.height)]

    def cut_off(self) -> list[str]:
        """The piles whose name does not fit in the board's width: on a screen too narrow for the layout's
        smallest cards, the rightmost piles fall off its edge."""
        return [pile for pile, (x, _y, width) in self.labels.items() if x + width > self.width]

    def grow(self, height: int) -> None:
        while len(self.lines) < height:
            self.lines.append([(" ", None)] * self.width)
        self.height = len(self.lines)

    def put(self, x: int, y: int, text: str, style: Style | None) -> None:
        self.grow(y + 1)
        line = self.lines[y]
        for i, char in enumerate(text):
            if 0 <= x + i < self.width:
                line[x + i] = (char, style)

    def texts(self) -> list[Text]:
        """The painted lines, each run of one style as one piece."""
        out = []
        for line in self.lines:
            text = Text(no_wrap=True, end="")
            run, style = "", line[0][1] if line else None
            for char, char_style in line:
                if char_style != style:
                    text.append(run, style)
                    run, style = "", char_style
                run += char
            text.append(run, style)
            out.append(text)
        return out

    def at(self, x: int, y: int) -> tuple[str, int] | None:
        """The card (pile, index) or pile (pile, -1 when empty; its top when it has cards) at a screen place."""
        for spot in self.spots:
            if spot.y == y and spot.x <= x < spot.x + spot.width:
                return spot.pile, spot.index
        for pile, (lx, ly, width) in self.labels.items():
            if ly == y and lx <= x < lx + width:
                return pile, -2  # the pile's name: the pile as a whole
        return None


def card_face(card: dict[str, Any] | None, width: int, cursor: bool, alternate: bool = False) -> tuple[str, Style]:
    """A card's cell: its label centred on its face, or the back pattern (the other shade and pattern when
    ``alternate``); brackets at the ends for the cursor."""
    if card is None:
        body, style, edge = f"{EMPTY_MARK:^{width - 2}}", EMPTY, " "
    elif not card["up"] or card["card"] is None:
        fill = BACK_FILL_ALTERNATE if alternate else BACK_FILL
        body, style, edge = fill * (width - 2), BACK_ALTERNATE if alternate else BACK, fill
    else:
        code = card["card"]
        body, edge = f"{card_label(code, UNICODE).strip():^{width - 2}}", " "
        style = RED_FACE if code[1] in "DH" else FACE
    left, right = ("[", "]") if cursor else (edge, edge)
    return left + body + right, style


@dataclass
class Painter:
    """Paints one position with its marks onto a :class:`Board`."""

    position: dict[str, Any]
    marks: Marks
    board: Board
    card_width: int = 5

    def label(self, pile: str, x: int, y: int, width: int) -> None:
        name = short_name(pile)
        if pile in self.marks.targets:
            text, style = f"»{name}«", TARGET
        elif pile in self.marks.hinted:
            text, style = f"?{name}?", HINTED
        else:
            text, style = name, LABEL
        self.board.put(x, y, f"{text:^{width}}", style)
        self.board.labels[pile] = (x, y, width)

    def card(self, pile: str, index: int, card: dict[str, Any] | None, x: int, y: int) -> None:
        marks = self.marks
        at_cursor = marks.cursor is not None and marks.cursor[0] == pile and (
            marks.cursor[1] == index or (index == -1 and marks.cursor[1] < 0))
        text, style = card_face(card, self.card_width, at_cursor, index % 2 == 1)
        if marks.picked is not None and marks.picked[0] == pile and card is not None:
            size = len(self.position["piles"][pile])
            if index >= size - marks.picked[1]:
                style = style + PICKED
        if at_cursor:
            style = style + CURSOR
        self.board.put(x, y, text, style)
        self.board.spots.append(Spot(pile, index, x, y, self.card_width))

    def single(self, pile: str, x: int, y: int) -> None:
        """A pile of which only the top card shows."""
        cards = self.position["piles"][pile]
        if cards:
            self.card(pile, len(cards) - 1, cards[-1], x, y)
        else:
            self.card(pile, -1, None, x, y)

    def cascade(self, pile: str, x: int, y: int, rows: int) -> int:
        """A tableau pile fanned downwards in at most ``rows`` rows (face-down cards folded into one row, counted,
        when it needs more); returns the rows used."""
        cards = self.position["piles"][pile]
        if not cards:
            self.card(pile, -1, None, x, y)
            return 1
        down = sum(1 for c in cards if not c["up"] or c["card"] is None)
        fold = down > 1 and len(cards) > rows
        row = y
        for index, card in enumerate(cards):
            if fold and index < down:
                if index == down - 1:
                    text = f"{down:^{self.card_width}}".replace(" ", BACK_FILL)
                    self.board.put(x, row, text, BACK)
                    self.board.spots.append(Spot(pile, index, x, row, self.card_width))
                    row += 1
                continue
            self.card(pile, index, card, x, row)
            row += 1
        return row - y


def cells(count: int, room: int, most: int = 12) -> int:
    """The width of one pile's column when ``count`` of them share ``room`` columns."""
    return max(6, min(most, room // count))


def lay_out(position: dict[str, Any], width: int, height: int, marks: Marks) -> Board:
    """The board for ``position`` in a ``width`` x ``height`` area (it grows downwards if a pile needs it)."""
    board = Board(width, height)
    piles = position["piles"]
    if "stock" in piles:
        eagle_wing(Painter(position, marks, board), list(piles), width, height)
    else:
        king_albert(Painter(position, marks, board), list(piles), width, height)
    return board


def narrowest(position: dict[str, Any], height: int, marks: Marks, wider_than: int) -> int:
    """The least width above ``wider_than`` at which every pile of ``position`` is on the board."""
    width = wider_than + 1
    while lay_out(position, width, height, marks).cut_off():
        width += 1
    return width


def spare_rows(position: dict[str, Any], width: int, height: int, marks: Marks) -> int:
    """How many of a ``width`` x ``height`` area's bottom rows the board can give up and still be painted the same,
    every card and name in its place: the rows the messages under it may take without moving it.

    The layout changes with the room (a blank row between the top piles and the columns, face-down cards folded
    into a count), so the answer is found by laying the board out again in less room; more room never changes a
    layout that fits, so halving the range finds the least room that keeps it."""

    def painted(rows: int) -> list[str]:
        lines = [line.plain.rstrip() for line in lay_out(position, width, rows, marks).texts()]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    wanted = painted(height)
    low, high = len(wanted), height  # the least room that paints it: in low..high
    while low < high:
        middle = (low + high) // 2
        if painted(middle) == wanted:
            high = middle
        else:
            low = middle + 1
    return height - high


def row_of(painter: Painter, names: list[str], gaps: dict[int, int], width: int) -> list[int]:
    """The x of each pile of a row, centred, with ``gaps`` (extra columns before the pile at an index)."""
    extra = sum(gaps.values())
    cell = cells(len(names), width - 2 - extra)
    painter.card_width = min(painter.card_width, cell - 1)
    total = cell * len(names) + extra
    x = max(0, (width - total) // 2)
    xs = []
    for i in range(len(names)):
        x += gaps.get(i, 0)
        xs.append(x)
        x += cell
    return xs


def king_albert(painter: Painter, names: list[str], width: int, height: int) -> None:
    """Foundations and reserve across the top (the reserve on a row of its own when the screen is too narrow
    for both), the nine columns below."""
    foundations, tableau, reserve = (of_kind(names, kind) for kind in ("foundation", "tableau", "reserve"))
    painter.card_width = 9
    one_row = (len(foundations) + len(reserve)) * 6 + 3 <= width - 2
    tops = [foundations + reserve] if one_row else [foundations, reserve]
    top_xs = [row_of(painter, top, {len(foundations): 3} if one_row else {}, width) for top in tops]
    tab_x = row_of(painter, tableau, {}, width)
    cw = painter.card_width
    y = 0
    for top, top_x in zip(tops, top_xs, strict=True):
        for pile, x in zip(top, top_x, strict=True):
            painter.label(pile, x, y, cw)
            painter.single(pile, x, y + 1)
        y += 2
    spare = max(0, height - y - 1 - max(len(painter.position["piles"][n]) for n in tableau))
    y += 1 if spare >= 2 else 0
    for pile, x in zip(tableau, tab_x, strict=True):
        painter.label(pile, x, y, cw)
    rows = max(1, height - y - 1)
    for pile, x in zip(tableau, tab_x, strict=True):
        painter.cascade(pile, x, y + 1, rows)
    painter.board.rows = [*tops, tableau]


def eagle_wing(painter: Painter, names: list[str], width: int, height: int) -> None:
    """Stock, waste and foundations across the top with their counts; the trunk between the two wings below."""
    position = painter.position
    trunk_at = names.index("reserve")
    foundations = of_kind(names, "foundation")
    left, right = of_kind(names[:trunk_at], "tableau"), of_kind(names[trunk_at:], "tableau")
    top = ["stock", "waste", *foundations]
    body = [*left, "reserve", *right]
    painter.card_width = 9
    top_x = row_of(painter, top, {2: 4}, width)
    body_x = row_of(painter, body, {len(left): 2, len(left) + 1: 2}, width)
    cw = painter.card_width
    board = painter.board
    for pile, x in zip(top, top_x, strict=True):
        painter.label(pile, x, 0, cw)
        painter.single(pile, x, 1)
    piles = position["piles"]
    board.put(top_x[0], 2, f"{len(piles['stock']):^{cw}}", COUNT)
    board.put(top_x[1], 2, f"{len(piles['waste']):^{cw}}", COUNT)
    redeals = position.get("redeals_left")
    if redeals is not None:
        board.put(top_x[0], 3, _("redeals: {n}").format(n=redeals)[: 2 * cw + 2], COUNT)
    base = position.get("base_card")
    if base:
        board.put(top_x[2], 2, _("base card: {card}").format(card=card_label(base, UNICODE).strip()), COUNT)
    y = 4 + (1 if height >= 14 else 0)
    for pile, x in zip(body, body_x, strict=True):
        painter.label(pile, x, y, cw)
    rows = max(1, height - y - 1)
    for pile, x in zip(body, body_x, strict=True):
        if pile == "reserve":
            painter.single(pile, x, y + 1)
            board.put(x, y + 2, f"{len(piles['reserve']):^{cw}}", COUNT)
        else:
            painter.cascade(pile, x, y + 1, rows)
    board.rows = [top, body]
