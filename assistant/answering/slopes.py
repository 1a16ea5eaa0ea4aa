"""A rise a quoted slope gives over the user's one length: "a slope not to exceed 12%" and "the driveway
runs 60 feet" (at most 7.2 feet); "a uniform cross slope of one-quarter inch per foot of width" and "5 feet
wide" (1.25 inches). Any code, no table."""

from __future__ import annotations

import re
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal

from assistant.answering.limits import MAX_BEFORE, MIN_BEFORE
from assistant.answering.reading import Slot, number_outside, read_slots
from assistant.answering.slot_safety import dimension
from assistant.answering.worked import Worked
from assistant.retrieval.lexical import stems

# a rise over a run: "a slope not to exceed 12%" or "a cross slope of one-quarter inch per foot of width", and the
# user's one length ("the driveway runs 60 feet", "the walk will be 5 feet wide"), asked how much higher or lower
# ("how much total fall should there be across that distance?", "what's the total drop?")
ASKS_RISE = re.compile(r"\bhow much (?:total |overall )?(?:higher|lower|above|below|rise|drop|fall)\b|"
                       r"\bdifference in (?:height|elevation)\b|\bhow much (?:of a )?(?:rise|drop|fall)\b|"
                       r"\b(?:total|overall) (?:rise|drop|fall)\b|"
                       # "the minimum the curb edge has to sit below the back edge", "how far lower is the front"
                       r"\b(?:has|have|needs?|got) to (?:sit|be|drop|fall) (?:\w+ )?(?:below|lower|above|higher)\b|"
                       r"\bhow far (?:below|above|lower|higher|down)\b|"
                       # "How much should the street edge sit below the back edge?"
                       r"\bhow much (?:should|does|must|will|would|do|can) (?:\w+ ){0,4}(?:sit|be|drop|fall|go) "
                       r"(?:\w+ )?(?:below|lower|above|higher|down)\b", re.I)
_SLOPE_WORD = re.compile(r"\b(?:slope|grade|pitch)\b", re.I)
_PER_FOOT = re.compile(r"\s*(?:per|to the|for each|a)\s+(?:lineal\s+|linear\s+)?(?:foot|ft)\b", re.I)


def _slopes_in(sentence: str) -> list[tuple[Slot, str]]:
    """The slopes a sentence about a slope states: percentages ("percent") and inches per foot ("per_foot")."""
    if not _SLOPE_WORD.search(sentence):
        return []
    read = read_slots(sentence)
    return [(s, "percent") for s in read if s.kind == "percent"] + \
        [(s, "per_foot") for s in read if s.kind == "length" and s.unit == "in" and _PER_FOOT.match(sentence, s.span.end)]


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
        found = _slopes_in(sentence)
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


# the steepness of the user's own rise over its run, asked against a quoted slope: "the driveway climbs 11 feet over
# 85 feet. Is that too steep?" (12.94% against "a slope not to exceed 12%")
ASKS_GRADE = re.compile(r"\b(?:too\s+steep|steep(?:er)?|slope|grade|pitch)\b|\b(?:is|be)\s+(?:that|it|this)\s+"
                        r"(?:ok|okay|allowed|legal|fine|acceptable)\b", re.I)
# the words that make a length the rise of a slope ("drops 30 inches", "climb a steady 6.6 feet", "comes up ... a
# foot and a half") or its run ("over a 20-foot stretch", "for every ten feet of run", "would run 60 feet")
_RISE_CUE = re.compile(r"\b(?:rises?|rising|climbs?|climbing|drops?|dropping|falls?|falling|goes\s+up|comes?\s+up|"
                       r"higher|lower|descends?)\b(?:\s+(?!(?:over|for|per|across|along|in)\b)[a-z-]+){0,6}\s*$", re.I)
_RUN_CUE = re.compile(r"\b(?:over|for\s+every|every|per|across|along|in|runs?|running)\s+(?:(?:a|an|the|about|roughly|"
                      r"some|steady|its|their|our|my|his|her|that|this|last|first|final|next|total|horizontal|"
                      r"(?:run|distance|length)\s+of)\s+)*$|"
                      # "so the run is only 72 feet"
                      r"\b(?:run|length)\s+(?:is|was|would\s+be|will\s+be|becomes|gets)\s+(?:only\s+|just\s+|about\s+|now\s+)*$",
                      re.I)
