"""All answer wording of the embedded planner, in one place: leads, clarifying questions,
refusals, notes. Pure functions of what was decided; no figure is written here that the
caller did not pass in.
"""

from __future__ import annotations

from datetime import date

import re
from decimal import Decimal

from assistant.answering.formatting import fmt_date, fmt_money

CLARIFY_MUNI = "Which municipality do you mean"
CLARIFY_VALUE = "To work this out I need"
IGNORED_INSTRUCTION = "Part of the question asked me to change how I answer; that part was ignored."
OTHER_ASK = "On the rest of the question, the code says:"
QUOTED_AFTER_GUARD = ("The answer I worked out named a figure I could not trace to the code's text or a calculation, so "
                      "only the code's own sentences are shown.")


def coverage(municipalities) -> str:
    return "; ".join(f"{m.name} Code ch. {m.chapter} ({m.chapter_title})" for m in municipalities)


def refuse_input(problem: str) -> str:
    return f"I can't take that question: {problem}."


def refuse_evasion() -> str:
    return ("I can't help with getting around the code. I can tell you what it requires — for example "
            "which permits, notices and bonds apply to the work — with citations.")


def refuse_only_instructions(covered: str) -> str:
    return (f"I only answer questions about the municipal codes I hold {covered}. "
            "Instructions to change how I answer are ignored.")


def not_held(covered: str, place: str) -> str:
    return f"I only hold the codes of {covered}, not {place}."


def out_of_scope(why: str, covered: str) -> str:
    lead = why + " " if why else ""
    return (f"{lead}That is not covered by the chapters I hold: {covered}. "
            "Ask your municipal office about other topics.")


def clarify_municipality(text: str) -> str:
    return f"{CLARIFY_MUNI}: {text}"


def clarify_between(names: list[str]) -> str:
    return f"{CLARIFY_MUNI}: the " + " or the ".join(names) + "? Their codes differ on this."


def clarify_value(text: str) -> str:
    return f"{CLARIFY_VALUE} {text}"


def two_readings(said: str, readings) -> str:
    """An amount said as two numbers, read both ways: "“twelve-five” reads as $12,500 or $1,250: which is it?"."""
    return f"“{said}” reads as {fmt_money(readings[0])} or {fmt_money(readings[1])}: which is it?"


def clarify_rule(cases: int = 1) -> str:
    return "The provision it will apply:" if cases <= 1 else "The provisions, one for each case:"


def values_not_taken(problem: str) -> str:
    return f"the values again: the calculator could not take the ones read ({problem})."


def party_heading(label: str) -> str:
    """The party's own words, quoted ("**“118 Main” …**": a number in them is the user's, echoed)."""
    return f"**“{label}” …**"


def one_party(label: str) -> str:
    return f"The question gives figures for more than one party; it asks about “{label} …”, so only those are used."


def clarify_time_of_day(bare_hour: str | None = None) -> str:
    if bare_hour:  # "pouring at 6 this Saturday": the hour is said, whether morning or evening is not
        # (in words: a time the question does not write is no figure to state)
        if re.search(r"\b12(?::00)?\s*$", bare_hour.strip()):  # "quits at 12 on Saturday": noon or midnight
            return clarify_value(f"the time of day: is “{bare_hour.strip()}” noon or midnight (and if midnight, the one "
                                 "that starts the day or the one that ends it)? This period is counted in hours.")
        return clarify_value(f"the time of day: is “{bare_hour.strip()}” in the morning or the evening (a.m. or p.m.)? "
                             "This period is counted in hours.")
    return clarify_value("the time of day as well as the date (this period is counted in hours).")


def start_time_needed(words: str) -> str:
    """The hour a use limited to so many hours starts, asked ("for a period not to exceed three hours")."""
    return (f"the time it starts: “{words}” runs from the start, and the question gives no hour. What time does it "
            "start?")


def period_from_hour(event: str) -> str:
    """The offer that closes a period stated without its end ("the date and time the concrete was poured")."""
    return (f"It is counted in hours from the {event}. Tell me the hour as well as the day, and I will give the "
            "moment it ends.")


def only_code_covers(name: str) -> str:
    return f"The question names no municipality; only the {name} code covers this topic."


def code_that_addresses(name: str) -> str:
    return f"The question names no municipality; the {name} code is the one that addresses it."


_UNIT_WORDS = {"in": ("inch", "inches"), "ft": ("foot", "feet"), "tons": ("ton", "tons"), "%": ("%", "%"),
               "in/ft": ("inch per foot", "inches per foot")}


def quantity(value, unit: str) -> str:
    """'6 inches', '1 foot', '2.5 tons', '14%' (a Decimal, exact, trailing zeros dropped)."""
    text = format(value.normalize(), "f")
    one, many = _UNIT_WORDS.get(unit, (unit, unit))
    if unit == "%":
        return f"{text}%"
    return f"{text} {one if value == 1 else many}"


def quantity_also_inches(value, unit: str) -> str:
    """A length in feet that is not whole feet, also in inches: '0.5 feet (6 inches)'."""
    text = quantity(value, unit)
    if unit == "ft" and value != value.to_integral_value():
        return f"{text} ({quantity(value * 12, 'in')})"
    return text


