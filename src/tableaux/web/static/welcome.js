// The first visit's welcome card: the goal, how to move and a way to the rules, shown once. Closing it in any
// way (its buttons, Escape) counts as seen, remembered in this browser; with storage switched off it shows
// on each visit, which is better than never.

import { openDialog, openRules } from "./dialogs.js";

const SEEN = "tableaux.welcomed";

function seen() {
  try {
    return localStorage.getItem(SEEN) === "1";
  } catch {
    return false;
  }
}

/** Show the welcome card unless this browser has seen it; the rules button swaps it for the rules. */
export function welcomeOnFirstVisit() {
  if (seen()) return;
  const dialog = document.getElementById("welcome-dialog");
  dialog.addEventListener("close", () => {
    try {
      localStorage.setItem(SEEN, "1");
    } catch {
      // not remembered: it shows again next time
    }
  }, { once: true });
  document.getElementById("welcome-rules").addEventListener("click", () => {
    dialog.close();
    openRules();
  }, { once: true });
  openDialog(dialog);
}
