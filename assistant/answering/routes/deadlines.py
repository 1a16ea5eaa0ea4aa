"""Deadlines: after an emergency excavation, and every rule of the deadline catalogue, chosen by the
catalogue's own titles and descriptions (data) and the event the question dates."""

from __future__ import annotations

from collections import Counter

import re
from functools import lru_cache
from datetime import date, datetime, time

from assistant.answering import phrasing, roles, slots
from assistant.answering.formatting import fmt_date
from assistant.answering.reading import NUMBER, weekday_readings
from assistant.answering.routes.common import (
    Missing,
    RouteContext,
    Routed,
    ambiguous,
    names_of,
    only_municipality,
    period,
    serves,
    which,
)
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems
from assistant.settings import ranking
from assistant.tools.deadlines import INVERTIBLE_KINDS, WHEN_CUES, municipality_plan
from assistant.tools.registry import run_tool

# (and the "s" a possessive leaves: "the village's bill" and "the Village Board's notice" share no event word)
GENERIC_EVENT_STEMS = stems("date day time the of or and was were is village town city county") | {"s"}
# the question asks for a calendar day (not "how long"): without a date to count from, ask for it
ASKS_A_DAY = re.compile(r"\b(?:what|which) (?:date|day)\b|\bwhen(?:['’]s| is| are) (?:that|it|this|these|those|the \w+|my \w+|our \w+) due\b|\b(?:last|latest|first|earliest) (?:days?|dates?)\b|\bdeadline date\b|"
                        r"\b(?:actual|exact|real|final) (?:date|day) (?:i|we|you|they) (?:have|need|must|got) to\b|"
                        # "how long till we have to have the numbers up, what's the actual date?"
                        r"\bwhat(?:'s| is) the (?:actual|exact|real|calendar) (?:date|day)\b|"
                        # "What's the date it runs out?", "what is the day we have to be done by?"
                        r"\bwhat(?:'s| is) the (?:date|day) (?:it|that|this|they|we|i|our|my|the)\b|"
                        r"\bby what (?:date|day)\b|\bon what (?:date|day)\b|\b(?:my|our) deadline\b|"
                        r"\bwhen (?:is|are) (?:that|it|this|they|the \w+) due\b|\bdue date\b|"
                        # "when do the numbers legally have to be up by?": "by when", split
                        r"\bwhen\s+(?:do|does|must|should|will|would)\b[^?.!]{0,60}\s(?:up|done|in|finished|installed|"
                        r"paid|fixed|filed|cleared|removed|out)?\s*by\s*\?|"
                        # "when is that deposit due?", "I need the actual expiration date"
                        r"\bwhen(?:'s| is| are) (?:that|this|my|our|his|her|their)(?: [\w-]+){1,3} due\b|"
                        r"\b(?:expiration|expiry|cutoff|cut-off) date\b|"
                        r"\bwhen (?:do|must|should) (?:i|we|they) (?:have|need) to\b|"
                        # "when does our street opening permit run out?": the day it ends
                        # (one's own: "when does a street privilege permit expire?" asks the rule)
                        r"\bwhen (?:does|do|will) (?:our|my|their|his|her|the) (?:[\w'-]+\s+){0,4}(?:run out|expire|lapse|"
                        r"terminate)\b", re.I)

# "what's the earliest the work can start?" of a notice or decision the question dates ("the Board voted on …",
# "our insurer mailed the Town notice on …"): the day given is the act, and the earliest event is counted forward
ASKS_EARLIEST = re.compile(r"\b(?:earliest|soonest)\b", re.I)
ACT_WORDS = re.compile(r"\b(?:notif\w*|notices?|told|informed|called|phoned|e-?mailed|mailed|sent|letter|voted|decided|"
                       r"decision|determin\w*|resolution|gave|given|warned)\b", re.I)

ACT_GIVEN = "the day the notice or decision was given"
_THE_DEADLINE = re.compile(r"\bwhat(?:['’]s| is) (?:the|my|our) (?:\w+ )?deadline\b", re.I)
# the user's own event told as done ("our subdivision just got final approval", "we received the notice")
# (tried in session 36: "snow finally quit here" as an event told. Its deadline asked which day, but of the rule the
# search's first section gave — the sidewalk repair's notice — so it is left to the passages)
_OWN_EVENT = re.compile(r"\b(?:we|i|our|my)\b[^.?!]{0,60}\b(?:just|got|received|was|were|has been|have been|had)\b", re.I)
ASKS_WHEN_CUE = re.compile(rf"\b(?:{WHEN_CUES})\b", re.I)

_DENIED = roles.DENIED_WORDS  # "No utility shutoffs involved": denied words name no event of the question


# the dig told with its day in a follow-up ("we dug it thursday evening, june 17")
_DUG = re.compile(r"\b(?:dug|dig|digging|excavated|opened|opened\s+up|cut\s+into|broke|burst)\b", re.I)


# "If we file the permit application today, do we still get out of paying the permit fee?": the fee turns on the day
_FILED_IN_TIME = re.compile(r"\bif\s+(?:we|i|they|he|she)\s+(?:\w+\s+)?(?:file|apply|submit|get\s+(?:it|the\s+\w+)\s+in)\b"
                            r"[^?.!]{0,50}\b(?:today|tomorrow|now|on\s+\w+day)\b[^?.!]{0,40}\b(?:still|yet)\b", re.I)


def emergency(q: str, muni: str | None, ctx: RouteContext):
    """When to apply for the permit and file for the fee waiver after an emergency dig."""
    tool = "emergency_excavation_deadlines"
    # (an emergency the conversation's earlier turn told: "a water main split ..." / "Our paperwork went in today.
    # What was the last day to file?")
    earlier = ctx.query is not None and ctx.query.follow_up and slots.is_emergency(ctx.query.earlier or "")
    if not (slots.is_emergency(q) or earlier) or not serves(ctx, tool, muni):
        return None
    if ctx.query is not None and ctx.query.asks == "figure" and not earlier \
            and not ASKS_A_DAY.search(_asking(ctx.current or q)) and not _FILED_IN_TIME.search(ctx.current or q):
        # "we missed the free window. What's the fee we owe now?" asks an amount, not a day (a follow-up "And to keep
        # the permit fee waived?" of the emergency's deadlines still asks its day)
        return None
    # (this turn's own words: a follow-up is also routed with the earlier turn's words before it)
    told_before = earlier and not slots.is_emergency(ctx.current or q)  # this turn's dates are then of something else
    if told_before and any(_DUG.search(r.before[-40:]) for r in ctx.query.of("date", "turn")):
        told_before = False  # ("ok we dug it thursday evening, june 17. what's my deadline ...?": the dig's own day)
    if told_before and not re.search(r"\b(?:apply|applying|applied|application|file|filed|filing|fee|waive[sd]?)\b",
                                     ctx.current or q, re.I):
        return None  # "say the Director approves it that Tuesday: through what date is the permit good?" asks another rule
    when = None if told_before else (slots.event_moment(ctx.current) or slots.event_moment(q))
    read = ctx.query.of("date") if ctx.query is not None else []
    if told_before:  # the earlier turn's dates, but not this turn's again
        read = [r for r in ctx.query.of("date", "earlier") if r.value not in {t.value for t in ctx.query.of("date", "turn")}]
        if not read:  # ("started leaking last night": the moment the earlier turn's words give)
            when = slots.event_moment(ctx.query.earlier or "")
    if when is None and read:
        when = read[0].day  # a date the reading stage reads ("the Friday after Thanksgiving"); roles pick below
    if when is None:
        if ctx.query is not None and ctx.query.asks == "date" and muni is not None \
                and re.search(r"\b(?:we|i|our|my|us|me|we['’](?:re|ve|ll|d)|i['’](?:m|ve|ll|d))(?=\W|$)", q, re.I):
            # (an own dig whose day is not told; "how soon afterward does the utility have to apply?" asks the rule)
            return Missing("the day of the emergency excavation: which day was it?", slot="date of the excavation")
        return None
    if muni is None:
        return Missing(which(f"Only {names_of(ctx.tools[tool].municipalities)} sets emergency excavation "
                              "deadlines."), needs_municipality=True)
    day = when.date() if hasattr(when, "date") else when
    sources = {}
    if ctx.query is not None and ctx.query.of("date"):
        chosen = roles.event_date(ctx.query, "the emergency excavation: dig dug excavated opened started work") \
            if not told_before else (read[0] if len({r.value for r in read}) == 1 else roles.Ambiguous(
                "date of the emergency excavation", tuple(read)) if read else None)
        if isinstance(chosen, roles.Ambiguous):
            return ambiguous(chosen)
        if chosen is not None:
            if chosen.precision != "day":
                return Missing(f"the day of the emergency excavation: “{chosen.span.text}” names no single day. Which day was it?",
                               slot="date of the excavation", candidates=(chosen.span.text,))
            day, sources = chosen.day, {"excavation": chosen}
    times = list({t.value: t for t in ctx.query.of("time")}.values()) if ctx.query is not None else []
    if len(times) > 1:
        # "we cut at 11:45 PM, the log says 12:10 AM Friday": two accounts of when it was dug may be two days
        return ambiguous(roles.Ambiguous("time of the emergency excavation (it decides the day counted from)",
                                         tuple(times)))
    only = only_municipality(ctx, tool, muni)
    return Routed(tool, {"municipality": only, "excavation": day.isoformat()}, only, phrasing.lead_emergency,
                  sources=sources)