# (or after it: "the house sits ten feet higher than the road", "a 9-foot rise", "85 feet long")
_RISE_AFTER = re.compile(r"\s*(?:higher|lower|above|below|up\s+from|down\s+from|of\s+(?:rise|drop|fall|climb|elevation)|"
                         r"(?:rise|drop|fall|climb|elevation\s+(?:change|difference))\b)", re.I)
# ("50 feet from the edge of the road to the garage": the distance from one end to the other)
_RUN_AFTER = re.compile(r"\s*(?:long|stretch|of\s+(?:run|length)|run)\b|\s*(?:from|between)\s[^.?!;,]{0,40}?\b(?:to|and)\s", re.I)


def rises_and_runs(found: list[Slot]) -> tuple[list[Slot], list[Slot], list[Slot]]:
    """The lengths in feet or inches (a length said again, "over that 60 feet", once), and of them the rises and the
    runs of a slope, each told by its own words; a length told by neither is in neither."""
    lengths = list({(x.value, x.unit): x for x in reversed(found) if x.kind == "length" and x.unit in ("ft", "in")}.values())
    rises = [x for x in lengths if _RISE_CUE.search(x.before[-45:]) or _RISE_AFTER.match(x.after)]
    runs = [x for x in lengths if x not in rises and (_RUN_CUE.search(x.before[-25:]) or _RUN_AFTER.match(x.after))]
    return lengths, rises, runs


def grade(turn: str, slots: list[Slot], picked: list[tuple[str, str]]) -> Worked | None:
    """The user's rise over its run, in the terms of the one slope ceiling quoted (a percentage of the run, or
    inches per foot of it), and how it stands against it; None when the question asks no steepness, does not give
    one rise and one run, or the best sentence with a slope states no ceiling or several."""
    if not ASKS_GRADE.search(turn):
        return None
    _, rises, runs = rises_and_runs([s for s in slots if s.span.origin == "turn"])
    if len(rises) != 1 or len(runs) != 1 or number_outside(turn, slots, lambda kind: kind != "count"):
        return None  # (one rise and one run; never beside a bare number: "it climbs 6 feet, the other measured 8")
    up, run = rises[0], runs[0]
    ft = lambda s: s.number if s.unit == "ft" else s.number / 12  # noqa: E731
    if ft(run) <= 0 or ft(up) >= ft(run):
        return None
    for sentence, _ in picked:
        found = _slopes_in(sentence)
        if not found:
            continue
        if len({(k, s.number) for s, k in found}) > 1:
            return None  # several slopes: which one is not guessed
        limit, kind = found[0]
        before = sentence[max(0, limit.span.start - 40):limit.span.start]
        if not MAX_BEFORE.search(before) or MIN_BEFORE.search(before):
            return None  # a slope that is no ceiling ("a slope towards the curb of one-fourth inch per foot")
        per_foot = _PER_FOOT.match(sentence, limit.span.end)
        words = sentence[limit.span.start:per_foot.end() if per_foot else limit.span.end]
        told_words = f"“{up.span.text}” over “{run.span.text}”"
        if kind == "percent":
            value = (ft(up) / ft(run) * 100).quantize(Decimal("0.01"), ROUND_HALF_UP).normalize()
            step = (f"{format(ft(up).normalize(), 'f')} feet ÷ {format(ft(run).normalize(), 'f')} feet ({told_words}) × 100 "
                    f"= {format(value, 'f')}%")
            unit, cap = "%", limit.number
        else:
            inches = up.number if up.unit == "in" else up.number * 12
            value = (inches / ft(run)).quantize(Decimal("0.001"), ROUND_HALF_UP).normalize()
            step = (f"{format(inches.normalize(), 'f')} inches ÷ {format(ft(run).normalize(), 'f')} feet ({told_words}) "
                    f"= {format(value, 'f')} inch per foot")
            unit, cap = "in/ft", limit.number
        verdict = (f"more than the {format(cap.normalize(), 'f')}{'%' if unit == '%' else ' inch per foot'} allowed"
                   if value > cap else f"within the {format(cap.normalize(), 'f')}"
                   f"{'%' if unit == '%' else ' inch per foot'} allowed")
        return Worked("grade", words, told_words, value, [f"{step}, {verdict}"], False, sentence, unit)
    return None