def in_limit_unit(check) -> str | None:
    """The measurement in the limit's own unit when the two are written in different ones ("54 inches" against
    "within 5'": 4.5 feet); None when they share a unit or no exact conversion is known."""
    if check.measured.unit == check.limit.unit or {check.measured.unit, check.limit.unit} != {"in", "ft"}:
        return None
    value = check.measured.number / 12 if check.limit.unit == "ft" else check.measured.number * 12
    if value != value.quantize(Decimal("0.01")):
        return None  # ("2.95 inches" is 0.24583... feet: no figure worth stating)
    return quantity(value, check.limit.unit)


def limit_check(checks) -> str:
    """'I read: 42 inches (“42 inches”). Against “not less than four feet”: 42 inches is 6 inches short of 48 inches.'"""
    read = []
    for c in checks:  # (each measurement held up, once: "90 inches wide and 0.4 ft thick" reads two)
        if any(c.measured is x.measured for x in checks[:checks.index(c)]):
            continue
        how = f": {c.measured.worked}" if c.measured.worked else ""
        also = in_limit_unit(c)
        also = None if also == quantity(c.measured_value, c.unit) else also
        read.append(f"{quantity(c.measured_value, c.unit)} (“{c.measured.span.text}”{how}){f', {also}' if also else ''}")
    parts = [f"I read: {'; '.join(read)}."]
    for c in checks:
        kind = "a minimum" if c.limit.bound == "min" else "a maximum"
        m, lim, diff = (quantity(c.measured_value, c.unit), quantity(c.limit_value, c.unit),
                        quantity_also_inches(c.difference, c.unit))
        if c.difference == 0:
            verdict = f"{m} is exactly the limit"
        elif c.passes:
            verdict = f"{m} is within it ({diff} {'more' if c.limit.bound == 'min' else 'less'} than {lim})"
        else:
            verdict = (f"{m} is {diff} short of {lim}" if c.limit.bound == "min"
                       else f"{m} is {diff} more than {lim}")
        if c.required is not None:  # "the full depth of the existing pavement or seven inches, whichever is greater"
            which = "greater" if c.limit.bound == "min" else "lesser"
            if c.of_the_other:  # the question says the measurement is the other measure ("the existing slab")
                parts.append(f"Against “{c.limit.words}” (the {which} of another measure and {lim}, quoted below): "
                             f"with {m} as that measure, the requirement is **{quantity(c.required, c.unit)}**.")
                continue
            parts.append(f"Against “{c.limit.words}” (the {which} of another measure and {lim}, quoted below): if "
                         f"{m} is that other measure, the requirement is **{quantity(c.required, c.unit)}**; if it "
                         f"is what is built, {verdict}.")
            continue
        parts.append(f"Against “{c.limit.words}” ({kind}, quoted below): {verdict}.")
    return " ".join(parts)


def rate_worked(worked) -> str:
    """'Worked out from the rate quoted below: 7 newsracks (“7 newsracks”) × $25.00 (“...”) = $175.00 — **$175.00**.'"""
    most = "at most " if worked.maximum else ""
    source = "the provision quoted below" if worked.kind == "difference" else "the rate quoted below"
    if worked.kind in ("rise", "grade"):
        source = "the slope quoted below"
    if worked.kind == "remainder":
        source = "the distance kept clear quoted below"
    if worked.kind == "clear":
        source = "the clear width quoted below"
    if worked.kind == "daily":
        source = "the fee and the charge by the day quoted below"
    if worked.kind == "factor":
        source = "the conversion quoted below"
    if worked.kind == "late":
        source = "the fine and its rise quoted below"
    if worked.kind == "plus":
        source = "the depth quoted below"
    if worked.kind == "per_area":
        source = "the rate of application quoted below"
    return f"Worked out from {source}: {'; '.join(worked.steps)} — {most}**{worked.shown()}**."


def portion_worked(portion) -> str:
    """'I read: 33 feet (“thirty-three feet”). “not more than 1/3 of any street” (quoted below): 1/3 of 33 feet
    is **11 feet**.'"""
    u = portion.measured.unit
    if portion.measured.kind == "count":  # "not less than 70% of the residents" of 23: 16.1, so at least 17
        share = (f"{format((Decimal(100) * portion.numerator / portion.denominator).normalize(), 'f')}%"
                 if (100 * portion.numerator) % portion.denominator == 0 else f"{portion.numerator}/{portion.denominator}")
        made = ""
        if portion.rounded:
            made = (f"{format(portion.raw.normalize(), 'f')}; {'at least' if portion.rounded == 'up' else 'at most'} "
                    "that, counted in whole ones, is ")
        return (f"I read: {quantity(portion.measured.number, u)} (“{portion.measured.span.text}”). “{portion.words}” "
                f"(quoted below): {share} of {quantity(portion.measured.number, u)} is {made}"
                f"**{quantity(portion.value, u)}**.")
    about = "" if portion.exact else " (to the hundredth)"
    return (f"I read: {quantity(portion.measured.number, u)} (“{portion.measured.span.text}”). “{portion.words}” "
            f"(quoted below): {portion.numerator}/{portion.denominator} of {quantity(portion.measured.number, u)} is "
            f"**{quantity(portion.value, u)}**{about}.")


