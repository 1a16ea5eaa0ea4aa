"""Business-day calendar and time counting for the deadline calculators.

Two conventions (``settings.time_convention``):

* ``wisconsin`` (default) — § 990.001(4), Wis. Stats.: the day of the event is excluded
  and the last day included; a last day on a Sunday or legal holiday moves to the next
  secular day ((4)(b)); a payment or filing due at a local office on a Saturday when the
  office keeps no Saturday hours moves to the next day that is not a Sunday or legal
  holiday ((4)(c)) — only when ``settings.office_closed_saturdays`` says so; otherwise the
  Saturday stays, which is safe whatever the office's hours; a period expressed in hours leaves out the whole of Sundays and legal
  holidays, midnight to midnight ((4)(a)).
* ``calendar`` — plain counting: the date is the event date plus the period, nothing is
  moved, hours are elapsed hours.

Business days (the codes' "business day", "regular business days") are Monday to Friday
that are not holidays, under both conventions: the text itself names them.

Holidays: the ``holidays`` package's United States list for Wisconsin (subdivision
"WI"), observed days included, plus the extra village/town holidays of
``settings.extra_holidays``. Times are America/Chicago (``settings.timezone``); naive
datetimes are read as local time, and hours are real elapsed hours (a daylight-saving
change shortens or lengthens the wall-clock span).

Everything here is pure and deterministic; the deadline tools turn a ``Count`` into a
cited result.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from typing import Literal
from zoneinfo import ZoneInfo

import holidays as holidays_lib
from dateutil.relativedelta import relativedelta
from pydantic import BaseModel, ConfigDict, Field

Convention = Literal["wisconsin", "calendar"]

CONVENTION_TEXT: dict[str, str] = {
    "wisconsin": (
        "Wisconsin rule, § 990.001(4), Wis. Stats.: the day of the event is excluded and the "
        "last day included; a last day on a Sunday or legal holiday moves to the next secular "
        "day (a Saturday is not moved; a payment or filing at an office closed that Saturday may be made "
        "the next day it is open); a period in hours leaves "
        "out the whole of Sundays and legal holidays"
    ),
    "calendar": (
        "Plain calendar counting: the event date plus the period, the last day never moved; "
        "hours are elapsed hours, Sundays and holidays included"
    ),
}

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class SkippedDay(BaseModel):
    """A day that was passed over (not counted, or moved past) and why."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    day: date = Field(description="The day passed over.")
    reason: str = Field(description="Why: 'Saturday', 'Sunday' or the holiday's name.")
    effect: str = Field(
        description="What skipping it did: 'not a business day', 'hours not counted', "
        "'last day moved past it'."
    )


@dataclass(frozen=True)
class Count:
    """The outcome of one counting operation."""

    due_date: date  # the last day (or, counting backwards, the latest day)
    unadjusted: date | datetime  # before any move or skip
    due_at: datetime | None = None  # for periods in hours: the exact moment, tz-aware
    skipped: tuple[SkippedDay, ...] = ()
    steps: str = ""  # one or two sentences describing the arithmetic


@dataclass(frozen=True)
class Window:
    """An annual window such as 'between November 15 and April 1' (ends included)."""

    inside: bool
    start: date  # the window's first day for the season asked about (or the next one)
    end: date  # its last day
    next_allowed: date  # the asked day if outside, else the day after the window


def describe_date(d: date) -> str:
    return f"{WEEKDAYS[d.weekday()]} {d.isoformat()}"


def describe_moment(dt: datetime) -> str:
    return f"{WEEKDAYS[dt.weekday()]} {dt.strftime('%Y-%m-%d %H:%M %Z')}"


def is_midnight(dt: datetime) -> bool:
    return dt.timetz().replace(tzinfo=None) == time(0)


def day_ending_at(dt: datetime) -> date:
    """The day a deadline moment belongs to: midnight closes the day before."""
    return dt.date() - timedelta(days=1) if is_midnight(dt) else dt.date()


def describe_deadline_moment(dt: datetime) -> str:
    """A due moment; midnight is shown as the end of the day it closes."""
    if is_midnight(dt):
        return f"midnight at the end of {describe_date(day_ending_at(dt))} ({dt.strftime('%Z')})"
    return describe_moment(dt)


