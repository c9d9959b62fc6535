"""argparse's own words ("usage:", "options", "invalid choice: ...") in the player's language.

argparse looks its messages up with the standard library's ``gettext`` in the
``messages`` domain, which would need compiled ``.mo`` files installed on
disk. Our catalogues are ``.po`` files read in memory (:mod:`tableaux.i18n`),
so :func:`translated_argparse` hands argparse our lookup while the command
line is built and parsed. The messages are listed here so that the
catalogue update extracts them; a message missing from a catalogue shows in
English, as argparse would print it.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager

from ..i18n import N_, N_plural, current, translations

MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)
"""What argparse says to a user (Python 3.10 to 3.13); its messages to programmers stay English."""


def _gettext(message: str) -> str:
    return translations(current()).gettext(message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current()).ngettext(singular, plural, n)


PLURALS = (N_plural("expected %s argument", "expected %s arguments"),)


@contextmanager
def translated_argparse() -> Iterator[None]:
    """Inside the block, argparse speaks the current language (English when the catalogue lacks a message)."""
    if not (hasattr(argparse, "_") and hasattr(argparse, "ngettext")):
        yield  # an argparse that looks its words up some other way speaks English, as before
        return
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = _gettext, _ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
