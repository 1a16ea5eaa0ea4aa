"""Brandon's street-opening surcharge (§ 404-6), by the age of the final paving.

The table and its quotes live in ``data/surcharge.yaml``. The surcharge is a multiple of
the permit fee; the fee itself is "as set by the Village Board" and is not in the text,
so without a fee the answer stays a multiple ("5 times the permit fee") — a fee is never
invented. Delafield levies no surcharge: asked for it, the tool says so (ok=False) and
lists what Delafield requires instead.

Boundaries. The bands share their endpoints ("New pavement to 1 year", "1 year to 2
years", …, "4 years to 5 years", "More than 5 years"). The last band says *more than* 5
years, so an age of exactly 5 years stays in "4 years to 5 years"; every shared endpoint
is read the same way: an age of exactly N years (the opening falls on the N-th
anniversary of the final paving) belongs to the band ending at N years — the younger,
higher band. Ages are measured by anniversary (dateutil relativedelta): a February 29
paving has its anniversaries on February 28.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path

import yaml
from dateutil.relativedelta import relativedelta
from pydantic import BaseModel, ConfigDict, Field, field_validator

from assistant.corpus import resolve_municipality
from assistant.tools.calendar import BusinessCalendar, business_calendar, describe_date
from assistant.tools.deadlines import DeadlineInput, QuoteRef, citation_for, deadline, rule_citations, rules
from assistant.tools.coverage import default_municipality, municipality_field, not_covered
from assistant.amendments import answers_changed_rules
from assistant.tools.spec import Route, ToolSpec
from assistant.types import Citation, ToolInput, ToolOutput

DATA_FILE = Path(__file__).resolve().parent / "data" / "surcharge.yaml"
TOOL_NAME = "street_opening_surcharge"

AGE_CONVENTION = (
    "Ages by anniversary of the final paving (dateutil relativedelta; a February 29 paving has "
    "its anniversaries on February 28); a band 'to N years' includes the N-th anniversary itself"
)


# ----------------------------------------------------------------------------- data


class Band(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str
    up_to_years: int | None
    multiplier: int
    section: str | None = None
    quote: str


class Requirement(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    what: str
    quotes: tuple[str, ...]


@dataclass(frozen=True)
class SurchargeData:
    """One municipality's surcharge table, and the rules its warnings come from."""

    municipality: str
    levy: QuoteRef
    fee: QuoteRef
    bands: tuple[Band, ...]
    new_street_rule: str
    winter_rule: str


@dataclass(frozen=True)
class NoSurcharge:
    """A municipality whose code levies no surcharge: what the tool says, and what it requires instead."""

    municipality: str
    message: str
    instead: str
    after: str
    requirements: tuple[Requirement, ...]


def _table(mid: str, b: dict) -> SurchargeData:
    bands = tuple(Band.model_validate(x) for x in b["bands"])
    # the table must run from young to old with a single open-ended last band
    ends = [x.up_to_years for x in bands]
    if ends[-1] is not None or any(e is None for e in ends[:-1]) or ends[:-1] != sorted(ends[:-1]):  # type: ignore[type-var]
        raise ValueError(f"{DATA_FILE.name}: {mid}: bands must ascend with one open-ended last band")
    known = rules()
    for rid in (b["new_street_rule"], b["winter_rule"]):
        if rid not in known:
            raise ValueError(f"{DATA_FILE.name}: {mid}: unknown deadline rule {rid!r}")
    return SurchargeData(municipality=mid, levy=QuoteRef(**b["levy"]), fee=QuoteRef(**b["fee"]), bands=bands,
                         new_street_rule=b["new_street_rule"], winter_rule=b["winter_rule"])


@functools.cache
def _all_data() -> dict[str, SurchargeData | NoSurcharge]:
    raw = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
    out: dict[str, SurchargeData | NoSurcharge] = {}
    for mid, entry in raw.items():
        if mid == "tools":
            continue
        if "bands" in entry:
            out[mid] = _table(mid, entry)
        else:
            out[mid] = NoSurcharge(
                municipality=mid, message=entry["no_surcharge"], instead=entry["instead"], after=entry["after"],
                requirements=tuple(Requirement.model_validate(x) for x in entry["requirements"]),
            )
    return out


def surcharge_data(municipality: str | None = None) -> SurchargeData:
    """The surcharge table of ``municipality`` (default: the tool's default municipality, from data)."""
    mid = municipality or default_municipality(TOOL_NAME)
    entry = _all_data().get(mid or "")
    if not isinstance(entry, SurchargeData):
        raise KeyError(f"no surcharge table for {mid!r}")
    return entry


