"""The terminal's fair-play commands: ``chance``, ``hint`` (fair or ``hint peek``), ``giveup`` and ``lost?``.

Kept apart from :mod:`tableaux.terminal.line`, which draws the board and runs the
loop: these commands only put :mod:`tableaux.advice.fair` into words. ``chance`` and
the fair hint see only ``game.observation()``; ``lost?`` looks at every card,
so it answers only once the game is over or given up (``giveup`` asks first).
Playing on after either makes the game assisted (:meth:`Session.played_on`).

The commands see the sitting through :class:`Sitting`, the few things they use, so this module needs nothing
from :mod:`.line` and the line mode imports it, not the other way round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from babel.lists import format_list
from babel.numbers import format_percent

from ..advice import fair
from ..advice.effort import EFFORT, Action, Effort
from ..advice.hints import HINT_MODES, hint
from ..i18n import _, current
from ..play.game import Game
from ..rulebook.cards import card_name, parse_card

Budget = Mapping[Action, Effort]
"""How hard each of the terminal's commands works: :data:`tableaux.advice.effort.EFFORT`'s terminal row, or a
test's smaller one."""


def terminal_budget() -> dict[Action, Effort]:
    return dict(EFFORT["terminal"])


class Sitting(Protocol):
    """What the fair commands need of a sitting at the terminal (the line mode's ``Session`` is one)."""

    game: Game
    budget: Budget
    gave_up: bool
    looked: bool
    input_fn: Callable[[str], str] | None

    def say(self, message: str, style: str = "") -> None: ...

    def ask(self, prompt: str, stopped: str) -> str | None: ...


def pct(x: float) -> str:
    """A share as a whole percentage, spaced as the player's language spaces it ("89%", "89 %" in French)."""
    return format_percent(x, locale=current())


def cmd_chance(session: Sitting, _arg: str) -> None:
    game, spend = session.game, session.budget["chance"]
    if game.is_won():
        session.say(_("You have won this game."), "green")
        return
    assert spend.samples is not None
    session.say(_("Working out the chance from {n} layouts of the hidden cards...").format(n=spend.samples), "dim")
    c = fair.win_chance(game.observation(), spend.samples, seed=0, max_nodes=spend.positions,
                        time_limit=spend.seconds)
    n, won, undecided = c.samples, c.winnable, c.undecided
    if undecided:
        text = _("Can still be won: {share} (a solver that sees every card wins {won} of {n} possible layouts of "
                 "the cards you have not seen, and could not tell for {undecided} of them; 95% interval {low} "
                 "to {high}).")
    else:
        text = _("Can still be won: {share} (a solver that sees every card wins {won} of {n} possible layouts of "
                 "the cards you have not seen; 95% interval {low} to {high}).")
    text = text.format(share=pct(c.share), won=won, n=n, low=pct(c.low), high=pct(c.high),
                       undecided=undecided)
    session.say(text, "cyan")
    session.say(_(
        "That is not your chance of winning: you choose moves before the hidden cards show, so you will win "
        "less often than this. It is an upper bound on how often play that does not peek wins from here."),
        "dim",
    )


def cmd_hint(session: Sitting, arg: str) -> None:
    """``hint``: a fair hint; ``hint peek``: the solver looks at the face-down cards (and says so)."""
    game, budget = session.game, session.budget
    mode = arg.strip().lower() or "fair"
    if mode not in HINT_MODES:
        session.say(_("Type 'hint' for a fair hint, or 'hint peek' for one that looks at the face-down cards."),
                    "yellow")
        return
    if mode == "peek":
        advice = hint(game, mode="peek", spend=budget["peek-hint"])
        session.say(advice.message, "magenta")
        return
    if not game.is_won() and game.legal_moves():
        session.say(_("Thinking over {n} layouts of the hidden cards...").format(n=budget["fair-hint"].samples),
                    "dim")
    advice = hint(game, spend=budget["fair-hint"])
    session.say(advice.message, "cyan")


YES = ("y", "yes")
"""The answers that confirm a question (commands stay English in every language, see docs/translations.md)."""


