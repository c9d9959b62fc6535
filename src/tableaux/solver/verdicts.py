"""The relaxed verdicts: which positions of a King Albert search the relaxed game proves lost.

:mod:`.relaxed` proves a deal lost when the relaxed game from its start has no win. Most hard lost deals have a
relaxed win all the same, found in a corner of the relaxed game, while the real search spends hundreds of millions
of positions elsewhere, in parts whose relaxed positions reach no win. Its proof holds from any real position,
not only a deal: a position whose relaxed position is lost is lost. So the complete search asks, of each position
it makes, whether its relaxed position is lost, and drops it if so (the positions of a real winning line are
never dropped, so a win is still found; a lost deal's search ends sooner).

**How a relaxed position is known lost or live.** A query for a position not known yet searches the relaxed game
from it, depth first, with Tarjan's strongly connected components, over the moves of :mod:`.relaxed` (less
nothing: the move that undoes the last one is an edge back, and it counts; under AisleRiot's rules a move
that turned a card up is taken back with the card turned down again). A component is finished when its
root's search is done; every position it reaches is then in it or in a component finished before. So a finished
component that reached no win and no live position reaches none at all: every position of it is lost. A win or
a live position reached makes every position still open live: each open position reaches a position of the
line being searched (Tarjan's invariant: it stays on the stack only while it reaches an open ancestor), which
reaches the win. Either way every position the query searched is known when it ends, and none is searched by two
queries. A query cut short (the budget, or the verdicts' room) leaves its open positions unknown, to be searched
again by a later query (after the first pass, the core gives the verdicts more room); an unknown position is not
dropped, which is always sound.

The moves left out by :mod:`.relaxed` (an Ace that can go home goes, and nothing else, then a Two when the Twos
are kept apart; neither comes back) keep, from every position, whether it can reach a win, by that module's
proof; so lost here is lost in the full relaxed game, and so in the real one.

**Why from a few hundred thousand positions on** (``Strategy.relaxed_verdicts``): a query can search a whole
relaxed game, hundreds of thousands of positions, and a deal the complete search decides sooner would pay for it.

``core/verdicts.c`` is the same in C (``tx_verdicts_lost``): the moves in the same order, the same positions
counted, so both backends' complete searches make the same positions.
"""

from __future__ import annotations

from collections.abc import Callable

from ..rulebook.cards import RED
from ..rulebook.engine import State
from .relaxed import DOWN_KIND, RelaxedPosition, at_once, canonical, kind, kind_red, relaxed_parts

LOST, LIVE, UNKNOWN, OPEN = 1, 2, 3, 4
"""What is known of a relaxed position: lost, live (reaches a win), unknown (a query cut short left it open: it
is searched again when asked), or open with an index (``OPEN + index``) while its query searches."""

_Move = tuple[int, int, int]
"""Source, target and the cards moved: a pile 0-8, a reserve cell 9-15 (source only) or a foundation 16-19 (by
suit); more than one card only from pile to pile (a build, under AisleRiot's rules)."""


class _Position:
    """A relaxed position as the search moves through it (core/relaxed.h's RPos): the piles in their places, the
    reserve by cell (0 for an empty one), the foundations' heights by suit."""

    __slots__ = ("piles", "cells", "heights", "kept", "builds")

    def __init__(self, state: State, kept: int, builds: bool) -> None:
        self.kept = kept
        self.builds = builds
        self.heights, self.cells, self.piles = relaxed_parts(state, kept)

    def key(self) -> RelaxedPosition:
        return canonical(self.heights, self.cells, self.piles)

    def won(self) -> bool:
        return sum(self.heights) == 52

    def top(self, s: int) -> int:
        if s < 9:
            return self.piles[s][-1] if self.piles[s] else 0
        if s < 16:
            return self.cells[s - 9]
        h = self.heights[s - 16]
        return kind((s - 16) * 13 + h - 1, self.kept) if h else 0

    def moves(self) -> list[_Move]:
        """relaxed.py's children as moves, in core/relaxed.c's order: an Ace home alone when one can go, then (the
        Twos kept apart) a Two; else every card that can go home, from each source in turn (piles, cells), and
        then from each source in turn (piles, cells, foundations) the top card and, under AisleRiot's rules, each
        build below it in turn to the piles and the first empty pile."""
        tops = [self.top(s) for s in range(20)]
        low = at_once(self.kept)
        for rank in range(1, low + 1):
            for s in range(16):
                if tops[s] and tops[s] >> 3 == rank and self.heights[tops[s] & 7] == rank - 1:
                    return [(s, 16 + (tops[s] & 7), 1)]
        empty = next((i for i in range(9) if not tops[i]), -1)
        out: list[_Move] = []
        for s in range(16):
            k = tops[s]
            if k:
                rank, red = k >> 3, kind_red(k)
                for f in range(4):
                    if self.heights[f] == rank - 1 and (f == k & 7 if rank <= self.kept else RED[f * 13] == red):
                        out.append((s, 16 + f, 1))
        for s in range(20):
            k = tops[s]
            if not k or (s >= 16 and k >> 3 <= low):
                continue
            rank, red = k >> 3, kind_red(k)
            n = 1
            while True:
                for i in range(9):
                    if i != s and tops[i] and tops[i] >> 3 == rank + 1 and kind_red(tops[i]) != red:
                        out.append((s, i, n))
                if empty >= 0 and not (s < 9 and len(self.piles[s]) == n):
                    out.append((s, empty, n))
                if not self.builds or s >= 9 or n == len(self.piles[s]) or self.piles[s][-n - 1] & DOWN_KIND:
                    break
                n += 1
                k = self.piles[s][-n]
                rank, red = k >> 3, kind_red(k)
        return out

    def make(self, move: _Move) -> bool:
        """Makes ``move``; whether it turned the card below it up."""
        src, dst, n = move
        self._shift(src, dst, n)
        pile = self.piles[src] if src < 9 else None
        if pile and pile[-1] & DOWN_KIND:
            pile[-1] &= ~DOWN_KIND
            return True
        return False

    def unmake(self, move: _Move, turned: bool) -> None:
        """Takes back ``move``, made, and the card it turned up."""
        src, dst, n = move
        if turned:
            self.piles[src][-1] |= DOWN_KIND
        self._shift(dst, src, n)

    def _shift(self, source: int, target: int, n: int) -> None:
        """The top ``n`` cards of ``source`` onto ``target``, in their order."""
        for k in reversed([self.take(source) for _ in range(n)]):
            self.put(target, k)

    def take(self, s: int) -> int:
        if s < 9:
            return self.piles[s].pop()
        if s < 16:
            k, self.cells[s - 9] = self.cells[s - 9], 0
            return k
        k = self.top(s)
        self.heights[s - 16] -= 1
        return k

    def put(self, d: int, k: int) -> None:
        if d < 9:
            self.piles[d].append(k)
        elif d < 16:
            self.cells[d - 9] = k
        else:
            self.heights[d - 16] += 1


