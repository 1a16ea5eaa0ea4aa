"""Deadlines of the Brandon and Delafield codes, counted over the business-day calendar.

The rules (periods, fixed dates, windows) and the quotes they come from live in
``data/deadlines.yaml``; this module only counts. One generic tool, ``deadline``, takes
a rule id and the event date (or date and time, for periods in hours); three
conveniences answer the common questions in one call: the two emergency-excavation
deadlines, every start notice for a planned excavation, and whether a date falls in the
no-opening season.
"""

from __future__ import annotations

import functools
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from assistant.corpus import cite, resolve_municipality
from assistant.tools.calendar import (
    BusinessCalendar,
    Count,
    SkippedDay,
    annual_window,
    business_calendar,
    describe_date,
    describe_deadline_moment,
    describe_moment,
)
from assistant.tools.coverage import municipality_field, not_covered
from assistant.amendments import answers_changed_rules
from assistant.tools.spec import Route, ToolSpec
from assistant.types import Citation, ToolInput, ToolOutput

DATA_FILE = Path(__file__).resolve().parent / "data" / "deadlines.yaml"

CountKind = Literal[
    "days_after",
    "business_days_after",
    "hours_after",
    "months_after",
    "years_after",
    "days_before",
    "business_days_before",
    "hours_before",
    "annual_date",
    "window",
    "publication_window",
    "no_fixed_date",
]
HOUR_KINDS = ("hours_after", "hours_before")
BEFORE_KINDS = ("days_before", "business_days_before", "hours_before", "publication_window")


# ----------------------------------------------------------------------------- data


