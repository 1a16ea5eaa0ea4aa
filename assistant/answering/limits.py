"""A measurement the user gives, held against a limit the quoted sentence states.

"The walkway is only 42 inches wide — how short is it?" answered by a sentence that says
"not less than four feet": the limit is read from the code's own words (its comparator —
"not less than", "no more than", "within", "whichever is greater" — and its quantity), the
measurement from the user's, both converted to one unit, and the difference worked out
exactly (Decimal). Any code's sentences, no table per municipality: a sentence with no
readable limit of the measurement's kind gets no check, and a question that gives two
different measurements of that kind gets none either (which one is meant is not guessed).

Pure functions; the planner calls ``check_against`` with the sentences it is about to quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Literal

from assistant.answering.reading import Slot, Span, read_slots
from assistant.retrieval.lexical import stems

Bound = Literal["min", "max"]

# the unit a measurement is compared in, and how many of it one unit written makes
_DIMENSION = {"ft": ("length", Decimal(12)), "in": ("length", Decimal(1)), "%": ("percent", Decimal(1)),
              "tons": ("weight", Decimal(1))}
_KINDS = ("length", "percent", "weight")

# the words that make a quantity a bound (general English of codes), read just before or after it
MIN_BEFORE = re.compile(r"(?:\b(?:not|no)\s+(?:be\s+)?(?:less|fewer|narrower|shallower|thinner|shorter)\s+than"
                         # ("a cross section of not less than that of a 15\" pipe")
                         r"(?:\s+that\s+of\s+(?:a|an|the))?|"
                         # ("where the minimum thickness shall be seven inches")
                         r"\bat\s+least|\bminimum(?:\s+(?:width|depth|thickness|length|height))?(?:\s+of|\s+(?:shall|must|will)\s+be|\s+is)?|"
                         r"\bmin\.)\s*$", re.I)
MAX_BEFORE = re.compile(r"(?:\b(?:not|no)\s+(?:be\s+)?(?:more|greater|wider|deeper|thicker|longer|higher|steeper)\s+than|"
                         r"\bnot\s+(?:to\s+)?exceed(?:ing)?|\bmaximum(?:\s+(?:width|depth|height|length|grade|slope))?(?:\s+of|\s+(?:shall|must|will)\s+be|\s+is)?|"
                         r"\bmax\.|\bwithin|\bup\s+to)\s*$", re.I)
# "more than" / "in excess of" / "exceed" bind only in a prohibition ("no trench shall be excavated more than 250 feet")
# the two ends of a range written "between A and B"
_BETWEEN_LOW = re.compile(r"\bbetween\s*$", re.I)
_BETWEEN_HIGH = re.compile(r"\bbetween\s+[^\s,;.]+(?:\s+[a-z.]+)?\s+and\s*$", re.I)
_RANGE_TAIL = re.compile(r"\s+and\s+[^\s,;.]+(?:\s+(?:feet|foot|ft\.?|inch(?:es)?|in\.|tons|percent))?", re.I)
_OVER_BEFORE = re.compile(r"(?:\bmore\s+than|\bin\s+excess\s+of|\bexceeds?|\bexceeding|\bover)\s*$", re.I)
# "no concrete ... closer than 3' from the hard surface": in a prohibition, a least distance
_CLOSER_BEFORE = re.compile(r"\b(?:closer|nearer)\s+than\s*$", re.I)
_PROHIBITION = re.compile(r"\b(?:no|not|never|prohibited|unlawful)\b", re.I)
_MIN_AFTER = re.compile(r"^\s*(?:in\s+\w+\s+)?(?:or\s+(?:more|greater|over|wider|thicker|deeper|longer)|"
                        r"minimum|min\.|,?\s*whichever\s+is\s+(?:greater|more|larger|deeper|thicker))\b", re.I)
_MAX_AFTER = re.compile(r"^\s*(?:in\s+\w+\s+)?(?:or\s+(?:less|fewer|under|narrower|lower)|maximum|max\.|"
                        r",?\s*whichever\s+is\s+(?:less|lower|smaller))\b", re.I)

# what a length measures, by the words beside it (the question's and the sentence's)
_ASPECTS = {
    "width": re.compile(r"\bwid(?:e|th)|\bnarrow|\bacross\b", re.I),
    "depth": re.compile(r"\bdeep|\bdepth|\bthick|\bthin\b|\bcover\b|\bbelow\b|\bdown\b", re.I),
    "height": re.compile(r"\bhigh|\bheight|\btall|\bclearance|\babove\b|\boff\s+the\s+ground", re.I),
    "length": re.compile(r"\blong\b|\blength|\bfrontage|\bstore\s?front|\bahead|\bin\s+advance|\bfar\b|\bdistance|\bback\s+from|\bfrom\s+the\b|"
                         # "within 100' of each end of the bridge": how far from a point, a distance
                         r"\bof\s+(?:each|either|both|the)\s+ends?\b", re.I),
}
# a question that holds a measurement up to the code ("is that OK?", "how many inches short?")
ASKS_CHECK = re.compile(
    r"\b(?:short|too\s+\w+|enough|ok|okay|allowed|legal|pass(?:es)?|meets?|compl(?:y|ies|iant)|within|exceed\w*|"
    r"violat\w*|acceptable|fine|good|(?:over|under)\s+the\s+(?:limit|max\w*|min\w*|allowed|legal|posted|weight|requirement)|limit|required|requirement|have\s+to\s+be|must\s+be|"
    r"need(?:s)?\s+to\s+be|how\s+(?:many|much)\s+(?:inches|feet|more|less|further|farther|wider|deeper|thicker|short|over|higher|lower|taller|shorter|narrower)|"
    r"is\s+(?:it|that|this|ours|mine)|are\s+we|does\s+(?:it|that|this|ours)|"
    # "how much do we have to drop it?", "how much further down ...?", "by how much ...?"
    r"how\s+(?:much|far)\s+(?:\w+\s+){0,5}(?:drop|lower|raise|move|cut|trim|shorten|lengthen|extend|add|"
    r"further|farther|down|back|up|over|under)|by\s+how\s+much)\b", re.I)


_TOLD_LIMIT_AFTER = re.compile(r"^\s*(?:-\s*)?(?:(?:gross|temporary|seasonal|posted|weight|load|road|spring|frost|height|"
                               r"width|speed)\s+)*(?:limits?|restrictions?|max(?:imum)?|minimum|"
                               # ("the temporary 6 ton signs", "the 6-ton postings"): what the signs say is the limit
                               r"(?:weight\s+)?(?:signs?|postings?|signage))\b", re.I)
_TOLD_LIMIT_BEFORE = re.compile(r"\b(?:limit|limited|restriction|restricted|max(?:imum)?|minimum)\s+(?:of|is|at|to|was)?\s*"
                                r"(?:about\s+)?$|\b(?:posted|signed|signs?\s+(?:say|said|says|read|reads|show|shows))\s+"
                                r"(?:at\s+|for\s+)?(?:about\s+)?$|"
                                # "the temporary weight limit signs up on Hillside Rd, they say 6 ton"
                                r"\b(?:signs?|postings?|signage)\b[^.;!?\d]{0,60}\b(?:say|said|says|read|reads|show|shows)\s+"
                                r"(?:at\s+|for\s+)?(?:about\s+)?$|"
                                # "the weight limit signs are up on our road - 6 tons", "posted limit on our road: 6 tons"
                                r"\b(?:limits?|restrictions?)\b[^.;!?\d]{0,40}(?:\s[-–—]|:)\s*$|"
                                # "The contractor says code only needs two and a half inches": what someone says the
                                # code asks is a limit told, not a measurement
                                r"\b(?:code|ordinance|rules?|spec|specs|village|town|city)\s+(?:only\s+|just\s+)?"
                                r"(?:needs?|requires?|calls?\s+for|asks?\s+for|wants?|says?)\s+(?:only\s+|just\s+|"
                                r"at\s+least\s+|a\s+minimum\s+of\s+)?$", re.I)


def told_limit(s: Slot) -> bool:
    """The quantity is a limit the user tells ("a 6 ton temporary limit", "the county posted 10 tons"), not a
    measurement of theirs."""
    return bool(_TOLD_LIMIT_AFTER.match(s.after) or _TOLD_LIMIT_BEFORE.search(s.before))


@dataclass(frozen=True)
class Limit:
    bound: Bound
    value: Decimal  # in ``unit``
    unit: str
    words: str  # the quantity with its comparator, verbatim from the sentence
    aspect: str | None  # width / depth / height / length, when the words beside it say
    either: bool = False  # "... or seven inches, whichever is greater": the bound is one of two measures
    between: bool = False  # one end of "between 2' and 8'"
    end: int = field(default=-1, compare=False)  # where its quantity ends in the sentence


@dataclass(frozen=True)
class Check:
    measured: Slot
    limit: Limit
    sentence: str
    of_the_other: bool = False  # "the existing slab measured 6.5 inches" for "the existing pavement or seven inches"

    @property
    def unit(self) -> str:
        """The unit of the comparison: inches when either side is in inches."""
        return "in" if "in" in (self.measured.unit, self.limit.unit) else self.limit.unit

    def _in(self, value: Decimal, unit: str) -> Decimal:
        if _DIMENSION[unit][0] != "length":
            return value
        return value * _DIMENSION[unit][1] / _DIMENSION[self.unit][1]

    @property
    def measured_value(self) -> Decimal:
        return self._in(self.measured.number, self.measured.unit)

    @property
    def limit_value(self) -> Decimal:
        return self._in(self.limit.value, self.limit.unit)

    @property
    def passes(self) -> bool:
        m, lim = self.measured_value, self.limit_value
        return m >= lim if self.limit.bound == "min" else m <= lim

    @property
    def difference(self) -> Decimal:
        return abs(self.measured_value - self.limit_value)

    @property
    def required(self) -> Decimal | None:
        """With "A or N, whichever is greater (less)", the user's measurement may be A itself: then
        the requirement is the greater (lesser) of the two. None for a plain bound."""
        if not self.limit.either:
            return None
        pick = max if self.limit.bound == "min" else min
        return pick(self.measured_value, self.limit_value)


def _aspect(text: str) -> str | None:
    found = [a for a, rx in _ASPECTS.items() if rx.search(text)]
    return found[0] if len(found) == 1 else None


def limits_in(sentence: str) -> list[Limit]:
    """Every quantity the sentence states as a bound (a minimum or a maximum), with its words."""
    out = []
    for s in read_slots(sentence):
        if s.kind not in _KINDS or s.unit not in _DIMENSION:
            continue
        before = sentence[max(0, s.span.start - 40):s.span.start]
        after = sentence[s.span.end:s.span.end + 40]
        bound: Bound | None = None
        m = MIN_BEFORE.search(before) or _MIN_AFTER.search(after)
        x = MAX_BEFORE.search(before) or _MAX_AFTER.search(after)
        over = _OVER_BEFORE.search(before)
        low, high = _BETWEEN_LOW.search(before), _BETWEEN_HIGH.search(before)
        if low or high:
            # "between 2' and 8' above the finished grade": the first is a minimum, the second a maximum, and the
            # limit's words are the whole range
            at = (low or high).start() + max(0, s.span.start - 40)
            end = s.span.end if high else s.span.end + (_RANGE_TAIL.match(sentence, s.span.end).end() - s.span.end
                                                        if _RANGE_TAIL.match(sentence, s.span.end) else 0)
            near = sentence[s.span.end:s.span.end + 16] + " " + sentence[max(0, at - 25):at]
            out.append(Limit("min" if low else "max", s.number, s.unit, sentence[at:end].strip(" ,"), _aspect(near),
                             between=True))
            continue
        if m and not x:
            bound, lead = "min", MIN_BEFORE.search(before)
        elif x and not m:
            bound, lead = "max", MAX_BEFORE.search(before)
        elif _CLOSER_BEFORE.search(before) and _PROHIBITION.search(sentence[:s.span.start]):
            bound, lead = "min", _CLOSER_BEFORE.search(before)
        elif over and _PROHIBITION.search(sentence[:s.span.start]):
            bound, lead = "max", over
            # the words from the prohibition on: "no trench shall be excavated more than 250 feet"
            ban = list(_PROHIBITION.finditer(sentence[max(0, s.span.start - 60):s.span.start]))
            if ban:
                before = sentence[max(0, s.span.start - 60):s.span.start]
                lead = ban[-1]
        if bound is None and out and re.fullmatch(r"\s+in\s+[a-z]+\s+and\s+", sentence[out[-1].end:s.span.start]):
            # "not less than eight feet in width and five inches in thickness": the comparator holds for both
            bound, lead = out[-1].bound, None
        if bound is None:
            continue
        start = s.span.start - (len(before) - lead.start()) if lead else s.span.start
        tail = (_MIN_AFTER if bound == "min" else _MAX_AFTER).search(after)
        end = s.span.end + (tail.end() if tail and not lead else 0)
        # "eight feet in width", "five inches in thickness", "4 inches thick": the aspect named beside it
        near = sentence[s.span.end:s.span.end + 16] + " " + sentence[max(0, start - 25):start]
        either = bool(tail and re.search(r"whichever", tail.group(0), re.I))
        # (the aspect written right after the quantity comes first: "match width, but not less than four inches in
        # thickness" limits a thickness)
        # ("the minimum thickness shall be seven inches": the aspect in the comparator's own words)
        aspect = _aspect(sentence[s.span.end:s.span.end + 16]) or (_aspect(sentence[start:s.span.start]) if lead else None) \
            or _aspect(near)
        out.append(Limit(bound, s.number, s.unit, sentence[start:end].strip(" ,"), aspect, either, end=s.span.end))
    return out


# words that say how something is measured, not what: they tie no sentence to the question
_GENERIC = stems("feet foot inch inches yard yards percent ton tons wide width long length deep depth thick "
                 "high height far back about only just around over under more less than is it its our my the a "
                 "from to too of in on at by with that this where what how which are was be been we you they "
                 "ok okay enough allowed short one two three four five six seven eight nine ten half quarter")


_OTHER_GENERIC = stems("shall be placed to or and full any such which greater less whichever at")


def clause_at(text: str, at: int) -> str:
    """The sentence of ``text`` around position ``at`` (a decimal point, "0.4 ft", ends none)."""
    stops = [m.start() for m in _STOP.finditer(text)]
    start = max([i for i in stops if i < at], default=-1) + 1
    end = min([i for i in stops if i >= at], default=len(text))
    return text[start:end]


_STOP = re.compile(r"[?!;]|\.(?!\d)")


def one_measurement(slots: list[Slot]) -> Slot | None:
    """The one measurement the turn gives (the same value written twice counts once)."""
    kinds = [s for s in slots if s.kind in _KINDS and s.unit in _DIMENSION]
    if not kinds:
        return None
    first = kinds[0]
    dim = _DIMENSION[first.unit][0]

    def base(s: Slot) -> Decimal:
        return s.number * _DIMENSION[s.unit][1]

    if any(_DIMENSION[s.unit][0] != dim or base(s) != base(first) for s in kinds[1:]):
        return None
    return first


# a rise over a run ("climbs 5'6\" over a run of forty feet", "drops 2 inches in 10 feet"): a slope, in percent
_RISE_BEFORE = re.compile(r"\b(?:climbs?|climbing|rises?|rising|drops?|dropping|falls?|falling|slopes?|sloping|goes (?:up|down)|"
                          r"rise of|drop of|fall of|grade of|pitch(?:es)?|pitched)\s+(?:about\s+|roughly\s+|around\s+)?$", re.I)
_OVER_RUN = re.compile(r"^\s*(?:over|in|across|along|for)\s+(?:a\s+|the\s+)?(?:(?:horizontal\s+)?(?:run|distance|length|span)"
                       r"\s+of\s+)?(?:about\s+|roughly\s+|around\s+)?$", re.I)


# ("a horizontal run of 150 feet", "the drive runs 150 feet"): the run, said before the rise
_RUN_BEFORE = re.compile(r"\b(?:(?:horizontal\s+)?(?:run|distance|length)\s+of|runs?|running)\s+(?:about\s+|roughly\s+|around\s+)?$",
                         re.I)


def rise_over_run(turn: str, slots: list[Slot]) -> list[Slot]:
    """A slope the user's words give as a rise over a run, worked out in percent (exact, to the hundredth); its
    span is the words of both lengths."""
    lengths = sorted((s for s in slots if s.kind == "length" and s.unit in ("ft", "in") and s.span.origin == "turn"),
                     key=lambda s: s.span.start)
    out = []
    for first, second in zip(lengths, lengths[1:]):
        a, b = first, second
        if _RUN_BEFORE.search(turn[max(0, first.span.start - 30):first.span.start]) \
                and _RISE_BEFORE.search(turn[max(0, second.span.start - 30):second.span.start]) \
                and not re.search(r"[.?!;]", turn[first.span.end:second.span.start]):
            # ("a horizontal run of 150 feet and it climbs 19.5 feet": the run told first, then the rise)
            a, b = second, first
        elif not _RISE_BEFORE.search(turn[max(0, a.span.start - 30):a.span.start]) \
                or not _OVER_RUN.match(turn[a.span.end:b.span.start]):
            continue
        rise = a.number * _DIMENSION[a.unit][1]
        run = b.number * _DIMENSION[b.unit][1]
        if run <= 0:
            continue
        pct = (rise / run * 100).quantize(Decimal("0.01"))
        lo, hi = min(a.span.start, b.span.start), max(a.span.end, b.span.end)
        out.append(Slot(kind="percent", value=format(pct.normalize(), "f"), unit="%",
                        worked=f"the rise “{a.span.text}” divided by the run “{b.span.text}”",
                        span=Span(origin="turn", start=lo, end=hi, text=turn[lo:hi]),
                        before=turn[max(0, lo - 60):lo].lower(), after=turn[hi:hi + 40].lower()))
    return out


# "3 x 4 inches", "2 by 3 feet": two sides written as a pair, which one is the height (or the width) unsaid
_PAIR_BEFORE = re.compile(r"\d(?:[\d.,/]*\d)?\s*(?:\"|'|in\.?|inch(?:es)?|ft\.?|feet|foot)?\s*(?:x|×|by)\s*$", re.I)
_PAIR_AFTER = re.compile(r"^\s*(?:x|×|by)\s*\d", re.I)


def _of_a_pair(s: Slot) -> bool:
    """The measurement is one side of a pair ("3 x 4 inches"): held alone against a limit it would be read as one
    aspect the words do not give; it is not checked (the quotes answer)."""
    return bool(_PAIR_BEFORE.search(s.before[-16:]) or _PAIR_AFTER.match(s.after))


def _measurements(slots: list[Slot]) -> list[Slot]:
    """The turn's measurements, the same value written twice counted once."""
    out: list[Slot] = []
    for s in slots:
        if s.kind in _KINDS and s.unit in _DIMENSION and not any(
                _DIMENSION[o.unit][0] == _DIMENSION[s.unit][0]
                and o.number * _DIMENSION[o.unit][1] == s.number * _DIMENSION[s.unit][1] for o in out):
            out.append(s)
    return out


