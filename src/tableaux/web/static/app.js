// Entry point of the browser game. (Shell: filled in by the front-end work on issue 4.)
const board = document.getElementById("board");
board.textContent = "Loading…";
