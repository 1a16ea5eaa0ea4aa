"""The contractor's pre-application checklist: a job described once, every rule that
applies to it listed with its provision.

``build_checklist(ChecklistRequest) -> Checklist`` is pure: every date and figure comes
from a calculator in ``assistant/tools`` (deadlines, surcharge, bonds, specification
checks, the business-day calendar), and every item carries the citation of the words it
rests on — taken from the calculator's result or built with ``assistant.corpus.cite``.
Where the code leaves an amount to a board, the item says who sets it and gives no
figure. ``to_markdown`` and ``to_pdf`` export the result (the PDF uses a core font, so
characters it cannot encode are transliterated).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from assistant.corpus import QuoteNotFound, cite, resolve_municipality
from assistant.types import Citation, ToolOutput

WorkKind = Literal["street_opening", "sidewalk", "driveway_culvert", "street_privilege", "heavy_vehicle"]
PavementType = Literal["bituminous", "concrete", "none"]
LaneClosure = Literal["none", "reduced", "below_one_lane_each_way", "full_closure"]
ItemStatus = Literal["required", "conditional", "warning", "shortfall", "info"]

WORK_LABELS: dict[str, str] = {
    "street_opening": "Street or alley opening (excavation)",
    "sidewalk": "Sidewalk work",
    "driveway_culvert": "Driveway and culvert",
    "street_privilege": "Street privilege / encumbrance for building work",
    "heavy_vehicle": "Heavy vehicle movement",
}
_WORK_ALIASES = {
    "alley_opening": "street_opening",
    "opening": "street_opening",
    "excavation": "street_opening",
    "street opening": "street_opening",
    "alley opening": "street_opening",
    "driveway": "driveway_culvert",
    "culvert": "driveway_culvert",
    "driveway and culvert": "driveway_culvert",
    "street privilege": "street_privilege",
    "encumbrance": "street_privilege",
    "heavy vehicle": "heavy_vehicle",
    "heavy_vehicles": "heavy_vehicle",
}
LANE_LABELS: dict[str, str] = {
    "none": "No lane closed",
    "reduced": "Lanes reduced, at least one lane kept open in each direction",
    "below_one_lane_each_way": "Less than one lane in each direction (alternating traffic)",
    "full_closure": "Road closed to traffic",
}

GROUPS: tuple[tuple[str, str], ...] = (
    ("permits", "Permits and who issues them"),
    ("fees", "Fees and surcharge"),
    ("bonds", "Bonds and insurance"),
    ("notices", "Notices"),
    ("seasonal", "Seasonal restrictions"),
    ("specifications", "Construction specifications"),
    ("post_work", "After the work: obligations and guarantees"),
)
Group = Literal["permits", "fees", "bonds", "notices", "seasonal", "specifications", "post_work"]

# Bounds that keep every date the calculators derive (years of guarantees and surcharge
# bands ahead) and every sum inside what they can compute: beyond them a request is an
# input error with a clear message, not an overflow deep in a calculator.
EARLIEST_DATE = date(1900, 1, 1)
LATEST_DATE = date(2199, 12, 31)
MAX_DOLLARS = Decimal("999999999999.99")  # the calculators' 14 digits with cents


def _date_in_range(value: date) -> date:
    if not EARLIEST_DATE <= value <= LATEST_DATE:
        raise ValueError(f"{value.isoformat()} is out of range: give a date between {EARLIEST_DATE.isoformat()} "
                         f"and {LATEST_DATE.isoformat()}")
    return value


def _dollars(description: str, default: Any = None) -> Any:
    return Field(default=default, ge=0, le=MAX_DOLLARS, allow_inf_nan=False, description=description)


JobDate = Annotated[date, AfterValidator(_date_in_range)]


class InsuranceCertificate(BaseModel):
    """What the contractor's certificate of insurance (and bond) shows."""

    model_config = ConfigDict(extra="forbid")

    per_person: Decimal | None = _dollars("Bodily (personal) injury limit, each person, in dollars.")
    per_accident: Decimal | None = _dollars("Bodily injury limit, each accident, in dollars.")
    property_damage: Decimal | None = _dollars("Property damage limit, in dollars.")
    expires: JobDate | None = Field(default=None, description="Expiration date on the certificate.")
    self_insured: bool = Field(default=False, description="A certificate of self-insurance.")
    indemnity_bond: Decimal | None = _dollars("Indemnity bond already on file, in dollars (0 = none; omit if unknown).")
    cancellation_notice_days: int | None = Field(
        default=None, ge=0, le=3650, description="Days' notice to the municipality before the policy can be cancelled."
    )


