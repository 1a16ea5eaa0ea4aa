"""The reading stage: a turn of the conversation (question + history) becomes one typed
``Query``, built once and passed down; no later stage re-reads the question string for
values.

Every value the user wrote — a date, a time, an amount of money, a duration, a length, a
weight, a count, a percent — becomes a ``Slot`` holding the exact characters it came from
(``Span``): which text (this turn or the earlier user turn it continues) and where in it.
Calculators are fed only from slots (or from defaults the calculator declares), and the
answer shows what was read.

Worded integers ("twenty-four", "three hundred and forty") are read with the text2num
library; fractions written as words ("one and a half", "two and a half") and feet-inches
("5'6\"", "five foot six") are read here. dateparser's ``search_dates`` and quantulum3 were
tried and not used: on this domain's sentences dateparser read "we" as a Wednesday, "1/2" as
January 2 and "June and we" as a date; quantulum3's unit classifier fails to load with the
current scikit-learn.
"""

from __future__ import annotations

import functools
import re
from datetime import date
from decimal import Decimal
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Literal

from dateutil.relativedelta import relativedelta
from pydantic import BaseModel, ConfigDict, Field

from assistant.answering import slots as dates

SlotKind = Literal["date", "time", "money", "duration", "length", "weight", "count", "percent"]
Origin = Literal["turn", "earlier"]
MunicipalitySource = Literal["request", "named", "kind", "conversation", "none"]
Asks = Literal["rule", "figure", "date", "yes_no"]


class Span(BaseModel):
    """Where a value was read: which text, and the characters [start, end) of it."""

    model_config = ConfigDict(frozen=True)

    origin: Origin = Field(description="'turn' = this turn's words; 'earlier' = the earlier user turn it continues.")
    start: int
    end: int
    text: str = Field(description="The characters read, verbatim.")

    def overlaps(self, other: "Span") -> bool:
        return self.origin == other.origin and self.start < other.end and other.start < self.end


class Slot(BaseModel):
    """One value the user wrote."""

    model_config = ConfigDict(frozen=True)

    kind: SlotKind
    value: str = Field(description="ISO date, HH:MM, or a decimal number as text.")
    unit: str | None = Field(default=None, description="'ft' / 'in' / 'hours' / 'days' / 'tons' / what is counted.")
    span: Span
    precision: Literal["day", "week", "month", "year"] | None = Field(
        default=None, description="Dates: how precisely the words name the day ('in 2017' = year).")
    days: tuple[date, date] | None = Field(
        default=None, description="Dates whose words name a stretch no week, month or year holds: the first and last "
        "day they may mean ('last fall': September 1 to November 30; in December, either of the last two falls).")
    before: str = Field(default="", description="Up to 60 characters before the span, lower case (its cue words).")
    after: str = Field(default="", description="Up to 40 characters after the span, lower case.")
    worked: str = Field(default="", description="How a value worked out from the words was got, in their words only.")

    @property
    def number(self) -> Decimal:
        return Decimal(self.value)

    @property
    def day(self) -> date:
        return date.fromisoformat(self.value)

    def label(self) -> str:
        return f"“{self.span.text}”"

    def holds(self, d: date) -> bool:
        """Whether the stretch a coarse date's words name (its days, week, month or year) holds the day ``d``."""
        if self.days is not None:
            return self.days[0] <= d <= self.days[1]
        first = self.day
        if self.precision == "week":
            return first <= d <= first + relativedelta(days=6)
        if self.precision == "month":
            return (first.year, first.month) == (d.year, d.month)
        if self.precision == "year":
            return first.year == d.year
        return False


class Query(BaseModel):
    """One turn, read."""

    model_config = ConfigDict(frozen=True)

    turn: str = Field(description="This turn's words, with any injected instruction removed.")
    earlier: str = Field(default="", description="The earlier user turn this one continues (follow-up or reply).")
    text: str = Field(description="What retrieval reads: the earlier topic and this turn.")
    follow_up: bool = Field(default=False, description="A short follow-up keeping the earlier topic.")
    clarified: bool = Field(default=False, description="A reply to a clarifying question of ours.")
    municipality: str | None = None
    municipality_from: MunicipalitySource = "none"
    asks: Asks = "rule"
    figure: str | None = Field(default=None, description="The kind of figure asked ('money', 'width', ...).")
    slots: tuple[Slot, ...] = ()
    removed: tuple[str, ...] = Field(default=(), description="Instructions found in the question and ignored.")
    asked: str = Field(default="", description="Our clarifying question this turn replies to, if any.")
    answered: str = Field(default="", description="Our answer to the turn before, if any (what a follow-up changes).")

    def of(self, kind: SlotKind, origin: Origin | None = None) -> list[Slot]:
        return [s for s in self.slots if s.kind == kind and (origin is None or s.span.origin == origin)]

    def of_origin(self, origin: Origin) -> list[Slot]:
        return [s for s in self.slots if s.span.origin == origin]

    def source(self, origin: Origin) -> str:
        return self.turn if origin == "turn" else self.earlier


# -- numbers written as words ------------------------------------------------------------
_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
          "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety").split()
_NUMBER_WORD = r"(?:" + "|".join(_UNITS) + r"|hundred|thousand|million)"
WORDED = re.compile(rf"(?:\ba\s+(?=hundred|thousand|million))?\b{_NUMBER_WORD}(?:(?:[\s-]+|\s+and\s+){_NUMBER_WORD})*\b",
                    re.I)  # "a thousand": the article is one
_SMALL = {"a": 1, "an": 1, "one": 1, "a single": 1, "single": 1, "a couple of": 2, "a couple": 2, "a pair of": 2,
          "a dozen": 12, "dozen": 12, "half a dozen": 6, "a half": Decimal("0.5"), "half an": Decimal("0.5"),
          "half a": Decimal("0.5")}
_FRACTION_WORDS = {"half": Decimal("0.5"), "quarter": Decimal("0.25"), "third": Decimal(1) / 3}


def worded_number(words: str) -> Decimal | None:
    """'twenty-four' -> 24, 'three hundred and forty' -> 340 (text2num)."""
    from text_to_num import text2num

    w = re.sub(r"\s+", " ", words.lower().replace("-", " ")).strip()
    w = re.sub(r"^a (?=hundred|thousand|million)", "one ", w)
    if w in _SMALL:
        return Decimal(_SMALL[w])
    if w.endswith(" dozen"):  # "two dozen": 24
        n = worded_number(w.removesuffix(" dozen"))
        return n * 12 if n is not None else None
    try:
        return Decimal(text2num(w, "en"))
    except ValueError:
        try:
            return Decimal(text2num(w.replace(" and ", " "), "en"))
        except ValueError:
            pass
    # "two thousand seven-fifty": thousands, then hundreds said as two numbers (2,750)
    m = re.fullmatch(r"(?P<t>.+?) thousand (?:and )?(?P<h>one|two|three|four|five|six|seven|eight|nine) (?P<r>\w+(?: \w+)?)", w)
    if m:
        t, h, r = worded_number(m.group("t")), worded_number(m.group("h")), worded_number(m.group("r"))
        if t is not None and h is not None and r is not None and 10 <= r <= 99 and t == int(t):
            return t * 1000 + h * 100 + r
    return None


# a decimal comma ("1,5 hrs", "31,50/hr": one or two digits after it, never three) is a decimal point
_DIGITS = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+,\d{1,2}(?![\d,])|\d+(?:\.\d+)?"


def digits_value(text: str) -> Decimal:
    """'1,500' -> 1500; '1,5' (a decimal comma) -> 1.5; '2.25' -> 2.25."""
    if re.fullmatch(r"\d+,\d{1,2}", text):
        return Decimal(text.replace(",", "."))
    return Decimal(text.replace(",", ""))
# a number: digits, a mixed number ("2 1/2"), a fraction, words, and "and a half"
NUMBER = re.compile(
    rf"(?P<num>(?:(?<![A-Za-z])(?P<digits>{_DIGITS})(?:\s+(?P<frac>\d/\d{{1,2}}))?|(?P<lonefrac>\d/\d{{1,2}})|"
    rf"(?P<words>\b(?:two|three|four|five|six|seven|eight|nine|ten)\s+dozen\b|{WORDED.pattern}|"
    rf"\b(?:a couple of|a couple|a pair of|half a dozen|a dozen|an?|a single)\b))"
    rf"(?P<andfrac>\s+and\s+(?P<fn>a|one|two|three)[\s-]+(?P<fw>halfs?|quarters?|thirds?))?(?P<halfword>\s+(?:and\s+)?a\s+half)?"
    r"(?P<mult>\s+(?:hundred|thousand|million)\b)?"  # "seven and a half thousand": the fraction, then the multiplier
    r"|\b(?P<bare>half an?|a half)\b)",
    re.I,
)


def number_value(m: re.Match) -> Decimal | None:
    if m.group("bare"):
        return Decimal("0.5")
    if m.group("digits"):
        v = digits_value(m.group("digits"))
        if m.group("frac"):
            a, b = m.group("frac").split("/")
            v += Decimal(a) / Decimal(b)
    elif m.group("lonefrac"):
        a, b = m.group("lonefrac").split("/")
        v = Decimal(a) / Decimal(b)
    else:
        v = worded_number(m.group("words"))
        if v is None:
            return None
    # "a thousand and a half": half of the last multiplier written, not half a unit
    scale = Decimal(1)
    if m.group("words") and not m.group("mult"):
        last = m.group("words").lower().split()[-1].split("-")[-1]
        scale = {"hundred": Decimal(100), "thousand": Decimal(1000), "million": Decimal(1_000_000)}.get(last, scale)
    if m.group("fw"):
        times = {"a": 1, "one": 1, "two": 2, "three": 3}[m.group("fn").lower()]
        v += times * _FRACTION_WORDS[m.group("fw").lower().rstrip("s")] * scale
    elif m.group("halfword"):
        v += Decimal("0.5") * scale
    if m.group("mult"):
        v *= {"hundred": 100, "thousand": 1000, "million": 1_000_000}[m.group("mult").strip().lower()]
    return v


def _norm(d: Decimal) -> str:
    d = d.quantize(Decimal("0.0001")).normalize() if d == d.to_integral_value() or abs(d) < 10**9 else d
    s = format(d.normalize(), "f")
    return s


# -- the slots of a text -----------------------------------------------------------------------
_PER_UNIT = r"(?P<per>\s*(?:/\s*|an?\s+|per\s+|each\s+)(?P<pu>hour|hr|occasion|day|foot|square foot|ton)\b)?"
# "thirty-eight dollars an hour": the rate's unit belongs to the amount, never a duration of its own
_CENTS = rf"(?:\s+and\s+(?:(?P<cents>{WORDED.pattern}|\d{{1,2}})\s+cents?|a\s+(?P<cfrac>quarter|half)))?"
_MONEY_WORDS = re.compile(rf"(?P<n>{NUMBER.pattern}|(?<![\w-])an(?=\s+(?:even|flat)\s+grand\b))\s*"
                          # ("an even grand", "a flat grand": a thousand said round)
                          rf"(?:(?<=\s)(?:even|flat)\s+(?=grand\b))?(?P<u>dollars?|bucks|grand|k\b)"
                          rf"(?P<plus>\s+and\s+(?:(?:{'|'.join(_UNITS[1:10])})\s+hundred(?:\s+(?:and\s+)?{WORDED.pattern})?|\d{{3}})\b"
                          r"(?!\s*(?:cents?|feet|foot|ft|inch|pounds?|lbs?|tons?|hours?|days?|weeks?|months?|years?|percent|%|-)))?"
                          # "two grand and four hundred", "two grand and 400"
                          + _CENTS + _PER_UNIT, re.I)
_MONEY = re.compile(rf"\$\s?(?P<v>{_DIGITS})(?:\s*(?P<mult>thousand|million|k)\b)?" + _PER_UNIT, re.I)
_HALF = r"(?P<uhalf>\s+and\s+(?P<ufn>a|one|two|three)\s+(?P<ufw>halfs?|quarters?|thirds?))?"  # "an hour and three quarters"


def _after_unit(m: re.Match) -> Decimal:
    """The fraction written after the unit ("an hour and a half", "a foot and three quarters")."""
    if not m.group("uhalf"):
        return Decimal(0)
    return {"a": 1, "one": 1, "two": 2, "three": 3}[m.group("ufn").lower()] * _FRACTION_WORDS[m.group("ufw").lower().rstrip("s")]
_DURATION = re.compile(rf"(?P<n>{NUMBER.pattern})[\s-]*(?P<u>hours?|hrs?\.?|days?|weeks?|wks?\.?|months?|mos?\.?|years?|yrs?\.?|"
                       rf"minutes?|mins?)\b{_HALF}", re.I)  # ("18 mos", "2 yrs", "3 wks": the units as abbreviated)
_UNIT_ABBREVIATIONS = {"hr": "hours", "hrs": "hours", "min": "minutes", "mins": "minutes", "mo": "months", "mos": "months",
                       "yr": "years", "yrs": "years", "wk": "weeks", "wks": "weeks"}
_HOURS_THEN_MINUTES = re.compile(r"\s*,?\s*(?:and\s+)?")
_COMPOUND = {"minutes": ("hours", 60), "months": ("years", 12), "days": ("weeks", 7)}  # smaller unit: (larger, factor)
_SMALLER = {"years": ("months", "weeks", "days"), "months": ("weeks", "days"), "weeks": ("days",)}
_FEET_INCHES = re.compile(
    r"(?P<ft>\d+(?:\.\d+)?)\s*(?:'|’|ft\.?|feet|foot)\s*(?:,?\s*(?:and\s+)?)?(?P<in>\d+(?:\.\d+)?)"
    r"(?!\s*(?:'(?!')|’|ft\b|feet\b|foot\b))\s*(?:\"|”|''|inch(?:es)?|in\.?)?"  # ("2' and 8'": two lengths, a range)
    r"(?![\d/])", re.I)
_LENGTH = re.compile(rf"(?P<n>{NUMBER.pattern})\s*(?:-\s*)?(?P<u>feet|foot|ft\.?|yards?\b|yds?\.?|inch(?:es)?|in\.(?!\w)|"
                     # ("my base course is 4 in, how deep ...", "6 in thick": "in" closing its clause or before a measure)
                     rf"in(?=\s*(?:[,;?!)]|$)|\s+(?:thick|deep|wide|tall|high|long)\b)|\"|”|['’](?!(?:s|d|ll)\b)){_HALF}", re.I)  # ("sub one's": no feet)
# a metric length ("1.5 meters", "40 cm"): held in inches, 2.54 centimeters to the inch (the definition)
_METRIC = re.compile(rf"(?P<n>{NUMBER.pattern})\s*(?:-\s*)?(?P<u>millimet(?:er|re)s?\b|mm\b|centimet(?:er|re)s?\b|cm\b|"
                     r"met(?:er|re)s?\b)", re.I)
_CM_PER = {"mi": Decimal("0.1"), "mm": Decimal("0.1"), "ce": Decimal(1), "cm": Decimal(1), "me": Decimal(100)}
_OUT_OF = re.compile(r"\b(?P<a>\d{1,4})\s+(?:out\s+)?of\s+(?:(?:the|our|my|his|her|their)\s+)?(?P<b>\d{1,4})\s+(?:\w+\s+)?(?P<u>blocks|squares|slabs|sections)\b",
                     re.I)
_OUT_OF_BARE = re.compile(r"(?<![\d.,$])\b(?P<a>\d{1,4})\s+out\s+of\s+(?P<b>\d{1,4})\b(?![\d.,]?\d)"
                          r"(?!\s*(?:%|percent|feet|foot|ft|inch|in\b|hours?|days?|tons?|pounds?|lbs?|dollars?))", re.I)
_WORD_FOOT_INCH = re.compile(rf"(?P<ft>{WORDED.pattern}|\ban?(?=\s+foot))\s+(?:foot|feet)\s+(?:and\s+)?(?P<in>{WORDED.pattern})\b"
                             r"(?:\s+inch(?:es)?\b)?(?!\s*(?:feet|foot))", re.I)
_TONS_AND_POUNDS = re.compile(r"(?<![\d.,])(?P<t>\d+(?:\.\d+)?)\s*tons?\s*,?\s*(?:and\s+)?(?P<p>\d[\d,]*)\s*"
                              r"(?:pounds?|lbs?\.?)(?![a-z])", re.I)
_WEIGHT = re.compile(rf"(?P<n>{NUMBER.pattern})\s*(?:-\s*)?(?P<u>tons?|pounds?|lbs?\.?)\b{_HALF}", re.I)
_PERCENT = re.compile(rf"(?P<n>{NUMBER.pattern})\s*(?:%|percent\b|per cent\b)", re.I)
_COUNT = re.compile(
    rf"(?P<n>{NUMBER.pattern})\s+(?:(?:separate|different|more|other|village(?:'s)?|town(?:'s)?|city(?:'s)?|full[- ]time|property|"
    r"sidewalk|concrete|new|small|shopping|wireless|of\s+(?:our|the|my|its|their|his|her|your|us|them))\s+){0,2}"
    r"(?P<u>employees?|workers?|crew members?|people|persons?|men|guys|staff|occasions?|times|visits?|trips?|"
    r"(?:home|land|property\s+)?owners?|"
    r"homes?|houses?|lots?|properties|parcels?|blocks?|squares?(?!\s+(?:feet|foot|ft|yards?|inch))|slabs?|sections?|rows?|"
    r"openings?|cuts?|permits?|residents?|households?|neighbou?rs?|signatures?|signers?|dwellings?|(?:dwelling\s+)?units?|"
    r"apartments?|businesses|members?|"
    # things a chapter counts ("240 new plants", "nine newsracks", "seven small cells", "12 carts")
    r"trees?|plants?|plantings?|shrubs?|newsracks?|news\s?boxes|boxes|carts?|poles?|cells?|facilities)\b",
    re.I,
)
# "two public works guys", "3 of the Village's snow crew members": a head count whose noun comes after a few
# describing words (never a unit or a joining word: "2 dollars to the guys" counts no one)
_PEOPLE_COUNT = re.compile(
    rf"(?P<n>{NUMBER.pattern})\s+(?:(?!(?:to|for|at|with|and|or|from|in|on|by|per|each|an?|dollars?|bucks|hours?|hrs?|"
    r"minutes?|mins?|feet|foot|ft|inches?|days?|weeks?|months?|years?|times?)\b)[a-z]+(?:'s)?\s+){1,3}"
    r"(?P<u>employees|workers|crew members|people|persons|men|guys|staff|laborers|labourers)\b", re.I)
# "a crew of 2", "crew of three", "a 3-man crew", "a two-person crew": the workers a crew counts
_CREW_OF = (re.compile(r"\bcrew\s+of\s+(?P<n>[\w-]+(?:\s+[\w-]+)?)", re.I),
            re.compile(r"(?P<n>[\w-]+?)[- ](?:man|person|member|guy)\s+crew\b", re.I))
# "village guys came ... two of them, an hour and a quarter each": a head count of the people named before it
_OF_THEM = re.compile(rf"(?P<n>{NUMBER.pattern})\s+of\s+(?:them|those)\b", re.I)
_PEOPLE_BEFORE = re.compile(r"\b(?P<u>employees|workers|crew\s+members|crews?|people|persons|men|guys|staff|laborers|"
                            r"labourers|plow\s+drivers|drivers)\b", re.I)
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
_ORDINAL = re.compile(r"\b(" + "|".join(_ORDINALS) + r")\s+(rows?|sections?|tiers?)\b", re.I)
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "fall": (9, 11), "autumn": (9, 11), "winter": (12, 2)}
# a season's stretch: from the first day of its first month (meteorological) to the day before the next solstice or
# equinox (astronomical, the 20th of the month after its last) — people mean either, so a figure must hold for both
_SEASON_SPAN = relativedelta(months=3, days=19)


def _slot(kind, value, unit, text, origin, start, end, precision=None) -> Slot:
    return Slot(kind=kind, value=value, unit=unit, precision=precision,
                span=Span(origin=origin, start=start, end=end, text=text[start:end]),
                before=text[max(0, start - 60):start].lower(), after=text[end:end + 40].lower())


WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
# holiday names as people write them -> the holidays package's name (general English, US)
_HOLIDAY_NAMES = {"thanksgiving": "Thanksgiving Day", "thanksgiving day": "Thanksgiving Day",
                  "christmas": "Christmas Day", "christmas day": "Christmas Day", "new year's day": "New Year's Day",
                  "new year’s day": "New Year's Day", "new year's": "New Year's Day", "new year’s": "New Year's Day",
                  "new years day": "New Year's Day", "new years": "New Year's Day", "memorial day": "Memorial Day", "labor day": "Labor Day",
                  "independence day": "Independence Day", "the fourth of july": "Independence Day",
                  "fourth of july": "Independence Day", "4th of july": "Independence Day", "fourth": "Independence Day",
                  "veterans day": "Veterans Day", "columbus day": "Columbus Day", "juneteenth": "Juneteenth National Independence Day",
                  "martin luther king day": "Martin Luther King Jr. Day", "martin luther king jr. day": "Martin Luther King Jr. Day",
                  "mlk day": "Martin Luther King Jr. Day", "mlk jr. day": "Martin Luther King Jr. Day",
                  "presidents day": "Washington's Birthday", "president's day": "Washington's Birthday",
                  "presidents' day": "Washington's Birthday",
                  # days people date things by that are no legal holiday (general English, US): their own dates
                  "halloween": "Halloween", "valentine's day": "Valentine's Day", "valentine’s day": "Valentine's Day",
                  "valentines day": "Valentine's Day", "st. patrick's day": "St. Patrick's Day",
                  "st patrick's day": "St. Patrick's Day", "saint patrick's day": "St. Patrick's Day",
                  "christmas eve": "Christmas Eve", "new year's eve": "New Year's Eve", "new year’s eve": "New Year's Eve",
                  "new years eve": "New Year's Eve", "groundhog day": "Groundhog Day", "flag day": "Flag Day",
                  "easter": "Easter", "easter sunday": "Easter", "mother's day": "Mother's Day",
                  "mothers day": "Mother's Day", "father's day": "Father's Day", "fathers day": "Father's Day",
                  "black friday": "Black Friday"}