# the rest of the user's one length once a quoted distance is kept clear: "backfilled to within 5" of the surface" in a
# trench 4 feet deep (43 inches of backfill), "no concrete ... closer than 3' from the hard surface" on a drive 40
# feet long (at most 37 feet of concrete)
_KEPT_CLEAR = re.compile(r"\b(?P<how>to\s+within|within|(?:no|not)\s+closer\s+than|closer\s+than)\s+$", re.I)
_OF_THING = re.compile(r"\s*(?:of|from)\s+(?:the\s+)?(?P<thing>[a-z][\w\s-]{2,40}?)(?=[,.;]|\s+(?:with|within|on|of|in|"
                       r"containing|and|shall|or)\b|$)", re.I)
_VERTICAL_THING = re.compile(r"\b(?:surface|grade|top|ground|finished)\b", re.I)
# (a part of the user's own length asked: "how much of that can be concrete?", "how many inches of the backfill")
ASKS_REST = re.compile(r"\bhow\s+(?:much|many\s+(?:inches|feet|ft))\s+of\b", re.I)
_ASKED_GENERIC = {"that", "it", "actual", "realli", "can", "could", "be", "go", "get", "leav", "left", "inch", "feet",
                  "foot", "ft", "much", "mani", "allow", "legal"}


def _asking(turn: str) -> str:
    """The sentence that asks the part of the user's length ("How much of that can actually be concrete?")."""
    return next((x for x in re.split(r"(?<=[.?!])\s+", turn) if ASKS_REST.search(x)), turn)


# a question asked down to the surface ("before the surface", "below the top", "from the surface")
ASKS_SURFACE = re.compile(r"\b(?:surface|top|grade|finished\s+grade|pavement)\b", re.I)


