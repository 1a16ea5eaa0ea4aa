"""A portion of the user's own measure that a quoted sentence sets: "not more than 1/3 of any street" with
"the street's thirty-three feet curb to curb" gives 11 feet; "one-half of the sidewalk" with "the walk is
6 feet wide" gives 3 feet.

The fraction and what it is a fraction of are read from the code's sentence; the measure from the user's
words, and only when the words beside that measure name the same thing (a street's width for "of any
street"); the product is exact (Decimal, shown to the hundredth when it does not come out even). Nothing is
worked out when the question gives two different measures, or the sentence two portions of the thing.

Pure functions; the planner calls ``portion_of`` with the sentences it is about to quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal

from assistant.answering.limits import MAX_BEFORE, MIN_BEFORE, clause_at, one_measurement
from assistant.answering.reading import Slot
from assistant.retrieval.lexical import stems

_WORDED = {"one-half": (1, 2), "one half": (1, 2), "one-third": (1, 3), "one third": (1, 3), "one-quarter": (1, 4),
           "one quarter": (1, 4), "one-fourth": (1, 4), "one fourth": (1, 4), "two-thirds": (2, 3),
           "two thirds": (2, 3), "three-quarters": (3, 4), "three quarters": (3, 4), "three-fourths": (3, 4),
           "three fourths": (3, 4)}
_PORTION = re.compile(r"(?P<frac>\b\d+\s*/\s*\d+|\b\d+(?:\.\d+)?\s*(?:%|percent\b)|\b(?:"
                      + "|".join(re.escape(k) for k in sorted(_WORDED, key=len, reverse=True)) + r")\b)"
                      r"\s+of\s+(?:the\s+|any\s+|such\s+|said\s+|a\s+|an\s+|each\s+|its\s+)?"
                      # ("1/3 of the traveled portion of the street": a part of a part, named to its end)
                      r"(?P<of>(?:(?:traveled|travelled|paved|improved|usable|open|clear)\s+)?(?:portion|part|width|"
                      r"area|length)\s+of\s+(?:the\s+|any\s+|such\s+)?[a-z][a-z-]*|"
                      r"[a-z][a-z-]*(?:\s+(?!and\b|or\b|which\b|that\b|shall\b)[a-z][a-z-]*){0,2})", re.I)
# a question that asks for a size the portion gives ("how much of it can my stuff take up?", "how wide?")
ASKS_PORTION = re.compile(r"\bhow (?:much|many (?:feet|inches)|wide|far|big|long|deep)\b|\bwhat (?:width|length|"
                          r"portion|part|share)\b|\btake up\b|\b(?:use|block|cover|occupy)\b", re.I)
# words that say how a thing is measured, not what it is
_GENERIC = stems("feet foot inch inches yard yards wide width long length deep depth the a an of in on at is it its "
                 "our my from to curb across total whole entire")


@dataclass(frozen=True)
class Portion:
    numerator: int
    denominator: int
    words: str  # the portion with its comparator, verbatim from the sentence ("not more than 1/3 of any street")
    measured: Slot
    value: Decimal  # in the measure's unit, to the hundredth
    exact: bool  # the product comes out even
    sentence: str
    rounded: str = ""  # a share of a count of people or things: "up" (not less than) / "down" (not more than) to a whole
    raw: Decimal | None = None  # the share before it was made whole

    def call(self) -> dict:
        from assistant.answering.phrasing import quantity

        u = self.measured.unit
        return {"name": "portion_calculation",
                "arguments": {"portion": self.words, "measured": self.measured.span.text},
                "result": {"measured": quantity(self.measured.number, u),
                           "portion": f"{self.numerator}/{self.denominator}",
                           "result": quantity(self.value, u), "exact": self.exact, "quote": self.sentence,
                           **({"before_made_whole": format(self.raw.normalize(), "f"), "made_whole": self.rounded}
                              if self.rounded else {})}}


def _fraction(text: str) -> tuple[int, int] | None:
    t = re.sub(r"\s+", " ", text.strip().lower())
    if t in _WORDED:
        return _WORDED[t]
    m = re.fullmatch(r"(\d+) ?/ ?(\d+)", t)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        return (a, b) if 0 < a < b else None
    m = re.fullmatch(r"(\d+(?:\.\d+)?) ?(?:%|percent)", t)
    if m:
        p = Decimal(m.group(1))
        if not 0 < p < 100:
            return None
        scale = 10 ** max(0, -p.as_tuple().exponent)
        return int(p * scale), 100 * scale
    return None


def _own_part(turn: str, slot: Slot) -> str:
    """The words of the value's own part of its sentence, between commas, semicolons and "and"s."""
    before = re.split(r"[.;,!?]|\band\b", turn[:slot.span.start])[-1]
    after = re.split(r"[.;,!?]|\band\b", turn[slot.span.end:])[0]
    return before + slot.span.text + after


