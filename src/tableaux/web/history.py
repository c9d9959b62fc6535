"""A stored game taken up in constant time, whatever its length, and the rows one change writes back.

The store keeps a game as a row (the position after its moves played, how many are played, the line's
length) and its line of moves in rows of their own, with every hundredth position of the line
(:mod:`tableaux.web.store`). :func:`take_up` makes the :class:`~tableaux.play.game.Game` of a record
from its row alone: the line and the positions along it are sequences that read the store only when
asked for something the row does not hold. A move reads at most the next move of the redo line; an undo
reads the position kept at or before the ply it goes back to and the moves after it (fewer than
:data:`KEEP_EVERY`), and replays those; a hint or a save reads the whole line, once.

The same sequences note what a change did to them, so :func:`change_of` says exactly which rows to
write: the moves added to the line (and where it was cut before them), and the positions reached at each
hundredth ply. Undo, redo and restart only move the cursor, so they write the game's row alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import overload

from ..i18n import _
from ..play.game import Game
from ..rulebook.engine import Move, Rules, State, TableauxError
from ..rulebook.registry import rules as rules_for
from .store import GameChange, GameRecord, Store, StoreError

KEEP_EVERY = 100
"""Every position at a multiple of this ply on a game's line is kept in the store: an undo replays fewer moves."""
HELD = 2 * KEEP_EVERY
"""Positions a taken-up game holds in memory at most (besides the one on show and the deal)."""


class StoredLine:
    """A game's line of moves (played, then the redo line), its rows read from the store on demand.

    It behaves as the list :class:`Game` keeps by itself, for what a game does with it: read by index or
    slice, cut short, append.
    """

    def __init__(self, read: Callable[[int, int], list[str]], length: int,
                 known: Iterable[tuple[int, Move]] = ()) -> None:
        self._read = read
        self._length = length
        self._rows = length
        """The rows the store holds for this line (plies 0 to ``_rows - 1``)."""
        self._moves: dict[int, Move] = dict(known)
        self._dirty: int | None = None
        """The first ply whose stored row (if any) no longer holds this line's move."""

    def __len__(self) -> int:
        return self._length

    def _fetch(self, start: int, stop: int) -> None:
        missing = [ply for ply in range(start, stop) if ply not in self._moves]
        if missing:  # rows beyond a cut are always held, so what is missing is all stored
            first, last = missing[0], missing[-1] + 1
            for ply, text in enumerate(self._read(first, last), first):
                self._moves.setdefault(ply, Move.from_str(text))

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._length)
            self._fetch(start, stop)
            return [self._moves[ply] for ply in range(start, stop, step)]
        ply = index + self._length if index < 0 else index
        if not 0 <= ply < self._length:
            raise IndexError("line index out of range")
        self._fetch(ply, ply + 1)
        return self._moves[ply]

    def __delitem__(self, index: slice) -> None:
        """Only what :class:`Game` does: cut the line from a ply on (``del line[ply:]``)."""
        start, stop, _step = index.indices(self._length)
        if stop != self._length or index.step not in (None, 1):
            raise ValueError("a stored line is only ever cut from a ply to its end")
        if start < self._length:
            for ply in range(start, self._length):
                self._moves.pop(ply, None)
            self._length = start
            self._dirty = start if self._dirty is None else min(self._dirty, start)

    def append(self, move: Move) -> None:
        self._moves[self._length] = move
        self._dirty = self._length if self._dirty is None else min(self._dirty, self._length)
        self._length += 1

    def __iter__(self) -> Iterator[Move]:
        return iter(self[0:self._length])

    def changes(self) -> tuple[int | None, list[tuple[int, Move]]]:
        """``(cut, added)``: the ply from which stored rows go (None: none do), and the moves to write."""
        if self._dirty is None:
            return None, []
        cut = self._dirty if self._dirty < self._rows else None
        return cut, [(ply, self._moves[ply]) for ply in range(self._dirty, self._length)]

    def saved(self) -> None:
        """The store now holds this line as it is."""
        self._rows = self._length
        self._dirty = None


