"""Bonds and insurance: what a permit requires, and a certificate's limits checked."""

from __future__ import annotations

import re
from typing import Any

from assistant.answering import phrasing, slots
from assistant.answering.routes.common import Missing, RouteContext, Routed, which
from assistant.retrieval.lexical import stems


ASKS_A_DAY = re.compile(r"\b(?:earliest|soonest|latest|last (?:day|date)|(?:what|which) (?:date|day)|by when|how soon)\b",
                        re.I)


# a bond asked about by itself, no other priced thing beside it ("Is there a bond we have to post ...? How much?"),
# and no one kind of bond named ("the yearly bond that covers all our cuts": that one's passage answers)
_BOND_ASKED = re.compile(r"^(?!.*\b(?:fees?|surcharges?|fines?|penalt(?:y|ies)|deposits?|costs?|charges?)\b)"
                         r"(?!.*\b(?:yearly|annual|blanket|performance|restoration|surety|maintenance|privilege|"
                         r"indemnity)\s+bonds?\b).*\bbond\b", re.I | re.S)


# "how much advance notice of cancellation ...": a period asked, not an amount
_HOW_MUCH_TIME = re.compile(r"\bhow much (?:\w+ ){0,2}(?:notice|time|warning|lead time|heads[- ]up)\b", re.I)


def bond_requirements(q: str, muni: str | None, ctx: RouteContext):
    """The bonds, insurance and fees a permit requires (a single figure asked for is a lookup)."""
    if re.search(r"performance bond|annual bond|guarantee|surety|small contracts?|application fee|renewal fee|"
                 r"permit fee", q, re.I) and not re.search(r"\$\s?\d", q):
        return None  # one figure asked for: the passage answers it (or says who sets it)
    if re.search(r"how (?:large|much)|what amount", q, re.I) and not re.search(r"\$\s?\d", q) \
            and not (_BOND_ASKED.search(q) and not _HOW_MUCH_TIME.search(q)):
        return None  # ("is there a bond ...? How much?": the bonds the permit requires, stated or left to the Board)
    if ASKS_A_DAY.search(q):
        # "…notice on January 6 that they're dropping the policy. What's the earliest …?": a day, not a list (and with
        # no date given, "By what date does the Town have to get notice of the cancellation?", the date is asked)
        return None
    if muni is None:
        return Missing(which("Their bond and insurance rules differ."), needs_municipality=True)
    low = q.lower()
    permit = permit_for(muni, low)
    if ctx.query is not None and ctx.query.earlier and _permit_score(muni, low) == 0:
        # "and what about a bond, how much do they make you put up for that?": the permit is the conversation's ("a
        # roll-off dumpster in the street ..."), not the first one the data lists
        permit = permit_for(muni, f"{ctx.query.earlier} {low}".lower())
    # (what the words deny the applicant is, it is not: "a private sewer contractor, not the Village utility")
    applicant = ("village_public_utility" if slots.affirmed(r"village(?:-owned)? (?:public )?utility", low)
                 else "public_utility" if slots.affirmed(r"utility", low) else "contractor")
    return Routed("bond_insurance_requirements",
                  {"municipality": muni, "permit_type": permit, "applicant": applicant},
                  muni, phrasing.lead_generic)


def insurance_certificate(q: str, muni: str | None, ctx: RouteContext):
    """A certificate's limits checked against the permit's rules."""
    tool = "insurance_certificate_check"
    if ctx.query is not None and ctx.query.turn in q:
        # the amounts the reading found (in words too: "one point five mil", "seven-fifty K"), where the turn says them
        at = q.index(ctx.query.turn)
        said = [(at + s.span.start, at + s.span.end, s.number) for s in ctx.query.of("money", "turn")
                if s.unit in ("USD", "USD/person", "USD/accident", "USD/occurrence")]
        limits = slots.insurance_limits(q, said)
    else:
        limits = slots.insurance_limits(q)
    if not limits:
        return None
    if muni is None:
        return Missing(which("Their insurance limits differ."), needs_municipality=True)
    # a limit the question names with a figure beside it that was not read ("... but only about seventy-five on
    # property damage"): asked, never checked as if not given
    for key, rx in _LIMIT_NAMED.items():
        m = rx.search(ctx.current or q)
        if key not in limits and m is not None and _FIGURE_NEAR.search((ctx.current or q)[max(0, m.start() - 40):m.end() + 40]):
            return Missing(f"the {key.replace('_', ' ')}: the question names it, but its amount could not be read. "
                           "What is it, in dollars?", slot=key)
    # the municipality's own permit that asks for a certificate (the calculator's data says which)
    args: dict[str, Any] = {"municipality": muni, **{k: str(v) for k, v in limits.items()}}
    return Routed(tool, args, muni, phrasing.lead_insurance, sources=_limit_sources(limits, ctx))


def _limit_sources(limits: dict, ctx: RouteContext) -> dict:
    """Each limit's own span where its value is written more than once ("the $10k indemnity bond" before "bodily injury
    $10,000 per person"): the one its own words name ("per person", "property damage") beside it."""
    if ctx.query is None:
        return {}
    out = {}
    money = [s for s in ctx.query.of("money", "turn") if s.unit in ("USD", "USD/person", "USD/accident", "USD/occurrence")]
    for key, value in limits.items():
        rx = _LIMIT_NAMED.get(key)
        same = [s for s in money if s.number == value]
        if rx is None or len(same) < 2:
            continue
        named = [s for s in same if rx.match(s.after.lstrip(" /,")) or rx.search(s.before[-22:])]
        if len(named) == 1:
            out[key] = named[0]
    return out


_LIMIT_NAMED = {"property_damage_limit": re.compile(r"\bproperty\s+damage\b|\bPD\b"),
                "per_person_limit": re.compile(r"\b(?:per|each|a)\s+person\b", re.I),
                "per_accident_limit": re.compile(r"\b(?:per|each|an)\s+(?:accident|occurrence)\b", re.I)}
_FIGURE_NEAR = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|"
                          r"seventy|eighty|ninety|hundred|thousand|grand|million|mil)\b", re.I)
# plain words that name a permit as the calculators' data does not (general English)
PERMIT_WORDS = {"dumpster": "privilege", "building materials": "privilege", "construction materials": "privilege",
                "encumb": "privilege", "dig": "excavation opening", "trench": "excavation opening",
                "driveway": "driveway culvert", "curb": "curb gutter"}


def permit_for(muni: str, low: str) -> str:
    """The municipality's permit (from the bond calculator's data) whose words the question
    shares most; its first permit when none."""
    return _best_permit(muni, low)[0]


def _permit_score(muni: str, low: str) -> int:
    """How many words the best permit shares with the words (0: they name none)."""
    return _best_permit(muni, low)[1]


def _best_permit(muni: str, low: str) -> tuple[str, int]:
    from assistant.tools.bonds import _data

    words = stems(low + " " + " ".join(v for k, v in PERMIT_WORDS.items() if k in low)) - stems("permit street the a")
    best, score = None, 0
    for e in _data()["permits"]:
        if e["municipality"] != muni:
            continue
        own = stems(" ".join([e["permit_type"].replace("_", " "), e.get("name", ""),
                              *[a.replace("_", " ") for a in e.get("aliases", [])]])) - stems("permit street")
        n = len(words & own)
        if best is None or n > score:
            best, score = e["permit_type"], n
    return best or "excavation", score


