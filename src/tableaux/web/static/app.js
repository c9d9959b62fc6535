// The browser game: state, server calls and player input. The server decides every rule;
// this page only shows the view it gets and offers the moves listed in `legal_moves`.

import { api, ApiError } from "./api.js";
import { layoutFans, pileKind, pileLabel, pileOrder, rankWord, renderBoard } from "./board.js";
import { cardName } from "./cards.js";
import { RULES } from "./rules.js";

const $ = (id) => document.getElementById(id);
const board = $("board");
const GAMES = ["king-albert", "eagle-wing"];
const MAX_DEAL = 4294967295;
const DRAG_THRESHOLD = 5; // pixels a press must travel before it counts as a drag
const DOUBLE_TAP_MS = 400;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const S = {
  view: null,
  received: 0, // performance.now() when the view arrived, for the ticking clock
  selection: null, // {pile, count}
  hint: null, // {source, target}
  press: null, // pointer press / drag in progress
  lastTap: null, // {pile, time} for double-tap
  focus: null, // {pile, index} to restore after a redraw
  lastMove: null, // the player's last move (not auto-home ones)
  chain: Promise.resolve(),
};

// ---------------------------------------------------------------- helpers
function piles() {
  return S.view.position.piles;
}

function movesFrom(pile, count) {
  return S.view.legal_moves.filter((m) => m.source === pile && m.count === count);
}

function findMove(source, count, target) {
  return S.view.legal_moves.find((m) => m.source === source && m.count === count && m.target === target);
}

function stockMove() {
  return S.view.legal_moves.find(
    (m) => (m.source === "stock" && m.target === "waste") || (m.source === "waste" && m.target === "stock"),
  );
}

function label(name) {
  return pileLabel(S.view.game, name);
}

/** How many cards a press on card `index` of `pile` picks up, or 0 when it cannot pick any. */
function grabCount(pile, index) {
  const cards = piles()[pile] || [];
  if (index == null || index >= cards.length || pile === "stock") return 0;
  const count = cards.length - index;
  if (cards.slice(index).some((c) => !c.up)) return 0;
  if (count > 1 && !pile.startsWith("tableau-")) return 0;
  return count;
}

function announce(text) {
  const region = $("announce");
  region.textContent = "";
  // A fresh text node after clearing makes screen readers speak repeated messages too.
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
}

let noticeTimer = 0;
function notice(text, { sticky = false } = {}) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
  window.clearTimeout(noticeTimer);
  if (text && !sticky) noticeTimer = window.setTimeout(() => (box.hidden = true), 6000);
}

function enqueue(task) {
  S.chain = S.chain.then(task).catch(reportError);
  return S.chain;
}

function reportError(err) {
  if (err instanceof ApiError && err.status === 409 && err.data && err.data.view) {
    adopt(err.data.view);
    notice("This game was changed in another tab or window; you now see its current position.", { sticky: true });
    announce("The game changed in another tab; the board was updated.");
    return;
  }
  const text = err instanceof ApiError ? err.message : `Something went wrong: ${err.message || err}`;
  notice(text);
  announce(text);
  if (!(err instanceof ApiError)) console.error(err);
}

// ---------------------------------------------------------------- describing moves
function describe(move, before, after) {
  const old = before.position.piles;
  const now = after.position.piles;
  if (move.source === "stock") {
    const top = now.waste[now.waste.length - 1];
    return `${cardName(top && top.card)} turned onto the waste`;
  }
  if (move.target === "stock") return "Waste turned over to make a new stock";
  const moved = old[move.source].slice(-move.count);
  let text = cardName(moved[0].card);
  if (move.count > 1) text += ` and ${move.count - 1} more card${move.count > 2 ? "s" : ""}`;
  text += ` to ${label(move.target)}`;
  const src = now[move.source];
  const top = src[src.length - 1];
  const seen = old[move.source].slice(0, -move.count).some((c) => c.up && top && c.card === top.card);
  if (top && top.up && !seen) text += `; ${cardName(top.card)} turned up on ${label(move.source)}`;
  return text;
}