class ChecklistRequest(BaseModel):
    """A job as the contractor describes it. Unknown fields are errors."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    municipality: str = Field(description="Municipality id or name (from the manifest).")
    work: WorkKind = Field(
        description="Kind of work: street_opening (street or alley opening), sidewalk, driveway_culvert, "
        "street_privilege (encumbrance for building work) or heavy_vehicle."
    )
    location: str = Field(default="", max_length=300, description="Where: street address or intersection.")

    start_date: JobDate = Field(description="Planned start of the work.")
    start_time: time = Field(default=time(7, 0), description="Planned start time (local), for notices in hours.")
    duration_days: int = Field(default=1, ge=1, le=366, description="Planned duration in calendar days, start day included.")
    pavement: PavementType = Field(default="none", description="Pavement opened: bituminous, concrete or none.")
    final_paving_date: JobDate | None = Field(
        default=None, description="Date of the final paving (surface) of the street at the opening."
    )
    existing_pavement_depth_in: Decimal | None = Field(
        default=None, gt=0, le=48, description="Depth of the existing pavement, in inches, if known."
    )
    emergency: bool = Field(default=False, description="Emergency excavation (protection of property, life, health or safety).")
    public_utility: bool = Field(default=False, description="The applicant is a public utility.")
    village_utility: bool = Field(default=False, description="The applicant is a Village public utility (where the code knows the term).")
    lane_closures: LaneClosure = Field(
        default="none",
        description="none; reduced (one lane kept each way); below_one_lane_each_way; full_closure.",
    )
    service_loss: bool = Field(default=False, description="The work cuts a utility service to private properties.")
    permit_fee: Decimal | None = _dollars("The permit fee the Board set, if known (the code states none).")
    insurance: InsuranceCertificate | None = Field(default=None, description="The contractor's certificate.")
    commercial: bool = Field(default=False, description="Sidewalk in front of a commercial or industrial establishment.")
    driveway_approach: bool = Field(default=False, description="Sidewalk work includes a driveway approach.")
    driveway_surface: Literal["concrete", "asphalt", "gravel"] | None = Field(
        default=None, description="Driveway surface (some codes' permits differ by surface)."
    )
    road_jurisdiction: Literal["local", "county", "state"] = Field(
        default="local", description="Who owns the road: the Village/Town (local), the county or the State."
    )
    vehicle_weight_tons: Decimal | None = Field(default=None, ge=0, le=500, description="Gross vehicle weight, tons.")
    lugged_wheels: bool = Field(default=False, description="The machine has lugged wheels (cleats, flanges).")

    @field_validator("municipality")
    @classmethod
    def _municipality_id(cls, value: str) -> str:
        m = resolve_municipality(value)  # raises UnknownMunicipality (a ValueError) with the known list
        if m is None:
            raise ValueError("municipality is required (an id or name from the manifest)")
        return m.id

    @field_validator("location")
    @classmethod
    def _one_line(cls, value: str) -> str:
        return re.sub(r"[\x00-\x1f\x7f]+", " ", value).strip()

    @field_validator("work", mode="before")
    @classmethod
    def _work_alias(cls, value: Any) -> Any:
        if isinstance(value, str):
            key = value.strip().lower()
            return _WORK_ALIASES.get(key, key.replace(" ", "_").replace("-", "_"))
        return value

    @field_validator("lane_closures", mode="before")
    @classmethod
    def _lanes_bool(cls, value: Any) -> Any:
        if value is True:
            return "reduced"
        if value is False or value is None:
            return "none"
        return value

    @model_validator(mode="after")
    def _consistent(self) -> "ChecklistRequest":
        if self.village_utility:
            self.public_utility = True
        if self.final_paving_date and self.final_paving_date > self.start_date:
            raise ValueError(
                f"final_paving_date ({self.final_paving_date}) is after start_date ({self.start_date}): "
                "the opening cannot come before the paving"
            )
        if self.pavement == "none" and self.final_paving_date is not None:
            raise ValueError("final_paving_date is given but pavement is 'none'")
        return self

    @property
    def end_date(self) -> date:
        """Last day of work: the start day counts as day 1."""
        return self.start_date + timedelta(days=self.duration_days - 1)

    @property
    def start_moment(self) -> datetime:
        return datetime.combine(self.start_date, self.start_time)


class ChecklistItem(BaseModel):
    """One thing to do, to pay, to furnish or to know — with the provision it rests on."""

    model_config = ConfigDict(extra="forbid")

    group: Group = Field(description="Checklist group.")
    text: str = Field(description="What to do, in plain words.")
    status: ItemStatus = Field(
        default="required",
        description="required; conditional (only if its condition holds); warning (the plan conflicts with "
        "the code); shortfall (the certificate or bond falls short); info.",
    )
    who: str | None = Field(default=None, description="Who issues, receives or decides.")
    due: str | None = Field(default=None, description="The computed date or moment, as text.")
    due_date: date | None = Field(default=None, description="The computed date, for sorting and tests.")
    figure: str | None = Field(
        default=None, description="Amount or multiple, e.g. '5 times the permit fee' or 'set by the Village Board'."
    )
    tool: str | None = Field(default=None, description="Calculator that produced the date or figure.")
    explanation: str | None = Field(default=None, description="The calculator's explanation.")
    citations: list[Citation] = Field(min_length=1, description="The provisions the item rests on.")
    assumptions: list[str] = Field(default_factory=list, description="Readings chosen and ambiguities.")


class Checklist(BaseModel):
    """The checklist for one job, grouped; every item cited."""

    model_config = ConfigDict(extra="forbid")

    request: ChecklistRequest
    municipality_name: str
    title: str
    work_end_date: date = Field(description="Last planned day of work (start day + duration - 1).")
    items: list[ChecklistItem] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list, description="Conflicts between the plan and the code.")
    not_covered: list[str] = Field(
        default_factory=list, description="What the chapter does not regulate for this job (ask the office)."
    )
    convention: str | None = Field(default=None, description="How time was counted.")
    tools_used: list[str] = Field(default_factory=list, description="Calculators called.")

    def grouped(self) -> list[tuple[str, str, list[ChecklistItem]]]:
        out = []
        for key, label in GROUPS:
            items = [i for i in self.items if i.group == key]
            if items:
                out.append((key, label, items))
        return out

    def item(self, contains: str) -> ChecklistItem:
        """The first item whose text contains ``contains`` (case-insensitive); for tests and callers."""
        want = contains.lower()
        for i in self.items:
            if want in i.text.lower():
                return i
        raise KeyError(contains)


# ============================================================================ building


class _Builder:
    """Collects items for one request; every date and figure comes from a tool call."""

    def __init__(self, req: ChecklistRequest):
        from assistant.tools.calendar import business_calendar

        self.req = req
        self.mid = req.municipality
        self.cal = business_calendar()
        self.items: list[ChecklistItem] = []
        self.warnings: list[str] = []
        self.not_covered: list[str] = []
        self.tools: list[str] = []
        self.stale: list[tuple[Citation, str, list[Citation]]] = []  # quotes an amendment changed

    # -- citations and items -----------------------------------------------------
    def cite(self, quote: str, section: str | None = None) -> Citation:
        """The citation of ``quote``; when an amendment changed it, a placeholder that makes
        ``add`` put a "this rule changed" warning (citing the new text) in place of the item."""
        try:
            return cite(self.mid, quote, section=section)
        except QuoteNotFound as exc:
            from assistant.amendments import changed_rule

            message, new = changed_rule(self.mid, quote, exc.section)
            placeholder = Citation(municipality=self.mid, chapter="", section=section, title="", quote=quote)
            self.stale.append((placeholder, message, new))
            return placeholder

    def changed(self, exc: QuoteNotFound, group: Group = "permits") -> None:
        """A calculator's rule changed: say so, citing the new text, in place of its items."""
        from assistant.amendments import changed_rule

        message, new = changed_rule(exc.municipality or self.mid, exc.quote, exc.section)
        self._changed_item(message, new, group)

    def _changed_item(self, message: str, new: list[Citation], group: Group = "permits") -> None:
        if any(i.text == message for i in self.items) or message in self.warnings:
            return
        if new:
            self.add(group, message, new, status="warning")
        else:
            self.warnings.append(message)

    def rule(self, role: str) -> str:
        """The id of this municipality's deadline rule playing ``role`` (data/deadlines.yaml)."""
        from assistant.tools.coverage import provision_key

        return provision_key(self.mid, role)

    def quote(self, role: str) -> Citation:
        """The citation of a quote kept in the checklist data (``quotes:`` of data/checklist.yaml)."""
        q = _checklist_data()["quotes"][provision_key_of(self.mid, role)]
        return self.cite(q["quote"], section=q.get("section"))

    def add(self, group: Group, text: str, citations: list[Citation], **kw: Any) -> ChecklistItem | None:
        stale = [(m, new) for c in citations for (p, m, new) in self.stale if c is p]
        if stale:  # never list an item whose provision changed: say what changed instead
            for message, new in stale:
                self._changed_item(message, new)
            return None
        seen: list[Citation] = []
        for c in citations:
            if c not in seen:
                seen.append(c)
        item = ChecklistItem(group=group, text=text, citations=seen, **kw)
        self.items.append(item)
        if item.status == "warning" and text not in self.warnings:
            self.warnings.append(text)
        return item

    def used(self, out: ToolOutput) -> ToolOutput:
        if out.tool not in self.tools:
            self.tools.append(out.tool)
        return out

    # -- tool adapters -------------------------------------------------------------
    def deadline(self, rule: str, event: date | datetime, emergency: bool = False):
        from assistant.tools.deadlines import DeadlineInput, deadline

        r = deadline(DeadlineInput(rule=rule, event=event, emergency=emergency), calendar=self.cal)
        self.used(r)
        if not r.ok:
            raise RuntimeError(f"deadline {rule}: {r.error}")
        return r

    def rule_citations(self, rule: str) -> list[Citation]:
        from assistant.tools.deadlines import rule_citations, rules

        return rule_citations(rules()[rule])

    def rule_period(self, rule: str) -> str:
        from assistant.tools.deadlines import _period_text, rules

        return _period_text(rules()[rule].count)

    @staticmethod
    def when(r: Any) -> str | None:
        from assistant.tools.calendar import describe_date, describe_deadline_moment

        if getattr(r, "due_at", None) is not None:
            return describe_deadline_moment(r.due_at)
        if getattr(r, "due_date", None) is not None:
            return describe_date(r.due_date)
        return None

    def spec_figure(self, key: str, field: str) -> str:
        from assistant.tools import specs

        self.used(ToolOutput(tool="specifications (data)"))
        specs._cite(key)  # the figure is given only while its quote still reads so (QuoteNotFound otherwise)
        raw = str(specs._provision(key)[field])
        return specs._num(specs._fraction(key, field) if "/" in raw else specs._figure(key, field))

    def spec_cite(self, key: str) -> Citation:
        from assistant.tools import specs

        return specs._cite(key)

    def spec_rows(self, out: Any, *, skip: tuple[str, ...] = ("not_applicable",), group: Group = "specifications",
                  status: ItemStatus = "required") -> None:
        """Turn a specification check run without measurements into requirement items."""
        self.used(out)
        if not out.ok:
            return
        for i, row in enumerate(out.checks):
            if row.status in skip:
                continue
            st: ItemStatus = status
            if row.status == "fail":
                st = "warning"
            same = row.required.lower().strip(". ") in row.description.lower()
            text = row.description if same else f"{row.description}: {row.required}"
            if row.status == "fail" and row.note:
                text += f" — {row.note}"
            self.add(group, text, [row.citation], status=st, tool=out.tool,
                     assumptions=list(out.assumptions) if i == 0 else [])

    def date_text(self, d: date) -> str:
        from assistant.tools.calendar import describe_date

        return describe_date(d)


def _money_text(x: Decimal) -> str:
    from assistant.tools.bonds import money

    return money(x)


def _applicant(req: ChecklistRequest) -> str:
    if req.village_utility:
        return "village_public_utility"
    if req.public_utility:
        return "public_utility"
    return "contractor"


# ---------------------------------------------------------------------------- pieces


def _bond_items(b: _Builder, permit_type: str) -> None:
    from assistant.tools.bonds import BondRequirementsInput, bond_insurance_requirements

    try:
        out = b.used(bond_insurance_requirements(BondRequirementsInput(
            municipality=b.mid, permit_type=permit_type, applicant=_applicant(b.req))))
    except QuoteNotFound as exc:  # an amended provision: a warning in place of the bond items, the rest goes on
        b.changed(exc, "bonds")
        return
    if not out.ok:
        return
    surface = b.req.driveway_surface
    for i, r in enumerate(out.requirements):
        if r.id == "concrete_driveway_permit_fee" and surface is not None and surface != "concrete":
            continue
        if r.amount is not None:
            figure = _money_text(r.amount)
        elif r.limits:
            from assistant.tools.bonds import LIMIT_LABELS

            figure = "; ".join(f"{_money_text(v)} {LIMIT_LABELS[k]}" for k, v in r.limits.items())
        elif r.max_amount is not None:
            figure = f"set by {r.amount_set_by}, not exceeding {_money_text(r.max_amount)}"
        elif r.amount_set_by:
            figure = f"set by {r.amount_set_by} (no figure in the code)"
        else:
            figure = None
        status: ItemStatus = {"required": "required", "alternative": "info", "optional": "info",
                              "conditional": "conditional", "exempt": "info"}[r.status]
        text = r.what
        if r.status == "alternative" and r.alternative_to:
            text = f"Alternative to the {r.alternative_to.replace('_', ' ')}: {text}"
        if r.status == "optional":
            text = f"Option: {text}"
        if r.status == "exempt":
            text = f"Not required of this applicant: {text}"
        group: Group = "fees" if r.kind in ("fee", "deposit") else "bonds"
        b.add(group, text, r.citations, status=status, figure=figure, tool=out.tool,
              who=r.amount_set_by, explanation=out.explanation if i == 0 else None,
              assumptions=list(out.assumptions) if i == 0 else [])


