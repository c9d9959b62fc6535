"""Playing in the terminal: the board drawn with ``rich``, moves typed in the notation.

The board is drawn by :mod:`tableaux.play.board` from :meth:`Game.public_position`
only, so a face-down card cannot reach the screen by accident: the renderer
never learns what it is.
The play loop takes its input function and console as arguments, so tests
(and scripts piping commands into ``tableaux play``) drive exactly the code a
player uses. The console is a ``rich`` Console (a terminal, in colour) or, where
the output is a pipe or a file, a :class:`~.output.PlainConsole`, which prints the
same text without loading ``rich`` (see :mod:`.output` for why).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..i18n import _
from ..play.board import draw
from ..play.game import Game
from ..play.reading import check_piles, read_pile
from ..rulebook.deal import plain_number, read_deal
from ..rulebook.engine import IllegalMoveError, TableauxError, parse_notation
from .help import help_text
from .output import Output, glyphs_for, output
from .said import LINE_NAMES, STYLES, Said
from .sitting import PlayerError, Sitting, par_of
from .unfinished import Unfinished

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from rich.console import Console

    from .advice import Budget
    from .record import Record

__all__ = ["PlayerError", "Session", "play_loop", "scripted_input", "help_text"]

YES = ("y", "yes")
"""The answers that confirm a question (commands stay English in every language, see docs/translations.md)."""

InputFn = Callable[[str], str]
PROMPT = "> "


def move_count(arg: str, command: str) -> int:
    """How many moves 'undo N' or 'redo N' asks for: one without a number; a clear error for anything else."""
    if not arg:
        return 1
    count = plain_number(arg)
    if count is None or count < 1:
        raise TableauxError(_("'{command}' takes a number of moves, for example '{command} 3', not '{arg}'").format(
            command=command, arg=arg))
    return count


def show_board(game: Game, out: Output) -> None:
    position = game.public_position()
    par = par_of(game)
    if par is not None:  # the status line says it, beside the game's own status
        status = _("Par {par}").format(par=par)
        position["status"] = f"{position['status']}   {status}" if position.get("status") else status
    out.blank()
    for line in draw(position, glyphs_for(out)):
        out.board_line(line)


# --- the play loop --------------------------------------------------------
PILE_WORD = re.compile(r"^(?:foundation|tableau|reserve|stock|waste|[FTRSW])-?\d{0,2}$", re.IGNORECASE)

class Session:
    """One sitting at the terminal in the line mode: a :class:`Sitting` read from typed lines and printed."""

    def __init__(self, game: Game, console: Console | Output, *, input_fn: InputFn | None = None,
                 unfinished: Unfinished | None = None, record: Record | None = None,
                 budget: Budget | None = None) -> None:
        self.sitting = Sitting(game, LINE_NAMES, budget, unfinished, record)
        self.out = output(console)
        self.input_fn = input_fn
        """Where the step-by-step solution and the give-up question read their answers; None asks nothing."""
        self.running = True
        self.quit_warned = False
        """'quit' said once that leaving loses a game that could not be kept."""
        self.replace_asked: Path | None = None
        """The existing file a 'save' said it would replace if asked again."""
        self._handlers: dict[str, Callable[[str], list[Said]]] = {}
        s = self.sitting
        for names, fn in (
            (("help", "?"), lambda _arg: [Said(help_text(self.game, self.out.width))]),
            (("quit", "q", "exit"), self.cmd_quit),
            (("undo", "u"), lambda arg: self.moved(s.undo(move_count(arg, "undo")))),
            (("redo",), lambda arg: self.moved(s.redo(move_count(arg, "redo")))),
            (("restart",), lambda _arg: self.moved(s.restart())),
            (("new",), lambda arg: self.moved(s.new(read_deal(arg)))),
            (("hint", "h"), self.cmd_hint),
            (("chance",), self.cmd_chance),
            (("giveup", "give", "resign"), self.cmd_giveup),
            (("lost?", "lost"), self.cmd_lost),
            (("solve",), self.cmd_solve),
            (("resume",), self.cmd_resume),
            (("deal", "d"), lambda _arg: self.moved(s.deal_stock())),
            (("moves",), self.cmd_moves),
            (("save",), self.cmd_save),
            (("load",), self.cmd_load),
            (("rules",), self.cmd_rules),
            (("stats", "statistics"), self.cmd_stats),
            (("board", "show"), lambda _arg: self.moved([])),
        ):
            for name in names:
                self._handlers[name] = fn

    @property
    def game(self) -> Game:
        return self.sitting.game

    # --- output ------------------------------------------------------
    def say(self, message: str, style: str = "") -> None:
        self.out.say(message, style)

    def tell(self, said: list[Said]) -> None:
        for item in said:
            if item.text == BOARD:
                self.show_board()
            else:
                self.say(item.text, STYLES[item.kind])

    def show_board(self) -> None:
        show_board(self.game, self.out)

    def moved(self, said: list[Said]) -> list[Said]:
        """After a command that changed the table: the board, what happened, then whether the game has ended."""
        ending = self.sitting.ending()
        return [Said(BOARD), *said, *([ending] if ending else [])]

    # --- dispatch ----------------------------------------------------
    def handle(self, line: str) -> None:
        """Do what one line of input asks. Player errors become messages; the game is left as it was."""
        text = line.strip()
        if not text:
            self.tell(self.moved([]))
            return
        word, _sep, rest = text.partition(" ")
        command = self._handlers.get(word.lower())
        if command is not None:
            self.tell(self.sitting.act(lambda: command(rest.strip())))
        elif text.lower() in ("s", "stock"):
            self.tell(self.sitting.act(lambda: self.moved(self.sitting.deal_stock())))  # a click on the stock
        elif PILE_WORD.match(text):
            self.tell(self.sitting.act(lambda: self.send_home(text)))
        else:
            self.tell(self.sitting.act(lambda: self.play(text)))

    def offer_unfinished(self) -> None:
        """At the start of a sitting, say which unfinished games 'resume' can bring back."""
        kept = self.sitting.kept_games()
        if not kept:
            return
        listing = "; ".join(f"{i}) {saved.listed()}" for i, saved in enumerate(kept[:5], 1))
        if len(kept) > 5:
            text = _("Unfinished games kept for you: {listing} (and {more} more). Type 'resume' to go back to the "
                     "first, 'resume N' for another.").format(listing=listing, more=len(kept) - 5)
        else:
            text = _("Unfinished games kept for you: {listing}. Type 'resume' to go back to the first, "
                     "'resume N' for another.").format(listing=listing)
        self.say(text, "cyan")

    def play(self, text: str) -> list[Said]:
        try:
            move = self.game.parse_move(text)  # text that is not a move gets this game's own notation help
        except IllegalMoveError as exc:
            if self.game.is_won():
                raise  # the game's own refusal says what to do instead, and there is no move to list
            source, _sep, target = parse_notation(text)
            self.check_pile(source)
            self.check_pile(target)
            # the engine's reason (Rules.why_illegal): one place for every interface; act() makes it a sentence
            raise IllegalMoveError(_("{reason}. Type 'moves' to list the legal moves.").format(reason=exc)) from None
        return self.moved(self.sitting.play(move))

    def check_pile(self, pile: str) -> None:
        check_piles(self.game.rules, pile, typed=True)

    def send_home(self, text: str) -> list[Said]:
        pile = read_pile(self.game.rules, text)
        said = self.sitting.send_home(pile)
        return said if said[0].kind == "warning" else self.moved(said)

    # --- commands ----------------------------------------------------
    def cmd_quit(self, _arg: str) -> list[Said]:
        """Leave; a game that could not be kept is said to be lost first, and a second 'quit' leaves anyway."""
        warning = self.sitting.leaving_warning()
        if warning is not None and not self.quit_warned:
            self.quit_warned = True
            return [Said(warning + " " + _("Type 'quit' again to leave anyway."), "warning")]
        self.running = False
        return []

    def cmd_hint(self, arg: str) -> list[Said]:
        """``hint``: a fair hint; ``hint peek``: the solver looks at the face-down cards (and says so)."""
        from ..advice.hints import HINT_MODES
        from . import advice

        mode = arg.strip().lower() or "fair"
        if mode not in HINT_MODES:
            return [Said(_("Type 'hint' for a fair hint, or 'hint peek' for one that looks at the face-down cards."),
                         "warning")]
        self.tell_first(advice.hint_start(self.game, self.sitting.effort(), mode))
        hint, said = advice.advise(self.game, self.sitting.effort(), mode)
        return [said, *self.sitting.peeked(hint.peeks)]

    def cmd_chance(self, _arg: str) -> list[Said]:
        from . import advice

        self.tell_first(advice.chance_start(self.game, self.sitting.effort()))
        return advice.chance(self.game, self.sitting.effort())

    def tell_first(self, said: Said | None) -> None:
        """Say what a slow command is about to do before it does it."""
        if said is not None:
            self.tell([said])

    def cmd_giveup(self, arg: str) -> list[Said]:
        """Give the game up, once the player has said yes: it then counts as lost, and 'lost?' may look at every
        card."""
        from . import advice

        if arg.strip().lower() not in ("", "up"):
            return [Said(_("Type 'giveup' to give up this game."), "warning")]
        refusal = advice.giveup_refusal(self.game, self.sitting.gave_up, LINE_NAMES)
        if refusal is not None:
            return [refusal]
        if self.input_fn is not None:
            answer = self.ask(advice.give_up_question(self.game) + " [yes/no] ", _("Not given up."))
            if answer is None:
                return []
            if answer.strip().lower() not in YES:
                return [Said(_("Not given up: play on."), "note")]
        return self.sitting.giveup()

    def cmd_lost(self, _arg: str) -> list[Said]:
        from . import advice

        said, go_on = advice.lost_start(self.game, self.sitting.gave_up, LINE_NAMES)
        self.tell([said])
        if not go_on:
            return []
        found, self.sitting.looked = advice.lost(self.game, self.sitting.effort(), self.sitting.gave_up)
        return found

    def cmd_resume(self, arg: str) -> list[Said]:
        if self.sitting.unfinished is None:
            return [Said(_("Unfinished games are not kept here; use 'load FILE' for a saved game."), "warning")]
        kept = self.sitting.kept_games()
        if not kept:
            return [Said(_("No other unfinished game is kept."), "warning")]
        number = plain_number(arg) if arg else 1
        if number is None or not 1 <= number <= len(kept):
            return [Said(_("Say which unfinished game: resume N, with N from 1 to {n}.").format(n=len(kept)),
                         "warning")]
        return self.moved(self.sitting.resume(kept[number - 1]))

    def cmd_solve(self, _arg: str) -> list[Said]:
        """Play the solver's winning line from here, one move per Enter, so the player sees how the deal is won."""
        if not self.game.is_won():
            self.say(_("Looking for a winning line from this position..."), "dim")
        moves, said = self.sitting.solution(self.game)
        if not moves:
            return said
        self.game.assisted = True
        self.tell(said)
        self.say(_("Enter plays the next move, 'all' plays the rest, 'stop' (or any command) stops."), "cyan")
        step_by_step = self.input_fn is not None
        for number, move in enumerate(moves, 1):
            if step_by_step:
                answer = self.ask(_("solution {number}/{total} [Enter, all, stop]> ").format(
                    number=number, total=len(moves)), _("Solution stopped."))
                if answer is None:
                    return []
                word = answer.strip().lower()
                if word in ("all", "a"):
                    step_by_step = False
                elif word not in ("", "next", "n"):
                    self.say(_("Solution stopped after {done} of {total} moves; 'solve' goes on.").format(
                        done=number - 1, total=len(moves)), "dim")
                    if word not in ("stop", "s", "q", "quit"):
                        self.handle(answer)  # anything else is an ordinary command, and is obeyed
                    return []
            step = self.sitting.act(lambda move=move, number=number: self.sitting.solution_step(
                move, number, len(moves)))
            if step_by_step or number == len(moves):
                self.tell(self.moved(step))
            else:
                self.say(step[0].text, "dim")
        return []

    def ask(self, prompt: str, stopped: str) -> str | None:
        """One answer from the player; None at the end of input or on Ctrl-C, which stop what was asked
        (``stopped`` says so)."""
        assert self.input_fn is not None
        try:
            return self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            self.out.blank()
            self.say(stopped, "dim")
            return None

    def cmd_moves(self, _arg: str) -> list[Said]:
        moves = self.game.legal_moves()
        return [Said(_("Legal moves: {moves}").format(
            moves=" ".join(str(m) for m in moves) if moves else _("none")))]

    def cmd_save(self, arg: str) -> list[Said]:
        from pathlib import Path

        path = Path(arg).expanduser() if arg else self.sitting.save_path
        if path is None:
            return [Said(_("Say where to save: save FILE (for example: save mygame.json)."), "warning")]
        if self.sitting.replaces(path) and path != self.replace_asked:
            self.replace_asked = path
            return [Said(_("{path} already exists and may hold another game; type the same save command again to "
                           "replace it.").format(path=path), "warning")]
        self.replace_asked = None
        return self.sitting.save(path)

    def cmd_load(self, arg: str) -> list[Said]:
        if not arg:
            return [Said(_("Say which file: load FILE."), "warning")]
        from pathlib import Path

        return self.moved(self.sitting.load(Path(arg).expanduser()))

    def cmd_rules(self, _arg: str) -> list[Said]:
        from .rules import rules_text

        return [Said(rules_text(self.game.rules))]

    def cmd_stats(self, _arg: str) -> list[Said]:
        said = self.sitting.statistics()
        return [Said(said[0].text, "advice"), *(Said("  " + item.text) for item in said[1:])] if len(said) > 1 \
            else said


