// Drawing the table from a view. Knows where piles sit, never what moves are legal.

import { cardFace, cardName, courtLetter, isRed, rankName } from "./cards.js";
import { rankLabel } from "./games.js";
import { t, tn } from "./i18n.js";
import { fitCards, isPortrait } from "./layout.js";
import { getSetting } from "./settings.js";

const range = (n) => Array.from({ length: n }, (_, i) => i + 1);

// Each pile: where it sits on a 9-column grid and how its cards are shown:
// "fan" spreads cards downwards, "stack" shows only the top, "stock" is a face-down deck, "closed" is a
// pile drawn as a closed stack with its count (Eagle Wing's trunk: as in AisleRiot, only its top shows).
// `tall` places a pile on the narrower grid a game uses on portrait screens (see SHAPES).
const LAYOUTS = {
  "king-albert": [
    ...range(4).map((i) => ({ name: `foundation-${i}`, kind: "stack", col: i, row: 1 })),
    ...range(7).map((i) => ({ name: `reserve-${i}`, kind: "stack", group: "ka-reserve", row: 1 })),
    ...range(9).map((i) => ({ name: `tableau-${i}`, kind: "fan", col: i, row: 2 })),
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

// The grid of each table shape: its columns, and the height its rows need in card widths (the first row
// plus the room the fans below it usually take; longer fans are squeezed to fit, see layoutFans).
// `stacked`: a row of piles lies below fans, which therefore may not open up into spare height (fitCards).
// `steps`: piles step down by up to this many steps into the height the window has to spare (the eagle's
// wings); their fans never open up. Eagle Wing's wide rows: a card, then a wing of three cards on
// large-print faces (1.4 + 1.4 x 1.68 card widths), and a little room.
const SHAPES = {
  "king-albert": { wide: { cols: 9, depth: 4.6 } },
  "eagle-wing": { wide: { cols: 9, depth: 3.9, steps: 3 }, tall: { cols: 4, depth: 7.4, stacked: true } },
};

/** The shape the table of `game` takes in this window: "tall" on portrait screens when it has one. */
export function tableShape(game) {
  return SHAPES[game].tall && isPortrait() ? "tall" : "wide";
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
  const shape = tableShape(view.game);
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
        board.append(reserveRow);
      }
      reserveRow.append(pile);
    } else {
      const [col, row] = shape === "tall" ? spec.tall : [spec.col, spec.row];
      pile.style.gridColumn = String(col);
      pile.style.gridRow = String(row);
      if (shape === "wide" && spec.drop) pile.style.marginTop = `calc(var(--step) * ${spec.drop})`;
      board.append(pile);
    }
  }
  layoutFans(board);
}

const DOWN_STEP = 0.1; // fan offsets as a fraction of the card height
const UP_STEP = 0.27;
const UP_STEP_SMALL = 0.34; // the large-print faces of small cards need a taller strip to show their index

/**
 * Fit the table to the window again (after a resize or a card size change). Returns false when the
 * table must be drawn anew because its shape changed (a phone turned between portrait and landscape).
 */
export function refit(board, view) {
  if (board.dataset.shape !== tableShape(view.game)) return false;
  fitCards(board, SHAPES[view.game][board.dataset.shape], getSetting("cardSize"));
  layoutFans(board);
  return true;
}

/**
 * Place fanned cards: opened up by the board's spread (fitCards) where the window has height to spare,
 * squeezed where a fan would run off the bottom of the window, exactly as much as without the spread.
 */
export function layoutFans(board) {
  const probe = board.querySelector(".pile");
  if (!probe) return;
  const cardWidth = probe.getBoundingClientRect().width;
  const cardHeight = cardWidth * 1.4;
  const upStep = board.classList.contains("compact") ? UP_STEP_SMALL : UP_STEP;
  // Large cards may make the page scroll: their fans are never squeezed.
  const bottom = getSetting("cardSize") === "large" ? Infinity : window.innerHeight + window.scrollY - 8;
  const spread = Number(board.dataset.spread) || 1;
  for (const pile of board.querySelectorAll(".pile.fan")) {
    const cards = [...pile.querySelectorAll(".card")];
    const steps = cards.slice(1).map((_, i) => (cards[i].classList.contains("down") ? DOWN_STEP : upStep));
    const total = steps.reduce((a, b) => a + b, 0);
    const room = (bottom - pile.getBoundingClientRect().top - window.scrollY) / cardHeight - 1;
    const squeeze = total * spread > room && total > 0 ? Math.max(0.3, room / total) : spread;
    let y = 0;
    cards.forEach((card, i) => {
      if (i > 0) y += steps[i - 1] * squeeze * cardHeight;
      card.style.top = `${y}px`;
    });
    pile.style.height = `${y + cardHeight}px`;
  }
}

export function rankWord(rank) {
  return rank ? rankName(rank) : "–";
}
