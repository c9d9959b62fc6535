// Fair play on the page: the chance to win on the status line, giving up, and where a lost game was lost.
// The server works everything out (tableaux.fair, in its solver pool); this only asks and shows.

import { api, ApiError } from "./api.js";
import { shortLabel } from "./games.js";
import { t, tn } from "./i18n.js";
import { hintMode, onSettingChange } from "./settings.js";
import { $, adopt, announce, board, button, enqueue, notice, S } from "./state.js";

const CHANCE_DELAY_MS = 300; // after a burst of moves (auto-home), ask once, for the last position

// ---------------------------------------------------------------- the chance to win
let chanceTimer = 0;
let asked = null; // "id:version" of the request in flight

/** Ask for the chance of the view now shown, in the background: moves never wait for it. */
function refreshChance(view) {
  const stat = $("chance-stat");
  window.clearTimeout(chanceTimer);
  if (view.won || view.given_up) {
    stat.hidden = true;
    return;
  }
  stat.hidden = false;
  const key = `${view.id}:${view.version}`;
  if ($("chance").dataset.key === key) return; // already shown for this position
  $("chance").dataset.state = "working";
  stat.classList.add("stale");
  chanceTimer = window.setTimeout(async () => {
    if (asked === key) return;
    asked = key;
    const started = performance.now();
    let chance;
    try {
      chance = await api.chance(view.id);
    } catch (err) {
      asked = null;
      if (S.view && `${S.view.id}:${S.view.version}` === key) {
        $("chance").dataset.state = "busy";
        $("chance").textContent = "…";
        stat.title = err instanceof ApiError && err.status === 503
          ? t("The solver is busy; the chance is worked out again after your next move.")
          : t("The chance to win could not be worked out: {error}", { error: err.message });
      }
      return;
    }
    asked = null;
    // A late answer for an older position (or another game) is dropped: the newer one is on its way.
    if (!S.view || S.view.id !== view.id || S.view.version !== chance.version) return;
    showChance(chance, key, performance.now() - started);
  }, CHANCE_DELAY_MS);
}

function percent(x) {
  return `${Math.round(x * 100)}%`;
}

function showChance(chance, key, ms) {
  const stat = $("chance-stat");
  const value = $("chance");
  value.textContent = percent(chance.share);
  value.dataset.key = key;
  value.dataset.state = "done";
  value.dataset.ms = String(Math.round(ms));
  stat.classList.remove("stale");
  const undecided = chance.samples - chance.decided;
  const counts = { won: chance.winnable, undecided, low: percent(chance.low), high: percent(chance.high) };
  const meaning = undecided
    ? tn("The chance that the cards you have not seen lie in a way that can still be won: the solver won "
      + "{won} of {n} layout of the hidden cards that fit everything you have seen ({undecided} undecided); "
      + "95% interval {low}–{high}.",
    "The chance that the cards you have not seen lie in a way that can still be won: the solver won "
      + "{won} of {n} layouts of the hidden cards that fit everything you have seen ({undecided} undecided); "
      + "95% interval {low}–{high}.", chance.samples, counts)
    : tn("The chance that the cards you have not seen lie in a way that can still be won: the solver won "
      + "{won} of {n} layout of the hidden cards that fit everything you have seen; 95% interval {low}–{high}.",
    "The chance that the cards you have not seen lie in a way that can still be won: the solver won "
      + "{won} of {n} layouts of the hidden cards that fit everything you have seen; 95% interval {low}–{high}.",
    chance.samples, counts);
  const bound = t("It never looks at the face-down cards themselves. It is an upper bound for a player who "
    + "doesn't peek: you must choose moves before the hidden cards show, so you may win less often than this.");
  stat.title = `${meaning} ${bound}`;
}

// ---------------------------------------------------------------- giving up, and where it was lost
/** Ask before giving up; the answer is true for yes. Uses the page's confirmation dialog. */
export function ask(text, yes) {
  const dialog = $("confirm-dialog");
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.showModal();
  });
}

