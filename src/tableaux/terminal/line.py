"""Playing in the terminal: the board drawn with ``rich``, moves typed in the notation.

The board is drawn by :mod:`tableaux.play.board` from :meth:`Game.public_position`
only, so a face-down card cannot reach the screen by accident: the renderer
never learns what it is.
The play loop takes its input function and console as arguments, so tests
(and scripts piping commands into ``tableaux play``) drive exactly the code a
player uses.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from ..i18n import _
from ..play.board import ASCII, UNICODE, Glyphs, render
from ..play.game import Game, new_game
from ..play.saves import load
from ..rulebook.cards import CardError
from ..rulebook.deal import DealError
from ..rulebook.engine import IllegalMoveError, Move, TableauxError, long_name, parse_notation, short_name
from ..solver import solve
from .advice import Budget, cmd_chance, cmd_giveup, cmd_hint, cmd_lost, terminal_budget
from .help import help_text, pile_summary
from .unfinished import Unfinished

PlayerError = (TableauxError, DealError, CardError)
"""Errors whose messages are written for players; anything else is a bug."""

InputFn = Callable[[str], str]
PROMPT = "> "


def glyphs_for(console: Console) -> Glyphs:
    encoding = (console.encoding or "").lower().replace("-", "")
    return UNICODE if encoding.startswith("utf") else ASCII


def show_board(game: Game, console: Console) -> None:
    glyphs = glyphs_for(console)
    console.print()
    for line in render(game.public_position(), glyphs):
        console.print(line)


# --- the play loop --------------------------------------------------------
PILE_WORD = re.compile(r"^(?:foundation|tableau|reserve|stock|waste|[FTRSW])-?\d{0,2}$", re.IGNORECASE)


@dataclass
class Session:
    """One sitting at the terminal: the game being played and where it was last saved."""

    game: Game
    console: Console
    save_path: Path | None = None
    running: bool = True
    budget: Budget = field(default_factory=terminal_budget)
    """How hard ``chance``, ``hint`` and ``lost?`` work (see :mod:`tableaux.terminal.advice`)."""
    gave_up: bool = False
    looked: bool = False
    """True once 'lost?' has answered for this game: it looked at every card."""
    input_fn: InputFn | None = None
    """Where the step-by-step solution reads its answers; None plays a solution without asking."""
    unfinished: Unfinished | None = None
    """Where games in progress are kept after every command; None keeps nothing (tests, scripts that ask)."""
    _handlers: dict[str, Callable[[str], None]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        h = self._handlers
        for names, fn in (
            (("help", "?"), self.cmd_help),
            (("quit", "q", "exit"), self.cmd_quit),
            (("undo", "u"), self.cmd_undo),
            (("redo",), self.cmd_redo),
            (("restart",), self.cmd_restart),
            (("new",), self.cmd_new),
            (("hint", "h"), lambda arg: cmd_hint(self, arg)),
            (("chance",), lambda arg: cmd_chance(self, arg)),
            (("giveup", "give", "resign"), lambda arg: cmd_giveup(self, arg)),
            (("lost?", "lost"), lambda arg: cmd_lost(self, arg)),
            (("solve",), self.cmd_solve),
            (("resume",), self.cmd_resume),
            (("deal", "d"), self.cmd_deal),
            (("moves",), self.cmd_moves),
            (("save",), self.cmd_save),
            (("load",), self.cmd_load),
            (("board", "show"), lambda _arg: self.show()),
        ):
            for name in names:
                h[name] = fn

    # --- output ------------------------------------------------------
    def say(self, message: str, style: str = "") -> None:
        self.console.print(Text(message, style=style))

    def show(self, message: str = "") -> None:
        """The board, what just happened, then whether the game has ended (so that comes last)."""
        show_board(self.game, self.console)
        if message:
            self.say(message)
        if self.game.is_won():
            self.say(
                _("You won {game} deal {deal} in {moves} moves! Type 'new' for another deal, or 'undo' to step back.")
                .format(game=_(self.game.rules.title), deal=self.game.deal, moves=len(self.game.moves_played)),
                "bold green",
            )
        elif self.game.is_over():
            self.say(
                _("No legal move is left: this game is over. Type 'undo' to step back, 'restart' to try the "
                  "deal again, 'lost?' to see where it could no longer be won, or 'new' for another deal."),
                "bold yellow",
            )

    # --- dispatch ----------------------------------------------------
    def handle(self, line: str) -> None:
        """Do what one line of input asks. Player errors become messages; the game is left as it was."""
        text = line.strip()
        if not text:
            self.show()
            return
        word, _sep, rest = text.partition(" ")
        command = self._handlers.get(word.lower())
        before = (self.game, self.game.state, len(self.game.moves_played), self.game.assisted)
        try:
            if command is not None:
                command(rest.strip())
            elif text.lower() in ("s", "stock"):
                self.cmd_deal("")  # a click on the stock
            elif PILE_WORD.match(text):
                self.send_home(text)
            else:
                self.play(text)
        except PlayerError as exc:
            self.say(str(exc), "yellow")
        finally:
            self.played_on(*before)
            self.keep()

    def played_on(self, game: Game, state: Any, played: int, assisted: bool) -> None:
        """After giving up or 'lost?' (which looks at every card), playing on makes the game assisted, as in the
        browser, and the player is told so; the game is then on again, so 'lost?' waits for its end."""
        if not (self.gave_up or self.looked) or self.game is not game:
            return
        if (self.game.state, len(self.game.moves_played)) == (state, played):
            return
        self.game.assisted = True
        if not assisted:
            if self.looked:
                text = _("'lost?' looked at every card, so this game now counts as assisted (as when the solver "
                         "helps).")
            else:
                text = _("You had given this game up, so playing on counts it as assisted (as when the solver "
                         "helps).")
            self.say(text, "yellow")
        self.gave_up = self.looked = False

    def keep(self) -> None:
        """Write the game in progress to the unfinished games, so neither 'new', 'quit' nor a crash loses it."""
        if self.unfinished is None:
            return
        try:
            self.unfinished.keep(self.game)
        except OSError as exc:
            self.say(_("(Could not keep this game in {directory}: {error}.)").format(
                directory=self.unfinished.directory, error=exc.strerror or exc), "dim")

    def switch_to(self, game: Game, message: str) -> None:
        """Put ``game`` on the table; the one it replaces was kept after the last command."""
        self.keep()
        if self.unfinished is not None and not (game.moves_played or game.redo_moves):
            kept = self.unfinished.find(game.name, game.deal)
            if kept is not None:  # starting afresh would overwrite that game at the first move
                game = kept
                message = _("You had an unfinished game of {game} deal {deal}: it is back, {n} moves in "
                            "('restart' goes back to the deal, 'redo' returns).").format(
                    game=_(game.rules.title), deal=game.deal, n=len(game.moves_played))
        self.game = game
        self.gave_up = self.looked = False
        self.show(message)

    def offer_unfinished(self) -> None:
        """At the start of a sitting, say which unfinished games 'resume' can bring back."""
        if self.unfinished is None:
            return
        kept = self.unfinished.games(exclude=self.game)
        if not kept:
            return
        listing = "; ".join(f"{i}) {saved.describe()}" for i, saved in enumerate(kept[:5], 1))
        if len(kept) > 5:
            text = _("Unfinished games kept for you: {listing} (and {more} more). Type 'resume' to go back to the "
                     "first, 'resume N' for another.").format(listing=listing, more=len(kept) - 5)
        else:
            text = _("Unfinished games kept for you: {listing}. Type 'resume' to go back to the first, "
                     "'resume N' for another.").format(listing=listing)
        self.say(text, "cyan")

    def play(self, text: str) -> None:
        try:
            move = self.game.parse_move(text)  # text that is not a move gets this game's own notation help
        except IllegalMoveError as exc:
            source, _sep, target = parse_notation(text)
            self.check_pile(source)
            self.check_pile(target)
            reason = str(exc)  # the engine's reason (Rules.why_illegal): one place for every interface
            raise IllegalMoveError(_("{reason}. Type 'moves' to list the legal moves.").format(
                reason=reason[:1].upper() + reason[1:])) from None
        self.game.play(move)
        self.played(move)

    def check_pile(self, pile: str) -> None:
        if pile not in self.game.rules.index:
            raise IllegalMoveError(_("{game} has no pile {pile}; its piles are {piles}.").format(
                game=_(self.game.rules.title), pile=short_name(pile), piles=pile_summary(self.game)))

    def played(self, move: Move) -> None:
        self.show(_("Played {move}.").format(move=move))

    def send_home(self, text: str) -> None:
        pile = long_name(text)
        self.check_pile(pile)
        move = self.game.home_move(pile)
        if move is None:
            cards = self.game.state.piles[self.game.rules.index[pile]]
            if not cards:
                text = _("{pile} is empty. Type 'help' for how to move cards.")
            else:
                text = _("{pile} has no card that can go to a foundation now. Type 'help' for how to move cards.")
            self.say(text.format(pile=short_name(pile)), "yellow")
            return
        self.game.play(move)
        self.played(move)

    # --- commands ----------------------------------------------------
    def cmd_help(self, _arg: str) -> None:
        self.say(help_text(self.game))

    def cmd_quit(self, _arg: str) -> None:
        self.running = False

    def cmd_undo(self, _arg: str) -> None:
        move = self.game.undo()
        self.show(_("Undid {move}.").format(move=move))

    def cmd_redo(self, _arg: str) -> None:
        move = self.game.redo()
        self.show(_("Redid {move}.").format(move=move))

    def cmd_restart(self, _arg: str) -> None:
        self.game.restart()
        self.show(_("Back to the start of the deal; 'redo' replays your moves."))

    def cmd_new(self, arg: str) -> None:
        game = new_game(self.game.name, int(arg) if arg.isdigit() else (arg or None))
        self.save_path = None
        if self.unfinished and self.in_progress():
            message = _("New game: deal {deal}. (the last one is kept: 'resume' brings it back)")
        else:
            message = _("New game: deal {deal}.")
        self.switch_to(game, message.format(deal=game.deal))

    def in_progress(self) -> bool:
        return not self.game.is_won() and bool(self.game.moves_played or self.game.redo_moves)

    def cmd_resume(self, arg: str) -> None:
        if self.unfinished is None:
            self.say(_("Unfinished games are not kept here; use 'load FILE' for a saved game."), "yellow")
            return
        kept = self.unfinished.games(exclude=self.game)
        if not kept:
            self.say(_("No other unfinished game is kept."), "yellow")
            return
        if arg and not (arg.isdigit() and 1 <= int(arg) <= len(kept)):
            self.say(_("Say which unfinished game: resume N, with N from 1 to {n}.").format(n=len(kept)), "yellow")
            return
        saved = kept[int(arg) - 1 if arg else 0]
        self.save_path = None
        self.switch_to(saved.game, _("Resumed {game}.").format(game=saved.describe()))

    def cmd_solve(self, _arg: str) -> None:
        """Play the solver's winning line from here, one move per Enter, so the player sees how the deal is won."""
        game = self.game
        if game.is_won():
            self.say(_("This game is already won."), "green")
            return
        self.say(_("Looking for a winning line from this position..."), "dim")
        spend = self.budget["solution"]
        result = solve(game, max_nodes=spend.positions, time_limit=spend.seconds)
        if result.verdict == "unwinnable":
            self.say(_("This position cannot be won: the solver tried every way on from here. "
                       "'undo' steps back to where it still could be, 'restart' goes back to the deal."),
                     "bold yellow")
            return
        if result.verdict == "unknown":
            self.say(_("The solver could not decide within {seconds} seconds whether this position "
                       "can be won. Play on, or try 'solve' again after a few moves.").format(
                seconds=f"{spend.seconds:g}"), "yellow")
            return
        moves = result.moves
        self.say(_("A winning line of {n} moves. Enter plays the next move, 'all' plays the rest, "
                   "'stop' (or any command) stops. This game now counts as assisted.").format(n=len(moves)), "cyan")
        game.assisted = True
        step_by_step = self.input_fn is not None
        for number, move in enumerate(moves, 1):
            if step_by_step:
                answer = self.ask(_("solution {number}/{total} [Enter, all, stop]> ").format(
                    number=number, total=len(moves)), _("Solution stopped."))
                if answer is None:
                    return
                word = answer.strip().lower()
                if word in ("all", "a"):
                    step_by_step = False
                elif word not in ("", "next", "n"):
                    self.say(_("Solution stopped after {done} of {total} moves; 'solve' goes on.").format(
                        done=number - 1, total=len(moves)), "dim")
                    if word not in ("stop", "s", "q", "quit"):
                        self.handle(answer)  # anything else is an ordinary command, and is obeyed
                    return
            game.play(move)
            self.keep()
            text = _("Solution move {number} of {total}: {move}.").format(number=number, total=len(moves), move=move)
            if step_by_step or number == len(moves):
                self.show(text)
            else:
                self.say(text, "dim")

    def ask(self, prompt: str, stopped: str) -> str | None:
        """One answer from the player; None at the end of input or on Ctrl-C, which stop what was asked
        (``stopped`` says so)."""
        assert self.input_fn is not None
        try:
            return self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            self.say(stopped, "dim")
            return None

    def cmd_deal(self, _arg: str) -> None:
        rules = self.game.rules
        if rules.stock is None or rules.waste is None:
            self.say(_("{game} has no stock; every card is already on the table.").format(game=_(rules.title)),
                     "yellow")
            return
        stock = rules.pile_names[rules.stock]
        moves = [m for m in self.game.legal_moves() if stock in (m.source, m.target)]
        if not moves:
            piles = self.game.state.piles
            if piles[rules.stock] or piles[rules.waste]:
                text = _("Cannot deal: the waste cannot go back: no redeals are left.")
            else:
                text = _("Cannot deal: the stock and the waste are both empty.")
            self.say(text, "yellow")
            return
        self.game.play(moves[0])
        self.played(moves[0])

    def cmd_moves(self, _arg: str) -> None:
        moves = self.game.legal_moves()
        self.say(_("Legal moves: {moves}").format(moves=" ".join(str(m) for m in moves) if moves else _("none")))

    def cmd_save(self, arg: str) -> None:
        path = Path(arg).expanduser() if arg else self.save_path
        if path is None:
            self.say(_("Say where to save: save FILE (for example: save mygame.json)."), "yellow")
            return
        try:
            self.game.save(path)
        except OSError as exc:
            self.say(_("Could not save to {path}: {error}. Your game is still here.").format(
                path=repr(str(path)), error=exc.strerror or exc), "yellow")
            return
        self.save_path = path
        self.say(_("Saved to {path}; resume with: tableaux play --load {path}").format(path=path))

    def cmd_load(self, arg: str) -> None:
        if not arg:
            self.say(_("Say which file: load FILE."), "yellow")
            return
        game = load(Path(arg).expanduser())
        self.save_path = Path(arg).expanduser()
        self.switch_to(game, _("Loaded {game} deal {deal}.").format(game=_(game.rules.title), deal=game.deal))


