"""A fee and a charge by the day to get a thing back: "upon payment of a removal fee of $25.00 plus a storage fee of
$5.00 per day, to a maximum combined removal and storage fee of $100.00", with the day the thing was taken and the day
it is got back read from the user's words.

The days are counted as the state counts time (the day it was taken left out, the day it is got back counted), and the
answer says so; the number of things is the user's ("one of our boxes"), one when none is said.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from assistant.answering.formatting import fmt_date, fmt_money
from assistant.answering.reading import Slot
from assistant.answering.worked import Worked

_MONEY = r"\$\s?(?P<{}>\d[\d,]*(?:\.\d\d)?)"
# "a removal fee of $25.00 plus a storage fee of $5.00 per day"
_FEE_PLUS_DAILY = re.compile(
    r"(?P<fee_words>\b(?:a|the)\s+(?:[a-z]+\s+){0,3}?fee\s+of\s+" + _MONEY.format("fee") + r")\s+plus\s+"
    r"(?P<day_words>(?:a|the)\s+(?:[a-z]+\s+){0,3}?(?:fee|charge)\s+of\s+" + _MONEY.format("daily")
    + r"\s+(?:per|a|each|for\s+each)\s+(?:calendar\s+)?day)\b", re.I)
# "to a maximum combined removal and storage fee of $100.00", "not to exceed $100.00"
_MAXIMUM = re.compile(r"(?P<words>\b(?:to\s+a\s+maximum\s+(?:[a-z]+\s+){0,5}?of|not\s+to\s+exceed|up\s+to\s+a\s+maximum\s+of)\s+"
                      + _MONEY.format("max") + ")", re.I)
# the user's words that ask what it costs to get the thing back
_GET_BACK = re.compile(r"\b(?:get|getting|pick|picking)\s+(?:it|them|(?:the|our|my)\s+\w+)\s+(?:back|up)\b|\bretriev\w*|"
                       r"\breclaim\w*|\bto\s+get\s+(?:it|them)\b", re.I)
# what getting it back costs is asked ("what's the damage?", "how much", "what do we owe")
_ASKS_MONEY = re.compile(r"\bhow\s+much\b|\bcost\w*|\bdamage\b|\bfees?\b|\bpay\b|\bowe\b|\bcharge\w*|\btotal\b|\$",
                         re.I)
_TAKEN = re.compile(r"\b(?:pulled|took|taken|removed|towed|impounded|hauled|seized|confiscated|picked\s+up|grabbed)\b", re.I)


def _own_words(turn: str, slot: Slot, dates: list[Slot]) -> str:
    """The words of the slot's sentence before it, after any other day told before it there."""
    start = max([m.end() for m in re.finditer(r"[.?!;](?:\s|$)", turn[:slot.span.start])]
                + [d.span.end for d in dates if d.span.end <= slot.span.start], default=0)
    return turn[start:slot.span.start]


def _money(m: re.Match, group: str) -> Decimal:
    return Decimal(m.group(group).replace(",", ""))


def owed(turn: str, slots: list[Slot], sentences: list[str], today: date) -> Worked | None:
    """The fee plus the charge for each day from the day the thing was taken to today (or the day the user gives for
    getting it back), at most the sentence's maximum; None unless the question asks what getting it back costs and
    tells exactly one day it was taken (or a number of days), and one quoted sentence charges so."""
    if not _GET_BACK.search(turn):
        return None
    from assistant.answering.periods import asks_its_day

    if asks_its_day(turn) and not _ASKS_MONEY.search(turn):
        return None  # ("What's the last day we can still get it back?": a day is asked, not what it costs)
    found = [(s, m) for s in dict.fromkeys(sentences) for m in [_FEE_PLUS_DAILY.search(s)] if m is not None]
    if len(found) != 1:
        return None
    sentence, m = found[0]
    days_told = [s for s in slots if s.span.origin == "turn" and s.kind == "duration" and s.unit == "days"]
    dates = [s for s in slots if s.span.origin == "turn" and s.kind == "date" and s.precision == "day"]
    from assistant.answering.slot_safety import weekday_disagrees

    if any(weekday_disagrees(s) for s in dates):
        return None  # ("took it on Monday the 6th" of a Tuesday: which day is not guessed)
    if days_told and not dates and len({s.value for s in days_told}) == 1:
        days, read = int(days_told[0].number), f"{days_told[0].number.normalize():f} days (“{days_told[0].span.text}”)"
    else:
        taken = [s for s in dates if _TAKEN.search(_own_words(turn, s, dates)) and s.day <= today]
        back = [s for s in dates if s not in taken]
        if len(taken) != 1 or len(back) > 1 or days_told:
            return None
        until = back[0].day if back else today
        if until < taken[0].day:
            return None
        days = (until - taken[0].day).days
        read = (f"{days} days from {fmt_date(taken[0].day)} (“{taken[0].span.text}”) to "
                f"{fmt_date(until)}{' (today)' if not back else f' (“{back[0].span.text}”)'}, the day it was taken left "
                "out and the last day counted")
    fee, daily = _money(m, "fee"), _money(m, "daily")
    total = fee + daily * days
    sum_words = f"{read}; {fmt_money(fee)} (“{m.group('fee_words')}”) + {days} × {fmt_money(daily)} (“{m.group('day_words')}”)"
    cap = _MAXIMUM.search(sentence, m.end())
    if cap is not None and total > _money(cap, "max"):
        # (the sum over the maximum is never said as an amount: it is not owed)
        total = _money(cap, "max")
        steps = [f"{sum_words} comes to more than “{cap.group('words')}”: {fmt_money(total)}"]
    else:
        steps = [f"{sum_words} = {fmt_money(total)}"] + ([f"within “{cap.group('words')}”"] if cap is not None else [])
    return Worked("daily", m.group(0), read, total.quantize(Decimal("0.01")), steps, False, sentence)
