"""The typed plan: what the embedded planner decided to do with one turn.

question → ``Query`` (reading.py) → ``Plan`` (planner.decide) → ``Answer`` (planner.render).
Every decision — which municipality, which calculator, what to ask, what is not stated,
what is out of scope — is taken before a word of the answer is written; rendering only
quotes, runs the chosen calculator and phrases (phrasing.py). Plans are immutable and made
per request.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from assistant.answering.routes.common import Routed


@dataclass(frozen=True)
class Lookup:
    """Quote the code: the sentences chosen from the passages found (``picked``: passage,
    sentence, score), or a section the question cites, whole (``exact``)."""

    text: str  # the words searched with
    municipality: str
    picked: tuple = ()
    exact: tuple = ()
    note: str | None = None  # said first ("the question names no municipality; ...")
    checks: tuple = ()  # the user's measurement held against a quoted limit (limits.Check)
    worked: tuple = ()  # the arithmetic a quoted rate asks for with the user's count or amount (rates.Worked)
    counted: tuple = ()  # the day a quoted period gives from the user's date (periods.Counted)
    portions: tuple = ()  # the portion a quoted sentence sets of the user's measure (portions.Portion)


@dataclass(frozen=True)
class Calculate:
    """Run a calculator whose every argument traces to the words or a declared default."""

    text: str
    municipality: str | None
    routed: Routed
    read: tuple = ()  # what was read, in the order it is shown ("I read: ...")
    asides: tuple = ()  # (passage, sentence) answering an ask of the question no calculator takes, quoted after


@dataclass(frozen=True)
class Several:
    """One calculation per party the question asks about, each read from its own sentence and
    the shared ones (parties.py): ``parts`` holds (label, Calculate, the part's own request)."""

    parts: tuple


@dataclass(frozen=True)
class Clarify:
    """Ask: which municipality, or a value the question lacks or gives twice."""

    question: str  # the whole clarifying sentence, phrased
    municipality: str | None = None
    slot: str | None = None
    candidates: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    quote: tuple = ()  # (passage, sentence) the question names figures of: quoted instead of a fresh search's best
    more_quotes: tuple = ()  # further (passage, sentence) pairs the question names figures of (each case asked about)
    readings: tuple = ()  # calls that read a value into the days it may mean (their results may be stated)


@dataclass(frozen=True)
class NotStated:
    """The code does not state the figure asked: it leaves it to someone (``set_by``) or
    says nothing closer than the quoted provisions."""

    municipality: str
    picked: tuple  # (passage, sentence, score)
    set_by: bool  # the quote names who sets the amount
    who: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class OutOfScope:
    why: str = ""


@dataclass(frozen=True)
class Refuse:
    message: str
    events: tuple[str, ...] = field(default_factory=tuple)


Plan = Lookup | Calculate | Several | Clarify | NotStated | OutOfScope | Refuse


def describe(plan: Plan) -> dict[str, Any]:
    """A plain record of a plan (for logs and tests): its kind and what it names."""
    out: dict[str, Any] = {"plan": type(plan).__name__}
    if isinstance(plan, Calculate):
        out.update(tool=plan.routed.tool, arguments=plan.routed.arguments)
    elif isinstance(plan, Several):
        out.update(parts=[{"party": label, **describe(part)} for label, part, _ in plan.parts])
    elif isinstance(plan, Clarify):
        out.update(slot=plan.slot, candidates=list(plan.candidates))
    elif isinstance(plan, (Lookup, NotStated)):
        out.update(municipality=plan.municipality)
    return out
