"""Slot safety: a calculator runs only on values the user wrote.

Every date or number argument of a calculator call must come from a distinct span of the
conversation (a ``reading.Slot``) or from a default the route declares; one span never
fills two arguments (unless the user said so: "3 hours *each*"); when another value of the
same kind is as likely to be the one meant, the answer asks, naming the argument and the
candidates. Pure functions over the Query and the arguments.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from assistant.answering.reading import WEEKDAYS, WORDED, Query, added_to, Slot, describe, trace_value
from assistant.retrieval.lexical import stems

# arguments that name a choice (which rule, which permit, which municipality), not a value read
CHOICE_ARGUMENTS = frozenset({"municipality", "rule", "permit_type", "applicant", "situation", "use", "kind",
                              "pavement", "direction", "address", "emergency", "wet_area", "lugged_wheels",
                              "temporary_limit_posted"})
# a value written once may fill the same field of several items only when the words distribute it
DISTRIBUTIVE = re.compile(r"\b(each|both|apiece|every one|all of them|all three|all two|same (?:rate|hours)|"
                          r"their (?:\w+ ){0,2}rate)\b", re.I)  # "their hourly rate ... is $38.50": one rate for all
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
GENERIC_CUE_STEMS = stems("the a an of in on at for to date amount number value cost")


@dataclass(frozen=True)
class ReadValue:
    argument: str  # path: "employees[1].hours"
    label: str  # "hours (employee 2)"
    value: str
    slot: Slot | None = None
    default: str | None = None
    derived: str | None = None

    def line(self) -> str:
        if self.derived is not None:
            return f"{self.label} {self.derived}"
        if self.slot is not None:
            shown = describe(self.slot)
            said = self.slot.span.text
            if self.slot.kind == "money" and " + " in self.slot.worked:  # "“$2,500” + “$750”": a sum, in the words said
                return f"{self.label} {shown} ({self.slot.worked})"
            if self.slot.worked:  # ("a week later": from the day said before)
                return f"{self.label} {shown} (“{said}”, {self.slot.worked})"
            return f"{self.label} {shown}" + ("" if _same(shown, said) else f" (“{said}”)")
        if self.derived is not None:
            return f"{self.label} {self.derived}"
        return f"{self.label} {self.default}"


@dataclass(frozen=True)
class Unsafe:
    argument: str
    label: str
    candidates: tuple[str, ...] = ()
    reason: str = "missing"  # missing | shared | competing | accounts (two accounts of one value)


def _same(a: str, b: str) -> bool:
    return re.sub(r"[^0-9a-z]", "", a.lower()) == re.sub(r"[^0-9a-z]", "", b.lower())


def _is_value(v: Any) -> bool:
    if isinstance(v, bool) or v is None:
        return False
    if isinstance(v, (int, float, Decimal, date, datetime)):
        return True
    if isinstance(v, str):
        if re.match(r"^\d{4}-\d\d-\d\d", v):
            return True
        try:
            Decimal(v)
            return True
        except InvalidOperation:
            return False
    return False


LABELS = {"event": "date counted from", "excavation": "date of the excavation"}


def _label(path: str) -> str:
    if path in LABELS:
        return LABELS[path]
    path = re.sub(r"_(ft|in|tons|percent)$", "", path)
    m = re.match(r"(\w+)\[(\d+)\]\.(\w+)$", path)
    if m:
        item = m.group(1).rstrip("s").replace("_", " ")
        nth = ORDINALS[int(m.group(2))] if int(m.group(2)) < len(ORDINALS) else f"next {item}"
        return f"{m.group(3).replace('_', ' ')} ({nth} {item})"
    return path.replace("_", " ")


def flatten(arguments: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """(path, field, value) for every date or number argument (choices left out)."""
    out = []
    for key, v in arguments.items():
        if key in CHOICE_ARGUMENTS:
            continue
        if isinstance(v, list):
            for i, item in enumerate(v):
                if isinstance(item, dict):
                    out += [(f"{key}[{i}].{k}", k, x) for k, x in item.items() if k not in CHOICE_ARGUMENTS and _is_value(x)]
                elif _is_value(item):
                    out.append((f"{key}[{i}]", key, item))
        elif _is_value(v):
            out.append((key, key, v))
    return out


# words that set another party's value against this one ("one makes $36 an hour, the other forty-two")
OTHER_PARTY = re.compile(r"\b(?:the other|another|other one|second one|whereas)\b", re.I)


def _distributes(slot: Slot) -> bool:
    """Do the words beside this value give it to several ("1.5 hours each", "both at $40 an hour")? The
    distributing word must sit in the value's own sentence, and no word there sets another party's value
    against it ("thirty-six bucks an hour, the other forty-two, both with benefits" gives $36 to one)."""
    window = re.split(r"[.;!?](?:\s|$)", slot.before)[-1] + " " + re.split(r"[.;!?](?:\s|$)", slot.after)[0]
    return bool(DISTRIBUTIVE.search(window)) and not OTHER_PARTY.search(window)


def _cued(slot: Slot, cue: set[str]) -> bool:
    cue = {c for c in cue if len(c) > 1}  # ("the Town's bill": the "s" of "that's" is no cue)
    return bool(cue and stems(slot.before[-45:] + " " + slot.after[:30]) & cue)


# the measure a length's own words name ("5 feet wide", "60 feet long", "width of 5 feet")
_DIMENSIONS = {"wide": "width", "width": "width", "long": "length", "length": "length", "deep": "depth",
               "depth": "depth", "thick": "thickness", "thickness": "thickness", "high": "height", "tall": "height",
               "height": "height", "across": "width", "frontage": "length", "storefront": "length",
               "store front": "length"}
# ("a walk 5 feet across" is a width; "66 feet of frontage" a length along the street)
_DIMENSION_AFTER = re.compile(r"^\s*-?\s*(?:of\s+\w+\s+|of\s+(?=frontage|store\s?front))?(wide|width|long|length|deep|depth|"
                              r"thick|thickness|high|tall|height|across|frontage|storefront|store front)\b")
_DIMENSION_BEFORE = re.compile(r"\b(width|length|depth|thickness|height)\s+(?:of|is|was|will be|:)?\s*(?:about\s+)?$")


def dimension(slot: Slot) -> str | None:
    """The measure a length's own words name (width, length, depth, thickness, height), or None."""
    if slot.kind != "length":
        return None
    m = _DIMENSION_AFTER.match(slot.after) or _DIMENSION_BEFORE.search(slot.before)
    return _DIMENSIONS[m.group(1).lower()] if m else None


