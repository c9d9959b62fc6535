// The page's fixed parts and the few ways it speaks: the element lookup, the table's element, the live region
// screen readers hear, the notice under the table (and the two at once), a plain button, and where the keyboard
// goes when a dialog closes. A leaf module (no imports).

export const $ = (id) => document.getElementById(id);
export const board = $("board");
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/** Say `text` to screen readers (the polite live region). */
export function announce(text) {
  const region = $("announce");
  region.textContent = "";
  // A fresh text node after clearing makes screen readers speak repeated messages too.
  window.setTimeout(() => {
    region.textContent = text;
  }, 30);
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

/**
 * Give the keyboard back once `dialog` has closed. It goes to `opener` (what opened the dialog) while that is still
 * on view; to the menu button when the opener was in the menu, which has closed since; else to nothing, where the
 * arrow keys walk the table: a dialog that a key or the page itself opened (the welcome card, the question after
 * N) hands the keyboard back to play, never to a toolbar button where Space would press it. Focus that has moved
 * out of the dialog meanwhile stays where it went.
 */
export function focusBack(dialog, opener) {
  const active = document.activeElement;
  if (active && active !== document.body && !dialog.contains(active)) return;
  const menu = $("menu-button");
  if (opener && opener !== document.body && document.contains(opener) && !dialog.contains(opener)
      && opener.getClientRects().length) opener.focus();
  else if (opener?.closest?.("#menu-panel") && menu.getClientRects().length) menu.focus();
  else active?.blur();
}