def remainder(turn: str, slots: list[Slot], picked: list[tuple[str, str]]) -> Worked | None:
    """The user's one length less the distance a quoted sentence keeps clear of something (in the smaller of the two
    units); None when no such question, no one length, or the best sentence keeping a distance keeps several."""
    if not ASKS_REST.search(turn):
        return None
    lengths = [s for s in slots if s.kind == "length" and s.span.origin == "turn"]
    feet = lambda xs: {(s.number if s.unit == "ft" else s.number / 12) for s in xs}  # noqa: E731
    deep = [s for s in lengths if dimension(s) == "depth"]
    if len(feet(lengths)) == 1 and not number_outside(turn, slots, lambda kind: kind not in ("count", "date", "time")):
        total = lengths[0]
    elif len(feet(deep)) == 1 and ASKS_SURFACE.search(turn):
        # ("Trench ... 42 inches deep, 30 ft long, 4 guys on it, homeowner's paying $6,200. How many inches of crushed
        # gravel go back in before the surface?"): the one depth told, of a question asked down to the surface
        total = deep[0]
    else:
        return None
    keeping = [sentence for sentence, _ in picked if any(
        _KEPT_CLEAR.search(sentence[max(0, s.span.start - 25):s.span.start]) and _OF_THING.match(sentence, s.span.end)
        for s in read_slots(sentence) if s.kind == "length" and s.unit in ("ft", "in"))]
    # the sentence naming what the asking sentence asks of ("how much of that can be concrete?": "No concrete
    # surfacing ... closer than 3' from the hard surface", not a trench's "within 5' of the edge" found first)
    asked_of = stems(ASKS_REST.split(_asking(turn), 1)[-1]) - _ASKED_GENERIC
    named = [x for x in keeping if stems(x) & asked_of]
    for sentence in (named or keeping):
        kept = [s for s in read_slots(sentence) if s.kind == "length" and s.unit in ("ft", "in")
                and _KEPT_CLEAR.search(sentence[max(0, s.span.start - 25):s.span.start])
                and _OF_THING.match(sentence, s.span.end)]
        if not kept:
            continue
        if len(kept) > 1:
            # ("or within 5' of the edge thereof ... backfilled to within 5" of the surface", asked of the surface):
            # the one whose thing the question names
            asked = stems(turn)
            named = [s for s in kept if stems(_OF_THING.match(sentence, s.span.end).group("thing")) & asked]
            if not named and dimension(total) == "depth":
                # ("a trench 42 inches deep: how many inches of that get the gravel?"): a depth keeps clear of the
                # surface, not of an edge
                named = [s for s in kept if _VERTICAL_THING.search(_OF_THING.match(sentence, s.span.end).group("thing"))]
            kept = named
            if len(kept) != 1:
                return None
        clear = kept[0]
        unit = "in" if "in" in (clear.unit, total.unit) else "ft"
        size = (lambda s: s.number * 12 if s.unit == "ft" and unit == "in" else s.number)  # noqa: E731
        rest = size(total) - size(clear)
        if rest <= 0:
            return None
        how = _KEPT_CLEAR.search(sentence[max(0, clear.span.start - 25):clear.span.start])
        thing = _OF_THING.match(sentence, clear.span.end)
        words = sentence[how.start() + max(0, clear.span.start - 25):thing.end()].strip()
        most = how.group("how").lower().startswith(("no", "not")) or bool(
            "closer" in how.group("how").lower() and re.search(r"\b(?:no|not|never)\b", sentence[:clear.span.start], re.I))
        from assistant.answering.phrasing import quantity

        shown = lambda v: quantity(v.normalize(), unit)  # noqa: E731
        total_said = f"{shown(size(total))} (“{total.span.text}”)" if size(total) != total.number else f"“{total.span.text}”"
        step = f"{total_said} − {shown(size(clear))} (“{words}”) = {shown(rest)}"
        return Worked("remainder", words, total.span.text, rest.normalize(), [step], most, sentence, unit)
    return None


# a depth the code gives as a figure "plus the thickness of the base course", with the user's own thickness of that
# thing: "excavated to a depth of four inches (six inches at driveways) plus the thickness of the base course" and "we
# run 4 inches of base under the apron" (10 inches); the figure for a case in brackets when the conversation names it
_PLUS_THE = re.compile(r"\bplus\s+the\s+(?P<what>thickness|depth)\s+of\s+(?:the\s+|any\s+)?(?P<thing>[a-z][a-z -]{1,30}?)"
                       r"(?=\s*[.,;)]|\s+(?:and|or|shall|which|where)\b|$)", re.I)
_CASE_IN_BRACKETS = re.compile(r"\((?P<alt>[^()]{2,30}?)\s+(?:at|for|in|under)\s+(?P<case>[a-z][a-z -]{2,30}?)\)\s*$", re.I)
ASKS_DEPTH = re.compile(r"\bhow\s+(?:deep|far\s+down|much\s+(?:deeper|depth))\b|\bwhat\s+depth\b|\bdepth\s+(?:of|for)\s+"
                        r"(?:the\s+)?(?:excavation|dig|hole|cut)\b|\bhow\s+(?:much|far)\s+(?:do|should|must|have)\s+"
                        r"(?:we|i|you)\s+(?:\w+\s+)?(?:dig|excavate)\b", re.I)


def _inches(s: Slot) -> Decimal:
    return s.number * 12 if s.unit == "ft" else s.number


