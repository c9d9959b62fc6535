"""What every answer of the API shares: the base model, which forbids fields the contract does not name, and
the number and code types the answers are built from.

Each group of answers (:mod:`.play`, :mod:`.page`, :mod:`.player`, :mod:`.routes`) stands on these, so they
live below all of them.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from ...rulebook.deal import MAX_DEAL
from ..fields import CARD_CODE


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")


NonNegative = Annotated[int, Field(ge=0)]
Share = Annotated[float, Field(ge=0, le=1)]
CardCode = Annotated[str, Field(pattern=CARD_CODE)]
DealNumber = Annotated[int, Field(ge=0, le=MAX_DEAL)]