def _argument_dimension(field_name: str) -> str | None:
    return next((d for d in ("width", "length", "depth", "thickness", "height") if d in field_name), None)


def _kin(a: Slot, b: Slot) -> bool:
    return a.kind == b.kind and (a.unit == b.unit or a.kind in ("date", "money"))


def trace(arguments: dict[str, Any], query: Query, defaults: dict[str, str] | None = None,
          derived: dict[str, str] | None = None, cues: dict[str, str] | None = None,
          sources: dict[str, Slot] | None = None, alone: bool = True,
          one_party: bool = False) -> tuple[list[ReadValue], Unsafe | None]:
    """What each argument was read from; or the first argument that is not safe to use.
    ``sources`` are the slots a reading of roles chose (it has settled their competition); ``alone``: no other step
    of the same working reads values of its own; ``one_party``: the query is one party's part of a question about
    several."""
    defaults, derived, cues, sources = defaults or {}, derived or {}, cues or {}, sources or {}
    read: list[ReadValue] = []
    used: dict[tuple, str] = {}  # span -> field that took it
    for path, field_name, value in flatten(arguments):
        label = _label(path)
        text = value.isoformat() if isinstance(value, (date, datetime)) else str(value)
        if path in derived or field_name in derived:
            # (its source, when a reading of roles gave one, is kept: a value set against it still competes)
            read.append(ReadValue(path, label, text, slot=sources.get(path), derived=derived.get(path) or derived[field_name]))
            continue
        if path not in sources and (path in defaults or field_name in defaults):
            # the route declared it did not read this one: the default, never a chance equal value
            read.append(ReadValue(path, label, text, default=defaults.get(path) or defaults[field_name]))
            continue
        candidates = [sources[path]] if path in sources else trace_value(value, query)
        if path in sources and candidates[0].kind != "date" and Decimal(candidates[0].value) != Decimal(text):
            candidates = []  # a source that does not hold the value is no source
        if not candidates:
            if path in defaults or field_name in defaults:
                read.append(ReadValue(path, label, text, default=defaults.get(path) or defaults[field_name]))
                continue
            return read, Unsafe(path, label, reason="missing")
        free = [s for s in candidates if _key(s) not in used]
        if free:
            slot = free[0]
        else:
            slot = candidates[0]
            if not (used.get(_key(slot)) == field_name and "[" in path and _distributes(slot)):
                return read, Unsafe(path, label, (slot.span.text,), reason="shared")
        used[_key(slot)] = field_name
        read.append(ReadValue(path, label, text, slot=slot))
    for r in read:
        # "I put down two thousand five for the deposit": $2,005, or "two thousand five (hundred)" said short — asked
        other = spoken_short(r.slot) if r.slot is not None and r.derived is None else None
        if other is not None:
            return read, Unsafe(r.argument, r.label, (r.slot.span.text, *other), reason="readings")
        other = misgrouped(r.slot) if r.slot is not None and r.derived is None else None
        if other is not None:
            # "a bill that says $1,2000": $1,200 with a digit too many, or $12,000 with the comma misplaced — asked
            return read, Unsafe(r.argument, r.label, other, reason="misgrouped")
        unsure = unsure_of(r.slot, query.turn) if r.slot is not None and r.derived is None else None
        if unsure is not None:
            # "around midnight last night - not sure if it was just before or just after 12": the user doubts the value
            return read, Unsafe(r.argument, r.label, (unsure,), reason="unsure")
        # (a day and hour joined into one moment is still the day the words gave: its weekday is checked too)
        other_day = weekday_disagrees(r.slot) if r.slot is not None else None
        if other_day is not None:
            # "starts Wednesday, April 18" when April 18 is a Tuesday: the weekday and the date name two days — asked
            return read, Unsafe(r.argument, r.label, other_day, reason="weekday")
        if r.slot is not None and r.derived is None and r.slot.kind == "money" and ROUGH_AMOUNT.match(r.slot.span.text):
            # "a couple grand as a deposit": about $2,000, not an amount to work a balance from
            return read, Unsafe(r.argument, r.label, (r.slot.span.text,), reason="rough")
    # (a derived value's source is not taken: it may still be another argument's rival, as before it was kept)
    taken = {_key(r.slot) for r in read if r.slot is not None and r.derived is None}
    seen = {_key(r.slot) for r in read if r.slot is not None}
    # a rate per unit the story gives is never a passing mention: one left unused where rates of its kind
    # were used ("my walk: $43.00/hr; my neighbor's: $39.60 and $36.80 an hour") means the reading dropped
    # someone's, whatever reading of roles chose the others — ask which
    for r in read:
        if r.slot is None or r.slot.kind != "money" or "/" not in (r.slot.unit or ""):
            continue
        # (a rate a reading of roles gave several workers is used, not left)
        left = [x for x in query.slots if x.kind == "money" and x.unit == r.slot.unit and _key(x) not in taken
                and _key(x) not in seen and x.span.origin == r.slot.span.origin]
        if left:
            used_rates = [x.slot for x in read if x.slot is not None and x.slot.unit == r.slot.unit]
            options = sorted({_key(x): x for x in (*used_rates, *left)}.values(), key=lambda x: x.span.start)
            return read, Unsafe(r.argument, r.label, tuple(x.span.text for x in options), reason="competing")
    # competing spans: another value of the same kind, not used by any argument, that the words
    # tie to this argument as well as (or better than) the one used
    each = _asks_each_party(query) and not one_party
    for r in read:
        field_name = r.argument.split(".")[-1].split("[")[0]
        cue = stems((cues.get(r.argument) or cues.get(field_name) or field_name.replace("_", " "))) - GENERIC_CUE_STEMS
        one_of = r.slot is not None and r.slot.span.origin == "turn" and _one_of_them(query, cue)
        if r.slot is None or (r.argument in sources and not ((each or one_of) and r.slot.span.origin == "turn"
                                                             and alone)):
            continue  # (a value a reading of roles chose is settled, unless each of several is asked about and
            # the working has one step: steps that read other values, "my neighbor's dated today", are one per party)
        rivals = [s for s in query.slots if _kin(s, r.slot) and _key(s) not in taken and s.value != r.slot.value]
        if query.clarified and r.slot.span.origin == "turn":
            # a value the user gave in reply to our question settles it: the earlier turn's values are what was asked about
            rivals = [s for s in rivals if s.span.origin == "turn"]
        # ("in the house since 1994 ... assigned us a new number on December 14": a year alone names no day to count
        # from, so it is no rival for a day)
        rivals = [s for s in rivals if not (s.kind == "date" and s.precision == "year" and r.slot.kind == "date"
                                            and r.slot.precision == "day")]
        measure = _argument_dimension(field_name)
        # "5 feet wide, 60 feet long": the length is no rival for the width; "16 feet wide" none for a rise
        rivals = [s for s in rivals if dimension(s) in (None, measure)]
        # ("measures about 4 inches. The contractor says code only needs two and a half inches": what someone says
        # the code asks is a limit told, no rival for the user's own measurement)
        from assistant.answering.limits import told_limit

        if not told_limit(r.slot):
            rivals = [s for s in rivals if not told_limit(s)]
        if not rivals:
            continue
        mine = _cued(r.slot, cue) or (measure is not None and dimension(r.slot) == measure)
        theirs = [s for s in rivals if _cued(s, cue)]
        if not theirs and _asks_each_party(query) and r.slot.span.origin == "turn":
            # "Estimate for my stretch is $3,240 and for his it's $1,870. What does each of us pay?": a value of the
            # same kind left unread is another party's own, not a passing mention — one calculation each, or asked
            theirs = [s for s in rivals if s.span.origin == "turn"]
        if not theirs and one_of:
            # "I paid one of the bills right away but the other's been sitting unpaid": which value is which is
            # not said, whatever words sit beside each
            theirs = [s for s in rivals if s.span.origin == "turn"]
        if theirs or not mine:
            options = (r.slot, *(theirs or rivals))
            accounts = any(_between_reason(query, r.slot, x) == "accounts" for x in options[1:])
            return read, Unsafe(r.argument, r.label, tuple(s.span.text for s in options),
                                reason="accounts" if accounts else "competing")
    # a value the words set against the one used ("starting March 9, but our application says March 11",
    # "estimated $2,640 and later revised it to $2,895", "his came to $2,214 and mine to $1,781"): they compete
    # for it, whatever reading of roles chose one
    for r in read:
        if r.slot is None:
            continue
        for s in query.slots:
            if not _kin(s, r.slot) or _key(s) in taken or s.value == r.slot.value or s.span.origin != r.slot.span.origin:
                continue
            if s.kind == "date" and s.precision == "year" and r.slot.precision == "day":
                continue  # (a year alone names no day: no rival for one)
            a, b = sorted((r.slot, s), key=lambda x: x.span.start)
            if any(_kin(x, a) and x.span.origin == a.span.origin and a.span.end <= x.span.start < b.span.start
                   for x in query.slots):
                continue  # not next to each other
            between = query.source(a.span.origin)[a.span.end:b.span.start]
            if r.argument in sources and "(" in between and ")" not in between.rsplit("(", 1)[1]:
                continue  # ("... notice this past Friday on the policy ... (permit was issued last October)": a value
                # in brackets after the one a reading of roles chose is an aside, not set against it)
            why = _set_against(between)
            if why == "competing" and r.derived is not None and not ALTERNATIVE.match(between):
                continue  # a value a reading of roles derived has settled which one counts ("the estimate, not the bill")
            if why:
                return read, Unsafe(r.argument, r.label, (a.span.text, b.span.text), reason=why)
    # two accounts of one value given to two items of a list ("two workers ... my neighbor says 45 minutes, my wife
    # says an hour and a half"): one value told twice, not one per item — which one is asked
    for i, r in enumerate(read):
        if r.slot is None or "[" not in r.argument:
            continue
        for o in read[i + 1:]:
            if o.slot is None or o.argument.split(".")[-1] != r.argument.split(".")[-1] or o.slot.value == r.slot.value \
                    or _key(o.slot) == _key(r.slot):
                continue
            if _told_by_two(query, r.slot, o.slot):
                a, b = sorted((r.slot, o.slot), key=lambda x: x.span.start)
                return read, Unsafe(r.argument, r.label, (a.span.text, b.span.text), reason="accounts")
    # amounts listed as parts of one sum ("$1,240 in time, $830 in materials and $115 administrative") where
    # one of them filled an argument and the others none: the argument may be their sum — asked, never one part
    for r in read:
        if r.slot is None or r.slot.kind != "money" or "/" in (r.slot.unit or "") or r.derived is not None:
            continue
        chain = _listed_with(query, r.slot)
        left = [x for x in chain if _key(x) not in seen]
        if left:
            return read, Unsafe(r.argument, r.label, tuple(x.span.text for x in chain), reason="parts")
    # an amount the words add another to ("$2,500 for the slabs plus $750 for the apron") where the other filled no
    # argument: the argument may be their sum — asked, never one part
    for r in read:
        if r.slot is None or r.slot.kind != "money" or "/" in (r.slot.unit or "") or r.derived is not None:
            continue
        text = query.source(r.slot.span.origin)
        same = sorted((x for x in query.slots if x.span.origin == r.slot.span.origin), key=lambda x: x.span.start)
        for x in same:
            if x.kind != "money" or "/" in (x.unit or "") or _key(x) in seen or _key(x) == _key(r.slot) or (
                    r.slot.span.start <= x.span.start and x.span.end <= r.slot.span.end):
                continue
            a, b = sorted((r.slot, x), key=lambda y: y.span.start)
            if b.span.start >= a.span.end and added_to(a, b, text, same):
                return read, Unsafe(r.argument, r.label, (a.span.text, b.span.text), reason="parts")
    # an amount the words add to with a number not read as money ("two and a half grand for the slabs plus another
    # seven fifty"): the argument is likely their sum, which is not read — asked, never the first part alone
    for r in read:
        if r.slot is None or r.slot.kind != "money" or "/" in (r.slot.unit or "") or r.derived is not None:
            continue
        text = query.source(r.slot.span.origin)
        more = _ADDED_NUMBER.match(text, r.slot.span.end)
        if more and not any(x.span.origin == r.slot.span.origin and x.span.start <= more.start("n") < x.span.end
                            for x in query.slots):  # (a number read as another kind, "plus two hours", is not added)
            return read, Unsafe(r.argument, r.label, (r.slot.span.text, more.group("n")), reason="parts")
    # a moment (date and time) whose time of day two accounts give differently ("we cut the street at
    # 11:45 PM, the dispatch log says 12:10 AM Friday"): the hour, and perhaps the day, is not settled
    for r in read:
        if r.slot is None or "T" not in r.value:
            continue
        times = sorted((t for t in query.slots if t.kind == "time" and t.span.origin == r.slot.span.origin),
                       key=lambda t: t.span.start)
        for a, b in zip(times, times[1:]):
            between = query.source(a.span.origin)[a.span.end:b.span.start]
            why = _set_against(between) if a.value != b.value else None
            if why:
                return read, Unsafe(r.argument, r.label, (a.span.text, b.span.text), reason=why)
    return read, None


