// Dialogs: the rules, the statistics, and the confirmation before a reset.

import { api } from "./api.js";
import { RULES } from "./rules.js";
import { $, announce, enqueue, formatTime, gameInfo, S } from "./state.js";

/** Open a modal dialog; when it closes, focus goes back where it was (never stays in the closed dialog). */
export function openDialog(dialog) {
  if (dialog.open) return;
  const back = document.activeElement;
  dialog.addEventListener("close", () => {
    if (!dialog.contains(document.activeElement) && document.activeElement !== document.body) return;
    if (back && back !== document.body && document.contains(back)) back.focus();
    else document.activeElement.blur();
  }, { once: true });
  dialog.showModal();
}

export function openRules() {
  const game = S.view ? S.view.game : $("game-select").value;
  $("rules-title").textContent = `Rules of ${gameInfo(game)?.title ?? game}`;
  $("rules-text").innerHTML = RULES[game];
  const dialog = $("rules-dialog");
  openDialog(dialog);
  dialog.scrollTop = 0; // showModal focuses the Close button at the bottom, which scrolled the text away
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
  ["assisted", "Games with the solver's help (not counted above)", String],
  ["daily_played", "Daily deals played", String],
  ["daily_won", "Daily deals won", String],
  ["daily_streak", "Daily streak (days in a row)", String],
  ["best_daily_streak", "Best daily streak", String],
];

export function renderStats(stats) {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const text of ["", ...S.catalog.map((g) => g.title)]) {
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
    for (const { name } of S.catalog) {
      const value = stats[name] ? stats[name][key] : null;
      row.insertCell().textContent = value == null ? "–" : fmt(value);
    }
  }
  $("stats-body").replaceChildren(table);
}

export async function openStats() {
  renderStats(await api.stats());
  openDialog($("stats-dialog"));
}

export function confirmReset() {
  const dialog = $("confirm-dialog");
  const which = S.catalog.length === 2 ? "both games" : "every game";
  $("confirm-text").textContent = `Reset the statistics of ${which}? This cannot be undone.`;
  $("confirm-yes").textContent = "Yes, reset";
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

