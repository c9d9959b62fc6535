// Fitting the table to the screen, and the toolbar's menu. Card size is computed here, from the window
// and the grid the game's table needs (its layout, from the server's game info), and handed to the style
// sheet as --cw and --gap; then the fans are laid out so that every covered card still shows its corner, and the cards
// shrink only when even that does not fit. Cards that had to shrink keep that size for the rest of the game in
// that window (see holdKey): they never grow back and shrink again as a long column comes and goes, which would
// move every pile under the player's hand. Below COMPACT_BELOW pixels the cards switch to their
// large-print faces (as they always do with the "Large index" deck face).

import { getSetting } from "./settings.js";

const MAX_CARD = 140; // px: wider cards only waste the space a long fan needs
const MAX_LARGE_CARD = 180; // px: the "Large" card size, which lets the table scroll instead
const LARGER = 1.25; // "Large" cards are at least this much wider than the fitted ones
const MIN_CARD = 24; // px: never smaller, whatever the window
const COMPACT_BELOW = 60; // px of card width
const SMALL = 0.8; // the "Small" card size, as a share of the fitted width
const MAX_SPREAD = 1.6; // fans may open up to this much wider than their usual steps
const SIDE_SHARE = 0.8; // a table with its top row at the sides is chosen when its cards are this wide at least
const EDGE = 8; // px kept free below the table
const FLOATING_GAP = 6; // px between the lowest card and a notice or bar floating over the table

// Fan steps, as a share of the card height: the usual ones, and the least that still shows what matters.
// A covered face-up card shows its corner (the rank, a J's hook and a Q's tail included, and the suit beside
// it): 0.225 of the height on the detailed face, 0.295 on the large-print face (cards.js draws both).
const DOWN_STEP = 0.1;
const DOWN_MIN = 0.05;
const UP_STEP = 0.27;
const UP_MIN = 0.23;
const UP_STEP_COMPACT = 0.34;
const UP_MIN_COMPACT = 0.3;

/** True when the window is taller than wide (phones held upright, tablets in portrait). */
export function isPortrait() {
  return window.innerHeight > window.innerWidth;
}

function gapFor(width) {
  return Math.min(14, Math.max(3, width * 0.01));
}

const LABEL = 16; // px: a line of pile labels (style.css)

/**
 * The widest cards with which a table of `shape` fits the window: by its width and by its height. The pile
 * labels, when shown, take a line above each of its `rows` of piles, and `beside`: as many columns of them.
 */
function bounds(board, { cols, depth, rows = 2, beside = 0 }) {
  const labels = getSetting("pileLabels") === "on" ? LABEL : 0;
  const width = document.documentElement.clientWidth;
  const gap = gapFor(width);
  const byWidth = (width - (cols + 1) * gap - labels * beside) / cols;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const byHeight = (window.innerHeight - top - 3 * gap - EDGE - labels * rows) / depth;
  return { gap, byWidth, byHeight };
}

/**
 * The shape a table takes in this window: "tall" on portrait screens when the game has one; "side" (the
 * top row of piles moved to either side of the fans, which then have the whole height) where the window
 * is so short that the height, not the width, limits the usual shape's cards, and the side shape's
 * cards are nearly as wide (a phone held sideways); otherwise "wide".
 */
export function chooseShape(board, shapes) {
  if (shapes.tall && isPortrait()) return "tall";
  if (!shapes.side || getSetting("cardSize") === "large") return "wide";
  const wide = bounds(board, shapes.wide);
  if (wide.byHeight >= Math.min(wide.byWidth, MAX_CARD)) return "wide";
  const side = bounds(board, shapes.side);
  const widths = [wide, side].map((b) => Math.min(b.byWidth, b.byHeight, MAX_CARD));
  return widths[1] >= SIDE_SHARE * widths[0] ? "side" : "wide";
}

function setCardWidth(board, cw) {
  document.documentElement.style.setProperty("--cw", `${cw}px`);
  const compact = cw < COMPACT_BELOW || getSetting("face") === "large";
  board.classList.toggle("compact", compact);
}

/**
 * Size the cards for a grid of `cols` columns whose rows need `depth` card widths of height, and
 * return the card width. "fit" makes the widest cards with which the whole table fits the window;
 * "small" makes them a little smaller; "large" makes them visibly larger than "fit" and lets the page
 * scroll, sideways too.
 *
 * When the width, not the height, limits the cards (nine columns on a phone held upright), the height
 * left over goes to the fans: the board's data-spread says how much wider than usual their steps may
 * open (layoutFans), so a finger gets a taller strip of each face-up card to press. Not where a row of
 * piles lies below the fans (the shape is `stacked`): there a fan's room ends at that row. A shape with
 * `steps` gives that height to piles that step down instead (--step, at most half a card's height each),
 * so that a short table (wings of a few cards on a wide screen) still fills the window.
 */