def band_citation(band: Band, municipality: str | None = None) -> Citation:
    return citation_for(QuoteRef(section=band.section, quote=band.quote),
                        municipality or surcharge_data().municipality)


def no_surcharge_citations(entry: NoSurcharge) -> list[Citation]:
    return [citation_for(QuoteRef(quote=q), entry.municipality) for req in entry.requirements for q in req.quotes]


# ------------------------------------------------------------------------ models


class SurchargeInput(ToolInput):
    """A street opening: where, when, the age of the pavement and (optionally) the permit fee."""

    municipality: str = municipality_field(
        "street_opening_surcharge", "Municipality id or name; the data says which codes levy a surcharge."
    )
    opening_date: date = Field(description="Date of the street opening, 'YYYY-MM-DD'.")
    final_paving_date: date | None = Field(
        default=None,
        description="Date the final surface (final paving) at the opening was laid, 'YYYY-MM-DD'. "
        "Required when the opening is in or disturbs the pavement.",
    )
    permit_fee: Decimal | None = Field(
        default=None,
        description="The street opening permit fee in dollars, if known. The fee is set by the "
        "Village Board and is not in the code; without it the surcharge is given as a multiple of the fee.",
    )
    improved_or_repaved_date: date | None = Field(
        default=None,
        description="Date of the street's last permanent improvement or repaving, if known "
        "(§ 404-7I: generally no permit for five years after it).",
    )
    disturbs_pavement: bool = Field(
        default=True,
        description="Whether the opening is in or disturbs the paved portion (final surface); "
        "the surcharge applies only then.",
    )

    @field_validator("municipality")
    @classmethod
    def _known(cls, v: str) -> str:
        m = resolve_municipality(v)
        if m is None:
            raise ValueError("municipality is required")
        return m.id


class SurchargeResult(ToolOutput):
    """The surcharge multiplier and, with a permit fee, the amount."""

    municipality: str = Field(description="Municipality id.")
    multiplier: int | None = Field(
        default=None, description="How many times the permit fee (0 = no surcharge); null when no answer."
    )
    band: str | None = Field(default=None, description="The row of the table applied, as printed.")
    amount: Decimal | None = Field(
        default=None, description="Surcharge in dollars; only when a permit fee was given."
    )
    amount_text: str | None = Field(
        default=None, description="The surcharge in words, e.g. '5 times the permit fee' or '$500.00'."
    )
    permit_fee: Decimal | None = Field(default=None, description="The permit fee used, as given.")
    total_with_permit_fee: Decimal | None = Field(
        default=None, description="Permit fee plus surcharge (actual Village expenses come on top); only with a fee."
    )
    pavement_age: str | None = Field(default=None, description="Age of the final paving on the opening date.")
    pavement_age_days: int | None = Field(default=None, description="The same age in days.")
    at_band_boundary: bool = Field(
        default=False, description="True when the opening falls exactly on an anniversary that ends a band."
    )
    multiplier_other_reading: int | None = Field(
        default=None,
        description="At a band boundary: the multiplier if the shared endpoint belonged to the older band.",
    )
    new_street_restriction: bool | None = Field(
        default=None,
        description="True when § 404-7I's five-year limit after an improvement or repaving applies to "
        "this opening; null when the improvement date is unknown.",
    )
    in_no_opening_window: bool | None = Field(
        default=None, description="True when the opening date is in the November 15 – April 1 window (§ 404-7A)."
    )
    warnings: list[str] = Field(default_factory=list, description="Other provisions that bear on the opening.")


# ------------------------------------------------------------------------- logic


def band_for_age(final_paving: date, opening: date, municipality: str | None = None) -> tuple[Band, bool, Band | None]:
    """The band applied, whether the opening is exactly on the anniversary ending it, and
    the next (older) band for that boundary case."""
    bands = surcharge_data(municipality).bands
    for i, band in enumerate(bands):
        if band.up_to_years is None:
            return band, False, None
        anniversary = final_paving + relativedelta(years=band.up_to_years)
        if opening <= anniversary:
            exact = opening == anniversary
            return band, exact, (bands[i + 1] if exact else None)
    raise AssertionError("unreachable: the last band is open-ended")


def _age_text(start: date, end: date) -> str:
    rd = relativedelta(end, start)
    parts = [(rd.years, "year"), (rd.months, "month"), (rd.days, "day")]
    words = [f"{n} {w}{'' if n == 1 else 's'}" for n, w in parts if n]
    return ", ".join(words) if words else "0 days (same day)"