# ("the Tuesday before the Fourth": the Fourth alone, at the end of its clause, is the Fourth of July — read only as the
# day a weekday is before or after, never "the fourth week", "the 4th of the month")
_HOLIDAYS = sorted((re.escape(k) for k in _HOLIDAY_NAMES if k != "fourth"), key=len, reverse=True)
_THE_FOURTH = r"fourth(?=\s*(?:[.,;:?!)]|$))"
# the days of those that are no legal holiday: a fixed month and day, or worked out from the year
_FIXED_DAYS = {"Halloween": (10, 31), "Valentine's Day": (2, 14), "St. Patrick's Day": (3, 17), "Christmas Eve": (12, 24),
               "New Year's Eve": (12, 31), "Groundhog Day": (2, 2), "Flag Day": (6, 14)}


def holiday_days(want: str, years) -> list[date]:
    """Every day of a named holiday or observance in the years: a legal holiday from the holidays package (US, not
    observed), another named day from its own rule ("Halloween": October 31; "Mother's Day": the second Sunday of
    May; "Black Friday": the day after Thanksgiving)."""
    import holidays
    from dateutil.easter import easter

    out = []
    for y in years:
        if want in _FIXED_DAYS:
            out.append(date(y, *_FIXED_DAYS[want]))
        elif want == "Easter":
            out.append(easter(y))
        elif want in ("Mother's Day", "Father's Day"):
            first = date(y, 5 if want == "Mother's Day" else 6, 1)
            sunday = first + relativedelta(days=(6 - first.weekday()) % 7)
            out.append(sunday + relativedelta(weeks=1 if want == "Mother's Day" else 2))
        elif want == "Black Friday":
            out += [d + relativedelta(days=1) for d, n in holidays.US(years=[y], observed=False).items()
                    if n == "Thanksgiving Day"]
        else:
            out += [d for d, n in holidays.US(years=[y], observed=False).items() if n == want]
    return sorted(out)


_WHICH_YEAR = re.compile(r"\s*(?:of\s+)?(last|next|this)\s+year\b", re.I)


# a holiday's name used to name an event ("a Fourth of July parade", "the Labor Day block party")
_NAMES_AN_EVENT = re.compile(r"\s+(?:parade|party|block party|celebration|picnic|fireworks|festival|event|sale|"
                             r"weekend event|run|race|concert|fair)\b", re.I)


# a holiday's name used for a stretch of days around it, not its day
_NAMES_A_STRETCH = re.compile(r"['’]?s?\s+(?:days?\s+off|holidays|break|vacation|season|week(?:end)?|rush|shutdown|closures?)\b",
                              re.I)


def _holiday_near(name: str, ref: date, after: str = "", year: int | None = None) -> date | None:
    """The day of a named holiday nearest to ``ref`` (this year's, last year's or next year's);
    "Labor Day last year" / "Memorial Day next year": that year's, whichever is nearer; a year written
    ("Independence Day 2027"): that year's."""
    want = _HOLIDAY_NAMES.get(name.lower())
    years = [year] if year else range(ref.year - 1, ref.year + 2)
    days = holiday_days(want, years)
    which = _WHICH_YEAR.match(after)
    if which and not year:
        year = ref.year + {"last": -1, "next": 1, "this": 0}[which.group(1).lower()]
        days = [d for d in days if d.year == year]
    return min(days, key=lambda d: abs((d - ref).days)) if days else None


def _free(taken: list[tuple[int, int]], a: int, b: int) -> bool:
    return not any(x < b and a < y for x, y in taken)