def period_counted(counted) -> str:
    """'I read: July 4, 2027 (“July 4, 2027”). “at least one month prior to”: **June 4, 2027** (before it, ...).'"""
    text = _period_counted(counted)
    done = getattr(counted, "done", None)
    if done is not None and counted.in_time() is not None:
        last = counted.day.date() if hasattr(counted.day, "date") else counted.day
        late = (done.day - last).days
        verdict = ("on the last day itself: still in time" if late == 0 else "before the last day: in time" if late < 0
                   else f"{late} day{'s' if late != 1 else ''} after the last day: too late")
        text += f" Done on {fmt_date(done.day)} (“{done.span.text}”): {verdict}."
    return text


def _period_counted(counted) -> str:
    if getattr(counted, "daylight", ()):
        # hours counted in daylight only, from the sunrise and sunset the user gives
        sun = counted.daylight_sun
        day = "" if counted.any_day else f" on {fmt_date(counted.begun.date())} (“{counted.start.span.text}”)"
        when = (counted._end_day() if counted.any_day else fmt_date(counted.day.date())
                if counted.day.date() != counted.begun.date() else "the same day")
        unsure = f", {counted.daylight_unsure}" if counted.daylight_unsure else ""
        return (f"I read: {counted.begun:%-I:%M %p} (“{counted.at.span.text}”){day}; {sun}. “{counted.words}”, counted "
                f"in daylight only: {'; '.join(counted.daylight)} — **{counted.day:%-I:%M %p}** {when}{unsure}.")
    if getattr(counted, "any_day", False) and counted.start.kind == "time":  # an hour with no day: "starting at 9 am"
        return (f"I read: {counted.begun:%-I:%M %p} (“{counted.start.span.text}”). “{counted.words}”: "
                f"**{counted.day:%-I:%M %p}** {counted._end_day()} (hours counted on the clock).")
    if getattr(counted, "any_day", False):
        at = f"“{counted.at.span.text}”" if counted.at is not None else "the hour given"
        return (f"I read: {counted.begun:%-I:%M %p} ({at}) on a day of “{counted.start.span.text}”. “{counted.words}”: "
                f"**{counted.day:%-I:%M %p}** that same day, whichever day of it it was (hours counted on the clock).")
    way = "before" if counted.backward else "after"
    start = fmt_date(counted.begun or counted.start.day)
    said = f"“{counted.start.span.text}”" + (f", “{counted.at.span.text}”" if getattr(counted, "at", None) else "")
    if getattr(counted, "either", False):  # "next Thursday": each of its two readings, said as one
        how = "counted on the calendar; your state's rule of counting time not applied"
        if getattr(counted, "rule", ""):
            how = f"counted under the {counted.rule}: the day of the event left out" + (
                f"; {fmt_date(counted.moved_from)} is not a day it may end on, so it moves" if counted.moved_from else "")
        return f"If {said} is {start}: “{counted.words}” gives **{fmt_date(counted.day)}** ({way} it, {how})."
    if getattr(counted, "business", ""):
        return (f"I read: {start} ({said}). “{counted.words}”: **{fmt_date(counted.day)}** ({way} it, counted in "
                f"business days: {counted.business}; the municipality's own closing days may differ).")
    if getattr(counted, "yearly", False):
        return (f"I read: {start} ({said}). “{counted.words}”: **{fmt_date(counted.day)}** (the first such day after "
                "it).")
    if getattr(counted, "rule", ""):
        moved = (f"; {fmt_date(counted.moved_from)} is a {'Sunday' if counted.moved_from.weekday() == 6 else 'legal holiday'}, "
                 "so the last day moves to the next secular day") if counted.moved_from else ""
        if counted.moved_from and getattr(counted, "moved_why", ""):
            # (a state's rule of the data: the day moved off by what it is, "a Saturday and Veterans Day")
            moved = f"; the last day so counted is {counted.moved_why}, so it moves to {counted.moved_to}"
        return (f"I read: {start} ({said}). “{counted.words}”: **{fmt_date(counted.day)}** ({way} it, counted under "
                f"the {counted.rule}: the day of the event left out{moved}).")
    closed = ""
    if getattr(counted, "next_open", None):
        closed = (f" {fmt_date(counted.day)} falls on {counted.closed}: where the state's rule moves a last day off a "
                  f"weekend or legal holiday, the next business day is **{fmt_date(counted.next_open)}**.")
    return (f"I read: {start} ({said}). “{counted.words}”: "
            f"**{fmt_date(counted.day)}** ({way} it, counted on the calendar; whether the first day is left out or a "
            f"weekend or holiday moves the day is your state's rule of counting time, not applied here).{closed}")


