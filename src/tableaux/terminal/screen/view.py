"""The board as a Textual widget: draws :func:`.layout.lay_out` and turns mouse clicks into cards.

It holds no game: the app hands it a public position and the marks to show (:meth:`BoardView.show`),
so what reaches the screen is what :meth:`Game.public_position` let through. A click becomes a
:class:`BoardView.Picked` message naming the pile and card under the mouse and how many clicks it
chained (two: a double click).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.geometry import Region, Size
from textual.message import Message
from textual.widget import Widget

from .layout import Board, Marks, lay_out, narrowest


class BoardView(Widget):
    """The table: every pile, the cursor and the marks."""

    DEFAULT_CSS = """
    BoardView { height: auto; min-height: 100%; }
    """

    class Picked(Message):
        """A click on the board: the pile and the card's index in it (-1: an empty pile; -2: the pile's name)."""

        def __init__(self, pile: str, index: int, chain: int) -> None:
            super().__init__()
            self.pile, self.index, self.chain = pile, index, chain

    class Missed(Message):
        """A click on the board away from every pile."""

    class Fits(Message):
        """The board fits its width again, after it did not: the warning that said how wide to make it is stale."""

    class TooNarrow(Message):
        """The board no longer fits its width: piles fall off its right edge until it is ``needed`` columns wide
        (said once each time it stops fitting)."""

        def __init__(self, needed: int) -> None:
            super().__init__()
            self.needed = needed

    def __init__(self, position: dict[str, Any], *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.position = position
        self.marks = Marks()
        self.board: Board | None = None
        self.cut_off = False
        self.followed: tuple[str, int] | None = None
        """The cursor the table last scrolled to."""

    def show(self, position: dict[str, Any], marks: Marks) -> None:
        self.position, self.marks = position, marks
        self.refresh(layout=True)

    def room(self) -> int:
        """The rows there are to lay the board out in: the screen's, not the board's own (it may grow past them)."""
        parent = self.parent
        height = parent.size.height if isinstance(parent, Widget) and parent.size.height else self.size.height
        return max(height, 8)

    def lay_out(self, width: int) -> Board:
        return lay_out(self.position, max(width, 20), self.room(), self.marks)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.lay_out(width).height

    def render(self) -> Text:
        self.board = self.lay_out(self.size.width)
        cut_off = bool(self.board.cut_off())
        if cut_off and not self.cut_off:  # said from the widget's own turn: one made in a render does not bubble
            self.call_later(self._too_narrow, narrowest(self.position, self.room(), self.marks, self.board.width))
        elif self.cut_off and not cut_off:
            self.call_later(self._fits)
        self.cut_off = cut_off
        if self.marks.cursor != self.followed:
            self.followed = self.marks.cursor
            self.call_later(self._follow, self.board)
        return Text("\n").join(self.board.texts())

    def _follow(self, board: Board) -> None:
        """Scroll the table to keep the cursor in sight, with its pile's name when the screen has room for both:
        on a board taller than the screen, the arrows go on past its edge."""
        cursor, parent = self.marks.cursor, self.parent
        if cursor is None or not isinstance(parent, Widget):
            return
        spots = [spot for spot in board.spots if spot.pile == cursor[0] and spot.index in (cursor[1], -1)]
        label = board.labels.get(cursor[0])
        if not spots and label is None:
            return
        y = spots[-1].y if spots else label[1]
        top = label[1] if label is not None and y - label[1] < parent.size.height else y
        parent.scroll_to_region(Region(0, top, 1, y - top + 1), animate=False, immediate=True)

    def _too_narrow(self, needed: int) -> None:
        self.post_message(self.TooNarrow(needed))

    def _fits(self) -> None:
        self.post_message(self.Fits())

    def on_click(self, event: events.Click) -> None:
        board = self.board
        spot = board.at(event.x, event.y) if board is not None else None
        if spot is None:
            self.post_message(self.Missed())
        else:
            self.post_message(self.Picked(spot[0], spot[1], event.chain))
        event.stop()
