// What the server says about the games it offers and the cards it deals (GET /api/games/info): each game's
// name, title, piles, their notation labels and their names in words, where each pile sits on the table, its
// rules page, and whether it has a stock; the highest deal number; how each rank reads on a card face; whether
// the server runs the daily race. The server's registry holds all of it (tableaux.rulebook), so the page names no
// game in its own code. A leaf module that imports nothing: the settings, the cards, the board and the page state
// all read it, so no import cycle runs through it, and none of them repeats what it holds.

let info = { games: [], max_deal: 0, rank_labels: {} };

/** Keep the server's game info (start.js loads it once, before the first game). */
export function setGameInfo(answer) {
  info = answer;
}

/** Every game the server offers: [{name, title, piles, labels, words, has_stock, layout, rules}], the default first. */
export function games() {
  return info.games;
}

/** What the server says about game `name` (undefined for a game it does not offer). */
export function gameInfo(name) {
  return info.games.find((g) => g.name === name);
}

/** The notation label of a pile ("T3"), from the server's game info. */
export function shortLabel(game, pile) {
  return gameInfo(game)?.labels?.[pile] ?? pile;
}

/** How a sentence names a pile ("tableau 3", "the trunk"), in the page's language. */
export function pileWords(game, pile) {
  return gameInfo(game)?.words?.[pile] ?? pile.replace("-", " ");
}

/** The pile of `game` whose notation label is `text` ("T3" -> "tableau-3"), or undefined. */
export function pileCalled(game, text) {
  const labels = gameInfo(game)?.labels ?? {};
  return Object.keys(labels).find((pile) => labels[pile] === text);
}

/** Where each pile of `game` sits: {spots: [{pile, kind, row, col, tall, drop, group}], wide, tall}. */
export function layoutOf(game) {
  return gameInfo(game).layout;
}

/** Pile names in reading order (the order Left/Right arrows walk through). */
export function pileOrder(game) {
  return layoutOf(game).spots.map((spot) => spot.pile);
}

/** How a pile shows its cards: "fan", "stack", "stock" or "closed". */
export function pileKind(game, pile) {
  return layoutOf(game).spots.find((spot) => spot.pile === pile)?.kind;
}

/** The rules page of `game`: {title, guide: [{kind: "paragraph", text} | {kind: "list", items}]}. */
export function rulesPage(game) {
  return gameInfo(game)?.rules ?? { title: game, guide: [] };
}

/** The highest deal number (deals run from 0). */
export function maxDeal() {
  return info.max_deal;
}

/** Whether the server runs the daily race (its leaderboard and display names; not with --no-leaderboard). */
export function raceOn() {
  return info.leaderboard === true;
}

/** How a rank letter of a card code reads on a card face ("T" reads "10"). */
export function rankLabel(rank) {
  return info.rank_labels[rank] ?? rank;
}
