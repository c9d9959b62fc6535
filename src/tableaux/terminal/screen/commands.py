"""The board's commands on keys: the line mode's commands, the rules and the statistics.

A mix-in of :class:`.app.TableauxApp`. Each command is the sitting's (:class:`~tableaux.terminal.sitting.Sitting`)
or the fair advice's (:mod:`tableaux.terminal.advice`), the same as the line mode's; what it needs to ask
(a deal number, a file, which unfinished game, whether to give up) it asks in a dialog (:mod:`.dialogs`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ...i18n import _, ngettext
from ...play.game import Game
from ...play.reading import pile_summary
from ...rulebook.deal import DealError, read_deal
from ...rulebook.engine import Move
from ..rules import rules_paragraphs
from ..said import Said, sentence
from ..sitting import Sitting
from .dialogs import Ask, Choose, Confirm, Page


class Commands:
    """Every command of the board (the app provides the attributes below)."""

    sitting: Sitting
    game: Game
    said: list[Said]
    picked: tuple[str, int] | None
    hinted: frozenset[str]
    solution: list[Move] | None
    solution_at: int
    solution_key: Any = None
    chance: tuple[Any, str] | None
    chance_said: list[Said]

    if TYPE_CHECKING:  # what the app provides
        def tell(self, said: list[Said]) -> None: ...

        def changed(self) -> None: ...

        def redraw(self) -> None: ...

        def key(self) -> tuple[int, int, Any]: ...

        def cancel_pick(self) -> None: ...

        def think(self, group: str, work: Callable[[Game], Any], done: Callable[[Any], None]) -> None: ...

    def do(self, command: Callable[[], list[Said]]) -> list[Said]:
        """Run a sitting's command: its messages, then whether the game has ended, then the board drawn again."""
        before = self.key()
        said = self.sitting.act(command)
        if self.key() != before:
            self.hinted = frozenset()
            ending = self.sitting.ending()
            if ending is not None:
                said.append(ending)
        self.tell(said)
        self.changed()
        return said

    def stop_solution(self) -> None:
        self.solution = None

    def afresh(self, command: Callable[[], list[Said]]) -> None:
        """A command that leaves the solution and whatever is held: :meth:`do` it with both let go."""
        self.stop_solution()
        self.cancel_pick()
        self.do(command)

    def ask_first(self, question: str, then: Callable[[], None], otherwise: str) -> None:
        """Ask ``question`` (:class:`.dialogs.Confirm`: only y says yes); yes runs ``then``, no says ``otherwise``."""

        def answered(yes: bool | None) -> None:
            if yes:
                then()
            else:
                self.tell([Said(otherwise, "note")])

        self.push_screen(Confirm(question), answered)  # type: ignore[attr-defined]

    # --- moves and the history ------------------------------------------------------------------------
    def action_deal(self) -> None:
        self.afresh(self.sitting.deal_stock)

    def action_undo(self) -> None:
        self.afresh(self.sitting.undo)

    def action_redo(self) -> None:
        self.afresh(self.sitting.redo)

    def action_restart(self) -> None:
        """Back to the deal, once the player says so: x sits among the other keys, and a move after a restart
        drops the moves it took back."""
        played = len(self.game.moves_played)
        if not played:
            self.afresh(self.sitting.restart)
            return

        question = ngettext("Back to the start of the deal? Your {n} move is taken back; [r] plays it again, "
                            "until your next move.",
                            "Back to the start of the deal? Your {n} moves are taken back; [r] plays them again, "
                            "until your next move.", played).format(n=played)
        self.ask_first(question, lambda: self.afresh(self.sitting.restart), _("Not restarted: play on."))

    def action_moves(self) -> None:
        moves = self.game.legal_moves()
        self.tell([Said(_("Legal moves: {moves}").format(
            moves=" ".join(str(m) for m in moves) if moves else _("none")))])

    # --- advice -------------------------------------------------------------------------------------------
    def action_hint(self, mode: str) -> None:
        from .. import advice

        budget = self.sitting.effort()
        start = advice.hint_start(self.game, budget, mode)
        if start is not None:
            self.tell([start])

        def done(answer: tuple[Any, Said]) -> None:
            hint, said = answer
            self.tell([said, *self.sitting.peeked(hint.peeks)])
            self.hinted = frozenset((hint.move.source, hint.move.target)) if hint.move is not None else frozenset()
            self.redraw()

        self.think("hint", lambda game: advice.advise(game, budget, mode), done)

    def action_chance(self) -> None:
        """The chance with what it means, in a page (the status line shows the figure alone)."""
        from .. import advice

        title = _("Winnable as far as seen")
        if self.chance is not None and self.chance[0] == self.key():
            self.push_screen(Page(title, page_of(self.chance_said)))  # type: ignore[attr-defined]
            return
        start = advice.chance_start(self.game, self.sitting.effort())
        if start is not None:
            self.tell([start])
        budget = self.sitting.effort()

        def done(answer: tuple[str | None, list[Said]]) -> None:
            self.chance, self.chance_said = (self.key(), answer[0] or ""), answer[1]
            self.push_screen(Page(title, page_of(answer[1])))  # type: ignore[attr-defined]
            self.redraw()

        self.think("chance", lambda game: advice.chance_words(game, budget), done)

    def action_giveup(self) -> None:
        from .. import advice

        refusal = advice.giveup_refusal(self.game, self.sitting.gave_up, self.sitting.names)
        if refusal is not None:
            self.tell([refusal])
            return

        self.ask_first(advice.give_up_question(self.game), lambda: self.afresh(self.sitting.giveup),
                       _("Not given up: play on."))

    def action_lost(self) -> None:
        from .. import advice

        said, go_on = advice.lost_start(self.game, self.sitting.gave_up, self.sitting.names)
        self.tell([said])
        if not go_on:
            return
        budget, gave_up = self.sitting.effort(), self.sitting.gave_up

        def done(answer: tuple[list[Said], bool]) -> None:
            found, looked = answer
            self.sitting.looked = self.sitting.looked or looked
            self.tell(found)
            self.push_screen(Page(_("Where the game was lost"), page_of(found)))  # type: ignore[attr-defined]

        self.think("lost", lambda game: advice.lost(game, budget, gave_up), done)

    # --- the solution, step by step -----------------------------------------------------------------------
    def action_solution(self) -> None:
        if self.solution is not None:
            self.solution_step()
            return
        if self.game.assisted or self.game.is_won() or self.sitting.gave_up:
            self.find_solution()  # nothing left to count: the game already does not count as the player's own
            return

        # A single key makes the game assisted for good, so it asks first, as the browser does.
        question = _("Show the solution? The solver plays the rest of the game for you, so it will count as played "
                     "with the solver's help in your statistics.")
        self.ask_first(question, self.find_solution, _("Solution not shown: the game still counts as your own."))

    def find_solution(self) -> None:
        """Look for a winning line from here; once one is found the game counts as assisted."""
        self.cancel_pick()
        if not self.game.is_won():
            self.tell([Said(_("Looking for a winning line from this position..."), "note")])

        def done(answer: tuple[list[Move], list[Said]]) -> None:
            moves, said = answer
            self.tell(said)
            if moves:
                self.game.assisted = True
                self.solution, self.solution_at, self.solution_key = moves, 0, self.key()
                self.tell([Said(_("Enter, Space or [s] plays the next move, [a] plays the rest, Escape stops."),
                                "advice")])
                self.sitting.keep()
                self.redraw()

        self.think("solution", self.sitting.solution, done)

    def solution_step(self) -> None:
        assert self.solution is not None
        moves, number = self.solution, self.solution_at
        self.do(lambda: self.sitting.solution_step(moves[number], number + 1, len(moves)))
        if number + 1 < len(moves):
            self.solution, self.solution_at, self.solution_key = moves, number + 1, self.key()
        else:
            self.solution = None
        self.redraw()

    def action_solution_all(self) -> None:
        """Play the rest of the solution, said in one line (a line a move filled the screen)."""
        if self.solution is None:
            return
        moves, first = self.solution, self.solution_at
        self.solution = None
        rest = moves[first:]

        def play_rest() -> list[Said]:
            for number, move in enumerate(rest, first + 1):
                self.sitting.solution_step(move, number, len(moves))
            return [Said(ngettext("Solution: its last {n} move played.", "Solution: its last {n} moves played.",
                                  len(rest)).format(n=len(rest)))]

        self.do(play_rest)

    # --- other games ------------------------------------------------------------------------------------------
    def action_new(self) -> None:
        def answered(text: str | None) -> None:
            if text is None:
                return
            self.afresh(lambda: self.sitting.new(read_deal(text)))

        self.push_screen(Ask(_("New deal of {game}: which number? (empty: a random deal)").format(  # type: ignore
            game=_(self.game.rules.title)), placeholder=_("a random deal"), refuse=refused_deal), answered)

    def action_resume(self) -> None:
        kept = self.sitting.kept_games()
        if self.sitting.unfinished is None or not kept:
            self.tell([Said(_("No other unfinished game is kept."), "warning")])
            return

        def chosen(index: int | None) -> None:
            if index is None:
                return
            self.afresh(lambda: self.sitting.resume(kept[index]))

        self.push_screen(Choose(_("Unfinished games kept for you"),  # type: ignore[attr-defined]
                                [saved.listed() for saved in kept[:20]]), chosen)

    def action_save(self) -> None:
        default = str(self.sitting.save_path or f"{self.game.name}-{self.game.deal}.json")

        def answered(text: str | None) -> None:
            if text is None:
                return
            if not text.strip():
                self.tell([Said(_("Say where to save: a file name, for example mygame.json."), "warning")])
                return
            path = Path(text.strip()).expanduser()
            if not self.sitting.replaces(path):
                self.tell(self.sitting.save(path))
                return

            self.ask_first(_("{path} already exists and may hold another game. Replace it?").format(path=path),
                           lambda: self.tell(self.sitting.save(path)), _("Not saved."))

        self.push_screen(Ask(_("Save this game to which file?"), value=default), answered)  # type: ignore

    def action_load(self) -> None:
        def answered(text: str | None) -> None:
            if not text or not text.strip():
                return
            self.afresh(lambda: self.sitting.load(Path(text.strip()).expanduser()))

        self.push_screen(Ask(_("Load a saved game from which file?")), answered)  # type: ignore[attr-defined]

    # --- leaving ---------------------------------------------------------------------------------------------
    async def action_quit(self) -> None:
        """Quit; a game that could not be kept is lost by leaving, so the player is asked first."""
        warning = self.sitting.leaving_warning()
        if warning is None:
            self.exit()  # type: ignore[attr-defined]
            return

        self.ask_first(warning + " " + _("Quit anyway?"), self.exit, _("Still playing."))  # type: ignore[attr-defined]

    # --- reading --------------------------------------------------------------------------------------------
    def action_rules(self) -> None:
        body = [Text.from_markup(p) for p in rules_paragraphs(self.game.rules, r"[b]\1[/b]")]
        body.append(Text(_("Keys"), style="bold"))
        body += [Text(line) for line in keys_help(self.game)]
        self.push_screen(Page(_("Rules of {game}").format(game=_(self.game.rules.title)), body))  # type: ignore

    def action_stats(self) -> None:
        said = self.sitting.statistics()
        if len(said) == 1:
            self.tell(said)
            return
        self.push_screen(Page(said[0].text, [Text(item.text) for item in said[1:]]))  # type: ignore[attr-defined]