BOARD = "\0board"
"""A message that stands for the board itself, drawn where it comes among the messages."""


def play_loop(
    game: Game,
    input_fn: InputFn,
    console: Console | Output,
    unfinished: Unfinished | None = None,
    message: str = "",
    budget: Budget | None = None,
    record: Record | None = None,
    resumed: Any = None,
) -> Game:
    """Play until quit or end of input; returns the game as it was left (``new`` may have replaced it).

    ``input_fn(prompt)`` returns one line, raising ``EOFError`` at the end of input. With ``unfinished``,
    the game is kept there after every command, and the unfinished games it holds are offered; ``resumed``
    is the kept game (:class:`~.unfinished.Saved`) that ``game`` comes from, if it does. ``record`` writes
    down finished games for the statistics. ``budget`` sets how hard the fair-play commands work.
    """
    session = Session(game, console, input_fn=input_fn, unfinished=unfinished, record=record, budget=budget)
    session.tell(session.moved(session.sitting.switch_to(game, message, resumed)))
    session.offer_unfinished()
    session.say(_("Type a move such as T1>T3, or 'help'."), "dim")
    while session.running:
        try:
            line = input_fn(PROMPT)
        except EOFError:
            session.out.blank()
            break
        except KeyboardInterrupt:
            session.out.blank()
            session.say(_("(Ctrl-C) Type 'quit' or press Ctrl-D to leave."), "dim")
            continue
        try:
            session.handle(line)
        except KeyboardInterrupt:
            session.say(_("Interrupted."), "dim")
        except Exception as exc:  # noqa: BLE001 - never lose the player's game to a bug
            session.say(_("Sorry, that went wrong inside tableaux ({error}). Your game is still open.").format(
                error=repr(exc)), "red")
    session.tell(session.sitting.leave())
    session.tell([session.sitting.farewell()])
    return session.game


def scripted_input(stream: Any, console: Console | Output) -> InputFn:
    """Input from a pipe: the prompt and the line are echoed, so a transcript reads like a session."""
    out = output(console)

    def read(prompt: str) -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        out.say(prompt + line.rstrip("\n"))
        return line

    return read
