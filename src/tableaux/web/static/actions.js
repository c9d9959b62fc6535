// Actions: each one a request to the server, then the view it answers with. They run one at a time
// (see `enqueue`), in the order the player asked for them.

import { api } from "./api.js";
import { report } from "./clock.js";
import { mayTakeHelp } from "./confirm.js";
import { $, announce, button, notice, tell } from "./dom.js";
import { games } from "./games.js";
import { t, tn } from "./i18n.js";
import { adopt, decorate, describe, label, movedBetween } from "./render.js";
import { hintMode, showLabels } from "./settings.js";
import { enqueue, S, setHint, setLastMove, setSelection, setSteps, steps, stockMove } from "./store.js";

export async function play(move, { auto = false } = {}) {
  const before = S.view;
  if (!auto) notice("");
  const view = await api.move(before.id, { source: move.source, count: move.count, target: move.target },
    before.version, report());
  adopt(view);
  if (!auto) setLastMove(move);
  announce(describe(move, before, view));
  if (auto) return;
  const sent = await autoHome();
  // The player made one move: one undo takes it back with the cards auto-home sent after it.
  if (sent) setSteps({ back: sent + 1 });
  if (S.view.won) announce(t("You won deal {deal}!", { deal: S.view.deal }));
}

/**
 * Undo, redo or restart. One undo takes back a step: the player's last move, with the cards auto-home sent after
 * it (store.js steps); one redo plays such a step again. The server takes one move a request, so a step of several
 * moves is as many requests, each shown as it comes.
 */
export async function act(what) {
  const before = S.view;
  const can = (view) => ({ undo: view.position.can_undo, redo: view.position.can_redo,
    restart: view.position.can_undo })[what];
  // Asked for while an earlier action was on its way (a key held down, a button pressed twice): whether there is
  // still a move to take back or play again is known only now, from the view that action answered with.
  if (!can(before)) return;
  const { back, forward } = steps();
  const size = { undo: back, redo: forward, restart: 1 }[what];
  let done = 0;
  while (done < size && can(S.view)) {
    adopt(await api.action(S.view.id, what, S.view.version, report()));
    done += 1;
  }
  if (done > 1) setSteps(what === "undo" ? { forward: done } : { back: done });
  announce(stepWords(what, before, S.view, done));
  notice("");
}

/** What an undo, a redo or a restart that made `done` requests did, as the page says it. */
function stepWords(what, before, after, done) {
  if (what === "restart") return t("Deal restarted.");
  if (done > 1) {
    return what === "undo"
      ? tn("Took back your move and the {n} card sent home after it.",
        "Took back your move and the {n} cards sent home after it.", done - 1, { n: done - 1 })
      : tn("Played your move again, and the {n} card sent home after it.",
        "Played your move again, and the {n} cards sent home after it.", done - 1, { n: done - 1 });
  }
  const moved = movedBetween(before, after);
  if (!moved) return what === "undo" ? t("Undid the last move.") : t("Redid a move.");
  return what === "undo" ? t("Took back {move}.", { move: moved }) : t("Played again: {move}.", { move: moved });
}

/**
 * Restart the deal. Its moves go to the redo list, so nothing is lost; the notice offers them all back at once,
 * which Redo alone gives one move at a time.
 */
export async function restart() {
  const taken = S.view.position.moves_played;
  await act("restart");
  if (!taken) return;
  notice(tn("Deal restarted: {n} move taken back.", "Deal restarted: {n} moves taken back.", taken, { n: taken }),
    { sticky: true });
  $("notice").append(" ", button("restart-undo", tn("Play it again", "Play them all again", taken),
    () => enqueue(() => replay(taken))));
}

/** Redo `count` moves, one request each, as the Redo button would. */
async function replay(count) {
  notice("");
  for (let i = 0; i < count && S.view.position.can_redo; i++) {
    const v = S.view;
    adopt(await api.action(v.id, "redo", v.version, report()));
  }
  announce(t("The moves taken back were played again."));
}

export async function stockAction() {
  const move = stockMove();
  if (!move) {
    announce(t("The stock cannot be dealt: no redeal is left."));
    notice(t("The stock is used up and no redeal is left."));
    return;
  }
  await play(move);
}

export async function homeMove(pile) {
  const move = S.view.home_moves[pile];
  setSelection(null);
  if (!move) {
    decorate();
    // Shown, not only said: a double click that does nothing looks like a missed click.
    tell(t("No card on {pile} can go to a foundation now.", { pile: label(pile) }));
    return;
  }
  await play(move);
}

