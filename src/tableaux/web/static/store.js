// The page's state, and the one place that writes it. Every other module reads `S` and changes it only through
// the setters below, so what changed the selection, the hint or the view can be found here and nowhere else.
// `S` is read-only: a write from outside this module throws (tests/browser/test_static_imports.py also checks
// the source for one). The server decides every rule: the view is its answer, kept as it came.
//
// A leaf module: it imports nothing, so every other module can import it without a cycle.

const state = {
  view: null, // the last view from the server
  selection: null, // {pile, count}: cards picked up, waiting for a target
  hint: null, // {source, count, target}: the move the last hint marks on the table
  focus: null, // {pile, index}: where the keyboard was on the table, to go back to after a redraw
  lastMove: null, // the player's last move (not auto-home ones), for the keyboard to follow
  steps: null, // {id, version, back, forward}: at that view, one undo takes back `back` moves, one redo plays
  //             `forward` again (a move and the cards auto-home sent after it are one step; see steps())
  race: null, // the last leaderboard of the daily race from the server (race.js), kept as it came
  playing: false, // the solver's line is playing on the table, not paused (solution.js)
};

export const S = new Proxy(state, {
  set(_target, key) {
    throw new Error(`the page state is written through store.js, not by setting S.${String(key)}`);
  },
  deleteProperty(_target, key) {
    throw new Error(`the page state is written through store.js, not by deleting S.${String(key)}`);
  },
});

// ---------------------------------------------------------------- the view, and who hears of a new one
const listeners = [];

/** Call `listener(view, before, how)` after each view is shown (`how.hadFocus`: the table had the keyboard). */
export function onView(listener) {
  listeners.push(listener);
}

/** Keep a new view from the server. A new game or a new position drops the selection and the hint. */
export function setView(view) {
  const before = state.view;
  state.view = view;
  if (!before || before.id !== view.id || before.version !== view.version) {
    state.selection = null;
    state.hint = null;
  }
  return before;
}

/** Tell every listener that `view` is now shown (render.js calls this once the table is drawn). */
export function viewShown(view, before, how) {
  for (const listener of listeners) listener(view, before, how);
}

// ---------------------------------------------------------------- what the player has picked up or been shown
/** Pick up `count` cards of `pile` (a hint on the table makes way for them), or put them back with null. */
export function setSelection(pile, count) {
  state.selection = pile == null ? null : { pile, count };
  if (pile != null) state.hint = null;
}

export function setHint(move) {
  state.hint = move ? { source: move.source, count: move.count, target: move.target } : null;
}

export function setFocus(place) {
  state.focus = place;
}

export function setLastMove(move) {
  state.lastMove = move;
}

/**
 * At the view shown now, one undo takes back the last `back` moves and one redo plays the next `forward` again: a
 * move and the cards "move safe cards home" sent after it are one step, as the player made them (actions.js).
 */
export function setSteps({ back = 1, forward = 1 } = {}) {
  const v = state.view;
  state.steps = back === 1 && forward === 1 ? null : { id: v.id, version: v.version, back, forward };
}

/**
 * How many moves one undo and one redo take at the view shown now: those setSteps gave at this very view, else
 * one each. Any other change (another tab's, a new game) moves the version on, and every step is one move again.
 */
export function steps() {
  const v = state.view, s = state.steps;
  return s && v && s.id === v.id && s.version === v.version ? s : { back: 1, forward: 1 };
}

/** Keep the daily race's leaderboard as the server gave it. */
export function setRace(board) {
  state.race = board;
}

// ---------------------------------------------------------------- reading the view
/**
 * Whether the game in `view` is at stake: it has been played (a move made, even one taken back since: the
 * statistics count a game as played from its first move) and has not ended (won, given up, or no move left).
 * Leaving it for another deal loses it (confirm.js asks first), and its clock runs (clock.js).
 */
export function atStake(view) {
  if (!view || view.won || view.given_up || view.over) return false;
  return view.moves > 0 || view.position.can_redo;
}

export function piles() {
  return state.view.position.piles;
}

export function movesFrom(pile, count) {
  return state.view.legal_moves.filter((m) => m.source === pile && m.count === count);
}

export function findMove(source, count, target) {
  return state.view.legal_moves.find((m) => m.source === source && m.count === count && m.target === target);
}

export function stockMove() {
  return state.view.legal_moves.find(
    (m) => (m.source === "stock" && m.target === "waste") || (m.source === "waste" && m.target === "stock"),
  );
}

/** How many cards a press on card `index` of `pile` picks up, or 0 when it cannot pick any. */
export function grabCount(pile, index) {
  const cards = piles()[pile] || [];
  if (index == null || index < 0 || index >= cards.length || pile === "stock") return 0;
  const count = cards.length - index;
  if (cards.slice(index).some((c) => !c.up)) return 0;
  if (count > 1 && !pile.startsWith("tableau-")) return 0;
  return count;
}

// ---------------------------------------------------------------- one action at a time
let chain = Promise.resolve();
let onError = (err) => console.error(err);

/** Who hears of an action that failed (render.js's reportError; app.js wires it). */
export function onActionError(handler) {
  onError = handler;
}

/** Run `task` after every action asked for before it: the player's actions reach the server in order. */
export function enqueue(task) {
  chain = chain.then(task).catch((err) => onError(err));
  return chain;
}

// ---------------------------------------------------------------- the solver's line playing on the table
const playingListeners = [];

/** Call `listener(playing)` whenever the solver's line starts or stops playing on the table. */
export function onPlaying(listener) {
  playingListeners.push(listener);
}

/** The solver's line plays on (true) or stops, pauses or ends (false). */
export function setPlaying(playing) {
  if (state.playing === playing) return;
  state.playing = playing;
  for (const listener of playingListeners) listener(playing);
}
