"""King Albert relaxed above a rank: a complete search whose loss proves the real deal lost.

The complete searches (depth-first and :mod:`.layered`) visit every reachable position, and on the
hardest deals there are more than a machine holds. This search plays an easier game instead, one with far
fewer positions, chosen so that a deal it cannot win cannot be won in the real game either. It plays both
rule sets: the classic one, and AisleRiot's, where builds move and face-down cards turn up.

**The relaxed game above rank m.** Cards of rank m or less are what they are. A card of higher rank is
known only by its rank and colour: the two red Nines, say, become one kind of card, two copies of it.
The rules are the real game's (classic: one card moves at a time, from a tableau pile's top, a reserve cell
or a foundation's top; a tableau pile takes a card one rank lower and of the other colour, an empty one any
card; AisleRiot's: a pile's face-up cards move from any of them up, as a build, the card below a move turns
up, and a face-down card is a kind too, known as face down), except that a foundation that has reached rank m
takes the next rank of its *colour*, of either suit. The foundation of a suit still starts with that suit's
Ace and holds it up to rank m.

**Why a lost relaxed game is a lost deal.** Map each real card to its relaxed kind (itself up to rank
m, its rank and colour above), and each real position to the relaxed position with the same piles
(foundations counted by suit). Every real move maps to a relaxed move between the mapped positions, or
to none: tableau and reserve moves ask only for ranks and colours (a build's, of its lowest card), which
the map keeps, and turn up the same card in both; a real
foundation takes the next card of its suit, which above rank m is a card of its colour, one rank up; a
card taken back off a foundation is its top in both; and an Ace moved from its foundation to an empty
one (the real rules allow it) leaves every suit's height, so the relaxed position, as it was. Then, by
induction on the length n of a real winning line from a position P: for n = 0, P is won, all 52 cards
home, and so is its relaxed position; for n > 0, the first move takes P to P' (from which a line of
n - 1 moves wins, so by induction the relaxed position of P' has a relaxed winning line), and the
relaxed position of P reaches that of P' in one relaxed move or none. So every real winning line gives
a relaxed winning line of at most its length, and a relaxed game with no win has a real deal with no
win. A relaxed win says nothing: it may, say, build the hearts' foundation on the Seven of diamonds.

The argument needs the start to be a real position of its game: every card once, each foundation a run of
one suit from its Ace, each reserve cell one card at most, face-down cards only below a tableau pile's
face-up ones (AisleRiot's) or none (classic). :func:`check_relaxable` checks a position handed in (a deal
always is one; a hand-built position may not be) rather than assume it was reached.

**Why the relaxed game is small.** Two positions that differ only in where the two copies of a card
lie are one relaxed position, and with m low most cards have a copy. Low ranks stay apart because a
deal is mostly lost at its bottom: the Aces, Twos and Threes buried under what they need first.

**What the search leaves out, with its proof.** It makes every relaxed move from every position it
reaches, except:

* an Ace that can go home goes at once, and nothing else is tried there; no Ace is taken back. An
  Ace can go home at any time (its suit's foundation is empty while it is out), and nothing is ever put
  on it on the tableau (nothing is one rank lower). Take a relaxed winning line L from a position where
  an Ace A can go home, and let L' be "A home, then L without A's own moves". By induction along L,
  each move of L' finds the cards it moves and the pile it moves them to as L found them, except that A
  is home instead of somewhere else: a move that took A alone is left out, a build that took A on its top
  moves without it (its lowest card is the same), a move onto the pile A covered finds it uncovered (a
  face-down card under A is turned up sooner, which only adds a face-up card to that pile until L uncovers
  it too), and a move to an empty pile finds at least as many. So L' wins, and no win is lost by sending A
  home first; taking an Ace back only undoes that, so it is never needed either;
* with the Twos kept apart (m >= 2), a Two that can go home (its Ace is home, and no Ace can go) goes next,
  and nothing else is tried there; no Two is taken back. The same argument holds for a Two T: on the
  tableau T could only ever take an Ace of the other colour, and in this search an Ace only goes home, so
  in a winning line of it nothing is put on T; "T home, then L without T's own moves" finds every card and
  pile as L did (an Ace T uncovers goes home at once, which the Aces' argument allows), and T home from the
  start never keeps its suit's Three from going home. Relaxed above the Aces alone (m = 1) a Two is known
  only by its colour and may go on either foundation of it, a choice, so there the Twos are left alone;
* tableau piles are interchangeable, as are the copies of a card, so a position is kept under a key
  with its piles sorted and its reserve cards as a sorted list; a whole pile is never moved to an empty
  pile, and a card or build goes to one empty pile only.

``core/relaxed.c`` is the same search in C. Both keep every position's exact key and count one
position per key kept: on a relaxed game they exhaust, they count the same positions.
"""

from __future__ import annotations

import time
from collections import namedtuple
from collections.abc import Iterator

