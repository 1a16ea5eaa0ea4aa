"""Slot filling from plain words: dates ('March 3, 2027', 'last June', '2 1/2 years ago'),
times ('at 3 pm'), money ('$1,250'), counts, hours, emergency or not.

These read values the user wrote; they compute nothing the code prescribes.
"""

from __future__ import annotations

import os
import re
from datetime import date, datetime, time
from decimal import Decimal
from fractions import Fraction

from dateutil.relativedelta import relativedelta

MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], 1)}
MONTHS.update({k[:3]: v for k, v in list(MONTHS.items())})
MONTHS["sept"] = 9
_MON = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"

DATE_RES = [
    (re.compile(rf"\b{_MON}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I), "mdy"),
    (re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b"), "iso"),
    (re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b"), "us"),
    (re.compile(rf"\b{_MON}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:,\s*)?\d{{4}})", re.I), "md"),
    # ("June 2025", "late June of 2025": the month of that year)
    (re.compile(rf"\b(?:in\s+)?{_MON}\s+(?:of\s+)?(\d{{4}})\b", re.I), "my"),
]
TIME_RE = re.compile(r"\b(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?|(?:o['’]clock\s+)?in\s+the\s+"
                     r"(?:morning|afternoon|evening)|(?:o['’]clock\s+)?at\s+night)\b|\bat\s+(noon|midnight)\b", re.I)


def clock_hour(hour: str, suffix: str) -> int:
    """The 24-hour hour of "3 p.m.", "3 in the afternoon", "7 in the morning", "10 at night"."""
    h, low = int(hour) % 12, suffix.lower()
    later = low.startswith("p") or any(w in low for w in ("afternoon", "evening", "night"))
    return h + 12 if later else h


def today() -> date:
    """Today; ``ASSISTANT_TODAY`` (an ISO date) pins it, so an evaluation whose questions say
    "last Tuesday" is scored against the day they were written."""
    pinned = os.environ.get("ASSISTANT_TODAY", "").strip()
    if not pinned:
        return date.today()
    try:
        return date.fromisoformat(pinned)
    except ValueError:
        raise ValueError(f"ASSISTANT_TODAY={pinned!r} is not a date (write it as YYYY-MM-DD)") from None


def nearest_year(month: int, day: int, ref: date) -> date:
    """A day written without a year ("March 3") is the one nearest to ``ref``: on November 30,
    2026 "March 3" is March 3, 2027 and "November 20" is November 20, 2026."""
    options = []
    for year in (ref.year - 1, ref.year, ref.year + 1):
        try:
            options.append(date(year, month, day))
        except ValueError:  # February 29 outside a leap year
            continue
    if not options:
        raise ValueError(f"no such day: {month}/{day}")
    return min(options, key=lambda d: (abs((d - ref).days), d < ref))


def yearless_dates(text: str, ref: date | None = None) -> list[tuple[str, date]]:
    """The days the text writes without a year, as written, and the date each is read as."""
    ref = ref or today()
    rx = next(rx for rx, kind in DATE_RES if kind == "md")
    out = []
    for m in rx.finditer(text):
        try:
            out.append((m.group(0).strip(), nearest_year(MONTHS[m.group(1).lower()[:3]], int(m.group(2)), ref)))
        except (ValueError, KeyError):
            continue
    return out


def dated_clause(text: str, at: tuple[int, int] | None = None) -> str:
    """The sentence that dates something ("We start a street excavation on Tuesday, May 30,
    2028."): its words name the event a deadline counts from; the whole text when no date.
    ``at``: the span of a date the reading stage read ("two weeks after Memorial Day next year")."""
    found = sorted(dates_in(text))
    if not found and at is None:
        return text
    if found:
        pos = found[0][0]
        end = max((m.end() for rx, _ in DATE_RES if (m := rx.match(text, pos))), default=pos)  # past "Apr. 5"
    else:
        pos, end = at
    starts = [m.end() for m in re.finditer(r"[.?!;](?:\s|$)", text) if m.end() <= pos]
    ends = [m.start() for m in re.finditer(r"[?!;]|\.(?:\s|$)", text) if m.start() >= end]
    start = starts[-1] if starts else 0
    if starts and _PRONOUN_SUBJECT.match(text, start):
        # "... and mailed me a bill. It came last Thursday.": the pronoun's sentence before says what came
        start = starts[-2] if len(starts) > 1 else 0
    return text[start:(ends[0] + 1 if ends else len(text))]


_PRONOUN_SUBJECT = re.compile(r"\s*(?:it|that|this|they|those|these|both|one)\b(?!\s+(?:is|was)\s+(?:a|an|the)\b)", re.I)


def without_dates(text: str) -> str:
    """The text with its dates and times blanked out."""
    for rx, _ in DATE_RES:
        text = rx.sub(" ", text)
    return TIME_RE.sub(" ", text)


def dates_in(text: str, ref: date | None = None) -> list[tuple[int, date]]:
    """(position, date) for every date written in the text."""
    ref = ref or today()
    out: list[tuple[int, date]] = []
    taken: list[tuple[int, int]] = []
    for rx, kind in DATE_RES:
        for m in rx.finditer(text):
            if any(a <= m.start() < b for a, b in taken):
                continue
            try:
                if kind == "mdy":
                    d = date(int(m.group(3)), MONTHS[m.group(1).lower()[:3]], int(m.group(2)))
                elif kind == "iso":
                    d = date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
                elif kind == "us":
                    d = date(int(m.group(3)), int(m.group(1)), int(m.group(2)))
                elif kind == "md":
                    d = nearest_year(MONTHS[m.group(1).lower()[:3]], int(m.group(2)), ref)
                else:
                    d = date(int(m.group(2)), MONTHS[m.group(1).lower()[:3]], 1)
            except (ValueError, KeyError):
                continue
            taken.append((m.start(), m.end()))
            out.append((m.start(), d))
    for m in re.finditer(r"\b(today|tomorrow|yesterday)\b", text, re.I):
        word = m.group(1).lower()
        out.append((m.start(), ref + relativedelta(days={"today": 0, "tomorrow": 1, "yesterday": -1}[word])))
    for m in re.finditer(rf"\blast\s+{_MON}\b", text, re.I):
        month = MONTHS[m.group(1).lower()[:3]]
        year = ref.year if month < ref.month else ref.year - 1
        out.append((m.start(), date(year, month, 1)))
    for m in re.finditer(r"\b(\d+(?:\s+\d/\d)?|\d+\.\d+|a|one|two|three|four|five|six)\s+(years?|months?)\s+ago\b", text, re.I):
        n = _number(m.group(1))
        months = int(round(n * 12)) if m.group(2).lower().startswith("year") else int(round(n))
        out.append((m.start(), ref - relativedelta(months=months)))
    return sorted(out)


def _number(word: str) -> float:
    words = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
    w = word.lower().strip()
    if w in words:
        return float(words[w])
    if " " in w:
        whole, frac = w.split()
        return float(int(whole) + Fraction(frac))
    if "/" in w:
        return float(Fraction(w))
    return float(w)


def paving_date(text: str) -> date | None:
    """The date of the final paving: the date near 'paved/repaved/resurfaced'."""
    found = dates_in(text)
    for pos, d in found:
        before = text[max(0, pos - 60):pos].lower()
        if re.search(r"pav|surfac|asphalt|blacktop|laid|new street", before):
            return d
    m = re.search(r"(pav|surfac)\w*\s+(?:\w+\s+){0,4}?(\d+(?:\s+\d/\d)?|\d+\.\d+|a|one|two|three|four|five|six)\s+(years?|months?)\s+ago", text, re.I)
    if m:
        return dates_in(m.group(0))[-1][1] if dates_in(m.group(0)) else None
    return found[0][1] if len(found) >= 2 else None


def opening_date(text: str) -> date | None:
    found = dates_in(text)
    for pos, d in found:
        before = text[max(0, pos - 60):pos].lower()
        if re.search(r"open|dig|excavat|cut|start|work|on\s*$", before) and not re.search(r"pav|surfac", before[-25:]):
            return d
    return found[-1][1] if len(found) >= 2 else None


def event_moment(text: str) -> date | datetime | None:
    found = dates_in(text)
    if not found:
        return None
    pos, d = found[0]
    tm = TIME_RE.search(text)
    if tm:
        if tm.group(4):
            t = time(12, 0) if tm.group(4).lower() == "noon" else time(0, 0)
        else:
            t = time(clock_hour(tm.group(1), tm.group(3)), int(tm.group(2) or 0))
        return datetime.combine(d, t)
    return d


MONEY_RE = re.compile(r"\$\s?(\d[\d,]*(?:\.\d{1,2})?)")


def money_all(text: str) -> list[Decimal]:
    return [Decimal(m.group(1).replace(",", "")) for m in MONEY_RE.finditer(text)]


def money(text: str) -> Decimal | None:
    found = money_all(text)
    return found[0] if found else None


def labelled_money(text: str, labels: tuple[str, ...]) -> dict[str, Decimal]:
    """'labor $1,200, materials $450' or '$1,200 of labor': each label's amount."""
    out = {}
    for label in labels:
        m = re.search(rf"\b{label}\w*[\s:=-]{{0,4}}(?:of|was|is|cost|costs|at)?\s*\$\s?(\d[\d,]*(?:\.\d{{1,2}})?)", text, re.I) \
            or re.search(rf"\$\s?(\d[\d,]*(?:\.\d{{1,2}})?)\s+(?:(?:of|for|in)\s+)?{label}", text, re.I)
        if m:
            out[label] = Decimal(m.group(1).replace(",", ""))
    return out


_WORDNUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "single": 1}


def _count(word: str) -> int | None:
    w = word.lower()
    return int(w) if w.isdigit() else _WORDNUM.get(w)


def counts(text: str) -> list[int]:
    out = []
    for m in re.finditer(r"\b(\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:property\s+)?"
                         r"(?:owners|homes|houses|lots|properties)\b", text, re.I):
        out.append(_count(m.group(1)))
    return out


def snow_work(text: str) -> tuple[list[dict], int] | None:
    """Employees' hours and rates, and the number of occasions, for a snow-removal charge."""
    rate = money(text)
    m = re.search(r"(\d+(?:\.\d+)?|one|two|three|four|five|six)\s*(?:hours?|hrs?)\b", text, re.I)
    if rate is None or m is None:
        return None
    per = Decimal(str(_number(m.group(1))))
    occ_m = re.search(r"\b(\d+|one|two|three|four|five|six)\s+(?:separate\s+)?(?:occasions|times|visits)\b", text, re.I)
    occasions = _count(occ_m.group(1)) if occ_m else 1
    emp_m = re.search(r"\b(\d+|one|two|three|four|five|six)\s+(?:village\s+)?(?:employees|workers|crew members|people)\b", text, re.I)
    n = _count(emp_m.group(1)) if emp_m else 1
    per_occasion = bool(re.search(r"each (?:time|occasion|visit)|per (?:occasion|visit)", text, re.I))
    hours_each = per * occasions if per_occasion else per
    return [{"hours": str(hours_each), "hourly_rate_including_benefits": str(rate)} for _ in range(n)], occasions


_PD_BEFORE = re.compile(r"\b(?:property\s+damage|pd)(?:\s+(?:coverage|limit|insurance|liability))?"
                        r"(?:\s+(?:is|of|at|was|were|are|has|for))*\W*$", re.I)
_PERSON_BEFORE = re.compile(r"\b(?:per|each|a)\s+person(?:\s+(?:is|of|at|was|limit))*\W*$", re.I)
_ACCIDENT_BEFORE = re.compile(r"\b(?:per|each|an?)\s+(?:accident|occurrence)(?:\s+(?:is|of|at|was|limit))*\W*$", re.I)


def insurance_limits(text: str, amounts: list[tuple[int, int, Decimal]] | None = None) -> dict[str, Decimal]:
    """Limits written on a certificate, by the words next to each amount. ``amounts``: (start, end, value) of each
    amount the reading of the text found (worded ones too: "seven-fifty K"); the dollar figures written when None."""
    out: dict[str, Decimal] = {}
    if amounts is None:
        amounts = [(m.start(), m.end(), Decimal(m.group(1).replace(",", ""))) for m in MONEY_RE.finditer(text)]
    for start, end, value in sorted(amounts):
        after = text[end:end + 40].lower()
        before = text[max(0, start - 30):start].lower()
        # (the words right after an amount name it before any words before it: "fifteen thousand per person,
        # twenty-five thousand per accident": the second is per accident, though "per person" comes before it)
        pd_after = re.match(r"\s*(?:(?:for|on|in|of)\s+)?(?:property damage|pd)\b", after)
        person_after = re.match(r"\s*(?:per|each|a)\s+person", after)
        accident_after = re.match(r"\s*(?:per|each|an?)\s+(?:accident|occurrence)", after)
        named_after = pd_after or person_after or accident_after
        if pd_after or (not named_after and _PD_BEFORE.search(before) and "each accident" not in after[:5]):
            out.setdefault("property_damage_limit", value)
        elif person_after or (not named_after and _PERSON_BEFORE.search(before)):
            out.setdefault("per_person_limit", value)
        elif accident_after or _ACCIDENT_BEFORE.search(before):
            key = "property_damage_limit" if re.search(r"property damage[^$]*$", before) else "per_accident_limit"
            out.setdefault(key, value)
    return out


def hours(text: str) -> Decimal | None:
    m = re.search(r"(\d+(?:\.\d+)?)\s*(?:hours?|hrs?)\b", text, re.I)
    return Decimal(m.group(1)) if m else None


# a mention the writer denies: "not an emergency", "no emergency", "non-emergency" before it (within its
# clause), "... is not the issue" / "isn't" / "wasn't" right after it
_DENIED_BEFORE = re.compile(r"(?:\b(?:not|no|never|nothing|neither|none|without|isn[’']?t|wasn[’']?t|aren[’']?t|weren[’']?t)\b|\bnon-?)"
                            r"(?:\s+(?:a|an|the|any|really|truly|exactly|some|kind of|sort of)\b)*"
                            r"(?:\s+[\w’'-]+){0,2}\s*-?$", re.I)
_DENIED_AFTER = re.compile(r"^[\w’'-]*(?:\s+[\w’'-]+){0,2}?(?:[’']s\s+not|\s+(?:is|was|are|were)\s+not|"
                           r"\s+(?:isn[’']?t|wasn[’']?t|aren[’']?t|weren[’']?t))\b", re.I)


def affirmed(pattern: str | re.Pattern, text: str) -> bool:
    """Whether the text says the thing the pattern names, not only denies it ("Not a winter emergency
    job", "Emergency's not the issue here"): a match counts when its own clause does not negate it."""
    rx = pattern if isinstance(pattern, re.Pattern) else re.compile(pattern, re.I)
    for m in rx.finditer(text):
        start = max(text.rfind(c, 0, m.start()) for c in ".;:!?—,\n") + 1
        before = text[start:m.start()]
        end = min([i for i in (text.find(c, m.end()) for c in ".;:!?—,\n") if i >= 0] or [len(text)])
        after = text[m.start():end]
        if _DENIED_BEFORE.search(before) or _DENIED_AFTER.search(after):
            continue
        return True
    return False


# ("our water main let go", and a main or pipe named alone: "if a main lets go and we have to dig it up")
_EMERGENCY = re.compile(r"\bemergenc|\bburst|\bbroken (?:water|gas|sewer)|\bgas leak|"
                        # ("Had a leak last Friday night and dug up part of the street right away")
                        r"\b(?:had|got|found|discovered|there was|there's|was) an? (?:\w+ )?(?:leak|main break|water main break)\b|"
                        # the failure said before the main ("a leaking main", "a ruptured 8-inch gas line")
                        r"\b(?:leak(?:ing|y)|busted|ruptured|collapsed|failed|split|cracked) (?:[\w\"-]+ ){0,2}?"
                        r"(?:(?:water|gas|sewer|service) (?:main|line|pipe|lateral)|(?:water|gas|sewer) service|main|pipe|lateral)s?\b|"
                        r"\b(?:(?:water|gas|sewer) (?:main|line|pipe|service|lateral)s?|(?:a|the|our|their|that|this) "
                        r"(?:main|pipe))(?: [\w.]+){0,4}? (?:started |was |is |has )?"
                        r"(?:broke|break|breaks|bursts?|fail(?:s|ed)?|leak\w*|blew|blows?|blown|ruptur(?:es|ed)|collaps(?:es|ed)|"
                        r"splits?|crack(?:s|ed)|gave way|gives way|caved in|caves in|let go|lets go|gave out|gives out|"
                        r"popped|pops|sprang a leak|sprung a leak|springs a leak)", re.I)


def is_emergency(text: str) -> bool:
    return affirmed(_EMERGENCY, text)


_LEN = re.compile(r"(\d+(?:\.\d+)?(?:\s+\d/\d)?|\d/\d)\s*(?:-\s*)?(feet|foot|ft\.?|inch(?:es)?|in\.|\"|')", re.I)


def _unit(u: str) -> str:
    u = u.lower()
    return "ft" if u.startswith(("f", "'")) else "in"


def lengths(text: str, unit: str) -> list[Decimal]:
    """Every length written in the text in the given unit ('ft' or 'in')."""
    return [Decimal(str(_number(m.group(1)) if " " in m.group(1) or "/" in m.group(1) else m.group(1)))
            for m in _LEN.finditer(text) if _unit(m.group(2)) == unit]


def length_near(text: str, words: tuple[str, ...], unit: str) -> Decimal | None:
    """The length in ``unit`` written closest after (or just before) one of ``words``."""
    best = None
    for m in _LEN.finditer(text):
        if _unit(m.group(2)) != unit:
            continue
        before = text[max(0, m.start() - 40):m.start()].lower()
        for w in words:
            i = before.rfind(w)
            if i >= 0:
                dist = len(before) - i
                if best is None or dist < best[0]:
                    best = (dist, m.group(1))
    if best is None:
        return None
    raw = best[1]
    return Decimal(str(_number(raw))) if (" " in raw or "/" in raw) else Decimal(raw)


# a turn that changes what the conversation worked out ("Oh wait, they added $450 to the final cost. Now what?",
# "Start got pushed to Thursday the 19th. New deadline?", "What if we open it October 16 instead?")
CHANGES_EARLIER = re.compile(
    r"^\W*(?:(?:oh|hmm+|um+|uh+|ok(?:ay)?|sorry|well|hang on|hold on)\W+)*(?:wait|actually|scratch that|change of plans?|"
    r"correction|update)\b|\bwhat then\s*\?|"
    # ("checked the paperwork, permit and address were actually the 6th": a value of the earlier turn corrected)
    r"\b(?:was|were|is|are|it's|it was)\s+actually\s+(?:the|on|in|at|a|an|\$?\d)|\bdoes (?:that|this|it) change (?:it|that|anything|things)\b|"
    r"\b(?:got|was|been|is|has been|were|are)\s+(?:pushed|moved|bumped|changed|rescheduled|delayed|postponed)\b|"
    r"\binstead\b[^.?!]*\?|\bnew (?:deadline|date|day|total|charge|amount|bill|figure|window)\b|"
    r"\b(?:total|deadline|bill|charge)\s+now\b|\bnow what\b|\bsame (?:rate|time|employee|guy|crew|property|street)\b",
    re.I)