SET_AGAINST = re.compile(r"\b(?:but|however|although|though|whereas|instead|revised|revises|changed|updated|corrected|"
                         r"amended)\b|\band (?:(?:for|on) )?(?:mine|his|hers|theirs|ours|yours|the other(?:'s)?|the second)\b", re.I)
# two accounts of one value within one sentence: "one neighbor swears August 2022, the other says August 2024",
# "my foreman says 11:45 PM, the dispatch log says 12:10 AM"
TWO_ACCOUNTS = re.compile(r"^[^.!?;]*\b(?:says|said|claims?|claimed|swears?|swore|thinks|reckons|insists?|according to)\b"
                          r"[^.!?;]*$", re.I)
# "..., the other August 2024": an elliptical second account (a longer "and another plumber for a lateral he wrapped up"
# is a second party doing its own, not a second account)
_ELLIPTICAL_OTHER = re.compile(r"^[\s,;:-]*(?:and\s+|but\s+)?(?:the other(?: one)?|another)[\s,:-]*(?:\w+\s+){0,2}$", re.I)
# the question asks about each of several parties ("what does each of us pay", "the deadline for each of us")
ASKS_EACH_PARTY = re.compile(r"\beach\s+of\s+(?:us|them|you|those|these|the\s+\w+)\b|\bfor\s+each\b|"
                             r"\bon\s+each\s+(?:one|notice|permit|bill|letter|form|application)\b|"
                             r"\bboth\s+of\s+(?:us|them)\b|\bwho\s+(?:owes|pays|gets|is\s+owed)\s+what\b|\bapiece\b|"
                             r"\brespectively\b", re.I)