def cmd_giveup(session: Sitting, arg: str) -> None:
    """Give the game up, once the player has said yes: it then counts as lost, and 'lost?' may look at every card."""
    if arg.strip().lower() not in ("", "up"):
        session.say(_("Type 'giveup' to give up this game."), "yellow")
        return
    if session.game.is_won():
        session.say(_("You have won this game: there is nothing to give up."), "green")
        return
    if session.gave_up:
        session.say(_("You have already given this game up. Type 'lost?' or 'new'."), "yellow")
        return
    if session.input_fn is not None:
        answer = session.ask(_("Give up this game? It counts as lost. [yes/no] "), _("Not given up."))
        if answer is None:
            return
        if answer.strip().lower() not in YES:
            session.say(_("Not given up: play on."), "dim")
            return
    session.gave_up = True
    session.say(
        _("You gave up this game. 'lost?' shows where it could no longer be won (it looks at every card); "
          "'new' deals another game. Playing on from here ('undo', a move) counts the game as assisted."),
        "yellow",
    )


def cmd_lost(session: Sitting, _arg: str) -> None:
    game = session.game
    if game.is_won():
        session.say(_("You won: this game was never lost."), "green")
        return
    if not (game.is_over() or session.gave_up):
        session.say(
            _("'lost?' looks at every card, face-down ones included, so it answers only once the game is over. "
              "Type 'giveup' first if you want to stop here."),
            "yellow",
        )
        return
    session.say(_("Looking back over the game with every card shown..."), "dim")
    try:
        spend = session.budget["where-lost"]
        lost = fair.where_lost(game.to_dict(), max_nodes=spend.positions, time_limit=spend.seconds)
    except fair.FairError as exc:
        session.say(_("Cannot say for sure: {error}.").format(error=exc), "yellow")
        return
    session.looked = True
    if lost is None:
        session.say(_("This game was never lost: a winning line still exists from where you stopped."), "cyan")
        return
    if lost["deal_unwinnable"]:
        session.say(_("This deal could not be won from the start: the solver searched every line."), "cyan")
        return
    session.say(losing_move_text(game, lost), "cyan")
    line = " ".join(lost["line"])
    session.say(_("A winning line from just before move {number}: {line}").format(
        number=lost["move_index"] + 1, line=line), "dim")


def losing_move_text(game: Game, lost: dict[str, Any]) -> str:
    """Where the game was lost, naming the cards the losing move took: pile codes alone say little to a player."""
    index = lost["move_index"]
    move = game.moves_played[index]
    before = Game.replay(game.rules, game.deal, game.moves_played[:index]).public_position()
    cards = [parse_card(c["card"]) for c in before["piles"][move.source][-move.count:] if c["card"] is not None]
    names = format_list([card_name(c) for c in cards], locale=current())
    facts = {"number": index + 1, "last": lost["last_possible"] + 1, "move": move, "cards": names}
    if lost["certain"]:
        if move.source == "stock":
            text = _("You could still have won until move {number}, when you dealt from the stock ({move}): "
                     "after it, no line wins.")
        elif move.target == "stock":
            text = _("You could still have won until move {number}, when you turned the waste over ({move}): "
                     "after it, no line wins.")
        else:
            text = _("You could still have won until move {number}, when you moved the {cards} ({move}): "
                     "after it, no line wins.")
    elif move.source == "stock":
        text = _("The game was lost at one of moves {number} to {last}. Before move {number}, when you dealt from "
                 "the stock ({move}), it could still be won; the solver could not tell for the positions in between.")
    elif move.target == "stock":
        text = _("The game was lost at one of moves {number} to {last}. Before move {number}, when you turned the "
                 "waste over ({move}), it could still be won; the solver could not tell for the positions in "
                 "between.")
    else:
        text = _("The game was lost at one of moves {number} to {last}. Before move {number}, when you moved the "
                 "{cards} ({move}), it could still be won; the solver could not tell for the positions in between.")
    return text.format(**facts)
