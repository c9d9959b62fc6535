"""One sitting at the terminal, whichever mode shows it: the game on the table and what is done to it.

The line mode (:mod:`.line`) and the full-screen board (:mod:`.screen`) both hold a :class:`Sitting` and
call its commands; each command changes the game through :class:`~tableaux.play.game.Game` (which asks
the rules) and returns what to tell the player as :class:`~.said.Said` messages, so the two modes agree
on what a command does and how it is worded. :meth:`Sitting.act` wraps every command: a player's error
becomes a message and changes nothing, playing on after giving up or looking at every card makes the game
assisted, and the game is kept after every command (:mod:`.unfinished`), so nothing is lost.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..i18n import _, ngettext
from ..play.game import Game, new_game
from ..play.save_file import SaveFileError
from ..rulebook.cards import CardError
from ..rulebook.deal import DealError
from ..rulebook.engine import Move, TableauxError, short_name
from .said import LINE_NAMES, Names, Said, sentence
from .unfinished import Saved, Unfinished, read_kept, write_kept

TYPE_CHECKING = False  # typing is not loaded: see tableaux.rulebook.engine
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from .advice import Budget
    from .record import Record
    from .unfinished import StrPath

PlayerError = (TableauxError, DealError, CardError)
"""Errors whose messages are written for players; anything else is a bug."""


def par_of(game: Game) -> int | None:
    """The deal's par when it is one of the catalogue's graded deals (and so maybe a daily deal), else None. Read
    by :mod:`tableaux.catalogue.pars`, which loads nothing a sitting's start would notice."""
    from ..catalogue.pars import par_of as catalogue_par

    return catalogue_par(game.name, game.deal)



