"""Hostile saved-game files, by hand: each damaged file is refused with the problem named, by the library
and by the command line, and an intact save still loads after all of them.

The same kind of attack on the web API is in tests/reliability/test_hostile.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tableaux
from helpers.cli import run_tableaux
from tableaux import MAX_DEAL, Move, SaveFileError


def saved(name: str = "king-albert", deal: int = 40, moves: int = 8) -> dict[str, Any]:
    """A real save made by the engine, with some moves and one undone (so there is a redo list)."""
    game = tableaux.new_game(name, deal)
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[len(game.moves_played) % len(legal)])
    game.undo()
    return json.loads(game.dumps())


def duplicated_move(data: dict[str, Any]) -> dict[str, Any]:
    """The last move written twice: the card it moved would have to be in two places."""
    return {**data, "moves": [*data["moves"], data["moves"][-1]]}


def move_swapped_for_another_legal_one(data: dict[str, Any]) -> dict[str, Any]:
    """Still a playable line, but not the one the digest recorded (a hand-edited file)."""
    game = tableaux.new_game(data["game"], data["deal"])
    for text in data["moves"][:-1]:
        game.play(Move.from_str(text))
    other = next(str(m) for m in game.legal_moves() if str(m) != data["moves"][-1])
    return {**data, "moves": [*data["moves"][:-1], other], "redo": []}


def illegal_move(data: dict[str, Any]) -> dict[str, Any]:
    game = tableaux.new_game(data["game"], data["deal"])
    legal = {str(m) for m in game.legal_moves()}
    bad = next(f"T{a}>T{b}" for a in range(1, 10) for b in range(1, 10) if a != b and f"T{a}>T{b}" not in legal)
    return {**data, "moves": [bad, *data["moves"]]}


def truncated(data: dict[str, Any]) -> str:
    text = json.dumps(data, indent=1)
    return text[: len(text) // 2]


SAVE_ATTACKS: list[tuple[str, Any, str]] = [
    ("truncated", truncated, "not valid JSON"),
    ("empty file", lambda d: "", "not valid JSON"),
    ("binary junk", lambda d: "\x00\x01\x02\ufffd", "not valid JSON"),
    ("deeply nested", lambda d: "[" * 100_000, "not valid JSON"),
    ("deeply nested object", lambda d: '{"a": ' * 100_000, "not valid JSON"),
    ("5000-digit deal", lambda d: json.dumps(d).replace(f'"deal": {d["deal"]}', '"deal": ' + "9" * 5000),
     "not valid JSON"),
    ("illegal move", illegal_move, "move 1"),
    ("duplicated move (a card in two places)", duplicated_move, f"move {len(saved()['moves']) + 1}"),
    ("another legal move than recorded", move_swapped_for_another_legal_one, "altered"),
    ("digest of another position", lambda d: {**d, "digest": saved(deal=41)["digest"]}, "altered"),
    ("unknown game", lambda d: {**d, "game": "klondike"}, "unknown game 'klondike'"),
    ("game of the wrong type", lambda d: {**d, "game": 3}, "field 'game'"),
    ("deal out of range", lambda d: {**d, "deal": MAX_DEAL + 1}, "bad deal number"),
    ("negative deal", lambda d: {**d, "deal": -1}, "bad deal number"),
    ("moves that are numbers", lambda d: {**d, "moves": [1, 2]}, "move 1"),
    ("redo move that cannot be played", lambda d: {**d, "redo": ["T1:40>F1"]}, "redo move 1"),
    ("not a save at all", lambda d: {"hello": "world"}, "not a tableaux saved game"),
    ("a version from the future", lambda d: {**d, "version": 2}, "unsupported save version"),
]


def attack_text(attack: Any) -> str:
    out = attack(saved())
    return out if isinstance(out, str) else json.dumps(out)


@pytest.mark.parametrize(("label", "attack", "says"), SAVE_ATTACKS, ids=[a[0] for a in SAVE_ATTACKS])
def test_damaged_save_is_refused_by_loads_with_the_problem_named(label: str, attack: Any, says: str) -> None:
    with pytest.raises(SaveFileError, match=says):
        tableaux.loads(attack_text(attack))


@pytest.mark.parametrize(
    ("label", "attack", "says"),
    [a for a in SAVE_ATTACKS if a[0] in (
        "truncated", "deeply nested", "5000-digit deal", "illegal move", "duplicated move (a card in two places)",
        "another legal move than recorded", "unknown game",
    )],
    ids=lambda a: a if isinstance(a, str) else "",
)
def test_damaged_save_is_refused_by_the_cli(tmp_path: Path, label: str, attack: Any, says: str) -> None:
    path = tmp_path / "saved.json"
    path.write_text(attack_text(attack))
    before = path.read_bytes()
    result = run_tableaux("play", "--load", str(path), stdin="quit\n")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert says in result.stderr and "usage:" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert path.read_bytes() == before  # a refused file is left as it was


def test_an_intact_save_still_loads_after_all_that() -> None:
    data = saved()
    game = tableaux.loads(json.dumps(data))
    assert [str(m) for m in game.moves_played] == data["moves"]
    assert [str(m) for m in game.redo_moves] == data["redo"]


@pytest.mark.slow
def test_an_endless_save_file_is_refused_not_read_forever(tmp_path: Path) -> None:
    """``--load /dev/zero`` (or any huge file) must not eat all memory: a save file has a size limit."""
    import resource

    def limit_memory() -> None:  # before the limit existed this ran out of memory (a MemoryError traceback)
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    huge = tmp_path / "huge.json"
    with huge.open("wb") as f:
        f.truncate(64 << 20)  # 64 MiB of NUL bytes, sparse on disk
    for path in ("/dev/zero", str(huge)):
        result = subprocess.run([sys.executable, "-m", "tableaux", "play", "--load", path], input="quit\n",
                                capture_output=True, text=True, timeout=60, preexec_fn=limit_memory)
        assert result.returncode == 2, (path, result.stderr[-500:])
        assert "too large to be a saved game" in result.stderr and "Traceback" not in result.stderr