def sun_times_needed(words: str) -> str:
    return (f"the time of sunrise (and of sunset) that day: the code counts “{words}” in daylight only, so when they end "
            "depends on when the sun is up. When does the sun rise and set?")


def lookup_lead(name: str) -> str:
    return f"Here is what the {name} code says:"


def not_stated_set_by(name: str, who: str | None) -> str:
    if who:
        return (f"The {name} code does not state this amount: it is set by {who}, so ask the office for "
                "the current figure.")
    return f"The {name} code does not state this figure; it says where it comes from:"


def not_stated_closest(name: str) -> str:
    return f"The {name} code does not state that figure. The closest provision says:"


def yearless_date(written: str, read_as: date) -> str:
    return (f"The question gives no year for “{written}”: it is read as {fmt_date(read_as)}, the nearest such "
            "day to today. Give the year if you meant another.")


def worked_out(tool: str, explanation: str) -> str:
    return f"How it was worked out (calculator `{tool}`): {explanation}"


def not_run(tool: str, argument: str, reason: str) -> str:
    return f"Calculator `{tool}` not run: its argument {argument} ({reason}) is not read safely from the question."


def quantity_needed(unit: str) -> str:
    plural = unit if unit.endswith("s") else (unit[:-4] + "feet" if unit.endswith("foot") else unit + "s")
    return f"how many {plural} it is for: the amount is charged by the {unit}, and the question gives no number of them."


def count_needed(noun: str, said: str) -> str:
    """A total asked of an amount charged for each of something the question counts only loosely ("several days")."""
    return (f"how many {noun} there were: “{said}” gives no number, and the amount is charged for each. "
            f"How many {noun} were there?")


def amount_needed(base: str) -> str:
    """The sum a share is charged of, when the question asks its own amount and gives no sum."""
    return f"{base}: the code charges a percentage of it, and the question gives no amount. What was it?"


def other_account(words: str) -> str:
    """Two accounts of a value in the question: which one is right is asked."""
    return (f"which figure is right: the question gives a second account of a value (“{words}”) beside the one it "
            "gave first. Which should I use?")


def area_needed(measure: str, fee: bool = False) -> str:
    """The other dimension, when a rate of application (or a fee) is per area and the question gives one measure."""
    per = "the fee is charged by the square foot" if fee else "the rate is per square foot of surface"
    if not measure:
        return f"the length and the width of the surface: {per}. How long and how wide is it?"
    return f"the width as well as the length: {per}, and “{measure}” gives one side only. How wide is it?"


def each_time_needed(times: int, said: str) -> str:
    """A total asked of something done more than once, with the amount of fewer times than that (the count is the
    user's own words: a number the question does not write is no figure to state)."""
    others = "the other time" if times == 2 else "each of the other times"
    return (f"the amount of each time (“{said}”): the question gives fewer amounts than that, and a total is not "
            f"worked from a guess. What did {others} cost?")


def unit_needed(said: str, units: str) -> str:
    """A measurement said with no unit ("about 30 from the road"), against a limit in a unit: which unit."""
    return f"the unit of “{said}”: is it {units}?"


def offense_needed(steps: tuple[str, ...]) -> str:
    """Which offense it is, when a fine rises with each and the question does not say."""
    return ("which offense this is — a first, or a later one: the fine is " + "; ".join(f"“{w}”" for w in steps)
            + ". Has this happened before?")


def condition_needed(conditions: tuple[str, ...]) -> str:
    """Which of the code's conditions is the user's, when the amount depends on it and the question does not say."""
    return ("which of the code's cases is yours — the figure differs: " + "; ".join(f"“{c}”" for c in conditions)
            + ". Which one applies?")


def late_date_needed(event: str, days: int) -> str:
    """The date a fine's rise counts from, when the question asks what is owed now and gives no date."""
    what = re.sub(r"^(?:such|said|the|that|this|its|their|an?)\s+", "", event, flags=re.I)
    return (f"the date of the {what}: the fine rises if it is still unpaid {days} days after it, and the question "
            "gives no date. When was it?")


def day_needed(event: str, words: str) -> str:
    """The date an asked day counts from ("such official action"), when the question gives none."""
    what = re.sub(r"^(?:such|said|the|that|this|its|their)\s+", "", event, flags=re.I)
    what = re.sub(r"^(?:date|day)\s+of\s+(?:the\s+)?", "", what, flags=re.I)  # ("date of assignment": its date)
    # ("the receipt of such notice": the day it reached the user, asked in their words)
    received = re.match(r"receipt\s+of\s+(?:the\s+|such\s+|said\s+|that\s+|this\s+)?(?P<thing>[\w\s]+?)\s*$", what, re.I)
    ask = f"When did you receive the {received.group('thing')}?" if received else "When was it?"
    return (f"the date of the {what}: the day is counted “{words} {event}”, and the question gives no date. {ask}")


def receipt_day_needed(said: str, words: str, event: str) -> str:
    """The day a paper came, when the question gives only the day it is dated and the period runs from its receipt."""
    return (f"the day you received it: “{said}” is the day it is dated, and the period runs “{words} {event}”. "
            "When did you receive it?")


