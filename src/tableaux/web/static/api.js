// Talking to the server. Every answer is JSON; errors carry {"error": "..."} (and a view on 409).
// Each request says which language the page speaks, so what the server writes (hints, refusals) matches.
//
// Each change (a POST other than a hint) carries an Idempotency-Key made for it. When the server cannot be
// reached, or answers that its database is away (503 with cause "database" or "disk"), the page shows a
// banner and sends the same change again, with the same key, after the Retry-After the server asked for:
// a change whose first try was stored is answered with what it did, never applied twice, so nothing the
// player did is lost or made twice, and nothing else is sent meanwhile (the page's actions wait in line).
// A read that fails so is not sent again here: the page's start shows its offline screen then (pwa.js).
//
// A question the player asked for by name (the solution, where a game was lost) is asked again while the
// solver's workers are all busy (503 with cause "solver"), for up to `solverWait` seconds: the server refuses
// rather than queue, so that no client can hold a worker in reserve, and the player who clicked once should
// not have to click again because another game's search was running.

import { lang, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, data) {
    // The API's messages are clauses ("a display name of length 1 is not accepted; ..."), as a command line's are;
    // the page shows them as sentences.
    const text = (data && data.error) || t("the server answered {status}", { status });
    super(text.charAt(0).toUpperCase() + text.slice(1));
    this.status = status;
    this.data = data;
  }
}

const FIRST_WAIT = 1; // seconds before the first retry when the server gave no Retry-After
const LONGEST_WAIT = 10; // seconds between retries, at most
const PROXY_DOWN = new Set([502, 504]); // a proxy in front of the server that could not reach it
const SOLVER_WAIT = 30; // seconds a question the player asked for waits for a free solver worker, at most

/** A fresh request id (crypto.getRandomValues works on plain http too, unlike crypto.randomUUID). */
export function requestId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

let banner = null;
function outage(text) {
  if (!text) {
    if (banner) banner.hidden = true;
    return;
  }
  if (!banner) {
    banner = document.createElement("div");
    banner.className = "outage";
    banner.setAttribute("role", "status");
    document.body.prepend(banner);
  }
  banner.textContent = text;
  banner.hidden = false;
}

/** Whether an answer (or its absence: status 0) means "try the same request again later". */
function passing(status, data) {
  if (status === 0 || PROXY_DOWN.has(status)) return true;
  return (status === 503 || status === 507) && data && (data.cause === "database" || data.cause === "disk");
}

function waitFor(seconds) {
  return new Promise((resolve) => window.setTimeout(resolve, seconds * 1000));
}

async function once(method, url, options) {
  let response;
  try {
    response = await fetch(url, { ...options, method });
  } catch (err) {
    // The browser's own words ("Failed to fetch") are in its language, not the page's, and tell a player nothing
    // more: they go to the console.
    console.warn(err);
    return { status: 0, data: { error: t("The game server cannot be reached. Is it still running? Try again in a moment.") } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  const after = Number(response.headers.get("retry-after"));
  return { status: response.status, data, ok: response.ok, retryAfter: Number.isFinite(after) && after > 0 ? after : 0 };
}

/** Whether an answer says the solver's workers were all busy (nothing was changed: ask again shortly). */
function solverBusy(status, data) {
  return status === 503 && data && data.cause === "solver";
}

export async function call(method, url, body, { change = method === "POST", solverWait = 0 } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  const options = { credentials: "same-origin", headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  if (change) headers["Idempotency-Key"] = requestId(); // the same key on every retry of this change
  let wait = FIRST_WAIT;
  let solverWaited = 0;
  for (;;) {
    const { status, data, ok, retryAfter } = await once(method, url, options);
    if (ok) {
      outage("");
      return data;
    }
    if (solverBusy(status, data) && solverWaited < solverWait) {
      const pause = Math.min(retryAfter || FIRST_WAIT, solverWait - solverWaited);
      solverWaited += pause;
      await waitFor(pause);
      continue;
    }
    if (!change || !passing(status, data)) {
      outage("");
      throw new ApiError(status, data);
    }
    const text = status === 0 || PROXY_DOWN.has(status)
      ? t("The game server cannot be reached just now. Your earlier moves are safe; trying again…")
      : t("The game server cannot reach its saved games just now. Your earlier moves are safe; trying again…");
    outage(text);
    await waitFor(retryAfter || wait);
    wait = Math.min(wait * 2, LONGEST_WAIT);
  }
}

export const api = {
  gameInfo: () => call("GET", "/api/games/info"),
  current: (game) => call("GET", game ? `/api/current?game=${encodeURIComponent(game)}` : "/api/current"),
  // Like current, but "nothing to resume" is {view: null}, not a 404 (which a browser logs as an error).
  resume: (game) => call("GET", game ? `/api/resume?game=${encodeURIComponent(game)}` : "/api/resume"),
  create: (game, deal, options = {}) => call("POST", "/api/games", { game, deal: deal ?? null, ...options }),
  daily: (game) => call("POST", "/api/daily", { game }),
  get: (id) => call("GET", `/api/games/${id}`),
  // `played`: the game's time played as the page counts it (clock.js), sent with every change of the game.
  // `by`: "solution" for a move of the solver's line (solution.js), else the player's (the default).
  move: (id, move, version, played, by = "player") =>
    call("POST", `/api/games/${id}/moves`, { move, version, played, by }),
  action: (id, what, version, played) => call("POST", `/api/games/${id}/${what}`, { version, played }),
  // Why the rules refuse moving `count` cards from `source` to `target` now: {move, reason}, reason null if legal.
  refusal: (id, source, count, target) =>
    call("GET", `/api/games/${id}/refusal?${new URLSearchParams({ source, count, target })}`),
  hint: (id, mode = "fair", played = undefined) => call("POST", `/api/games/${id}/hint`, { mode, played }, { change: false }),
  chance: (id) => call("GET", `/api/games/${id}/chance`),
  giveUp: (id, version, played) => call("POST", `/api/games/${id}/give-up`, { version, played }),
  lost: (id) => call("GET", `/api/games/${id}/lost`, undefined, { solverWait: SOLVER_WAIT }),
  rewind: (id, version, keep, played) => call("POST", `/api/games/${id}/rewind`, { version, keep, played }),
  solution: (id, version, played) => call("POST", `/api/games/${id}/solution`, { version, played },
    { solverWait: SOLVER_WAIT }),
  stats: () => call("GET", "/api/stats"),
  // The daily race (race.js): today's leaderboard of `game`'s daily deal, and the player's display name.
  leaderboard: (game) => call("GET", `/api/daily/leaderboard?game=${encodeURIComponent(game)}`),
  setName: (name) => call("PUT", "/api/name", { name }, { change: true }),
  resetStats: (game) => call("POST", "/api/stats/reset", { game: game ?? null, confirm: true }, { change: false }),
};
