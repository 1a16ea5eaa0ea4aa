"""Which value the user wrote is which argument: roles for the slots of a Query.

A slot takes a role from the cue words nearest before it ("paved in June 2024", "open it on
May 3"); a role with no slot is missing, and a role two slots compete for is asked about —
never guessed. Pure functions over the Query; cue words are general English, not any
municipality's.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from assistant.answering.reading import WEEKDAYS, Query, Slot
from assistant.answering.slot_safety import DISTRIBUTIVE


def _after(query, slot) -> str:
    """The words right after a slot the user wrote (\"an hour and a quarter each\")."""
    text = query.source(slot.span.origin)
    return text[slot.span.end:slot.span.end + 16] if text else ""


@dataclass
class Ambiguous:
    role: str
    candidates: tuple[Slot, ...]

    def question(self) -> str:
        role = self.role
        if all(s.kind == "date" and s.precision == "year" for s in self.candidates):
            role = re.sub(r"^date\b", "year", role)  # ("'26" or "'27": the year of the final paving is asked)
        return f"the {role}: which is it, " + " or ".join(f"“{s.span.text}”" for s in self.candidates) + "?"


def own_words_before(slot: Slot, query: Query, width: int = 60) -> str:
    """The words just before a value, within its sentence and after the value before it:
    in "paved in 2017 on May 3", May 3's own words are " on "."""
    text = query.source(slot.span.origin)
    # (a date's own time said just before it is part of one moment: in "the snow quit around 10 PM on Saturday the
    # 15th" the Saturday's words are "the snow quit around 10 PM on")
    prev = max((x.span.end for x in query.slots if x.span.origin == slot.span.origin
                and x.span.end <= slot.span.start
                and not (slot.kind == "date" and x.kind == "time"
                         and re.fullmatch(r"\s*(?:on|,)?\s*", text[x.span.end:slot.span.start]))), default=0)
    words = re.split(r"[.;?!]\s", text[max(prev, slot.span.start - width):slot.span.start])[-1]
    # ("$1,500 cash deposit as the ditch guarantee (the culvert itself was $2,300)": a value inside brackets has
    # the bracket's words, not the sentence's before it)
    inside = words.rfind("(")
    return words[inside + 1:] if inside >= 0 and ")" not in words[inside:] else words


def own_words_after(slot: Slot, query: Query, width: int = 60) -> str:
    """The words just after a value, within its clause and before the next value."""
    text = query.source(slot.span.origin)
    nxt = min((x.span.start for x in query.slots if x.span.origin == slot.span.origin
               and x.span.start >= slot.span.end), default=len(text))
    return re.split(r"[.;?!,]\s|\s-\s|\band\b|\bbut\b", text[slot.span.end:min(nxt, slot.span.end + width)])[0]


def _nearest_cue(slot: Slot, cues: dict[str, re.Pattern], query: Query | None = None) -> str | None:
    """The role whose cue word stands nearest before the slot, within its sentence and after
    the value before it ("paved in 2017 on May 3": "paved" is 2017's cue, not May 3's)."""
    before = own_words_before(slot, query).lower() if query is not None else re.split(r"[.;?!]\s", slot.before)[-1]
    best, pos = None, -1
    for role, rx in cues.items():
        for m in rx.finditer(before):
            if m.start() > pos:
                best, pos = role, m.start()
    if best is None and query is not None:
        # "in August 2024 the Village put a new overlay": no cue before, the clause after names it
        after = own_words_after(slot, query).lower()
        first = [(m.start(), role) for role, rx in cues.items() if (m := rx.search(after))]
        best = min(first)[1] if first else None
    if best is None and query is not None and query.clarified and slot.span.origin == "turn" and query.asked:
        # a bare reply ("June 1, 2024") to our question fills what the question asked for
        first = [(m.start(), role) for role, rx in cues.items() if (m := rx.search(query.asked))]
        best = min(first)[1] if first else None
    return best


_WEEKDAY = re.compile(r"\b(" + "|".join(WEEKDAYS) + r")\b", re.I)


def same_weekday(query: Query, day) -> bool:
    """False when this turn names a weekday and ``day`` (a date or datetime) falls on none it names."""
    named = {m.group(1).lower() for m in _WEEKDAY.finditer(query.turn)}
    return not named or day.strftime("%A").lower() in named


def of(query: Query, kind) -> list[Slot]:
    """The values of a kind: this turn's first; in a reply to our question, the earlier turn's too. An earlier
    date is not this turn's when this turn names another weekday it was not read as ("say it's approved that
    same Tuesday", the earlier turn's date a Friday): none is taken, so it is asked for."""
    if query.clarified:
        return query.of(kind)
    mine = query.of(kind, "turn")
    if mine or kind != "date":
        return mine or query.of(kind)
    return [s for s in query.of(kind) if same_weekday(query, s.day)]


_FILLER = re.compile(r"^[\s,:-]*(?:(?:of|for|in|on|worth of|the|spent on)\s+)*", re.I)


_OPENS_NEXT = re.compile(r"\s*(?:[-—–:=]+\s*|(?:was|is|came to|comes to|cost|of|at)\s+)*\$?\s*\d")


def _end_of(s: Slot, m: re.Match, query: Query) -> int:
    """Where, in the slot's text, the label ``m`` found in the words after the slot ends."""
    text = query.source(s.span.origin)
    at = text.lower().find(m.group(0).lower(), s.span.end)
    return at + len(m.group(0)) if at >= 0 else len(text)


def labelled_values(slots: list[Slot], labels: dict[str, re.Pattern], query: Query) -> dict[str, list[Slot]]:
    """Values by the word that labels them: right after the value ("$600 labor, $250 materials"),
    else the last label before it in its own words ("labor came to $600"). Unlabelled values are
    left out."""
    # "14 hrs @ $52 = $728": a value whose result the words give after "=" is a step of the sum, not a part
    slots = [s for s in slots if not re.match(r"\s*=\s*\$?\s*\d", query.source(s.span.origin)[s.span.end:])]
    after = {}
    for s in slots:
        words = _FILLER.sub("", own_words_after(s, query))
        # (a label that opens the next value's own entry is that value's: "$728 / materials -- $1,115")
        after[id(s)] = next((name for name, rx in labels.items() if (m := rx.search(words)) and m.start() == 0
                             and not _OPENS_NEXT.match(query.source(s.span.origin), _end_of(s, m, query))), None)
    labels_follow = any(after.values())  # "$600 labor, $250 materials": a label after its value, for every value
    taken_after = {name for name in after.values() if name}
    out: dict[str, list[Slot]] = {}
    for s in slots:
        hit = after[id(s)]
        if hit is None and labels_follow:
            # ("Labor was $900, $420 for materials and $115 in equipment": the one value with no label after it takes
            # the label right before it, when that label is none of the others' own)
            found = [(m.start(), name) for name, rx in labels.items() for m in rx.finditer(own_words_before(s, query))]
            if found and max(found)[1] not in taken_after:
                hit = max(found)[1]
        elif hit is None and not labels_follow:
            before = own_words_before(s, query)
            text = query.source(s.span.origin)
            if re.search(r"=\s*$", text[:s.span.start]):  # "labor -- 14 hrs @ $52 = $728": the entry's own label
                before = re.split(r"[/;.\n|]", text[:s.span.start])[-1]
            found = [(m.start(), name) for name, rx in labels.items() for m in rx.finditer(before)]
            hit = max(found)[1] if found else None
        if hit is not None:
            out.setdefault(hit, []).append(s)
    return out


_WHOSE = re.compile(r"^\s*(?:for|on|of)\s+(?:mine|hers|his|ours|theirs|yours|the other(?:'s| one)?|(?:my|her|his|their|our)"
                    r"\s+\w+)\b", re.I)


def whose(s: Slot) -> bool:
    """A value followed by whose it is ("$2,850 for hers", "$4,100 on my lot"): one party's own."""
    return bool(_WHOSE.search(s.after))


def assign(slots: list[Slot], cues: dict[str, re.Pattern], query: Query | None = None) -> dict[str, list[Slot]]:
    """Slots by role; slots with no cue under ''."""
    out: dict[str, list[Slot]] = {}
    role_of: list[tuple[Slot, str]] = []
    for s in slots:
        role = _nearest_cue(s, cues, query) or ""
        if not role and role_of and query is not None:
            # "repaved in the summer of '26 or '27": a value offered as the other choice of the one just before it
            # has its role (two values of one role, so the reading asks which)
            prev, prev_role = role_of[-1]
            if prev_role and prev.kind == s.kind and prev.span.origin == s.span.origin and re.fullmatch(
                    r"\s*(?:,\s*)?(?:or|or maybe|or possibly|or else)\s*", query.source(s.span.origin)[prev.span.end:s.span.start]):
                role = prev_role
        role_of.append((s, role))
        out.setdefault(role, []).append(s)
    if query is not None and query.follow_up:
        # "and if the bill had come in at $2,150 instead?": a follow-up's one value of a role replaces the earlier
        # turn's (the values it gives of no named role stay as they are)
        for role, found in out.items():
            mine = [s for s in found if s.span.origin == "turn"]
            if role and len(mine) == 1 and len(found) > 1:
                out[role] = mine
    return out


# -- the street-opening surcharge: paving date, opening date, permit fee -------------------------
# ("we open the pavement on May 3": the pavement opened, not laid — the opening's cue)
# ("cut into the asphalt on October 20": the surface opened is named, not its paving)
_NOT_OPENED = (r"(?<!open the )(?<!opening the )(?<!cut the )(?<!cutting the )(?<!into the )(?<!up the )(?<!break the )"
               r"(?<!breaking the )(?<!through the )(?<!saw the )(?<!saw-cut the )")
# ("open a paved Brandon street the first week of June": a paved street is a kind of street, no paving done then)
PAVED = re.compile(r"(?<!\ba\s)(?<!\ban\s)(?<!\bthe\s)(?<!\bour\s)(?<!\bmy\s)(?<!\bthis\s)(?<!\bthat\s)pav(?!ement)|"
                   r"pav(?!ement)(?!ed\s+(?:\w+\s+)?(?:streets?|roads?|alleys?|lanes?|drives?|avenues?)\b)|" + _NOT_OPENED + r"(?:pavement|surfac|asphalt|blacktop)|overlay|\btop ?coat|seal ?coat|\bmill(?:ed|ing)\b|laid|new street|built|reconstruct|\bwent down\b|\b(?:was|were|got) put down\b", re.I)
OPENED = re.compile(r"open|dig|dug|excavat|\bcut|start|begin|work|trench|plan", re.I)
FEE = re.compile(r"fee|permit cost|paid|pay|costs?\b", re.I)
# "the house was built in 1987": a date of a building, not of the street's paving
BUILDING = re.compile(r"\b(?:house|home|garage|building|shed|deck|porch|barn|cabin|addition|store|church|school)\b", re.I)
STREETISH = re.compile(r"\b(?:street|road|lane|avenue|drive|court|alley|pavement|paving|asphalt|surface|blacktop)\b", re.I)


def _of_a_building(s: Slot, query: Query) -> bool:
    words = own_words_before(s, query)
    return bool(BUILDING.search(words)) and not STREETISH.search(words)


# "the final paving will be 8 months old when we dig", "paved two and a half years before the day we'll dig"
AGE_AFTER = re.compile(r"^\s*(?:old|of age)\b|^\s*(?:before|prior to)\s+(?:the day\s+|when\s+)?(?:we|they|i|you|it|that|then|"
                       r"(?:the|our|my|their|your)\s+(?:opening|dig|cut|work|excavation))\b|"
                       # ("the stretch paved 3 1/2 years before.": before the dig just told, the words left out)
                       r"^\s*(?:before|earlier|prior)\s*(?=[.;?!]|$)", re.I)
# "final paving age: 18 mos", "age of the pavement is 3 years", "pavement age = 2 yrs"
AGE_BEFORE = re.compile(r"\bage(?:\s+of\s+(?:the\s+)?(?:final\s+)?(?:paving|pavement|asphalt|surface|street|road))?"
                        r"\s*(?:[:=-]+|\bis\b|\bwas\b|\bof\b)?\s*(?:about|around|approx\.?|~)?\s*$", re.I)
AT_OPENING = re.compile(r"\b(?:when|by the time|at the time|the day|on the day|before)\b[^.?!]{0,25}\b(?:dig|open|cut|start|"
                        r"begin|work|excavat)|^\s*(?:before|prior to)\s+(?:that|then)\b|^\s*(?:before|earlier|prior)\s*(?=[.;?!]|$)",
                        re.I)
# ("cutting into Mill Street on May 16th and that asphalt went down two and a half years before that": the day said
# before it, the opening's)


@dataclass(frozen=True)
class PavingAge:
    slot: Slot
    months: int | None  # the age in calendar months, or None when counted in days
    days: int | None
    at_opening: bool  # the age on the opening day ("will be 8 months old when we dig"), else today

    def paving_date(self, base: date) -> date:
        """The day the paving was laid: ``base`` (the opening day or today) less the age, in calendar
        months or in days."""
        from dateutil.relativedelta import relativedelta

        return base - (relativedelta(months=self.months) if self.months is not None else relativedelta(days=self.days))


# words that make a value approximate ("two years old, give or take", "about 18 months", "a couple, three years")
APPROXIMATE = re.compile(r"\b(?:give or take|or so|about|around|roughly|approximately|approx\.?|maybe|something like|"
                         r"more or less|or thereabouts|-?ish|nearly|almost|close to|a couple|couple,|not sure|i think|"
                         r"i believe|nobody remembers|don't remember|can't remember)\b", re.I)


def approximate(slot: Slot, query: Query | None) -> bool:
    """Do the words beside the value say it is approximate (within its own clause)?"""
    if query is None:
        return False
    text = query.source(slot.span.origin)
    before = re.split(r"[.;?!]\s", text[max(0, slot.span.start - 30):slot.span.start])[-1]
    after = re.split(r"[.;?!](?:\s|$)", text[slot.span.end:slot.span.end + 30])[0]
    return bool(APPROXIMATE.search(before) or APPROXIMATE.search(after) or APPROXIMATE.search(slot.span.text))


def paving_age(query: Query) -> PavingAge | Ambiguous | None:
    """The final paving's age, where the words give an age instead of a date."""
    found = []
    for s in of(query, "duration"):
        after = query.source(s.span.origin)[s.span.end:s.span.end + 60]
        if not AGE_AFTER.search(after) and not AGE_BEFORE.search(s.before[-40:]):
            continue
        clause = re.split(r"[.;?!]\s", query.source(s.span.origin)[max(0, s.span.start - 80):s.span.start])[-1]
        if not PAVED.search(clause) and not PAVED.search(after[:40]):
            continue
        n, unit = s.number, s.unit
        months = n * 12 if unit == "years" else n if unit == "months" else None
        days = n * 7 if unit == "weeks" else n if unit == "days" else None
        if (months is not None and months != int(months)) or (days is not None and days != int(days)) \
                or (months is None and days is None):
            continue
        found.append(PavingAge(s, int(months) if months is not None else None, int(days) if days is not None else None,
                               bool(AT_OPENING.search(after[:60]) or re.search(r"\bwill be\b", clause, re.I))))
    if len(found) > 1:
        return Ambiguous("age of the final paving", tuple(a.slot for a in found))
    return found[0] if found else None


@dataclass
class SurchargeReading:
    paving: Slot | None = None
    opening: Slot | None = None
    fee: Slot | None = None
    ambiguous: Ambiguous | None = None
    notes: list[str] = field(default_factory=list)
    paving_why: str | None = None  # how the paving date was told from other paving words' dates


FINAL_LAYER = re.compile(r"\btop\s*(?:coat|course|layer|lift)|\bsurface\s+(?:coat|course|layer)|\bwearing\s+(?:coat|course)|"
                         r"\bfinal\s+(?:coat|course|layer|lift|surface)|\bover\s*lay", re.I)
LOWER_LAYER = re.compile(r"\bbase\b|\bbinder\b|\bfirst\s+(?:coat|course|layer|lift)|\blower\s+(?:coat|course|layer|lift)|"
                         r"\bbottom\s+(?:coat|course|layer|lift)", re.I)


ORIGINAL = re.compile(r"\b(?:first|originally|initially)\s+(?:built|constructed|laid|put in)\b|\b(?:was|were)\s+built\b",
                      re.I)


def with_other_roles(query: Query, kind: str, cues: dict[str, re.Pattern]) -> list[Slot]:
    """``of(query, kind)``, and in a follow-up whose values of the kind each have a role ("actually repaved October
    2027. redo it?"), the earlier turn's values of the other roles too (the opening day told before still holds)."""
    found = of(query, kind)
    mine = query.of(kind, "turn")
    if not query.follow_up or not mine or query.clarified:
        return found
    own = assign(mine, cues, query)
    if "" in own:
        return found  # a value of no role: which earlier one it replaces is not known
    theirs = assign([s for s in query.of(kind, "earlier")], cues)
    return [*found, *(s for role, ss in theirs.items() if role and role not in own for s in ss if s not in found)]


# an amount the words tie to the street's work, not to a permit ("repaved in June 2026, cost the village something
# like $412,000", "the paving contract was $380,000")
_NOT_A_FEE = re.compile(r"^(?!.*\b(?:permit|fee)).*\b(?:repav\w*|paving|resurfac\w*|reconstruct\w*|project|bid|contract|"
                        r"cost\s+(?:the\s+)?(?:village|town|city|county|taxpayers))\b", re.I | re.S)


def surcharge_values(query: Query) -> SurchargeReading:
    """The paving and opening dates and the permit fee the words give (the fee read even when a date is asked about:
    a reading of the dates a route settles otherwise still has its fee)."""
    out = _surcharge_dates(query)
    # ("the permit fee is $120 per permit": a price of one permit is its fee)
    # ("$150 per opening", "$75 a cut": the price of one permit for one opening)
    money = [s for s in of(query, "money") if s.unit == "USD" or re.fullmatch(
        r"USD/(?:permit|opening|cut|excavation|application|street opening)s?", s.unit or "")]
    fees = assign(money, {"fee": FEE}, query)
    if len(money) == 1 and not _NOT_A_FEE.search(money[0].before[-50:] + " " + money[0].after[:30]):
        out.fee = money[0]
    elif len(money) == 1:
        pass  # "That street was repaved in June 2026, cost the village something like $412,000": the paving's cost
    elif len(fees.get("fee", [])) == 1:
        out.fee = fees["fee"][0]
    elif money and out.ambiguous is None:
        out.ambiguous = Ambiguous("permit fee", tuple(money))
    return out


def _surcharge_dates(query: Query) -> SurchargeReading:
    cues = {"final paving date": PAVED, "opening date": OPENED}
    days = with_other_roles(query, "date", cues)
    by = assign(days, cues, query)
    out = SurchargeReading()
    paving, opening, loose = by.get("final paving date", []), by.get("opening date", []), by.get("", [])
    if len(paving) > 1:  # a building's date beside the street's: the building's is a distractor
        paving = [d for d in paving if not _of_a_building(d, query)] or paving
    if len(paving) > 1:
        # "the base asphalt went down in May 2022 and the top coat in September 2023": the final paving is the
        # last layer's, when every other date is a lower layer's
        near = [d.before[-30:] + " " + d.after[:25] for d in paving]
        top = [d for d, w in zip(paving, near) if FINAL_LAYER.search(w) and not LOWER_LAYER.search(w)]
        if len(top) > 1:  # the layer named before a date is its own ("built in 2019 but the final surface ...")
            top = [d for d in top if FINAL_LAYER.search(d.before[-30:])] or top
        # (or the street's first construction: "first built in 2019 but the final surface course went down ...")
        if len(top) == 1 and all(LOWER_LAYER.search(w) or ORIGINAL.search(w) for d, w in zip(paving, near)
                                 if d is not top[0]):
            others = ", ".join(f"“{d.span.text}”" for d in paving if d is not top[0])
            out.paving_why = f"“{top[0].span.text}”: the final layer's date ({others}: a lower layer or the first construction)"
            paving = top
    if len(paving) > 1:
        out.ambiguous = Ambiguous("date of the final paving", tuple(paving))
        return out
    if len(opening) > 1:
        out.ambiguous = Ambiguous("opening date", tuple(opening))
        return out
    if not paving and loose:
        if len(loose) == 1 and not opening and len(days) == 1:
            out.ambiguous = Ambiguous("date of the final paving (or is it the opening date?)", tuple(loose))
            return out
        if len(loose) > 1 or (loose and not opening):
            out.ambiguous = Ambiguous("date of the final paving", tuple(loose))
            return out
        paving = loose  # the one date besides the opening
    elif loose and not opening:
        if len(loose) > 1:
            out.ambiguous = Ambiguous("opening date", tuple(loose))
            return out
        opening = loose
    out.paving = paving[0] if paving else None
    out.opening = opening[0] if opening else None
    return out


# -- snow and ice removal by employees: hours and hourly rates -------------------------------------
WORK_CUE = re.compile(r"work|spent|spend|took|take|labou?r|clear|shovel|plow|remov|each|crew|employee|worker|"
                      r"\bfor\s*$|\bput in|logged|billed", re.I)
_DEADLINE_WORDS = r"within|run out|ran out|expire|passed|deadline|allow|grace|had (?:my|our|his|her|their|the)|gave|give|notice|wait"
# "after the storm" before a duration says when the work was done; after it ("24 hours after the storm") a deadline
DEADLINE_BEFORE = re.compile(_DEADLINE_WORDS, re.I)
DEADLINE_CUE = re.compile(_DEADLINE_WORDS + r"|after the (?:end|snow|storm)", re.I)
ANOTHER = re.compile(r"\b(?:another|the other|a second)\b", re.I)
PER_WORKER = re.compile(r"\b(?:per|each|a|every)\s+(?:worker|employee|person|man|guy|crew member)\b|\bapiece\b", re.I)
CREW = re.compile(r"\b(?:crew|workers|employees|guys|men|people|staff|them|they)\b", re.I)
RATE_CUE = re.compile(r"hour|hourly|rate|wage|/\s*hr", re.I)


@dataclass
class SnowReading:
    employees: list[dict] = field(default_factory=list)
    occasions: int = 1
    occasions_slot: Slot | None = None
    derived: dict[str, str] = field(default_factory=dict)
    sources: dict[str, Slot] = field(default_factory=dict)
    missing: str | None = None
    ambiguous: Ambiguous | None = None


def _own_sentence_before(s: Slot) -> str:
    """The words before a slot within its own sentence: "... an hour. It also mentions a $30 minimum fine" does
    not make the $30 a rate."""
    return re.split(r"[.!?]\s+", s.before)[-1]


def _context(s: Slot) -> str:
    return s.before[-35:] + " # " + s.after[:25]


# one worker named as one ("the same guy", "one worker", "a single employee")
_WORKER = r"(?:guy|worker|employee|person|man|woman|plow driver|driver|crew member)"
ONE_WORKER = re.compile(rf"\b(?:(?:the )?same|one|a single|only one) {_WORKER}\b", re.I)


SAME_WORKER = re.compile(rf"\b(?:the )?same {_WORKER}\b", re.I)


# "the rate is $40 an hour", "a rate of $42/hr": one rate told, not said to be each worker's ("their rate", "$44/hr each")
# "the rate is", "their hourly rate with benefits was about": a rate told, whose by the words before it
_RATE_TOLD = (r"\s+(?:hourly\s+|labou?r\s+)?rate\b(?:\s+(?:with|including|incl\.?)\s+benefits)?"
              r"\s*(?:is|was|of|would be|will be|=|:)?\s*(?:about\s+|around\s+)?$")
_THEIR_RATE = re.compile(r"\b(?:their|its|the\s+village['’]s|the\s+town['’]s|the\s+city['’]s)" + _RATE_TOLD, re.I)
_ONE_RATE = re.compile(r"\b(?:the|a)" + _RATE_TOLD, re.I)


def _one_rate_told(rate: Slot, query: Query, staff: Slot | None = None) -> bool:
    """A single rate said of a crew as "the rate" ("They told me the rate is $40 an hour"), in a sentence that does not
    make it each worker's ("per worker", "each", "apiece"); "their rate" too when it is said before the workers are
    ("they told me their rate was $45 an hour and two guys were out there": the Village's rate, not yet the guys')."""
    text = query.source(rate.span.origin)
    before = re.split(r"[.;?!]\s+", text[:rate.span.start])[-1]
    after = re.split(r"[.;?!](?:\s|$)", text[rate.span.end:])[0]
    said_first = staff is not None and staff.span.origin == rate.span.origin and rate.span.end <= staff.span.start
    told = _ONE_RATE.search(before) is not None or (said_first and _THEIR_RATE.search(before) is not None)
    return told and not PER_WORKER.search(f"{before} {after}") \
        and not re.search(r"\b(?:each|apiece|per (?:head|man|guy))\b", f"{before} {after}", re.I)


def _crew_worked(staff: Slot, hours: Slot, query: Query) -> bool:
    """The head count is the subject of the hours, in one clause ("Two guys worked 1.5 hours"), and nothing
    says the hours are a total ("3 hours between them", "in all")."""
    text = query.source(hours.span.origin)
    if staff.span.origin != hours.span.origin or not staff.span.end <= hours.span.start:
        return False
    between = text[staff.span.end:hours.span.start]
    after = text[hours.span.end:hours.span.end + 30]
    # ("Two of your guys, took them about an hour and a half": the crew's time, said of "them")
    them = re.fullmatch(r"[^.;?!]{0,12},\s*(?:and\s+)?(?:it\s+)?took\s+them\s+(?:about\s+|around\s+|roughly\s+|maybe\s+)?",
                        between, re.I)
    # ("two of their employees did it, about an hour and a half": the time the crew's doing it took)
    them = them or re.fullmatch(r"\s+(?:did|cleared|shoveled|shovelled|plowed|cleaned|worked(?:\s+on)?)\s+"
                                r"(?:it|(?:the|my|our|his|her|their)\s+(?:walk|sidewalk|driveway|job|snow))?\s*,?\s*(?:in\s+|for\s+)?"
                                r"(?:about\s+|around\s+|roughly\s+|maybe\s+)?", between, re.I)
    if them:
        return not re.search(r"\b(?:total|combined|between them|altogether|in all|together)\b", after, re.I)
    return len(between.split()) <= 4 and not re.search(r"[.;,?!]", between) \
        and not re.search(r"\b(?:total|combined|between them|altogether|in all|together)\b", between + " " + after, re.I)


# "the first time ... the second time", "first visit ... next visit": occasions told one by one
_NTH_VISIT = re.compile(r"\b(?:first|second|third|fourth|1st|2nd|3rd|4th|next|last)\s+(?:time|occasion|visit|trip|round)\b",
                        re.I)


def snow_values(query: Query) -> SnowReading:
    out = SnowReading()
    rates = [s for s in query.of("money") if s.unit == "USD/hour" or RATE_CUE.search(s.after[:15])
             or RATE_CUE.search(_own_sentence_before(s)[-30:])]
    hours = [s for s in query.of("duration") if s.unit in ("hours", "minutes")
             and (WORK_CUE.search(_context(s)) or not DEADLINE_CUE.search(_context(s)))]
    hours = [s for s in hours if not DEADLINE_BEFORE.search(s.before[-25:]) or WORK_CUE.search(s.before[-25:])]
    staff = [s for s in query.of("count") if s.unit in ("employees", "workers", "crew members", "people", "men", "guys",
                                                          "staff")]
    if ANOTHER.search(query.text):  # "one employee worked ... and another ...": enumerated, not a head count
        staff = [s for s in staff if s.number != 1]
    if query.follow_up and any(s.span.origin == "turn" for s in staff):
        # "One worker, 2 hours ..." / "and if it was two guys for those same 2 hours?": the follow-up's head count
        # replaces the earlier turn's
        staff = [s for s in staff if s.span.origin == "turn"]
    occ = [s for s in query.of("count") if s.unit in ("occasions", "times", "visits", "trips")]
    if len(occ) == 1:
        out.occasions, out.occasions_slot = int(occ[0].number), occ[0]
    elif len(occ) > 1:
        out.ambiguous = Ambiguous("number of occasions", tuple(occ))
        return out
    if not rates:
        out.missing = "the hourly rate (including benefits) of each employee who removed the snow or ice."
        return out
    if not hours:
        out.missing = "how many hours each employee worked."
        return out
    n = int(staff[0].number) if len(staff) == 1 else None
    visits = list(_NTH_VISIT.finditer(query.turn))
    if len(hours) == len(visits) >= 2 and len({r.number for r in rates}) == 1 and out.occasions in (1, len(visits)) \
            and all(h.span.origin == "turn" for h in hours) and all(
                v.start() < h.span.start and (i + 1 == len(visits) or h.span.start < visits[i + 1].start())
                for i, (v, h) in enumerate(zip(visits, sorted(hours, key=lambda x: x.span.start)))):
        # "First time one guy spent 2 hours, second time it took him an hour and a quarter ... $42 an hour": each
        # occasion's own hours at the one rate, and as many occasions as are told
        for i, h in enumerate(sorted(hours, key=lambda x: x.span.start)):
            out.employees.append({"hours": str(h.number / 60 if h.unit == "minutes" else h.number),
                                  "hourly_rate_including_benefits": str(rates[0].number)})
            out.sources[f"employees[{i}].hours"] = h
            out.sources[f"employees[{i}].hourly_rate_including_benefits"] = rates[0]
            out.derived[f"employees[{i}].hourly_rate_including_benefits"] = \
                f"${rates[0].number:,.2f} an hour (“{rates[0].span.text}” for each occasion)"
            if h.unit == "minutes":
                out.derived[f"employees[{i}].hours"] = f"{as_number(h.number / 60)} hours (“{h.span.text}”)"
        out.occasions = len(visits)
        out.derived["occasions"] = f"{len(visits)} (" + ", ".join(f"“{v.group(0)}”" for v in visits) + ")"
        if out.occasions_slot is not None:
            out.sources["occasions"] = out.occasions_slot
        return out
    if len({h.number for h in hours}) > 1 and n in (None, 1) and ONE_WORKER.search(query.text) \
            and (SAME_WORKER.search(query.text) or not ANOTHER.search(query.text)):
        # "same guy ... one place took him an hour, the other two hours": one worker's hours at two places are
        # not two employees; which is the asker's is asked
        out.ambiguous = Ambiguous("hours worked on your property", tuple(hours))
        return out
    each = bool(DISTRIBUTIVE.search(query.text))
    if each and staff and all(m.group(0).lower().startswith("their") and m.start() < staff[0].span.start
                              for m in DISTRIBUTIVE.finditer(query.text)) and staff[0].span.origin == "turn" \
            and query.text.startswith(query.turn):
        # ("they told me their rate was $45 an hour and two guys were out there": "their" is whoever told it, said
        # before the workers are; not each worker's rate)
        each = False
    crew_each = crew_rate = None
    if n is None and len(hours) == 1 and CREW.search(query.text) and re.match(
            r"\s*(?:each|apiece)\b", _after(query, hours[0])):
        # "village guys came ... they were there an hour and a quarter each": each one's hours, how many not said
        out.missing = "the number of employees who worked (the hours are each one's)."
        return out
    if n is None and len(hours) == 1 and len(rates) == 1 and PER_WORKER.search(query.text) and CREW.search(query.text):
        # "it took them 1 hour 40 minutes, at $39.90 an hour per worker": how many worked is not said
        out.missing = "the number of employees who worked (the rate is per worker)."
        return out
    if len(hours) == len(rates):
        pairs = list(zip(hours, rates))
        if n is not None and n != len(pairs):
            if len(pairs) == 1 and not each and _crew_worked(staff[0], hours[0], query) and _one_rate_told(rates[0], query, staff[0]):
                # "sent two guys and they were there three hours. They told me the rate is $40 an hour": the crew's time,
                # but "the rate" may be each one's or the crew's together (the charge doubles between them): asked
                out.ambiguous = Ambiguous(
                    f"hourly rate of the “{staff[0].span.text}” (each one's, or for all of them together?)", tuple(rates))
                return out
            if len(pairs) == 1 and (each or _crew_worked(staff[0], hours[0], query)):
                # "2 guys x 1.75 hrs @ $44/hr", "sent 2 employees who spent 3 hours ...; their rate is $42.50": the
                # crew's time on the job and its one rate, each worker's (the answer says it read them so)
                pairs = pairs * n
                crew_each = f"“{hours[0].span.text}” for each of “{staff[0].span.text}”"
                crew_rate = f"“{rates[0].span.text}” for each of “{staff[0].span.text}”"
            else:
                out.ambiguous = Ambiguous(
                    f"hours of each of the “{staff[0].span.text}” (for each, or for all together?)", tuple(hours))
                return out
    elif len(hours) == 1 and each:
        pairs = [(hours[0], r) for r in rates]
    elif len(hours) == 1 and n is not None and n == len(rates) > 1 and _crew_worked(staff[0], hours[0], query):
        # "Two guys worked 1.5 hours; their rates are $42 and $38": the crew's time on the job, each one's
        pairs = [(hours[0], r) for r in rates]
        crew_each = f"“{hours[0].span.text}” for each of “{staff[0].span.text}”"
    elif len(rates) == 1 and each:
        pairs = [(h, rates[0]) for h in hours]
    else:
        out.ambiguous = Ambiguous("hours each employee worked, at which hourly rate",
                                  tuple(hours) + tuple(rates))
        return out
    per_occasion = bool(re.search(r"each (?:time|occasion|visit)|per (?:occasion|visit)", query.text, re.I))
    times = out.occasions if per_occasion and out.occasions > 1 else 1
    for i, (h, r) in enumerate(pairs):
        in_hours = h.number / 60 if h.unit == "minutes" else h.number
        # "1 hour 25 minutes" is 85 minutes, not a whole number of hundredths of an hour: given in minutes
        exact = in_hours == in_hours.quantize(Decimal("0.01"))
        field_name, value = ("hours", in_hours * times) if exact else ("minutes", h.number * times)
        if value != h.number:
            why = [f"“{h.span.text}” = {as_number(in_hours)} hours"] if h.unit == "minutes" and exact else []
            if times > 1:
                why.append(f"“{h.span.text}” x {out.occasions} occasions")
            unit = "hours" if exact else "minutes"
            out.derived[f"employees[{i}].{field_name}"] = f"{as_number(value)} {unit} ({'; '.join(why)})"
        if crew_each and f"employees[{i}].{field_name}" not in out.derived:
            out.derived[f"employees[{i}].{field_name}"] = f"{as_number(value)} {field_name} ({crew_each})"
        if crew_rate:
            out.derived[f"employees[{i}].hourly_rate_including_benefits"] = f"${r.number:,.2f} an hour ({crew_rate})"
        out.employees.append({field_name: as_number(value) if h.unit == "minutes" else str(value),
                              "hourly_rate_including_benefits": str(r.number)})
        out.sources[f"employees[{i}].{field_name}"] = h
        out.sources[f"employees[{i}].hourly_rate_including_benefits"] = r
    if out.occasions_slot is not None:
        out.sources["occasions"] = out.occasions_slot
    return out


def as_number(d: Decimal) -> str:
    return format(d.normalize(), "f")


# -- the date a deadline counts from ------------------------------------------------------------
# events a deadline may count from, and the words that name each (general English): a date tied
# to one of them is not the date of another
EVENT_KINDS = {
    "application": ("the application", re.compile(r"\b(?:appl(?:y|ied|ication)|submit(?:ted)?|filed|requested|"
                                                  r"put in (?:for|an? (?:application|request)|the (?:application|paperwork|request))|sent in|turned in)", re.I)),
    "approval": ("the approval", re.compile(r"\b(?:approv(?:ed|al)|issued|granted|signed off|sign-?off|okayed|ok['’]d)\b", re.I)),
    "completion": ("the completion", re.compile(r"\b(?:finish(?:ed)?|complet(?:ed|ion)|done)\b", re.I)),
    "notice": ("the notice", re.compile(r"\b(?:notice|notif(?:y|ied|ication)|letter|wrote)\b", re.I)),
    "bill": ("the bill", re.compile(r"\b(?:bill(?:ed)?|invoice[d]?)\b", re.I)),
}


# a notice of what is owed: a bill is one
_CHARGES = re.compile(r"\bnotice of (?:the |such )?(?:charges?|costs?|amounts? (?:due|owed)|bill)\b", re.I)


# the words that say what kind an event is, not what it is of ("approval" of "the filling and surfacing")
@functools.cache
def _kind_stems() -> frozenset[str]:
    from assistant.retrieval.lexical import stems

    return frozenset(stems("approve approved approval approvals issue issued issuance granted grant signed sign off "
                           "okayed apply applied application submitted submit filed filing request requested finish "
                           "finished complete completed completion notice notified notify notification letter bill "
                           "billed invoice invoiced receipt received service served date"))


def event_kind_of(words: str) -> str | None:
    """The kind of event words name (an application, an approval, a completion, a notice, a bill), or None."""
    return _event_kind(words)


def _event_kind(words: str) -> str | None:
    """The kind of event the words nearest the end name ("... after we applied on" -> application)."""
    best, pos = None, -1
    for kind, (_, rx) in EVENT_KINDS.items():
        for m in rx.finditer(words):
            if m.start() > pos:
                best, pos = kind, m.start()
    return best


# the user says which event the period runs from ("the clock runs from move-in day", "count it from the day we
# got the bill")
_COUNTS_FROM = re.compile(r"\b(?:clock|count(?:ing)?|period|deadline|time|days?|it)\s+(?:runs?|starts?|started|begins?|"
                          r"is counted|counts?|goes)\s+(?:from|with)\s+(?P<what>[^.,;?!]{3,40})", re.I)


# a paper's arrival told beside a day ("it didn't show up in our mailbox until Monday the 11th"), and its sender's day
# ("dated March 7", "mailed on the 2nd")
_ARRIVED = re.compile(r"\b(?:got|received|arrived|came|show(?:s|ed)?\s+up|turn(?:s|ed)?\s+up|landed|delivered|opened|"
                      r"in\s+(?:our|my|the)\s+mail\s?box)\b", re.I)
_SENDERS_DAY = re.compile(r"\b(?:dated|mailed|sent|postmarked|posted|written|issued)\b", re.I)


def arrival_day(query: Query, event_text: str, days: list[Slot] | None = None) -> Slot | None:
    """Of a period counted from a paper's receipt, the one day the words tell it arrived, when every other day they give
    is its sender's ("Bill is $385, dated March 7, but it didn't show up in our mailbox until Monday the 11th": the
    11th); None otherwise."""
    if not re.search(r"\breceiv|\breceipt", event_text, re.I):
        return None
    days = days if days is not None else _one_per_day(of(query, "date"))
    days = [s for s in days if s.precision == "day"]
    came = [s for s in days if _ARRIVED.search(own_words_before(s, query))]
    others = [s for s in days if s not in came]
    if len(came) == 1 and others and all(_SENDERS_DAY.search(own_words_before(s, query)) for s in others):
        return came[0]
    return None


# capitalised words that name no place or job of the user's ("What", "Town", "Monday")
_NOT_A_NAME = frozenset("what when where which who whose why how is are do does did can could will would should the a an "
                        "and or but if i we my our you your town village city county board clerk director public works "
                        "dpw highway commission superintendent inspector monday tuesday wednesday thursday friday saturday "
                        "sunday january february march april may june july august september october november december "
                        "street st road rd avenue ave lane ln drive dr court ct way".split())


def _named_in_ask(query: Query, days: list[Slot]) -> Slot | None:
    """Of several dates each in a clause of its own, the one whose clause holds a name (a capitalised word: a street, a
    job, a person) that the asking sentence names and no other date's clause does; None otherwise."""
    if len({s.value for s in days}) < 2 or any(s.span.origin != "turn" for s in days):
        return None
    turn = query.turn
    asking = " ".join(x for x in re.split(r"(?<=[.!?])\s+", turn) if "?" in x)

    def named(text: str) -> set[str]:  # (a capitalised word that starts a sentence or clause is no name)
        return {m.group(1).lower() for m in re.finditer(r"(?<![.!?;:]\s)(?<!^)\b([A-Z][a-z]{2,})\b", text.strip())} \
            - _NOT_A_NAME

    names = named(asking)
    if not names:
        return None

    def clause(s: Slot) -> str:  # (with its closing mark: a date in an asking sentence dates no job of its own)
        start = max([0] + [m.end() for m in re.finditer(r"[.;!?](?:\s|$)", turn[:s.span.start])])
        end_m = re.search(r"[.;!?](?:\s|$)", turn[s.span.end:])
        return turn[start:s.span.end + (end_m.start() + 1 if end_m else len(turn))]

    hits = [s for s in days if "?" not in clause(s) and names & named(clause(s))]
    return hits[0] if len({s.value for s in hits}) == 1 else None


def event_date(query: Query, event_text: str) -> Slot | Ambiguous | None:
    """The date the words tie to the rule's starting event ("dug on May 3" for an excavation,
    not "reported the leak on May 1"); asked about when two dates are tied to it alike."""
    from assistant.retrieval.expansion import expand
    from assistant.retrieval.lexical import stems

    days = _one_per_day(of(query, "date"))
    if any(s.precision == "day" for s in days):
        # ("owned the place since 2003 ... a new number on December 10": a year alone names no day to count from)
        days = [s for s in days if s.precision != "year"]
    arrived = arrival_day(query, event_text, days)
    if arrived is not None:
        return arrived
    named = _named_in_ask(query, days)
    if named is not None:
        # "The well repair on Hillside Rd wrapped up Friday, September 27; the lateral install on Elm Rd should finish
        # Thursday, October 10 ... the deadline to have the Hillside ditch repaired?": the date of the job the ask names
        return named
    wanted = _event_kind(event_text)
    if wanted is not None:
        # "I applied on March 1" for a rule counted from the approval: that date is another event's
        kinds = {id(s): _event_kind(own_words_before(s, query)) for s in days}
        if _CHARGES.search(event_text):
            # "actual notice of the charges": a bill delivered is that notice
            kinds = {k: ("notice" if v == "bill" and wanted == "notice" else v) for k, v in kinds.items()}
        if days and all(kinds[id(s)] not in (None, wanted) for s in days):
            return Ambiguous(f"{event_text.rstrip('.')} (the question dates only "
                             + " and ".join(EVENT_KINDS[kinds[id(s)]][0] for s in days[:1]) + ")", tuple(days))
        days = [s for s in days if kinds[id(s)] in (None, wanted)]
        named = [s for s in days if kinds[id(s)] == wanted]

        def of_another_act(s: Slot) -> bool:  # "and I only opened it": words of its own, not "and the second" / "mine"
            from assistant.retrieval.lexical import stems

            words = own_words_before(s, query)
            return bool(stems(words) - _COORDINATION) and not re.search(
                r"\b(?:mine|ours|yours|his|hers|theirs)\W*$", words, re.I)

        if len(named) == 1 and len(days) > 1 and all(of_another_act(s) for s in days if s is not named[0]):
            # "The letter is dated a week ago today and I only opened it this morning": of the dates, only one's own
            # words name the rule's event (a notice); the others' name none of it
            return named[0]
    if len(days) <= 1:
        return days[0] if days else None
    said = _COUNTS_FROM.search(query.text)
    if said:
        # "the inspector told us for our case the clock runs from move-in day": the date whose own words name it
        named = stems(expand(said.group("what"))) - _COORDINATION - stems("the a an day date our my their")
        hit = [s for s in days if named & stems(expand(own_words_before(s, query)))]
        if named and len(hit) == 1:
            return hit[0]
    want = stems(expand(event_text)) - stems("the a an of on date day time or and was were is by")
    # (the event's own words, not their expansion: "filling" is no "permit")
    objects = stems(event_text) - stems("the a an of on date day time or and was were is by") - _kind_stems()
    # (two words of what is approved at least, "fill and surfacing": one, "permit", is the question's topic everywhere)
    named_object = [s for s in days if len(stems(expand(own_words_before(s, query))) & objects) >= 2] \
        if len(objects) >= 2 else []
    if len(named_object) == 1 and wanted is not None \
            and _event_kind(own_words_before(named_object[0], query)) in (None, wanted):
        # "Permit ... was issued July 20 ... the Town signed off on our fill and surfacing Sept 12", of a period after
        # "approval of the filling and surfacing": of two approvals, the one whose own words name what was approved
        return named_object[0]
    scored = []
    for s in days:
        before = own_words_before(s, query)
        scored.append((len(stems(expand(before)) & want), s))
    top = max(n for n, _ in scored)
    best = [s for n, s in scored if n == top]
    if len(best) == 1 and top > 0:
        # "the first was approved May 3 and the second June 4": a date whose own words name
        # nothing of their own shares the cue before it; which one counts is asked
        bare = [s for n, s in scored if n < top and s.precision == best[0].precision
                and not (stems(own_words_before(s, query)) - _COORDINATION)]
        if bare:
            return Ambiguous("date the period counts from", (best[0], *bare))
        # "the water utility dug on January 15, and the gas company dug on December 24": another date
        # whose own words name the same event too is as good a reading: asked (or one per party)
        tied = [s for n, s in scored if 0 < n < top and s.precision == best[0].precision]
        if wanted is not None and _event_kind(own_words_before(best[0], query)) == wanted:
            # "filled and surfaced June 10, and the Town approved the filling and surfacing July 6" for a period
            # counted from the approval: only a date that is an approval too ties with the approval's
            tied = [s for s in tied if _event_kind(own_words_before(s, query)) == wanted]
        # "the Clerk's, dated January 11, and the director's, dated January 14": a date written the
        # same way as the chosen one (the same last word before it) names the same event: asked
        head = _last_word(own_words_before(best[0], query))
        tied += [s for n, s in scored if n == 0 and s.precision == best[0].precision and head is not None
                 and _last_word(own_words_before(s, query)) == head]
        # "within 30 days from date of assignment or from the date of initial occupancy", and the question
        # dates both: the code does not say which governs, so which one counts is asked
        # "the plumber got the notice October 1 and I got mine October 20": a date whose own words end in a
        # possessive pronoun dates the same event for another party: which one counts is asked
        tied += [s for n, s in scored if s is not best[0] and s not in tied and s.precision == best[0].precision
                 and re.search(r"\b(?:mine|ours|yours|his|hers|theirs)\W*$", own_words_before(s, query), re.I)]
        if re.search(r"\bor\b", re.sub(r"\([^)]*\)", " ", event_text)):
            # (an "or" in brackets names one event another way: "the snow event (or drifting) ended" has no second
            # start, and "came home Monday" is no rival for it)
            tied += [s for n, s in scored if s is not best[0] and s not in tied and s.precision == best[0].precision]
        if tied:
            return Ambiguous("date the period counts from", (best[0], *tied))
        return best[0]
    # no date's own words before it tell it apart ("Say Wednesday night, November 24, 2027, we get a leak call and end
    # up digging up part of Main Street ..." / "With Thanksgiving the next day, ..."): the words after each, to the end
    # of its sentence, may — a date whose sentence goes on to name the event, when only one does
    # (two of the event's words at least, none of them denied: "..., no permit obviously" names no permit issued)
    pool = best if top > 0 else days
    # (a day said of an act the user only supposes, of another act than the event: "do we still get out of paying the
    # fee if we file today?" dates a filing, not the excavation; "if we dig on Monday" would date it)
    supposed = [s for s in pool if _SUPPOSED.search(own_words_before(s, query))
                and not stems(expand(own_words_before(s, query))) & want]
    if supposed and len(pool) - len(supposed) == 1:
        return next(s for s in pool if s not in supposed)
    after = [(len(stems(expand(DENIED_WORDS.sub(" ", _sentence_after(s, query)))) & want), s) for s in pool]
    most = max(n for n, _ in after)
    named_after = [s for n, s in after if n == most]
    if most >= 2 and len(named_after) == 1:
        return named_after[0]
    return Ambiguous("date the period counts from", tuple(pool))


# the words before a day that suppose an act ("if we file", "if I pay it on", "if they send it")
_SUPPOSED = re.compile(r"\b(?:if|once|when|say|suppose)\s+(?:we|i|they|you|he|she|the\s+\w+)\s+(?:\w+\s+){1,3}$", re.I)


# words a question denies ("no permit obviously", "without a bond"): they name nothing of its own case
DENIED_WORDS = re.compile(r"\b(?:not|no|never|without)\s+(?:a\s+|an\s+|the\s+|any\s+)?[\w'-]+(?:\s+[\w'-]+)?", re.I)


def _sentence_after(slot: Slot, query: Query, width: int = 120) -> str:
    """The words after a value to the end of its sentence, before the next date."""
    text = query.source(slot.span.origin)
    nxt = min((x.span.start for x in query.slots if x.span.origin == slot.span.origin and x.kind == "date"
               and x.span.start >= slot.span.end), default=len(text))
    parts = re.split(r"[.;?!](?:\s|$)", text[slot.span.end:min(nxt, slot.span.end + width)])
    if len(parts) == 1 and nxt < len(text):
        return ""  # ("Crew A starts Monday Nov 1 at 7 am, crew B starts Friday Nov 12": another date of its sentence
        # follows, with words of its own between: they are not this date's alone)
    return parts[0]


def _last_word(text: str) -> str | None:
    """The last word of ``text`` that is not a preposition or article ("director's, dated " -> dated)."""
    from assistant.retrieval.lexical import stems

    for w in reversed(re.findall(r"[A-Za-z]+", text)):
        own = stems(w)
        if own and not own & _COORDINATION:  # (a stop word has no stem: "on", "the" are skipped too)
            return w.lower()
    return None


def _one_per_day(days: list[Slot]) -> list[Slot]:
    """One slot per day named: "New Year's Day, Friday January 1, 2027" names one day twice, which is
    no choice to ask about (the more precise writing is kept)."""
    out: list[Slot] = []
    for s in days:
        same = next((i for i, x in enumerate(out) if x.value == s.value and x.precision == s.precision), None)
        if same is None:
            out.append(s)
        elif re.search(r"\d", s.span.text) and not re.search(r"\d", out[same].span.text):
            out[same] = s
    # "next week ... crew 1 starts Tuesday the 24th": a week (or month) that holds a day the words name is when those
    # days fall, no date of its own to count from
    days = [s.day for s in out if s.precision == "day"]
    return [s for s in out if s.precision == "day" or not any(s.holds(d) for d in days)]



_COORDINATION = frozenset({"and", "or", "the", "a", "an", "then", "first", "second", "third", "other", "anoth",
                           "one", "both", "either", "on", "in", "at", "of", "it", "also", "later", "earlier", "thi",
                           "that", "is", "was", "s",
                           # (a weekday or part of the day before a date is the date's own, no event's: "the other
                           # Tuesday June 20" names no event of its own)
                           "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "morn",
                           "afternoon", "evening", "night"})


# -- a deposit settled against the actual cost ----------------------------------------------------
DEPOSIT = re.compile(r"deposit|put down|put up|paid (?:up ?front|in advance)|advance|estimate", re.I)
ACTUAL = re.compile(r"cost|came to|bill|billed|actual|final|total|invoice|charged|ran|spent", re.I)


@dataclass
class SettlementReading:
    deposit: Slot | None = None
    actual: Slot | None = None
    ambiguous: Ambiguous | None = None
    added: Slot | None = None  # an amount added to the actual cost ("they added $450 ... to the final cost")


# an amount said to be added to a cost already told: "they added $450 for extra base work to the final cost", "another
# $300 on top of the bill", "$450 more"
_ADDED_BEFORE = re.compile(r"\b(?:added|adding|add|tacked on|tack on|another|an extra|additional|plus)\s+(?:on\s+)?(?:another\s+)?$",
                           re.I)
_ADDED_AFTER = re.compile(r"^\s*(?:more\b|extra\b|on top\b|[^.?!;]{0,40}?\b(?:to|onto|on top of)\s+(?:the|their|my|our)\s+"
                          r"(?:final|actual|total)?\s*(?:cost|bill|invoice|total|price)\b)", re.I)


def settlement_values(query: Query) -> SettlementReading:
    money = [s for s in query.of("money") if s.unit == "USD"]
    added = [s for s in money if s.span.origin == "turn" and (_ADDED_BEFORE.search(s.before[-30:]) or
                                                             _ADDED_AFTER.match(s.after[:60]))]
    if len(added) == 1 and len(money) >= 3:
        # the amount added is no cost of its own: the cost told before it, with the amount added, is the actual cost
        rest = SettlementReading()
        base = settlement_values(query.model_copy(update={"slots": tuple(s for s in query.slots if s is not added[0])}))
        if base.ambiguous is not None or base.actual is None:
            return base
        rest.deposit, rest.actual, rest.added = base.deposit, base.actual, added[0]
        return rest
    by = assign(money, {"deposit": DEPOSIT, "actual cost": ACTUAL}, query)
    dep, act, loose = by.get("deposit", []), by.get("actual cost", []), by.get("", [])
    mine = [s for s in money if s.span.origin == "turn"]
    if query.clarified and len(mine) == 1:
        # the one amount of a reply to our question is the value it asked for ("the actual cost: ... Please give
        # it as one amount" / "$2,185 in all"); the earlier amounts it answers for are no rivals
        asked = query.asked.lower()
        if "actual cost" in asked:
            act, loose = mine, []
            dep = [d for d in dep if d is not mine[0]]
        elif "deposit" in asked:
            dep, loose = mine, []
            act = [a for a in act if a is not mine[0]]
    out = SettlementReading()
    if len(dep) > 1:
        out.ambiguous = Ambiguous("deposit", tuple(dep))
    elif len(act) > 1:
        out.ambiguous = Ambiguous("actual cost", tuple(act))
    elif len(dep) == 1 and len(act) == 1:
        out.deposit, out.actual = dep[0], act[0]
    elif len(dep) == 1 and len(loose) == 1:
        out.deposit, out.actual = dep[0], loose[0]
    elif len(act) == 1 and len(loose) == 1:
        out.deposit, out.actual = loose[0], act[0]
    elif len(money) == 2 and not dep and not act:
        out.ambiguous = Ambiguous("deposit (and which is the actual cost)", tuple(money))
    elif money:
        out.ambiguous = Ambiguous("deposit and the actual cost", tuple(money))
    return out