def _ties(turn: str, measured: Slot, sentence: str, common: frozenset[str]) -> set[str]:
    """The words the turn's sentence holding the measurement shares with the code's sentence (a house is a residence,
    a store a commercial establishment: the code's word for the kind of place counts too; where a thing is, "in front
    of", ties nothing)."""
    clause = clause_at(turn, measured.span.start)
    about = stems(clause) - _GENERIC - _WHERE_WORDS - common
    about |= {kind for kind, rx in _PLACE_KINDS.items() if rx.search(clause)}
    return about & stems(sentence)


# the kind of place a plain word names, in the stem the codes write it with
_PLACE_KINDS = {next(iter(stems("residential"))): re.compile(r"\b(?:house|home|residence|duplex|single-family|two-family|"
                                                             r"bungalow|cottage)s?\b", re.I),
                next(iter(stems("commercial"))): re.compile(r"\b(?:store|shop|storefront|business|restaurant|bakery|"
                                                            r"caf[eé]|office|bar|salon|retail)s?\b", re.I)}
_WHERE_WORDS = stems("front back behind beside along near next side across")


def check_against(turn: str, slots: list[Slot], sentences: list[str], common: frozenset[str] = frozenset()) -> list[Check]:
    """The user's measurement against the limit of the first sentence (in the order given: the
    best first) that states a limit of its kind — of the aspect the question names (a height asked, a
    height limited) before any sentence whose limit says no aspect; limits of another aspect are left
    out, and a sentence left with several gets none.
    A turn of several measurements ("24 ft wide ... ledge at 14 inches under the finished grade") holds
    up the one its own sentence ties to the code's sentence by the most words (and of the limit's aspect,
    when both say); a tie between different values is not guessed."""
    if not ASKS_CHECK.search(turn):
        return []
    # ("a 6 ton temporary limit", "the limit is 6 tons": the user telling the limit, not measuring anything)
    given = _measurements([s for s in [*slots, *rise_over_run(turn, slots)]
                           if not told_limit(s) and not _of_a_pair(s)])
    if not given:
        return []
    # "drawn 90 inches wide and 0.4 ft thick": measurements each saying its own aspect, held up at once against the
    # first sentence that limits every one of those aspects (each its own check; none when any one is in doubt)
    own = [_aspect(turn[m.span.end:m.span.end + 14]) for m in given]
    if len(given) > 1 and all(own) and len(set(own)) == len(given):
        for sentence in sentences:
            if not any(_ties(turn, m, sentence, common) for m in given):
                continue  # (a sentence of another case: "in front of commercial ... establishments" for a house)
            checks = [_check_one(turn, m, sentence, common, several=True, strict=True) for m in given]
            if all(isinstance(c, Check) and c.limit.aspect == a for c, a in zip(checks, own)):
                return checks
            break  # (the first sentence tied to the question decides; one that limits only some aspects, below)
    for strict in (True, False):
        for sentence in sentences:
            tied = [(len(_ties(turn, m, sentence, common)), m) for m in given]
            tied = [(n, m) for n, m in tied if n]
            if not tied:
                continue
            if len(given) > 1:
                # (a measurement the sentence sets no limit of its kind for does not compete: "24 feet wide" is no
                # rival for the slope "a slope not to exceed 12%" limits, however many words tie it)
                limited = [(n, m) for n, m in tied
                           if _check_one(turn, m, sentence, common, several=True, strict=strict) is not None]
                tied = limited or tied
                best = max(n for n, _ in tied)
                tied = [(n, m) for n, m in tied if n == best]
            checks = [_check_one(turn, m, sentence, common, several=len(given) > 1, strict=strict) for _, m in tied]
            if any(c is _SEVERAL for c in checks):
                return []  # several limits of its kind, none named by the question's words: which one is not guessed
            checks = [c for c in checks if c is not None]
            if len(checks) == 1:
                return checks
            if checks:
                return []  # two measurements as close to this sentence: which one is meant is not guessed
    return []


