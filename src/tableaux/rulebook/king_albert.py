"""King Albert, as GNOME AisleRiot plays it.

Layout: foundations F1..F4, tableau T1..T9, reserve R1..R7; no stock.

Deal: rows of face-down cards across the tableau (T1..T9, then T1..T8, ...,
then T1 alone, so T1 gets 9 cards and T9 one), then one card to each reserve
pile. Every tableau top card and every reserve card is face up.

Moves:
* Pick up a reserve card, a foundation's top card, or any face-up tableau card
  with everything above it (a build of any length).
* A foundation takes one card: an Ace when empty, else the next card of its suit.
* A tableau pile takes anything when empty; otherwise what is moved must start
  with a card one rank lower and of the other colour than the pile's top.
* Reserve piles never take cards. Foundation cards stay in play.
* A tableau pile whose top card is face down after a move turns it up.

Score: the number of cards on the foundations. Won at 52.
"""

from __future__ import annotations

from ..i18n import N_, _, ngettext
from .cards import DOWN, RANK, RED, card_name
from .deal import shuffled_deck
from .engine import Pile, RawMove, Rules, State
from .guide import Layout, Shape, Spot, items, numbered, paragraph

TYPE_CHECKING = False  # typing is not loaded: see .engine
if TYPE_CHECKING:
    from .shapes import Guide

FOUNDATIONS = (0, 1, 2, 3)
TABLEAU = tuple(range(4, 13))
RESERVE = tuple(range(13, 20))

LAYOUT = Layout(
    spots=(
        *(Spot(name, "stack", row=1, col=i, side=(2 - i % 2, 2 if i > 2 else 1, 1))
          for i, name in enumerate(numbered("foundation", 4), 1)),
        *(Spot(name, "stack", row=1, group="ka-reserve", side=(12, 1, 2)) for name in numbered("reserve", 7)),
        *(Spot(name, "fan", row=2, col=i, side=(i + 2, 1, 2)) for i, name in enumerate(numbered("tableau", 9), 1)),
    ),
    wide=Shape(cols=9, depth=4.6),
    side=Shape(cols=12, depth=3.3, rows=1, beside=1),
)
"""Four foundations at the top left and the reserve's seven cards in a row beside them; the nine columns
below, across the whole width. Held sideways on a phone: the foundations two by two left of the columns and the
reserve in a column right of them, so that the columns have the whole height."""


# ACCEPTS[top] = the cards a tableau pile with face-up ``top`` accepts.
ACCEPTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        c for c in range(52)
        if RANK[c] == RANK[top] - 1 and RED[c] != RED[top]
    ) if top < 52 else ()
    for top in range(128)
)


