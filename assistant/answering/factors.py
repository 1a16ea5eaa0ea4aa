"""A conversion the quoted sentence defines by a factor, worked out for the user's one value.

"the parts per million value multiplied by the factor 8.34 shall be equivalent to pounds per million gallons of
water" and "the lab came back with two hundred and fifty parts per million": 250 x 8.34 = 2,085 pounds per million
gallons. The factor, the unit converted from and the unit it gives are read from the code's sentence (any code, no
table); the value from the user's words, written in the unit the sentence converts from (or its initials: "ppm").
Exact (Decimal); pure functions.
"""

from __future__ import annotations

import re
from decimal import Decimal

from assistant.answering.reading import NUMBER, number_value
from assistant.answering.worked import Worked

# "<unit> value multiplied by the factor 8.34 shall be equivalent to <unit>", "multiplied by a factor of 0.3048 equals"
_FACTOR = re.compile(
    r"(?:the\s+)?(?P<from>[a-z][a-z ]{2,40}?)\s+(?:value\s+|figure\s+|number\s+)?multiplied\s+by\s+(?:the\s+factor\s+|a\s+factor\s+of\s+)?"
    r"(?P<k>\d+(?:\.\d+)?)\s+(?:shall\s+be\s+|is\s+|will\s+be\s+)?(?:equivalent\s+to|equal\s+to|equals|gives|yields)\s+"
    r"(?P<to>[a-z][a-z ]{2,60}?)(?=[.,;]|$)", re.I)


def _initials(words: str) -> str:
    return "".join(w[0] for w in words.split()).lower()


def converted(turn: str, sentences: list[str]) -> Worked | None:
    """The user's one value in the unit the first quoted sentence with a factor converts from, converted; None when no
    sentence defines a factor, or the question gives no such value or several."""
    for sentence in sentences:
        m = _FACTOR.search(sentence)
        if m is None:
            continue
        unit = re.sub(r"^(?:the|a|an)\s+", "", m.group("from").strip(), flags=re.I)
        names = [re.escape(unit)] + ([re.escape(_initials(unit))] if len(unit.split()) > 1 else [])
        given = [(n, g) for g in re.finditer(rf"(?P<n>{NUMBER.pattern})\s*(?:{'|'.join(names)})\b", turn, re.I)
                 if (n := number_value(g)) is not None]
        if len({n for n, _ in given}) != 1:
            return None
        n, g = given[0]
        k = Decimal(m.group("k"))
        result = n * k
        to = m.group("to").strip()
        step = f"{format(n.normalize(), 'f')} (“{g.group(0).strip()}”) × {m.group('k')} = {format(result.normalize(), ',f')} {to}"
        return Worked("factor", m.group(0).strip(), g.group(0).strip(), result, [step], False, sentence,
                      unit=to)
    return None
