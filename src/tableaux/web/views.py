"""What a player's page receives: views made from the engine's public position.

Plain functions over the engine and the stored records, with no web framework
in them, so the solver pool's worker processes can import them cheaply.
Every view is made from ``Game.public_position()`` plus the moves the page may
offer (legal, double-click home, and the ones the solver proves safe), so the
page never needs to know a rule and never learns a face-down card.
"""

from __future__ import annotations

from typing import Any

from ..i18n import _
from ..play.game import Game
from ..rulebook.cards import RANK_LABELS
from ..rulebook.deal import MAX_DEAL
from ..rulebook.engine import MoveDict, Rules, TableauxError, short_name
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
    if not finished:
        home = {pile: move.to_dict() for pile, move in game.home_moves().items()}
        sources: set[int] = set()
        for raw in safe_moves(game.rules, game.state):
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
        # Cut to a tenth, never rounded up: clocks (formatTime in state.js, format_time in cli/stats.py)
        # show whole seconds gone by, and rounding up would make 1.96 s show as 0:02 here and 0:01 in stats.
        "elapsed_seconds": tenths(record.elapsed_now()),
        "moves": game.played_count,
        "won": won,
        "over": bool(position["over"]) and not won,
        "given_up": record.given_up,
        "assisted": record.assisted,
        "daily": record.daily,
        "grade": record.grade,
    }


def game_entry(rules: Rules) -> dict[str, Any]:
    """What the page needs to know about a game before it has a view of one."""
    return {"name": rules.name, "title": _(rules.title), "piles": list(rules.pile_names),
            "labels": {name: short_name(name) for name in rules.pile_names},
            "has_stock": "stock" in rules.index}


def game_info() -> dict[str, Any]:
    """The games the browser offers, and the facts about cards and deals its page shows."""
    return {"games": [game_entry(r) for r in WEB_RULES], "max_deal": MAX_DEAL, "rank_labels": dict(RANK_LABELS)}
