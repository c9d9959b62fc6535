"""Display names: what a player may call themselves on the daily race's leaderboard.

One rule, read in one place (:func:`read_name`): the contract's validator
(:mod:`tableaux.web.fields`) refuses a name with its sentence, and the store
keeps a name with its :func:`folded` form, unique across players, so that
"Ada", "ADA" and "ada" are one name. A name is for reading on a board next to
others: letters of any script, digits, spaces and a little punctuation, nothing
invisible (control or formatting characters, which could hide or reorder text),
and never a word the board shows for a player without a name ("Anonymous", in
any of the page's languages).
"""

from __future__ import annotations

import functools
import unicodedata

from ..i18n import _, languages, translations

NAME_MIN = 2
NAME_MAX = 24
"""A name's length in characters, after spaces at either end are trimmed and runs of spaces made one."""
PUNCTUATION = "-_.,'!?&()#+"
ANONYMOUS = "Anonymous"
"""What the page shows for a player without a name (the page translates it; a name may not be any of them)."""


class NameRefused(ValueError):
    """A name that is not accepted: the message says why and what is."""


def accepted() -> str:
    return _("a display name is {low} to {high} characters: letters, digits, spaces and {marks}, with at least "
             "one letter or digit").format(low=NAME_MIN, high=NAME_MAX, marks=" ".join(PUNCTUATION))


def folded(name: str) -> str:
    """The form two names that read alike share: compatibility-normalised and case-folded."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


@functools.cache
def reserved() -> frozenset[str]:
    """The word for a player without a name, in every language of the page, folded."""
    return frozenset(folded(translations(lang, "web").gettext(ANONYMOUS)) for lang in languages())


def read_name(text: str) -> str:
    """The name ``text`` stands for (composed, trimmed, inner runs of spaces made one), or :class:`NameRefused`."""
    for char in text:
        kind = unicodedata.category(char)
        if kind[0] == "C":
            raise NameRefused(_("a display name may not hold control or invisible characters (such as "
                                "{char}); {accepted}").format(char=f"U+{ord(char):04X}", accepted=accepted()))
    name = " ".join("".join(" " if unicodedata.category(c) == "Zs" else c
                            for c in unicodedata.normalize("NFC", text)).split())
    before = " "
    for char in name:
        kind = unicodedata.category(char)
        fits = (kind[0] == "L" or kind == "Nd" or char == " " or char in PUNCTUATION
                or (kind[0] == "M" and unicodedata.category(before)[0] in "LM"))
        if not fits:
            raise NameRefused(_("a display name may not hold {char}; {accepted}").format(
                char=repr(char), accepted=accepted()))
        before = char
    if not NAME_MIN <= len(name) <= NAME_MAX:  # after the characters: a refused character is the likelier fault
        raise NameRefused(_("a display name of length {n} is not accepted; {accepted}").format(
            n=len(name), accepted=accepted()))
    if not any(unicodedata.category(c)[0] == "L" or unicodedata.category(c) == "Nd" for c in name):
        raise NameRefused(_("a display name needs at least one letter or digit; {accepted}").format(
            accepted=accepted()))
    if folded(name) in reserved():
        raise NameRefused(_("{name} is what the leaderboard shows for a player without a name; choose another "
                            "name").format(name=repr(name)))
    return name
