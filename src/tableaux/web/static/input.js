// Input: selecting and moving cards with the mouse or a finger, and what a tap, a click or Enter on a card does
// (keyboard.js moves the keyboard's focus and gives its keys here). Every move offered is one of the view's
// `legal_moves`; nothing here knows a rule.

import { homeMove, play, stockAction } from "./actions.js";
import { api } from "./api.js";
import { cardName } from "./cards.js";
import { announce, board, notice, reducedMotion, tell } from "./dom.js";
import { oneTap } from "./settings.js";
import { t, tn } from "./i18n.js";
import { cardsOf, decorate, label, landSlides, pileEl } from "./render.js";
import {
  enqueue, findMove, grabCount, movesFrom, piles, S, setSelection,
} from "./store.js";

const DRAG_THRESHOLD = 5; // pixels a mouse press must travel before it counts as a drag
const TOUCH_DRAG_THRESHOLD = 12; // a finger wobbles more: a tap stays a tap up to this far
const DOUBLE_TAP_MS = 400;

// The gesture in progress: a press or drag ({id, pile, index, x, y, dragging, ...}), and the last tap that moved
// nothing ({pile, time}, for a double tap). Only this module's handlers read them.
let press = null;
let lastTap = null;

// ---------------------------------------------------------------- selecting and moving
/**
 * Pick up `count` cards of `pile`. `instead`: the pile whose picked-up cards these replace (a tap on cards that can
 * move while others were picked up), said on the page too, since a tap meant to put the others there would
 * otherwise seem to have done nothing.
 */
export function select(pile, count, instead = null) {
  const moves = movesFrom(pile, count);
  const code = piles()[pile].slice(-count)[0].card;
  if (!moves.length) {
    setSelection(null);
    decorate();
    tell(t("{card} has no move now.", { card: cardName(code) })); // a tap that picks nothing up looks like a missed one
    return;
  }
  const before = instead && piles()[instead.pile].slice(-instead.count)[0].card;
  setSelection(pile, count);
  decorate();
  if (before) notice(t("{card} picked up instead of {other}.", { card: cardName(code), other: cardName(before) }));
  const where = [...new Set(moves.map((m) => label(m.target)))].join(", ");
  const params = { card: cardName(code), places: where };
  announce(count > 1
    ? tn("{card} and {n} more picked up; it can go to {places}.", "{card} and {n} more picked up; they can go to {places}.",
      count - 1, params)
    : t("{card} picked up; it can go to {places}.", params));
}

/**
 * One tap's rule for where the cards a tap picks up go, from the moves the view lists for them: home first,
 * then onto a card they build on, then to an empty pile; a card already home only comes down onto a build or an
 * empty pile. No search and no hidden card: only the legal moves and what the table shows. Undefined when the
 * cards have no move.
 */
export function bestPlace(moves) {
  const cards = piles();
  const home = (m) => m.target.startsWith("foundation-");
  const fromHome = (m) => m.source.startsWith("foundation-");
  return moves.find((m) => home(m) && !fromHome(m))
    ?? moves.find((m) => !home(m) && (cards[m.target] || []).length > 0)
    ?? moves.find((m) => !home(m) && !(cards[m.target] || []).length);
}

/** One tap on card `index` of `pile`: its cards go to their best place at once. True if a move was sent. */
async function tapMove(pile, index) {
  const count = grabCount(pile, index ?? (piles()[pile] || []).length - 1);
  const move = count ? bestPlace(movesFrom(pile, count)) : undefined;
  if (!move) return false;
  setSelection(null);
  await play(move);
  return true;
}