# two things told apart only as "one of them" and "the other": which of the values is which is unknown
_ONE_OF_THEM = re.compile(r"\bone\s+of\s+(?:the|those|these|my|our|his|her|their)\s+(?P<thing>[a-z]+)\b[^.?!]{0,80}?"
                          r"\bthe\s+other(?:['’]s|\s+one)?\b", re.I)


def _one_of_them(query: Query, cue: set[str]) -> bool:
    """"I paid one of the bills ... the other's unpaid", of an argument its cue ties to those things (a bill)."""
    m = _ONE_OF_THEM.search(query.turn)
    return m is not None and bool(stems(m.group("thing")) & cue)


# two values offered as alternatives, the user unsure which ("it was either $2,000 or $2,500", "Monday or Tuesday"):
# whatever reading of roles chose one, neither is known
ALTERNATIVE = re.compile(r"^[\s,]*(?:or|or maybe|or perhaps|or possibly|or else|or was it|or it may have been|"
                         r"or it might have been|or it could have been)[\s,]*$", re.I)


# "my neighbor says 45 minutes, my wife says an hour and a half": who told each value, not whose it is
_SAYS = re.compile(r"^[^.!?;]*\b(?:says|said|claims?|claimed|swears?|swore|thinks|thought|reckons|insists?|insisted|"
                   r"according to|remembers?|recalls?)\b[^.!?;]*$", re.I)