def deadline(q: str, muni: str | None, ctx: RouteContext):
    """The rule of the catalogue the question's words and dated event pick, counted from that event."""
    event = slots.event_moment(ctx.current) or slots.event_moment(q)
    year = re.search(r"\b(?:in|for|during)\s+(20\d\d)\b", q)
    read = [s for s in (roles.of(ctx.query, "date") if ctx.query is not None else []) if s.precision in ("day", "week")]
    if event is not None and ctx.query is not None and not ctx.query.of("date", "turn") \
            and not roles.same_weekday(ctx.query, event):
        event = None  # "say it's approved that same Tuesday", the earlier turn's day a Friday: asked for
    if event is None and read:
        event = read[0].day  # a date the reading stage reads ("last Tuesday"); roles pick the event's below
        said = _time_of(read[0], ctx.query)
        if said is not None:  # "the snow stopped last Saturday at 9 PM"
            hh, mm = (int(x) for x in said.value.split(":"))
            event = datetime.combine(event, time(hh, mm))
    elif event is not None and not isinstance(event, datetime) and ctx.query is not None:
        # "tomorrow night around 9": the reading stage's one time of day goes with the date the words give
        times = {t.value for t in ctx.query.of("time")}
        if len(times) == 1:
            hh, mm = (int(x) for x in times.pop().split(":"))
            event = datetime.combine(event, time(hh, mm))
    asks_earliest = ASKS_EARLIEST.search(_asking(ctx.current or q)) is not None
    earliest_alone = asks_earliest and not ASKS_WHEN_CUE.search(q) and (event is None or not ACT_WORDS.search(slots.dated_clause(q)))
    if earliest_alone and event is None:
        return None  # "earliest" alone asks no deadline of the catalogue unless a notice or decision is dated
    # ("Our new subdivision just got final approval. What's the deadline for the Inspector to ...?": the deadline of
    # the user's own event, whose day is not given, asks a day)
    story = " ".join(x for x in re.split(r"(?<=[.!?])\s+", ctx.current or q) if "?" not in x)
    wants_day = event is None and not year and (ASKS_A_DAY.search(q) is not None or (
        _THE_DEADLINE.search(_asking(ctx.current or q)) is not None and _OWN_EVENT.search(story) is not None) or (
        _hour_of_work_only(ctx, story) and re.search(r"\bby when\b|\bwhen\b|\bhow late\b|\blatest\b",
                                                     _asking(ctx.current or q), re.I) is not None))
    if event is None and not year and not wants_day:
        return None  # "how long do I have…" without a date: the passage answers it
    from assistant.tools.deadlines import rules

    # the numbers of a date say when, not what: "May 30" must not meet "within 30 days"
    # ("60 days" still meets "60 days")
    # (and, at a smaller weight, the code's words for the user's plain ones: "three of my slabs are bad" is a
    # sidewalk's defect)
    # (nor do the numbers that count other things: "four houses" must not meet "four hours"; "48 hours" meets "48 hours")
    # (not of denied words either: "No utility shutoffs involved" says nothing of a rule that notifies utilities)
    q_stems = stems(_DENIED.sub(" ", _without_counts(slots.without_dates(q))))
    # (not of denied words: "Not a winter emergency job" says nothing of frozen ground)
    q_plain = stems(expand(_DENIED.sub(" ", _without_counts(slots.without_dates(q))), muni)) - q_stems
    # a follow-up keeps the earlier turn's topic ("a roll-off dumpster in the street ..." / "If they hand it to me
    # today, how long is it good for?"): its words, the code's for them too, weigh as the code's words do
    q_earlier = set()
    if ctx.query is not None and ctx.query.follow_up and ctx.query.earlier:
        q_earlier = stems(expand(_without_counts(slots.without_dates(ctx.query.earlier)), muni)) - q_stems - q_plain
    # the event is what the question dates ("We start ... on May 30"), not all it says
    clause = slots.dated_clause(q)
    if not slots.dates_in(q) and read and read[0].span.origin == "turn" and ctx.query is not None:
        clause = slots.dated_clause(ctx.query.turn, (read[0].span.start, read[0].span.end))
    # the day given is the work's own (its clause tells the work and names no paper)
    dated_words = _dated_part(clause, read[0].span.text if read else None)
    # ("if the snow ... quits around 8 this saturday night, how long do i have ... and bill me?": the ask after the
    # dated condition tells no event)
    ask = _ASK_AFTER.search(clause)
    said_at = clause.find(read[0].span.text) if read else -1
    event_clause = clause[:ask.start()] if ask is not None and 0 <= said_at < ask.start() else clause
    event_stems = stems(_without_counts(slots.without_dates(expand(event_clause)))) - GENERIC_EVENT_STEMS
    work_dated = event is not None and roles.event_kind_of(dated_words) is None and bool(_WORK_ON_SITE.search(dated_words))
    # (the papers the story tells of, outside the asking sentence: "Our permit got approved and we start digging on the
    # 3rd" tells an approval, whose period the renewal asked runs from, though the day given is the dig's)
    told_papers = {k for k, (_, rx) in roles.EVENT_KINDS.items()
                   if rx.search(" ".join(x for x in re.split(r"(?<=[.!?])\s+", ctx.current or q) if "?" not in x))}

    def paper_of_another_day(rule) -> bool:
        """An act counted from a paper the story does not tell, when the day given is the work's."""
        kind = roles.event_kind_of(rule.event)
        return work_dated and rule.act and kind in _PAPER_EVENTS and kind not in told_papers
    act_given = asks_earliest and event is not None and ACT_WORDS.search(clause) is not None
    sims = ctx.similar()
    # "what's the latest we can let them know?" of work dated ahead: a day before the event, never after it
    # an emergency said in this turn or the conversation's earlier one ("our gas main started leaking ..." / "OK.
    # What's the last day ... and still not pay the permit fee?")
    emergency = slots.is_emergency(q) or (ctx.query is not None and slots.is_emergency(ctx.query.earlier or ""))
    to_come = event is not None and (event.date() if isinstance(event, datetime) else event) >= slots.today()
    ahead = to_come and ASKS_BEFORE.search(_asking(ctx.current or q)) is not None
    # ("the last day I can pull the sidewalk permit" of work dated ahead: a period after the work that names no permit,
    # "kept free from traffic for 48 hours", gives no day to get it; an emergency's permit applied for after the dig does)
    permit_ahead = to_come and not ahead and _PERMIT_BEFORE.search(_asking(ctx.current or q)) is not None
    # the paper the question is about ("have the permit in hand", "the bill", "the deposit"): a rule that names none
    # of them is about something else ("a new walk kept free from traffic" is no permit's deadline)
    # (named in the asking sentence: "Permit approved April 20 ... To what date are we responsible for the
    # restoration?" asks no permit's day)
    papers = _PAPERS.findall(slots.without_dates(_asking(ctx.current or q)).lower())
    paper_stems = stems(" ".join(papers))
    # the kind of permit the question names anywhere ("A contractor's street opening permit was approved ..."): a rule of
    # another kind of permit is about another paper
    asked_kinds = _permit_kinds(ctx.current or q)
    # the act the asking sentence names, when it is a payment ("the last day to pay", "when's the payment due")
    pays = _PAYING.search(slots.without_dates(_asking(ctx.current or q))) is not None
    # (of a paper: "when does our permit expire?"; "when did his time to clear it run out?" asks a duty's last day)
    asks_end = _ASKS_END.search(_asking(ctx.current or q)) is not None \
        and _A_PAPER.search(_asking(ctx.current or q)) is not None
    scored = []
    shared_event: dict[str, int] = {}  # words of the question's dated sentence each rule's event shares
    # a period the question names ("if the 60 days start today"): a rule counting another period of that unit is
    # not the one asked about
    named = {(d.number, (d.unit or "").rstrip("s")) for d in (ctx.query.of("duration", "turn") if ctx.query else [])
             if re.search(r"\b(?:the|those|these|my|our|that|this)\s+$", d.before[-12:])}
    for rule in rules().values():
        if muni and rule.municipality != muni:
            continue
        unit = rule.count.kind.split("_")[0].rstrip("s")
        if named and rule.count.amount is not None and any(u == unit and n != rule.count.amount for n, u in named):
            continue
        if event is None and not wants_day and not (rule.count.kind == "annual_date" and "following year" in rule.title):
            continue  # a year alone dates only a yearly deadline for the following year
        if ahead and rule.count.kind.endswith("_after"):
            continue  # a period after the event gives no day to act before it
        if asks_end and (rule.count.kind in NO_DAY or not _ENDS.search(f"{rule.title} {rule.obligation}")):
            continue  # "when does our permit expire?": only a rule of how long a paper is valid answers it (a window,
            # a notice before the work, give no day a paper runs out)
        if permit_ahead and rule.count.kind.endswith("_after") and not stems(
                f"{rule.title} {rule.obligation}") & _PERMIT_STEMS:
            continue
        if act_given and rule.count.kind not in INVERTIBLE_KINDS:
            continue  # the earliest event after a dated notice: only a rule counted back from its event gives it
        if asks_earliest and not act_given and rule.count.kind != "publication_window" \
                and not (not rule.act and rule.count.kind.endswith("_after")):
            continue  # an earliest day asked: a last day is no answer ("the earliest people can walk on it"); the end
            # of a wait is (kept free of all traffic for 48 hours after the pour)
        words = stems(f"{rule.title} {rule.obligation} {rule.event}")
        title_words = stems(rule.title)
        # the event the question dates ("we moved in on May 14") picks between rules that
        # count the same period from different events (occupancy vs building permit)
        event_words = 0 if wants_day else len(event_stems & stems(rule.event))  # no dated event: no event words
        score = (len(q_stems & words) + 1.5 * len(q_stems & title_words) + ranking().event_weight * event_words
                 + ranking().plain_word_weight * (len(q_plain & words) + 1.5 * len(q_plain & title_words)
                                                  + len(q_earlier & words) + 1.5 * len(q_earlier & title_words))
                 + 12.0 * max(sims.get(rule.id, 0.0) - 0.2, 0.0))
        if paper_stems and not paper_stems & words:
            score -= 2
        kinds = _permit_kinds(f"{rule.title} {rule.obligation} {rule.event}")
        if asked_kinds and kinds and not (kinds | words | title_words) & asked_kinds:
            score -= 3  # "a street opening permit ... good through what date?": a street privilege permit is another paper
        if paper_of_another_day(rule):
            score -= 2  # "We're opening up a Town road ... the Tuesday after Memorial Day, crew on site at 7": the day
            # is the work's, no day of a paper (a notice, a bill) a period counts from
        if event is not None and _BY_RECEIPT.search(rule.event) and _GOT.search(clause):
            score += 2  # "it didn't show up in our mailbox until Monday the 11th": the words date an arrival, which a
            # rule counted from receipt counts from
        if pays and not words & _PAY_STEMS:
            score -= 2  # "the last day to pay": a rule that names no payment is about another act
        if ctx.query is not None and ctx.query.follow_up and rule.obligation in ctx.query.answered \
                and slots.CHANGES_EARLIER.search(ctx.query.turn):
            # the deadline the conversation worked out just before ("Start got pushed to Thursday the 19th. New
            # deadline?"): a follow-up changes its day, not its rule, unless its own words name another
            score += ranking().answered_rule_weight
        if rule.id.endswith("emergency_apply") and emergency and (slots.is_emergency(ctx.current or q) or _APPLYING.search(
                ctx.current or q)):  # (an emergency told before, and now the pavement's day asked: not the filing's)
            score += 3
        elif "emergency" in rule.title.lower() and not emergency:
            score -= 3  # a rule for an emergency dig does not date one the words do not call (or deny is) one
        scored.append((score, rule))
        shared_event[rule.id] = event_words
    if not scored:
        return None
    # (never to a rule counted from a paper when the day given is the work's: the search's words are not its day)
    scored = _the_search_decides(sorted(scored, key=lambda t: -t[0]), ctx.found,
                                 not_led=frozenset(r.id for _, r in scored if paper_of_another_day(r)))
    scored.sort(key=lambda t: -t[0])
    best_score, best = scored[0]
    if earliest_alone and best.act:
        # ... or the rule is a wait that a dated event starts ("poured Tuesday at 9: the earliest it can take traffic",
        # kept free of traffic for 48 hours): the wait's end is the earliest moment
        return None
    if event is not None and not wants_day and shared_event[best.id] == 0:
        # "... got the 24-hour notice ... The bill came in the mail and I got it Wednesday, March 1": the date is the
        # bill's, so of two near rules the one counted from the bill's receipt, not the one counted from the notice
        # (or the kind of event the dated words name, of a rule counted from another kind: "If the bill lands in my
        # mailbox on Friday, June 9" dates a bill, not the Board's notice)
        dated_kind = roles.event_kind_of(clause)
        other_kind = dated_kind is not None and roles.event_kind_of(best.event) not in (None, dated_kind)
        # (not to a rule counted from another kind than the one the dated words name, when the best's is that kind:
        # "a letter dated December 11 saying they'll put a culvert in at my cost" dates a notice, and the words of what
        # the letter says, "put in ... cost", are no event of the installation cost's charge)
        same_kind = dated_kind is not None and roles.event_kind_of(best.event) == dated_kind
        # (nor to a rule that names none of the papers the asking sentence names, when the best names one: "He wants to
        # pour a week from Thursday. How late can we pull the village permit?" asks the permit's day, not the pour's
        # wait)
        dated = [(s, r) for s, r in scored[1:] if (shared_event[r.id] >= 2 or (
                     other_kind and shared_event[r.id] >= 1 and roles.event_kind_of(r.event) == dated_kind))
                 and not (same_kind and roles.event_kind_of(r.event) != dated_kind)
                 and not (paper_stems and _names_paper(best, paper_stems) and not _names_paper(r, paper_stems))
                 and best_score - s < ranking().dated_event_margin]
        if dated:
            best_score, best = dated[0]
            scored = [dated[0], *[x for x in scored if x[1].id != best.id]]
    if best_score < 3:
        return None
    if muni is None:
        others = [r for s, r in scored if r.municipality != best.municipality
                  and s >= best_score - ranking().unnamed_rule_margin]
        if others:
            return Missing(which("Their deadlines differ."), needs_municipality=True)
    midnight = _MIDNIGHT_OF.search(ctx.current or q)
    if midnight is not None:
        # "the snow quits right around midnight Saturday": the midnight that begins Saturday (Friday night) or the one
        # that ends it (Saturday night) — a day apart, so asked, each reading named
        day = (midnight.group("d1") or midnight.group("d2")).capitalize()
        before = WEEKDAYS[(WEEKDAYS.index(day.lower()) - 1) % 7].capitalize()
        return Missing(f"{_the_day(best.event)}: “{midnight.group(0).strip()}” may be the midnight that starts {day} "
                       f"({before} night) or the one that ends it ({day} night). Which one?", slot="event date",
                       candidates=(midnight.group(0).strip(),), provision=_provision_of(best))
    if wants_day and best.count.kind == "no_fixed_date":
        return None  # no date the rule could count from gives a day ("a set cutoff date?" of frozen ground): its text
    if wants_day:
        # "what's the last day to make the deposit?" with no date to count from: ask for it — when
        # one rule clearly answers and it counts from an event (a fixed yearly date needs none)
        runner_up = scored[1][0] if len(scored) > 1 else 0.0
        yearly = any(r.count.kind == "annual_date" for s, r in scored if s >= best_score - 1)
        # (a runner-up the best names as its next step — "within 20 days after assignment", then "10 days after the
        # notice" — is no rival reading: the first step's event is the one to ask for)
        next_step = len(scored) > 1 and scored[1][1].id in best.related
        # ("crew is on site at 7 am. By when does my written notice have to be in?": an hour of the start is given, and
        # its day is not — the day is asked, the rule being one counted in hours back from it)
        hour_only = best.count.kind in HOURS and _hour_of_work_only(ctx, ctx.current or q) \
            and _WORK_STARTS.search(best.event) is not None
        if not hour_only and (best_score < ranking().event_ask_score or (best_score - runner_up < 1 and not next_step)
                              or yearly):
            return None
        return Missing(f"the {best.event.rstrip('.')} (the period is counted from it). What date was that?",
                       slot="event date")
    if event is not None and len(scored) > 1 and best_score - scored[1][0] < ranking().rule_margin \
            and not (stems(scored[1][1].event) & stems(best.event)) - GENERIC_EVENT_STEMS \
            and scored[1][1].count != best.count and shared_event[scored[1][1].id] >= shared_event[best.id] \
            and not (paper_stems and _names_paper(best, paper_stems) and not _names_paper(scored[1][1], paper_stems)) \
            and not (roles.event_kind_of(clause) is not None
                     and roles.event_kind_of(clause) == roles.event_kind_of(best.event)
                     != roles.event_kind_of(scored[1][1].event)):
        # (the dated words name the kind of event the first rule counts from and not the second's: "The bill ... showed
        # up in my mailbox Thursday, May 18" is the bill's receipt, not "the date the person was charged": not asked)
        # two rules about as near, counting different periods from events that share no word ("the date the
        # work starts" / "the date of the Town Board's written notice"), the second's event as near the words
        # that date something as the first's: which event the date is decides the day, so it is asked ("the bill
        # showed up yesterday" names the first's event; "the work starts" / "the excavation starts" are one)
        runner = scored[1][1]
        events = (best.event.rstrip("."), runner.event.rstrip("."))
        work_event = [e for e in events if _WORK_STARTS.search(e)]
        if read and read[0].precision in ("week", "month") and len(work_event) == 1 \
                and (_WORK_ON_SITE.search(dated_words) or _WORK_DONE.search(dated_words)) \
                and not roles.event_kind_of(dated_words):
            # ("We're cutting across a Town road for a sewer lateral next week. When's the deadline for the written
            # notice?": the words dated are the work's — its day, and its time when counted in hours, are asked)
            hours = " and at what time" if best.count.kind in HOURS else ""
            return Missing(f"the exact day the work starts: “{read[0].span.text}” names no single day. Which day"
                           f"{hours} will it start?", slot="event", candidates=(work_event[0],))
        if read and read[0].precision in ("week", "month"):
            # ("sometime next week ... when do i need the permit by": the day is needed whichever it is)
            return Missing(f"the exact day: “{read[0].span.text}” names no single day. Which date "
                           f"{'is' if read[0].day > slots.today() else 'was'} it, and is it the {events[0]}, or the "
                           f"{events[1]}?", slot="event", candidates=events)
        return Missing(f"to know what the date you gave is: the {events[0]}, or the {events[1]}?", slot="event",
                       candidates=events)
    # (a rule the chosen one names as related: "placed within 20 days after assignment" and "10 days after the
    # service of such notice" are steps of one process, so a date of the one step is no date of the other)
    told = [r for sc, r in scored[1:] if shared_event[r.id] >= 2 and (r.id in best.related or best.id in r.related)]
    if event is not None and not wants_day and not act_given and shared_event[best.id] == 0 and told \
            and roles.event_kind_of(clause) != roles.event_kind_of(best.event) \
            and stems(told[0].event) - GENERIC_EVENT_STEMS != stems(best.event) - GENERIC_EVENT_STEMS:
        # the rule asked counts from one event, and the words date another that a rule near it counts from ("the
        # number was assigned the Tuesday before last ... the last day after the Director's notice?"): the day
        # asked is not counted from the day given; the day of the rule's own event is asked for
        said = read[0].span.text if read else "the date you gave"
        return Missing(f"{_the_day(best.event)}: “{said}” reads as the {told[0].event.rstrip('.')}, and this period "
                       f"is counted from the {best.event.rstrip('.')}. Which date was that?", slot="event date",
                       candidates=(said,), provision=_provision_of(best))
    if event is not None and not wants_day and not act_given and roles.event_kind_of(dated_words) is None \
            and roles.event_kind_of(best.event) in _PAPER_EVENTS and _WORK_STARTS.search(dated_words) \
            and not _WORK_STARTS.search(best.event):
        # "What date does our permit expire? We're starting the dig next Monday.", of a permit valid 30 days from its
        # approval: the day given is the work's start, not the approval the period counts from — that day is asked
        said = read[0].span.text if read else "the date you gave"
        return Missing(f"{_the_day(best.event)}: “{said}” is when the work starts, and this period is counted from "
                       f"the {best.event.rstrip('.')}. What date was that?", slot="event date", candidates=(said,),
                       provision=_provision_of(best))
    if event is not None and _BY_RECEIPT.search(best.event) and _SENT.search(clause) and not _GOT.search(clause):
        # "mailed me a bill for it on March 2", of a bill payable within 10 days of its receipt: the day given is
        # the sender's, not the day it arrived — the day of receipt is asked for, never taken to be the mailing's
        said = read[0].span.text if read else "the date you gave"
        return Missing(f"{_the_day(best.event)}: “{said}” is the day it was sent, and this period is counted from "
                       "the day it was received. When did it arrive?", slot="event date", candidates=(said,),
                       provision=_provision_of(best))
    if event is None:
        # "curb and gutter in 2028": the request is due in the year before, and not before today
        event = max(slots.today(), date(int(year.group(1)) - 1, 1, 1))
    sources = {}
    each: list = []  # "my bill came Monday the 29th, hers that Wednesday, the 31st. When is each of us to pay?"
    if ctx.query is not None and ctx.query.of("date"):
        chosen = roles.event_date(ctx.query, best.obligation if act_given else best.event)
        if EACH.search(_asking(ctx.current or q)) and not act_given and not ctx.query.of("time"):
            # (moments with their times of day, "crew 1 starts May 29 at 7 AM; crew 2 May 31 at 1 PM", are each
            # party's own reading: left to the reading of parties)
            days = _each_day(ctx.query, chosen)
            if len(days) > 1:
                chosen, each = days[0], days[1:]
        if isinstance(chosen, roles.Ambiguous):  # asked by the rule's own event: "the date the permit was approved"
            return ambiguous(roles.Ambiguous(ACT_GIVEN if act_given else best.event.rstrip("."), chosen.candidates),
                             provision=_provision_of(best))
        if chosen is not None and chosen.precision == "year" and year is not None \
                and slots.event_moment(ctx.current) is None and slots.event_moment(q) is None:
            chosen = None  # "curb and gutter in 2028": the yearly rule's own default below
        loose_window = None
        if chosen is not None and chosen.precision in ("week", "month") and best.count.kind == "window" \
                and not act_given:
            # "booked until the first week of December" against "no openings between November 15 and April 1": when
            # every day of the stretch is inside the window (or every one outside it), the answer is the same for any
            # of them, and the first is taken (said so); else the day is asked for
            first, last = period(chosen)
            ends = [run_tool("deadline", {"rule": best.id, "event": d.isoformat(), "emergency": emergency})
                    for d in (first, last)]
            if all(e.ok for e in ends) and ends[0].in_window == ends[1].in_window:
                loose_window = chosen
                chosen = chosen.model_copy(update={"precision": "day"})
        if chosen is not None:
            if chosen.precision != "day":
                readings, calls, named_day = "", (), "day"
                if chosen.precision == "week" and re.match(r"(?:next|last)\s+\w+day$", chosen.span.text.strip(), re.I):
                    # "next Friday" said on a Thursday: tomorrow, or the Friday of the week after — each day named,
                    # as the reading of the words gives it (a call the answer carries: its days may be stated); "last
                    # Tuesday" said on a Wednesday: yesterday, or the Tuesday of the week before
                    day = chosen.span.text.split()[-1].capitalize()
                    named_day = day  # ("Which Friday is it?")
                    this, later = weekday_readings(chosen)
                    if chosen.span.text.lower().startswith("last"):
                        near = "yesterday" if (slots.today() - later).days == 1 else f"this past {day}"
                        readings = (f" (it may be {near}, {fmt_date(later)}, or the {day} of the week before, "
                                    f"{fmt_date(this)})")
                    else:
                        soon = "tomorrow" if (chosen.day - slots.today()).days == 1 else f"this coming {day}"
                        readings = (f" (it may be {soon}, {fmt_date(this)}, or the {day} of the week after, "
                                    f"{fmt_date(later)})")
                    calls = ({"name": "read_relative_day",
                              "arguments": {"words": chosen.span.text, "today": slots.today().isoformat()},
                              "result": {"readings": [fmt_date(this), fmt_date(later)]}},)
                return Missing(f"{ACT_GIVEN if act_given else _the_day(best.event)}: “{chosen.span.text}” names no "
                               f"single day{readings}. Which {named_day} is it?",
                               slot="event date", candidates=(chosen.span.text,), readings=calls)
            said = _time_of(chosen, ctx.query)
            if isinstance(event, datetime) and said is not None:
                event = datetime.combine(chosen.day, time(*(int(x) for x in said.value.split(":"))))
            elif isinstance(event, datetime):
                event = datetime.combine(chosen.day, event.time())
            else:
                event = chosen.day
            sources["event"] = chosen
    args = {"rule": best.id, "event": event.isoformat(), "emergency": emergency}
    if act_given:
        args["given"] = "act"
    done = _done_on(ctx, sources.get("event")) if best.act and not act_given and not each else None
    if done is not None:
        # "letter dated Friday Aug 27 ... I dropped the check off Tuesday the 7th. Was I on time?": the day the act
        # was done, held against the last day
        args["done_on"] = done.day.isoformat()
        sources["done_on"] = done
    routed = Routed("deadline", args, best.municipality, phrasing.lead_deadline,
                    cues={"event": ACT_GIVEN if act_given else best.event},
                    sources=sources)
    arrived = roles.arrival_day(ctx.query, best.event) if ctx.query is not None and "event" in sources else None
    if arrived is not None and arrived is sources["event"]:
        # (the day the paper arrived, the sender's day set aside: said, so the reading is seen)
        sent = [s for s in ctx.query.of("date") if s.precision == "day" and s is not arrived]
        routed.derived["event"] = (f"{fmt_date(arrived.day)} (“{arrived.span.text}”, the day it arrived; "
                                   + ", ".join(f"“{s.span.text}”" for s in sent) + " is the sender's day)")
    if chosen is not None and loose_window is not None:
        routed.derived["event"] = (f"“{loose_window.span.text}” (read as its first day, {fmt_date(chosen.day)}; every day "
                                   "of it falls the same way against the window)")
    said = _time_of(sources["event"], ctx.query) if "event" in sources else None
    if isinstance(event, datetime) and said is not None:
        # the moment is the date's words and the time's: both are shown ("tomorrow", "night around 9")
        routed.derived["event"] = (f"{fmt_date(event)} (“{sources['event'].span.text}”, “{said.span.text}”)"
                                   if not _same_words(sources["event"].span.text, said.span.text) else fmt_date(event))
    if year and slots.event_moment(ctx.current) is None and slots.event_moment(q) is None:
        routed.defaults["event"] = f"{fmt_date(event)} (the question names only the year {year.group(1)})"
    for other_day in each:  # the same rule for each party's own day, each shown with the words it was read from
        moment = datetime.combine(other_day.day, event.time()) if isinstance(event, datetime) else other_day.day
        routed.follow.append(Routed("deadline", {**args, "event": moment.isoformat()}, best.municipality,
                                    phrasing.lead_deadline, cues={"event": best.event},
                                    sources={"event": other_day}))
    # a further ask's rule may count from another day the question dates ("assigned our house a new number on March 1
    # ... served me with a notice on April 3. How long did I originally have ..., and how long do I have now before I'm
    # in violation?"): the day whose own words name that rule's event, where one does and the chosen day does not
    elsewhere = _dated_elsewhere(ctx.query, scored, sources.get("event")) if ctx.query is not None else {}
    near = {rid: max(n, elsewhere.get(rid, (0, None))[0]) for rid, n in shared_event.items()}
    for other in ([] if act_given or each else _also_asked(ctx.current or q, best, scored, near)):
        if other.count.kind in HOURS and not isinstance(event, datetime):
            continue  # a rule in hours needs the time of day
        o_args, o_sources = {**args, "rule": other.id}, sources
        n, own_day = elsewhere.get(other.id, (0, None))
        if own_day is not None and n > shared_event.get(other.id, 0):
            o_args, o_sources = {**o_args, "event": own_day.day.isoformat()}, {"event": own_day}
        routed.follow.append(Routed("deadline", o_args, other.municipality, phrasing.lead_deadline,
                                    cues={"event": other.event}, sources=o_sources))
    for rid in best.together:  # rules always given together with this one, on the same event
        other = rules()[rid]
        if rid in {f.arguments.get("rule") for f in routed.follow} or (other.count.kind in HOURS and not isinstance(event, datetime)):
            continue
        routed.follow.append(Routed("deadline", {**args, "rule": rid}, other.municipality, phrasing.lead_deadline,
                                    cues={"event": other.event}, sources=sources))
    asking_all = " ".join(x for x in re.split(r"(?<=[.!?])\s+", (ctx.current or q).strip()) if "?" in x)
    if not act_given and not each and _ALL_NOTICES.search(asking_all):
        # "Who do we have to tell ahead of time, and the latest times for each notice?": every notice the code counts
        # back from the start of the work (the municipality's data lists them), not the best one alone
        starts = municipality_plan(best.municipality).start_notices
        if starts and best.id not in starts and best.count.kind not in HOURS and (ctx.current or q) == q \
                and _TELL.search(asking_all) and not _PAPERS_ASKED.search(asking_all):
            # "Who do I have to tell beforehand, and the latest times for each notice?" of a start date: the notices
            # counted back from it are asked, not whatever other rule the story's words came nearest (a season)
            first = rules()[starts[0]]
            if first.count.kind not in HOURS or isinstance(event, datetime):
                routed = Routed("deadline", {**args, "rule": first.id}, first.municipality, phrasing.lead_deadline,
                                cues={"event": first.event}, sources=sources)
                best = first
        taken = {best.id, *(f.arguments.get("rule") for f in routed.follow)}
        for rid in (starts if best.id in starts else ()):
            other = rules()[rid]
            if rid in taken or (other.count.kind in HOURS and not isinstance(event, datetime)):
                continue
            routed.follow.append(Routed("deadline", {**args, "rule": rid}, other.municipality, phrasing.lead_deadline,
                                        cues={"event": other.event}, sources=sources))
    if ctx.query is not None and ctx.query.follow_up and ctx.query.answered and not act_given and not each \
            and sources.get("event") is not None and getattr(sources["event"].span, "origin", "") == "turn":
        # "and if we slide the start to Monday the 30th, same 7 AM?" after two notices were worked out: every deadline
        # the earlier answer gave, of the same event (the start of the work, however each rule words it), is worked
        # from the new day
        taken = {best.id, *(f.arguments.get("rule") for f in routed.follow)}
        for rid, other in rules().items():
            same_event = other.event == best.event or bool(_WORK_STARTS.search(other.event) and _WORK_STARTS.search(best.event))
            if rid in taken or other.municipality != best.municipality or other.obligation not in ctx.query.answered \
                    or not same_event or (other.count.kind in HOURS and not isinstance(event, datetime)):
                continue
            routed.follow.append(Routed("deadline", {**args, "rule": rid}, other.municipality, phrasing.lead_deadline,
                                        cues={"event": other.event}, sources=sources))
    return routed


