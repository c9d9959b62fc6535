// Actions: each one a request to the server, then the view it answers with. They run one at a time
// (see `enqueue`), in the order the player asked for them.

import { api, ApiError } from "./api.js";
import { cardName } from "./cards.js";
import { t } from "./i18n.js";
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
  if (S.view.won) announce(t("You won deal {deal}!", { deal: S.view.deal }));
}

export async function act(what) {
  const before = S.view;
  const view = await api.action(before.id, what, before.version);
  adopt(view);
  announce({ undo: t("Undid the last move."), redo: t("Redid a move."), restart: t("Deal restarted.") }[what]);
  notice("");
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
  S.selection = null;
  if (!move) {
    decorate();
    announce(t("No card on {pile} can go to a foundation now.", { pile: label(pile) }));
    return;
  }
  await play(move);
}

export async function showHint() {
  notice(t("Looking for a good move…"), { sticky: true });
  const answer = await api.hint(S.view.id);
  if (answer.view) adopt(answer.view);
  const hint = answer.hint;
  const origin = hint.source === "solver"
    ? t("From the solver: this move is part of a winning line.")
    : t("From the heuristic: a rule of thumb, not a proof.");
  let text;
  if (hint.move) {
    const moved = piles()[hint.move.source].slice(-hint.move.count)[0];
    const card = cardName(moved && moved.card);
    const from = label(hint.move.source);
    const to = label(hint.move.target);
    const what = hint.move.source === "stock" ? t("Deal from the stock")
      : hint.move.target === "stock" ? t("Turn the waste over")
        : t("Move {card} from {from} to {to}", { card, from, to });
    text = t("Hint: {move}. {origin}", { move: what, origin });
    S.hint = { source: hint.move.source, target: hint.move.target, count: hint.move.count };
  } else {
    text = t("Hint: {message}", { message: hint.message });
    S.hint = null;
  }
  if (hint.unwinnable) text += " " + t("This deal cannot be won from here.");
  decorate();
  notice(text, { sticky: true });
  announce(text);
}

export async function newGame(game, deal) {
  const view = await api.create(game, deal);
  adopt(view);
  notice("");
  announce(t("New game: {game}, deal {deal}.", { game: view.title, deal: view.deal }));
}

/** Resume the player's unfinished game of `game` (any game when null), or start one. */
export async function resume(game) {
  try {
    adopt(await api.current(game));
    announce(t("{game}, deal {deal}, resumed.", { game: S.view.title, deal: S.view.deal }));
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

