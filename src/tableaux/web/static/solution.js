// "Show solution": the solver's winning line from the current position, played out on the table with
// pause, step and speed controls. The solver looks at the face-down cards, so the page says so, and the
// server marks the game as assisted. Each step is an ordinary move the server checks and stores.

import { api } from "./api.js";
import { report } from "./clock.js";
import { mayTakeHelp } from "./confirm.js";
import { t, tn } from "./i18n.js";
import { $, announce, notice } from "./dom.js";
import { adopt, describe } from "./render.js";
import { enqueue, onView, S, setPlaying } from "./store.js";

const P = {
  moves: [], // the line's move texts still to play
  total: 0,
  timer: 0,
  paused: false,
  gameId: null,
  version: null, // the version the next step is made from: any other move stops the playback
  said: "", // the notice this playback put up, which goes with it (a notice must not outlive what it says)
  peeked: false, // the line was found in a position that hid cards: the status line says the solver saw them
};

function say(text) {
  P.said = text;
  notice(text, { sticky: true });
}

function bar(show) {
  $("solution-bar").hidden = !show;
}

function status(text) {
  $("solution-text").textContent = text;
}

function delay() {
  return Number($("solution-speed").value) || 600;
}

function stop(text) {
  window.clearTimeout(P.timer);
  setPlaying(false);
  P.moves = [];
  P.gameId = null;
  bar(false);
  if (text) say(text);
  else if (P.said && $("notice").textContent === P.said && !$("notice").hidden) notice("");
  if (!text) P.said = "";
}

/** Play the next move of the line; false when the line is over or the game went elsewhere. */
async function step() {
  const v = S.view;
  if (!v || v.id !== P.gameId || !P.moves.length) return false;
  if (v.version !== P.version) {
    stop(t("The solution stopped: you changed the game yourself (a move, an undo or a redo). Play on from here."));
    return false;
  }
  const text = P.moves.shift();
  const move = v.legal_moves.find((m) => m.text === text);
  if (!move) {
    stop(t("The solution stopped: the position changed, so its line no longer applies."));
    return false;
  }
  // Sent as the solution's move: the server stores that its win, if it makes one, is the solver's.
  const view = await api.move(v.id, { source: move.source, count: move.count, target: move.target }, v.version,
    report(), "solution");
  P.version = view.version;
  adopt(view);
  announce(describe(move, v, view));
  const done = { played: P.total - P.moves.length, total: P.total };
  status(P.peeked ? t("Solution: move {played} of {total} (the solver looked at the face-down cards)", done)
    : t("Solution: move {played} of {total}", done));
  if (view.won) {
    stop("");
    announce(t("Won with the solver's line."));
    return false;
  }
  return P.moves.length > 0;
}

function schedule() {
  window.clearTimeout(P.timer);
  if (P.paused || !P.moves.length) return;
  P.timer = window.setTimeout(() => enqueue(async () => {
    if (P.paused) return;
    if (await step()) schedule();
  }), delay());
}

/** Whether the position hides a card: only then does the solver see more than the player (a game may deal every
 * card face up, and face-down cards turn up as a game goes). */
function hidesCards(v) {
  return Object.values(v.position.piles).some((cards) => cards.some((c) => !c.up));
}

export async function showSolution() {
  const v = S.view;
  if (!v || v.won || v.given_up) return;
  if (!(await mayTakeHelp("solution"))) return;
  stop("");
  const peeks = hidesCards(v);
  say(peeks ? t("The solver is looking for a winning line (it looks at the face-down cards)…")
    : t("The solver is looking for a winning line…"));
  const answer = await api.solution(v.id, v.version, report());
  adopt(answer.view);
  if (answer.verdict !== "winnable") {
    const text = answer.verdict !== "unwinnable"
      ? t("The solver could not find a winning line in the time it has; this position may or may not be won.")
      : peeks
        ? t("This position cannot be won: the solver searched every line (it looked at the face-down cards).") + " "
          + t("The chance beside it counts the layouts of the cards you have not seen, not the real one.")
          + (answer.view.assisted && !v.assisted ? " " + t("This game now counts as assisted in the statistics.") : "")
        : t("This position cannot be won: no card is hidden, and the solver searched every line.");
    say(text);
    announce(text);
    return;
  }
  const showing = peeks
    ? tn("Showing the solver's winning line of {n} move. It looked at the face-down cards, "
      + "so this game now counts as assisted in the statistics.",
    "Showing the solver's winning line of {n} moves. It looked at the face-down cards, "
      + "so this game now counts as assisted in the statistics.", answer.moves.length)
    : tn("Showing the solver's winning line of {n} move. This game now counts as assisted in the statistics.",
      "Showing the solver's winning line of {n} moves. This game now counts as assisted in the statistics.",
      answer.moves.length);
  say(showing);
  P.peeked = peeks;
  P.moves = [...answer.moves];
  P.total = answer.moves.length;
  P.gameId = answer.view.id;
  P.version = answer.view.version;
  P.paused = false;
  $("solution-pause").textContent = t("Pause");
  status(peeks ? tn("Solution: {n} move (the solver looked at the face-down cards)",
    "Solution: {n} moves (the solver looked at the face-down cards)", P.total)
    : tn("Solution: {n} move", "Solution: {n} moves", P.total));
  bar(true);
  setPlaying(true);
  schedule();
}

export function wireSolution() {
  $("solution").addEventListener("click", () => enqueue(showSolution));
  $("solution-pause").addEventListener("click", () => {
    P.paused = !P.paused;
    $("solution-pause").textContent = P.paused ? t("Play") : t("Pause");
    setPlaying(!P.paused);
    if (!P.paused) schedule();
    else window.clearTimeout(P.timer);
  });
  $("solution-step").addEventListener("click", () => {
    P.paused = true;
    setPlaying(false);
    $("solution-pause").textContent = t("Play");
    window.clearTimeout(P.timer);
    enqueue(step);
  });
  $("solution-speed").addEventListener("change", schedule);
  $("solution-stop").addEventListener("click", () => stop(t("Solution stopped; play on from here.")));
  onView((view) => {
    $("solution").disabled = view.won || view.given_up;
    if (P.gameId && view.id !== P.gameId) stop(""); // another game: the line is not for it
  });
}