def _money(value: Decimal) -> str:
    return f"${value.quantize(Decimal('0.01')):,}"


@answers_changed_rules("street_opening_surcharge")
def surcharge_for_opening(inp: SurchargeInput, calendar: BusinessCalendar | None = None) -> SurchargeResult:
    """Surcharge for a street opening (Brandon § 404-6), with warnings from § 404-7."""
    cal = calendar or business_calendar()
    out = SurchargeResult(tool=TOOL_NAME, municipality=inp.municipality)
    entry = _all_data().get(inp.municipality)
    if isinstance(entry, NoSurcharge) or entry is None:
        out.ok = False
        if entry is None:
            out.error = not_covered(TOOL_NAME, inp.municipality) or f"no surcharge data for {inp.municipality}"
            return out
        reqs = "; ".join(r.what for r in entry.requirements)
        out.error = entry.message
        out.explanation = f"{entry.instead} {reqs}. {entry.after}"
        out.citations = no_surcharge_citations(entry)
        return out
    data = entry

    if inp.permit_fee is not None and inp.permit_fee < 0:
        out.ok = False
        out.error = f"permit_fee must not be negative (got {inp.permit_fee})"
        return out

    out.convention = AGE_CONVENTION
    out.permit_fee = inp.permit_fee
    levy = citation_for(data.levy, data.municipality)
    fee = citation_for(data.fee, data.municipality)

    if not inp.disturbs_pavement:
        out.multiplier = 0
        out.band = None
        out.amount = Decimal("0.00") if inp.permit_fee is not None else None
        out.amount_text = "no surcharge"
        out.citations = [levy]
        out.explanation = (
            "The surcharge is levied only on a street opening that is in or disturbs the paved "
            "portion (final surface); this opening does not, so no surcharge is due. The permit fee "
            "and any actual Village expenses still apply."
        )
        _winter_check(out, inp.opening_date, cal, data)
        return out

    if inp.final_paving_date is None:
        out.ok = False
        out.error = (
            "final_paving_date is required: the surcharge depends on the age of the final paving at "
            "the opening (give the date the final surface was laid, or disturbs_pavement=false)"
        )
        out.citations = [levy]
        return out

    if inp.opening_date < inp.final_paving_date:
        out.ok = False
        out.permit_fee = None
        out.error = (
            f"opening_date {inp.opening_date} is before final_paving_date {inp.final_paving_date}: "
            "the pavement cannot be disturbed before it is laid; check the dates"
        )
        return out

    band, exact, older = band_for_age(inp.final_paving_date, inp.opening_date, data.municipality)
    out.multiplier = band.multiplier
    out.band = band.label
    out.pavement_age = _age_text(inp.final_paving_date, inp.opening_date)
    out.pavement_age_days = (inp.opening_date - inp.final_paving_date).days
    out.at_band_boundary = exact
    out.multiplier_other_reading = older.multiplier if older else None
    out.citations = [levy, band_citation(band, data.municipality), fee]

    if band.up_to_years is not None:
        anniversary = inp.final_paving_date + relativedelta(years=band.up_to_years)
        where = (
            f"within \"{band.label}\" (up to and including the anniversary on {describe_date(anniversary)})"
        )
    else:
        where = f"in \"{band.label}\""
    multiple = f"{band.multiplier} times the permit fee" if band.multiplier else "no surcharge"
    verdict = f"so the surcharge is {multiple}" if band.multiplier else "so no surcharge is due"

    if inp.permit_fee is not None:
        amount = (inp.permit_fee * band.multiplier).quantize(Decimal("0.01"))
        out.amount = amount
        out.total_with_permit_fee = (inp.permit_fee + amount).quantize(Decimal("0.01"))
        out.amount_text = _money(amount) if band.multiplier else "no surcharge ($0.00)"
        money = (
            f" With a permit fee of {_money(inp.permit_fee)}: {band.multiplier} × {_money(inp.permit_fee)} = "
            f"{_money(amount)}, in addition to the permit fee and any actual Village expenses."
            if band.multiplier
            else " The permit fee and any actual Village expenses still apply."
        )
    else:
        out.amount_text = multiple
        money = (
            " No permit fee was given; the fee is set by the Village Board and is not in the code, so the "
            f"surcharge is stated as {multiple} (ask the Village Clerk for the current fee)."
            if band.multiplier
            else ""
        )
    out.explanation = (
        f"The final paving was laid on {describe_date(inp.final_paving_date)}; the opening on "
        f"{describe_date(inp.opening_date)} is {out.pavement_age} later ({out.pavement_age_days} days), "
        f"{where}, {verdict}.{money}"
    )

    out.assumptions.append(
        "The table's bands share their endpoints (\"to 1 year\", \"1 year to 2 years\", ... \"More than 5 "
        "years\"). Read here: an age of exactly N years belongs to the band ending at N years, the younger "
        "and higher band, because the last row says \"More than 5 years\" (so exactly 5 years is still "
        "\"4 years to 5 years\") and every endpoint is read alike."
    )
    if exact and older is not None:
        out.assumptions.append(
            f"This opening falls exactly on the anniversary ending the band; if the endpoint were read as "
            f"belonging to \"{older.label}\" instead, the surcharge would be "
            + (f"{older.multiplier} times the permit fee." if older.multiplier else "none.")
        )
    if band.multiplier:
        out.assumptions.append(
            "The surcharge is a multiple of the permit fee alone, not of the Village's actual expenses."
        )
    _new_street_check(out, inp, cal)
    _winter_check(out, inp.opening_date, cal, data)
    return out


