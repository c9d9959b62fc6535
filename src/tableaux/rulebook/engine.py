"""The generic engine: positions, moves, their notation, and the rules interface.

Every game, the solver and every user interface share this module, so a rule
is written once (in the game's module) and used everywhere through
:meth:`Rules.moves` and :meth:`Rules.apply`.

Two layers:

* ``State`` and raw moves ``(source_index, count, target_index)`` are plain
  tuples of ints: immutable, hashable, cheap. The solver works here.
* :class:`Move` names piles (``tableau-3``) and has a text notation; the
  :class:`~tableaux.play.game.Game` object, the terminal and the web API work here.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections import namedtuple

from ..i18n import N_, _
from .cards import DOWN, TableauxError, card_str
from .guide import Layout

TYPE_CHECKING = False  # typing is not loaded: the rules start without it (benchmarks/cli.py)
if TYPE_CHECKING:
    from typing import Any

    from .shapes import CardDict, Guide, MoveDict

Pile = tuple[int, ...]
RawMove = tuple[int, int, int]
"""``(source pile index, number of cards, target pile index)``."""


class IllegalMoveError(TableauxError, ValueError):
    """A move that the rules do not allow in the current position."""


class NotationError(TableauxError, ValueError):
    """Text that is not a move in our notation."""


class State(namedtuple("State", "piles redeals", defaults=(0,))):
    """One position: the piles (bottom to top) and the stock redeals used.

    Being a tuple of tuples of ints, it is immutable and hashable, and copying
    a position means sharing all the piles a move did not touch.
    """

    __slots__ = ()
    piles: tuple[Pile, ...]
    redeals: int

    def packed(self) -> bytes:
        """The position in a few bytes (about 75), for a store that keeps it beside a game: the redeals, the
        number of piles, then each pile's length and cards (card ints fit a byte, face-down bit included)."""
        out = bytearray((self.redeals, len(self.piles)))
        for pile in self.piles:
            out.append(len(pile))
            out += bytes(pile)
        return bytes(out)

    @classmethod
    def unpacked(cls, data: bytes) -> State:
        """The position :meth:`packed` wrote; ``ValueError`` for bytes it cannot have written."""
        data = bytes(data)
        if len(data) < 2:
            raise ValueError("a packed position has at least two bytes")
        piles = []
        at = 2
        for _pile in range(data[1]):
            if at >= len(data) or at + 1 + data[at] > len(data):
                raise ValueError("a packed position ends inside a pile")
            piles.append(tuple(data[at + 1:at + 1 + data[at]]))
            at += 1 + data[at]
        if at != len(data):
            raise ValueError("a packed position has bytes after its last pile")
        return cls(tuple(piles), data[0])


