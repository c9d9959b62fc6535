// The rules dialog's text: the game's rules in words, as the server's game info gives them in the page's
// language (each game's guide, tableaux.rulebook), then how to play them on this page. The rules the game
// obeys live in the engine, never in this page.
//
// Sentences may mark words with <b> and keys with <kbd>, nothing else: they are built here as elements and
// text nodes, so no text from a catalogue or the server is ever parsed as HTML (a stray tag shows as text).

import { gameInfo, rulesPage } from "./games.js";
import { t } from "./i18n.js";

const INLINE = /<(b|kbd)>([^<]*)<\/\1>/g;

/** A sentence as nodes: its <b> and <kbd> parts as those elements, the rest as text. */
export function sentence(text) {
  const nodes = [];
  let at = 0;
  for (const found of text.matchAll(INLINE)) {
    if (found.index > at) nodes.push(document.createTextNode(text.slice(at, found.index)));
    const node = document.createElement(found[1]);
    node.textContent = found[2];
    nodes.push(node);
    at = found.index + found[0].length;
  }
  if (at < text.length) nodes.push(document.createTextNode(text.slice(at)));
  return nodes;
}

function element(tag, text) {
  const node = document.createElement(tag);
  node.append(...sentence(text));
  return node;
}

function list(texts) {
  const ul = document.createElement("ul");
  ul.append(...texts.map((text) => element("li", text)));
  return ul;
}

/** How to play on this page: the same for every game, but for the cards its "Move safe cards home" plays and the
 * key that deals from a stock, in a game that has one. */
function controls(safeCards, hasStock) {
  return [element("h3", t("Playing here")), list([
    t("<b>Drag</b> a card (with the mouse or a finger) onto a highlighted pile, or <b>click</b> a card and then the pile it should go to. A drop anywhere else puts the card back."),
    t("<b>Double-click</b> (or double-tap) a card to send it to a foundation when it can go there."),
    t("<b>One tap</b> (a setting, off at first): a tap or click on a card moves it at once to its best place: a foundation first, then a card it builds on, then an empty pile. Drag it, or use the keyboard, to choose another place."),
    t("<b>Keyboard:</b> Tab or the arrow keys move between piles (Up and Down also move between the face-up cards of a pile); Enter or Space picks up and puts down; Escape drops the selection, or puts back cards being dragged. Shortcuts: <kbd>u</kbd> or <kbd>Ctrl+Z</kbd> undo, <kbd>r</kbd> or <kbd>Ctrl+Y</kbd> redo, <kbd>h</kbd> hint, <kbd>n</kbd> new game, <kbd>F1</kbd> or <kbd>?</kbd> these rules."),
    ...(hasStock ? [t("<kbd>d</kbd> deals from the stock.")] : []),
    t("<b>Move safe cards home</b> (off at first): after each of your moves, the cards that the solver proves can never cost you the game go to the foundations by themselves."),
    ...(safeCards ? [safeCards] : []),
    t("Undo and redo have no limit, and every move is saved as you make it: close the page and come back later to carry on. Share a deal with its link; the deal number is on the status line."),
  ])];
}

/** The rules dialog's title: a whole sentence per game, so that a language can bend it to the game's name. */
export function rulesTitle(game) {
  return rulesPage(game).title;
}

/** The rules of `game` (the server's words) and how to play here, as nodes for the rules dialog. */
export function rulesNodes(game) {
  const page = rulesPage(game);
  const nodes = [];
  for (const block of page.guide) {
    nodes.push(block.kind === "list" ? list(block.items) : element("p", block.text));
  }
  return [...nodes, ...controls(page.safe_cards, Boolean(gameInfo(game)?.has_stock))];
}
