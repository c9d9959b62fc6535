// The rules of both games, in our own words, for players to read, plus how to play them here. The rules
// the game obeys live in the engine (src/tableaux/rulebook/king_albert.py and eagle_wing.py), never in this page.
// Static text only: it is inserted as markup we wrote ourselves, and each translation keeps the markup of
// its English text (tests/project/test_i18n.py checks the tags).

import { t } from "./i18n.js";

const list = (items) => `<ul>${items.map((item) => `<li>${item}</li>`).join("")}</ul>`;
const para = (text) => `<p>${text}</p>`;

function controls() {
  return "<h3>" + t("Playing here") + "</h3>" + list([
    t("<b>Drag</b> a card (with the mouse or a finger) onto a highlighted pile, or <b>click</b> a card and then the pile it should go to. A drop anywhere else puts the card back."),
    t("<b>Double-click</b> (or double-tap) a card to send it to a foundation when it can go there."),
    t("<b>Keyboard:</b> Tab or the arrow keys move between piles (Up and Down also move between the face-up cards of a pile); Enter or Space picks up and puts down; Escape drops the selection. Shortcuts: <kbd>u</kbd> or <kbd>Ctrl+Z</kbd> undo, <kbd>r</kbd> or <kbd>Ctrl+Y</kbd> redo, <kbd>h</kbd> hint, <kbd>d</kbd> deal from the stock, <kbd>n</kbd> new game, <kbd>F1</kbd> or <kbd>?</kbd> these rules."),
    t("<b>Move safe cards home</b> (off at first): after each of your moves, the cards that the solver proves can never cost you the game go to the foundations by themselves. In King Albert that is an Ace or a 2, and a higher card once both suits of the other colour are home up to two ranks below it and the other suit of its colour up to three below (a 5 of hearts once clubs and spades reach the 3 and diamonds the 2): any card that could still want to go on it can then go home too. In Eagle Wing any single card that continues a foundation, except a card of the base rank, which still waits for you."),
    t("Undo and redo have no limit, and every move is saved as you make it: close the page and come back later to carry on. Share a deal with its link; the deal number is on the status line."),
  ]);
}

function kingAlbert(title) {
  return `<h3>${title}</h3>`
    + para(t("<b>Aim:</b> build all 52 cards onto the four foundations, each one a single suit from Ace up to King."))
    + para(t("<b>Layout:</b> nine tableau columns (the first holds nine cards, the last one), four foundations and a reserve of seven cards. Only the top card of each column starts face up; all seven reserve cards are face up."))
    + list([
      t("A foundation starts with an Ace and grows by one rank at a time in the same suit."),
      t("On the tableau, put a card on one that is one rank higher and of the other colour (a red 9 on a black 10). You can move any face-up card together with every card on top of it, as one move, as long as the card you grab fits the new column. Any card or run may go into an empty column."),
      t("Each reserve card can be played to a foundation or the tableau; the reserve never takes cards back."),
      t("Cards on the foundations are still in play: the top one may come back down to the tableau."),
      t("When a move uncovers a face-down card, it turns face up by itself."),
    ])
    + para(t("<b>Score:</b> the number of cards on the foundations (52 wins). There is no stock and no redeal, so many deals cannot be won; the game tells you when no move is left."))
    + para(t("<b>Double-click</b> a column or reserve card: its top card goes to a foundation if it fits there."));
}

function eagleWing(title) {
  return `<h3>${title}</h3>`
    + para(t("<b>Aim:</b> move every card to the four foundations, emptying the stock, the waste, the trunk (the reserve in the middle) and all eight wing piles."))
    + para(t("<b>Layout:</b> a face-up base card starts the first foundation; its rank is the starting rank of all four foundations. Thirteen cards make the trunk, with only its bottom card face up. Eight wing piles get one face-up card each, and the other 30 cards form the stock."))
    + list([
      t("Foundations start with a card of the base rank and climb in suit, going round the corner from King to Ace and on (with base 9: 9, 10, J, Q, K, A, 2 ... 8). Cards that reach a foundation stay there."),
      t("Wing piles build downwards in suit, also round the corner (a King may go on an Ace), and hold at most three cards. Only one card at a time moves onto a wing pile."),
      t("The top one, two or three cards of a wing pile may go to a foundation together when the top card fits there; they land in order and each one scores."),
      t("When a wing pile empties, the top card of the trunk fills it at once. Only when the trunk is used up can a wing pile stay empty; an empty pile then takes any single card."),
      t("Click the stock to turn its top card onto the waste. When the stock runs out, a click turns the waste back over as the new stock: twice, so you go through the cards three times in all."),
      t("The waste's top card may go to a foundation or a wing pile. The trunk never takes cards; its last card, once on its own, can be played."),
    ])
    + para(t("<b>Score:</b> starts at 1 for the base card and rises by one for each card on a foundation (52 wins). The game is lost when no move and no stock turn is left."))
    + para(t("<b>Double-click</b> the waste or a wing pile: its top card goes to a foundation if it fits there."));
}

/**
 * The rules dialog's title. Each game's is a whole sentence, so that a language can bend it to the game's name
 * (French "Règles de King Albert", "Règles d'Eagle Wing").
 */
export function rulesTitle(game, title) {
  if (game === "king-albert") return t("Rules of King Albert");
  if (game === "eagle-wing") return t("Rules of Eagle Wing");
  return t("Rules of {game}", { game: title });
}

/** The rules of `game` (titled `title`) and how to play here, as markup in the page's language. */
export function rulesText(game, title) {
  const rules = { "king-albert": kingAlbert, "eagle-wing": eagleWing }[game];
  return rules ? rules(title) + controls() : "";
}