# several notices asked at once: "what notices", "each notice", "who do we have to tell/notify"
_ALL_NOTICES = re.compile(r"\bnotices\b|\bnotice\s+(?:deadlines|dates|times|requirements|rules)\b|"
                          # ("to the DPW and to everybody else": one notice named, and every other one)
                          r"\b(?:and|&)\s+(?:to\s+)?(?:everybody|everyone|anyone|all)\s+(?:else|others?)\b|\bwho\s+(?:all\s+)?(?:do|does|must|should|would)\s+\w+\s+(?:have\s+to\s+|need\s+to\s+)?"
                          r"(?:tell|notify|inform|warn|let\b)|\bwho\s+(?:has|have|needs?)\s+to\s+be\s+(?:told|notified|informed)\b",
                          re.I)


# the ask is whom to tell, not a paper to file: "who do I have to tell", "who has to be notified"
_TELL = re.compile(r"\bwho\s+(?:all\s+)?(?:do|does|must|should|would)\s+\w+\s+(?:have\s+to\s+|need\s+to\s+)?"
                   r"(?:tell|notify|inform|warn|let\b)|\bwho\s+(?:has|have|needs?)\s+to\s+be\s+(?:told|notified|informed)\b", re.I)
_PAPERS_ASKED = re.compile(r"\b(?:permit|application|apply|bond|insurance|fee)s?\b", re.I)


