"""King Albert's strategy, under AisleRiot's rules and the classic ones.

Why the usual "safe to foundation" rule is not used for King Albert: in most
games a card may go home once both cards that could be placed on it (the next
lower rank of the other colour) are home, since they can never come back. In
King Albert they can: a foundation's top card may be "worried back" onto the
tableau, so a 5 sent home can be the card a 4 needed to land on later, and a 3
put on that 4 can need a 2 that is not home. The rule proved here
asks for one rank more on each side, so that every card that could ever come
to rest on the card sent home can go home in its stead.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...rulebook.cards import DOWN, RANK, RED, SUIT
from ...rulebook.engine import RawMove, State
from ...rulebook.king_albert import FOUNDATIONS as KA_FOUNDATIONS
from ...rulebook.king_albert import RESERVE as KA_RESERVE
from ...rulebook.king_albert import TABLEAU as KA_TABLEAU
from .base import LongPolish, Strategy, first_two, sorted_join, suit_heights
from .bounds import ka_lower_bound, ka_strong_bound

# King Albert's piles lie in three runs, foundations then tableau then reserve,
# so the hot loops below test a pile's kind by comparing its index with a bound.
assert KA_FOUNDATIONS + KA_TABLEAU + KA_RESERVE == tuple(range(len(KA_FOUNDATIONS + KA_TABLEAU + KA_RESERVE)))
KA_FIRST_TABLEAU = KA_TABLEAU[0]
"""Piles below this index are foundations."""
KA_FIRST_RESERVE = KA_RESERVE[0]
"""Piles from this index on are reserve cells."""
KA_FOUNDATION_PILES = slice(KA_FOUNDATIONS[0], KA_FOUNDATIONS[-1] + 1)
KA_TABLEAU_PILES = slice(KA_FIRST_TABLEAU, KA_TABLEAU[-1] + 1)
KA_RESERVE_PILES = slice(KA_FIRST_RESERVE, KA_RESERVE[-1] + 1)


def ka_home_is_safe(height: Sequence[int], card: int) -> bool:
    """King Albert: sending ``card`` home is a safe move (the proof is at KingAlbertStrategy.safe_move)."""
    r = RANK[card]
    if r <= 2:
        return True
    twin = SUIT[card] ^ 3  # clubs <-> spades, diamonds <-> hearts: the other suit of one colour
    others = (0, 3) if RED[card] else (1, 2)
    return all(height[s] >= r - 2 for s in others) and height[twin] >= r - 3


TAIL_POLISH = (0.5, 300)
"""AisleRiot's rules' tail polish (:attr:`Strategy.tail_polish`): 300 positions from halfway along the line. The
detour passes leave lines that searches shorten by a few moves, and a search from halfway is the cheapest that
does: on 254 wins of deals drawn at random it takes the median line from 90 moves to 88, for a tenth more of the
solve's time. Its line is taken as it comes: the detour passes run on it again shortened the mean line by 0.1 of
a move, for a twelfth more of the solve's time (docs/notes/short-lines.md)."""
SHORTENING_FLOOR = 1_600
"""AisleRiot's rules' shortening floor: the detour passes (some 750 positions a line) and the tail polish (600, at
:data:`.lines.POLISH_COST` a position)."""
POLISH_NODES = 40_000
"""The classic rules' polish, at most (a polish position costs two of the shortening's: :data:`.lines.POLISH_COST`)."""
CLASSIC_SHORTENING_FLOOR = 2 * POLISH_NODES + 5_000
"""The classic rules' shortening floor: the whole polish and the detour passes around it."""
LONG_POLISH = (
    LongPolish(200_000, restricted=False),
    LongPolish(1_000_000, restricted=True),
    LongPolish(1_000_000, restricted=False),
    LongPolish(300_000, restricted=False, tails=True),
    LongPolish(3_000_000, restricted=True),
)
"""The classic rules' polishes for a line still long after the budgeted steps, in turn while it stays long. On
fresh classic deals one line in five is still more than twice its bound after 40,000 positions. The polish over
every move (cards taken back off the foundations too) shortens some of them in a fraction of the positions;
others only the restricted polish shortens, after hundreds of thousands of positions. A million take some 0.7 s
in the core. The lines still long after those mostly come down when their tails are polished, in a second or
less; a rare one needs the last polish's three million positions from the start, and about one classic win in
250 has a line that no polish from the start shortens by a move, where only the tails' polishes do (164 moves
to 139, 178 to 156: docs/solver.md, "Short lines", and docs/notes/short-lines.md, "Polishing the tails")."""

