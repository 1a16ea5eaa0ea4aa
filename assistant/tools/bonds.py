"""Bonds, insurance and financial guarantees, and a checker for a contractor's certificate.

Brandon § 404-6 (street opening) and § 404-9 (street privilege); Delafield ch. 8,
EXCAVATION IN PUBLIC RIGHT-OF-WAY and DRIVEWAYS AND CULVERTS. Every figure comes from
``data/bonds.yaml``, beside the words it is quoted from. Where the code leaves an amount
to a body (the Village Board, a Town Board resolution, the Director of Public Works) the
result names that body and gives no figure.
"""

from __future__ import annotations

import functools
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from assistant.corpus import cite, resolve_municipality
from assistant.tools.coverage import provision_key
from assistant.amendments import answers_changed_rules
from assistant.tools.spec import Route, ToolSpec
from assistant.types import Citation, ToolInput, ToolOutput

DATA_FILE = Path(__file__).resolve().parent / "data" / "bonds.yaml"

PermitType = Literal["street_opening", "street_privilege", "excavation", "driveway_culvert", "curb_and_gutter"]
Applicant = Literal["contractor", "public_utility", "village_public_utility", "municipal_work"]
RequirementStatus = Literal["required", "alternative", "optional", "conditional", "exempt"]
CheckStatus = Literal["pass", "fail", "renewal_required", "not_checked", "not_applicable"]

LIMIT_LABELS = {
    "per_person": "bodily (personal) injury, each person",
    "per_accident": "bodily injury, each accident",
    "property_damage": "property damage",
}


# --------------------------------------------------------------------------- data


@functools.cache
def _data() -> dict[str, Any]:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def _provision(key: str) -> dict[str, Any]:
    return _data()["provisions"][key]


def _key(municipality: str, role: str) -> str:
    return provision_key(municipality, role)


def _cite(key: str) -> Citation:
    p = _provision(key)
    return cite(p["municipality"], p["quote"], section=p.get("section"))


def _figure(key: str, field: str) -> Decimal:
    return Decimal(str(_provision(key)[field]))


def _permit_entry(municipality: str, permit_type: str) -> dict[str, Any] | None:
    for entry in _data()["permits"]:
        if entry["municipality"] == municipality and (
            entry["permit_type"] == permit_type or permit_type in entry.get("aliases", [])
        ):
            return entry
    return None


def _permit_types(municipality: str) -> list[str]:
    return [e["permit_type"] for e in _data()["permits"] if e["municipality"] == municipality]


def _limits(req: dict[str, Any]) -> dict[str, Decimal]:
    sources = req.get("limits_from") or []
    if isinstance(sources, str):
        sources = [sources]
    out: dict[str, Decimal] = {}
    for field in req.get("limit_fields", []):
        for key in sources:
            if field in _provision(key):
                out[field] = _figure(key, field)
                break
    return out


def money(x: Decimal) -> str:
    """'$10,000' for whole dollars, '$1,234.50' otherwise."""
    if x == x.to_integral_value():
        return f"${x:,.0f}"
    return f"${x:,.2f}"


def _municipality_id(value: str) -> str:
    m = resolve_municipality(value)
    if m is None:
        raise ValueError("municipality is required (an id or name from the manifest)")
    return m.id


# --------------------------------------------------------------------------- requirements


class BondRequirementsInput(ToolInput):
    municipality: str = Field(description="Municipality id (names and aliases accepted).")
    permit_type: PermitType = Field(
        description="The permit: 'street_opening' (excavation), 'street_privilege', 'excavation' (highway and "
        "street opening), 'driveway_culvert' or 'curb_and_gutter' (building permit where curb and gutter "
        "exist); each municipality's data lists the types its code has."
    )
    applicant: Applicant = Field(
        default="contractor",
        description="Who applies: 'contractor' (any private person or firm), 'public_utility', "
        "'village_public_utility' (a utility the Village owns) or 'municipal_work' (the "
        "Village's or Town's own work under its board).",
    )

    check_municipality = field_validator("municipality")(_municipality_id)


