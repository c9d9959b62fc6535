"""Reading a store's database directly, the same way for SQLite and PostgreSQL, as the tests check it.

The SQL is the store's own dialect (``?`` placeholders); :func:`row_order` names the column that keeps
insertion order (SQLite's ``rowid``, PostgreSQL's ``seq``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tableaux.web.database import parse_database
from tableaux.web.store import GameChange, GameRecord, Store


def is_postgres(db: str | Path) -> bool:
    return not parse_database(db).is_sqlite


def query(db: str | Path, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of one statement (a write is committed at once: the connection is in autocommit mode)."""
    conn = parse_database(db).engine().first()
    try:
        cur = conn.execute(sql, params)
        return [tuple(row) for row in cur.fetchall()] if cur.description is not None else []
    finally:
        conn.close()


def row_order(db: str | Path) -> str:
    return "seq" if is_postgres(db) else "rowid"


def columns(db: str | Path, table: str) -> set[str]:
    if is_postgres(db):
        return {r[0] for r in query(db, "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                                    (table,))}
    return {r[1] for r in query(db, f"PRAGMA table_info({table})")}


def check_integrity(db: str | Path) -> None:
    """SQLite's own checks of the file (PostgreSQL enforces the foreign keys itself, so they are read back), and
    every game's line against what is kept beside it (:func:`check_lines`)."""
    if is_postgres(db):
        orphans = query(db, "SELECT COUNT(*) FROM games WHERE player NOT IN (SELECT id FROM players)")
        assert orphans == [(0,)]
    else:
        assert query(db, "PRAGMA integrity_check") == [("ok",)]
        assert query(db, "PRAGMA foreign_key_check") == []
    check_lines(db)


def check_lines(db: str | Path) -> dict[str, tuple[list[str], list[str]]]:
    """Replay every stored game's line through the engine: each move is legal where it stands, the position kept
    with the game is the one its moves played lead to, and each position kept along the line is the one its
    moves lead to. Returns every game's ``(moves played, redo line)``."""
    import tableaux
    from tableaux.rulebook.engine import State

    if "position" not in columns(db, "games"):
        return {}  # a database from before lines had rows of their own (a migration's tests)
    lines = stored_lines(db)
    kept: dict[str, dict[int, bytes]] = {}
    for gid, ply, position in query(db, "SELECT game_id, ply, position FROM game_positions"):
        kept.setdefault(gid, {})[int(ply)] = bytes(position)
    replayed: dict[tuple[str, int, tuple[str, ...]], list[State]] = {}  # many games share a deal and a line
    for gid, name, deal, position, length in query(db, "SELECT id, game, deal, position, line_length FROM games"):
        moves, redo = lines[gid]
        assert len(moves) + len(redo) == length, gid
        key = (name, deal, (*moves, *redo))
        states = replayed.get(key)
        if states is None:
            game = tableaux.new_game(name, deal)
            states = [game.state]
            for text in moves + redo:
                game.play(tableaux.Move.from_str(text))
                states.append(game.state)
            replayed[key] = states
        if position is not None:
            assert State.unpacked(bytes(position)) == states[len(moves)], gid
        for ply, packed in kept.get(gid, {}).items():
            assert ply < len(states) and State.unpacked(packed) == states[ply], (gid, ply)
    return lines


def rewrite(moves: list[str], redo: list[str] = (), won: bool = False, **flags: Any) -> GameChange:  # type: ignore[assignment]
    """A change that writes a game's whole line anew: ``moves`` played, ``redo`` after them (the store takes the
    texts as they are; the engine is the web layer's business, so store tests may use any text)."""
    line = [*moves, *redo]
    return GameChange(played=len(moves), line_length=len(line), position=b"", seen=0, won=won, cut=0,
                      added=list(enumerate(line)), **flags)


def line_of(store: Store, record: GameRecord | None) -> tuple[list[str], list[str]]:
    """A stored game's ``(moves played, redo line)`` as the store holds them."""
    assert record is not None
    line = store.line(record.id, 0, record.line_length)
    return line[:record.played], line[record.played:]


def stored_lines(db: str | Path) -> dict[str, tuple[list[str], list[str]]]:
    """Every game's ``(moves played, redo line)``, read from the rows directly."""
    moves: dict[str, list[str]] = {}
    for gid, move in query(db, "SELECT game_id, move FROM game_moves ORDER BY game_id, ply"):
        moves.setdefault(gid, []).append(move)
    out = {}
    for gid, played in query(db, "SELECT id, move_count FROM games"):
        line = moves.get(gid, [])
        out[gid] = (line[:played], line[played:])
    return out


def store_line(store: Store, player: str, name: str, deal: int, moves: list[str], redo: list[str] = ()  # type: ignore[assignment]
               ) -> GameRecord:
    """A new game with a whole line stored in one change, as the web store keeps one: the moves' rows, the position
    after the moves played, and every hundredth position along the line (for a long game, made quickly)."""
    import tableaux
    from tableaux.web.history import KEEP_EVERY, mask_of

    rules = tableaux.rules(name)
    line = [*moves, *redo]
    state = rules.deal(deal)
    kept: list[tuple[int, bytes]] = []
    current = state
    for ply, text in enumerate(line, 1):
        state = rules.apply(state, rules.to_raw(tableaux.Move.from_str(text)))
        if ply % KEEP_EVERY == 0:
            kept.append((ply, state.packed()))
        if ply == len(moves):
            current = state
    seen = tableaux.Game.trusted_replay(rules, deal, moves, redo).seen_cards
    record = store.create_game(player, name, deal)
    change = GameChange(played=len(moves), line_length=len(line), position=current.packed(), seen=mask_of(seen),
                        won=rules.won(current), cut=None, added=list(enumerate(line)), positions=kept)
    return store.save_change(record, change)


class HeldClock:
    """The store's time, held still and moved on by hand (``clock.now += 60``): see :func:`hold_store_clock`."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def hold_store_clock(monkeypatch: Any, now: float) -> HeldClock:
    """Make the store read ``time.time()`` from a clock the test moves, starting at ``now``."""
    from tableaux.web import store as store_module

    held = HeldClock(now)
    monkeypatch.setattr(store_module.time, "time", held)
    return held