def _dates(text: str, origin: Origin, ref: date, context: str = "") -> list[Slot]:
    out: list[Slot] = []
    taken: list[tuple[int, int]] = []

    def add(a, b, d, precision="day", stretch=None):
        if _free(taken, a, b):
            taken.append((a, b))
            slot = _slot("date", d.isoformat(), None, text, origin, a, b, precision)
            out.append(slot.model_copy(update={"days": stretch}) if stretch else slot)

    # "the Friday after Thanksgiving", "the day before Christmas": a named holiday (the holidays
    # package's names), the nearest such day to today (read first: "the Fourth of July" is no fourth day of July here)
    # ("the morning after the Fourth of July", "the night before Thanksgiving": a part of the day after or before it)
    for m in re.finditer(rf"\b(?:the\s+)?(day|morning|afternoon|evening|night|{'|'.join(WEEKDAYS)})\s+"
                         rf"(?:(?:right|just|immediately|directly)\s+)?"
                         rf"(after|before|following)\s+(?:the\s+)?({'|'.join(_HOLIDAYS)}|(?<=the\s){_THE_FOURTH})\b(?!\s+eve\b)"
                         rf"(?:,?\s*(?P<year>(?:19|20)\d\d)\b)?",
                         text, re.I):  # "the Tuesday right after Memorial Day 2027"
        day = _holiday_near(m.group(3), ref, text[m.end():m.end() + 20],
                            int(m.group("year")) if m.group("year") else None)
        if day is None:
            continue
        step = -1 if m.group(2).lower() == "before" else 1
        if m.group(1).lower() in ("day", "morning", "afternoon", "evening", "night"):
            day = day + relativedelta(days=step)
        else:
            wd = WEEKDAYS.index(m.group(1).lower())
            day = day + relativedelta(days=step)
            while day.weekday() != wd:
                day = day + relativedelta(days=step)
        add(m.start(), m.end(), day)
    # "the Saturday of Memorial Day weekend", "the Sunday of Labor Day weekend this year": the weekend a Monday holiday
    # ends (or a Friday holiday begins); a holiday on another day has no one weekend of its own, and is not read
    for m in re.finditer(rf"\b(?:the\s+)?(saturday|sunday)\s+(?:of|on|during)\s+(?:the\s+)?({'|'.join(_HOLIDAYS)})\s+"
                         rf"weekend\b(?:,?\s*(?P<year>(?:19|20)\d\d)\b)?", text, re.I):
        day = _holiday_near(m.group(2), ref, text[m.end():m.end() + 20],
                            int(m.group("year")) if m.group("year") else None)
        if day is None or day.weekday() not in (0, 4):
            continue
        wd = WEEKDAYS.index(m.group(1).lower())
        step = -1 if day.weekday() == 0 else 1
        while day.weekday() != wd:
            day = day + relativedelta(days=step)
        add(m.start(), m.end(), day)
    # "two years ago this June", "3 years ago last May": the month, that many years back
    for m in re.finditer(rf"(?P<n>{NUMBER.pattern})\s+years?\s+ago\s+(?:this\s+past|this|last|in)\s+(?:{dates._MON}|(?P<this_month>month))\b",
                         text, re.I):  # ("a year ago this month": this month, a year back)
        n = number_value(m)
        month = ref.month if m.group("this_month") else dates.MONTHS[m.group(m.lastindex).lower()[:3]]
        # "this June" = June of this year, come or gone ("two years ago this June", said in March: June two years
        # before the coming one); "last May", "this past May" = the latest May gone
        said = m.group(0).lower()
        this_year = ref.year if (re.search(r"\bago\s+this\s+(?!past)", said) or month <= ref.month) else ref.year - 1
        if n is not None and n == int(n):
            add(m.start(), m.end(), date(this_year - int(n), month, 1), "month")
    wds = "|".join(WEEKDAYS)
    # "the second Thursday of next month", "the first Monday in March": that weekday of that month
    for m in re.finditer(rf"\b(?P<nth>first|second|third|fourth|last)\s+(?P<wd>{wds})\s+(?:of|in)\s+(?:(?P<rel>next|this|last)"
                         rf"\s+(?P<per>month|year)|{dates._MON}(?:\s+(?P<y>(?:19|20)\d\d))?)\b", text, re.I):
        step = {"next": 1, "this": 0, "last": -1}[m.group("rel").lower()] if m.group("rel") else 0
        if m.group("rel") and m.group("per").lower() == "year":
            # "the first Monday of this year": of its first month ("the last Friday of next year": of its last)
            first = date(ref.year + step, 12 if m.group("nth").lower() == "last" else 1, 1)
        elif m.group("rel"):
            first = ref.replace(day=1) + relativedelta(months=step)
        else:
            month = dates.MONTHS[re.search(dates._MON, m.group(0).split(" of ")[-1].split(" in ")[-1], re.I).group(0).lower()[:3]]
            year = int(m.group("y")) if m.group("y") else (ref.year if month >= ref.month else ref.year + 1)
            first = date(year, month, 1)
        wd = WEEKDAYS.index(m.group("wd").lower())
        days = [first + relativedelta(days=i) for i in range(31) if (first + relativedelta(days=i)).month == first.month
                and (first + relativedelta(days=i)).weekday() == wd]
        nth = m.group("nth").lower()
        add(m.start(), m.end(), days[-1] if nth == "last" else days[("first", "second", "third", "fourth").index(nth)])
    # a day of a month in words or with "the" ("the twenty-third of November", "November the 23rd", "June 3rd, two
    # thousand twenty-five"): that day, in the year written (in figures or words), else the nearest
    for m in _WORDED_DAY.finditer(text):
        mon = m.group("m1") or m.group("m2")
        raw = m.group("d1") or m.group("d2")
        if m.group("m2") and mon.lower() in ("may", "march") and mon[0].islower():
            continue  # "we may first need ...", "march second": a verb (the month is written with a capital)
        dom = _ORDINAL_DAYS.get(raw.lower().replace(" ", "-")) if not raw[0].isdigit() else int(re.sub(r"\D", "", raw))
        if dom is None:
            continue
        year = None
        tail = _YEAR_AFTER.match(text, m.end())
        if tail:
            year = int(tail.group("y")) if tail.group("y") else _worded_year(tail.group("yw"))
        try:
            month = dates.MONTHS[mon.lower()[:3]]
            d = date(year, month, dom) if year else dates.nearest_year(month, dom, ref)
        except (ValueError, KeyError):
            continue
        add(m.start(), tail.end() if tail and year else m.end(), d)
    # "30 September 2026", "4 July 2027": the day before the month
    for m in re.finditer(rf"\b([0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?{dates._MON}\.?,?\s+((?:19|20)\d\d)\b", text, re.I):
        try:
            add(m.start(), m.end(), date(int(m.group(3)), dates.MONTHS[m.group(2).lower()[:3]], int(m.group(1))))
        except (ValueError, KeyError):
            continue
    # "the first week of November", "the last week of June 2026": seven days of that month (the year given, else
    # the nearest such week to today)
    for m in re.finditer(rf"\b(?:the\s+)?(first|1st|second|2nd|third|3rd|fourth|4th|last|final)\s+week\s+(?:of|in)\s+"
                         rf"{dates._MON}\b(?:,?\s+((?:19|20)\d\d)\b)?", text, re.I):
        month = dates.MONTHS[m.group(2).lower()[:3]]
        nth = m.group(1).lower()
        try:
            first = date(int(m.group(3)), month, 1) if m.group(3) else dates.nearest_year(month, 1, ref)
        except ValueError:
            continue
        if nth in ("last", "final"):
            start = first + relativedelta(months=1, days=-7)
        else:
            start = first + relativedelta(days=7 * ({"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2}
                                                    .get(nth, 3)))
        add(m.start(), m.end(), start, "week", (start, start + relativedelta(days=6)))
    for rx, kind in dates.DATE_RES:
        for m in rx.finditer(text):
            try:
                if kind == "mdy":
                    d, p = date(int(m.group(3)), dates.MONTHS[m.group(1).lower()[:3]], int(m.group(2))), "day"
                elif kind == "iso":
                    d, p = date(int(m.group(1)), int(m.group(2)), int(m.group(3))), "day"
                elif kind == "us":
                    d, p = date(int(m.group(3)), int(m.group(1)), int(m.group(2))), "day"
                elif kind == "md":
                    d, p = dates.nearest_year(dates.MONTHS[m.group(1).lower()[:3]], int(m.group(2)), ref), "day"
                    which = _WHICH_YEAR.match(text[m.end():m.end() + 20]) or \
                        re.search(r"\b(last|next|this)\s+year(?:['’]?s\s+|,?\s+(?:on|in)\s+)$", text[max(0, m.start() - 24):m.start()], re.I)
                    if which:  # "July 4th next year", "next year's July 4"
                        d = d.replace(year=ref.year + {"last": -1, "next": 1, "this": 0}[which.group(1).lower()])
                else:
                    d, p = date(int(m.group(2)), dates.MONTHS[m.group(1).lower()[:3]], 1), "month"
            except (ValueError, KeyError):
                continue
            window = text[max(0, m.start() - 16):m.start()]
            week_of = re.search(r"\b(?:the\s+)?week\s+of\s+$", window, re.I) if p == "day" else None
            if week_of is not None:
                # "sometime the week of April 16": a week from that day, no single day
                add(m.start() - len(window) + week_of.start(), m.end(), d, "week", (d, d + relativedelta(days=6)))
                continue
            add(m.start(), m.end(), d, p)
    # "a week ago Monday": that weekday of the week n weeks back; "a week from Friday": the coming such
    # weekday and n weeks more (read before "a week ago" alone, which would take the words)
    wds = "|".join(WEEKDAYS)
    for m in re.finditer(rf"(?P<n>{NUMBER.pattern})\s+weeks?\s+(?P<dir>ago|from)\s+(?:(?:this|last|this coming|on)\s+)?"
                         rf"(?P<wd>{wds})\b", text, re.I):
        n = number_value(m)
        if n is None or n != int(n):
            continue
        wd = WEEKDAYS.index(m.group("wd").lower())
        if m.group("dir").lower() == "ago":
            d = ref - relativedelta(days=(ref.weekday() - wd) % 7 + 7 * int(n))
            if wd > ref.weekday():
                # "two weeks ago Friday" said on a Thursday: the Friday of the calendar week two weeks back, or
                # two weeks before last Friday — people read it both ways (a week apart), so it names a stretch
                add(m.start(), m.end(), d, "week", (d, d + relativedelta(days=7)))
                continue
        else:
            d = ref + relativedelta(days=(wd - ref.weekday()) % 7 + 7 * int(n))
        add(m.start(), m.end(), d)
    # "next Saturday (the 12th)", "this friday the 4th", "Saturday the 12th": the day of the month pins the
    # weekday to one date, the nearest such one to today (read before the weekday alone)
    for m in re.finditer(rf"\b(?:(?:last|this past|this coming|next|this|on)\s+)?(?P<wd>{wds})\s*,?\s*\(?\s*the\s+"
                         r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)\b\)?", text, re.I):
        wd, dom = WEEKDAYS.index(m.group("wd").lower()), int(m.group("d"))
        found = []
        for k in range(-13, 14):  # the months around today
            first = (ref.replace(day=1) + relativedelta(months=k))
            try:
                d = first.replace(day=dom)
            except ValueError:
                continue
            if d.weekday() == wd:
                found.append(d)
        # "Back in February the snow quit ... on Tuesday the 16th": a month the text names elsewhere is this day's
        named = {dates.MONTHS[x.group(0).lower()[:3]] for x in re.finditer(rf"\b{dates._MON}\b", f"{context} {text}", re.I)
                 if x.group(0)[0].isupper() or x.group(0).lower() not in ("may", "march")}
        if any(d.month in named for d in found):
            found = [d for d in found if d.month in named]
        if found:
            near = min(found, key=lambda d: (abs((d - ref).days), d < ref))
            try:
                this_month = ref.replace(day=dom)
            except ValueError:
                this_month = None
            if not named and this_month is not None and abs((near - ref).days) > 31:
                # "on Monday the 6th", said on Thursday March 8, when March 6 was a Tuesday: the weekday or the day
                # of the month is wrong, and the nearest Monday the 6th is months away: "the 6th" is read as this
                # month's, the weekday left before it, so the check of a weekday against its date asks which is meant
                the = m.start() + m.group(0).lower().rfind("the", 0, m.start("d") - m.start())
                add(the, m.end(), this_month)
            else:
                add(m.start(), m.end(), near)
    # "the snow this weekend quits on Saturday", "this weekend, Sunday probably": a Saturday or Sunday said bare
    # beside "this weekend" (or "next weekend") is that weekend's
    wk = re.search(r"\b(this(?:\s+coming)?|next)\s+weekend\b", text, re.I)
    if wk:
        saturday = ref + relativedelta(days=(5 - ref.weekday()) % 7)
        if ref.weekday() == 6:
            saturday = ref - relativedelta(days=1)  # said on a Sunday: this weekend is today's
        if wk.group(1).lower() == "next":
            saturday += relativedelta(days=7)
        for m in re.finditer(r"\b(?:on\s+)?(saturday|sunday)\b", text, re.I):
            add(m.start(), m.end(), saturday + relativedelta(days=0 if m.group(1).lower() == "saturday" else 1))
    # "Tuesday after next", "the Friday after next": the one after the coming such day
    for m in re.finditer(rf"\b(?:the\s+)?(?P<wd>{wds})\s+after\s+next\b", text, re.I):
        wd = WEEKDAYS.index(m.group("wd").lower())
        add(m.start(), m.end(), ref + relativedelta(days=(wd - ref.weekday() - 1) % 7 + 1 + 7))
    # "Friday before last", "two Fridays ago": the one before the latest such day
    for m in re.finditer(rf"\b(?:the\s+)?(?P<wd>{wds})\s+before\s+last\b|\btwo\s+(?P<wd2>{wds})s\s+ago\b", text, re.I):
        wd = WEEKDAYS.index((m.group("wd") or m.group("wd2")).lower())
        add(m.start(), m.end(), ref - relativedelta(days=(ref.weekday() - wd - 1) % 7 + 1 + 7))
    # "Wednesday of last week", "last week Wednesday", "Wednesday next week": that weekday of that week
    # ("Thursday night last week": a part of the day between)
    for m in re.finditer(rf"\b(?P<wd>{wds})\s+(?:(?:morning|afternoon|evening|night)\s+)?(?:of\s+)?(?P<rel>last|next|this)\s+week\b|"
                         rf"\b(?P<rel2>last|next|this)\s+week,?\s+(?:on\s+)?(?P<wd2>{wds})\b", text, re.I):
        wd = WEEKDAYS.index((m.group("wd") or m.group("wd2")).lower())
        rel = (m.group("rel") or m.group("rel2")).lower()
        monday = ref - relativedelta(days=ref.weekday()) + relativedelta(days={"last": -7, "next": 7, "this": 0}[rel])
        add(m.start(), m.end(), monday + relativedelta(days=wd))
    # "this Wednesday past", "this Wednesday gone": the latest such day before today
    for m in re.finditer(rf"\bthis\s+(?P<wd>{wds})\s+(?:past|gone|just gone)\b", text, re.I):
        wd = WEEKDAYS.index(m.group("wd").lower())
        add(m.start(), m.end(), ref - relativedelta(days=(ref.weekday() - wd - 1) % 7 + 1))
    # "the day before yesterday", "the day after tomorrow"
    for m in re.finditer(r"\b(?:the\s+)?day\s+(before\s+yesterday|after\s+tomorrow)\b", text, re.I):
        add(m.start(), m.end(), ref + relativedelta(days=-2 if m.group(1).lower().startswith("before") else 2))
    for m in re.finditer(r"(?<!ago )\b(today|tomorrow|yesterday|this (?:morning|afternoon|evening)|tonight|last night)\b",
                         text, re.I):
        word = m.group(1).lower()
        if " " in word or word == "tonight":
            # "this morning" dates only a time said with it ("quarter past ten this morning"); alone it is when
            # something happened, not a day to count from ("they poured the walk this morning. How long ...?")
            # ... unless the question asks for a day ("dug it out this morning. By when do we apply?")
            if not (_TIME_BEFORE.search(text[max(0, m.start() - 25):m.start()])
                    or re.match(r"\s*(?:at|around|about)?\s*\d", text[m.end():m.end() + 15])
                    or _DATE_Q.search(text) or _TIME_LEFT_Q.search(text)):
                continue
        shift = -1 if word in ("yesterday", "last night") else 1 if word == "tomorrow" else 0
        add(m.start(), m.end(), ref + relativedelta(days=shift))
    # "in January of this year", "March of last year", "June this year": that month of the year named
    for m in re.finditer(rf"\b{dates._MON}\s+(?:of\s+)?(this|last|next)\s+year\b", text, re.I):
        month = dates.MONTHS[m.group(1).lower()[:3]]
        add(m.start(), m.end(), date(ref.year + {"this": 0, "last": -1, "next": 1}[m.group(2).lower()], month, 1), "month")
    # ("back in October": the latest October before this month, as "last October")
    for m in re.finditer(rf"\b(last|this past|this coming|next|this|back in)\s+{dates._MON}\b(?!\s*,?\s*(?:\d|of\b))",
                         text, re.I):
        month = dates.MONTHS[m.group(2).lower()[:3]]
        back = m.group(1).lower() in ("last", "this past", "back in")
        if back:
            year = ref.year if month < ref.month else ref.year - 1
        else:
            year = ref.year if month > ref.month or (m.group(1).lower() == "this" and month == ref.month) else ref.year + 1
        add(m.start(), m.end(), date(year, month, 1), "month")
    # "10 days from now", "a year and a half ago": counted from today, either way ("in 30 days" is left
    # alone: it is as often the code's period quoted back as a day to come)
    # ("3 years and 2 months ago", "2 yrs ago": a second, smaller part, and the units abbreviated)
    either = re.compile(rf"(?P<n>{NUMBER.pattern})\s+(?P<u>years?|yrs?\.?|months?|mos?\.?|weeks?|wks?\.?|days?)\b"
                        rf"(?P<h>\s+and\s+a\s+half)?(?:,?\s+(?:and\s+)?(?P<n2>\d{{1,2}}|{WORDED.pattern})\s+"
                        rf"(?P<u2>months?|mos?\.?|weeks?|wks?\.?|days?)\b)?\s+"
                        rf"(?P<dir>ago|back|from now|from today|from tomorrow|from yesterday)\b(?!\s+(?:to|in|on|at|from|then)\b)", re.I)
    found = [(m, m.group("dir").lower() not in ("ago", "back")) for m in either.finditer(text)]
    for m, forward in sorted(found, key=lambda t: t[0].start()):
        n = number_value(m)
        if n is None:
            continue
        if m.group("h"):
            n += Decimal("0.5")
        u = _UNIT_ABBREVIATIONS.get(m.group("u").lower().rstrip("."), m.group("u").lower())
        sign = 1 if forward else -1
        # "ten days from tomorrow", "a week ago yesterday": counted from that day, not today
        near_day = re.match(r"\s+(yesterday|tomorrow)\b", text[m.end():m.end() + 12], re.I) \
            if m.group("dir").lower() in ("ago", "back") else None
        shift = {"from tomorrow": 1, "from yesterday": -1}.get(m.group("dir").lower(), 0)
        if near_day:
            shift = -1 if near_day.group(1).lower() == "yesterday" else 1
        start = ref + relativedelta(days=shift)
        if m.group("n2"):
            # "3 years and 2 months ago": both parts, in the smaller unit's precision
            n2 = Decimal(m.group("n2")) if m.group("n2").isdigit() else worded_number(m.group("n2"))
            u2 = _UNIT_ABBREVIATIONS.get(m.group("u2").lower().rstrip("."), m.group("u2").lower())
            if n2 is None or not _SMALLER.get(u.rstrip("s") + "s", ()).__contains__(u2.rstrip("s") + "s"):
                continue
            big = relativedelta(months=int(round(n * 12))) if u.startswith("year") else \
                relativedelta(months=int(round(n))) if u.startswith("month") else relativedelta(days=int(round(n * 7)))
            small = relativedelta(months=int(n2)) if u2.startswith("month") else \
                relativedelta(days=int(n2) * (7 if u2.startswith("week") else 1))
            add(m.start(), m.end(), start + sign * (big + small), "month" if u2.startswith("month") else "day")
            continue
        if u.startswith("year"):
            d, p = start + sign * relativedelta(months=int(round(n * 12))), "month"
        elif u.startswith("month"):
            d, p = start + sign * relativedelta(months=int(round(n))), "month"
        elif u.startswith("week"):
            d, p = start + sign * relativedelta(days=int(round(n * 7))), "day"
        else:
            d, p = start + sign * relativedelta(days=int(round(n))), "day"
        today_too = near_day or re.match(r"\s+today\b", text[m.end():m.end() + 8], re.I)
        if today_too and n == int(n):  # "a month ago today", "a year ago yesterday": that very day
            add(m.start(), m.end() + today_too.end(), d, "day")
            continue
        if re.match(r"(?:a\s+)?couple\b", m.group("n"), re.I) and u[0] in "ym":
            # "a couple years back": about two, not exactly — half a year either way (two weeks for months), so a
            # figure that turns on the day is asked, never read off an exact two years
            pad = relativedelta(months=6) if u.startswith("year") else relativedelta(days=14)
            first, last = sorted((d - pad, d + pad))
            add(m.start(), m.end(), first, p, stretch=(first, last))
            continue
        add(m.start(), m.end(), d, p)
    for m in re.finditer(r"\b(?:the\s+)?(spring|summer|fall|autumn|winter)\s+before\s+last\b", text, re.I):
        # "the summer before last": the one before last summer (said just after a season ended, as "last fall" in
        # December is either of two, so is the one before it)
        first, _ = _SEASONS[m.group(1).lower()]
        last = date(ref.year if first < ref.month else ref.year - 1, first, 1)
        met_end = last + relativedelta(months=3, days=-1)
        start = last - relativedelta(years=1)
        unsure = 0 <= (ref - met_end).days <= 92 and met_end.year == ref.year
        add(m.start(), m.end(), start, "month",
            (start - relativedelta(years=1) if unsure else start, start + _SEASON_SPAN))
    for m in re.finditer(r"\b(?:the\s+)?(spring|summer|fall|autumn|winter)\s+after\s+next\b", text, re.I):
        # "the summer after next": the one after the coming summer
        first, _ = _SEASONS[m.group(1).lower()]
        start = date((ref.year if first > ref.month else ref.year + 1) + 1, first, 1)
        add(m.start(), m.end(), start, "month", (start, start + _SEASON_SPAN))
    for m in re.finditer(r"\b(last|this past|this|next|this coming)\s+(spring|summer|fall|autumn|winter)\b", text, re.I):
        first, _ = _SEASONS[m.group(2).lower()]
        which = m.group(1).lower()
        if which in ("next", "this coming"):
            year = ref.year if first > ref.month else ref.year + 1
        elif which == "this":
            # "this summer", said in January or in August or in October: this year's; "this winter" the one under
            # way in January, the one that begins this December in November
            year = ref.year - 1 if first == 12 and ref.month <= 2 else ref.year
        else:
            year = ref.year if first < ref.month else ref.year - 1
        start = date(year, first, 1)
        end = start + _SEASON_SPAN
        if which in ("last", "this past"):
            end = min(end, ref)  # a season past ends before today
        stretch = (start, end)
        met_end = start + relativedelta(months=3, days=-1)
        if which == "last" and 0 <= (ref - met_end).days <= 92 and met_end.year == ref.year:
            # "last fall" said in December: the fall just ended, or the one before it
            stretch = (start - relativedelta(years=1), end)
        add(m.start(), m.end(), start, "month", stretch)
    # ("two summers ago" is not read: said in December, one writer meant the summer before last and another the one
    # before that — session 17 read it as the first and a seen slot-stress question wanted the second)
    # "last Tuesday", "this past Friday": the latest such day before today; "this coming Friday" the next
    # one; "next Tuesday" may mean either of the next two, so it names a week, not a day
    for m in re.finditer(rf"\b(last|this past|this coming|next|this)\s+({'|'.join(WEEKDAYS)})\b", text, re.I):
        wd, which = WEEKDAYS.index(m.group(2).lower()), m.group(1).lower()
        latest = ref - relativedelta(days=(ref.weekday() - wd - 1) % 7 + 1)
        if which == "last" and wd < ref.weekday():
            # "last Tuesday" said on a Wednesday or a Friday: the Tuesday of this week, or of the week before — people
            # read it both ways, so both readings are kept (a week's precision, as "next Tuesday" is)
            before = latest - relativedelta(days=7)
            add(m.start(), m.end(), before, "week", (before, latest))
        elif which in ("last", "this past"):
            add(m.start(), m.end(), latest)
        elif which == "this coming":
            add(m.start(), m.end(), ref + relativedelta(days=(wd - ref.weekday() - 1) % 7 + 1))
        elif which == "next":
            # (tried in session 11: one day when the weekday is already past this week, "next Monday" said on a
            # Wednesday. Taken out: people read "next Friday" said on a Saturday as the 11th or the 18th alike, so
            # every "next <weekday>" keeps both readings; a period on the calendar gives the day of each)
            add(m.start(), m.end(), ref + relativedelta(days=(wd - ref.weekday() - 1) % 7 + 1), "week")
        elif _told_as_past(_clause_before(text, m.start())):
            # "the inspector assigned our new number this Tuesday", said on a Thursday: this week's Tuesday, past
            add(m.start(), m.end(), ref - relativedelta(days=(ref.weekday() - wd) % 7))
        else:  # "this Friday": the coming one (today, if today is that day)
            add(m.start(), m.end(), ref + relativedelta(days=(wd - ref.weekday()) % 7))
    # "last Christmas", "this past Labor Day": the latest one before today; "next Memorial Day", "this coming
    # Fourth of July": the first one after it (never the nearest one, which may lie the other way)
    for m in re.finditer(rf"\b(?P<rel>last|this past|next|this coming)\s+({'|'.join(_HOLIDAYS)})\b(?!\s*,?\s*(?:19|20)\d\d)"
                         r"(?!\s+eve\b)",
                         text, re.I):
        want = _HOLIDAY_NAMES.get(m.group(2).lower())
        days = holiday_days(want, range(ref.year - 1, ref.year + 2))
        back = m.group("rel").lower() in ("last", "this past")
        pick = [d for d in days if d < ref] if back else [d for d in days if d > ref]
        if pick:
            add(m.start(), m.end(), pick[-1] if back else pick[0])
    for m in re.finditer(rf"\b(?:(?P<whose>last|next|this)\s+year['’]?s\s+)?(?:on\s+)?({'|'.join(_HOLIDAYS)})\b(?!\s+eve\b)",
                         text, re.I):  # ("Christmas Eve" is another day, and no legal holiday)
        after = text[m.end():m.end() + 20]
        if _NAMES_A_STRETCH.match(after):
            continue  # "with all the Christmas days off in there", "over the Thanksgiving weekend": no one day
        if _NAMES_AN_EVENT.match(after) and any(r.search(text) for r, _ in dates.DATE_RES):
            continue  # "a Fourth of July parade on Saturday, July 3, 2027": the holiday names the event, the date dates it
        if re.search(r"\b(?:right|just|shortly|sometime|around|about|soon)\s+(?:before|after)\s+(?:the\s+)?$",
                     text[max(0, m.start() - 25):m.start()], re.I):
            continue  # "right before Thanksgiving": some day near it, not the holiday
        given = re.match(r",?\s*((?:19|20)\d\d)\b", after)  # "Independence Day 2027"
        if m.group("whose"):  # "next year's Fourth of July"
            after = f" {m.group('whose')} year"
        day = _holiday_near(m.group(2), ref, after, int(given.group(1)) if given else None)
        if day is not None:
            which = _WHICH_YEAR.match(text[m.end():m.end() + 20]) if not m.group("whose") else None
            end = m.end() + (which.end() if which else given.end() if given else 0)
            add(m.start() if m.group("whose") else m.start(2), end, day)
    # "the 15th of last month", "on the 3rd of this month", "next month on the 12th", "earlier this month on the 3rd":
    # that day of that month (read before "last month" alone, which would take the words)
    rel_month = {"last": -1, "this past": -1, "this": 0, "next": 1, "this coming": 1}
    # (the day in words too: "dated the first of this month")
    for m in re.finditer(rf"\bthe\s+(?P<d>[0-3]?\d(?:st|nd|rd|th)|{_ORD_WORD})\s+of\s+(?P<rel>last|this past|this coming|next|this)\s+month\b|"
                         r"\b(?:earlier\s+|later\s+)?(?P<rel2>last|this past|this coming|next|this)\s+month,?\s+on\s+the\s+"
                         rf"(?P<d2>[0-3]?\d(?:st|nd|rd|th)|{_ORD_WORD})\b", text, re.I):
        raw = m.group("d") or m.group("d2")
        dom = int(re.sub(r"\D", "", raw)) if raw[0].isdigit() else _ORDINAL_DAYS.get(raw.lower().replace(" ", "-"))
        if dom is None:
            continue
        rel = (m.group("rel") or m.group("rel2")).lower()
        first = ref.replace(day=1) + relativedelta(months=rel_month[rel])
        try:
            add(m.start(), m.end(), first.replace(day=dom))
        except ValueError:
            continue
    # "the last day of November", "the last day of next month"
    for m in re.finditer(rf"\bthe\s+last\s+day\s+of\s+(?:(?P<rel>last|this|next)\s+month\b|{dates._MON}\b)", text, re.I):
        if m.group("rel"):
            first = ref.replace(day=1) + relativedelta(months=rel_month[m.group("rel").lower()])
        else:
            month = dates.MONTHS[m.group(m.lastindex).lower()[:3]]
            first = dates.nearest_year(month, 1, ref)
        add(m.start(), m.end(), first + relativedelta(months=1, days=-1))
    # "a fortnight ago", "two fortnights from now"
    for m in re.finditer(rf"(?P<n>{NUMBER.pattern})\s+fortnights?\s+(?P<dir>ago|from now|from today)\b", text, re.I):
        n = number_value(m)
        if n is not None and n == int(n):
            add(m.start(), m.end(), ref + relativedelta(days=(14 if m.group("dir").lower() != "ago" else -14) * int(n)))
    # "APPROVED 11/__/26", "11/??/2026": the day unreadable, the month known
    for m in re.finditer(r"\b(\d{1,2})/(?:_+|\?+|xx|XX)/(\d{2}|\d{4})\b", text):
        year = int(m.group(2)) + (2000 if len(m.group(2)) == 2 else 0)
        if 1 <= int(m.group(1)) <= 12:
            add(m.start(), m.end(), date(year, int(m.group(1)), 1), "month")
    # "12/1/26": month, day and a two-digit year (a four-digit one is read above); "on 11/30": a month and day
    # after a word that dates it (never "1/2 inch": a fraction)
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})/(\d{2})\b(?![/\d])", text):
        try:
            add(m.start(), m.end(), date(2000 + int(m.group(3)), int(m.group(1)), int(m.group(2))))
        except ValueError:
            continue
    for m in re.finditer(r"\b(?:on|dated|since|from|by|until|till|before|after|approved|issued|signed|stamped|received|"
                         r"mailed|postmarked|(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"
                         r"(?:day|nesday|urday)?\.?,?)(?:\s+(?:on\s+)?(?:it|them|that|this))?\s+(\d{1,2})/(\d{1,2})\b(?![/\d])"
                         r"(?!\s*(?:inch|in\b|\"|'|hours?|hrs?|ft|foot|feet|miles?|mi\b|of\b))", text, re.I):
        try:
            add(m.start(1), m.end(), dates.nearest_year(int(m.group(1)), int(m.group(2)), ref))
        except ValueError:
            continue
    # "next week", "sometime last week", "last month": a week or a month, never a day
    for m in re.finditer(r"\b(last|this past|next|this coming|this)\s+(week|month)\b", text, re.I):
        back = m.group(1).lower() in ("last", "this past")
        if m.group(2).lower() == "week":
            monday = ref - relativedelta(days=ref.weekday())
            shift = -7 if back else 7 if m.group(1).lower() in ("next", "this coming") else 0
            add(m.start(), m.end(), monday + relativedelta(days=shift), "week")
        else:
            first = ref.replace(day=1)
            shift = -1 if back else 1 if m.group(1).lower() in ("next", "this coming") else 0
            add(m.start(), m.end(), first + relativedelta(months=shift), "month")
    # "the summer of 2024", "fall 2023": that season of that year ("winter 2025" may be either end of the year:
    # left to the year alone)
    for m in re.finditer(r"\b(spring|summer|fall|autumn)\s+(?:of\s+)?((?:19|20)\d\d)\b", text, re.I):
        first, _ = _SEASONS[m.group(1).lower()]
        start = date(int(m.group(2)), first, 1)
        add(m.start(), m.end(), start, "month", (start, start + _SEASON_SPAN))
    # a year alone: "paved in 2017", "back in 2019"
    for m in re.finditer(r"\b(?:in|during|since|of)\s+((?:19|20)\d\d)\b(?![-/]\d)", text, re.I):
        add(m.start(1), m.end(1), date(int(m.group(1)), 1, 1), "year")
    # "repaved in '23", "since ’19": a year of two figures, in the century that puts it nearest before today (a
    # year up to ten years ahead is read as ahead)
    # ("in the summer of '26 or '27": either year, each read, so the reading asks which)
    for m in re.finditer(r"\b(?:in|during|since|of)\s+(['’]\d\d)\b(?![-/.,]?\d)(?:\s*(?:or|and|to|-)\s*(['’]\d\d)\b"
                         r"(?![-/.,]?\d))?", text, re.I):
        for g in (1, 2):
            if m.group(g):
                yy = int(m.group(g)[1:])
                year = (ref.year // 100) * 100 + yy
                year = year - 100 if year > ref.year + 10 else year
                add(m.start(g), m.end(g), date(year, 1, 1), "year")
    _shared_month(out, text, add)
    if not out:
        # a weekday said bare, when nothing else in the words dates them: "we start backfilling on Friday" is the coming
        # Friday, "got the notice Friday" the latest one gone by, as the tense of its own clause tells; not read when it
        # is today's weekday (today, or a week off) or the tense does not tell
        # (never a weekday another word ties to a day not read: "the tuesday before the fourth", "every Friday", "a
        # Monday in March")
        bare = [m for m in re.finditer(rf"\b(?<!the\s)(?<!every\s)(?<!each\s)(?<!a\s)(?<!any\s)(?<!that\s)"
                                       rf"(?:on\s+|by\s+|until\s+|till\s+)?(?P<wd>{'|'.join(WEEKDAYS)})\b(?!\s*,?\s*"
                                       rf"(?:the\s+)?(?:\d|{dates._MON}\b))(?!['’]s)(?!\s+(?:before|after|following|prior|"
                                       rf"of|in|next|last|this|or|and|through|to|-)\b)(?!\s*[-/–])", text, re.I)]
        named = {m.group(0).lower() for m in re.finditer(rf"\b(?:{'|'.join(WEEKDAYS)})", text, re.I)}
        if len(bare) == 1 and len(named) == 1:
            m = bare[0]
            wd = WEEKDAYS.index(m.group("wd").lower())
            clause = _clause_before(text, m.start())
            if wd != ref.weekday() and _told_as_past(clause):
                add(m.start("wd"), m.end("wd"), ref - relativedelta(days=(ref.weekday() - wd) % 7))
            elif wd != ref.weekday() and (_TOLD_AS_FUTURE.search(clause) or _BARE_DAY_AHEAD.search(clause)):
                add(m.start("wd"), m.end("wd"), ref + relativedelta(days=(wd - ref.weekday()) % 7))
    # "a Fourth of July parade for July 4, 2027": the day written in figures says which year the name means
    written = [x for x in out if re.search(r"\d", x.span.text) and x.precision == "day"]
    out = [x for x in out if re.search(r"\d", x.span.text) or x.precision != "day"
           or not any(w.day.month == x.day.month and w.day.day == x.day.day and w.day != x.day for w in written)]
    out = _refined(out, text, origin)
    if context and not any(x.precision == "day" for x in out):
        # a follow-up "it'll go out a week later", "two days earlier": the one day the conversation gave, moved
        told = {x.value: x for x in _dates(context, origin, ref) if x.precision == "day"}
        m = _MOVED.search(text)
        n = None
        if m and len(told) == 1 and _free(taken, m.start(), m.end()):
            n = Decimal(1) if m.group("n").lower() in ("a", "an", "one") else number_value(m)
        if n is not None and n == int(n):
            sign = -1 if m.group("dir").lower() in ("earlier", "sooner", "before that", "before then") else 1
            unit = m.group("u").lower()
            shift = relativedelta(months=sign * int(n)) if unit.startswith("month") else \
                relativedelta(days=sign * int(n) * (7 if unit.startswith("week") else 1))
            was = next(iter(told.values()))
            taken.append((m.start(), m.end()))
            out.append(_slot("date", (was.day + shift).isoformat(), None, text, origin, m.start(), m.end(), "day")
                       .model_copy(update={"worked": f"from “{was.span.text}”, said before"}))
        # a follow-up "the letter actually says the 31st, not the 20th": a bare day of the month is of the month the
        # conversation's one dated day is in (never when the conversation dated days of two months)
        months = {(x.day.year, x.day.month): x for x in told.values()}
        if len(months) == 1:
            was = next(iter(months.values()))
            for m in _BARE_DAY_OF_MONTH.finditer(text):
                if not _free(taken, m.start(), m.end()):
                    continue
                try:
                    day = was.day.replace(day=int(m.group(1)))
                except ValueError:
                    continue
                taken.append((m.start(), m.end()))
                out.append(_slot("date", day.isoformat(), None, text, origin, m.start(), m.end(), "day")
                           .model_copy(update={"worked": f"the month of “{was.span.text}”, said before"}))
    return sorted((_offset(x, text, origin) for x in out), key=lambda s: s.span.start)


# "a week later", "two days earlier", "three days after that": a day moved from one the conversation gave
_MOVED = re.compile(rf"\b(?P<n>{NUMBER.pattern}|a|an|one)\s+(?P<u>days?|weeks?|months?)\s+"
                    r"(?P<dir>later|earlier|sooner|after that|before that|after then|before then)\b", re.I)


# "says the 31st, not the 20th": a day of the month said bare, no month, weekday or thing counted after it
_BARE_DAY_OF_MONTH = re.compile(r"\bthe\s+([1-9]|[12]\d|3[01])(?:st|nd|rd|th)\b"
                                r"(?=\s*(?:[,.;:!?)]|$|-|\s(?:not|instead|and|or|but|then|so|is|was|at|by|when|which)\b))",
                                re.I)


# "the 15th or the 22nd of last month", "March 15 or the 22nd": a bare day of the month joined to a dated one
_JOINED = r"\s*,?\s*(?:or|and|to|through|or\s+maybe|or\s+possibly|or\s+was\s+it|or\s+else)\s+"
_BARE_BEFORE = re.compile(rf"\bthe\s+([0-3]?\d)(?:st|nd|rd|th){_JOINED}$", re.I)
_BARE_AFTER = re.compile(rf"{_JOINED}(?:the\s+)?([0-3]?\d)(?:st|nd|rd|th)\b(?!\s+(?:of|in)\b)", re.I)


def _shared_month(out: list[Slot], text: str, add) -> None:
    """A day of the month written bare beside a dated one shares its month and year: "either the 15th or the 22nd of
    last month" names two days of last month, "March 15 or the 22nd" two of March."""
    for s in [x for x in out if x.precision == "day"]:
        day = date.fromisoformat(s.value)
        found = []
        if re.match(r"the\s+[0-3]?\d(?:st|nd|rd|th)\s+of\b", text[s.span.start:s.span.end], re.I):
            m = _BARE_BEFORE.search(text[max(0, s.span.start - 40):s.span.start])
            if m:
                base = max(0, s.span.start - 40)
                found.append((base + m.start(), base + m.end(1) + 2, int(m.group(1))))
        if re.search(r"\b[A-Za-z]{3,}\.?\s+[0-3]?\d(?:st|nd|rd|th)?$", text[s.span.start:s.span.end]):
            m = _BARE_AFTER.match(text, s.span.end)
            if m:
                found.append((m.start(1), m.end(), int(m.group(1))))
        for a, b, dom in found:
            try:
                add(a, b, day.replace(day=dom))
            except ValueError:
                continue


def _refined(found: list[Slot], text: str, origin: Origin) -> list[Slot]:
    """"in August 2023 (August 10)": a day in parentheses right after a month names the day of that month —
    one date, not two."""
    out = list(found)
    for x in found:
        if x.precision != "month" or x.days:
            continue
        for y in found:
            between = text[x.span.end:y.span.start]
            if y.precision == "day" and y.day.month == x.day.month and re.fullmatch(r"\s*\(\s*(?:on\s+|the\s+)?", between):
                end = y.span.end + (1 if text[y.span.end:y.span.end + 1] == ")" else 0)
                out = [z for z in out if z is not x and z is not y]
                out.append(_slot("date", x.day.replace(day=y.day.day).isoformat(), None, text, origin, x.span.start,
                                 end, "day"))
                break
    return out


_OFFSET = re.compile(rf"(?P<n>{NUMBER.pattern}|a|an|one)\s+(?P<u>days?|weeks?|months?)\s+"
                     r"(?P<dir>from|after|later than|before|prior to|earlier than)\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?$",
                     re.I)
# "within 30 days after June 1", "is it due 10 days before the 15th": a period the rule sets, not a day the user moved
_PERIOD_ASKED = re.compile(r"\b(?:within|by|until|till|due|no later than|not later than|at least|in|have|has|had|is it|"
                           r"was it|allowed|get|gets)\s+$", re.I)


def _offset(slot: Slot, text: str, origin: Origin) -> Slot:
    """"three weeks from this coming Monday", "three weeks before this past Tuesday": the day read, moved by
    the period written before it (never a period the question asks about: "within 30 days after June 1")."""
    window = text[max(0, slot.span.start - 60):slot.span.start]
    m = _OFFSET.search(window)
    if m is None or slot.precision not in ("day", "week") or _PERIOD_ASKED.search(window[:m.start()]):
        return slot
    raw = m.group("n").lower()
    n = Decimal(1) if raw in ("a", "an", "one") else number_value(m)
    if n is None or n != int(n):
        return slot
    sign = -1 if m.group("dir").lower() in ("before", "prior to", "earlier than") else 1
    unit = m.group("u").lower()
    shift = relativedelta(months=sign * int(n)) if unit.startswith("month") else \
        relativedelta(days=sign * int(n) * (7 if unit.startswith("week") else 1))
    start = max(0, slot.span.start - 60) + m.start()
    return _slot("date", (slot.day + shift).isoformat(), None, text, origin, start, slot.span.end, slot.precision)


def _within_day(found: list[Slot], text: str) -> list[Slot]:
    """A month or year written right after a day it holds ("Friday the 25th of this month", "June 3rd of this
    year") says which day it is, no other date: it is not read as a date of its own. (Its span stays taken.)"""
    days = [s for s in found if s.precision == "day"]
    out = []
    for s in found:
        if s.precision in ("month", "year") and s.days is None and any(
                re.fullmatch(r"\s*(?:of|in|,)?\s*", text[d.span.end:s.span.start]) and s.span.start >= d.span.end
                and d.day.year == s.day.year and (s.precision == "year" or d.day.month == s.day.month) for d in days):
            continue
        out.append(s)
    return out


_BROKEN_FRACTION = re.compile(r"\b(one|two|three|four|five|six|seven|eight|nine)-\s(halfs?|halves|thirds?|quarters?|fourths?|"
                              r"fifths?|sixths?|eighths?|tenths?|sixteenths?)\b", re.I)


def read_slots(text: str, origin: Origin = "turn", ref: date | None = None, context: str = "") -> list[Slot]:
    """Every value written in ``text``, each with its span; a span is read once, as its most
    specific kind (a date's day number is not also a count)."""
    ref = ref or dates.today()
    # "three- fourths inch" (a fraction word broken at its hyphen in an extracted text, TEXT-NOTES): read as
    # "three-fourths", the space moved after it so every other span keeps its place
    text = _BROKEN_FRACTION.sub(lambda m: f"{m.group(1)}-{m.group(2)} ", text)
    found = _dates(text, origin, ref, context)
    out = _within_day(found, text)
    taken = [(s.span.start, s.span.end) for s in found]

    def add(kind, value, unit, a, b):
        if _free(taken, a, b):
            taken.append((a, b))
            out.append(_slot(kind, _norm(value), unit, text, origin, a, b))

    for m in _WORDED_DECIMAL.finditer(text):
        # "one point five hours", "two point two five feet": a decimal said in words (the five alone had been read)
        whole = worded_number(m.group("i"))
        digits = [_DIGIT_WORDS[w.lower()] for w in re.findall(r"[a-z]+", m.group("f"), re.I)]
        if whole is None or not digits:
            continue
        v = whole + Decimal("0." + "".join(str(d) for d in digits))
        u = m.group("u").lower().rstrip(".")
        if u.startswith(("hour", "hr")):
            add("duration", v, "hours", m.start(), m.end())
        elif u.startswith(("foot", "feet", "ft")):
            add("length", v, "ft", m.start(), m.end())
        elif u.startswith("inch"):
            add("length", v, "in", m.start(), m.end())
        elif u.startswith("ton"):
            add("weight", v, "tons", m.start(), m.end())
        else:
            add("percent", v, "%", m.start(), m.end())
    for m in _FRACTION_OF.finditer(text):
        # "three quarters of an hour" (0.75 hours, never "an hour"), "nine tenths of a ton", "half a ton"
        if m.group("u").lower() not in ("hour", "ton") or not m.group("art"):
            continue  # (lengths are read below, with the feet and inches)
        raw = (m.group("num") or "a").lower()
        num = Decimal(1) if raw in ("a", "an", "one") else worded_number(raw)
        den = _DENOMINATORS[re.sub(r"(?:ves|s)$", "", m.group("den").lower()) if m.group("den").lower() != "halves" else "half"]
        if num is None:
            continue
        if m.group("u").lower() == "hour":
            add("duration", num / den, "hours", m.start(), m.end())
        else:
            add("weight", num / den, "tons", m.start(), m.end())
    for m in _TONNES.finditer(text):
        # "5.8 metric tons", "6 tonnes": 1,000 kg each, in US (short) tons of 907.18474 kg (the pound's definition)
        v = number_value(m)
        if v is not None and v > 0:
            tons = (v * Decimal(1000) / Decimal("907.18474")).quantize(Decimal("0.001"))
            if _free(taken, m.start(), m.end()):
                taken.append((m.start(), m.end()))
                out.append(_slot("weight", _norm(tons), "tons", text, origin, m.start(), m.end()).model_copy(
                    update={"worked": "metric tonnes in US (short) tons"}))
    for m in _K_POUNDS.finditer(text):
        # "7k lbs", "12K pounds": thousands of pounds, a weight (never money)
        v = digits_value(m.group("v")) * 1000
        add("weight", v / 2000, "tons", m.start(), m.end())
    for m in _DOLLARS_CENTS_RATE.finditer(text):
        # "forty-two fifty an hour": dollars and cents said as two numbers, an hourly rate
        d, c = worded_number(m.group("d")), worded_number(m.group("c"))
        if d is not None and c is not None and 10 <= c < 100:
            add("money", d + c / 100, "USD/hour", m.start(), m.end())
    # a 24-hour clock time: "start 1/12/27 @ 0700", "at 0630" with no unit after it (after "@", or with a leading
    # zero after "at"); "0700 hrs", "start at 1330 hours" (never "1500 hours" of work: a leading zero, or a word that
    # times it before, or a day after)
    clock = [*((m, m.end("mm")) for m in _MILITARY_AT.finditer(text) if m.group("sign") == "@" or m.group("hh")[0] == "0"),
             *((m, m.end("u")) for m in _MILITARY_TIME.finditer(text)
               if m.group("hh")[0] == "0" or m.group("at") or m.group("day"))]
    def take_time(a: int, b: int, hm: str) -> None:
        """A time of day read at text[a:b], unless another reading holds those characters."""
        if _free(taken, a, b):
            taken.append((a, b))
            out.append(Slot(kind="time", value=hm, span=Span(origin=origin, start=a, end=b, text=text[a:b]),
                            before=text[max(0, a - 60):a].lower(), after=text[b:b + 40].lower()))

    for m, b in clock:
        take_time(m.start("hh"), b, f"{m.group('hh')}:{m.group('mm')}")
    for m in dates.TIME_RE.finditer(text):
        if m.group(4):
            hm = "12:00" if m.group(4).lower() == "noon" else "00:00"
        else:
            hour = dates.clock_hour(m.group(1), m.group(3))
            hm = f"{hour:02d}:{int(m.group(2) or 0):02d}"
        take_time(m.start(1) if m.group(1) else m.start(4), m.end(), hm)
    for m in _WORD_TIME.finditer(text):
        # "quarter past ten this morning", "half past two in the afternoon", "ten thirty tonight"
        hour = _HOUR_WORDS.get(m.group("h").lower()) or (int(m.group("h")) if m.group("h").isdigit() else None)
        if hour is None or not 1 <= hour <= 12:
            continue
        minutes = {"quarter": 15, "a quarter": 15, "half": 30}.get((m.group("q") or "").lower(), 0)
        if m.group("mm"):
            minutes = _MINUTE_WORDS[re.sub(r"[\s-]+", " ", m.group("mm").lower())]
        elif m.group("mmd"):  # "around 4:30 yesterday afternoon"
            minutes = int(m.group("mmd"))
        if (m.group("rel") or "").lower() in ("to", "of", "till"):
            hour, minutes = hour - 1 or 12, 60 - minutes
        when = m.group("when").lower()
        hh = dates.clock_hour(str(hour), when)  # "this afternoon", "tonight", "at night": after noon
        take_time(m.start(), m.end("mm") if m.group("mm") else m.end("mmd") if m.group("mmd") else m.end("h"),
                  f"{hh:02d}:{minutes:02d}")
    for m in _DAYPART_HOUR.finditer(text):
        hour = _HOUR_WORDS.get(m.group("h").lower()) or int(m.group("h"))
        if not 1 <= hour <= 11:
            continue  # "night at 12": midnight or noon is not guessed
        hh = dates.clock_hour(str(hour), m.group("when"))
        a, end = m.start(), m.end()  # "night around 9" is what was read; "tonight" may be the date's already
        if not _free(taken, a, end):
            a = m.start("h")
        take_time(a, end, f"{hh:02d}:{int(m.group('mm') or 0):02d}")
    for m in _HOUR_DAY_PART.finditer(text):
        # "around 9 this Saturday night", "at 7 Tuesday morning": the hour before the day, its part of the day after
        hour = _HOUR_WORDS.get(m.group("h").lower()) or int(m.group("h"))
        if not 1 <= hour <= 11:
            continue
        hh = dates.clock_hour(str(hour), m.group("when"))
        take_time(m.start("h"), m.end("mm") if m.group("mm") else m.end("h"), f"{hh:02d}:{int(m.group('mm') or 0):02d}")
    for m in _BARE_HOUR_AT.finditer(text):
        # "the morning after the Fourth of July, crew on site at 9": an hour said bare in a sentence whose words name
        # one part of the day, and only one, is of that part (two parts, or none, and it is asked)
        hour = int(m.group("h"))
        if not 1 <= hour <= 11:
            continue
        # (the part of the day said before the hour, close, no other hour between: "crew starts at 7, inspection
        # in the afternoon" is no afternoon 7)
        sentence = _sentence_around(text, m.start(), m.end())
        parts = {("am" if w.lower() == "morning" else "pm") for w in _DAY_PART_WORD.findall(sentence)}
        lead = text[max(0, m.start() - 70):m.start()]
        if len(parts) == 1 and _DAY_PART_WORD.search(lead) and not re.search(r"\d", lead[_DAY_PART_WORD.search(lead).end():]) \
                and not re.search(r"\b(?:noon|midnight)\b", sentence, re.I):
            take_time(m.start("h"), m.end(), f"{dates.clock_hour(str(hour), 'morning' if 'am' in parts else 'evening'):02d}:"
                                             f"{int(m.group('mm') or 0):02d}")
    for m in _MONEY.finditer(text):
        v = digits_value(m.group("v"))
        mult = (m.group("mult") or "").lower()
        v *= {"thousand": 1000, "k": 1000, "million": 1_000_000}.get(mult, 1)
        per = (m.group("pu") or "").lower().replace("hr", "hour")
        add("money", v, f"USD/{per}" if per else "USD", m.start(), m.end())
    for m in _MONEY_WORDS.finditer(text):
        v = number_value(m)
        if v is None:
            continue
        if m.group("u").lower() in ("grand", "k"):
            v *= 1000
            if m.group("cfrac"):  # "a grand and a half"
                v += _FRACTION_WORDS[m.group("cfrac").lower()] * 1000
            if m.group("plus"):
                more = m.group("plus").split("and", 1)[1].strip()
                extra = Decimal(more) if more.isdigit() else worded_number(more)
                if extra is None or extra >= 1000:
                    continue
                v += extra
        elif m.group("cents"):  # "two thousand one hundred six dollars and forty cents"
            c = worded_number(m.group("cents")) if not m.group("cents").isdigit() else Decimal(m.group("cents"))
            if c is None or c >= 100:
                continue
            v += c / 100
        elif m.group("cfrac"):  # "a hundred twelve dollars and a quarter"
            v += _FRACTION_WORDS[m.group("cfrac").lower()]
        per = (m.group("pu") or "").lower().replace("hr", "hour")
        add("money", v, f"USD/{per}" if per else "USD", m.start(), m.end())
    for m in _MILLIONS.finditer(text):
        # "one point five mil", "a 1.5 million policy", "2 mil": millions of dollars (never "6 mil poly", a film)
        v = Decimal(m.group("n")) if m.group("n") else worded_number(m.group("w"))
        if v is None:
            continue
        if m.group("d"):
            v += Decimal("0." + "".join(str(int(worded_number(x) or 0)) for x in m.group("d").split()))
        add("money", v * 1_000_000, "USD", m.start(), m.end())
    for m in _HUNDREDS_K.finditer(text):
        # "seven-fifty K", "seven fifty grand": hundreds said as two numbers, in thousands ($750,000)
        hundreds, rest = worded_number(m.group("h")), worded_number(m.group("r"))
        if hundreds is not None and rest is not None:
            add("money", (hundreds * 100 + rest) * 1000, "USD", m.start(), m.end())
    for m in _MONEY_CUED.finditer(text):
        # "my deposit was four thousand": an amount the words before it make money, with no unit written
        v = number_value(m)
        if v is not None and v >= 10:
            add("money", v, "USD", m.start("n"), m.end("n"))
    for m in _MONEY_CUED_AFTER.finditer(text):
        v = number_value(m)
        if v is not None and v >= 10:
            add("money", v, "USD", m.start("n"), m.end("n"))
    for m in _LIMIT_CUED_AFTER.finditer(text):
        # "fifteen thousand per person, twenty-five thousand per accident": an insurance limit, in thousands or more
        v = number_value(m)
        if v is not None and v >= 1000:
            add("money", v, "USD", m.start("n"), m.end("n"))
    # "a deposit of $1,250 and the bill came in at fourteen-eighty": read as 1,480 only beside another amount of that
    # size in the same words (alone, "fourteen-eighty" may as well be $14.80, and is not read)
    amounts = [s.number for s in out if s.kind == "money" and s.unit == "USD" and s.number >= 100]
    said_parts = [m for m in _HUNDREDS_SAID.finditer(text) if m.group("h2") or m.group("h3")]
    for m in _HUNDREDS_SAID.finditer(text):
        g = next(k for k in ("h", "h1", "h2", "h3") if m.group(k))
        r = {"h": "r", "h1": "r1", "h2": "r2", "h3": "r3"}[g]
        hundreds, rest = worded_number(m.group(g)), worded_number(m.group(r))
        if hundreds is None or rest is None:
            continue
        v = hundreds * 100 + rest
        # (or a price of one thing, "their estimate is six-fifty a square": no time of day is priced per square)
        # (cost parts listed together, each said so, make one another money: "eight-fifty labor, three-ten materials";
        # one alone, "labor four-eighty", may be $4.80 and is not read)
        # (or a permit's fee, "the opening permit fee is one-fifty": no permit costs $1.50)
        permit_fee = g == "h1" and re.search(r"\bfees?\s", m.group(0), re.I) \
            and re.search(r"\bpermit\b[^.?!]{0,30}$", text[:m.start()] + m.group(0)[:m.group(0).lower().find("fee")], re.I)
        if permit_fee or any(a / 10 <= v <= a * 10 for a in amounts) or _PER_THING_AFTER.match(text, m.end(r)) or (
                g in ("h2", "h3") and len(said_parts) >= 2 and not re.search(r"\b(?:at|by|around|about|until|till|after|before|from)\s+$",
                                                    text[:m.start(g)], re.I)):
            add("money", v, "USD", m.start(g), m.end(r))
    for m in NUMBER.finditer(text):
        # "it runs a couple hundred a square", "twelve hundred per load": hundreds or thousands in words priced per thing
        if re.search(r"hundred|thousand", m.group(0), re.I) and _PER_THING_AFTER.match(text, m.end()):
            v = number_value(m)
            if v is not None:
                add("money", v, "USD", m.start(), m.end())
    for m in _RATE_CUED.finditer(text):
        # "rate 31,50/hr": a pay rate with no currency written is money an hour, never a duration
        if m.group("n2") is not None:
            said = NUMBER.fullmatch(m.group("n2"))
            v = number_value(said) if said is not None else None
            if v is not None and v >= 10:  # ("makes 2 an hour" is no wage read)
                add("money", v, "USD/hour", m.start("n2"), m.end())
            continue
        v = number_value(m)
        if v is not None:
            add("money", v, "USD/hour", m.start("n"), m.end())
    for m in _PERCENT.finditer(text):
        v = number_value(m)
        if v is not None:
            add("percent", v, "%", m.start(), m.end())
    # (or, with none counted so, the one such noun the words name: "11 out of 20. ... just the bad squares?")
    named = [m.group("u").lower() for m in _OUT_OF.finditer(text)] or \
        [w.lower() for w in re.findall(r"\b(blocks|squares|slabs|sections)\b(?!\s+(?:feet|foot|ft|yards?|inch))", text, re.I)]
    for m in _OUT_OF.finditer(text):
        u = m.group("u").lower()
        add("count", Decimal(m.group("a")), u, m.start("a"), m.end("a"))
        add("count", Decimal(m.group("b")), u, m.start("b"), m.end())
    if len(set(named)) == 1:
        # "14 of my 20 squares ..., on his it's 11 out of 20": the same thing counted again, its noun not repeated
        for m in _OUT_OF_BARE.finditer(text):
            add("count", Decimal(m.group("a")), named[0], m.start("a"), m.end("a"))
            add("count", Decimal(m.group("b")), named[0], m.start("b"), m.end("b"))
    def feet_and_inches(ft: Decimal, inch: Decimal, a: int, b: int) -> None:
        total = ft * 12 + inch  # in feet when exact ("5 feet 6 inches": 5.5 ft), else in inches (59 in)
        add("length", total / 12, "ft", a, b) if total % 3 == 0 else add("length", total, "in", a, b)

    for m in _FRACTION_OF.finditer(text):
        # "two-thirds of a foot" (8 inches, never "a foot"), "a tenth of a mile" (528 feet), "half a foot"
        if m.group("u").lower() in ("hour", "ton"):
            continue  # (read above)
        num = 1 if (m.group("num") or "a").lower() in ("a", "an", "one") else _HOUR_WORDS[m.group("num").lower()]
        den = _DENOMINATORS[re.sub(r"(?:ves|s)$", "", m.group("den").lower()) if m.group("den").lower() != "halves" else "half"]
        u = m.group("u").lower()
        feet = Decimal(num) / den * {"foot": 1, "yard": 3, "mile": 5280}.get(u, Decimal(1) / 12)
        if u == "inch":
            add("length", feet * 12, "in", m.start(), m.end())
        elif (feet * 12) == int(feet * 12) and feet < 1:
            add("length", feet * 12, "in", m.start(), m.end())
        else:
            add("length", feet, "ft", m.start(), m.end())
    for m in _DIGIT_FRACTION_OF.finditer(text):
        # "3/4 of an inch" (0.75 inches, never "an inch"), "1/2 of a foot"
        num, den = Decimal(m.group("num")), Decimal(m.group("den"))
        if den == 0:
            continue
        u = m.group("u").lower()
        if u == "inch":
            add("length", num / den, "in", m.start(), m.end())
        elif u == "foot":
            add("length", num / den * 12, "in", m.start(), m.end())
        elif u == "mile":
            add("length", num / den * 5280, "ft", m.start(), m.end())
        elif u == "hour":
            add("duration", num / den, "hours", m.start(), m.end())
        elif u == "ton":
            add("weight", num / den, "tons", m.start(), m.end())
    for m in _FEET_INCHES.finditer(text):
        feet_and_inches(Decimal(m.group("ft")), Decimal(m.group("in")), m.start(), m.end())
    for m in _WORD_FOOT_INCH.finditer(text):
        ft, inch = worded_number(m.group("ft")), worded_number(m.group("in"))
        if ft is not None and inch is not None and inch < 12:
            feet_and_inches(ft, inch, m.start(), m.end())
    for m in _LENGTH.finditer(text):
        v = number_value(m)
        if v is None:
            continue
        u = m.group("u").lower()
        v += _after_unit(m)
        if u.startswith("y"):  # "90 yards": feet, three to the yard
            add("length", v * 3, "ft", m.start(), m.end())
            continue
        if u in "'’" and _closes_quote(text, m.start()):
            continue  # "the data plate says 'weight 2.9'": the mark closes a quotation, it is no foot
        add("length", v, "ft" if u[0] in "f'’" else "in", m.start(), m.end())
    for m in _METRIC.finditer(text):
        v = number_value(m)
        if v is None or not _free(taken, m.start(), m.end()):
            continue
        inches = (v * _CM_PER[m.group("u").lower()[:2]] / Decimal("2.54")).quantize(Decimal("0.01"))
        taken.append((m.start(), m.end()))
        out.append(_slot("length", _norm(inches), "in", text, origin, m.start(), m.end()).model_copy(
            update={"worked": f"{_norm(inches)} inches, at 2.54 centimeters to the inch"}))
    for m in _TONS_AND_POUNDS.finditer(text):
        # "6 tons 500 lbs", "3 tons and 400 pounds": one weight, as "4 ft 6 in" is one length
        tons, pounds = Decimal(m.group("t")), Decimal(m.group("p").replace(",", ""))
        if pounds < 2000:
            add("weight", tons + pounds / 2000, "tons", m.start(), m.end())
    for m in _WEIGHT.finditer(text):
        v = number_value(m)
        if v is not None:
            v += _after_unit(m)  # "a ton and a half"
            u = m.group("u").lower()
            add("weight", v if u.startswith("ton") else v / 2000, "tons", m.start(), m.end())
    durations = []
    for m in _DURATION.finditer(text):
        v = number_value(m)
        if v is None:
            continue
        v += _after_unit(m)
        u = m.group("u").lower().rstrip(".")
        unit = _UNIT_ABBREVIATIONS.get(u, u if u.endswith("s") else u + "s")
        larger = _COMPOUND.get(unit)
        if durations and larger and durations[-1][1] == larger[0] \
                and _HOURS_THEN_MINUTES.fullmatch(text[durations[-1][3]:m.start()]):
            h, _, a, _ = durations.pop()  # "1 hour 25 minutes", "4 years 3 months": one duration, in the smaller unit
            durations.append((h * larger[1] + v, unit, a, m.end()))
            continue
        more = _MINUTES_AFTER.match(text, m.end()) if unit == "hours" and not m.group("uhalf") else None
        if more:  # "an hour fifteen", "two hours thirty": the minutes said without their unit
            mins = worded_number(more.group("mm")) if not more.group("mm").isdigit() else Decimal(more.group("mm"))
            if mins is not None and 0 < mins < 60:
                durations.append((v * 60 + mins, "minutes", m.start(), more.end("mm")))
                continue
        durations.append((v, unit, m.start(), m.end()))
    for v, unit, a, b in durations:
        add("duration", v, unit, a, b)
    for m in _ORDINAL.finditer(text):  # "the second row of sections": a count of rows
        add("count", Decimal(_ORDINALS.index(m.group(1).lower()) + 1), m.group(2).lower().rstrip("s") + "s",
            m.start(), m.end())
    for rx in (_COUNT, _PEOPLE_COUNT):
        for m in rx.finditer(text):
            v = number_value(m)
            if v is None or v != int(v):
                continue
            u = {"laborers": "workers", "labourers": "workers"}.get(m.group("u").lower(), m.group("u").lower())
            add("count", v, u if u.endswith("s") else u + "s", m.start(), m.end())
    for rx in _CREW_OF:  # "a crew of 2", "a three-man crew": a head count of workers
        for m in rx.finditer(text):
            said = NUMBER.match(m.group("n"))
            v = number_value(said) if said is not None else None
            after = text[m.start("n") + said.end():m.start("n") + said.end() + 12] if said is not None else ""
            if v is None or v != int(v) or re.match(r"\s*(?:hours?|hrs?|days?|trucks?|plows?|tons?|feet|ft)\b", after, re.I):
                continue
            # (the span the count is shown by: "crew of 2", "three-man crew")
            add("count", v, "workers", m.start(), m.end() if rx is _CREW_OF[1] else m.start("n") + said.end())
    for m in _OF_THEM.finditer(text):
        # "village guys came ... two of them": the people the words before name (the nearest, within the story)
        v = number_value(m)
        named = list(_PEOPLE_BEFORE.finditer(text, max(0, m.start() - 240), m.start()))
        if v is None or v != int(v) or not named:
            continue
        add("count", v, "workers" if named[-1].group("u").lower() in ("laborers", "labourers", "crew", "crews", "drivers",
                                                                     "plow drivers") else
            re.sub(r"\s+", " ", named[-1].group("u").lower()), m.start(), m.end())
    for slot in [x for x in out if x.kind == "count"]:
        # "4 houses on the north side, 5 on the south": the second number counts the same things
        m = _ALSO_COUNT.match(text, slot.span.end)
        if m:
            g = "n" if m.group("n") is not None else "n2" if m.group("n2") is not None else "n3"
            v = number_value(m) if g == "n" else number_value(NUMBER.fullmatch(m.group(g)))
            if v is not None and v == int(v):
                add("count", v, slot.unit, m.start(g), m.end(g))
    for slot in [x for x in out if x.kind in ("length", "weight", "duration")]:
        # "the plans say 5 ft wide but she wants 6": a bare number set against a measure, in its unit
        m = _SET_AGAINST_BARE.match(text, slot.span.end)
        if m is None and _SAYS.search(text[max(0, slot.span.start - 25):slot.span.start]):
            # "his timesheet says 1.5 hours and the foreman's log says 2": two records of one measure
            m = _SAYS_AGAINST_BARE.match(text, slot.span.end)
        if m:
            v = number_value(m)
            if v is not None and v > 0:
                add(slot.kind, v, slot.unit, m.start("n"), m.end("n"))
    for slot in [x for x in out if x.kind == "date" and x.precision == "year"]:
        # "the county's records say it was paved in 2021, but the village's map says 2023": a bare year set against
        # a year is another reading of the same date (two values, so the reading asks which one)
        m = _SET_AGAINST_BARE.match(text, slot.span.end)
        if m and re.fullmatch(r"(?:19|20)\d\d", m.group("n")) and _free(taken, m.start("n"), m.end("n")):
            taken.append((m.start("n"), m.end("n")))
            out.append(_slot("date", f"{m.group('n')}-01-01", None, text, origin, m.start("n"), m.end("n"), "year"))
    for slot in [x for x in out if x.kind in ("length", "weight", "duration")]:
        # "anywhere from 6,400 to 7,000 lbs", "2-3 hours", "between 5 and 6 feet": the unit written once after
        # a range is the first number's too (two values, so the reading asks which one, never takes one)
        m = _RANGE_HEAD.search(text, max(0, slot.span.start - 40), slot.span.start)
        rest = re.match(rf"\s*(?:{NUMBER.pattern})\s*(?P<u>.*)$", slot.span.text, re.I)
        if m and re.search(r"\b(?:phase|stage|lot|unit|tract|outlot|no\.?|number|#)\s*$", text[:m.start("n")], re.I):
            m = None  # ("Fox Hollow phase 2 - 1,320 ft of new road": a name's number, no first end of a range)
        if m and rest and rest.group("u") and (m.group("sep").lower() != "and" or m.group("between")):
            first = re.sub(r"^(?:a\s+)?couple(?:\s+of)?$", "a couple", m.group("n"), flags=re.I)
            again = [x for x in read_slots(f"{first} {rest.group('u')}", origin, ref) if x.kind == slot.kind]
            if again and again[0].span.start == 0:
                add(slot.kind, Decimal(again[0].value), again[0].unit, m.start("n"), m.end("n"))
    for slot in [x for x in out if x.kind == "money" and "/" in (x.unit or "")]:
        # "thirty-six bucks an hour, the other forty-two" ("... an hour with benefits, the other thirty-one"): the
        # amount the other one is paid, in the same unit
        m = _THE_OTHER.match(text, slot.span.end)
        if m:
            v = number_value(m)
            if v is not None and not (m.group("dollar") is None and v != int(v) and v < 1):
                at = m.start("dollar") if m.group("dollar") else m.start("n")
                plain = next((i for i, x in enumerate(out) if x.kind == "money" and x.unit == "USD"
                              and x.span.start == at and x.span.origin == origin), None)
                if plain is not None:  # "... and the other $28.80 with benefits": read as an amount, it is a rate too
                    out[plain] = out[plain].model_copy(update={"unit": slot.unit})
                else:
                    add("money", v, slot.unit, m.start("n"), m.end("n"))
    out = [s for s in out if not _restated(s, out, text) and not _a_persons_age(s, text) and not _todays_date(s, out, text)]
    return _shared_units(sorted(out, key=lambda s: (s.span.origin, s.span.start)), text)


# a person's (or a pet's) age, never a period of the case: "my 8-year-old son", "I'm 72 years old", "she's 80"
_PERSON_AFTER = re.compile(r"^\s*(?:-?\s*old\s+)?(?:son|daughter|kid|child|children|boy|girl|grand(?:son|daughter|kid|child)s?|"
                           r"niece|nephew|twins?|dog|puppy|cat|mother|father|mom|dad|neighbou?r|widow(?:er)?)\b", re.I)
_PERSON_BEFORE = re.compile(r"\b(?:who\s+is|who['’]s|i['’]m|i\s+am|he['’]s|she['’]s|he\s+is|she\s+is|we['’]re|we\s+are|they['’]re|they\s+are|"
                            r"turned|turning|aged?)\s+$", re.I)


def _a_persons_age(s: Slot, text: str) -> bool:
    if s.kind != "duration" or s.unit != "years":
        return False
    after = text[s.span.end:s.span.end + 30]
    old = re.match(r"^\s*(?:-\s*)?old\b", after, re.I)
    return bool(_PERSON_AFTER.match(after) or (old and _PERSON_AFTER.match(after[old.end():]))
                or (_PERSON_BEFORE.search(text[max(0, s.span.start - 20):s.span.start])))


# "Today is the 19th.", "today's date is April 19", "It's Friday, April 19 today.": the user saying what day it is —
# the day counted to, never an event counted from (a "letter dated April 13 ... Today is the 19th" has one event date)
_TODAY_IS = (re.compile(r"^\s*(?:(?:and|but|so)\s+)?(?:today(?:['’]s\s+date)?|the\s+date\s+today)\s+is\s+(?P<d>.+?)\s*$", re.I),
             re.compile(r"^\s*(?:(?:and|but|so)\s+)?it(?:['’]s|\s+is)\s+(?P<d>.+?)\s+today\s*$", re.I))
# "today's the 14th", "today is Monday the 3rd", "today's date is": the words right before a date that say it is today's
_TODAY_IS_BEFORE = re.compile(r"\b(?:today['’]s|today\s+is|today['’]s\s+date\s+is|the\s+date\s+today\s+is)\s+(?:now\s+|already\s+)?$",
                              re.I)
_TODAY_IS_AFTER = re.compile(r"(?:['’]s|\s+is)\s+(?:the\s+date\s+|now\s+|already\s+)?(?:the\s+)?(?:\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|"
                             r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)", re.I)
_TODAY_FILLER = re.compile(r"^(?:the|now|already|of|a|(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day|\d{1,2}(?:st|nd|rd|th)))$", re.I)


def _todays_date(s: Slot, found: list[Slot], text: str) -> bool:
    """A date (or the word "today") in a sentence that says only what day today is."""
    if s.kind != "date":
        return False
    if _TODAY_IS_BEFORE.search(text, 0, s.span.start) and not re.match(r"\s*(?:(?:at|by|around)\s+)?\d", text[s.span.end:]):
        return True  # "... for the lots - today's the 14th of July and the lenders are asking": what day today is
    if re.fullmatch(r"today", s.span.text.strip(), re.I) and _TODAY_IS_AFTER.match(text, s.span.end):
        return True  # ("today" in "today's the 14th of July" names no event either)
    start = max(text.rfind(c, 0, s.span.start) for c in ".!?;\n") + 1
    ends = [k for k in (text.find(c, s.span.end) for c in ".!?;\n") if k >= 0]
    sentence = text[start:min(ends) if ends else len(text)]
    for rx in _TODAY_IS:
        m = rx.match(sentence)
        if not m:
            continue
        a = start + m.start("d")
        rest = list(text[a:start + m.end("d")])
        for x in found:
            if x.kind == "date" and a <= x.span.start and x.span.end <= a + len(rest):
                rest[x.span.start - a:x.span.end - a] = " " * (x.span.end - x.span.start)
        words = [_TODAY_FILLER.match(w) for w in re.findall(r"[a-z']+|\d+(?:st|nd|rd|th)?", "".join(rest), re.I)]
        inside = any(x.kind == "date" and a <= x.span.start and x.span.end <= a + len(rest) for x in found)
        return all(words) and (inside or any(w.group("day") for w in words))
    return False


# "this morning (Tuesday, February 2, 2027)": a relative day restated in brackets by its date
_RELATIVE_DAY = re.compile(r"^(?:today|tonight|tomorrow|yesterday|this\s+(?:morning|afternoon|evening)|last\s+night)$", re.I)


def _restated(s: Slot, found: list[Slot], text: str) -> bool:
    """A relative day the user restates at once in brackets with its date: the date is the day meant (it may be
    another day than the assistant's today), the relative words are no second date."""
    if s.kind != "date" or not _RELATIVE_DAY.match(s.span.text.strip()):
        return False
    m = re.match(r"\s*\(", text[s.span.end:])
    if not m:
        return False
    at = s.span.end + m.end()
    return any(x.kind == "date" and x.precision == "day" and x is not s and at <= x.span.start <= at + 12
               for x in found)


# "$310 per square", "$1,150 per 100 sq ft", "$18 a linear foot", "$40/slab": a price of one thing (or of N units),
# never a total the user owes; its unit says what it prices ("USD/square", "USD/100 sq ft")
# ("$150 per the clerk", "$2,400 per our contract": according to, no price of one thing)
PRICE_OF = re.compile(r"(?:\s*per\s+(?!(?:the|our|my|his|her|their|your|this|that|its|code|ordinance)\b)|/(?=[a-z\d])|\s+for\s+(?:each|every)\s+|\s+(?P<a>an?)\s+)(?P<n>\d[\d,]*(?:\.\d+)?\s*)?"
                       r"(?P<thing>(?:square|sq\.?|lineal|linear|cubic|running)\s*(?:feet|foot|ft|yards?|yds?)\.?|"
                       r"[a-z][a-z-]{2,}?)(?=[^a-z-]|$)", re.I)
# after "a"/"an" only these are priced ("$3,000 a few weeks ago" is not "per few")
_PRICED_BY_A = re.compile(r"(?:square|sq|lineal|linear|cubic|running|slab|block|panel|section|flag|foot|yard|ton|"
                          r"cart|rack|box|tree|sign|load|truckload|piece|unit|lot|square|bag|sack|sheet|bucket|pail|roll|"
                          r"gallon|pallet|barrel|bundle|stick|length)", re.I)
_TIME_UNITS = re.compile(r"^(?:hours?|hrs?|days?|weeks?|months?|years?|occasions?|times?|visits?|trips?)$", re.I)


def user_slots(text: str, origin: Origin = "turn", ref: date | None = None, context: str = "") -> list[Slot]:
    """The values of the user's own words: ``read_slots``, with an amount priced per thing read as such."""
    # (``context``: the conversation's earlier words, for the month a bare "Thursday the 19th" is in)
    read = _restated_dates(read_slots(text, origin, ref, context), text)
    return [_priced_each(_priced_per(s, text), text, read) for s in read]


# between a date and its restatement: "last fall, October 2027", "next month (June 12)", "in 2021 - May 2021"
_RESTATING = re.compile(r"\s*(?:,|\(|-|–|—|:|;)?\s*(?:i\.e\.,?|that is,?|so|or rather|actually|specifically|namely)?\s*", re.I)


def _days_of(s: Slot) -> tuple[date, date]:
    """The first and last day a date's words may mean."""
    if s.days is not None:
        return s.days
    first = s.day
    last = {"week": first + relativedelta(days=6), "month": first + relativedelta(months=1, days=-1),
            "year": date(first.year, 12, 31)}.get(s.precision or "day", first)
    return first, last


_WEEKDAY_WORDS = re.compile(r"(?:next|last|this coming|this past)\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day", re.I)


def _restated_dates(read: list[Slot], text: str) -> list[Slot]:
    """A date said again more closely right after it ("repaved last fall, October 2027"): one date, read as the
    closer words (the looser ones are dropped; both are never two dates)."""
    dated = sorted((s for s in read if s.kind == "date"), key=lambda s: s.span.start)
    drop = set()
    for a, b in zip(dated, dated[1:]):
        if not _RESTATING.fullmatch(text[a.span.end:b.span.start]):
            continue
        # ("next Friday, March 3": the date is one of the two days "next Friday" may mean; it says which)
        weekday = [x for x in (a, b) if _WEEKDAY_WORDS.fullmatch(x.span.text.strip()) and x.precision == "week"]
        other = b if weekday and weekday[0] is a else a
        if weekday and other.precision == "day" and other.day in weekday_readings(weekday[0]):
            drop.add(id(weekday[0]))
            continue
        (a1, a2), (b1, b2) = _days_of(a), _days_of(b)
        if (a1, a2) == (b1, b2):
            continue
        if a1 <= b1 and b2 <= a2:
            drop.add(id(a))
        elif b1 <= a1 and a2 <= b2:
            drop.add(id(b))
    return [s for s in read if id(s) not in drop]


# "... at $410 each", "at three hundred twenty-five bucks apiece": the price of one of the things counted before it
_EACH = re.compile(r"\s*(?:each|apiece|a piece|a pop|per (?:one|piece|each))\b", re.I)


def _priced_each(slot: Slot, text: str, read: list[Slot]) -> Slot:
    """"6 squares at $410 each", "a dozen slabs at three hundred twenty-five bucks apiece": the amount is the price of
    one counted thing (its unit "USD/square"), priced with the count as "$410 per square" is; any other slot as is."""
    if slot.kind != "money" or slot.unit != "USD" or not _EACH.match(text, slot.span.end):
        return slot
    count = next((c for c in sorted(read, key=lambda x: -x.span.start) if c.kind == "count" and c.unit
                  and c.span.end <= slot.span.start), None)
    if count is None or not re.fullmatch(r"\s+(?:[a-z-]+\s+){0,3}?(?:at|@|for)\s+", text[count.span.end:slot.span.start], re.I):
        return slot
    thing = count.unit.lower()
    return slot.model_copy(update={"unit": f"USD/{thing[:-1] if thing.endswith('s') and len(thing) > 3 else thing}"})


# amounts joined as parts of one sum: "$2,500 for the slabs plus $750 for the apron", "$1,200 + $300", "... and
# another $400 for the steps" (a join of other words, "and", a comma, is not read as adding: the parts are asked)
_PLUS = re.compile(r"^\s*(?:(?:for|in|of|on)\s+)?(?:[\w'’-]+\s+){0,6}?[\w'’-]*\s*,?\s*(?:plus|\+|and another|and an additional|"
                   r"and an extra|on top of that,?)\s+(?:another\s+|an(?: additional| extra)\s+)?$", re.I)
_NOT_ADDED = re.compile(r"\b(?:mine|his|hers|theirs|ours|yours|other|neighbou?r|then|later|but|or|instead|revised|"
                        r"per|each|a month|a year|a week|a day|an hour)\b", re.I)


def added_to(a: Slot, b: Slot, text: str, slots: Iterable[Slot] = ()) -> bool:
    """Do the words between two amounts add the second to the first ("$2,500 for the slabs plus $750")?"""
    between = text[a.span.end:b.span.start]
    if any(a.span.end <= y.span.start and y.span.end <= b.span.start for y in slots):
        return False  # another value between them
    return bool(_PLUS.match(between)) and not _NOT_ADDED.search(between) and not re.search(r"[.;!?]", between)


def summed(slots: list[Slot], text: str) -> list[Slot]:
    """Money amounts (not rates) the words join as parts of one sum, read as one amount: its span both, its working
    said ("“$2,500” + “$750”"). Other slots are kept as they are."""
    ordered = sorted(slots, key=lambda x: x.span.start)
    money = [x for x in ordered if x.kind == "money" and x.unit == "USD"]
    runs: list[list[Slot]] = []
    for x in money:
        if runs and added_to(runs[-1][-1], x, text, ordered):
            runs[-1].append(x)
            continue
        runs.append([x])
    joined = [r for r in runs if len(r) > 1]
    if not joined:
        return slots
    gone = {id(x) for r in joined for x in r}
    out = [x for x in slots if id(x) not in gone]
    for r in joined:
        a, b = r[0].span.start, r[-1].span.end
        total = sum((x.number for x in r), Decimal(0))
        out.append(Slot(kind="money", value=_norm(total), unit="USD", span=Span(origin=r[0].span.origin, start=a, end=b,
                                                                                  text=text[a:b]),
                        before=r[0].before, after=r[-1].after, worked=" + ".join(f"“{x.span.text}”" for x in r)))
    return sorted(out, key=lambda x: x.span.start)


def _priced_per(slot: Slot, text: str) -> Slot:
    """The user's amount as a price of one thing when the words right after it say so ("$310 per square"); any
    other slot unchanged (a rate in time, "$42 an hour", is read as such before)."""
    if slot.kind != "money" or slot.unit != "USD":
        return slot
    m = PRICE_OF.match(text, slot.span.end)
    if not m or _TIME_UNITS.match(m.group("thing")) or (m.group("a") and not _PRICED_BY_A.match(m.group("thing"))):
        return slot
    thing = re.sub(r"\s+", " ", m.group("thing").lower()).rstrip(".")
    n = (m.group("n") or "").strip().replace(",", "")
    return slot.model_copy(update={"unit": f"USD/{n + ' ' if n else ''}{thing}"})


# the first number of a range, in digits or words ("2-3 hours", "two or three hours", "a couple-three hours")
_RANGE_HEAD = re.compile(rf"(?P<between>\bbetween\s+)?(?P<n>\d[\d,]*(?:\.\d+)?|{WORDED.pattern}|\b(?:a\s+)?couple(?:\s+of)?)"
                         r"\s*(?P<sep>to|or|-|–|—|and)\s*$", re.I)
# "4 houses on the north side, 5 on the south", "5 houses on our side, 4 across the street" (a comma is needed:
# without one, "... and five on the south" gave slot-stress 6 (unseen) a wrong figure when it was tried)
_ALSO_COUNT = re.compile(rf"[^.;,]{{0,30}}?(?:,\s*(?:and\s+|but\s+)?(?P<n>{NUMBER.pattern})\s+(?:of\s+us\s+)?"
                         r"(?:(?:on|in|at|along|for)\s+the\b|across\b|opposite\b)|"
                         # "6 homeowners on the east side and 4 of us on the west side"
                         rf"\s+and\s+(?P<n3>{NUMBER.pattern.replace('?P<', '?P<c_')})\s+of\s+us\s+(?:on|in|along)\s+(?:the|this|our|my)\b|"
                         # "9 homes on that side and 7 on ours": no comma, but the other side named as such
                         rf"\s+and\s+(?P<n2>{NUMBER.pattern.replace('?P<', '?P<b_')})\s+on\s+(?:ours|our\s+side|mine|my\s+side|"
                         r"theirs|this\s+side|the\s+other\s+side|the\s+opposite\s+side)\b)", re.I)
_DENOMINATORS = {"half": Decimal(2), "third": Decimal(3), "quarter": Decimal(4), "fourth": Decimal(4), "fifth": Decimal(5),
                 "eighth": Decimal(8), "tenth": Decimal(10)}
_ORDINAL_DAYS = {w: i + 1 for i, w in enumerate(
    ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth "
     "sixteenth seventeenth eighteenth nineteenth twentieth twenty-first twenty-second twenty-third twenty-fourth "
     "twenty-fifth twenty-sixth twenty-seventh twenty-eighth twenty-ninth thirtieth thirty-first").split())}
