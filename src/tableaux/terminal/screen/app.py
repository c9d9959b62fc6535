"""The full-screen game: a Textual app over one :class:`~tableaux.terminal.sitting.Sitting`.

The screen is a status line (deal, score, moves, time, the chance to win), the board (:mod:`.view`), the
messages, and the keys. The messages are those of the player's last action (a key, a click), or the answer
it waited for (a hint worked out in a thread): each lot replaces the last whole, so no scrap of an older
message is left above a new one (``self.said`` keeps them all). Their area grows to fit them, first into the
rows the board leaves empty, so the board keeps its place, then up to a third of the screen.

Every command goes through the sitting, as in the line mode, so both say the same and keep the game the
same way; the board only adds a cursor, picking up and dropping, and the mouse (:mod:`.hands`). Slow answers
(the chance, hints, where a game was lost, the solution) are worked out in a thread on a copy of the game,
and an answer that comes back after the position changed is dropped. The board is drawn from
``game.public_position()`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.timer import Timer
from textual.widgets import Static

from ...i18n import N_, _
from ...play.game import Game
from ...rulebook.engine import Move
from ..record import clock
from ..said import STYLES, Names, Said
from ..sitting import Sitting, par_of
from ..unfinished import Saved
from .commands import Commands
from .hands import Hands
from .layout import Marks, spare_rows
from .view import BoardView

T = TypeVar("T")

NAMES = Names(undo="[u]", new="[n]", lost="[w]", giveup="[g]", redo="[r]", restart="[x]", resume="[o]",
              save="[^s]", quit="[q]")
"""How the board's messages name a command: the key that gives it."""

KEYS = [
    ("space", N_("pick up / drop")), ("enter", N_("play")), ("esc", N_("cancel")), ("d", N_("deal")),
    ("u", N_("undo")), ("r", N_("redo")), ("x", N_("restart")), ("h", N_("hint")), ("p", N_("peek hint")),
    ("c", N_("chance")), ("w", N_("where lost")), ("g", N_("give up")), ("s", N_("solution")), ("^s", N_("save")),
    ("n", N_("new deal")), ("o", N_("resume")), ("?", N_("rules")), ("t", N_("stats")), ("q", N_("quit")),
]
"""The footer: each key and what it does (the words are translated where shown)."""

KEPT_FIRST = ("?", "space", "enter", "h", "u", "esc", "q", "d", "r", "x", "c", "n", "s", "p", "w", "g", "o", "^s", "t")
"""The footer's keys in the order they keep their place on a short screen, where it has one row: the rules key
first, since its page lists every key."""

FULL_KEYS_HEIGHT = 24
"""A screen this tall shows every key under the board; a shorter one keeps its rows for the board and the
messages, and shows the keys that fit on one row."""

MESSAGE_ROWS = 2
"""The message area's rows when what it shows is short: it grows for a longer message."""

CHANCE_DELAY = 0.3
"""Seconds after a move before the chance is worked out, so a burst of moves asks once, for the last position."""



def fitted(forms: list[list[str]], width: int) -> str:
    """The status line within ``width`` cells (0: not laid out yet, anything fits): the first of ``forms``
    (each the line's figures, fewer and fewer) that fits with its figures three spaces apart, or else two."""
    candidates = [gap.join(part for part in figures if part) for figures in forms for gap in ("   ", "  ")]
    return next((line for line in candidates if not width or cell_len(line) <= width), candidates[-1])


class Pane(VerticalScroll, can_focus=False):
    """A part of the screen that scrolls (the table, the messages) but never takes the keyboard: a focused one
    would take Up and Down to scroll itself, and the arrows are the cursor's on a board of any height."""