def _certificate_items(b: _Builder, permit_type: str, work_end: date, permit_issue: date) -> None:
    from assistant.tools.bonds import CertificateCheckInput, insurance_certificate_check

    ins = b.req.insurance
    if ins is None:
        return
    try:
        out = b.used(insurance_certificate_check(CertificateCheckInput(
            municipality=b.mid, permit_type=permit_type, per_person_limit=ins.per_person,
            per_accident_limit=ins.per_accident, property_damage_limit=ins.property_damage,
            expiry_date=ins.expires, work_start_date=b.req.start_date, work_end_date=work_end,
            permit_issue_date=permit_issue, self_insured=ins.self_insured,
            village_public_utility=b.req.village_utility, indemnity_bond_amount=ins.indemnity_bond,
            cancellation_notice_days=ins.cancellation_notice_days)))
    except QuoteNotFound as exc:
        b.changed(exc, "bonds")
        return
    if not out.ok:
        return
    for row in out.shortfalls:
        note = f" — {row.note}" if row.note else ""
        b.add("bonds", f"Shortfall: {row.description}: required {row.required}, certificate shows "
              f"{row.provided or 'nothing'}{note}", [row.citation], status="shortfall", tool=out.tool,
              figure=row.required)
    unchecked = [r for r in out.checks if r.status == "not_checked"]
    if out.compliant:
        b.add("bonds", "The certificate meets every requirement checked.", out.citations, status="info",
              tool=out.tool, explanation=out.explanation, assumptions=list(out.assumptions))
    else:
        for row in unchecked:
            b.add("bonds", f"Not checked: {row.description} ({row.required})"
                  + (f" — {row.note}" if row.note else ""), [row.citation], status="conditional", tool=out.tool)
    if out.shortfalls:
        b.warnings.append(f"The insurance certificate or bond falls short on {len(out.shortfalls)} point(s).")


# ---------------------------------------------------------------------------- Brandon


def _brandon_permit_life(b: _Builder, approval: date) -> date:
    """Permit validity (and renewal) against the planned end; returns the last covered day."""
    req = b.req
    v = b.deadline(b.rule("permit_validity"), approval)
    assert v.due_date is not None
    b.add("permits", f"The permit is valid for {b.rule_period(b.rule('permit_validity'))} from approval: "
          f"through {b.when(v)} if approved on the start day.", v.citations, status="info", tool=v.tool,
          due=b.when(v), due_date=v.due_date, explanation=v.explanation,
          assumptions=["Approval is assumed on the planned start date (the latest it can be); an earlier "
                       "approval ends the validity sooner.", *v.assumptions])
    last = v.due_date
    if req.end_date > v.due_date:
        r = b.deadline(b.rule("permit_renewal"), v.due_date)
        assert r.due_date is not None
        b.add("permits", f"The work runs past the permit's validity: apply in writing for a renewal "
              f"({b.rule_period(b.rule('permit_renewal'))}) before {b.when(v)} (renewed through "
              f"{b.when(r)}, at the Clerk's or Director's discretion).", r.citations, status="required",
              tool=r.tool, due=b.when(v), due_date=v.due_date, explanation=r.explanation,
              who="Village Clerk or Director of Public Works")
        b.add("fees", "Renewal permit fee", b.rule_citations(b.rule("permit_renewal")),
              figure="set by the Village Board (no figure in the code)", who="the Village Board")
        last = r.due_date
        if req.end_date > r.due_date:
            b.add("permits", f"Even renewed once, the permit ends {b.when(r)}, before the planned end "
                  f"{b.date_text(req.end_date)}: further renewals are at the Clerk's or Director's discretion.",
                  r.citations, status="warning", tool=r.tool)
    return last


