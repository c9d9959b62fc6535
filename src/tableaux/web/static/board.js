// Drawing the table from a view. Where each pile sits and how it shows its cards comes from the server's game
// info (each game's layout, tableaux.rulebook.guide); what moves are legal, from the view. Nothing here knows a rule.

import { cardFace, cardName, courtLetter, isRed, rankName } from "./cards.js";
import { layoutOf, pileWords, rankLabel, shortLabel } from "./games.js";
import { t, tn } from "./i18n.js";
import { chooseShape, fitCards, layoutFans } from "./layout.js";
import { getSetting } from "./settings.js";

/** The shape the table of `game` takes in this window (layout.js chooses among the game's shapes). */
export function tableShape(board, game) {
  return chooseShape(board, layoutOf(game));
}

/** Put a pile (or a group of piles) at its spot on the grid of `shape`: [column, row, rows it spans]. */
function place(node, spec, shape) {
  const [col, row, rows = 1] = shape === "wide" ? [spec.col, spec.row] : spec[shape];
  node.style.gridColumn = String(col);
  node.style.gridRow = rows > 1 ? `${row} / span ${rows}` : String(row);
}

function shapeOf(game, shape) {
  return layoutOf(game)[shape];
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
  const label = pileWords(view.game, name);
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
  if (spec.pile.startsWith("foundation")) {
    if (view.position.base_rank) return rankLabel(view.position.base_rank);
    return "A";
  }
  if (spec.pile === "stock") {
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
  const specs = layoutOf(view.game).spots;
  const shape = tableShape(board, view.game);
  board.replaceChildren();
  board.dataset.game = view.game;
  board.dataset.shape = shape;
  fitCards(board, shapeOf(view.game, shape), getSetting("cardSize"), view.id);
  let reserveRow = null;
  for (const spec of specs) {
    const cards = view.position.piles[spec.pile] || [];
    const pile = document.createElement("div");
    pile.className = `pile ${spec.kind}`;
    pile.dataset.pile = spec.pile;
    pile.dataset.label = shortLabel(view.game, spec.pile); // shown when the "Pile labels" setting is on
    pile.tabIndex = 0;
    pile.setAttribute("role", "group");
    pile.setAttribute("aria-label", pileName(view, spec.pile, cards));
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
          // Beside the columns it would read as one more of them: its name heads it.
          // TRANSLATORS: the name over the reserve where its piles stand in a column beside the tableau.
          reserveRow.dataset.title = t("Reserve");
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
  fitCards(board, shapeOf(view.game, board.dataset.shape), getSetting("cardSize"), view.id);
  layoutFans(board);
  return true;
}

export function rankWord(rank) {
  return rank ? rankName(rank) : "–";
}
