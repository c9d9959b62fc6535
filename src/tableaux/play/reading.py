"""Reading a move a player typed or sent against a position, and saying why it cannot be played.

The rules answer whether a move is legal; this turns text into one of the legal moves and, when none fits,
into an error that names what was wrong (an unknown pile, a count that cannot move, the rule it breaks). It
works from a position and its legal moves alone, so it stands apart from :class:`~.game.Game`'s history.
"""

from __future__ import annotations

from ..i18n import _
from ..rulebook.engine import (
    NOTATION_HELP,
    IllegalMoveError,
    Move,
    NotationError,
    Rules,
    State,
    long_name,
    parse_notation,
    short_name,
)


def parse_move(rules: Rules, state: State, legal: list[Move], text: str) -> Move:
    """Read move text against ``state``, whose legal moves are ``legal``; a missing count is filled in when only
    one fits (:meth:`Game.parse_move`).

    Raises :class:`NotationError` for text that is not a move and
    :class:`IllegalMoveError` when no legal move matches.
    """
    try:
        source, count, target = parse_notation(text)
    except NotationError as exc:  # the help shows this game's own piles (no 'S>W' in King Albert)
        raise NotationError(str(exc).replace(_(NOTATION_HELP), rules.notation_help())) from None
    check_piles(rules, source, target, typed=True)
    matches = [m for m in legal if m.source == source and m.target == target]
    if count is not None or Move(source, 1, target) in matches:
        # Without a count the notation means one card, which keeps str(move) round-tripping.
        move = Move(source, count or 1, target)
        if move not in matches:
            raise IllegalMoveError(illegal_reason(rules, state, move, matches))
        return move
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise IllegalMoveError(illegal_reason(rules, state, Move(source, 1, target), matches))
    options = str(matches[0])
    for other in matches[1:]:
        options = _("{first} or {second}").format(first=options, second=other)
    raise IllegalMoveError(_("{text} could move different numbers of cards; say which: {options}").format(
        text=repr(text), options=options))


def check_move(rules: Rules, state: State, legal: list[Move], move: Move | str | tuple[str, int, str]) -> Move:
    """``move`` (a :class:`Move`, its text or its fields) as one of ``legal``, or the error that says why not."""
    if isinstance(move, str):
        return parse_move(rules, state, legal, move)
    if not is_move_tuple(move):
        raise NotationError(_("not a move: {move}; a move is its text (such as 'T1:3>T4'), a Move, or a tuple "
                              "(source, count, target) of two pile names and a whole number of cards, such as "
                              "('tableau-1', 3, 'tableau-4')").format(move=repr(move)))
    move = Move(*move)
    if not move in legal:  # noqa: E713 - reads like the rule
        check_piles(rules, move.source, move.target)
        same = [m for m in legal if m.source == move.source and m.target == move.target]
        raise IllegalMoveError(illegal_reason(rules, state, move, same))
    return move


def is_move_tuple(move: object) -> bool:
    """Whether ``move`` has a move's three fields (a :class:`Move` has), each of its kind: the rules compare a count
    with numbers, so a count given as text would fail there, far from the mistake."""
    if not isinstance(move, tuple) or len(move) != 3:
        return False
    source, count, target = move
    return isinstance(source, str) and isinstance(target, str) and isinstance(count, int) and not isinstance(
        count, bool)


def read_pile(rules: Rules, pile: str) -> str:
    """``pile``'s full name, given as move text names it (``T3``, ``tableau-3``, ``t3``): a pile is named alike
    wherever a move's is. An unknown pile raises the error that lists the game's piles."""
    if not isinstance(pile, str):
        raise IllegalMoveError(_("a pile is named by text such as 'T3' or 'tableau-3', not {kind}").format(
            kind=type(pile).__name__))
    name = long_name(pile)
    check_piles(rules, name, typed=True)
    return name


def check_piles(rules: Rules, *piles: str, typed: bool = False) -> None:
    """Name an unknown pile in the error, rather than calling the move merely illegal: ``typed``, as move text
    names it (T99, and the piles as :func:`pile_summary` lists them), else by its full name."""
    for pile in piles:
        if pile not in rules.index:
            if typed:
                raise IllegalMoveError(_("{game} has no pile {pile}; its piles are {piles}.").format(
                    game=_(rules.title), pile=short_name(pile), piles=pile_summary(rules)))
            raise IllegalMoveError(_("{game} has no pile {pile}; piles are {piles}").format(
                game=_(rules.title), pile=repr(pile), piles=", ".join(rules.pile_names)))


def pile_summary(rules: Rules) -> str:
    """The pile names as move text names them: ``F1-F4, T1-T9, R1-R7``."""
    groups: dict[str, list[str]] = {}
    for name in rules.pile_names:
        groups.setdefault(name.partition("-")[0], []).append(short_name(name))
    return ", ".join(names[0] if len(names) == 1 else f"{names[0]}-{names[-1]}" for names in groups.values())


def illegal_reason(rules: Rules, state: State, move: Move, same_piles: list[Move]) -> str:
    """Why ``move`` cannot be played; ``same_piles`` are the legal moves between its two piles."""
    if same_piles and move.count >= 1:
        counts = ", ".join(str(m.count) for m in same_piles)
        return _("illegal move {move}: from {source} to {target} only {counts} card(s) can move").format(
            move=move, source=move.source, target=move.target, counts=counts)
    why = rules.why_illegal(state, rules.to_raw(move))
    if why is None:
        why = _("the rules do not allow {source} to {target} here").format(source=move.source, target=move.target)
    return _("illegal move {move}: {why}").format(move=move, why=why)
