"""Hours that count only in daylight, from the sunrise and sunset the user gives.

"may not place snow or ice, or allow it to remain, on an abutting sidewalk for more than six hours between sunrise
and sunset following the conclusion of a weather event" and "Say the snow quits at 2:30 in the afternoon, sunset's
4:15, and the sun comes back up at 7:05 the next morning": 1 hour 45 minutes that afternoon, the other 4 hours 15
minutes from sunrise, 11:20 AM the next day. "no later than the end of the first eight hours of daylight after the
cessation" and "snow stopping around 2 AM, and sunrise that morning is 7:35": 3:35 PM that day, if the sun is still
up then (the answer says so when no sunset is given). Any code, no table: the hours and their daylight are read from
the sentence, the times from the user's words, and nothing is counted when a time it needs is not given.

Pure functions; ``periods.count_from`` calls ``count`` with the sentences it is about to quote, and the planner calls
``sun_needed`` to ask for the sunrise and sunset when the question gives neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from assistant.answering.reading import NUMBER, Slot, number_value

# the sentence's hours that run in daylight only: "six hours between sunrise and sunset", "the first eight hours of
# daylight", "the first 6 daylight hours", "three (3) hours after snow fall has ended between sunrise and sunset"
_HOURS = re.compile(rf"(?P<n>{NUMBER.pattern}|an|one)\s*(?:\(\d+\)\s*)?(?P<day>daylight\s+)?hours?\b", re.I)
_IN_DAYLIGHT = re.compile(r"\s*(?:of\s+daylight\b|[^.;]{0,45}?\bbetween\s+sunrise\s+and\s+sunset\b|"
                          r"[^.;]{0,20}?\bduring\s+daylight\b)", re.I)
# the user's sunrise and sunset: "sunset's 4:15", "the sun comes back up at 7:05", "sunrise that morning is 7:35"
_SUN = re.compile(r"\b(?:(?P<rise>sunrise|sun\s*rise|sunup|sun-up|daybreak|first\s+light|dawn|sun\s+(?:comes?|came|is|gets)"
                  r"\s+(?:back\s+)?up|sun\s+rises)|(?P<set>sunset|sun\s*set|sundown|sun\s+(?:goes|went)\s+down|sun\s+sets|"
                  r"(?:it\s+)?gets\s+dark))(?:['’]s)?\b[^.;?!\d]{0,30}?"
                  r"(?P<h>1[0-2]|0?[1-9])(?!\d)(?::(?P<m>[0-5]\d))?(?:\s*(?P<ap>[ap]\.?\s?m\b\.?))?", re.I)


# a sentence that gives another period beside the daylight hours, the longer or shorter of the two
_EITHER = re.compile(r"\bwhichever\b", re.I)


# "Sun comes up about 7:00 and sets around 4:15": the sun's setting said after its rising (the sun named before)
_SETS = re.compile(r"\band\s+(?:it\s+)?sets\s+(?:at\s+|around\s+|about\s+|by\s+)?(?P<h>1[0-2]|0?[1-9])(?!\d)(?::(?P<m>[0-5]\d))?"
                   r"(?:\s*(?P<ap>[ap]\.?\s?m\b\.?))?", re.I)


@dataclass(frozen=True)
class Sun:
    at: time
    words: str
    start: int
    end: int


@dataclass(frozen=True)
class DaylightCount:
    end: datetime
    begun: datetime
    words: str  # the period as the sentence writes it ("six hours between sunrise and sunset")
    sentence: str
    steps: tuple[str, ...]
    sunrise: Sun | None
    sunset: Sun | None
    unsure: str = ""  # the condition the end holds under, when a time it rests on was not given


def daylight_hours(sentence: str) -> tuple[int, str] | None:
    """The one number of hours the sentence counts in daylight only, with its words; None when none or several."""
    found = []
    for m in _HOURS.finditer(sentence):
        after = _IN_DAYLIGHT.match(sentence, m.end())
        if m.group("day") or after:
            n = 1 if m.group("n").lower() in ("an", "one") else number_value(m)
            if n is None or n != int(n) or not 0 < n <= 48:
                return None
            found.append((int(n), sentence[m.start():after.end() if after else m.end()]))
    return found[0] if len({n for n, _ in found}) == 1 else None


def _clock(m: re.Match, evening: bool) -> time:
    """The hour a sunrise (morning unless "pm" is said) or a sunset (evening unless "am" is said) is told at."""
    ap = (m.group("ap") or "").lower()
    pm = ap.startswith("p") if not evening else not ap.startswith("a")
    return time(int(m.group("h")) % 12 + (12 if pm else 0), int(m.group("m") or 0))


def sun_times(turn: str) -> tuple[Sun | None, Sun | None]:
    """The sunrise and the sunset the user gives (a bare hour of a sunrise is in the morning, of a sunset after noon);
    None for one not given or given twice differently."""
    rises, sets = [], []
    for m in _SUN.finditer(turn):
        if m.group("rise"):
            rises.append(Sun(_clock(m, evening=False), m.group(0), m.start(), m.end()))
        else:
            sets.append(Sun(_clock(m, evening=True), m.group(0), m.start(), m.end()))
    for m in _SETS.finditer(turn):
        # "Sun comes up about 7:00 and sets around 4:15": the sun named before, in the same sentence
        before = turn[max(0, m.start() - 50):m.start()]
        if re.search(r"\bsun\b", before, re.I) and not re.search(r"[.;?!]", re.split(r"\bsun\b", before, flags=re.I)[-1]):
            sets.append(Sun(_clock(m, evening=True), m.group(0), m.start(), m.end()))
    one = lambda xs: xs[0] if xs and len({x.at for x in xs}) == 1 else None  # noqa: E731
    return one(rises), one(sets)


def _hm(minutes: int) -> str:
    h, m = divmod(minutes, 60)
    return " ".join(x for x in (f"{h} hour{'s' if h != 1 else ''}" if h else "",
                                f"{m} minute{'s' if m != 1 else ''}" if m else "") if x) or "0 minutes"


def count(turn: str, slots: list[Slot], sentences: list[str], day: date) -> DaylightCount | None:
    """The end of the first sentence's (best first, of those with a period in hours) daylight hours, counted from the
    user's one time of day on ``day``, with the sunrise and sunset the user gives; None when that sentence's hours are
    not daylight's, the user gives no sunrise or sunset, no time or two, or a time the count needs is not given."""
    first = next((s for s in sentences if _HOURS.search(s)), None)
    got = daylight_hours(first) if first else None
    if got is None or _EITHER.search(first):
        return None  # ("on the same day ... or within the first six hours of daylight ..., whichever period is longer")
    n, words = got
    rise, set_ = sun_times(turn)
    if rise is None and set_ is None:
        return None
    # (the time told of the event, not the sunrise or sunset: by place in the turn, or by value in a reply read with the
    # question it answers)
    own = [s for s in slots if s.kind == "time"
           and not (s.span.origin == "turn" and any(x is not None and x.start <= s.span.start < x.end for x in (rise, set_)))
           and not any(x is not None and x.at.strftime("%H:%M") == s.value for x in (rise, set_))]
    if len({s.value for s in own}) != 1:
        return None
    hh, mm = (int(x) for x in own[0].value.split(":"))
    begun = datetime.combine(day, time(hh, mm))
    if rise is not None and set_ is not None and rise.at >= set_.at:
        return None
    left = n * 60
    cur = begun
    steps: list[str] = []
    unsure = ""
    for _ in range(4 + n // 6):  # (a bounded walk over the days: never more than a day for each six hours)
        sunrise = datetime.combine(cur.date(), rise.at) if rise else None
        sunset = datetime.combine(cur.date(), set_.at) if set_ else None
        if sunrise is not None and cur < sunrise:
            steps.append(f"{cur:%-I:%M %p} is before sunrise: the hours start at sunrise, {sunrise:%-I:%M %p}")
            cur = sunrise
        elif sunrise is None and cur.hour < 9:
            return None  # (an early hour with no sunrise given: whether it is daylight yet is not known)
        if sunset is not None and cur >= sunset:
            if rise is None:
                return None
            nxt = datetime.combine(cur.date() + timedelta(days=1), rise.at)
            steps.append(f"{cur:%-I:%M %p} is after sunset: the hours start at the next sunrise, {nxt:%-I:%M %p}")
            cur = nxt
            continue
        end = cur + timedelta(minutes=left)
        if sunset is None and sunrise is not None and cur != sunrise:
            return None  # (begun after sunrise, with no sunset given: whether the hours run past it is not known)
        if sunset is None:
            unsure = f"if the sun is still up at {end:%-I:%M %p}; hours after sunset count from the next sunrise"
            steps.append(f"{_hm(left)} from {cur:%-I:%M %p} = {end:%-I:%M %p}")
            return DaylightCount(end, begun, words, first, tuple(steps), rise, set_, unsure)
        if end <= sunset:
            steps.append(f"{_hm(left)} from {cur:%-I:%M %p} = {end:%-I:%M %p}")
            return DaylightCount(end, begun, words, first, tuple(steps), rise, set_)
        used = int((sunset - cur).total_seconds() // 60)
        left -= used
        if rise is None:
            return None
        nxt = datetime.combine(cur.date() + timedelta(days=1), rise.at)
        steps.append(f"{cur:%-I:%M %p} to sunset at {sunset:%-I:%M %p} is {_hm(used)}; the other {_hm(left)} run "
                     f"from sunrise, {nxt:%-I:%M %p}")
        cur = nxt
    return None


# the question asks the hour a daylight count ends ("what time do I have to have the snow off my roof by?")
_ASKS_TIME = re.compile(r"\b(?:what|which)\s+time\b|\bby\s+when\b|\bhow\s+late\b|\bdeadline\b|\blatest\b|\bwhen\b", re.I)


def sun_needed(turn: str, slots: list[Slot], sentences: list[str]) -> tuple[str, str] | None:
    """(the hours as the sentence writes them, the sentence) when the first sentence with a period in hours counts them
    in daylight only, the question gives the time they start from and asks when they end, but gives no sunrise or
    sunset: those are asked, never guessed. None otherwise."""
    first = next((s for s in sentences if _HOURS.search(s)), None)
    got = daylight_hours(first) if first else None
    if got is None or _EITHER.search(first) or sun_times(turn) != (None, None) or not _ASKS_TIME.search(turn):
        return None
    if not any(s.kind == "time" and s.span.origin == "turn" for s in slots):
        return None
    return got[1], first
