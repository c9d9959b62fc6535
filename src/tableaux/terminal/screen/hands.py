"""The board's hands: the cursor, picking cards up and dropping them, Enter's best move, and the mouse.

A mix-in of :class:`.app.TableauxApp`. A pick-up takes the card at the cursor with every card above it;
the piles its legal moves go to (:meth:`Game.legal_moves`) are marked. A drop plays the move through the
sitting, so an illegal drop gets the engine's own reason and changes nothing. A click picks up or drops
at the card under the mouse; a double click sends a pile's top card home, as in the browser.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...i18n import _, current
from ...play.game import Game
from ...rulebook.cards import card_name, parse_card
from ...rulebook.engine import Move, short_name
from ..said import Said
from ..sitting import Sitting
from . import cursor as places
from .view import BoardView

if TYPE_CHECKING:
    from .layout import Board


class Hands:
    """Cursor, pick-up, drop and mouse for the app (which provides the attributes below)."""

    sitting: Sitting
    cursor: tuple[str, int]
    picked: tuple[str, int] | None
    targets: frozenset[str]
    hinted: frozenset[str]
    solution: list[Move] | None

    game: Game

    if TYPE_CHECKING:  # what the app provides
        def tell(self, said: list[Said]) -> None: ...

        def redraw(self) -> None: ...

        def changed(self) -> None: ...

        def do(self, command: Any) -> list[Said]: ...

        def solution_step(self) -> None: ...

    def drawn(self) -> Board | None:
        return self.query_one(BoardView).board  # type: ignore[attr-defined]

    # --- the cursor ----------------------------------------------------------------------------------
    def first_place(self) -> tuple[str, int]:
        """Where the cursor starts: the top card of the first tableau pile."""
        position = self.game.public_position()
        pile = next(p for p in position["piles"] if places.fanned(p))
        return places.settle(position, (pile, len(position["piles"][pile]) - 1))

    def settle_cursor(self) -> None:
        position = self.game.public_position()
        if self.cursor[0] not in position["piles"]:
            self.cursor = self.first_place()
        self.cursor = places.settle(position, self.cursor)
        if self.picked is not None:
            pile, count = self.picked
            if count > len(position["piles"][pile]):
                self.cancel_pick()

    def action_arrow(self, key: str) -> None:
        board = self.drawn()
        if board is None:
            return
        xs = {pile: x for pile, (x, _y, _w) in board.labels.items()}
        self.cursor = places.step(self.game.public_position(), board.rows, xs, self.cursor, key)
        self.redraw()

    # --- picking up and dropping -----------------------------------------------------------------------
    def cards_named(self, pile: str, count: int) -> str:
        """The cards a pick-up holds, by name ("the 9 of hearts and the 8 of spades")."""
        from babel.lists import format_list  # loaded at the first pick-up, not before the board is drawn

        cards = self.game.public_position()["piles"][pile][-count:]
        return format_list([card_name(parse_card(c["card"])) for c in cards if c["card"]], locale=current())

    def cancel_pick(self) -> None:
        self.picked, self.targets = None, frozenset()

    def action_cancel(self) -> None:
        if self.solution is not None:
            self.solution = None
            self.tell([Said(_("Solution stopped; [s] goes on from wherever you are."), "note")])
        elif self.picked is not None:
            self.cancel_pick()
            self.tell([Said(_("Put back."), "note")])
        self.hinted = frozenset()
        self.redraw()

    def action_select(self) -> None:
        """Space: deal from the stock, pick up the card at the cursor, or drop what is held on the cursor's pile."""
        if self.solution is not None:
            self.solution_step()
            return
        pile, index = self.cursor
        if pile == "stock" and self.picked is None:
            self.do(self.sitting.deal_stock)
            return
        if self.picked is not None:
            self.drop(pile)
            return
        self.pick_up(pile, index)

    def pick_up(self, pile: str, index: int) -> None:
        position = self.game.public_position()
        cards = position["piles"][pile]
        if index < 0 or not cards:
            self.tell([Said(_("Nothing to pick up: {pile} is empty.").format(pile=short_name(pile)), "warning")])
            return
        if not cards[index]["up"] or cards[index]["card"] is None:
            self.tell([Said(_("That card is face down: it cannot be picked up."), "warning")])
            return
        count = places.count_from(position, (pile, index))
        moves = places.moves_of(self.game, pile, count)
        self.picked = (pile, count)
        self.targets = frozenset(m.target for m in moves)
        names = self.cards_named(pile, count)
        if moves:
            where = ", ".join(short_name(t) for t in sorted(self.targets, key=self.game.rules.index.__getitem__))
            text = _("Picked up the {cards}: it can go to {piles}. Space drops it on the cursor's pile, Escape puts "
                     "it back.").format(cards=names, piles=where)
            self.tell([Said(text, "note")])
        else:
            self.tell([Said(_("Picked up the {cards}: it has no legal move now. Escape puts it back.").format(
                cards=names), "warning")])
        self.redraw()

    def drop(self, target: str) -> None:
        assert self.picked is not None
        source, count = self.picked
        if target == source:
            self.cancel_pick()
            self.tell([Said(_("Put back."), "note")])
            self.redraw()
            return
        self.cancel_pick()
        move = Move(source, count, target)
        self.do(lambda: self.sitting.play(move))
        if self.game.state.piles[self.game.rules.index[target]] and self.cursor[0] == target:
            self.cursor = (target, len(self.game.public_position()["piles"][target]) - 1)
        self.redraw()

    def action_play(self) -> None:
        """Enter: the best move of the card at the cursor (or of the cards held), home first."""
        if self.solution is not None:
            self.solution_step()
            return
        pile, index = self.picked if self.picked is not None else self.cursor
        position = self.game.public_position()
        if self.picked is not None:
            count = self.picked[1]
        else:
            if pile == "stock":
                self.do(self.sitting.deal_stock)
                return
            cards = position["piles"][pile]
            if 0 <= index < len(cards) and (not cards[index]["up"] or cards[index]["card"] is None):  # as pick_up
                self.tell([Said(_("That card is face down: it cannot be picked up."), "warning")])
                return
            if index < 0 or not cards:
                self.tell([Said(_("There is no card to play there."), "warning")])
                return
            count = places.count_from(position, (pile, index))
        move = places.best_move(self.game, pile, count)
        if move is None:
            self.tell([Said(_("The {cards} has no legal move now.").format(cards=self.cards_named(pile, count)),
                            "warning")])
            return
        self.cancel_pick()
        self.do(lambda: self.sitting.play(move))

    # --- the mouse ---------------------------------------------------------------------------------------
    def on_board_view_picked(self, message: BoardView.Picked) -> None:
        pile, index = message.pile, message.index
        if message.chain >= 2:  # a double click: the first click picked the card up
            self.cancel_pick()
            self.cursor = places.settle(self.game.public_position(), (pile, index))
            self.do(lambda: self.sitting.send_home(pile))
            return
        if self.solution is not None:
            self.solution = None
        position = self.game.public_position()
        cards = position["piles"][pile]
        if index == -2:  # the pile's name
            index = len(cards) - 1
        self.cursor = places.settle(position, (pile, index))
        if self.picked is None and pile != "stock" and 0 <= index < len(cards) and cards[index]["card"] is None:
            self.tell([Said(_("That card is face down: it cannot be picked up."), "warning")])
            self.redraw()
            return
        self.action_select()

    def on_board_view_missed(self, _message: BoardView.Missed) -> None:
        if self.picked is not None:
            self.cancel_pick()
            self.tell([Said(_("Put back."), "note")])
            self.redraw()