_SEVERAL = object()
# (A figure the code prescribes with no comparator, "a 2 1/2" lift shall be installed", held as a minimum for a
# shortfall asked, was tried in session 13 from a seen failure: on held-out 11, unseen, it added a wrong figure
# beside a right answer, and it was taken out.)


def _check_one(turn: str, measured: Slot, sentence: str, common: frozenset[str], several: bool = False,
               strict: bool = False):
    """The check of one measurement against the one limit of its kind (and aspect) the sentence states;
    None when it states none, ``_SEVERAL`` when it states several. ``strict``: only a limit of the aspect
    asked counts (when one is asked)."""
    dim = _DIMENSION[measured.unit][0]
    asked = _aspect(turn[max(0, measured.span.start - 40):measured.span.end + 40]) or _aspect(turn)
    if several:  # the words of its own sentence only: another measurement's "wide" or "long" is not its aspect
        asked = _aspect(turn[measured.span.end:measured.span.end + 14]) or _aspect(clause_at(turn, measured.span.start))
    found = [lim for lim in limits_in(sentence) if _DIMENSION[lim.unit][0] == dim]
    far = [lim for lim in found if _far_off(Check(measured, lim, sentence))]
    if far and len(far) == len(found):
        # "28-foot pavement" against "a minimum of 10\" of crushed aggregate": a measure written in another unit and
        # more than ten times off the limit is of another thing (a width against a thickness); no check at all
        return _SEVERAL
    found = [lim for lim in found if lim not in far]
    own = _aspect(turn[measured.span.end:measured.span.end + 14])  # "24 ft wide": what the measurement's own words say
    if measured.kind == "percent" and measured.worked:
        own = None  # (a slope worked from a rise and a run: the words after the run, "from the road", are no aspect)
    if found and own is not None and not any(lim.aspect == own for lim in found) and not _ASPECTS[own].search(sentence):
        # "the road's 24 ft wide" against "a minimum of 10\" of crushed aggregate": no width there, and the best
        # sentence's limit is of something else; no check at all (a later sentence's limit is not taken instead:
        # tried, it added a wrong figure on an unseen held-out set)
        return _SEVERAL
    if asked is not None and any(lim.aspect == asked for lim in found):
        found = [lim for lim in found if lim.aspect == asked]
    elif asked is not None:
        if strict:
            return None
        found = [lim for lim in found if lim.aspect is None]
    ends = [lim for lim in found if lim.between]
    if len(found) == 2 and len(ends) == 2 and {lim.bound for lim in ends} == {"min", "max"}:
        # a range: the end the measurement is beyond (the lower one when it is inside: it passes)
        low = next(lim for lim in ends if lim.bound == "min")
        high = next(lim for lim in ends if lim.bound == "max")
        found = [high if Check(measured, high, sentence).measured_value > Check(measured, high, sentence).limit_value
                 else low]
    if len(found) > 1:
        found = _past_exception(turn, measured, sentence, found)
    if len(found) > 1:
        # "54 inches off the edge of the blacktop" against "within 5' of the edge thereof ... to within 5\" of the
        # surface": the limit whose own words after it name what the measurement's words after it name
        mine = stems(turn[measured.span.end:measured.span.end + 40]) - _GENERIC - common
        named = [lim for lim in found if mine & (stems(_words_after(sentence, lim)) - _GENERIC - common)]
        if len(named) != 1:
            return _SEVERAL
        found = named
    if not found:
        return None
    lim = found[0]
    other = False
    if lim.either:  # the words of the other measure ("the full depth of the existing pavement or ...")
        at = sentence.find(lim.words)
        words = stems(sentence[max(0, at - 60):at]) - _GENERIC - _OTHER_GENERIC
        other = bool(words & (stems(clause_at(turn, measured.span.start)) - _GENERIC - common))
    return Check(measured, lim, sentence, other)