export function fitCards(board, shape, cardSize, game = "") {
  const { cols, depth, stacked = false, steps = 0 } = shape;
  const { gap, byWidth, byHeight } = bounds(board, shape);
  const fitted = Math.min(byWidth, byHeight, MAX_CARD);
  let cw = cardSize === "large" ? Math.min(MAX_LARGE_CARD, Math.max(byWidth, LARGER * fitted)) : fitted;
  const spare = byHeight / Math.min(byWidth, MAX_CARD);
  let spread = cardSize === "large" || stacked || steps ? 1 : Math.min(MAX_SPREAD, Math.max(1, spare));
  if (cardSize === "small") cw *= SMALL;
  cw = Math.max(MIN_CARD, Math.floor(cw * 10) / 10);
  const left = Math.max(0, byHeight - cw) * depth; // px of height the table does not need
  let step = steps && cardSize !== "large" ? Math.min(0.7 * cw, left / steps) : 0;
  // The size this game's cards came down to in this window, if they had to shrink (layoutFans): kept.
  board.dataset.holdFor = holdKey(board, game, cardSize);
  const held = board.dataset.heldFor === board.dataset.holdFor ? Number(board.dataset.held) : Infinity;
  if (held < cw) {
    step = (step * held) / cw;
    spread = 1;
    cw = held;
  }
  board.dataset.spread = spread.toFixed(2);
  board.style.setProperty("--step", `${Math.floor(step)}px`);
  document.documentElement.style.setProperty("--gap", `${gap.toFixed(1)}px`);
  board.style.setProperty("--cols", String(cols));
  board.style.setProperty("--cols-before", String(cols - (shape.beside || 0))); // the columns left of those
  setCardWidth(board, cw);
  return cw;
}

/**
 * What the cards' shrinking is kept for: one game (its id), in one window size, below a toolbar and status line of
 * one height, with one card size, face and pile labels setting. A new game, a resized or turned window, a status
 * line that takes another row or another of those settings fits the cards anew.
 */
function holdKey(board, game, cardSize) {
  const top = Math.round(board.getBoundingClientRect().top + window.scrollY);
  return [game, window.innerWidth, window.innerHeight, top, cardSize, getSetting("face"), getSetting("pileLabels")]
    .join(" ");
}

/** The box of what floats over the bottom of the table now (notice, message, solution bar), or null. */
function floatingBox() {
  const stack = document.querySelector(".floating");
  if (!stack || ![...stack.children].some((n) => !n.hidden)) return null;
  return stack.getBoundingClientRect();
}

/**
 * Steps between the cards of one fan that take `room` card heights at most: the usual steps (opened up
 * by `spread`) when they fit; else the face-down cards close up first, then the face-up ones, each
 * never below its least step. Returns the steps and whether even the least ones overrun the room.
 */
function fanSteps(kinds, room, spread, compact) {
  const usual = kinds.map((down) => (down ? DOWN_STEP : compact ? UP_STEP_COMPACT : UP_STEP));
  const least = kinds.map((down) => (down ? DOWN_MIN : compact ? UP_MIN_COMPACT : UP_MIN));
  const sum = (list) => list.reduce((a, b) => a + b, 0);
  if (sum(usual) <= room) {
    const open = Math.min(spread, sum(usual) > 0 ? room / sum(usual) : spread);
    return { steps: usual.map((s) => s * Math.max(1, open)), over: false };
  }
  let excess = sum(usual) - room;
  const steps = [...usual];
  for (const down of [true, false]) { // close up the face-down cards first
    const ours = kinds.map((k, i) => (k === down ? i : -1)).filter((i) => i >= 0);
    const slack = sum(ours.map((i) => usual[i] - least[i]));
    if (slack <= 0) continue;
    const share = Math.min(1, excess / slack);
    for (const i of ours) steps[i] = usual[i] - (usual[i] - least[i]) * share;
    excess -= slack * share;
  }
  return { steps, over: excess > 1e-6 };
}

/**
 * Lay the fans out in the room the window gives them, and shrink the cards as far as needed so that every
 * pile ends above the bottom of the window and above what floats over the table there (a notice, the
 * solution's controls): the table makes room for them. Fans open up by the board's spread (fitCards)
 * where the window has height to spare. Large cards never shrink or squeeze: the page scrolls instead.
 * Cards that shrink stay that small for the rest of the game (fitCards keeps them so).
 */
