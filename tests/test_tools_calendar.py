"""The business-day calendar and the two ways of counting time.

Cases are worked by hand against a wall calendar; each row names the rule it implements.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Any, Callable
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.settings import Settings
from assistant.tools.calendar import (
    CONVENTION_TEXT,
    BusinessCalendar,
    annual_window,
    business_calendar,
)

CHI = ZoneInfo("America/Chicago")
WI = BusinessCalendar("wisconsin")
WI_SAT_CLOSED = BusinessCalendar("wisconsin", office_closed_saturdays=True)  # settings.office_closed_saturdays
PLAIN = BusinessCalendar("calendar")

WIS_A = "§ 990.001(4)(a): exclude the first day, include the last; in hours leave out whole Sundays and legal holidays"
WIS_B = "§ 990.001(4)(b): a last day on a Sunday or legal holiday moves to the next secular day"
WIS_C = "§ 990.001(4)(c): a payment or filing due on a Saturday at an office closed Saturdays moves on"


def at(y: int, m: int, d: int, h: int = 0, mi: int = 0) -> datetime:
    return datetime(y, m, d, h, mi, tzinfo=CHI)


@dataclass(frozen=True)
class Case:
    name: str
    run: Callable[[], Any]
    expected: Any
    rule: str


DAY_CASES = [
    Case("30 days from Fri 2 May 2025 ends Sun 1 June: moved to Mon",
         lambda: WI.days_after(date(2025, 5, 2), 30).due_date, date(2025, 6, 2), WIS_B),
    Case("same period, a validity end (not an act): not moved",
         lambda: WI.days_after(date(2025, 5, 2), 30, extend=False).due_date, date(2025, 6, 1), WIS_A),
    Case("plain calendar: not moved",
         lambda: PLAIN.days_after(date(2025, 5, 2), 30).due_date, date(2025, 6, 1), "calendar convention"),
    Case("10 days from 15 Dec 2025 ends on Christmas Day: moved to Fri 26 Dec",
         lambda: WI.days_after(date(2025, 12, 15), 10).due_date, date(2025, 12, 26), WIS_B),
    Case("10 days from 1 Jan 2025 ends Sat 11 Jan: an ordinary act stays on Saturday",
         lambda: WI.days_after(date(2025, 1, 1), 10).due_date, date(2025, 1, 11), WIS_B),
    Case("the same as a payment at an office closed Saturdays: Saturday moves to Mon 13 Jan",
         lambda: WI_SAT_CLOSED.days_after(date(2025, 1, 1), 10, office_filing=True).due_date, date(2025, 1, 13), WIS_C),
    Case("a payment at an office whose Saturday hours are not known stays on Sat 11 Jan (safe either way)",
         lambda: WI.days_after(date(2025, 1, 1), 10, office_filing=True).due_date, date(2025, 1, 11), WIS_C),
    Case("a payment due Sat 27 Dec 2025 after Christmas, office closed Saturdays: Mon 29 Dec",
         lambda: WI_SAT_CLOSED.days_after(date(2025, 12, 17), 10, office_filing=True).due_date, date(2025, 12, 29), WIS_C),
    Case("3 months from 31 Jan 2025 is 30 Apr (no 31 April)",
         lambda: WI.months_after(date(2025, 1, 31), 3, extend=False).due_date, date(2025, 4, 30), "calendar months"),
    Case("5 years from 29 Feb 2020 is 28 Feb 2025",
         lambda: WI.years_after(date(2020, 2, 29), 5, extend=False).due_date, date(2025, 2, 28), "anniversaries"),
    Case("2 days before Mon 6 Jan 2025 is Sat 4 Jan",
         lambda: WI.days_before(date(2025, 1, 6), 2).due_date, date(2025, 1, 4), WIS_A),
    Case("... at an office closed Saturdays: Fri 3 Jan",
         lambda: WI.days_before(date(2025, 1, 6), 2, office_filing=True).due_date, date(2025, 1, 3), "office closed"),
]

BUSINESS_CASES = [
    Case("next business day after Fri 3 Jan 2025 is Mon 6 Jan",
         lambda: WI.business_days_after(date(2025, 1, 3), 1).due_date, date(2025, 1, 6), "business day"),
    Case("two business days after Fri 3 Jan 2025 is Tue 7 Jan",
         lambda: WI.business_days_after(date(2025, 1, 3), 2).due_date, date(2025, 1, 7), "two regular business days"),
    Case("next business day after Wed 24 Dec 2025 skips Christmas: Fri 26 Dec",
         lambda: WI.business_days_after(date(2025, 12, 24), 1).due_date, date(2025, 12, 26), "holiday"),
    Case("next business day after Sat 4 Jan 2025 is Mon 6 Jan",
         lambda: WI.business_days_after(date(2025, 1, 4), 1).due_date, date(2025, 1, 6), "weekend event"),
    Case("next business day after Fri 15 Jan 2027 skips Martin Luther King Jr. Day: Tue 19 Jan",
         lambda: WI.business_days_after(date(2027, 1, 15), 1).due_date, date(2027, 1, 19), "holiday"),
    Case("plain calendar still counts business days: the text says business days",
         lambda: PLAIN.business_days_after(date(2025, 1, 3), 1).due_date, date(2025, 1, 6), "business day"),
    Case("one business day before Mon 6 Jan 2025 is Fri 3 Jan",
         lambda: WI.business_days_before(date(2025, 1, 6), 1).due_date, date(2025, 1, 3), "one business day before"),
    Case("one business day before Fri 26 Dec 2025 skips Christmas Day and Christmas Eve: Tue 23 Dec",
         lambda: WI.business_days_before(date(2025, 12, 26), 1).due_date, date(2025, 12, 23), "holidays (US + WI)"),
    Case("extra village holiday Mon 6 Jan 2025 from settings: next business day after Fri 3 Jan is Tue",
         lambda: BusinessCalendar(extra_holidays=(date(2025, 1, 6),)).business_days_after(date(2025, 1, 3), 1).due_date,
         date(2025, 1, 7), "settings.extra_holidays"),
]

HOUR_CASES = [
    Case("24 h after Sat 4 Jan 2025 10:00 leave out Sunday: Mon 10:00",
         lambda: WI.hours_after(at(2025, 1, 4, 10), 24).due_at, at(2025, 1, 6, 10), WIS_A),
    Case("plain: Sun 10:00",
         lambda: PLAIN.hours_after(at(2025, 1, 4, 10), 24).due_at, at(2025, 1, 5, 10), "calendar convention"),
    Case("naive datetimes are Chicago time",
         lambda: WI.hours_after(datetime(2025, 1, 4, 10), 24).due_at, at(2025, 1, 6, 10), "America/Chicago"),
    Case("an aware UTC datetime is converted (16:00Z = 10:00 CST)",
         lambda: WI.hours_after(datetime(2025, 1, 4, 16, tzinfo=timezone.utc), 24).due_at, at(2025, 1, 6, 10),
         "America/Chicago"),
    Case("24 h after Thu 3 Jul 2025 18:00 leave out Independence Day: Sat 5 Jul 18:00",
         lambda: WI.hours_after(at(2025, 7, 3, 18), 24).due_at, at(2025, 7, 5, 18), WIS_A),
    Case("DST: 24 h after Sat 8 Mar 2025 20:00 CST, Sunday left out: Mon 20:00 CDT",
         lambda: WI.hours_after(at(2025, 3, 8, 20), 24).due_at, at(2025, 3, 10, 20), WIS_A),
    Case("DST, plain: 24 elapsed hours from Sat 20:00 CST are Sun 21:00 CDT",
         lambda: PLAIN.hours_after(at(2025, 3, 8, 20), 24).due_at, at(2025, 3, 9, 21), "elapsed hours"),
    Case("an event on a Sunday starts counting Monday 00:00",
         lambda: WI.hours_after(at(2025, 1, 5, 15), 24).due_at, at(2025, 1, 7, 0), WIS_A),
    Case("24 h before Mon 6 Jan 2025 07:00 leave out Sunday: Sat 07:00",
         lambda: WI.hours_before(at(2025, 1, 6, 7), 24).due_at, at(2025, 1, 4, 7), WIS_A),
    Case("plain: Sun 07:00",
         lambda: PLAIN.hours_before(at(2025, 1, 6, 7), 24).due_at, at(2025, 1, 5, 7), "calendar convention"),
    Case("48 h before Tue 7 Jan 2025 07:00: Tue 7 h + Mon 24 h + Sat 17 h = Sat 07:00",
         lambda: WI.hours_before(at(2025, 1, 7, 7), 48).due_at, at(2025, 1, 4, 7), WIS_A),
    Case("4 h before Mon 6 Jan 09:00 is Mon 05:00",
         lambda: WI.hours_before(at(2025, 1, 6, 9), 4).due_at, at(2025, 1, 6, 5), WIS_A),
    Case("4 h before Mon 6 Jan 02:00: Mon 2 h + Sat 2 h = Sat 22:00",
         lambda: WI.hours_before(at(2025, 1, 6, 2), 4).due_at, at(2025, 1, 4, 22), WIS_A),
]

ANNUAL_CASES = [
    Case("the following June 1 after 10 Dec 2025",
         lambda: WI.annual_date(date(2025, 12, 10), 6, 1, inclusive=False).due_date, date(2026, 6, 1), "following June 1"),
    Case("the following June 1 after 1 June 2026 is next year's (Tue 1 Jun 2027)",
         lambda: WI.annual_date(date(2026, 6, 1), 6, 1, inclusive=False).due_date, date(2027, 6, 1), "following June 1"),
    Case("on or before Sept 15, asked on Sept 15 2025",
         lambda: WI.annual_date(date(2025, 9, 15), 9, 15, inclusive=True).due_date, date(2025, 9, 15), "on or before"),
    Case("Sept 15 2024 is a Sunday: Mon 16 Sept",
         lambda: WI.annual_date(date(2024, 8, 1), 9, 15, inclusive=True).due_date, date(2024, 9, 16), WIS_B),
    Case("Nov 1 2025 is a Saturday; paid to the Town Treasurer, office closed Saturdays: Mon 3 Nov",
         lambda: WI_SAT_CLOSED.annual_date(date(2025, 6, 1), 11, 1, inclusive=True, office_filing=True).due_date,
         date(2025, 11, 3), WIS_C),
]

WINDOW_CASES = [
    Case("Nov 14 is outside", lambda: annual_window(date(2025, 11, 14), (11, 15), (4, 1)).inside, False, "between"),
    Case("Nov 15 is inside (ends included)", lambda: annual_window(date(2025, 11, 15), (11, 15), (4, 1)).inside, True,
         "between November 15 and April 1"),
    Case("Dec 31 is inside", lambda: annual_window(date(2025, 12, 31), (11, 15), (4, 1)).end, date(2026, 4, 1), "wraps"),
    Case("Jan 1 belongs to the window that started Nov 15",
         lambda: annual_window(date(2026, 1, 1), (11, 15), (4, 1)).start, date(2025, 11, 15), "wraps"),
    Case("Apr 1 is inside; openings from Apr 2",
         lambda: annual_window(date(2026, 4, 1), (11, 15), (4, 1)).next_allowed, date(2026, 4, 2), "ends included"),
    Case("Apr 2 is outside", lambda: annual_window(date(2026, 4, 2), (11, 15), (4, 1)).inside, False, "ends included"),
    Case("a leap day is inside", lambda: annual_window(date(2028, 2, 29), (11, 15), (4, 1)).inside, True, "wraps"),
]

ALL = DAY_CASES + BUSINESS_CASES + HOUR_CASES + ANNUAL_CASES + WINDOW_CASES


@pytest.mark.parametrize("case", ALL, ids=[c.name for c in ALL])
def test_hand_worked(case: Case) -> None:
    assert case.run() == case.expected, case.rule


def test_midnight_deadline_belongs_to_the_day_it_closes() -> None:
    # 24 h from Wed 24 Dec 2025 18:00: Christmas Eve and Christmas Day are holidays in the
    # US + WI list, so the hours run Fri 00:00 - 24:00.
    c = WI.hours_after(at(2025, 12, 24, 18), 24)
    assert c.due_at == at(2025, 12, 27, 0)
    assert c.due_date == date(2025, 12, 26)
    assert [s.day for s in c.skipped] == [date(2025, 12, 24), date(2025, 12, 25)]


def test_skipped_days_name_the_reason() -> None:
    c = WI.business_days_after(date(2025, 12, 24), 2)
    assert [(s.day, s.reason) for s in c.skipped] == [
        (date(2025, 12, 25), "Christmas Day"),
        (date(2025, 12, 27), "Saturday"),
        (date(2025, 12, 28), "Sunday"),
    ]
    moved = WI.days_after(date(2025, 5, 2), 30)
    assert moved.unadjusted == date(2025, 6, 1)
    assert [(s.day, s.reason, s.effect) for s in moved.skipped] == [
        (date(2025, 6, 1), "Sunday", "last day moved past it")
    ]


def test_observed_holidays_are_legal_holidays() -> None:
    # July 4 2026 is a Saturday; Friday July 3 is observed.
    assert WI.holiday_name(date(2026, 7, 3)) == "Independence Day (observed)"
    assert not WI.is_business_day(date(2026, 7, 3))
    assert WI.is_legal_holiday(date(2025, 12, 25))
    assert WI.is_business_day(date(2025, 12, 22))


def test_settings_choose_convention_extra_holidays_and_zone() -> None:
    cal = business_calendar(Settings(time_convention="calendar", extra_holidays=["2025-01-06"]))
    assert cal.convention == "calendar"
    assert cal.convention_text == CONVENTION_TEXT["calendar"]
    assert cal.holiday_name(date(2025, 1, 6)) == "local holiday (settings)"
    assert business_calendar(Settings()).convention == "wisconsin"
    assert business_calendar(Settings()).tz_name == "America/Chicago"


def test_bad_extra_holiday_names_the_setting() -> None:
    with pytest.raises(ValueError, match="extra_holidays"):
        business_calendar(Settings(extra_holidays=["6 Jan 2025"]))


def test_every_convention_is_stated() -> None:
    assert "990.001(4)" in WI.convention_text
    assert "Plain calendar" in PLAIN.convention_text


# ------------------------------------------------------------------ properties

days = st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31))
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2035, 12, 31)).map(
    lambda d: d.replace(second=0, microsecond=0)
)


@settings(max_examples=300, deadline=None)
@given(days, st.integers(min_value=1, max_value=10))
def test_business_day_due_dates_are_business_days(day: date, n: int) -> None:
    for c in (WI.business_days_after(day, n), WI.business_days_before(day, n)):
        assert c.due_date.weekday() < 5
        assert not WI.is_legal_holiday(c.due_date)
    after = WI.business_days_after(day, n).due_date
    span = [day + timedelta(days=i) for i in range(1, (after - day).days + 1)]
    assert sum(WI.is_business_day(d) for d in span) == n


@settings(max_examples=300, deadline=None)
@given(days, st.integers(min_value=0, max_value=120), st.booleans())
def test_wisconsin_last_day_never_on_sunday_or_holiday(day: date, n: int, office: bool) -> None:
    c = WI_SAT_CLOSED.days_after(day, n, office_filing=office)
    assert not WI.is_sunday_or_holiday(c.due_date)
    if office:
        assert WI.is_business_day(c.due_date)
    assert not WI.is_sunday_or_holiday(WI.days_after(day, n, office_filing=office).due_date)
    assert c.unadjusted <= c.due_date <= c.unadjusted + timedelta(days=10)
    plain = PLAIN.days_after(day, n, office_filing=office)
    assert plain.due_date == day + timedelta(days=n)


def _counted_hours(cal: BusinessCalendar, start: datetime, end: datetime) -> float:
    """Hours between two moments that fall on days that count (independent re-count)."""
    total = 0.0
    d = start.date()
    while d <= end.date():
        lo = max(start, datetime.combine(d, datetime.min.time(), tzinfo=CHI))
        hi = min(end, datetime.combine(d + timedelta(days=1), datetime.min.time(), tzinfo=CHI))
        if hi > lo and not cal.is_sunday_or_holiday(d):
            total += (hi.astimezone(timezone.utc) - lo.astimezone(timezone.utc)).total_seconds() / 3600
        d += timedelta(days=1)
    return total


@settings(max_examples=200, deadline=None)
@given(moments, st.sampled_from([4, 12, 24, 48]))
def test_hours_leave_out_whole_sundays_and_holidays(moment: datetime, n: int) -> None:
    start = WI.local(moment)
    after = WI.hours_after(start, n).due_at
    before = WI.hours_before(start, n).due_at
    assert after is not None and before is not None
    assert _counted_hours(WI, start, after) == pytest.approx(n)
    assert _counted_hours(WI, before, start) == pytest.approx(n)
    for due in (after, before):
        if due.timetz().replace(tzinfo=None) != datetime.min.time():
            assert not WI.is_sunday_or_holiday(due.date())
    plain = PLAIN.hours_after(start, n).due_at
    assert plain is not None
    assert plain.astimezone(timezone.utc) - start.astimezone(timezone.utc) == timedelta(hours=n)


def test_the_working_says_how_a_forward_count_ran():
    short = WI.months_after(date(2025, 1, 31), 3, extend=False).steps
    assert short == ("Friday 2025-01-31 + 3 months = Wednesday 2025-04-30 "
                     "(no such day in that month: its last day)")
    leap = WI.years_after(date(2020, 2, 29), 1).steps
    assert "+ 1 year = " in leap and "(February 29 has no anniversary: February 28)" in leap
    moved = WI.days_after(date(2027, 5, 14), 30)
    assert moved.steps == "Friday 2027-05-14 + 30 days = Sunday 2027-06-13, moved to Monday 2027-06-14"
    assert "(" not in WI.months_after(date(2025, 1, 15), 1).steps  # a day that exists: no remark
