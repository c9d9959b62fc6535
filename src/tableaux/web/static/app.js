// The browser game: loading the page, and wiring the controls to the actions. The page is split along
// its own seams: state.js (state and rendering), actions.js (requests to the server), input.js (mouse,
// touch and keyboard) and dialogs.js (rules, statistics); board.js and cards.js draw the table.

import { api } from "./api.js";
import { act, autoHome, newGame, resume, showHint } from "./actions.js";
import { refit, renderBoard } from "./board.js";
import { gameInfo, games, maxDeal, setGameInfo } from "./games.js";
import { dailyRequested, openDaily, startNewGame, wireDaily } from "./daily.js";
import { confirmReset, openDialog, openRules, openStats } from "./dialogs.js";
import { chooseLanguage, lang, languages, loadLanguage, t } from "./i18n.js";
import { labelPiles, wireFair } from "./fair.js";
import { wireSolution } from "./solution.js";
import { focusedPlace, onKeyDown, onPointerDown, onPointerMove, onPointerUp, restoreFocus } from "./input.js";
import { fitToolbar, initMenu, watchRoom } from "./layout.js";
import { registerWorker, whenReachable } from "./pwa.js";
import { initSettings, onSettingChange, renderSettings } from "./settings.js";
import { $, above, adopt, board, decorate, elapsed, enqueue, formatTime, notice, S } from "./state.js";
import { welcomeOnFirstVisit } from "./welcome.js";

Object.assign(above, { act, newGame, restoreFocus });

function parseDeal(text) {
  if (text == null || text === "") return null;
  if (!/^\d+$/.test(text.trim()) || Number(text) > maxDeal()) return undefined;
  return Number(text);
}

async function start() {
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
  }
  if (deal === undefined) {
    warning += t("\"{text}\" is not a deal number; deals are whole numbers from 0 to {max}.",
      { text: query.get("deal"), max: maxDeal() });
    deal = null;
  }
  if (dailyRequested()) await openDaily(game || games()[0].name);
  else await open(game, deal);
  if (warning) notice(warning.trim(), { sticky: true });
}

/** Open what a link asks for: that deal (resumed if it is the game in progress), else the current game. */
async function open(game, deal) {
  if (deal != null && !game) game = games()[0].name; // a bare deal number means the first game
  if (game && deal != null) {
    const { view } = await api.resume(game);
    if (view && view.deal === deal) {
      adopt(view);
      return;
    }
    await newGame(game, deal);
    return;
  }
  await resume(game);
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

function wire() {
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerUp);
  board.addEventListener("focusin", () => {
    const place = focusedPlace();
    if (place) S.focus = place;
  });
  document.addEventListener("keydown", onKeyDown);
  $("notice").addEventListener("click", () => notice(""));
  $("new-game").addEventListener("click", () => enqueue(() => startNewGame($("game-select").value)));
  $("lang-select").addEventListener("change", () => chooseLanguage($("lang-select").value));
  $("game-select").addEventListener("change", () => enqueue(() => resume($("game-select").value)));
  $("deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const deal = parseDeal($("deal-input").value);
    if (deal == null) {
      notice(t("Type a deal number from 0 to {max}.", { max: maxDeal() }));
      return;
    }
    enqueue(() => newGame($("game-select").value, deal));
  });
  $("undo").addEventListener("click", () => enqueue(() => act("undo")));
  $("redo").addEventListener("click", () => enqueue(() => act("redo")));
  $("restart").addEventListener("click", () => enqueue(() => act("restart")));
  $("hint").addEventListener("click", () => enqueue(showHint));
  $("rules-button").addEventListener("click", openRules);
  $("stats-button").addEventListener("click", () => enqueue(openStats));
  $("stats-reset").addEventListener("click", confirmReset);
  $("settings-button").addEventListener("click", () => openDialog($("settings-dialog")));
  initMenu();
  const auto = $("auto-home");
  auto.checked = localStorage.getItem("tableaux.autoHome") === "1";
  auto.addEventListener("change", () => {
    localStorage.setItem("tableaux.autoHome", auto.checked ? "1" : "0");
    if (auto.checked && S.view) enqueue(autoHome);
  });
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(() => {
      fitToolbar();
      fitTable();
    }, 60);
  });
  onSettingChange((key) => {
    if (key === "text") fitToolbar();
    if (key === "cardSize" || key === "face" || key === "pileLabels") fitTable();
  });
  // The toolbar and status line can change height (larger text, a status line that wraps), and a notice
  // or the solution's controls can float up over the table: refit then.
  watchRoom(fitTable);
  window.setInterval(() => {
    if (S.view) $("time").textContent = formatTime(elapsed());
  }, 1000);
}

/** Size the table for the window again; draw it anew when its shape changed (the phone was turned). */
function fitTable() {
  if (!S.view || refit(board, S.view)) return;
  renderBoard(board, S.view);
  decorate();
  labelPiles(S.view);
}

initSettings();
wire();
wireFair();
wireSolution();
wireDaily();
registerWorker();
enqueue(() => whenReachable(async () => {
  await start();
  welcomeOnFirstVisit();
}));