_APPLYING = re.compile(r"\b(?:apply|applying|applied|application|file|filed|filing|permit|paperwork)\b", re.I)
# a rule counted from the receipt of a paper, and the words that date its sending, or its arrival
_BY_RECEIPT = re.compile(r"\b(?:receiv\w*|receipt)\b", re.I)
_SENT = re.compile(r"\b(?:mailed|sent|posted|dated|put\s+(?:it\s+)?in\s+the\s+mail)\b", re.I)
_GOT = re.compile(r"\b(?:got|gets|received|receive|arrived|arrives|came|show(?:s|ed)?\s+up|turn(?:s|ed)?\s+up|landed|"
                  r"delivered|opened|in\s+hand|in\s+(?:our|my|the)\s+mail\s?box)\b", re.I)
_PAYING = re.compile(r"\b(?:pay|paid|paying|payment|payable|owe|owed)\b", re.I)
_PAY_STEMS = frozenset({"pay", "payabl", "paid", "payment", "owe"})
_PAPERS = re.compile(r"\b(?:permits?|applications?|notices?|bills?|invoices?|deposits?|bonds?|guarantees?|licen[cs]es?|"
                     r"renewals?|liens?|fees?|appeals?)\b", re.I)


# the asked day comes before the dated event: "the latest we can let the homeowners know", "how far ahead"
ASKS_BEFORE = re.compile(r"\bin advance\b|\bahead of\b|\bbeforehand\b|\bhow (?:far|long|many days|many hours) "
                         r"(?:ahead|in advance|before)\b|\b(?:latest|last (?:day|date|time)|by when|when)\b[^.?!]{0,40}"
                         r"\b(?:let\b[^.?!]{0,30}\bknow|tell|notify|warn|inform|give (?:notice|them notice|word))\b|"
                         # "the latest date and time that notice can reach them"
                         # ("the latest I can give the village and the neighbors notice")
                         r"\b(?:latest|last (?:day|date|time)|by when)\b[^.?!]{0,60}\bnotice\b", re.I)