class QuoteRef(BaseModel):
    """Where a number comes from: a verbatim quote, resolved by ``cite`` at run time."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    municipality: str | None = None
    section: str | None = None
    title: str | None = None
    quote: str


class CountSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: CountKind
    amount: int | None = None
    month: int | None = None
    day: int | None = None
    inclusive: bool = True
    start: str | None = None  # MM-DD, windows
    end: str | None = None
    min_days: int | None = None  # publication windows
    max_days: int | None = None
    times: int | None = None


class DeadlineRule(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    municipality: str
    title: str
    obligation: str
    event: str
    count: CountSpec
    act: bool = True
    office_filing: bool = False
    emergency: Literal["exempt", "excepted"] | None = None
    citations: tuple[QuoteRef, ...]
    notes: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    # rules that bind on the same event and are always given with this one (the duty to apply by the next business
    # day and the fee waiver within two): whichever a question names, the answer gives both
    together: tuple[str, ...] = ()
    emergency_note: str | None = None  # what an emergency excavation must do instead (data, with its rule id)
    emergency_related: tuple[str, ...] = ()  # the rules that note points to
    due_note: str | None = None  # a sentence added after the due date; may use {next_year}


@functools.cache
def rules() -> dict[str, DeadlineRule]:
    """Every rule of data/deadlines.yaml by id (validated on first use)."""
    raw = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
    out: dict[str, DeadlineRule] = {}
    for entry in raw["rules"]:
        rule = DeadlineRule.model_validate(entry)
        if rule.id in out:
            raise ValueError(f"{DATA_FILE.name}: duplicate rule id {rule.id!r}")
        out[rule.id] = rule
    for rule in out.values():
        for other in (*rule.related, *rule.together):
            if other not in out:
                raise ValueError(f"{DATA_FILE.name}: rule {rule.id!r} relates to unknown rule {other!r}")
    return out


RULE_IDS: tuple[str, ...] = tuple(rules())
RuleId = Literal[RULE_IDS]  # type: ignore[valid-type]


def citation_for(ref: QuoteRef, default_municipality: str) -> Citation:
    return cite(ref.municipality or default_municipality, ref.quote, section=ref.section, title=ref.title)


def rule_citations(rule: DeadlineRule) -> list[Citation]:
    return [citation_for(ref, rule.municipality) for ref in rule.citations]


def _catalog() -> str:
    return "; ".join(f"{r.id} ({r.title})" for r in rules().values())


# ----------------------------------------------------------------------- the tool


class DeadlineInput(ToolInput):
    """One deadline of the codes: which rule, and the event it runs from (or to)."""

    rule: RuleId = Field(  # type: ignore[valid-type]
        description="Id of the deadline rule. Rules: " + _catalog()
    )
    event: date | datetime = Field(
        description="The event the period runs from (or, for notices 'before' something, the "
        "moment of that something): a date 'YYYY-MM-DD', or a date and time "
        "'YYYY-MM-DDTHH:MM' (America/Chicago unless an offset is given). Rules counted in "
        "hours need the time."
    )
    emergency: bool = Field(
        default=False,
        description="True when the work is an emergency excavation (some notices do not apply; "
        "a no-opening season may except emergencies the board so determines).",
    )
    done_on: date | None = Field(
        default=None,
        description="The day the user says the act was done (the deposit paid, the notice filed): the answer says "
        "whether it was in time, against the last day computed.")
    given: Literal["event", "act"] = Field(
        default="event",
        description="event: `event` is the rule's event (the latest day to act before it is computed); act: for "
        "a notice or decision due a period before an event, `event` is the day (or moment) it was given, and the "
        "earliest day (or moment) the event may then take place is computed.",
    )


class DeadlineResult(ToolOutput):
    """A due date (or latest moment) with the rule, its citation and the days skipped."""

    rule: str = Field(description="Rule id.")
    municipality: str = Field(description="Municipality id.")
    title: str = Field(description="Short name of the obligation.")
    obligation: str = Field(description="What must be done, in plain words.")
    event_meaning: str = Field(description="What the event date given stands for.")
    event: date | datetime | None = Field(default=None, description="The event as read (local time).")
    period: str = Field(description="The period as the code states it, e.g. '24 hours', '2 business days'.")
    direction: Literal["after", "before", "by_date", "window", "none"] = Field(
        description="after: due after the event; before: latest moment before the event; "
        "by_date: a fixed yearly date; window: a date range; none: no date can be given."
    )
    due_date: date | None = Field(
        default=None,
        description="Last day to act (by its end), or for notices the latest day to give them; "
        "for a period that ends (a permit's validity), its last day.",
    )
    due_at: datetime | None = Field(
        default=None, description="For periods in hours: the exact moment, with time zone."
    )
    if_an_act: date | None = Field(
        default=None, description="For the end of a period (not an act to be done) whose last day is a Sunday or "
        "legal holiday: the next secular day, the last day if the period is read as a time to do an act.")
    unadjusted: date | datetime | None = Field(
        default=None, description="The plain date or moment before any day was skipped or moved."
    )
    earliest_date: date | None = Field(
        default=None, description="For a window of allowed dates (public-hearing notice): the earliest."
    )
    earliest_event: date | datetime | None = Field(
        default=None, description="With the notice or decision given (`given` act): the earliest day (or moment) "
        "the event may take place.")
    ends_period: bool = Field(
        default=False, description="The rule's period simply ends (a permit's validity, a time to keep traffic off): "
        "no act is due by it.")
    office_saturday: bool = Field(
        default=False, description="A payment or filing at an office falls due on a Saturday: if the office is closed "
        "that day, § 990.001(4)(c) lets it be made on the next day the office is open.")
    skipped: list[SkippedDay] = Field(
        default_factory=list, description="Days passed over, and why (weekend, named holiday)."
    )
    in_window: bool | None = Field(default=None, description="For windows: whether the event date falls inside.")
    window_start: date | None = Field(default=None, description="For windows: first day of the window.")
    window_end: date | None = Field(default=None, description="For windows: last day of the window.")
    next_allowed_date: date | None = Field(
        default=None, description="For no-opening windows: the first date openings are allowed."
    )
    related_rules: list[str] = Field(default_factory=list, description="Other rules that bind at the same time.")
    done_on: date | None = Field(default=None, description="The day the act was done, as given.")
    in_time: bool | None = Field(
        default=None, description="With `done_on`: whether it was done by the last day (None when the last day is a "
        "moment of the day the act was done, which a date alone cannot settle).")
    days_late: int | None = Field(default=None, description="With `done_on` after the last day: by how many days.")


def _period_text(c: CountSpec) -> str:
    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    match c.kind:
        case "days_after" | "days_before":
            return plural(c.amount or 0, "day")
        case "business_days_after" | "business_days_before":
            return plural(c.amount or 0, "business day")
        case "hours_after" | "hours_before":
            return plural(c.amount or 0, "hour")
        case "months_after":
            return plural(c.amount or 0, "month")
        case "years_after":
            return plural(c.amount or 0, "year")
        case "annual_date":
            return date(2000, c.month or 1, c.day or 1).strftime("%B ") + str(c.day)
        case "window":
            s, e = _md(c.start), _md(c.end)
            return f"{date(2000, *s).strftime('%B')} {s[1]} to {date(2000, *e).strftime('%B')} {e[1]}"
        case "publication_window":
            return f"{c.times} publications, {c.min_days} to {c.max_days} days before"
        case _:
            return "no fixed period"


def _direction(c: CountSpec) -> str:
    if c.kind in BEFORE_KINDS:
        return "before"
    if c.kind == "annual_date":
        return "by_date"
    if c.kind == "window":
        return "window"
    if c.kind == "no_fixed_date":
        return "none"
    return "after"


def _md(text: str | None) -> tuple[int, int]:
    m, d = (text or "").split("-")
    return int(m), int(d)


def holiday_note(skipped: tuple[SkippedDay, ...] | list[SkippedDay]) -> list[str]:
    """An assumption naming the holidays that changed the result, if any did."""
    named = [s for s in skipped if s.reason not in ("Saturday", "Sunday")]
    if not named:
        return []
    days = ", ".join(f"{s.day} ({s.reason})" for s in named)
    return [
        f"Treated as legal holidays: {days} - from the US and Wisconsin list of the `holidays` package "
        "(observed days included) plus any local holidays in settings. If the office is open or the day "
        "is not a legal holiday for this purpose, the date may be earlier."
    ]


def _skipped_sentence(skipped: tuple[SkippedDay, ...] | list[SkippedDay]) -> str:
    if not skipped:
        return ""
    parts = [
        describe_date(s.day) + ("" if s.reason == s.day.strftime("%A") else f" ({s.reason})") for s in skipped
    ]
    return " Days passed over: " + ", ".join(parts) + "."


def _convention_sentence(cal: BusinessCalendar, rule: DeadlineRule, count: Count | None) -> str:
    k = rule.count.kind
    if k in ("business_days_after", "business_days_before"):
        return (
            " Business days are Monday to Friday that are not legal holidays; the day of the "
            "event is not counted (the same under either counting convention)."
        )
    if k in HOUR_KINDS:
        if cal.convention == "wisconsin":
            return (
                " Under § 990.001(4)(a), Wis. Stats., a period in hours leaves out the whole of "
                "Sundays and legal holidays, midnight to midnight; hours are real elapsed hours."
            )
        return " Plain elapsed hours, Sundays and holidays included."
    if k in ("days_after", "months_after", "years_after", "annual_date"):
        if not rule.act:
            return (
                " This is the end of a period, not an act to be done, so the last day is not moved "
                "off a weekend or holiday."
            )
        if cal.convention == "wisconsin":
            s = (
                " Under § 990.001(4), Wis. Stats., "
                + ("" if k == "annual_date" else "the event day is excluded and the last day included; ")
                + "a last day on a Sunday or legal holiday moves to the next secular day"
            )
            if rule.office_filing and cal.office_closed_saturdays:
                s += (
                    ", and since this is a payment or filing at an office closed on "
                    "Saturdays, a Saturday last day moves too"
                )
            elif rule.office_filing and count is not None and count.due_date is not None \
                    and count.due_date.weekday() == 5:
                s += (
                    "; a Saturday is not moved, but if the office is closed that Saturday, § 990.001(4)(c) "
                    "lets the payment or filing be made on the next day it is open"
                )
            return s + "."
        return " Plain calendar counting: the last day is not moved off weekends or holidays."
    return ""


@answers_changed_rules("deadline")
def deadline(inp: DeadlineInput, calendar: BusinessCalendar | None = None) -> DeadlineResult:
    """Compute one deadline of the codes: the due date or moment, with its citation."""
    cal = calendar or business_calendar()
    rule = rules()[inp.rule]
    c = rule.count
    assumptions = list(rule.notes)
    event = inp.event
    if isinstance(event, datetime):
        event = cal.local(event)
    result = DeadlineResult(
        tool="deadline",
        rule=rule.id,
        municipality=rule.municipality,
        title=rule.title,
        obligation=rule.obligation,
        event_meaning=rule.event,
        event=event,
        period=_period_text(c),
        direction=_direction(c),  # type: ignore[arg-type]
        citations=rule_citations(rule),
        convention=cal.convention_text,
        related_rules=list(rule.related),
    )

    if inp.emergency and rule.emergency is None:
        assumptions.append("The emergency flag does not change this rule.")

    # ---------------------------------------------------------------- no date at all
    if c.kind == "no_fixed_date":
        result.explanation = (
            f"{rule.obligation} The code fixes no dates for this rule, so no date can be computed "
            f"for {describe_date(_as_date(event))}: whether it applies is a question of fact for "
            "the municipality to decide."
        )
        result.assumptions = assumptions
        return result

    # ---------------------------------------------------------------- emergency exemptions
    if inp.emergency and rule.emergency == "exempt":
        result.explanation = (
            f"{rule.obligation} The text exempts emergency excavations from this notice, so no "
            "deadline applies." + (f" {rule.emergency_note}" if rule.emergency_note else "")
        )
        result.related_rules = sorted({*rule.related, *rule.emergency_related})
        result.assumptions = assumptions
        return result

    # ---------------------------------------------------------------- hours need a time
    if c.kind in HOUR_KINDS:
        if not isinstance(event, datetime):
            result.ok = False
            result.error = (
                f"rule {rule.id} counts {c.amount} hours: give `event` as a date and time "
                f"(e.g. '{_as_date(event).isoformat()}T07:00', America/Chicago), not a date alone"
            )
            result.assumptions = assumptions
            return result
    elif isinstance(event, datetime):
        assumptions.append(f"This rule counts whole days: only the date of the event, {event.date()}, is used.")
        event = event.date()
        result.event = event

    # ---------------------------------------------------------------- windows
    if c.kind == "window":
        w = annual_window(event, _md(c.start), _md(c.end))
        result.in_window = w.inside
        result.window_start = w.start
        result.window_end = w.end
        result.next_allowed_date = w.next_allowed
        if w.inside and inp.emergency and rule.emergency == "excepted":
            verdict = (
                f"{describe_date(event)} is inside the window {w.start} to {w.end}, but an emergency "
                "excavation is excepted" + (f" {rule.emergency_note}" if rule.emergency_note else ".")
            )
            result.next_allowed_date = event
        elif w.inside:
            verdict = (
                f"{describe_date(event)} is inside the window {w.start} to {w.end}, so no opening is "
                f"permitted then (unless determined an emergency); openings are allowed again from "
                f"{describe_date(w.next_allowed)}."
            )
        else:
            verdict = (
                f"{describe_date(event)} is outside the window; the next window runs from "
                f"{w.start} to {w.end}."
            )
        result.explanation = (
            f"{rule.obligation} {verdict} Both end dates are counted as inside the window."
        )
        result.assumptions = assumptions
        return result

    # ---------------------------------------------------------------- publication window
    if c.kind == "publication_window":
        latest = cal.days_before(event, c.min_days or 0)
        earliest = cal.days_before(event, c.max_days or 0)
        result.due_date = latest.due_date
        result.earliest_date = earliest.due_date
        result.unadjusted = latest.unadjusted
        flags = [
            f"the {label} day is not a business day ({cal.why_not_business_day(d)})"
            for label, d in (("earliest", earliest.due_date), ("latest", latest.due_date))
            if not cal.is_business_day(d)
        ]
        result.explanation = (
            f"{rule.obligation} For a hearing on {describe_date(event)}: {earliest.steps} (earliest "
            f"first publication) and {latest.steps} (latest); publish {c.times} times between "
            f"{earliest.due_date} and {latest.due_date}, the hearing day counted and the publication "
            f"day not." + (" Note: " + "; ".join(flags) + "." if flags else "")
        )
        result.assumptions = assumptions
        return result

    # ---------------------------------------------------------------- the act given: the earliest event
    if inp.given == "act":
        return _earliest_event(cal, rule, event, result, assumptions)

    # ---------------------------------------------------------------- counting
    count = _count(cal, rule, event)
    result.due_date = count.due_date
    result.due_at = count.due_at
    result.unadjusted = count.unadjusted
    result.skipped = list(count.skipped)
    result.ends_period = not rule.act
    result.office_saturday = bool(rule.office_filing and rule.act and count.due_date is not None and count.due_at is None
                                  and c.kind in ("days_after", "months_after", "years_after", "annual_date")
                                  and count.due_date.weekday() == 5 and not cal.office_closed_saturdays
                                  and cal.convention == "wisconsin")
    if not rule.act and count.due_date is not None and count.due_at is None and cal.convention == "wisconsin" \
            and cal.is_sunday_or_holiday(count.due_date):
        # whether a permit's last day of validity is "the last day within which an act is to be done" is a
        # reading of § 990.001(4)(b): the day it would move to is said beside the one given
        result.if_an_act = cal.moved_off_closed_days(count.due_date)
    if count.due_at is not None and c.kind == "hours_before":
        outcome = f"the latest moment to give it is {describe_deadline_moment(count.due_at)}"
    elif count.due_at is not None and not rule.act:
        outcome = f"the period ends at {describe_deadline_moment(count.due_at)}"
    elif count.due_at is not None:
        outcome = f"due by {describe_deadline_moment(count.due_at)}"
    elif c.kind in ("days_before", "business_days_before"):
        outcome = f"the latest day to give it is {describe_date(count.due_date)}"
    elif not rule.act:
        outcome = f"the last day is {describe_date(count.due_date)}"
    else:
        outcome = f"due by the end of {describe_date(count.due_date)}"
    result.explanation = (
        f"{rule.obligation} {count.steps[0].upper() + count.steps[1:]}; {outcome}."
        + _convention_sentence(cal, rule, count)
        + _skipped_sentence(count.skipped)
    )
    assumptions.extend(holiday_note(count.skipped))
    if inp.done_on is not None and rule.act:
        _judge_done(result, inp.done_on)
    if rule.due_note and count.unadjusted is not None:
        result.explanation += " " + rule.due_note.format(next_year=count.unadjusted.year + 1)
    result.assumptions = assumptions
    return result


def _judge_done(result: DeadlineResult, done: date) -> None:
    """Whether an act done on ``done`` was in time: on or before the last day (the day of a last moment cannot say)."""
    last = result.due_at.date() if result.due_at is not None else result.due_date
    if last is None:
        return
    result.done_on = done
    if result.due_at is not None and done == last:
        result.explanation += (f" Done on {describe_date(done)}, the day of the last moment: whether in time depends "
                               "on the hour.")
        return
    result.in_time = done <= last
    if result.in_time:
        result.explanation += f" Done on {describe_date(done)}: on or before the last day, in time."
    else:
        result.days_late = (done - last).days
        result.explanation += (f" Done on {describe_date(done)}: {result.days_late} day"
                               f"{'' if result.days_late == 1 else 's'} after the last day, late.")


# the words that ask a deadline's day ("earliest" / "soonest" reach the route too, but only to count forward from a
# notice or decision given: assistant/answering/routes/deadlines.py)
WHEN_CUES = (r"when|deadlines?|how late|by what date|what date|by what day|(?:on )?(?:what|which) day|how long|how many (?:days|hours)|due|how soon|expir(?:e|es|ed|ing|ation|y)|valid until|"
             # "what expiration date do I put on it", "which due date": a date named by its kind
             r"(?:what|which) (?:[a-z-]+ ){1,2}dates?|"
             r"last days?|latest|until|by when|which dates|what dates|between which|window of (?:dates|days)|"
             # "What's the window for getting the hearing notice in the paper?"
             r"(?:the|a) window (?:for|to|in which)|"
             r"(?:range|span) of (?:dates|days)|date range|last moment|cut-?off|no later than|last dates?|"
             # "What's the actual date I have to pay by?"
             r"(?:actual|exact|real|final) (?:date|day)|what(?:'s|’s|s| is) the (?:date|day)\b|date (?:i|we|you|they) (?:have|need|must|got) to \w+(?: \w+)? by|"
             # "Is that soon enough to be considered for next year?", "am I too late?": whether a day is in time
             r"soon enough|early enough|in time|too late|on time|"
             # "Was I late?", "did we miss the deadline?"
             r"(?:was|am|were|are|is) (?:i|we|it|they|that|this|the \w+) (?:\w+ )?late|missed it|miss(?:ed)? (?:the|our|my) (?:deadline|window|cutoff|date)|"
             # "Is it OK if I bring the money in Friday?": whether a day of the user's act is in time
             r"(?:is|would) it (?:be )?(?:ok(?:ay)?|alright|all right|fine|enough) if (?:i|we) (?:\w+ )?(?:bring|pay|drop|file|submit|turn|get|mail|hand|deliver)")
INVERTIBLE_KINDS = ("days_before", "business_days_before", "hours_before")
INVERSE_SEARCH_DAYS = 400  # bounded: every period of the catalogue counted back is far shorter


def _earliest_event(cal: BusinessCalendar, rule: DeadlineRule, act: date | datetime, result: DeadlineResult,
                    assumptions: list[str]) -> DeadlineResult:
    """A notice or decision given on ``act``: the earliest event it is timely for — the first day (or, in hours,
    moment) whose latest day to give it, counted back by the rule itself, is not before ``act``."""
    c = rule.count
    result.assumptions = assumptions
    if c.kind not in INVERTIBLE_KINDS:
        result.ok = False
        result.error = (f"rule {rule.id} is not a notice due a period before an event ({c.kind}): `given` act "
                        "applies only to rules counted back from an event")
        return result
    if c.kind == "hours_before":
        count = cal.hours_after(act, c.amount or 0)  # the same hours left out (whole Sundays and legal holidays)
        earliest = count.due_at
        steps = count.steps
        result.skipped = list(count.skipped)
        when = describe_deadline_moment(earliest)
    else:
        day = _as_date(act)
        earliest = None
        for i in range(1, INVERSE_SEARCH_DAYS + 1):
            candidate = day + timedelta(days=i)
            if _count(cal, rule, candidate).due_date >= day:
                earliest = candidate
                break
        if earliest is None:  # pragma: no cover - the catalogue's periods are all far shorter
            result.ok = False
            result.error = f"no event within {INVERSE_SEARCH_DAYS} days of {day} for rule {rule.id}"
            return result
        steps = f"{_count(cal, rule, earliest).steps}, the latest day for an event on {describe_date(earliest)}"
        day_before = earliest - timedelta(days=1)
        if day_before > day:
            steps += (f"; an event on {describe_date(day_before)} would need it by "
                      f"{describe_date(_count(cal, rule, day_before).due_date)}")
        when = describe_date(earliest)
    result.earliest_event = earliest
    result.explanation = (
        f"{rule.obligation} Given on {describe_moment(act) if isinstance(act, datetime) else describe_date(act)}: "
        f"the earliest day it is timely for (the {rule.event.rstrip('.')}) is {when} ({steps})."
        + _convention_sentence(cal, rule, None)
    )
    return result


def _as_date(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def _count(cal: BusinessCalendar, rule: DeadlineRule, event: date | datetime) -> Count:
    c = rule.count
    n = c.amount or 0
    extend = rule.act
    match c.kind:
        case "days_after":
            return cal.days_after(event, n, extend=extend, office_filing=rule.office_filing)  # type: ignore[arg-type]
        case "months_after":
            return cal.months_after(event, n, extend=extend, office_filing=rule.office_filing)  # type: ignore[arg-type]
        case "years_after":
            return cal.years_after(event, n, extend=extend, office_filing=rule.office_filing)  # type: ignore[arg-type]
        case "business_days_after":
            return cal.business_days_after(event, n)  # type: ignore[arg-type]
        case "business_days_before":
            return cal.business_days_before(event, n)  # type: ignore[arg-type]
        case "days_before":
            return cal.days_before(event, n, office_filing=rule.office_filing)  # type: ignore[arg-type]
        case "hours_after":
            return cal.hours_after(event, n)  # type: ignore[arg-type]
        case "hours_before":
            return cal.hours_before(event, n)  # type: ignore[arg-type]
        case "annual_date":
            return cal.annual_date(
                event,  # type: ignore[arg-type]
                c.month or 1,
                c.day or 1,
                inclusive=c.inclusive,
                extend=extend,
                office_filing=rule.office_filing,
            )
    raise ValueError(f"rule {rule.id}: kind {c.kind!r} is not a count")


# ------------------------------------------------------------- emergency excavation


class MunicipalityPlan(BaseModel):
    """Which of a municipality's rules each composite deadline tool applies (``municipalities:`` in the data)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    start_notices: tuple[str, ...] = ()  # notices counted back from the start of the work
    service_loss_notice: str | None = None  # notice before a loss of service, if the code sets one
    backfill_notice: str | None = None  # notice before backfilling, if the code sets one
    no_separate_notice_note: str | None = None  # said when a loss of service / backfill time is given but no rule
    emergency_apply: str | None = None  # apply for the permit after an emergency excavation
    emergency_fee_waiver: str | None = None  # file by this to keep the fee waived
    emergency_instead: tuple[str, ...] = ()  # cited when the code has no emergency deadlines
    opening_season: str | None = None  # the no-opening season or frozen-ground rule


