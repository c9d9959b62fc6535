// Asking before something that cannot be taken back: resetting the statistics, giving up, leaving a game in progress
// for another deal (which counts it as lost, as AisleRiot counts it), the solution shown (which makes the game
// assisted) and a peeking hint that takes a daily deal off the day's leaderboard. One small modal dialog: a screen
// reader hears it as an alert dialog, with its question as its name and what follows as its description; the
// keyboard stays in it (Tab and Shift+Tab go round its buttons); Escape keeps things as they are; Enter presses the
// focused button, which is always the one that keeps things as they are: Enter also picks up and drops cards, so a
// stray N and Enter must not throw a game away.

import { $, focusBack } from "./dom.js";
import { raceOn } from "./games.js";
import { t, tn } from "./i18n.js";
import { atStake, S } from "./store.js";

let open = null; // the question being asked: {resolve}

/**
 * Ask `title` (the question) with `text` below it; `yes` and `no` label the buttons. Resolves true for yes. The
 * dialog opens on `no`, so that Enter keeps things as they are.
 */
export function ask({ title, text, yes, no = t("Cancel") }) {
  const dialog = $("confirm-dialog");
  if (open) open.resolve(false); // a question asked over another one answers the first with no
  $("confirm-title").textContent = title;
  $("confirm-text").textContent = text;
  $("confirm-yes").textContent = yes;
  $("confirm-no").textContent = no;
  dialog.returnValue = "";
  return new Promise((resolve) => {
    const back = document.activeElement;
    open = { resolve };
    dialog.addEventListener("close", () => {
      if (open?.resolve === resolve) open = null;
      focusBack(dialog, back);
      resolve(dialog.returnValue === "yes");
    }, { once: true });
    if (!dialog.open) dialog.showModal();
    $("confirm-no").focus();
  });
}

/** Keep the keyboard in the dialog: Tab from its last control goes to its first, Shift+Tab the other way. */
export function wireConfirm() {
  const dialog = $("confirm-dialog");
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const controls = [...dialog.querySelectorAll("button, [href], input, select, textarea, [tabindex]")]
      .filter((node) => !node.disabled && node.tabIndex >= 0 && node.getClientRects().length);
    if (!controls.length) return;
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    } else if (!dialog.contains(document.activeElement)) {
      event.preventDefault();
      first.focus();
    }
  });
}

/**
 * Before leaving the game on the table for another deal: true at once when nothing is at stake, else what the
 * player answers. `leaving` says what the player asked for: "new" (a new game), "deal" (deal number `deal`)
 * or "daily" (today's daily deal).
 */
export async function mayLeave(leaving, deal = null) {
  const view = S.view;
  if (!atStake(view)) return true;
  const titles = {
    new: () => t("Start a new game?"),
    deal: () => t("Open deal {deal}?", { deal }),
    daily: () => t("Open today's daily deal?"),
  };
  const yeses = {
    new: () => t("New game"),
    deal: () => t("Open deal {deal}", { deal }),
    daily: () => t("Open the daily deal"),
  };
  const played = view.moves
    ? tn("Deal {deal} has {n} move played.", "Deal {deal} has {n} moves played.", view.moves, { deal: view.deal })
    : t("Deal {deal} is in progress (its moves are taken back, not gone).", { deal: view.deal });
  const cost = view.assisted
    ? t("Leaving it ends it; it is counted separately, as a game played with the solver's help.")
    : t("Leaving it counts as a loss in your statistics.");
  const text = `${played} ${cost}`;
  return ask({ title: titles[leaving](), text, yes: yeses[leaving](), no: t("Keep playing") });
}

/**
 * Before help from the solver that changes how the game counts: true at once when it changes nothing (a game
 * already assisted, or over); else what the player answers. The solution shown plays the game for the player, so
 * it always asks; a peeking hint asks on a daily deal still in the race on a server that runs one, which it takes
 * off the leaderboard (elsewhere the hint's own message says that it peeked). `help` is "solution" or "peek".
 */
export async function mayTakeHelp(help) {
  const view = S.view;
  if (!view || view.assisted || view.won || view.given_up) return true;
  const racing = view.daily && raceOn();
  if (!racing && help !== "solution") return true;
  const title = !racing ? t("Show the solution?")
    : help === "solution" ? t("Show the solution of the daily deal?") : t("Take a peeking hint on the daily deal?");
  const yes = help === "solution" ? t("Show solution") : t("Hint (peeking)");
  const text = racing
    ? t("The solver looks at every card for it, so this game will not be ranked on today's leaderboard.")
    : t("The solver plays the rest of the game for you, so it will count as played with the solver's help in "
      + "your statistics.");
  return ask({ title, text, yes });
}