# "the last day I can pull the sidewalk permit": a paper got before the work it allows (not an emergency's, applied
# for after the dig)
_PERMIT_STEMS = stems("permit permits application apply licence license")
# the asking sentence asks when something ends ("What date does our permit expire?", "how long is it good for"): a
# window of no digging answers whether a day is inside it, never when a paper runs out
_ASKS_END = re.compile(r"\bexpir\w*|\bruns? out\b|\b(?:good|valid)\s+(?:until|till|through|thru)\b|"
                       r"\bhow long is (?:it|the \w+|our \w+|my \w+) (?:good|valid)\b", re.I)
# the user's date is the work's start ("We're starting the dig next Monday"), and the events of papers
_WORK_STARTS = re.compile(r"\b(?:start(?:s|ing|ed)?|begin(?:s|ning)?|began|commenc\w*|break(?:ing)? ground|kick(?:ing|s)? off)\b",
                          re.I)
_PAPER_EVENTS = ("approval", "application", "notice", "bill")
_WORK_ON_SITE = re.compile(_WORK_STARTS.pattern + r"|\b(?:opening\s+up|open(?:ing)?\s+(?:up\s+)?(?:the|a|our)\s+(?:street|road|"
                           r"town\s+road|trench)|crews?\s+(?:is\s+|are\s+|will\s+be\s+)?on\s+site|on\s+site|dig(?:ging)?|"
                           r"excavat\w*|pour(?:ing)?|bor(?:e|ing)\s+under)\b", re.I)
