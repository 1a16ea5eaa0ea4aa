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
        more = _of_quantity(turn, result, to, g)
        if more is not None:  # "... and how many pounds in a 400,000-gallon day?": the rate times the quantity
            total, step2, unit = more
            return Worked("factor", m.group(0).strip(), g.group(0).strip(), total, [step, step2], False, sentence,
                          unit=unit)
        return Worked("factor", m.group(0).strip(), g.group(0).strip(), result, [step], False, sentence,
                      unit=to)
    return None


_SCALES = {"million": Decimal(1_000_000), "thousand": Decimal(1_000), "hundred": Decimal(100)}
# "pounds per million gallons of water": what the rate gives, per how many of which unit
_PER_SCALE = re.compile(r"^(?P<what>[a-z]+(?:\s+[a-z]+)?)\s+per\s+(?:(?P<scale>million|thousand|hundred)\s+)?"
                        r"(?P<unit>[a-z]+?)s?\b", re.I)


def _of_quantity(turn: str, rate: Decimal, to: str, used: re.Match):
    """The converted rate ("2,085 pounds per million gallons") times the one quantity of its unit the question gives
    ("a 400,000-gallon day", "3,500 gallons", "0.2 million gallons a day"): (total, step, unit), or None."""
    per = _PER_SCALE.match(to)
    if per is None:
        return None
    unit = per.group("unit").lower()
    scale = _SCALES.get((per.group("scale") or "").lower(), Decimal(1))
    found = []
    for q in re.finditer(rf"(?P<n>{NUMBER.pattern})\s*(?P<m>million\s+|thousand\s+)?-?\s*{re.escape(unit)}s?\b", turn, re.I):
        if used.start() <= q.start() < used.end() or re.search(r"\bper\s+$", turn[max(0, q.start() - 6):q.start()], re.I):
            continue
        n = number_value(q)
        if n is None:
            continue
        n *= _SCALES.get((q.group("m") or "").strip().lower(), Decimal(1))
        found.append((n, q))
    if len({n for n, _ in found}) != 1:
        return None
    n, q = found[0]
    daily = re.match(r"\s*(?:a|per|each|every)\s+day\b|\s+day\b", turn[q.end():q.end() + 12], re.I)
    exact = rate * n / scale
    what = per.group("what") + (" a day" if daily else "")
    # (shown to the hundredth when it runs longer: "9.3408 pounds, 9.34 to the hundredth")
    total = exact.quantize(Decimal("0.01")) if exact != exact.quantize(Decimal("0.01")) else exact
    rounded = f" ({format(total.normalize(), ',f')} to the hundredth)" if total != exact else ""
    step = (f"{format(rate.normalize(), ',f')} × {format(n.normalize(), ',f')} {unit}s (“{q.group(0).strip()}”) "
            f"÷ {format(scale.normalize(), ',f')} = {format(exact.normalize(), ',f')} {what}{rounded}")
    return total, step, what
