"""Hints: which move to suggest, and whether it comes from the solver or a rule of thumb.

Two modes (:func:`hint`). A *fair* hint (the default) uses only what the
player has seen: :func:`tableaux.advice.fair.plan` solves sampled layouts of the
hidden cards and suggests the first move of the plan, up to the next card
turned, that keeps the most of them winnable. A *peek* hint
asks the solver about the real deal, face-down cards included, and says so.

Both modes fall back on the rule of thumb (:mod:`tableaux.advice.heuristic`), which
looks at no hidden card, when the solver does not answer within its budget.
This is the one place a hint is made and worded: the library, the terminal
and the browser all show what :func:`hint` returns, as :meth:`Hint.to_dict`
gives it. A hint has two texts: its ``sentence``, one short sentence a player
reads first ("Move the 3 of clubs onto the 4 of hearts."), made from the move
and the cards on view (:func:`move_sentence`); and its ``message``, the reason
and the figures behind it, which a screen shows on request. The message names
moves in notation (R7>F1), as the terminal shows them beside its pile labels;
its ``reason`` says the same for a screen that hides those labels: every move
named by its cards, and the hint's own move left to its sentence.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, TypedDict

from ..i18n import N_, _, list_words, ngettext
from ..play.game import Game
from ..rulebook.cards import DOWN, card_name
from ..rulebook.engine import Move, MoveDict, TableauxError
from ..solver import solve
from . import fair
from .effort import Effort, effort
from .fair.observation import check_count
from .heuristic import heuristic_moves, history, repeating_moves

HINT_MODES = ("fair", "peek")
"""``fair``: from the cards the player has seen only; ``peek``: the solver sees the face-down cards too."""

HintSource = Literal["solver", "heuristic", "none"]


class HintDict(TypedDict):
    """A hint as JSON (:meth:`Hint.to_dict`): the one shape the library, the web API and the browser share."""

    move: MoveDict | None
    source: HintSource
    sentence: str
    message: str
    reason: str
    unwinnable: bool
    peeks: bool


@dataclass(frozen=True)
class Hint:
    """A suggested move (``None`` when there is none) and where it came from."""

    move: Move | None
    source: HintSource
    message: str
    unwinnable: bool = False
    """True when it is proved that no line from here wins: the solver searched every line, or no legal move is
    left in a game that is not won (:func:`ended_hint`)."""
    peeks: bool = False
    """True when the hint used cards the player has not seen (``mode="peek"`` while any is left); its message
    says so too."""
    sentence: str = ""
    """What to do, in one short sentence with the cards named (:func:`move_sentence`); without a move, the
    message itself."""
    reason: str = ""
    """Why, as the message says it after its move, with no move in notation: other moves are named by their
    cards (:func:`plan_words`) and the hint's own move not at all, since its sentence names it. It reads on from
    "From the solver: ", so the part after "Play R5>T1: " keeps its small letter."""

    def __post_init__(self) -> None:
        """A hint without a move has nothing to say but its message, so that is its sentence, on the object as in
        :meth:`to_dict` (a hint with a move is given its sentence by :func:`worded`)."""
        if self.move is None and not self.sentence:
            object.__setattr__(self, "sentence", self.message)

    def to_dict(self) -> HintDict:
        return {
            "move": None if self.move is None else self.move.to_dict(),
            "source": self.source,
            "sentence": self.sentence,
            "message": self.message,
            "reason": self.reason,
            "unwinnable": self.unwinnable,
            "peeks": self.peeks,
        }


def move_sentence(game: Game, move: Move) -> str:
    """The move in one short sentence, its cards named: "Move the 3 of clubs onto the 4 of hearts."

    Only cards on view are named: the cards a legal move takes are face up, and so is the card it goes onto
    (a tableau's top card); a card dealt from the stock is not named before it shows.
    """
    rules, piles = game.rules, game.state.piles
    stock = None if rules.stock is None else rules.pile_names[rules.stock]
    if move.source == stock:
        return _("Deal a card from the stock.")
    if move.target == stock:
        return _("Turn the waste over to make a new stock.")
    cards = list_words([card_name(c) for c in piles[rules.index[move.source]][-move.count:]])
    target = rules.index[move.target]
    if target in rules.foundations:
        return _("Move the {cards} to a foundation.").format(cards=cards)
    onto = piles[target]
    if not onto:
        return _("Move the {cards} to {pile}, which is empty.").format(cards=cards, pile=rules.pile_words(move.target))
    if onto[-1] & DOWN:  # not in any game's rules today; said without naming a card all the same
        return _("Move the {cards} to {pile}.").format(cards=cards, pile=rules.pile_words(move.target))
    return _("Move the {cards} onto the {target}.").format(cards=cards, target=card_name(onto[-1]))


def plan_words(game: Game, moves: list[Move]) -> str:
    """The moves of a plan as sentences with their cards named, each from the position the moves before it
    leave (:func:`move_sentence`, so no face-down card is named)."""
    ahead = game.copy()
    said = []
    for move in moves:
        said.append(move_sentence(ahead, move))
        ahead.play(move)
    return " ".join(said)


def cannot_be_won(game: Game) -> str:
    """That the solver proved the position lost; "no longer" only once a move has been played."""
    if game.played_count:
        return _("This position can no longer be won: the solver searched every line from here.")
    return _("This position cannot be won: the solver searched every line from here.")


def worded(game: Game, hint: Hint) -> Hint:
    """The hint with its sentence (the message stands for it when there is no move)."""
    return hint if hint.move is None or hint.sentence else replace(hint, sentence=move_sentence(game, hint.move))


def ended_hint(game: Game) -> Hint | None:
    """The hint for a game that takes no move, None while one is legal: the game is won, or it is lost.

    A won game takes no move (:meth:`Game.legal_moves`, as AisleRiot ends it at the win), so every hint of a won
    game says it is won, whatever the game and the mode. A game with no legal move that is not won cannot be
    won from here: no line leaves the position, so that is proved without a search, and the hint says
    ``unwinnable``.
    """
    if game.is_won():
        return Hint(None, "none", _("The game is won."))
    if game.legal_moves():
        return None
    if game.played_count:
        return Hint(None, "none", _("No move is left, so this game can no longer be won."), unwinnable=True)
    return Hint(None, "none", _("No move can be made from the deal, so it cannot be won."), unwinnable=True)


def heuristic_hint(game: Game) -> Hint:
    ended = ended_hint(game)
    if ended is not None:
        return ended
    previous = game.rules.to_raw(game.moves_played[-1]) if game.moves_played else None
    moves = heuristic_moves(game.rules, game.state, previous, history(game))
    if not moves:
        return Hint(None, "none", _(
            "No useful move is left: every legal move only swaps piles, "
            "takes back the last move or repeats a position."
        ))
    move = game.rules.to_move(moves[0])
    return worded(game, Hint(move, "heuristic", _("Try {move} (a rule of thumb, not a proof).").format(move=move)))


PEEKING = N_("(Peeking: the solver looked at the face-down cards.)")
"""Ends every message of a hint that used hidden cards."""


def peek_hint(game: Game, spend: Effort | None = None) -> Hint | None:
    """A peeking hint: the next move of a winning line of the real deal, or the news that none exists.

    None if undecided, and the game's end (:func:`ended_hint`) where no move
    is legal. The solver sees the face-down cards, so the hint is marked
    ``peeks`` and its message says so, while the player has a card left to
    see. Once every card has been on view (from the first move in classic
    King Albert, which deals every card face up), the player knows the deal
    as well as the solver does: the hint uses nothing they lack, and is
    neither marked nor worded as peeking. ``spend`` is its positions and
    seconds, the library's peeking hint's (:mod:`tableaux.advice.effort`) unless given.
    """
    if not game.legal_moves():
        return ended_hint(game)
    spend = spend or effort("peek-hint")
    result = solve(game, max_nodes=spend.positions, time_limit=spend.seconds)
    peeks = game.observation()["unseen"] > 0
    said = " " + _(PEEKING) if peeks else ""
    if result.verdict == "winnable" and result.moves:
        move, n = result.moves[0], len(result.moves)
        text = ngettext("Play {move}: it starts a winning line of {n} move.",
                        "Play {move}: it starts a winning line of {n} moves.", n).format(move=move, n=n)
        # TRANSLATORS: follows "From the solver: ", as what follows the move does in "Play R5>T1: it starts ...".
        why = ngettext("it starts a winning line of {n} move.", "it starts a winning line of {n} moves.", n).format(n=n)
        return Hint(move, "solver", text + said, peeks=peeks, reason=why + said)
    if result.verdict == "unwinnable":
        fallback = heuristic_hint(game)
        text = why = cannot_be_won(game)
        if fallback.move is not None:
            text += " " + _("You can still play {move}.").format(move=fallback.move)
        return Hint(fallback.move, "solver", text + said, unwinnable=True, peeks=peeks, reason=why + said)
    return None


def fair_hint(game: Game, spend: Effort | None = None, *, seed: int | str = 0) -> Hint:
    """A hint from what the player has seen only: the first move of :func:`.fair.plan` on the observation.

    The plan runs up to the next card turned, and the hint names it and says
    how many sampled layouts of the hidden cards it keeps winnable. ``spend``
    gives the layouts drawn, the positions per layout and the seconds for the
    whole hint (the library's fair hint's, :mod:`tableaux.advice.effort`, unless given);
    the message counts against those same layouts. When no sampled layout is
    won in time, the rule of thumb answers, saying so. Where every plan found
    starts by going back to an earlier position, a plan through another first
    move is looked for, and the way back is suggested only when none wins
    (:func:`tableaux.advice.fair.plan`'s ``last_resort``): following the hints
    never goes back and forth, and a winnable position is never called one the
    solver found no way to win.
    """
    ended = ended_hint(game)
    if ended is not None:
        return ended
    spend = spend or effort("fair-hint")
    drawn = spend.samples if spend.samples is not None else effort("fair-hint").samples
    assert drawn is not None
    observation = game.observation()
    answer = fair.plan(observation, drawn, seed=seed, max_nodes=spend.positions, time_limit=spend.seconds,
                       avoid=repeating_moves(game), last_resort=True, shortened=True)
    n, wins, decided = answer.samples, answer.wins, answer.decided
    known = fair.nothing_to_guess(observation["unseen"])
    if answer.move is not None:
        move = answer.move
        if known:
            return Hint(move, "solver", _(
                "Play {move}: it starts a winning line (no card is hidden any more).").format(move=move),
                # TRANSLATORS: follows "From the solver: ", as what follows the move does in "Play R5>T1: ...".
                reason=_("it starts a winning line (no card is hidden any more)."))
        short = shortfall(n, decided, drawn)
        # The count is a clairvoyant solver's, and says so: not the player's chance of winning (docs/fair.md).
        text = _("Play {move}: after it, a solver that sees every card wins {wins} of {n} possible layouts of the "
                 "hidden cards.").format(move=move, wins=wins, n=n) + short
        # TRANSLATORS: follows "From the solver: ", as what follows the move does in "Play R5>T1: after it, ...".
        why = _("after it, a solver that sees every card wins {wins} of {n} possible layouts of the hidden "
                "cards.").format(wins=wins, n=n) + short
        count = len(answer.moves)
        if count > 1:
            text += " " + ngettext(
                "It starts a plan of {count} move that turns a hidden card: {plan}.",
                "It starts a plan of {count} moves that turns a hidden card: {plan}.", count).format(
                count=count, plan=", ".join(map(str, answer.moves)))
            # TRANSLATORS: the plan's moves follow, each a sentence such as "Move the 3 of clubs to a foundation."
            why += " " + ngettext("It starts a plan of {count} move that turns a hidden card:",
                                  "It starts a plan of {count} moves that turns a hidden card:", count).format(
                count=count) + " " + plan_words(game, answer.moves)
        return Hint(move, "solver", text, reason=why)
    fallback = heuristic_hint(game)
    if answer.lost:
        if known:
            text = why = cannot_be_won(game)
        else:
            text = _("None of {n} possible layouts of the hidden cards can be won from here.").format(n=n)
            text = why = text + shortfall(n, decided, drawn)
        if fallback.move is not None:
            text += " " + _("You can still play {move}.").format(move=fallback.move)
        return Hint(fallback.move, "solver", text, unwinnable=known, reason=why)
    if fallback.move is None:
        return fallback
    if known:
        return Hint(fallback.move, "heuristic", _(
            "Try {move} (a rule of thumb, not a proof: the solver found no winning line from here within the search "
            "it was given).").format(move=fallback.move))
    short = shortfall(n, n, drawn)
    return Hint(fallback.move, "heuristic", _(
        "Try {move} (a rule of thumb, not a proof: the solver won none of the sampled layouts of the hidden "
        "cards, and could not tell for some of them).").format(move=fallback.move) + short, reason=short.strip())


def shortfall(solved: int, decided: int, drawn: int) -> str:
    """What a fair hint's count leaves out, as whole sentences (empty when nothing): the layouts the solver could
    not tell within its positions, and those the time limit left unsolved. ``drawn`` is the number of layouts
    the hint was handed, so "the time ran out" is said only when it did."""
    text = ""
    if decided < solved:
        untold = solved - decided
        text += " " + ngettext("The solver could not tell for {n} of them.",
                               "The solver could not tell for {n} of them.", untold).format(n=untold)
    if solved < drawn:
        text += " " + _("The time ran out after {n} of the {drawn} layouts drawn.").format(n=solved, drawn=drawn)
    return text


def hint(
    game: Game,
    *,
    mode: str = "fair",
    spend: Effort | None = None,
    time_limit: float | None = None,
    samples: int | None = None,
    seed: int | str = 0,
    max_nodes: int | None = None,
) -> Hint:
    """A suggested move.

    ``mode="fair"`` (the default) uses only what the player has seen
    (:func:`fair_hint`). ``mode="peek"`` is the clairvoyant hint: the
    solver's move on the real deal when it finds a win within its budget,
    else the heuristic's; it says that it peeks while the player has a card
    left to see.

    ``spend`` is the hint's whole effort (a front end passes its own from
    :mod:`tableaux.advice.effort`); ``time_limit``, ``samples`` and ``max_nodes``
    change one figure of it (``samples`` only for a fair hint).
    """
    if not isinstance(game, Game):
        raise TableauxError(f"hint() takes a game in play (a tableaux.Game, such as tableaux.new_game('king-albert', "
                            f"17) returns), not {type(game).__name__} {game!r}")
    if mode not in HINT_MODES:
        raise TableauxError(f"unknown hint mode {mode!r}; the modes are {', '.join(HINT_MODES)}")
    if samples is not None:  # refused as a fair hint refuses it, though a peeking hint draws no layouts
        check_count(samples, "the number of samples", fair.MAX_SAMPLES)
    base = spend or effort("fair-hint" if mode == "fair" else "peek-hint")
    chosen = Effort(
        samples=base.samples if samples is None or mode == "peek" else samples,
        positions=base.positions if max_nodes is None else max_nodes,
        seconds=base.seconds if time_limit is None else time_limit,
    )
    if mode == "peek":
        return worded(game, peek_hint(game, chosen) or heuristic_hint(game))
    return worded(game, fair_hint(game, chosen, seed=seed))
