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

// Pip centres on a 100 x 140 face for the number cards (x, y); the lower half is drawn upside down.
const L = 33, C = 50, R = 67;
const PIPS = {
  A: [[C, 70]],
  2: [[C, 38], [C, 102]],
  3: [[C, 38], [C, 70], [C, 102]],
  4: [[L, 38], [R, 38], [L, 102], [R, 102]],
  5: [[L, 38], [R, 38], [C, 70], [L, 102], [R, 102]],
  6: [[L, 38], [R, 38], [L, 70], [R, 70], [L, 102], [R, 102]],
  7: [[L, 38], [R, 38], [C, 54], [L, 70], [R, 70], [L, 102], [R, 102]],
  8: [[L, 38], [R, 38], [C, 54], [L, 70], [R, 70], [C, 86], [L, 102], [R, 102]],
  9: [[L, 38], [R, 38], [L, 59], [R, 59], [C, 70], [L, 81], [R, 81], [L, 102], [R, 102]],
  T: [[L, 38], [R, 38], [C, 48], [L, 59], [R, 59], [L, 81], [R, 81], [C, 92], [L, 102], [R, 102]],
};

function corner(rank, suit, flip) {
  const g = el("g", flip ? { transform: "rotate(180 50 70)" } : {});
  const text = el("text", {
    x: 7, y: 29, "font-size": rank === "T" ? 27 : 30, "font-weight": 700,
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
  g.append(el("rect", {
    x: 17, y: 34, width: 66, height: 72, rx: 5, fill: "none", stroke: "currentColor", "stroke-width": 2,
  }));
  g.append(el("rect", {
    x: 21, y: 38, width: 58, height: 64, rx: 3, fill: "currentColor", "fill-opacity": 0.1,
  }));
  // A simple crown for kings and queens, a feathered cap band for jacks: enough to tell them apart.
  const crown = rank === "J"
    ? "M34 56 L66 56 L62 48 L50 52 L38 48 Z"
    : rank === "Q"
      ? "M34 58 L36 44 L43 52 L50 42 L57 52 L64 44 L66 58 Z"
      : "M32 58 L32 42 L41 51 L50 38 L59 51 L68 42 L68 58 Z";
  g.append(el("path", { d: crown, fill: "#d9a520", stroke: "currentColor", "stroke-width": 1.5 }));
  const letter = el("text", {
    x: 50, y: 90, "text-anchor": "middle", "font-size": 30, "font-weight": 700,
    "font-family": "DejaVu Serif, Georgia, serif",
  });
  letter.textContent = rank;
  g.append(letter, pip(suit, 30, 95, 12), pip(suit, 70, 95, 12));
  return g;
}

/** The large-print face used when cards are small (phones): big index, one big suit. */
function compactFace(rank, suit) {
  const g = el("g", { class: "compact" });
  const text = el("text", {
    x: 6, y: 40, "font-size": rank === "T" ? 38 : 42, "font-weight": 700,
    "font-family": "DejaVu Sans, Verdana, Arial, sans-serif", "letter-spacing": rank === "T" ? -4 : 0,
  });
  text.textContent = rankLabel(rank);
  g.append(text, pip(suit, 78, 22, 32), pip(suit, 50, 94, 58));
  return g;
}

function buildFace(code) {
  const [rank, suit] = code;
  const svg = el("svg", {
    viewBox: "0 0 100 140", class: `face suit-${suit}`, "aria-hidden": "true", focusable: "false",
  });
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-bg", "stroke-width": 1.5 }));
  const ink = el("g", { class: "ink", fill: "currentColor" });
  const detail = el("g", { class: "detail" });
  detail.append(corner(rank, suit, false), corner(rank, suit, true));
  if (rank === "J" || rank === "Q" || rank === "K") {
    detail.append(courtFace(rank, suit));
  } else if (rank === "A") {
    detail.append(pip(suit, 50, 70, 46));
  } else {
    for (const [x, y] of PIPS[rank]) detail.append(pip(suit, x, y, 18, y > 72));
  }
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
