"""Where a game was lost: the first move after which no line wins, found once the game is over.

This looks at every card, so it is for games that are over (won, stuck or
abandoned), never advice during play. Winnability only ever goes one way along
a game: a position from which no line wins has no winnable successor. So the
verdicts along the moves run winnable ... winnable, unwinnable ... unwinnable,
and a binary search over the moves finds the boundary with a handful of solves.
"""

from __future__ import annotations

from typing import Any

from ...play.game import Game
from ...play.saves import game_from_dict
from ...rulebook.engine import State
from ...solver import SolveResult, check_budget, shorten, solve
from ..effort import LOST_NODES
from .observation import FairError, nothing_to_guess


def may_look_back(ended: bool, unseen: int) -> bool:
    """Whether :func:`where_lost` may answer for a game now: once it has ended (no move left, or given up), as it
    looks at every card; and at any time when no card is left to guess (``unseen``, the observation's count: classic
    King Albert deals every card face up), as it then tells nothing a player cannot find without help during play:
    the chance to win is the solver's verdict on the position, undo takes moves back freely, and a fair hint gives a
    winning line. The terminal and the web API both ask this, so they answer alike."""
    return ended or nothing_to_guess(unseen)


def where_lost(
    record: Any,
    *,
    max_nodes: int | None = LOST_NODES,
    time_limit: float | None = None,
) -> dict[str, Any] | None:
    """The first move after which the game could no longer be won, or ``None`` if it never was lost.

    ``record`` is a game in play (a :class:`~tableaux.Game`) or its ``Game.to_dict()`` (the moves played
    count; the redo list does not). Each position looked at is solved within
    ``max_nodes`` positions and ``time_limit`` seconds. Returns ``None`` when
    the game is won or its last position can still be won, else::

        {"move_index": i, "move": "T4>T7", "line": ["T1>F1", ...],
         "certain": True, "last_possible": i, "undecided": [], "deal_unwinnable": False}

    ``moves[i]`` (counted from 0) is the first move after which no line
    wins, and ``line`` is a winning line from the position before it (after
    ``moves[:i]``). When the deal itself cannot be won, ``move_index``,
    ``move`` and ``line`` are ``None`` and ``deal_unwinnable`` is true.

    Honest about the budget: a position the solver cannot decide is never
    guessed. If undecided positions leave a gap, ``certain`` is false and
    the losing move is one of ``moves[move_index]`` .. ``moves[last_possible]``
    (``line`` is still a proved winning line from before ``moves[move_index]``;
    ``undecided`` lists the positions, by number of moves played, that the
    solver could not decide). When the last position cannot be proved lost, or
    no position before it can be proved winnable, there is nothing honest to
    say and :class:`~tableaux.advice.fair.FairError` is raised, asking for a larger
    budget. A record that is not a valid saved game raises
    :class:`~tableaux.SaveFileError`.
    """
    check_budget(max_nodes, time_limit, FairError)
    game = record if isinstance(record, Game) else game_from_dict(record)
    rules = game.rules
    moves = game.moves_played
    states: list[State] = [rules.deal(game.deal)]
    for move in moves:
        states.append(rules.apply(states[-1], rules.to_raw(move)))
    if rules.won(states[-1]):
        return None

    verdicts: dict[int, SolveResult] = {}

    def verdict(i: int) -> str:
        if i not in verdicts:
            verdicts[i] = solve((rules, states[i]), max_nodes=max_nodes, time_limit=time_limit, line="found")
        return verdicts[i].verdict

    n = len(moves)
    end = verdict(n)
    if end == "winnable":
        return None
    if end == "unknown":
        raise FairError(
            f"could not decide within the budget ({max_nodes} positions) whether the game's last position "
            "can still be won; try a larger max_nodes"
        )
    lo, hi = -1, n  # positions[lo] proved winnable (-1: none yet), positions[hi] proved unwinnable
    first = verdict(0)
    if first == "unwinnable":
        return {
            "move_index": None, "move": None, "line": None, "certain": True,
            "last_possible": None, "undecided": [], "deal_unwinnable": True,
        }
    if first == "winnable":
        lo = 0
    while True:
        # Untried positions strictly between the bounds, nearest to the middle first: a binary search
        # while every verdict comes back decided, a widening scan around an undecided one.
        inside = [i for i in range(lo + 1, hi) if i not in verdicts]
        if not inside:
            break
        middle = (lo + hi) / 2
        i = min(inside, key=lambda j: (abs(j - middle), j))
        v = verdict(i)
        if v == "winnable":
            lo = i
        elif v == "unwinnable":
            hi = i
    if lo < 0:
        raise FairError(
            f"could not prove within the budget ({max_nodes} positions) that any position before move "
            f"{hi} could be won, nor that the deal could not; try a larger max_nodes"
        )
    undecided = sorted(i for i, r in verdicts.items() if lo < i < hi and r.verdict == "unknown")
    return {
        "move_index": lo,
        "move": str(moves[lo]),
        "line": [str(m) for m in shorten((rules, states[lo]), verdicts[lo].moves, time_limit=time_limit)],
        "certain": hi == lo + 1,
        "last_possible": hi - 1,
        "undecided": undecided,
        "deal_unwinnable": False,
    }
