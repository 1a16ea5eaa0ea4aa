"""A rise a quoted slope gives over the user's one length: "a slope not to exceed 12%" and "the driveway
runs 60 feet" (at most 7.2 feet); "a uniform cross slope of one-quarter inch per foot of width" and "5 feet
wide" (1.25 inches). Any code, no table."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from assistant.answering.limits import MAX_BEFORE, MIN_BEFORE
from assistant.answering.reading import Slot, read_slots
from assistant.answering.slot_safety import dimension
from assistant.answering.worked import Worked

# a rise over a run: "a slope not to exceed 12%" or "a cross slope of one-quarter inch per foot of width", and the
# user's one length ("the driveway runs 60 feet", "the walk will be 5 feet wide"), asked how much higher or lower
# ("how much total fall should there be across that distance?", "what's the total drop?")
ASKS_RISE = re.compile(r"\bhow much (?:total |overall )?(?:higher|lower|above|below|rise|drop|fall)\b|"
                       r"\bdifference in (?:height|elevation)\b|\bhow much (?:of a )?(?:rise|drop|fall)\b|"
                       r"\b(?:total|overall) (?:rise|drop|fall)\b", re.I)
_SLOPE_WORD = re.compile(r"\b(?:slope|grade|pitch)\b", re.I)
_PER_FOOT = re.compile(r"\s*(?:per|to the|for each|a)\s+(?:lineal\s+|linear\s+)?(?:foot|ft)\b", re.I)


def rise(turn: str, slots: list[Slot], picked: list[tuple[str, str]]) -> Worked | None:
    """The rise a quoted slope gives over the user's one length, in the slope's own terms (a percentage of
    the run, or inches per foot of it); None when the question asks no height, gives no length or two, or
    the best sentence with a slope states none or several."""
    if not ASKS_RISE.search(turn):
        return None
    runs = [s for s in slots if s.kind == "length" and s.span.origin == "turn"]
    if len({(s.number if s.unit == "ft" else s.number / 12) for s in runs}) != 1:
        return None
    run = runs[0]
    feet = run.number if run.unit == "ft" else run.number / 12
    for sentence, _ in picked:
        if not _SLOPE_WORD.search(sentence):
            continue
        found = [(s, "percent") for s in read_slots(sentence) if s.kind == "percent"]
        found += [(s, "per_foot") for s in read_slots(sentence)
                  if s.kind == "length" and s.unit == "in" and _PER_FOOT.match(sentence, s.span.end)]
        if not found:
            continue  # "the maximum and minimum slope in any cut": a slope with no figure
        if len({(k, s.number) for s, k in found}) > 1:
            return None  # several slopes: which one is not guessed
        rate, kind = found[0]
        per_foot = _PER_FOOT.match(sentence, rate.span.end)
        across = re.match(r"\s+of\s+(width|length)\b", sentence[per_foot.end():], re.I) if per_foot else None
        if across and dimension(run) not in (None, across.group(1).lower()):
            return None  # "per foot of width" and "40 ft of storefront": the length told is not the one the slope runs over
        before = sentence[max(0, rate.span.start - 40):rate.span.start]
        most = bool(MAX_BEFORE.search(before)) and not MIN_BEFORE.search(before)
        end = per_foot.end() if per_foot else rate.span.end
        words = sentence[rate.span.start:end]
        if kind == "percent":
            result, unit = (feet * rate.number / 100), "ft"
            step = f"{rate.number.normalize():f}% of {feet.normalize():f} feet (“{run.span.text}”) = "
        else:
            result, unit = feet * rate.number, "in"
            step = f"{rate.number.normalize():f} inch per foot × {feet.normalize():f} feet (“{run.span.text}”) = "
        from assistant.answering.phrasing import quantity

        result = result.quantize(Decimal("0.001"), ROUND_HALF_UP).normalize()
        return Worked("rise", words, run.span.text, result, [step + quantity(result, unit)], most, sentence, unit)
    return None