/** A click, tap or Enter on `pile` (on card `index`, or on the pile itself when null). True if a move was sent. */
export async function activate(pile, index) {
  if (!S.view) return false;
  if (pile === "stock") {
    setSelection(null);
    await stockAction();
    return true;
  }
  const cards = piles()[pile] || [];
  const topIndex = cards.length - 1;
  const count = grabCount(pile, index ?? topIndex);
  if (S.selection) {
    const sel = S.selection;
    if (sel.pile === pile) {
      if (count && count !== sel.count) select(pile, count);
      else {
        setSelection(null);
        decorate();
        announce(t("Put back."));
      }
      return false;
    }
    const move = findMove(sel.pile, sel.count, pile);
    if (move) {
      setSelection(null);
      await play(move);
      return true;
    }
    // Cards that can move are picked up instead (the player changed their mind); on cards that cannot, the tap
    // meant to put the picked-up cards there, and the page says why they cannot go.
    if (count && index != null && movesFrom(pile, count).length) {
      select(pile, count, sel);
      return false;
    }
    setSelection(null);
    decorate();
    await cannotGo(sel.pile, sel.count, pile);
    return false;
  }
  if (count) select(pile, count);
  return false;
}

/**
 * A tap or a drop of `count` cards from `source` on a pile that cannot take them: said on the page as well as to a
 * screen reader, since a player on a phone hears none, with the rule that refuses it. The rules are the engine's
 * alone, so the page asks the server for it, once, on a refusal only; without an answer it says the refusal alone.
 */
async function cannotGo(source, count, pile) {
  const refused = t("That cannot go to {pile}.", { pile: label(pile) });
  let why = null;
  try {
    why = (await api.refusal(S.view.id, source, count, pile)).reason;
  } catch {
    // the refusal stands without its reason
  }
  tell(why ? `${refused} ${why}` : refused);
}

export function tap(pile, index) {
  enqueue(async () => {
    const now = performance.now();
    const last = lastTap;
    if (last && last.pile === pile && now - last.time < DOUBLE_TAP_MS && pile !== "stock") {
      lastTap = null;
      // A double tap sends the card home; under one tap the first tap has moved it already (home first).
      if (!last.moved) await homeMove(pile);
      return;
    }
    if (oneTap() && !S.selection && pile !== "stock" && index != null && (await tapMove(pile, index))) {
      lastTap = { pile, time: now, moved: true };
      return;
    }
    const moved = await activate(pile, index);
    lastTap = moved ? null : { pile, time: now };
  });
}

// ---------------------------------------------------------------- pointer: drag and drop, taps
export function onPointerDown(event) {
  if (event.button !== 0 || !S.view || press) return;
  // A press beside the cards, with cards picked up, means the pile they were aimed at: a column's zone for a tap
  // reaches a card's height below its cards (where the next card would lie), and farther down is the bare table.
  const reach = board.querySelector(".card")?.getBoundingClientRect().height ?? 0;
  const under = event.target.closest(".card.lifted") ? pressedWhileSliding(event) : event.target;
  const pile = under.closest("[data-pile]")
    || (S.selection && pileEl(pileAt(event.clientX, event.clientY, null, reach)));
  if (!pile) {
    lastTap = null; // a tap between two taps on a card makes them no double tap
    if (S.selection) {
      setSelection(null); // a press on the bare table puts the picked-up card back
      decorate();
      announce(t("Put back."));
    }
    return;
  }
  const card = under.closest(".card");
  const index = card ? Number(card.dataset.index) : null;
  press = {
    id: event.pointerId, pile: pile.dataset.pile, index, code: card?.dataset.card, x: event.clientX, y: event.clientY,
    dragging: false, threshold: event.pointerType === "touch" ? TOUCH_DRAG_THRESHOLD : DRAG_THRESHOLD,
  };
  if (event.pointerType !== "touch") event.preventDefault(); // a finger may still scroll the page
}

/**
 * What a press on a card that is sliding (a move's, just answered) means, as the player sees it: that card where it
 * slides within its own pile (a fan that opens up or closes), but where it only passes over another pile on its
 * way (a card going home over a column), what lies beneath it. Then every slide ends at once, so that a drag
 * starts from the cards' places.
 */