RELAXED_VERDICTS = (3, 20_000)
"""AisleRiot's rules' relaxed verdicts: the game relaxed above the Threes, asked once the complete search has made
20,000 positions. Most lost deals' relaxed games are lost from the deal on (199 of the 203 lost among 1,300 fresh
deals), so the complete search's first queries prove them: King Albert 3390447547, open at 10 s for Solvitaire, is
lost after 531,000 positions in all (the first pass's included) instead of 11.4 million without the verdicts. Asked
from the 500,000th position, the 1,000 fresh deals of seed 2028 took 2.96 CPU s instead of 2.62, and the 1,100
pooled ones of docs/solver.md 1.98 instead of 1.70; from the first, a lost deal decided in a few thousand positions
pays for a query of a live relaxed game (4218877548: 31 ms instead of 1)."""
CLASSIC_RELAXED_VERDICTS = (3, 500_000)
"""The classic rules' relaxed verdicts: above the Threes, asked once the complete search has made 500,000
positions (about a tenth of a second in the core). On the hard lost deals most of the complete search's positions
have lost relaxed positions: classic deal 3622411542, which neither this search nor Solvitaire had decided in
minutes, is proved lost in 7 s of the complete search alone. Above the Fours the queries cost more than they save;
above the Twos they prove too little (docs/solver.md, "The relaxed verdicts, by default"). Asked from the 10,000th,
20,000th or 40,000th position instead, the 1,259 pooled classic deals took as long, and 6 to 8 were more than 1.5
times as slow as Solvitaire's instead of 5."""


