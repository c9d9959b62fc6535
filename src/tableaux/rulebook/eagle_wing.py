"""Eagle Wing, as GNOME AisleRiot plays it.

Layout: stock and waste, foundations F1..F4, tableau T1..T8 (four each side)
and the reserve (the "trunk") between them.

Deal, from the top of the shuffled deck: one card face up to the reserve (its
bottom card), 12 more face down on it, one card face up to each tableau pile,
one card face up to F1 (the base card: its rank starts every foundation), and
the remaining 30 cards face down as the stock.

Moves:
* The stock turns one card onto the waste. When it is empty, it may take the
  whole waste back (same order) twice in a game: three passes in all.
* The top waste card, a tableau pile's top card, and the reserve's card once
  it is the last (face-up) one, may go to a foundation or a tableau pile.
* A foundation takes a base-rank card when empty, else the next card of its
  suit, wrapping from King to Ace. Foundation cards are out of play.
* A tableau pile holds at most 3 cards, built down in suit with wrapping
  (King on Ace), one card at a time. An empty pile takes any single card.
* A tableau pile's top 2 or 3 cards may go to a foundation in one move when
  its top card fits there; they land in ascending order.
* A move that empties a tableau pile refills it at once with the reserve's
  top card, face up, while the reserve has cards.

Score: cards on the foundations (the base card counts, so it starts at 1).
Won when every card is on a foundation.
"""

from __future__ import annotations

from ..i18n import N_, _
from .cards import DOWN, RANK, RANKS, card_name, card_str, rank_name
from .deal import shuffled_deck
from .engine import RawMove, Rules, State
from .guide import Layout, Shape, Spot, items, paragraph

TYPE_CHECKING = False  # typing is not loaded: see .engine
if TYPE_CHECKING:
    from typing import Any

    from .shapes import Guide

STOCK, WASTE, RESERVE = 0, 1, 10
FOUNDATIONS = (2, 3, 4, 5)
TABLEAU = (6, 7, 8, 9, 11, 12, 13, 14)
MAX_REDEALS = 2
PILE_LIMIT = 3