@dataclass(frozen=True)
class BusinessCalendar:
    convention: Convention = "wisconsin"
    extra_holidays: tuple[date, ...] = ()
    tz_name: str = "America/Chicago"
    # § 990.001(4)(c): a payment or filing due on a day its office is closed may be made the next day it is
    # open. Whether a municipal office keeps Saturday hours is not in the codes: unless the settings say it is
    # closed on Saturdays, a Saturday last day stays (safe whatever the hours) and the answer says the rest
    office_closed_saturdays: bool = False
    _holidays: holidays_lib.HolidayBase = field(
        default_factory=lambda: holidays_lib.country_holidays("US", subdiv="WI", observed=True),
        compare=False,
        repr=False,
    )

    # ------------------------------------------------------------------ days
    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.tz_name)

    @property
    def convention_text(self) -> str:
        return CONVENTION_TEXT[self.convention]

    def holiday_name(self, d: date) -> str | None:
        names = []
        name = self._holidays.get(d)
        if name:
            names.append(str(name))
        if d in self.extra_holidays:
            names.append("local holiday (settings)")
        return "; ".join(names) or None

    def is_legal_holiday(self, d: date) -> bool:
        return self.holiday_name(d) is not None

    def is_business_day(self, d: date) -> bool:
        return d.weekday() < 5 and not self.is_legal_holiday(d)

    def is_sunday_or_holiday(self, d: date) -> bool:
        return d.weekday() == 6 or self.is_legal_holiday(d)

    def why_not_business_day(self, d: date) -> str | None:
        parts = []
        if d.weekday() >= 5:
            parts.append(WEEKDAYS[d.weekday()])
        name = self.holiday_name(d)
        if name:
            parts.append(name)
        return ", ".join(parts) or None

    def _skip(self, d: date, effect: str) -> SkippedDay:
        return SkippedDay(day=d, reason=self.why_not_business_day(d) or WEEKDAYS[d.weekday()], effect=effect)

    def local(self, moment: datetime) -> datetime:
        """A naive datetime is local time; an aware one is converted to local time."""
        if moment.tzinfo is None:
            return moment.replace(tzinfo=self.tz)
        return moment.astimezone(self.tz)

    def _midnight(self, d: date) -> datetime:
        return datetime.combine(d, time(0), tzinfo=self.tz)

    # ------------------------------------------------------- moving a last day
    def _extend(self, last: date, *, office_filing: bool) -> tuple[date, list[SkippedDay]]:
        """§ 990.001(4)(b)/(c): move a last day off Sundays and legal holidays (and off a
        Saturday for payments and filings at an office closed on Saturdays)."""
        skipped: list[SkippedDay] = []
        if self.convention != "wisconsin":
            return last, skipped
        while self.is_sunday_or_holiday(last) or (office_filing and self.office_closed_saturdays and last.weekday() == 5):
            skipped.append(self._skip(last, "last day moved past it"))
            last += timedelta(days=1)
        return last, skipped

    def moved_off_closed_days(self, last: date) -> date:
        """The day a last day on a Sunday or legal holiday moves to under § 990.001(4)(b) (itself otherwise)."""
        return self._extend(last, office_filing=False)[0]

    # ------------------------------------------------------------ counting
    def days_after(self, event: date, n: int, *, extend: bool = True, office_filing: bool = False) -> Count:
        """'within n days after the event': event day excluded, last day included."""
        return self._forward(event, event + timedelta(days=n), f"{n} days", None, extend, office_filing)

    def months_after(self, event: date, n: int, *, extend: bool = True, office_filing: bool = False) -> Count:
        return self._forward(event, event + relativedelta(months=n), f"{n} months",
                             "no such day in that month: its last day", extend, office_filing)

    def years_after(self, event: date, n: int, *, extend: bool = True, office_filing: bool = False) -> Count:
        return self._forward(event, event + relativedelta(years=n), f"{n} year{'' if n == 1 else 's'}",
                             "February 29 has no anniversary: February 28", extend, office_filing)

    def _forward(self, event: date, raw: date, period: str, short_month: str | None, extend: bool,
                 office_filing: bool) -> Count:
        """A period counted forward to ``raw``, its last day moved off closed days when ``extend``."""
        due, skipped = self._extend(raw, office_filing=office_filing) if extend else (raw, [])
        steps = f"{describe_date(event)} + {period} = {describe_date(raw)}"
        if short_month and raw.day != event.day:
            steps += f" ({short_month})"
        if due != raw:
            steps += f", moved to {describe_date(due)}"
        return Count(due_date=due, unadjusted=raw, skipped=tuple(skipped), steps=steps)

    def days_before(self, event: date, n: int, *, office_filing: bool = False) -> Count:
        """'at least n days before the event': the latest day is event − n. Counting backwards
        nothing moves forward (that would shorten the notice). For an act done at an office,
        a latest day on which the office is closed moves back to the business day before."""
        raw = event - timedelta(days=n)
        due = raw
        skipped: list[SkippedDay] = []
        if office_filing:
            while not self.is_business_day(due):
                skipped.append(self._skip(due, "office closed: moved back past it"))
                due -= timedelta(days=1)
        steps = f"{describe_date(event)} − {n} days = {describe_date(raw)}"
        if due != raw:
            steps += f"; the office is closed that day, so the last day it can be done is {describe_date(due)}"
        return Count(due_date=due, unadjusted=raw, skipped=tuple(skipped), steps=steps)

    def business_days_after(self, event: date, n: int) -> Count:
        """'within n business days of', 'not later than the next business day' (n=1)."""
        d = event
        counted = 0
        skipped: list[SkippedDay] = []
        while counted < n:
            d += timedelta(days=1)
            if self.is_business_day(d):
                counted += 1
            else:
                skipped.append(self._skip(d, "not a business day"))
        steps = f"{n} business day{'s' if n != 1 else ''} after {describe_date(event)} = {describe_date(d)}"
        return Count(due_date=d, unadjusted=d, skipped=tuple(skipped), steps=steps)

    def business_days_before(self, event: date, n: int) -> Count:
        """'at least n business days before': the n-th business day before the event day."""
        d = event
        counted = 0
        skipped: list[SkippedDay] = []
        while counted < n:
            d -= timedelta(days=1)
            if self.is_business_day(d):
                counted += 1
            else:
                skipped.append(self._skip(d, "not a business day"))
        steps = f"{n} business day{'s' if n != 1 else ''} before {describe_date(event)} = {describe_date(d)}"
        return Count(due_date=d, unadjusted=d, skipped=tuple(skipped), steps=steps)

    def _hours_excluded(self, d: date) -> bool:
        return self.convention == "wisconsin" and self.is_sunday_or_holiday(d)

    def hours_after(self, event: datetime, n: float) -> Count:
        """'within n hours after': Wisconsin leaves out whole Sundays and legal holidays."""
        start = self.local(event)
        raw = (start.astimezone(timezone.utc) + timedelta(hours=n)).astimezone(self.tz)
        remaining = timedelta(hours=n)
        cur = start
        skipped: list[SkippedDay] = []
        while True:
            day = cur.date()
            day_end = self._midnight(day + timedelta(days=1))
            if self._hours_excluded(day):
                skipped.append(self._skip(day, "hours not counted"))
                cur = day_end
                continue
            available = day_end.astimezone(timezone.utc) - cur.astimezone(timezone.utc)
            if remaining <= available:
                cur = (cur.astimezone(timezone.utc) + remaining).astimezone(self.tz)
                break
            remaining -= available
            cur = day_end
        steps = f"{describe_moment(start)} + {_hours(n)} = {describe_deadline_moment(raw)} by the clock"
        if cur != raw:
            steps += f", but {_whole_days(skipped)} left out, so the counted hours end later"
        return Count(due_date=day_ending_at(cur), unadjusted=raw, due_at=cur, skipped=tuple(skipped), steps=steps)

    def hours_before(self, event: datetime, n: float) -> Count:
        """'at least n hours before': the latest moment; Wisconsin leaves out whole Sundays
        and legal holidays, so the notice must be given earlier."""
        end = self.local(event)
        raw = (end.astimezone(timezone.utc) - timedelta(hours=n)).astimezone(self.tz)
        remaining = timedelta(hours=n)
        cur = end
        skipped: list[SkippedDay] = []
        while True:
            # the day holding the instant just before ``cur``
            day = day_ending_at(cur)
            day_start = self._midnight(day)
            if self._hours_excluded(day):
                skipped.append(self._skip(day, "hours not counted"))
                cur = day_start
                continue
            available = cur.astimezone(timezone.utc) - day_start.astimezone(timezone.utc)
            if remaining <= available:
                cur = (cur.astimezone(timezone.utc) - remaining).astimezone(self.tz)
                break
            remaining -= available
            cur = day_start
        steps = f"{describe_moment(end)} − {_hours(n)} = {describe_deadline_moment(raw)} by the clock"
        if cur != raw:
            steps += f", but {_whole_days(skipped)} left out, so the notice must come earlier"
        return Count(due_date=day_ending_at(cur), unadjusted=raw, due_at=cur, skipped=tuple(skipped), steps=steps)

    def annual_date(
        self,
        event: date,
        month: int,
        day: int,
        *,
        inclusive: bool,
        extend: bool = True,
        office_filing: bool = False,
    ) -> Count:
        """The first given month/day on or after (inclusive) or strictly after the event."""
        raw = date(event.year, month, day)
        if raw < event or (raw == event and not inclusive):
            raw = date(event.year + 1, month, day)
        due, skipped = self._extend(raw, office_filing=office_filing) if extend else (raw, [])
        steps = (
            f"the first {raw.strftime('%B')} {day} {'on or after' if inclusive else 'after'} "
            f"{describe_date(event)} is {describe_date(raw)}"
        )
        if due != raw:
            steps += f", moved to {describe_date(due)}"
        return Count(due_date=due, unadjusted=raw, skipped=tuple(skipped), steps=steps)