// ---------------------------------------------------------------- showing a view
function adopt(view) {
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
  renderBoard(board, view);
  decorate();
  if (rects) flip(rects);
  renderStatus();
  renderButtons();
  renderMessage();
  if (keepFocus) restoreFocus();
  $("game-select").value = view.game;
  document.body.dataset.game = view.game;
  document.title = `${view.title}, deal ${view.deal} – Tableaux`;
  const url = `/?game=${encodeURIComponent(view.game)}&deal=${view.deal}`;
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
}

function cardRects() {
  const rects = new Map();
  for (const node of board.querySelectorAll("[data-card]")) rects.set(node.dataset.card, node.getBoundingClientRect());
  return rects;
}

/** Slide cards from where they were to where they are now (FLIP), briefly. */
function flip(rects) {
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
function decorate() {
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

function pileEl(name) {
  return board.querySelector(`[data-pile="${name}"]`);
}

function cardsOf(name, count) {
  const pile = pileEl(name);
  if (!pile) return [];
  const total = (piles()[name] || []).length;
  return [...pile.querySelectorAll(".card")].filter((c) => Number(c.dataset.index) >= total - count);
}

function markCards(name, count, cls) {
  for (const node of cardsOf(name, count)) node.classList.add(cls);
}

function formatTime(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const two = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

function elapsed() {
  const v = S.view;
  if (!v) return 0;
  if (v.won || v.over) return v.elapsed_seconds;
  return v.elapsed_seconds + (performance.now() - S.received) / 1000;
}

function renderStatus() {
  const v = S.view;
  const p = v.position;
  $("deal-number").textContent = String(v.deal);
  $("score").textContent = String(p.score);
  $("moves").textContent = String(v.moves);
  $("time").textContent = formatTime(elapsed());
  $("game-name").textContent = v.title;
  if (v.game === "eagle-wing") {
    $("stock-left").textContent = String(p.stock_left);
    $("reserve-left").textContent = String(p.reserve_left);
    $("base-card").textContent = rankWord(p.base_rank);
    $("redeals-left").textContent = String(p.redeals_left);
  }
}

function renderButtons() {
  const p = S.view.position;
  $("undo").disabled = !p.can_undo;
  $("redo").disabled = !p.can_redo;
  $("restart").disabled = !p.can_undo;
  $("hint").disabled = S.view.won;
}

function renderMessage() {
  const box = $("message");
  const v = S.view;
  box.replaceChildren();
  box.className = "message";
  if (v.won) {
    box.classList.add("won");
    box.append(`You won deal ${v.deal} of ${v.title} in ${v.moves} moves and ${formatTime(v.elapsed_seconds)}! `);
    box.append(button("message-new", "Play another deal", () => enqueue(() => newGame(v.game, null))));
  } else if (v.over) {
    box.classList.add("over");
    box.append("No move is left. ");
    if (v.position.can_undo) box.append(button("message-undo", "Undo the last move", () => enqueue(() => act("undo"))));
    box.append(button("message-new", "New game", () => enqueue(() => newGame(v.game, null))));
  }
  box.hidden = !(v.won || v.over);
}

function button(id, text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

// ---------------------------------------------------------------- actions (run one at a time)
async function play(move, { auto = false } = {}) {
  const before = S.view;
  if (!auto) notice("");
  const view = await api.move(before.id, { source: move.source, count: move.count, target: move.target },
    before.version);
  adopt(view);
  if (!auto) S.lastMove = move;
  announce(describe(move, before, view));
  if (auto) return;
  await autoHome();
  if (S.view.won) announce(`You won deal ${S.view.deal}!`);
}

async function act(what) {
  const before = S.view;
  const view = await api.action(before.id, what, before.version);
  adopt(view);
  announce({ undo: "Undid the last move.", redo: "Redid a move.", restart: "Deal restarted." }[what]);
  notice("");
}

async function stockAction() {
  const move = stockMove();
  if (!move) {
    announce("The stock cannot be dealt: no redeal is left.");
    notice("The stock is used up and no redeal is left.");
    return;
  }
  await play(move);
}

async function homeMove(pile) {
  const move = S.view.home_moves[pile];
  S.selection = null;
  if (!move) {
    decorate();
    announce(`No card on ${label(pile)} can go to a foundation now.`);
    return;
  }
  await play(move);
}

async function showHint() {
  notice("Looking for a good move…", { sticky: true });
  const answer = await api.hint(S.view.id);
  if (answer.view) adopt(answer.view);
  const hint = answer.hint;
  const origin = hint.source === "solver"
    ? "From the solver: this move is part of a winning line."
    : "From the heuristic: a rule of thumb, not a proof.";
  let text;
  if (hint.move) {
    const moved = piles()[hint.move.source].slice(-hint.move.count)[0];
    const what = hint.move.source === "stock" ? "Deal from the stock"
      : hint.move.target === "stock" ? "Turn the waste over"
        : `Move ${cardName(moved && moved.card)} from ${label(hint.move.source)} to ${label(hint.move.target)}`;
    text = `Hint: ${what}. ${origin}`;
    S.hint = { source: hint.move.source, target: hint.move.target, count: hint.move.count };
  } else {
    text = `Hint: ${hint.message}`;
    S.hint = null;
  }
  if (hint.unwinnable) text += " This deal cannot be won from here.";
  decorate();
  notice(text, { sticky: true });
  announce(text);
}

async function newGame(game, deal) {
  const view = await api.create(game, deal);
  adopt(view);
  notice("");
  announce(`New game: ${view.title}, deal ${view.deal}.`);
}

/** Resume the player's unfinished game of `game` (any game when null), or start one. */
async function resume(game) {
  try {
    adopt(await api.current(game));
    announce(`${S.view.title}, deal ${S.view.deal}, resumed.`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    await newGame(game || "king-albert", null);
  }
}

// Auto-home plays only moves that can never cost the player anything (moves off a foundation: never).
// King Albert: an Ace or a Two, or a card of rank r once both suits of the other colour have reached
// r - 1 on the foundations: only those cards could ever be built on it.
// Eagle Wing: foundation cards leave play, and the only card that can be built on a wing card is the
// same suit one rank lower. For a card going onto its suit's foundation that card is already home, so
// the move is safe. Not so for a base-rank card starting a foundation: the card just below it in suit
// is the last of its suit to go home and may need the base card to rest on, so those stay manual.
const RANK_VALUE = { A: 1, T: 10, J: 11, Q: 12, K: 13 };
const rankValue = (code) => RANK_VALUE[code[0]] ?? Number(code[0]);
const red = (suit) => suit === "D" || suit === "H";

function safeHomeMove(view) {
  const home = view.legal_moves.filter((m) => m.target.startsWith("foundation") && !m.source.startsWith("foundation"));
  if (view.game === "eagle-wing") {
    const base = view.position.base_rank;
    return home.find((m) => {
      const cards = view.position.piles[m.source];
      return cards[cards.length - 1].card[0] !== base;
    }) || null;
  }
  const reached = { C: 0, D: 0, H: 0, S: 0 };
  for (let i = 1; i <= 4; i++) {
    const pile = view.position.piles[`foundation-${i}`];
    const top = pile[pile.length - 1];
    if (top && top.card) reached[top.card[1]] = rankValue(top.card);
  }
  for (const move of home) {
    const cards = view.position.piles[move.source];
    const code = cards[cards.length - 1].card;
    const r = rankValue(code);
    const others = Object.keys(reached).filter((s) => red(s) !== red(code[1]));
    if (r <= 2 || others.every((s) => reached[s] >= r - 1)) return move;
  }
  return null;
}

async function autoHome() {
  if (!$("auto-home").checked) return;
  for (let i = 0; i < 60 && !S.view.won; i++) {
    const move = safeHomeMove(S.view);
    if (!move) return;
    await play(move, { auto: true });
  }
}

// ---------------------------------------------------------------- selecting and moving
function select(pile, count) {
  const moves = movesFrom(pile, count);
  const code = piles()[pile].slice(-count)[0].card;
  if (!moves.length) {
    S.selection = null;
    decorate();
    announce(`${cardName(code)} has no move now.`);
    return;
  }
  S.selection = { pile, count };
  S.hint = null;
  decorate();
  const where = [...new Set(moves.map((m) => label(m.target)))].join(", ");
  announce(`${cardName(code)}${count > 1 ? ` and ${count - 1} more` : ""} picked up; it can go to ${where}.`);
}

/** A click, tap or Enter on `pile` (on card `index`, or on the pile itself when null). True if a move was sent. */
async function activate(pile, index) {
  if (!S.view) return false;
  if (pile === "stock") {
    S.selection = null;
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
        S.selection = null;
        decorate();
        announce("Put back.");
      }
      return false;
    }
    const move = findMove(sel.pile, sel.count, pile);
    if (move) {
      S.selection = null;
      await play(move);
      return true;
    }
    if (count && index != null) {
      select(pile, count);
      return false;
    }
    S.selection = null;
    decorate();
    announce(`That cannot go to ${label(pile)}.`);
    return false;
  }
  if (count) select(pile, count);
  return false;
}

function tap(pile, index) {
  enqueue(async () => {
    const now = performance.now();
    const last = S.lastTap;
    if (last && last.pile === pile && now - last.time < DOUBLE_TAP_MS && pile !== "stock") {
      S.lastTap = null;
      await homeMove(pile);
      return;
    }
    const moved = await activate(pile, index);
    S.lastTap = moved ? null : { pile, time: now };
  });
}

// ---------------------------------------------------------------- pointer: drag and drop, taps
function onPointerDown(event) {
  if (event.button !== 0 || !S.view || S.press) return;
  const pile = event.target.closest("[data-pile]");
  if (!pile) {
    if (S.selection) {
      S.selection = null; // a press on the bare table puts the picked-up card back
      decorate();
      announce("Put back.");
    }
    return;
  }
  const card = event.target.closest(".card");
  const index = card ? Number(card.dataset.index) : null;
  S.press = {
    id: event.pointerId, pile: pile.dataset.pile, index, x: event.clientX, y: event.clientY, dragging: false,
  };
  event.preventDefault();
}

function onPointerMove(event) {
  const press = S.press;
  if (!press || event.pointerId !== press.id) return;
  const dx = event.clientX - press.x;
  const dy = event.clientY - press.y;
  if (!press.dragging) {
    if (Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    const count = press.index == null ? 0 : grabCount(press.pile, press.index);
    if (!count) return;
    press.dragging = true;
    press.count = count;
    press.cards = cardsOf(press.pile, count);
    S.selection = { pile: press.pile, count };
    S.hint = null;
    decorate();
    for (const node of press.cards) node.classList.add("dragging");
  }
  for (const node of press.cards) node.style.transform = `translate(${dx}px, ${dy}px)`;
  const over = dropTarget(event, press);
  for (const node of board.querySelectorAll(".pile.over")) if (node.dataset.pile !== over) node.classList.remove("over");
  if (over) pileEl(over).classList.add("over");
}

function dropTarget(event, press) {
  const targets = movesFrom(press.pile, press.count).map((m) => m.target);
  const under = document.elementsFromPoint(event.clientX, event.clientY)
    .map((n) => n.closest && n.closest("[data-pile]"))
    .find((p) => p && p.dataset.pile !== press.pile);
  if (under && targets.includes(under.dataset.pile)) return under.dataset.pile;
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

function onPointerUp(event) {
  const press = S.press;
  if (!press || event.pointerId !== press.id) return;
  S.press = null;
  if (!press.dragging) {
    tap(press.pile, press.index);
    return;
  }
  for (const node of board.querySelectorAll(".pile.over")) node.classList.remove("over");
  const target = event.type === "pointerup" ? dropTarget(event, press) : null;
  const move = target && findMove(press.pile, press.count, target);
  S.selection = null;
  if (move) {
    S.lastTap = null;
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
  announce("Put back: that is not a place it can go.");
}

function snapBack(cards) {
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

// ---------------------------------------------------------------- keyboard
function focusedPlace() {
  const active = document.activeElement;
  if (!active || !board.contains(active)) return null;
  const pile = active.closest("[data-pile]");
  if (!pile) return null;
  const card = active.closest(".card");
  return { pile: pile.dataset.pile, index: card ? Number(card.dataset.index) : null };
}

function focusPlace(pile, index) {
  const pileNode = pileEl(pile);
  if (!pileNode) return;
  const card = index == null ? null : pileNode.querySelector(`.card.up[data-index="${index}"]`);
  (card || pileNode).focus();
}

function restoreFocus() {
  if (!S.focus) return;
  const cards = piles()[S.focus.pile] || [];
  const index = S.focus.index != null && S.focus.index < cards.length ? S.focus.index : null;
  focusPlace(S.focus.pile, index);
}

/** Where the keyboard lands on a pile: its top face-up card when it fans, else the pile. */
function arrive(pile) {
  const cards = piles()[pile] || [];
  const top = cards.length - 1;
  focusPlace(pile, pileKind(S.view.game, pile) === "fan" && top >= 0 && cards[top].up ? top : null);
}

function nearestPile(from, direction) {
  const r = pileEl(from).getBoundingClientRect();
  const cx = r.left + r.width / 2;
  let best = null;
  let bestScore = Infinity;
  for (const node of board.querySelectorAll("[data-pile]")) {
    const o = node.getBoundingClientRect();
    const above = o.top < r.top - 4;
    const below = o.top > r.top + 4;
    if ((direction < 0 && !above) || (direction > 0 && !below)) continue;
    const score = Math.abs(o.top - r.top) * 2 + Math.abs(o.left + o.width / 2 - cx);
    if (score < bestScore) {
      bestScore = score;
      best = node.dataset.pile;
    }
  }
  return best;
}

function moveFocus(key) {
  const place = focusedPlace() || { pile: pileOrder(S.view.game)[0], index: null };
  const order = pileOrder(S.view.game);
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

function onKeyDown(event) {
  const key = event.key;
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
    if (S.view.game === "eagle-wing") enqueue(stockAction);
  } else if (lower === "n") enqueue(() => newGame(S.view.game, null));
  else if (key === "Escape") {
    S.selection = null;
    S.hint = null;
    decorate();
  } else if (key.startsWith("Arrow") && (board.contains(event.target) || event.target === document.body)) {
    event.preventDefault();
    moveFocus(key);
  } else if ((key === "Enter" || key === " ") && board.contains(event.target)) {
    event.preventDefault();
    const place = focusedPlace();
    if (place) {
      enqueue(async () => {
        const version = S.view.version;
        await activate(place.pile, place.index);
        // After a keyboard move, follow the cards: focus lands on the pile they went to.
        if (S.view.version !== version && S.lastMove && S.lastMove.target !== "stock") arrive(S.lastMove.target);
      });
    }
  }
}

// ---------------------------------------------------------------- dialogs
/** Open a modal dialog; when it closes, focus goes back where it was (never stays in the closed dialog). */
function openDialog(dialog) {
  if (dialog.open) return;
  const back = document.activeElement;
  dialog.addEventListener("close", () => {
    if (!dialog.contains(document.activeElement) && document.activeElement !== document.body) return;
    if (back && back !== document.body && document.contains(back)) back.focus();
    else document.activeElement.blur();
  }, { once: true });
  dialog.showModal();
}

function openRules() {
  const game = S.view ? S.view.game : $("game-select").value;
  $("rules-title").textContent = `Rules of ${game === "eagle-wing" ? "Eagle Wing" : "King Albert"}`;
  $("rules-text").innerHTML = RULES[game];
  openDialog($("rules-dialog"));
}

const STAT_ROWS = [
  ["played", "Games played", String],
  ["won", "Games won", String],
  ["win_rate", "Win rate", (v) => `${Math.round(v * 1000) / 10}%`],
  ["current_streak", "Current winning streak", String],
  ["best_streak", "Best winning streak", String],
  ["best_time", "Fastest win", (v) => formatTime(v)],
  ["worst_time", "Slowest win", (v) => formatTime(v)],
  ["fewest_moves", "Fewest moves in a win", String],
];

function renderStats(stats) {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const text of ["", "King Albert", "Eagle Wing"]) {
    const th = document.createElement("th");
    th.textContent = text;
    head.append(th);
  }
  const body = table.createTBody();
  for (const [key, name, fmt] of STAT_ROWS) {
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = name;
    row.append(th);
    for (const game of GAMES) {
      const value = stats[game] ? stats[game][key] : null;
      row.insertCell().textContent = value == null ? "–" : fmt(value);
    }
  }
  $("stats-body").replaceChildren(table);
}

async function openStats() {
  renderStats(await api.stats());
  openDialog($("stats-dialog"));
}

function confirmReset() {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = "Reset the statistics of both games? This cannot be undone.";
  dialog.returnValue = "";
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "yes") {
      enqueue(async () => {
        renderStats(await api.resetStats(null));
        announce("Statistics reset.");
      });
    }
  }, { once: true });
  openDialog(dialog);
}

// ---------------------------------------------------------------- start
function parseDeal(text) {
  if (text == null || text === "") return null;
  if (!/^\d+$/.test(text.trim()) || Number(text) > MAX_DEAL) return undefined;
  return Number(text);
}

async function start() {
  const query = new URLSearchParams(location.search);
  let game = query.get("game");
  let deal = parseDeal(query.get("deal"));
  let warning = "";
  if (game && !GAMES.includes(game)) {
    warning = `There is no game called "${game}"; the games are king-albert and eagle-wing. `;
    game = null;
  }
  if (deal === undefined) {
    warning += `"${query.get("deal")}" is not a deal number; deals are whole numbers from 0 to ${MAX_DEAL}.`;
    deal = null;
  }
  await open(game, deal);
  if (warning) notice(warning.trim(), { sticky: true });
}

/** Open what a link asks for: that deal (resumed if it is the game in progress), else the current game. */
async function open(game, deal) {
  if (deal != null && !game) game = "king-albert"; // a bare deal number means the first game
  if (game && deal != null) {
    try {
      const current = await api.current(game);
      if (current.deal === deal) {
        adopt(current);
        return;
      }
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 404) throw err;
    }
    await newGame(game, deal);
    return;
  }
  await resume(game);
}

function wire() {
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerUp);
  board.addEventListener("focusin", () => {
    const place = focusedPlace();
    if (place) S.focus = place;
  });
  document.addEventListener("keydown", onKeyDown);
  $("notice").addEventListener("click", () => notice(""));
  $("new-game").addEventListener("click", () => enqueue(() => newGame($("game-select").value, null)));
  $("game-select").addEventListener("change", () => enqueue(() => resume($("game-select").value)));
  $("deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const deal = parseDeal($("deal-input").value);
    if (deal == null) {
      notice(`Type a deal number from 0 to ${MAX_DEAL}.`);
      return;
    }
    enqueue(() => newGame($("game-select").value, deal));
  });
  $("undo").addEventListener("click", () => enqueue(() => act("undo")));
  $("redo").addEventListener("click", () => enqueue(() => act("redo")));
  $("restart").addEventListener("click", () => enqueue(() => act("restart")));
  $("hint").addEventListener("click", () => enqueue(showHint));
  $("rules-button").addEventListener("click", openRules);
  $("stats-button").addEventListener("click", () => enqueue(openStats));
  $("stats-reset").addEventListener("click", confirmReset);
  const auto = $("auto-home");
  auto.checked = localStorage.getItem("tableaux.autoHome") === "1";
  auto.addEventListener("change", () => {
    localStorage.setItem("tableaux.autoHome", auto.checked ? "1" : "0");
    if (auto.checked && S.view) enqueue(autoHome);
  });
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => layoutFans(board), 60);
  });
  window.setInterval(() => {
    if (S.view) $("time").textContent = formatTime(elapsed());
  }, 1000);
}

wire();
enqueue(start);
