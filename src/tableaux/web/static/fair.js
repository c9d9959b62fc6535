// Fair play on the page: the chance to win on the status line, giving up, and where a lost game was lost.
// The server works everything out (tableaux.advice.fair, in its solver pool); this only asks and shows.

import { api, ApiError } from "./api.js";
import { report } from "./clock.js";
import { ask } from "./confirm.js";
import { $, announce, button, notice } from "./dom.js";
import { pileCalled } from "./games.js";
import { percent, t, tn } from "./i18n.js";
import { hintMode, onSettingChange } from "./settings.js";
import { adopt, cardsName, place } from "./render.js";
import { enqueue, onPlaying, onView, S } from "./store.js";

const CHANCE_DELAY_MS = 300; // after a burst of moves (auto-home), ask once, for the last position

// ---------------------------------------------------------------- the chance to win
// "Winnable as far as seen: 89%": the share of possible layouts of the unseen cards that a solver seeing every card
// wins. It is named for what it is, and a tap (or a click, or Enter) on it opens what it means: a player who
// does not peek wins less often, much less at the start of a deal.
let chanceTimer = 0;
let asked = null; // "id:version" of the request in flight

/** Ask for the chance of the view now shown, in the background: moves never wait for it. */
function refreshChance(view) {
  const stat = $("chance-stat");
  window.clearTimeout(chanceTimer);
  if (view.won || view.given_up) {
    stat.hidden = true;
    $("chance-info").hidePopover();
    return;
  }
  stat.hidden = false;
  const key = `${view.id}:${view.version}`;
  if ($("chance").dataset.key === key) return; // already shown for this position
  stat.classList.add("stale");
  // The last position's figure stays, greyed, until this one's comes; another game's says nothing of this one.
  if (!($("chance").dataset.key || "").startsWith(`${view.id}:`)) $("chance").textContent = "…";
  if (S.playing) {
    // The solver's line is playing: each of its positions would hold a worker of the server's shared solver
    // for a figure nobody has time to read. The position where the line stops gets its chance then.
    $("chance").dataset.state = "waiting";
    explain([t("This figure is worked out again once the solution stops or pauses.")]);
    return;
  }
  $("chance").dataset.state = "working";
  explain([t("Working out which layouts of the cards you have not seen can still be won…")]);
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
        explain([err instanceof ApiError && err.status === 503
          ? t("The solver is busy; this is worked out again after your next move.")
          : t("This could not be worked out: {error}", { error: err.message })]);
      }
      return;
    }
    asked = null;
    // A late answer for an older position (or another game) is dropped: the newer one is on its way.
    if (!S.view || S.view.id !== view.id || S.view.version !== chance.version) return;
    showChance(chance, key, performance.now() - started);
  }, CHANCE_DELAY_MS);
}

/** The explanation the chance opens: one paragraph per text. */
function explain(texts) {
  $("chance-info").replaceChildren(...texts.map((text) => {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  }));
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
  const title = t("Winnable as far as seen: {share}", { share: percent(chance.share) });
  if (chance.known) { // no card left to guess: the solver's verdict on this very position, not a share of layouts
    explain([title, undecided
      ? t("No card is hidden, but the solver could not decide this position within its search.")
      : chance.winnable
        ? t("No card is hidden, so this is the solver's verdict, not an estimate: a winning line starts here.")
        : t("No card is hidden, and the solver has searched every line from here: this position cannot be won.")]);
    if (!undecided && !chance.winnable) { // where it was lost tells no more than this, undo and a hint would
      const line = document.createElement("p");
      line.className = "where-lost";
      const view = S.view;
      line.append(button("chance-where-lost", t("Where was it lost?"), () => whereLostInto(line, view, false)));
      $("chance-info").append(line);
    }
    return;
  }
  const counts = { won: chance.winnable, undecided, level: percent(0.95), low: percent(chance.low),
    high: percent(chance.high) };
  const meaning = undecided
    ? tn("A solver that sees every card wins {won} of {n} possible layout of the cards you have not seen, and "
      + "could not tell for {undecided} of them ({level} interval: {low} to {high}).",
    "A solver that sees every card wins {won} of {n} possible layouts of the cards you have not seen, and "
      + "could not tell for {undecided} of them ({level} interval: {low} to {high}).", chance.samples, counts)
    : tn("A solver that sees every card wins {won} of {n} possible layout of the cards you have not seen "
      + "({level} interval: {low} to {high}).",
    "A solver that sees every card wins {won} of {n} possible layouts of the cards you have not seen "
      + "({level} interval: {low} to {high}).", chance.samples, counts);
  // The figure counts a layout the solver could not tell as not won: more time can only raise it, and the share
  // it estimates (what a solver seeing every card wins) bounds a player who doesn't peek from above.
  const open = undecided ? t("{share} counts those as lost; with more time it could be higher.",
    { share: percent(chance.share) }) : "";
  const bound = t("That is not your chance of winning: you choose your moves before the hidden cards show, so "
    + "you win less often than a solver that sees them. What it wins is an upper bound for a player who doesn't "
    + "peek.");
  const said = [title, ...(S.view?.grade ? [graded(chance)] : []), meaning, ...(open ? [open] : []), bound];
  explain(said);
}

/**
 * A graded deal shows "Winnable" beside a share below 100%: one line says why both are true. The grade is the
 * solver's verdict on this deal, seeing every card; the share counts every way the unseen cards could lie.
 */
function graded(chance) {
  return t("Winnable: the solver, seeing every card, has won this deal. {share} is the share of the ways the cards "
    + "you have not seen could lie that can still be won.", { share: percent(chance.share) });
}

const INFO_WIDTH = 416; // px at most, as style.css says; less on a narrow window

