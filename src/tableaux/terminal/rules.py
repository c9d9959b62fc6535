"""The rules of each game in our own words, for a player at the terminal to read (``rules``, or the board's key).

The rules the game obeys live in the engine (:mod:`tableaux.rulebook`); this is only their description.
The sentences are the browser's rule book's (``web/static/rules.js``), word for word, so a rule reads
the same wherever it is played and a translator meets each sentence once in each catalogue; ``<b>``
marks the words the browser prints in bold, and :func:`rules_text` keeps or drops it (a terminal shows it
in bold). How to play is each mode's own (:mod:`.help`, the board's footer).
"""

from __future__ import annotations

import re

from ..i18n import N_, _
from ..rulebook.eagle_wing import EagleWing
from ..rulebook.engine import Rules
from ..rulebook.king_albert import KingAlbert, KingAlbertClassic

KING_ALBERT = (
    N_("<b>Aim:</b> build all 52 cards onto the four foundations, each one a single suit from Ace up to King."),
    N_("<b>Layout:</b> nine tableau columns (the first holds nine cards, the last one), four foundations and a "
       "reserve of seven cards. Only the top card of each column starts face up; all seven reserve cards are face "
       "up."),
    N_("A foundation starts with an Ace and grows by one rank at a time in the same suit."),
    N_("On the tableau, put a card on one that is one rank higher and of the other colour (a red 9 on a black 10). "
       "You can move any face-up card together with every card on top of it, as one move, as long as the card you "
       "grab fits the new column. Any card or run may go into an empty column."),
    N_("Each reserve card can be played to a foundation or the tableau; the reserve never takes cards back."),
    N_("Cards on the foundations are still in play: the top one may come back down to the tableau."),
    N_("When a move uncovers a face-down card, it turns face up by itself."),
    N_("<b>Score:</b> the number of cards on the foundations (52 wins). There is no stock and no redeal, so many "
       "deals cannot be won; the game tells you when no move is left."),
)

CLASSIC = (
    N_("<b>Aim:</b> build all 52 cards onto the four foundations, each one a single suit from Ace up to King."),
    N_("<b>Layout:</b> as in King Albert, nine tableau columns, four foundations and a reserve of seven cards, "
       "but every card is dealt face up."),
    N_("A foundation starts with an Ace and grows by one rank at a time in the same suit."),
    N_("On the tableau, put a card on one that is one rank higher and of the other colour (a red 9 on a black 10). "
       "Only one card moves at a time; any card may go into an empty column."),
    N_("Each reserve card can be played to a foundation or the tableau; the reserve never takes cards back."),
    N_("Cards on the foundations are still in play: the top one may come back down to the tableau."),
    N_("<b>Score:</b> the number of cards on the foundations (52 wins). There is no stock and no redeal, so many "
       "deals cannot be won; the game tells you when no move is left."),
)

EAGLE_WING = (
    N_("<b>Aim:</b> move every card to the four foundations, emptying the stock, the waste, the trunk (the reserve "
       "in the middle) and all eight wing piles."),
    N_("<b>Layout:</b> a face-up base card starts the first foundation; its rank is the starting rank of all four "
       "foundations. Thirteen cards make the trunk, with only its bottom card face up. Eight wing piles get one "
       "face-up card each, and the other 30 cards form the stock."),
    N_("Foundations start with a card of the base rank and climb in suit, going round the corner from King to Ace "
       "and on (with base 9: 9, 10, J, Q, K, A, 2 ... 8). Cards that reach a foundation stay there."),
    N_("Wing piles build downwards in suit, also round the corner (a King may go on an Ace), and hold at most three "
       "cards. Only one card at a time moves onto a wing pile."),
    N_("The top one, two or three cards of a wing pile may go to a foundation together when the top card fits "
       "there; they land in order and each one scores."),
    N_("When a wing pile empties, the top card of the trunk fills it at once. Only when the trunk is used up can a "
       "wing pile stay empty; an empty pile then takes any single card."),
    N_("Click the stock to turn its top card onto the waste. When the stock runs out, a click turns the waste back "
       "over as the new stock: twice, so you go through the cards three times in all."),
    N_("The waste's top card may go to a foundation or a wing pile. The trunk never takes cards; its last card, "
       "once on its own, can be played."),
    N_("<b>Score:</b> starts at 1 for the base card and rises by one for each card on a foundation (52 wins). The "
       "game is lost when no move and no stock turn is left."),
)

RULES: tuple[tuple[type[Rules], tuple[str, ...]], ...] = (
    (KingAlbertClassic, CLASSIC), (KingAlbert, KING_ALBERT), (EagleWing, EAGLE_WING))
"""Each game's rules by the rules it plays by (the most particular first), so a game the registry adds on the same
rules reads them too."""

BOLD = re.compile(r"<b>(.*?)</b>")


def rules_paragraphs(rules: Rules, bold: str = r"\1") -> list[str]:
    """The rules of a game translated, a paragraph each; ``bold`` replaces ``<b>...</b>`` (``\\1``: the
    words alone, ``[b]\\1[/b]``: rich markup)."""
    texts = next((texts for kind, texts in RULES if isinstance(rules, kind)), ())
    return [BOLD.sub(bold, _(text)) for text in texts]


def rules_text(rules: Rules) -> str:
    """The rules as plain text, a paragraph a line."""
    return "\n".join(rules_paragraphs(rules))