def play_loop(
    game: Game,
    input_fn: InputFn,
    console: Console,
    unfinished: Unfinished | None = None,
    message: str = "",
    budget: Budget | None = None,
) -> Game:
    """Play until quit or end of input; returns the game as it was left (``new`` may have replaced it).

    ``input_fn(prompt)`` returns one line, raising ``EOFError`` at the end of input. With ``unfinished``,
    the game is kept there after every command, and the unfinished games it holds are offered.
    ``budget`` sets how hard the fair-play commands and ``solve`` work (:mod:`tableaux.advice.effort`).
    """
    session = Session(game, console, input_fn=input_fn, unfinished=unfinished, budget=budget or terminal_budget())
    session.switch_to(game, message)
    session.offer_unfinished()
    session.say(_("Type a move such as T1>T3, or 'help'."), "dim")
    while session.running:
        try:
            line = input_fn(PROMPT)
        except EOFError:
            console.print()
            break
        except KeyboardInterrupt:
            console.print()
            session.say(_("(Ctrl-C) Type 'quit' or press Ctrl-D to leave."), "dim")
            continue
        try:
            session.handle(line)
        except KeyboardInterrupt:
            session.say(_("Interrupted."), "dim")
        except Exception as exc:  # noqa: BLE001 - never lose the player's game to a bug
            session.say(_("Sorry, that went wrong inside tableaux ({error}). Your game is still open.").format(
                error=repr(exc)), "red")
    g = session.game
    session.keep()
    if session.unfinished is not None and session.in_progress():
        session.say(_("Bye. Your {game} game (deal {deal}) is kept: 'tableaux play --resume' brings it back.")
                    .format(game=_(g.rules.title), deal=g.deal), "dim")
    else:
        session.say(
            _("Bye. That was {game} deal {deal}; 'tableaux play {name} --deal {deal}' deals it again.")
            .format(game=_(g.rules.title), deal=g.deal, name=g.name),
            "dim",
        )
    return g


def scripted_input(stream: Any, console: Console) -> InputFn:
    """Input from a pipe: the prompt and the line are echoed, so a transcript reads like a session."""

    def read(prompt: str) -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        console.print(Text(prompt + line.rstrip("\n")), highlight=False)
        return line

    return read
