// Drawing the table from a view. Knows where piles sit, never what moves are legal.

import { cardFace, cardName, courtLetter, isRed, rankName } from "./cards.js";
import { rankLabel } from "./games.js";
import { t, tn } from "./i18n.js";
import { chooseShape, fitCards, layoutFans } from "./layout.js";
import { getSetting } from "./settings.js";

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);

// Each pile: where it sits on a 9-column grid and how its cards are shown:
// "fan" spreads cards downwards, "stack" shows only the top, "stock" is a face-down deck, "closed" is a
// pile drawn as a closed stack with its count (Eagle Wing's trunk: as in AisleRiot, only its top shows).
// `tall` places a pile on the narrower grid a game uses on portrait screens, `side` on the wider one of a
// short window, as [column, row, rows it spans] (see SHAPES). A `group` of piles is drawn together: in a
// row of its own on a wide table, in a column where the table's top row stands at its sides.
const LAYOUTS = {
  // Held sideways on a phone: the foundations (two by two) left of the columns and the reserve in a column
  // right of them, so that the columns have the whole height.
  "king-albert": [
    ...range(4).map((i) => ({ name: `foundation-${i}`, kind: "stack", col: i, row: 1, side: [2 - (i % 2), i > 2 ? 2 : 1] })),
    ...range(7).map((i) => ({ name: `reserve-${i}`, kind: "stack", group: "ka-reserve", row: 1, side: [12, 1, 2] })),
    ...range(9).map((i) => ({ name: `tableau-${i}`, kind: "fan", col: i, row: 2, side: [i + 2, 1, 2] })),
  ],
  // Wide: the wings spread either side of the trunk like an eagle's, each one a step lower than the one
  // nearer the trunk (`drop` steps, of the height the window has to spare, see fitCards).
  // Upright, on four columns, so the cards are as wide as a phone allows and the four rows fill its
  // height: the foundations, four wing piles, the stock, waste and trunk, then the other four wing piles.
  // Each row of wings has room below it for its longest fan (three cards), and no more.
  "eagle-wing": [
    { name: "stock", kind: "stock", col: 1, row: 1, tall: [1, 3] },
    { name: "waste", kind: "stack", col: 2, row: 1, tall: [2, 3] },
    ...range(4).map((i) => ({ name: `foundation-${i}`, kind: "stack", col: 5 + i, row: 1, tall: [i, 1] })),
    ...range(4).map((i) => ({ name: `tableau-${i}`, kind: "fan", col: i, row: 2, drop: 4 - i, tall: [i, 2] })),
    { name: "reserve", kind: "closed", col: 5, row: 2, tall: [4, 3] },
    ...range(4).map((i) => ({ name: `tableau-${4 + i}`, kind: "fan", col: 5 + i, row: 2, drop: i - 1, tall: [i, 4] })),
  ],
};

// The grid of each table shape: its columns, the height its rows need in card widths (the first row plus
// the room the fans below it usually take; longer fans are squeezed to fit, see layoutFans), and how many
// rows of piles it has and columns of overlapping piles (`beside`): the pile labels, when shown, take a
// line above each row and a narrow column beside each of those.
// `stacked`: a row of piles lies below fans, which therefore may not open up into spare height (fitCards).
// `steps`: piles step down by up to this many steps into the height the window has to spare (the eagle's
// wings); their fans never open up. Eagle Wing's wide rows: a card, then a wing of three cards on
// large-print faces (1.4 + 1.4 x 1.68 card widths), and a little room.
const SHAPES = {
  "king-albert": { wide: { cols: 9, depth: 4.6 }, side: { cols: 12, depth: 3.3, rows: 1, beside: 1 } },
  "eagle-wing": { wide: { cols: 9, depth: 3.9, steps: 3 }, tall: { cols: 4, depth: 7.4, stacked: true, rows: 4 } },
};

/** The shape the table of `game` takes in this window (layout.js chooses among the game's shapes). */
export function tableShape(board, game) {
  return chooseShape(board, SHAPES[game]);
}

/** Put a pile (or a group of piles) at its place on the grid of `shape`. */
function place(node, spec, shape) {
  const [col, row, rows = 1] = shape === "wide" ? [spec.col, spec.row] : spec[shape];
  node.style.gridColumn = String(col);
  node.style.gridRow = rows > 1 ? `${row} / span ${rows}` : String(row);
}

/** Pile names in reading order (the order Left/Right arrows walk through). */
export function pileOrder(game) {
  return LAYOUTS[game].map((p) => p.name);
}

export function pileKind(game, name) {
  return LAYOUTS[game].find((p) => p.name === name)?.kind;
}