def _brandon_opening(b: _Builder, *, kind_note: str | None = None) -> None:
    from assistant.tools.deadlines import (
        EmergencyExcavationInput,
        ExcavationNoticesInput,
        OpeningSeasonInput,
        emergency_excavation_deadlines,
        excavation_notice_deadlines,
        winter_opening_restriction,
    )
    from assistant.tools.specs import PavementPatchInput, TrenchInput, pavement_patch_check, trench_check
    from assistant.tools.surcharge import SurchargeInput, surcharge_for_opening

    req = b.req
    s = "404-6"
    t = "404-7"
    # ---------------------------------------------------------------- permits
    if req.emergency:
        e = b.used(emergency_excavation_deadlines(
            EmergencyExcavationInput(municipality=b.mid, excavation=req.start_moment), calendar=b.cal))
        apply_cit = [c for c in e.citations if c.section == t] or e.citations
        b.add("permits", "Emergency excavation: emergency measures may start without a permit; apply for the "
              f"street opening permit not later than the next business day ({b.date_text(e.apply_by)}) and "
              "notify the Village office immediately.", apply_cit, due=b.date_text(e.apply_by),
              due_date=e.apply_by, tool=e.tool, explanation=e.explanation, assumptions=list(e.assumptions),
              who="Village Clerk or Director of Public Works")
    else:
        b.add("permits", "Street opening (excavation) permit before any opening in a public street, alley, way, "
              "ditch, ground, sidewalk or Village-owned easement.",
              [b.cite("without a permit therefor from the Village Clerk or Director of Public Works", s)],
              who="Village Clerk or Director of Public Works", due=f"before {b.date_text(req.start_date)}")
    b.add("permits", "Written, signed application with the general location, the nature of the work and the "
          "method proposed; list every opening on the application (several may share one form).",
          [b.cite("The application for a permit shall be in writing and signed by the applicant or his/her agent.", s),
           b.cite("each opening must be listed at the time the application is submitted", s)],
          who="Village Clerk or Director of Public Works")
    b.add("permits", "Identify and locate on the application any existing patch or other opening close to this one.",
          [b.cite("the permittee shall identify and locate the existing patches or additional openings on the "
                  "permit application form", t)], status="conditional")
    if req.public_utility:
        b.add("permits", "Public utilities are bound by §§ 404-6 and 404-7 like any permittee"
              + (" (a Village public utility posts no indemnity bond)." if req.village_utility else "."),
              [b.cite("are hereby required to be bound by the terms and conditions of this section and § 404-7", s)],
              status="info")
    permit_end = _brandon_permit_life(b, req.start_date)

    # ---------------------------------------------------------------- fees
    _bond_items(b, "street_opening")  # fee (kind fee) -> fees; bond, insurance, guarantee -> bonds
    if req.emergency:
        b.add("fees", f"Emergency: no permit fee (actual Village expenses are still charged) if the application "
              f"is filed by {b.date_text(e.fee_waiver_by)}; filed later, the application and review fee set by the "
              "Village Board applies.", [c for c in e.citations if c.section == s] or e.citations,
              due=b.date_text(e.fee_waiver_by), due_date=e.fee_waiver_by, tool=e.tool,
              figure="no permit fee if filed in time")
    else:
        b.add("fees", "An opening made before the approved permit is received pays the application and review "
              "fee set by the Village Board, plus actual expenses.",
              [b.cite("If the street opening is made prior to the receipt of an approved street opening permit", s)],
              status="info", figure="set by the Village Board (no figure in the code)")
    sur = b.used(surcharge_for_opening(SurchargeInput(
        municipality=b.mid, opening_date=req.start_date, final_paving_date=req.final_paving_date,
        permit_fee=req.permit_fee, disturbs_pavement=req.pavement != "none"), calendar=b.cal))
    if sur.ok:
        b.add("fees", "Surcharge for an opening in or disturbing the paved portion, by the age of the final paving"
              + (f" ({sur.pavement_age} on the opening date)" if sur.pavement_age else ""),
              sur.citations[:3], figure=sur.amount_text, tool=sur.tool, explanation=sur.explanation,
              assumptions=list(sur.assumptions), status="required" if sur.multiplier else "info")
        for w in sur.warnings:
            if "404-7I" in w:
                mor = b.deadline(b.rule("new_street_moratorium"), req.final_paving_date)
                b.add("permits", "No permit is issued to open a street for five years after its permanent "
                      f"improvement or repaving (through {b.when(mor)}) unless the Village Board or its designee "
                      f"finds it absolutely essential — if the final paving of {b.date_text(req.final_paving_date)} "
                      "was such an improvement.", mor.citations, status="warning", tool=mor.tool,
                      due=b.when(mor), due_date=mor.due_date, explanation=mor.explanation)
    else:
        b.add("fees", "Surcharge for an opening in the paved portion: give the date of the final paving to compute "
              f"it ({sur.error}).", sur.citations or [b.cite("a surcharge shall be levied for any street opening", s)],
              status="conditional", figure="a multiple of the permit fee, by the age of the paving",
              tool=sur.tool)

    # ---------------------------------------------------------------- bonds and insurance
    _certificate_items(b, "street_opening", work_end=max(req.end_date, permit_end), permit_issue=req.start_date)

    # ---------------------------------------------------------------- notices
    n = b.used(excavation_notice_deadlines(ExcavationNoticesInput(
        municipality=b.mid, work_start=req.start_moment,
        service_loss_at=req.start_moment if req.service_loss else None, emergency=req.emergency), calendar=b.cal))
    texts = {
        b.rule("notice_dpw_start"): "Notify the Director of Public Works of the location and extent of the excavation",
        b.rule("notice_affected"): "Notify the Village Clerk or Director of Public Works and everyone affected by the work",
        b.rule("notice_loss_of_service"): "Notify the private properties, in writing or in person, before their "
                                          "utility service is cut",
    }
    for notice in n.notices:
        event = req.start_date if notice.rule == b.rule("notice_affected") else req.start_moment
        r = b.deadline(notice.rule, event, emergency=req.emergency)
        if req.emergency:  # an emergency leaves no time to give it in advance
            b.add("notices", f"{texts.get(notice.rule, notice.title)} — normally {r.period} before; in an "
                  "emergency, as soon as possible.", [notice.citation], tool=n.tool, due="as soon as possible",
                  explanation=r.explanation, assumptions=[
                      "The text makes no emergency exception to this notice, but an emergency cannot be announced "
                      "a business day ahead: read as due as soon as possible.", *r.assumptions])
            continue
        b.add("notices", f"{texts.get(notice.rule, notice.title)} — {r.period} before.", [notice.citation],
              due=b.when(r), due_date=r.due_date, tool=n.tool, explanation=r.explanation,
              assumptions=list(r.assumptions))
    if req.emergency:
        b.add("notices", "Emergency: the 24-hour notice to the Director and the 12-hour loss-of-service notice are "
              "not required; notify the Village office immediately.",
              b.rule_citations(b.rule("notice_dpw_start")) + [b.cite("shall notify the Village office immediately", t)],
              status="info", tool=n.tool)
    b.add("notices", f"Notify the Village Clerk or Director of Public Works at least "
          f"{b.rule_period(b.rule('notice_backfill'))} before backfilling and/or restoring the surface.",
          b.rule_citations(b.rule("notice_backfill")), due="before backfilling (time not planned yet)",
          tool="deadline")

    # ---------------------------------------------------------------- seasonal
    w = b.used(winter_opening_restriction(OpeningSeasonInput(
        municipality=b.mid, opening_date=req.start_date, emergency=req.emergency), calendar=b.cal))
    window = f"{b.date_text(w.window_start)} to {b.date_text(w.window_end)}"
    if w.in_window and not req.emergency:
        b.add("seasonal", f"No openings between November 15 and April 1: the planned start falls in the window "
              f"{window}. Openings are allowed again from {b.date_text(w.next_allowed_date)}.", w.citations,
              status="warning", tool=w.tool, due=b.date_text(w.next_allowed_date), due_date=w.next_allowed_date,
              explanation=w.explanation, assumptions=list(w.assumptions))
    elif w.in_window and req.emergency:
        b.add("seasonal", f"The start falls in the no-opening window {window}; an emergency excavation is excepted "
              "when the Village Board or its designee determines it to be one.", w.citations, status="info",
              tool=w.tool, explanation=w.explanation, assumptions=list(w.assumptions))
        june = b.deadline(b.rule("winter_patch_replacement"), req.start_date)
        cold = pavement_patch_check(PavementPatchInput(municipality=b.mid, pavement="temporary_cold_mix"))
        b.used(cold)
        depth = next((c.required for c in cold.checks if c.requirement == "depth"), None)
        b.add("seasonal", "If the pavement cannot be replaced with a like material in winter: a temporary cold-mix "
              f"bituminous surface ({depth}), compacted and rolled smooth, replaced with permanent pavement "
              f"by {b.when(june)}.", june.citations + cold.citations, due=b.when(june), due_date=june.due_date,
              tool=june.tool, status="conditional", explanation=june.explanation)
    elif w.window_start is not None and w.window_start <= req.end_date and not req.emergency:
        b.add("seasonal", f"The work would run into the no-opening window starting "
              f"{b.date_text(w.window_start)}: finish the openings before then.", w.citations, status="warning",
              tool=w.tool, due=b.date_text(w.window_start), due_date=w.window_start, explanation=w.explanation)
    else:
        b.add("seasonal", f"Outside the November 15 – April 1 no-opening window (next window: {window}).",
              w.citations, status="info", tool=w.tool, explanation=w.explanation, assumptions=list(w.assumptions))

    # ---------------------------------------------------------------- specifications
    b.add("specifications", "Barriers, signing and traffic control devices as the Village requires, per Part VI of "
          "the Manual on Uniform Traffic Control Devices; warning lights from sunset to sunrise; no open-flame devices.",
          [b.cite("Every opening and excavation shall be enclosed with sufficient barriers", t)])
    lanes = {
        "none": ("Keep at least one lane of traffic open in each direction and reasonable access to adjacent "
                 "properties.", "required"),
        "reduced": ("Keep at least one lane of traffic open in each direction and reasonable access to adjacent "
                    "properties.", "required"),
        "below_one_lane_each_way": ("Traffic limited to less than one lane each way: provide a flagman or a temporary "
                                    "traffic control signal; this needs the Village's approval.", "required"),
        "full_closure": ("A full road closure departs from the minimum of one lane each way: it needs the Village's "
                         "approval.", "warning"),
    }[req.lane_closures]
    b.add("specifications", lanes[0],
          [b.cite("Unless otherwise approved, a minimum of one lane of traffic in each direction shall be provided.", t)],
          status=lanes[1])  # type: ignore[arg-type]
    b.add("specifications", "Have the utilities locate and mark their facilities before excavating; do not interrupt "
          "any sewer, water, gas, telephone or other service.",
          [b.cite("It shall be the permittee's responsibility to have the various utilities locate and mark their "
                  "facilities prior to excavation.", t)])
    b.add("specifications", "Remove pavement along neat, straight saw-cut lines; make the final saw cut after "
          "backfilling; the Director may order up to one full lane width replaced.",
          [b.cite("Removal of existing pavement shall be to neat, straight lines.", t)])
    b.spec_rows(trench_check(TrenchInput(municipality=b.mid)))
    b.add("specifications", "Sheathing and bracing where the trench sides will not stand; no lumber left in the trench; "
          "no pavement overhanging the excavation.",
          [b.cite("sheathing and braces shall be used to prevent caving", t)])
    if req.pavement != "none":
        patch = pavement_patch_check(PavementPatchInput(
            municipality=b.mid, pavement=req.pavement, existing_pavement_depth_in=req.existing_pavement_depth_in))
        b.spec_rows(patch)
        if getattr(patch, "layer_conflict", False):
            b.add("specifications", "The existing pavement is deeper than the maximum bituminous layers allow: ask "
                  "the Director of Public Works how the extra depth is to be placed.", patch.citations[:2],
                  status="warning", tool=patch.tool)
    b.add("specifications", "Leave room below the original surface for the crushed-stone base and the pavement "
          "structure; restore curb and gutter, driveways and sidewalks as originally built.",
          [b.cite("Backfill material shall be left below the original surface", t),
           b.cite("All permanent restoration of driveways and sidewalks shall conform to the manner of construction "
                  "as originally placed", t)])

    # ---------------------------------------------------------------- post work
    perm = b.deadline(b.rule("permanent_pavement"), req.start_date)
    b.add("post_work", f"Replace permanent pavement within {b.rule_period(b.rule('permanent_pavement'))} of the "
          f"permit date: by {b.when(perm)}.", perm.citations, due=b.when(perm), due_date=perm.due_date,
          tool=perm.tool, explanation=perm.explanation,
          assumptions=["The permit date is assumed to be the planned start date.", *perm.assumptions])
    g = b.deadline(b.rule("restoration_guarantee"), req.end_date)
    b.add("post_work", f"The restoration is guaranteed for one year from completion: through {b.when(g)} if "
          f"completed on the planned last day {b.date_text(req.end_date)}; defects noticed by the Village Board "
          "must be repaired within the time it sets.", g.citations, due=b.when(g), due_date=g.due_date,
          tool=g.tool, explanation=g.explanation)
    b.add("post_work", "Faulty work or materials are replaced at once on notice; failing to correct them costs the "
          "right to a street opening permit for a year, and the Village repairs and bills labor, materials and "
          "equipment plus an administration charge.",
          [b.cite("Faulty work or materials shall be immediately replaced by the permittee upon notice by the Village.", s)])
    b.add("post_work", f"If the Village makes the pavement repair, its cost and one year's maintenance are charged; "
          f"unpaid {b.rule_period(b.rule('village_repair_lien'))} after notice, they become a lien on the premises.",
          b.rule_citations(b.rule("village_repair_lien")), status="conditional", tool="deadline")
    if kind_note:
        b.not_covered.append(kind_note)