class Sitting:
    """The game being played, how it stands (given up, looked at), and where it is kept.

    A plain class rather than a dataclass: ``dataclasses`` (with ``inspect``, which it loads) costs a sitting's
    start more than the sitting itself (``benchmarks/cli.py``).
    """

    def __init__(self, game: Game, names: Names = LINE_NAMES, budget: Budget | None = None,
                 unfinished: Unfinished | None = None, record: Record | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.game = game
        self.names = names
        self.budget = budget
        """How hard chance, hints and 'where lost' work (see :mod:`tableaux.terminal.advice`); None: as usual
        (:meth:`effort`)."""
        self.unfinished = unfinished
        """Where games in progress are kept after every command; None keeps nothing (tests, scripts that ask)."""
        self.record = record
        """Where finished games (won or given up) are written down for the statistics; None writes nothing."""
        self.clock = clock
        self.save_path: Path | None = None
        self.gave_up = False
        self.looked = False
        """True once 'where lost' has answered for this game: it looked at every card."""
        self.kept_path: StrPath | None = None
        """This game's file among the unfinished games (None until it has a move to keep)."""
        self.unkept: str | None = None
        """Why the game in progress could not be kept when last tried (None: it was, or had nothing to keep):
        quitting must not say it is kept, and the board asks before it leaves such a game."""
        self.recorded = False
        """True once this game is in the record (won, given up or lost), so it is counted once."""
        self.lost = False
        """True once the game was left with no legal move: it ended there, lost (:meth:`leave`)."""
        self.seconds_before = 0.0
        """Time played on this game in earlier sittings (kept with it)."""
        self.final: float | None = None
        """The time played when the game ended (won or given up): the clock shows it while the game stays ended."""
        self.started: float | None = None
        """When this sitting began counting the game's time: at its first move, or as it came to the table when it
        had moves already (the clock starts at the first move, as in the browser). None before."""
        self.start_clock()

    def effort(self) -> Budget:
        """How hard the fair commands work. Their module (and the solver's advice under it) is loaded when first
        needed, so a sitting starts without it."""
        if self.budget is None:
            from ..advice.effort import EFFORT

            self.budget = dict(EFFORT["terminal"])
        return self.budget

    # --- the game on the table ---------------------------------------------------------------------
    def seconds(self) -> float:
        """Time played on this game: earlier sittings and this one, from its first move to its end."""
        if self.final is not None:
            return self.final
        if self.started is None:
            return self.seconds_before
        return self.seconds_before + self.clock() - self.started

    def stop_clock(self) -> None:
        """Stop the clock when the game has ended, and start it again from there if it goes on (an undo)."""
        ended = self.ended()
        if ended and self.final is None:
            self.final = self.seconds()
        elif not ended and self.final is not None:
            self.seconds_before, self.final = self.final, None
            self.started = self.clock()

    def start_clock(self, at: float | None = None) -> None:
        """Start counting the game's time (at ``at``, when a command that made its first move began), once it has
        been played: a move, even one taken back since."""
        if self.started is None and self.played():
            self.started = self.clock() if at is None else at

    def played(self) -> bool:
        """The game has been played: a move, even one taken back since (the clock runs, leaving it counts)."""
        return bool(self.game.moves_played or self.game.redo_moves)

    def ended(self) -> bool:
        """The game is over for the statistics: won, given up, or left with no legal move."""
        return self.game.is_won() or self.gave_up or self.lost

    def in_progress(self) -> bool:
        return self.played() and not self.ended()

    def ending(self) -> Said | None:
        """Whether the game has ended, said after whatever happened (so it comes last)."""
        game, names = self.game, self.names
        if game.is_won():
            par = par_of(game)
            text = (_("{game} deal {deal} won in {moves} moves, with the solver's help: it counts as assisted. {new} "
                      "deals another game, {undo} steps back.") if game.assisted else
                    _("You won {game} deal {deal} in {moves} moves! {new} deals another game, {undo} steps back.")
                    if par is None else
                    _("You won {game} deal {deal} in {moves} moves (par {par})! {new} deals another game, {undo} "
                      "steps back."))
            return Said(text.format(game=_(game.rules.title), deal=game.deal, moves=len(game.moves_played), par=par,
                                    new=names.new, undo=names.undo), "won")
        if game.is_over():
            return Said(_("No legal move is left: this game is over, and counts as lost once you leave it. {undo} "
                          "steps back, {restart} tries the deal again, {lost} shows where it could no longer be won, "
                          "{new} deals another game.").format(
                undo=names.undo, restart=names.restart, lost=names.lost, new=names.new), "over")
        return None

    def act(self, command: Callable[[], list[Said]]) -> list[Said]:
        """Run one command: a player's error becomes a message (a sentence: :func:`.said.sentence`) and changes
        nothing; then the game is kept."""
        game, state, played, assisted = self.game, self.game.state, len(self.game.moves_played), self.game.assisted
        began = self.clock()
        said: list[Said] = []
        try:
            said = command()
        except PlayerError as exc:
            said = [Said(sentence(str(exc)), "warning")]
        finally:
            if self.game is game:
                self.start_clock(began)
            said += self.played_on(game, state, played, assisted)
            self.stop_clock()
            said += self.keep()
            self.note_win()
        return said

    def played_on(self, game: Game, state: Any, played: int, assisted: bool) -> list[Said]:
        """After giving up or 'where lost' (which looks at every card), playing on makes the game assisted, as in
        the browser, and the player is told so; the game is then on again, so 'where lost' waits for its end."""
        if not (self.gave_up or self.looked) or self.game is not game:
            return []
        if (self.game.state, len(self.game.moves_played)) == (state, played):
            return []
        self.game.assisted = True
        said = []
        if not assisted:
            if self.looked:
                text = _("{lost} looked at every card, so this game now counts as assisted (as when the solver "
                         "helps).").format(lost=self.names.lost)
            else:
                text = _("You had given this game up, so playing on counts it as assisted (as when the solver "
                         "helps).")
            said.append(Said(text, "warning"))
        self.gave_up = self.looked = False
        return said

    def leave(self) -> list[Said]:
        """As the game leaves the table (quit, or another game taken up): one with no legal move left has ended,
        lost, and is recorded so; then the game is kept, or its file goes."""
        if self.played() and not self.ended() and self.game.is_over():
            self.lost = True
            self.write_record("lost")
        return self.keep()

    def keep(self) -> list[Said]:
        """Write the game in progress to the unfinished games, so neither 'new', 'quit' nor a crash loses it.

        A won or given-up game is finished: its file goes (the record keeps how it ended).
        """
        self.unkept = None
        if self.unfinished is None:
            return []
        try:
            if self.in_progress():
                self.kept_path = self.unfinished.keep(self.game, self.kept_path, self.seconds(), self.recorded)
            elif self.kept_path is not None and self.ended():
                self.unfinished.forget(self.kept_path)
                self.kept_path = None
        except (SaveFileError, OSError) as exc:  # OSError: the folder could not be made
            self.unkept = str(getattr(exc, "strerror", None) or exc)
            return [Said(_("(Could not keep this game in {directory}: {error}.)").format(
                directory=self.unfinished.directory, error=self.unkept), "warning")]
        return []

    def note_win(self) -> None:
        if self.game.is_won():
            self.write_record("won")

    def write_record(self, result: str) -> None:
        if self.record is None or self.recorded:
            return
        self.recorded = True
        try:
            self.record.add(self.game, result, self.seconds())
        except OSError:
            pass  # the statistics miss one game; the game itself is not at stake

    def switch_to(self, game: Game, message: str, kept: Saved | None = None) -> list[Said]:
        """Put ``game`` on the table (``kept``: it comes from the unfinished games); the one it replaces was kept
        after the last command (or it is this very game, as a sitting begins)."""
        said = self.leave() if game is not self.game else []
        self.game = game
        self.gave_up = self.looked = self.lost = False
        self.recorded = kept is not None and kept.recorded  # finished once already: the record has it
        self.kept_path = kept.path if kept is not None else None
        self.seconds_before = kept.seconds if kept is not None else 0.0
        self.started = self.final = None
        self.start_clock()
        return said + ([Said(message)] if message else [])

    def farewell(self) -> Said:
        """The last word of a sitting: where the game is kept, or how to deal it again."""
        g = self.game
        if self.unfinished is not None and self.in_progress() and self.unkept is not None:
            return Said(_("Bye. Your {game} game (deal {deal}) could not be kept ({error}); 'tableaux play {name} "
                          "--deal {deal}' deals it again.").format(game=_(g.rules.title), deal=g.deal,
                                                                   error=self.unkept, name=g.name), "warning")
        if self.unfinished is not None and self.in_progress():
            return Said(_("Bye. Your {game} game (deal {deal}) is kept: 'tableaux play --resume' brings it back.")
                        .format(game=_(g.rules.title), deal=g.deal), "note")
        return Said(_("Bye. That was {game} deal {deal}; 'tableaux play {name} --deal {deal}' deals it again.")
                    .format(game=_(g.rules.title), deal=g.deal, name=g.name), "note")

    def peeked(self, peeks: bool) -> list[Said]:
        """After a hint: one that looked at the face-down cards makes the game assisted, as in the browser, and
        says so once; the game is kept with it."""
        game = self.game
        if not peeks or game.assisted or game.is_won() or self.gave_up:
            return []
        game.assisted = True
        return [Said(_("The hint looked at the face-down cards, so this game now counts as assisted in the "
                       "statistics."), "warning"), *self.keep()]

    def leaving_warning(self) -> str | None:
        """What leaving would cost, asked before the player leaves: a game in progress that could not be kept
        is lost when the sitting ends. None when leaving loses nothing."""
        if self.unfinished is None or not self.in_progress() or self.unkept is None:
            return None
        return _("This game could not be kept ({error}): leaving loses it. {save} saves it to a file first.").format(
            error=self.unkept, save=self.names.save)

    # --- moves ---------------------------------------------------------------------------------------
    def play(self, move: Move) -> list[Said]:
        """Play ``move``; an illegal one raises the engine's reason (:meth:`Game.play`) and changes nothing."""
        self.game.play(move)
        return [Said(_("Played {move}.").format(move=move))]

    def send_home(self, pile: str) -> list[Said]:
        """The top card of ``pile`` to a foundation (a double click)."""
        move = self.game.home_move(pile)
        if move is None:
            if not self.game.state.piles[self.game.rules.index[pile]]:
                text = _("{pile} is empty.")
            else:
                text = _("{pile} has no card that can go to a foundation now.")
            return [Said(text.format(pile=short_name(pile)), "warning")]
        return self.play(move)

    def deal_stock(self) -> list[Said]:
        """A click on the stock: turn a card, or the waste back over."""
        rules = self.game.rules
        if rules.stock is None or rules.waste is None:
            return [Said(_("{game} has no stock; every card is already on the table.").format(game=_(rules.title)),
                         "warning")]
        stock = rules.pile_names[rules.stock]
        moves = [m for m in self.game.legal_moves() if stock in (m.source, m.target)]
        if not moves:
            piles = self.game.state.piles
            if piles[rules.stock] or piles[rules.waste]:
                text = _("Cannot deal: the waste cannot go back: no redeals are left.")
            else:
                text = _("Cannot deal: the stock and the waste are both empty.")
            return [Said(text, "warning")]
        return self.play(moves[0])

    def undo(self, count: int = 1) -> list[Said]:
        """Take back ``count`` moves, or none when fewer were played (the error says how many may be)."""
        played = self.game.played_count
        return self._steps(count, played, self.game.undo,
                           ngettext("only {n} move can be undone, not {count}",
                                    "only {n} moves can be undone, not {count}", played),
                           _("Undid {move}."), _("Undid {count} moves: {moves}."))

    def redo(self, count: int = 1) -> list[Said]:
        """Play again ``count`` undone moves, or none when fewer are there (the error says how many may be)."""
        undone = self.game.redo_count
        return self._steps(count, undone, self.game.redo,
                           ngettext("only {n} move can be redone, not {count}",
                                    "only {n} moves can be redone, not {count}", undone),
                           _("Redid {move}."), _("Redid {count} moves: {moves}."))

    @staticmethod
    def _steps(count: int, there: int, step: Callable[[], Move], too_many: str, one: str, many: str) -> list[Said]:
        """``step`` made ``count`` times, when ``there`` are that many to make; a step when there is none is
        refused by the game itself, in its own words ("nothing to undo: ...")."""
        if count > 1 and count > there > 0:
            raise TableauxError(too_many.format(n=there, count=count))
        moves = [step() for _i in range(count)]
        if count == 1:
            return [Said(one.format(move=moves[0]))]
        return [Said(many.format(count=count, moves=", ".join(map(str, moves))))]

    def restart(self) -> list[Said]:
        self.game.restart()
        return [Said(_("Back to the start of the deal; {redo} replays your moves.").format(redo=self.names.redo))]

    # --- other games -------------------------------------------------------------------------------
    def new(self, deal: int | None = None) -> list[Said]:
        """A new deal of the same game: ``deal`` or a random one."""
        game = new_game(self.game.name, deal)
        self.save_path = None
        if self.unfinished is not None and self.in_progress() and not self.game.is_over() and self.unkept is None:
            message = _("New game: deal {deal}. (the last one is kept: {resume} brings it back)")
        else:
            message = _("New game: deal {deal}.")
        return self.switch_to(game, message.format(deal=game.deal, resume=self.names.resume))

    def kept_games(self) -> list[Saved]:
        """The unfinished games that could be resumed, the most recently played first (this one left out)."""
        if self.unfinished is None:
            return []
        return self.unfinished.games(exclude=self.kept_path)

    def resume(self, saved: Saved) -> list[Said]:
        self.save_path = None
        return self.switch_to(saved.game, _("Resumed {game}.").format(game=saved.describe()), saved)

    def replaces(self, path: Path) -> bool:
        """Whether saving to ``path`` would write over a file other than this game's own save (the file it was
        saved to or loaded from): the player is asked first, since that file may hold another game."""
        if not path.is_file():
            return False
        return self.save_path is None or path.resolve() != self.save_path.resolve()

    def save(self, path: Path) -> list[Said]:
        """Save to a file with the time played, so a game loaded from it goes on with its clock (a best time must
        not start again at 0:00)."""
        try:
            write_kept(path, self.game, self.seconds(), self.recorded)
        except SaveFileError as exc:
            return [Said(_("Could not save: {error}. Your game is still here.").format(error=exc), "warning")]
        self.save_path = path
        import shlex  # the command given back must work as typed, spaces in the name and all

        # The command on a line of its own: a long path then wraps alone, not the command in the middle.
        return [Said(_("Saved to {path}. Resume it with:").format(path=path)),
                Said("  tableaux play --load " + shlex.quote(str(path)))]

    def load(self, path: Path) -> list[Said]:
        saved = read_kept(path)  # what is wrong with the file, said as the library's load says it
        game = saved.game
        said = self.switch_to(game, _("Loaded {game} deal {deal}.").format(game=_(game.rules.title), deal=game.deal),
                              saved._replace(path=None))  # its clock goes on; it is kept apart from the file
        self.save_path = path
        return said

    def statistics(self) -> list[Said]:
        """This game's statistics in the terminal: a title, then a line a figure (or why there are none)."""
        from .record import stats_rows

        if self.record is None:
            return [Said(_("Finished games are not recorded here."), "warning")]
        name = self.game.name
        kept = sum(1 for saved in self.kept_games() if saved.game.name == name) + (1 if self.in_progress() else 0)
        rows = stats_rows(self.record.stats(name), kept)
        width = max(len(label) for label, _value in rows)
        title = _("Statistics of {game} in the terminal").format(game=_(self.game.rules.title))
        return [Said(title), *(Said(f"{label:<{width}}  {value}") for label, value in rows)]

    # --- giving up, and the solution -----------------------------------------------------------------
    def giveup(self) -> list[Said]:
        """Give the game up (the player has confirmed): it counts as lost and is no longer kept as unfinished."""
        from . import advice

        refusal = advice.giveup_refusal(self.game, self.gave_up, self.names)
        if refusal is not None:
            return [refusal]
        self.gave_up = True
        self.write_record("given-up")
        return [advice.gave_up_said(self.names)]

    def solution(self, game: Game) -> tuple[list[Move], list[Said]]:
        """The solver's winning line from ``game`` (this game, or a copy of it that a thread searches), empty
        when there is none or it cannot tell, and what to say. Once a line is shown the game counts as assisted:
        the caller marks it so, on the game itself."""
        from ..solver import solve

        if game.is_won():
            return [], [Said(_("This game is already won."), "good")]
        spend = self.effort()["solution"]
        result = solve(game, max_nodes=spend.positions, time_limit=spend.seconds)
        if result.verdict == "unwinnable":
            from . import advice

            if not advice.nothing_hidden(game):
                text = _("This position cannot be won: the solver, looking at the cards you have not seen, tried "
                         "every way on from here. {lost} tells whether and where this game could still have been "
                         "won; {restart} goes back to the deal.")
            else:
                text = _("This position cannot be won: the solver tried every way on from here. {lost} tells "
                         "whether and where this game could still have been won; {restart} goes back to the deal.")
            return [], [Said(text.format(lost=self.names.lost, restart=self.names.restart), "over")]
        if result.verdict == "unknown":
            return [], [Said(_("The solver could not decide within {seconds} seconds whether this position can be "
                               "won. Play on, or ask again after a few moves.").format(
                seconds=f"{spend.seconds:g}"), "warning")]
        return list(result.moves), [Said(_("A winning line of {n} moves; this game now counts as assisted.").format(
            n=len(result.moves)), "advice")]

    def solution_step(self, move: Move, number: int, total: int) -> list[Said]:
        """Play the solution's move ``number`` of ``total``."""
        self.game.play(move)
        return [Said(_("Solution move {number} of {total}: {move}.").format(number=number, total=total, move=move))]
