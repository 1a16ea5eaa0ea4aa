"""The types every route returns, and the helpers routes share."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from assistant.tools.registry import run_tool
from assistant.tools.spec import ToolSpec
from assistant.types import ToolOutput


@dataclass
class Missing:
    question: str
    needs_municipality: bool = False
    slot: str | None = None  # the value asked for
    candidates: tuple[str, ...] = ()  # the spans that compete for it, verbatim
    # the provision the calculation will apply, when the route knows it: (passage id, verbatim quote)
    provision: tuple[str, str] | None = None
    # how a value the question names was read into the days it may mean ("next Friday": this coming one or the one
    # after), each a calculator-like call whose result names the days: the question may state them
    readings: tuple[dict, ...] = ()


@dataclass(frozen=True)
class RouteContext:
    """What one request routes with: the words of this turn, the question's vector and
    reading, the calculators, and the similarity of the question to each deadline rule
    (worked out only when a route asks). Made per request and passed down: the router
    keeps no per-request state."""

    current: str
    vector: Any = None
    query: Any = None  # the reading.Query of the turn
    tools: dict[str, ToolSpec] = field(default_factory=dict)
    similar: Callable[[], dict[str, float]] = dict
    # the sections the search finds for the question, best first, each (municipality, number, title); searched only
    # when a route asks
    found: Callable[[], list[tuple]] = list


@dataclass
class Routed:
    tool: str
    arguments: dict[str, Any]
    municipality: str | None
    summarize: Callable[[ToolOutput], str]
    follow: list["Routed"] = field(default_factory=list)  # further calculators for the same answer
    # a checklist calculator answering one of its figures: the checks the lead states (their
    # provisions are the answer's citations; every check stays in the tool call's result)
    focus: tuple[str, ...] = ()
    # arguments the question did not give, with the default used and why ("opening_date": "today")
    defaults: dict[str, str] = field(default_factory=dict)
    # arguments worked out from several values the user wrote ("hours": "2 hours x 3 occasions")
    derived: dict[str, str] = field(default_factory=dict)
    # words that tie a value to an argument, where the argument's own name does not say it
    # (a deadline's event: "the street excavation starts")
    cues: dict[str, str] = field(default_factory=dict)
    # the slot each argument was read from, where a reading of roles chose it
    sources: dict[str, Any] = field(default_factory=dict)

    def citations(self, result: ToolOutput) -> list:
        checks = getattr(result, "checks", None) or []
        focused = []
        for c in checks:
            if c.requirement in self.focus and c.citation not in focused:
                focused.append(c.citation)
        return focused or list(result.citations)

    def run(self) -> ToolOutput:
        return run_tool(self.tool, self.arguments)

    def summary(self, result: ToolOutput) -> str:
        return self.summarize(result)


def serves(ctx: RouteContext, tool: str, muni: str | None) -> bool:
    """No municipality named yet, or the calculator's data covers the one named."""
    return muni is None or muni in ctx.tools[tool].municipalities


def only_municipality(ctx: RouteContext, tool: str, muni: str | None) -> str | None:
    """The municipality a calculator serves: the question's, or the one its data holds."""
    served = ctx.tools[tool].municipalities
    return muni if muni in served else (served[0] if len(served) == 1 else muni)


def ambiguous(chosen, provision: tuple[str, str] | None = None) -> Missing:
    """A reading of roles that found two candidates for one value: ask which."""
    return Missing(chosen.question(), slot=chosen.role, candidates=tuple(c.span.text for c in chosen.candidates),
                   provision=provision)


def names_of(ids) -> str:
    from assistant.corpus import municipality_by_id

    names = [(m.name if (m := municipality_by_id(i)) else i) for i in ids]
    return " and ".join(f"the {n} code" for n in names)


def which(reason: str) -> str:
    """'the Village of A or the Town of B? <reason>' from the municipalities loaded."""
    from assistant.corpus import municipalities

    return " or ".join(f"the {m.name}" for m in municipalities()) + f"? {reason}"


def rule_ending(muni: str | None, suffix: str) -> str | None:
    from assistant.tools.deadlines import rules

    return next((r.id for r in rules().values() if r.municipality == muni and r.id.endswith(suffix)), None)


def period(slot) -> tuple[date, date]:
    """The first and last day a week, a month or a year slot may mean (a season: its own stretch)."""
    if getattr(slot, "days", None):
        return slot.days
    d = slot.day
    if slot.precision == "year":
        return date(d.year, 1, 1), date(d.year, 12, 31)
    if slot.precision == "week":
        return d, date.fromordinal(d.toordinal() + 6)
    nxt = date(d.year + (d.month == 12), d.month % 12 + 1, 1)
    return d.replace(day=1), date.fromordinal(nxt.toordinal() - 1)


def asking(text: str) -> str:
    """The sentences of a turn that ask (those with a question mark), else its last sentence."""
    parts = [x for x in re.split(r"(?<=[.!?])\s+", text.strip()) if x]
    # (a last sentence typed without its question mark, "... does that pass? and if not whats the most rise i could
    # have", asks too)
    return " ".join(x for i, x in enumerate(parts) if "?" in x or (i == len(parts) - 1 and x[-1] not in ".!")) \
        or (parts[-1] if parts else "")


def own_clause(text: str, start: int, end: int) -> str:
    """The words of a value's own clause, cut at a sentence's end, a comma, "and", "but" or a bracket: "100 yards ahead
    of the pipe crew" and "the backfill is trailing around 150 yards behind" of one sentence."""
    cuts = (".", "?", "!", ";", ",", " and ", " but ", "(")
    left = max((text.rfind(c, 0, start) + len(c) for c in cuts if text.rfind(c, 0, start) >= 0), default=0)
    right = min((i for i in (text.find(c, end) for c in cuts) if i >= 0), default=len(text))
    return text[left:right]