def time_of_day_needed(said: str, words: str) -> str:
    """The hour of a day the question gives with none ("on Friday"), when the period counted from it is in hours."""
    return (f"the time of day: the period “{words}” is counted in hours, and “{said}” gives no hour. At what time (and "
            "is it in the morning or the evening)?")


def stretch_day_needed(said: str, words: str, to_come: bool = False) -> str:
    """The day a stretch of days names none of ("sometime last week", "next month"), when the day asked is counted
    from it."""
    return (f"the exact date: “{said}” names no one day, and the day counted “{words}” it differs with each day of "
            f"it. What date {'is' if to_come else 'was'} it?")


def anothers_figures(owner: str) -> str:
    return (f"your own figures: the ones given are for {owner}, not yours. What were they for you "
            "(for example the hours, the rate or the amount on your bill)?")


def quoted(quote: str, label: str) -> str:
    return f"> “{quote}”\n> — {label}"


def asked_for(slot: str, candidates: tuple[str, ...]) -> str:
    return f"Asked for {slot}" + (": the question gives " + ", ".join(f"“{c}”" for c in candidates)
                                  if candidates else "") + "."


# -- calculator leads: the sentence that opens a calculator's answer, from its result ----------

def lead_generic(r) -> str:
    """The amount a charge calculator worked out, first and in bold (its working follows in the explanation)."""
    if not getattr(r, "ok", True):
        return ""
    if getattr(r, "total_charge", None) is not None:  # snow removal by the municipality's employees
        return f"The charge comes to **{fmt_money(r.total_charge)}** (a charge for the work, not a fine)."
    if getattr(r, "total", None) is not None and getattr(r, "administration_fee", None) is not None:
        return (f"The bill comes to **{fmt_money(r.total)}** ({fmt_money(r.subtotal)} of work plus "
                f"{fmt_money(r.administration_fee)} administration).")
    if getattr(r, "total", None) is not None and hasattr(r, "subtotal"):
        return f"The bill comes to **{fmt_money(r.total)}**."
    shares = getattr(r, "per_owner_share", None)
    if shares is not None:
        return f"Each owner's equal share is **{fmt_money(shares)}**."
    if getattr(r, "owner_assessment", None) is not None:
        return f"The owner is assessed **{fmt_money(r.owner_assessment)}**."
    outcome = getattr(r, "outcome", None)
    if outcome == "owner_pays_balance" and r.balance_due is not None:
        return f"The owner pays **{fmt_money(r.balance_due)}** more than the deposit."
    if outcome == "town_refunds" and r.refund is not None:
        return f"The Town refunds **{fmt_money(r.refund)}** of the deposit."
    if outcome == "settled":
        return "The deposit covers the cost exactly: nothing is owed either way."
    if getattr(r, "balance_released", None) is not None:
        return f"**{fmt_money(r.balance_released)}** of the guarantee is released to the owner."
    if getattr(r, "deposit", None) is not None and getattr(r, "situation", None) is not None:
        return f"Deposit: **{fmt_money(r.deposit)}**."
    return ""  # the calculator's explanation says it all


def lead_surcharge(r) -> str:
    if not r.ok:
        return ""
    lead = f"Surcharge: **{r.amount_text}**." if r.amount_text else ""
    if r.amount is not None and r.multiplier:
        lead = f"Surcharge: {r.multiplier} times the permit fee = **{r.amount_text}**."
    warn = " ".join(r.warnings) if getattr(r, "warnings", None) else ""
    return f"{lead} {warn}".strip()


def lead_surcharge_total(r) -> str:
    """The surcharge, and the permit fee with it when the question asks what is paid in all."""
    lead = lead_surcharge(r)
    if r.ok and getattr(r, "total_with_permit_fee", None) is not None and r.multiplier:
        lead += (f" With the permit fee: {fmt_money(r.permit_fee)} + {r.amount_text} = "
                 f"**{fmt_money(r.total_with_permit_fee)}** (any actual Village expenses come on top).")
    return lead


def _plain_number(x) -> str:
    from decimal import Decimal

    d = Decimal(str(x)).normalize()
    return format(d, "f")


def lead_obstruction(r) -> str:
    parts = []
    if getattr(r, "max_sidewalk_obstruction_ft", None) is not None:
        parts.append(f"at most **{_plain_number(r.max_sidewalk_obstruction_ft)} feet** of the sidewalk")
    if getattr(r, "max_street_obstruction_ft", None) is not None:
        parts.append(f"at most **{_plain_number(r.max_street_obstruction_ft)} feet** of the traveled street")
    if parts and any(c.requirement == "clear_width" for c in getattr(r, "checks", None) or []):
        # a fixture on a shop's walk: what it may take is what leaves the clear width
        row = next(c for c in r.checks if c.requirement == "clear_width")
        clear = row.limit
        lead = (f"Fixtures may take {parts[0]}, leaving {_plain_number(clear)} feet clear."
                if clear is not None else f"Fixtures may take {parts[0]}.")
        if row.difference is not None and row.status in ("pass", "fail") and clear is not None:
            # the user's fixture: the walk it leaves, against the clear width
            from decimal import Decimal

            rest = Decimal(str(clear + row.difference))
            inches = (rest * 12).quantize(Decimal("0.1")).normalize()
            # (a width worked from inches, "4.1667 feet" of a 7-foot walk: the inches left said too, as the calculator
            # gives them)
            also = f" ({_plain_number(inches)} inches)" if rest != rest.quantize(Decimal("0.01")) else ""
            left = f"Your fixture leaves **{_plain_number(rest)} feet**{also} of the walk clear"
            lead = (f"{left}, at least the {_plain_number(clear)} feet required. " if row.status == "pass" else
                    f"{left}, less than the {_plain_number(clear)} feet required. ") + lead
        return lead
    return ("Building materials may cover " + " and ".join(parts) + ".") if parts else ""