class KingAlbertStrategy(Strategy):
    """King Albert under both rule sets (AisleRiot's and the classic one)."""

    has_restricted_pass = True

    def __init__(self, single_cards_only: bool = False) -> None:
        self.single_cards_only = single_cards_only
        # The classic rules' lines keep long detours that only the polish finds, and it needs tens of thousands of
        # positions to find them (benchmarks/lines.py): a classic line's shortening may make that many however
        # quick the solve, some tens of milliseconds in the core.
        self.polish_nodes = POLISH_NODES if single_cards_only else 0
        self.relaxed_verdicts = CLASSIC_RELAXED_VERDICTS if single_cards_only else RELAXED_VERDICTS
        if single_cards_only:
            self.shortening_floor = CLASSIC_SHORTENING_FLOOR
            self.long_polish = LONG_POLISH
        else:
            # AisleRiot's lines have few detours to cut, mostly short ones: the passes without a window cut the
            # same ones, in some 750 positions a line instead of 1,040 (docs/notes/short-lines.md).
            self.windowed_passes = False
            self.tail_polish = TAIL_POLISH
            self.shortening_floor = SHORTENING_FLOOR

    def key(self, state: State) -> bytes:
        # Foundations, tableau piles and reserve cells are each interchangeable:
        # every rule treats the piles of one kind alike, so they are sorted. A
        # foundation holds one suit from the Ace up, so its suit and height say
        # all there is to say about it.
        p = state.piles
        height = suit_heights(p[KA_FOUNDATION_PILES])
        return b"%b\xfe%b\xfe%b" % (
            bytes(height),
            sorted_join(p[KA_TABLEAU_PILES]),
            bytes(sorted(c[0] for c in p[KA_RESERVE_PILES] if c)),
        )

    def maybe_safe(self, state: State) -> bool:
        return True

    def safe_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        """A card of rank r from the tableau or the reserve to its foundation, when it is covered.

        "Covered" (:func:`ka_home_is_safe`): r <= 2, or both suits of the other
        colour are home up to rank r - 2 and the other suit of its colour up to
        r - 3. The proof below covers Aces and Twos as well.

        Call H the cards of the card's own suit up to r, of the other suit of
        its colour up to r - 3, and of the other colour up to r - 2: all home
        once the move is made. Let L be a winning line from P. We build a line
        L' from P' that keeps every card of H home for good and otherwise
        follows L. L' is always in L's position except that a set V of cards,
        all home in L', lie in L on tops of piles (only cards of V above them)
        or in reserve cells; and L' may show more tableau cards face up, which
        never makes a move illegal. At first V = {the card}. For each move of L:

        * it moves only cards of V (alone, as a build, or home): L' does nothing;
          a card that L sends home leaves V;
        * it takes a card of H off a foundation: L' does nothing, the card joins V;
        * it puts a build onto a card of V: L' sends the build's cards home
          instead, topmost first, and they join V (legal, see below);
        * anything else: L' makes the same move with the part of the build that
          is not in V (the same lowest card, and the target's top is the same in
          both, as it is not in V). A card L takes off a foundation is the top
          there in L' too: the next card of its suit could only be in V if that
          suit were the card's own or of the other colour, and then the card
          would be in H.

        Why the third case is legal: every card of V is of the card's colour
        with rank <= r, or of the other colour with rank <= r - 1, as are cards
        of H; a card that can land on such a card is one rank lower and of the
        other colour, so again of that shape, and its predecessor in its suit
        is of the other colour with rank <= r - 2, or of the card's colour with
        rank <= r - 3 (its own suit: <= r), so in H and home in L'. An Ace finds
        an empty foundation: no card of its suit is home in L'. When L wins, so
        does L'. Every move of L' is either one of L's, or sends home a card
        that L sends home later in a move that L' skips, and L' never sends the
        first card home again: L' is shorter than L. Which foundation takes a
        card does not matter: they are interchangeable.
        """
        piles = state.piles
        height = suit_heights(piles[KA_FOUNDATION_PILES])
        for move in moves:
            src, _, dst = move
            if dst < KA_FIRST_TABLEAU <= src and ka_home_is_safe(height, piles[src][-1]):
                return move
        return None

    def lower_bound(self, state: State) -> int:
        """Cards not home, and the moves of cards above a lower card of their suit (proof: :mod:`.bounds`)."""
        return ka_lower_bound(state, self.single_cards_only)

    def strong_lower_bound(self, state: State) -> int:
        return ka_strong_bound(state, self.single_cards_only)

    def maybe_greedy(self, state: State) -> bool:
        return True

    def greedy_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        """A safe move, or by the usual rule of other games: home once both next-lower cards of the other
        colour are home.

        That rule is no proof in King Albert (they can be worried back), so only the first pass uses it.
        """
        piles = state.piles
        height = suit_heights(piles[KA_FOUNDATION_PILES])
        low_red = min(height[1], height[2])
        low_black = min(height[0], height[3])
        for move in moves:
            src, _, dst = move
            if dst < KA_FIRST_TABLEAU <= src:
                c = piles[src][-1]
                if ka_home_is_safe(height, c) or RANK[c] <= (low_black if RED[c] else low_red) + 1:
                    return move
        return None

    def obligation(self, move: RawMove) -> int | None:
        """Classic rules: a reserve card put on the tableau must be covered by the very next move.

        The search allows only moves onto it there, and makes no safe move in
        between.

        Proof. Among the shortest winning lines from P there is one where every
        reserve card put on the tableau is covered at once. Take a shortest line
        L, a move in it of reserve card x onto pile T, and the first later move m
        that involves x: one that puts a card on x or moves x on. The moves
        between touch neither x nor the card under it, which x covers, so they
        are legal with x still in its cell, where it is as free as on T: a cell
        never takes a card back, so its being empty allows nothing, and an empty
        T allows more, not less. So x's move can wait until just before m, and L
        keeps its length. If m moved x on, x could have gone there straight from
        its cell and L was not shortest; so m puts a card on x. Let every
        reserve move of L wait like this, from the last to the first: a card
        that waits never comes between another reserve card y and the move that
        covers y, since that move puts a card on y, not on x (unless the card is
        x itself, moving on, which was ruled out). The search makes no safe move
        before the cover, and the rest of L is again a shortest line, so the
        argument of the package docstring goes through. A reserve card that no
        move could cover there is not put out at all: that node has no child.

        Not for AisleRiot's rules, where whole builds move: there the move that
        carries x on in a build may be the one that covers another reserve card,
        so the two cannot both come at once, and the rule that allows for that
        was measured to save nothing.
        """
        src, _, dst = move
        if self.single_cards_only and src >= KA_FIRST_RESERVE and dst >= KA_FIRST_TABLEAU:
            return dst
        return None

    def obliged(self, moves: Sequence[RawMove], pile: int) -> list[RawMove]:
        return [m for m in moves if m[2] == pile]

    def promise(self, state: State) -> int:
        """Cards still to go home count most; then cards above a lower card of their suit, twice the
        cards above a card a foundation needs next, empty piles in favour, and above all reserve cards
        played (core/bestfirst.c's score, where the weights are explained)."""
        piles = state.piles
        height = suit_heights(piles[KA_FOUNDATION_PILES])
        needed = _needed_next(height)
        out = dig = empty = 0
        for i in KA_TABLEAU:
            pile = piles[i]
            if not pile:
                empty += 1
            low = [14, 14, 14, 14]
            for j, card in enumerate(pile):
                c = card & 63
                suit, rank = SUIT[c], RANK[c]
                if low[suit] < rank:
                    out += 1
                else:
                    low[suit] = rank
                if c in needed:
                    dig += len(pile) - 1 - j
        played = sum(1 for pile in piles[KA_RESERVE_PILES] if not pile)
        return 5 * (52 - sum(height)) + out + 2 * dig + 12 * played - 3 * empty

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        """Drop moves that only permute piles, and that take back a card that is home for good; best first.

        ``restricted``: nothing comes back off a foundation.

        A foundation's top card that :func:`ka_home_is_safe` would send home is
        home for good: it never needs to come back. Proof: call H the cards of
        :meth:`safe_move`'s proof, all home now, and build L' from any winning
        line L exactly as there, starting with V empty. L' keeps every card of
        H home, ends won when L does, and each of its moves is one of L's or
        stands for a later move of L that L' skips, so it is no longer than L.
        Among the shortest winning lines there is therefore one that never takes
        a card of H back, and the search, which only needs one shortest line
        (package docstring), may leave those moves out. Reordering that line so
        that reserve cards are covered at once (:meth:`obligation`) moves no
        card of H either. Classic deal 140's complete search took 45.2M
        positions without this and 27.0M with it.
        """
        piles = state.piles
        # How deep the next card each foundation needs lies in each tableau pile: moves that
        # dig towards one come early (in the classic rules nothing is face down, so this is
        # what tells a useful tableau move from a shuffle).
        height = suit_heights(piles[KA_FOUNDATION_PILES])
        needed = _needed_next(height)
        depth: dict[int, int] = {}
        for i in KA_TABLEAU:
            pile = piles[i]
            top = len(pile) - 1
            for j, c in enumerate(pile):
                if c & 63 in needed:
                    depth[i] = top - j
                    break
        scored: list[tuple[int, int, RawMove]] = []
        empty_targets: set[tuple[int, int]] = set()
        for move in moves:
            src, count, dst = move
            source = piles[src]
            if src < KA_FIRST_TABLEAU:  # from a foundation
                if restricted or dst < KA_FIRST_TABLEAU:
                    continue  # an Ace between empty foundations changes nothing but their order
                if ka_home_is_safe(height, source[-1]):
                    continue  # home for good: see the docstring
                scored.append((7, 0, move))
                continue
            if dst < KA_FIRST_TABLEAU:
                scored.append((0, 0, move))
                continue
            if not piles[dst]:
                if KA_FIRST_TABLEAU <= src < KA_FIRST_RESERVE and count == len(source):
                    continue  # a whole pile onto an empty pile: the same position, piles permuted
                if (src, count) in empty_targets:
                    continue  # the same cards onto another empty pile: the same again
                empty_targets.add((src, count))
                if src >= KA_FIRST_RESERVE:
                    scored.append((4, 0, move))
                elif source[-count - 1] & DOWN:
                    scored.append((3, -len(source), move))
                else:
                    scored.append((6, count, move))
                continue
            if src >= KA_FIRST_RESERVE:
                scored.append((2, 0, move))
            elif count == len(source):
                scored.append((1, 0, move))  # empties a pile
            elif source[-count - 1] & DOWN:
                scored.append((1, -len(source), move))  # turns a card up
            elif src in depth and count <= depth[src]:
                scored.append((2, depth[src] - count, move))  # digs towards a card a foundation needs
            else:
                scored.append((5, -count, move))
        scored.sort(key=first_two)
        return [m for _, _, m in scored]


def _needed_next(height: Sequence[int]) -> set[int]:
    """The cards the foundations take next: what a useful move digs towards, in both the move
    order and the best-first score."""
    return {s * 13 + h for s, h in enumerate(height) if h < 13}