def _asks_each_party(query: Query) -> bool:
    asking = " ".join(s for s in re.split(r"(?<=[.!?])\s+", query.turn) if "?" in s)
    # ("What does she owe and what do I owe?", "how much for me and how much for my neighbor?": the asker and another,
    # each asked about)
    both = _ASKER_WORD.search(asking) and _OTHER_WORD.search(asking) and re.search(r"\band\b", asking, re.I)
    return bool(ASKS_EACH_PARTY.search(asking) or both)


_ASKER_WORD = re.compile(r"\b(?:i|me|my|mine|we|us|our|ours)\b", re.I)
_OTHER_WORD = re.compile(r"\b(?:she|he|her|him|his|hers|neighbou?r(?:'s|’s)?|the other(?:\s+\w+)?)\b", re.I)


def _told_by_two(query: Query, a: Slot, b: Slot) -> bool:
    """Two values of one sentence each told by someone else's word ("X says ..., Y says ...")."""
    if a.span.origin != b.span.origin:
        return False
    a, b = sorted((a, b), key=lambda x: x.span.start)
    between = query.source(a.span.origin)[a.span.end:b.span.start]
    return len(between) <= 60 and bool(_SAYS.search(between))


def _between_reason(query: Query, a: Slot, b: Slot) -> str | None:
    if a.span.origin != b.span.origin:
        return None
    a, b = sorted((a, b), key=lambda x: x.span.start)
    return _set_against(query.source(a.span.origin)[a.span.end:b.span.start])


