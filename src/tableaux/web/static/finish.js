// The end of a game: Finish for me when no choice is left, and a win that feels like one.
//
// Finish: the server sends `finish` with a view when every card is on view and safe moves alone win (each one
// proven never to cost a win, tableaux.web.views.finish_line); the page offers to play them home, one by one,
// as ordinary moves the server checks. Nothing here decides that a game is finished: the view says so.
//
// A win: the banner sums it up (moves, time, the winning streak and the bests, from the statistics), and, unless
// the player asked the system for reduced motion, the cards leap off the foundations for a moment.

import { play } from "./actions.js";
import { api } from "./api.js";
import { $, announce, board, reducedMotion } from "./dom.js";
import { t, tn } from "./i18n.js";
import { formatTime } from "./render.js";
import { enqueue, onView, S } from "./store.js";

const STEP_MS = 180; // between the moves of a finish (none under reduced motion)
const LEAPS = 24; // cards in a win's cascade
const LEAP_MS = 1600;

let finishing = null; // the game id a finish is being played on

// ---------------------------------------------------------------- Finish for me
function offerFinish(view) {
  const offer = $("finish-offer");
  const moves = view.finish || [];
  const show = moves.length > 0 && !finishing && !view.won;
  if (show) {
    $("finish-text").textContent = t("No choice is left: the rest goes home by safe moves.");
    $("finish-button").textContent = tn("Finish ({n} move)", "Finish ({n} moves)", moves.length);
  }
  if (show && offer.hidden) announce(t("No choice is left: Finish plays the rest home."));
  offer.hidden = !show;
}

const pause = (ms) => new Promise((done) => window.setTimeout(done, ms));

/** Play the view's finishing moves home, each one checked by the server; stop if the game goes elsewhere. */
export async function finish() {
  const start = S.view;
  if (!start || !start.finish?.length || finishing) return;
  finishing = start.id;
  $("finish-offer").hidden = true;
  try {
    for (const move of start.finish) {
      const view = S.view;
      if (!view || view.id !== start.id || view.won) break;
      const legal = view.legal_moves.find((m) => m.source === move.source && m.count === move.count
        && m.target === move.target);
      if (!legal) break; // the position changed under it (another tab): the next view offers anew
      await play(legal, { auto: true });
      if (!reducedMotion.matches) await pause(STEP_MS);
    }
  } finally {
    finishing = null;
  }
  if (S.view.won) announce(t("You won deal {deal}!", { deal: S.view.deal }));
  else offerFinish(S.view);
}

// ---------------------------------------------------------------- a win
/** The cards leap off the foundations and fall away: a short cascade, drawn over the table and then gone. */
function cascade() {
  if (reducedMotion.matches) return;
  const tops = [...board.querySelectorAll('[data-pile^="foundation"]')].map((pile) => pile.querySelector(".card:last-of-type"))
    .filter(Boolean);
  if (!tops.length) return;
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  document.body.append(layer);
  const width = window.innerWidth;
  const height = window.innerHeight;
  const animations = [];
  for (let i = 0; i < LEAPS; i++) {
    const from = tops[i % tops.length];
    const box = from.getBoundingClientRect();
    const leap = from.cloneNode(true);
    leap.removeAttribute("data-card");
    leap.className = "card up leap";
    Object.assign(leap.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`,
      height: `${box.height}px` });
    layer.append(leap);
    const side = (i % 2 ? 1 : -1) * (0.15 + ((i * 37) % 50) / 100) * width;
    const rise = -(0.1 + ((i * 53) % 30) / 100) * height;
    const fall = height - box.top + box.height;
    animations.push(leap.animate([
      { transform: "translate(0, 0) rotate(0deg)", opacity: 1 },
      { transform: `translate(${side * 0.5}px, ${rise}px) rotate(${side > 0 ? 90 : -90}deg)`, opacity: 1,
        offset: 0.35 },
      { transform: `translate(${side}px, ${fall}px) rotate(${side > 0 ? 200 : -200}deg)`, opacity: 0.2 },
    ], { duration: LEAP_MS, delay: i * 45, easing: "cubic-bezier(.3,.6,.6,1)", fill: "forwards" }));
  }
  Promise.all(animations.map((a) => a.finished)).catch(() => {}).finally(() => layer.remove());
}

/** The win's summary under the banner: the streak and the bests, and whether this game set one. */
async function summarise(view) {
  let stats;
  try {
    stats = (await api.stats())[view.game];
  } catch {
    return; // the banner already says the game is won; the figures can wait for the statistics dialog
  }
  if (!S.view || S.view.id !== view.id || !stats) return;
  const line = document.createElement("p");
  line.id = "win-summary";
  line.className = "win-summary";
  const parts = [];
  if (view.assisted) {
    parts.push(t("Won with the solver's help: it is counted separately, not in the streak or the bests."));
  } else {
    parts.push(t("Winning streak: {n}", { n: stats.current_streak }));
    if (stats.best_time != null) parts.push(t("Fastest win: {time}", { time: formatTime(stats.best_time) }));
    if (stats.fewest_moves != null) parts.push(t("Fewest moves: {n}", { n: stats.fewest_moves }));
    if (stats.won > 1 && stats.best_time != null && view.elapsed_seconds <= stats.best_time) {
      parts.push(t("Your fastest win yet!"));
    } else if (stats.won > 1 && stats.fewest_moves != null && view.moves <= stats.fewest_moves) {
      parts.push(t("Your fewest moves yet!"));
    }
  }
  line.textContent = parts.join(" · ");
  $("message").append(line);
  announce(line.textContent);
}

function celebrate(view, before) {
  if (!view.won) return;
  summarise(view);
  if (before && before.id === view.id && !before.won) cascade(); // won just now, not a won game reopened
}

export function wireFinish() {
  onView(offerFinish);
  onView(celebrate);
  $("finish-button").addEventListener("click", () => enqueue(finish));
}
