"""The rules of each game in our own words, for a player at the terminal to read (``rules``, or the board's key).

The rules the game obeys live in the engine (:mod:`tableaux.rulebook`); their description lives beside them
(``Rules.guide``), the same the browser's rules page shows, so a rule reads the same wherever it is played
and a translator meets each sentence once. ``<b>`` marks the words shown in bold, and :func:`rules_paragraphs`
keeps or drops it (a terminal shows it in bold). How to play is each mode's own (:mod:`.help`, the board's
footer).
"""

from __future__ import annotations

import re

from ..rulebook.engine import Rules

BOLD = re.compile(r"<b>(.*?)</b>")


def rules_paragraphs(rules: Rules, bold: str = r"\1") -> list[str]:
    """The rules of a game translated, a paragraph each (an item of a list is a paragraph of its own); ``bold``
    replaces ``<b>...</b>`` (``\\1``: the words alone, ``[b]\\1[/b]``: rich markup)."""
    texts: list[str] = []
    for block in rules.guide():
        if block["kind"] == "list":
            texts.extend(block["items"])
        else:
            texts.append(block["text"])
    return [BOLD.sub(bold, text) for text in texts]


def rules_text(rules: Rules) -> str:
    """The rules as plain text, a paragraph a line."""
    return "\n".join(rules_paragraphs(rules))