export async function giveUp() {
  const v = S.view;
  if (!v || v.won || v.given_up) return;
  const question = t("Give this game up? It counts as lost; then you see where it could still have been won.");
  const yes = t("Yes, give up");
  if (!(await ask(question, yes))) return;
  enqueue(async () => {
    adopt(await api.giveUp(S.view.id, S.view.version));
    announce(t("Game given up."));
  });
}

const lostAnswers = new Map(); // "id:version" -> the server's verdict (a finished game's verdict never changes)

/** Under the "no move left" or "given up" message: where the game could still have been won. */
async function showWhereLost(view) {
  const finished = (view.over || view.given_up) && !view.won;
  if (!finished) return;
  const key = `${view.id}:${view.version}`;
  const line = document.createElement("div");
  line.id = "where-lost";
  line.className = "where-lost";
  $("message").append(line);
  let lost = lostAnswers.get(key);
  if (!lost) {
    line.textContent = t("Looking for where the game was lost…");
    try {
      lost = await api.lost(view.id);
    } catch (err) {
      line.textContent = err instanceof ApiError && err.status === 503
        ? t("The solver is busy: where the game was lost could not be worked out now.")
        : t("Where the game was lost could not be worked out: {error}", { error: err.message });
      return;
    }
    lostAnswers.set(key, lost);
  }
  if (!S.view || S.view.id !== view.id || S.view.version !== lost.version) return;
  line.replaceChildren();
  if (lost.verdict === "lost") {
    const n = lost.move_index + 1;
    const where = { n, move: lost.move, last: lost.last_possible + 1 };
    const text = lost.certain
      ? t("You could still have won until move {n} ({move}).", where)
      : t("You could still have won until move {n} ({move}) or a little later (by move {last}).", where);
    const back = t("Go back to before move {n}", { n });
    line.append(text + " ", button("lost-rewind", back, () => rewind(lost.move_index)));
  } else if (lost.verdict === "winnable") {
    const back = t("Go back and play on");
    line.append(t("This position can still be won.") + " ", button("lost-rewind", back, () => rewind(view.moves)));
  } else if (lost.verdict === "never") {
    line.append(t("This deal could not be won from the start, whatever you played."));
  } else {
    line.append(t("The solver could not work out where the game was lost within its budget."));
  }
  line.append(" " + t("(The solver looked at every card: the game is over.) Going back counts the game as assisted."));
}

function rewind(keep) {
  enqueue(async () => {
    adopt(await api.rewind(S.view.id, S.view.version, keep));
    notice(t("Back to where the game could still be won. This game now counts as assisted in the statistics."),
      { sticky: true });
    announce(t("Back to move {n}.", { n: keep }));
  });
}

// ---------------------------------------------------------------- hint mode and pile labels
/** The hint button says when its hints peek at the face-down cards (the "Hints" setting). */
function renderHintButton() {
  const peek = hintMode() === "peek";
  $("hint").textContent = peek ? t("Hint (peeking)") : t("Hint");
  $("hint").title = peek
    ? t("Hint (h), peeking: the solver looks at the face-down cards")
    : t("Hint (h): from the cards you have seen only");
}

/** Each pile carries its notation label; the style sheet shows it when the "Pile labels" setting is on. */
export function labelPiles(view) {
  if (!view) return;
  for (const pile of board.querySelectorAll("[data-pile]")) {
    pile.dataset.label = shortLabel(view.game, pile.dataset.pile);
  }
}

export function wireFair() {
  S.adopted.push(refreshChance, showWhereLost, labelPiles, (view) => {
    $("give-up").disabled = view.won || view.given_up;
  });
  $("give-up").addEventListener("click", giveUp);
  onSettingChange((key) => {
    if (key === "hintMode") renderHintButton();
  });
  renderHintButton();
}
