// State and rendering: what the page holds (the last view from the server) and how it is drawn.
// The server decides every rule; this page only shows the view it gets and offers the moves listed in
// `legal_moves`. What it knows about each game (names, titles, piles) comes from /api/games/info.

import { ApiError } from "./api.js";
import { pileLabel, rankWord, renderBoard } from "./board.js";
import { cardName } from "./cards.js";
import { gameInfo, shortLabel } from "./games.js";
import { listWords, t, tn } from "./i18n.js";
import { showLabels } from "./settings.js";

// What a redraw and the banner's buttons call in the layers above this one (actions.js, input.js).
// app.js fills these in at start, so this module imports nothing that imports it back.
export const above = {
  act: (_name) => {},
  newGame: (_game, _deal) => {},
  restoreFocus: () => {},
};

export const $ = (id) => document.getElementById(id);
export const board = $("board");
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export const S = {
  view: null,
  received: 0, // performance.now() when the view arrived, for the ticking clock
  selection: null, // {pile, count}
  hint: null, // {source, target}
  press: null, // pointer press / drag in progress
  lastTap: null, // {pile, time} for double-tap
  focus: null, // {pile, index} to restore after a redraw
  lastMove: null, // the player's last move (not auto-home ones)
  chain: Promise.resolve(),
  adopted: [], // functions called with (view, before) after each view is shown (fair.js, daily.js, ...)
};

// ---------------------------------------------------------------- helpers
export function piles() {
  return S.view.position.piles;
}

export function movesFrom(pile, count) {
  return S.view.legal_moves.filter((m) => m.source === pile && m.count === count);
}

export function findMove(source, count, target) {
  return S.view.legal_moves.find((m) => m.source === source && m.count === count && m.target === target);
}

export function stockMove() {
  return S.view.legal_moves.find(
    (m) => (m.source === "stock" && m.target === "waste") || (m.source === "waste" && m.target === "stock"),
  );
}

export function label(name) {
  return pileLabel(S.view.game, name);
}

/** A pile as a message names it: "tableau 3", or "tableau 3 (T3)" when the pile labels are shown. */
export function place(pile) {
  return showLabels() ? `${label(pile)} (${shortLabel(S.view.game, pile)})` : label(pile);
}

/** The pile of the current game whose notation label is `text` ("T3" -> "tableau-3"), or undefined. */
export function pileCalled(text) {
  const labels = gameInfo(S.view.game)?.labels ?? {};
  return Object.keys(labels).find((pile) => labels[pile] === text);
}

/** Cards named as one phrase: "King of spades, Queen of hearts and Jack of clubs". */
export function cardsName(codes) {
  return listWords(codes.map((code) => cardName(code)));
}

/** How many cards a press on card `index` of `pile` picks up, or 0 when it cannot pick any. */
export function grabCount(pile, index) {
  const cards = piles()[pile] || [];
  if (index == null || index >= cards.length || pile === "stock") return 0;
  const count = cards.length - index;
  if (cards.slice(index).some((c) => !c.up)) return 0;
  if (count > 1 && !pile.startsWith("tableau-")) return 0;
  return count;
}

export function announce(text) {
  const region = $("announce");
  region.textContent = "";
  // A fresh text node after clearing makes screen readers speak repeated messages too.
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

let noticeTimer = 0;
export function notice(text, { sticky = false } = {}) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
  window.clearTimeout(noticeTimer);
  if (text && !sticky) noticeTimer = window.setTimeout(() => (box.hidden = true), 6000);
}

export function enqueue(task) {
  S.chain = S.chain.then(task).catch(reportError);
  return S.chain;
}

export function reportError(err) {
  if (err instanceof ApiError && err.status === 409 && err.data && err.data.view) {
    adopt(err.data.view);
    notice(t("This game was changed in another tab or window; you now see its current position."), { sticky: true });
    announce(t("The game changed in another tab; the board was updated."));
    return;
  }
  const text = err instanceof ApiError ? err.message : t("Something went wrong: {error}", { error: err.message || err });
  notice(text);
  announce(text);
  if (!(err instanceof ApiError)) console.error(err);
}

// ---------------------------------------------------------------- describing moves
export function describe(move, before, after) {
  const old = before.position.piles;
  const now = after.position.piles;
  if (move.source === "stock") {
    const top = now.waste[now.waste.length - 1];
    return t("{card} turned onto the waste", { card: cardName(top && top.card) });
  }
  if (move.target === "stock") return t("Waste turned over to make a new stock");
  const moved = old[move.source].slice(-move.count);
  const card = cardName(moved[0].card);
  let text = move.count > 1
    ? tn("{card} and {n} more card to {pile}", "{card} and {n} more cards to {pile}", move.count - 1,
      { card, pile: label(move.target) })
    : t("{card} to {pile}", { card, pile: label(move.target) });
  const src = now[move.source];
  const top = src[src.length - 1];
  const seen = old[move.source].slice(0, -move.count).some((c) => c.up && top && c.card === top.card);
  if (top && top.up && !seen) {
    text += t("; {card} turned up on {pile}", { card: cardName(top.card), pile: label(move.source) });
  }
  return text;
}