def plus_thickness(turn: str, slots: list[Slot], sentences: list[str], context: str = "") -> list[Worked]:
    """The code's depth plus the user's one thickness of the thing it adds ("plus the thickness of the base course"
    and "4 inches of base"), in inches; the figure in brackets for a case ("(six inches at driveways)") when the turn or
    the conversation before it (``context``) names that case. None when the question asks no depth, the user gives no
    thickness of that thing or several, or no sentence adds one."""
    if not ASKS_DEPTH.search(turn):
        return None
    told = stems(f"{context} {turn}")
    mine = [s for s in slots if s.kind == "length" and s.unit in ("in", "ft") and s.span.origin == "turn"]
    for sentence in sentences:
        m = _PLUS_THE.search(sentence)
        if m is None:
            continue
        thing = stems(m.group("thing")) - {"cours", "layer"} or stems(m.group("thing"))
        own = [s for s in mine if stems(f"{s.before[-20:]} {s.after[:25]}") & thing]
        if len({_inches(s) for s in own}) != 1:
            continue
        before = sentence[:m.start()].rstrip()
        case = _CASE_IN_BRACKETS.search(before)
        figures = [s for s in read_slots(before[:case.start()] if case else before) if s.kind == "length"
                   and s.unit in ("in", "ft")]
        if not figures:
            continue
        bases = [(figures[-1], figures[-1].span.text)]
        if case is not None:
            alt = [s for s in read_slots(case.group("alt")) if s.kind == "length" and s.unit in ("in", "ft")]
            if len(alt) != 1:
                continue
            # (a word of the case said in part, "a residential drive" for "at driveways", was tried in session 41 from a
            # dev question: on samples35, unseen, it put a walk's depth in the driveway case — a wrong figure — and was
            # taken out)
            if stems(case.group("case")) & told:
                named = (alt[0], f"{alt[0].span.text} at {case.group('case')}")
                # ("How deep do I dig out for the walk, and how deep at the drive?": each case asked, each worked)
                bases = [bases[0], named] if len(ASKS_DEPTH.findall(turn)) > 1 else [named]
        add = own[0]
        from assistant.answering.phrasing import quantity

        out = []
        for base, words in bases:
            total = _inches(base) + _inches(add)
            said = f"{quantity(_inches(base).normalize(), 'in')} (“{words}”)"
            step = (f"{said} + {quantity(_inches(add).normalize(), 'in')} (“{add.span.text}”, the "
                    f"{m.group('what').lower()} of the {m.group('thing')}) = {quantity(total.normalize(), 'in')}")
            out.append(Worked("plus", sentence[sentence.find(base.span.text) if base.span.text in sentence else 0:m.end()].strip(),
                              add.span.text, total.normalize(), [step], False, sentence, "in"))
        return out
    return []


# the width left clear past something set on a way: "how much clear sidewalk would be left?", "how much room is left to
# walk by?", "what's left for people to get past?"
ASKS_LEFT = re.compile(r"\b(?:how\s+(?:much|many\s+(?:feet|inches))|what(?:['’]s|\s+is|\s+would\s+be|\s+will\s+be))\s+"
                       r"(?:[\w-]+\s+){0,4}?(?:left|remaining|to\s+spare|(?:left|free|open)\s+to\s+(?:walk|pass|get))\b", re.I)
# whether the user's thing may stand there ("Is that ok?", "is that allowed?", "can I?")
ASKS_OK = _ASKS_OK = re.compile(r"\b(?:is|would)\s+(?:that|this|it)\s+(?:be\s+)?(?:ok(?:ay)?|allowed|legal|fine|permitted|alright|"
                      r"all\s+right)\b|\bam\s+i\s+(?:ok(?:ay)?|allowed|legal)\b|\bcan\s+(?:i|we)\s+(?:do|put|set|leave)\b",
                      re.I)
# a length the user's thing takes out of the way ("takes about 5 feet out from my front wall", "sticks out 4 feet")
_TAKES = re.compile(r"\b(?:takes?|taking|took|sticks?|sticking|extends?|extending|projects?|projecting|juts?|jutting|"
                    r"comes?|coming|reaches?|reaching|uses?|using|eats?\s+up)\s+(?:up\s+|out\s+)?(?:about\s+|around\s+|roughly\s+)?$",
                    re.I)