@functools.cache
def _plans() -> dict[str, MunicipalityPlan]:
    raw = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
    plans = {mid: MunicipalityPlan.model_validate(v) for mid, v in (raw.get("municipalities") or {}).items()}
    known = rules()
    for mid, plan in plans.items():
        for rid in (*plan.start_notices, plan.service_loss_notice, plan.backfill_notice, plan.emergency_apply,
                    plan.emergency_fee_waiver, *plan.emergency_instead, plan.opening_season):
            if rid is not None and rid not in known:
                raise ValueError(f"{DATA_FILE.name}: municipalities.{mid} names unknown rule {rid!r}")
    return plans


def municipality_plan(municipality: str) -> MunicipalityPlan:
    return _plans().get(municipality, MunicipalityPlan())


def _municipality_id(value: str) -> str:
    m = resolve_municipality(value)
    if m is None:
        raise ValueError("municipality is required")
    return m.id


class EmergencyExcavationInput(ToolInput):
    """When an emergency excavation was made without a permit."""

    municipality: str = municipality_field(
        "emergency_excavation_deadlines", "Municipality id or name; the tool's data says which codes set these deadlines."
    )
    excavation: date | datetime = Field(description="Date (or date and time) of the emergency excavation.")

    @field_validator("municipality")
    @classmethod
    def _known(cls, v: str) -> str:
        return _municipality_id(v)