_ORD_WORD = r"(?:twenty|thirty)[- ](?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|" + "|".join(
    sorted((w for w in _ORDINAL_DAYS if "-" not in w), key=len, reverse=True))
_WORDED_DAY = re.compile(
    rf"\bthe\s+(?P<d1>{_ORD_WORD}|[0-3]?\d(?:st|nd|rd|th))\s+of\s+(?P<m1>{dates._MON[1:-1]})\b|"
    rf"\b(?P<m2>{dates._MON[1:-1]})\.?\s+(?:the\s+)?(?P<d2>{_ORD_WORD}|(?<=the\s)[0-3]?\d(?:st|nd|rd|th)|"
    rf"[0-3]?\d(?:st|nd|rd|th)(?=,?\s+(?:two\s+thousand|twenty\s+twenty)))\b", re.I)
_YEAR_AFTER = re.compile(r",?\s+(?:of\s+)?(?:(?P<y>(?:19|20)\d\d)\b|(?P<yw>two\s+thousand(?:\s+and)?(?:\s+[a-z]+(?:-[a-z]+)?)?|"
                         r"twenty\s+(?:twenty|thirty)(?:[- ][a-z]+)?))", re.I)


def _worded_year(words: str) -> int | None:
    """'two thousand twenty-five' -> 2025; 'twenty twenty-seven' -> 2027."""
    w = words.lower().replace(" and ", " ")
    m = re.fullmatch(r"twenty\s+(twenty|thirty)(?:[- ]([a-z]+))?", w)
    if m:
        rest = worded_number(m.group(2)) if m.group(2) else Decimal(0)
        return 2000 + (20 if m.group(1) == "twenty" else 30) + int(rest or 0) if rest is not None else None
    v = worded_number(w)
    return int(v) if v is not None and 1900 <= v <= 2100 else None


