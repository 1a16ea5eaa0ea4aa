"""A fine that rises when it is left unpaid, worked out for the user's own notice date.

"Any person violating ... shall be subject to a fine of ... ($100.00) for each offense." and "This fine
shall increase by ... ($33.00) if it remains unpaid at least twenty-one (21) days after issuance of a notice
of the violation." with "I got the ticket on December 1st of last year and never paid it. What do I owe as
of today?": the fine, the rise, the number of days and the event they count from are read from the code's
sentences (any code, no table), the notice date from the user's words, and today's date from the clock the
answer runs on. The days are counted on the calendar (the day of the notice left out), which the answer says.

Pure functions; the planner calls ``owed`` with the sentences it is about to quote (each with the text of
its section), and ``date_needed`` when the question asks what is owed now and gives no date.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from assistant.answering.formatting import fmt_date, fmt_money
from assistant.answering.reading import NUMBER, Slot, number_value, read_slots
from assistant.answering.worked import Worked
from assistant.retrieval.chunking import sentences

# "shall increase by $33.00 if it remains unpaid at least twenty-one (21) days after issuance of a notice"
_RISE = re.compile(r"\b(?:shall|will)\s+(?:be\s+)?increase[sd]?\s+by\b", re.I)
_UNPAID_DAYS = re.compile(rf"\b(?:unpaid|not\s+(?:been\s+)?paid)\b[^.;]{{0,40}}?\b(?:at\s+least|more\s+than|over|after)?\s*"
                          rf"(?P<n>{NUMBER.pattern})\s*(?:\(\d+\)\s*)?(?:calendar\s+)?days?\s+(?:after|from|following)\s+"
                          rf"(?P<event>[^.;,]{{3,80}})", re.I)
# the base fine: "a fine of ... ($100.00)", "fined one hundred dollars ($100.00)", "$100.00 fine"
_FINE = re.compile(r"\bfine[ds]?\b", re.I)
# the question asks what is owed now ("What do I owe as of today?", "How much do I have to pay now?")
OWED_NOW = re.compile(r"\bowe\b|\bowing\b|\bpay\s+(?:it\s+)?now\b|\bas\s+of\s+(?:today|now)\b|\bnow\b|\btoday\b|"
                      r"\b(?:never|not|didn['’]?t|haven['’]?t|hasn['’]?t)\s+(?:\w+\s+)?paid\b|\bunpaid\b|\blate\b|"
                      r"\boverdue\b|\bpast\s+due\b", re.I)
_ASKS_AMOUNT = re.compile(r"\bhow\s+much\b|\bwhat(?:\s+(?:do|does|would|will|is)\b|['’]s)[^?]{0,30}\b(?:owe|pay|fine|total)\b|"
                          r"\bamount\b|\bowe\b|"
                          # "Is it still the $100?", "still only $50 or did it go up?": the amount owed now
                          r"\b(?:is|it['’]s|it is)\s+(?:it\s+)?still\s+(?:the\s+|just\s+|only\s+)?\$|\bstill\s+(?:just\s+|only\s+)?\$\d", re.I)


@dataclass(frozen=True)
class LateRule:
    fine: Decimal
    fine_words: str
    fine_sentence: str
    rise: Decimal
    rise_words: str
    days: int
    event: str  # what the days count from, as the sentence writes it ("issuance of a notice of the violation")
    days_words: str  # the period as written ("twenty-one (21) days after issuance of a notice of the violation")
    sentence: str  # the sentence of the rise


def _money(sentence: str) -> list[Slot]:
    seen: dict[Decimal, Slot] = {}
    for s in read_slots(sentence):
        if s.kind == "money" and s.unit == "USD":
            seen.setdefault(s.number, s)
    return list(seen.values())


def rule_in(picked: list[tuple[str, str]]) -> LateRule | None:
    """The late rise of the first quoted sentence that states one (with the text of its section), and the one
    fine its section states; None when none does, or the fine or the rise reads two ways."""
    for sentence, section in picked:
        for s in [sentence, *sentences(section)]:
            if not _RISE.search(s):
                continue
            m = _UNPAID_DAYS.search(s)
            rises = _money(s[_RISE.search(s).end():])
            if m is None or len(rises) != 1:
                continue
            n = number_value(m)
            if n is None or n != int(n) or n <= 0:
                continue
            fines = {}
            for other in sentences(section):
                if other == s or not _FINE.search(other):
                    continue
                for x in _money(other):
                    fines.setdefault(x.number, (x, other))
            if len(fines) != 1:
                return None
            (fine, (slot, fine_sentence)), = fines.items()
            return LateRule(fine, slot.span.text, fine_sentence, rises[0].number, rises[0].span.text, int(n),
                            m.group("event").strip(), s[m.start("n"):m.end("event")].strip(), s)
    return None


def asks_owed(turn: str) -> bool:
    return bool(_ASKS_AMOUNT.search(turn) and OWED_NOW.search(turn))


# the question asks what a fine left unpaid rises to ("how much does it go up to, and from what date?")
_ASKS_RISE = re.compile(r"\b(?:go(?:es)?|went|jumps?|climbs?|rises?)\s+up\b|\b(?:does|will|would)\s+(?:it|the\s+fine)\s+"
                        r"(?:increase|rise|grow|go\s+to)\b|\bwhat\s+(?:does|will|would)\s+(?:it|the\s+fine)\s+(?:become|turn\s+into)\b",
                        re.I)


def asks_rise(turn: str) -> bool:
    return bool(_ASKS_AMOUNT.search(turn) and _ASKS_RISE.search(turn))


def owed(turn: str, slots: list[Slot], picked: list[tuple[str, str]], today: date) -> Worked | None:
    """The fine owed today for the notice date the user gives (one day, not after today); None when the
    question does not ask what is owed, no rise is quoted, or the date is missing or reads two ways."""
    rising = asks_rise(turn) and not asks_owed(turn)
    if not asks_owed(turn) and not rising:
        return None
    rule = rule_in(picked)
    if rule is None:
        return None
    # ("as of today" is the day it is owed on, not the notice's)
    from assistant.answering.slot_safety import weekday_disagrees

    if any(weekday_disagrees(s) for s in slots if s.kind == "date" and s.precision == "day"):
        return None  # ("a ticket on Monday the 6th" of a Tuesday: which day is not guessed)
    days = {s.value: s for s in slots if s.kind == "date" and s.precision == "day" and s.span.origin == "turn"
            and not (s.day == today and re.fullmatch(r"today|now|this\s+morning|tonight", s.span.text.strip(), re.I))}
    if not days:
        return _by_days_passed(turn, slots, rule)
    if len(days) == 2 and sum(s.day == today for s in days.values()) == 1:
        # "If I pay it today (May 12, 2027)": today's date written out is the day it is paid, not the notice's
        days = {v: s for v, s in days.items() if s.day != today}
    paid = [s for s in days.values() if _PAID_ON.search(turn[max(0, s.span.start - 50):s.span.start])]
    if len(days) == 2 and len(paid) == 1:
        # "The ticket is dated March 5 and I didn't get around to paying it until April 9": owed on the day it is paid
        today = paid[0].day
        days = {v: s for v, s in days.items() if s is not paid[0]}
    if len(days) >= 2 and not paid and several(turn) and all(s.day <= today for s in days.values()) \
            and _count(turn) in (None, len(days)):
        return _each(sorted(days.values(), key=lambda s: s.day), rule, today, rising)
    if len(days) != 1:
        return None
    given = next(iter(days.values()))
    if given.day > today:
        return None
    passed = (today - given.day).days
    until = f"the day it is paid, {fmt_date(today)}" if paid and len(paid) == 1 and today == paid[0].day \
        else f"today, {fmt_date(today)}"
    first_late = date.fromordinal(given.day.toordinal() + rule.days)
    raised = rule.fine + rule.rise
    if passed >= rule.days:
        total = raised
        steps = [f"notice {fmt_date(given.day)} (“{given.span.text}”) to {until}: {passed} days, "
                 f"at least {rule.days} (“{rule.days_words}”), counted on the calendar",
                 f"{fmt_money(rule.fine)} (“{rule.fine_words}”) + {fmt_money(rule.rise)} (“{rule.rise_words}”) = "
                 f"{fmt_money(total)}, owed since {fmt_date(first_late)}"]
    else:
        total = raised if rising else rule.fine  # (asked what it rises to: the raised fine is the figure)
        steps = [f"notice {fmt_date(given.day)} (“{given.span.text}”) to {until}: {passed} days, "
                 f"fewer than {rule.days}: the fine is {fmt_money(rule.fine)} (“{rule.fine_words}”); left unpaid, it "
                 f"rises by {fmt_money(rule.rise)} to {fmt_money(raised)} on {fmt_date(first_late)}"]
    return Worked("late", rule.rise_words, given.span.text, total, steps, False, rule.sentence,
                  others=(rule.fine_sentence,))


# "two tickets", "both notices", "each citation": the question is about more than one notice, each with its own date
_SEVERAL = re.compile(r"\b(?:two|three|four|2|3|4|both|each|several)\s+(?:of\s+(?:the|my|them)\s+)?(?:\w+\s+)?"
                      r"(?:tickets?|notices?|citations?|fines?|violations?|offen[cs]es?)\b|\b(?:tickets|notices|citations|fines)\b"
                      r"[^.?!]{0,40}\bboth\b|\bboth\b[^.?!]{0,20}\b(?:tickets|notices|citations|fines)\b", re.I)


def several(turn: str) -> bool:
    return bool(_SEVERAL.search(turn))


_COUNTS = {"two": 2, "three": 3, "four": 4, "2": 2, "3": 3, "4": 4}


def _count(turn: str) -> int | None:
    """The number of notices the question names ("three tickets": 3); None when it names none."""
    m = _SEVERAL.search(turn)
    word = (m.group(0).split() or [""])[0].lower() if m else ""
    return _COUNTS.get(word)


def _each(given: list[Slot], rule: LateRule, today: date, rising: bool) -> Worked:
    """Several notices, each with its own date: each fine as of today (risen or not), and their sum."""
    steps, owed_each = [], []
    for n, g in enumerate(given, 1):
        passed = (today - g.day).days
        late = passed >= rule.days
        owed_each.append(rule.fine + rule.rise if late or rising else rule.fine)
        steps.append(f"notice {n}, {fmt_date(g.day)} (“{g.span.text}”) to today, {fmt_date(today)}: {passed} days, "
                     + (f"at least {rule.days} (“{rule.days_words}”): {fmt_money(rule.fine)} (“{rule.fine_words}”) + "
                        f"{fmt_money(rule.rise)} (“{rule.rise_words}”) = {fmt_money(owed_each[-1])}" if late else
                        f"fewer than {rule.days}: {fmt_money(owed_each[-1])}"))
    total = sum(owed_each, Decimal(0))
    steps.append(" + ".join(fmt_money(x) for x in owed_each) + f" = {fmt_money(total)}, days counted on the calendar")
    return Worked("late", rule.rise_words, "; ".join(g.span.text for g in given), total, steps, False, rule.sentence,
                  others=(rule.fine_sentence,))


def unresolved(turn: str, slots: list[Slot], picked: list[tuple[str, str]], today: date) -> LateRule | None:
    """The late rise when the question asks what is owed and gives dates that no reading ties to its notices (two dates,
    one notice): a figure that leaves the rise out would be wrong, so none is stated."""
    if not asks_owed(turn):
        return None
    dated = {s.value for s in slots if s.kind == "date" and s.precision == "day" and s.span.origin == "turn" and s.day != today}
    return rule_in(picked) if len(dated) >= 2 else None


# the day the fine is (or will be) paid, said before its date: "paying it until April 9", "paid it on May 2", "pay it on"
_PAID_ON = re.compile(r"\b(?:pa(?:y|id|ying)|settl(?:e|ed|ing))\b[^.;,]{0,25}?\b(?:until|till|on|by)\s+(?:\w+,?\s+)?$", re.I)


# "forgot about it for about 30 days after the notice", "it's been 40 days since the ticket": the days passed, told
_DAYS_PASSED = re.compile(r"\b(?:for|it['’]?s\s+been|been|over|about|nearly|almost|more\s+than|past)\s+(?:about\s+|around\s+|"
                          r"roughly\s+|nearly\s+|almost\s+|over\s+)?$", re.I)
_APPROXIMATE = re.compile(r"\b(?:about|around|roughly|nearly|almost|or\s+so|give\s+or\s+take)\b", re.I)


def _told_days(slots: list[Slot]) -> Slot | None:
    found = {(s.value, s.unit): s for s in slots if s.kind == "duration" and (s.unit or "").startswith(("day", "week", "month"))
             and s.span.origin == "turn" and _DAYS_PASSED.search(s.before[-30:])}
    return next(iter(found.values())) if len(found) == 1 else None


def _by_days_passed(turn: str, slots: list[Slot], rule: LateRule) -> Worked | None:
    """The fine owed when the question tells how many days have passed since the notice, not its date; None when it
    tells none, or an approximate count near the rule's own ("about 21 days" for 21)."""
    told = _told_days(slots)
    if told is None or told.number != int(told.number):
        return None
    approximate = bool(_APPROXIMATE.search(f"{told.before[-20:]} {told.after[:15]}"))
    unit = (told.unit or "").rstrip("s")
    # (weeks and months as the fewest days they can be: "about a month" is at least 25 days, "a month" 28)
    per = {"day": 1, "week": 7, "month": 25 if approximate else 28}[unit]
    passed = int(told.number) * per
    if approximate and abs(passed - rule.days) <= (3 if unit == "day" else 2):
        return None
    if unit == "week" and approximate and abs(passed - rule.days) < 7:
        return None
    late = passed >= rule.days
    if not late and unit != "day":
        return None  # ("a couple of weeks": fewer days than the rule, but how many more it may be is not known)
    total = rule.fine + rule.rise if late else rule.fine
    count = f"{passed} days" if unit == "day" else f"at least {passed} days"
    steps = [f"{count} since the notice (“{told.span.text}”), {'at least' if late else 'fewer than'} {rule.days} "
             f"(“{rule.days_words}”)",
             (f"{fmt_money(rule.fine)} (“{rule.fine_words}”) + {fmt_money(rule.rise)} (“{rule.rise_words}”) = "
              f"{fmt_money(total)}") if late else
             f"the fine is {fmt_money(rule.fine)} (“{rule.fine_words}”); left unpaid it rises by {fmt_money(rule.rise)} to "
             f"{fmt_money(rule.fine + rule.rise)}"]
    return Worked("late", rule.rise_words, told.span.text, total, steps, False, rule.sentence, others=(rule.fine_sentence,))


def date_needed(turn: str, slots: list[Slot], picked: list[tuple[str, str]]) -> LateRule | None:
    """The late rise that decides what is owed, when the question asks what is owed now and gives no date (nor the
    days passed since the notice)."""
    if not asks_owed(turn) or any(s.kind == "date" for s in slots) or _told_days(slots) is not None:
        return None
    return rule_in(picked)
