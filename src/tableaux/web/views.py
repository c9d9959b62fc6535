"""What a player's page receives: views made from the engine's public position.

Plain functions over the engine and the stored records, with no web framework
in them, so the solver pool's worker processes can import them cheaply.
Every view is made from ``Game.public_position()`` plus the moves the page may
offer (legal, double-click home, and the ones the solver proves safe), so the
page never needs to know a rule and never learns a face-down card.
"""

from __future__ import annotations

import functools
from typing import Any

from ..catalogue import par_of
from ..i18n import _
from ..play.game import Game, Position
from ..rulebook.cards import RANK_LABELS
from ..rulebook.deal import MAX_DEAL
from ..rulebook.engine import MoveDict, RawMove, Rules, State, TableauxError, short_name
from ..rulebook.registry import rules as rules_for
from ..solver.strategy import safe_moves
from .fields import WEB_RULES
from .player_stats import tenths
from .store import GameRecord, StoreError


def saved_game(game: Game) -> dict[str, Any]:
    """Everything a solver worker needs of a stored game, in a form sent cheaply to another process: its name,
    deal, line (every move, read from the store here) and the cards the player has seen."""
    return {"game": game.name, "deal": game.deal, "moves": [str(m) for m in game.moves_played],
            "redo": [str(m) for m in game.redo_moves], "seen": sorted(game.seen_cards)}


def game_of_saved(saved: dict[str, Any]) -> Game:
    """In a worker: the game :func:`saved_game` describes, its stored moves replayed as they are (the rules
    checked each one when it was played)."""
    try:
        return Game.trusted_replay(rules_for(saved["game"]), saved["deal"], saved["moves"], saved["redo"],
                                   seen=saved["seen"])
    except TableauxError as exc:
        raise StoreError(_("a saved {game} game cannot be replayed: {error}").format(
            game=saved["game"], error=exc)) from None


def make_view(record: GameRecord, game: Game) -> dict[str, Any]:
    """What a player may see of a game: only public information, plus what each pile can do."""
    position = game.public_position()
    position["title"] = _(position["title"])
    won = record.won
    finished = record.finished
    if finished:  # a won or given-up game is final: its result is in the statistics
        position["can_undo"] = position["can_redo"] = False
    legal = [] if finished else [m.to_dict() for m in game.legal_moves()]
    home: dict[str, MoveDict] = {}
    safe: list[MoveDict] = []
    proven: list[RawMove] = []
    if not finished:
        home = {pile: move.to_dict() for pile, move in game.home_moves().items()}
        sources: set[int] = set()
        proven = safe_moves(game.rules, game.state)
        for raw in proven:
            if raw[0] not in sources:  # one per pile: which empty foundation an Ace takes does not matter
                sources.add(raw[0])
                safe.append(game.rules.to_move(raw).to_dict())
    return {
        "id": record.id,
        "version": record.version,
        "game": record.game,
        "title": _(game.rules.title),
        "deal": record.deal,
        "position": position,
        "legal_moves": legal,
        "home_moves": home,
        "safe_moves": safe,
        "finish": [] if finished else finish_line(game, position, proven),
        # The time played up to the last change (tableaux.web.clock); the page counts on from there while the
        # player plays. Cut to a tenth, never rounded up: clocks (formatTime in render.js, clock in
        # terminal/record.py) show whole seconds gone by, and rounding up would make 1.96 s show as 0:02 here and 0:01
        # in stats.
        "elapsed_seconds": tenths(record.elapsed),
        "moves": game.played_count,
        "won": won,
        "over": bool(position["over"]) and not won,
        "given_up": record.given_up,
        "assisted": record.assisted,
        "won_by": ("solution" if record.solution_won else "player") if won else None,
        "daily": record.daily,
        "grade": record.grade,
        "par": par_of(record.game, record.deal),  # every graded and daily deal has one
    }


def finish_line(game: Game, position: Position, safe: list[RawMove]) -> list[MoveDict]:
    """The moves that play the game home when no choice is left to make, else nothing.

    No choice is left when every card is on view (the position the player sees hides none) and moves the solver
    proves safe (``safe``: :func:`tableaux.solver.strategy.safe_moves` of the position, each of which can never
    cost a win) win the game by themselves. Worked out from the cards on view only, so it reveals nothing; and
    without a search, so a view costs little more: where a card is hidden or no move is safe, nothing is tried,
    and each position's run home is worked out once (:func:`home_run`).
    """
    if not safe or game.is_won():
        return []
    if any(entry["card"] is None for pile in position["piles"].values() for entry in pile):
        return []
    rules = game.rules
    rest = home_run(rules.name, rules.apply(game.state, safe[0]))
    if rest is None:
        return []
    return [rules.to_move(raw).to_dict() for raw in (safe[0], *rest)]


@functools.lru_cache(maxsize=8192)
def home_run(name: str, state: State) -> tuple[RawMove, ...] | None:
    """The first safe move of each position from ``state`` on, up to the win; None when they stop short of it.

    Kept per position, so the next view of the same run (a finish played move by move, the safe cards going
    home) costs a look-up. Safe moves shorten the way to a win, so the run cannot go round in circles; its
    length is bounded by the recursion all the same.
    """
    rules = rules_for(name)
    if rules.won(state):
        return ()
    safe = safe_moves(rules, state)
    if not safe:
        return None
    rest = home_run(name, rules.apply(state, safe[0]))
    return None if rest is None else (safe[0], *rest)


def game_entry(rules: Rules) -> dict[str, Any]:
    """What the page needs to know about a game before it has a view of one: its piles, where they sit, what
    they are called (in notation and in words) and its rules page, in the request's language."""
    layout = rules.layout
    return {"name": rules.name, "title": _(rules.title), "piles": list(rules.pile_names),
            "labels": {name: short_name(name) for name in rules.pile_names},
            "words": {name: rules.pile_words(name) for name in rules.pile_names},
            "has_stock": "stock" in rules.index,
            "layout": {"spots": [spot._asdict() for spot in layout.spots], "wide": layout.wide._asdict(),
                       **{shape: None if grid is None else grid._asdict()
                          for shape, grid in (("tall", layout.tall), ("side", layout.side))}},
            "rules": {"title": _(rules.rules_title).format(game=_(rules.title)), "guide": rules.guide(),
                      "safe_cards": _(rules.safe_cards) if rules.safe_cards else ""}}


def game_info() -> dict[str, Any]:
    """The games the browser offers, and the facts about cards and deals its page shows."""
    return {"games": [game_entry(r) for r in WEB_RULES], "max_deal": MAX_DEAL, "rank_labels": dict(RANK_LABELS)}