/**
 * What a hint rests on, from the server's message in the page's language (the request carries it). The
 * message starts with the move in notation ("Play T7>T3: after it, a solver that sees every card wins 40 of
 * 64...", "Jouez T7>T3 : ensuite, un solveur..."); the page names the move itself, with its cards, so only what
 * follows the move and its colon is kept, however the language spaces the colon. A message with no such colon is
 * kept whole, but for a sentence that names the move in notation.
 */
export function hintReason(hint) {
  const text = hint.message;
  const name = hint.move?.text;
  const at = name ? text.indexOf(name) : -1;
  if (at < 0) return text;
  const rest = text.slice(at + name.length).match(/^\s*:\s*([^]*)$/);
  if (rest) return rest[1];
  // A sentence that names the move in notation ("You can still play R5>T1.", "Try R5>T1 (a rule of thumb, not a
  // proof).") says again what the hint's own sentence says with the cards named: it is left out.
  const before = text.lastIndexOf(". ", at);
  const after = text.indexOf(".", at + name.length);
  return (text.slice(0, before < 0 ? 0 : before + 1) + (after < 0 ? "" : text.slice(after + 1))).trim();
}

/**
 * A hint, in plain words first: the server's one sentence ("Move the 3 of clubs onto the 4 of hearts."), and
 * behind a "Why?" disclosure where it comes from, the reason and the figures (the server's message). A hint
 * without a move says why in its sentence alone.
 */
export async function showHint() {
  const mode = hintMode();
  if (mode === "peek" && !(await mayTakeHelp("peek"))) return;
  notice(mode === "peek" ? t("Looking for a good move (peeking at the face-down cards)…") : t("Looking for a good move…"),
    { sticky: true });
  const wasAssisted = S.view.assisted;
  const answer = await api.hint(S.view.id, mode, report());
  if (answer.view) adopt(answer.view);
  const hint = answer.hint;
  const notation = hint.move && showLabels() ? ` (${hint.move.text})` : "";
  const text = t("Hint: {sentence}", { sentence: hint.sentence + notation });
  const why = [];
  // The moves in the reason follow the pile labels' setting, as the first line does: in notation beside the
  // labels, else named by their cards (the server's `reason`).
  const reason = !hint.move ? "" : showLabels() ? hintReason(hint) : hint.reason;
  if (hint.unwinnable) {
    if (reason) why.push(reason); // the solver's proof is its own whole sentence, and says it once
  } else if (reason) {
    why.push(hint.source === "solver" ? t("From the solver: {why}", { why: reason })
      : hint.source === "heuristic" ? t("From the heuristic (a rule of thumb, not a proof): {why}", { why: reason })
        : reason);
  } else if (hint.source === "heuristic") {
    why.push(t("From the heuristic: a rule of thumb, not a proof."));
  }
  if (hint.unwinnable && hint.peeks) {
    why.push(t("The chance beside it counts the layouts of the cards you have not seen, not the real one."));
  }
  // A peeking hint's message already says that it peeked (tableaux.advice.hints): said once, in the page's language.
  if (hint.peeks && S.view.assisted && !wasAssisted) {
    why.push(t("The hint looked at the face-down cards, so this game now counts as assisted in the statistics."));
  }
  setHint(hint.move);
  decorate();
  notice(text, { sticky: true, why: why.join(" "), whyLabel: t("Why?") });
  $("notice").dataset.peeks = String(hint.peeks);
  announce(why.length ? `${text} ${why.join(" ")}` : text);
}

export async function newGame(game, deal, options = {}) {
  const view = await api.create(game, deal, options);
  adopt(view);
  notice("");
  announce(t("New game: {game}, deal {deal}.", { game: view.title, deal: view.deal }));
}

/** Resume the player's unfinished game of `game` (any game when null), or start one. */
export async function resume(game) {
  const { view } = await api.resume(game);
  if (view) {
    adopt(view);
    announce(t("{game}, deal {deal}, resumed.", { game: S.view.title, deal: S.view.deal }));
  } else {
    await newGame(game || games()[0].name, null);
  }
}

// Auto-home plays only what the server sends as `safe_moves`: moves its solver proves can never cost a
// win (tableaux.solver.strategy.safe_moves). The page applies no rule of its own. The moves it played.
export async function autoHome() {
  if (!$("auto-home").checked) return 0;
  let sent = 0;
  for (; sent < 60 && !S.view.won; sent++) {
    const move = S.view.safe_moves[0];
    if (!move) break;
    await play(move, { auto: true });
  }
  return sent;
}


/** The "Move safe cards home" check box: remembered in this browser; turned on, it plays the safe moves at once. */
export function wireAutoHome() {
  const auto = $("auto-home");
  auto.checked = localStorage.getItem("tableaux.autoHome") === "1";
  auto.addEventListener("change", () => {
    localStorage.setItem("tableaux.autoHome", auto.checked ? "1" : "0");
    if (auto.checked && S.view) enqueue(autoHome);
  });
}
