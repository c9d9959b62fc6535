"""The terminal's fair-play answers: chance to win, hints (fair or peeking), giving up and where a game was lost.

Both terminal modes ask these functions and show what they return (:class:`~.said.Said` messages), so a
figure or a hint reads the same in the line mode and on the full-screen board. They only put
:mod:`tableaux.advice.fair` into words. The chance and the fair hint see only ``game.observation()``;
where a game was lost looks at every card, so it answers only once the game is over or given up, or where no
card is left to guess (:func:`tableaux.advice.fair.may_look_back`). Playing on after either makes the game
assisted (:meth:`tableaux.terminal.sitting.Sitting.played_on`), unless where-lost answered during play.

The slow ones (chance, hint, where lost) say first what they are about to do (``*_start``), so a mode can
show that while they work.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from babel.lists import format_list
from babel.numbers import format_percent

from ..advice import fair
from ..advice.effort import Action, Effort
from ..advice.hints import Hint, hint
from ..i18n import N_, _, current
from ..play.game import Game
from ..rulebook.cards import card_name, parse_card
from .said import Names, Said

Budget = Mapping[Action, Effort]
"""How hard each of the terminal's commands works: :data:`tableaux.advice.effort.EFFORT`'s terminal row, or a
test's smaller one."""


def pct(x: float) -> str:
    """A share as a whole percentage, spaced as the player's language spaces it ("89%", "89 %" in French)."""
    return format_percent(x, locale=current())


# --- chance -------------------------------------------------------------------------------------------
def chance_start(game: Game, budget: Budget) -> Said | None:
    """What the chance is about to do, or None when it answers at once."""
    if game.is_won() or game.is_over():
        return None
    if nothing_hidden(game):
        return Said(_("Looking for a winning line from here..."), "note")
    return Said(_("Working out the chance from {n} layouts of the hidden cards...").format(
        n=budget["chance"].samples), "note")


def nothing_hidden(game: Game) -> bool:
    """No card is left to guess (:func:`tableaux.advice.fair.nothing_to_guess`): the solver's verdict on the
    position is the whole answer."""
    return fair.nothing_to_guess(game.observation()["unseen"])


def chance(game: Game, budget: Budget) -> list[Said]:
    """The chance that the hidden cards lie in a winnable way, and what that figure is not."""
    return chance_words(game, budget)[1]


def chance_words(game: Game, budget: Budget) -> tuple[str | None, list[Said]]:
    """:func:`chance` with the bare figure too ("89%", for a status line), None when the game is won."""
    if game.is_won():
        return None, [Said(_("You have won this game."), "good")]
    if game.is_over():  # nothing to estimate: no move is left
        return pct(0.0), [Said(_("Cannot be won any more: no legal move is left."), "warning")]
    spend = budget["chance"]
    assert spend.samples is not None
    c = fair.win_chance(game.observation(), spend.samples, seed=0, max_nodes=spend.positions,
                        time_limit=spend.seconds)
    n, won, undecided = c.samples, c.winnable, c.undecided
    if c.known:  # the one layout there is: the verdict, not an estimate, and nothing hidden to play blind
        if undecided:
            text = _("Can still be won: not known. No card is hidden, but the solver could not decide this position "
                     "within its search.")
        elif won:
            text = _("Can still be won: yes. No card is hidden, so this is the solver's verdict, not an estimate: "
                     "a winning line starts here.")
        else:
            text = _("Cannot be won any more: no card is hidden, and the solver has searched every line from here.")
        return pct(c.share), [Said(text, "advice" if won or undecided else "warning")]
    if undecided:
        text = _("Winnable as far as seen: {share} (a solver that sees every card wins {won} of {n} possible "
                 "layouts of the cards you have not seen, and could not tell for {undecided} of them; 95% interval "
                 "{low} to {high}).")
    else:
        text = _("Winnable as far as seen: {share} (a solver that sees every card wins {won} of {n} possible "
                 "layouts of the cards you have not seen; 95% interval {low} to {high}).")
    text = text.format(share=pct(c.share), won=won, n=n, low=pct(c.low), high=pct(c.high),
                       undecided=undecided)
    if undecided:  # counted as not won: more time can only raise the figure
        text += " " + _("{share} counts those as lost; with more time it could be higher.").format(
            share=pct(c.share))
    return pct(c.share), [
        Said(text, "advice"),
        Said(_("That is not your chance of winning: you choose moves before the hidden cards show, so you win less "
               "often than a solver that sees them. What it wins is an upper bound on how often play that does not "
               "peek wins from here."), "note"),
    ]


# --- hints --------------------------------------------------------------------------------------------
def hint_start(game: Game, budget: Budget, mode: str) -> Said | None:
    """What a fair hint is about to do (a peeking one answers at once, and so does any hint where no move is legal,
    a won game's among them)."""
    if mode == "fair" and game.legal_moves():
        if nothing_hidden(game):
            return Said(_("Looking for a winning line from here..."), "note")
        return Said(_("Thinking over {n} layouts of the hidden cards...").format(n=budget["fair-hint"].samples),
                    "note")
    return None


