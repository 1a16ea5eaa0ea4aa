"""A day the quoted sentence's period gives, from the user's one date: any code, no catalogue.

"at least one month prior to the date of the parade" and "the parade is July 4, 2027": the
period and its direction are read from the sentence the answer quotes, the day from the user's
words, and the day counted by the calendar (days, weeks, months, years), which the answer says:
a code whose deadlines are catalogued with their state's rule of counting time (the
``deadline`` calculator's data) never comes here; for the others, whether a first day is
left out or a weekend moves the day is the state's rule, and the answer says it was not applied.

Pure functions; the planner calls ``count_from`` with the sentences it is about to quote, and ``day_needed``
when the question asks its own day and gives no date (then the event's date is asked for).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import date, datetime

from dateutil.relativedelta import relativedelta

from assistant.answering import roles
from assistant.answering.formatting import fmt_date
from assistant.answering.reading import NUMBER, Slot, number_value, weekday_readings, worded_number
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems

ASKS_A_DAY = re.compile(
    r"\b(?:what|which)\s+(?:date|day)\b|\bwhat(?:['’]s|\s+is)\s+the\s+(?:(?:outside|last|final|latest|end|cutoff|cut-off|exact|"
    r"actual|precise|specific)\s+)?(?:date|day)(?!\s+(?:of|on)\b)\b|\blast\s+(?:day|date)\b|\bdeadline\b|\bby\s+when\b|\bhow\s+(?:soon|late)\b|"
    r"\bwhen\s+(?:is|are|do|does|must|should|can|will|would|has|have|could|may|might|shall)\b|\bno\s+later\s+than\b|\bdue\b|"
    r"\bby\s+what\b|\bin\s+time\b|\bexpires?\b|\bgood\s+(?:until|through)\b|\blatest\b|\bwhen['’]s\b|\blast\s+moment\b|"
    r"\b(?:earliest|soonest)\b|"
    r"\bwhat\s+time\b|\buntil\s+when\b|\btoo\s+late\b|\bstill\s+(?:time|make\s+it)\b|"
    # "The notice was handed to me on June 24. How long have I got?": of a dated event, the last day is the answer
    r"\bhow\s+long\s+(?:have|do|did)\s+(?:i|we|they|you|he|she)\s+(?:got|have|get)\b|"
    r"\bhow\s+much\s+time\s+(?:do|have|did)\s+(?:i|we|they|you|he|she)\b|"
    # "The demand was dated August 2. How long before they can put a lien on it?"
    r"\bhow\s+long\s+(?:before|until|till)\s+(?:they|it|he|she|the\s+\w+|i|we)\s+(?:can|could|may|will|would)\b|"
    # "how long do the planks have to stay down?", "how long can the clerk sit on it?": until when a thing lasts
    r"\bhow\s+long\s+(?:do|does|must|will|should|would|can|may)\s+(?:the\s+|they\s+|it\s+|he\s+|she\s+)?(?:\w+\s+)?"
    r"(?:have\s+to\s+|need\s+to\s+)?(?:stay|remain|be\s+kept|keep|sit\s+on|be\s+left|hold|take\s+to\s+(?:decide|act|approve))\b",
    re.I)
# "one month", "ten (10) days", "two business days": the period, written once for both directions
_PERIOD = (rf"(?P<n>{NUMBER.pattern}|a|an|one)\s*(?:\(\d+\)\s*)?"
           r"(?P<u>(?:business\s+|working\s+|calendar\s+)?(?:hours?|days?|weeks?|months?|years?))")
_BEFORE = re.compile(rf"(?:\b(?:at\s+least|not\s+less\s+than|no\s+less\s+than|a\s+minimum\s+of|no\s+later\s+than)\s+)?"
                     rf"{_PERIOD}\s+(?:prior\s+to|before|in\s+advance\s+of|preceding)\b", re.I)
# ("shall not be permitted for forty-eight hours after placing", "for a period of three years from the date")
_AFTER = re.compile(rf"\b(?:within|no\s+later\s+than|not\s+later\s+than|not\s+more\s+than|(?:for\s+)?more\s+than|at\s+least|"
                    rf"for(?:\s+a\s+(?:period|term)\s+of)?|"
                    rf"(?:at|after|upon|on)\s+the\s+expiration\s+of)\s+{_PERIOD}\s+(?:after|of|from|following)\b", re.I)

# "shall thereafter apply for a permit on the first regular business day on which the office ... is open": one
# business day after the event
_NEXT_BUSINESS = re.compile(r"\b(?:on|by|not\s+later\s+than|no\s+later\s+than|within)\s+the\s+(?P<n>first|next)\s+"
                            r"(?:regular\s+|full\s+)?(?P<u>(?:business|working)\s+day)\b", re.I)

# "after thirty days written notice, the Village may use the cash bond": the period runs from the notice
_AFTER_NOTICE = re.compile(rf"\bafter\s+{_PERIOD}(?:['’]s?)?\s+(?:prior\s+|advance\s+)?(?:written\s+)?notice\b", re.I)


_GENERIC = stems("date day days time the such said any this that its their his her of which")
_EVENT_VERBS = stems("send sends sent sending get gets got getting receive received give gave given make made do did done "
                     "serve served service issue issued mail mailed")
_MODAL = stems("may shall must will can could should would be is are a an to and or if in on at by for with")


def _asking(turn: str) -> str:
    """The sentence of the turn that asks (the last one with a question mark, else the last)."""
    parts = [x for x in re.split(r"(?<=[.!?])\s+", turn.strip()) if x]
    asking = [x for x in parts if "?" in x]
    return (asking or parts or [""])[-1]


@dataclass(frozen=True)
class Counted:
    day: date  # a moment (datetime) for a period in hours counted from the time of day the question gives
    start: Slot
    words: str  # the period as the sentence writes it
    backward: bool
    sentence: str
    begun: datetime | None = None  # the moment counted from, for a period in hours
    at: Slot | None = None  # the time of day read for it ("4 in the afternoon")
    either: bool = False  # one of two readings of the user's day ("next Thursday": this week's or the one after)
    rule: str = ""  # the state's rule of counting time it was counted under ("" = on the calendar, no rule)
    business: str = ""  # business days: the calendar they were counted on, and the holidays it left out
    moved_from: date | None = None  # the last day before that rule moved it off a Sunday or legal holiday
    moved_to: str = ""  # where that rule moves such a day ("the next business day"; "" = the next secular day)
    moved_why: str = ""  # what the day moved off is ("a Saturday and Veterans Day"), when the rule says
    # a calendar day that falls on a weekend or a legal holiday of the state: the next business day, and why, for the
    # user whose state's rule moves such a last day (it is not applied: the rule is not known here)
    next_open: date | None = None
    closed: str = ""
    # the day the user did (or does) the act the period times ("I only just got around to the appeal paperwork today")
    done: Slot | None = None
    # counted from a stretch of days ("Last January ... at 10:45"): a period in hours gives the same hour on any day
    any_day: bool = False
    # a day of the year the sentence fixes ("expire annually on the first day of March"): the first such day after
    yearly: bool = False
    # hours counted in daylight only, from the user's sunrise and sunset: how (and the condition, when one is not given)
    daylight: tuple[str, ...] = ()
    daylight_unsure: str = ""
    daylight_sun: str = ""  # the sunrise and sunset read ("sunrise 7:05 AM (“the sun comes back up at 7:05”)")

    def call(self) -> dict:
        return {"name": "calendar_period",
                "arguments": {"from": (self.begun or self.start.day).isoformat() if not self.any_day
                              else f"{self.begun:%H:%M} on {self._which_day()}", "period": self.words,
                              "backward": self.backward},
                "result": {"day": fmt_date(self.day) if not self.any_day
                           else f"{self.day:%-I:%M %p} ({self._end_day()})", "quote": self.sentence,
                           **({"rule": self.rule} if self.rule else {}),
                           **({"last_day_before_moving": fmt_date(self.moved_from)} if self.moved_from else {}),
                           **({"business_days": self.business} if self.business else {}),
                           **({"next_business_day": fmt_date(self.next_open), "falls_on": self.closed}
                              if self.next_open else {}),
                           **({"done_on": fmt_date(self.done.day), "in_time": self.in_time()} if self.done else {}),
                           **({"daylight": {"sun": self.daylight_sun, "steps": list(self.daylight),
                                            **({"if": self.daylight_unsure} if self.daylight_unsure else {})}}
                              if self.daylight else {})}}

    def _which_day(self) -> str:
        return "the day it starts" if self.start.kind == "time" else f"a day of {self.start.span.text}"

    def _end_day(self) -> str:
        """The day an hour counted on any day falls on: that day, or the next."""
        if self.start.kind == "time":
            return "the same day" if self.day.date() == self.begun.date() else "the next day"
        return f"that day, any day of {self.start.span.text}"

    def in_time(self) -> bool | None:
        """Is the day the act was done on or before the last day (forward periods only)?"""
        if self.done is None or self.backward:
            return None
        last = self.day.date() if isinstance(self.day, datetime) else self.day
        return self.done.day <= last


# a question whether an act is (or was) in time ("Am I already too late to appeal?", "can I still file?")
_ASKS_IN_TIME = re.compile(r"\btoo\s+late\b|\bin\s+time\b|\bstill\s+(?:file|appeal|apply|submit|make\s+it|ok|okay|good)\b|"
                           r"\bmissed\s+(?:it|the\s+deadline)\b|\bon\s+time\b", re.I)
# hours the sentence counts only by day ("between sunrise and sunset", "during daylight hours")
_DAYLIGHT = re.compile(r"\bbetween\s+sunrise\s+and\s+sunset\b|\bdaylight\s+hours\b|\bduring\s+daylight\b", re.I)
_ASKS_HOUR = re.compile(r"\b(?:what|which)\s+time\b|\bwhat\s+hour\b|\bby\s+when\b", re.I)
_NOW_WORDS = re.compile(r"today|this\s+(?:morning|afternoon|evening)|tonight|right\s+now|now", re.I)


def _amount(m: re.Match) -> int | None:
    raw = m.group("n").lower()
    if raw in ("a", "an", "one", "first", "next"):
        return 1
    n = number_value(m)
    return int(n) if n is not None and n == int(n) and n > 0 else None


def business_days(start: date, n: int, backward: bool, state: str) -> tuple[date, str]:
    """The n-th business day after (or before) ``start``, Monday to Friday, leaving out the legal holidays of the
    municipality's state (the ``holidays`` package, observed days); with the calendar said, and the holidays it
    passed over."""
    import holidays as holidays_lib

    cal = holidays_lib.country_holidays("US", subdiv=state, observed=True)
    d, counted, passed = start, 0, []
    for _ in range(n * 3 + 30):  # bounded: n business days lie within n * 3 + 30 calendar days
        if counted == n:
            break
        d = d + relativedelta(days=-1 if backward else 1)
        if d.weekday() < 5 and d not in cal:
            counted += 1
        elif d.weekday() < 5:
            passed.append(f"{cal.get(d)}, {fmt_date(d)}")
    left = (" (here " + "; ".join(passed) + ")") if passed else " (none fell in the period)"
    return d, f"Monday to Friday, leaving out the legal holidays of {state}{left}"


def _shift(start: date, n: int, unit: str, backward: bool) -> date | None:
    unit = unit.lower()
    if "business" in unit or "working" in unit:
        return None  # counted by ``business_days`` when the municipality's state is known
    sign = -1 if backward else 1
    if unit.startswith("hour"):
        if not isinstance(start, datetime):
            return None  # hours need the time of day the event happened
        return start + relativedelta(hours=sign * n)
    if unit.endswith(("day", "days")):
        return start + relativedelta(days=sign * n)
    if unit.startswith("week"):
        return start + relativedelta(weeks=sign * n)
    if unit.startswith("month"):
        return start + relativedelta(months=sign * n)
    return start + relativedelta(years=sign * n)


def count_from(turn: str, slots: list[Slot], sentences: list[str], state: str | None = None,
               earlier: str = "", topic: str = "", extra: tuple[str, ...] = ()) -> list[Counted]:
    """The day the first sentence (best first) with exactly one period gives from the question's one
    dated day; [] when the question asks no day, gives no date or several, or the sentence is unclear."""
    if not ASKS_A_DAY.search(turn):
        return []
    both = _two_asks(turn, slots)
    if both is not None:
        # "When is anybody allowed to walk on it, and when can the crew come pull the forms off?": each ask its own
        # period, from the same day ("for forty-eight hours after placing" and "at least twenty-four hours")
        got = [count_from(t, slots, sentences, state, earlier, topic, extra) for t in both]
        if all(len(g) == 1 for g in got) and got[0][0].sentence != got[1][0].sentence:
            return [got[0][0], got[1][0]]
    days = [s for s in slots if s.kind == "date" and s.precision == "day"]
    lit = _in_daylight(turn, slots, sentences, days)
    if lit is not None:
        return lit
    weeks = [s for s in slots if s.kind == "date" and s.precision == "week" and s.span.text.lower().startswith(("next ", "last "))
             and re.match(r"(?:next|last)\s+\w+day$", s.span.text.strip(), re.I)]
    if not days and len(weeks) == 1 and len([s for s in slots if s.kind == "date"]) == 1:
        # "next Thursday" said on a Wednesday: tomorrow or the Thursday after ("last Tuesday" said on a Friday: this
        # week's or the week before's); each reading is counted and said
        first = weeks[0]
        later = first.model_copy(update={"value": weekday_readings(first)[1].isoformat()})
        both = [count_from(turn, [x.model_copy(update={"precision": "day"}) if x is first else x for x in slots], sentences,
                           state, earlier, topic, extra),
                count_from(turn, [later.model_copy(update={"precision": "day"}) if x is first else x for x in slots],
                           sentences, state, earlier, topic, extra)]
        if all(len(b) == 1 for b in both):
            return [replace(b[0], either=True) for b in both]
        return []
    stretch = [s for s in slots if s.kind == "date"]
    if not days and not weeks and len(stretch) == 1 and stretch[0].precision in ("week", "month") \
            and _ASKS_HOUR.search(_asking(turn)) and len({t.value for t in slots if t.kind == "time"}) == 1:
        # "Last January the snow stopped at 10:45 in the morning. What time did the sidewalk have to be cleared by?":
        # hours counted from that hour end at the same hour of whatever day it was (when they end that day)
        first = stretch[0].model_copy(update={"precision": "day", "days": None})
        got = count_from(turn, [first if x is stretch[0] else x for x in slots], sentences, state, earlier, topic, extra)
        if len(got) == 1 and isinstance(got[0].day, datetime) and got[0].day.date() == first.day:
            return [replace(got[0], any_day=True, rule="", moved_from=None, next_open=None, closed="")]
        return []
    # (a coarse date that holds today, "Now (October 2029) the patch is sinking", or the dated day itself says when,
    # not another day to count from)
    from assistant.answering.slots import today

    coarse = [s for s in slots if s.kind == "date" and s.precision != "day"
              and not s.holds(today()) and not any(s.holds(d.day) for d in days)]
    done = None
    if len({s.value for s in days}) == 2 and _ASKS_IN_TIME.search(turn):
        # "turned it down on Thursday, July 25. I only just got around to the appeal paperwork today. Am I already too
        # late?": the day the act is done is no day to count from; the other is, and the act's day is held up to it
        now = [s for s in days if _NOW_WORDS.fullmatch(s.span.text.strip())]
        if len(now) == 1:
            done = now[0]
            days = [s for s in days if s is not done]
    clock = [t for t in slots if t.kind == "time"]
    if not days and len({t.value for t in clock}) == 1 and _ASKS_UNTIL.search(turn) \
            and _lasting([*sentences, *extra]) is not None:
        # "the Saturday rodeo parade starting at 9 am. What's the latest the street can stay closed until?" of "for a
        # period not to exceed three hours": the hours run from the hour given, whatever the day
        hh, mm = (int(x) for x in clock[0].value.split(":"))
        begun = datetime.combine(today(), datetime.min.time()).replace(hour=hh, minute=mm)
        return _lasted(_lasting([*sentences, *extra]), begun, clock[0], clock[0], any_day=True)
    if len({s.value for s in days}) != 1:
        return []
    start = days[0]
    from assistant.answering.slot_safety import weekday_disagrees

    if weekday_disagrees(start) is not None:
        return []  # ("issued on Monday the 6th" when the 6th is a Tuesday: which day is meant is not guessed)
    times = [s for s in slots if s.kind == "time"]
    def beside(t: Slot) -> bool:  # said with the day: in its sentence, a few words away
        a, b = sorted((t, start), key=lambda x: x.span.start)
        between = turn[a.span.end:b.span.start] if t.span.origin == "turn" == start.span.origin else "."
        return len(between) <= 25 and not re.search(r"[.!?;]", between)

    near = [t for t in times if t.span.origin == start.span.origin and beside(t)]
    if len({t.value for t in times}) > 1 and len({t.value for t in near}) == 1:
        times = near  # "quit around quarter past ten this morning ... a dentist appt at noon": the dated one
    moment, at = None, None
    if len({t.value for t in times}) == 1:  # "the snow quit at 3:00 PM on Friday, December 4"
        at = times[0]
        hh, mm = (int(x) for x in times[0].value.split(":"))
        moment = datetime.combine(start.day, datetime.min.time()).replace(hour=hh, minute=mm)
    if start.span.origin == "turn":
        tied = _tied_period(turn, sentences, _sentence_of(turn, start), topic=topic, extra=extra)
    else:
        # a day the earlier turn dated counts only a period whose event is the one that turn told it with ("we pour
        # on June 8" for "seven days after placing concrete"; never "receipt of the notice" the earlier answer
        # worked out)
        tied = _tied_period(turn, sentences, _sentence_of(earlier, start) if earlier else "", levels=("dated",))
    if tied is None:
        lasting = _lasting(sentences) if moment is not None and _ASKS_UNTIL.search(turn) else None
        if lasting is None:
            return []
        # "the parade starting at 9 am Saturday. What's the latest the street can stay closed until?" of "for a period
        # not to exceed three hours": the hours run from the start the question gives
        return _lasted(lasting, moment, start, at)
    sentence, m, backward = tied
    if start.span.origin == "turn" and receipt_needed(turn, slots, [sentence]) is not None:
        return []  # "the letter is dated June 5", of a period from its receipt: the day it came is asked
    # a coarse date is another day the period might count from, unless its own sentence ties no period to it ("they
    # let me move in last winter on a cash bond ... handed me a written notice on Friday the 3rd": the notice's day)
    # (tied by the period's own event words: "after thirty days written notice" is the notice's, not the move-in's)
    event_words = _event_stems(sentence, m)
    if any(c.span.origin != "turn" or _sentence_of(turn, c) == _sentence_of(turn, start)
           or not event_words or event_words & stems(_sentence_of(turn, c)) for c in coarse):
        return []
    if _condition_unsaid(turn, sentences, sentence, m):
        return []  # "in all business districts ... within 24 hours" beside "all other sidewalks ... the same day": which
    n = _amount(m)
    hours = m.group("u").lower().startswith("hour")
    if hours and moment is not None and _DAYLIGHT.search(sentence) and n and not (
            8 <= moment.hour and moment.hour * 60 + moment.minute + n * 60 <= 16 * 60):
        # "for more than three (3) hours after snow fall has ended between sunrise and sunset", the snow ending at 9 pm
        # (or hours running past 4 pm, near a winter sunset): whether and from when the hours run in the dark the
        # sentence leaves to sunrise and sunset; no hour is counted
        return []
    if n and state and re.fullmatch(r"(?:business|working)\s+days?", m.group("u"), re.I):
        # "no later than thirty business days after the submission": on the state's calendar of legal holidays
        try:
            day, calendar = business_days(start.day, n, backward, state)
        except (NotImplementedError, KeyError, ValueError):
            return []  # a state the holidays package does not know: no calendar to count business days on
        return [Counted(day, start, m.group(0), backward, sentence, business=calendar)]
    day = _shift(moment if hours else start.day, n, m.group("u"), backward) if n else None
    if day is None:
        return []
    counted = Counted(day, start, m.group(0), backward, sentence, moment if hours else None, at if hours else None,
                      done=done if not backward else None)
    if state and not hours and not backward:
        counted = _closed_day(counted, state)
    first = _FIRST_THEN.search(sentence[:m.start()]) if not backward else None
    if first is not None and moment is not None:
        # "for forty-eight hours and then only on planks for seven days after placing concrete": the first period
        # counts from the same event (with the time of day the question gives)
        n1 = _amount(first)
        day1 = _shift(moment if first.group("u").lower().startswith("hour") else start.day, n1, first.group("u"), False) \
            if n1 else None
        if day1 is not None:
            hours1 = first.group("u").lower().startswith("hour")
            said = re.match(rf"for\s+{_PERIOD}", first.group(0), re.I).group(0)  # ("for forty-eight hours")
            return [Counted(day1, start, said, False, sentence,
                            moment if hours1 else None, at if hours1 else None), counted]
    return [counted]


_AND_WHEN = re.compile(r",?\s+and\s+(?=(?:when|by\s+when|what\s+(?:day|date|time))\b)", re.I)


def _two_asks(turn: str, slots: list[Slot]) -> tuple[str, str] | None:
    """The turn asked twice, once per ask, when its asking sentence joins two asks of a day by "and when" (and holds
    no value of its own); None otherwise."""
    ask = _asking(turn)
    at = turn.rfind(ask)
    if not ask or at < 0 or any(s.span.origin == "turn" and s.span.start >= at for s in slots):
        return None
    parts = _AND_WHEN.split(ask)
    if len(parts) != 2 or not all(ASKS_A_DAY.search(x) for x in parts):
        return None
    head = turn[:at]
    return head + parts[0].rstrip(" ,?") + "?", head + parts[1][0].upper() + parts[1][1:]


def _in_daylight(turn: str, slots: list[Slot], sentences: list[str], days: list[Slot]) -> list[Counted] | None:
    """Hours that run between sunrise and sunset, counted with the sunrise and sunset the user gives ("Say the snow
    quits at 2:30 in the afternoon, sunset's 4:15, and the sun comes back up at 7:05"), on the one day given or on any
    day; None when the user gives neither, or the count needs what is not given."""
    from assistant.answering import daylight
    from assistant.answering.slot_safety import weekday_disagrees
    from assistant.answering.slots import today

    if daylight.sun_times(turn) == (None, None) or len({s.value for s in days}) > 1 \
            or any(weekday_disagrees(s) is not None for s in days):
        return None
    got = daylight.count(turn, slots, sentences, days[0].day if days else today())
    if got is None:
        return None
    at = next((s for s in slots if s.kind == "time" and s.value == f"{got.begun:%H:%M}"), None)
    if at is None:
        return None
    sun = "; ".join(f"{name} {x.at:%-I:%M %p} (“{x.words}”)" for name, x in (("sunrise", got.sunrise),
                                                                              ("sunset", got.sunset)) if x)
    return [Counted(got.end, days[0] if days else at, got.words, False, got.sentence, got.begun, at,
                    any_day=not days, daylight=got.steps, daylight_unsure=got.unsure, daylight_sun=sun)]


# a permit's or use's own length, from whenever it starts: "only if the use of the right-of-way is for a period not to
# exceed three hours"
_LASTING = re.compile(rf"\bfor\s+a\s+(?:period|term)\s+(?:of\s+)?(?:not\s+(?:to\s+)?(?:exceed(?:ing)?|more\s+than)|"
                      rf"no\s+(?:more|longer)\s+than|up\s+to)\s+{_PERIOD}\b(?!\s+(?:after|of|from|following|before|prior))",
                      re.I)
# the question asks until when something may last ("What's the latest the street can stay closed until?")
_ASKS_UNTIL = re.compile(r"\buntil\b|\btill\b|\blatest\b|\bhow\s+late\b|\bwhat\s+time\b[^?.!]{0,40}\b(?:end|over|done|"
                         r"reopen|open)\b|\bwhen\s+(?:does|do|must|will|would)\b[^?.!]{0,40}\b(?:end|be\s+over|reopen)\b",
                         re.I)


def _lasting(sentences: list[str]) -> tuple[str, re.Match] | None:
    """The one quoted sentence that limits how long something lasts, in hours, from whenever it starts."""
    found = [(x, m) for x in dict.fromkeys(sentences) for m in [_LASTING.search(x)]
             if m is not None and m.group("u").lower().startswith("hour")]
    return found[0] if len(found) == 1 else None


def _lasted(lasting: tuple[str, re.Match], begun: datetime, start: Slot, at: Slot | None,
            any_day: bool = False) -> list[Counted]:
    """The end of a use limited to so many hours, counted on the clock from ``begun``."""
    sentence, m = lasting
    n = _amount(m)
    end = _shift(begun, n, m.group("u"), False) if n else None
    return [] if end is None else [Counted(end, start, m.group(0), False, sentence, begun, at, any_day=any_day)]


def start_needed(turn: str, slots: list[Slot], sentences: list[str]) -> DayNeeded | None:
    """A use limited to so many hours from its start ("for a period not to exceed three hours"), when the question asks
    until when it may last and gives no hour it starts: the hour is asked (a guess moves the end)."""
    if not _ASKS_UNTIL.search(turn) or any(s.kind == "time" for s in slots):
        return None
    lasting = _lasting(sentences)
    if lasting is None:
        return None
    sentence, m = lasting
    return DayNeeded("the time it starts", m.group(0), sentence)


# the first of two periods one event starts: "for forty-eight hours and then only on planks for seven days after"
_FIRST_THEN = re.compile(rf"\bfor\s+{_PERIOD}\s+and\s+then\b[^.;]*$", re.I)


def _closed_day(counted: Counted, state: str) -> Counted:
    """The counted day, with the next business day beside it when it falls on a weekend or a legal holiday of the
    state (the ``holidays`` package, observed days): many states' rules of counting time move such a last day, and
    which rule holds is the user's to check."""
    import holidays as holidays_lib

    try:
        cal = holidays_lib.country_holidays("US", subdiv=state, observed=True)
    except (NotImplementedError, KeyError, ValueError):
        return counted
    day = counted.day
    if day.weekday() < 5 and day not in cal:
        return counted
    why = [f"a {day.strftime('%A')}" if day.weekday() >= 5 else "", cal.get(day) or ""]
    nxt = day
    for _ in range(30):  # bounded: a business day lies within a few days
        nxt = nxt + relativedelta(days=1)
        if nxt.weekday() < 5 and nxt not in cal:
            break
    passed = [f"the {d.strftime('%A')} after is {cal.get(d)}" for d in
              (day + relativedelta(days=i) for i in range(1, (nxt - day).days)) if d.weekday() < 5 and d in cal]
    closed = " and ".join(w for w in why if w) + (f" ({'; '.join(passed)}, a legal holiday too)" if passed else "")
    return replace(counted, next_open=nxt, closed=closed)


def _sentence_of(turn: str, slot: Slot) -> str:
    """The sentence of the turn that holds the slot ("We got ISD's written notice ... last Friday")."""
    start = max(turn.rfind(c, 0, slot.span.start) for c in ".!?;") + 1
    ends = [i for i in (turn.find(c, slot.span.end) for c in ".!?;") if i >= 0]
    return turn[start:min(ends) if ends else len(turn)]


_TIME_UNIT = re.compile(r"\b(?:hours?|days?|weeks?|months?|years?)\b", re.I)


def _condition_unsaid(turn: str, sentences: list[str], sentence: str, m: re.Match) -> bool:
    """The period's sentence has an alike sentence among the first quoted (most words shared, the same event) that
    sets the time for another case ("sidewalks in all business districts ... within 24 hours after the cessation" /
    "all other sidewalks ... on the same day of the cessation"), and the question's words meet neither case's own
    words: which case is the user's is not known, so no day is counted."""
    def words(s: str) -> set[str]:
        return {w for w in stems(s) if not w[:1].isdigit()} - _GENERIC - _MODAL

    event = words(sentence[m.end():m.end() + 60])
    mine = words(sentence)
    asked = stems(expand(turn))
    for other in sentences[:4]:
        if other == sentence:
            continue
        theirs = words(other)
        if not mine or not theirs or len(event & theirs) < min(2, len(event)) or not _TIME_UNIT.search(other):
            continue  # (an alike sentence that sets no time is no other case of the period)
        if len(mine & theirs) / min(len(mine), len(theirs)) < 0.6:
            continue
        if any(x.group(0).lower() == m.group(0).lower() for x in _BEFORE.finditer(other)) \
                or any(x.group(0).lower() == m.group(0).lower() for x in _AFTER.finditer(other)):
            # ("notice by mail ... at least fourteen days before the public hearing" / "notice on the city website ... at
            # least fourteen days before the public hearing": each case the same period, so the day is the same)
            continue
        own, rival = mine - theirs, theirs - mine
        if own and rival and not asked & own and not asked & rival:
            return True
    return False


# one act by two words (general English): "we start backfilling on Friday" is "the work of refilling" a period counts from
# (kept to the tie of an event: as a search expansion it pulled the restoration sections above the notice's)
# ("the bill was dated September 4" of "not paid within 30 days from demand": a bill is the demand for the costs)
# a period counted from a day of the law itself ("within 60 days of the effective date of this article", "after the
# adoption of this ordinance"): no day the user tells starts it
_ENACTED = re.compile(r"\s*(?:the\s+)?(?:(?:effective|enactment|adoption)\s+date|adoption|enactment|passage|effective\s+date)"
                      r"\b[^.;]{0,20}\bthis\s+(?:article|ordinance|chapter|section|code|subchapter|division)\b", re.I)
_EVENT_KIN = {"backfil": {"refil"}, "refil": {"backfil"}, "bill": {"demand", "invoic"}, "invoic": {"bill", "demand"}}


def _kin(words: set[str]) -> set[str]:
    return words.union(*(_EVENT_KIN.get(w, set()) for w in words))


def _tied_period(turn: str, sentences: list[str], dated: str = "",
                 levels: tuple[str, ...] = ("dated", "event", "act"), topic: str = "",
                 extra: tuple[str, ...] = ()) -> tuple[str, re.Match, bool] | None:
    """The period of the quoted sentences (best first) the question's day is counted by, with its sentence and
    direction; None when no period is tied to the question or two are.

    The event the period counts from must be the question's ("prior to the date of the parade" for a parade;
    "within 30 days from the receipt of such notice" is not a block party's); or, counting forward, the act the
    sentence times is the one asked ("may appeal ... within 10 days of such official action" for "the last day I
    can file an appeal"). A sentence tied by its event is taken before one tied only by its act ("resubmit ... no
    later than 30 days after the date of its rejection" for a plan rejected on November 23, not "plans must be
    submitted ... within 60 days of the effective date of this article"), and only the best sentence with a period
    may be tied by its act; of a sentence's several periods, the one tied ("for forty-eight hours and then only on
    planks for seven days after placing concrete"). Of sentences tied by their event, one whose event is the event the
    user's date is told with ("we got the written notice last Friday": "within fifteen days of receipt of the notice")
    comes before one whose event only the asking words name ("the hearing shall be held within thirty days from the
    date of the hearing request" for "the last day we can ask for a hearing")."""
    asked = _kin(stems(expand(turn)))  # the code's words for the user's plain ones ("a letter telling me" -> notice)
    asking = stems(_asking(turn)) - _GENERIC - _MODAL
    if topic:
        # a follow-up's act may be the one its conversation asked about ("Is there any way to appeal that?" / "The
        # decision was dated Friday ... What's the last day I can file?"), and its event one the conversation named
        # ("how much heads-up does the clerk need before we start backfilling?" / "ok we plan to backfill this Friday at
        # 8 AM. latest I can call him?": the start of the refilling)
        asking |= stems(_asking(topic)) - _GENERIC - _MODAL
        asked |= _kin(stems(expand(_asking(topic))) - _GENERIC - _MODAL)
    # (the things the dated sentence names, not its everyday verbs: "sends me its bill" is no "sending ... of the notice")
    told = _kin(stems(expand(dated)) - _GENERIC - _MODAL - _EVENT_VERBS) if dated else set()
    if dated and roles.event_kind_of(dated) == "notice":
        # ("Got a letter from the streets superintendent this past Monday saying I have to fix ...": a letter, a
        # written notice, dates the notice a period runs from)
        told |= stems("notice")

    def tie(sentence: str, m: re.Match, backward: bool) -> str | None:
        if _ENACTED.match(sentence, m.end()):
            return None  # ("within 60 days of the effective date of this article": a day of the law, no day of the user's)
        event = stems(sentence[m.end():m.end() + 60]) - _GENERIC
        if re.match(r"\s*(?:such|said|the\s+same)\b", sentence[m.end():], re.I):
            # "aggrieved by the decision or action of the Chief Administrative Officer may appeal ... within 10 days
            # of such official action": the event "such" points back to is named earlier in the sentence
            event |= stems(sentence[:m.start()]) - _GENERIC - _MODAL
        if event & told:
            return "dated"
        if event & asked:
            return "event"
        if not backward and (stems(sentence[:m.start()]) - _GENERIC - _MODAL) & asking:
            return "act"
        return None

    def overlap(sentence: str, m: re.Match) -> int:
        return len((stems(sentence[m.end():m.end() + 60]) - _GENERIC) & told)

    if told and extra and "dated" in levels:
        # a sentence of the quoted sections that was not quoted, whose event the dated words name more fully than any
        # quoted sentence's ("the notice of decision is dated last Friday": "within thirty (30) calendar days of the
        # date of the notice of decision", not the quoted "within fifteen (15) calendar days of receipt of the notice
        # of removal")
        def dated_ties(pool):
            out = []
            for sentence in pool:
                found = [(m, True) for m in _BEFORE.finditer(sentence)] + [(m, False) for m in _AFTER.finditer(sentence)]
                tied = [(m, b) for m, b in found if tie(sentence, m, b) == "dated"]
                if len(tied) == 1:
                    out.append((overlap(sentence, tied[0][0]), sentence, tied[0][0], tied[0][1]))
            return out

        quoted, more = dated_ties(sentences), dated_ties(extra)
        best_quoted = max((x[0] for x in quoted), default=0)
        better = [x for x in more if x[0] > best_quoted and x[0] >= 2]
        if len(better) == 1 or (better and sorted(x[0] for x in better)[-1] > sorted(x[0] for x in better)[-2]):
            _, sentence, m, backward = max(better, key=lambda x: x[0])
            return sentence, m, backward

    # an act whose day is asked ("the latest day they had to notify us"): a period timing another act ("may obtain a
    # hearing ... by making a written petition ... within fifteen (15) calendar days of receipt of the notice of
    # removal") is not its day, whatever event the two share
    # (less a condition before it: "If we don't fix it, what date can the city come take it away?" asks the removal)
    wants = _act_groups(_acts(expand(re.sub(r"^\s*(?:and\s+|so\s+)?if\b[^,?]{1,80},\s*", "", _asking(turn), flags=re.I))))

    def times_another_act(sentence: str, m: re.Match) -> bool:
        if not wants:
            return False
        # (the act is the sentence less its period's event, which runs to the next stop: "... three (3) business days
        # after removal, the Commissioner ... shall notify the owner")
        stop = re.search(r"[,;:.]", sentence[m.end():m.end() + 60])
        own = _act_groups(_acts(sentence[:m.start()] + " " + sentence[m.end() + (stop.start() if stop else 60):]))
        return not (own & wants)

    for wanted in levels:
        candidates = []
        for sentence in sentences:
            found = [(m, True) for m in _BEFORE.finditer(sentence)] + [(m, False) for m in _AFTER.finditer(sentence)] \
                + [(m, False) for m in _AFTER_NOTICE.finditer(sentence)] \
                + [(m, False) for m in _NEXT_BUSINESS.finditer(sentence)]
            tied = [(m, backward) for m, backward in found if tie(sentence, m, backward) == wanted
                    and not (wanted != "act" and times_another_act(sentence, m))]
            if not tied and found and wanted == "act":
                return None
            if not tied:
                continue
            if len(tied) != 1:
                if not candidates:
                    return None
                break
            candidates.append((sentence, tied[0][0], tied[0][1]))
            if wanted == "act":
                break  # (only the best sentence with a period may be tied by its act)
        if not candidates:
            continue
        if len(candidates) > 1 and wanted in ("dated", "event"):
            # of several, the one period whose own event words are the question's ("no less than 30 days prior to
            # abandonment" for "we're going to abandon on Friday"), before one tied only by the "such" that points
            # back ("fails to notify the city of the abandonment ... within 60 days of such notice")
            words = told if wanted == "dated" else asked
            direct = [c for c in candidates if (stems(c[0][c[1].end():c[1].end() + 60]) - _GENERIC) & words]
            if len(direct) == 1:
                return direct[0]
        if len(candidates) > 1:
            # several sentences' events are named by the question or its dated words ("the notice of removal", "the
            # hearing request"):
            # the one whose own words the asking sentence repeats most ("hold the hearing": "the hearing shall be
            # held within thirty days"; "pay it before they put a lien on": "not paid within 30 days ... a lien")
            # is the one asked; when none stands out, the best sentence, as before
            wants = _acts(_asking(turn))
            scores = [len(_acts(s) & wants) for s, _, _ in candidates]
            # (of sentences tied by the dated words, the one timing the act those words tell: "a letter ... saying I
            # have to fix the sidewalk" is the notice to "remove or repair within ten days", not a later demand's "not
            # paid within 30 days"; when exactly one times it and the asking words' choice times none of it)
            told_acts = _act_groups(_acts(expand(dated))) if dated and wanted == "dated" else set()
            by_act = [len(_act_groups(_acts(c[0][:c[1].start()])) & told_acts) for c in candidates]
            timing = [i for i, x in enumerate(by_act) if x > 0]
            if scores.count(max(scores)) == 1:
                best = scores.index(max(scores))
                if len(timing) == 1 and by_act[best] == 0:
                    return candidates[timing[0]]
                return candidates[best]
            if len(timing) == 1:
                return candidates[timing[0]]
        return candidates[0]
    return None


# past forms whose stems are not the present's ("held" / "hold"): an act said either way is one act
_IRREGULAR = {"held": "hold", "paid": "pay", "made": "make", "given": "give", "gave": "give", "sent": "send",
              "told": "tell", "built": "build", "laid": "lay", "done": "do", "kept": "keep", "taken": "take",
              "took": "take", "brought": "bring", "got": "get", "gotten": "get", "filed": "file", "issued": "issue"}


# acts a deadline times, in kinds the user's word and the code's share ("notify" / "notice"; "file", "apply" /
# "petition", "appeal", "application")
_ACT_KINDS = {kind: stems(words) for kind, words in (
    ("notify", "notify notified notice notification inform informed tell"),
    ("file", "file filed petition appeal apply applied application submit submitted request hearing resubmit "
             "resubmitted revise revised modify modified"),
    ("pay", "pay paid payment unpaid nonpayment"),
    ("remove", "remove removed removal retrieve retrieved reclaim away tow towed impound impounded confiscate seize"),
    ("work", "repair repaired restore restored replace replaced install installed complete completed"))}


def _act_groups(acts: set[str]) -> set[str]:
    return {kind for kind, words in _ACT_KINDS.items() if acts & words}


def _acts(text: str) -> set[str]:
    words = [_IRREGULAR.get(w.lower(), w) for w in re.findall(r"[A-Za-z][A-Za-z']*", text)]
    return stems(" ".join(words)) - _GENERIC - _MODAL


# the question asks a day of its own case ("what's my last day to appeal", "on what date can they put a lien on it"),
# not how long a period is ("how soon must I appeal")
# a date itself asked for ("what date", "I need the actual date"), not a period or whether there is a deadline
ASKS_A_DATE = re.compile(r"\b(?:what|which)\s+(?:(?:exact|actual|precise|specific|calendar)\s+)?(?:date|day)\b|"
                         r"\bby\s+what\s+(?:(?:exact|actual|precise|specific|calendar)\s+)?(?:date|day)\b|"
                         # "What's the date I have to apply by afterwards?" (not "what's the date today")
                         r"\bwhat(?:['’]s|\s+is)\s+the\s+(?:date|day)\s+(?:i|we|you|they|it|that|this)\b|"
                         r"\b(?:the|an|a)\s+(?:exact|actual|precise|specific|real)\s+(?:date|day)\b", re.I)
_ASKS_ITS_DAY = re.compile(ASKS_A_DATE.pattern + r"|\bwhat(?:['’]s|\s+is)\s+the\s+(?:last|final|latest)\s+(?:date|day)\b|"
                           r"\blast\s+(?:day|date)\b|\bdeadline\b|\bby\s+when\b|\bby\s+what\s+time\b", re.I)


def asks_its_day(turn: str) -> bool:
    """Does the turn ask a day (or the moment) of its own case: "what date", "the last day", "what's the deadline",
    "by when", "by what time"?"""
    return bool(_ASKS_ITS_DAY.search(turn))

_OWN_CASE = re.compile(r"\b(?:my|our|i|we|me|us|they|i['’]m|we['’]re)\b", re.I)


# the question asks whether there is a deadline at all, not the day of its own case
_WHETHER_ANY = re.compile(r"\b(?:is|are)\s+there\s+(?:a|any)\s+(?:deadline|time\s+limit|last\s+day)\b|"
                          r"\bany\s+(?:deadline|time\s+limit)\b", re.I)


@dataclass(frozen=True)
class DayNeeded:
    event: str  # the words the period counts from, as the sentence writes them ("such official action")
    words: str  # the period ("within 10 days of")
    sentence: str


# the words that tie a period to the event it is counted from ("of such official action", "after the submission")
_FROM_EVENT = re.compile(r"(?:of|after|from|following|before|prior\s+to|upon|on|since|succeeding|preceding)\s+(?!which\b)",
                         re.I)


def day_needed(turn: str, slots: list[Slot], sentences: list[str]) -> DayNeeded | None:
    """The event whose date the asked day is counted from, when the question asks its own day and gives no date:
    "What's my last day to appeal?" against "may appeal ... within 10 days of such official action". None when a
    date is given (counted, or left to the quotes), the question asks no day of its own, or no period is tied."""
    # (an hour with no day, "crew is on site at 7 am", still needs the day)
    if not _ASKS_ITS_DAY.search(turn) or not _OWN_CASE.search(turn) or any(s.kind == "date" for s in slots) \
            or _WHETHER_ANY.search(turn):
        return None  # ("Is there a deadline for getting that cleared off?": whether there is one, and how long)
    tied = _tied_period(turn, sentences)
    if tied is None:
        return None
    sentence, m, _ = tied
    event = re.split(r"[,;.]|\s(?:and|or|the\s+notice|shall|may|must|is|are)\s", sentence[m.end():])[0].strip()
    tie = _FROM_EVENT.match(event) or re.search(r"\b(?:of|after|from|following|before|prior\s+to|upon|since)\s*$",
                                                 m.group(0), re.I)
    if not event or len(event.split()) > 8 or not tie:
        return None  # ("on the first regular business day on which the office ... is open": no event counted from)
    return DayNeeded(event, m.group(0), sentence)


# a paper's own date, not the day it came ("the letter is dated June 5", "they mailed it on the 3rd")
_PAPER_DATED = re.compile(r"\b(?:dated|mailed|sent|postmarked|written|issued|signed)\b", re.I)
_CAME = re.compile(r"\b(?:got|get|received?|arrived?|came|showed\s+up|delivered|handed|served|opened|found)\b", re.I)
_BY_RECEIPT = re.compile(r"\b(?:receipt|received|receiving|service|served|delivery|delivered)\b", re.I)


def receipt_needed(turn: str, slots: list[Slot], sentences: list[str]) -> tuple[Slot, DayNeeded] | None:
    """The one date the question gives, when it is a paper's own date ("The letter is dated June 5") and the period
    tied to it is counted from the paper's receipt ("within ten days from the receipt of such notice"): the day it came
    is asked, never taken to be the day it was dated."""
    days = [s for s in slots if s.kind == "date" and s.precision == "day"]
    if len({s.value for s in days}) != 1 or not ASKS_A_DAY.search(turn):
        return None
    said = _sentence_of(turn, days[0])
    if not _PAPER_DATED.search(said) or _CAME.search(said):
        return None
    tied = _tied_period(turn, sentences, said)
    if tied is None:
        return None
    sentence, m, backward = tied
    event = re.split(r"[,;.]|\s(?:and|or|shall|may|must|is|are|all)\s", sentence[m.end():])[0].strip()
    if backward or not _BY_RECEIPT.search(f"{m.group(0)} {event}"):
        return None
    return days[0], DayNeeded(event, m.group(0), sentence)


def time_needed(turn: str, slots: list[Slot], sentences: list[str]) -> tuple[Slot, DayNeeded] | None:
    """The one day the question gives, with no time of day, when the period tied to it is counted in hours ("we start
    backfilling on Friday ... the latest I can let the clerk know?" against "at least ten hours before the work of
    refilling ... commences"): the moment depends on the hour, so it is asked. None otherwise."""
    if not ASKS_A_DAY.search(turn) or any(s.kind == "time" for s in slots):
        return None
    days = [s for s in slots if s.kind == "date" and s.precision == "day" and s.span.origin == "turn"]
    if len({s.value for s in days}) != 1 or len([s for s in slots if s.kind == "date"]) != len(days):
        return None
    tied = _tied_period(turn, sentences, _sentence_of(turn, days[0]))
    if tied is None:
        return None
    sentence, m, _ = tied
    if not m.group("u").lower().startswith("hour") or _condition_unsaid(turn, sentences, sentence, m):
        return None
    return days[0], DayNeeded("", m.group(0), sentence)


_PERIOD_WORDS = frozenset({"day", "days", "week", "weeks", "month", "months", "year", "years", "hour", "hours", "within",
                           "after", "before", "from", "of", "the", "such", "said", "at", "least", "no", "later", "than",
                           "prior", "to", "business", "calendar", "working", "following", "upon", "on", "since"})


def _event_stems(sentence: str, m: re.Match) -> set[str]:
    """The stems of the event a period is counted from: its words after the number, to the clause's end ("after
    thirty days written notice" -> notice, written)."""
    after = re.split(r"[,;.]|\s(?:and|or|shall|may|must|is|are|the\s+village|the\s+city|the\s+town)\s",
                     sentence[m.end():])[0]
    words = [w for w in re.findall(r"[A-Za-z]+", f"{m.group(0)} {after}") if w.lower() not in _PERIOD_WORDS
             and worded_number(w) is None]  # ("thirty" counts; "city", "property" are events' words)
    return stems(" ".join(words[:6]))


def stretch_needed(turn: str, slots: list[Slot], sentences: list[str]) -> tuple[Slot, DayNeeded] | None:
    """The one date the question gives, when it names a stretch of days ("sometime last week", "back in March"), not a
    day, and the question asks a day a period counts from it: each day of the stretch gives another day, so the date
    is asked for. None when a day is given, the stretch holds today, or no period of the sentences is tied to it."""
    from assistant.answering.slots import today

    if not ASKS_A_DAY.search(turn):
        return None
    dates = [s for s in slots if s.kind == "date"]
    if len(dates) != 1 or dates[0].precision not in ("week", "month") or dates[0].holds(today()) \
            or re.match(r"(?:next|last)\s+\w+day\b", dates[0].span.text.strip(), re.I) or dates[0].span.origin != "turn":
        return None  # ("next Thursday": its two readings are counted each; "next month", "next week" are stretches)
    tied = _tied_period(turn, sentences, _sentence_of(turn, dates[0]))
    if tied is None:
        return None
    sentence, m, _ = tied
    return dates[0], DayNeeded("", m.group(0), sentence)


# a duty to be done within the period ("shall assign addresses within 30 days"), not the end of a period's life
# (or an act that may be done only within the period: "may appeal ... within 10 days of such official action")
_ACT = re.compile(r"\b(?:shall|must)\b|\bmay\b[^.;]*\bwithin\b", re.I)
_LIFE = re.compile(r"\b(?:valid|expires?|lapses?|void|in effect|good for)\b", re.I)


_MONTHS = ("january february march april may june july august september october november december").split()
_ORDINAL_DAY = {w: i + 1 for i, w in enumerate(("first second third fourth fifth sixth seventh eighth ninth tenth "
                                                 "eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth "
                                                 "eighteenth nineteenth twentieth").split())}
# a day of the year ("on the first day of March", "on the 31st day of December", "on April 1", "by December 31")
_DAY_OF_YEAR = re.compile(r"\b(?:on|by|before|no\s+later\s+than|not\s+later\s+than)\s+(?:the\s+)?(?:(?P<ord>" +
                          "|".join(_ORDINAL_DAY) + r"|\d{1,2}(?:st|nd|rd|th)?)\s+day\s+of\s+(?P<m1>" + "|".join(_MONTHS) +
                          r")|(?P<m2>" + "|".join(_MONTHS) + r")\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\b)", re.I)
# said to come each year ("annually", "of each year"), or of the year the thing is granted
_YEARLY = re.compile(r"\b(?:annually|each\s+year|every\s+year|of\s+each\s+year|yearly|in\s+the\s+year\s+in\s+which)\b",
                     re.I)
_ASKS_YEAR_DAY = re.compile(r"\b(?:expire|expires|expiration|run\s+out|renew\w*|good\s+(?:until|through|till)|valid|due|"
                            r"last\s+day|what\s+date|which\s+date|deadline)\b", re.I)


def yearly_day(turn: str, slots: list[Slot], sentences: list[str]) -> Counted | None:
    """The day of the year a quoted sentence fixes ("shall expire annually on the first day of March", "renewed
    annually on April 1", "shall expire on the 31st day of December in the year in which it is granted") that first
    follows the question's one dated day ("should be approved this coming Tuesday"), when the question asks such a day
    and the sentence shares a word of its thing (license, permit, certificate); None otherwise."""
    if not ASKS_A_DAY.search(turn) or not _ASKS_YEAR_DAY.search(_asking(turn)):
        return None
    days = [s for s in slots if s.kind == "date" and s.precision == "day"]
    if len({s.value for s in days}) != 1:
        return None
    start = days[0]
    words = stems(turn) - _GENERIC_STEMS
    for sentence in sentences:
        m = _DAY_OF_YEAR.search(sentence)
        if m is None or not _YEARLY.search(sentence) or len(_DAY_OF_YEAR.findall(sentence)) != 1:
            continue
        if not (stems(sentence) & words) - stems("day year date annual annually expire shall be"):
            continue
        month = _MONTHS.index((m.group("m1") or m.group("m2")).lower()) + 1
        raw = (m.group("ord") or m.group("d")).lower()
        dd = _ORDINAL_DAY.get(raw) or int(re.match(r"\d+", raw).group(0))
        try:
            same = date(start.day.year, month, dd)
            day = same if same > start.day else date(start.day.year + 1, month, dd)
        except ValueError:
            return None  # (no such day: "the 31st day of April")
        if re.search(r"\bin\s+the\s+year\s+in\s+which\b", sentence, re.I) and day.year != start.day.year:
            return None  # "expire on the 31st day of December in the year in which it is granted": that year's only
        said = sentence[m.start():m.end()]
        yearly = _YEARLY.search(sentence).group(0)
        return Counted(day, start, f"{yearly} {said}" if yearly.lower() in ("annually", "yearly") else said, False,
                       sentence, yearly=True)
    return None


_GENERIC_STEMS = stems("the a an of on in at by to is it its this that what which when would will should be been "
                       "our my we i you your they their if assuming")


def under_rule(counted: list[Counted], calendar) -> list[Counted]:
    """The days counted again under the state's rule of counting time the calendar holds (Wisconsin: the event's
    day left out, a last day of a duty on a Sunday or legal holiday moved to the next secular day). Only a period
    of days, weeks, months or years counted forward from one day; [] for any other (its quote answers alone)."""
    out = []
    for c in counted:
        if c.yearly:
            out.append(c)  # (a day of the year the code fixes is no period counted: no rule moves it)
            continue
        if c.begun is not None or c.backward:
            return []  # (each of two readings, "next Thursday", is counted under the rule as one day is)
        act = bool(_ACT.search(c.sentence)) and not _LIFE.search(c.sentence)
        if not act and hasattr(calendar, "why"):
            out.append(c)  # (a state's rule of the data moves only an act's last day: the calendar day, as counted)
            continue
        day = calendar.moved_off_closed_days(c.day) if act else c.day
        out.append(replace(c, day=day, moved_from=c.day if day != c.day else None,
                           rule=calendar.convention_text.split(":")[0], moved_to=getattr(calendar, "moves_to", ""),
                           moved_why=calendar.why(c.day) if day != c.day and hasattr(calendar, "why") else ""))
    return out
