// The page's fixed parts and the few ways it speaks: the element lookup, the table's element, the live region
// screen readers hear, the notice under the table (and the two at once), a plain button, a choice settled in a
// select, and where the keyboard goes when a dialog closes. A leaf module (no imports).

export const $ = (id) => document.getElementById(id);
export const board = $("board");
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

const SETTLE_MS = 250;
let waiting = [];
let settling = 0;

/**
 * Say `text` to screen readers (the polite live region). What is said within a moment of it is said with it, once
 * nothing more comes: a move and the cards that then go home by themselves, a win and its streak. Each text set in
 * turn would cut off the one before, mid-word.
 */
export function announce(text) {
  const region = $("announce");
  waiting.push(text);
  region.textContent = ""; // a fresh text node after clearing makes screen readers speak repeated messages too
  window.clearTimeout(settling);
  settling = window.setTimeout(() => {
    region.textContent = waiting.join(" ");
    waiting = [];
  }, SETTLE_MS);
}

const STEP_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown"]);

/**
 * Run `act` when the player settles on a choice in `select`, and tell the page so (a bubbling "chosen" event): at
 * once for a pick from its open list, but on Enter or on leaving it while the keys step through it closed, where
 * Chromium changes the value at each step (a new game or a reloaded page at the first arrow press). Escape puts
 * back the value the steps began from.
 */
export function onChosen(select, act) {
  let from = null; // the value before the keys began stepping through the closed list, while they do
  const settle = () => {
    if (from === null) return;
    const changed = select.value !== from;
    from = null;
    if (changed) chosen();
  };
  const chosen = () => {
    act();
    select.dispatchEvent(new Event("chosen", { bubbles: true }));
  };
  select.addEventListener("keydown", (event) => {
    const typed = event.key.length === 1 && event.key !== " " && !event.ctrlKey && !event.metaKey;
    if ((STEP_KEYS.has(event.key) || typed) && !event.altKey) {
      if (from === null) from = select.value;
    } else if (event.key === "Enter" && from !== null) {
      event.preventDefault();
      settle();
    } else if (event.key === "Escape" && from !== null) {
      select.value = from;
      from = null;
      event.preventDefault();
      event.stopPropagation();
    }
  });
  select.addEventListener("change", () => {
    if (from === null) chosen();
  });
  select.addEventListener("blur", settle);
}

let noticeTimer = 0;

/**
 * Show `text` under the table for a while (for good with `sticky`); an empty text takes the notice away. `why`
 * goes behind a "Why?" disclosure after the text (its label comes translated, `whyLabel`).
 */
export function notice(text, { sticky = false, why = "", whyLabel = "Why?" } = {}) {
  const box = $("notice");
  box.textContent = text;
  if (text && why) {
    const more = document.createElement("details");
    more.className = "why";
    const summary = document.createElement("summary");
    summary.textContent = whyLabel;
    const reason = document.createElement("p");
    reason.textContent = why;
    more.append(summary, reason);
    box.append(" ", more);
  }
  box.hidden = !text;
  window.clearTimeout(noticeTimer);
  if (text && !sticky) noticeTimer = window.setTimeout(() => (box.hidden = true), 6000);
}

/** Show `text` under the table and say it to screen readers: what a player must see as well as hear (a refusal,
 * a tap that did nothing), since a player on a phone hears no live region. */
export function tell(text) {
  notice(text);
  announce(text);
}

/** A button; without `onClick`, whoever owns the place it goes wires it (by its id). */
export function button(id, text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  if (onClick) b.addEventListener("click", onClick);
  return b;
}

let toTable = null; // where the keyboard goes back to play (keyboard.js focusTable; app.js wires it)

/** Call `focus()` to put the keyboard on the table, for a dialog that hands it back to play. */
export function onBackToPlay(focus) {
  toTable = focus;
}

/**
 * Give the keyboard back once `dialog` has closed. It goes to `opener` (what opened the dialog) while that is still
 * on view; to the menu button when the opener was in the menu, which has closed since; else to the table, where it
 * was last or on its first pile, with the focus ring showing where: a dialog that a key or the page itself opened
 * (the welcome card, the question after N) hands the keyboard back to play, never to a toolbar button where Space
 * would press it. Focus that has moved out of the dialog meanwhile stays where it went.
 */
export function focusBack(dialog, opener) {
  const active = document.activeElement;
  if (active && active !== document.body && !dialog.contains(active)) return;
  const menu = $("menu-button");
  if (opener && opener !== document.body && document.contains(opener) && !dialog.contains(opener)
      && opener.getClientRects().length) opener.focus();
  else if (opener?.closest?.("#menu-panel") && menu.getClientRects().length) menu.focus();
  else {
    active?.blur();
    toTable?.();
  }
}
