"""How much material a quoted rate of application gives for the user's one area: "at a minimum rate of one
gallon of material for each 200 square feet of surface treated" and "a walk 5 ft wide by 120 ft long" (at
least 3 gallons). Any code, no table."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from assistant.answering.reading import NUMBER, Slot, number_value
from assistant.answering.tiers import users_quantities
from assistant.answering.worked import Worked

# the question asks a quantity of something, not money ("what's the least amount of curing compound",
# "how many gallons of sealer")
ASKS_MATERIAL = re.compile(r"\bhow\s+(?:much|many)\b|\b(?:least|minimum|smallest|most|maximum)\s+(?:amount|quantity)\b|"
                           # "Minimum curing compound I need?", "the least sealer we can use"
                           r"\b(?:least|minimum|min\.?|most|maximum|max\.?)\s+(?:[a-z-]+\s+){1,3}(?:i|we|you|they)\s+"
                           r"(?:need|needs|have to|must|should|can|could)\b|"
                           r"\bamount\s+of\b|\bnumber\s+of\s+(?:gallons?|quarts?|pints?|liters?|litres?|pounds?|lbs|bags?|"
                           r"tons?|cubic\s+(?:yards?|feet))\b", re.I)
_MONEY_ASKED = re.compile(r"\$|\b(?:cost|costs|fee|fees|fine|fines|charge|charged|pay|owe|dollars?|price)\b", re.I)
# "one gallon of material for each 200 square feet", "2 pounds per 100 sq. ft.", "a gallon to every 150 square feet"
_RATE = re.compile(
    rf"(?P<q>{NUMBER.pattern}|a|an|one)\s*(?:\(\d+\)\s*)?(?P<qu>gallons?|quarts?|pints?|liters?|litres?|pounds?|lbs?\.?|"
    r"ounces?|bags?|tons?|cubic\s+(?:yards?|feet))\s+(?:of\s+(?:[a-z-]+\s+){0,3}?)?"
    r"(?:for\s+each|for\s+every|per|to\s+each|to\s+every|to\s+the)\s+"
    r"(?:(?P<n>\d[\d,]*(?:\.\d+)?)\s*)?(?P<au>square\s+(?:feet|foot|yards?)|sq\.?\s*(?:ft|yds?)\.?)", re.I)
_MIN = re.compile(r"\b(?:minimum|at\s+least|not\s+less\s+than|no\s+less\s+than)\b", re.I)
_MAX = re.compile(r"\b(?:maximum|not\s+more\s+than|no\s+more\s+than|not\s+to\s+exceed|at\s+most)\b", re.I)
_PLURAL = {"gallon": "gallons", "quart": "quarts", "pint": "pints", "liter": "liters", "litre": "litres",
           "pound": "pounds", "lb": "pounds", "ounce": "ounces", "bag": "bags", "ton": "tons"}


def _unit(words: str) -> tuple[str, str]:
    w = re.sub(r"\.$", "", words.lower())
    w = re.sub(r"\s+", " ", w)
    if w.startswith("cubic"):
        base = "cubic " + ("yard" if "yard" in w else "foot")
        return base, base.replace("yard", "yards").replace("foot", "feet")
    one = w[:-1] if w.endswith("s") and w[:-1] in _PLURAL else w
    return one, _PLURAL.get(one, one)


# "60 ft of 4 ft wide walk": a length of a thing its width is said of, an area
_LENGTH_OF_WIDE = re.compile(r"(?P<a>\d+(?:\.\d+)?)\s*(?:'|’|ft\.?|feet|foot)\s+of\s+(?:new\s+)?(?P<b>\d+(?:\.\d+)?)[\s-]*"
                             r"(?:'|’|ft\.?|feet|foot)[\s-]+wide\b", re.I)
# "a 5 ft wide walk along a 120 foot frontage", "4' wide for 60 feet": a width and the length it runs, an area
_WIDE_ALONG = re.compile(r"(?P<b>\d+(?:\.\d+)?)[\s-]*(?:'|’|ft\.?|feet|foot)[\s-]+wide\b[^.?!\d]{0,40}?\b(?:along|for|by|across|"
                         r"over|on)\s+(?:an?\s+|the\s+|my\s+|our\s+)?(?P<a>\d+(?:\.\d+)?)[\s-]*(?:'|’|ft\.?|feet|foot)\b", re.I)
_ADDED = re.compile(r"\b(?:plus|and|along\s+with|together\s+with|as\s+well\s+as)\b|\+|&", re.I)


def _areas_of(turn: str, slots: list[Slot]) -> list[tuple[Decimal, str]]:
    """The areas the question gives; several told as one job ("60 ft of 4 ft wide walk plus a residential apron 12 ft
    by 10 ft"), each joined to the next by "plus" or "and" and none asked of each, as their sum."""
    areas = list(users_quantities(turn, slots).get("area", []))
    for m in [*_LENGTH_OF_WIDE.finditer(turn), *_WIDE_ALONG.finditer(turn)]:
        if not any(w in m.group(0) or m.group(0) in w for _, w in areas):
            areas.append((Decimal(m.group("a")) * Decimal(m.group("b")), m.group(0)))
    if not areas:
        # ("New walk across a 120 ft frontage, 5 feet wide"): one length and one width, in feet, told of one thing
        from assistant.answering.slot_safety import dimension

        feet = [x for x in slots if x.kind == "length" and x.unit == "ft" and x.span.origin == "turn"]
        wide = [x for x in feet if dimension(x) == "width"]
        along = [x for x in feet if dimension(x) in (None, "length")]
        if len(feet) == 2 and len(wide) == 1 and len(along) == 1:
            areas.append((along[0].number * wide[0].number, f"{along[0].span.text} × {wide[0].span.text}"))
        return areas
    if _left_out(turn, slots, areas):
        return []
    if len(areas) < 2 or re.search(r"\beach\b|\bapiece\b|\bseparately\b", turn, re.I):
        return areas
    placed = sorted(((turn.find(w), a, w) for a, w in areas), key=lambda x: x[0])
    if any(p < 0 for p, _, _ in placed):
        return areas
    joined = all(_ADDED.search(turn[p + len(w):q]) and len(turn[p + len(w):q]) <= 60
                 for (p, _, w), (q, _, _) in zip(placed, placed[1:]))
    if not joined:
        return areas
    return [(sum((a for _, a, _ in placed), Decimal(0)), " + ".join(f"{w}" for _, _, w in placed))]


def _left_out(turn: str, slots: list[Slot], areas: list[tuple[Decimal, str]]) -> bool:
    """Is a measure in feet of the question in none of the areas read ("a 4 ft wide walk, 85 feet long, plus a
    12 x 10 ft apron" read as the apron alone)? Then no area is worked out from part of the job."""
    spans = [(p, p + len(w)) for _, w in areas for p in [turn.find(w)] if p >= 0]
    return any(x.kind == "length" and x.unit == "ft" and x.span.origin == "turn"
               and not any(a <= x.span.start < b for a, b in spans) for x in slots)


def material_for_area(turn: str, slots: list[Slot], sentences: list[str]) -> Worked | None:
    """The material the best sentence (best first) with one rate of application gives for the user's one
    area in square feet; None when the question asks money or no quantity, gives no area or two, or the
    sentence states no such rate or several."""
    if not ASKS_MATERIAL.search(turn) or _MONEY_ASKED.search(turn):
        return None
    areas = _areas_of(turn, slots)
    if len({a for a, _ in areas}) != 1:
        return None
    area, written = areas[0]
    for sentence in sentences:
        rates = list(_RATE.finditer(sentence))
        if not rates:
            continue
        if len(rates) != 1:
            return None
        m = rates[0]
        q = Decimal(1) if m.group("q").lower() in ("a", "an", "one") else number_value(m)
        per = Decimal(1)
        if m.group("n"):
            n = Decimal(m.group("n").replace(",", ""))
            if n <= 0:
                return None
            per = n
        if q is None or q <= 0:
            return None
        sq_area = area / 9 if "yard" in m.group("au").lower() or "yd" in m.group("au").lower() else area
        need = (sq_area / per * q).quantize(Decimal("0.01"), ROUND_HALF_UP).normalize()
        one, many = _unit(m.group("qu"))
        before = sentence[max(0, m.start() - 40):m.start()]
        bound = "at least " if _MIN.search(before) else "at most " if _MAX.search(before) else ""
        area_unit = "square yards" if sq_area is not area else "square feet"
        steps = [f"{format(sq_area.normalize(), 'f')} {area_unit} (“{written}”) ÷ {format(per.normalize(), 'f')} × "
                 f"{format(q.normalize(), 'f')} {one if q == 1 else many} = {bound}{format(need, 'f')} "
                 f"{one if need == 1 else many}"]
        return Worked("per_area", m.group(0), written, need, steps, bool(_MAX.search(before)), sentence,
                      unit=one if need == 1 else many)
    return None


def rate_of_application(sentence: str) -> bool:
    """Does the sentence give a quantity of material per area or unit ("one gallon of material for each 200 square
    feet")?"""
    return _RATE.search(sentence) is not None


def area_needed(turn: str, slots: list[Slot], sentences: list[str]) -> tuple[str, str] | None:
    """The words of the user's one measure, and the sentence of the rate, when a quoted rate of application is per
    area and the question gives a length but no area ("a sidewalk that's 80 feet long"): the width is asked for.
    The rate is the best sentence's, or, when the question asks in a unit ("the minimum number of gallons"), one of
    the first three sentences' in that unit. None otherwise."""
    if not ASKS_MATERIAL.search(turn) or _MONEY_ASKED.search(turn) or users_quantities(turn, slots).get("area"):
        return None
    lengths = [s for s in slots if s.kind == "length" and s.span.origin == "turn"]
    asked = _ASKS_UNITS.search(turn)
    in_unit = [s for s in sentences[:3] if any(
        _unit(m.group("qu"))[0] == _unit(asked.group("u"))[0] for m in _RATE.finditer(s))] if asked else []
    if not lengths and in_unit:
        return "", in_unit[0]  # "How many gallons of that curing stuff do I need for my new sidewalk?": no measure
    rate = sentences[0] if sentences and _RATE.search(sentences[0]) else (in_unit[0] if in_unit else None)
    if len(lengths) != 1 or rate is None:
        return None
    return lengths[0].span.text, rate


# a quantity asked in a unit a rate of application is written in ("how many gallons", "how many bags")
_ASKS_UNITS = re.compile(r"\b(?:how\s+(?:many|much)|number\s+of)\s+(?P<u>gallons?|quarts?|pints?|liters?|litres?|pounds?|"
                         r"lbs?|bags?|tons?|cubic\s+(?:yards?|feet))\b", re.I)