def _hour_of_work_only(ctx: RouteContext, text: str) -> bool:
    """"Crew is on site at 7 am": the turn gives the work's hour and no date at all."""
    return ctx.query is not None and bool(ctx.query.of("time", "turn")) and not ctx.query.of("date") \
        and _WORK_ON_SITE.search(text) is not None


# the work itself told as under way or planned ("we're cutting across a Town road", "trenching for a lateral")
_WORK_DONE = re.compile(r"\b(?:cut(?:ting)?\s+(?:across|into|through|open)|trench(?:ing)?|lay(?:ing)?\s+(?:a|the|new)\s+\w+|"
                        r"install(?:ing)?|replac(?:e|ing)\s+(?:a|the|our)\s+\w+)\b", re.I)
_ASK_WORD = r"(?:how|what|when|which|by\s+when|do|does|can|will|would|am|is|are)"
# where one clause of a sentence ends and another, with a subject of its own, begins ("Our permit got approved and
# we start digging on the 3rd": the date is the dig's, not the approval's)
_NEXT_CLAUSE = re.compile(r"\s*;\s*|,?\s+(?:and|but|so|then|while)\s+(?=(?:we|i|they|he|she|our|my|the|crews?|"
                          r"contractors?)\b)|"
                          # ("if the snow ... quits around 8 this saturday night, how long do i have ... and bill me?": the
                          # ask after a condition is no part of what is dated)
                          rf",\s+(?={_ASK_WORD}\s)", re.I)
_ASK_AFTER = re.compile(rf",\s+(?={_ASK_WORD}\s[^,]*\?)", re.I)


_OK_IF_I_ACT = (r"\b(?:is|would)\s+it\s+(?:be\s+)?(?:ok(?:ay)?|alright|all\s+right|fine|enough)\s+if\s+(?:i|we)\s+(?:\w+\s+)?"
                r"(?:bring|brings|pay|drop|file|submit|turn|get|mail|hand|deliver|make|put)\b")
# the asking sentence asks whether an act was in time ("Was I on time?", "am I late?", "did we miss the deadline?")
_ASKS_IN_TIME = re.compile(r"\b(?:on time|in time|too late|(?:was|am|were|are|is) (?:i|we|it|they|that|this|the \w+) "
                           r"(?:\w+ )?late|missed it|miss(?:ed)? (?:the|our|my) (?:deadline|window|cutoff|date))\b|"
                           # "Is it OK if I bring the money in Friday?"
                           + _OK_IF_I_ACT, re.I)
# the words of an act done on a day: paying, filing, delivering, doing the work
_DONE = re.compile(r"\b(?:paid|pay|dropped|drop|filed|submitted|turned (?:it |them )?in|handed|delivered|mailed|sent|bring|"
                   r"brought|deposit|file|submit|mail|hand (?:it|them) in|"
                   r"applied|put (?:down|in)|made (?:the|a|our|my)|deposited|got (?:it|the \w+|them) in|"
                   r"posted|placed|installed|finished|completed|cleared|shovel+ed|removed|fixed|repaired)\b", re.I)


def _done_on(ctx: RouteContext, event_slot) -> object | None:
    """The one day of the user's turn, other than the event's, whose own clause tells an act done on it, when the
    asking sentence asks whether it was in time; None otherwise."""
    if ctx.query is None or event_slot is None or not _ASKS_IN_TIME.search(_asking(ctx.current or ctx.query.turn)):
        return None
    turn = ctx.query.turn
    found = []
    for s in ctx.query.of("date", "turn"):
        if s.precision != "day" or s.value == event_slot.value:
            continue
        if _DONE.search(_clause_at(turn, s)) and not (event_slot.span.origin == "turn"
                                                     and _DONE.search(_clause_at(turn, event_slot))):
            found.append(s)
    return found[0] if len(found) == 1 else None


