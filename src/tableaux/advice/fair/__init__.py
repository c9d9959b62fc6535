"""Advice that does not peek: chance to win, hints and sampling, from what the player has seen.

Every function here that advises during play takes an observation
(:meth:`tableaux.Game.observation`), never a ``Game`` or a full position, so
it cannot use a face-down card even by mistake: the observation does not
contain one. The cards the player has never seen are filled in at random
(:func:`sample`), uniformly over every arrangement consistent with what was
seen, and the clairvoyant solver (:func:`tableaux.solver.solve`) decides each
sampled layout. ``docs/fair.md`` explains why the sampling is exact and what
the numbers do and do not mean.

:func:`where_lost` is the exception: it looks back over a game that is over,
when every card may be shown, so it takes the game's record (:func:`may_look_back`
says when it may answer: also during play when no card is left to guess).

The parts: :mod:`.observation` (reading what was seen, sampling the rest),
:mod:`.chance` (chance, and the move-by-move hindsight vote), :mod:`.planner`
(the plan up to the next card turned: the fair player and the fair hint),
and :mod:`.lost` (where a finished game was lost). The no-peek players over a range of
deals are a floor above, in :mod:`tableaux.survey.fair`. The default budgets (``SAMPLES``, ``SAMPLE_NODES``,
``HINT_SAMPLES``, ``HINT_NODES``, ``LOST_NODES``) are :mod:`tableaux.advice.effort`'s, named here as well
for the library's users.
"""

from ..effort import HINT_NODES, HINT_SAMPLES, LOST_NODES, SAMPLE_NODES, SAMPLES
from .chance import CANDIDATES, Chance, Vote, hindsight_vote, win_chance
from .lost import may_look_back, where_lost
from .observation import (
    MAX_SAMPLES,
    FairError,
    Knowledge,
    nothing_to_guess,
    read,
    sample,
    sample_states,
    unseen_count,
)
from .planner import PLANS, Plan, path_to_a_card, plan, proved_lost

__all__ = [
    "CANDIDATES",
    "HINT_NODES",
    "HINT_SAMPLES",
    "LOST_NODES",
    "MAX_SAMPLES",
    "PLANS",
    "SAMPLES",
    "SAMPLE_NODES",
    "Chance",
    "FairError",
    "Knowledge",
    "Plan",
    "Vote",
    "hindsight_vote",
    "may_look_back",
    "nothing_to_guess",
    "path_to_a_card",
    "plan",
    "proved_lost",
    "read",
    "sample",
    "sample_states",
    "unseen_count",
    "where_lost",
    "win_chance",
]