/** The explanation opens just under the figure, inside the window (placed before it shows, so it never jumps). */
function placeExplanation(event) {
  if (event.newState !== "open") return;
  const info = $("chance-info");
  const at = $("chance-stat").getBoundingClientRect();
  const width = Math.min(INFO_WIDTH, window.innerWidth - 16);
  info.style.top = `${Math.round(at.bottom + 6)}px`;
  info.style.left = `${Math.round(Math.max(8, Math.min(at.left, window.innerWidth - width - 8)))}px`;
}

// ---------------------------------------------------------------- giving up, and where it was lost
export async function giveUp() {
  const v = S.view;
  if (!v || v.won || v.given_up) return;
  const title = t("Give this game up?");
  const text = v.assisted // the statistics count an assisted game apart, never as a loss
    ? t("It ends, and is counted separately, as a game played with the solver's help; then you see where it could "
      + "still have been won.")
    : t("It counts as lost; then you see where it could still have been won.");
  if (!(await ask({ title, text, yes: t("Yes, give up") }))) return;
  enqueue(async () => {
    adopt(await api.giveUp(S.view.id, S.view.version, report()));
    notice(""); // what was said of the game in play ("Solution stopped; play on from here.") is over with it
    announce(t("Game given up."));
  });
}

const lostAnswers = new Map(); // "id:version" -> the server's verdict

/** Under the "no move left" or "given up" message: where the game could still have been won. */
function showWhereLost(view) {
  if (!(view.over || view.given_up) || view.won) return;
  const line = document.createElement("div");
  line.id = "where-lost";
  line.className = "where-lost";
  $("message").append(line);
  whereLostInto(line, view, true);
}

/**
 * Where the game was lost, written into `line`: under the banner of a game that has ended, or during play in the
 * chance's explanation, when no card is hidden and the position is lost (the server answers then too).
 */
async function whereLostInto(line, view, finished) {
  const key = `${view.id}:${view.version}`;
  let lost = lostAnswers.get(key); // a position's verdict never changes
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
    const back = t("Go back to before move {n}", { n });
    line.append(losingMove(lost) + " ", button("lost-rewind", back, () => rewind(lost.move_index)));
  } else if (lost.verdict === "winnable") {
    line.append(t("This position can still be won.") + " ");
    if (finished) line.append(button("lost-rewind", t("Go back and play on"), () => rewind(view.moves)));
  } else if (lost.verdict === "never") {
    line.append(t("This deal could not be won from the start, whatever you played."));
  } else {
    line.append(t("The solver could not tell where the game was lost."));
  }
  // Going back costs an unassisted game its standing; a game already assisted has none to lose.
  line.append(" " + (view.assisted ? t("(To tell, the solver looked at every card.)")
    : t("(To tell, the solver looked at every card.) Going back counts the game as assisted.")));
}

/** Where the game was lost, naming the cards the losing move took (pile labels are hidden by default). */
function losingMove(lost) {
  const [, source, target] = /^([^:>]+)(?::\d+)?>(.+)$/.exec(lost.move) ?? [];
  const from = pileCalled(S.view.game, source);
  const to = pileCalled(S.view.game, target);
  const where = { n: lost.move_index + 1, last: lost.last_possible + 1 };
  if (from === "stock") {
    return lost.certain ? t("You could still have won until move {n}, when you dealt from the stock.", where)
      : t("You could still have won until move {n}, when you dealt from the stock, or a little later (by move {last}).",
        where);
  }
  if (to === "stock") {
    return lost.certain ? t("You could still have won until move {n}, when you turned the waste over.", where)
      : t("You could still have won until move {n}, when you turned the waste over, or a little later (by move "
        + "{last}).", where);
  }
  if (!from || !to || !lost.cards?.length) { // a server that names no card: its notation, at least
    return t("You could still have won until move {n} ({move}).", { ...where, move: lost.move });
  }
  const moved = { ...where, cards: cardsName(lost.cards), from: place(from), to: place(to) };
  return lost.certain ? t("You could still have won until move {n}, when you moved the {cards} from {from} to {to}.", moved)
    : t("You could still have won until move {n}, when you moved the {cards} from {from} to {to}, or a little later "
      + "(by move {last}).", moved);
}

function rewind(keep) {
  if ($("chance-info").matches(":popover-open")) $("chance-info").hidePopover();
  enqueue(async () => {
    adopt(await api.rewind(S.view.id, S.view.version, keep, report()));
    notice(t("Back to where the game could still be won. This game now counts as assisted in the statistics."),
      { sticky: true });
    announce(t("Back to move {n}.", { n: keep }));
  });
}

// ---------------------------------------------------------------- hint mode
/** The hint button says when its hints peek at the face-down cards (the "Hints" setting). */
function renderHintButton() {
  const peek = hintMode() === "peek";
  $("hint").textContent = peek ? t("Hint (peeking)") : t("Hint");
  $("hint").title = peek
    ? t("Hint (h), peeking: the solver looks at the face-down cards")
    : t("Hint (h): from the cards you have seen only");
}

export function wireFair() {
  onView(refreshChance);
  onPlaying(() => {
    if (S.view) refreshChance(S.view); // a request still waiting is dropped once the line plays
  });
  onView(showWhereLost);
  onView((view) => {
    $("give-up").disabled = view.won || view.given_up;
  });
  $("give-up").addEventListener("click", giveUp);
  $("chance-info").addEventListener("beforetoggle", placeExplanation);
  $("chance-info").addEventListener("toggle", (event) => {
    $("chance-stat").setAttribute("aria-expanded", String(event.newState === "open")); // said, not only drawn
  });
  onSettingChange((key) => {
    if (key === "hintMode") renderHintButton();
  });
  renderHintButton();
}
