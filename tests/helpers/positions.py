"""Shared by the solver tests: the games, a plain exhaustive search, and positions built by hand or at random."""

from __future__ import annotations

import random

from tableaux import GAMES
from tableaux.rulebook.cards import DOWN, parse_card
from tableaux.rulebook.engine import RawMove, Rules, State

KA = GAMES["king-albert"]
KAC = GAMES["king-albert-classic"]
EW = GAMES["eagle-wing"]


# --- helpers ---------------------------------------------------------------
def brute_force(rules: Rules, state: State, cap: int = 30_000) -> bool | None:
    """Plain exhaustive search: no safe moves, no move ordering, no dropped moves.

    Positions that differ only in the order of the piles of one kind count
    as one (written here independently of the solver's keys). None when the
    space holds more than ``cap`` positions (the caller skips those).
    """
    canon = _canon(rules, state)
    seen = {canon(state)}
    stack = [state]
    while stack:
        s = stack.pop()
        if rules.won(s):
            return True
        for m in rules.moves(s):
            t = rules.apply(s, m)
            k = canon(t)
            if k not in seen:
                seen.add(k)
                if len(seen) > cap:
                    return None
                stack.append(t)
    return False


def replay(rules: Rules, state: State, moves: list[RawMove]) -> State:
    """Play a line through the engine, checking that each move is legal where it is played."""
    for move in moves:
        assert move in rules.moves(state), f"illegal move {rules.to_move(move)} in the line"
        state = rules.apply(state, move)
    return state


def cards(text: str) -> tuple[int, ...]:
    """``"9C* TS"`` -> a pile, bottom first; ``*`` marks a face-down card."""
    out = []
    for word in text.split():
        down = word.endswith("*")
        c = parse_card(word.rstrip("*"))
        out.append(c | DOWN if down else c)
    return tuple(out)


def home(suit: str, top: str, base: str = "A") -> tuple[int, ...]:
    """A foundation of ``suit`` from rank ``base`` up to rank ``top``, wrapping after the King."""
    ranks = "A23456789TJQK"
    i = ranks.index(base)
    out = []
    while True:
        out.append(parse_card(ranks[i] + suit))
        if ranks[i] == top:
            return tuple(out)
        i = (i + 1) % 13


def ka_state(foundations: list[str], tableau: list[str], reserve: list[str] = ()) -> State:
    """King Albert position; foundations given by their top card (``"JC"``) or ``""`` for empty."""
    fs = [home(t[1], t[0]) if t else () for t in foundations]
    fs += [()] * (4 - len(fs))
    tab = [cards(p) for p in tableau] + [()] * (9 - len(tableau))
    res = [cards(r) for r in reserve] + [()] * (7 - len(reserve))
    return State((*fs, *tab, *res))


def ew_state(base: str, foundations: list[str], tableau: list[str], reserve: str = "", stock: str = "",
             waste: str = "", redeals: int = 0) -> State:
    """Eagle Wing position; ``foundations`` by top card, F1 first (F1 holds the base card)."""
    fs = [home(t[1], t[0], base) if t else () for t in foundations]
    fs += [()] * (4 - len(fs))
    tab = [cards(p) for p in tableau] + [()] * (8 - len(tableau))
    stock_cards = tuple(c | DOWN for c in cards(stock))
    piles = [stock_cards, cards(waste), *fs, *tab[:4], cards(reserve), *tab[4:]]
    return State(tuple(piles), redeals)


def small_positions(rules: Rules, rng: random.Random, count: int) -> list[State]:
    """Random positions with few cards left in play, consistent with the game's invariants."""
    out = []
    while len(out) < count:
        if rules is EW:
            out.append(_small_ew(rng))
        else:
            out.append(_small_ka(rng, classic=rules is KAC))
    return out


def _small_ka(rng: random.Random, classic: bool) -> State:
    crowded = rng.random() < 0.5  # every tableau pile in use: fewer moves, more dead ends
    low, high = (11, 14) if crowded else (3, 8)
    while True:
        heights = [rng.randrange(6, 14) for _ in range(4)]
        if low <= sum(13 - h for h in heights) <= high:
            break
    loose = [s * 13 + r for s in range(4) for r in range(heights[s], 13)]
    rng.shuffle(loose)
    tab: list[list[int]] = [[c] for c in loose[:9]] if crowded else [[] for _ in range(9)]
    reserve: list[tuple[int, ...]] = [()] * 7
    for c in loose[9:] if crowded else loose:
        free = [i for i in range(7) if not reserve[i]]
        if free and rng.random() < (0.1 if crowded else 0.25):
            reserve[rng.choice(free)] = (c,)
        else:
            tab[rng.randrange(9)].insert(0, c)
    # AisleRiot's rules: below a dealt pile's top card, everything lies face down.
    piles = [tuple(c if classic or i == len(p) - 1 else c | DOWN for i, c in enumerate(p)) for p in tab]
    found = [tuple(s * 13 + r for r in range(heights[s])) for s in range(4)]
    rng.shuffle(found)
    return _check_deck(State((*found, *piles, *reserve)))


