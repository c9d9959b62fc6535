"""The terminal's fair-play commands: ``chance``, ``hint`` (fair or ``hint peek``), ``giveup`` and ``lost?``.

Kept apart from :mod:`tableaux.terminal`, which draws the board and runs the
loop: these commands only put :mod:`tableaux.fair` into words. ``chance`` and
the fair hint see only ``game.observation()``; ``lost?`` looks at every card,
so it answers only once the game is over or given up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import fair
from .hints import hint
from .i18n import _

if TYPE_CHECKING:
    from .terminal import Session


@dataclass
class Budget:
    """How hard the terminal's fair commands work (the solver's budget is in positions, per sampled layout)."""

    samples: int = fair.SAMPLES
    max_nodes: int = fair.SAMPLE_NODES
    time_limit: float | None = 20.0
    """Seconds for one chance or hint at most, whatever the node budget says."""
    lost_nodes: int = fair.LOST_NODES
    hint_samples: int = fair.HINT_SAMPLES
    hint_nodes: int = fair.HINT_NODES
    """The fair hint's own budget: the strongest player that answers in about a second (``benchmarks/fair.py``)."""


PEEK_SECONDS = 2.0
"""The peeking hint solves the one real layout, so a few seconds are plenty."""


def pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def cmd_chance(session: Session, _arg: str) -> None:
    game, budget = session.game, session.budget
    if game.is_won():
        session.say(_("You have won this game."), "green")
        return
    session.say(_("Working out the chance from {n} layouts of the hidden cards...").format(n=budget.samples), "dim")
    c = fair.win_chance(
        game.observation(), budget.samples, seed=0, max_nodes=budget.max_nodes, time_limit=budget.time_limit
    )
    n, won, undecided = c.samples, c.winnable, c.undecided
    if undecided:
        text = _("Chance to win: {share} ({won} of {n} possible layouts of the cards you have not seen can be "
                 "won; 95% interval {low} to {high}, {undecided} undecided within the solver's budget).")
    else:
        text = _("Chance to win: {share} ({won} of {n} possible layouts of the cards you have not seen can be "
                 "won; 95% interval {low} to {high}).")
    text = text.format(share=pct(c.share), won=won, n=n, low=pct(c.low), high=pct(c.high),
                       undecided=undecided)
    session.say(text, "cyan")
    session.say(_(
        "That is the chance that the hidden cards lie in a winnable way. A player who does not peek has to "
        "move before seeing them, so it is an upper bound on how often fair play wins from here."),
        "dim",
    )


def cmd_hint(session: Session, arg: str) -> None:
    """``hint``: a fair hint; ``hint peek``: the solver looks at the face-down cards (and says so)."""
    game, budget = session.game, session.budget
    mode = arg.strip().lower() or "fair"
    if mode not in ("fair", "peek"):
        session.say(_("Type 'hint' for a fair hint, or 'hint peek' for one that looks at the face-down cards."),
                    "yellow")
        return
    if mode == "peek":
        advice = hint(game, mode="peek", time_limit=PEEK_SECONDS)
        session.say(advice.message, "magenta")
        return
    if not game.is_won() and game.legal_moves():
        session.say(_("Thinking over {n} layouts of the hidden cards...").format(n=budget.hint_samples), "dim")
    advice = hint(game, samples=budget.hint_samples, max_nodes=budget.hint_nodes, time_limit=budget.time_limit)
    session.say(advice.message, "cyan")


def cmd_giveup(session: Session, arg: str) -> None:
    if arg.strip().lower() not in ("", "up"):
        session.say(_("Type 'giveup' to give up this game."), "yellow")
        return
    session.gave_up = True
    session.say(
        _("You gave up this game. 'lost?' shows where it could no longer be won (it looks at every card); "
          "'new' deals another game."),
        "yellow",
    )


def cmd_lost(session: Session, _arg: str) -> None:
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
        lost = fair.where_lost(game.to_dict(), max_nodes=session.budget.lost_nodes)
    except fair.FairError as exc:
        session.say(_("Cannot say for sure: {error}.").format(error=exc), "yellow")
        return
    if lost is None:
        session.say(_("This game was never lost: a winning line still exists from where you stopped."), "cyan")
        return
    if lost["deal_unwinnable"]:
        session.say(_("This deal could not be won from the start: the solver searched every line."), "cyan")
        return
    number = lost["move_index"] + 1
    if lost["certain"]:
        text = _("You could still have won until move {number} ({move}): after it, no line wins.").format(
            number=number, move=lost["move"])
    else:
        text = _("The game was lost at one of moves {number} to {last}: before move {number} ({move}) it could "
                 "still be won; the solver could not decide the positions between within its budget.").format(
            number=number, last=lost["last_possible"] + 1, move=lost["move"])
    session.say(text, "cyan")
    line = " ".join(lost["line"])
    session.say(_("A winning line from just before move {number}: {line}").format(number=number, line=line), "dim")
