"""Classic King Albert's layered search: a complete search that holds one class of positions at a time.

The depth-first complete search keeps every position it has searched in one table, and on the hardest
classic deals (spaces of billions of positions) that table is what runs out. This search visits every
reachable position too, but in an order that lets it forget almost all of them.

**What never comes back.** In the classic rules two things cannot be undone:

* a reserve card put out: a reserve cell never takes a card;
* a card that came off the card it lay on in the start position, when that card is no legal parent
  for it (not one rank higher and of the other colour): a card only ever goes onto a legal parent,
  an empty pile or a foundation, so it can never lie there again.

A position's *mask* says which of those are still as they were: the reserve cells still full, and the
cards still on such a card. No move adds to the mask; many take from it. The positions of one mask
form a *class*, and a class can only reach itself and classes whose masks are subsets of its own.

**The order.** Classes are searched in order of fewer and fewer bits in their masks (a *level* is a
number of bits). When a class is searched, every class that could reach it has been searched already,
so all of its *seeds* (its positions first made from another class) are known; its own positions are
found from them by a search inside the class, with a table of the class's positions only. Positions
made in a lower class wait as seeds of that class. So the search holds the largest class and the
waiting seeds, not the whole space.

**Why it is complete.** Its moves are the depth-first search's, with the same proofs
(:mod:`tableaux.solver.strategy`): a child is made and then its safe moves are made at once
(``safe_move``); a card home for good is never taken back, nor is an Ace moved between foundations
(``order``); piles are interchangeable, so a pile's only card never goes to an empty pile, and a card
goes to one empty pile only; and a reserve card put on the tableau is covered by the next move, the two
making one step (``obligation``). Those proofs show that from any winnable position the search reaches,
a step it makes leads to a winnable position closer to a win (the package docstring of
:mod:`tableaux.solver.strategy`), and the search makes every step from every position it reaches, in
whatever order: so if the start can be won, a won position is made. When none is, the start is lost.

**The winning line.** Every seed notes the position it was made from. Once a won position is made,
the class it was made in is searched again, noting where each position came from, up to the position
that made it, then the class of that class's seed's origin, and so on back to the start: the steps,
replayed on the real position, are the line.

**Inside a class every move can be undone, and no safe move is made** (so the C core may search a class
too big for its memory breadth first on disk, ``core/layered_disk.c``, keeping only three layers: next to a
position at distance d from the seeds lie only positions at distance d - 1, d or d + 1). A move inside a
class puts out no reserve card and moves no card off its fixed card, so the card c it moves lay on a legal
parent, alone in a pile, or on top of a foundation. From a legal parent p it can go back onto p, which is
its pile's top now; from a pile of its own, back to the empty pile it left; from a foundation, home again,
where it fits. Sent home, it may be taken back: it is home for good only if the rule of ``safe_move`` held
before it went, and then the positions the search keeps, made after their safe moves, would have sent it
already. And no card becomes safe to send home: a card t uncovered by c would make c safe too if c lay
legally on it (c is one rank lower, of the other colour: its own conditions are t's, one rank lower), and
c sent home helps t only when c is exactly the card t's rule lacked, which makes c's rule hold as well (the
same arithmetic as in ``safe_move``); a card taken back lowers a foundation, which helps no one.

It finds wins late (only after the classes above them), so the solve runs it after the first pass,
whose runs find most wins at once. ``core/layered.c`` is the same search on 16-byte keys; both count
one position per child made (after its safe moves), and on a lost position they make the same
positions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..rulebook.engine import RawMove, Rules, State
from ..rulebook.king_albert import ACCEPTS, FOUNDATIONS, RESERVE, TABLEAU
from .strategy import KingAlbertStrategy, ka_home_is_safe, suit_heights


class Budget(Protocol):
    """What the layered search needs of the solve around it (search.py's ``_Search``)."""

    table_size: int

    def _tick(self) -> None: ...


class TableFull(Exception):
    """The layered search would hold more than ``table_size`` positions: the verdict is unknown."""


def fixed_cards(state: State) -> dict[int, int]:
    """Card -> the card it lies on in ``state`` when that card is no legal parent for it: such a pair can
    only come apart, never come back."""
    fixed = {}
    for i in TABLEAU:
        pile = state.piles[i]
        for below, card in zip(pile, pile[1:], strict=False):
            if card not in ACCEPTS[below]:
                fixed[card] = below
    return fixed


def class_mask(state: State, fixed: dict[int, int]) -> int:
    """Bit 52 + i for reserve cell i still full, bit c for card c still on its fixed card."""
    piles = state.piles
    mask = sum(1 << (52 + j) for j, i in enumerate(RESERVE) if piles[i])
    for i in TABLEAU:
        pile = piles[i]
        for below, card in zip(pile, pile[1:], strict=False):
            if fixed.get(card) == below:
                mask |= 1 << card
    return mask


def steps(rules: Rules, state: State) -> list[tuple[RawMove, ...]]:
    """The steps the search makes from ``state`` (before their safe moves): single moves, and a reserve
    card put on the tableau together with each move that covers it. Left out: cards home for good taken
    back, Aces moved between foundations, a pile's only card to an empty pile, and a card to a second
    empty pile or foundation (the same position)."""
    piles = state.piles
    height = suit_heights(piles[FOUNDATIONS[0]:FOUNDATIONS[-1] + 1])
    out: list[tuple[RawMove, ...]] = []
    to_empty: set[tuple[int, bool]] = set()
    for move in rules.moves(state):
        src, _, dst = move
        if src in FOUNDATIONS and (dst in FOUNDATIONS or ka_home_is_safe(height, piles[src][-1])):
            continue
        if not piles[dst]:
            if src in TABLEAU and len(piles[src]) == 1 and dst in TABLEAU:
                continue
            if (src, dst in TABLEAU) in to_empty:
                continue
            to_empty.add((src, dst in TABLEAU))
        if src in RESERVE and dst in TABLEAU:
            after = rules.apply(state, move)
            out.extend((move, cover) for cover in _covers(rules, after, dst))
        else:
            out.append((move,))
    return out


def _covers(rules: Rules, state: State, pile: int) -> list[RawMove]:
    """The moves that put a card on ``pile`` (none takes back a card home for good)."""
    piles = state.piles
    height = suit_heights(piles[FOUNDATIONS[0]:FOUNDATIONS[-1] + 1])
    return [
        m for m in rules.moves(state)
        if m[2] == pile and not (m[0] in FOUNDATIONS and ka_home_is_safe(height, piles[m[0]][-1]))
    ]


def _closure(rules: Rules, strategy: KingAlbertStrategy, state: State) -> tuple[State, list[RawMove]]:
    """``state`` after its safe moves (:meth:`Strategy.closure`), and those moves."""
    made: list[RawMove] = []

    def note(move: RawMove, after: State) -> bool:
        made.append(move)
        return False

    state, _ = strategy.closure(rules, state, rules.moves(state), made=note)
    return state, made


def layered_run(search: Budget, rules: Rules, root: State) -> list[RawMove] | None:
    """The layered search from ``root``: the winning line, or None when every position was searched.

    ``search._tick()`` counts each position made (and raises when the budget is spent); more than
    ``search.table_size`` positions held raises :class:`TableFull`.
    """
    strategy = KingAlbertStrategy(single_cards_only=True)
    key: Callable[[State], bytes] = strategy.key
    fixed = fixed_cards(root)
    start, start_moves = _closure(rules, strategy, root)
    if rules.won(start):
        return start_moves
    # Every position held: key -> (the key it was made from, or None for the start; the moves from there).
    # The reference keeps them all for the winning line; the C core keeps only the seeds' origins.
    origin: dict[bytes, tuple[bytes | None, tuple[RawMove, ...]]] = {key(start): (None, tuple(start_moves))}
    # Level (bits in the mask) -> mask -> the class's seeds, in the order they were made.
    waiting: dict[int, dict[int, list[State]]] = {}
    m0 = class_mask(start, fixed)
    waiting.setdefault(m0.bit_count(), {}).setdefault(m0, []).append(start)
    held = 1
    for level in range(len(RESERVE) + 52, -1, -1):
        for mask, seeds in waiting.pop(level, {}).items():
            stack = list(seeds)
            while stack:
                state = stack.pop()
                k = key(state)
                for step in steps(rules, state):
                    search._tick()
                    child = state
                    for move in step:
                        child = rules.apply(child, move)
                    child, safe = _closure(rules, strategy, child)
                    ck = key(child)
                    if rules.won(child):
                        origin[ck] = (k, (*step, *safe))
                        return _line(origin, ck)
                    if ck in origin:
                        continue
                    held += 1
                    if held > search.table_size:
                        raise TableFull
                    origin[ck] = (k, (*step, *safe))
                    cm = class_mask(child, fixed)
                    if cm == mask:
                        stack.append(child)
                    elif cm & ~mask or cm.bit_count() >= level:  # the module docstring proves this never happens
                        raise RuntimeError(f"a move added to the mask {mask:#x}: {cm:#x}")
                    else:
                        waiting.setdefault(cm.bit_count(), {}).setdefault(cm, []).append(child)
    return None


def _line(origin: dict[bytes, tuple[bytes | None, tuple[RawMove, ...]]], k: bytes | None) -> list[RawMove]:
    parts: list[tuple[RawMove, ...]] = []
    while k is not None:
        k, moves = origin[k]
        parts.append(moves)
    return [m for part in reversed(parts) for m in part]