/** "tableau-3" -> "tableau 3"; Eagle Wing's reserve is the trunk. */
export function pileLabel(game, name) {
  const [kind, number] = name.split("-");
  if (game === "eagle-wing" && name === "reserve") return t("the trunk");
  if (game === "eagle-wing" && kind === "tableau") return t("wing pile {n}", { n: number });
  const words = {
    tableau: t("tableau {n}", { n: number }), foundation: t("foundation {n}", { n: number }),
    reserve: number ? t("reserve {n}", { n: number }) : t("the reserve"), stock: t("the stock"), waste: t("the waste"),
  };
  return words[kind] ?? name.replace("-", " ");
}

function cardElement(entry, index) {
  const node = document.createElement("div");
  node.className = "card";
  node.dataset.index = String(index);
  if (entry.up && entry.card) {
    node.dataset.card = entry.card;
    node.classList.add("up", isRed(entry.card) ? "red" : "black");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", cardName(entry.card));
    node.tabIndex = -1;
    node.append(cardFace(entry.card));
  } else {
    node.classList.add("down");
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", t("face-down card"));
  }
  return node;
}

function pileName(view, name, cards) {
  const label = pileLabel(view.game, name);
  const what = label.charAt(0).toUpperCase() + label.slice(1);
  if (!cards.length) return t("{pile}, empty", { pile: what });
  const top = cards[cards.length - 1];
  const up = cards.filter((c) => c.up).length;
  const down = cards.length - up;
  const parts = [tn("{n} card", "{n} cards", cards.length)];
  if (down && up) parts.push(t("{n} face down", { n: down }));
  if (name === "stock") return t("{pile}, {cards}; activate to deal", { pile: what, cards: parts[0] });
  const shown = top.up ? cardName(top.card) : t("face down");
  return t("{pile}, {cards}, top: {card}", { pile: what, cards: parts.join(", "), card: shown });
}

function emptyMark(view, spec) {
  if (spec.name.startsWith("foundation")) {
    if (view.position.base_rank) return rankLabel(view.position.base_rank);
    return "A";
  }
  if (spec.name === "stock") {
    return view.legal_moves.some((m) => m.source === "waste" && m.target === "stock") ? "↻" : "✕";
  }
  return "";
}

function badge(className, text) {
  const node = document.createElement("span");
  node.className = className;
  node.setAttribute("aria-hidden", "true");
  node.textContent = text;
  return node;
}

/** Build the whole table for a view into `board` (replacing what was there). */
export function renderBoard(board, view) {
  const specs = LAYOUTS[view.game];
  const shape = tableShape(board, view.game);
  board.replaceChildren();
  board.dataset.game = view.game;
  board.dataset.shape = shape;
  fitCards(board, SHAPES[view.game][shape], getSetting("cardSize"));
  let reserveRow = null;
  for (const spec of specs) {
    const cards = view.position.piles[spec.name] || [];
    const pile = document.createElement("div");
    pile.className = `pile ${spec.kind}`;
    pile.dataset.pile = spec.name;
    pile.tabIndex = 0;
    pile.setAttribute("role", "group");
    pile.setAttribute("aria-label", pileName(view, spec.name, cards));
    if (!cards.length) {
      pile.classList.add("empty");
      pile.dataset.mark = courtLetter(emptyMark(view, spec)); // a base Jack is "B" in German, as on its card
    }
    if (spec.kind === "fan") {
      cards.forEach((entry, i) => pile.append(cardElement(entry, i)));
    } else if (spec.kind === "stock" || spec.kind === "closed") {
      if (cards.length) {
        pile.append(cardElement(cards[cards.length - 1], cards.length - 1));
        pile.append(badge("badge", String(cards.length)));
      }
      // The redeals left, on the stock they turn back (the status line says it in words, for screen readers).
      const redeals = view.position.redeals_left;
      if (spec.kind === "stock" && redeals != null) pile.append(badge("badge redeals", `↻${redeals}`));
    } else {
      // Only the top two show: the second one is what appears while the top card is dragged away.
      const from = Math.max(0, cards.length - 2);
      for (let i = from; i < cards.length; i++) pile.append(cardElement(cards[i], i));
    }
    if (spec.group) {
      if (!reserveRow) {
        reserveRow = document.createElement("div");
        reserveRow.className = spec.group;
        if (shape !== "wide") {
          reserveRow.classList.add("pile-column"); // layoutFans overlaps its piles to fit the height
          place(reserveRow, spec, shape);
        }
        board.append(reserveRow);
      }
      reserveRow.append(pile);
    } else {
      place(pile, spec, shape);
      if (shape === "wide" && spec.drop) pile.style.marginTop = `calc(var(--step) * ${spec.drop})`;
      board.append(pile);
    }
  }
  layoutFans(board);
}

/**
 * Fit the table to the window again (after a resize or a card size change). Returns false when the
 * table must be drawn anew because its shape changed (a phone turned between portrait and landscape).
 */
export function refit(board, view) {
  if (board.dataset.shape !== tableShape(board, view.game)) return false;
  fitCards(board, SHAPES[view.game][board.dataset.shape], getSetting("cardSize"));
  layoutFans(board);
  return true;
}

export function rankWord(rank) {
  return rank ? rankName(rank) : "–";
}