class BondRequirement(BaseModel):
    """One thing the applicant must furnish (or may furnish instead)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Stable id, e.g. 'indemnity_bond'.")
    kind: Literal["bond", "insurance", "guarantee", "fee", "deposit"] = Field(description="What sort of security.")
    what: str = Field(description="What must be furnished and on what condition.")
    status: RequirementStatus = Field(
        description="required; alternative (may replace alternative_to); optional; conditional "
        "(only if a condition applies); exempt (this applicant need not furnish it)."
    )
    alternative_to: str | None = Field(default=None, description="Id of the requirement this one may replace.")
    amount: Decimal | None = Field(default=None, description="Fixed amount stated in the code, in dollars.")
    max_amount: Decimal | None = Field(default=None, description="Ceiling stated in the code, in dollars.")
    limits: dict[str, Decimal] = Field(
        default_factory=dict,
        description="Minimum insurance limits in dollars: per_person, per_accident, property_damage.",
    )
    amount_in_code: bool = Field(description="True when the code itself states the amount (or its ceiling).")
    amount_set_by: str | None = Field(default=None, description="Who sets the amount when the code does not.")
    exempt_reason: str | None = Field(default=None, description="Why this applicant is exempt.")
    citations: list[Citation] = Field(default_factory=list, description="Provisions this requirement comes from.")


class BondRequirementsOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    permit_type: str | None = Field(default=None, description="Permit type as the data names it.")
    permit_name: str | None = Field(default=None, description="Permit as the code describes it.")
    applicant: str | None = Field(default=None, description="Applicant kind the answer is for.")
    exempt_from_section: bool = Field(
        default=False, description="True when the whole provision does not apply to this applicant."
    )
    requirements: list[BondRequirement] = Field(default_factory=list, description="What must be furnished.")


def _render_requirement(req: dict[str, Any], applicant: str) -> BondRequirement:
    amount = _figure(req["amount_from"], req["amount_field"]) if req.get("amount_from") else None
    max_amount = _figure(req["max_from"], req["max_field"]) if req.get("max_from") else None
    limits = _limits(req)
    status: RequirementStatus = req["status"]
    exempt_reason = None
    if applicant in req.get("exempt_applicants", []):
        status = "exempt"
        exempt_reason = _provision(req["exemption"])["quote"]
    return BondRequirement(
        id=req["id"],
        kind=req["kind"],
        what=req["what"],
        status=status,
        alternative_to=req.get("alternative_to"),
        amount=amount,
        max_amount=max_amount,
        limits=limits,
        amount_in_code=amount is not None or max_amount is not None or bool(limits),
        amount_set_by=req.get("set_by"),
        exempt_reason=exempt_reason,
        # (an exemption the applicant does not fall under is no provision of its answer)
        citations=[_cite(k) for k in req["provisions"] if exempt_reason is not None or k != req.get("exemption")],
    )


def _describe(r: BondRequirement) -> str:
    if r.amount is not None:
        figure = money(r.amount)
    elif r.limits:
        figure = ", ".join(f"{money(v)} {LIMIT_LABELS[k]}" for k, v in r.limits.items())
    elif r.max_amount is not None:
        figure = f"amount set by {r.amount_set_by}, not exceeding {money(r.max_amount)}"
    elif r.amount_set_by:
        figure = f"amount not in the code; set by {r.amount_set_by}"
    else:
        figure = "no amount"
    label = r.id.replace("_", " ")
    tag = {"required": "", "alternative": f" (alternative to {(r.alternative_to or '').replace('_', ' ')})",
           "optional": " (optional)", "conditional": " (only if required as a condition)",
           "exempt": " (exempt for this applicant)"}[r.status]
    return f"{label}{tag}: {figure}"


@answers_changed_rules("bond_insurance_requirements")
def bond_insurance_requirements(inp: BondRequirementsInput) -> BondRequirementsOutput:
    """Bonds, insurance, guarantees and fees for one permit, with who is exempt."""
    tool = "bond_insurance_requirements"
    entry = _permit_entry(inp.municipality, inp.permit_type)
    if entry is None:
        known = ", ".join(_permit_types(inp.municipality)) or "none"
        return BondRequirementsOutput(
            tool=tool,
            ok=False,
            municipality=inp.municipality,
            permit_type=inp.permit_type,
            applicant=inp.applicant,
            error=(
                f"{inp.municipality.capitalize()}'s code has no {inp.permit_type.replace('_', ' ')} "
                f"bond or insurance provision; permit types it covers: {known}."
            ),
        )
    assumptions = list(entry.get("notes", []))
    if inp.permit_type != entry["permit_type"]:
        assumptions.append(
            f"'{inp.permit_type}' is read as {inp.municipality.capitalize()}'s "
            f"'{entry['permit_type']}' permit ({entry['name']})."
        )
    exempt_key = entry.get("municipal_work_exempt")
    if inp.applicant == "municipal_work" and exempt_key:
        citation = _cite(exempt_key)
        return BondRequirementsOutput(
            tool=tool,
            municipality=inp.municipality,
            permit_type=entry["permit_type"],
            permit_name=entry["name"],
            applicant=inp.applicant,
            exempt_from_section=True,
            explanation=(
                f"The {entry['name']} provisions do not apply to the municipality's own excavation work "
                f"done under the direction of its board or Director of Public Works, so no bond, "
                f"insurance or fee is required of it under this section."
            ),
            citations=[citation],
            assumptions=assumptions,
        )
    if inp.applicant in ("municipal_work", "public_utility", "village_public_utility") and not any(
        inp.applicant in r.get("exempt_applicants", []) for r in entry["requirements"]
    ):
        assumptions.append(
            f"The code states no exemption for a {inp.applicant.replace('_', ' ')} under this permit; "
            "the ordinary requirements are listed."
        )
    reqs = [_render_requirement(r, inp.applicant) for r in entry["requirements"]]
    open_ = [r.id.replace("_", " ") for r in reqs if not r.amount_in_code]
    explanation = (
        f"For a {entry['name']} in {inp.municipality.capitalize()}, applicant '{inp.applicant}': "
        + "; ".join(_describe(r) for r in reqs)
        + ". "
        + (
            f"The code states no figure for the {', '.join(open_)}; no figure is given here."
            if open_
            else ""
        )
    ).strip()
    citations: list[Citation] = []
    for r in reqs:
        for c in r.citations:
            if c not in citations:
                citations.append(c)
    return BondRequirementsOutput(
        tool=tool,
        municipality=inp.municipality,
        permit_type=entry["permit_type"],
        permit_name=entry["name"],
        applicant=inp.applicant,
        requirements=reqs,
        explanation=explanation,
        citations=citations,
        assumptions=assumptions,
    )


# --------------------------------------------------------------------------- certificate checker


class CertificateCheckInput(ToolInput):
    municipality: str = Field(description="Municipality id (names and aliases accepted).")
    permit_type: PermitType | None = Field(
        default=None,
        description="Permit the certificate is for; default: the municipality's street opening / "
        "excavation permit (the only one with insurance limits in the code).",
    )
    per_person_limit: Decimal | None = Field(
        default=None, ge=0, max_digits=14, decimal_places=2,
        description="Bodily (personal) injury limit, each person, in dollars.",
    )
    per_accident_limit: Decimal | None = Field(
        default=None, ge=0, max_digits=14, decimal_places=2,
        description="Bodily injury limit, each accident, in dollars.",
    )
    property_damage_limit: Decimal | None = Field(
        default=None, ge=0, max_digits=14, decimal_places=2,
        description="Property damage limit (each accident), in dollars.",
    )
    expiry_date: date | None = Field(default=None, description="Expiration date shown on the certificate.")
    work_start_date: date | None = Field(default=None, description="Planned start of the work.")
    work_end_date: date | None = Field(
        default=None,
        description="Planned end of the work (where insurance must last for the permit's life and the excavation, the later of the two).",
    )
    permit_issue_date: date | None = Field(
        default=None, description="Date the permit was (or will be) issued, for a one-year-from-issuance coverage rule."
    )
    self_insured: bool = Field(default=False, description="The certificate is a certificate of self-insurance.")
    indemnity_agreement_filed: bool | None = Field(
        default=None, description="Self-insured: the agreement to indemnify the municipality was executed (where the code asks for one)."
    )
    village_public_utility: bool = Field(
        default=False, description="The applicant is a Village public utility (exempt from the indemnity bond where the code says so)."
    )
    indemnity_bond_amount: Decimal | None = Field(
        default=None, ge=0, max_digits=14, decimal_places=2,
        description="Indemnity bond on file, in dollars; 0 if none; omit if unknown.",
    )
    cancellation_notice_days: int | None = Field(
        default=None, ge=0, description="Days' notice to the municipality before the policy can be changed or cancelled."
    )
    insurer_authorized_in_wisconsin: bool | None = Field(
        default=None, description="The insurer is authorized to do business in Wisconsin (where the code asks)."
    )

    check_municipality = field_validator("municipality")(_municipality_id)

    @model_validator(mode="after")
    def _dates_in_order(self) -> "CertificateCheckInput":
        if self.work_start_date and self.work_end_date and self.work_end_date < self.work_start_date:
            raise ValueError(
                f"work_end_date ({self.work_end_date}) is before work_start_date ({self.work_start_date})"
            )
        return self


class CertificateCheck(BaseModel):
    """One requirement checked against the certificate."""

    model_config = ConfigDict(extra="forbid")

    requirement: str = Field(description="Stable id of the requirement, e.g. 'per_person_limit'.")
    description: str = Field(description="The requirement in words.")
    required: str = Field(description="What the code requires, e.g. 'at least $1,000,000'.")
    provided: str | None = Field(default=None, description="What the certificate shows.")
    status: CheckStatus = Field(
        description="pass, fail, renewal_required (acceptable now, must be renewed without a gap), "
        "not_checked (input missing), not_applicable."
    )
    note: str | None = Field(default=None, description="Why, when it is not a plain pass.")
    citation: Citation = Field(description="Provision the requirement comes from.")


class CertificateCheckOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    permit_type: str | None = Field(default=None, description="Permit checked against.")
    compliant: bool | None = Field(
        default=None,
        description="True: nothing more to do; False: at least one shortfall; null: no shortfall found "
        "but something could not be checked.",
    )
    checks: list[CertificateCheck] = Field(default_factory=list, description="Every requirement, in order.")
    shortfalls: list[CertificateCheck] = Field(
        default_factory=list, description="The checks with status fail or renewal_required."
    )


def _anniversary(d: date, years: int) -> date:
    try:
        return d.replace(year=d.year + years)
    except ValueError:  # 29 February -> 28 February
        return d.replace(year=d.year + years, day=28)


def _limit_check(field: str, required: Decimal, provided: Decimal | None, key: str, who: str) -> CertificateCheck:
    label = LIMIT_LABELS[field]
    if provided is None:
        status: CheckStatus = "not_checked"
        note = f"No {label} limit given; the certificate must show at least {money(required)}."
    elif provided < required:
        status, note = "fail", f"Short by {money(required - provided)}."
    else:
        status, note = "pass", None
    return CertificateCheck(
        requirement=f"{field}_limit",
        description=f"{who}: {label}",
        required=f"at least {money(required)}",
        provided=money(provided) if provided is not None else None,
        status=status,
        note=note,
        citation=_cite(key),
    )


def _date_checks(inp: CertificateCheckInput, key: str) -> list[CertificateCheck]:
    rows: list[CertificateCheck] = []
    cit = _cite(key)
    exp = inp.expiry_date
    if exp is None:
        rows.append(CertificateCheck(
            requirement="coverage_through_work_end",
            description="Coverage lasts until the work ends",
            required="expiry on or after the planned end of the work",
            status="not_checked",
            note="No expiry date given.",
            citation=cit,
        ))
        return rows
    if inp.work_start_date is not None:
        bad = exp < inp.work_start_date
        rows.append(CertificateCheck(
            requirement="in_force_at_start",
            description="Coverage is in force when the work starts",
            required=f"expiry on or after {inp.work_start_date.isoformat()}",
            provided=exp.isoformat(),
            status="fail" if bad else "pass",
            note=f"The policy expires {(inp.work_start_date - exp).days} day(s) before the work starts." if bad else None,
            citation=cit,
        ))
    if inp.work_end_date is None:
        rows.append(CertificateCheck(
            requirement="coverage_through_work_end",
            description="Coverage lasts until the work ends",
            required="expiry on or after the planned end of the work",
            provided=exp.isoformat(),
            status="not_checked",
            note="No planned end of the work given.",
            citation=cit,
        ))
    else:
        bad = exp < inp.work_end_date
        rows.append(CertificateCheck(
            requirement="coverage_through_work_end",
            description="Coverage lasts until the work ends",
            required=f"expiry on or after {inp.work_end_date.isoformat()}",
            provided=exp.isoformat(),
            status="fail" if bad else "pass",
            note=(f"The policy expires {(inp.work_end_date - exp).days} day(s) before the work ends."
                  if bad else None),
            citation=cit,
        ))
    return rows


def _check_bond_and_insurance(inp: CertificateCheckInput, entry: dict[str, Any]) -> tuple[list[CertificateCheck], list[str]]:
    """An indemnity bond (unless the applicant is exempt) and liability insurance, both required."""
    mid = inp.municipality
    rows: list[CertificateCheck] = []
    notes: list[str] = list(entry["certificate"].get("notes", []))
    bond_required = _figure(_key(mid, "opening_bond"), "amount")
    if inp.village_public_utility:
        rows.append(CertificateCheck(
            requirement="indemnity_bond", description="Indemnity bond deposited with the Village Clerk",
            required="not required of a Village public utility", status="not_applicable",
            provided=money(inp.indemnity_bond_amount) if inp.indemnity_bond_amount is not None else None,
            note="A Village public utility need not post the indemnity bond.",
            citation=_cite(_key(mid, "village_utility_exempt")),
        ))
    else:
        b = inp.indemnity_bond_amount
        status: CheckStatus = "not_checked" if b is None else ("fail" if b < bond_required else "pass")
        rows.append(CertificateCheck(
            requirement="indemnity_bond", description="Indemnity bond deposited with the Village Clerk",
            required=money(bond_required), provided=money(b) if b is not None else None, status=status,
            note=("No indemnity bond amount given; the bond is required besides the insurance."
                  if b is None else (f"Short by {money(bond_required - b)}." if status == "fail" else None)),
            citation=_cite(_key(mid, "opening_bond")),
        ))
    who = "Certificate of self-insurance" if inp.self_insured else "Public liability insurance"
    for field in ("per_person", "property_damage"):
        rows.append(_limit_check(field, _figure(_key(mid, "insurance"), field),
                                 getattr(inp, f"{field}_limit"), _key(mid, "insurance"), who))
    if inp.self_insured:
        a = inp.indemnity_agreement_filed
        rows.append(CertificateCheck(
            requirement="self_insurance_indemnity_agreement",
            description="Self-insured permittee executes an agreement to indemnify and save harmless the Village",
            required="agreement executed", provided=None if a is None else ("yes" if a else "no"),
            status="not_checked" if a is None else ("pass" if a else "fail"),
            note=("Not stated whether the agreement was executed." if a is None else
                  (None if a else "A self-insured permittee must also execute an agreement to indemnify and save "
                   "harmless the Village.")),
            citation=_cite(_key(mid, "self_insurance_agreement")),
        ))
        if inp.expiry_date is None:
            notes.append("A certificate of self-insurance may show no expiry date; dates not checked.")
            return rows, notes
    rows.extend(_date_checks(inp, _key(mid, "insurance_term")))
    return rows, notes


def _check_bond_or_insurance(inp: CertificateCheckInput, entry: dict[str, Any]) -> tuple[list[CertificateCheck], list[str]]:
    """An indemnity bond, or a certificate of insurance in lieu of it (no self-insurance)."""
    mid = inp.municipality
    notes: list[str] = list(entry["certificate"].get("notes", []))
    bond_required = _figure(_key(mid, "indemnity_bond"), "amount")
    b = inp.indemnity_bond_amount
    if b is not None and b >= bond_required:
        row = CertificateCheck(
            requirement="indemnity_bond", description="Indemnity bond with a corporate surety",
            required=money(bond_required), provided=money(b), status="pass",
            note="With the indemnity bond, the certificate of insurance (which is in lieu of it) is not needed.",
            citation=_cite(_key(mid, "indemnity_bond")),
        )
        return [row], notes

    ins: list[CertificateCheck] = []
    if inp.self_insured:
        ins.append(CertificateCheck(
            requirement="insurer_authorized", description="Policy issued by companies authorized in Wisconsin",
            required="insurance from an authorized company (no self-insurance alternative)",
            provided="self-insured", status="fail",
            note=entry["certificate"].get("self_insurance_note"),
            citation=_cite(_key(mid, "insurer_authorized")),
        ))
    else:
        a = inp.insurer_authorized_in_wisconsin
        ins.append(CertificateCheck(
            requirement="insurer_authorized", description="Policy issued by companies authorized in Wisconsin",
            required="authorized insurer", provided=None if a is None else ("yes" if a else "no"),
            status="not_checked" if a is None else ("pass" if a else "fail"),
            note=("Not stated whether the insurer is authorized in Wisconsin." if a is None else
                  (None if a else "The policy must be issued by a company authorized to do business in Wisconsin.")),
            citation=_cite(_key(mid, "insurer_authorized")),
        ))
    who = "Certificate of insurance"
    ins.append(_limit_check("per_person", _figure(_key(mid, "insurance_per_person"), "per_person"),
                            inp.per_person_limit, _key(mid, "insurance_per_person"), who))
    for field in ("per_accident", "property_damage"):
        ins.append(_limit_check(field, _figure(_key(mid, "insurance_per_accident"), field),
                                getattr(inp, f"{field}_limit"), _key(mid, "insurance_per_accident"), who))
    need_days = int(_provision(_key(mid, "certificate_terms"))["notice_days"])
    d = inp.cancellation_notice_days
    ins.append(CertificateCheck(
        requirement="cancellation_notice", description="No change or cancellation without notice to the Town",
        required=f"at least {need_days} days' notice", provided=None if d is None else f"{d} days",
        status="not_checked" if d is None else ("pass" if d >= need_days else "fail"),
        note=("No notice period given." if d is None else
              (None if d >= need_days else f"The certificate allows change or cancellation on {d} days' notice; "
               f"at least {need_days} days' notice to the Town is required.")),
        citation=_cite(_key(mid, "certificate_terms")),
    ))
    ins.append(CertificateCheck(
        requirement="expiry_shown", description="Certificate shows the policy's expiration date",
        required="expiration date shown", provided=inp.expiry_date.isoformat() if inp.expiry_date else None,
        status="pass" if inp.expiry_date else "not_checked",
        note=None if inp.expiry_date else "No expiry date given; the certificate must show one.",
        citation=_cite(_key(mid, "certificate_terms")),
    ))
    ins.extend(_date_checks(inp, _key(mid, "insurance_renewal")))
    years = int(_provision(_key(mid, "insurance_renewal"))["years"])
    if inp.expiry_date is not None and inp.permit_issue_date is not None:
        until = _anniversary(inp.permit_issue_date, years)
        short = inp.expiry_date < until
        ins.append(CertificateCheck(
            requirement="one_year_coverage",
            description="Coverage continues without a gap for one year from the permit's issuance",
            required=f"coverage through {until.isoformat()}",
            provided=inp.expiry_date.isoformat(),
            status="renewal_required" if short else "pass",
            note=(f"The policy expires within one year of the permit's issuance: similar insurance must be "
                  f"provided, without a gap, from {inp.expiry_date.isoformat()} through {until.isoformat()}."
                  if short else None),
            citation=_cite(_key(mid, "insurance_renewal")),
        ))
    else:
        ins.append(CertificateCheck(
            requirement="one_year_coverage",
            description="Coverage continues without a gap for one year from the permit's issuance",
            required="coverage for one year from the permit's issuance",
            status="not_checked",
            note="Give permit_issue_date and expiry_date to check the one-year rule.",
            citation=_cite(_key(mid, "insurance_renewal")),
        ))
    rows: list[CertificateCheck] = []
    if b is not None:
        insurance_fails = any(r.status == "fail" for r in ins)
        rows.append(CertificateCheck(
            requirement="indemnity_bond", description="Indemnity bond with a corporate surety",
            required=f"{money(bond_required)}, or the certificate of insurance in lieu of it",
            provided=money(b), status="fail" if insurance_fails else "not_applicable",
            note=(f"The bond is below {money(bond_required)}"
                  + (" and the certificate of insurance does not meet the code either." if insurance_fails
                     else "; the certificate of insurance is relied on instead.")),
            citation=_cite(_key(mid, "indemnity_bond")),
        ))
    return rows + ins, notes


@answers_changed_rules("insurance_certificate_check")
def insurance_certificate_check(inp: CertificateCheckInput) -> CertificateCheckOutput:
    """Every shortfall of a contractor's certificate (and bond) against the code."""
    tool = "insurance_certificate_check"
    default = next((e["permit_type"] for e in _data()["permits"]
                    if e["municipality"] == inp.municipality and e.get("certificate")), "")
    entry = _permit_entry(inp.municipality, inp.permit_type or default)
    if entry is None or not entry.get("certificate"):
        what = inp.permit_type or "this"
        return CertificateCheckOutput(
            tool=tool, ok=False, municipality=inp.municipality, permit_type=inp.permit_type,
            error=(f"{inp.municipality.capitalize()}'s code sets insurance limits only for its street opening / "
                   f"excavation permit; it states none for the {what.replace('_', ' ')} permit, so a "
                   f"certificate cannot be checked against it."),
        )
    rows, notes = CERTIFICATE_METHODS[entry["certificate"]["method"]](inp, entry)
    if inp.permit_type and inp.permit_type != entry["permit_type"]:
        notes.append(f"'{inp.permit_type}' is read as {inp.municipality.capitalize()}'s '{entry['permit_type']}' permit.")
    notes.append("An expiry date equal to the work's end date is taken to cover that day; if the policy lapses "
                 "at 12:01 a.m. that day, it does not.")
    shortfalls = [r for r in rows if r.status in ("fail", "renewal_required")]
    unchecked = [r for r in rows if r.status == "not_checked"]
    compliant = False if shortfalls else (None if unchecked else True)
    parts = [f"{r.description}: required {r.required}, shown {r.provided or 'nothing'} -> {r.status}"
             for r in rows]
    explanation = (
        f"Checked against {entry['name']} ({inp.municipality.capitalize()}): " + "; ".join(parts) + ". "
        + (f"{len(shortfalls)} shortfall(s): "
           + "; ".join((r.note or r.description).rstrip(".") for r in shortfalls) + ". "
           if shortfalls else "No shortfall found. ")
        + (f"{len(unchecked)} requirement(s) not checked for lack of input." if unchecked else "")
    ).strip()
    citations: list[Citation] = []
    for r in rows:
        if r.citation not in citations:
            citations.append(r.citation)
    return CertificateCheckOutput(
        tool=tool, municipality=inp.municipality, permit_type=entry["permit_type"], compliant=compliant,
        checks=rows, shortfalls=shortfalls, explanation=explanation, citations=citations, assumptions=notes,
    )


