// Actions: each one a request to the server, then the view it answers with. They run one at a time
// (see `enqueue`), in the order the player asked for them.

import { api, ApiError } from "./api.js";
import { cardName } from "./cards.js";
import { $, adopt, announce, decorate, describe, label, notice, piles, S, stockMove } from "./state.js";

export async function play(move, { auto = false } = {}) {
  const before = S.view;
  if (!auto) notice("");
  const view = await api.move(before.id, { source: move.source, count: move.count, target: move.target },
    before.version);
  adopt(view);
  if (!auto) S.lastMove = move;
  announce(describe(move, before, view));
  if (auto) return;
  await autoHome();
  if (S.view.won) announce(`You won deal ${S.view.deal}!`);
}

export async function act(what) {
  const before = S.view;
  const view = await api.action(before.id, what, before.version);
  adopt(view);
  announce({ undo: "Undid the last move.", redo: "Redid a move.", restart: "Deal restarted." }[what]);
  notice("");
}

export async function stockAction() {
  const move = stockMove();
  if (!move) {
    announce("The stock cannot be dealt: no redeal is left.");
    notice("The stock is used up and no redeal is left.");
    return;
  }
  await play(move);
}

export async function homeMove(pile) {
  const move = S.view.home_moves[pile];
  S.selection = null;
  if (!move) {
    decorate();
    announce(`No card on ${label(pile)} can go to a foundation now.`);
    return;
  }
  await play(move);
}

export async function showHint() {
  notice("Looking for a good move…", { sticky: true });
  const answer = await api.hint(S.view.id);
  if (answer.view) adopt(answer.view);
  const hint = answer.hint;
  const origin = hint.source === "solver"
    ? "From the solver: this move is part of a winning line."
    : "From the heuristic: a rule of thumb, not a proof.";
  let text;
  if (hint.move) {
    const moved = piles()[hint.move.source].slice(-hint.move.count)[0];
    const what = hint.move.source === "stock" ? "Deal from the stock"
      : hint.move.target === "stock" ? "Turn the waste over"
        : `Move ${cardName(moved && moved.card)} from ${label(hint.move.source)} to ${label(hint.move.target)}`;
    text = `Hint: ${what}. ${origin}`;
    S.hint = { source: hint.move.source, target: hint.move.target, count: hint.move.count };
  } else {
    text = `Hint: ${hint.message}`;
    S.hint = null;
  }
  if (hint.unwinnable) text += " This deal cannot be won from here.";
  decorate();
  notice(text, { sticky: true });
  announce(text);
}

export async function newGame(game, deal) {
  const view = await api.create(game, deal);
  adopt(view);
  notice("");
  announce(`New game: ${view.title}, deal ${view.deal}.`);
}

/** Resume the player's unfinished game of `game` (any game when null), or start one. */
export async function resume(game) {
  try {
    adopt(await api.current(game));
    announce(`${S.view.title}, deal ${S.view.deal}, resumed.`);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    await newGame(game || S.catalog[0].name, null);
  }
}

// Auto-home plays only what the server sends as `safe_moves`: moves its solver proves can never cost a
// win (tableaux.solver.strategy.safe_moves). The page applies no rule of its own.
export async function autoHome() {
  if (!$("auto-home").checked) return;
  for (let i = 0; i < 60 && !S.view.won; i++) {
    const move = S.view.safe_moves[0];
    if (!move) return;
    await play(move, { auto: true });
  }
}