def _brandon_common_after(b: _Builder) -> None:
    """Debris and damage rules that bind every job in the Village."""
    b.add("post_work", "Remove at once any material a vehicle tracks, drops or places on a street, sidewalk or "
          "public ground, at no cost to the Village.",
          [b.cite("shall immediately stop and remove said materials at no cost to the Village", "404-17")])
    b.add("post_work", f"Damage to a street, sidewalk or public ground: stop, notify the Police Department, and "
          f"correct it within {b.rule_period(b.rule('damage_correction'))} at no cost to the Village.",
          b.rule_citations(b.rule("damage_correction")), status="conditional", tool="deadline")


def _brandon_sidewalk(b: _Builder) -> None:
    from assistant.tools.deadlines import OpeningSeasonInput, winter_opening_restriction

    req = b.req
    p = b.deadline(b.rule("sidewalk_permit"), req.start_date)
    b.add("permits", "Sidewalk permit to lay, remove, replace or repair a public sidewalk (not needed when under "
          f"contract with the Village), at least {b.rule_period(b.rule('sidewalk_permit'))} before the work: by "
          f"{b.when(p)}.", p.citations, due=b.when(p), due_date=p.due_date, tool=p.tool,
          explanation=p.explanation, who="Village Clerk or Director of Public Works", assumptions=list(p.assumptions))
    b.add("permits", "If the work opens or excavates the public sidewalk, a street opening permit under § 404-6 is "
          "needed as well.", [b.quote("sidewalk_opening_permit")], status="conditional")
    b.add("fees", "Sidewalk permit fee", [b.cite("A fee as set by the Village Board shall be charged for such permit.")],
          figure="set by the Village Board (no figure in the code)", who="the Village Board")
    w = b.used(winter_opening_restriction(OpeningSeasonInput(
        municipality=b.mid, opening_date=req.start_date, emergency=req.emergency), calendar=b.cal))
    if w.in_window:
        b.add("seasonal", f"The start falls in the November 15 – April 1 window ({b.date_text(w.window_start)} to "
              f"{b.date_text(w.window_end)}) in which no openings in sidewalks are permitted: if the work opens the "
              f"sidewalk, wait until {b.date_text(w.next_allowed_date)}.", w.citations, status="warning",
              tool=w.tool, due=b.date_text(w.next_allowed_date), due_date=w.next_allowed_date,
              explanation=w.explanation)
    use = "commercial" if req.commercial else "residential"
    key = "sidewalk_commercial" if req.commercial else "sidewalk_residential"
    thick = b.spec_figure(key, "driveway_min_thickness_in" if req.driveway_approach else "min_thickness_in")
    where = " within the driveway approach" if req.driveway_approach else ""
    b.add("specifications", f"Concrete at least {thick} in thick{where} ({use} frontage)"
          + (f", at least {b.spec_figure(key, 'min_width_ft')} ft wide." if req.commercial else
             "; residential walks 'shall match width' (no width stated — match the adjoining walk)."),
          [b.spec_cite(key)], tool="specifications (data)")
    b.add("specifications", "Forms approved by the Director of Public Works (or designated inspector) before the "
          f"concrete is poured; slope toward the curb at least {b.spec_figure('sidewalk_cross_slope', 'min_in_per_ft')} "
          "in per foot of width; joints and edges finished with the radius edging tool.",
          [b.cite("All forms must be approved by the Director of Public Works"), b.spec_cite("sidewalk_cross_slope")],
          tool="specifications (data)")
    b.add("specifications", "Strike off true to grade, smooth broom finish, rounded edges, no tool marks; cover in "
          f"rain; keep free of all traffic for {b.spec_figure('sidewalk_traffic_free', 'min_hours')} hours at normal "
          "temperatures.", [b.cite("The concrete shall be struck off true to grade"),
                            b.spec_cite("sidewalk_traffic_free")], tool="specifications (data)")
    b.add("post_work", "A sidewalk built contrary to these specifications is not a legal sidewalk and may be ordered "
          "replaced.", [b.cite("No sidewalk which shall be constructed contrary to the provisions of this section "
                               "shall be considered a legal sidewalk")], status="info")
    b.add("specifications", "Building materials may occupy no more than the permitted share of the sidewalk and street "
          f"(sidewalk: {b.spec_figure('obstruction_building_materials', 'max_sidewalk_fraction')}) for the period the "
          "Village Clerk authorizes.", [b.spec_cite("obstruction_building_materials")], status="conditional",
          tool="specifications (data)")
    b.not_covered.append("Chapter 404 states no bond or insurance for a sidewalk permit (a street opening under "
                         "§ 404-6 has its own); ask the Village Clerk.")


def _brandon_driveway(b: _Builder) -> None:
    b.not_covered.append("Chapter 404 has no separate driveway or culvert permit: work in the public street, ditch, "
                         "sidewalk or terrace is an opening under § 404-6. Ask the Village for any driveway permit "
                         "in other chapters.")
    _brandon_opening(b)
    if b.req.driveway_approach:
        _brandon_sidewalk_for_driveway(b)
    b.add("specifications", "Do not obstruct the free passage of water in any public gutter, ditch, culvert, swale "
          "or drain.", [b.cite("No person shall in any manner obstruct or cause to be obstructed the free passage of "
                               "water", "404-14")])
    b.add("specifications", "Terrace areas stay lawn: not paved or surfaced except where the Village Board or its "
          "designee approves.", [b.cite("shall not be paved, surfaced or covered with any material which shall "
                                        "prevent the growth of plants", "404-11")], status="conditional")
    b.add("specifications", "No patching of concrete driveway areas between joints or dummy joints.",
          [b.cite("No patching of concrete driveway areas will be allowed between joints or dummy joints.", "404-7")])


def _brandon_sidewalk_for_driveway(b: _Builder) -> None:
    p = b.deadline(b.rule("sidewalk_permit"), b.req.start_date)
    b.add("permits", "The driveway approach crosses the public sidewalk: sidewalk permit at least "
          f"{b.rule_period(b.rule('sidewalk_permit'))} before the work, by {b.when(p)}.", p.citations,
          due=b.when(p), due_date=p.due_date, tool=p.tool, who="Village Clerk or Director of Public Works")
    key = "sidewalk_commercial" if b.req.commercial else "sidewalk_residential"
    b.add("specifications", f"Sidewalk within the driveway approach at least "
          f"{b.spec_figure(key, 'driveway_min_thickness_in')} in thick.", [b.spec_cite(key)],
          tool="specifications (data)")


def _brandon_privilege(b: _Builder) -> None:
    from assistant.tools.specs import ObstructionInput, obstruction_check

    req = b.req
    s = "404-9"
    b.add("permits", "Street privilege permit to encumber a street, alley, sidewalk or way with materials for the "
          "construction or demolition of a building; the Clerk asks the Director of Public Works, the Chief of "
          "Police and/or the Building Inspector for advice first, and officials may attach conditions.",
          [b.cite("Permits for the use of the streets, alleys, sidewalks or other public ways or places of the "
                  "Village may be granted to applicants by the Village Clerk", s)], who="Village Clerk",
          due=f"before {b.date_text(req.start_date)}")
    b.add("permits", "A building permit, where this Code requires one, before the street privilege permit.",
          [b.cite("has obtained a building permit if required by this Code", s)], status="conditional",
          who="Building Inspector")
    term = b.deadline(b.rule("street_privilege_termination"), req.start_date)
    b.add("permits", f"The permit ends automatically {b.rule_period(b.rule('street_privilege_termination'))} after "
          f"issuance (earlier if the Clerk sets an earlier date): {b.when(term)} if issued on the start day.",
          term.citations, status="info", due=b.when(term), due_date=term.due_date, tool=term.tool,
          explanation=term.explanation,
          assumptions=["Issuance is assumed on the planned start date.", *term.assumptions])
    if term.due_date is not None and req.end_date > term.due_date:
        b.add("permits", f"The planned end {b.date_text(req.end_date)} is after the permit ends "
              f"({b.when(term)}): a new permit is needed to continue.", term.citations, status="warning",
              tool=term.tool)
    _bond_items(b, "street_privilege")
    if req.insurance is not None:
        b.add("bonds", "The code sets no insurance limits for a street privilege permit; Village officials may "
              "require proof of liability insurance as a condition.",
              [b.cite("Village officials may attach conditions to the permit, including proof of liability insurance.", s)],
              status="info")
    b.spec_rows(obstruction_check(ObstructionInput(municipality=b.mid, situation="street_privilege_permit")))
    if req.lane_closures == "full_closure":
        b.add("specifications", "A full closure exceeds the share of the street a street privilege permit may "
              "cover.", [b.spec_cite("privilege_street_fraction")], status="warning", tool="specifications (data)")
    b.add("specifications", "Obstructions lighted at night, in full view from all directions.",
          [b.cite("Obstructions shall be sufficiently lighted at night", s)])
    b.add("post_work", "When the work ends: vacate, clean of rubbish and obstructions, and leave safe for public "
          "travel, at the permittee's expense.", [b.cite("Upon termination of the work necessitating such "
                                                        "obstruction", s)])
    rm = b.rule_period(b.rule("privilege_obstruction_removal"))
    b.add("post_work", f"If an obstruction is not removed within {rm} after notice from the Village Board, the Village "
          "removes it and the cost goes on the tax roll against the abutting property.",
          b.rule_citations(b.rule("privilege_obstruction_removal")), status="info", tool="deadline")
    b.not_covered.append("§ 404-8 allows building materials on up to 1/2 of the sidewalk, while § 404-9 says sidewalk "
                         "traffic shall not be interrupted under a street privilege permit; this checklist follows "
                         "§ 404-9 (temporary sidewalk) — confirm with the Village Clerk.")


