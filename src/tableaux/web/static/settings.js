// Settings that change what the page shows: which hints it asks for (fair or peeking) and pile labels.
// Both are remembered in this browser.

import { openDialog } from "./dialogs.js";
import { $, board, gameInfo, S } from "./state.js";

const HINT_KEY = "tableaux.hintMode";
const LABELS_KEY = "tableaux.pileLabels";

/** "fair" (the default: only the cards the player has seen) or "peek" (the solver sees every card). */
export function hintMode() {
  return localStorage.getItem(HINT_KEY) === "peek" ? "peek" : "fair";
}

export function showLabels() {
  return localStorage.getItem(LABELS_KEY) === "1";
}

/** The notation label of a pile ("T3"), from the server's catalog. */
export function shortLabel(game, pile) {
  return gameInfo(game)?.labels?.[pile] ?? pile;
}

function renderHintButton() {
  const peek = hintMode() === "peek";
  $("hint").textContent = peek ? "Hint (peeking)" : "Hint";
  $("hint").title = peek
    ? "Hint (h), peeking: the solver looks at the face-down cards"
    : "Hint (h): from the cards you have seen only";
}

/** Pile labels on the table: each pile carries its notation label, shown when the setting is on. */
function renderLabels(view) {
  document.body.classList.toggle("pile-labels", showLabels());
  if (!view) return;
  for (const pile of board.querySelectorAll("[data-pile]")) {
    pile.dataset.label = shortLabel(view.game, pile.dataset.pile);
  }
}

export function wireSettings() {
  for (const radio of document.querySelectorAll('input[name="hint-mode"]')) {
    radio.checked = radio.value === hintMode();
    radio.addEventListener("change", () => {
      if (radio.checked) localStorage.setItem(HINT_KEY, radio.value);
      renderHintButton();
    });
  }
  const labels = $("pile-labels");
  labels.checked = showLabels();
  labels.addEventListener("change", () => {
    localStorage.setItem(LABELS_KEY, labels.checked ? "1" : "0");
    renderLabels(S.view);
  });
  $("settings-button").addEventListener("click", () => openDialog($("settings-dialog")));
  S.adopted.push((view) => renderLabels(view));
  renderHintButton();
}