def page_of(said: list[Said]) -> list[Text]:
    from ..said import STYLES

    return [Text(item.text, style=STYLES[item.kind]) for item in said]


def refused_deal(text: str) -> str | None:
    """What is wrong with a typed deal number (the deal module's own words), or None: empty asks for a random deal."""
    try:
        read_deal(text)
    except DealError as exc:
        return sentence(str(exc))
    return None


def keys_help(game: Game) -> list[str]:
    """Every key of the board for ``game``, for the rules page (the stock's key only where there is a stock)."""
    return [
        _("Arrows: move the cursor over the piles; up and down go through the face-up cards of a column."),
        _("Space or a click: pick up the card at the cursor with the cards above it; again on another pile: drop "
          "it there. The piles it may go to are marked. Escape puts it back."),
        _("Enter: play the card's best move at once (to a foundation first). Double click: send a pile's top "
          "card to a foundation."),
        *([_("d: deal from the stock.")] if game.rules.stock is not None else []),
        _("u: undo.  r: redo.  x: back to the start of the deal (asks first).  m: the legal moves."),
        _("h: a fair hint (from the cards you have seen).  p: a hint that peeks at the face-down cards, and says "
          "so: the game then counts as assisted.  c: the chance that the hidden cards lie in a winnable way."),
        _("g: give up (asks first).  w: where the game could no longer be won, once it is over or given up.  "
          "s: the solution, step by step (asks first: the game then counts as assisted)."),
        _("n: a new deal.  o: an unfinished game.  Ctrl+S: save to a file.  l: load a saved game.  t: your "
          "statistics.  ?: this page.  q: quit (the game is kept)."),
        _("The piles: {piles}.").format(piles=pile_summary(game.rules)),
    ]