def _brandon_heavy(b: _Builder) -> None:
    b.not_covered.append("Chapter 404 has no heavy-vehicle permit, route or weight limit; ask the Village (other "
                         "chapters or state law may apply).")
    b.add("post_work", "A vehicle operator who causes damage to a street, sidewalk or public ground and fails to "
          "report it commits a violation.", [b.cite("fails to report such damage, it shall be considered a "
                                                    "violation of this section", "404-18")], status="info")


# ---------------------------------------------------------------------------- Delafield


def _delafield_excavation(b: _Builder, *, what: str = "excavation") -> None:
    from assistant.tools.deadlines import (
        ExcavationNoticesInput,
        OpeningSeasonInput,
        excavation_notice_deadlines,
        winter_opening_restriction,
    )
    from assistant.tools.surcharge import SurchargeInput, surcharge_for_opening

    req = b.req
    if req.emergency:
        b.add("permits", "Chapter 8 has no emergency exception to the permit: apply to the Town at once.",
              [b.cite("without first obtaining from the Town a written permit")], status="warning",
              who="the Town")
    b.add("permits", f"Written permit from the Town before any {what} in or under a street, alley, public grounds "
          "or sidewalk; written application signed by the applicant describing the place precisely, the purpose and "
          "when the work will begin.", [b.cite("without first obtaining from the Town a written permit"),
                                        b.cite("shall specify the purpose for which the excavation is to be made and "
                                               "when it is proposed to begin")], who="the Town",
          due=f"before {b.date_text(req.start_date)}")
    _bond_items(b, "excavation")
    try:
        sur = b.used(surcharge_for_opening(SurchargeInput(municipality=b.mid, opening_date=req.start_date,
                                                          disturbs_pavement=req.pavement != "none"), calendar=b.cal))
    except QuoteNotFound as exc:  # amended: a warning in place of this item, the rest goes on
        b.changed(exc, "fees")
    else:
        b.add("fees", f"No pavement-age surcharge in the {municipality_name(b.mid)}.", sur.citations[:2] or
              [b.cite("Applicants shall pay a non-refundable application fee")], status="info", figure="none",
              tool=sur.tool, explanation=sur.explanation)
    _certificate_items(b, "excavation", work_end=req.end_date, permit_issue=req.start_date)
    n = b.used(excavation_notice_deadlines(ExcavationNoticesInput(
        municipality=b.mid, work_start=req.start_moment, emergency=req.emergency), calendar=b.cal))
    for notice in n.notices:
        r = b.deadline(notice.rule, req.start_moment, emergency=req.emergency)
        b.add("notices", f"Written notice to the Town Highway Commission — {r.period} before the work starts.",
              [notice.citation], due=b.when(r), due_date=r.due_date, tool=n.tool, explanation=r.explanation,
              who="Town Highway Commission", assumptions=list(r.assumptions))
    if req.service_loss:
        b.not_covered.append("Chapter 8 requires no separate notice before cutting service to properties; only the "
                             "48-hour written notice applies.")
    w = b.used(winter_opening_restriction(OpeningSeasonInput(municipality=b.mid, opening_date=req.start_date,
                                                             emergency=req.emergency), calendar=b.cal))
    b.add("seasonal", "No openings when the ground is frozen, unless the Town Board finds one necessary; the code "
          "fixes no dates, so ask the Town" + (" — in an emergency, ask the Town Board at once." if req.emergency
                                                 else f" whether the ground will count as frozen on "
                                                      f"{b.date_text(req.start_date)}."),
          w.citations, status="conditional", tool=w.tool, explanation=w.explanation, assumptions=list(w.assumptions))
    b.add("specifications", "Excavated material from pavements or driveways, or within 5 feet of their edges, removed "
          "from the site and disposed of as the Town Highway Superintendent approves.",
          [b.cite("all materials excavated from existing or proposed pavements or driveways")])
    b.add("specifications", "Openings enclosed with sufficient barriers, lamps at night, all precautions to guard the "
          "public from start to completion.", [b.cite("shall be enclosed with sufficient barriers, and lamps shall be "
                                                     "maintained upon the same at night")])
    b.add("specifications", "Backfill near pavement or driveways with crushed gravel to DOT gradation; concrete "
          "pavement replaced in kind; tunnels backfilled with concrete; bituminous restoration per the specifications "
          "on file with the Town Clerk.",
          [b.cite("the excavation backfilled to within 5\" of the surface"),
           b.cite("Restoration in streets surfaced with bituminous concrete pavement shall conform to specifications "
                  "on file in the office of the Town Clerk.")])
    if req.lane_closures in ("below_one_lane_each_way", "full_closure"):
        b.add("specifications", "Traffic may not be shut off without the express authority of the Town Highway "
              "Commission: obtain it before closing the road.",
              [b.cite("Traffic shall not be shut off from travel over the highways without express authority")],
              status="warning" if req.lane_closures == "full_closure" else "required",
              who="Town Highway Commission")
    else:
        b.add("specifications", "Traffic may not be shut off without the express authority of the Town Highway "
              "Commission.", [b.cite("Traffic shall not be shut off from travel over the highways without express "
                                     "authority")], status="info")
    b.add("specifications", "Pipelines laid so as not to interfere with the highway or adjoining land; no trees or "
          "bushes cut or trimmed without the owner's consent.",
          [b.cite("no trees or bushes shall be cut, trimmed or the branches thereof cut or broken")])
    if req.public_utility:
        b.add("specifications", "Utility services that interfere with maintenance or construction in the right-of-way "
              "are realigned at no expense to the Town.", [b.cite("the utility services shall be realigned at no "
                                                                 "expense to the Town")], status="conditional")
    b.add("post_work", "Restore the excavated and work areas to precisely their former condition; remove rubbish "
          "and unused material at once.", [b.cite("the excavated and work areas must be restored to precisely the "
                                                  "same condition")])
    y = b.cal.years_after(req.end_date, 1, extend=False)
    b.used(ToolOutput(tool="business calendar"))
    b.add("post_work", f"Responsible for any settling for one year after the Town approves the filling and surfacing: "
          f"through {b.date_text(y.due_date)} if approved on the planned last day {b.date_text(req.end_date)}.",
          [b.cite("shall be responsible for one year after approval of the filling and surfacing for any settling")],
          due=b.date_text(y.due_date), due_date=y.due_date, tool="business calendar", explanation=y.steps,
          assumptions=["Approval of the filling and surfacing is assumed on the planned last day of work; the year "
                       "runs from the actual approval."])
    dr = b.deadline(b.rule("ditch_repair"), req.end_date)
    b.add("post_work", f"If you drive through a drainage ditch to install sewer or water laterals or repair a well or "
          f"septic system: repair the ditch and road surface within {dr.period} after the work is completed — by "
          f"{b.when(dr)} — or no further plumbing permit is issued.", dr.citations, status="conditional",
          due=b.when(dr), due_date=dr.due_date, tool=dr.tool, explanation=dr.explanation)


