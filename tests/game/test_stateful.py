"""Long random sessions of play, undo, redo, restart, save and load, checking the invariants after every step.

A hypothesis state machine: whatever mix of actions a player makes, the 52 cards are all there once,
face-down cards are exactly the ones the rules keep hidden, the score is the foundation count, and
undo, redo and loading a save are exact.
"""

from __future__ import annotations

import os

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import tableaux
from tableaux.rulebook.cards import DOWN

GAME_NAMES = ["king-albert", "eagle-wing", "king-albert-classic"]


def check_hidden_cards(game: tableaux.Game) -> None:
    """Face-down cards are only where the rules say, and only cards dealt face down there."""
    rules, state = game.rules, game.state
    start = rules.deal(game.deal)
    names = rules.pile_names
    for i, pile in enumerate(state.piles):
        name = names[i]
        down = [c for c in pile if c & DOWN]
        if name.startswith("tableau") and rules.name.startswith("king-albert"):
            # A prefix of the cards dealt face down to this very pile, below every face-up card.
            k = len(down)
            assert all(c & DOWN for c in pile[:k]) and not any(c & DOWN for c in pile[k:]), name
            assert pile[:k] == start.piles[i][:k], f"{name}: face-down cards moved"
            if pile:
                assert not pile[-1] & DOWN, f"{name}: top card left face down"
        elif name == "stock":
            assert len(down) == len(pile), "stock cards are face down"
        elif name == "reserve" and rules.name == "eagle-wing":
            assert pile == start.piles[i][: len(pile)], "the reserve only loses cards from the top"
            assert all(c & DOWN for c in pile[1:]) and (not pile or not pile[0] & DOWN)
        else:
            assert not down, f"{name} holds a face-down card"


class PlaySession(RuleBasedStateMachine):
    @initialize(name=st.sampled_from(GAME_NAMES), deal=st.integers(0, tableaux.MAX_DEAL))
    def start(self, name: str, deal: int) -> None:
        self.game = tableaux.new_game(name, deal=deal)
        self.history = [self.game.state]  # states along the played line, to check undo/restart

    @rule(choice=st.integers(0, 10_000))
    def play(self, choice: int) -> None:
        moves = self.game.legal_moves()
        if not moves:
            return
        before, redo = self.game.state, self.game.redo_moves
        move = moves[choice % len(moves)]
        self.game.play(move)
        assert self.game.state == self.game.rules.apply(before, self.game.rules.to_raw(move)) != before
        # Playing the next redo move keeps the rest of the redo line; any other move drops it.
        assert self.game.redo_moves == (redo[1:] if redo and redo[0] == move else [])
        self.history.append(self.game.state)

    @precondition(lambda self: bool(self.game.redo_moves))
    @rule()
    def redo(self) -> None:
        before, redo = self.game.state, self.game.redo_moves
        assert self.game.redo() == redo[0]
        assert self.game.state == self.game.rules.apply(before, self.game.rules.to_raw(redo[0]))
        assert self.game.redo_moves == redo[1:]
        self.history.append(self.game.state)

    @precondition(lambda self: len(self.history) > 1)
    @rule()
    def undo_then_redo(self) -> None:
        after = self.game.state
        self.game.undo()
        assert self.game.state == self.history[-2]
        self.game.redo()
        assert self.game.state == after

    @precondition(lambda self: len(self.history) > 1)
    @rule()
    def undo(self) -> None:
        self.game.undo()
        self.history.pop()
        assert self.game.state == self.history[-1]

    @rule()
    def restart(self) -> None:
        redo_before = self.game.redo_moves
        played = self.game.moves_played
        self.game.restart()
        assert self.game.state == self.history[0]
        assert self.game.redo_moves == played + redo_before
        self.history = self.history[:1]

    @rule()
    def save_and_load(self) -> None:
        text = self.game.dumps()
        loaded = tableaux.loads(text)
        assert loaded.state == self.game.state
        assert loaded.moves_played == self.game.moves_played
        assert loaded.redo_moves == self.game.redo_moves
        assert loaded.position() == self.game.position() and loaded.legal_moves() == self.game.legal_moves()
        assert loaded.dumps() == text  # saving the loaded game gives the same file
        self.game = loaded

    @invariant()
    def history_is_the_played_line(self) -> None:
        assert self.game.state == self.history[-1]
        assert len(self.game.moves_played) == len(self.history) - 1

    @invariant()
    def face_down_count_is_exact_in_king_albert(self) -> None:
        """A covered card turns up exactly when it is first uncovered, never earlier, never back.

        So a tableau pile dealt with ``d`` face-down cards still has ``d`` of them while the
        shortest it has been on this line is longer than ``d``; once it was down to ``m <= d``
        cards, ``m - 1`` (the one on top was turned).
        """
        rules = self.game.rules
        if not rules.name.startswith("king-albert"):
            return
        start = self.history[0]
        for i, name in enumerate(rules.pile_names):
            if not name.startswith("tableau"):
                continue
            dealt_down = sum(1 for c in start.piles[i] if c & DOWN)
            shortest = min(len(state.piles[i]) for state in self.history)
            expected = dealt_down if shortest > dealt_down else max(shortest - 1, 0)
            assert sum(1 for c in self.game.state.piles[i] if c & DOWN) == expected, name

    @invariant()
    def cards_once_each(self) -> None:
        cards = sorted(c & ~DOWN for pile in self.game.state.piles for c in pile)
        assert cards == list(range(52))

    @invariant()
    def hidden_cards_where_rules_say(self) -> None:
        check_hidden_cards(self.game)

    @invariant()
    def score_is_foundation_count(self) -> None:
        pos = self.game.position()
        on_foundations = sum(len(cards) for name, cards in pos["piles"].items() if name.startswith("foundation"))
        assert pos["score"] == on_foundations
        assert pos["won"] == (on_foundations == 52)
        assert pos["over"] == (not pos["won"] and not self.game.legal_moves())

    @invariant()
    def public_position_hides_exactly_what_is_not_on_view(self) -> None:
        full, public = self.game.position(), self.game.public_position()
        on_view = dict(zip(self.game.rules.pile_names, self.game.rules.visible(self.game.state), strict=True))
        for name, cards in full["piles"].items():
            for seen, real, visible in zip(public["piles"][name], cards, on_view[name], strict=True):
                # On view: face up, except Eagle Wing's trunk bottom card while other cards cover it.
                covered = name == "reserve" and len(cards) > 1
                assert visible == (real["up"] and not covered)
                assert seen["up"] == visible
                assert seen["card"] == (real["card"] if visible else None)


PlaySession.TestCase.settings = settings(
    max_examples=int(os.environ.get("TABLEAUX_STATEFUL_EXAMPLES", "40")),
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestPlaySession = PlaySession.TestCase
