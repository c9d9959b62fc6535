// Installing the page as an app, and the screen it shows when the game server cannot be reached.
//
// The service worker (/sw.js, built by tableaux.web.pwa) keeps the page's own files, never an answer of the
// API: the cards a player has not turned up stay on the server. When the page cannot reach the server as it
// starts (no network, the server down, or an answer that it is unavailable for a while: 502, 503, 504), it
// shows the offline screen, which tries again by itself (after the server's Retry-After when it sends one)
// and reloads the page once the server answers.

import { ApiError } from "./api.js";
import { t } from "./i18n.js";

const UNREACHABLE = [0, 502, 503, 504];
const FIRST_WAIT = 2; // s: then twice as long each time, up to LONGEST_WAIT
const LONGEST_WAIT = 30;
const MOST_SERVER_WAIT = 300; // s: a Retry-After longer than this is not waited out in full

/** Register the service worker, where the browser has them (an http://localhost page counts as secure). */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js").catch(() => {
    // no worker: the page works as before, without the files kept for a quick start
  });
}

/** Run `task` (the page's start); if it fails because the server cannot be reached, show the offline screen. */
export async function whenReachable(task) {
  try {
    await task();
  } catch (err) {
    if (!(err instanceof ApiError) || !UNREACHABLE.includes(err.status)) throw err;
    showOffline(err.status);
  }
}

/** Seconds to wait from a Retry-After header (seconds, or an HTTP date), or null without a usable one. */
export function retryAfter(header) {
  if (!header) return null;
  const seconds = /^\s*\d+\s*$/.test(header) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  if (!Number.isFinite(seconds)) return null;
  return Math.min(MOST_SERVER_WAIT, Math.max(1, Math.ceil(seconds)));
}

function showOffline(status) {
  const dialog = document.getElementById("offline-dialog");
  const wait = document.getElementById("offline-wait");
  const retry = document.getElementById("offline-retry");
  let backoff = FIRST_WAIT;
  let timer = 0;
  let probing = false;

  const describe = (code) => {
    const busy = code === 503;
    document.getElementById("offline-title").textContent = busy
      ? t("The game is unavailable for a moment")
      : t("The game server cannot be reached");
    document.getElementById("offline-text").textContent = busy
      ? t("The server is up but cannot use its saved games just now. Your games are safe; this page tries again by itself.")
      : t("Check the connection, or whether the server is still running. Your games are kept on the server; this page tries again by itself.");
  };

  const countdown = (seconds) => {
    window.clearTimeout(timer);
    wait.textContent = t("Trying again in {n} s.", { n: seconds });
    if (seconds <= 0) {
      probe();
      return;
    }
    timer = window.setTimeout(() => countdown(seconds - 1), 1000);
  };

  async function probe() {
    if (probing) return;
    probing = true;
    window.clearTimeout(timer);
    wait.textContent = t("Trying again…");
    let answer = null;
    try {
      // An answer that needs the saved games: /api/games/info answers while the database is away.
      answer = await fetch("/api/resume", { cache: "no-store", headers: { Accept: "application/json" } });
    } catch {
      answer = null; // still unreachable
    }
    probing = false;
    if (answer && answer.ok) {
      location.reload();
      return;
    }
    describe(answer ? answer.status : 0);
    const server = answer ? retryAfter(answer.headers.get("Retry-After")) : null;
    const seconds = server ?? backoff;
    backoff = Math.min(LONGEST_WAIT, backoff * 2);
    countdown(seconds);
  }

  describe(status);
  retry.addEventListener("click", probe);
  dialog.addEventListener("cancel", (event) => event.preventDefault()); // the page cannot work without the server
  window.addEventListener("online", probe);
  dialog.showModal();
  retry.focus();
  probe();
}
