"""Eagle Wing's strategy: its key, its one safe move and its move order."""

from __future__ import annotations

from collections.abc import Sequence

from ...rulebook.cards import RANK
from ...rulebook.eagle_wing import FOUNDATIONS as EW_FOUNDATIONS
from ...rulebook.eagle_wing import RESERVE as EW_RESERVE
from ...rulebook.eagle_wing import STOCK as EW_STOCK
from ...rulebook.eagle_wing import TABLEAU as EW_TABLEAU
from ...rulebook.eagle_wing import WASTE as EW_WASTE
from ...rulebook.engine import RawMove, State
from .base import Strategy, first_two, sorted_join, suit_heights
from .bounds import ew_lower_bound

assert EW_FOUNDATIONS == tuple(range(EW_FOUNDATIONS[0], EW_FOUNDATIONS[-1] + 1))  # one run, so a slice
EW_FOUNDATION_PILES = slice(EW_FOUNDATIONS[0], EW_FOUNDATIONS[-1] + 1)


class EagleWingStrategy(Strategy):
    """Eagle Wing under AisleRiot's rules: foundations from a base rank, a trunk, two redeals."""

    one_card_home = False  # a tableau pile's top two or three cards go home in one move

    def key(self, state: State) -> bytes:
        # Tableau piles are interchangeable, so sorted. A foundation holds one
        # suit upwards from the base rank and its cards never leave, so the
        # height per suit says which cards are home (and sorting foundations
        # comes free). Then the stock and the waste hold exactly the cards
        # that are neither home, nor on the tableau, nor in the reserve, in
        # the order they had at the start of the search (dealing, playing the
        # waste's top card and turning the waste over all keep that order), so
        # their two lengths pin them down. The reserve only loses its top card,
        # so its length does too. The redeals used are not in the key but in
        # the rank: see :meth:`rank`.
        p = state.piles
        height = suit_heights(p[EW_FOUNDATION_PILES])
        return b"%b%b\xfe%b" % (
            bytes((len(p[EW_STOCK]), len(p[EW_WASTE]), len(p[EW_RESERVE]))),
            bytes(height),
            sorted_join([p[t] for t in EW_TABLEAU]),
        )

    def rank(self, state: State) -> int:
        """Redeals used. With fewer used, every move is still legal (a redeal is only more
        available) and leads to the same position but for that count, so any winning line
        from the position with more redeals used also wins, move for move, from this one."""
        return state.redeals

    def lower_bound(self, state: State) -> int:
        """Deals, waste cards played and the tableau's moves home (proof: :mod:`.bounds`)."""
        return ew_lower_bound(state)

    def maybe_safe(self, state: State) -> bool:
        return True

    def safe_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        """A card that is not of the base rank, alone, to its foundation.

        Proof. The only card that could ever be placed on such a card c is the
        one just below it in its suit; as c fits its foundation and is not the
        base, that card is home already, and foundation cards never leave. So
        in any winning line L, c is never covered. L' is L with every move of c
        skipped (moving it about, dealing it from the stock, sending it home):
        no pile holds more cards than in L, a pile that holds only c in L is
        empty in L' (an empty pile takes anything), the waste under c is
        reachable earlier, and a redeal of a waste that held only c is skipped
        (fewer redeals used is never worse). A move of L that takes c home with
        the cards under it (two or three of a pile at once) stays in L' as the
        same move without c, legal as c is home already. So L' is no longer
        than L, and shorter when c's first move in L is a move of c alone:
        always when nothing lies under c (:meth:`keeps_shortest`).

        If c leaves a tableau pile alone while the reserve has cards, the refill
        brings reserve card r out one move early. Then L' keeps, in the pile
        where L has c alone, the card r that is next in L's reserve. When L
        empties another pile, L refills it with r and L' with the card after;
        tableau piles are interchangeable, so swapping the two piles' roles
        restores that correspondence. When L moves c away, L refills c's pile
        with r, which L' already shows there. When L plays r as the reserve's
        last card, L' plays it from the pile instead, which then lies empty
        where L has c alone, as in the simple case. When L refills a pile with
        the reserve's last card, L' has no card left to refill with, and again
        after a swap L' has an empty pile where L has c. So L' wins and is
        shorter here too.
        """
        piles = state.piles
        base = RANK[piles[EW_FOUNDATIONS[0]][0]]
        for move in moves:
            src, count, dst = move
            if count == 1 and dst in EW_FOUNDATIONS and RANK[piles[src][-1]] != base:
                return move
        return None

    def keeps_shortest(self, state: State, move: RawMove) -> bool:
        """A safe move of a card with nothing under it (on the waste, the reserve's last card, alone in a pile):
        every winning line moves it alone at first, a move its safe move's proof saves (:meth:`safe_move`). A card
        on top of others of its suit may go home with them in one move, and then the proof saves nothing."""
        src = move[0]
        return src in (EW_WASTE, EW_RESERVE) or len(state.piles[src]) == 1

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        piles = state.piles
        scored: list[tuple[int, int, RawMove]] = []
        empty_targets: set[tuple[int, int, bool]] = set()
        reserve = piles[EW_RESERVE]
        for move in moves:
            src, count, dst = move
            if src == EW_STOCK:
                scored.append((5, 0, move))
                continue
            if dst == EW_STOCK:
                scored.append((6, 0, move))
                continue
            source = piles[src]
            to_foundation = dst in EW_FOUNDATIONS
            if not piles[dst]:
                if not to_foundation and src in EW_TABLEAU and count == len(source):
                    continue  # a lone card onto an empty pile: the same position, piles permuted
                slot = (src, count, to_foundation)
                if slot in empty_targets:
                    continue  # the same cards to a second empty pile of the same kind
                empty_targets.add(slot)
            if to_foundation:
                scored.append((0, -count, move))
            elif src in EW_TABLEAU and count == len(source):
                scored.append((1, -len(reserve), move))  # empties a pile: refill from the reserve
            elif src == EW_RESERVE:
                scored.append((1, 0, move))
            elif src == EW_WASTE:
                scored.append((2 if piles[dst] else 4, 0, move))
            else:
                scored.append((3, 0, move))
        scored.sort(key=first_two)
        return [m for _, _, m in scored]
