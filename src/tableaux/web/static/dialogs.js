// Dialogs: the rules, the statistics, and the confirmation before a reset.

import { api } from "./api.js";
import { ask } from "./confirm.js";
import { $, announce, focusBack } from "./dom.js";
import { games } from "./games.js";
import { lang, t } from "./i18n.js";
import { formatTime } from "./render.js";
import { rulesNodes, rulesTitle } from "./rules.js";
import { enqueue, S } from "./store.js";

/**
 * Open a modal dialog at its top; when it closes, the keyboard goes back to `opener` (dom.js focusBack says where
 * when that has gone). An opener that waits for the server first names itself, since the menu has closed by then.
 */
export function openDialog(dialog, opener = document.activeElement) {
  if (dialog.open) return;
  dialog.addEventListener("close", () => focusBack(dialog, opener), { once: true });
  dialog.showModal();
  if (dialog.scrollTop > 0) {
    // showModal focused a control below the fold and scrolled the dialog's start away (the statistics on a
    // phone): it opens at the top instead, the dialog itself focused, and Tab goes on to its first control.
    dialog.tabIndex = -1;
    dialog.focus({ preventScroll: true });
    dialog.scrollTop = 0;
  }
}

/** Whether the point of a pointer event lies outside the dialog's own box (on its backdrop). */
function outside(dialog, event) {
  const r = dialog.getBoundingClientRect();
  return event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom;
}

/**
 * A tap or click on the backdrop around `dialog` closes it, as Escape does. The backdrop is the dialog's own,
 * so such a click lands on the dialog element: only where it lies tells it apart from a click on the dialog's
 * padding. The press must start outside too, so that selecting text in the dialog and letting go beyond its edge
 * leaves it open.
 */
export function closeFromOutside(dialog) {
  let pressedOutside = false;
  dialog.addEventListener("pointerdown", (event) => {
    pressedOutside = event.target === dialog && outside(dialog, event);
  });
  dialog.addEventListener("click", (event) => {
    if (pressedOutside && event.target === dialog && outside(dialog, event)) dialog.close();
    pressedOutside = false;
  });
}

export function openRules(opener = document.activeElement) {
  const game = S.view ? S.view.game : $("game-select").value;
  $("rules-title").textContent = rulesTitle(game);
  $("rules-text").replaceChildren(...rulesNodes(game));
  openDialog($("rules-dialog"), opener);
}

const percent = (v) => new Intl.NumberFormat(lang(), { style: "percent", maximumFractionDigits: 1 }).format(v);
const statRows = () => [
  ["played", t("Games played"), String],
  ["won", t("Games won"), String],
  ["win_rate", t("Win rate"), (v, all) => (all.played ? percent(v) : "–")], // no rate of no games, not 0%
  ["current_streak", t("Current winning streak"), String],
  ["best_streak", t("Best winning streak"), String],
  ["best_time", t("Fastest win"), (v) => formatTime(v)],
  ["worst_time", t("Slowest win"), (v) => formatTime(v)],
  ["fewest_moves", t("Fewest moves in a win"), String],
  ["assisted", t("Games with the solver's help (not counted above)"), String],
  ["daily_played", t("Daily deals played"), String],
  ["daily_won", t("Daily deals won"), String],
  ["daily_streak", t("Daily streak (days in a row)"), String],
  ["best_daily_streak", t("Best daily streak"), String],
];

export function renderStats(stats) {
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  head.insertCell(); // the corner above the row names heads nothing: a plain cell, not an empty header
  for (const { title } of games()) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = title;
    head.append(th);
  }
  const body = table.createTBody();
  for (const [key, name, fmt] of statRows()) {
    const row = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = name;
    row.append(th);
    for (const { name } of games()) {
      const value = stats[name] ? stats[name][key] : null;
      row.insertCell().textContent = value == null ? "–" : fmt(value, stats[name]);
    }
  }
  $("stats-body").replaceChildren(table);
}

export async function openStats(opener) {
  renderStats(await api.stats());
  openDialog($("stats-dialog"), opener);
}

export async function confirmReset() {
  const title = games().length === 2 ? t("Reset the statistics of both games?")
    : t("Reset the statistics of every game?");
  if (!(await ask({ title, text: t("This cannot be undone."), yes: t("Yes, reset") }))) return;
  enqueue(async () => {
    renderStats(await api.resetStats(null));
    announce(t("Statistics reset."));
  });
}