from ..rulebook.cards import DOWN, RANK, RED, SUIT
from ..rulebook.engine import Rules, State
from ..rulebook.king_albert import FOUNDATIONS, RESERVE, TABLEAU
from .options import RELAXED_GAMES, RELAXED_RULES

RelaxedPosition = tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]
"""Foundation heights by suit (clubs, diamonds, hearts, spades), the reserve cards sorted, the tableau
piles sorted; each card as a kind (:func:`kind`)."""


DOWN_KIND = 128
"""A face-down card's kind has this bit more (AisleRiot's King Albert); it goes when the card is turned up."""


def kind(card: int, rank_kept: int) -> int:
    """A card's kind in the game relaxed above ``rank_kept``: ``rank * 8 + suit`` up to that rank,
    ``rank * 8 + 4 + red`` above it, and :data:`DOWN_KIND` more while it lies face down."""
    rank = RANK[card]
    return rank * 8 + (SUIT[card] if rank <= rank_kept else 4 + RED[card]) | (DOWN_KIND if card & DOWN else 0)


def turned_up(pile: tuple[int, ...]) -> tuple[int, ...]:
    """A pile after cards left it: its top card face up."""
    return (*pile[:-1], pile[-1] & ~DOWN_KIND) if pile and pile[-1] & DOWN_KIND else pile


def kind_red(k: int) -> int:
    """1 when a kind is red."""
    sub = k & 7
    return sub - 4 if sub >= 4 else int(sub in (1, 2))


def relaxed_parts(state: State, rank_kept: int) -> tuple[list[int], list[int], list[list[int]]]:
    """The map of the module docstring, in the real position's places: the foundations' heights by suit, the
    reserve's kinds by cell (0 for an empty one), the tableau piles' kinds."""
    piles = state.piles
    heights = [0, 0, 0, 0]
    for f in FOUNDATIONS:
        if piles[f]:
            heights[SUIT[piles[f][0]]] = len(piles[f])
    cells = [kind(piles[r][0], rank_kept) if piles[r] else 0 for r in RESERVE]
    return heights, cells, [[kind(c, rank_kept) for c in piles[t]] for t in TABLEAU]


def canonical(heights: list[int], cells: list[int], piles: list[list[int]]) -> RelaxedPosition:
    """The relaxed position of those parts: the reserve and the piles sorted, as interchangeable."""
    return tuple(heights), tuple(sorted(k for k in cells if k)), tuple(sorted(tuple(pile) for pile in piles))


def relaxed_start(rules: Rules, state: State, rank_kept: int) -> RelaxedPosition:
    """The relaxed position of a classic King Albert position (the map of the module docstring)."""
    check_relaxable(rules, rank_kept, state)
    return canonical(*relaxed_parts(state, rank_kept))


def check_relaxable(rules: Rules, rank_kept: int, state: State | None = None) -> None:
    """Refuse what the relaxation has no proof for, saying what is accepted: another game, a rank out of
    range, or a start that is not a real position of its game (the module docstring's argument needs one)."""
    if type(rules) not in RELAXED_RULES:
        raise ValueError(f"the relaxed search plays King Albert's games only ({', '.join(RELAXED_GAMES)}), not "
                         f"{rules.name}")
    if isinstance(rank_kept, bool) or not isinstance(rank_kept, int) or not 1 <= rank_kept <= 13:
        raise ValueError(f"the rank kept apart must be a whole number from 1 to 13 (1 keeps the Aces apart, 13 "
                         f"is the real game), not {rank_kept!r}")
    if state is None:
        return
    cards = [c & ~DOWN for pile in state.piles for c in pile]
    if sorted(cards) != list(range(52)):
        raise ValueError("the relaxed search starts from a position holding each of the 52 cards once; this one "
                         f"holds {len(cards)} cards, {len(set(cards))} of them different")
    suits = set()
    for f in FOUNDATIONS:
        pile = state.piles[f]
        if pile and (RANK[pile[0]] != 1 or any(SUIT[c] != SUIT[pile[0]] or RANK[c] != i + 1
                                               for i, c in enumerate(pile))):
            raise ValueError(f"foundation {FOUNDATIONS.index(f) + 1} is not a run of one suit from its Ace, "
                             "as every foundation of a real position is")
        if pile and SUIT[pile[0]] in suits:
            raise ValueError("two foundations hold the same suit; a real position has one foundation a suit")
        if pile:
            suits.add(SUIT[pile[0]])
    if any(len(state.piles[r]) > 1 for r in RESERVE):
        raise ValueError("a reserve cell holds more than one card; each holds one card at most")
    faces = [[bool(c & DOWN) for c in state.piles[t]] for t in TABLEAU]
    if rules.single_cards_only and any(any(down) for down in faces):
        raise ValueError(f"a card lies face down; in {rules.name} every card is face up")
    if any(c & DOWN for p in (*FOUNDATIONS, *RESERVE) for c in state.piles[p]) or any(
            down and (down[-1] or down != sorted(down, reverse=True)) for down in faces):
        raise ValueError("a card lies face down where none can: only the tableau's cards below its face-up ones "
                         "are face down")