def annual_window(d: date, start: tuple[int, int], end: tuple[int, int]) -> Window:
    """Whether ``d`` lies in a window running each year from ``start`` to ``end`` (month,
    day), both ends included; the window may wrap the new year (Nov 15 – Apr 1)."""
    s_m, s_d = start
    e_m, e_d = end
    wraps = (e_m, e_d) < (s_m, s_d)
    if wraps:
        if (d.month, d.day) >= (s_m, s_d):
            w_start, w_end = date(d.year, s_m, s_d), date(d.year + 1, e_m, e_d)
        elif (d.month, d.day) <= (e_m, e_d):
            w_start, w_end = date(d.year - 1, s_m, s_d), date(d.year, e_m, e_d)
        else:  # between the end and the next start
            w_start, w_end = date(d.year, s_m, s_d), date(d.year + 1, e_m, e_d)
    else:
        w_start, w_end = date(d.year, s_m, s_d), date(d.year, e_m, e_d)
        if d > w_end:
            w_start, w_end = date(d.year + 1, s_m, s_d), date(d.year + 1, e_m, e_d)
    inside = w_start <= d <= w_end
    return Window(
        inside=inside,
        start=w_start,
        end=w_end,
        next_allowed=(w_end + timedelta(days=1)) if inside else d,
    )


