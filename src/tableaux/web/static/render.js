// Showing the page: a view from the server drawn on the table (render.js draws, store.js keeps it), the status
// line, the buttons and the banner, and what the page says about a move. The server decides every rule: this
// page only shows the view it gets and offers the moves listed in its `legal_moves`.

import { ApiError } from "./api.js";
import { refit, rankWord, renderBoard } from "./board.js";
import { cardName } from "./cards.js";
import { shownTime } from "./clock.js";
import { $, announce, board, button, notice, reducedMotion, tell } from "./dom.js";
import { pileWords, shortLabel } from "./games.js";
import { listWords, t, tn } from "./i18n.js";
import { showLabels } from "./settings.js";
import { movesFrom, piles, S, setView, viewShown } from "./store.js";

// ---------------------------------------------------------------- helpers
/** A pile as a sentence names it: "tableau 3", "the trunk". */
export function label(name) {
  return pileWords(S.view.game, name);
}

/** A pile as a message names it: "tableau 3", or "tableau 3 (T3)" when the pile labels are shown. */
export function place(pile) {
  return showLabels() ? `${label(pile)} (${shortLabel(S.view.game, pile)})` : label(pile);
}

/** Cards named as one phrase: "King of spades, Queen of hearts and Jack of clubs". */
export function cardsName(codes) {
  return listWords(codes.map((code) => cardName(code)));
}

export function reportError(err) {
  if (err instanceof ApiError && err.status === 409 && err.data && err.data.view) {
    adopt(err.data.view);
    notice(t("This game was changed in another tab or window; you now see its current position."), { sticky: true });
    announce(t("The game changed in another tab; the board was updated."));
    return;
  }
  const text = err instanceof ApiError ? err.message : t("Something went wrong: {error}", { error: err.message || err });
  tell(text);
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
  let text = cardsTo(old[move.source].slice(-move.count), move.target);
  const src = now[move.source];
  const top = src[src.length - 1];
  const seen = old[move.source].slice(0, -move.count).some((c) => c.up && top && c.card === top.card);
  if (top && top.up && !seen) {
    text += t("; {card} turned up on {pile}", { card: cardName(top.card), pile: label(move.source) });
  }
  return text;
}

/** "7 of clubs to tableau 3", "7 of clubs and 2 more cards to tableau 3": `cards` (face up) put on `target`. */
function cardsTo(cards, target) {
  const card = cardName(cards[0].card);
  return cards.length > 1
    ? tn("{card} and {n} more card to {pile}", "{card} and {n} more cards to {pile}", cards.length - 1,
      { card, pile: label(target) })
    : t("{card} to {pile}", { card, pile: label(target) });
}

/**
 * What one undo or redo did, read from the positions before and after it (the server answers with where the game
 * is, not with the move): the face-up cards that left one pile and now lie on another, in words ("7 of clubs to
 * tableau 3"). Null when it was anything else: a card dealt from the stock, a pile refilled from the trunk too.
 */
export function movedBetween(before, after) {
  const old = before.position.piles;
  const now = after.position.piles;
  let from = null;
  let to = null;
  for (const name of Object.keys(now)) {
    const grew = now[name].length - (old[name] || []).length;
    if (grew === 0) continue;
    if ((grew > 0 ? to : from) !== null) return null;
    if (grew > 0) to = name;
    else from = name;
  }
  if (from === null || to === null) return null;
  const count = now[to].length - old[to].length;
  const cards = now[to].slice(-count);
  const left = old[from].slice(-count);
  const same = left.length === count && cards.every((c, i) => c.up && left[i].up && c.card === left[i].card);
  return same ? cardsTo(cards, to) : null;
}