def _check_deck(state: State) -> State:
    assert sorted(c & 63 for p in state.piles for c in p) == list(range(52))
    return state


def _small_ew(rng: random.Random) -> State:
    base = rng.randrange(13)
    heights = [rng.randrange(7, 14) for _ in range(4)]
    while sum(13 - h for h in heights) < 6:
        heights[rng.randrange(4)] -= 1
    suits = list(range(4))
    rng.shuffle(suits)
    if heights[0] == 0:
        heights[0] = 1
    found = [tuple(s * 13 + (base + k) % 13 for k in range(h)) for s, h in zip(suits, heights, strict=True)]
    loose = [s * 13 + (base + k) % 13 for s, h in zip(suits, heights, strict=True) for k in range(h, 13)]
    rng.shuffle(loose)
    n_res = rng.randrange(0, min(4, len(loose)) + 1)
    reserve = loose[:n_res]
    rest = loose[n_res:]
    tab: list[list[int]] = [[] for _ in range(8)]
    stock: list[int] = []
    waste: list[int] = []
    for c in rest:
        where = rng.random()
        if where < 0.4:
            stock.append(c | DOWN)
        elif where < 0.6:
            waste.append(c)
        else:
            tab[rng.randrange(8)].append(c)
    # Tableau piles hold at most three cards; spill the excess into the stock.
    for p in tab:
        while len(p) > 1:  # loose cards are not in-suit builds: keep one card per pile
            stock.append(p.pop() | DOWN)
    if reserve:  # empty tableau piles exist only once the reserve is empty: refill them
        for p in tab:
            if not p and len(reserve) > 1:
                p.append(reserve.pop())
        if any(not p for p in tab):
            for p in tab:
                if not p:
                    p.append(reserve.pop())
                    if not reserve:
                        break
    res = tuple([reserve[0]] + [c | DOWN for c in reserve[1:]]) if reserve else ()
    piles = [tuple(stock), tuple(waste), *found, *map(tuple, tab[:4]), res, *map(tuple, tab[4:])]
    return _check_deck(State(tuple(piles), rng.choice((0, 1, 2, 2))))


def fewest_moves(rules: Rules, state: State, most: int = 40, cap: int = 3_000_000) -> int | None:
    """The fewest moves to a won game, by exhaustive search (iterative deepening over every legal move, nothing
    left out) with only an obvious bound (:func:`obvious_bound`) to cut lines that cannot end in time; positions
    that differ only in the order of the piles of one kind count as one. None when no line of at most ``most``
    moves wins, or after ``cap`` positions."""
    canon = _canon(rules, state)
    made = 0

    def reach(s: State, g: int, depth: int, best: dict[tuple, int], over: list[int]) -> bool:
        """Whether a line of at most ``depth`` moves wins from ``s``, reached in ``g``; ``over`` gets the
        smallest bound beyond ``depth`` met on the way."""
        nonlocal made
        f = g + obvious_bound(rules, s)
        if f > depth:
            over[0] = min(over[0], f)
            return False
        if rules.won(s):
            return True
        k = canon(s)
        if best.get(k, depth + 1) <= g:
            return False
        best[k] = g
        for m in rules.moves(s):
            made += 1
            if made > cap:
                raise OverflowError
            if reach(rules.apply(s, m), g + 1, depth, best, over):
                return True
        return False

    depth = obvious_bound(rules, state)
    while depth <= most:
        over = [most + 1]
        try:
            if reach(state, 0, depth, {}, over):
                return depth
        except OverflowError:
            return None
        depth = over[0]
    return None


def obvious_bound(rules: Rules, state: State) -> int:
    """A bound too plain to be wrong, for :func:`fewest_moves`: King Albert sends one card home a move, so each
    card not home is a move; Eagle Wing deals each stock card (a move each), plays each stock and waste card off
    the waste (a move each, one card), and sends tableau and reserve cards home three at most a move."""
    piles = state.piles
    out = 52 - sum(len(piles[f]) for f in rules.foundations)
    if rules is not EW:
        return out
    stock, waste = len(piles[rules.stock]), len(piles[rules.waste])
    return 2 * stock + waste + (out - stock - waste + 2) // 3


def _canon(rules: Rules, state: State):  # noqa: ANN202 - a closure over the game's piles
    """A position's form in which piles of one kind are sorted (written independently of the solver's keys)."""
    groups = [rules.foundations, rules.tableau, getattr(rules, "reserve", ())]
    if rules is EW:
        groups = [rules.foundations, rules.tableau]
    grouped = {i for g in groups for i in g}
    rest = [i for i in range(len(state.piles)) if i not in grouped]

    def canon(s: State) -> tuple:
        return (s.redeals, tuple(s.piles[i] for i in rest), *(tuple(sorted(s.piles[i] for i in g)) for g in groups))

    return canon