class TableauxApp(Commands, Hands, App[None]):
    """One sitting on the full-screen board."""

    TITLE = "tableaux"
    ENABLE_COMMAND_PALETTE = False
    """Textual's own Ctrl+P palette is off: its Keys panel squeezed the board, did not close with Escape, and left
    a stale "too narrow" warning; every command is on a key, and [?] lists them."""
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $panel; color: $text; padding: 0 1; }
    #table { height: 1fr; }
    #messages { height: 2; padding: 0 1; background: $surface; scrollbar-size-vertical: 1; overflow-x: hidden;
                scrollbar-gutter: stable; }
    #said { width: 1fr; }
    #keys { height: auto; color: $text-muted; padding: 0 1; background: $panel; }
    """
    BINDINGS = [
        Binding("left", "arrow('left')", show=False), Binding("right", "arrow('right')", show=False),
        Binding("up", "arrow('up')", show=False), Binding("down", "arrow('down')", show=False),
        Binding("space", "select", show=False), Binding("enter", "play", show=False),
        Binding("escape", "cancel", show=False),
        Binding("d", "deal", show=False), Binding("u,ctrl+z", "undo", show=False),
        Binding("r,ctrl+y", "redo", show=False), Binding("x", "restart", show=False),
        Binding("h", "hint('fair')", show=False), Binding("p", "hint('peek')", show=False),
        Binding("c", "chance", show=False), Binding("w", "lost", show=False), Binding("g", "giveup", show=False),
        Binding("s", "solution", show=False), Binding("a", "solution_all", show=False),
        Binding("ctrl+s", "save", show=False), Binding("l", "load", show=False),
        Binding("n", "new", show=False), Binding("o", "resume", show=False), Binding("m", "moves", show=False),
        Binding("question_mark,f1", "rules", show=False), Binding("t", "stats", show=False),
        Binding("q", "quit", show=False),
    ]

    def __init__(self, sitting: Sitting, message: str = "", resumed: Saved | None = None,
                 auto_chance: bool = True) -> None:
        super().__init__()
        self.sitting = sitting
        self.opening = message
        self.resumed = resumed
        self.auto_chance = auto_chance
        self.said: list[Said] = []
        """Every message shown, oldest first."""
        self.shown: list[Said] = []
        """The messages on the screen: those told since the player's last action."""
        self.last_lot = 0
        """How many of :attr:`shown` were told last, together (a long lot shows from its start)."""
        self.action_began = False
        """A key or a click came since the last message: the next message replaces those on the screen."""
        self.cursor: tuple[str, int] = ("", -1)
        self.picked: tuple[str, int] | None = None
        self.targets: frozenset[str] = frozenset()
        self.hinted: frozenset[str] = frozenset()
        self.solution: list[Move] | None = None
        self.solution_at = 0
        self.chance: tuple[Any, str] | None = None
        """The chance's key (the position it is for) and its figure, once worked out."""
        self.chance_said: list[Said] = []
        self._chance_timer: Timer | None = None
        self.footer_for = sitting.game.name
        """The game whose keys the footer shows."""
        self.too_narrow: Said | None = None
        """The warning that the board does not fit the terminal's width, while it is shown."""

    @property
    def game(self) -> Game:
        return self.sitting.game

    # --- the screen ------------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Pane(id="table"):
            yield BoardView(self.game.public_position(), id="board")
        with Pane(id="messages"):
            yield Static(id="said")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.sitting.names = NAMES
        self.show_keys()
        self.tell(self.sitting.switch_to(self.game, self.opening, self.resumed))
        kept = self.sitting.kept_games()
        if kept:
            self.tell([Said(_("Unfinished games kept for you: {n}. [o] brings one back.").format(n=len(kept)),
                            "advice")])
        self.tell([Said(_("Arrows move, Space picks up and drops, Enter plays a card's best move; [?] shows the "
                          "rules and every key."), "note")])
        self.cursor = self.first_place()
        self.changed()
        self.set_interval(1.0, self.show_status)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the status line, the keys and the messages to the new size (``self.size`` still gives the old one
        during this event)."""
        self.show_status(event.size)
        self.show_keys(event.size)
        self.fit_messages(event.size)

    def on_board_view_too_narrow(self, message: BoardView.TooNarrow) -> None:
        """Say how wide the terminal must be: the board's width, the screen's columns around it, and the table's
        scroll bar, which the taller board of a wider screen may need when this one does not show it."""
        table = self.query_one("#table", VerticalScroll)
        bar = 0 if table.show_vertical_scrollbar else table.styles.scrollbar_size_vertical
        needed = message.needed + self.size.width - self.query_one(BoardView).size.width + bar
        self.on_board_view_fits()  # a warning of an earlier width gives way to this one
        self.too_narrow = Said(_("The terminal is too narrow for every pile: widen it to {n} columns or more.")
                               .format(n=needed), "warning")
        self.tell([self.too_narrow])

    def on_board_view_fits(self, _message: BoardView.Fits | None = None) -> None:
        """The board fits again: the warning that it did not goes from the screen."""
        if self.too_narrow in self.shown:
            self.shown.remove(self.too_narrow)
            self.last_lot = min(self.last_lot, len(self.shown))
            self.fit_messages()
        self.too_narrow = None

    def key_rows(self, size: Size | None = None) -> list[Text]:
        width, height = size or self.size
        return keys_rows(self.game, max(width - 2, 1), 0 if height >= FULL_KEYS_HEIGHT else 1)

    def show_keys(self, size: Size | None = None) -> None:
        self.query_one("#keys", Static).update(Text("\n").join(self.key_rows(size)))

    async def on_event(self, event: events.Event) -> None:
        """A key or a click as it comes in, before any command it gives: the player's next action begins."""
        if isinstance(event, (events.Key, events.MouseDown)) and not event.is_forwarded:
            self.action_began = True
        await super().on_event(event)

    def tell(self, said: list[Said]) -> None:
        """Show what was said under the board: after the messages of the same action, or in their place once the
        player has acted again."""
        if self.action_began:
            self.shown, self.action_began = [], False
        self.said += said
        self.shown += said
        self.last_lot = len(said)
        self.fit_messages()

    def fit_messages(self, size: Size | None = None) -> None:
        """Show the messages, sized to them: at least :data:`MESSAGE_ROWS`, then into the rows the board does not
        use, then, for a message longer still, up to a third of the screen (the board gives up its blank rows and
        folds face-down cards meanwhile). Where an action's messages are more than that, its earlier ones make
        room for the last lot told; what is taller still shows from its start (a hint's move comes first), the
        rest a scroll away."""
        try:
            area = self.query_one("#messages", VerticalScroll)
        except NoMatches:
            return
        width, height = size or self.size
        if not width or not height:
            return
        room = height - 1 - len(self.key_rows(size)) - MESSAGE_ROWS
        free = spare_rows(self.game.public_position(), width, max(room, 8), self.marks()) if room > 0 else 0
        most = max(MESSAGE_ROWS + free, height // 3)
        # padding of one column each side, and one for the scroll bar
        lines = [len(Text(item.text).wrap(self.console, max(width - 3, 1))) for item in self.shown]
        first = 0
        while first < len(self.shown) - self.last_lot and sum(lines[first:]) > most:
            first += 1
        area.styles.height = max(MESSAGE_ROWS, min(sum(lines[first:]), most))
        text = Text("\n").join(Text(item.text, style=STYLES[item.kind]) for item in self.shown[first:])
        self.query_one("#said", Static).update(text)
        area.scroll_home(animate=False)

    def key(self) -> tuple[int, int, Any]:
        """What a worked-out answer is for: this game at this position."""
        return id(self.game), len(self.game.moves_played), self.game.state

    def show_status(self, size: Size | None = None) -> None:
        position = self.game.public_position()
        if self.game.is_won():
            chance = _("Won!")
        elif self.sitting.gave_up:
            chance = _("Given up")
        elif self.game.is_over():
            chance = _("No legal move left")
        elif self.chance is not None and self.chance[0] == self.key():
            chance = _("Winnable as far as seen: {share}").format(share=self.chance[1])
        else:
            chance = _("Winnable as far as seen: ...") if self.auto_chance else ""
        par = par_of(self.game)  # a catalogued deal: the fewest moves found, to play against
        if self.solution is not None:
            chance = _("Solution: move {number} of {total}").format(number=self.solution_at + 1,
                                                                    total=len(self.solution))
        game = _("{game}  deal {deal}").format(game=_(position["title"]), deal=position["deal"])
        deal = _("deal {deal}").format(deal=position["deal"])
        score = _("Score {score}").format(score=position["score"])
        played = [_("Moves {moves}").format(moves=position["moves_played"]),
                  _("Time {time}").format(time=clock(self.sitting.seconds()))]
        par_text = "" if par is None else _("Par {par}").format(par=par)
        try:
            status = self.query_one("#status", Static)
        except NoMatches:  # the clock ticked once more while the app was closing and its widgets were gone
            return
        # Where the line is too long, what matters least goes first: the par, the game's title (a long deal number
        # leaves no room for it on 80 columns), the deal, the score; the moves, the time and the chance stay.
        line = fitted([[game, score, *played, par_text, chance], [game, score, *played, chance],
                       [deal, score, *played, chance], [score, *played, chance], [*played, chance]],
                      (size or self.size).width - status.styles.padding.width)  # known before it is laid out
        status.update(Text(line, no_wrap=True, overflow="ellipsis"))

    def marks(self) -> Marks:
        return Marks(cursor=self.cursor, picked=self.picked, targets=self.targets, hinted=self.hinted)

    def redraw(self) -> None:
        self.query_one(BoardView).show(self.game.public_position(), self.marks())
        self.show_status()
        self.fit_messages()

    def changed(self) -> None:
        """After anything that may have changed the table: marks that no longer hold go, the board is drawn,
        and the chance is worked out again for the new position."""
        self.settle_cursor()
        if self.footer_for != self.game.name:  # another game resumed or loaded: its own keys
            self.footer_for = self.game.name
            self.show_keys()
        if self.solution is not None and self.solution_key != self.key():
            self.solution = None
        self.redraw()
        if self.auto_chance and not self.game.is_won() and not self.sitting.gave_up:
            if self._chance_timer is not None:
                self._chance_timer.stop()
            self._chance_timer = self.set_timer(CHANCE_DELAY, self.work_out_chance)

    # --- thinking in a thread ------------------------------------------------------------------------------
    def think(self, group: str, work: Callable[[Game], T], done: Callable[[T], None]) -> None:
        """Run ``work`` on a copy of the game in a thread; ``done`` gets its answer if the position is unchanged.
        What it tells replaces the messages shown, as an action's do: "Thinking..." gives way to the hint."""
        key, copy = self.key(), self.game.copy()

        def answered(answer: Any) -> None:
            if self.key() == key:
                self.action_began = True
                done(answer)

        def run() -> None:
            try:
                answer: Any = work(copy)
            except Exception as exc:  # noqa: BLE001 - a bug in the advice must not lose the game
                said = Said(_("Sorry, that went wrong inside tableaux ({error}). Your game is still open.").format(
                    error=repr(exc)), "error")
                self.call_from_thread(self.tell, [said])
                return
            self.call_from_thread(answered, answer)

        self.run_worker(run, thread=True, group=group, exclusive=True, exit_on_error=False)

    def work_out_chance(self) -> None:
        from ..advice import chance_words

        budget = self.sitting.effort()

        def done(answer: tuple[str | None, list[Said]]) -> None:
            self.chance = (self.key(), answer[0] or "")
            self.chance_said = answer[1]
            self.show_status()

        self.think("chance", lambda game: chance_words(game, budget), done)


def keys_rows(game: Game, width: int, rows: int = 0) -> list[Text]:
    """The footer for ``game`` in rows of ``width`` cells, no key parted from its word: every key (``rows`` 0), or
    as many as fit in ``rows`` rows, kept in :data:`KEPT_FIRST`'s order and shown in the footer's, the rules key
    then saying that its page has all the keys. The stock's key only in a game that has a stock, as the
    browser's rules say."""
    keys = [(key, _(what)) for key, what in KEYS if key != "d" or game.rules.stock is not None]

    def packed(chosen: list[tuple[str, str]]) -> list[Text]:
        lines: list[Text] = []
        for key, what in chosen:
            item = Text.assemble((key, "bold"), " " + what)
            if lines and cell_len(lines[-1].plain) + 2 + item.cell_len <= width:
                lines[-1].append("  ")
                lines[-1].append_text(item)
            else:
                lines.append(item)
        return lines

    if not rows or len(packed(keys)) <= rows:
        return packed(keys)
    kept: list[str] = []
    for wanted in KEPT_FIRST:
        if len(packed(shortened(keys, [*kept, wanted]))) <= rows:
            kept.append(wanted)
    return packed(shortened(keys, kept))


def shortened(keys: list[tuple[str, str]], kept: list[str]) -> list[tuple[str, str]]:
    """The footer's keys that are ``kept``, in the footer's order; the rules key says it lists all of them."""
    return [(key, _("all keys") if key == "?" else what) for key, what in keys if key in kept]