class KingAlbert(Rules):
    """King Albert as GNOME AisleRiot plays it: its deal and piles, some cards face down, builds moved as a unit."""

    name = "king-albert"
    title = N_("King Albert")
    pile_names = (
        *(f"foundation-{i}" for i in range(1, 5)),
        *(f"tableau-{i}" for i in range(1, 10)),
        *(f"reserve-{i}" for i in range(1, 8)),
    )
    foundations = FOUNDATIONS
    tableau = TABLEAU
    home_piles = (*TABLEAU, *RESERVE)
    single_cards_only = False
    """True for the traditional variant, where only one card moves at a time."""
    layout = LAYOUT
    rules_title = N_("Rules of King Albert")
    safe_cards = N_(
        "<b>Safe cards</b> (what <b>Move safe cards home</b> plays): an Ace or a 2, and a higher card once both "
        "suits of the other colour are home up to two ranks below it and the other suit of its colour up to three "
        "below (a 5 of hearts once clubs and spades reach the 3 and diamonds the 2): any card that could still want "
        "to go on it can then go home too.")
    """Which cards "Move safe cards home" plays, in both rule sets (the proof: tableaux.solver.strategy.king_albert)."""

    def guide(self) -> Guide:
        return [
            paragraph(_("<b>Aim:</b> build all 52 cards onto the four foundations, each one a single suit from Ace up "
                        "to King.")),
            paragraph(_("<b>Layout:</b> nine tableau columns (the first holds nine cards, the last one), four "
                        "foundations and a reserve of seven cards. Only the top card of each column starts face up; "
                        "all seven reserve cards are face up.")),
            items(
                _("A foundation starts with an Ace and grows by one rank at a time in the same suit."),
                _("On the tableau, put a card on one that is one rank higher and of the other colour (a red 9 on a "
                  "black 10). You can move any face-up card together with every card on top of it, as one move, as "
                  "long as the card you grab fits the new column. Any card or run may go into an empty column."),
                _("Each reserve card can be played to a foundation or the tableau; the reserve never takes cards "
                  "back."),
                _("Cards on the foundations are still in play: the top one may come back down to the tableau."),
                _("When a move uncovers a face-down card, it turns face up by itself."),
            ),
            paragraph(_("<b>Score:</b> the number of cards on the foundations (52 wins). There is no stock and no "
                        "redeal, so many deals cannot be won; the game tells you when no move is left.")),
        ]

    def deal(self, deal: int) -> State:
        cards = iter(shuffled_deck(deal))
        tableau: list[list[int]] = [[] for _pile in TABLEAU]
        for row in range(len(TABLEAU)):
            for pile in tableau[: len(TABLEAU) - row]:
                pile.append(next(cards) | DOWN)
        reserve = [(next(cards),) for _slot in RESERVE]
        piles: list[Pile] = [() for _slot in FOUNDATIONS]
        piles += [self.turn_up(tuple(p)) for p in tableau]
        piles += reserve
        return State(tuple(piles))

    def turn_up(self, pile: Pile) -> Pile:
        """How a tableau pile looks once dealt; the traditional variant overrides this."""
        return (*pile[:-1], pile[-1] & ~DOWN)

    def moves(self, state: State) -> list[RawMove]:
        piles = state.piles
        out: list[RawMove] = []
        empty_tableau = [i for i in TABLEAU if not piles[i]]
        empty_foundations = [i for i in FOUNDATIONS if not piles[i]]
        # Which tableau piles a given card can be put on.
        wanted: dict[int, list[int]] = {}
        for i in TABLEAU:
            pile = piles[i]
            if pile:
                for c in ACCEPTS[pile[-1]]:
                    wanted.setdefault(c, []).append(i)
        # Which foundation takes a given non-Ace card: the one showing its predecessor.
        home: dict[int, int] = {}
        for i in FOUNDATIONS:
            pile = piles[i]
            if pile and RANK[pile[-1]] < 13:
                home[pile[-1] + 1] = i

        def to_foundation(src: int, c: int) -> None:
            if RANK[c] == 1:
                out.extend((src, 1, f) for f in empty_foundations if f != src)
            elif c in home:
                out.append((src, 1, home[c]))

        for src in (*FOUNDATIONS, *RESERVE):
            pile = piles[src]
            if pile:
                c = pile[-1]
                to_foundation(src, c)
                out.extend((src, 1, t) for t in wanted.get(c, ()))
                out.extend((src, 1, t) for t in empty_tableau)
        for src in TABLEAU:
            pile = piles[src]
            if not pile:
                continue
            to_foundation(src, pile[-1])
            depth = 1 if self.single_cards_only else len(pile)
            for count in range(1, depth + 1):
                c = pile[-count]
                if c & DOWN:
                    break
                out.extend((src, count, t) for t in wanted.get(c, ()))
                out.extend((src, count, t) for t in empty_tableau if t != src)
        return out

    def why_illegal(self, state: State, move: RawMove, names: tuple[str, ...] | None = None) -> str | None:
        """The rules of the module docstring, one refusal each, in the order a player would think of them."""
        if (basic := super().why_illegal(state, move, names)) is not None:
            return basic
        names = names or self.short_names
        src, count, dst = move
        source, target = state.piles[src], state.piles[dst]
        if dst in RESERVE:
            return _("the reserve never takes cards")
        if count > 1 and src not in TABLEAU:
            return _("only one card at a time comes off {pile}").format(pile=names[src])
        if count > len(source) or (source[-1] & DOWN if count == 1 else any(c & DOWN for c in source[-count:])):
            return ngettext("{pile} does not have {count} face-up card to move",
                            "{pile} does not have {count} face-up cards to move", count).format(
                pile=names[src], count=count)
        if count > 1 and self.single_cards_only:
            return _("in {game} only one card moves at a time").format(game=_(self.title))
        moving = source[-count]
        if dst in FOUNDATIONS:
            if count > 1:
                return _("a foundation takes one card at a time")
            if not target:
                if RANK[moving] != 1:
                    return _("an empty foundation takes only an Ace, not the {card}").format(card=card_name(moving))
                return None
            if RANK[target[-1]] == 13:
                return _("{pile} is complete, up to its King").format(pile=names[dst])
            if moving != target[-1] + 1:
                return _("{pile} takes only the {wanted} next, not the {card}").format(
                    pile=names[dst], wanted=card_name(target[-1] + 1), card=card_name(moving))
            return None
        if target and moving not in ACCEPTS[target[-1]]:
            return _("the {card} cannot go onto the {target}: a tableau pile takes "
                     "a card one rank lower and of the other colour").format(
                card=card_name(moving), target=card_name(target[-1]))
        return None

    def apply(self, state: State, move: RawMove) -> State:
        src, count, dst = move
        piles = list(state.piles)
        source = piles[src]
        moving = source[-count:]
        rest = source[:-count]
        if rest and rest[-1] & DOWN:
            rest = (*rest[:-1], rest[-1] & ~DOWN)  # turned up as part of the same move
        piles[src] = rest
        piles[dst] = piles[dst] + moving
        return State(tuple(piles))


class KingAlbertClassic(KingAlbert):
    """The traditional rules other collections use: every card dealt face up, one card moved at a time."""

    name = "king-albert-classic"
    title = N_("King Albert (classic)")
    single_cards_only = True
    rules_title = Rules.rules_title  # "Rules of {game}", with this game's title

    def guide(self) -> Guide:
        return [
            paragraph(_("<b>Aim:</b> build all 52 cards onto the four foundations, each one a single suit from Ace up "
                        "to King.")),
            paragraph(_("<b>Layout:</b> as in King Albert, nine tableau columns, four foundations and a reserve of "
                        "seven cards, but every card is dealt face up.")),
            items(
                _("A foundation starts with an Ace and grows by one rank at a time in the same suit."),
                _("On the tableau, put a card on one that is one rank higher and of the other colour (a red 9 on a "
                  "black 10). Only one card moves at a time; any card may go into an empty column."),
                _("Each reserve card can be played to a foundation or the tableau; the reserve never takes cards "
                  "back."),
                _("Cards on the foundations are still in play: the top one may come back down to the tableau."),
            ),
            paragraph(_("<b>Score:</b> the number of cards on the foundations (52 wins). There is no stock and no "
                        "redeal, so many deals cannot be won; the game tells you when no move is left.")),
        ]

    def turn_up(self, pile: Pile) -> Pile:
        return tuple(c & ~DOWN for c in pile)
