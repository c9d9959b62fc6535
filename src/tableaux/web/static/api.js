// Talking to the server. Every answer is JSON; errors carry {"error": "..."} (and a view on 409).
// Each request says which language the page speaks, so what the server writes (hints, refusals) matches.

import { lang, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, data) {
    super((data && data.error) || t("the server answered {status}", { status }));
    this.status = status;
    this.data = data;
  }
}

export async function call(method, url, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json", "Accept-Language": lang() } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (err) {
    throw new ApiError(0, { error: t("cannot reach the game server ({error}); is it still running?", { error: err.message }) });
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
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
  move: (id, move, version, played) => call("POST", `/api/games/${id}/moves`, { move, version, played }),
  action: (id, what, version, played) => call("POST", `/api/games/${id}/${what}`, { version, played }),
  hint: (id, mode = "fair", played = undefined) => call("POST", `/api/games/${id}/hint`, { mode, played }),
  chance: (id) => call("GET", `/api/games/${id}/chance`),
  giveUp: (id, version, played) => call("POST", `/api/games/${id}/give-up`, { version, played }),
  lost: (id) => call("GET", `/api/games/${id}/lost`),
  rewind: (id, version, keep, played) => call("POST", `/api/games/${id}/rewind`, { version, keep, played }),
  solution: (id, version) => call("POST", `/api/games/${id}/solution`, { version }),
  stats: () => call("GET", "/api/stats"),
  resetStats: (game) => call("POST", "/api/stats/reset", { game: game ?? null, confirm: true }),
};