def _whole_days(skipped: list[SkippedDay]) -> str:
    n = len(skipped)
    return "1 whole day is" if n == 1 else f"{n} whole days are"


def _hours(n: float) -> str:
    return f"{n:g} hour{'s' if n != 1 else ''}"


def _parse_extra(values: tuple[str, ...]) -> tuple[date, ...]:
    out = []
    for v in values:
        try:
            out.append(date.fromisoformat(str(v).strip()))
        except ValueError:
            raise ValueError(
                f"settings.extra_holidays: {v!r} is not an ISO date (YYYY-MM-DD)"
            ) from None
    return tuple(sorted(set(out)))


@functools.cache
def _calendar(convention: str, extra: tuple[str, ...], tz_name: str, saturdays_closed: bool = False) -> BusinessCalendar:
    if convention not in CONVENTION_TEXT:
        raise ValueError(f"settings.time_convention must be 'wisconsin' or 'calendar', not {convention!r}")
    return BusinessCalendar(convention=convention, extra_holidays=_parse_extra(extra), tz_name=tz_name,  # type: ignore[arg-type]
                            office_closed_saturdays=saturdays_closed)


def business_calendar(settings=None) -> BusinessCalendar:
    """The calendar the settings describe (convention, extra holidays, timezone)."""
    if settings is None:
        from assistant.settings import get_settings

        settings = get_settings()
    return _calendar(settings.time_convention, tuple(settings.extra_holidays), settings.timezone,
                     bool(getattr(settings, "office_closed_saturdays", False)))
