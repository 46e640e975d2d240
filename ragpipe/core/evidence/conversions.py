"""Two amounts of one dimension written in different units, one converted from the other and rounded in its new unit
("16 pounds" / "7.26 kg", "26.2 miles" / "42.195 km", "1,000 feet" / "305 m", "6英尺" / "1.83米"): quantities.same reads
them as one quantity."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from ragpipe.core.evidence.units import SPELLINGS

if TYPE_CHECKING:
    from ragpipe.core.evidence.quantities import Quantity

# A conversion stays within a twentieth of the amount: rounding "1 mile" to the kilometre makes 2 km, which no one says.
_MOST_APART = 0.05


def rounded_alike(a: Quantity, b: Quantity) -> bool:
    """In different units, the two agree to the last digit of either, not of a single figure where the other has more
    ("7 kg" is no 16 pounds: it rounds the kilograms, not the pounds), and within a twentieth."""
    if not (a.unit and b.unit and a.number and b.number) or math.isclose(_factor(a), _factor(b)):
        return False
    most = max((a, b), key=lambda q: (_figures(q), -q.precision))
    place = max(q.precision for q in (a, b) if q is most or _figures(q) >= 2)
    gap = abs(a.amount - b.amount)
    return gap <= place / 2 + 1e-9 and gap <= _MOST_APART * max(abs(a.amount), abs(b.amount))


def _factor(quantity: Quantity) -> float:
    return next(f for s, _, f in SPELLINGS if re.fullmatch(s, quantity.unit, re.I))


def _figures(quantity: Quantity) -> int:
    """The significant figures of the number as written: "7.26" 3, "16" 2, "1,000" 1."""
    place = quantity.precision / _factor(quantity)
    if place >= 1 and quantity.number == int(quantity.number):
        return len(str(int(quantity.number)).rstrip("0")) or 1
    return len(str(round(abs(quantity.number) / place)))