_DIGIT_WORDS = {"zero": 0, "oh": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9}
_ONES = "one|two|three|four|five|six|seven|eight|nine"
_DIGIT_WORD = "|".join(_DIGIT_WORDS)
_WORDED_DECIMAL = re.compile(
    rf"\b(?P<i>{WORDED.pattern}|zero)\s+point\s+(?P<f>(?:{_DIGIT_WORD})(?:\s+(?:{_DIGIT_WORD}))*)\s*"
    r"(?P<u>hours?|hrs?\.?|feet|foot|ft\.?|inch(?:es)?|tons?|percent|%)", re.I)
# "an hour fifteen": minutes after hours with no unit of their own (never before another unit or a noun)
_MINUTES_AFTER = re.compile(r"\s+(?P<mm>fifteen|twenty|twenty-five|thirty|thirty-five|forty|forty-five|forty five|fifty|"
                            r"[1-5]\d|[1-9])\b(?![-/:.]\d)(?=\s*(?:[,;!?)]|\.(?!\d)|$|(?:each|apiece|at|on|for|and|with|"
                            r"today|yesterday|this|last)\b))", re.I)
_TONNES = re.compile(rf"(?P<n>{NUMBER.pattern})\s*(?:-\s*)?(?:metric\s+tons?|tonnes?|MT\b)", re.I)
# a weight in "t" or "T" alone: metric tonnes or US tons, not said
AMBIGUOUS_TONS = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s*[tT](?![\w'’])")
_K_POUNDS = re.compile(r"\b(?P<v>\d+(?:[.,]\d+)?)\s*[kK]\s*(?:lbs?\.?|pounds?)\b")
_DOLLARS_CENTS_RATE = re.compile(
    rf"\b(?P<d>(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:{_ONES}))?)"
    rf"\s+(?P<c>(?:ten|fifteen|twenty|twenty-five|thirty|forty|forty-five|fifty|sixty|seventy|seventy-five|eighty|ninety)"
    rf"(?:[- ](?:{_ONES}))?)\s+(?:an|a|per)\s+hour\b", re.I)
# "two-thirds of a foot", "three quarters of an hour", "nine tenths of a ton" (an hour or a ton only with "a"/"an": "half
# hour" is read elsewhere)
_FRACTION_OF = re.compile(rf"\b(?:(?P<num>a|an|{_ONES})[- ])?(?P<den>half|halves|thirds?|"
                          r"quarters?|fourths?|fifths?|eighths?|tenths?)\s+(?:of\s+)?(?:(?P<art>an?)\s+)?"
                          r"(?P<u>foot|mile|inch|yard|hour|ton)\b", re.I)
# "3/4 of an inch", "1/2 of a foot": a fraction in digits of one unit
_DIGIT_FRACTION_OF = re.compile(r"(?<![\d/.])(?P<num>\d{1,2})\s*/\s*(?P<den>\d{1,2})\s+of\s+an?\s+(?P<u>inch|foot|mile|hour|ton)\b",
                                re.I)
# a clause told in the past ("they assigned it", "it came", "we dug") or of days to come ("will", "we're pouring")
_TOLD_AS_PAST = re.compile(r"\b(?:was|were|did|got|had|came|went|sent|gave|told|paid|took|dug|left|began|quit|stopped|"
                           r"put|brought|ran|hit|cut|broke|fell|saw|found|[a-z]{3,}ed)\b", re.I)
_TOLD_AS_FUTURE = re.compile(r"\b(?:will|going\s+to|gonna|plan(?:ning|s)?|scheduled|supposed|expect(?:ed|ing)?|want|need|"
                             r"hope|hoping|should|can|could|would|be|"
                             # ("If we end up doing an emergency dig on a busted main this Wednesday": a day supposed)
                             r"if|end\s+up)\b|['’]ll\b|"
                             r"(?:['’]re|['’]m|\b(?:is|are|am))\s+(?:\w+\s+)?\w+ing\b", re.I)


# a verb of the present nearer the day than the past one: "the permit they issued expires this Friday" is a day to come
# (a present-tense act of the user's with a weekday is one to come: "we start backfilling on Friday", "we pour Friday")
_BARE_DAY_AHEAD = re.compile(r"\b(?:we|i|they|crew|contractor)\s+(?:\w+\s+)?(?:start|begin|pour|dig|open|close|set|move|"
                             r"deliver|pave|backfill|excavate|cut|trench|work|demo|remove|install|place|bring|pay|drop|file|submit|mail|hand)s?\b|"
                             r"\b(?:set|about|ready|due|slated)\s+to\b", re.I)
_PRESENT_VERB = re.compile(r"\b(?:expires?|starts?|ends?|runs?|opens?|closes?|begins?|is|are|comes?|goes?|happens?|lapses?|"
                           r"due|pours?|digs?|needs?|has|have)\b", re.I)


def _told_as_past(clause: str) -> bool:
    """Whether the clause before a day tells it as gone by ("the inspector assigned our number this Tuesday"): a verb
    of the past, none of days to come, and no verb of the present after it."""
    past = list(_TOLD_AS_PAST.finditer(clause))
    if not past or _TOLD_AS_FUTURE.search(clause):
        return False
    return not _PRESENT_VERB.search(clause, past[-1].end())


def _clause_before(text: str, pos: int) -> str:
    """The words of the clause before ``pos`` (from the last sentence or clause break, at most 80 characters)."""
    head = text[max(0, pos - 80):pos]
    return re.split(r"[.?!;]|\band\b|\bbut\b", head)[-1]


_TIME_BEFORE = re.compile(r"(?:\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|thirty|"
                          r"forty-five|o['’]clock|noon))\s*$", re.I)
_MILITARY_TIME = re.compile(
    r"(?P<at>\b(?:at|@|starts?|starting|begins?|beginning|by|until|till)\s+)?\b(?P<hh>[01]\d|2[0-3])(?P<mm>[0-5]\d)\s*"
    r"(?P<u>hrs\b\.?|hours\b|h\b)(?P<day>(?=,?\s+(?:on\s+)?(?:mon|tue|wed|thu|fri|sat|sun|today|tomorrow|\d{1,2}/)))?", re.I)
_MILITARY_AT = re.compile(r"(?:(?P<sign>@)\s*|\bat\s+)(?P<hh>[01]\d|2[0-3])(?P<mm>[0-5]\d)\b(?![.,:/]?\d)"
                          r"(?!\s*(?:feet|foot|ft|inch|inches|pounds?|lbs?|tons?|%|percent|dollars?|sq|square|hours?|hrs?))",
                          re.I)
_HOUR_WORDS = {w: i + 1 for i, w in enumerate(("one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                                "ten", "eleven", "twelve"))}
# the minutes of a time said in words ("nine-thirty at night", "ten forty-five tonight")
_MINUTE_WORDS = {"oh five": 5, "ten": 10, "fifteen": 15, "twenty": 20, "twenty five": 25, "thirty": 30, "thirty five": 35,
                 "forty": 40, "forty five": 45, "fifty": 50, "fifty five": 55}
_WORD_TIME = re.compile(
    r"\b(?:(?P<q>a\s+quarter|quarter|half)\s+(?P<rel>past|after|to|of|till)\s+)?"
    r"(?P<h>one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d{1,2})(?::(?P<mmd>[0-5]\d))?"
    r"(?:[\s-]+(?P<mm>(?:twenty|thirty|forty|fifty)(?:[\s-](?:five))?|fifteen|ten|oh[\s-]five))?(?:\s+o['’]clock)?"
    r"(?=\s+(?P<when>this\s+(?:morning|afternoon|evening)|tonight|last\s+night|in\s+the\s+(?:morning|afternoon|evening)|"
    r"at\s+night|(?:tomorrow|today|yesterday)\s+(?:morning|afternoon|evening|night)))", re.I)
# "tomorrow night around 9", "Friday morning at 7:30": the part of the day, then the hour
_DAYPART_HOUR = re.compile(
    # (a date may stand between: "Friday night, January 12, around 10")
    rf"\b(?P<when>morning|afternoon|evening|night|tonight)\s*,?\s+(?:{dates._MON}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\s*,?\s+)?"
    r"(?:at|around|about|near|by|close\s+to|sometime\s+around)\s+"
    r"(?P<h>one|two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2})(?::(?P<mm>[0-5]\d))?\b"
    r"(?!\s*(?:[ap]\.?m\b|%|hours?|hrs?|minutes?|days?|feet|foot|ft|inch|inches|dollars|percent|o['’]clock)|[:\d])", re.I)
_HOUR_DAY_PART = re.compile(
    r"\b(?:at|around|about|near|by|until|till|after|before|roughly)\s+"
    r"(?P<h>one|two|three|four|five|six|seven|eight|nine|ten|eleven|\d{1,2})(?::(?P<mm>[0-5]\d))?\s+"
    r"(?:(?:this|next|last|on|coming|this\s+coming)\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
    r"tomorrow|today|yesterday)\s+(?P<when>morning|afternoon|evening|night)\b", re.I)
# an hour said bare ("crew on site at 9"), and the words of a sentence that name a part of the day
_BARE_HOUR_AT = re.compile(r"\b(?:at|around|about|by)\s+(?P<h>1[0-2]|[1-9])(?::(?P<mm>[0-5]\d))?\b"
                           r"(?!\s*(?:a\.?\s?m\b|p\.?\s?m\b|o['’]?clock|%|percent|feet|foot|ft|inch|in\b|hours?|hrs?|days?|"
                           r"weeks?|months?|years?|tons?|\$|dollars?|miles?|mph|degrees?|lbs?|pounds?|sq|square)|[-/.,:]\d)",
                           re.I)
_DAY_PART_WORD = re.compile(r"\b(morning|afternoon|evening|night|tonight)\b", re.I)


def _sentence_around(text: str, a: int, b: int) -> str:
    start = max(text.rfind(". ", 0, a), text.rfind("? ", 0, a), text.rfind("! ", 0, a), text.rfind("; ", 0, a))
    ends = [i for i in (text.find(". ", b), text.find("? ", b), text.find("! ", b), text.find("; ", b)) if i >= 0]
    return text[start + 1 if start >= 0 else 0:min(ends) if ends else len(text)]


_SET_AGAINST_BARE = re.compile(
    rf"[^.;!?\d]{{0,40}}?\b(?:but|though|although|whereas|while|or)\b[^.;!?\d$]{{0,50}}?\b(?P<n>{NUMBER.pattern})"
    r"(?=\s*(?:[,.;!?)]|$|\s+(?:and|but|so|or|instead|now|though)\b))", re.I)
_SAYS_VERB = r"(?:says?|said|shows?|showed|reads?|lists?|listed|records?|recorded|has\s+it\s+at|had\s+it\s+at|puts?\s+it\s+at)"
_SAYS = re.compile(rf"\b{_SAYS_VERB}\s+$", re.I)
_SAYS_AGAINST_BARE = re.compile(
    rf"[^.;!?\d]{{0,40}}?\b(?:and|but|while|whereas)\b[^.;!?\d$]{{0,50}}?\b{_SAYS_VERB}\s+(?P<n>{NUMBER.pattern})"
    r"(?=\s*(?:[,.;!?)]|$|\s+(?:and|but|so|or|instead|now|though)\b))", re.I)
# the things a price is said per ("six-fifty a square", "twelve hundred per load")
_PER_THING = r"square|slab|block|panel|foot|sq|yard|ton|load"
_MONEY_CUE = (r"\b(?:deposit(?:ed)?|paid|put down|bill(?:ed)?|cost|estimate|quoted?|price|came to|comes? to|came in at|"
              r"guarantee|bond|invoice|fee|assessment|"
              # an insurance policy's limits ("property damage seventy-five hundred an accident")
              r"property\s+damage|bodily\s+injury|liability|coverage|policy|"
              r"comes? in at|totall?ed|labou?r|materials?|equipment|parts)\s+"
              # ("the bill just came: sixteen-fifty")
              # ("the estimate they mailed says eleven and a half thousand", "the bill came back at two thousand ...")
              r"(?:(?:was|is|of|at|were|about|around|roughly|just|only|us|me|them|him|her|for|came|arrived|back|they|"
              r"mailed|sent|says|said|reads|shows)[:,]?\s+){0,3}")
# ("put down twenty-eight hundred as a deposit": the amount before what it was put down as; "twenty-eight hundred up
# front")
_MONEY_CUE_END = (rf"(?=\s*(?:[,.;!?)]|$|\s+(?:(?:a|an|per|each)\s+(?:{_PER_THING}|hour|day)\b|and|but|so|for|on|to|when|which|that|as|even|flat|up\s*front|upfront|in\s+advance|before|"
                  r"after|because|since|last|this|yesterday|today|back|(?:an?|per|each)\s+(?:person|accident|occurrence|"
                  r"claim))\b))")
# (not "sent invoice 7781 for $640": a bare number whose document is then priced in dollars is the document's number)
_MONEY_CUED = re.compile(rf"{_MONEY_CUE}(?P<n>{NUMBER.pattern}){_MONEY_CUE_END}(?!\s*(?:for|of)\s+\$)", re.I)
_DIGIT_NAMES = "one|two|three|four|five|six|seven|eight|nine|zero"
_MILLIONS = re.compile(rf"(?:(?P<w>\b(?:{_DIGIT_NAMES}|ten))\s+point\s+(?P<d>(?:(?:{_DIGIT_NAMES})\s*){{1,2}})|"
                       rf"\$?(?P<n>\b\d+(?:\.\d+)?))\s*(?:mil|million)\b"
                       r"(?!\s*(?:poly\w*|plastic|thick|sheet\w*|film|vapou?r|liner|visqueen|mils?)\b)", re.I)
_HUNDREDS_K = re.compile(rf"\b(?P<h>{_DIGIT_NAMES.replace('|zero', '')})[- ](?P<r>ten|eleven|twelve|thirteen|fourteen|fifteen|"
                         rf"sixteen|seventeen|eighteen|nineteen|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
                         rf"(?:-(?:{_DIGIT_NAMES.replace('|zero', '')}))?)\s*(?:k|grand)\b", re.I)
# "the bill came in at fourteen-eighty": hundreds said as two numbers (1,480), after a money cue
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
_TEENS = "eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
_PER_THING_AFTER = re.compile(rf"\s+(?:a|an|per|each)\s+(?:{_PER_THING})\b", re.I)
_HUNDREDS_SAID = re.compile(
    rf"{_MONEY_CUE}(?P<h>\b(?:{_TEENS}|(?:{_TENS})-(?:one|two|three|four|five|six|seven|eight|nine)|"
    rf"(?:one|two|three|four|five|six|seven|eight|nine)(?=\s(?:{_TENS}))))[- ]"
    rf"(?P<r>(?:ten|{_TEENS}|(?:{_TENS})(?:-(?:one|two|three|four|five|six|seven|eight|nine))?))\b{_MONEY_CUE_END}|"
    # ("billed us six-forty" beside a $2,500 guarantee: 640, a hundreds digit and its tens; never a time of day read
    # first, "came in at two-thirty")
    rf"\b(?:billed|charged|invoiced|(?:a|the|their|his|her)\s+(?:bill|invoice)\s+(?:for|of)|(?:estimate|quote|price|fee)[ds]?\s+"
    rf"(?:is|was|of|at|came\s+to|comes\s+to|runs?|ran))\s+(?:(?:us|me|them|him|her|you)\s+)?(?P<h1>\b(?:one|two|three|four|five|six|seven|eight|nine))-(?P<r1>(?:{_TENS})(?:-(?:one|two|three|four|"
    rf"five|six|seven|eight|nine))?)\b{_MONEY_CUE_END}|"
    # ("three-fifty in materials and two twenty-five for equipment" beside "eleven hundred dollars of labor": the cost
    # part after it makes the two numbers money, 350 and 225)
    rf"(?<![\w$-])(?P<h2>(?:one|two|three|four|five|six|seven|eight|nine|{_TEENS}))[- ](?P<r2>(?:ten|{_TEENS}|(?:{_TENS})"
    rf"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?))\s+(?:(?:in|for|of|on|worth\s+of)\s+(?:the\s+)?)?"
    rf"(?:labou?r(?!\s+day)|materials?|equipment|parts|supplies)\b|"
    # ("Labor eighteen hundred fifty, materials six hundred forty, equipment five-ten": the cost part before it)
    rf"\b(?:labou?r|materials?|equipment|parts|supplies)\s+(?:(?:at|of|was|is|came\s+to|comes\s+to|ran)\s+)?"
    rf"(?P<h3>(?:one|two|three|four|five|six|seven|eight|nine|{_TEENS}))[- ](?P<r3>(?:ten|{_TEENS}|(?:{_TENS})"
    rf"(?:-(?:one|two|three|four|five|six|seven|eight|nine))?))\b(?![- ](?:hundred|thousand|dollars?|cents?|o['’]clock|"
    rf"a\.?m\b|p\.?m\b|hours?|hrs?|minutes?|days?|feet|foot|inch))", re.I)
_RATE_CUED = re.compile(
    rf"\b(?:rate|wage|pay)\s+(?:(?:is|was|of|at|about|around)\s+){{0,2}}(?P<n>{NUMBER.pattern})\s*"
    r"(?:/\s*|an?\s+|per\s+)(?:hour|hr)s?\b|"
    # "one makes thirty-eight an hour with benefits": what a worker is paid an hour
    rf"\b(?:makes?|making|earns?|earning|(?:gets?|got|is|was)\s+paid|charges?|charging|bills?|billing)\s+"
    rf"(?:(?:about|around|roughly|like)\s+)?(?P<n2>{NUMBER.pattern.replace('(?P<', '(?P<e_')})\s*(?:/\s*|an?\s+|per\s+)(?:hour|hr)s?\b", re.I)
# "six hundred fifty in materials and four hundred for equipment": an amount the cost part after it makes money
_MONEY_CUED_AFTER = re.compile(
    rf"(?<![$\d])(?P<n>{NUMBER.pattern})\s+(?:(?:in|for|of|on|worth\s+of)\s+(?:the\s+)?"
    rf"(?:labou?r|materials?|equipment|parts|supplies)|"
    # "only seventy-five hundred on property damage", "fifty thousand in coverage"
    rf"(?:in|for|of|on)\s+(?:the\s+)?(?:property\s+damage|bodily\s+injury|liability|coverage)|"
    # "we gave the Town twenty-five hundred as the guarantee"
    rf"as\s+(?:a|an|the|our|my)\s+(?:cash\s+)?(?:deposit|guarantee|bond|down\s+payment|retainer|escrow))\b", re.I)
# "twenty-five thousand per accident": a limit of coverage, said with what it is per
_LIMIT_CUED_AFTER = re.compile(rf"(?<![$\d])(?P<n>{NUMBER.pattern})\s+(?:per|each|an?)\s+(?:person|accident|occurrence|claim)\b",
                               re.I)
_THE_OTHER = re.compile(rf"(?:\s+(?:with|incl\.?|including|plus)\s+benefits)?\s*[,;]?\s*(?:and\s+|while\s+|but\s+)?the other(?:\s+(?:one|guy|man|woman|worker|employee|person))?"
                        rf"(?:\s+(?:makes|gets|earns|is|was|at|gets paid))?\s+(?P<dollar>\$\s?)?(?P<n>{NUMBER.pattern})"
                        r"(?!\s*(?:hours?|hrs?|minutes?|days?|feet|foot|ft|inch|inches|pounds?|tons?|%|percent|employees?|"
                        r"workers?|guys?|people|times|occasions?)\b)", re.I)


def _shared_units(slots: list[Slot], text: str) -> list[Slot]:
    """"at $39.60 and $36.80 an hour", "rates of $41, $39 and $37 an hour": the unit written once after a
    list of amounts is each one's (a list the words before it make one: "at", "of", "rates", "paid")."""
    out = list(slots)
    joined = re.compile(r"\s*(?:,\s*)?(?:and|or|&|,)\s*")
    for i in range(len(out) - 2, -1, -1):
        b = out[i + 1]
        if b.kind != "money" or "/" not in (b.unit or ""):
            continue
        first = i + 1  # the list of amounts that ends in b
        while first > 0 and out[first - 1].kind == "money" and out[first - 1].unit == "USD" \
                and joined.fullmatch(text[out[first - 1].span.end:out[first].span.start]):
            first -= 1
        if first == i + 1:
            continue
        head = out[first]
        if re.search(r"\b(?:at|of|rates?|pays?|paid|mak(?:es|ing)|earn(?:s|ing)?|are|were)\s*$",
                     text[max(0, head.span.start - 14):head.span.start], re.I):
            for j in range(first, i + 1):
                out[j] = out[j].model_copy(update={"unit": b.unit})
    # "hourly rates with benefits of $38.40 and $41.60": each amount of the list the words "hourly rates" open is
    # a rate per hour
    i = 0
    while i < len(out):
        a = out[i]
        if a.kind == "money" and a.unit == "USD" and re.search(r"\bhourly\s+(?:pay\s+)?rates?\b[^.;:$]{0,30}$",
                                                               text[max(0, a.span.start - 45):a.span.start], re.I):
            j = i
            while j + 1 < len(out) and out[j + 1].kind == "money" and out[j + 1].unit == "USD" \
                    and joined.fullmatch(text[out[j].span.end:out[j + 1].span.start]):
                j += 1
            if j > i:
                for k in range(i, j + 1):
                    out[k] = out[k].model_copy(update={"unit": "USD/hour"})
            i = j
        i += 1
    return out


@functools.lru_cache(maxsize=256)
def _count_of(thing: str) -> re.Pattern:
    """A count of ``thing`` right before its price: "a dozen bags of cold patch at", "14 sheets @"."""
    return re.compile(rf"(?P<n>{NUMBER.pattern})\s+{re.escape(thing)}s?\b(?:\s+of\s+[a-z-]+(?:\s+[a-z-]+){{0,2}})?"
                      r"\s+(?:at|@|x|×)\s*$", re.I)


def priced(slots: list[Slot], text: str, origin: Origin = "turn") -> list[Slot]:
    """A quantity at a price per its unit as one amount: "a dozen tons of stone at twenty-five bucks a ton" is
    $300.00 (its span both, its working said); "11.2 tons @ $78/ton". Other slots are kept as they are."""
    out, used = [], set()  # (spans, not ids: a count read here is a new object, and a freed one's id is reused)

    def key(x: Slot) -> tuple:
        return (x.span.origin, x.span.start, x.span.end, x.kind)

    ordered = sorted(slots, key=lambda x: x.span.start)
    for i, price in enumerate(ordered):
        if price.kind != "money" or "/" not in (price.unit or "") or price.span.origin != origin:
            continue
        per = price.unit.split("/", 1)[1].rstrip("s")
        qty = next((q for q in reversed(ordered[:i]) if q.span.origin == origin and q.kind != "money"
                    and (q.unit or "").rstrip("s") == per), None)
        if qty is None:
            # "a dozen bags of cold patch at $18.50 a bag": a count of the priced thing, told just before its price
            told = _count_of(per).search(text[max(0, price.span.start - 70):price.span.start])
            n = number_value(told) if told else None
            if n is not None and n > 0:
                a = max(0, price.span.start - 70) + told.start("n")
                qty = Slot(kind="count", value=_norm(n), unit=per, span=Span(origin=origin, start=a,
                           end=a + len(told.group("n")), text=told.group("n")), before="", after="")
        if qty is None or key(qty) in used:
            continue
        between = text[qty.span.end:price.span.start]
        if len(between) > 40 or re.search(r"[.;!?$]|\d", between) or not re.search(r"(?:\bat\b|@|\bx\b|×)\s*$", between):
            continue
        total = (qty.number * price.number).quantize(Decimal("0.01"))
        a, b = qty.span.start, price.span.end
        used.update((key(qty), key(price)))
        out.append(Slot(kind="money", value=_norm(total), unit="USD", span=Span(origin=origin, start=a, end=b, text=text[a:b]),
                        before=text[max(0, a - 60):a].lower(), after=text[b:b + 40].lower(),
                        worked=f"“{qty.span.text}” × “{price.span.text}”"))
    return sorted([x for x in slots if key(x) not in used] + out, key=lambda x: x.span.start)


# -- what is asked ------------------------------------------------------------------------------
_YES_NO = re.compile(r"^\s*(?:do|does|did|can|could|may|must|is|are|am|will|would|should|shall|have|has)\b", re.I)
_DATE_Q = re.compile(r"\b(when|by what date|what dates?|which dates?|(?:what|which)\s+(?:[a-z-]+\s+){1,2}dates?(?!\s+(?:of|on)\b)|window of (?:dates|days)|(?:range|span) of (?:dates|days)|"
                     r"date range|deadline|how soon|(?:last|latest|final|outside|cutoff) (?:day|date)|until when|by when|"
                     # "Am I too late to get the permit fee waived?": whether a day has passed is a question of its day
                     r"too late|missed the (?:window|cutoff)|still (?:have )?time|"
                     r"what(?:['’]s|\s+is|\s+was|\s+will\s+be)\s+the\s+(?:date|day)(?!\s+(?:of|on)\b))\b", re.I)
# "knocked a chunk out of the curb this morning. How long do I have to get it fixed?": the time left to act, so the
# day it ends is counted from the day the words give
_TIME_LEFT_Q = re.compile(r"\bhow (?:long|many days) (?:do|does) (?:i|we|they|he|she|you|the \w+) (?:have|get)(?: left)? to\b",
                          re.I)


def asks(turn: str, figure: str | None) -> Asks:
    if _DATE_Q.search(turn):
        return "date"
    if figure is not None:
        return "figure"
    if _YES_NO.search(turn):
        return "yes_no"
    return "rule"


# a turn that moves to another thing of the same kind ("Ok next one is the walk downtown", "Different job: ...")
NEW_OBJECT = re.compile(r"^\W*(?:(?:ok(?:ay)?|alright|all right|now|and|so|also|what\s+about|how\s+about|on|for|at|with|"
                        r"in)\W+)*(?:the\s+)?(?:next|another|other|"
                        r"second|different|new|separate)\s+(?:one|job|walk|sidewalk|house|property|lot|site|project|"
                        r"driveway|street|road|address|customer|client)\b", re.I)


# the earlier question asked again of new values ("same question", "same thing for that one", "scratch that")
SAME_ASK = re.compile(r"\bsame\s+(?:question|thing|deal|calculation|math|ask)\b|\bscratch\s+that\b|"
                      r"\bforget\s+(?:that|what\s+I\s+said)\b|"
                      # "... was actually repaved October 2027. redo it?", "recalculate with that", "run it again"
                      r"\bre-?do\s+(?:it|that|the\s+(?:math|numbers?|calculation))\b|\bre-?(?:calculate|compute|figure|run)\b|"
                      r"\b(?:run|do|work|figure)\s+(?:it|that|the\s+(?:math|numbers?))\s+(?:out\s+)?again\b", re.I)


# the earlier question asked of a new value: "what if their costs were $4,100 instead?", "and if we make it 6 feet
# wide instead?", "say it came in at $2,075"
AGAIN_WITH = re.compile(r"\binstead\b|^\W*(?:and\s+|ok(?:ay)?,?\s+|so\s+)?(?:what\s+if|if|say|suppose|what\s+about|how\s+about)\b",
                        re.I)


_ALSO = re.compile(r"\b(?:also|another|plus|more|additional|extra|on top)\b", re.I)


_CUE_STOP = {"a", "an", "the", "if", "it", "had", "has", "have", "was", "were", "is", "be", "been", "in", "at", "to", "of",
             "for", "on", "and", "or", "what", "say", "instead", "we", "i", "they", "our", "my", "their", "that", "this",
             "then", "so", "would", "will", "just", "about", "around", "only"}
_CUE_FORMS = {"came": "come", "comes": "come", "coming": "come", "costs": "cost", "costed": "cost", "billed": "bill",
              "bills": "bill", "deposited": "deposit", "deposits": "deposit", "paid": "pay", "pays": "pay",
              "ended": "end", "ends": "end", "totaled": "total", "totalled": "total", "totals": "total"}


def _cue_words(before: str) -> set[str]:
    """The word an amount is told with, nearest before it in its own sentence ("final cost came in at": come), in one
    form."""
    words = [w for w in re.findall(r"[a-z]+", re.split(r"[.!?;:]\s", before)[-1][-30:].lower()) if w not in _CUE_STOP]
    # (the nearest word: "the bill: equipment was" is equipment's; a plural in its singular, "materials": material)
    return {_CUE_FORMS.get(w, re.sub(r"(?<=[a-z]{3})s$", "", w)) for w in words[-1:]}


def _clause_words(before: str) -> set[str]:
    """Every word an amount is told with in its own clause, in one form ("and if the materials come in at": material,
    come)."""
    words = re.findall(r"[a-z]+", re.split(r"[.!?;:,]\s", before)[-1][-40:].lower())
    return {_CUE_FORMS.get(w, re.sub(r"(?<=[a-z]{3})s$", "", w)) for w in words if w not in _CUE_STOP and len(w) > 2}


def _in_place_of(slots: list[Slot]) -> list[Slot]:
    """"what if their costs were $4,100 instead?" after one amount told ("Their labor, materials and equipment came to
    $3,250"): the new amount in the place of the one told, so it keeps the role its words gave it (the amount said
    now, read where the one it replaces was said)."""
    mine = [s for s in slots if s.span.origin == "turn" and s.kind == "money" and s.unit == "USD"]
    theirs = [s for s in slots if s.span.origin == "earlier" and s.kind == "money" and s.unit == "USD"]
    if len(mine) == 1 and len(theirs) > 1:
        # "What if it had come in at $2,075 instead?" after "a $1,900 deposit ... Final cost came in at $1,640": the one
        # told with the same words ("come in at") is the one replaced
        # ("and if the materials come in at $850 instead?" after "labor $1,200, materials $650, equipment $400": the one
        # told with a word of the new amount's own clause is the one replaced)
        cue = _cue_words(mine[0].before) | _clause_words(mine[0].before)
        alike = [s for s in theirs if cue & _cue_words(s.before)]
        theirs = alike if len(alike) == 1 else theirs
    if len(mine) != 1 or len(theirs) != 1 or mine[0].value == theirs[0].value:
        return slots
    new, old = mine[0], theirs[0]
    placed = old.model_copy(update={"value": new.value, "span": old.span.model_copy(update={"text": new.span.text}),
                                    "worked": f"in place of “{old.span.text}” said before"})
    return [placed if s is old else s for s in slots if s is not new]


# a value the user takes back beside the right one: "$485, not $385", "$485 instead of $385", "not $385 but $485"
_NOT_AFTER = re.compile(r"^\s*[,;(-]?\s*(?:and\s+)?(?:not|instead\s+of|rather\s+than)\s+(?:the\s+)?$", re.I)
_NOT_BEFORE = re.compile(r"\bnot\s+(?:the\s+)?$", re.I)
_BUT_BETWEEN = re.compile(r"^\s*,?\s*but\s+(?:(?:it\s+)?(?:was|is|were|are)\s+)?(?:actually\s+)?$", re.I)


# a follow-up's change to a value told before: "What if we knock 3,200 lbs off the load?", "say it's 2 feet wider"
_LESS_BEFORE = re.compile(r"\b(?:knock(?:s|ed|ing)?|take(?:s|n)?|took|shave[sd]?|shaving|cut(?:s|ting)?|drop(?:s|ped)?|"
                          r"remove[sd]?|removing|lose|loses|lost|unload(?:s|ed)?)\s+(?:off\s+)?(?:another\s+|an\s+extra\s+)?$", re.I)
_OFF_AFTER = re.compile(r"^\s+(?:off|out)\b", re.I)
_LESS_AFTER = re.compile(r"^\s+(?:less|lighter|lower|shorter|narrower|smaller|thinner)\b", re.I)
_MORE_AFTER = re.compile(r"^\s+(?:more|heavier|higher|longer|wider|bigger|thicker|extra)\b", re.I)
_MORE_BEFORE = re.compile(r"\b(?:add(?:s|ed|ing)?|put\s+on|load\s+(?:on|up)|throw\s+on)\s+(?:another\s+|an\s+extra\s+)?$", re.I)
# a weight kept on the load: "what if he leaves the 600-lb bucket on it?", "with the plow attached"
_KEPT_ON_AFTER = re.compile(r"^[\s-]*(?:[a-z]+\s+){0,2}(?:on\s+(?:it|top|there|board|the\s+(?:truck|machine|trailer|rig))|"
                            r"attached|as\s+well|too)\b", re.I)
_A_LIMIT_TOLD = re.compile(r"^\s*(?:-\s*)?(?:limit|max(?:imum)?|restriction|posted)\b|\b(?:limit|posted|maximum)\s+(?:of\s+|is\s+)?$", re.I)


# a day written with its month and no year ("October 7", "10/7"), as against "October 7, 2030" or "tomorrow"
_MONTH_DAY_ONLY = re.compile(rf"^(?:{dates._MON}\.?\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?|\d{{1,2}}/\d{{1,2}})$", re.I)


def _near_the_day_replaced(slots: list[Slot]) -> list[Slot]:
    """"what if it slips to October 7 instead?" after "we're opening it May 6" (2030): a day of the follow-up written
    without its year is read in the year nearest the one day the earlier turn told (October 7, 2030), not nearest
    today (October 7, 2029) — the day it replaces is what the user counts from."""
    told = [s for s in slots if s.span.origin == "earlier" and s.kind == "date" and s.precision == "day"]
    if len(told) != 1:
        return slots
    return [_year_near(s, told[0].day) if s.span.origin == "turn" else s for s in slots]


def _year_near(slot: Slot, anchor: date) -> Slot:
    """A day written with its month and no year, read in the year that puts it nearest ``anchor``."""
    if slot.kind != "date" or slot.precision != "day" or slot.days is not None \
            or not _MONTH_DAY_ONLY.match(slot.span.text.strip()):
        return slot
    try:
        near = dates.nearest_year(slot.day.month, slot.day.day, anchor)
    except ValueError:
        return slot
    return slot if near == slot.day else slot.model_copy(update={"value": near.isoformat()})


def _changed_by(turn: str, slots: list[Slot]) -> list[Slot]:
    """A follow-up's amount that changes the one value of its kind told before ("knock 3,200 lbs off the load" of a
    14,500-lb truck): the value changed (its working said), in place of both (never the change read as the value)."""
    out = list(slots)
    for s in [x for x in slots if x.span.origin == "turn" and x.kind in ("weight", "length", "money")]:
        before, after = turn[max(0, s.span.start - 40):s.span.start], turn[s.span.end:s.span.end + 20]
        less = bool(_LESS_BEFORE.search(before) and _OFF_AFTER.match(after)) or bool(_LESS_AFTER.match(after))
        more = bool(_MORE_AFTER.match(after)) or bool(_MORE_BEFORE.search(before)) \
            or (s.kind == "weight" and bool(_KEPT_ON_AFTER.match(after)))
        if less == more:
            continue
        told = [x for x in out if x.span.origin == "earlier" and x.kind == s.kind and x.unit == s.unit
                and not _A_LIMIT_TOLD.search(x.after[:20]) and not _A_LIMIT_TOLD.search(x.before[-25:])]
        if len(told) != 1:
            continue
        base = told[0]
        value = base.number - s.number if less else base.number + s.number
        if value <= 0:
            continue
        changed = s.model_copy(update={"value": _norm(value), "worked": f"“{base.span.text}” said before, "
                                                                     f"{'less' if less else 'plus'} this"})
        out = [changed if x is s else x for x in out if x is not base]
    return out


# a follow-up that asks the earlier question again with another figure: "what if I load it up to 13,000?", "and if it
# ends up being 13 of the 20?"
_WHAT_IF = re.compile(r"\b(?:what|how)\s+(?:if|about)\b|\b(?:and|but|ok|okay|now)\s+if\b|\bif\s+(?:it|i|we|they|he|she|"
                      r"there|that)\b|\binstead\b|\bsuppose\b|\bmake\s+it\b", re.I)
_BARE_FIGURE = re.compile(r"(?<![\w$#§.,/:-])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?![\w%$/:'’\"-]|[.,]\d)")
_IN_PLACE_KINDS = ("weight", "length", "money", "count", "duration", "percent")
# a follow-up that asks a question of its own ("ok and if the clerk issues it today, when does it run out?"): not the
# earlier question asked again
_ASKS_ANEW = re.compile(r"\b(?:when|where|who|whom|why|which|how\s+(?:much|many|long|soon|far|big|thick|wide|deep|late))\b|"
                        r"\bwhat(?:['’]s|\s+(?:is|are|do|does|did|would|will|should|must))\b|"
                        r"\b(?:do|does|can|could|may|must|should|will|would|is|are)\s+(?:i|we|you|they|he|she|it|that|"
                        r"this|the)\s+(?:still\s+)?(?:need|have|owe|pay|get|allowed|ok|okay|fine|legal)\b", re.I)


def _said_number(slot: Slot) -> Decimal | None:
    """The number as the user wrote it in a slot's words ("10,400" of "10,400 pounds", read as 5.2 tons)."""
    m = NUMBER.search(slot.span.text)
    return number_value(m) if m is not None else None


def _bare_pairs(turn: str, slots: list[Slot]) -> list[tuple[re.Match, Slot]]:
    """A follow-up's figures written bare ("what if I load it up to 13,000?", "and if it ends up being 13 of the
    20?"), each with the earlier turn's figure it stands for: as many bare figures as the earlier turn told, in
    order, or one figure near the size of the one figure the earlier turn told of its size. [] when a figure is far
    from the size of the one it would stand for, or the turn asks no "what if"."""
    if not _WHAT_IF.search(turn) or _ASKS_ANEW.search(turn):
        return []
    spans = [(s.span.start, s.span.end) for s in slots if s.span.origin == "turn"]
    spans += [(m.start(), m.end()) for m in IDENTIFIER.finditer(turn)]
    bare = [m for m in _BARE_FIGURE.finditer(turn) if not any(a <= m.start() < b for a, b in spans)]
    if any(_as_a_change(turn, m.start(), m.end()) for m in bare):
        return []
    told = sorted((s for s in slots if s.span.origin == "earlier" and s.kind in _IN_PLACE_KINDS),
                  key=lambda s: s.span.start)
    if not bare or not told:
        return []

    def near(m: re.Match, t: Slot) -> bool:
        said = _said_number(t)
        return bool(said) and Decimal("0.2") <= digits_value(m.group()) / said <= 5

    if len(bare) == len(told):
        pairs = list(zip(bare, told))
    elif len(bare) == 1:
        pairs = [(bare[0], t) for t in told if near(bare[0], t)]
        if len(pairs) != 1:
            return []
    else:
        return []
    return pairs if all(near(m, t) for m, t in pairs) else []


# a day moved: "And if we move the start up to Monday the 16th, same time?", "what if it slips to the 23rd?"
_MOVES_A_DAY = re.compile(r"\b(?:mov(?:e|es|ed|ing)|push(?:es|ed)?|bump(?:s|ed)?|slip(?:s|ped)?|reschedul\w*|instead|"
                    r"(?:what|and|but)\s+if|how\s+about|what\s+about)\b", re.I)


def _as_a_change(turn: str, start: int, end: int) -> bool:
    """Do the words around a figure say it changes a value by so much ("take 3,200 lbs off", "2,000 more pounds",
    "a week later"), rather than give the value itself?"""
    before, after = turn[max(0, start - 40):start], turn[end:end + 20]
    return bool(_LESS_BEFORE.search(before) or _MORE_BEFORE.search(before) or _LESS_AFTER.match(after)
                or _MORE_AFTER.match(after) or _OFF_AFTER.match(after)
                or re.match(r"\s+(?:\w+\s+)?(?:earlier|later|sooner|more|less|extra)\b", after)
                or re.search(r"\b(?:another|extra|additional|add(?:s|ed|ing)?|plus|minus)\s+$", before))


def _moved_day(turn: str, earlier: str, own: list[Slot]) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """The earlier question asked again with the one day a follow-up moves (its one value a date; the earlier turn's
    one date said as precisely: "And if we move the start up to Monday the 16th, same time?", "what if it was April
    2027 instead?"). A day is written out in full as it was read ("Monday, July 16, 2029": the month the earlier words
    give); a coarser date in the follow-up's own words. A value of another kind is left to the follow-up reading
    ("and if the cores show it's 1.4 inches short?" is an ask of its own)."""
    if len(own) != 1 or not _MOVES_A_DAY.search(turn) or own[0].kind != "date" or _ASKS_ANEW.search(turn):
        return None
    new = own[0]
    if _as_a_change(turn, new.span.start, new.span.end):
        return None  # a change by so much ("a week later"): read as a change
    told = [s for s in user_slots(earlier, "earlier") if s.kind == "date"]
    if len(told) > 1:
        # ("We open Grove St on July 24 ... final paving in April 2028" / "what if it was April 2027 instead?": the one
        # said as coarsely)
        told = [s for s in told if s.precision == new.precision]
    told = _the_one_to_come(turn, told)
    if len(told) != 1 or told[0].value == new.value:
        return None
    t = told[0]
    if t.precision == "day":
        new = _year_near(new, t.day)  # ("we're opening it May 6" / "what if it slips to October 7?": that May's October)
    said = f"{new.day:%A}, {new.day:%B} {new.day.day}, {new.day.year}" if new.precision == "day" else new.span.text
    return earlier[:t.span.start] + said + earlier[t.span.end:], ((t.span.text, new.span.text),)


# a planned day put off or brought forward ("what if the cut slips to October 2030", "if it gets pushed to the 25th")
_SLIPS = re.compile(r"\b(?:slip(?:s|ped)?|push(?:es|ed)?(?:\s+back)?|bump(?:s|ed)?|delay(?:s|ed)?|postpon\w*|reschedul\w*|"
                    r"mov(?:e|es|ed)\s+(?:up|back)|gets?\s+(?:pushed|moved|bumped))\b", re.I)
# "slips to the 25th": a day of the month alone
_TO_THE_NTH = re.compile(r"\bto\s+the\s+(?P<d>[12]?\d|3[01])(?:st|nd|rd|th)\b(?!\s+of\b)", re.I)


def _the_one_to_come(turn: str, told: list[Slot]) -> list[Slot]:
    """Of several days told before, the one a follow-up puts off ("what if the cut slips to October 2030?"): the one
    day still to come, when the turn's verb moves a planned day; all of them otherwise."""
    if len(told) < 2 or not _SLIPS.search(turn):
        return told
    ahead = [s for s in told if _days_of(s)[1] >= dates.today()]
    return ahead if len(ahead) == 1 else told


def _moved_to_nth(turn: str, earlier: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """"what if it slips to the 25th instead?" of a planned day told before ("open it on June 3 next year"): that day's
    month, on the 25th."""
    m = _TO_THE_NTH.search(turn)
    if m is None or not _SLIPS.search(turn) or _ASKS_ANEW.search(turn):
        return None
    told = _the_one_to_come(turn, [s for s in user_slots(earlier, "earlier") if s.kind == "date" and s.precision == "day"])
    if len(told) != 1:
        return None
    t = told[0]
    try:
        new = t.day.replace(day=int(m.group("d")))
    except ValueError:
        return None
    if new == t.day:
        return None
    said = f"{new:%A}, {new:%B} {new.day}, {new.year}"
    return earlier[:t.span.start] + said + earlier[t.span.end:], ((t.span.text, m.group(0)[3:].strip()),)


# the words of a follow-up that say it varies the question, not what it varies
_WHAT_IF_WORDS = frozenset("what if instead only just then about how and but so ok okay say it is was were be i we "
                           "my our the a an of that this".split())


def _moved_value(turn: str, earlier: str, own: list[Slot]) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """The earlier question asked again with the one value a follow-up puts in place of one told before ("what if I only
    carry 2,500 lbs?" of "I'll carry 4,000 lbs of stone"; "what if the bill was $900 instead?" of "billed me $420"): of
    the earlier values of its kind and unit, the one whose own words the turn repeats (the only one, when it is alone).
    None when the turn changes a value by so much, asks anew, or the words name no one value."""
    from assistant.retrieval.lexical import stems

    if len(own) != 1 or own[0].kind == "date" or not _MOVES_A_DAY.search(turn) or _ASKS_ANEW.search(turn):
        return None
    new = own[0]
    if _as_a_change(turn, new.span.start, new.span.end):
        return None
    told = [s for s in user_slots(earlier, "earlier") if s.kind == new.kind and s.unit == new.unit]
    if not told:
        return None
    mine = stems(turn[:new.span.start] + " " + turn[new.span.end:]) - stems(" ".join(_WHAT_IF_WORDS))
    if mine - stems(earlier):
        return None  # ("and if it's concrete, 9 inches thick?": the turn changes more than the one value)
    # (each value's own clause: "My truck weighs 9,000 lbs empty" / "I'll carry 4,000 lbs of stone"; the turn must
    # name the one it replaces, even when it is alone: a bare "what if it's $300?" may be a figure of another role)
    cut = re.compile(r"[,.;:!?]|\band\b")
    scores = [len(stems(cut.split(s.before)[-1] + " " + cut.split(s.after)[0]) & mine) for s in told]
    if max(scores) == 0 or scores.count(max(scores)) != 1:
        return None
    told = [told[scores.index(max(scores))]]
    if len(told) != 1 or told[0].value == new.value:
        return None
    t = told[0]
    return earlier[:t.span.start] + new.span.text + earlier[t.span.end:], ((t.span.text, new.span.text),)


def restated(turn: str, earlier: str) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    """The earlier question asked again with a follow-up's bare figures in place of the ones they stand for ("brandon
    inspector marked 11 of the 20 squares ... whole sidewalk?" then "ok and if it ends up being 13 of the 20?": "...
    marked 13 of the 20 squares ..."), and each (said before, said now); None when the turn has values of its own
    or its figures stand for none told before."""
    if not earlier:
        return None
    own = user_slots(turn, "turn", None, earlier)
    if own:
        return _moved_day(turn, earlier, own) or _moved_value(turn, earlier, own)
    moved = _moved_to_nth(turn, earlier)
    if moved is not None:
        return moved
    pairs = _bare_pairs(turn, user_slots(earlier, "earlier"))
    if not pairs:
        return None
    text, swaps = earlier, []
    for m, t in sorted(pairs, key=lambda p: -p[1].span.start):
        said = NUMBER.search(t.span.text)
        a, b = t.span.start + said.start(), t.span.start + said.end()
        swaps.append((text[a:b], m.group()))
        text = text[:a] + m.group() + text[b:]
    return text, tuple(reversed(swaps))


def with_earlier(query: Query, earlier: str) -> Query:
    """The query read as a follow-up of ``earlier`` (the conversation's topic): that turn's values added, and a change
    this turn makes to one of them ("knock 3,200 lbs off the load") applied."""
    told = [x for x in user_slots(f"{earlier} {query.turn}", "earlier") if x.span.end <= len(earlier)]
    return query.model_copy(update={"earlier": earlier, "follow_up": True,
                                    "slots": tuple(_changed_by(query.turn, [*query.slots, *told]))})


def _without_corrected(turn: str, slots: list[Slot]) -> list[Slot]:
    """The slots less each value the turn's words take back beside its correction, and the earlier turn's saying of
    that same value (the correction replaces it)."""
    own = sorted((s for s in slots if s.span.origin == "turn"), key=lambda s: s.span.start)
    taken: list[Slot] = []
    for a, b in zip(own, own[1:]):
        if a.kind != b.kind or a.unit != b.unit or a.value == b.value:
            continue
        between = turn[a.span.end:b.span.start]
        if _NOT_AFTER.match(between):
            taken.append(b)
        elif _BUT_BETWEEN.match(between) and _NOT_BEFORE.search(turn[max(0, a.span.start - 12):a.span.start]):
            taken.append(a)
    if not taken:
        return slots
    gone = {(s.kind, s.unit, s.value) for s in taken}
    return [s for s in slots if s not in taken and not (s.span.origin == "earlier" and (s.kind, s.unit, s.value) in gone)]


def read_query(turn: str, earlier: str = "", *, follow_up: bool = False, clarified: bool = False,
               text: str | None = None, municipality: str | None = None,
               municipality_from: MunicipalitySource = "none", figure: str | None = None,
               removed: tuple[str, ...] = (), asked: str = "", answered: str = "", ref: date | None = None,
               context: str = "") -> Query:
    # (the earlier turn is read with this one after it, its values kept: "started leaking last night" dates the dig
    # when the conversation asks a day, "What's the last day we can get the application in?")
    # (``context``: the conversation's words before this turn, even when this turn carries none of their values: the
    # month a bare "Saturday the 3rd" is in, after "Pouring ... on Friday June 2, 2028")
    slots_ = user_slots(turn, "turn", ref, earlier or context) + ([s for s in user_slots(f"{earlier} {turn}", "earlier", ref)
                                               if s.span.end <= len(earlier)] if earlier else [])
    slots_ = _without_corrected(turn, slots_)
    if earlier:
        slots_ = _changed_by(turn, slots_)
    if earlier and NEW_OBJECT.search(turn):
        # "Ok next one is the walk in front of the hardware store": the earlier turn's values were another thing's
        slots_ = [s for s in slots_ if s.span.origin == "turn"]
    elif earlier and (SAME_ASK.search(turn) or AGAIN_WITH.search(turn)):
        slots_ = _near_the_day_replaced(slots_)
        # "they came back an inch and a quarter short. same question": the turn's value replaces the earlier turn's
        # value of its kind; the earlier turn's other values still hold
        # (only a kind the earlier turn told once: "deposit $3,200 ... bill $3,650" / "scratch that, it came in at
        # $2,975" does not say which of the two it replaces)
        mine = Counter((s.kind, s.unit) for s in slots_ if s.span.origin == "turn")
        theirs = Counter((s.kind, s.unit) for s in slots_ if s.span.origin == "earlier")
        # (asked again "instead" of a new amount: an amount keeps the role its own words give it, read by the
        # calculator's roles — "what if their costs were $4,100 instead?" does not say which cost it replaces)
        swap = {k for k, n in mine.items() if n == 1 and theirs.get(k) == 1
                and (SAME_ASK.search(turn) or k[0] != "money")}
        slots_ = [s for s in slots_ if s.span.origin == "turn" or (s.kind, s.unit) not in swap]
        if not _ALSO.search(turn):
            # ("hang on, equipment was actually $575. redo it?" after labor, materials and equipment told: the amount in
            # the place of the one its words name, asked again or not)
            slots_ = _in_place_of(slots_)
    return Query(turn=turn, earlier=earlier, text=text if text is not None else turn, follow_up=follow_up,
                 clarified=clarified, municipality=municipality, municipality_from=municipality_from,
                 asks=asks(turn, figure), figure=figure, slots=tuple(slots_), removed=tuple(removed),
                 asked=asked, answered=answered)


def number_outside(turn: str, slots: Iterable[Slot], kinds: Callable[[str], bool]) -> bool:
    """Is a number written in the turn outside every span of its slots whose kind ``kinds`` accepts ("renewal April
    1": the 1 is a date's; "the other measured 8": the 8 is no length's)?"""
    spans = [(s.span.start, s.span.end) for s in slots if s.span.origin == "turn" and kinds(s.kind)]
    # (a number that names, never measures: a phone number, a street address, "lot 17", "W305 N2380")
    spans += [(m.start(), m.end()) for m in IDENTIFIER.finditer(turn)]
    return any(not any(a <= m.start() < b for a, b in spans) for m in re.finditer(r"\d+", turn))


# a single quotation mark that opens a quotation: at the start or after a space or bracket, before a word
_OPENING_QUOTE = re.compile(r"(?:^|(?<=[\s(\[]))['‘’](?=\w)")
_SINGLE_QUOTE = re.compile(r"['‘’]")


def _closes_quote(text: str, at: int) -> bool:
    """Does the mark right after the number ending at ``at`` close a quotation the sentence opened before it
    (“it says 'weight 2.9'”)? An opening mark with no mark after it before the number says so."""
    sentence = re.split(r"(?<=[.!?])\s+", text[:at])[-1]
    opening = list(_OPENING_QUOTE.finditer(sentence))
    return bool(opening) and not _SINGLE_QUOTE.search(sentence, opening[-1].end())


def bare_number(turn: str, slots: Iterable[Slot], cue: re.Pattern) -> str | None:
    """The one number written with no unit that ``cue`` (its group ``n``) places ("the truck goes about 11", "climbs
    about 6 from the road"), outside every slot read and every naming number; None when there is none or several."""
    spans = [(s.span.start, s.span.end) for s in slots if s.span.origin == "turn"]
    spans += [(m.start(), m.end()) for m in IDENTIFIER.finditer(turn)]
    found = {m.group("n") for m in cue.finditer(turn) if not any(a <= m.start("n") < b for a, b in spans)}
    return found.pop() if len(found) == 1 else None


# numbers that name a thing, never measure it: a phone number, a street address, a lot or unit number, a grid address
IDENTIFIER = re.compile(
    r"\(?\b\d{3}\)?[-.\s]\d{3}[-.]\d{4}\b|"
    r"\b[NSEW]\d{1,5}\s?[NSEW]\d{1,6}\b|"  # ("N45W329", "W305 N2842": a grid address)
    r"\b[NSEW]\d{2,5}\b|"
    # ("a 2-car garage", "a 3-bedroom house", "a two-family": a kind of thing, no measure of it)
    r"\b\d{1,2}[- ](?i:car|bedroom|bed|bath|story|storey|family|stall|bay|door)\b|"
    r"\b(?i:lot|unit|apt\.?|apartment|suite|parcel|house|building|bldg\.?|phase|stage|tract|outlot)\s*(?:#|(?i:no)\.?\s*)?\d+[A-Za-z]?\b|#\s?\d+\b|"
    r"\b\d{1,6}\s+(?:[NSEW]\.?\s+)?(?:[A-Z][a-z]+\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Ct|Court|Dr|Drive|Ln|Lane|Way|"
    r"Blvd|Boulevard|Pl|Place|Cir|Circle|Ter|Terrace|Pkwy|Parkway|Hwy|Highway|Trl|Trail)\b\.?")


def weekday_readings(slot: Slot) -> tuple[date, date]:
    """The two days "next Friday" may mean (a date of week precision): this coming one, or the one a week after."""
    return slot.day, slot.day + relativedelta(days=7)


def describe(slot: Slot) -> str:
    """How a value reads back: '1.5 hours', '$42.50', 'June 2024'."""
    from assistant.answering.formatting import fmt_date, fmt_money

    if slot.kind == "date":
        d = slot.day
        if slot.days:
            first, last = slot.days
            if slot.precision in ("day", "week"):  # "the first week of November": November 1 to November 7, 2027
                return f"{fmt_date(first)} to {fmt_date(last)}"
            return f"{first.strftime('%B %Y')} to {last.strftime('%B %Y')}"
        if slot.precision == "year":
            return str(d.year)
        if slot.precision == "month":
            return d.strftime("%B %Y")
        return fmt_date(d)
    if slot.kind == "money":
        return fmt_money(slot.value)
    unit = {"ft": "feet", "in": "inches"}.get(slot.unit or "", slot.unit or "")
    if slot.value in ("1", "1.0"):  # "1 inch", "1 hour", not "1 inches"
        unit = _ONE_OF.get(unit, unit)
    return f"{slot.value} {unit}".strip()


_ONE_OF = {"inches": "inch", "feet": "foot", "hours": "hour", "tons": "ton", "days": "day", "weeks": "week",
           "months": "month", "years": "year", "minutes": "minute"}


def trace_value(value: Any, query: Query) -> list[Slot]:
    """The slots whose value equals ``value`` (a date, a number)."""
    if isinstance(value, date):
        value = value.isoformat()
    if isinstance(value, bool) or value is None:
        return []
    text = str(value)[:10] if re.match(r"\d{4}-\d\d-\d\d", str(value)) else str(value)
    found = []
    for s in query.slots:
        if s.kind == "date":
            if s.value == text:
                found.append(s)
            continue
        if s.kind == "time":
            continue
        try:
            if Decimal(s.value) == Decimal(text):
                found.append(s)
        except ArithmeticError:
            continue
    return found


# an amount said as two numbers after a money word, which the readings above leave unread because it can be read two
# ways: "the estimate is twelve-five" ($12,500 or $1,250), "a fee of one-fifty" ($150 or $1.50)
_TWO_NUMBER_AMOUNT = re.compile(
    rf"\b(?:estimate|bill|invoice|fee|cost|price|quote|deposit|paid|charge[ds]?|came\s+to|comes\s+to|came\s+in\s+at)\b"
    # ("twenty-nine fifty": the first number may be a compound of tens, whole — never its last word alone)
    rf"[^.?!$\d]{{0,30}}?(?<![\w-])(?P<h>(?:{_TENS})-(?:{_ONES})|{_ONES}|ten|{_TEENS})[- ](?P<r>{_ONES}|ten|{_TEENS}|(?:{_TENS})(?:-(?:{_ONES}))?)\b"
    r"(?![- ](?:hundred|thousand|dollars?|cents?|o['’]clock|a\.?m\b|p\.?m\b|hours?|hrs?|minutes?|days?|weeks?|months?|years?|"
    r"feet|foot|inch|inches|percent|%))", re.I)


def unread_amounts(text: str, slots: list[Slot]) -> list[tuple[str, tuple[Decimal, Decimal]]]:
    """Amounts said as two numbers that no reading took, each with its two readings (the larger first):
    "twelve-five" -> ($12,500, $1,250); "one-fifty" -> ($150, $1.50)."""
    taken = [(s.span.start, s.span.end) for s in slots if s.kind == "money" and s.span.origin == "turn"]
    found = []
    for m in _TWO_NUMBER_AMOUNT.finditer(text):
        if any(a <= m.start("h") < b for a, b in taken):
            continue
        h, r = worded_number(m.group("h")), worded_number(m.group("r"))
        if h is None or r is None:
            continue
        readings = (h * 1000 + r * 100, h * 100 + r * 10) if r < 10 else (h * 100 + r, h + r / 100)
        found.append((text[m.start("h"):m.end("r")], readings))
    return found