class EmergencyExcavationResult(ToolOutput):
    municipality: str = Field(description="Municipality id.")
    excavation_date: date | None = Field(default=None, description="Date of the excavation (local).")
    apply_by: date | None = Field(
        default=None, description="§ 404-7H: apply for the permit not later than this day (next business day)."
    )
    fee_waiver_by: date | None = Field(
        default=None,
        description="§ 404-6: file the application by this day (two regular business days) for no permit fee.",
    )
    skipped: list[SkippedDay] = Field(default_factory=list, description="Days passed over, and why.")
    related_rules: list[str] = Field(default_factory=list)


@answers_changed_rules("emergency_excavation_deadlines")
def emergency_excavation_deadlines(
    inp: EmergencyExcavationInput, calendar: BusinessCalendar | None = None
) -> EmergencyExcavationResult:
    """Both Brandon emergency deadlines: apply by the next business day (§ 404-7H) and
    file within two regular business days for the fee waiver (§ 404-6)."""
    cal = calendar or business_calendar()
    day = cal.local(inp.excavation).date() if isinstance(inp.excavation, datetime) else inp.excavation
    out = EmergencyExcavationResult(
        tool="emergency_excavation_deadlines",
        municipality=inp.municipality,
        excavation_date=day,
        convention=cal.convention_text,
    )
    plan = municipality_plan(inp.municipality)
    if (message := not_covered(out.tool, inp.municipality)) or not plan.emergency_apply or not plan.emergency_fee_waiver:
        instead = [rules()[r] for r in plan.emergency_instead]
        out.ok = False
        out.error = message or f"no emergency-excavation deadlines are recorded for {inp.municipality}"
        out.citations = [c for r in instead for c in rule_citations(r)]
        out.related_rules = [r.id for r in instead]
        return out
    apply_rule = rules()[plan.emergency_apply]
    fee_rule = rules()[plan.emergency_fee_waiver]
    a = cal.business_days_after(day, apply_rule.count.amount or 1)
    f = cal.business_days_after(day, fee_rule.count.amount or 2)
    out.apply_by = a.due_date
    out.fee_waiver_by = f.due_date
    out.skipped = list(f.skipped)
    out.citations = rule_citations(apply_rule) + rule_citations(fee_rule)
    out.related_rules = [apply_rule.id, fee_rule.id]
    out.explanation = (
        f"Emergency excavation on {describe_date(day)}. § 404-7H: apply for the excavation permit "
        f"not later than the next business day — {describe_date(a.due_date)} — and notify the Village "
        f"office immediately. § 404-6: the permit fee is waived (actual Village expenses are still "
        f"charged) only if the application is filed within two regular business days — by "
        f"{describe_date(f.due_date)}; filed later, the application and review fee set by the Village "
        "Board applies. Business days are Monday to Friday that are not legal holidays; the day of the "
        "excavation is not counted." + _skipped_sentence(f.skipped)
    )
    out.assumptions = [
        "Both deadlines bind and govern different things: the duty to apply (§ 404-7H, next business "
        "day) and the fee waiver (§ 404-6, two regular business days). Applying by the first date "
        "meets both; applying on the second keeps the fee waiver but is late under § 404-7H.",
        "The Village Clerk's office is taken to be open on business days only.",
        *holiday_note(f.skipped),
    ]
    return out