export function layoutFans(board) {
  const large = getSetting("cardSize") === "large";
  for (let round = 0; round < 6; round++) {
    const need = placeFans(board, large);
    if (large || need <= 1.002) return;
    const cw = parseFloat(getComputedStyle(document.documentElement).getPropertyValue("--cw"));
    const smaller = Math.max(MIN_CARD, Math.floor((cw / need) * 10) / 10);
    if (smaller >= cw) return;
    const step = parseFloat(board.style.getPropertyValue("--step")) || 0;
    board.style.setProperty("--step", `${Math.floor((step * smaller) / cw)}px`);
    board.dataset.spread = "1.00";
    setCardWidth(board, smaller);
    board.dataset.held = String(smaller); // kept for the rest of the game (fitCards)
    board.dataset.heldFor = board.dataset.holdFor ?? "";
  }
}

/**
 * One pass of layoutFans at the current card size. Returns how much taller than its room the table
 * needs to be (1 or less: it fits), measured from the top of the board.
 */
function placeFans(board, large) {
  const probe = board.querySelector(".pile");
  if (!probe) return 1;
  const cardHeight = probe.getBoundingClientRect().width * 1.4;
  const compact = board.classList.contains("compact");
  const spread = Number(board.dataset.spread) || 1;
  const floating = floatingBox();
  const scroll = window.scrollY;
  // The lowest a pile may reach (page coordinates): the window's bottom, or the top of what floats
  // over the table where the pile lies beneath it.
  const limit = (box) => {
    const under = floating && box.left < floating.right && box.right > floating.left;
    return (under ? floating.top - FLOATING_GAP : window.innerHeight - EDGE) + scroll;
  };
  for (const pile of board.querySelectorAll(".pile.fan")) {
    const cards = [...pile.querySelectorAll(".card")];
    const kinds = cards.slice(1).map((_, i) => cards[i].classList.contains("down"));
    const box = pile.getBoundingClientRect();
    const room = large ? Infinity : (limit(box) - box.top - scroll) / cardHeight - 1;
    const { steps } = fanSteps(kinds, room, spread, compact);
    let y = 0;
    cards.forEach((card, i) => {
      if (i > 0) y += steps[i - 1] * cardHeight;
      card.style.top = `${y}px`;
    });
    pile.style.height = `${y + cardHeight}px`;
  }
  layoutGroups(board, cardHeight, large ? () => Infinity : limit);
  const top = board.getBoundingClientRect().top + scroll;
  let need = 1;
  for (const pile of board.querySelectorAll(".pile")) {
    const box = pile.getBoundingClientRect();
    need = Math.max(need, (box.bottom + scroll - top) / Math.max(1, limit(box) - top));
  }
  return need;
}

/**
 * Piles drawn together in a column of their own (a reserve of single cards, where the table's top row stands at
 * its sides): each overlaps the one before and shows at least its corner, more where the height allows.
 */
function layoutGroups(board, cardHeight, limit) {
  for (const group of board.querySelectorAll(".pile-column")) {
    const piles = [...group.querySelectorAll(".pile")];
    if (piles.length < 2) continue;
    const box = group.getBoundingClientRect();
    const top = piles[0].getBoundingClientRect().top; // below the group's name, where it shows one (style.css)
    const room = (limit(box) - window.scrollY - top - cardHeight) / (piles.length - 1);
    const least = (board.classList.contains("compact") ? UP_MIN_COMPACT : UP_MIN) * cardHeight;
    const step = Math.min(cardHeight + 4, Math.max(least, room));
    group.style.setProperty("--pile-step", `${Math.floor(step)}px`);
  }
}

// ---------------------------------------------------------------- the toolbar menu
// On wide screens the menu holds what is used least (daily deal, solution, give up, rules, statistics,
// settings, language); on narrow ones it also takes the game and deal pickers and restart, so the
// toolbar is one row. The style sheet decides which is which by the window's width; fitToolbar() also
// folds the pickers into the menu on a wide screen where they do not fit, which depends on the language.

const WIDE = window.matchMedia("(min-width: 960px)");

const SMALLEST_LABEL = 9; // px: a phone label shrinks no further than this

/**
 * Fold the pickers into the menu when the toolbar row would overflow or cut a button's text short. On a
 * narrow screen, where the labels may take two lines, shrink a label that still overflows its button (a
 * long word in some language) until it fits.
 */