# NEXT_UP[c]: the card that goes on c on a foundation (same suit, one higher, Ace after King).
NEXT_UP = tuple((c // 13) * 13 + (c % 13 + 1) % 13 if c < 52 else -1 for c in range(128))
# NEXT_DOWN[c]: the card that goes on c on the tableau (same suit, one lower, King under Ace).
NEXT_DOWN = tuple((c // 13) * 13 + (c % 13 - 1) % 13 if c < 52 else -1 for c in range(128))

LAYOUT = Layout(
    spots=(
        Spot("stock", "stock", row=1, col=1, tall=(1, 3)),
        Spot("waste", "stack", row=1, col=2, tall=(2, 3)),
        *(Spot(f"foundation-{i}", "stack", row=1, col=5 + i, tall=(i, 1)) for i in range(1, 5)),
        *(Spot(f"tableau-{i}", "fan", row=2, col=i, drop=4 - i, tall=(i, 2)) for i in range(1, 5)),
        Spot("reserve", "closed", row=2, col=5, tall=(4, 3)),
        *(Spot(f"tableau-{4 + i}", "fan", row=2, col=5 + i, drop=i - 1, tall=(i, 4)) for i in range(1, 5)),
    ),
    # Eagle Wing's wide rows: a card, then a wing of three cards on large-print faces (1.4 + 1.4 x 1.68 card
    # widths), and a little room.
    wide=Shape(cols=9, depth=3.9, steps=3),
    tall=Shape(cols=4, depth=7.4, stacked=True, rows=4),
)
"""Wide: the wings spread either side of the trunk like an eagle's, each one a step lower than the one nearer
the trunk (``drop`` steps of the height the window has to spare). Upright, on four columns, so the cards are as
wide as a phone allows and the four rows fill its height: the foundations, four wing piles, the stock, waste
and trunk, then the other four wing piles. Each row of wings has room below it for its longest fan (three
cards), and no more."""


class EagleWing(Rules):
    """Eagle Wing as GNOME AisleRiot plays it: the trunk, the wings it refills, a stock with two redeals, and
    foundations built up from a base rank the deal turns up."""

    name = "eagle-wing"
    title = N_("Eagle Wing")
    pile_names = (
        "stock", "waste",
        *(f"foundation-{i}" for i in range(1, 5)),
        *(f"tableau-{i}" for i in range(1, 5)),
        "reserve",
        *(f"tableau-{i}" for i in range(5, 9)),
    )
    foundations = FOUNDATIONS
    tableau = TABLEAU
    home_piles = (WASTE, *TABLEAU)
    """AisleRiot's double-click leaves out the reserve."""
    stock = STOCK
    waste = WASTE
    layout = LAYOUT
    rules_title = N_("Rules of Eagle Wing")
    safe_cards = N_("<b>Safe cards</b> (what <b>Move safe cards home</b> plays): any single card that continues a "
                    "foundation, except a card of the base rank, which still waits for you.")
    """Which cards "Move safe cards home" plays (the proof: tableaux.solver.strategy.eagle_wing)."""

    def pile_words(self, pile: str) -> str:
        """The reserve is the trunk and the tableau piles are the wings, as in AisleRiot's rules."""
        if pile == "reserve":
            return _("the trunk")
        kind, _dash, number = pile.partition("-")
        if kind == "tableau":
            return _("wing pile {n}").format(n=number)
        return super().pile_words(pile)

    def guide(self) -> Guide:
        return [
            paragraph(_("<b>Aim:</b> move every card to the four foundations, emptying the stock, the waste, the "
                        "trunk (the reserve in the middle) and all eight wing piles.")),
            paragraph(_("<b>Layout:</b> a face-up base card starts the first foundation; its rank is the starting "
                        "rank of all four foundations. Thirteen cards make the trunk, with only its bottom card face "
                        "up. Eight wing piles get one face-up card each, and the other 30 cards form the stock.")),
            items(
                _("Foundations start with a card of the base rank and climb in suit, going round the corner from "
                  "King to Ace and on (with base 9: 9, 10, J, Q, K, A, 2 ... 8). Cards that reach a foundation stay "
                  "there."),
                _("Wing piles build downwards in suit, also round the corner (a King may go on an Ace), and hold at "
                  "most three cards. Only one card at a time moves onto a wing pile."),
                _("The top one, two or three cards of a wing pile may go to a foundation together when the top card "
                  "fits there; they land in order and each one scores."),
                _("When a wing pile empties, the top card of the trunk fills it at once. Only when the trunk is used "
                  "up can a wing pile stay empty; an empty pile then takes any single card."),
                _("Click the stock to turn its top card onto the waste. When the stock runs out, a click turns the "
                  "waste back over as the new stock: twice, so you go through the cards three times in all."),
                _("The waste's top card may go to a foundation or a wing pile. The trunk never takes cards; its last "
                  "card, once on its own, can be played."),
            ),
            paragraph(_("<b>Score:</b> starts at 1 for the base card and rises by one for each card on a foundation "
                        "(52 wins). The game is lost when no move and no stock turn is left.")),
        ]

    def deal(self, deal: int) -> State:
        cards = shuffled_deck(deal)
        piles: list[tuple[int, ...]] = [() for _name in self.pile_names]
        piles[RESERVE] = (cards[0], *(c | DOWN for c in cards[1:13]))
        for i, pile in enumerate(TABLEAU):
            piles[pile] = (cards[13 + i],)
        piles[FOUNDATIONS[0]] = (cards[21],)
        # The stock's top (last) card is the next one in dealing order.
        piles[STOCK] = tuple(c | DOWN for c in reversed(cards[22:]))
        return State(tuple(piles))

    @staticmethod
    def base_rank(state: State) -> int:
        return RANK[state.piles[FOUNDATIONS[0]][0]]

    def moves(self, state: State) -> list[RawMove]:
        piles = state.piles
        out: list[RawMove] = []
        if piles[STOCK]:
            out.append((STOCK, 1, WASTE))
        elif piles[WASTE] and state.redeals < MAX_REDEALS:
            out.append((WASTE, len(piles[WASTE]), STOCK))

        base = self.base_rank(state)
        empty_foundations = [f for f in FOUNDATIONS if not piles[f]]
        home = {NEXT_UP[piles[f][-1]]: f for f in FOUNDATIONS if piles[f]}
        open_tableau = [t for t in TABLEAU if len(piles[t]) < PILE_LIMIT]

        def single(src: int, c: int) -> None:
            if RANK[c] == base:
                out.extend((src, 1, f) for f in empty_foundations)
            elif c in home:
                out.append((src, 1, home[c]))
            for t in open_tableau:
                if t != src and (not piles[t] or NEXT_DOWN[piles[t][-1]] == c):
                    out.append((src, 1, t))

        if piles[WASTE]:
            single(WASTE, piles[WASTE][-1])
        reserve = piles[RESERVE]
        if len(reserve) == 1:  # only the face-up bottom card is left
            single(RESERVE, reserve[0])
        for src in TABLEAU:
            pile = piles[src]
            if not pile:
                continue
            top = pile[-1]
            single(src, top)
            targets = empty_foundations if RANK[top] == base else [home[top]] if top in home else []
            for count in range(2, len(pile) + 1):
                out.extend((src, count, f) for f in targets)
        return out

    def why_illegal(self, state: State, move: RawMove, names: tuple[str, ...] | None = None) -> str | None:
        """The rules of the module docstring, one refusal each; the reserve's covered cards are never named."""
        src, count, dst = move
        piles = state.piles
        source, target = piles[src], piles[dst]
        names = names or self.short_names
        s, t = names[src], names[dst]
        if dst == STOCK and src == WASTE:
            if piles[STOCK]:
                return _("the waste goes back to the stock only once the stock is empty")
            if state.redeals >= MAX_REDEALS:
                return _("no redeals are left: the waste goes back to the stock only {n} times a game").format(
                    n=MAX_REDEALS)
            if not source:
                return _("the waste is empty")
            if count == len(source):
                return None
            return _("the whole waste goes back at once (W:{n}>S)").format(n=len(source))
        if dst == STOCK:
            return _("the stock takes back only the whole waste")
        if src == STOCK:
            if dst != WASTE:
                return _("stock cards are turned onto the waste first (S>W)")
            if not source:
                return _("the stock is empty")
            return None if count == 1 else _("the stock turns one card at a time")
        if dst == WASTE:
            return _("the waste takes only cards turned from the stock (S>W)")
        if (basic := super().why_illegal(state, move, names)) is not None:
            return basic
        if dst == RESERVE:
            return _("the trunk never takes cards")
        if src in FOUNDATIONS:
            return _("foundation cards are out of play")
        if src == RESERVE and len(source) > 1:
            return _("the trunk's cards play only once one card is left in it, face up")
        if src not in TABLEAU and count > 1:
            return _("only one card at a time comes off {pile}").format(pile=s)
        if count > len(source):
            return _("{pile} does not have {count} cards to move").format(pile=s, count=count)
        if dst in FOUNDATIONS:
            card = source[-1]  # two or three tableau cards go home when the top one fits
            base = self.base_rank(state)
            if not target:
                if RANK[card] == base:
                    return None
                return _("an empty foundation takes only this deal's base rank: {rank}").format(
                    rank=rank_name(base))
            if len(target) == 13:
                return _("{pile} is complete").format(pile=t)
            wanted = NEXT_UP[target[-1]]
            if card == wanted:
                return None
            return _("{pile} takes only the {wanted} next, not the {card}").format(
                pile=t, wanted=card_name(wanted), card=card_name(card))
        if count > 1:
            return _("only one card at a time moves onto a wing pile (two or three go together only to a foundation)")
        card = source[-1]
        if len(target) >= PILE_LIMIT:
            return _("{pile} is full: a wing pile holds at most {n} cards").format(pile=t, n=PILE_LIMIT)
        if target and NEXT_DOWN[target[-1]] != card:
            return _("the {card} cannot go onto the {target}: wing piles build down "
                     "in suit, King on Ace").format(card=card_name(card), target=card_name(target[-1]))
        return None

    def apply(self, state: State, move: RawMove) -> State:
        src, count, dst = move
        piles = list(state.piles)
        redeals = state.redeals
        if src == STOCK:
            piles[STOCK] = piles[STOCK][:-1]
            piles[WASTE] = piles[WASTE] + (state.piles[STOCK][-1] & ~DOWN,)
        elif dst == STOCK:
            piles[STOCK] = tuple(c | DOWN for c in reversed(piles[WASTE]))
            piles[WASTE] = ()
            redeals += 1
        else:
            moving = piles[src][-count:]
            piles[src] = piles[src][:-count]
            if dst in FOUNDATIONS:
                moving = moving[::-1]  # a tableau run lands in ascending order
            piles[dst] = piles[dst] + tuple(c & ~DOWN for c in moving)
            if not piles[src] and src in TABLEAU and piles[RESERVE]:
                piles[src] = (piles[RESERVE][-1] & ~DOWN,)
                piles[RESERVE] = piles[RESERVE][:-1]
        return State(tuple(piles), redeals)

    def visible(self, state: State) -> tuple[tuple[bool, ...], ...]:
        """The trunk is a closed pile: its face-up bottom card is on view only once it is the last card.

        AisleRiot draws the reserve as a normal (not fanned) slot, so only its
        top card shows, and that is face down while others cover the bottom
        card. The engine keeps the bottom card face up (it is dealt so), but a
        player has not seen it until the pile is down to it.
        """
        shown = super().visible(state)
        reserve = state.piles[RESERVE]
        if len(reserve) > 1:
            shown = (*shown[:RESERVE], (False,) * len(reserve), *shown[RESERVE + 1:])
        return shown

    def extra(self, state: State) -> dict[str, Any]:
        piles = state.piles
        base = self.base_rank(state)
        fields = {
            "stock_left": len(piles[STOCK]),
            "reserve_left": len(piles[RESERVE]),
            "base_rank": RANKS[base - 1],
            "base_card": card_str(piles[FOUNDATIONS[0]][0]),
            "redeals_left": MAX_REDEALS - state.redeals,
        }
        # TRANSLATORS: AisleRiot's status line, with the word the rules and hints use for the reserve: the
        # trunk. {rank} is a rank's name ("Jack").
        fields["status"] = _("Stock left: {stock}   Trunk left: {reserve}   Base card: {rank}   "
                             "Redeals left: {redeals}").format(
            stock=fields["stock_left"], reserve=fields["reserve_left"], rank=rank_name(base),
            redeals=fields["redeals_left"])
        return fields