def lead_trench(r) -> str:
    """Each trench length checked against its limit: within it, or by how much over."""
    lines = []
    for row in (c for c in getattr(r, "checks", None) or []
                if c.requirement in ("ahead_of_pipe", "unfilled_behind_pipe") and c.measured is not None
                and c.limit is not None):
        what = "ahead of the pipe laying" if row.requirement == "ahead_of_pipe" else "left unfilled behind the laid pipe"
        if row.status == "fail" and row.difference is not None:
            lines.append(f"The trench {what} is **{_plain_number(row.difference)} feet** over the "
                         f"{_plain_number(row.limit)}-foot limit (unless the Director of Public Works gives special "
                         "permission).")
        elif row.status == "pass":
            lines.append(f"The trench {what} is within the {_plain_number(row.limit)}-foot limit.")
    return " ".join(lines)


def lead_placement(r) -> str:
    """Installed house numbers against each measured requirement: the verdict, and each one that fails."""
    rows = [c for c in getattr(r, "checks", None) or [] if c.status in ("pass", "fail")]
    if not getattr(r, "ok", True):
        return ""
    if not rows:
        free = [f.removesuffix("_ft").removesuffix("_in").replace("_", " ") for f in getattr(r, "not_regulated", [])]
        return f"The code sets no requirement for the {' or the '.join(free)}." if free else ""

    def measured(c) -> str:
        unit = " feet" if c.field.endswith("_ft") else " inches" if c.field.endswith("_in") else ""
        return f"{c.measured}{unit}"

    failed = [c for c in rows if c.status == "fail"]
    if not failed:
        return "Every measurement given meets the code: " + "; ".join(f"{c.requirement} ({measured(c)})" for c in rows) + "."
    passed = [c for c in rows if c.status == "pass"]
    return ("**It does not pass**: " + "; ".join(f"{c.requirement}, and it is {measured(c)}" for c in failed) + "."
            + (" The rest pass: " + "; ".join(f"{c.requirement} ({measured(c)})" for c in passed) + "." if passed else ""))


def lead_sidewalk_drop(r) -> str:
    drop = getattr(r, "min_cross_slope_drop_in", None)
    return f"The walk must fall at least **{_plain_number(drop)} inches** toward the curb across its width." if drop is not None else ""


def lead_patch(r) -> str:
    parts = []
    if getattr(r, "required_depth_in", None) is not None:
        parts.append(f"the patch must be at least **{_plain_number(r.required_depth_in)} inches** deep")
    if getattr(r, "backfill_below_surface_in", None) is not None:
        parts.append(f"the backfill stops **{_plain_number(r.backfill_below_surface_in)} inches** below the original surface")
    return ("For this pavement " + "; ".join(parts) + ".") if parts else ""


UNIT_WORDS = {"in": "inches", "ft": "feet", "%": "%", "tons": "tons"}


def lead_defects(r) -> str:
    if getattr(r, "defective_percent", None) is None:
        measured = [c for c in (getattr(r, "checks", None) or []) if c.status in ("pass", "fail") and c.difference is not None]
        parts = []
        for c in measured:
            unit = UNIT_WORDS.get(c.unit or "", c.unit or "")
            shown = re.sub(rf" {re.escape(c.unit or '')}$", f" {unit}", c.measured or "")  # the tool's "1.2 in"
            shown = re.sub(r"^1 (inch)es$|^1 (f)eet$", lambda m: f"1 {m.group(1) or 'foot'}", shown)  # "1 inch"
            if c.status == "fail" and not c.difference:
                parts.append(f"{c.description}: **{shown}** is defective (required: {c.required}); it is at the "
                             "threshold, which the code counts as defective")
            elif c.status == "fail":
                parts.append(f"{c.description}: **{shown}** is defective (required: {c.required}); it is "
                             f"**{_plain_number(c.difference)} {unit}** over the limit")
            else:
                parts.append(f"{c.description}: **{shown}** is within the limit (required: {c.required})")
        return ("; ".join(parts) + ".") if parts else ""
    verdict = "the entire sidewalk is replaced" if r.whole_replacement_required else "the whole sidewalk is not replaced"
    at, total = getattr(r, "whole_replacement_at_blocks", None), getattr(r, "total_blocks", None)
    when = (f" (the entire sidewalk is replaced once **{at} blocks** of the {total} are defective)"
            if at is not None and total is not None and not r.whole_replacement_required else "")
    return f"**{_plain_number(r.defective_percent)}%** of the blocks are defective, so {verdict}{when}."


