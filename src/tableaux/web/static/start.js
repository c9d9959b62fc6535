// Opening the page: its language and the server's game info first, then what the address asks for (a game and
// deal, the daily deal) or the player's game in progress, of the game on the table when the page was last open.
// What a typed deal number may be comes from the server's game info too (its highest deal).

import { newGame, resume } from "./actions.js";
import { api } from "./api.js";
import { mayLeave } from "./confirm.js";
import { dailyRequested, openDaily, openDeal } from "./daily.js";
import { $, notice } from "./dom.js";
import { gameInfo, games, maxDeal, setGameInfo } from "./games.js";
import { lang, languages, loadLanguage, t } from "./i18n.js";
import { fitToolbar } from "./layout.js";
import { adopt } from "./render.js";
import { enqueue, onView } from "./store.js";
import { renderSettings } from "./settings.js";

/** A deal number typed or in the address: null for none, undefined for text that is not a deal. */
export function parseDeal(text) {
  if (text == null || text === "") return null;
  if (!/^\d+$/.test(text.trim()) || Number(text) > maxDeal()) return undefined;
  return Number(text);
}

export async function start() {
  await loadLanguage();
  renderSettings(); // again, now in the page's language
  fillLanguageSelect();
  const query = new URLSearchParams(location.search);
  setGameInfo(await api.gameInfo());
  $("deal-input").max = String(maxDeal());
  fillGameSelect();
  fitToolbar(); // the row's width depends on the language and the game titles
  let game = query.get("game");
  let deal = parseDeal(query.get("deal"));
  let warning = "";
  if (game && !gameInfo(game)) {
    const names = games().map((g) => g.name).join(", ");
    warning = t("There is no game called \"{game}\"; the games are {names}.", { game, names }) + " ";
    game = null;
    deal = null; // a deal of no game: not the first game's deal of that number
  }
  if (deal === undefined) {
    warning += t("\"{text}\" is not a deal number; deals are whole numbers from 0 to {max}.",
      { text: query.get("deal"), max: maxDeal() });
    deal = null;
  }
  onView((view) => localStorage.setItem(GAME_KEY, view.game));
  onView(showOpenDeal);
  if (dailyRequested()) await openDaily(game || games()[0].name, { ask: false });
  else await open(game, deal);
  if (warning) notice(warning.trim(), { sticky: true });
}

/**
 * Open what a link asks for: that deal (resumed if it is the game in progress), else the current game. A link to
 * another deal of a game in progress (a shared link, a bookmark, the browser's Back button) shows that game and
 * asks before leaving it, as the New game button does.
 */
async function open(game, deal) {
  if (deal != null && !game) game = games()[0].name; // a bare deal number means the first game
  if (game && deal != null) {
    const { view } = await api.resume(game);
    if (view) adopt(view);
    if (view && view.deal === deal) return;
    if (await mayLeave("deal", deal)) await newGame(game, deal);
    return;
  }
  await resume(game || lastGame());
}

const GAME_KEY = "tableaux.game";

/** The game on the table when the page was last open (each game keeps its own game in progress), if any. */
function lastGame() {
  const name = localStorage.getItem(GAME_KEY);
  return name && gameInfo(name) ? name : null;
}

/** The game menu lists the games the server offers, by their titles. */
function fillGameSelect() {
  const select = $("game-select");
  select.replaceChildren(...games().map((g) => new Option(g.title, g.name)));
}

/** The language menu: every language the server has a catalogue for, by its own name. */
function fillLanguageSelect() {
  const select = $("lang-select");
  select.replaceChildren(...languages().map((l) => new Option(l.name, l.code)));
  select.value = lang();
}

/**
 * The deal field shows the deal on the table, however it got there (the daily deal, a new game, another game
 * chosen), not a number typed earlier: a number that was typed and never opened is not the deal being played.
 * While the player is typing in it, a new position of the same deal (a move of the solution) leaves it be.
 */
function showOpenDeal(view, before) {
  const field = $("deal-input");
  const sameDeal = before && before.game === view.game && before.deal === view.deal;
  if (document.activeElement === field && sameDeal) return;
  field.value = String(view.deal);
}

/** The deal form: open the deal number typed, or say which numbers are deals. */
export function openTypedDeal() {
  const deal = parseDeal($("deal-input").value);
  if (deal == null) {
    notice(t("Type a deal number from 0 to {max}.", { max: maxDeal() }));
    return;
  }
  enqueue(() => openDeal($("game-select").value, deal));
}
