"""The street-opening surcharge: the paving and opening dates read by their own cue words."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from assistant.answering import phrasing, roles, slots
from assistant.answering.formatting import fmt_date
from assistant.answering.routes.common import (
    Missing,
    RouteContext,
    Routed,
    ambiguous,
    names_of,
    period,
    which,
)
from assistant.tools.registry import run_tool


# a figure in dollars asked for, not the multiple of the fee
ASKS_DOLLARS = re.compile(r"\bhow many dollars\b|\bin dollars\b|\bdollar (?:amount|figure)\b|\bwhat (?:will|would|do) "
                          r"(?:we|i) (?:pay|owe)\b|"
                          # "What'll the surcharge run me?", "what's that going to set us back?", "what will it come to?"
                          r"\b(?:run|set)\s+(?:me|us|you|them)(?:\s+back)?\b|\bwhat(?:'ll|’ll| will| would)\s+(?:\w+\s+){0,2}"
                          r"(?:come to|cost)\b", re.I)


# a time to come the words name without a day ("in three weeks", "later this year", "soon")
LATER = re.compile(r"\bin (?:a|an|one|two|three|four|five|six|several|a few|\d+) (?:days?|weeks?|months?|years?)\b|"
                   r"\b(?:later|early|late) (?:this|next) (?:year|month|spring|summer|fall|winter)\b|\bsoon\b", re.I)


# the words place the opening now ("we're cutting it today", "opening the street this week")
NOW = re.compile(r"\b(?:today|now|right now|this (?:morning|afternoon|week)|currently|at the moment|"
                 # (the work told as under way: "the crew is cutting a trench", "we're running a water lateral")
                 r"(?:are|'re|is|am|'m) (?:now )?(?:cutting|opening|digging|excavating|trenching|boring|running|"
                 r"putting in|installing|laying))\b", re.I)


# what is paid in all asked: the permit fee with the surcharge ("the total", "all told", "including the fee")
TOTAL = re.compile(r"\btotal\b|\bin all\b|\baltogether\b|\ball told\b|\bincluding the (?:permit )?fee\b|"
                   r"\b(?:fee )?plus (?:the )?surcharge\b|\bsurcharge plus\b|\ball in\b", re.I)


def _lead(q: str):
    return phrasing.lead_surcharge_total if TOTAL.search(q) else phrasing.lead_surcharge


# "laid 6 months ago": an age as of now, the pavement's age when it is opened now
AGO = re.compile(r"\b(?:ago|back)\b", re.I)  # ("three and a half years back": counted back from today too)


def surcharge(q: str, muni: str | None, ctx: RouteContext):
    """The surcharge for the age of the final paving on the opening date, or what is missing."""
    tool = "street_opening_surcharge"
    if muni is None:
        return Missing(which(f"Only {names_of(ctx.tools[tool].municipalities)} levies a surcharge by the age "
                              "of the pavement."), needs_municipality=True)
    # does this municipality's rule need the paving date at all? (one without a surcharge does not)
    probe = run_tool(tool, {"municipality": muni, "opening_date": slots.today().isoformat()})
    if probe.ok or "final_paving_date" not in (probe.error or ""):
        if not re.search(r"\bsurcharge", q, re.I) and ctx.query is not None and ctx.query.of("money"):
            # (a code without the surcharge is said to have none when the surcharge is asked about, not when
            # "extra ... cost" tells of amounts another calculator takes: "they added $450 for extra base work")
            return None
        return Routed(tool, {"municipality": muni, "opening_date": slots.today().isoformat()}, muni,
                      phrasing.lead_surcharge, defaults={"opening_date": "today (the rule does not depend on it)"})
    reading = roles.surcharge_values(ctx.query) if ctx.query is not None else roles.SurchargeReading()
    asks_amount = re.search(r"\b(how much|what(?:'s|s| is) (?:the|my|our) surcharge|what surcharge (?:do|will|would|applies to) "
                            r"(?:we|i|us|our|my)|what surcharge (?:am|are|will|would|should|shall)\s+(?:i|we|they|you)\b(?! there)|"
                            r"what surcharge (?:multiple )?(?:applies|would apply|will apply))\b", ctx.current or q, re.I)
    age = roles.paving_age(ctx.query) if ctx.query is not None else None
    if reading.ambiguous is not None and age is not None and len(reading.ambiguous.candidates) == 1 \
            and getattr(reading.ambiguous.candidates[0], "kind", None) == "date" and reading.opening is None:
        # "an opening ... this summer. Elm's final paving went down about 20 months before our dig date": the paving is
        # told by its age (or each street's by its own), so the one date is the opening's, not the paving's
        reading = dataclasses.replace(reading, opening=reading.ambiguous.candidates[0], ambiguous=None)
    if reading.ambiguous is not None and muni in ctx.tools[tool].municipalities:
        return ambiguous(reading.ambiguous)
    paved = reading.paving
    if isinstance(age, roles.Ambiguous):
        return ambiguous(age)
    if paved is not None and age is not None and age.slot.span.origin == paved.span.origin \
            and not (age.slot.span.start <= paved.span.start < age.slot.span.end):
        # "one street's final paving is 8 months old; the other was paved 3 years and 2 months ago": an age and a
        # date of paving compete (one calculation a street when each sits in its own clause, else asked)
        return ambiguous(roles.Ambiguous("age of the final paving", (age.slot, paved)))
    if paved is not None:
        age = None
    if age is not None:
        return _from_age(q, muni, reading, age, ctx)
    if muni in ctx.tools[tool].municipalities and paved is None:
        if asks_amount or ASKS_DOLLARS.search(q) or reading.fee is not None:
            # (a permit fee the user gives is for working their surcharge: "What surcharge does the Village tack on ...?
            # Our permit fee is $175": the paving's age is asked, not the table quoted)
            return Missing("the date of the street's final paving (for example “paved last June” or “paved two years ago”).",
                           slot="final paving date")
        return None  # "is there a surcharge…": the table answers it
    if reading.fee is None and ASKS_DOLLARS.search(q):
        # a figure in dollars asked for: the surcharge is a multiple of the permit fee
        return Missing("the permit fee (the surcharge is a multiple of it).", slot="permit fee")
    if reading.opening is None and LATER.search(q):
        # "we open it in three weeks": a day to come the reading does not place; today would be a guess
        return Missing("the day the street will be opened (the surcharge depends on the pavement's age then).",
                       slot="opening date", candidates=(LATER.search(q).group(0),))
    if reading.opening is None and paved is not None and not NOW.search(q) and not AGO.search(paved.span.text):
        # no opening day given: today is taken only when the words say now, or when the surcharge is the same
        # whenever in the coming year the street is opened (else the day is asked for: a guess moves the band)
        from dateutil.relativedelta import relativedelta

        fee_arg = {"permit_fee": str(reading.fee.number)} if reading.fee else {}
        ends = [run_tool(tool, {"municipality": muni, "opening_date": d.isoformat(), "final_paving_date": paved.value,
                                **fee_arg}) for d in (slots.today(), slots.today() + relativedelta(years=1))]
        if [getattr(e, "multiplier", None) for e in ends] != [getattr(ends[0], "multiplier", None)] * 2:
            return Missing("the day the street will be opened (the surcharge depends on the pavement's age then).",
                           slot="opening date")
    opening = reading.opening.day if reading.opening is not None else slots.today()
    args: dict[str, Any] = {"municipality": muni, "opening_date": opening.isoformat()}
    defaults = {} if reading.opening is not None else {"opening_date": f"today, {fmt_date(opening)} (no opening date given)"}
    derived: dict[str, str] = {}
    fee = {"permit_fee": str(reading.fee.number)} if reading.fee else {}
    loose_opening = reading.opening is not None and reading.opening.precision != "day"
    loose_paving = paved is not None and paved.precision in ("year", "month", "week")
    if paved is not None:
        args["final_paving_date"] = paved.value
    if loose_opening or loose_paving:
        # "we dig next week", "paved last spring": the figure stands only if it is the same for every pair of days
        # the words may mean — the youngest pavement (paved last, opened first) and the oldest (paved first, opened
        # last) give the same surcharge
        o_first, o_last = period(reading.opening) if loose_opening else (opening, opening)
        p_first, p_last = period(paved) if loose_paving else ((paved.day, paved.day) if paved is not None else (None, None))
        ends = [run_tool(tool, {**args, **fee, "opening_date": o.isoformat(),
                                **({"final_paving_date": d.isoformat()} if d is not None else {})})
                for o, d in ((o_first, p_last), (o_last, p_first))]
        if getattr(ends[0], "amount_text", None) != getattr(ends[1], "amount_text", None) or not ends[0].ok:
            if loose_paving and loose_opening:
                return Missing(f"the days of the final paving and of the opening: “{paved.span.text}” and "
                               f"“{reading.opening.span.text}” name no day, and the surcharge differs between them. On what dates were they?",
                               slot="final paving date", candidates=(paved.span.text, reading.opening.span.text))
            if loose_paving:
                return Missing(f"the day of the final paving: “{paved.span.text}” names no day, and the surcharge "
                               "differs within it. On what date was the paving finished?", slot="final paving date",
                               candidates=(paved.span.text,))
            return Missing(f"the day of the opening: “{reading.opening.span.text}” names no day, and the surcharge "
                           "differs within it. On what date is the opening?", slot="opening date",
                           candidates=(reading.opening.span.text,))
        for key, slot_, loose in (("opening_date", reading.opening, loose_opening), ("final_paving_date", paved, loose_paving)):
            if loose:
                derived[key] = f"“{slot_.span.text}” (read as its first day; any day of it gives the same surcharge)"
    if reading.paving_why and "final_paving_date" not in derived:
        derived["final_paving_date"] = f"{fmt_date(paved.day)} ({reading.paving_why})"
    if reading.fee is not None:
        args["permit_fee"] = str(reading.fee.number)
    sources = {k: v for k, v in (("opening_date", reading.opening), ("final_paving_date", paved),
                                 ("permit_fee", reading.fee)) if v is not None}
    return Routed(tool, args, muni, _lead(q), defaults=defaults, derived=derived, sources=sources)

# -- specification checks -------------------------------------------------------

def _from_age(q: str, muni: str, reading, age, ctx: RouteContext):
    """The paving date worked out from an age the words give: the opening day (or today) less it."""
    tool = "street_opening_surcharge"
    opening = reading.opening.day if reading.opening is not None and reading.opening.precision == "day" else None
    fee = {"permit_fee": str(reading.fee.number)} if reading.fee else {}
    loose = None
    if reading.opening is not None and opening is None:
        # "we cut it next month" with "the final paving is about 8 months old": the figure stands only if every day of
        # the opening's stretch gives the same surcharge (the age counted back from that day, or from today)
        first, last = period(reading.opening)
        ends = [run_tool(tool, {"municipality": muni, "opening_date": o.isoformat(), **fee,
                                "final_paving_date": age.paving_date(o if age.at_opening else slots.today()).isoformat()})
                for o in (first, last)]
        if not ends[0].ok or getattr(ends[0], "amount_text", None) != getattr(ends[1], "amount_text", None):
            return Missing(f"the day of the opening: “{reading.opening.span.text}” names no day, and the surcharge "
                           "differs within it. On what date is the opening?", slot="opening date",
                           candidates=(reading.opening.span.text,))
        opening, loose = first, reading.opening
    base = (opening or slots.today()) if age.at_opening else slots.today()
    paving = age.paving_date(base)
    if roles.approximate(age.slot, ctx.query):
        # "two years old, give or take": the figure stands only if it is the same for an age a little
        # shorter or longer (a quarter of it, at most six months either way)
        from dateutil.relativedelta import relativedelta

        months = age.months if age.months is not None else (age.days or 0) // 30
        slack = relativedelta(months=max(1, min(6, months // 4)))
        ends = [run_tool(tool, {"municipality": muni, "opening_date": (opening or slots.today()).isoformat(),
                                "final_paving_date": d.isoformat(), **({"permit_fee": str(reading.fee.number)}
                                                                       if reading.fee else {})})
                for d in (paving - slack, paving + slack)]
        if getattr(ends[0], "amount_text", None) != getattr(ends[1], "amount_text", None) or not ends[0].ok:
            return Missing(f"the day of the final paving: “{age.slot.span.text}” is approximate, and the surcharge "
                           "differs near it.", slot="final paving date", candidates=(age.slot.span.text,))
    args: dict[str, Any] = {"municipality": muni, "opening_date": (opening or slots.today()).isoformat(),
                            "final_paving_date": paving.isoformat()}
    defaults = {} if opening is not None else {"opening_date": f"today, {fmt_date(slots.today())} (no opening date given)"}
    if age.at_opening and opening is None:
        defaults = {"opening_date": f"today, {fmt_date(slots.today())} (the age is at the opening, so any opening day "
                                    "gives the same surcharge)"}
    since = "the opening date" if age.at_opening and opening is not None else "today" if not age.at_opening else "the opening"
    derived = {"final_paving_date": f"{fmt_date(paving)} (“{age.slot.span.text}” before {since})"}
    if loose is not None:
        derived["opening_date"] = f"“{loose.span.text}” (read as its first day; any day of it gives the same surcharge)"
    sources: dict[str, Any] = {"opening_date": reading.opening} if opening is not None else {}
    if reading.fee is not None:
        args["permit_fee"] = str(reading.fee.number)
        sources["permit_fee"] = reading.fee
    elif ASKS_DOLLARS.search(q):
        return Missing("the permit fee (the surcharge is a multiple of it).", slot="permit fee")
    return Routed(tool, args, muni, _lead(q), defaults=defaults, derived=derived, sources=sources)
