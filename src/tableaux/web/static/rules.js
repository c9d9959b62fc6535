// The rules of both games, in our own words, for players to read, plus how to play them here. The rules
// the game obeys live in the engine (src/tableaux/king_albert.py and eagle_wing.py), never in this page.
// Static text only: it is inserted as markup we wrote ourselves.

const CONTROLS = `
<h3>Playing here</h3>
<ul>
  <li><b>Drag</b> a card (with the mouse or a finger) onto a highlighted pile, or <b>click</b> a card and
      then the pile it should go to. A drop anywhere else puts the card back.</li>
  <li><b>Double-click</b> (or double-tap) a card to send it to a foundation when it can go there.</li>
  <li><b>Keyboard:</b> Tab or the arrow keys move between piles (Up and Down also move between the
      face-up cards of a pile); Enter or Space picks up and puts down; Escape drops the selection.
      Shortcuts: <kbd>u</kbd> or <kbd>Ctrl+Z</kbd> undo, <kbd>r</kbd> or <kbd>Ctrl+Y</kbd> redo,
      <kbd>h</kbd> hint, <kbd>d</kbd> deal from the stock, <kbd>n</kbd> new game,
      <kbd>F1</kbd> or <kbd>?</kbd> these rules.</li>
  <li><b>Move safe cards home</b> (off at first): after each of your moves, the cards that the solver
      proves can never cost you the game go to the foundations by themselves. In King Albert that is an
      Ace (any other card sent home could still be wanted back on the table); in Eagle Wing any single
      card that continues a foundation, except a card of the base rank, which still waits for you.</li>
  <li>Undo and redo have no limit, and every move is saved as you make it: close the page and come back
      later to carry on. Share a deal with its link; the deal number is on the status line.</li>
</ul>`;

export const RULES = {
  "king-albert": `
<h3>King Albert</h3>
<p><b>Aim:</b> build all 52 cards onto the four foundations, each one a single suit from Ace up to King.</p>
<p><b>Layout:</b> nine tableau columns (the first holds nine cards, the last one), four foundations and a
reserve of seven cards. Only the top card of each column starts face up; all seven reserve cards are
face up.</p>
<ul>
  <li>A foundation starts with an Ace and grows by one rank at a time in the same suit.</li>
  <li>On the tableau, put a card on one that is one rank higher and of the other colour
      (a red 9 on a black 10). You can move any face-up card together with every card on top of it, as one
      move, as long as the card you grab fits the new column. Any card or run may go into an empty column.</li>
  <li>Each reserve card can be played to a foundation or the tableau; the reserve never takes cards back.</li>
  <li>Cards on the foundations are still in play: the top one may come back down to the tableau.</li>
  <li>When a move uncovers a face-down card, it turns face up by itself.</li>
</ul>
<p><b>Score:</b> the number of cards on the foundations (52 wins). There is no stock and no redeal, so
many deals cannot be won; the game tells you when no move is left.</p>
<p><b>Double-click</b> a column or reserve card: its top card goes to a foundation if it fits there.</p>
${CONTROLS}`,
  "eagle-wing": `
<h3>Eagle Wing</h3>
<p><b>Aim:</b> move every card to the four foundations, emptying the stock, the waste, the trunk
(the reserve in the middle) and all eight wing piles.</p>
<p><b>Layout:</b> a face-up base card starts the first foundation; its rank is the starting rank of all four
foundations. Thirteen cards make the trunk, with only its bottom card face up. Eight wing piles get one
face-up card each, and the other 30 cards form the stock.</p>
<ul>
  <li>Foundations start with a card of the base rank and climb in suit, going round the corner from King
      to Ace and on (with base 9: 9, 10, J, Q, K, A, 2 ... 8). Cards that reach a foundation stay there.</li>
  <li>Wing piles build downwards in suit, also round the corner (a King may go on an Ace), and hold at
      most three cards. Only one card at a time moves onto a wing pile.</li>
  <li>The top one, two or three cards of a wing pile may go to a foundation together when the top card
      fits there; they land in order and each one scores.</li>
  <li>When a wing pile empties, the top card of the trunk fills it at once. Only when the trunk is used up
      can a wing pile stay empty; an empty pile then takes any single card.</li>
  <li>Click the stock to turn its top card onto the waste. When the stock runs out, a click turns the
      waste back over as the new stock: twice, so you go through the cards three times in all.</li>
  <li>The waste's top card may go to a foundation or a wing pile. The trunk never takes cards; its
      last card, once on its own, can be played.</li>
</ul>
<p><b>Score:</b> starts at 1 for the base card and rises by one for each card on a foundation (52 wins).
The game is lost when no move and no stock turn is left.</p>
<p><b>Double-click</b> the waste or a wing pile: its top card goes to a foundation if it fits there.</p>
${CONTROLS}`,
};