def lead_driveway(r) -> str:
    most = getattr(r, "max_rise_ft", None)
    if most is not None:  # a run given alone: the most rise the limit allows over it
        return (f"At a slope of at most {_plain_number(r.slope_limit_percent)}%, the driveway may rise at most "
                f"**{quantity(most, 'ft')}** over its run.")
    slope = getattr(r, "slope_percent_computed", None)
    failed = "slope" in (r.failures or [])
    limit = getattr(r, "slope_limit_percent", None)
    gap = getattr(r, "slope_gap_percent", None)
    if slope is not None and limit is not None and gap is not None:
        # the figure, how it was had (the rise divided by the run) and how far it is from the limit (the calculator's)
        side = f"{_plain_number(gap)}% more than {_plain_number(limit)}%" if slope > limit else \
            f"{_plain_number(gap)}% less than {_plain_number(limit)}%" if slope < limit else f"exactly {_plain_number(limit)}%"
        return (f"The slope (the rise divided by the run) is **{_plain_number(slope)}%**, {side}, the most the code "
                f"allows: it {'exceeds' if slope > limit else 'is within'} the limit.")
    lead = f"The slope is **{_plain_number(slope)}%**" if slope is not None else "The slope"
    shown = f"{_plain_number(limit)}%" if limit is not None else "the"
    return f"{lead}, which {'exceeds' if failed else 'is within'} the {shown} limit." if r.all_pass is not None or failed else ""


def lead_heavy(r) -> str:
    over = getattr(r, "tons_over_limit", None)
    bits = []
    past = getattr(r, "tons_over_permit_weight", None)
    if r.permit_required and past and getattr(r, "exceeds_temporary_limit", None) is None:
        bits.append(f"a Town permit naming the route is required: it is **{_plain_number(past)} tons** over the weight "
                    "that needs one")
    elif r.permit_required:
        bits.append("a Town permit naming the route is required")
    lb = getattr(r, "pounds_over_limit", None)
    pounds = f" ({format(lb, ',f')} lb)" if lb else ""
    if over and getattr(r, "exceeds_temporary_limit", None):
        bits.append(f"the vehicle is **{_plain_number(over)} tons**{pounds} over the posted temporary limit; only a special "
                    "permit (for an emergency) allows it while the limit is in effect")
    elif over:
        bits.append(f"on a road where a temporary limit is posted it would be **{_plain_number(over)} tons**{pounds} over it, and "
                    "could run there only with a special permit (for an emergency)")
    if not bits and getattr(r, "exceeds_temporary_limit", None) is False:
        # "My pickup loaded is about 5,800 lbs" under a posted 6-ton limit: what may run, said, not only left unsaid
        bits.append("no Town permit is needed, and it is within the posted temporary limit" if not r.permit_required
                    else "it is within the posted temporary limit")
    return ("For this vehicle " + "; ".join(bits) + ".") if bits else ""




def lead_road(r, focus: str = "aggregate") -> str:
    if focus == "corrective" and getattr(r, "corrective_lift_in", None) is not None:
        n = r.corrective_lift_in
        return f"The standards require a corrective lift of **{_plain_number(n)} inch{'es' if n != 1 else ''}** over the entire roadway."
    if focus == "both" and getattr(r, "stone_and_first_lift_in", None) is not None:
        return (f"The stone and the first lift of bituminous concrete come to **{_plain_number(r.stone_and_first_lift_in)} "
                f"inches** together: {_plain_number(r.aggregate_depth_in)} inches of stone and a first lift of "
                f"{_plain_number(r.required_initial_lift_in)} inches.")
    if focus in ("each", "each_sum") and getattr(r, "required_initial_lift_in", None) is not None \
            and getattr(r, "aggregate_depth_in", None) is not None:
        both = getattr(r, "stone_and_first_lift_in", None)
        total = f" ({_plain_number(both)} inches together)" if focus == "each_sum" and both is not None else ""
        return (f"The standards give crushed aggregate **{_plain_number(r.aggregate_depth_in)} inches** deep in all, and "
                f"the first lift of bituminous concrete on it is **{_plain_number(r.required_initial_lift_in)} inches**"
                f"{total}.")
    if focus == "lift" and getattr(r, "required_initial_lift_in", None) is not None:
        return (f"The first lift of bituminous concrete is **{_plain_number(r.required_initial_lift_in)} inches**, placed on "
                "the approved aggregate.")
    if getattr(r, "aggregate_depth_in", None) is not None:
        return f"The standards give crushed aggregate **{_plain_number(r.aggregate_depth_in)} inches** deep in all."
    return ""


def lead_grid(r) -> str:
    line = getattr(r, "block_line", None)
    return f"That block line is **{line}**." if line is not None else ""


