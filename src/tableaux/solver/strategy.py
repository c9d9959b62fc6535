"""What the solver knows about each game beyond its legal moves: keys, safe moves, move order.

Nothing here decides legality: safe moves are picked from the list that
:meth:`Rules.moves` returned, and positions still come from :meth:`Rules.apply`.

How a safe move is proved safe
------------------------------
Write d(P) for the length of the shortest winning line from a position P. A
move P -> P' is *safe* when P' is winnable whenever P is, and d(P') < d(P).
The search makes safe moves at once and only branches on the others; the
second condition is what keeps that complete: take the winnable position Q
with the smallest d among those the search reaches; its best move leads to
some Q1 with d(Q1) = d(Q) - 1, and the search reaches Q1's closure under safe
moves, which has an even smaller d, so Q must be won already.

Each proof below shows, for any winning line L from P, a winning line L' from
P' that is shorter. In King Albert a position in which more tableau cards lie
face up is at least as good as the same position with fewer: every move
legal with fewer is legal with more, and they lead to positions that again
differ only in that way. The proofs use this freely.

Why the usual "safe to foundation" rule is not used for King Albert: in most
games a card may go home once both cards that could be placed on it (the next
lower rank of the other colour) are home, since they can never come back. In
King Albert they can: a foundation's top card may be "worried back" onto the
tableau, so a 5 sent home can be the card a 4 needed to land on later. Only
Aces, on which nothing can ever be built, are safe there unconditionally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..cards import DOWN, RANK, RED, SUIT
from ..eagle_wing import FOUNDATIONS as EW_FOUNDATIONS
from ..eagle_wing import RESERVE as EW_RESERVE
from ..eagle_wing import STOCK as EW_STOCK
from ..eagle_wing import TABLEAU as EW_TABLEAU
from ..eagle_wing import WASTE as EW_WASTE
from ..eagle_wing import EagleWing
from ..engine import RawMove, Rules, State
from ..king_albert import KingAlbert


class Strategy:
    """The game-specific half of the solver; see the module docstring for the proofs."""

    has_restricted_pass = False

    def key(self, state: State) -> bytes:
        raise NotImplementedError

    def rank(self, state: State) -> int:
        """Among positions with one key, lower is at least as good (same moves or more, same lengths).

        The search skips a position when one with its key and a rank no worse
        was reached before. That keeps it complete by the argument above: the
        earlier position wins in at most as many moves.
        """
        return 0

    def safe_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        return None

    def maybe_safe(self, state: State) -> bool:
        """A cheap look: False when :meth:`safe_move` would surely find nothing."""
        return False

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        return moves

    def greedy_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        """For the first pass only: a move to make at once because it is usually right (no proof)."""
        return self.safe_move(state, moves)

    def maybe_greedy(self, state: State) -> bool:
        return self.maybe_safe(state)

    def first_pass_nodes(self, max_nodes: int | None, time_limit: float | None) -> int:
        """Nodes the first pass may use before the complete search takes over (about a third of the budget)."""
        caps = [200_000]
        if max_nodes is not None:
            caps.append(max(1, max_nodes // 3))
        if time_limit is not None:
            caps.append(max(1, int(time_limit * 15_000)))
        return min(caps)


def _sorted_join(piles: Sequence[tuple[int, ...]]) -> bytes:
    # Cards are < 128 so 0xFF never occurs inside a pile: the key is unambiguous.
    return b"\xff".join(sorted(map(bytes, piles)))


class KingAlbertStrategy(Strategy):
    """King Albert under both rule sets (AisleRiot's and the classic one)."""

    has_restricted_pass = True

    def key(self, state: State) -> bytes:
        # Foundations, tableau piles and reserve cells are each interchangeable:
        # every rule treats the piles of one kind alike, so they are sorted. A
        # foundation holds one suit from the Ace up, so its suit and height say
        # all there is to say about it.
        p = state.piles
        height = [0, 0, 0, 0]
        for f in p[0:4]:
            if f:
                height[SUIT[f[0]]] = len(f)
        return b"%b\xfe%b\xfe%b" % (
            bytes(height),
            _sorted_join(p[4:13]),
            bytes(sorted(c[0] for c in p[13:20] if c)),
        )

    def maybe_safe(self, state: State) -> bool:
        p = state.piles
        return any(pile and RANK[pile[-1]] == 1 for pile in p[4:20])

    def safe_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        """An Ace from the tableau or the reserve to a foundation.

        Proof (P' is P after the move; L any winning line from P). No card
        can ever be placed on an Ace on the tableau (there is no rank below
        it), so in L the Ace is always the top card of whatever pile holds it
        until L first sends it home. L' copies L with the Ace "virtually" where
        L has it: a move of the Ace alone becomes the same move from the
        foundation (legal: its 2 cannot be home before it, so the Ace is the
        foundation's top card, and foundation cards may move to the tableau);
        a build with the Ace on top moves without it (same lowest card, so the
        same target accepts it; the card under the Ace lies face up in L', as
        it was turned when the Ace left); every other move is unchanged, as no
        move of L targets the Ace. When L first sends the Ace home, L' skips
        that move and from then on L' is in L's position (foundations
        permuted, maybe more cards face up). So L' wins and is one move
        shorter. Which empty foundation takes it does not matter: they are
        interchangeable.
        """
        piles = state.piles
        for move in moves:
            src, _, dst = move
            if dst < 4 and src >= 4 and RANK[piles[src][-1]] == 1:
                return move
        return None

    def maybe_greedy(self, state: State) -> bool:
        return True

    def greedy_move(self, state: State, moves: Sequence[RawMove]) -> RawMove | None:
        """The usual rule of other games: home once both next-lower cards of the other colour are home.

        Not a proof in King Albert (they can be worried back), so only the first pass uses it.
        """
        piles = state.piles
        height = [0, 0, 0, 0]
        for f in piles[0:4]:
            if f:
                height[SUIT[f[0]]] = len(f)
        low_red = min(height[1], height[2])
        low_black = min(height[0], height[3])
        for move in moves:
            src, _, dst = move
            if dst < 4 and src >= 4:
                c = piles[src][-1]
                if RANK[c] <= 2 or RANK[c] <= (low_black if RED[c] else low_red) + 1:
                    return move
        return None

    def order(self, state: State, moves: list[RawMove], restricted: bool) -> list[RawMove]:
        """Drop moves that only permute piles; best first. ``restricted``: nothing comes back off a foundation."""
        piles = state.piles
        # How deep the next card each foundation needs lies in each tableau pile: moves that
        # dig towards one come early (in the classic rules nothing is face down, so this is
        # what tells a useful tableau move from a shuffle).
        height = [0, 0, 0, 0]
        for f in piles[0:4]:
            if f:
                height[SUIT[f[0]]] = len(f)
        needed = {s * 13 + h for s, h in enumerate(height) if h < 13}
        depth: dict[int, int] = {}
        for i in range(4, 13):
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
            if src < 4:
                if restricted or dst < 4:
                    continue  # an Ace between empty foundations changes nothing but their order
                scored.append((7, 0, move))
                continue
            if dst < 4:
                scored.append((0, 0, move))
                continue
            if not piles[dst]:
                if 4 <= src < 13 and count == len(source):
                    continue  # a whole pile onto an empty pile: the same position, piles permuted
                if (src, count) in empty_targets:
                    continue  # the same cards onto another empty pile: the same again
                empty_targets.add((src, count))
                if src >= 13:
                    scored.append((4, 0, move))
                elif source[-count - 1] & DOWN:
                    scored.append((3, -len(source), move))
                else:
                    scored.append((6, count, move))
                continue
            if src >= 13:
                scored.append((2, 0, move))
            elif count == len(source):
                scored.append((1, 0, move))  # empties a pile
            elif source[-count - 1] & DOWN:
                scored.append((1, -len(source), move))  # turns a card up
            elif src in depth and count <= depth[src]:
                scored.append((2, depth[src] - count, move))  # digs towards a card a foundation needs
            else:
                scored.append((5, -count, move))
        scored.sort(key=_first_two)
        return [m for _, _, m in scored]


def _first_two(item: tuple[int, int, RawMove]) -> tuple[int, int]:
    return item[0], item[1]


class EagleWingStrategy(Strategy):
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
        height = [0, 0, 0, 0]
        for f in (p[2], p[3], p[4], p[5]):
            if f:
                height[SUIT[f[0]]] = len(f)
        return b"%b%b\xfe%b" % (
            bytes((len(p[EW_STOCK]), len(p[EW_WASTE]), len(p[EW_RESERVE]))),
            bytes(height),
            _sorted_join([p[t] for t in EW_TABLEAU]),
        )

    def rank(self, state: State) -> int:
        """Redeals used. With fewer used, every move is still legal (a redeal is only more
        available) and leads to the same position but for that count, so any winning line
        from the position with more redeals used also wins, move for move, from this one."""
        return state.redeals

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
        (fewer redeals used is never worse). L' is at least one move shorter,
        since L had to send c home.

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
        scored.sort(key=_first_two)
        return [m for _, _, m in scored]


_STRATEGIES: list[tuple[type[Rules], Callable[[], Strategy]]] = [
    (KingAlbert, KingAlbertStrategy),
    (EagleWing, EagleWingStrategy),
]


def strategy_for(rules: Rules) -> Strategy:
    for kind, make in _STRATEGIES:
        if isinstance(rules, kind):
            return make()
    raise TypeError(f"the solver does not know the game {rules.name!r}")


def safe_moves(rules: Rules, state: State) -> list[RawMove]:
    """The legal moves that the strategy's proofs show can never cost the player a win.

    These are exactly the moves :meth:`Strategy.safe_move` would make at once
    during a search (see each ``safe_move`` docstring for its proof), so a
    user interface that plays them for the player (the browser's "move safe
    cards home") relies on the same proofs as the solver. A game the solver
    does not know has none.
    """
    try:
        strategy = strategy_for(rules)
    except TypeError:
        return []
    if not strategy.maybe_safe(state):
        return []
    return [move for move in rules.moves(state) if strategy.safe_move(state, (move,)) == move]