def _delafield_driveway(b: _Builder) -> None:
    from assistant.tools.specs import DrivewayInput, driveway_check

    req = b.req
    if req.road_jurisdiction == "local":
        b.add("permits", "Apply to the Town Highway Superintendent for the culvert; the Superintendent sets its length "
              "and installs it, the applicant provides the culvert and end sections.",
              [b.cite("shall first make application therefor with the Town Highway Superintendent"),
               b.cite("The culvert and end sections shall be provided by the applicant and installed by the "
                      "Superintendent.")], who="Town Highway Superintendent")
    else:
        b.add("permits", "On a county or State highway, apply to the Waukesha County Highway Department.",
              [b.cite("On any county or State highway, application shall be made to the Waukesha County Highway "
                      "Department.")], who="Waukesha County Highway Department")
    if req.driveway_surface == "concrete":
        b.add("permits", "Permit from the Building Inspector for a concrete surface driveway, showing its width and "
              "length.", [b.cite("No concrete surface driveway shall be installed on any private driveway until a "
                                 "permit has been obtained from the Building Inspector")], who="Building Inspector")
    if req.driveway_surface == "asphalt":
        b.add("permits", "Asphalt in the Town right-of-way: application to the Highway Superintendent first; then a "
              "private contractor or the Town's asphalting service.",
              [b.cite("No asphalt construction, repair, replacement or resurfacing shall be installed until an "
                      "application has been submitted to the Highway Superintendent.")],
              who="Town Highway Superintendent")
        b.add("fees", f"Town asphalting service: deposit of the estimated cost before work; the balance billed is due "
              f"within {b.rule_period(b.rule('asphalt_balance'))}, and if unpaid by November 1 it goes on the tax "
              "roll; any excess deposit is refunded.", b.rule_citations(b.rule("asphalt_balance")),
              status="conditional", tool="deadline", figure="deposit = estimated time, materials and administrative costs")
    _bond_items(b, "driveway_culvert")
    b.spec_rows(driveway_check(DrivewayInput(municipality=b.mid)))
    if req.driveway_surface == "concrete":
        b.add("specifications", f"Concrete surfacing no closer than "
              f"{b.spec_figure('driveway_concrete_setback', 'min_distance_ft')} ft to the road's hard surface.",
              [b.spec_cite("driveway_concrete_setback")], tool="specifications (data)")
    b.add("specifications", "Driveways graded and graveled before construction commences.",
          [b.cite("Driveways shall be graded and graveled before construction commences.")], status="conditional")
    y = b.cal.years_after(req.end_date, 1, extend=False)
    b.used(ToolOutput(tool="business calendar"))
    b.add("post_work", "Ask for the inspection and return of the ditch-landscaping guarantee once the culvert and "
          f"landscaping are done; without a request, the Town inspects within a year of installation (by "
          f"{b.date_text(y.due_date)} if installed on {b.date_text(req.end_date)}).",
          [b.cite("The property owner may request return of the financial guarantee"),
           b.cite("If no request is made for an inspection within a year of the installation of the culvert")],
          due=b.date_text(y.due_date), due_date=y.due_date, tool="business calendar", explanation=y.steps)
    b.add("post_work", f"Landscaping or ditch repairs the Town must do are billed; unpaid "
          f"{b.rule_period(b.rule('ditch_restoration_bill'))} after, they are charged to the guarantee.",
          b.rule_citations(b.rule("ditch_restoration_bill")), status="conditional", tool="deadline")
    b.add("bonds", "Where curb and gutter exist and a building permit is issued, the same financial guarantee covers "
          "curb and gutter damage from the construction.",
          [b.cite("Whenever a building permit is issued in an area where curb and gutter sections exist")],
          status="conditional")
    b.not_covered.append("Chapter 8 sets no notice period or season for driveway and culvert work.")


def _delafield_heavy(b: _Builder) -> None:
    from assistant.tools.specs import HeavyVehicleInput, heavy_vehicle_check

    req = b.req
    k = b.spec_cite("heavy_vehicle_permit")
    over = b.spec_figure("heavy_vehicle_permit", "permit_over_tons")
    if req.vehicle_weight_tons is not None:
        hv = b.used(heavy_vehicle_check(HeavyVehicleInput(
            municipality=b.mid, gross_weight_tons=req.vehicle_weight_tons, lugged_wheels=req.lugged_wheels)))
        needed = bool(hv.permit_required)
        b.add("permits", ("Town permit required before driving the machine on any street, alley or public place"
                          if needed else "No Town permit needed for this machine")
              + f" (permit needed over {over} tons or with lugged wheels); the permit names the route and "
              "deviating from it is unlawful.", [k, b.spec_cite("heavy_vehicle_route")],
              status="required" if needed else "info", tool=hv.tool, explanation=hv.explanation,
              who="the Town", assumptions=list(hv.assumptions))
        posted = b.used(heavy_vehicle_check(HeavyVehicleInput(
            municipality=b.mid, gross_weight_tons=req.vehicle_weight_tons, lugged_wheels=req.lugged_wheels,
            temporary_limit_posted=True)))
        limit = b.spec_figure("temporary_weight_limit", "max_gross_tons")
        b.add("permits", f"Where a temporary weight limit ({limit} tons) is posted on the route: "
              + ("the vehicle exceeds it — only a special permit from the Highway Superintendent, granted in an "
                 "emergency, allows it." if posted.exceeds_temporary_limit else "the vehicle is within it."),
              [b.spec_cite("temporary_weight_limit"), b.spec_cite("temporary_weight_special_permit")],
              status="conditional", tool=posted.tool)
    else:
        b.add("permits", f"Town permit before driving a machine over {over} tons or with lugged wheels on any street, "
              "alley or public place; it names the route (give the weight to check).",
              [k, b.spec_cite("heavy_vehicle_route")], who="the Town", status="conditional",
              tool="specifications (data)")
        limit = b.spec_figure("temporary_weight_limit", "max_gross_tons")
        b.add("permits", f"Where a temporary weight limit is posted, vehicles over {limit} tons need a special permit "
              "from the Highway Superintendent, granted only in an emergency.",
              [b.spec_cite("temporary_weight_limit"), b.spec_cite("temporary_weight_special_permit")],
              status="conditional", tool="specifications (data)")
    b.add("specifications", "The Town may require removable flanges or cleats taken off, and planks or other "
          "protection laid on the street for the machine to run on.",
          [b.cite("The Town may require the removal from any machine of any flanges, cleats")], status="conditional")
    b.add("specifications", "Do not drive over drainage ditches or street curbs except at an established driveway.",
          [b.cite("No person shall operate any motor vehicle over, along or into any drainage ditch")])
    b.add("post_work", "Do not let mud, gravel or dirt from the wheels be deposited on streets.",
          [b.cite("This section shall prohibit the deposit, upon the streets, alleys or sidewalks, of mud, gravel or "
                  "dirt from the wheels or tires of a vehicle")])
    b.not_covered.append("Chapter 8 sets no notice period or fee for a heavy-vehicle permit; ask the Town.")


def _delafield_privilege(b: _Builder) -> None:
    b.not_covered.append("Chapter 8 has no street privilege or encumbrance permit for building work; ask the Town "
                         "whether one exists elsewhere in its code.")
    b.add("permits", "No trees, shrubs, stone formations or unsafe mail boxes in the unpaved highway right-of-way; the "
          "Town Board may grant special exceptions for good cause.",
          [b.cite("no person shall plant trees, shrubs or stone formations or unsafe mail boxes"),
           b.cite("The Town Board may grant special exceptions to this section for good cause shown")],
          status="info", who="Town Board")
    if b.req.lane_closures != "none":
        b.add("specifications", "Traffic may not be shut off without the express authority of the Town Highway "
              "Commission.", [b.cite("Traffic shall not be shut off from travel over the highways without express "
                                     "authority")], status="required", who="Town Highway Commission")
    b.add("specifications", "Do not remove or damage authorized barricades.",
          [b.cite("No person shall remove an authorized barricade from any street")], status="info")
    b.add("post_work", "No debris or waste material on any street, alley or sidewalk.",
          [b.cite("No person shall throw or deposit any debris or waste material on any street")])


# ---------------------------------------------------------------------------- entry point

# The builders the checklist data may name (``builder:`` of data/checklist.yaml), by function name.
BUILDERS: dict[str, Any] = {
    f.__name__.lstrip("_"): f
    for f in (_brandon_opening, _brandon_sidewalk, _brandon_driveway, _brandon_privilege, _brandon_heavy,
              _brandon_common_after, _delafield_excavation, _delafield_driveway, _delafield_heavy,
              _delafield_privilege)
}
CHECKLIST_DATA = Path(__file__).resolve().parent / "tools" / "data" / "checklist.yaml"


@functools.cache
def _checklist_data() -> dict[str, Any]:
    """Which builder makes each municipality's checklist for each kind of work, and its quotes."""
    return yaml.safe_load(CHECKLIST_DATA.read_text(encoding="utf-8"))


def provision_key_of(municipality: str, role: str) -> str:
    from assistant.tools.coverage import provision_key

    return provision_key(municipality, role)


def municipality_name(mid: str) -> str:
    from assistant.corpus import municipality_by_id

    m = municipality_by_id(mid)
    return m.name if m else mid