_TAKES_AFTER = re.compile(r"^\s*(?:out|into|of\s+(?:the\s+)?(?:walk|sidewalk|way|path))\b", re.I)
# the code's least clear width: "reduce the unobstructed sidewalk width to less than three feet", "a clear path of at
# least 36 inches", "leave not less than four feet of unobstructed sidewalk"
_CLEAR_WIDTH = re.compile(r"\b(?:unobstructed|clear|free|open|passable)\b(?:\s+[\w-]+){0,3}?\s+(?:width|path|passage|way|"
                          r"walkway|space)\b|\b(?:width|path|passage|walkway|space)\s+(?:\w+\s+){0,2}?(?:unobstructed|clear)\b",
                          re.I)
_LEAST = re.compile(r"(?:less\s+than|narrower\s+than|below|at\s+least|a\s+minimum\s+of|not\s+less\s+than|minimum)\s+$",
                    re.I)


def clear_width_left(turn: str, slots: list[Slot], sentences: list[str]) -> Worked | None:
    """The width of the user's way less the width their thing takes out of it, held against the least clear width a
    quoted sentence keeps ("The public sidewalk in front is 9 feet wide ... takes about 5 feet out from my front wall
    ... how much clear sidewalk would be left?" against "reduce the unobstructed sidewalk width to less than three
    feet": 4 feet, not less than 3 feet); None unless the question asks what is left and gives exactly one width and
    one length taken, and one quoted sentence gives one least clear width."""
    if not (ASKS_LEFT.search(turn) or _ASKS_OK.search(turn)):
        return None
    lengths = [s for s in slots if s.kind == "length" and s.span.origin == "turn" and s.unit in ("ft", "in")]
    widths = [s for s in lengths if dimension(s) == "width"]
    taken = [s for s in lengths if s not in widths and (_TAKES.search(s.before[-40:]) or _TAKES_AFTER.match(s.after))]
    if len(widths) != 1 or len(taken) != 1 or len(lengths) != 2:
        return None
    found = []
    for sentence in sentences:
        for m in _CLEAR_WIDTH.finditer(sentence):
            tail = sentence[m.end():m.end() + 60]
            least = [s for s in read_slots(tail) if s.kind == "length" and s.unit in ("ft", "in")
                     and _LEAST.search(tail[:s.span.start])]
            if least:
                found.append((sentence, least[0], m))
                break
    if len({(s, x.value, x.unit) for s, x, _ in found}) != 1:
        return None
    sentence, least, m = found[0]
    unit = "in" if "in" in (widths[0].unit, taken[0].unit, least.unit) else "ft"
    size = (lambda s: s.number * 12 if s.unit == "ft" and unit == "in" else s.number)  # noqa: E731
    left = size(widths[0]) - size(taken[0])
    if left < 0:
        return None
    from assistant.answering.phrasing import quantity

    shown = lambda v: quantity(v.normalize(), unit)  # noqa: E731
    words = (sentence[m.start():m.end()] + sentence[m.end():m.end() + 60][:least.span.end]).strip()
    verdict = "not less than" if left >= size(least) else "less than"
    steps = [f"{shown(size(widths[0]))} (“{widths[0].span.text}”) − {shown(size(taken[0]))} (“{taken[0].span.text}”) = "
             f"{shown(left)} left clear",
             f"against “{words}”: {shown(left)} is {verdict} {shown(size(least))}"
             + (" — within the rule" if left >= size(least) else " — too little")]
    return Worked("clear", words, f"{widths[0].span.text}; {taken[0].span.text}", left.normalize(), steps, False,
                  sentence, unit)


# a slope told in degrees ("slopes at 10 degrees", "a 7° grade")
DEGREES = re.compile(r"(?<![\d.])(?P<n>\d{1,2}(?:\.\d+)?)\s*(?:degrees?|deg\b|°)", re.I)


def degrees_to_percent(degrees: Decimal) -> Decimal:
    """A slope in degrees as a percent grade (rise over run x 100), rounded up to the hundredth (never shown less steep
    than it is, against a limit of "at most"): 10 degrees -> 17.64 (17.6327)."""
    import math

    if not Decimal(0) <= degrees < Decimal(90):
        raise ValueError("a slope in degrees is at least 0 and less than 90")
    return (Decimal(repr(math.tan(math.radians(float(degrees))))) * 100).quantize(Decimal("0.01"), ROUND_CEILING)
