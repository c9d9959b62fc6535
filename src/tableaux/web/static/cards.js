// SVG card faces, drawn by our own code (no third-party art, so no art licence to carry).
// Faces are built once per card code and cloned afterwards: rendering a deal is cheap.
// Colours come from the style sheet (theme.css): the ink is `currentColor`, set per suit, so the dark
// table and the four-colour deck restyle every face without redrawing it.

import { rankLabel } from "./games.js";
import { cardWords, rankWords, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

/** A rank's name in the page's language ("Ace", "10", "Dame"): for screen readers and the base card. */
export function rankName(rank) {
  return rankWords(rank);
}

/** "TS" -> "10 of spades": the words a screen reader says, the same the server's messages use. */
export function cardName(code) {
  if (!code) return t("face-down card");
  return cardWords(code);
}

export function isRed(code) {
  return code[1] === "D" || code[1] === "H";
}

// Suit shapes in a 100 x 100 box, centred on (50, 50).
const SUIT_PATHS = {
  H: "M50 92 C30 74 2 54 2 30 C2 13 14 3 28 3 C39 3 46 10 50 19 C54 10 61 3 72 3 C86 3 98 13 98 30 "
    + "C98 54 70 74 50 92 Z",
  D: "M50 2 L88 50 L50 98 L12 50 Z",
  S: "M50 2 C62 20 98 40 98 62 C98 77 87 86 74 86 C65 86 58 81 54 75 C55 86 60 93 68 98 L32 98 "
    + "C40 93 45 86 46 75 C42 81 35 86 26 86 C13 86 2 77 2 62 C2 40 38 20 50 2 Z",
  C: "M50 4 C63 4 72 14 72 27 C72 34 69 39 65 43 C69 41 73 40 77 40 C89 40 98 50 98 62 C98 74 89 84 "
    + "77 84 C67 84 60 78 55 70 C56 84 60 92 68 98 L32 98 C40 92 44 84 45 70 C40 78 33 84 23 84 "
    + "C11 84 2 74 2 62 C2 50 11 40 23 40 C27 40 31 41 35 43 C31 39 28 34 28 27 C28 14 37 4 50 4 Z",
};

function el(name, attrs = {}) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A suit symbol of width `size` centred on (x, y), upside down when `flip`. */
function pip(suit, x, y, size, flip = false) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 50 50)` : "";
  return el("path", {
    d: SUIT_PATHS[suit],
    transform: `translate(${x - size / 2} ${y - size / 2}) scale(${s})${rot}`,
  });
}

// Pip centres on a 100 x 140 face for the number cards (x, y); the lower half is drawn upside down. The pips
// keep clear of the corners: the small suit under the index ends at x 21.5, the large one at the top right
// starts at x 73 and ends at y 29 (see corner), so the columns sit at 34 and 66 and the rows from 42 to 98.
const PIP = 16;
const L = 34, C = 50, R = 66;
const T1 = 42, T2 = 60.7, T3 = 79.3, T4 = 98; // four rows (9 and 10)
const PIPS = {
  A: [[C, 70]],
  2: [[C, 42], [C, 98]],
  3: [[C, 42], [C, 70], [C, 98]],
  4: [[L, 42], [R, 42], [L, 98], [R, 98]],
  5: [[L, 42], [R, 42], [C, 70], [L, 98], [R, 98]],
  6: [[L, 42], [R, 42], [L, 70], [R, 70], [L, 98], [R, 98]],
  7: [[L, 42], [R, 42], [C, 56], [L, 70], [R, 70], [L, 98], [R, 98]],
  8: [[L, 42], [R, 42], [C, 56], [L, 70], [R, 70], [C, 84], [L, 98], [R, 98]],
  9: [[L, T1], [R, T1], [L, T2], [R, T2], [C, 70], [L, T3], [R, T3], [L, T4], [R, T4]],
  T: [[L, T1], [R, T1], [C, 51.3], [L, T2], [R, T2], [L, T3], [R, T3], [C, 88.7], [L, T4], [R, T4]],
};

const COURT = "JQK";

/**
 * The letter a rank shows in a card's corner: court cards take the page's language's letters ("B D K" in German,
 * "V D R" in French), from one message that lists Jack, Queen and King in that order; other ranks are unchanged.
 */
export function courtLetter(rank) {
  const at = rank.length === 1 ? COURT.indexOf(rank) : -1;
  if (at < 0) return rank;
  // TRANSLATORS: the letters printed in the corners of the Jack, Queen and King, in that order, with a space
  // between them (German "B D K", French "V D R").
  const letters = t("J Q K").split(/\s+/);
  return letters.length === 3 && letters[at] ? letters[at] : rank;
}

function corner(rank, suit, flip) {
  const g = el("g", flip ? { class: "corner", transform: "rotate(180 50 70)" } : { class: "corner" });
  const text = el("text", {
    x: 7, y: 25, "font-size": rank === "T" ? 25 : 28, "font-weight": 700,
    "font-family": "DejaVu Sans, Verdana, Arial, sans-serif",
    "letter-spacing": rank === "T" ? -2 : 0,
  });
  text.textContent = rankLabel(rank);
  // Suit at the top right (seen in downward fans) and under the rank (seen when cards overlap sideways).
  g.append(text, pip(suit, 84, 18, 22), pip(suit, 15, 43, 13));
  return g;
}

function courtFace(rank, suit) {
  const g = el("g");
  // The frame keeps clear of the corners' small suits (x up to 21.5 at the top left, from 78.5 at the bottom right).
  g.append(el("rect", {
    x: 24, y: 36, width: 52, height: 68, rx: 5, fill: "none", stroke: "currentColor", "stroke-width": 2,
  }));
  g.append(el("rect", {
    x: 27.5, y: 39.5, width: 45, height: 61, rx: 3, fill: "currentColor", "fill-opacity": 0.1,
  }));
  // A simple crown for kings and queens, a feathered cap band for jacks: enough to tell them apart.
  const crown = rank === "J"
    ? "M36 58 L64 58 L60 50 L50 54 L40 50 Z"
    : rank === "Q"
      ? "M36 60 L38 47 L44 54 L50 45 L56 54 L62 47 L64 60 Z"
      : "M35 60 L35 45 L42.5 53 L50 41 L57.5 53 L65 45 L65 60 Z";
  g.append(el("path", { d: crown, fill: "#d9a520", stroke: "currentColor", "stroke-width": 1.5 }));
  const letter = el("text", {
    x: 50, y: 90, "text-anchor": "middle", "font-size": 30, "font-weight": 700,
    "font-family": "DejaVu Serif, Georgia, serif",
  });
  letter.textContent = courtLetter(rank);
  g.append(letter, pip(suit, 35, 95, 9), pip(suit, 65, 95, 9));
  return g;
}

/** The large-print face used when cards are small (phones): big index, one big suit. */
function compactFace(rank, suit) {
  const g = el("g", { class: "compact" });
  const text = el("text", {
    x: 6, y: 33, "font-size": rank === "T" ? 34 : 38, "font-weight": 700,
    "font-family": "DejaVu Sans, Verdana, Arial, sans-serif", "letter-spacing": rank === "T" ? -4 : 0,
  });
  text.textContent = rankLabel(rank);
  g.append(text, pip(suit, 78, 22, 32), pip(suit, 50, 94, 58));
  return g;
}

function buildFace(code) {
  const [card, suit] = code;
  const rank = courtLetter(card); // a court card's letter in the page's language; other ranks as they are
  const svg = el("svg", {
    viewBox: "0 0 100 140", class: `face suit-${suit}`, "aria-hidden": "true", focusable: "false",
  });
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-bg", "stroke-width": 1.5 }));
  const ink = el("g", { class: "ink", fill: "currentColor" });
  const detail = el("g", { class: "detail" });
  const middle = el("g", { class: "middle" }); // the pips or the court card's frame, clear of the corners
  if (COURT.includes(card)) {
    middle.append(courtFace(card, suit));
  } else if (card === "A") {
    middle.append(pip(suit, 50, 70, 46));
  } else {
    for (const [x, y] of PIPS[card]) middle.append(pip(suit, x, y, PIP, y > 72));
  }
  detail.append(corner(rank, suit, false), corner(rank, suit, true), middle);
  ink.append(detail, compactFace(rank, suit));
  svg.append(ink);
  return svg;
}

const cache = new Map();

/** An <svg> face for a card code such as "TS" (a fresh copy each call). */
export function cardFace(code) {
  if (!cache.has(code)) cache.set(code, buildFace(code));
  return cache.get(code).cloneNode(true);
}
