"""The board's dialogs: a question to confirm, a line to type, a choice from a list, a page to read.

Each is a Textual modal screen that hands its answer back through ``dismiss`` (None when the player
backs out with Escape), so the app decides what to do with it; none of them touches the game.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from ...i18n import _

DIALOG_CSS = """
ModalScreen { align: center middle; }
ModalScreen > Vertical {
    width: 90%; max-width: 100; height: auto; max-height: 90%;
    border: round $accent; background: $surface; padding: 0 1;
}
ModalScreen .title { text-style: bold; margin-bottom: 1; }
ModalScreen .keys { color: $text-muted; margin-top: 1; }
ModalScreen VerticalScroll { height: auto; max-height: 18; }
ModalScreen .refused { color: $error; margin-top: 1; }
"""


class Confirm(ModalScreen[bool]):
    """A yes-or-no question about something that cannot be taken back: y says yes; n, Escape or Enter say no.

    Enter keeps things as they are, as the browser's confirmation does: on the board Enter plays a card, so a
    stray key that opens the question followed by Enter must not give a game away.
    """

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS = [Binding("y", "answer(True)", show=False), Binding("n,escape,enter", "answer(False)", show=False)]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question), classes="title")
            yield Static(Text(_("y: yes    n, Escape or Enter: no")), classes="keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class Ask(ModalScreen[str | None]):
    """One line of text (a deal number, a file name); Escape gives None. ``refuse`` (if given) says what is wrong
    with a line, or None when it will do: a refused line stays in the box with the reason under it, to be
    mended, instead of closing the question on a typo."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(self, question: str, value: str = "", placeholder: str = "",
                 refuse: Callable[[str], str | None] | None = None) -> None:
        super().__init__()
        self.question, self.value, self.placeholder, self.refuse = question, value, placeholder, refuse

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question), classes="title")
            yield Input(value=self.value, placeholder=self.placeholder)
            yield Static("", id="refused", classes="refused")
            yield Static(Text(_("Enter: done    Escape: cancel")), classes="keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        reason = self.refuse(event.value) if self.refuse else None
        if reason is not None:
            self.query_one("#refused", Static).update(Text(reason))
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Choose(ModalScreen[int | None]):
    """One of a list (an unfinished game): its index, or None for Escape."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(self, title: str, options: list[str]) -> None:
        super().__init__()
        self.heading, self.options = title, options

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.heading), classes="title")
            yield OptionList(*[Text(option) for option in self.options])
            yield Static(Text(_("Enter: choose    Escape: cancel")), classes="keys")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)

    def action_cancel(self) -> None:
        self.dismiss(None)


class Page(ModalScreen[None]):
    """Text to read (the rules, the statistics, what a figure means); any of Escape, Enter or q closes it."""

    DEFAULT_CSS = DIALOG_CSS
    BINDINGS = [Binding("escape,enter,q,space", "close", show=False)]

    def __init__(self, title: str, body: list[Text]) -> None:
        super().__init__()
        self.heading, self.body = title, body

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.heading), classes="title")
            with VerticalScroll():
                for paragraph in self.body:
                    yield Static(paragraph)
            yield Static(Text(_("Escape or Enter: close    arrows: scroll")), classes="keys")

    def action_close(self) -> None:
        self.dismiss(None)
