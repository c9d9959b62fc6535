"""Lower bounds on the moves a win still takes: the fewest-moves search's heuristic, with the proofs.

A bound counts moves that every winning line from a position must make, sorted by kind so that no move is
counted twice. It never exceeds the length of the shortest winning line (*admissible*), so a line that
meets it is proved to have the fewest moves; and one move lowers it by at most one (*consistent*), so the
best-first search of :mod:`tableaux.solver.shortest` never has to look at a position twice. Both properties
are argued below and tested (``tests/solver/test_shortest.py``: against lines of 15 to 30 moves whose
length is known by exhaustive search, and move by move on random play). A move counts as the player's
move counter counts it: one drag, or one click on the stock, with the card turned up or the reserve's card
dealt in after it as part of it.

King Albert
-----------

*Cards not home.* A move to a foundation takes one card, so each card not home takes a move of its own.

*Cards above a lower card of their suit ("blocked").* Such a card c cannot go home while the lower card d
lies under it (d goes home first), so it leaves its pile by a move that is not a move home: a move more
than its own move home. In the classic rules every move moves one card, so each blocked card adds one.
Under AisleRiot's rules a move takes a card with everything above it. A face-down blocked card q still
needs a move of its own: when q first leaves, the card under it is face down (it turns up only once q has
gone), so that move takes q as its lowest card, and two such cards cannot be the lowest of one move. The
face-up blocked cards of a pile may all leave in one move, which has an originally face-up card as its
lowest: one more per pile that has any. No move is counted twice: each has one source pile and one lowest
card, and none of these goes home.

*Cycles* (:func:`ka_strong_bound`, for the start of a search). Say a tableau card x *goes straight home*
when its first move off its pile is its move home. Then every card under x is still there when x goes
home, so x goes home before each of them; and every card goes home after the lower cards of its suit. If x
goes straight home, has a card y under it of the suit of a card z, y lower than z, then x goes home before
y, so before z: write x -> z. A chain x1 -> x2 -> ... -> x1 would have x1 go home before itself, so one of
its cards does not go straight home and makes a move that is not home (a blocked card is a chain of one).
Chains that share no card (and, under AisleRiot's rules, no face-down card and no pile's face-up part,
which one move may clear at once) each force a move of their own: the bound adds one for each chain of
a set of such chains, found greedily among chains of one and two cards. Cards taken back off a foundation
change nothing here: "home" is a card's first move home.

*Consistency.* A move home lowers the cards not home by one and adds no blocked card (a card going home has
no lower card of its suit under it; the card turned up under it was counted already if blocked, now in the
face-up part that had no blocked card). A move between piles changes no card's being home; at its source it
can end one count (the face-up part's, or a face-down card's becoming the face-up part's), at its target it
can only add. A card taken back adds a card not home.

Eagle Wing
----------

Sort the moves of any winning line by kind: deals from the stock (D), waste cards played (W), tableau cards
sent home (TH: one to three cards of one suit, a pile being built down in suit), tableau cards moved to
another pile (TT), the reserve's last card played (RX) and turns of the waste (RD). Then:

* D >= the stock's cards: each must be dealt at least once, one a deal.
* W >= the stock's and the waste's cards: each leaves the waste at last by a move of its own, to a
  foundation or to the tableau (a turn of the waste puts it back into the stock).
* TH >= the sum over suits of ceil(n / 3), n the suit's cards on the tableau or in the reserve (but for
  the reserve's bottom card, which may go home straight from there): those cards only ever leave the
  tableau to go home, and the reserve's others only ever come out onto the tableau.
* TH + TT >= the tableau piles not empty, plus the reserve's cards but one: every pile must be emptied,
  the reserve's cards come out only into piles just emptied (all but the bottom one, which may be played),
  each starting a pile that must be emptied again, and a move empties at most its own source pile.

So the bound is D + W + max(TH, TH + TT). A move changes it by at most one: a deal moves one card from the
stock to the waste, a waste card played leaves the waste, a move home takes at most three cards of one suit
(ceil(n / 3) drops by at most one) and empties at most one pile, a reserve card dealt in after an emptying
move keeps the piles' count; a turn of the waste only raises it.
"""

from __future__ import annotations

import functools

from ...rulebook.cards import DOWN, RANK, SUIT
from ...rulebook.eagle_wing import RESERVE as EW_RESERVE
from ...rulebook.eagle_wing import STOCK as EW_STOCK
from ...rulebook.eagle_wing import TABLEAU as EW_TABLEAU
from ...rulebook.eagle_wing import WASTE as EW_WASTE
from ...rulebook.engine import State
from ...rulebook.king_albert import FOUNDATIONS as KA_FOUNDATIONS
from ...rulebook.king_albert import TABLEAU as KA_TABLEAU