# ------------------------------------------------------------------- start notices


class NoticeDeadline(BaseModel):
    model_config = ConfigDict(extra="forbid")

    rule: str = Field(description="Rule id.")
    title: str = Field(description="Who is notified, of what.")
    latest: date | datetime = Field(description="Latest moment (hours) or day (business days) to give it.")
    skipped: list[SkippedDay] = Field(default_factory=list)
    citation: Citation


class ExcavationNoticesInput(ToolInput):
    """A planned excavation: when it starts, and optionally when service is cut and backfilling starts."""

    municipality: str = municipality_field("excavation_notice_deadlines", "Municipality id or name.")
    work_start: date | datetime = Field(
        description="When the excavation starts, date and time 'YYYY-MM-DDTHH:MM' (America/Chicago)."
    )
    service_loss_at: datetime | None = Field(
        default=None, description="When utility service to private properties will be cut, if it will (where the code sets a notice for it)."
    )
    backfill_at: datetime | None = Field(
        default=None, description="When backfilling or surface restoration will start (where the code sets a notice for it)."
    )
    emergency: bool = Field(default=False, description="True for an emergency excavation.")

    @field_validator("municipality")
    @classmethod
    def _known(cls, v: str) -> str:
        return _municipality_id(v)


class ExcavationNoticesResult(ToolOutput):
    municipality: str = Field(description="Municipality id.")
    notices: list[NoticeDeadline] = Field(default_factory=list, description="Every notice, latest moment first due.")
    earliest_latest: date | datetime | None = Field(
        default=None, description="The first of the notice deadlines: give every notice before it and all are met."
    )
    related_rules: list[str] = Field(default_factory=list, description="Other rules that bind at the same time.")