def _set_against(between: str) -> str | None:
    """"competing" (two values set against each other), "accounts" (two accounts of one value: never two
    parties' own values) or None."""
    if len(between) <= 60 and (TWO_ACCOUNTS.search(between) or _ELLIPTICAL_OTHER.match(between)):
        return "accounts"
    if ALTERNATIVE.match(between):
        return "competing"
    return "competing" if len(between) <= 120 and SET_AGAINST.search(between) else None


# what joins the items of a list of amounts: "$1,240 in time, $830 in materials and $115", "$400 plus $85"
_LIST_JOIN = re.compile(r"^\s*(?:(?:in|of|for|on)\s+)?(?:[a-z-]+\s+){0,2}?[a-z-]*\s*(?:,\s*(?:and|plus)?|\band\b|\bplus\b|\+)\s*$",
                        re.I)
_NOT_A_PART = re.compile(r"\b(?:mine|his|hers|theirs|ours|yours|other|neighbor|then|later|but|or)\b", re.I)


_ADDED_NUMBER = re.compile(rf"[^.;!?$\d]{{0,50}}?\b(?:plus|and another|and an additional|and an extra)\s+(?:another\s+)?"
                           rf"(?P<n>\$?\s?\d[\d,]*(?:\.\d+)?|{WORDED.pattern})", re.I)


def _listed_with(query: Query, slot: Slot) -> list[Slot]:
    """The money amounts listed with ``slot`` as items of one list (itself included, in order), or [] when it
    stands alone."""
    money = sorted((x for x in query.slots if x.kind == "money" and "/" not in (x.unit or "")
                    and x.span.origin == slot.span.origin), key=lambda x: x.span.start)
    text = query.source(slot.span.origin)

    def joined(a: Slot, b: Slot) -> bool:
        between = text[a.span.end:b.span.start]
        return bool(_LIST_JOIN.match(between)) and not _NOT_A_PART.search(between)

    i = next((k for k, x in enumerate(money) if _key(x) == _key(slot)), None)
    if i is None:
        return []
    a = b = i
    while a > 0 and joined(money[a - 1], money[a]):
        a -= 1
    while b + 1 < len(money) and joined(money[b], money[b + 1]):
        b += 1
    return money[a:b + 1] if b - a >= 2 else []  # (three amounts or more: two are too often two parties')


def _key(s: Slot) -> tuple:
    return (s.span.origin, s.span.start, s.span.end)


def read_line(read: list[ReadValue]) -> str:
    """'I read: hours (employee 1) 1.5 hours; hourly rate (employee 1) $42.50; occasions 1.'"""
    if not read:
        return ""
    return "I read: " + "; ".join(r.line() for r in read) + "."


_DIGIT_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
# "two thousand five": a thousands amount and one lone digit word after it, no "hundred" and no "and"
_THOUSAND_AND_DIGIT = re.compile(r"\bthousand[\s-]+(?P<d>%s)\s*$" % "|".join(_DIGIT_WORDS), re.I)


# an amount said roughly: "a couple grand", "a couple hundred bucks", "a few hundred dollars"
ROUGH_AMOUNT = re.compile(r"^\s*(?:a\s+couple(?:\s+of)?|a\s+pair\s+of|a\s+few|several)\s+(?:hundred|thousand|grand|k)\b",
                           re.I)


