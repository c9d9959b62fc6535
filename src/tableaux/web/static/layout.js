// Fitting the table to the screen, and the toolbar's menu. Card size is computed here, from the window
// and the grid the game's table needs (board.js says which), and handed to the style sheet as --cw and
// --gap. Below COMPACT_BELOW pixels the cards switch to their large-print faces.

const MAX_CARD = 140; // px: wider cards only waste the space a long fan needs
const MAX_LARGE_CARD = 180; // px: the "Large" card size, which lets the table scroll instead
const COMPACT_BELOW = 60; // px of card width
const SMALL = 0.8; // the "Small" card size, as a share of the fitted width
const MAX_SPREAD = 1.6; // fans may open up to this much wider than their usual steps

/** True when the window is taller than wide (phones held upright, tablets in portrait). */
export function isPortrait() {
  return window.innerHeight > window.innerWidth;
}

/**
 * Size the cards for a grid of `cols` columns whose rows need `depth` card widths of height, and
 * return the card width. "fit" makes the widest cards with which the whole table fits the window;
 * "small" makes them a little smaller; "large" fills the width and lets the page scroll.
 *
 * When the width, not the height, limits the cards (nine columns on a phone held upright), the height
 * left over goes to the fans: the board's data-spread says how much wider than usual their steps may
 * open (layoutFans), so a finger gets a taller strip of each face-up card to press. Not where a row of
 * piles lies below the fans (the shape is `stacked`): there a fan's room ends at that row. A shape with
 * `steps` gives that height to piles that step down instead (--step, at most half a card's height each),
 * so that a short table (wings of a few cards on a wide screen) still fills the window.
 */
export function fitCards(board, { cols, depth, stacked = false, steps = 0 }, cardSize) {
  const root = document.documentElement;
  const width = root.clientWidth;
  const gap = Math.min(14, Math.max(3, width * 0.01));
  const byWidth = (width - (cols + 1) * gap) / cols;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const byHeight = (window.innerHeight - top - 3 * gap - 8) / depth;
  let cw = cardSize === "large" ? Math.min(byWidth, MAX_LARGE_CARD) : Math.min(byWidth, byHeight, MAX_CARD);
  const spare = byHeight / Math.min(byWidth, MAX_CARD);
  const spread = cardSize === "large" || stacked || steps ? 1 : Math.min(MAX_SPREAD, Math.max(1, spare));
  board.dataset.spread = spread.toFixed(2);
  if (cardSize === "small") cw *= SMALL;
  cw = Math.max(24, Math.floor(cw * 10) / 10);
  const left = Math.max(0, byHeight - cw) * depth; // px of height the table does not need
  const step = steps && cardSize !== "large" ? Math.min(0.7 * cw, left / steps) : 0;
  board.style.setProperty("--step", `${Math.floor(step)}px`);
  root.style.setProperty("--cw", `${cw}px`);
  root.style.setProperty("--gap", `${gap.toFixed(1)}px`);
  board.style.setProperty("--cols", String(cols));
  board.classList.toggle("compact", cw < COMPACT_BELOW);
  return cw;
}

// ---------------------------------------------------------------- the toolbar menu
// On wide screens the menu holds what is used least (daily deal, solution, give up, rules, statistics,
// settings, language); on narrow ones it also takes the game and deal pickers and restart, so the
// toolbar is one row. The style sheet decides which is which by the window's width; fitToolbar() also
// folds the pickers into the menu on a wide screen where they do not fit, which depends on the language.

const WIDE = window.matchMedia("(min-width: 960px)");

const SMALLEST_LABEL = 9; // px: a phone label shrinks no further than this

/**
 * Fold the pickers into the menu when the toolbar row would overflow or cut a button's text short. On a
 * narrow screen, where the labels may take two lines, shrink a label that still overflows its button (a
 * long word in some language) until it fits.
 */
export function fitToolbar() {
  const toolbar = document.getElementById("toolbar");
  toolbar.classList.remove("fold");
  const buttons = [...toolbar.querySelectorAll(":scope > button")];
  for (const b of buttons) b.style.fontSize = "";
  if (!WIDE.matches) {
    const overflows = (b) => b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1;
    for (const b of buttons.filter((n) => n.offsetParent !== null && !n.classList.contains("menu-button"))) {
      let size = parseFloat(getComputedStyle(b).fontSize);
      while (overflows(b) && size > SMALLEST_LABEL) {
        size -= 0.5;
        b.style.fontSize = `${size}px`;
      }
    }
    return;
  }
  const cut = [...toolbar.querySelectorAll(":scope > button")].some((b) => b.scrollWidth > b.clientWidth + 1);
  if (cut || toolbar.scrollWidth > toolbar.clientWidth + 1) toolbar.classList.add("fold");
}

export function initMenu() {
  const toolbar = document.getElementById("toolbar");
  const button = document.getElementById("menu-button");
  const panel = document.getElementById("menu-panel");
  const setOpen = (open) => {
    toolbar.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", String(open));
  };
  const isOpen = () => toolbar.classList.contains("menu-open");
  button.addEventListener("click", () => {
    setOpen(!isOpen());
    if (isOpen()) {
      // The first control that dropped down (in a wide toolbar row, the inline pickers did not).
      const inRow = WIDE.matches && !toolbar.classList.contains("fold");
      const dropped = inRow ? panel.querySelector(".menu-group.more") : panel;
      const first = [...dropped.querySelectorAll("button, select, input")].find((n) => n.offsetParent !== null);
      first?.focus();
    }
  });
  // A button in the menu does its job and closes the menu; fields (game, deal, the check box) keep it open.
  panel.addEventListener("click", (event) => {
    if (event.target.closest("button")) setOpen(false);
  });
  panel.addEventListener("submit", () => setOpen(false));
  panel.addEventListener("change", (event) => {
    if (event.target.tagName === "SELECT") setOpen(false);
  });
  document.addEventListener("pointerdown", (event) => {
    if (isOpen() && !toolbar.contains(event.target)) setOpen(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) {
      setOpen(false);
      button.focus();
      event.stopPropagation();
    }
  }, true);
}