function pressedWhileSliding(event) {
  const { clientX: x, clientY: y } = event;
  const inside = (r) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  const meant = document.elementsFromPoint(x, y).find((node) => {
    const pile = node.closest?.("[data-pile]");
    if (!pile || !board.contains(pile)) return false;
    return !node.closest(".card.lifted") || inside(pile.getBoundingClientRect());
  });
  landSlides();
  return meant ?? board;
}

export function onPointerMove(event) {
  if (!press || event.pointerId !== press.id) return;
  const dx = event.clientX - press.x;
  const dy = event.clientY - press.y;
  press.last = { x: event.clientX, y: event.clientY };
  if (!press.dragging) {
    if (Math.hypot(dx, dy) < press.threshold) return;
    // The card pressed, where it still is: a move answered since the press may have taken it away.
    const same = press.index != null && (piles()[press.pile] || [])[press.index]?.card === press.code;
    const count = same ? grabCount(press.pile, press.index) : 0;
    if (!count) return;
    press.dragging = true;
    press.count = count;
    press.cards = cardsOf(press.pile, count);
    press.codes = press.cards.map((node) => node.dataset.card);
    press.origin = press.cards[0].getBoundingClientRect();
    setSelection(press.pile, count);
    decorate();
    for (const node of press.cards) node.classList.add("dragging");
  }
  dragTo(event);
}

/** Move the dragged cards with the pointer, and mark the pile they would land on. */
function dragTo(event) {
  const dx = event.clientX - press.x;
  const dy = event.clientY - press.y;
  for (const node of press.cards) node.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = dropTarget(event, press);
  for (const node of board.querySelectorAll(".pile.over")) if (node.dataset.pile !== over) node.classList.remove("over");
  if (over) pileEl(over).classList.add("over");
}

/**
 * A view drawn while cards are dragged (the answer to the move before, which came after the drag began) has put
 * new elements in place of the dragged ones: the drag goes on with the new ones, kept under the pointer where the
 * old ones were, even where the table was laid out anew. Cards that are no longer where they were picked up (that
 * move took them) are put back.
 */
export function keepDrag() {
  if (!press?.dragging || press.cards.every((node) => board.contains(node))) return;
  const cards = cardsOf(press.pile, press.count);
  if (cards.map((node) => node.dataset.card).join() !== press.codes.join()) {
    press = null;
    setSelection(null);
    decorate();
    announce(t("Put back."));
    return;
  }
  for (const node of cards) {
    node.classList.remove("sliding", "lifted"); // no slide (render.js's flip) for cards in the hand
    node.classList.add("dragging");
    node.style.transform = "";
  }
  const origin = cards[0].getBoundingClientRect();
  press.x += origin.left - press.origin.left;
  press.y += origin.top - press.origin.top;
  press.origin = origin;
  press.cards = cards;
  setSelection(press.pile, press.count);
  decorate();
  dragTo({ clientX: press.last.x, clientY: press.last.y });
}

/**
 * The pile whose zone holds the point (x, y), or null. A pile's zone is its box grown by half the gap
 * on every side, and a fan's reaches down to the next pile below it (or the bottom of the table): a card
 * dropped anywhere in a column's empty space below its cards means that column. `reach` (px) cuts a fan's
 * zone shorter, to that far below its cards: a tap far below every column is on the bare table, which is where
 * a player taps to put a card back.
 */