# a figure whose thousands commas are not in threes ("$1,2000", "12,00,0"): it reads as written with the commas
# dropped, or as the figure the commas mark with a digit too many — the user may have meant either
_RUN_ON = re.compile(r"^[\d,]*\d")


def misgrouped(slot: Slot) -> tuple[str, str, str] | None:
    """The figure as written and its two readings when its digits run on past the figure read ("$1,2000" read
    $1,200 with a 0 left over, or $12,000 with the comma misplaced); None when the figure is written cleanly."""
    if slot.kind not in ("money", "length", "weight", "count") or "," not in slot.span.text:
        return None
    tail = _RUN_ON.match(slot.after)
    if tail is None:
        return None
    written = slot.span.text + tail.group(0)
    digits = re.sub(r"\D", "", written)
    head = "$" if slot.kind == "money" else ""
    whole = f"{head}{int(digits):,}"
    read = f"{head}{Decimal(slot.value):,}" if slot.kind == "money" else slot.span.text
    return written, read, whole


def spoken_short(slot: Slot) -> tuple[str, str] | None:
    """The two readings of an amount said short, in words (a figure the user did not give is never shown): "two
    thousand five" is "two thousand and five" as written, and "two thousand five hundred" as often said; None when
    the words read one way only ("two thousand five dollars", "two thousand five hundred")."""
    if slot.kind != "money":
        return None
    m = _THOUSAND_AND_DIGIT.search(slot.span.text)
    if m is None or re.search(r"\b(?:dollars?|bucks)\b", slot.after[:12]):
        return None
    head = slot.span.text[:m.start("d")].rstrip(" -")
    return f"{head} and {m.group('d')}", f"{head} {m.group('d')} hundred"


# ("Wednesday, April 18", "Wed. April 18"; a bare "sat" or "sun" is no weekday: "the truck sat March 3")
_WEEKDAY_SAID = re.compile(r"\b(?:(monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
                           r"(mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.)\s*,?\s*(?:the\s+)?$", re.I)


def weekday_disagrees(slot: Slot) -> tuple[str, str, str] | None:
    """A day written with a weekday that is not its own ("Wednesday, April 18" of a Tuesday): the weekday as written,
    and the two days the words may mean, each as "Tuesday, April 18, 2028" — the date as written and the nearest day
    of the weekday written; None when they agree or no weekday is written just before the date."""
    if slot.kind != "date" or slot.precision != "day" or not re.search(r"\d", slot.span.text):
        return None
    m = _WEEKDAY_SAID.search(slot.before[-16:])
    if m is None or slot.span.text.lower().startswith(("last ", "next ", "this ")):
        return None
    written = next(i for i, w in enumerate(WEEKDAYS) if w.startswith((m.group(1) or m.group(2)).lower()[:3]))
    day = slot.day
    if day.weekday() == written:
        return None
    shift = (written - day.weekday()) % 7
    other = day.fromordinal(day.toordinal() + (shift if shift <= 3 else shift - 7))
    show = lambda d: f"{d:%A}, {d:%B} {d.day}, {d.year}"  # noqa: E731
    return m.group(0).strip(" ,").capitalize(), show(day), show(other)


# the user says they do not know which of two a day or time was: "not sure if the first bucket went in just before or
# just after 12", "can't remember whether it was the 3rd or the 4th"
_UNSURE_WHICH = re.compile(r"\b(?:not\s+(?:\w+\s+)?sure|unsure|can['’]?t\s+(?:remember|recall|say)|"
                           r"(?:don['’]?t|do\s+not)\s+(?:know|remember|recall)|no\s+idea)\s+(?:if|whether|which)\b"
                           r"[^.?!;]{0,90}?\b(?:before\s+or\s+(?:just\s+)?after|or\s+(?:(?:just|maybe|it\s+was|on|at|"
                           r"was\s+it|right)\s+)*(?=\d|(?:mon|tues|wednes|thurs|fri|satur|sun)day|morning|afternoon|"
                           r"evening|night|midnight|noon|yesterday|today|tomorrow|the\s+(?:day|week|next|\d)))"
                           r"[^.?!;]{0,40}", re.I)


def unsure_of(slot: Slot, turn: str) -> str | None:
    """The user's words doubting a day or time they gave, in its own sentence ("not sure if the first bucket went in
    just before or just after 12"); None when they give it plainly."""
    if slot.kind not in ("date", "time") or slot.span.origin != "turn":
        return None
    for m in _UNSURE_WHICH.finditer(turn):
        lo, hi = sorted((m.start(), slot.span.start))
        if hi - lo <= 140 and not re.search(r"[.?!;]\s", turn[lo:hi]) or m.start() <= slot.span.start < m.end():
            return m.group(0).strip()
    return None