def against_today(d) -> str:
    """'; today' or '; already passed' of a last day that is today or behind it; '' for a day to come."""
    from assistant.answering.slots import today

    day = d if isinstance(d, date) else date.fromisoformat(str(d)[:10])
    now = today()
    return "; today" if day == now else "; already passed" if day < now else ""


def lead_emergency(r) -> str:
    if not r.ok:
        return ""
    return (f"Apply for the excavation permit by **{fmt_date(r.apply_by)}** (the next business day"
            f"{against_today(r.apply_by)}) and notify the Village office immediately. To keep the permit fee waived, "
            f"file the application by **{fmt_date(r.fee_waiver_by)}** (within two regular business days"
            f"{against_today(r.fee_waiver_by)}).")


def lead_insurance(r) -> str:
    if not r.ok:
        return ""
    shorts = []
    for sf in r.shortfalls:
        m = re.search(r"\$\s?([\d,]+(?:\.\d+)?)", sf.note or "")
        amount = f" short by {fmt_money(m.group(1).replace(',', ''))}" if m else ""
        shorts.append(f"{sf.description}: required {sf.required}, shown {sf.provided}{amount}")
    if not shorts:
        return "The certificate meets every limit that could be checked." if r.compliant is not False else ""
    return "The certificate falls short: " + "; ".join(shorts) + "."


def _a_day(why: str) -> str:
    """'Sunday' -> 'a Sunday'; 'Christmas Day' stays a name."""
    return f"a {why}" if why in WEEKDAY_NAMES else why


WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def lead_deadline(r) -> str:
    if getattr(r, "earliest_event", None):  # a notice or decision given: the earliest the event may be
        return (f"{r.obligation} Given {fmt_date(r.event)}, the earliest {r.event_meaning.rstrip('.')}: "
                f"**{fmt_date(r.earliest_event)}**.")
    if getattr(r, "due_at", None):
        if r.direction == "before":
            return f"{r.obligation} Latest moment: **{fmt_date(r.due_at)}**."
        if getattr(r, "ends_period", False):  # nothing is due: the period runs out then ("free from all traffic")
            return f"{r.obligation} The period ends at **{fmt_date(r.due_at)}**."
        return f"{r.obligation} Due by **{fmt_date(r.due_at)}**.{_done_verdict(r)}"
    if getattr(r, "due_date", None) and getattr(r, "earliest_date", None):  # a publication window
        return (f"{r.obligation} Earliest day: **{fmt_date(r.earliest_date)}**; latest day: "
                f"**{fmt_date(r.due_date)}**.")
    if getattr(r, "due_date", None):
        word = "Latest day" if r.direction == "before" else ("Last day" if r.direction != "window" else "Date")
        moved = ""
        plain = getattr(r, "unadjusted", None)
        if plain and str(plain)[:10] != r.due_date.isoformat() and r.direction == "after":
            # the reason, not the day: a last day on a Sunday or legal holiday moves by law, so the day before
            # the move is no deadline of its own and is not written as one
            why = r.skipped[0].reason.split(";")[0].strip() if r.skipped else "a day the office is closed"
            moved = (f" The period itself ends on {_a_day(why)}; under the Wisconsin rule for counting time the last day "
                     "moves to the next day that is not a Sunday or legal holiday.")
        if getattr(r, "office_saturday", False):
            moved += (" That is a Saturday: if the office is closed then, § 990.001(4)(c), Wis. Stats., lets the payment "
                      "or filing be made on the next day it is open.")
        act = getattr(r, "if_an_act", None)
        if act:
            moved += (f" That is {'a Sunday' if r.due_date.weekday() == 6 else 'a legal holiday'}: this period's end is not moved as an act to be done "
                      f"would be; if the office reads it as one (§ 990.001(4)(b), Wis. Stats.), the last day is "
                      f"{fmt_date(act)}, so ask before relying on it.")
        return f"{r.obligation} {word}: **{fmt_date(r.due_date)}**.{moved}{_done_verdict(r)}"
    if getattr(r, "direction", "") == "window" and r.window_start:
        inside = "inside" if r.in_window else "outside"
        return f"{r.obligation} That date is {inside} the window from {fmt_date(r.window_start)} to {fmt_date(r.window_end)}."
    return r.obligation



def _done_verdict(r) -> str:
    """Whether the act done on the day the user gave was in time (the calculator's verdict)."""
    done = getattr(r, "done_on", None)
    if done is None:
        return ""
    if getattr(r, "in_time", None) is None:
        return f" Done on {fmt_date(done)}, the day of the last moment: whether that was in time depends on the hour."
    if r.in_time:
        return f" Done on {fmt_date(done)}: **in time**."
    n = r.days_late
    return f" Done on {fmt_date(done)}: **late**, {n} day{'' if n == 1 else 's'} after the last day."


def asked_again(swaps: tuple[tuple[str, str], ...]) -> str:
    """A "what if" follow-up answered as the earlier question asked again with the new figures."""
    said = "; ".join(f"“{now}” in place of “{before}”" for before, now in swaps)
    return f"Read as your earlier question asked again, with {said}."