class RelaxedVerdicts:
    """The relaxed game above ``rank_kept``, known position by position as queries search it (module docstring).

    ``builds``: AisleRiot's rules (builds move, face-down cards turn up) rather than the classic ones. ``count`` is
    called before each relaxed position is searched, as the search counts its own positions (it may raise to stop
    the search); ``room``: the most positions known, past which no more are searched.
    """

    def __init__(self, rank_kept: int, builds: bool = False, count: Callable[[], None] | None = None,
                 room: int | None = None) -> None:
        self.kept = rank_kept
        self.builds = builds
        self.known: dict[RelaxedPosition, int] = {}
        self.count = count
        self.room = room
        self.full = False
        self.positions = 0
        """Relaxed positions searched, over every query."""

    def lost(self, state: State) -> bool:
        """Whether the relaxed position of ``state`` (a real position of the game) is lost, searching the relaxed game
        from it if it is not known yet."""
        known = self.known
        p = _Position(state, self.kept, self.builds)
        key = p.key()
        if known.get(key, UNKNOWN) != UNKNOWN:
            return known[key] == LOST
        if self.full:
            return False
        open_keys: list[RelaxedPosition] = []  # Tarjan's stack

        def settle(base: int, val: int) -> None:
            for k in open_keys[base:]:
                known[k] = val
            del open_keys[base:]

        def enter(k: RelaxedPosition, index: int) -> bool:
            if k not in known and self.room is not None and len(known) >= self.room:
                self.full = True
                settle(0, UNKNOWN)
                return False
            known[k] = OPEN + index
            open_keys.append(k)
            self.positions += 1
            return True

        if self.count:
            self.count()
        if not enter(key, 0):
            return False
        if p.won():
            settle(0, LIVE)
            return False
        index = 0
        # Frames: [moves, next move, index, low link, Tarjan stack height when entered, whether the move made
        # from it last turned a card up]
        frames: list[list] = [[p.moves(), 0, 0, 0, 0, False]]
        while True:
            frame = frames[-1]
            moves = frame[0]
            if frame[1] == len(moves):
                if frame[3] == frame[2]:  # a whole component, none of it reaching a win
                    settle(frame[4], LOST)
                frames.pop()
                if not frames:
                    return True
                parent = frames[-1]
                parent[3] = min(parent[3], frame[3])
                p.unmake(parent[0][parent[1] - 1], parent[5])
                continue
            move = moves[frame[1]]
            frame[1] += 1
            frame[5] = p.make(move)
            child = p.key()
            val = known.get(child, UNKNOWN)
            if val != UNKNOWN:
                if val == LIVE:  # the line reaches a live position
                    settle(0, LIVE)
                    return False
                if val >= OPEN:
                    frame[3] = min(frame[3], val - OPEN)
                p.unmake(move, frame[5])
                continue
            if self.count:
                try:
                    self.count()
                except BaseException:
                    settle(0, UNKNOWN)
                    raise
            base = len(open_keys)
            index += 1
            if not enter(child, index):
                return False
            if p.won():
                settle(0, LIVE)
                return False
            frames.append([p.moves(), 0, index, index, base, False])
