// What the server says about the games it offers and the cards it deals (GET /api/games/info): each game's
// name, title, piles, their notation labels and whether it has a stock; the highest deal number; how each
// rank reads on a card face. A leaf module that imports nothing: the settings, the cards, the board and the
// page state all read it, so no import cycle runs through it, and none of them repeats what it holds.

let info = { games: [], max_deal: 0, rank_labels: {} };

/** Keep the server's game info (app.js loads it once, before the first game). */
export function setGameInfo(answer) {
  info = answer;
}

/** Every game the server offers: [{name, title, piles, labels, has_stock}], the default first. */
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

/** The highest deal number (deals run from 0). */
export function maxDeal() {
  return info.max_deal;
}

/** How a rank letter of a card code reads on a card face ("T" reads "10"). */
export function rankLabel(rank) {
  return info.rank_labels[rank] ?? rank;
}