def build_checklist(req: ChecklistRequest) -> Checklist:
    """Every item that applies to the job, grouped, with dates and figures from the calculators."""
    from assistant.corpus import municipality_by_id

    b = _Builder(req)
    m = municipality_by_id(req.municipality)
    plan = _checklist_data()["municipalities"].get(req.municipality)
    if plan is None:
        raise ValueError(f"no checklist rules are recorded for {req.municipality!r}")
    work = plan["work"][req.work]
    for step in work.get("items", []):  # items the data holds whole: text, group, quote
        b.add(step["group"], step["text"], [b.quote(step["quote"])], who=step.get("who"),
              status=step.get("status", "required"))
    for note in work.get("not_covered", []):
        b.not_covered.append(note)
    steps = [(work["builder"], work.get("arguments", {}))] + [(name, {}) for name in plan.get("after_every_job", [])]
    from assistant.amendments import raising_changed_rules

    for builder, arguments in steps:
        try:
            with raising_changed_rules():  # a calculator whose rule changed raises: no stale figure is listed
                BUILDERS[builder](b, **arguments)
        except QuoteNotFound as exc:
            b.changed(exc)
            b.not_covered.append("Part of this checklist is not listed: a provision it rests on was amended and "
                                 "its rule data awaits an update (see the warning).")
    if req.village_utility and plan.get("village_utility_note"):
        b.not_covered.append(plan["village_utility_note"])
    order = {key: i for i, (key, _) in enumerate(GROUPS)}
    items = sorted(b.items, key=lambda i: order[i.group])  # stable: keeps the order within a group
    name = m.name if m else req.municipality
    title = f"{WORK_LABELS[req.work]} — {name}" + (f", {req.location}" if req.location else "")
    return Checklist(
        request=req, municipality_name=name, title=title, work_end_date=req.end_date, items=items,
        warnings=b.warnings, not_covered=b.not_covered, convention=b.cal.convention_text, tools_used=b.tools,
    )


# ============================================================================ export

STATUS_MARK = {"required": "[ ]", "conditional": "[ ] *If applicable:*", "warning": "**Warning:**",
               "shortfall": "**Shortfall:**", "info": "*Note:*"}


def _request_lines(c: Checklist) -> list[str]:
    r = c.request
    lines = [
        f"Municipality: {c.municipality_name}",
        f"Kind of work: {WORK_LABELS[r.work]}",
    ]
    if r.location:
        lines.append(f"Location: {r.location}")
    lines.append(f"Planned: {r.start_date.isoformat()} at {r.start_time.strftime('%H:%M')}, {r.duration_days} day(s), "
                 f"last day {c.work_end_date.isoformat()}")
    if r.pavement != "none":
        lines.append(f"Pavement: {r.pavement}" + (f", final paving {r.final_paving_date.isoformat()}"
                                                   if r.final_paving_date else ", final paving date not given"))
    flags = [label for flag, label in (
        (r.emergency, "emergency excavation"), (r.village_utility, "Village public utility"),
        (r.public_utility and not r.village_utility, "public utility"),
        (r.service_loss, "utility service to properties will be cut")) if flag]
    if r.lane_closures != "none":
        flags.append(LANE_LABELS[r.lane_closures].lower())
    if flags:
        lines.append("Also: " + "; ".join(flags))
    if r.insurance:
        i = r.insurance
        parts = [f"{label} {_money_text(v)}" for label, v in (
            ("each person", i.per_person), ("each accident", i.per_accident), ("property damage", i.property_damage),
            ("indemnity bond", i.indemnity_bond)) if v is not None]
        if i.expires:
            parts.append(f"expires {i.expires.isoformat()}")
        if i.self_insured:
            parts.append("self-insured")
        lines.append("Certificate: " + ("; ".join(parts) or "no figures given"))
    return lines


def _md_escape_quote(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _md_user_text(text: str) -> str:
    """Text the user typed (the location), so it cannot become a link, an image or a tag."""
    return re.sub(r"([\\`*_\[\]<>#|!])", r"\\\1", text)


def to_markdown(c: Checklist) -> str:
    """The checklist as Markdown: groups, checkboxes, dates, figures, and each item's quotes."""
    loc = c.request.location
    title = c.title if not loc else c.title[: -len(loc)] + _md_user_text(loc)
    out = [f"# Pre-application checklist: {title}", ""]
    out += [f"- {_md_user_text(line) if loc and line.startswith('Location: ') else line}"
            for line in _request_lines(c)]
    out.append("")
    if c.warnings:
        out.append("## Warnings")
        out += [f"- **{w}**" for w in c.warnings]
        out.append("")
    for _key, label, items in c.grouped():
        out.append(f"## {label}")
        out.append("")
        for item in items:
            mark = STATUS_MARK[item.status]
            head = f"- {mark} {item.text}"
            extras = []
            if item.due:
                extras.append(f"**Date:** {item.due}")
            if item.figure:
                extras.append(f"**Amount:** {item.figure}")
            if item.who:
                extras.append(f"**Who:** {item.who}")
            if item.tool:
                extras.append(f"*calculated with {item.tool}*")
            out.append(head)
            if extras:
                out.append("  - " + " · ".join(extras))
            for cit in item.citations:
                out.append(f"  - {cit.label()}: \u201c{_md_escape_quote(cit.quote)}\u201d")
            if item.explanation:
                out.append(f"  - *How:* {_md_escape_quote(item.explanation)}")
            for a in item.assumptions:
                out.append(f"  - *Assumption:* {_md_escape_quote(a)}")
        out.append("")
    if c.not_covered:
        out.append("## Not covered by the chapter — ask the office")
        out += [f"- {n}" for n in c.not_covered]
        out.append("")
    out.append("---")
    if c.convention:
        out.append(f"Time is counted by the {c.convention}.")
    out.append("Every item quotes the provision it rests on. Amounts the code leaves to the Board are not given. "
               "This checklist is not legal advice; the issuing office decides.")
    return "\n".join(out) + "\n"


# PDF: a core font (Helvetica, Latin-1) and a safe transliteration of what it cannot encode.
_PDF_REPLACEMENTS = {
    "\u2018": "'", "\u2019": "'", "\u201a": ",", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2032": "'",
    "\u2033": '"', "\u2013": "-", "\u2014": " - ", "\u2212": "-", "\u2026": "...", "\u2022": "*", "\u00a0": " ",
    "\u2153": "1/3", "\u2154": "2/3", "\u215b": "1/8", "\u2264": "<=", "\u2265": ">=", "\u2192": "->",
    "\u00d7": "x", "\u0395": "E", "\u2009": " ", "\u202f": " ", "\u200b": "",
}


def pdf_safe(text: str) -> str:
    """Text the core PDF fonts can encode (Latin-1): typographic characters replaced,
    accents kept where Latin-1 has them, anything else decomposed or replaced by '?'."""
    out = []
    for ch in text:
        ch = _PDF_REPLACEMENTS.get(ch, ch)
        try:
            ch.encode("latin-1")
            out.append(ch)
        except UnicodeEncodeError:
            base = unicodedata.normalize("NFKD", ch).encode("latin-1", "ignore").decode("latin-1")
            out.append(base or "?")
    return "".join(out)


def to_pdf(c: Checklist) -> bytes:
    """A printable PDF of the checklist (Letter, core font, every quote included)."""
    from fpdf import FPDF

    pdf = FPDF(format="Letter")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_title(pdf_safe(f"Checklist: {c.title}"))
    pdf.set_creator("ordinance-assistant")
    pdf.alias_nb_pages()
    pdf.add_page()
    width = pdf.epw

    def para(text: str, size: float = 10, style: str = "", indent: float = 0, h: float = 5) -> None:
        pdf.set_font("Helvetica", style=style, size=size)
        pdf.set_x(pdf.l_margin + indent)
        pdf.multi_cell(width - indent, h, pdf_safe(text), new_x="LMARGIN", new_y="NEXT")

    para(f"Pre-application checklist: {c.title}", size=15, style="B", h=7)
    pdf.ln(1)
    for line in _request_lines(c):
        para(line, size=10)
    pdf.ln(2)
    if c.warnings:
        pdf.set_text_color(160, 20, 20)
        para("Warnings", size=12, style="B", h=6)
        for w in c.warnings:
            para(f"! {w}", size=10, indent=2)
        pdf.set_text_color(0, 0, 0)
        pdf.ln(2)
    for _key, label, items in c.grouped():
        para(label, size=12, style="B", h=7)
        for item in items:
            mark = {"required": "[ ]", "conditional": "[ ] if applicable:", "warning": "WARNING:",
                    "shortfall": "SHORTFALL:", "info": "Note:"}[item.status]
            para(f"{mark} {item.text}", size=10, style="B" if item.status in ("warning", "shortfall") else "",
                 indent=2)
            extras = []
            if item.due:
                extras.append(f"Date: {item.due}")
            if item.figure:
                extras.append(f"Amount: {item.figure}")
            if item.who:
                extras.append(f"Who: {item.who}")
            if item.tool:
                extras.append(f"calculated with {item.tool}")
            if extras:
                para(" | ".join(extras), size=9, indent=8, h=4.5)
            for cit in item.citations:
                para(f"{cit.label()}: \"{_md_escape_quote(cit.quote)}\"", size=8, style="I", indent=8, h=4)
            for a in item.assumptions:
                para(f"Assumption: {a}", size=8, indent=8, h=4)
            pdf.ln(1)
        pdf.ln(1)
    if c.not_covered:
        para("Not covered by the chapter - ask the office", size=12, style="B", h=7)
        for n in c.not_covered:
            para(f"- {n}", size=10, indent=2)
    pdf.ln(2)
    if c.convention:
        para(f"Time is counted by the {c.convention}.", size=8)
    para("Every item quotes the provision it rests on. Amounts the code leaves to the Board are not given. This "
         "checklist is not legal advice; the issuing office decides.", size=8)
    return bytes(pdf.output())
