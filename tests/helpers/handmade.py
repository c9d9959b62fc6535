"""Hand-built positions for the rule tests, written in card notation (``*`` marks a face-down card).

Shared by the per-game rule tests so each reads like its rules page rather than like plumbing.
"""

from __future__ import annotations

from tableaux import Move, Rules, State, parse_card
from tableaux.rulebook.cards import DOWN, card_str
from tableaux.rulebook.engine import long_name


class Hand:
    """Build and probe positions of one game through its only move generator."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    @staticmethod
    def card(text: str) -> int:
        return parse_card(text.rstrip("*")) | (DOWN if text.endswith("*") else 0)

    def state(self, redeals: int = 0, **piles: str) -> State:
        """A position from short pile names: ``state(F1="JH", T1="9C* TS")``; unnamed piles are empty."""
        by_name = {long_name(short): tuple(self.card(c) for c in cards.split()) for short, cards in piles.items()}
        return State(tuple(by_name.pop(name, ()) for name in self.rules.pile_names), redeals)

    def legal(self, s: State) -> set[str]:
        return {str(self.rules.to_move(m)) for m in self.rules.moves(s)}

    def play(self, s: State, text: str) -> State:
        assert text in self.legal(s), f"{text} should be legal"
        return self.rules.apply(s, self.rules.to_raw(Move.from_str(text)))

    def pile(self, s: State, short: str) -> str:
        cards = s.piles[self.rules.index[long_name(short)]]
        return " ".join(card_str(c) + ("*" if c & DOWN else "") for c in cards)

    def fixed(self, start: State) -> Rules:
        """The same game's rules, but dealing ``start``, so the Game API can be tested on any position."""
        rules = type(self.rules)()
        rules.deal = lambda deal: start  # type: ignore[method-assign]
        return rules