# "five inches in thickness except within driveway approaches where the minimum thickness shall be seven inches": the
# case an exception names, and a limit set for it
_EXCEPT_WHERE = re.compile(r"\bexcept\s+(?:within|in|at|on|for|under)\s+(?P<case>[^,;.]{3,60}?)\s+(?:where|in which)\b", re.I)
_NOT_IN = re.compile(r"\b(?:outside|not\s+(?:in|within|at|on)|other\s+than|excluding|away\s+from|apart\s+from)\s+"
                     r"(?:of\s+)?(?:the\s+|a\s+|any\s+)?$", re.I)


def _past_exception(turn: str, measured: Slot, sentence: str, found: list[Limit]) -> list[Limit]:
    """Of several limits of one kind, where one is an exception's ("except within driveway approaches where the
    minimum thickness shall be seven inches"): the exception's when the turn names its case, the others' when the turn
    says it is outside that case (or never names it); all of them when the sentence has no such exception."""
    m = _EXCEPT_WHERE.search(sentence)
    if m is None:
        return found
    inside = [lim for lim in found if sentence.find(lim.words, m.end()) >= 0]
    rest = [lim for lim in found if lim not in inside]
    if not inside or not rest:
        return found
    case = stems(m.group("case")) - _GENERIC

    def named(text: str):
        return next((w for w in re.finditer(r"[A-Za-z]+", text) if stems(w.group(0)) & case), None)

    if named(turn) is None:
        return rest
    # the measurement's own part of its sentence ("..., and the part through the driveway approach is poured 6 inches
    # thick"): the case named there decides; named only beside another measurement, it is not guessed
    sentence_at = clause_at(turn, measured.span.start)
    offset = turn.find(sentence_at)
    pieces, at = [], 0
    for cut in re.finditer(r",\s*(?:and|but|while)\s+|;\s*", sentence_at):
        pieces.append((at, cut.start()))
        at = cut.end()
    pieces.append((at, len(sentence_at)))
    own = next((sentence_at[a:b] for a, b in pieces if a <= measured.span.start - offset <= b), sentence_at)
    said = named(own)
    if said is None:
        return found
    return rest if _NOT_IN.search(own[max(0, said.start() - 24):said.start()]) else inside