# a question that asks how many of a count ("How many have to sign?", "what's the minimum number of owners")
_DWELLINGS = stems("house houses home homes household households dwelling dwellings")
_HOUSEHOLD = stems("resident residents occupant occupants owner owners household households")
_ASKS_COUNT = re.compile(r"\bhow\s+many\b|\b(?:minimum|least|smallest|fewest)\s+number\b|\bnumber\s+of\b", re.I)


def share_of_count(turn: str, slots: list[Slot], sentences: list[str]) -> list[Portion]:
    """The share a quoted sentence sets of the count the user gives ("signed by not less than 70% of the residents
    abutting" with "23 residents": 16.1, so at least 17), made whole the way its words bind (not less than: up; not
    more than: down); [] when the question asks no number, gives no count or several, or the share comes out uneven
    with no bound to say which way."""
    if not _ASKS_COUNT.search(turn):
        return []
    counts = [s for s in slots if s.kind == "count"]
    if len({(s.value, s.unit) for s in counts}) != 1:
        return []
    count = counts[0]
    unit = stems(count.unit or "")
    if unit & _DWELLINGS:
        # ("There's 20 houses along that stretch. How many have to sign?" of "not less than 70% of the residents
        # abutting"): a house counted is its residents' household, as a petition of the abutting residents counts them
        unit |= _HOUSEHOLD
    for sentence in sentences:
        found = []
        for m in _PORTION.finditer(sentence):
            frac = _fraction(m.group("frac"))
            if frac is None or not unit & stems(m.group("of")):
                continue
            before = sentence[max(0, m.start() - 40):m.start()]
            low, high = MIN_BEFORE.search(before), MAX_BEFORE.search(before)
            lead = low or high
            start = m.start() - (len(before) - lead.start()) if lead else m.start()
            words = re.sub(r"\s+(?:the|a|an|of|to|such|said)$", "", sentence[start:m.end()].strip(" ,"), flags=re.I)
            found.append((frac, words, "up" if low else "down" if high else ""))
        if len({f for f, _, _ in found}) > 1:
            return []
        if found:
            (a, b), words, way = found[0]
            product = count.number * a / b
            whole = product.to_integral_value(rounding=ROUND_CEILING if way == "up" else ROUND_FLOOR)
            if product != whole and not way:
                return []
            return [Portion(a, b, words, count, whole, True, sentence, rounded=way if whole != product else "",
                            raw=product)]
    return []


def portion_of(turn: str, slots: list[Slot], sentences: list[str]) -> list[Portion]:
    """The portion the first sentence (best first) sets of the thing the user measured; [] when none
    fits exactly one way. (A municipality's everyday words are not left out here, unlike a limit check:
    "street" is what "1/3 of any street" is a portion of.)"""
    if not ASKS_PORTION.search(turn):
        return []
    measured = one_measurement(slots)
    lengths = [s for s in slots if s.kind == "length" and s.unit in ("ft", "in")]
    if measured is None and not lengths:
        return []
    if measured is not None and measured.unit not in ("ft", "in"):
        return []
    for sentence in sentences:
        found = []
        for m in _PORTION.finditer(sentence):
            frac = _fraction(m.group("frac"))
            of_words = stems(m.group("of")) - _GENERIC
            # the user's measure of the thing the portion is of: the one measure, or of several ("the lot is 48 ft
            # wide ... the street out front is 36 ft curb to curb") the one whose own clause names that thing
            mine = [measured] if measured is not None else \
                [x for x in lengths if (stems(_own_part(turn, x)) - _GENERIC) & of_words]
            if frac is None or len({x.number * (12 if x.unit == "ft" else 1) for x in mine}) != 1 \
                    or not (stems(clause_at(turn, mine[0].span.start) if measured is not None
                                  else _own_part(turn, mine[0])) - _GENERIC) & of_words:
                continue
            measured = mine[0]
            before = sentence[max(0, m.start() - 40):m.start()]
            lead = MAX_BEFORE.search(before) or MIN_BEFORE.search(before)
            start = m.start() - (len(before) - lead.start()) if lead else m.start()
            found.append((frac, sentence[start:m.end()].strip(" ,")))
        if len({f for f, _ in found}) > 1:
            return []  # two portions of the thing: which one is not guessed
        if found:
            (a, b), words = found[0]
            product = measured.number * a / b
            value = product.quantize(Decimal("0.01"), ROUND_HALF_UP)
            return [Portion(a, b, words, measured, value, value == product, sentence)]
    return []