# (the two days as clarify_text names them, "Which do you mean: Tuesday, April 18, 2028 or Wednesday, April 19, 2028?")
_WEEKDAY_ASKED = re.compile(r"Which do you mean: (?P<a>[A-Z][a-z]+, [A-Z][a-z]+ \d{1,2}, \d{4}) or "
                            r"(?P<b>[A-Z][a-z]+, [A-Z][a-z]+ \d{1,2}, \d{4})\?")


def weekday_reply(asked: str, reply: str, earlier: str) -> tuple[str, str] | None:
    """A reply to "“Wednesday” and the date do not agree ... Which do you mean: Tuesday, April 18, 2028 or Wednesday,
    April 19, 2028?" that names one of the two (its weekday or its month and day): the earlier question with that day
    written in place of the weekday and date it gave, and the day chosen; None otherwise."""
    m = _WEEKDAY_ASKED.search(asked)
    if m is None:
        return None
    low = reply.lower()
    def names(day: str) -> bool:
        weekday, month_day = day.split(", ")[0].lower(), day.split(", ")[1].lower()
        return bool(re.search(rf"\b{weekday}\b", low) or re.search(rf"\b{re.escape(month_day)}\b", low))
    picked = [d for d in (m.group("a"), m.group("b")) if names(d)]
    if len(picked) != 1:
        return None
    as_written = m.group("a").split(", ")[1]  # "April 18": the date the earlier words gave
    fixed, n = re.subn(rf"\b[A-Za-z]{{3,9}}\.?,?\s+{re.escape(as_written)}(?:st|nd|rd|th)?(?:,?\s*\d{{4}})?",
                       picked[0], earlier, count=1)
    if not n:  # ("Monday the 30th": the weekday and the day of the month alone)
        fixed, n = re.subn(rf"\b[A-Za-z]{{3,9}}\s*,?\s*\(?the\s+{as_written.split()[1]}(?:st|nd|rd|th)\b\)?",
                           picked[0], earlier, count=1)
    return (fixed, picked[0]) if n else None


def clarify_text(unsafe: Unsafe) -> str:
    if unsafe.reason == "unsure":  # the user doubts the value
        return (f"the {unsafe.label}: you say you are not sure of it (“{unsafe.candidates[0]}”), and the answer depends "
                f"on it. Which was it?")
    if unsafe.reason == "weekday":  # "Wednesday, April 18" of a Tuesday
        said, as_written, other = unsafe.candidates
        return (f"the {unsafe.label}: “{said}” and the date do not agree — {as_written.split(',')[1].strip()} is a "
                f"{as_written.split(',')[0]}. Which do you mean: {as_written} or {other}?")
    if unsafe.reason == "rough":  # "a couple grand": no exact amount
        return f"the {unsafe.label}: “{unsafe.candidates[0]}” is not an exact amount. What was it, in dollars?"
    if unsafe.reason == "misgrouped":  # "$1,2000": figures the user did not write are never shown
        return (f"the {unsafe.label}: “{unsafe.candidates[0]}” has a digit too many or a comma out of place, so it "
                "can be read two ways. What is the exact amount, in figures?")
    if unsafe.reason == "readings":  # words read two ways: "two thousand five"
        said, one, other = unsafe.candidates
        return f"the {unsafe.label}: “{said}” can mean {one} or {other}. Which is it (in figures)?"
    if unsafe.reason == "accounts":  # one value told two ways: asked without the item it was first given to
        opts = " or ".join(f"“{c}”" for c in unsafe.candidates)
        label = re.sub(r"\s*\((?:%s) [^)]*\)" % "|".join(ORDINALS), "", unsafe.label)
        return f"the {label}: the question gives two accounts of it. Is it {opts}?"
    if unsafe.reason == "competing":
        opts = " or ".join(f"“{c}”" for c in unsafe.candidates)
        return f"the {unsafe.label}: which is it, {opts}?"
    if unsafe.reason == "parts":
        opts = ", ".join(f"“{c}”" for c in unsafe.candidates)
        return (f"the {unsafe.label}: the question lists several amounts ({opts}). Is the {unsafe.label} their sum, "
                "or one of them? Please give it as one amount.")
    if unsafe.reason == "shared":
        return (f"the {unsafe.label}: “{unsafe.candidates[0]}” is already read as another value; "
                "please give each value separately.")
    return f"the {unsafe.label}."
