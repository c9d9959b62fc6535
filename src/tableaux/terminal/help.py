"""The terminal's help text and pile list: what a player reads about the commands, apart from the session.

Kept out of :mod:`tableaux.terminal.line` so that the command loop and the words
that explain it can each be read (and translated) on their own. Examples are
drawn from the game's own piles (``tableaux.GAMES`` and the Rules attributes),
so the help never names a pile the game does not have.
"""

from __future__ import annotations

import re

from tableaux.i18n import _
from tableaux.play.game import Game
from tableaux.rulebook.engine import short_name

_COMMAND = re.compile(r"\s*\S.*?\s{2,}(?=\S)")
"""A help line's first column and the spaces after it: where its description starts."""


def help_text(game: Game, width: int | None = None) -> str:
    """Help for this game, its examples drawn from its own piles (``tableaux.GAMES`` and the Rules attributes);
    with ``width``, each line wrapped to it with its description's further lines under the description
    (:func:`hanging`)."""
    rules = game.rules
    names = rules.pile_names
    has_stock = rules.stock is not None
    tableau = [short_name(names[i]) for i in rules.tableau]
    if "reserve" in rules.index:  # one reserve pile, of which only the last card plays
        reserve = _("R>{target}     the reserve's last card onto {target}").format(target=tableau[1])
    else:
        reserve = _("R2>F1    reserve 2 to foundation 1")
    lines = [
        _("Moves (pile names as labelled on the board):"),
        _("  {a}>{b}    top card of {a} onto {b}").format(a=tableau[0], b=tableau[2]),
        _("  {a}:3>{b}  three cards of {a} onto {b} ({a}>{b} is enough when only one count fits)").format(
            a=tableau[0], b=tableau[3]),
        f"  {reserve}",
    ]
    if has_stock:
        lines.append(_("  S>W      turn a card from the stock (same as 'deal')"))
    kinds: dict[str, str] = {}
    for i in sorted(rules.home_piles, key=lambda i: (i not in rules.tableau, i)):
        kinds.setdefault(names[i].partition("-")[0], short_name(names[i]))
    first, *others = kinds.values()
    home = first
    for other in others:
        home = _("{first} or {second}").format(first=home, second=other)
    lines += [
        _("  {piles} send that pile's top card to a foundation (like a double-click)").format(piles=f"{home:<8}"),
        _("Commands:"),
        _("  undo (u), redo, restart       step back, forward, or back to the deal ('undo 3': three moves)"),
        _("  new [N]                       a new random deal, or deal N"),
        _("  hint (h)                      suggest a move from the cards you have seen (fair)"),
        _("  hint peek                     a hint that looks at the face-down cards (peeking)"),
        _("  chance                        the chance that the hidden cards lie in a winnable way"),
        _("  giveup, lost?                 give up; where it could no longer be won (once it is over, or any time "
          "when no card is hidden)"),
        _("  solve                         play the winning line from here, step by step (marks the game assisted)"),
    ]
    if has_stock:
        lines.append(_("  deal (d) or S                 turn a stock card (or the waste back over)"))
    lines += [
        _("  moves                         list every legal move"),
        _("  board (or an empty line)      draw the board again"),
        _("  save FILE, load FILE          keep the game in a file and resume it later"),
        _("  rules, stats                  the rules of this game; your statistics of it in the terminal"),
        _("  resume [N]                    go back to an unfinished game (every game is kept as you play)"),
        _("  help (?), quit (q)            this text; leave (Ctrl-D works too)"),
    ]
    return "\n".join(lines if width is None else [piece for line in lines for piece in hanging(line, width)])


def hanging(line: str, width: int) -> list[str]:
    """``line`` in lines of at most ``width`` characters, the description's further lines starting under its
    first one. A console left to wrap a long help line starts the rest at the margin, under the commands, where it
    reads as a command of its own."""
    if len(line) <= width:
        return [line]
    import textwrap  # only for a help line too long for its console

    column = _COMMAND.match(line)
    margin = len(line) - len(line.lstrip())
    apart = column is not None and column.end() > width // 2  # too narrow for two columns: under its command
    if column is None:  # a line of one column: its further lines indented a little
        head, body, indent = line[:margin], line.strip(), margin + 2
    elif apart:
        head, body, indent = line[:column.end()].rstrip(), line[column.end():], margin + 4
    else:
        head, body, indent = line[:column.end()], line[column.end():], column.end()
    pieces = textwrap.wrap(body, max(width - indent, 1), break_on_hyphens=False)
    rest = [" " * indent + piece for piece in pieces[1:]]
    return [head, " " * indent + pieces[0], *rest] if apart else [head + pieces[0], *rest]