class Move(namedtuple("Move", "source count target")):
    """A move as players and tools see it: ``count`` cards from ``source`` to ``target``.

    Notation (see ``docs/notation.md``): short pile names (``T3``, ``F1``,
    ``R2``, ``S``, ``W``, Eagle Wing's reserve ``R``), a ``>`` between source
    and target, and ``:N`` after the source when more than one card moves::

        T3>F1      one card from tableau-3 to foundation-1
        T1:3>T4    three cards from tableau-1 onto tableau-4
        S>W        Eagle Wing: deal a card from the stock
        W:24>S     Eagle Wing: turn the 24-card waste back into the stock

    ``str(move)`` always gives this canonical form and :meth:`from_str` reads
    it back exactly. :meth:`from_str` also accepts long pile names and spaces
    (``tableau-1 3 tableau-4``).
    """

    __slots__ = ()
    source: str
    count: int
    target: str

    def __str__(self) -> str:
        count = f":{self.count}" if self.count != 1 else ""
        return f"{short_name(self.source)}{count}>{short_name(self.target)}"

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Parse the notation; the count defaults to 1. Raises :class:`NotationError`."""
        source, count, target = parse_notation(text)
        return cls(source, 1 if count is None else count, target)

    def to_dict(self) -> MoveDict:
        """JSON-ready, with the notation beside the parts: the one shape of a move in every answer."""
        return {"source": self.source, "count": self.count, "target": self.target, "text": str(self)}


def __getattr__(name: str) -> object:
    """``CardDict`` and ``MoveDict``, the JSON shapes, are kept in :mod:`.shapes` and handed out from here."""
    if name in ("CardDict", "MoveDict"):
        from . import shapes

        return getattr(shapes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_SHORT = {"foundation": "F", "tableau": "T", "reserve": "R", "stock": "S", "waste": "W"}
_LONG = {v: k for k, v in _SHORT.items()}
_PILE = r"(?:foundation|tableau|reserve|stock|waste|[FTRSW])(?:-?\d{1,2})?"
_NOTATION = (
    rf"^\s*(?:(?P<pre>-?\d{{1,3}})\s+)?(?P<src>{_PILE})\s*(?::\s*(?P<count>-?\d{{1,3}}))?"
    rf"\s*(?:>|->|\s)\s*(?:(?P<mid>-?\d{{1,3}})\s+)?(?P<dst>{_PILE})\s*$"
)
"""A move's text; compiled on first use (``re``'s cache keeps it), so a command that reads no move text skips it.
A count may have a minus sign, so that ``T1:-1>T2`` is refused for its count, as ``T1:0>T2`` is."""
NOTATION_HELP = N_(
    "a move is SOURCE>TARGET with short pile names, for example 'T3>F1', 'R2>T5', "
    "'T1:3>T4' (three cards), 'S>W' (deal from the stock); long names such as "
    "'tableau-1 3 tableau-4' work too"
)


def short_name(pile: str) -> str:
    """``tableau-3`` -> ``T3``, ``stock`` -> ``S``."""
    kind, _dash, num = pile.partition("-")
    return _SHORT.get(kind, kind) + num


def long_name(text: str) -> str:
    """``T3``/``t-3``/``Tableau-3`` -> ``tableau-3``; unknown kinds are returned lower-cased."""
    t = text.strip().lower()
    m = re.fullmatch(r"([a-z]+)-?(\d*)", t)
    if not m:
        return t
    kind, num = m.groups()
    kind = _LONG.get(kind.upper(), kind) if len(kind) == 1 else kind
    return f"{kind}-{int(num)}" if num else kind


def parse_notation(text: str) -> tuple[str, int | None, str]:
    """Split move text into long source name, count (``None`` if not given) and target."""
    if not isinstance(text, str):
        raise NotationError(_("a move must be text, not {kind}; {help}").format(
            kind=type(text).__name__, help=_(NOTATION_HELP)))
    m = re.match(_NOTATION, text, re.IGNORECASE)
    if not m:
        raise NotationError(_("not a move: {text}; {help}").format(text=repr(text), help=_(NOTATION_HELP)))
    counts = [m.group(g) for g in ("pre", "count", "mid") if m.group(g)]
    if len(counts) > 1:
        raise NotationError(_("not a move: {text} gives the count twice; {help}").format(
            text=repr(text), help=_(NOTATION_HELP)))
    count = int(counts[0]) if counts else None
    if count is not None and count < 1:
        raise NotationError(_("not a move: {text}; the number of cards must be at least 1").format(text=repr(text)))
    return long_name(m.group("src")), count, long_name(m.group("dst"))


class Rules(ABC):
    """One game's rules over :class:`State`. Subclasses read like the rules page."""

    name: str
    title: str
    pile_names: tuple[str, ...]

    def __init__(self) -> None:
        self.index = {name: i for i, name in enumerate(self.pile_names)}
        self.short_names = tuple(short_name(name) for name in self.pile_names)
        """Each pile's short name, by index: the refusals name piles this way, and the solver replays every line
        it returns through :meth:`why_illegal`, so they are made once, not for every move."""
        self._moves: dict[RawMove, Move] = {}
        """:meth:`to_move`'s answers, made once each: a solver's line names the same few moves again and again
        (a few thousand at most: pile, count, pile)."""

    def __repr__(self) -> str:
        """The class and the game's name, so that ``tableaux.GAMES`` reads as the games it holds."""
        return f"<{type(self).__name__} {self.name}>"

    # --- the rules proper -------------------------------------------------
    @abstractmethod
    def deal(self, deal: int) -> State:
        """The starting position of deal number ``deal``."""

    @abstractmethod
    def moves(self, state: State) -> list[RawMove]:
        """Every legal move, stock actions included. The one move generator."""

    @abstractmethod
    def apply(self, state: State, move: RawMove) -> State:
        """The position after a legal move, automatic actions included."""

    def home_move(self, state: State, pile: int) -> RawMove | None:
        """What a double-click on ``pile`` does: its top card to a foundation, if it can go.

        Derived from :meth:`moves` (the first one-card move from ``pile`` to a
        foundation), so a double-click can only ever make a legal move and the
        foundation rule stays written once, in each game's move generator.
        """
        if pile not in self.home_piles:
            return None
        return self.home_moves(self.moves(state)).get(pile)

    def home_moves(self, moves: list[RawMove]) -> dict[int, RawMove]:
        """:meth:`home_move` of every pile at once, from the position's legal ``moves`` (one move generation
        for the whole table rather than one per pile, as a page showing every pile's double-click needs)."""
        found: dict[int, RawMove] = {}
        foundations = self.foundations
        for move in moves:
            if move[1] == 1 and move[2] in foundations and move[0] in self.home_piles:
                found.setdefault(move[0], move)
        return found

    def score(self, state: State) -> int:
        """Both games score one point per card on the foundations."""
        return sum(len(state.piles[i]) for i in self.foundations)

    def won(self, state: State) -> bool:
        return self.score(state) == 52

    def extra(self, state: State) -> dict[str, Any]:
        """Game-specific fields of ``Game.position()``."""
        return {"status": ""}

    def why_illegal(self, state: State, move: RawMove, names: tuple[str, ...] | None = None) -> str | None:
        """The rule that refuses ``move`` here, in a player's words; None when no rule does (the move is legal).

        Written next to each game's move generator, so every interface (terminal,
        web, library) gives the same reason from one place. It never names a card
        the player cannot see. ``tests/rules/test_why_illegal.py`` checks it against
        :meth:`moves`: None for every legal move, a reason for every other one.
        ``names`` says how it names each pile (by index): the notation's short names
        (T3, F1) by default, or a screen's words (:meth:`pile_word_names`).
        """
        src, count, dst = move
        if src == dst:
            return _("a pile cannot move onto itself")
        if count < 1:  # as the notation says of "T1:0>T2"
            return _("the number of cards must be at least 1")
        if not state.piles[src]:
            return _("{pile} is empty").format(pile=(names or self.short_names)[src])
        return None

    def pile_word_names(self) -> tuple[str, ...]:
        """Every pile as a sentence names it ("tableau 3", "the stock"), by index, in the current language: for
        :meth:`why_illegal` on a screen that does not show the notation."""
        return tuple(self.pile_words(name) for name in self.pile_names)

    def notation_help(self) -> str:
        """How moves are written, with examples from this game's own piles (``S>W`` only where there is a stock)."""
        names = self.pile_names
        tableau = [short_name(names[i]) for i in self.tableau]
        found = short_name(names[self.foundations[0]])
        groups: dict[str, list[str]] = {}
        for name in names:
            groups.setdefault(name.partition("-")[0], []).append(short_name(name))
        piles = ", ".join(g[0] if len(g) == 1 else f"{g[0]}-{g[-1]}" for g in groups.values())
        if self.stock is not None and self.waste is not None:
            examples = _("'{a}>{f}', '{a}>{c}', '{a}:3>{d}' (three cards), '{s}>{w}' (turn a stock card)").format(
                a=tableau[0], f=found, c=tableau[2], d=tableau[3], s=short_name(names[self.stock]),
                w=short_name(names[self.waste]))
        else:
            examples = _("'{a}>{f}', '{a}>{c}', '{a}:3>{d}' (three cards)").format(
                a=tableau[0], f=found, c=tableau[2], d=tableau[3])
        return _("a move is SOURCE>TARGET with {game}'s pile names ({piles}), for example {examples}; "
                 "long names such as '{first} 3 {fourth}' work too").format(
            game=_(self.title), piles=piles, examples=examples, first=names[self.tableau[0]],
            fourth=names[self.tableau[3]])

    foundations: tuple[int, ...] = ()
    tableau: tuple[int, ...] = ()
    home_piles: tuple[int, ...] = ()
    """Piles whose top card a double-click sends home (AisleRiot chooses these per game)."""
    stock: int | None = None
    """The stock pile's index in games that have one (Eagle Wing), else None."""
    waste: int | None = None
    """The waste pile's index in games with a stock, else None."""
    in_browser: bool = True
    """Whether the browser game offers this game."""
    layout: Layout
    """Where each pile sits on a screen's table (:mod:`tableaux.rulebook.guide`)."""
    rules_title: str = N_("Rules of {game}")
    """The title of the game's rules page: a whole sentence per game where a language bends it to the name
    (French "Règles de King Albert", "Règles d'Eagle Wing")."""

    def pile_words(self, pile: str) -> str:
        """How a sentence names ``pile`` ("tableau 3", "the stock"), in the current language."""
        kind, _dash, number = pile.partition("-")
        if kind == "tableau":
            return _("tableau {n}").format(n=number)
        if kind == "foundation":
            return _("foundation {n}").format(n=number)
        if kind == "reserve":
            return _("reserve {n}").format(n=number) if number else _("the reserve")
        if kind == "stock":
            return _("the stock")
        if kind == "waste":
            return _("the waste")
        return pile.replace("-", " ")

    safe_cards: str = ""
    """Which cards a front end's "move safe cards home" plays, in a player's words (a sentence to translate; the
    proofs are the solver's, tableaux.solver.strategy): empty for a game with none."""

    def guide(self) -> Guide:
        """The rules in a player's words, in the current language (:mod:`tableaux.rulebook.guide`): what the game
        is, wherever it is played; how to play it is each front end's own."""
        return []

    # --- helpers shared by the UIs ---------------------------------------
    def to_move(self, raw: RawMove) -> Move:
        move = self._moves.get(raw)
        if move is None:
            s, n, t = raw
            move = self._moves[raw] = Move(self.pile_names[s], n, self.pile_names[t])
        return move

    def to_raw(self, move: Move) -> RawMove:
        try:
            return (self.index[move.source], move.count, self.index[move.target])
        except KeyError as exc:
            raise IllegalMoveError(
                f"unknown pile {exc.args[0]!r} in {self.title}; piles are {', '.join(self.pile_names)}"
            ) from None

    def visible(self, state: State) -> tuple[tuple[bool, ...], ...]:
        """Which cards of each pile (bottom to top) a player can see now.

        The one definition of what is on view, used by every player's view
        (``Game.public_position``, the web API, the terminal) and by what the
        player is said to have seen (``Game.observation``). A face-down card is
        never visible; games whose closed piles cover face-up cards say so by
        overriding this.
        """
        return tuple(tuple(not c & DOWN for c in pile) for pile in state.piles)

    def pile_dicts(self, state: State, hide: bool) -> dict[str, list[CardDict]]:
        """Piles as JSON-ready lists; ``hide`` drops the identity of every card the player cannot see.

        A hidden card is written as a card back (``{"card": None, "up": False}``)
        even when the engine holds it face up under a closed pile: on screen it
        is indistinguishable from a face-down card.
        """
        out = {}
        shown = self.visible(state) if hide else None
        for i, (name, pile) in enumerate(zip(self.pile_names, state.piles, strict=True)):
            out[name] = [
                {"card": None, "up": False}
                if shown is not None and not shown[i][depth]
                else {"card": card_str(c), "up": not c & DOWN}
                for depth, c in enumerate(pile)
            ]
        return out