def _clause_at(text: str, slot) -> str:
    """The clause of its sentence that holds the slot's span."""
    starts = [m.end() for m in re.finditer(r"[.?!;](?:\s|$)", text) if m.end() <= slot.span.start]
    ends = [m.start() for m in re.finditer(r"[?!;]|\.(?:\s|$)", text) if m.start() >= slot.span.end]
    sentence = text[starts[-1] if starts else 0:ends[0] + 1 if ends else len(text)]
    return _dated_part(sentence, slot.span.text)


def _dated_part(clause: str, said: str | None) -> str:
    """The clause of the sentence that holds the day given (``said``, as written); the whole sentence when the day is
    not found in it or the sentence has one clause."""
    at = clause.find(said) if said else -1
    if at < 0:
        return clause
    bounds = [0, *(m.end() for m in _NEXT_CLAUSE.finditer(clause) if m.end() <= at)]
    ends = [m.start() for m in _NEXT_CLAUSE.finditer(clause) if m.start() >= at + len(said)]
    return clause[bounds[-1]:ends[0] if ends else len(clause)]
_A_PAPER = re.compile(r"\b(?:permits?|licen[cs]es?|bonds?|polic(?:y|ies)|certificates?|approvals?|registrations?|"
                      r"guarantees?)\b", re.I)
_ENDS = re.compile(r"\bvalid\w*|\bexpir\w*|\bterminat\w*|\blapses?\b", re.I)
_PERMIT_BEFORE = re.compile(r"\b(?:latest|last (?:day|date|time)|by when|how late)\b[^.?!]{0,40}\b(?:pull|get|obtain|take out|"
                            r"apply for|file for|secure)\b[^.?!]{0,30}\b(?:permits?|licen[cs]es?)\b", re.I)


# a number that counts a period ("four hours", "ten (10) days", "48-hour") is the period's; any other counts things
_PERIOD_AFTER = re.compile(r"\s*(?:\(\d+\)\s*)?-?\s*(?:business\s+|working\s+|calendar\s+)?(?:hours?|days?|weeks?|months?|years?)\b",
                           re.I)


# the kind a permit is named by ("street opening permit", "sidewalk permit", "privilege permit"): the words before
# "permit" that say which, not those any permit has
_PERMIT_KIND = re.compile(r"\b(?:([a-z]+)\s+)?([a-z]+)\s+permits?\b", re.I)
_ANY_PERMIT = stems("street a an the this that my our your their his her its new any such village town city said same "
                    "approved issued valid renewal this")
# (words before "permit" that name no kind of it: "get a permit", "need the permit", "pull our permit")
_NO_KIND = {"a", "an", "the", "this", "that", "my", "our", "your", "their", "his", "her", "its", "any", "such", "same",
            "get", "got", "need", "needs", "have", "has", "had", "pull", "pulled", "obtain", "apply", "require", "requires",
            "issue", "issued", "want", "wants", "for", "of", "to", "no", "without", "with", "whose", "which", "what"}


# one kind by several names (general English): an excavation permit is a street opening, street cut or dig permit
_KIND_KIN = (stems("excavation opening cut dig trench trenching boring"),)


@lru_cache(maxsize=1024)
def _permit_kinds(text: str) -> frozenset[str]:
    """The stems naming kinds of permit in the text ("street opening permit" -> opening, and its other names;
    "get a permit" -> none). Cached: the catalogue's rules are read for every deadline asked."""
    out: set[str] = set()
    for m in _PERMIT_KIND.finditer(text or ""):
        w1, w2 = (m.group(1) or "").lower(), m.group(2).lower()
        if w2 in _NO_KIND:
            continue
        out |= stems(" ".join(w for w in (w1, w2) if w and w not in _NO_KIND)) - _ANY_PERMIT
    return frozenset(out.union(*(kin for kin in _KIND_KIN if kin & out)))


def _names_paper(rule, paper_stems: set[str]) -> bool:
    """Does the rule name one of the papers the asking sentence names (a permit, a bill, a deposit ...)?"""
    return bool(paper_stems & stems(f"{rule.title} {rule.obligation} {rule.event}"))


def _without_counts(text: str) -> str:
    """The text without the numbers that count things other than a period ("four houses", "2 crews"), so they never
    meet a rule's period ("four hours"); a period's own number stays."""
    return NUMBER.sub(lambda m: m.group(0) if _PERIOD_AFTER.match(text, m.end()) else " ", text)


def _the_search_decides(scored: list, found, not_led: frozenset[str] = frozenset()) -> list:
    """The rules scored, best first, where the search decides between close ones: when the best by words is of neither
    of the two sections the search finds first for the question, the best rule of the first section, scored within
    ``found_rule_weight`` of it, leads instead (by the rule margin, so it is not asked about). The retrieval is right
    first for most questions ("the bill for the removal" of furniture left on the sidewalk finds the obstructions
    section: the abatement bill, not the dirt and debris rule the word "removal" ranks first); it is not asked between
    rules of one section (its first passage may be the other's) nor when the words' best is of a section it finds too
    ("backed my truck into the curb and cracked it" finds the sidewalks' defects first, the damages second)."""
    if len(scored) < 2:
        return scored
    sections = found()
    best_score, best = scored[0]
    if not sections or _section_of_rule(best) in sections[:2]:
        return scored
    # (tried in session 36: the best rule of either of the two sections found first. It took a read slot-stress
    # question's "letter about my busted sidewalk ... bill me" to the abatement bill: the first section's rule stays)
    near = next(((sc, r) for sc, r in scored[1:] if _section_of_rule(r) == sections[0] and r.id not in not_led), None)
    if near is None or best_score - near[0] > ranking().found_rule_weight:
        return scored
    lead = (best_score + ranking().rule_margin, near[1])
    return [lead, *[(sc, r) for sc, r in scored if r is not near[1]]]


def _section_of_rule(rule) -> tuple | None:
    """The section (municipality, number, title) that holds the rule's first quote."""
    from assistant.tools.deadlines import rule_citations

    try:
        found = rule_citations(rule)
    except Exception:  # noqa: BLE001 - a quote the text no longer holds names no provision
        return None
    return next(((c.municipality, c.section, c.title) for c in found if c.passage_id), None)


def _provision_of(rule) -> tuple[str, str] | None:
    """The rule's first quote with the passage that holds it (the provision a question asked back will apply)."""
    from assistant.tools.deadlines import rule_citations

    try:
        found = rule_citations(rule)
    except Exception:  # noqa: BLE001 - a quote the text no longer holds names no provision
        return None
    return next(((c.passage_id, c.quote) for c in found if c.passage_id), None)


def _the_day(event: str) -> str:
    """'date the permit was approved' -> 'the day the permit was approved'; 'date of the notice' -> 'the day of the
    notice'."""
    event = event.rstrip(".")
    rest = re.sub(r"^(?:the\s+)?date(?:\s+and\s+time)?\s+", "", event)
    return f"the day {rest}" if rest != event else f"the day of the {event}"


def _time_of(day, query):
    """The time of day said with a date: the only one written, or of several ("stopped last Saturday around 9 at
    night ... cleared Monday at 6 PM") the only one in the date's own sentence."""
    times = list({t.value: t for t in query.of("time")}.values()) if query is not None else []
    if len(times) <= 1:
        return times[0] if times else None
    text = query.source(day.span.origin)
    same = [t for t in times if t.span.origin == day.span.origin
            and not re.search(r"[.!?;]\s", text[min(t.span.end, day.span.end):max(t.span.start, day.span.start)])]
    return same[0] if len(same) == 1 else None


