// The game's clock: the time played, counted only while the player is playing. It starts at the first move and
// never ticks before; it stops while the page is hidden, while the window has lost focus, and a minute after the
// last input; it goes on at the next action (a key, the mouse, a touch, coming back to the page) without counting
// the gap. Each change the page asks of the server carries the total (`report`), and the server keeps it within
// its own count of the time between changes (tableaux.web.clock), so the view's elapsed_seconds is the time
// played up to the last change and this module counts on from there. A view that changed nothing (a hint, the
// game looked at again) carries that older total, so the clock counts on as it was; and what was counted since
// the last change survives a reload, the tab or the browser closed and the game opened again, and another game
// taken up on this page and this one taken up again (localStorage, a few games at a time), until the next change
// reports it.
//
// Its counters are its own working state, as a gesture in progress is input.js's: what it shows comes from the
// view in store.js and from them, and only this module's functions change them.

import { atStake, onView, S } from "./store.js";

export const IDLE_MS = 60_000; // after this long without input the clock stops

let gameId = null; // the game the counters are for
let version = null; // that game's version in the last view: a view of the same version changed nothing
let counted = 0; // seconds counted up to `since` (all of them while stopped)
let since = null; // performance.now() when counting last (re)started; null while stopped
let lastInput = 0; // performance.now() of the last input: the clock stops IDLE_MS after it
let focused = true; // the window has the focus (blur and focus events)
let sent = null; // {id, value}: the total the last change reported, and for which game

const now = () => performance.now();

function playing() {
  return atStake(S.view) && document.visibilityState === "visible" && focused;
}

/** Seconds played so far in the game on the table. */
export function played() {
  if (since === null) return counted;
  const end = Math.min(now(), lastInput + IDLE_MS);
  return counted + Math.max(0, end - since) / 1000;
}

/** What the status line shows: the stored time of a finished game, else the time counted. */
export function shownTime() {
  const view = S.view;
  if (!view) return 0;
  if (view.won || view.given_up) return view.elapsed_seconds;
  return played();
}

function stop() {
  counted = played();
  since = null;
}

/** An action of the player's: the clock goes on (from now: a gap after it stopped is not counted). */
export function stir() {
  const t = now();
  if (since !== null && t > lastInput + IDLE_MS) stop(); // idle until now: count up to the idle mark only
  lastInput = t;
  if (since === null && playing()) since = t;
}

/** The total to send with a change of the game (the server stores it, within its own count). */
export function report() {
  stir(); // asking for a change is an action
  const value = played();
  sent = { id: S.view?.id, value };
  return Math.round(value * 10) / 10;
}

/** A view arrived: count on from the time the server stored, plus what was counted since it was reported. */
function adopted(view) {
  const t = now();
  if (view.id !== gameId) {
    keep(); // the game leaving the table: what was counted on it since its last change waits for its return
    gameId = view.id;
    counted = Math.max(view.elapsed_seconds, kept(view));
    since = null;
    sent = null;
    lastInput = t;
  } else if (view.version !== version) {
    const since_report = sent && sent.id === view.id ? Math.max(0, played() - sent.value) : 0;
    counted = view.elapsed_seconds + since_report;
    since = since === null ? null : t;
    sent = null;
  }
  version = view.version;
  if (!atStake(view)) since = null;
  else if (since === null && playing() && t <= lastInput + IDLE_MS) since = t;
}

const KEPT_KEY = "tableaux.clock";
const KEPT_GAMES = 20; // the games whose time is kept: the most recently left

/** The kept times, by game id: {version, seconds, at}. An older page kept one game, as {id, version, seconds}. */
function keptTimes() {
  try {
    const k = JSON.parse(localStorage.getItem(KEPT_KEY) || "null");
    if (!k || typeof k !== "object") return {};
    return typeof k.id === "string" ? { [k.id]: { version: k.version, seconds: k.seconds, at: 0 } } : k;
  } catch {
    return {};
  }
}

/** Before the tab unloads or hides, or another game takes the table: the time counted on the game since its last
 * change, for its next opening here. */
function keep() {
  if (gameId === null) return;
  const times = keptTimes();
  times[gameId] = { version, seconds: played(), at: Date.now() };
  const newest = Object.keys(times).sort((a, b) => (times[b].at || 0) - (times[a].at || 0)).slice(0, KEPT_GAMES);
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify(Object.fromEntries(newest.map((id) => [id, times[id]]))));
  } catch {
    // no storage (a private window's quota): the game counts from its last change, as the server has it
  }
}

/** The time counted for `view` when it was last open here, if the game has not changed since; else 0. */
function kept(view) {
  const k = keptTimes()[view.id];
  return k && k.version === view.version && Number.isFinite(k.seconds) ? k.seconds : 0;
}

export function wireClock() {
  onView(adopted);
  for (const type of ["pointerdown", "pointermove", "keydown", "wheel", "touchstart"]) {
    window.addEventListener(type, stir, { passive: true, capture: true });
  }
  window.addEventListener("blur", () => {
    stop();
    focused = false;
  });
  window.addEventListener("focus", () => {
    focused = true;
    stir();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") stir();
    else {
      stop();
      keep();
    }
  });
  window.addEventListener("pagehide", keep);
}