@answers_changed_rules("excavation_notice_deadlines")
def excavation_notice_deadlines(
    inp: ExcavationNoticesInput, calendar: BusinessCalendar | None = None
) -> ExcavationNoticesResult:
    """Every notice a planned street excavation needs, with the latest moment for each."""
    cal = calendar or business_calendar()
    out = ExcavationNoticesResult(
        tool="excavation_notice_deadlines", municipality=inp.municipality, convention=cal.convention_text
    )
    if not isinstance(inp.work_start, datetime):
        out.ok = False
        out.error = (
            "notices are counted in hours: give `work_start` as a date and time "
            f"(e.g. '{inp.work_start.isoformat()}T07:00', America/Chicago), not a date alone"
        )
        return out
    mp = municipality_plan(inp.municipality)
    plan = [(rule_id, inp.work_start) for rule_id in mp.start_notices]
    for rule_id, moment in ((mp.service_loss_notice, inp.service_loss_at), (mp.backfill_notice, inp.backfill_at)):
        if moment is None:
            continue
        if rule_id:
            plan.append((rule_id, moment))
        elif mp.no_separate_notice_note and mp.no_separate_notice_note not in out.assumptions:
            out.assumptions.append(mp.no_separate_notice_note)
    lines: list[str] = []
    exempt: list[str] = []
    for rule_id, moment in plan:
        # a rule counted in whole days is given the day, so it adds no "only the date is used" note
        event = moment if rules()[rule_id].count.kind in HOUR_KINDS else cal.local(moment).date()
        r = deadline(DeadlineInput(rule=rule_id, event=event, emergency=inp.emergency), calendar=cal)
        out.citations.extend(r.citations)
        for a in r.assumptions:
            if a not in out.assumptions:
                out.assumptions.append(a)
        latest = r.due_at or r.due_date
        if latest is None:
            exempt.append(r.title)
            continue
        out.notices.append(
            NoticeDeadline(rule=r.rule, title=r.title, latest=latest, skipped=r.skipped, citation=r.citations[0])
        )
    out.notices.sort(key=lambda n: _sort_key(n.latest, cal))
    for n in out.notices:
        shown = (
            describe_deadline_moment(n.latest)
            if isinstance(n.latest, datetime)
            else f"the end of {describe_date(n.latest)}"
        )
        lines.append(f"{n.title}: by {shown}")
    if out.notices:
        out.earliest_latest = out.notices[0].latest
    start = describe_moment(cal.local(inp.work_start))
    out.explanation = (
        f"Work starting {start}. "
        + ("; ".join(lines) + ". " if lines else "")
        + (f"Not required for an emergency excavation: {'; '.join(exempt)}. " if exempt else "")
        + (
            "Hours leave out the whole of Sundays and legal holidays (§ 990.001(4)(a), Wis. Stats.); "
            if cal.convention == "wisconsin"
            else "Hours are plain elapsed hours; "
        )
        + "a business-day notice is due by the business day before the start day."
    )
    if inp.emergency and mp.emergency_apply:
        out.related_rules = [mp.emergency_apply]
    return out