_KA_HOME = slice(KA_FOUNDATIONS[0], KA_FOUNDATIONS[-1] + 1)
_KA_PILES = slice(KA_TABLEAU[0], KA_TABLEAU[-1] + 1)
assert KA_FOUNDATIONS == tuple(range(_KA_HOME.start, _KA_HOME.stop))
assert KA_TABLEAU == tuple(range(_KA_PILES.start, _KA_PILES.stop))


def ka_lower_bound(state: State, single_cards: bool) -> int:
    """King Albert: cards not home, plus the blocked cards' moves (module docstring)."""
    piles = state.piles
    extra = _blocked_single if single_cards else _blocked
    return 52 - sum(map(len, piles[_KA_HOME])) + sum(map(extra, piles[_KA_PILES]))


@functools.lru_cache(maxsize=1 << 16)
def _blocked(pile: tuple[int, ...]) -> int:
    """The moves a tableau pile's blocked cards need under AisleRiot's rules: one for each face-down blocked card,
    and one for the face-up ones together (module docstring). Cached by pile: a search meets each pile often."""
    low = [14, 14, 14, 14]
    count = face_up = 0
    for c in pile:
        suit, rank = SUIT[c], RANK[c]
        if low[suit] < rank:
            if c & DOWN:
                count += 1
            else:
                face_up = 1
        else:
            low[suit] = rank
    return count + face_up


@functools.lru_cache(maxsize=1 << 16)
def _blocked_single(pile: tuple[int, ...]) -> int:
    """The classic rules' count: one move for each blocked card."""
    low = [14, 14, 14, 14]
    count = 0
    for c in pile:
        suit, rank = SUIT[c], RANK[c]
        if low[suit] < rank:
            count += 1
        else:
            low[suit] = rank
    return count


def ka_strong_bound(state: State, single_cards: bool) -> int:
    """:func:`ka_lower_bound` plus one for each chain of a greedy set of chains that share nothing (module
    docstring): chains of two cards, and of one card whose part is not counted yet."""
    piles = state.piles
    bound = 52 - sum(len(piles[f]) for f in KA_FOUNDATIONS)
    used: set[tuple[int, int]] = set()  # the parts (a card, or a pile's face-up part) counted already
    tails: list[_Tail] = []
    for i in KA_TABLEAU:
        low = [14, 14, 14, 14]
        under = False  # whether a card lies under this one
        for c in piles[i]:
            suit, rank = SUIT[c], RANK[c]
            if low[suit] < rank:
                part = (c & 63, -1) if single_cards or c & DOWN else (-1, i)
                if part not in used:
                    used.add(part)
                    bound += 1
            else:
                if under:
                    tails.append((suit, rank, (c & 63, -1) if single_cards or c & DOWN else (-1, i), low.copy()))
                low[suit] = rank
            under = True
    free = [t for t in tails if t[2] not in used]

    for a, (x_suit, x_rank, x_part, x_low) in enumerate(free):
        if x_part in used:
            continue
        for z_suit, z_rank, z_part, z_low in free[a + 1:]:
            # x -> z and z -> x: a card under x is of z's suit and lower than z, and one under z is of x's suit and
            # lower than x
            if z_part not in used and x_low[z_suit] < z_rank and z_low[x_suit] < x_rank:
                used.add(x_part)
                used.add(z_part)
                bound += 1
                break
    return bound


_Tail = tuple[int, int, tuple[int, int], list[int]]
"""A card with cards under it: its suit, its rank, its part (itself, or its pile's face-up part), and the lowest
rank of each suit under it."""


def ew_lower_bound(state: State) -> int:
    """Eagle Wing: deals, waste cards played, and the tableau's moves (module docstring)."""
    piles = state.piles
    stock, waste, reserve = len(piles[EW_STOCK]), len(piles[EW_WASTE]), piles[EW_RESERVE]
    per_suit = [0, 0, 0, 0]
    occupied = 0
    for t in EW_TABLEAU:
        pile = piles[t]
        if pile:
            occupied += 1
            for c in pile:
                per_suit[SUIT[c]] += 1
    for c in reserve[1:]:
        per_suit[SUIT[c]] += 1
    home_moves = sum((n + 2) // 3 for n in per_suit)
    emptying = occupied + max(len(reserve) - 1, 0)
    return 2 * stock + waste + max(home_moves, emptying)

