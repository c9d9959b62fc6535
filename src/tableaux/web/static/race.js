// The daily race: today's leaderboard of a daily deal, the player's place on it, and the name it shows for them.
//
// The server ranks (tableaux.web.standings): the day's wins of the daily deal without the solver's help, fewest
// moves first, then the shortest time by the server's own clock. The page only shows its answer, kept in the
// store (setRace), and sends the name the player chooses; the server says whether it is accepted. A server
// started with --no-leaderboard says so in its game info (raceOn), and then none of this is shown.

import { api } from "./api.js";
import { openDialog } from "./dialogs.js";
import { $, announce } from "./dom.js";
import { gameInfo, raceOn } from "./games.js";
import { lang, t, tn } from "./i18n.js";
import { formatTime } from "./render.js";
import { enqueue, onView, S, setRace } from "./store.js";

/** A race time, cut to a tenth by the server: "1:27.4" ("1:27,4" where a comma is the decimal mark). */
export function raceTime(seconds) {
  const mark = new Intl.NumberFormat(lang()).formatToParts(1.5).find((part) => part.type === "decimal")?.value;
  const tenths = Math.round(seconds * 10); // exact: the server sends whole tenths
  return `${formatTime(Math.floor(tenths / 10))}${mark || "."}${tenths % 10}`;
}

function standing(race) {
  switch (race.status) {
    case "ranked":
      return t("You are ranked {rank} of {n} today.", { rank: race.you.rank, n: race.ranked });
    case "not-played":
      return t("You have not played today's deal yet: win it without the solver's help to be ranked.");
    case "playing":
      return t("Win today's deal without the solver's help to be ranked.");
    case "assisted":
      return t("Your game of today's deal had the solver's help, so it is not ranked.");
    case "given-up":
      return t("You gave today's deal up, so it is not ranked.");
    default:
      return t("You played this deal in another game before winning it, so the win is not ranked.");
  }
}

function row(entry) {
  const tr = document.createElement("tr");
  if (entry.you) {
    tr.className = "you";
    tr.setAttribute("aria-current", "true");
  }
  const name = entry.name ?? t("Anonymous");
  const cells = [String(entry.rank), entry.you ? t("{name} (you)", { name }) : name, String(entry.moves),
    raceTime(entry.seconds)];
  cells.forEach((text, i) => {
    const cell = document.createElement(i === 1 ? "th" : "td");
    if (i === 1) cell.scope = "row";
    cell.textContent = text;
    if (i === 1 && entry.name == null) cell.classList.add("anonymous");
    tr.append(cell);
  });
  return tr;
}

/** Draw the store's leaderboard in the dialog. */
function renderRace() {
  const race = S.race;
  if (!race) return;
  const title = gameInfo(race.game)?.title ?? race.game;
  $("race-about").textContent = t("{game}, daily deal of {date}: fewest moves first, then the shortest time as the "
    + "server measured it. Wins with the solver's help are not ranked.", { game: title, date: race.date });
  const place = $("race-board");
  if (!race.top.length) {
    const none = document.createElement("p");
    none.textContent = t("No one has won today's deal without help yet.");
    place.replaceChildren(none);
  } else {
    const table = document.createElement("table");
    const caption = table.createCaption();
    caption.textContent = t("The best wins of the day");
    const head = table.createTHead().insertRow();
    for (const text of [t("Rank"), t("Player"), t("Moves"), t("Time")]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = text;
      head.append(th);
    }
    const body = table.createTBody();
    for (const entry of race.top) body.append(row(entry));
    if (race.you && !race.top.some((entry) => entry.you)) {
      const gap = body.insertRow();
      gap.className = "gap";
      const cell = gap.insertCell();
      cell.colSpan = 4;
      cell.textContent = "…";
      body.append(row(race.you));
    }
    place.replaceChildren(table);
  }
  $("race-standing").textContent = standing(race);
  const input = $("race-name");
  if (document.activeElement !== input) input.value = race.name ?? "";
  const rule = t("Letters, digits, spaces and a little punctuation, and a name no one else has. Leave it empty to "
    + "show as Anonymous.");
  const left = tn("You can change it {n} more time today.", "You can change it {n} more times today.",
    race.changes_left);
  $("race-name-help").textContent = rule + " " + left;
  $("race-name-save").disabled = race.changes_left === 0;
}

/** Open today's leaderboard of the game on the table (or of the game chosen in the menu). */
export async function openRace(opener) {
  const game = S.view ? S.view.game : $("game-select").value;
  setRace(await api.leaderboard(game));
  $("race-name-said").textContent = "";
  renderRace();
  openDialog($("race-dialog"), opener);
}

async function saveName() {
  const said = $("race-name-said");
  const input = $("race-name");
  const typed = input.value;
  let refused = false;
  try {
    const answer = await api.setName(typed.trim() || null);
    setRace(await api.leaderboard(S.race.game));
    said.textContent = answer.name
      ? t("Saved: the leaderboard shows you as “{name}”.", { name: answer.name })
      : t("Saved: the leaderboard shows you as Anonymous.");
  } catch (err) {
    said.textContent = err.message;
    refused = true;
  }
  renderRace();
  if (refused) {
    input.value = typed; // what was typed stays, to be mended, not the name the board still shows
    input.focus();
  }
  announce(said.textContent);
}

export function wireRace() {
  for (const id of ["race-button", "race-menu-button"]) {
    $(id).addEventListener("click", () => enqueue(() => openRace($(id))));
  }
  $("race-name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    enqueue(saveName);
  });
  onView((view) => {
    $("race-button").hidden = !(raceOn() && view.daily); // by the daily deal's line (not on a phone: style.css)
    $("race-menu-button").hidden = !raceOn();
  });
}