def _sort_key(value: date | datetime, cal: BusinessCalendar) -> datetime:
    if isinstance(value, datetime):
        return value
    # a day-deadline means "by the end of that day"
    return datetime.combine(value, datetime.max.time(), tzinfo=cal.tz)


# ------------------------------------------------------------- no-opening season


class OpeningSeasonInput(ToolInput):
    """Whether a street opening may be made on a date (winter / frozen-ground rules)."""

    municipality: str = municipality_field("winter_opening_restriction", "Municipality id or name.")
    opening_date: date = Field(description="Proposed opening date, 'YYYY-MM-DD'.")
    emergency: bool = Field(default=False, description="True for an emergency excavation.")

    @field_validator("municipality")
    @classmethod
    def _known(cls, v: str) -> str:
        return _municipality_id(v)


@answers_changed_rules("winter_opening_restriction")
def winter_opening_restriction(
    inp: OpeningSeasonInput, calendar: BusinessCalendar | None = None
) -> DeadlineResult:
    """Brandon: inside the November 15 – April 1 no-opening window? Delafield: frozen
    ground, no fixed dates."""
    rule_id = municipality_plan(inp.municipality).opening_season
    if rule_id is None:
        return DeadlineResult(
            tool="winter_opening_restriction", rule="", municipality=inp.municipality, title="", obligation="",
            event_meaning="", event=inp.opening_date, period="", direction="window", ok=False,
            error=f"no opening-season rule is recorded for {inp.municipality}",
        )
    r = deadline(DeadlineInput(rule=rule_id, event=inp.opening_date, emergency=inp.emergency), calendar=calendar)
    r.tool = "winter_opening_restriction"
    return r