# How a permit's certificate is checked: the permit's data names the method (`certificate.method`).
CERTIFICATE_METHODS = {
    "bond_and_insurance": _check_bond_and_insurance,
    "bond_or_insurance": _check_bond_or_insurance,
}


TOOLS: list[ToolSpec] = [
    ToolSpec(
        name="bond_insurance_requirements",
        description="Bonds, liability insurance, guarantees and fees required for a permit (street opening, "
        "street privilege, excavation, driveway culvert, curb and gutter, as each code has them), with who is "
        "exempt and who sets amounts the code leaves open.",
        input_model=BondRequirementsInput,
        output_model=BondRequirementsOutput,
        fn=bond_insurance_requirements,
        keywords=("bond", "indemnity", "insurance", "surety", "guarantee", "performance bond", "exempt",
                  "utility", "letter of credit", "self-insured", "annual bond"),
        route=Route(order=80, read="assistant.answering.routes.bonds:bond_requirements",
                    answers="the bonds and insurance a permit requires",
                    cues=(r"\b(bonds?|insurance|insured|certificate|indemnity|liability)\b", r"\b(what|which|how much|need|required|requirements?|do i|must)\b")),
    ),
    ToolSpec(
        name="insurance_certificate_check",
        description="Check a contractor's certificate of insurance (limits per person, per accident, property "
        "damage, expiry, self-insurance, indemnity bond) against the excavation permit rules and list every "
        "shortfall, including coverage ending before the work does.",
        input_model=CertificateCheckInput,
        output_model=CertificateCheckOutput,
        fn=insurance_certificate_check,
        keywords=("certificate of insurance", "coverage", "limits", "expiry", "expires", "shortfall",
                  "self-insurance", "policy", "insurance check"),
        route=Route(order=50, read="assistant.answering.routes.bonds:insurance_certificate",
                    answers="whether a certificate's stated limits meet the permit's",
                    cues=(r"\b(policy|certificate|coverage|insurance|insured)\b",)),
    ),
]