class StoredPositions:
    """The position after each played move of a game, as :class:`Game` keeps them: the one on show held,
    any other worked out on demand from the nearest one the store keeps (or the deal), by replaying the
    moves between, which the rules checked as they were first played."""

    def __init__(self, rules: Rules, deal: int, line: StoredLine, played: int, current: State,
                 nearest: Callable[[int], tuple[int, bytes] | None]) -> None:
        self._rules = rules
        self._deal = deal
        self._line = line
        self._nearest = nearest
        self._length = played + 1
        self._held: dict[int, State] = {played: current}
        self.reached: list[int] = []
        """Plies appended since the last save (the store keeps those at multiples of :data:`KEEP_EVERY`)."""

    def __len__(self) -> int:
        return self._length

    def _start(self) -> State:
        start = self._held.get(0)
        if start is None:
            start = self._held[0] = self._rules.deal(self._deal)
        return start

    def _position(self, ply: int) -> State:
        found = self._held.get(ply)
        if found is not None:
            return found
        base = max((p for p in self._held if p < ply), default=0)
        kept = self._nearest(ply) if ply - base > 1 else None
        if kept is not None and kept[0] > base:
            base = kept[0]
            self._held[base] = State.unpacked(kept[1])
        state = self._held[base] if base else self._start()
        for at, move in enumerate(self._line[base:ply], base + 1):
            state = self._rules.apply(state, self._rules.to_raw(move))
            self._held[at] = state
        return state

    @overload
    def __getitem__(self, index: int) -> State: ...

    @overload
    def __getitem__(self, index: slice) -> list[State]: ...

    def __getitem__(self, index: int | slice) -> State | list[State]:
        if isinstance(index, slice):
            return [self._position(ply) for ply in range(*index.indices(self._length))]
        ply = index + self._length if index < 0 else index
        if not 0 <= ply < self._length:
            raise IndexError("position index out of range")
        return self._position(ply)

    def __delitem__(self, index: slice) -> None:
        """Only what :class:`Game` does: forget the positions from a ply on (going back in the line)."""
        start = index.indices(self._length)[0]
        self._held = {ply: state for ply, state in self._held.items() if ply < start}
        self.reached = [ply for ply in self.reached if ply < start]
        self._length = start
        if start - 1 not in self._held:
            self._position(start - 1)

    def append(self, state: State) -> None:
        self._held[self._length] = state
        self.reached.append(self._length)
        self._length += 1
        if len(self._held) > HELD + 2:  # keep the deal, the one on show, and the latest few
            last = self._length - 1
            self._held = {ply: s for ply, s in self._held.items() if ply in (0, last) or last - ply < KEEP_EVERY}

    def hold(self, ply: int, state: State) -> None:
        """Hold the position after ``ply`` moves, known already (a game replayed whole)."""
        self._held[ply] = state

    def __iter__(self) -> Iterator[State]:
        """Every position from the deal (a hint's history): replayed as it goes, not all held."""
        state = self._start()
        yield state
        for move in self._line[0:self._length - 1]:
            state = self._rules.apply(state, self._rules.to_raw(move))
            yield state


def cards_of(mask: int) -> list[int]:
    return [card for card in range(52) if mask >> card & 1]


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


class Kept:
    """A taken-up game and the stored sequences it plays on: what :func:`take_up` gives, and what says which
    rows a change writes (:meth:`change`)."""

    def __init__(self, game: Game, line: StoredLine, positions: StoredPositions) -> None:
        self.game = game
        self.line = line
        self.positions = positions

    def change(self, *, won: bool, assisted: bool | None = None, given_up: bool = False,
               solution_won: bool = False) -> GameChange:
        """What storing the game after one change writes."""
        game, positions = self.game, self.positions
        cut, added = self.line.changes()
        kept = [(ply, positions[ply].packed()) for ply in positions.reached if ply % KEEP_EVERY == 0]
        return GameChange(
            played=game.played_count, line_length=len(self.line), position=game.state.packed(),
            seen=mask_of(game.seen_cards), won=won, cut=cut, added=[(ply, str(move)) for ply, move in added],
            positions=kept, assisted=assisted, given_up=given_up, solution_won=solution_won,
        )

    def saved(self) -> None:
        """The store now holds the game as it is (its change was committed)."""
        self.line.saved()
        self.positions.reached = []


def take_up(store: Store, record: GameRecord) -> Kept:
    """The game a record describes, from its row alone (the rest is read when needed)."""
    rules = rules_for(record.game)
    line = StoredLine(lambda start, stop: store.line(record.id, start, stop), record.line_length)
    seen = cards_of(record.seen)
    if record.position is None and record.played:  # stored before positions were: replayed, every move checked
        texts = line[0:len(line)]
        try:
            replayed = Game.replay(rules, record.deal, texts[:record.played], texts[record.played:])
        except TableauxError as exc:
            raise StoreError(_("saved game {id} cannot be replayed: {error}").format(
                id=record.id, error=exc)) from None
        current, seen = replayed.state, [*seen, *replayed.seen_cards]
    else:
        replayed = None
        current = State.unpacked(record.position) if record.position is not None else rules.deal(record.deal)
    positions = StoredPositions(rules, record.deal, line, record.played, current,
                                lambda ply: store.nearest_position(record.id, ply))
    if replayed is not None:
        for ply, state in enumerate(replayed.positions):
            positions.hold(ply, state)
    game = Game.kept(rules, record.deal, line=line, states=positions, played=record.played, seen=seen,
                     assisted=record.assisted)
    return Kept(game, line, positions)