// ---------------------------------------------------------------- showing a view
/** Show a view from the server: keep it (store.js), draw it, and tell the listeners (onView) it is shown. */
export function adopt(view) {
  const old = S.view;
  const animate = old && old.id === view.id && !reducedMotion.matches;
  const rects = animate ? cardRects() : null;
  const hadFocus = board.contains(document.activeElement);
  const before = setView(view);
  renderStatus(); // first: the status line's height is part of what the table is fitted to
  renderBoard(board, view);
  decorate();
  if (rects) flip(rects);
  renderButtons();
  renderMessage();
  $("game-select").value = view.game;
  document.body.dataset.game = view.game;
  document.title = t("{game}, deal {deal} – Tableaux", { game: view.title, deal: view.deal });
  // Today's daily deal keeps its own address, which never shows the deal number.
  const url = view.daily && view.daily === new Date().toISOString().slice(0, 10)
    ? `/daily?game=${encodeURIComponent(view.game)}`
    : `/?game=${encodeURIComponent(view.game)}&deal=${view.deal}`;
  if (location.pathname + location.search !== url) history.replaceState(null, "", url);
  viewShown(view, before, { hadFocus });
  tickClock(); // the clock has heard of the view now (clock.js listens)
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
      if (!node.classList.contains("lifted")) return; // landed at once meanwhile (landSlides), or picked up
      node.classList.add("sliding");
      node.style.transform = "";
      node.addEventListener("transitionend", () => node.classList.remove("sliding", "lifted"), { once: true });
    });
  }
}

/**
 * Put every card that slides at its place at once: a press on the table while cards slide means a card where it
 * will be (input.js), not one passing over another pile on its way home.
 */
export function landSlides() {
  for (const node of board.querySelectorAll(".card.lifted:not(.dragging)")) {
    node.classList.remove("sliding", "lifted");
    node.style.transform = "";
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

export function renderStatus() {
  const v = S.view;
  const p = v.position;
  $("deal-number").textContent = String(v.deal);
  $("score").textContent = String(p.score);
  $("moves").textContent = String(v.moves);
  $("time").textContent = formatTime(shownTime());
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

/** The banner over the table when a game has ended; its buttons are wired in app.js (by their ids). */
export function renderMessage() {
  const box = $("message");
  const v = S.view;
  box.replaceChildren();
  box.className = "message";
  if (v.won) {
    box.classList.add("won");
    const facts = { deal: v.deal, game: v.title, time: formatTime(v.elapsed_seconds), par: v.par };
    // The solution played to its end is the solver's win, not the player's (the statistics count it apart too);
    // the server keeps who made the winning move, so the banner says the same after a reload.
    const won = v.won_by === "solution"
      ? tn("The solver won deal {deal} of {game} in {n} move.", "The solver won deal {deal} of {game} in {n} moves.",
        v.moves, facts)
      : v.par
      ? tn("You won deal {deal} of {game} in {n} move (par {par}) and {time}!",
        "You won deal {deal} of {game} in {n} moves (par {par}) and {time}!", v.moves, facts)
      : tn("You won deal {deal} of {game} in {n} move and {time}!",
        "You won deal {deal} of {game} in {n} moves and {time}!", v.moves, facts);
    box.append(`${won} `);
    // The buttons go together: onto a line of their own where the sentence leaves no room beside it for both.
    const actions = document.createElement("span");
    actions.className = "message-actions";
    actions.append(button("message-new", t("Play another deal")));
    // The same deal from its start, to win it in fewer moves; not a daily deal, which is played once a day.
    if (!v.daily) actions.append(button("message-again", t("Play this deal again")));
    box.append(actions);
  } else if (v.given_up) {
    box.classList.add("over");
    box.append(t("You gave this game up.") + " ");
    box.append(button("message-new", t("New game")));
  } else if (v.over) {
    box.classList.add("over");
    box.append(t("No move is left.") + " ");
    const undo = t("Undo the last move");
    if (v.position.can_undo) box.append(button("message-undo", undo));
    box.append(button("message-new", t("New game")));
  }
  box.hidden = !(v.won || v.over || v.given_up);
}

/** Size the table for the window again; draw it anew when its shape changed (the phone was turned). */
export function fitTable() {
  if (!S.view || refit(board, S.view)) return;
  renderBoard(board, S.view);
  decorate();
}

/** The clock on the status line, once a second. */
export function tickClock() {
  if (S.view) $("time").textContent = formatTime(shownTime());
}