# -------------------------------------------------------------------------- tools

TOOLS: list[ToolSpec] = [
    ToolSpec(
        name="deadline",
        description=(
            "Due date or latest moment for a deadline of a municipality's code (permit "
            "validity and renewal, emergency excavation, notices, snow and ice, obstruction "
            "removal, bills and tax roll, house numbers, pavement replacement, hearing notice), "
            "counted the Wisconsin way over weekends and holidays; give the rule id and the event date."
        ),
        input_model=DeadlineInput,
        output_model=DeadlineResult,
        fn=deadline,  # type: ignore[arg-type]
        keywords=(
            "deadline", "due", "within", "days", "hours", "business day", "notice", "expire",
            "valid", "renewal", "snow", "ice", "obstruction", "bill", "tax roll", "lien",
            "house number", "address", "sidewalk repair", "June 1", "September 15",
            "November 1", "public hearing", "culvert", "deposit", "when",
        ),
        route=Route(order=90, read="assistant.answering.routes.deadlines:deadline",
                    answers="the due date of a rule of the deadline catalogue, from a dated event",
                    cues=(rf"\b({WHEN_CUES}|earliest|soonest)\b",)),
    ),
    ToolSpec(
        name="emergency_excavation_deadlines",
        description=(
            "After an emergency street excavation, the day by which to apply for the "
            "permit (next business day) and the day by which to file to have the permit fee "
            "waived (two regular business days)."
        ),
        input_model=EmergencyExcavationInput,
        output_model=EmergencyExcavationResult,
        fn=emergency_excavation_deadlines,  # type: ignore[arg-type]
        keywords=("emergency", "excavation", "without a permit", "fee waived", "next business day", "apply"),
        route=Route(order=40, read="assistant.answering.routes.deadlines:emergency",
                    answers="when to apply and file after an emergency dig on a given day",
                    cues=(r"\b(apply|application|permit|fee|file|filed|filing|waive|waived)\b",)),
    ),
    ToolSpec(
        name="excavation_notice_deadlines",
        description=(
            "Every notice a planned street excavation needs (to the public works office, to everyone "
            "affected, before a loss of service, before backfilling, or one written notice, as each "
            "code says) with the latest moment for each."
        ),
        input_model=ExcavationNoticesInput,
        output_model=ExcavationNoticesResult,
        fn=excavation_notice_deadlines,  # type: ignore[arg-type]
        keywords=("notice", "notify", "before excavating", "before work", "backfill", "loss of service", "48 hours", "24 hours"),
    ),
    ToolSpec(
        name="winter_opening_restriction",
        description=(
            "Whether a street may be opened on a date: a code's no-opening season (fixed dates such as "
            "November 15 to April 1, except emergencies) or its frozen-ground rule, with no fixed dates."
        ),
        input_model=OpeningSeasonInput,
        output_model=DeadlineResult,
        fn=winter_opening_restriction,  # type: ignore[arg-type]
        keywords=("winter", "frozen ground", "November 15", "April 1", "season", "may I open", "cold weather"),
    ),
]