def _new_street_check(out: SurchargeResult, inp: SurchargeInput, cal: BusinessCalendar) -> None:
    data = surcharge_data(inp.municipality)
    rule = rules()[data.new_street_rule]
    if inp.improved_or_repaved_date is not None:
        if inp.improved_or_repaved_date > inp.opening_date:
            out.new_street_restriction = False
            out.assumptions.append(
                "The improvement or repaving date given is after the opening, so § 404-7I's five-year "
                "limit does not bear on this opening (the surcharge uses the final paving date)."
            )
            return
        r = deadline(DeadlineInput(rule=rule.id, event=inp.improved_or_repaved_date), calendar=cal)
        assert r.due_date is not None
        out.new_street_restriction = inp.opening_date <= r.due_date
        if out.new_street_restriction:
            out.warnings.append(
                f"The street was improved or repaved on {inp.improved_or_repaved_date}; under § 404-7I no "
                f"opening permit is issued for five years after (through {r.due_date}) unless the Village "
                "Board or its designee finds it absolutely essential. The surcharge applies on top if the "
                "permit is issued."
            )
            out.citations.extend(r.citations)
        return
    if inp.final_paving_date is None:
        return
    r = deadline(DeadlineInput(rule=rule.id, event=inp.final_paving_date), calendar=cal)
    limit = r.due_date
    assert limit is not None
    if inp.opening_date <= limit:
        out.warnings.append(
            "If the final paving was the street's permanent improvement or repaving, § 404-7I applies too: "
            f"no opening permit for five years after it (through {limit}) unless the Village Board or its "
            "designee finds it absolutely essential (the day the street was improved or repaved, if given, settles it)."
        )
        out.citations.extend(rule_citations(rule))


def _winter_check(out: SurchargeResult, opening: date, cal: BusinessCalendar, data: SurchargeData) -> None:
    rule_id = data.winter_rule
    r = deadline(DeadlineInput(rule=rule_id, event=opening), calendar=cal)
    out.in_no_opening_window = r.in_window
    if r.in_window:
        out.warnings.append(
            f"{describe_date(opening)} is inside the November 15 - April 1 window of § 404-7A: no opening is "
            "permitted then unless the Village Board or its designee determines it an emergency excavation "
            f"(openings allowed again from {r.next_allowed_date})."
        )
        out.citations.extend(r.citations)


TOOLS: list[ToolSpec] = [
    ToolSpec(
        name=TOOL_NAME,
        description=(
            "Surcharge for opening or disturbing a paved street (§ 404-6 where a code levies one): a "
            "multiple of the permit fee by the age of the final paving, from 5 times (new to 1 year) to "
            "none (over 5 years); where a code levies none, it says so and what is required instead."
        ),
        input_model=SurchargeInput,
        output_model=SurchargeResult,
        fn=surcharge_for_opening,  # type: ignore[arg-type]
        keywords=(
            "surcharge", "street opening", "pavement age", "new pavement", "final paving", "permit fee",
            "times the permit fee", "repaved", "cut a new street", "cost of opening",
        ),
        route=Route(order=30, read="assistant.answering.routes.surcharge:surcharge",
                    answers="the surcharge for opening a street, by the age of its paving",
                    cues=(r"\bsurcharge|\bextra (?:fee|charge)\b|\bon top of the (?:permit )?fee\b|"
                          r"\badditional (?:fee|charge|amount)\b|\bextra\b[^.?!]{0,25}\b(?:pay|owe|charged?|cost)\b",)),
    ),
]
