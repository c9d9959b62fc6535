// The keyboard on the table: the arrows move a focus over piles and cards, Enter or Space acts on it as a tap does
// (input.js), and letters give the commands. A click no pointer made (a screen reader's, voice control's) acts as
// Enter. Nothing here knows a rule.

import { act, showHint, stockAction } from "./actions.js";
import { startNewGame } from "./daily.js";
import { openRules } from "./dialogs.js";
import { board } from "./dom.js";
import { gameInfo, pileKind, pileOrder } from "./games.js";
import { activate, cancelPress } from "./input.js";
import { decorate, pileEl } from "./render.js";
import { enqueue, piles, S, setHint, setSelection } from "./store.js";

export function focusedPlace() {
  const active = document.activeElement;
  if (!active || !board.contains(active)) return null;
  const pile = active.closest("[data-pile]");
  if (!pile) return null;
  const card = active.closest(".card");
  return { pile: pile.dataset.pile, index: card ? Number(card.dataset.index) : null };
}

export function focusPlace(pile, index) {
  const pileNode = pileEl(pile);
  if (!pileNode) return;
  const card = index == null ? null : pileNode.querySelector(`.card.up[data-index="${index}"]`);
  (card || pileNode).focus();
}

export function restoreFocus() {
  if (!S.focus) return;
  const cards = piles()[S.focus.pile] || [];
  const index = S.focus.index != null && S.focus.index < cards.length ? S.focus.index : null;
  focusPlace(S.focus.pile, index);
}

/** The keyboard on the table: where it was last, else the first pile (after a control it was on went away). */
export function focusTable() {
  if (S.focus && piles()[S.focus.pile]) restoreFocus();
  else board.querySelector("[data-pile]")?.focus();
}

/** Where the keyboard lands on a pile: its top face-up card when it fans, else the pile. */
export function arrive(pile) {
  const cards = piles()[pile] || [];
  const top = cards.length - 1;
  focusPlace(pile, pileKind(S.view.game, pile) === "fan" && top >= 0 && cards[top].up ? top : null);
}

/**
 * The pile Up (direction -1) or Down (+1) goes to from pile `from`: the nearest one above or below in the same
 * column (a pile whose width spans the middle of this one); where the column has none, the nearest one by
 * distance, sideways counting less than up or down.
 */
export function nearestPile(from, direction) {
  const r = pileEl(from).getBoundingClientRect();
  const cx = r.left + r.width / 2;
  let best = null;
  let bestScore = Infinity;
  for (const node of board.querySelectorAll("[data-pile]")) {
    const o = node.getBoundingClientRect();
    const above = o.top < r.top - 4;
    const below = o.top > r.top + 4;
    if ((direction < 0 && !above) || (direction > 0 && !below)) continue;
    const inColumn = o.left <= cx && cx <= o.right;
    const score = (inColumn ? 0 : 1e6) + Math.abs(o.top - r.top) * 2 + Math.abs(o.left + o.width / 2 - cx);
    if (score < bestScore) {
      bestScore = score;
      best = node.dataset.pile;
    }
  }
  return best;
}

export function moveFocus(key) {
  const order = pileOrder(S.view.game);
  const place = focusedPlace();
  if (!place) {
    // The first arrow comes onto the table: at the pile the keyboard was on last, else at the first pile.
    arrive(S.focus && order.includes(S.focus.pile) ? S.focus.pile : order[0]);
    return;
  }
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const step = key === "ArrowLeft" ? -1 : 1;
    arrive(order[(order.indexOf(place.pile) + step + order.length) % order.length]);
    return;
  }
  const cards = piles()[place.pile] || [];
  const up = key === "ArrowUp";
  if (place.index != null && pileKind(S.view.game, place.pile) === "fan") {
    const next = place.index + (up ? -1 : 1);
    if (next >= 0 && next < cards.length && cards[next].up) {
      focusPlace(place.pile, next);
      return;
    }
  }
  const other = nearestPile(place.pile, up ? -1 : 1);
  if (other) arrive(other);
}

export function onKeyDown(event) {
  const key = event.key;
  // First, wherever the keyboard is: a drag leaves the focus where it was (the deal field, say).
  if (key === "Escape" && cancelPress()) {
    event.preventDefault();
    return;
  }
  const inField = event.target.closest && event.target.closest("input, select, textarea, dialog[open]");
  if (key === "F1" || (key === "?" && !inField)) {
    event.preventDefault();
    openRules();
    return;
  }
  if (inField || !S.view) return;
  const ctrl = event.ctrlKey || event.metaKey;
  const lower = key.toLowerCase();
  if ((ctrl && lower === "z" && !event.shiftKey) || (!ctrl && lower === "u")) {
    event.preventDefault();
    if (S.view.position.can_undo) enqueue(() => act("undo"));
    return;
  }
  if ((ctrl && (lower === "y" || (lower === "z" && event.shiftKey))) || (!ctrl && lower === "r")) {
    event.preventDefault();
    if (S.view.position.can_redo) enqueue(() => act("redo"));
    return;
  }
  if (ctrl || event.altKey) return;
  if (lower === "h") enqueue(showHint);
  else if (lower === "d") {
    if (gameInfo(S.view.game)?.has_stock) enqueue(stockAction);
  } else if (lower === "n") enqueue(() => startNewGame(S.view.game));
  else if (key === "Escape") {
    setSelection(null);
    setHint(null);
    decorate();
  } else if (key.startsWith("Arrow") && (board.contains(event.target) || event.target === document.body)) {
    event.preventDefault();
    moveFocus(key);
  } else if ((key === "Enter" || key === " ") && board.contains(event.target)) {
    event.preventDefault();
    const place = focusedPlace();
    if (place) activateAndFollow(place);
  }
}

/** Enter on a place, or a click no pointer made: after a move, the keyboard follows the cards to their pile. */
function activateAndFollow(place) {
  enqueue(async () => {
    const version = S.view.version;
    await activate(place.pile, place.index);
    if (S.view.version !== version && S.lastMove && S.lastMove.target !== "stock") arrive(S.lastMove.target);
  });
}

/**
 * A click that no pointer made (its detail is 0): a screen reader's Enter in browse mode, voice control's "click",
 * a switch device. It acts as Enter on that card or pile. A mouse's or a finger's click has a detail of 1 or more
 * and was played by its pointerup already.
 */
export function onClick(event) {
  if (event.detail !== 0 || !S.view) return;
  const pile = event.target.closest && event.target.closest("[data-pile]");
  if (!pile || !board.contains(pile)) return;
  const card = event.target.closest(".card");
  activateAndFollow({ pile: pile.dataset.pile, index: card ? Number(card.dataset.index) : null });
}