def _words_after(sentence: str, lim: Limit) -> str:
    """The words right after a limit's own words in its sentence ("of the edge thereof")."""
    at = sentence.find(lim.words)
    return re.split(r"[,;.]", sentence[at + len(lim.words):at + len(lim.words) + 30])[0] if at >= 0 else ""


def _far_off(check: Check) -> bool:
    """The measurement is written in another unit than the limit (feet against inches) and is more than ten times
    larger or smaller than it."""
    if check.measured.unit == check.limit.unit or check.limit_value <= 0 or check.measured_value <= 0:
        return False
    ratio = check.measured_value / check.limit_value
    return ratio > 10 or ratio < Decimal("0.1")


def as_call(check: Check) -> dict:
    """The check as a calculator call: what was compared and the figures worked out (the answer's
    figures must come from here or the quote)."""
    from assistant.answering.phrasing import in_limit_unit, quantity

    u = check.unit
    also = in_limit_unit(check)
    return {"name": "limit_check",
            "arguments": {"measured": check.measured.span.text, "limit": check.limit.words, "bound": check.limit.bound,
                          **({"converted": check.measured.worked} if check.measured.worked else {})},
            "result": {"measured": quantity(check.measured_value, u), "limit": quantity(check.limit_value, u),
                       **({"measured_in_the_limits_unit": also} if also else {}),
                       "difference": quantity(check.difference, u),
                       **({"difference_in_inches": quantity(check.difference * 12, "in")} if u == "ft" else {}),
                       "passes": check.passes,
                       "required_if_it_is_the_other_measure": (None if check.required is None
                                                               else quantity(check.required, u)),
                       "quote": check.sentence}}
