"""Figures in text, read as values with their units, for the number guard.

``figures_in(text)`` finds every figure: dates (``January 4, 2027``, ``May 30``,
``2027-01-04``), times of day (``2:00 PM`` = ``14:00``), money (``$1,000.00``, ``250 dollars``), percentages and plain numbers
with the unit word that follows them (``24 hours``, ``10 inches``). Each becomes a
``Figure``: a value (a Decimal or Fraction; a date as (year, month, day)), a unit (None
when none is written) and the text it was read from. Two figures agree when their values
are equal and their units do not conflict (a bare number agrees with any unit), so
``$100`` is not supported by ``$10,000`` and ``$24`` is not supported by ``24 hours``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from fractions import Fraction

MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7, "august": 8,
    "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9, "oct": 10,
    "nov": 11, "dec": 12,
}
_MONTH_ALT = "|".join(sorted(MONTHS, key=len, reverse=True))

# unit words after a number -> one canonical name
UNITS = {
    "hour": "hour", "hours": "hour", "hr": "hour", "hrs": "hour",
    "day": "day", "days": "day", "business day": "business day", "business days": "business day",
    "working day": "business day", "working days": "business day",
    "week": "week", "weeks": "week", "month": "month", "months": "month", "year": "year", "years": "year",
    "minute": "minute", "minutes": "minute",
    "inch": "inch", "inches": "inch", "in.": "inch",
    "foot": "foot", "feet": "foot", "ft": "foot", "ft.": "foot",
    "yard": "yard", "yards": "yard", "cubic yard": "cubic yard", "cubic yards": "cubic yard",
    "square foot": "square foot", "square feet": "square foot", "sq. ft.": "square foot", "sq ft": "square foot",
    "mile": "mile", "miles": "mile", "mph": "mph", "ton": "ton", "tons": "ton",
    "pound": "pound", "pounds": "pound", "lb": "pound", "lbs": "pound",
    "percent": "percent", "per cent": "percent", "%": "percent",
    "dollar": "usd", "dollars": "usd",
}
_UNIT_ALT = "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True))

FIGURE_RE = re.compile(
    rf"(?P<mdate>\b(?P<month>{_MONTH_ALT})\.?\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s*(?P<year>\d{{4}})\b)?)"
    r"|(?P<iso>(?<!\d)(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})(?!\d))"
    r"|(?P<time>(?<!\d)(?P<hh>\d{1,2})(?::(?P<mm>\d{2})(?::\d{2})?(?!\d)(?:\s*(?P<ap>[ap])\.?\s?m\b\.?)?"
    r"|\s*(?P<ap2>[ap])\.?\s?m\b\.?))"
    r"|(?P<money>\$\s?(?P<mnum>\d[\d,]*(?:\.\d+)?))"
    rf"|(?P<num>\d+(?:,\d{{3}})*(?:\.\d+)?(?:/\d+)?)(?:\s*(?P<unit>{_UNIT_ALT})(?![A-Za-z]))?",
    re.I,
)
PLAIN_RE = re.compile(r"\d+")


@dataclass(frozen=True)
class Figure:
    value: Decimal | Fraction | tuple[int | None, int, int] | tuple[int, int]
    unit: str | None  # "usd", "percent", "hour", ..., "date"; None = a bare number
    text: str  # the number (or date) as written, without its unit word

    def supported_by(self, source: "Figure") -> bool:
        """Whether ``source`` (a figure of a quote or a calculator) backs this answer figure."""
        if self.unit == "time" or source.unit == "time":
            return self.unit == source.unit and self.value == source.value
        if self.unit == "date" or source.unit == "date":
            if self.unit != source.unit:
                return False
            (y1, m1, d1), (y2, m2, d2) = self.value, source.value  # type: ignore[misc]
            return (m1, d1) == (m2, d2) and (y1 is None or y2 is None or y1 == y2)
        if self.value != source.value:
            return False
        if self.unit is None:  # "404", "(4)": any equal number backs it
            return True
        return source.unit is None or source.unit == self.unit


def _number(text: str) -> Decimal | Fraction | None:
    t = text.replace(",", "")
    try:
        if "/" in t:
            a, b = t.split("/", 1)
            return Fraction(int(a), int(b)) if int(b) else None
        return Decimal(t)
    except (InvalidOperation, ValueError, ZeroDivisionError):
        return None


def _date_value(year: str | None, month: int, day: str) -> tuple[int | None, int, int] | None:
    try:
        date(int(year) if year else 2000, month, int(day))  # 2000: a leap year, so Feb 29 stands
    except ValueError:
        return None
    return (int(year) if year else None, month, int(day))


def _time_value(hh: str, mm: str | None, ampm: str | None) -> tuple[int, int] | None:
    h, minute = int(hh), int(mm or 0)
    if ampm:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if ampm.lower() == "p" else 0)
    if not (0 <= h <= 24 and 0 <= minute <= 59):
        return None
    return (h, minute)


def figures_in(text: str) -> list[Figure]:
    """The figures of ``text`` as written (dates, money, numbers with their units)."""
    out: list[Figure] = []
    for m in FIGURE_RE.finditer(text or ""):
        raw = m.group(0).strip()
        if m.group("mdate"):
            v = _date_value(m.group("year"), MONTHS[m.group("month").lower()], m.group("day"))
            if v is not None:
                out.append(Figure(v, "date", raw))
                continue
            # not a real date ("May 45"): its numbers count as plain numbers
            for n in PLAIN_RE.finditer(raw):
                out.append(Figure(Decimal(n.group(0)), None, n.group(0)))
        elif m.group("iso"):
            v = _date_value(m.group("iy"), int(m.group("im")), m.group("id")) if 1 <= int(m.group("im")) <= 12 else None
            if v is not None:
                out.append(Figure(v, "date", raw))
            else:
                out += [Figure(Decimal(n.group(0)), None, n.group(0)) for n in PLAIN_RE.finditer(raw)]
        elif m.group("time"):
            v = _time_value(m.group("hh"), m.group("mm"), m.group("ap") or m.group("ap2"))
            if v is not None:
                out.append(Figure(v, "time", raw.rstrip(".")))
            else:
                out += [Figure(Decimal(n.group(0)), None, n.group(0)) for n in PLAIN_RE.finditer(raw)]
        elif m.group("money"):
            v = _number(m.group("mnum").rstrip(","))
            if v is not None:
                out.append(Figure(v, "usd", raw.rstrip(",")))
        else:
            v = _number(m.group("num"))
            if v is not None:
                unit = m.group("unit")
                out.append(Figure(v, UNITS[unit.lower()] if unit else None, m.group("num")))
    return out


BARE_ONLY = "bare only"  # a source number that backs a bare number of the answer only


def source_figures(text: str, references_only: bool = False) -> list[Figure]:
    """What a source supports: its figures as written, plus the year, month and day (hour,
    minute) of each date (time) it holds, which back a bare number of the answer only
    ("in 2027"). With ``references_only`` (citation labels, municipality names), every
    number backs a bare number only: "§ 404-10" supports "10" but not "$10"."""
    figs = figures_in(text)
    for f in list(figs):
        if f.unit in ("date", "time"):
            figs += [Figure(Decimal(n.group(0)), BARE_ONLY, n.group(0)) for n in PLAIN_RE.finditer(f.text)]
    if references_only:
        figs = [f if f.unit == BARE_ONLY else Figure(f.value, BARE_ONLY, f.text) for f in figs
                if f.unit not in ("date", "time")]
        figs += [Figure(Decimal(n.group(0)), BARE_ONLY, n.group(0)) for n in PLAIN_RE.finditer(text or "")]
    return figs


def unsupported(answer_text: str, sources: list[Figure]) -> list[Figure]:
    """The answer's figures that no source figure supports."""
    by_value: dict[object, list[Figure]] = {}
    for f in sources:
        key = f.unit if f.unit in ("date", "time") else f.value
        by_value.setdefault(key, []).append(f)
    return [f for f in figures_in(answer_text)
            if not any(f.supported_by(s) for s in by_value.get(f.unit if f.unit in ("date", "time") else f.value, []))]
