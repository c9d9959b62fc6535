"""A game in progress: an immutable position plus the history on top of it.

This is the object players and outside tools hold (in the spirit of
python-chess's ``Board``): ``legal_moves()``, ``play()``, ``undo()``,
``redo()``, ``restart()``, ``position()``, saving and loading. Every rule
question goes to the game's :class:`~tableaux.rulebook.engine.Rules`, so the terminal,
the web game, the hints and the solver all agree.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..i18n import N_, _
from ..rulebook import registry
from ..rulebook.cards import DOWN
from ..rulebook.deal import MAX_DEAL, check_deal
from ..rulebook.engine import IllegalMoveError, Move, RawMove, Rules, State, TableauxError
from . import reading
from .position import observation_dict, position_dict
from .save_file import SAVE_FORMAT, SAVE_VERSION, write_save

TYPE_CHECKING = False  # typing is not loaded: a game is played without it (benchmarks/cli.py)
if TYPE_CHECKING:
    from collections.abc import MutableSequence
    from pathlib import Path
    from typing import Any

    from .shapes import Position

WON = N_("this game is won and takes no more moves: undo takes the last move back, or start a new game")
"""Why a won game refuses a move (:meth:`Game.play`)."""


def __getattr__(name: str) -> object:
    """``Position``, the JSON shape of a position, is kept in :mod:`.shapes` and handed out from here."""
    if name == "Position":
        from .shapes import Position

        return Position
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class Game:
    """A deal being played. Mutable; the positions it moves between are not.

    The history is one line of moves and a cursor: the first ``cursor`` moves
    are played, the rest are the redo line. Undo and redo move the cursor; a
    move other than the next one on the line cuts the line there. Beside it,
    ``_states[i]`` is the position after ``i`` moves, for every ``i`` up to the
    cursor. Both are only read by index, cut short and appended to, so a store
    that keeps long games in rows can hand in sequences of its own that read
    rows on demand (:meth:`kept`).
    """

    def __init__(self, rules: Rules, deal: int) -> None:
        if not isinstance(rules, Rules):
            raise TableauxError(f"Game takes a game's rules (tableaux.rules('king-albert')), not {rules!r}; "
                                f"tableaux.new_game('king-albert', 17) deals a game by its name")
        self.rules = rules
        self.deal = check_deal(deal)
        self._states: MutableSequence[State] = [rules.deal(self.deal)]
        self._line: MutableSequence[Move] = []
        """The moves played, then the redo line (the next move to redo first)."""
        self._cursor = 0
        """How many moves of the line are played."""
        self._legal: tuple[list[RawMove], list[Move]] | None = None
        self._seen: set[int] = set()
        """Every card the player has had on view in this game, undone lines included (see :meth:`observation`)."""
        self._look()
        self.assisted = False
        """Set once the solver has shown or played the way to win (a solution, not a hint): statistics keep such
        games apart. It stays set through undo and restart, and is saved with the game."""

    @classmethod
    def replay(
        cls,
        rules: Rules,
        deal: int,
        moves: Iterable[Move | str | tuple[str, int, str]],
        redo: Iterable[Move | str | tuple[str, int, str]] = (),
    ) -> Game:
        """The game reached by playing ``moves`` from the deal, with ``redo`` (next first) left to redo.

        The one way a game is rebuilt from its moves (saves, the web store), so
        every move is checked by :meth:`play` and nothing impossible gets in.
        Move texts are read exactly as written: ``T1>T4`` is one card, however
        many could go. A move that cannot be played raises the error that
        :meth:`play` gives, prefixed with which move it was (``move 3 ('T1>T2')``
        or ``redo move 1 (...)``). A bad deal number raises :class:`DealError`.
        """
        game = cls(rules, deal)
        redo = list(redo)
        for label, line in (("move", moves), ("redo move", redo)):
            for number, move in enumerate(line, 1):
                try:
                    game.play(Move.from_str(move) if isinstance(move, str) else move)
                except TableauxError as exc:
                    raise type(exc)(f"{label} {number} ({str(move)!r}) cannot be played: {exc}") from None
        game.back_to(game.played_count - len(redo))
        return game

    @classmethod
    def kept(
        cls,
        rules: Rules,
        deal: int,
        *,
        line: MutableSequence[Move],
        states: MutableSequence[State],
        played: int,
        seen: Iterable[int] = (),
        assisted: bool = False,
    ) -> Game:
        """A game whose history is kept elsewhere: the web store's rows, read as they are needed.

        ``line`` holds the moves played and then the redo line; ``states[i]`` is
        the position after ``i`` of them, for ``i`` up to ``played`` (a store
        keeps a few and works out the others from the nearest one). ``seen`` are
        the cards the player has had on view so far (:meth:`seen_cards`). The
        store checked every move as it was played, so nothing here is replayed:
        a game of any length is taken up in the time one position takes.
        """
        if len(states) != played + 1 or not 0 <= played <= len(line):
            raise ValueError(f"a kept game needs the position after each of its {played} moves played")
        game = object.__new__(cls)
        game.rules = rules
        game.deal = check_deal(deal)
        game._states = states
        game._line = line
        game._cursor = played
        game._legal = None
        game._seen = set(seen)
        game._look()
        game.assisted = assisted
        return game

    @classmethod
    def trusted_replay(cls, rules: Rules, deal: int, moves: Iterable[Move | str], redo: Iterable[Move | str] = (),
                       seen: Iterable[int] = ()) -> Game:
        """The game reached by playing ``moves`` as they are, with ``redo`` left to redo: for moves this program
        checked when they were played and kept since (the web store's), so each costs one :meth:`Rules.apply`
        instead of the legal-move search :meth:`replay` makes (a 20,000-move game in a fraction of a second)."""
        line = [Move.from_str(m) if isinstance(m, str) else m for m in moves]
        played = len(line)
        line += [Move.from_str(m) if isinstance(m, str) else m for m in redo]
        states = [rules.deal(check_deal(deal))]
        for move in line[:played]:
            states.append(rules.apply(states[-1], rules.to_raw(move)))
        return cls.kept(rules, deal, line=line, states=states, played=played, seen=seen)

    # --- reading the position --------------------------------------------
    @property
    def name(self) -> str:
        """The game's name in the registry (``king-albert``), as :func:`new_game` takes it."""
        return self.rules.name

    @property
    def state(self) -> State:
        """The current immutable position (what the solver works on)."""
        return self._states[-1]

    @property
    def positions(self) -> list[State]:
        """Every position of the played line, from the deal to the current one."""
        return list(self._states)

    @property
    def moves_played(self) -> list[Move]:
        """The moves from the deal to this position, first one first (a copy: changing it changes nothing)."""
        return list(self._line[:self._cursor])

    @property
    def redo_moves(self) -> list[Move]:
        """Moves that :meth:`redo` would replay, next one first."""
        return list(self._line[self._cursor:])

    @property
    def played_count(self) -> int:
        """``len(moves_played)``, without listing them."""
        return self._cursor

    @property
    def redo_count(self) -> int:
        """``len(redo_moves)``, without listing them."""
        return len(self._line) - self._cursor

    @property
    def seen_cards(self) -> frozenset[int]:
        """Every card (face-down bit cleared) the player has had on view in this game (see :meth:`observation`)."""
        return frozenset(self._seen)

    @property
    def score(self) -> int:
        """AisleRiot's score: the cards on the foundations (52 when won)."""
        return self.rules.score(self.state)

    def is_won(self) -> bool:
        """Every card is on the foundations."""
        return self.rules.won(self.state)

    def is_over(self) -> bool:
        """No legal move and no stock action left, and not won. Never claimed while a move exists."""
        return not self.is_won() and not self.legal_moves()

    def legal_moves(self) -> list[Move]:
        """The moves :meth:`play` accepts: none once the game is won."""
        return list(self._legal_moves()[1])

    def _legal_moves(self) -> tuple[list[RawMove], list[Move]]:
        """The legal moves, raw and named, worked out once per position.

        A won game has none. King Albert's rules would still let a card come back off a foundation, but the game
        ends at the win, as AisleRiot ends it: this is the one place that says so, and the terminal, the web
        game and the hints take it from here.
        """
        if self._legal is None:
            if self.is_won():
                self._legal = ([], [])
            else:
                to_move = self.rules.to_move
                raw = self.rules.moves(self.state)
                self._legal = (raw, [to_move(m) for m in raw])
        return self._legal

    def is_legal(self, move: Move | str | tuple[str, int, str]) -> bool:
        """Whether :meth:`play` would play ``move``: it reads moves exactly as ``play`` does."""
        try:
            self._coerce(move)
        except TableauxError:
            return False
        return True

    def position(self, *, hide: bool = False) -> Position:
        """The whole position as JSON-ready data, every card shown (for tools)."""
        return position_dict(
            self.rules, self.state, deal=self.deal, moves_played=self._cursor, can_undo=self._cursor > 0,
            can_redo=self.redo_count > 0, hide=hide, has_moves=bool(self._legal_moves()[0]))

    def public_position(self) -> Position:
        """:meth:`position` with the identity of every card the player cannot see removed.

        What is on view is the rules' to say (:meth:`Rules.visible`): face-down
        cards, and in Eagle Wing the face-up bottom card of the trunk while
        other cards cover it. Every player's screen is drawn from this.
        """
        return self.position(hide=True)

    def observation(self) -> dict[str, Any]:
        """Everything the player has seen in this game, and nothing else, as JSON-ready data.

        This is what advice that does not peek (:mod:`tableaux.advice.fair`) works
        from, so it holds no card the player has never had on view, and not
        the deal number either (deal N fixes every card). Fields:

        * ``position``: :meth:`public_position` without ``deal``: what is on view now;
        * ``piles``: every card slot, bottom to top, as ``{"card", "up"}``.
          ``card`` is the card's code when the player knows it: on view now,
          or seen earlier and followed since (Eagle Wing's waste turned back
          into the stock keeps its order; a King Albert card turned up and then
          covered again by undo). It is ``None`` for a card never seen.
          ``up`` is how the card lies in the game, which the rules fix (the
          trunk's bottom card is dealt face up although it is not on view);
        * ``unseen``: how many cards the player has never seen;
        * ``redeals``: stock redeals used (Eagle Wing; 0 elsewhere);
        * ``moves``: the moves played, in notation.

        A seen card can always be followed, because no move in these games
        hides a card in a way the player cannot track: cards only move by
        public moves, and the stock is the waste turned over in order.
        Cards seen in lines that were undone and then replaced by other moves
        count too, but a save file keeps only the current line and the redo
        list, so after loading, cards seen only in discarded lines are no
        longer in the observation (it then knows less, never more).
        """
        return observation_dict(self.rules, self.state, self.public_position(), self._seen, self.moves_played)

    # --- moving ----------------------------------------------------------
    def parse_move(self, text: str) -> Move:
        """Read move text against this position; a missing count is filled in when only one fits.

        Raises :class:`NotationError` for text that is not a move and
        :class:`IllegalMoveError` when no legal move matches (or the game is won).
        """
        self._refuse_if_won()
        return reading.parse_move(self.rules, self.state, self.legal_moves(), text)

    def _coerce(self, move: Move | str | tuple[str, int, str]) -> Move:
        self._refuse_if_won()
        return reading.check_move(self.rules, self.state, self.legal_moves(), move)

    def _refuse_if_won(self) -> None:
        """A won game takes no move (:meth:`_legal_moves`); said as such, rather than as a move the rules forbid,
        which they do not."""
        if self.is_won():
            raise IllegalMoveError(_(WON))

    def _push(self, move: Move) -> None:
        """Play ``move``, the line's next move (:meth:`play` has put it there)."""
        self._states.append(self.rules.apply(self.state, self.rules.to_raw(move)))
        self._cursor += 1
        self._legal = None
        self._look()

    def _look(self) -> None:
        """Remember the cards now on view: once seen, a card stays known even after undo hides it again."""
        for pile, shown in zip(self.state.piles, self.rules.visible(self.state), strict=True):
            self._seen.update(c & ~DOWN for c, visible in zip(pile, shown, strict=True) if visible)

    def play(self, move: Move | str | tuple[str, int, str]) -> Move:
        """Play a legal move (a :class:`Move` or its text). Illegal moves raise and change nothing, and so does
        any move once the game is won (:meth:`undo` and :meth:`restart` still go back)."""
        move = self._coerce(move)
        line = self._line
        if not (self._cursor < len(line) and line[self._cursor] == move):  # replaying the redo line keeps it
            del line[self._cursor:]
            line.append(move)
        self._push(move)
        return move

    def undo(self) -> Move:
        """Take back the last move played, which goes to the front of the redo list, and return it; with none played,
        raise :class:`IllegalMoveError` and change nothing."""
        if not self._cursor:
            raise IllegalMoveError(_("nothing to undo: no move has been played"))
        self.back_to(self._cursor - 1)
        return self._line[self._cursor]

    def redo(self) -> Move:
        """Play again the first move of the redo list and return it; with none there, raise
        :class:`IllegalMoveError` and change nothing."""
        if self._cursor == len(self._line):
            raise IllegalMoveError(_("nothing to redo"))
        move = self._line[self._cursor]
        self._push(move)
        return move

    def restart(self) -> None:
        """Back to the deal. The moves stay on the redo list, so nothing is lost."""
        self.back_to(0)

    def back_to(self, played: int) -> None:
        """Undo until ``played`` moves are left played (the others go to the redo line, as :meth:`undo` puts
        them), in one step."""
        if not 0 <= played <= self._cursor:
            raise ValueError(f"cannot go back to {played} moves played from {self._cursor}")
        del self._states[played + 1:]
        self._cursor = played
        self._legal = None

    def copy(self) -> Game:
        """An independent game with the same position and history, for trying moves out (undo and redo too).

        Positions are immutable, so they are shared; only the history lists are copied.
        """
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._states = list(self._states)
        other._line = list(self._line)
        other._seen = set(self._seen)
        return other

    def home_move(self, pile: str) -> Move | None:
        """The move a double-click on ``pile`` makes (its top card to a foundation), if any. ``pile`` is named as
        move text names it (``T9`` or ``tableau-9``)."""
        pile = reading.read_pile(self.rules, pile)
        raw = self.rules.home_moves(self._legal_moves()[0]).get(self.rules.index[pile])
        return None if raw is None else self.rules.to_move(raw)

    def home_moves(self) -> dict[str, Move]:
        """:meth:`home_move` of every pile that has one, by pile name, from one look at the legal moves."""
        rules = self.rules
        raw = rules.home_moves(self._legal_moves()[0])
        return {rules.pile_names[pile]: rules.to_move(move) for pile, move in sorted(raw.items())}

    # --- saving and loading ----------------------------------------------
    def digest(self) -> str:
        """A fingerprint of the current position, stored in saves to catch edits."""
        import hashlib  # only saves need it, so a command that never saves does not load it

        text = f"{self.name}|{self.deal}|{self.state.piles}|{self.state.redeals}"
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def to_dict(self) -> dict[str, Any]:
        """The game as its save file holds it (JSON types only): the deal, the moves played and the redo list, and
        a digest of the position they reach, which :func:`tableaux.loads` checks."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "game": self.name,
            "deal": self.deal,
            "moves": [str(m) for m in self.moves_played],
            "redo": [str(m) for m in self.redo_moves],
            "digest": self.digest(),
            **({"assisted": True} if self.assisted else {}),  # left out when False, so older versions read it
        }

    def dumps(self) -> str:
        """:meth:`to_dict` as the JSON text of a save file; :func:`tableaux.loads` reads it back."""
        import json  # loaded by what saves, not by every command that plays

        return json.dumps(self.to_dict(), indent=1)

    def save(self, path: str | Path) -> None:
        """Write the game as JSON (:func:`write_save`: atomically, or a :class:`SaveFileError` that says why)."""
        write_save(path, self.dumps())

    def __str__(self) -> str:
        """The board as the terminal draws it, in plain text: face-down cards are backs, as a player sees them."""
        from .board import board_text  # drawing is only loaded by those who print a game

        return board_text(self.public_position())

    def __repr__(self) -> str:
        return f"<Game {self.name} deal={self.deal} moves={self._cursor} score={self.score}>"

    def __eq__(self, other: object) -> bool:
        """Same game, deal, moves played, moves to redo and assisted flag: what a save keeps.

        Cards seen only in undone lines are left out, as a save leaves them out,
        so ``loads(game.dumps()) == game`` always holds.
        """
        if not isinstance(other, Game):
            return NotImplemented
        return (self.rules.name, self.deal, self.moves_played, self.redo_moves, self.assisted) == (
            other.rules.name, other.deal, other.moves_played, other.redo_moves, other.assisted)

    __hash__ = None  # type: ignore[assignment]  # a game changes as it is played


def new_game(name: str, deal: int | None = None) -> Game:
    """Start deal ``deal`` (0..4294967295) of game ``name``; a random deal when omitted."""
    game_rules = registry.rules(name)
    if deal is None:
        import random

        deal = random.randint(0, MAX_DEAL)
    return Game(game_rules, deal)