def _same_words(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def _asking(text: str) -> str:
    """The sentence that asks (the last with a question mark, else the last); "it" of a paper got ("He says I pull the
    permit. What's the last day I can get it?") read as the paper the sentence before names."""
    parts = [x for x in re.split(r"(?<=[.!?])\s+", text.strip()) if x]
    asking = [x for x in parts if "?" in x] or parts or [""]
    ask = asking[-1]
    got_it = _GOT_IT.search(ask)
    if got_it is not None and ask in parts and parts.index(ask) > 0:
        paper = re.search(r"\b(?:[a-z]+\s+)?(?:permits?|licen[cs]es?)\b", parts[parts.index(ask) - 1], re.I)
        if paper is not None:
            named = re.sub(r"^(?:the|a|an|my|our|his|her|their|that|this)\s+", "", paper.group(0), flags=re.I)
            ask = ask[:got_it.start("it")] + "the " + named + ask[got_it.end("it"):]
    return ask


_GOT_IT = re.compile(r"\b(?:pull|get|obtain|take\s+out|apply\s+for|file\s+for|secure|have)\s+(?P<it>it)\b", re.I)


# the question asks the day for each of several parties, each with its own date
EACH = re.compile(r"\beach\b|\bboth\b|\brespectively\b|\bevery one of\b|\b(?:for|of) (?:the|us|them) (?:two|three)\b|"
                  r"\b(?:mine|ours)\b[^.?!]{0,40}\b(?:hers|his|theirs|yours)\b|\b(?:hers|his|theirs)\b[^.?!]{0,40}\b(?:mine|ours)\b",
                  re.I)


WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# "midnight Saturday", "Saturday at midnight", "midnight on Saturday": which midnight is not said
_MIDNIGHT_OF = re.compile(r"\bmidnight\s+(?:on\s+|this\s+|next\s+)?(?P<d1>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|"
                          r"\b(?P<d2>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+(?:at\s+|around\s+|about\s+)?midnight\b",
                          re.I)
_OWN_DAY = re.compile(r"\b(?:today|yesterday|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b", re.I)


def _each_day(query, chosen) -> list:
    """The days of the turn, one per party, when the question asks the day of each: the chosen (or the candidates
    asked about) first, then the turn's other days of the same precision; none when only one day is written."""
    days = [s for s in roles.of(query, "date") if s.precision == "day" and s.span.origin == "turn"]
    if any(re.search(r"\d", s.span.text) for s in days):  # ("after Memorial Day" beside "May 29": no party's own day)
        # (a day said relative to today is a party's own: "My letter is dated October 12, hers is dated today")
        days = [s for s in days if re.search(r"\d", s.span.text) or _OWN_DAY.search(s.span.text)]
    first = list(chosen.candidates) if isinstance(chosen, roles.Ambiguous) else [chosen] if chosen is not None else []
    out = []
    for s in [*first, *days]:
        if getattr(s, "precision", None) == "day" and s.value not in {x.value for x in out}:
            out.append(s)
    return out


HOURS = ("hours_after", "hours_before")
NO_DAY = ("window", "publication_window", "no_fixed_date")  # rules that give no "by when" day of their own
# "…the last day to apply, and the last day to file and still skip the fee?": two deadlines asked at once
# (also after a condition: "When's the deposit due, and if I never pay the bill, when does it hit my taxes?")
# ("How long did I originally have ..., and how long do I have now before I'm in violation?": a day asked of each)
_WHEN_WORDS = (r"last\s+(?:day|date)|latest|deadline|by when|when|(?:by|on)\s+what\s+(?:day|date)|what\s+(?:day|date)|"
               r"how\s+long|how\s+much\s+time")
_SECOND_ASK = re.compile(r",?\s+(?:and|&)\s+(?=(?:(?:if|once|after|say|suppose)\b[^?,]{0,80},\s*)?(?:the\s+|my\s+|our\s+)?"
                         rf"(?:{_WHEN_WORDS})\b)", re.I)
_ASKS_WHEN = re.compile(rf"\b(?:{_WHEN_WORDS})\b", re.I)


# "the latest I can get each of those in?", "when is each due?": the things told before are asked, each
_EACH_OF_THOSE = re.compile(r"\b(?:each|both)\s+of\s+(?:those|these|them|the\s+two)\b|\b(?:each|both)\s+(?:one|notices?)\b",
                            re.I)
# where one thing told ends and the next begins: ", and separately", "and also", "as well as", ";"
_LISTED = re.compile(r",?\s+and\s+(?:then\s+)?(?:separately|also|another)\b,?\s*|,?\s+as\s+well\s+as\s+|;\s*", re.I)


def _dated_elsewhere(query, ranked: list, chosen) -> dict[str, tuple[int, object]]:
    """For each rule, the question's other day (not the one chosen) whose own words share the most words with the rule's
    event, and how many: {rule id: (words, slot)} (only days of their own words; none of the chosen day's)."""
    chosen_value = getattr(chosen, "value", None)
    days = [s for s in roles.of(query, "date") if s.precision == "day" and s.span.origin == "turn"
            and s.value != chosen_value]
    if chosen_value is None or not days:
        return {}
    words = {id(s): stems(expand(roles.own_words_before(s, query))) - GENERIC_EVENT_STEMS for s in days}
    out = {}
    for _, r in ranked:
        event = stems(expand(r.event)) - GENERIC_EVENT_STEMS
        scored = sorted(((len(words[id(s)] & event), s) for s in days), key=lambda t: -t[0])
        if scored and scored[0][0] > 0 and (len(scored) == 1 or scored[0][0] > scored[1][0]):
            out[r.id] = scored[0]
    return out


def _also_asked(question: str, best, ranked: list, shared_event: dict[str, int]) -> list:
    """The rules a question's further asked parts name, when it asks two deadlines joined by "and":
    each part is scored on its own words (and the event the question dates, as the whole was; the
    whole question's score breaks ties); a part whose best rule is not clearly ahead of the next, or
    is the rule already chosen, adds nothing."""
    asked = [x for x in re.split(r"(?<=[.!?])\s+", question) if "?" in x] or [question]
    parts = [x for x in _SECOND_ASK.split(asked[-1]) if _ASKS_WHEN.search(x)]
    if len(parts) < 2 and _EACH_OF_THOSE.search(asked[-1]) and _ASKS_WHEN.search(asked[-1]):
        # "... a heads-up the Public Works Director needs, and separately a notice to the clerk and the neighbors. What's
        # the latest I can get each of those in?": the things the sentence before lists are the parts asked
        told = [x for x in re.split(r"(?<=[.!])\s+", question) if "?" not in x]
        listed = [x for x in _LISTED.split(told[-1]) if len(x.split()) >= 3] if told else []
        if 2 <= len(listed) <= 3:
            parts = listed
    if len(parts) < 2:
        return []
    candidates = [(whole, r) for whole, r in ranked if r.municipality == best.municipality and r.count.kind not in NO_DAY]
    # a word most of the municipality's rules use ("notice", "notify") tells a part's rule from the others less than
    # one few use ("Clerk", "affected"): each shared word weighs by how few rules hold it
    held = Counter(w for _, r in candidates for w in stems(f"{r.title} {r.obligation} {r.event}"))

    def weight(words: set[str]) -> float:
        return sum(min(1.0, 3.0 / held[w]) for w in words if held[w])

    def scored_for(part: str) -> list:
        # (the part's own words; the code's words for them at half weight: "need notice" is no rule in hours)
        said = stems(slots.without_dates(part)) - GENERIC_EVENT_STEMS
        wider = stems(slots.without_dates(expand(part))) - GENERIC_EVENT_STEMS - said

        def match(text: str) -> float:
            own = stems(text)
            return weight(said & own) + 0.5 * weight(wider & own)

        return sorted(((match(f"{r.title} {r.obligation} {r.event}") + 1.5 * match(r.title)
                        + ranking().event_weight * shared_event.get(r.id, 0) + 0.1 * whole, r)
                       for whole, r in candidates), key=lambda t: -t[0])

    per_part = [scored_for(part) for part in parts]

    # the rule chosen answers the part it scores best in against that part's top; the other parts are asked of the
    # other rules (the event dated, which drew the chosen rule, weighs alike for them)
    own_part = max(range(len(per_part)), key=lambda i: next((s for s, r in per_part[i] if r is best), float("-inf"))
                   - (per_part[i][0][0] if per_part[i] else 0))
    out = []
    for i, scored in enumerate(per_part):
        if i != own_part:
            scored = [(s, r) for s, r in scored if r.id != best.id]
        if not scored or scored[0][0] < 2 or (len(scored) > 1 and scored[0][0] - scored[1][0] < 1):
            continue
        top = scored[0][1]
        if top.id != best.id and top not in out:
            out.append(top)
    return out
