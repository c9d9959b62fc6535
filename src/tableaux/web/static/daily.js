// Which deal a new game gets (any, or winnable of a grade, from the server's graded catalogue: the deal filter,
// remembered, used by every new game the page starts), the daily deal at /daily?game=NAME, and the result of a
// daily deal as text to share (it never names the deal). Each asks first when it would end a game in progress
// (confirm.js).

import { api } from "./api.js";
import { newGame } from "./actions.js";
import { t, tn } from "./i18n.js";
import { $, announce, button, notice, onChosen } from "./dom.js";
import { mayLeave } from "./confirm.js";
import { raceOn } from "./games.js";
import { adopt, formatTime } from "./render.js";
import { atStake, enqueue, onView, S } from "./store.js";

const KIND_KEY = "tableaux.dealKind";
/** The grade of a winnable deal, in the page's language. */
function gradeWord(grade) {
  if (grade === "easy") return t("Easy");
  if (grade === "medium") return t("Medium");
  if (grade === "hard") return t("Hard");
  return grade;
}

/** What the "New game" button asks the server for, from the deal-kind menu. */
export function newGameOptions() {
  const kind = $("deal-kind").value;
  if (kind === "any") return {};
  if (kind === "winnable") return { winnable: true };
  return { winnable: true, difficulty: kind };
}

/** A new game of `game` from the deal filter; `ask`: first ask whether to leave a game in progress. */
export async function startNewGame(game, { ask = true } = {}) {
  if (ask && !(await mayLeave("new"))) return;
  await newGame(game, null, newGameOptions());
}

/** Open deal number `deal` of `game`, asking first whether to leave a game in progress. */
export async function openDeal(game, deal) {
  if (S.view && S.view.game === game && S.view.deal === deal && atStake(S.view)) {
    // Not a deal to leave for: it is this one. Leaving it would count a loss and start it again with nothing to redo.
    notice(t("Deal {deal} is on the table already. Restart plays it again from the start, and keeps your moves "
      + "to redo.", { deal }));
    return;
  }
  if (!(await mayLeave("deal", deal))) return;
  await newGame(game, deal);
}

/** Today's daily deal of `game`; `ask`: first ask whether to leave a game in progress (not when it is that deal). */
export async function openDaily(game, { ask = true } = {}) {
  const today = new Date().toISOString().slice(0, 10);
  const same = S.view && S.view.game === game && S.view.daily === today;
  if (ask && !same && !(await mayLeave("daily"))) return;
  const view = await api.daily(game);
  adopt(view);
  notice("");
  announce(t("Daily deal of {game} for {date}.", { game: view.title, date: view.daily }));
}

/** The result of a finished daily deal, to paste anywhere: the game, date, result, moves and time. */
export function shareText(view) {
  const facts = { game: view.title, date: view.daily, n: view.moves, time: formatTime(view.elapsed_seconds) };
  // The solution played to its end is the solver's win (the banner says so too), not the player's with some help.
  if (view.won_by === "solution") {
    return tn("Tableaux daily {game}, {date}: the solver won it in {n} move, {time}",
      "Tableaux daily {game}, {date}: the solver won it in {n} moves, {time}", view.moves, facts);
  }
  let text = view.won
    ? tn("Tableaux daily {game}, {date}: won in {n} move, {time}", "Tableaux daily {game}, {date}: won in {n} moves, {time}",
      view.moves, facts)
    : tn("Tableaux daily {game}, {date}: not won in {n} move, {time}",
      "Tableaux daily {game}, {date}: not won in {n} moves, {time}", view.moves, facts);
  if (view.assisted) text += " " + t("(with the solver's help)");
  return text;
}

function renderDaily(view) {
  const stat = $("grade-stat");
  const parts = [];
  if (view.daily) parts.push(t("Daily deal {date}", { date: view.daily }));
  if (view.grade) parts.push(t("Winnable · {grade}", { grade: gradeWord(view.grade) }));
  if (view.par) parts.push(t("Par {par}", { par: view.par }));
  $("grade").textContent = parts.join(" · ");
  stat.hidden = !parts.length;
  // Beside "Winnable as far as seen" (below 100% at the start of a deal with hidden cards), "Winnable" needs its line.
  const why = [];
  if (view.grade) {
    why.push(t("Winnable: the solver, seeing every card, has won this deal; the chance beside it counts every "
      + "way the cards you have not seen could lie."));
  }
  if (view.par) {
    why.push(t("Par {par}: the fewest moves of a winning line the solver found, in a long search for short lines "
      + "(Show solution plays a line found at once, often longer). Win in as few and you have played as well as the "
      + "solver.", { par: view.par }));
  }
  if (why.length) stat.title = why.join(" ");
  else stat.removeAttribute("title");
  const finished = view.won || view.over || view.given_up;
  if (!view.daily || !finished) return;
  const share = document.createElement("div");
  share.className = "share";
  const text = document.createElement("output");
  text.id = "share-text";
  text.textContent = shareText(view);
  const copy = t("Copy result");
  share.append(text, " ", button("share-copy", copy, async () => {
    try {
      await navigator.clipboard.writeText(text.textContent);
      notice(t("Result copied: paste it anywhere. It does not give the deal away."));
    } catch {
      getSelection().selectAllChildren(text); // no clipboard access: select it for the player to copy
      notice(t("Copy the selected result text."));
    }
  }));
  if (raceOn()) share.append(" ", button("share-race", t("Leaderboard"))); // app.js opens it (race.js)
  $("message").append(share);
}

export function wireDaily() {
  const kind = $("deal-kind");
  kind.value = localStorage.getItem(KIND_KEY) || "any";
  if (!kind.value) kind.value = "any";
  // A pick from the filter deals from it at once (asking first when that would end a game in progress); the pick
  // is remembered either way, for every new game after.
  onChosen(kind, () => {
    localStorage.setItem(KIND_KEY, kind.value);
    if (S.view) enqueue(() => startNewGame(S.view.game));
  });
  onView(renderDaily);
}

/** The page opened at /daily?game=NAME: that game's deal of the day. */
export function dailyRequested() {
  return location.pathname === "/daily";
}
