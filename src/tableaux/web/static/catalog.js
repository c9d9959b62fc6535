// What the server says about each game it offers (GET /api/games/catalog): name, title, piles, their
// notation labels, whether it has a stock. A leaf module that imports nothing: the settings, the board and
// the page state all read it, so no import cycle runs through it.

let games = []; // [{name, title, piles, labels, has_stock}], in the server's order

/** Keep the server's catalog (app.js loads it once, before the first game). */
export function setCatalog(list) {
  games = list;
}

/** Every game the server offers. */
export function catalog() {
  return games;
}

/** What the catalog says about game `name` (undefined for a game the server does not offer). */
export function gameInfo(name) {
  return games.find((g) => g.name === name);
}

/** The notation label of a pile ("T3"), from the server's catalog. */
export function shortLabel(game, pile) {
  return gameInfo(game)?.labels?.[pile] ?? pile;
}
