// The browser game: wiring the page's controls to what they do, and nothing else. The page is split along its
// own seams: store.js (the page's state and its setters), render.js (drawing a view), dom.js (the page's fixed
// parts), actions.js (requests to the server), input.js (mouse and touch), keyboard.js (the keys), start.js
// (opening the page), dialogs.js (rules, statistics), race.js (the daily race's leaderboard); board.js and
// cards.js draw the table from the server's game info.

import { act, newGame, restart, resume, showHint, wireAutoHome } from "./actions.js";
import { wireClock } from "./clock.js";
import { wireConfirm } from "./confirm.js";
import { openDaily, startNewGame, wireDaily } from "./daily.js";
import { closeFromOutside, confirmReset, openDialog, openRules, openStats } from "./dialogs.js";
import { $, board, notice, onBackToPlay, onChosen } from "./dom.js";
import { wireFair } from "./fair.js";
import { wireFinish } from "./finish.js";
import { chooseLanguage, refocusAfterReload } from "./i18n.js";
import { keepDrag, onPointerDown, onPointerMove, onPointerUp } from "./input.js";
import { focusedPlace, focusTable, onClick, onKeyDown, restoreFocus } from "./keyboard.js";
import { fitToolbar, initMenu, watchRoom } from "./layout.js";
import { registerWorker, whenReachable } from "./pwa.js";
import { openRace, wireRace } from "./race.js";
import { fitTable, reportError, tickClock } from "./render.js";
import { initSettings, onSettingChange } from "./settings.js";
import { wireSolution } from "./solution.js";
import { openTypedDeal, start } from "./start.js";
import { enqueue, onActionError, onView, S, setFocus } from "./store.js";
import { welcomeOnFirstVisit } from "./welcome.js";

function wire() {
  onBackToPlay(focusTable);
  onActionError(reportError);
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("click", onClick);
  window.addEventListener("pointermove", onPointerMove);
  window.addEventListener("pointerup", onPointerUp);
  window.addEventListener("pointercancel", onPointerUp);
  board.addEventListener("focusin", () => {
    const place = focusedPlace();
    if (place) setFocus(place);
  });
  onView((_view, _before, { hadFocus }) => {
    if (hadFocus) restoreFocus();
    keepDrag();
  });
  document.addEventListener("keydown", onKeyDown);
  $("notice").addEventListener("click", (event) => {
    if (!event.target.closest("details")) notice(""); // a click on the notice puts it away, but for its "Why?"
  });
  $("new-game").addEventListener("click", () => enqueue(() => startNewGame($("game-select").value)));
  onChosen($("lang-select"), () => chooseLanguage($("lang-select").value));
  onChosen($("game-select"), () => enqueue(() => resume($("game-select").value)));
  $("deal-form").addEventListener("submit", (event) => {
    event.preventDefault();
    openTypedDeal();
  });
  $("undo").addEventListener("click", () => enqueue(() => act("undo")));
  $("redo").addEventListener("click", () => enqueue(() => act("redo")));
  $("restart").addEventListener("click", () => enqueue(restart));
  $("hint").addEventListener("click", () => enqueue(showHint));
  $("daily-button").addEventListener("click", () => enqueue(() => openDaily($("game-select").value)));
  $("rules-button").addEventListener("click", () => openRules($("rules-button")));
  for (const id of ["rules-dialog", "stats-dialog", "settings-dialog"]) closeFromOutside($(id));
  $("stats-button").addEventListener("click", () => enqueue(() => openStats($("stats-button"))));
  $("stats-reset").addEventListener("click", confirmReset);
  $("settings-button").addEventListener("click", () => openDialog($("settings-dialog"), $("settings-button")));
  // The banner's buttons (render.js draws them with the ended game). The banner goes with the game, and the
  // keyboard goes to the table rather than to the page.
  const thenTable = (work) => enqueue(async () => {
    await work();
    focusTable();
  });
  $("message").addEventListener("click", (event) => {
    const id = event.target.closest("button")?.id;
    if (id === "message-new") thenTable(() => startNewGame(S.view.game, { ask: false }));
    else if (id === "message-again") thenTable(() => newGame(S.view.game, S.view.deal));
    else if (id === "message-undo") thenTable(() => act("undo"));
    else if (id === "share-race") enqueue(() => openRace(event.target.closest("button")));
  });
  initMenu();
  wireAutoHome();
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
  window.setInterval(tickClock, 1000);
}

initSettings();
wire();
wireClock();
wireConfirm();
wireFair();
wireFinish();
wireSolution();
wireDaily();
wireRace();
registerWorker();
enqueue(() => whenReachable(async () => {
  await start();
  welcomeOnFirstVisit();
  refocusAfterReload();
}));