// ---------------------------------------------------------------- showing a view
export function adopt(view) {
  const before = S.view;
  const animate = before && before.id === view.id && !reducedMotion.matches;
  const rects = animate ? cardRects() : null;
  const keepFocus = board.contains(document.activeElement);
  S.view = view;
  S.received = performance.now();
  if (!before || before.id !== view.id || before.version !== view.version) {
    S.selection = null;
    S.hint = null;
  }
  renderStatus(); // first: the status line's height is part of what the table is fitted to
  renderBoard(board, view);
  decorate();
  if (rects) flip(rects);
  renderButtons();
  renderMessage();
  if (keepFocus) above.restoreFocus();
  $("game-select").value = view.game;
  document.body.dataset.game = view.game;
  document.title = t("{game}, deal {deal} – Tableaux", { game: view.title, deal: view.deal });
  // Today's daily deal keeps its own address, which never shows the deal number.
  const url = view.daily && view.daily === new Date().toISOString().slice(0, 10)
    ? `/daily?game=${encodeURIComponent(view.game)}`
    : `/?game=${encodeURIComponent(view.game)}&deal=${view.deal}`;
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  for (const listener of S.adopted) listener(view, before);
}

export function cardRects() {
  const rects = new Map();
  for (const node of board.querySelectorAll("[data-card]")) rects.set(node.dataset.card, node.getBoundingClientRect());
  return rects;
}

/** Slide cards from where they were to where they are now (FLIP), briefly. */
export function flip(rects) {
  for (const node of board.querySelectorAll("[data-card]")) {
    const old = rects.get(node.dataset.card);
    if (!old) continue;
    const now = node.getBoundingClientRect();
    const dx = old.left - now.left;
    const dy = old.top - now.top;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    node.style.transform = `translate(${dx}px, ${dy}px)`;
    node.classList.add("lifted");
    requestAnimationFrame(() => {
      node.classList.add("sliding");
      node.style.transform = "";
      node.addEventListener("transitionend", () => node.classList.remove("sliding", "lifted"), { once: true });
    });
  }
}

/** Selection, drop targets and hint marks on top of the freshly drawn board. */
export function decorate() {
  for (const node of board.querySelectorAll(".selected, .target, .hint-source, .hint-target")) {
    node.classList.remove("selected", "target", "hint-source", "hint-target");
  }
  if (S.selection) {
    markCards(S.selection.pile, S.selection.count, "selected");
    for (const m of movesFrom(S.selection.pile, S.selection.count)) pileEl(m.target)?.classList.add("target");
  }
  if (S.hint) {
    pileEl(S.hint.source)?.classList.add("hint-source");
    markCards(S.hint.source, S.hint.count, "hint-source");
    pileEl(S.hint.target)?.classList.add("hint-target");
  }
}

export function pileEl(name) {
  return board.querySelector(`[data-pile="${name}"]`);
}

export function cardsOf(name, count) {
  const pile = pileEl(name);
  if (!pile) return [];
  const total = (piles()[name] || []).length;
  return [...pile.querySelectorAll(".card")].filter((c) => Number(c.dataset.index) >= total - count);
}

export function markCards(name, count, cls) {
  for (const node of cardsOf(name, count)) node.classList.add(cls);
}

export function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

export function elapsed() {
  const v = S.view;
  if (!v) return 0;
  if (v.won || v.over) return v.elapsed_seconds;
  return v.elapsed_seconds + (performance.now() - S.received) / 1000;
}

export function renderStatus() {
  const v = S.view;
  const p = v.position;
  $("deal-number").textContent = String(v.deal);
  $("score").textContent = String(p.score);
  $("moves").textContent = String(v.moves);
  $("time").textContent = formatTime(elapsed());
  $("game-name").textContent = v.title;
  // Fields only some games have (a stock, a base card, redeals) show when the position has them.
  for (const node of document.querySelectorAll("[data-field]")) {
    const value = p[node.dataset.field];
    node.closest(".stat").hidden = value == null;
    if (value != null) node.textContent = node.dataset.field === "base_rank" ? rankWord(value) : String(value);
  }
}

export function renderButtons() {
  const p = S.view.position;
  $("undo").disabled = !p.can_undo;
  $("redo").disabled = !p.can_redo;
  $("restart").disabled = !p.can_undo;
  $("hint").disabled = S.view.won || S.view.given_up;
}

export function renderMessage() {
  const box = $("message");
  const v = S.view;
  box.replaceChildren();
  box.className = "message";
  if (v.won) {
    box.classList.add("won");
    const won = tn("You won deal {deal} of {game} in {n} move and {time}!",
      "You won deal {deal} of {game} in {n} moves and {time}!", v.moves,
      { deal: v.deal, game: v.title, time: formatTime(v.elapsed_seconds) });
    box.append(`${won} `);
    box.append(button("message-new", t("Play another deal"), () => enqueue(() => above.newGame(v.game, null))));
  } else if (v.given_up) {
    box.classList.add("over");
    box.append(t("You gave this game up.") + " ");
    box.append(button("message-new", t("New game"), () => enqueue(() => above.newGame(v.game, null))));
  } else if (v.over) {
    box.classList.add("over");
    box.append(t("No move is left.") + " ");
    const undo = t("Undo the last move");
    if (v.position.can_undo) box.append(button("message-undo", undo, () => enqueue(() => above.act("undo"))));
    box.append(button("message-new", t("New game"), () => enqueue(() => above.newGame(v.game, null))));
  }
  box.hidden = !(v.won || v.over || v.given_up);
}

export function button(id, text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

