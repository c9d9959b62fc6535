"""The Game object as players and tools use it: starting, moving, history, notation, saving."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

import tableaux
from helpers.games import random_game
from tableaux import GAMES, Game, IllegalMoveError, Move, NotationError, SaveFileError, UnknownGameError
from tableaux.play.reading import read_pile
from tableaux.rulebook.cards import DOWN, parse_card
from tableaux.rulebook.engine import long_name

NAMES = ["king-albert", "eagle-wing", "king-albert-classic"]


# --- starting a game ---------------------------------------------------------


def test_games_by_name() -> None:
    assert set(GAMES) == set(NAMES)
    for name in NAMES:
        game = tableaux.new_game(name, 5)
        assert game.name == name and game.deal == 5 and game.moves_played == []
        assert game.position()["title"] == GAMES[name].title


@pytest.mark.parametrize("bad", ["klondike", "King Albert", "", None, 3])
def test_unknown_game_is_a_clear_error(bad: object) -> None:
    with pytest.raises(UnknownGameError) as info:
        tableaux.new_game(bad)  # type: ignore[arg-type]
    assert "king-albert" in str(info.value) and "eagle-wing" in str(info.value)
    assert repr(bad) in str(info.value)


def test_random_deal_when_omitted() -> None:
    deals = {tableaux.new_game("king-albert").deal for _ in range(8)}
    assert len(deals) > 1 and all(0 <= d <= 4294967295 for d in deals)


# --- moves ---------------------------------------------------------------------


def test_legal_moves_are_move_values() -> None:
    game = tableaux.new_game("king-albert", 1)
    moves = game.legal_moves()
    assert moves and all(isinstance(m, Move) for m in moves)
    first = moves[0]
    assert first.source in game.rules.pile_names and first.target in game.rules.pile_names
    assert isinstance(first.count, int) and first.count >= 1
    assert first.to_dict() == {"source": first.source, "count": first.count, "target": first.target,
                               "text": str(first)}
    assert Move.from_str(first.to_dict()["text"]) == first
    moves.clear()
    assert game.legal_moves()  # a copy was returned: callers cannot damage the game


@pytest.mark.parametrize("how", ["move", "text", "long text", "tuple"])
def test_play_by_move_or_text(how: str) -> None:
    game = tableaux.new_game("king-albert", 1)
    move = Move("tableau-3", 1, "tableau-6")
    given = {"move": move, "text": "T3>T6", "long text": "tableau-3 tableau-6",
             "tuple": ("tableau-3", 1, "tableau-6")}[how]
    assert game.play(given) == move
    assert game.moves_played == [move]
    assert game.position()["moves_played"] == 1


@pytest.mark.parametrize("bad", ["T1>T2", "T1:9>T2", "R1>R2", Move("tableau-1", 1, "foundation-1"), "S>W"])
def test_illegal_move_raises_and_changes_nothing(bad: object) -> None:
    game = tableaux.new_game("king-albert", 1)
    game.play("T3>T6")
    game.undo()
    before = (game.state, game.moves_played, game.redo_moves, game.legal_moves())
    with pytest.raises(IllegalMoveError):
        game.play(bad)  # type: ignore[arg-type]
    assert (game.state, game.moves_played, game.redo_moves, game.legal_moves()) == before


def test_illegal_move_message_says_why() -> None:
    game = tableaux.new_game("king-albert", 1)
    with pytest.raises(IllegalMoveError, match="T1>T2: the 10 of spades cannot go onto the 7 of diamonds: a tableau "
                       "pile takes a card one rank lower and of the other colour"):
        game.play("T1>T2")
    with pytest.raises(IllegalMoveError, match="R1>R2: the reserve never takes cards"):
        game.play("R1>R2")
    with pytest.raises(IllegalMoveError, match="no pile S; its piles are F1-F4, T1-T9, R1-R7"):  # named as typed
        game.play("S>W")
    with pytest.raises(IllegalMoveError, match="no pile 'tableau-99'"):  # a Move names its piles in full
        game.play(Move("tableau-99", 1, "tableau-1"))


@pytest.mark.parametrize("bad", ["", "hello", "T1", ">T2", "T1>>", "T1:0>T2", "T1:-1>T2", "-2 T1 T2", "3 T1:3>T2"])
def test_text_that_is_not_a_move_raises_notation_error(bad: str) -> None:
    game = tableaux.new_game("king-albert", 1)
    with pytest.raises(NotationError) as info:
        game.play(bad)
    assert repr(bad) in str(info.value)  # says what was wrong
    if bad not in ("T1:0>T2", "T1:-1>T2", "-2 T1 T2"):
        assert "T1>F1" in str(info.value)  # and what a move looks like, in this game's piles
        assert "S>W" not in str(info.value)  # King Albert has no stock
    else:
        assert "at least 1" in str(info.value)
    assert game.moves_played == []


def test_non_move_object_is_refused() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    with pytest.raises(NotationError):
        game.play(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [("tableau-3", "1", "tableau-6"), ("tableau-3", 1.0, "tableau-6"),
                                 ("tableau-3", True, "tableau-6"), (3, 1, 6), ("tableau-3", 1),
                                 Move("tableau-3", "1", "tableau-6")])  # type: ignore[arg-type]
def test_a_move_tuple_of_the_wrong_kinds_is_a_notation_error_that_says_what_a_move_tuple_is(bad: object) -> None:
    game = tableaux.new_game("king-albert", 1)
    with pytest.raises(NotationError, match=r"not a move: .*a tuple \(source, count, target\) of two pile names and a "
                       "whole number of cards"):
        game.play(bad)  # type: ignore[arg-type]
    assert game.moves_played == []


# --- history -----------------------------------------------------------------


def test_undo_redo_walk_the_exact_positions() -> None:
    game = tableaux.new_game("eagle-wing", 3)
    states = [game.state]
    rng = random.Random(3)
    for _ in range(25):
        game.play(rng.choice(game.legal_moves()))
        states.append(game.state)
    played = game.moves_played
    for i in range(25, 0, -1):
        assert game.undo() == played[i - 1]
        assert game.state == states[i - 1]
    assert game.redo_moves == played
    for i in range(25):
        assert game.redo() == played[i]
        assert game.state == states[i + 1]
    with pytest.raises(IllegalMoveError, match="nothing to redo"):
        game.redo()


def test_undo_with_nothing_played() -> None:
    game = tableaux.new_game("king-albert", 2)
    with pytest.raises(IllegalMoveError, match="nothing to undo"):
        game.undo()


def test_new_move_clears_redo_but_replaying_the_next_one_keeps_it() -> None:
    game = random_game("king-albert", 4, 6, seed=1)
    line = game.moves_played
    game.undo()
    game.undo()
    game.play(line[-2])  # same as redo
    assert game.redo_moves == [line[-1]]
    game.undo()
    other = [m for m in game.legal_moves() if m != line[-2]][0]
    game.play(other)
    assert game.redo_moves == []
    assert not game.position()["can_redo"]


def test_restart_keeps_the_moves_on_the_redo_list() -> None:
    game = random_game("eagle-wing", 8, 12, seed=2)
    line, end = game.moves_played, game.state
    game.restart()
    assert game.state == game.rules.deal(8) and game.moves_played == []
    assert game.redo_moves == line
    pos = game.position()
    assert not pos["can_undo"] and pos["can_redo"]
    for _ in line:
        game.redo()
    assert game.state == end


# --- positions ---------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_position_shape(name: str) -> None:
    game = random_game(name, 11, 10)
    pos = game.position()
    assert json.loads(json.dumps(pos)) == pos  # JSON-ready
    for key, kind in [("game", str), ("title", str), ("deal", int), ("piles", dict), ("score", int),
                      ("won", bool), ("over", bool), ("moves_played", int), ("can_undo", bool),
                      ("can_redo", bool), ("status", str)]:
        assert isinstance(pos[key], kind), key
    assert list(pos["piles"]) == list(game.rules.pile_names)
    cards = [c for pile in pos["piles"].values() for c in pile]
    assert len(cards) == 52 and all(set(c) == {"card", "up"} for c in cards)
    assert sorted(c["card"] for c in cards) == sorted(tableaux.card_str(i) for i in range(52))
    assert pos["score"] == game.score and pos["moves_played"] == len(game.moves_played)
    if name == "eagle-wing":
        for key in ("stock_left", "reserve_left", "base_rank", "base_card", "redeals_left"):
            assert key in pos


@pytest.mark.parametrize("name", NAMES)
def test_public_position_hides_every_face_down_card(name: str) -> None:
    game = random_game(name, 12, 15)
    full, public = game.position(), game.public_position()
    visible = dict(zip(game.rules.pile_names, game.rules.visible(game.state), strict=True))
    down = [(c & ~DOWN) for p, seen in zip(game.state.piles, visible.values(), strict=True)
            for c, v in zip(p, seen, strict=True) if not v]
    assert down or name == "king-albert-classic"
    for pile_name, cards in public["piles"].items():
        assert len(cards) == len(full["piles"][pile_name])
        for shown, real, seen in zip(cards, full["piles"][pile_name], visible[pile_name], strict=True):
            assert seen <= real["up"]  # a face-down card is never on view
            if seen:
                assert shown == real
            else:
                assert shown == {"card": None, "up": False}
    text = json.dumps(public)
    for c in down:  # no hidden identity anywhere in the public data (face down, or covered in a closed pile)
        assert f'"{tableaux.card_str(c)}"' not in text
    assert {k: v for k, v in public.items() if k != "piles"} == {k: v for k, v in full.items() if k != "piles"}


# --- notation ------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_notation_round_trip_for_every_legal_move(name: str) -> None:
    rng = random.Random(7)
    seen = 0
    for deal in (1, 2, 3):
        game = tableaux.new_game(name, deal)
        for _ in range(60):
            moves = game.legal_moves()
            if not moves:
                break
            for move in moves:
                text = str(move)
                assert re.fullmatch(r"[FTRSW]\d?(:\d+)?>[FTRSW]\d?", text), text
                assert Move.from_str(text) == move
                assert Move.from_str(f"{move.source} {move.count} {move.target}") == move
                assert game.parse_move(text) == move  # what a player types is what was shown
                seen += 1
            game.play(rng.choice(moves))
    assert seen > 150


def test_notation_examples() -> None:
    assert str(Move("tableau-1", 3, "tableau-4")) == "T1:3>T4"
    assert str(Move("stock", 1, "waste")) == "S>W"
    assert str(Move("waste", 24, "stock")) == "W:24>S"
    assert str(Move("reserve", 1, "tableau-5")) == "R>T5"
    assert Move.from_str("t1:3>t4") == Move.from_str("tableau-1 3 tableau-4") == Move("tableau-1", 3, "tableau-4")
    assert Move.from_str("R2->F1") == Move("reserve-2", 1, "foundation-1")


def fixed_game(name: str, **piles: str) -> Game:
    """A game of ``name`` starting from a hand-built position (short pile names, '*' = face down)."""
    base = tableaux.rules(name)

    class Fixed(type(base)):  # type: ignore[misc]
        def deal(self, deal: int) -> tableaux.State:
            by_name = {
                long_name(k): tuple(parse_card(c.rstrip("*")) | (DOWN if c.endswith("*") else 0) for c in v.split())
                for k, v in piles.items()
            }
            return tableaux.State(tuple(by_name.get(n, ()) for n in self.pile_names))

    return Game(Fixed(), 0)


def test_parse_move_without_count_means_one_card_when_one_card_can_go() -> None:
    game = fixed_game("eagle-wing", F1="4H", F2="4S 5S", T1="7S 6S", R="2D KC*")
    assert {str(m) for m in game.legal_moves()} >= {"T1>F2", "T1:2>F2"}
    assert game.parse_move("T1>F2") == Move("tableau-1", 1, "foundation-2")  # str(move) reads back as itself
    assert game.parse_move("T1:2>F2") == Move("tableau-1", 2, "foundation-2")
    assert game.parse_move("tableau-1 2 foundation-2") == Move("tableau-1", 2, "foundation-2")


def test_parse_move_fills_in_a_unique_count() -> None:
    game = fixed_game("king-albert", T1="9D* QH JC", T2="KS")
    assert [str(m) for m in game.legal_moves() if m.target == "tableau-2"] == ["T1:2>T2"]
    assert game.parse_move("T1>T2") == Move("tableau-1", 2, "tableau-2")
    game.play("t1 t2")
    assert game.position()["piles"]["tableau-2"][-1]["card"] == "JC"


def test_parse_move_asks_when_the_count_is_ambiguous() -> None:
    # An unchecked run: both 5D and 5H could land on 6S, the top card 9S cannot.
    game = fixed_game("king-albert", T1="KC* 5D 5H 9S", T2="6S")
    with pytest.raises(IllegalMoveError, match="say which") as info:
        game.parse_move("T1>T2")
    assert "T1:2>T2" in str(info.value) and "T1:3>T2" in str(info.value)
    before = game.state
    with pytest.raises(IllegalMoveError):
        game.play("T1>T2")
    assert game.state == before and game.moves_played == []
    assert game.parse_move("T1:3>T2") == Move("tableau-1", 3, "tableau-2")


def test_parse_move_refuses_a_count_that_cannot_move() -> None:
    game = fixed_game("king-albert", T1="9D* QH JC", T2="KS")
    with pytest.raises(IllegalMoveError, match="only 2 card"):
        game.parse_move("T1:1>T2")


def test_a_pile_is_read_in_every_spelling_move_text_takes_and_an_unknown_one_lists_the_games_piles() -> None:
    rules = tableaux.rules("eagle-wing")
    for text in ("T3", "t3", "tableau-3", "Tableau-3", "t-3"):
        assert read_pile(rules, text) == "tableau-3"
    assert read_pile(rules, "R") == "reserve" and read_pile(rules, "s") == "stock"
    with pytest.raises(IllegalMoveError, match="no pile T9; its piles are S, W, F1-F4, T1-T8, R"):
        read_pile(rules, "T9")
    with pytest.raises(IllegalMoveError, match="named by text"):
        read_pile(rules, 3)  # type: ignore[arg-type]


def test_parse_move_rejects_a_pile_the_game_does_not_have() -> None:
    game = tableaux.new_game("eagle-wing", 1)
    with pytest.raises(IllegalMoveError, match="no pile T9; its piles are S, W, F1-F4, T1-T8, R"):
        game.parse_move("T9>F1")


# --- saving and loading ------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_dumps_loads_round_trip_with_redo_list(name: str) -> None:
    game = random_game(name, 21, 30, seed=5)
    game.undo()
    game.undo()
    text = game.dumps()
    back = tableaux.loads(text)
    assert back.name == name and back.deal == 21
    assert back.state == game.state
    assert back.moves_played == game.moves_played
    assert back.redo_moves == game.redo_moves
    back.redo()
    game.redo()
    assert back.state == game.state


def test_save_and_load_files(tmp_path: Path) -> None:
    game = random_game("eagle-wing", 33, 20, seed=6)
    game.restart()
    path = tmp_path / "game.json"
    game.save(path)
    assert not list(tmp_path.glob("*.tmp"))
    back = tableaux.load(path)
    assert back.state == game.state and back.redo_moves == game.redo_moves and back.moves_played == []
    assert json.loads(path.read_text())["game"] == "eagle-wing"


def test_saving_to_a_folder_is_a_save_file_error_that_names_it_and_leaves_no_file(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    game = random_game("king-albert", 5, 3, seed=1)
    with pytest.raises(SaveFileError, match=r"'.*games': it is a folder.*games/game\.json"):
        game.save(folder)
    assert list(folder.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["games"]


@pytest.mark.parametrize("where", ["missing folder", "read-only folder", "a file in the way"])
def test_every_failed_save_is_a_save_file_error_that_leaves_nothing_behind(tmp_path: Path, where: str) -> None:
    """Whatever goes wrong while writing, the caller catches one error, and no temporary file is left."""
    game = random_game("eagle-wing", 8, 4, seed=2)
    box = tmp_path / "box"
    box.mkdir()
    if where == "missing folder":
        path = box / "nowhere" / "game.json"
    elif where == "read-only folder":
        path = box / "game.json"
        box.chmod(0o500)
        if os.access(box, os.W_OK):  # root writes anywhere: the case cannot arise
            pytest.skip("this user can write into a read-only folder")
    else:
        (box / "game.json.tmp").mkdir()  # the temporary file's name is taken by a folder
        path = box / "game.json"
    try:
        with pytest.raises(SaveFileError, match=r"cannot save to '.*game\.json'"):
            game.save(path)
        left = sorted(p.name for p in box.rglob("*"))
    finally:
        box.chmod(0o700)
    assert left == (["game.json.tmp"] if where == "a file in the way" else [])


def test_a_save_over_an_older_save_replaces_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    random_game("king-albert", 2, 10, seed=3).save(path)
    shorter = random_game("king-albert", 2, 1, seed=3)
    shorter.save(path)
    assert tableaux.load(path) == shorter and [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_loading_a_missing_file_or_a_folder_says_so_in_plain_words(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(SaveFileError) as refused:
        tableaux.load(missing)
    assert str(refused.value) == f"cannot read saved game {str(missing)!r}: No such file or directory"
    with pytest.raises(SaveFileError) as refused:
        tableaux.load(tmp_path)
    assert str(refused.value) == f"cannot read saved game {str(tmp_path)!r}: Is a directory"


def _save() -> dict:
    return json.loads(random_game("king-albert", 40, 12, seed=9).dumps())


def _edited(**changes: object) -> str:
    data = _save()
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('{"format": "tableaux-game", "vers', "not valid JSON"),
        ("[]", "not a tableaux saved game"),
        ('{"format": "other"}', "not a tableaux saved game"),
        (_edited(version=99), "unsupported save version"),
        (_edited(moves="T1>T2"), "field 'moves'"),
        (_edited(digest=None), "field 'digest'"),
        (_edited(game="klondike"), "unknown game"),
        (_edited(deal=-5), "bad deal number"),
        (_edited(deal=2**32), "bad deal number"),
        (_edited(deal="seven"), "bad deal number"),
        (_edited(digest="0" * 32), "altered"),
        (_edited(moves=["T1>R1"]), "move 1"),
        (_edited(moves=["garbage!"]), "move 1"),
        (_edited(redo=["S>W"]), "redo move 1"),
    ],
)
def test_damaged_saves_are_refused_clearly(text: str, says: str) -> None:
    with pytest.raises(SaveFileError, match=re.escape(says)):
        tableaux.loads(text)


def test_edited_move_is_caught() -> None:
    data = _save()
    game = tableaux.new_game("king-albert", 40)
    # Replace the last move by another legal one: still playable, but the digest no longer matches.
    for move in data["moves"][:-1]:
        game.play(Move.from_str(move))
    other = [str(m) for m in game.legal_moves() if str(m) != data["moves"][-1]][0]
    data["moves"][-1] = other
    with pytest.raises(SaveFileError, match="altered"):
        tableaux.loads(json.dumps(data))


def test_truncated_save_file(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    random_game("eagle-wing", 2, 10).save(path)
    path.write_text(path.read_text()[:40])
    with pytest.raises(SaveFileError, match="not valid JSON"):
        tableaux.load(path)


def test_assisted_flag_survives_save_load_undo_and_restart() -> None:
    game = tableaux.new_game("eagle-wing", 3)
    game.play(game.legal_moves()[0])
    assert not game.assisted and "assisted" not in game.to_dict()  # older versions read this save as before
    game.assisted = True
    game.undo()
    game.restart()
    again = tableaux.loads(game.dumps())
    assert again.assisted and again.redo_moves == game.redo_moves
    assert again.copy().assisted


def test_save_from_before_the_assisted_flag_loads_as_not_assisted() -> None:
    game = tableaux.new_game("king-albert", 5)
    game.play(game.legal_moves()[0])
    data = game.to_dict()
    data.pop("assisted", None)
    assert not tableaux.loads(json.dumps(data)).assisted
    data["assisted"] = "yes"
    with pytest.raises(tableaux.SaveFileError, match="assisted"):
        tableaux.loads(json.dumps(data))


# --- the end of a game -----------------------------------------------------


def won_game(name: str, deal: int) -> Game:
    game = tableaux.new_game(name, deal)
    for move in tableaux.solve(game).moves:
        game.play(move)
    assert game.is_won()
    return game


@pytest.mark.parametrize(("name", "deal"), [("king-albert", 17), ("eagle-wing", 1), ("king-albert-classic", 1)])
def test_a_won_game_takes_no_more_moves_but_still_goes_back(name: str, deal: int) -> None:
    """AisleRiot ends the game at the win, though King Albert's rules would let a card come back off a foundation:
    a won game lists no move, refuses every move with the reason and what to do instead, and undo, redo and
    restart still work."""
    game = won_game(name, deal)
    played, score = game.played_count, game.score
    assert game.legal_moves() == [] and not game.is_over() and game.home_moves() == {}
    assert game.position()["over"] is False
    for move in ("F1>T1", Move("foundation-1", 1, "tableau-1"), ("foundation-1", 1, "tableau-2")):
        assert not game.is_legal(move)
        with pytest.raises(IllegalMoveError, match="this game is won and takes no more moves: undo takes the last "
                                                   "move back, or start a new game"):
            game.play(move)
    with pytest.raises(IllegalMoveError, match="is won"):
        game.parse_move("F1>T1")
    assert (game.played_count, game.score, game.is_won()) == (played, score, True)
    last = game.undo()
    assert not game.is_won() and last in game.legal_moves()
    game.redo()
    assert game.is_won() and game.legal_moves() == []
    game.restart()
    assert game.played_count == 0 and game.legal_moves()