export function pileAt(x, y, names = null, reach = Infinity) {
  const nodes = [...board.querySelectorAll("[data-pile]")];
  const boxes = nodes.map((node) => ({ name: node.dataset.pile, node, r: node.getBoundingClientRect() }));
  const gap = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--gap")) || 6;
  const floor = Math.max(board.getBoundingClientRect().bottom, window.innerHeight);
  let best = null;
  let bestDistance = Infinity;
  for (const { name, node, r } of boxes) {
    if (names && !names.includes(name)) continue;
    let bottom = r.bottom + gap / 2;
    if (node.classList.contains("fan")) {
      const below = boxes.filter((o) => o.r.top > r.top + 1 && o.r.left < r.right && o.r.right > r.left);
      bottom = Math.max(bottom, Math.min(floor, r.bottom + reach, ...below.map((o) => o.r.top - gap / 2)));
    }
    if (x < r.left - gap / 2 || x > r.right + gap / 2 || y < r.top - gap / 2 || y > bottom) continue;
    const distance = Math.abs(x - (r.left + r.right) / 2);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best;
}

/** The pile (its name) under the pointer, other than the one the cards came from; null over the bare table. */
function pileUnder(event, press) {
  const under = document.elementsFromPoint(event.clientX, event.clientY)
    .map((n) => n.closest && n.closest("[data-pile]"))
    .find((p) => p && p.dataset.pile !== press.pile);
  return under ? under.dataset.pile : null;
}

export function dropTarget(event, press) {
  const targets = movesFrom(press.pile, press.count).map((m) => m.target);
  const under = pileUnder(event, press);
  if (under && targets.includes(under)) return under;
  const zone = pileAt(event.clientX, event.clientY, targets);
  if (zone) return zone;
  // Forgiving: a target the dragged card mostly covers counts too.
  const rect = press.cards[0].getBoundingClientRect();
  let best = null;
  let bestArea = rect.width * rect.height * 0.3;
  for (const name of targets) {
    const r = pileEl(name).getBoundingClientRect();
    const w = Math.min(rect.right, r.right) - Math.max(rect.left, r.left);
    const h = Math.min(rect.bottom, r.bottom) - Math.max(rect.top, r.top);
    if (w > 0 && h > 0 && w * h > bestArea) {
      best = name;
      bestArea = w * h;
    }
  }
  return best;
}

export function onPointerUp(event) {
  const ended = press;
  if (!ended || event.pointerId !== ended.id) return;
  press = null;
  dropped(event, ended);
}

function dropped(event, press) {
  if (!press.dragging) {
    // A cancelled press (the browser took the finger to scroll the page) is neither a tap nor a drag.
    if (event.type === "pointerup") tap(press.pile, press.index);
    return;
  }
  for (const node of board.querySelectorAll(".pile.over")) node.classList.remove("over");
  const target = event.type === "pointerup" ? dropTarget(event, press) : null;
  const move = target && findMove(press.pile, press.count, target);
  setSelection(null);
  if (move) {
    lastTap = null;
    enqueue(async () => {
      try {
        await play(move);
      } catch (err) {
        if (press.cards.every((node) => board.contains(node))) snapBack(press.cards); // refused: put it back
        throw err;
      }
    });
    return;
  }
  snapBack(press.cards);
  decorate();
  const refused = event.type === "pointerup" ? pileUnder(event, press) : null;
  if (refused) {
    enqueue(() => cannotGo(press.pile, press.count, refused));
    return;
  }
  announce(t("Put back: that is not a place it can go."));
}

export function snapBack(cards) {
  for (const node of cards) {
    node.classList.remove("dragging");
    if (reducedMotion.matches) {
      node.style.transform = "";
      continue;
    }
    node.classList.add("sliding", "lifted");
    node.style.transform = "";
    node.addEventListener("transitionend", () => node.classList.remove("sliding", "lifted"), { once: true });
  }
}

/**
 * Escape while a press or a drag is under way: the press ends, so that letting go of the mouse afterwards is
 * neither a drop nor a tap, and dragged cards go back where they came from. True if cards were being dragged.
 */
export function cancelPress() {
  const cancelled = press;
  press = null;
  if (!cancelled?.dragging) return false;
  for (const node of board.querySelectorAll(".pile.over")) node.classList.remove("over");
  setSelection(null);
  snapBack(cancelled.cards);
  decorate();
  announce(t("Put back."));
  return true;
}