def advise(game: Game, budget: Budget, mode: str) -> tuple[Hint, Said]:
    """A hint in ``mode`` (``fair``: from the cards seen; ``peek``: the solver sees the face-down cards, and the
    message says so), and its message."""
    if mode == "peek":
        advice = hint(game, mode="peek", spend=budget["peek-hint"])
        return advice, Said(advice.message, "peek")
    advice = hint(game, spend=budget["fair-hint"])
    return advice, Said(advice.message, "advice")


# --- giving up ----------------------------------------------------------------------------------------
GIVE_UP_QUESTION = N_("Give up this game? It counts as lost.")
GIVE_UP_ASSISTED_QUESTION = N_("Give up this game? It ends, and is counted separately, as a game played with the "
                               "solver's help.")


def give_up_question(game: Game) -> str:
    """What giving up costs, as the statistics count it: a loss, or for an assisted game, nothing but its end."""
    return _(GIVE_UP_ASSISTED_QUESTION if game.assisted else GIVE_UP_QUESTION)


def giveup_refusal(game: Game, gave_up: bool, names: Names) -> Said | None:
    """Why this game cannot be given up now, or None when it can (after the player confirms)."""
    if game.is_won():
        return Said(_("You have won this game: there is nothing to give up."), "good")
    if gave_up:
        return Said(_("You have already given this game up: {lost} shows where it was lost, {new} deals another "
                      "game.").format(lost=names.lost, new=names.new), "warning")
    return None


def gave_up_said(names: Names) -> Said:
    return Said(_("You gave up this game. {lost} shows where it could no longer be won (it looks at every card); "
                  "{new} deals another game. Playing on from here ({undo}, a move) counts the game as "
                  "assisted.").format(lost=names.lost, new=names.new, undo=names.undo), "warning")


# --- where the game was lost -----------------------------------------------------------------------------
def lost_start(game: Game, gave_up: bool, names: Names) -> tuple[Said, bool]:
    """What 'where lost' says first, and whether it goes on to look (a refusal or a won game ends it here)."""
    if game.is_won():
        return Said(_("You won: this game was never lost."), "good"), False
    if not fair.may_look_back(ended(game, gave_up), game.observation()["unseen"]):
        return Said(_("{lost} looks at every card, face-down ones included, so it answers only once the game is "
                      "over. Give the game up first ({giveup}) if you want to stop here.").format(
            lost=names.lost, giveup=names.giveup), "warning"), False
    return Said(_("Looking back over the game with every card shown..."), "note"), True


def ended(game: Game, gave_up: bool) -> bool:
    """The game is over (no move left) or given up: where it was lost may look at every card."""
    return game.is_over() or gave_up


def lost(game: Game, budget: Budget, gave_up: bool) -> tuple[list[Said], bool]:
    """Where the game could no longer be won, and whether playing on from here counts as assisted: after a game
    that had ended, it looked at every card; during play, where no card is hidden (:func:`lost_start` lets it
    answer then), it told nothing the chance, undo and a fair hint do not tell without help.
    """
    looked = ended(game, gave_up)
    try:
        spend = budget["where-lost"]
        found = fair.where_lost(game.to_dict(), max_nodes=spend.positions, time_limit=spend.seconds)
    except fair.FairError as exc:
        return [Said(_("Cannot say for sure: {error}.").format(error=exc), "warning")], False
    if found is None:
        return [Said(_("This game was never lost: a winning line still exists from where you stopped."),
                     "advice")], looked
    if found["deal_unwinnable"]:
        return [Said(_("This deal could not be won from the start: the solver searched every line."), "advice")], looked
    line = " ".join(found["line"])
    return [
        Said(losing_move_text(game, found), "advice"),
        Said(_("A winning line from just before move {number}: {line}").format(
            number=found["move_index"] + 1, line=line), "note"),
    ], looked


def losing_move_text(game: Game, lost: dict[str, Any]) -> str:
    """Where the game was lost, naming the cards the losing move took: pile codes alone say little to a player."""
    index = lost["move_index"]
    move = game.moves_played[index]
    before = Game.replay(game.rules, game.deal, game.moves_played[:index]).public_position()
    cards = [parse_card(c["card"]) for c in before["piles"][move.source][-move.count:] if c["card"] is not None]
    names = format_list([card_name(c) for c in cards], locale=current())
    facts = {"number": index + 1, "last": lost["last_possible"] + 1, "move": move, "cards": names}
    if lost["certain"]:
        if move.source == "stock":
            text = _("You could still have won until move {number}, when you dealt from the stock ({move}): "
                     "after it, no line wins.")
        elif move.target == "stock":
            text = _("You could still have won until move {number}, when you turned the waste over ({move}): "
                     "after it, no line wins.")
        else:
            text = _("You could still have won until move {number}, when you moved the {cards} ({move}): "
                     "after it, no line wins.")
    elif move.source == "stock":
        text = _("The game was lost at one of moves {number} to {last}. Before move {number}, when you dealt from "
                 "the stock ({move}), it could still be won; the solver could not tell for the positions in between.")
    elif move.target == "stock":
        text = _("The game was lost at one of moves {number} to {last}. Before move {number}, when you turned the "
                 "waste over ({move}), it could still be won; the solver could not tell for the positions in "
                 "between.")
    else:
        text = _("The game was lost at one of moves {number} to {last}. Before move {number}, when you moved the "
                 "{cards} ({move}), it could still be won; the solver could not tell for the positions in between.")
    return text.format(**facts)