export function fitToolbar() {
  const toolbar = document.getElementById("toolbar");
  toolbar.classList.remove("fold");
  const buttons = [...toolbar.querySelectorAll(":scope > button")];
  for (const b of buttons) b.style.fontSize = "";
  if (!WIDE.matches) {
    const overflows = (b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1;
    for (const b of buttons.filter((n) => n.offsetParent !== null && !n.classList.contains("menu-button"))) {
      let size = parseFloat(getComputedStyle(b).fontSize);
      while (overflows(b) && size > SMALLEST_LABEL) {
        size -= 0.5;
        b.style.fontSize = `${size}px`;
      }
    }
    return;
  }
  const cut = [...toolbar.querySelectorAll(":scope > button")].some((b) => b.scrollWidth > b.clientWidth + 1);
  if (cut || toolbar.scrollWidth > toolbar.clientWidth + 1) toolbar.classList.add("fold");
}

const STATUS_ROWS = 2; // the status line never takes more rows than this
const SMALLEST_STATUS = 11; // px: its text shrinks no further (it wraps onto a third row instead)

/** How many rows the status line's items take. */
function statusRows(status) {
  const tops = new Set();
  for (const item of status.querySelectorAll(".stat")) {
    const box = item.getBoundingClientRect();
    if (box.width > 1 && item.checkVisibility()) tops.add(Math.round(box.top));
  }
  return [...tops].sort((a, b) => a - b).filter((top, i, all) => i === 0 || top - all[i - 1] > 4).length;
}

/**
 * Keep the status line to two rows: where its items (longer in some languages, and as the counts grow) would
 * wrap onto a third, its text gets a little smaller, as little as needed.
 */
export function fitStatus() {
  const status = document.getElementById("status");
  status.style.fontSize = "";
  let size = parseFloat(getComputedStyle(status).fontSize);
  while (statusRows(status) > STATUS_ROWS && size > SMALLEST_STATUS) {
    size -= 0.5;
    status.style.fontSize = `${size}px`;
  }
}

/**
 * Call `fit` when the room the table has changes for a reason other than the window's size: the toolbar
 * or the status line grows (larger text, a line that wraps), or a notice, message or bar appears over the
 * bottom of the table, or goes. A status line that grew is first kept to two rows (fitStatus).
 */
export function watchRoom(fit) {
  const status = document.getElementById("status");
  const watched = [document.getElementById("toolbar"), status, document.querySelector(".floating")];
  const sizes = new Map();
  const observer = new ResizeObserver((entries) => {
    if (entries.some((entry) => entry.target === status)) fitStatus();
    let changed = false;
    for (const entry of entries) {
      const { width, height } = entry.contentRect;
      const before = sizes.get(entry.target);
      if (!before || Math.abs(before.width - width) > 1 || Math.abs(before.height - height) > 1) changed = true;
      sizes.set(entry.target, { width, height });
    }
    if (changed) fit();
  });
  for (const node of watched) if (node) observer.observe(node);
}

export function initMenu() {
  const toolbar = document.getElementById("toolbar");
  const button = document.getElementById("menu-button");
  const panel = document.getElementById("menu-panel");
  const setOpen = (open) => {
    toolbar.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  const isOpen = () => toolbar.classList.contains("menu-open");
  button.addEventListener("click", () => {
    setOpen(!isOpen());
    if (isOpen()) {
      // The first control that dropped down (in a wide toolbar row, the inline pickers did not).
      const inRow = WIDE.matches && !toolbar.classList.contains("fold");
      const dropped = inRow ? panel.querySelector(".menu-group.more") : panel;
      const first = [...dropped.querySelectorAll("button, select, input")].find((n) => n.offsetParent !== null);
      first?.focus();
    }
  });
  // A button in the menu does its job and closes the menu, and so does a choice settled in a select (dom.js
  // onChosen); fields (the deal number, the check box) keep it open. The keyboard goes back to the menu button, as
  // with Escape, rather than to the page, which is where it lands when the control it was on is hidden.
  const done = () => {
    const inside = panel.contains(document.activeElement);
    setOpen(false);
    if (inside) button.focus();
  };
  panel.addEventListener("click", (event) => {
    if (event.target.closest("button")) done();
  });
  panel.addEventListener("submit", done);
  panel.addEventListener("chosen", done);
  document.addEventListener("pointerdown", (event) => {
    if (isOpen() && !toolbar.contains(event.target)) setOpen(false);
  });
  // Tab out of the menu closes it: left open, it covers part of the table and takes the next Escape.
  toolbar.addEventListener("focusout", (event) => {
    if (isOpen() && event.relatedTarget && !toolbar.contains(event.relatedTarget)) setOpen(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      setOpen(false);
      button.focus();
      event.stopPropagation();
    }
  }, true);
}