def children(pos: RelaxedPosition, rank_kept: int, builds: bool = False) -> Iterator[RelaxedPosition]:
    """Every position one relaxed move away, less what the module docstring leaves out (repeats allowed);
    ``builds``: AisleRiot's rules, where a pile's face-up cards move from any of them up, face down cards among
    the kinds."""
    heights, reserve, tableau = pos

    def homes(k: int) -> list[int]:
        rank = k >> 3
        if rank <= rank_kept:
            return [k & 7] if heights[k & 7] == rank - 1 else []
        return [f for f in range(4) if RED[f * 13] == kind_red(k) and heights[f] == rank - 1]

    empty = () in tableau
    # The sources: (what moves, its lowest card first; from a foundation; the pile it leaves (-1: none); and the
    # tableau, reserve and heights without it). A whole pile leaves its pile empty.
    Source = tuple[tuple[int, ...], bool, int, tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]
    sources: list[Source] = []
    for i, pile in enumerate(tableau):
        if pile and (i == 0 or tableau[i - 1] != pile):
            for n in range(1, len(pile) + 1 if builds else 2):
                if pile[-n] & DOWN_KIND:
                    break
                rest = (*tableau[:i], turned_up(pile[:-n]), *tableau[i + 1:])
                sources.append((pile[-n:], False, i, rest, reserve, heights))
    for j, k in enumerate(reserve):
        if j == 0 or reserve[j - 1] != k:
            sources.append(((k,), False, -1, tableau, (*reserve[:j], *reserve[j + 1:]), heights))
    low = at_once(rank_kept)
    for rank in range(1, low + 1):
        for moved, _back, _left, tab, res, h in sources:
            k = moved[0]
            if k >> 3 == rank and len(moved) == 1 and h[k & 7] == rank - 1:  # it goes home: the only move
                f = k & 7
                yield h[:f] + (rank,) + h[f + 1:], res, tuple(sorted(tab))
                return
    for f in range(4):
        if heights[f] > low:  # a foundation's top comes back (never an Ace, nor a Two kept apart)
            r = heights[f]
            top = kind(f * 13 + r - 1, rank_kept)
            sources.append(((top,), True, -1, tableau, reserve, heights[:f] + (r - 1,) + heights[f + 1:]))
    for moved, back, _left, tab, res, h in sources:  # every move home first: a live position's win comes sooner
        if not back and len(moved) == 1:
            for f in homes(moved[0]):
                yield h[:f] + (h[f] + 1,) + h[f + 1:], res, tuple(sorted(tab))
    for moved, _back, left, tab, res, h in sources:
        k = moved[0]
        rank, red = k >> 3, kind_red(k)
        for i, pile in enumerate(tab):  # (the pile it leaves may show a card that takes it: not a move)
            if i != left and pile and pile[-1] >> 3 == rank + 1 and kind_red(pile[-1]) != red:
                yield h, res, tuple(sorted((*tab[:i], pile + moved, *tab[i + 1:])))
        if empty and not (left >= 0 and not tab[left]):  # a whole pile to an empty pile: the same position
            i = tab.index(())
            yield h, res, tuple(sorted((*tab[:i], moved, *tab[i + 1:])))


def at_once(rank_kept: int) -> int:
    """The highest rank that goes home at once and never comes back (the module docstring): the Twos too when they
    are kept apart."""
    return 2 if rank_kept >= 2 else 1


def won(pos: RelaxedPosition) -> bool:
    return sum(pos[0]) == 52


class RelaxedResult(namedtuple("RelaxedResult", "verdict positions")):
    """``lost`` (the real deal is proved lost), ``won`` (a relaxed win: says nothing) or ``unknown``
    (out of positions), and the positions kept. (A named tuple, not a dataclass: a King Albert solve loads this
    module for its relaxed verdicts, and :mod:`dataclasses` would cost a command's start-up.)"""

    __slots__ = ()


def relaxed_search(rules: Rules, state: State, rank_kept: int, max_positions: int | None = None,
                   time_limit: float | None = None) -> RelaxedResult:
    """Search the relaxed game from ``state`` to its end, or to a win, or to ``max_positions`` kept or
    ``time_limit`` seconds (then ``unknown``)."""
    start = relaxed_start(rules, state, rank_kept)
    seen = {start}
    stack = [start]
    deadline = None if time_limit is None else time.monotonic() + time_limit
    popped = 0
    while stack:
        pos = stack.pop()
        popped += 1
        if deadline is not None and popped % 4096 == 0 and time.monotonic() > deadline:
            return RelaxedResult("unknown", len(seen))
        if won(pos):
            return RelaxedResult("won", len(seen))
        for child in children(pos, rank_kept, not rules.single_cards_only):
            if child not in seen:
                if max_positions is not None and len(seen) >= max_positions:
                    return RelaxedResult("unknown", len(seen))
                seen.add(child)
                stack.append(child)
    return RelaxedResult("lost", len(seen))
