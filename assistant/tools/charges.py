"""Charges and assessments: what a permittee or owner is billed, assessed or refunded.

Brandon: Village repair billing (§ 404-6, § 404-7), sidewalk assessments (the untitled
sidewalk text before § 404-6), snow removal by the Village (§ 404-10). Delafield:
asphalt service of the Town and the culvert installation deposit (DRIVEWAYS AND
CULVERTS). Rates and fees come from ``data/charges.yaml`` beside their quotes. Money is
Decimal, rounded to cents half-up.
"""

from __future__ import annotations

import functools
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from assistant.corpus import cite, resolve_municipality
from assistant.tools.coverage import municipality_field, not_covered, provision_key as _key
from assistant.amendments import answers_changed_rules
from assistant.tools.spec import Route, ToolSpec
from assistant.types import Citation, ToolInput, ToolOutput

DATA_FILE = Path(__file__).resolve().parent / "data" / "charges.yaml"
CENT = Decimal("0.01")


@functools.cache
def _data() -> dict[str, Any]:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def _provision(municipality: str, role: str) -> dict[str, Any]:
    """The data entry of ``municipality``'s provision playing ``role``."""
    return _data()["provisions"][_key(municipality, role)]


def _cite(municipality: str, *roles: str) -> list[Citation]:
    return [cite(p["municipality"], p["quote"], section=p.get("section"))
            for p in (_provision(municipality, r) for r in roles)]


def _figure(municipality: str, role: str, field: str) -> Decimal:
    return Decimal(str(_provision(municipality, role)[field]))


def cents(x: Decimal) -> Decimal:
    return x.quantize(CENT, rounding=ROUND_HALF_UP)


def money(x: Decimal) -> str:
    return f"${x:,.2f}"


def _municipality_id(value: str) -> str:
    m = resolve_municipality(value)
    if m is None:
        raise ValueError("municipality is required (an id or name from the manifest)")
    return m.id


def _money_field(description: str, default: Any = ...) -> Any:
    return Field(default, ge=0, max_digits=14, decimal_places=2, description=description)


def _elsewhere(tool: str, out_cls: type[ToolOutput], municipality: str, message: str) -> ToolOutput:
    return out_cls(tool=tool, ok=False, error=message, municipality=municipality)


# --------------------------------------------------------------------------- Village repair bill


class VillageRepairBillInput(ToolInput):
    municipality: str = municipality_field("village_repair_bill", "Municipality id or name; the tool's data says which codes set this.")
    basis: Literal["uncorrected_deficiencies", "village_elected_repair"] = Field(
        default="uncorrected_deficiencies",
        description="'uncorrected_deficiencies': the permittee failed to correct faulty work and the Village "
        "repaired it (§ 404-6: labor, materials, equipment plus the administration percentage). "
        "'village_elected_repair': the Village chose to make the pavement repair itself (§ 404-7: cost of "
        "the repair and of maintaining it for one year, no administration percentage stated).",
    )
    labor_cost: Decimal = _money_field("Labor used, in dollars.", Decimal("0"))
    materials_cost: Decimal = _money_field("Materials used, in dollars.", Decimal("0"))
    equipment_cost: Decimal = _money_field("Equipment used, in dollars.", Decimal("0"))
    combined_cost: Decimal = _money_field(
        "Labor, materials and equipment given as one amount, in dollars (added to any parts given apart).", Decimal("0"))
    maintenance_cost: Decimal | None = _money_field(
        "Cost of maintaining the repair for one year, in dollars (village_elected_repair only).", None
    )

    check_municipality = field_validator("municipality")(_municipality_id)


class VillageRepairBillOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    basis: str | None = Field(default=None, description="Which provision the bill is made under.")
    subtotal: Decimal | None = Field(default=None, description="Labor + materials + equipment (+ maintenance), $.")
    administration_rate: Decimal | None = Field(default=None, description="Administration percentage as a fraction.")
    administration_fee: Decimal | None = Field(default=None, description="Administration charge, $.")
    total: Decimal | None = Field(default=None, description="Amount billed, $.")
    lien_after_days: int | None = Field(
        default=None, description="Unpaid this many days after actual notice, a § 404-7 charge becomes a lien."
    )


@answers_changed_rules("village_repair_bill")
def village_repair_bill(inp: VillageRepairBillInput) -> VillageRepairBillOutput:
    tool = "village_repair_bill"
    if (message := not_covered(tool, inp.municipality)):
        return _elsewhere(tool, VillageRepairBillOutput, inp.municipality, message)
    labor, materials, equipment = inp.labor_cost, inp.materials_cost, inp.equipment_cost
    lien_days = int(_provision(inp.municipality, "repair_lien")["lien_days"])
    if inp.basis == "uncorrected_deficiencies":
        if inp.maintenance_cost:
            return VillageRepairBillOutput(
                tool=tool, ok=False, municipality=inp.municipality, basis=inp.basis,
                error="maintenance_cost applies only when the Village elects to make the pavement repair "
                "(basis 'village_elected_repair', § 404-7); the § 404-6 bill for uncorrected deficiencies is "
                "labor, materials and equipment plus administration.",
            )
        rate = _figure(inp.municipality, "repair_deficiencies", "administration_rate")
        combined = inp.combined_cost
        subtotal = labor + materials + equipment + combined
        admin = cents(subtotal * rate)
        total = cents(subtotal + admin)
        parts = (f"{money(combined)} given as one amount"
                 + "".join(f" + {money(v)} {name}" for v, name in ((labor, "labor"), (materials, "materials"),
                                                                   (equipment, "equipment")) if v)
                 if combined else f"{money(labor)} labor + {money(materials)} materials + {money(equipment)} equipment")
        explanation = (
            f"The permittee did not correct faulty work, so the Village repaired it and bills all labor, "
            f"materials and equipment used plus {rate * 100:.0f}% for administration: "
            f"{parts} = "
            f"{money(subtotal)}; administration {rate * 100:.0f}% x {money(subtotal)} = {money(admin)} "
            f"(rounded to the cent); total {money(subtotal)} + {money(admin)} = {money(total)}."
        )
        return VillageRepairBillOutput(
            tool=tool, municipality=inp.municipality, basis=inp.basis, subtotal=cents(subtotal),
            administration_rate=rate, administration_fee=admin, total=total, explanation=explanation,
            citations=_cite(inp.municipality, "repair_deficiencies", "faulty_work"),
            assumptions=[
                "The administration percentage is applied to the sum of labor, materials and equipment.",
                "Failure to correct deficiencies also revokes the right to obtain a street opening permit "
                "for one year (§ 404-6); that is not a charge.",
                "The code does not say when this bill is due or whether the § 404-7 lien applies to it.",
            ],
        )
    maintenance = inp.maintenance_cost or Decimal("0")
    combined = inp.combined_cost
    subtotal = labor + materials + equipment + combined + maintenance
    total = cents(subtotal)
    together = f"{money(combined)} given as one amount + " if combined else ""
    explanation = (
        f"The Village elected to make the pavement repair, so the person who made the opening is charged the "
        f"cost of the repair and of maintaining it for one year: {together}{money(labor)} labor + {money(materials)} "
        f"materials + {money(equipment)} equipment + {money(maintenance)} one-year maintenance = "
        f"{money(total)}. No administration percentage is stated for this charge. Unpaid {lien_days} days "
        f"after actual notice to the applicant and the owner, it becomes a lien on the premises and is "
        f"collected as a special tax."
    )
    assumptions = [
        "§ 404-7 states no administration percentage for a repair the Village elects to make; the "
        "administration percentage of § 404-6 is read as belonging to deficiencies the permittee failed to correct.",
    ]
    if inp.maintenance_cost is None:
        assumptions.append("No one-year maintenance cost was given; it is counted as $0.00.")
    return VillageRepairBillOutput(
        tool=tool, municipality=inp.municipality, basis=inp.basis, subtotal=total, administration_rate=Decimal("0"),
        administration_fee=Decimal("0.00"), total=total, lien_after_days=lien_days, explanation=explanation,
        citations=_cite(inp.municipality, "village_elects_repair", "repair_lien"), assumptions=assumptions,
    )


# --------------------------------------------------------------------------- sidewalk assessment


class SidewalkAssessmentInput(ToolInput):
    municipality: str = municipality_field("sidewalk_assessment", "Municipality id or name; the tool's data says which codes set this.")
    kind: Literal["reconstruction", "defective_replacement", "new_one_side_none_either"] = Field(
        description="'reconstruction': sidewalk repair and reconstruction; 'defective_replacement': replacing a "
        "sidewalk the Board found defective; 'new_one_side_none_either': a new sidewalk on one side of a street "
        "that had none on either side."
    )
    cost: Decimal = _money_field("Cost of the work (the current cost estimate, where the code says so), in dollars.")
    owners_on_sidewalk_side: int | None = Field(
        default=None, ge=0, le=10_000,
        description="new_one_side_none_either: property owners on the side getting the sidewalk.",
    )
    owners_on_opposite_side: int | None = Field(
        default=None, ge=0, le=10_000,
        description="new_one_side_none_either: property owners on the opposite side of the street.",
    )

    check_municipality = field_validator("municipality")(_municipality_id)


class SidewalkAssessmentOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    kind: str | None = Field(default=None, description="Which assessment rule applied.")
    cost: Decimal | None = Field(default=None, description="Cost assessed against, $.")
    assessed_rate: Decimal | None = Field(default=None, description="Share of the cost assessed, as a fraction.")
    owner_assessment: Decimal | None = Field(
        default=None, description="50% rules: the owner's assessment, $."
    )
    not_assessed_to_owner: Decimal | None = Field(
        default=None, description="50% rules: the part of the cost not assessed to the owner, $."
    )
    owners_count: int | None = Field(default=None, description="Owners sharing the assessment (both sides).")
    per_owner_share: Decimal | None = Field(default=None, description="Equal share per owner, rounded to the cent, $.")
    owner_shares: list[Decimal] = Field(
        default_factory=list, description="Each owner's share in cents, summing exactly to the assessment."
    )


def _split_equally(total: Decimal, n: int) -> list[Decimal]:
    """Split total (in cents) into n shares that differ by at most one cent and sum to total."""
    total_cents = int(cents(total) * 100)
    base, extra = divmod(total_cents, n)
    return [Decimal(base + (1 if i < extra else 0)) / 100 for i in range(n)]


@answers_changed_rules("sidewalk_assessment")
def sidewalk_assessment(inp: SidewalkAssessmentInput) -> SidewalkAssessmentOutput:
    tool = "sidewalk_assessment"
    if (message := not_covered(tool, inp.municipality)):
        return _elsewhere(tool, SidewalkAssessmentOutput, inp.municipality, message)
    counts_given = inp.owners_on_sidewalk_side is not None or inp.owners_on_opposite_side is not None
    cost = cents(inp.cost)
    if inp.kind in ("reconstruction", "defective_replacement"):
        if counts_given:
            return SidewalkAssessmentOutput(
                tool=tool, ok=False, municipality=inp.municipality, kind=inp.kind,
                error="owner counts apply only to kind 'new_one_side_none_either'; a reconstruction or "
                "defective-sidewalk replacement is assessed to the property owner at 50% of the cost.",
            )
        role = "sidewalk_reconstruction" if inp.kind == "reconstruction" else "defective_replacement"
        rate = _figure(inp.municipality, role, "owner_share")
        owner = cents(cost * rate)
        rest = cost - owner
        what = ("sidewalk reconstruction, based on current cost estimates" if inp.kind == "reconstruction"
                else "replacement of a sidewalk found defective")
        explanation = (
            f"The property owner is assessed {rate * 100:.0f}% of the cost of {what}: "
            f"{rate * 100:.0f}% x {money(cost)} = {money(owner)}; the remaining {money(rest)} is not assessed "
            f"to the owner."
        )
        citations = _cite(inp.municipality, role)
        assumptions = [
            "The code does not say who bears the part not assessed to the owner (presumably the Village).",
        ]
        if inp.kind == "defective_replacement":
            citations += _cite(inp.municipality, "owner_may_do_work")
            assumptions.append("An owner who does the repair work personally (as the code allows) is not assessed.")
        return SidewalkAssessmentOutput(
            tool=tool, municipality=inp.municipality, kind=inp.kind, cost=cost, assessed_rate=rate,
            owner_assessment=owner, not_assessed_to_owner=rest, explanation=explanation,
            citations=citations, assumptions=assumptions,
        )
    # new sidewalk on one side of a street with none on either side
    if inp.owners_on_sidewalk_side is None or inp.owners_on_opposite_side is None:
        return SidewalkAssessmentOutput(
            tool=tool, ok=False, municipality=inp.municipality, kind=inp.kind,
            error="owners_on_sidewalk_side and owners_on_opposite_side are both required: 100% of the "
            "assessment is distributed equally between the property owners on both sides of the street.",
        )
    n = inp.owners_on_sidewalk_side + inp.owners_on_opposite_side
    if n == 0:
        return SidewalkAssessmentOutput(
            tool=tool, ok=False, municipality=inp.municipality, kind=inp.kind,
            error="owners_on_sidewalk_side + owners_on_opposite_side is 0: there is nobody to assess.",
        )
    rate = _figure(inp.municipality, "new_sidewalk_one_side", "assessed_share")
    assessed = cents(cost * rate)
    shares = _split_equally(assessed, n)
    per_owner = cents(assessed / n)
    explanation = (
        f"A new sidewalk on one side of a street that had none on either side: {rate * 100:.0f}% of the "
        f"assessment ({money(assessed)}) is distributed equally between the {n} property owners on both sides "
        f"({inp.owners_on_sidewalk_side} on the sidewalk side + {inp.owners_on_opposite_side} opposite): "
        f"{money(assessed)} / {n} = {money(per_owner)} each"
        + (f"; the shares are kept in whole cents, so {int(cents(assessed) * 100) % n} owner(s) pay one cent "
           f"more and the shares sum exactly to {money(assessed)}." if int(cents(assessed) * 100) % n else ".")
    )
    assumptions = [
        "'Property owners on both sides of the street' is read as the owners whose property abuts the block "
        "where the sidewalk is installed, counted on each side; the code does not define the extent.",
        "Shares are equal per owner, not by frontage, as the text says 'distributed equally'.",
    ]
    if inp.owners_on_opposite_side == 0 or inp.owners_on_sidewalk_side == 0:
        assumptions.append("One side has no owners; the assessment is split among the owners there are.")
    return SidewalkAssessmentOutput(
        tool=tool, municipality=inp.municipality, kind=inp.kind, cost=cost, assessed_rate=rate, owners_count=n,
        per_owner_share=per_owner, owner_shares=shares, explanation=explanation,
        citations=_cite(inp.municipality, "new_sidewalk_one_side", "new_sidewalk_existing_area"),
        assumptions=assumptions,
    )


# --------------------------------------------------------------------------- snow removal


class EmployeeTime(BaseModel):
    """One Village employee's snow-removal time."""

    model_config = ConfigDict(extra="forbid")

    hours: Decimal | None = Field(default=None, ge=0, le=1000, max_digits=8, decimal_places=2,
                                  description="Hours worked (or give minutes).")
    minutes: Decimal | None = Field(default=None, ge=0, le=60000, max_digits=8, decimal_places=2,
                                    description="Minutes worked, when the time is not a whole number of hundredths of "
                                                "an hour (1 hour 25 minutes = 85).")
    hourly_rate_including_benefits: Decimal = Field(
        ge=0, max_digits=10, decimal_places=2, description="The employee's hourly rate including benefits, $."
    )

    @model_validator(mode="after")
    def _one_time(self) -> "EmployeeTime":
        if (self.hours is None) == (self.minutes is None):
            raise ValueError("give the employee's time as hours or as minutes (one of them)")
        return self

    def exact_cost(self) -> Decimal:
        time = self.hours if self.hours is not None else self.minutes / 60
        return time * self.hourly_rate_including_benefits

    def cost(self) -> Decimal:
        return cents(self.exact_cost())

    def time(self) -> str:
        return f"{self.hours} h" if self.hours is not None else f"{self.minutes} min"


class SnowRemovalChargeInput(ToolInput):
    municipality: str = municipality_field("snow_removal_charge", "Municipality id or name; the tool's data says which codes set this.")
    employees: list[EmployeeTime] = Field(
        min_length=1, description="Each Village employee involved: hours and hourly rate including benefits."
    )
    occasions: int = Field(default=1, ge=1, le=366, description="Number of occasions the Village removed snow.")

    check_municipality = field_validator("municipality")(_municipality_id)


class SnowRemovalChargeOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    employee_costs: list[Decimal] = Field(default_factory=list, description="Hours x rate per employee, $.")
    labor_cost: Decimal | None = Field(default=None, description="Sum of the employee costs, $.")
    administrative_fee: Decimal | None = Field(default=None, description="Fee per occasion x occasions, $.")
    total_charge: Decimal | None = Field(default=None, description="Charged to the owner, $ (not a penalty).")
    fine_minimum: Decimal | None = Field(default=None, description="Separate penalty: lowest fine, $.")
    fine_maximum: Decimal | None = Field(default=None, description="Separate penalty: highest fine, $.")


@answers_changed_rules("snow_removal_charge")
def snow_removal_charge(inp: SnowRemovalChargeInput) -> SnowRemovalChargeOutput:
    tool = "snow_removal_charge"
    if (message := not_covered(tool, inp.municipality)):
        return _elsewhere(tool, SnowRemovalChargeOutput, inp.municipality, message)
    fee = _figure(inp.municipality, "snow_charge", "fee_per_occasion")
    fine_min = _figure(inp.municipality, "snow_fine", "fine_min")
    fine_max = _figure(inp.municipality, "snow_fine", "fine_max")
    costs = [e.cost() for e in inp.employees]
    # one charge, rounded once: two employees at 1.75 h x $38.50 are $134.75, not 2 x $67.38
    labor = cents(sum((e.exact_cost() for e in inp.employees), Decimal("0")))
    admin = cents(fee * inp.occasions)
    total = labor + admin
    terms = " + ".join(
        f"{e.time()} x {money(e.hourly_rate_including_benefits)}" for e in inp.employees
    )
    explanation = (
        f"The charge for snow removal by Village employees is each employee's hours at the hourly rate "
        f"including benefits, plus an administrative fee of {money(fee)} per occasion: {terms} = {money(labor)}; "
        f"{money(fee)} x {inp.occasions} occasion(s) = {money(admin)}; total {money(total)}. This charge "
        f"reimburses the Village and is not a penalty; the penalty for failing to remove snow or ice is a "
        f"separate fine of {money(fine_min)} up to {money(fine_max)}, not computed here."
    )
    return SnowRemovalChargeOutput(
        tool=tool, municipality=inp.municipality, employee_costs=costs, labor_cost=labor, administrative_fee=admin,
        total_charge=total, fine_minimum=fine_min, fine_maximum=fine_max, explanation=explanation,
        citations=_cite(inp.municipality, "snow_charge", "snow_as_set_forth", "snow_not_penalty", "snow_fine"),
        assumptions=[
            "The code says the cost is charged 'as set forth before', but nothing before sets it out beyond the "
            "hourly rate and the per-occasion fee; only those two are used.",
            "Equipment, materials and overhead beyond the employees' hourly rates including benefits are not "
            "provided for by the text and are not added.",
            "The labor cost is the employees' hours times their rates summed, rounded to the cent once (each "
            "employee's cost is shown rounded).",
        ],
    )


# --------------------------------------------------------------------------- Delafield asphalt service


class AsphaltServiceInput(ToolInput):
    municipality: str = municipality_field("asphalt_service_settlement", "Municipality id or name; the tool's data says which codes set this.")
    deposit: Decimal = _money_field(
        "Deposit paid before construction: the estimated time, materials and administrative costs, $."
    )
    actual_cost: Decimal = _money_field("Actual cost of the Town's asphalt work, $.")

    check_municipality = field_validator("municipality")(_municipality_id)


class AsphaltServiceOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    outcome: Literal["owner_pays_balance", "town_refunds", "settled"] | None = Field(
        default=None, description="Who owes whom after the work."
    )
    balance_due: Decimal | None = Field(default=None, description="Owner pays this over the deposit, $.")
    refund: Decimal | None = Field(default=None, description="Town pays this back to the owner, $.")
    pay_within_days: int | None = Field(default=None, description="Days the owner has to pay a balance.")
    tax_roll_date: str | None = Field(default=None, description="Unpaid by this date, the balance goes on the tax roll.")


@answers_changed_rules("asphalt_service_settlement")
def asphalt_service_settlement(inp: AsphaltServiceInput) -> AsphaltServiceOutput:
    tool = "asphalt_service_settlement"
    if (message := not_covered(tool, inp.municipality)):
        return _elsewhere(tool, AsphaltServiceOutput, inp.municipality, message)
    days = int(_provision(inp.municipality, "asphalt_balance_due")["pay_within_days"])
    roll = str(_provision(inp.municipality, "asphalt_tax_roll")["tax_roll_date"])
    deposit, actual = cents(inp.deposit), cents(inp.actual_cost)
    common = dict(tool=tool, municipality=inp.municipality, pay_within_days=days, tax_roll_date=roll)
    base = (f"The owner deposited {money(deposit)} (the estimated time, materials and administrative costs); "
            f"the actual cost is {money(actual)}. ")
    assumptions = [
        f"The code says the balance 'shall be paid within {days} days' without saying from when; it is read "
        "as from the Town's bill.",
        "No time is stated for the Town's refund.",
    ]
    if actual > deposit:
        due = actual - deposit
        return AsphaltServiceOutput(
            **common, outcome="owner_pays_balance", balance_due=due, refund=Decimal("0.00"),
            explanation=base + (
                f"The owner owes {money(actual)} - {money(deposit)} = {money(due)} over the deposit, to be paid "
                f"within {days} days; if it is not paid to the Town Treasurer on or before {roll}, the Town "
                f"enters it on the tax roll as a special tax against the property."),
            citations=_cite(inp.municipality, "asphalt_deposit", "asphalt_balance_due", "asphalt_tax_roll"),
            assumptions=assumptions,
        )
    if actual < deposit:
        refund = deposit - actual
        return AsphaltServiceOutput(
            **common, outcome="town_refunds", balance_due=Decimal("0.00"), refund=refund,
            explanation=base + (f"The Town pays the owner the difference: {money(deposit)} - {money(actual)} = "
                                f"{money(refund)}."),
            citations=_cite(inp.municipality, "asphalt_deposit", "asphalt_refund"),
            assumptions=assumptions,
        )
    return AsphaltServiceOutput(
        **common, outcome="settled", balance_due=Decimal("0.00"), refund=Decimal("0.00"),
        explanation=base + "The deposit equals the actual cost: nothing is owed either way.",
        citations=_cite(inp.municipality, "asphalt_deposit", "asphalt_balance_due", "asphalt_refund"),
        assumptions=assumptions,
    )


# --------------------------------------------------------------------------- unpaid bill charged to a guarantee


class GuaranteeBalanceInput(ToolInput):
    municipality: str = municipality_field("guarantee_balance", "Municipality id or name; the tool's data says which codes set this.")
    guarantee: Decimal = _money_field("The owner's financial guarantee (cash deposit, letter of credit or bond), $.")
    unpaid_bill: Decimal = _money_field("The municipality's bill for its work, not paid within the time allowed, $.")

    check_municipality = field_validator("municipality")(_municipality_id)


class GuaranteeBalanceOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    charged: Decimal | None = Field(default=None, description="Taken from the guarantee, $.")
    balance_released: Decimal | None = Field(default=None, description="Released to the owner, $.")
    not_covered_by_guarantee: Decimal | None = Field(default=None, description="Bill over the guarantee, $.")
    pay_within_days: int | None = Field(default=None, description="Days the owner had to pay the bill.")


@answers_changed_rules("guarantee_balance")
def guarantee_balance(inp: GuaranteeBalanceInput) -> GuaranteeBalanceOutput:
    """An unpaid bill charged to the owner's financial guarantee, and the balance released."""
    tool = "guarantee_balance"
    if (message := not_covered(tool, inp.municipality)):
        return _elsewhere(tool, GuaranteeBalanceOutput, inp.municipality, message)
    days = int(_provision(inp.municipality, "unpaid_bill_to_guarantee")["pay_within_days"])
    guarantee, bill = cents(inp.guarantee), cents(inp.unpaid_bill)
    charged = min(bill, guarantee)
    released, over = guarantee - charged, bill - charged
    text = (f"The bill of {money(bill)}, not paid within {days} days, is charged to the financial guarantee of "
            f"{money(guarantee)}; the balance released to the owner is {money(guarantee)} - {money(charged)} = "
            f"{money(released)}.")
    assumptions = []
    if over > 0:
        text += f" The bill is {money(over)} more than the guarantee: the code does not say how that part is collected."
        assumptions.append("The code does not say how a bill larger than the guarantee is collected.")
    return GuaranteeBalanceOutput(
        tool=tool, municipality=inp.municipality, charged=charged, balance_released=released,
        not_covered_by_guarantee=over, pay_within_days=days, explanation=text,
        citations=_cite(inp.municipality, "unpaid_bill_to_guarantee"), assumptions=assumptions)


# --------------------------------------------------------------------------- Delafield culvert deposit


class CulvertDepositInput(ToolInput):
    municipality: str = municipality_field("culvert_installation_deposit", "Municipality id or name; the tool's data says which codes set this.")
    estimated_installation_cost: Decimal = _money_field("Estimated cost of installing the culvert, $.")
    situation: Literal["new_driveway", "existing_driveway_notice"] = Field(
        default="new_driveway",
        description="'new_driveway': an owner applies to have a culvert installed; 'existing_driveway_notice': "
        "the Town Board notified the owner that the public welfare requires a culvert for an existing driveway.",
    )

    check_municipality = field_validator("municipality")(_municipality_id)


class CulvertDepositOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    situation: str | None = Field(default=None, description="Which rule applied.")
    deposit: Decimal | None = Field(default=None, description="Deposit = estimated installation cost, $.")
    deposit_due: str | None = Field(default=None, description="When the deposit is due.")
    deposit_within_days: int | None = Field(default=None, description="Existing driveway: days from the notice.")
    tax_roll_date: str | None = Field(
        default=None, description="Existing driveway: unpaid cost goes on the tax roll after this date.")
    ditch_guarantee_set_by: str | None = Field(
        default=None, description="New driveway: who sets the ditch-restoration guarantee (no figure in the code)."
    )


@answers_changed_rules("culvert_installation_deposit")
def culvert_installation_deposit(inp: CulvertDepositInput) -> CulvertDepositOutput:
    tool = "culvert_installation_deposit"
    if (message := not_covered(tool, inp.municipality)):
        return _elsewhere(tool, CulvertDepositOutput, inp.municipality, message)
    deposit = cents(inp.estimated_installation_cost)
    if inp.situation == "new_driveway":
        return CulvertDepositOutput(
            tool=tool, municipality=inp.municipality, situation=inp.situation, deposit=deposit,
            deposit_due="with the application to the Town Highway Superintendent",
            ditch_guarantee_set_by="the Town Board, by resolution",
            explanation=(
                f"The applicant deposits a fee equal to the estimated cost of installation: {money(deposit)}. "
                f"The applicant also provides the culvert and end sections (the Superintendent installs them), "
                f"and adds a cash deposit, letter of credit or bond for the landscaping restoration of the "
                f"roadside ditch, in an amount set by Town Board resolution that is not in the code."),
            citations=_cite(inp.municipality, "culvert_deposit", "culvert_supplied", "ditch_guarantee"),
            assumptions=[
                "The code does not say whether the deposit is settled against the actual cost afterwards.",
                "On a county or State highway, application goes to the Waukesha County Highway Department instead.",
            ],
        )
    days = int(_provision(inp.municipality, "existing_culvert_deposit")["deposit_within_days"])
    roll = str(_provision(inp.municipality, "existing_culvert_tax_roll")["tax_roll_date"])
    return CulvertDepositOutput(
        tool=tool, municipality=inp.municipality, situation=inp.situation, deposit=deposit,
        deposit_due=f"within {days} days from the date of the Town's notice", deposit_within_days=days,
        tax_roll_date=roll,
        explanation=(
            f"Where the public welfare requires a culvert for an existing driveway, the owner deposits the "
            f"estimated cost of installing it, {money(deposit)}, within {days} days from the date of notice. If "
            f"the deposit is not made, the installation cost is charged to the abutting property and, if not "
            f"paid to the Town Treasurer on or before {roll}, entered on the tax roll as a special tax."),
        citations=_cite(inp.municipality, "existing_culvert_deposit", "existing_culvert_tax_roll"),
        assumptions=["The code does not say whether the deposit is settled against the actual cost afterwards."],
    )


TOOLS: list[ToolSpec] = [
    ToolSpec(
        name="village_repair_bill",
        description="the bill when the Village repairs a permittee's faulty street work (labor + "
        "materials + equipment + administration percentage) or elects to make the pavement repair itself.",
        input_model=VillageRepairBillInput, output_model=VillageRepairBillOutput, fn=village_repair_bill,
        keywords=("repair bill", "administration", "20%", "labor", "materials", "equipment", "village repair",
                  "faulty work", "deficiencies", "lien"),
        route=Route(order=62, read="assistant.answering.routes.charges:repair_bill",
                    answers="the bill for repairs from stated labor, materials and equipment",
                    cues=(r"labor|labour|materials|equipment",)),
    ),
    ToolSpec(
        name="sidewalk_assessment",
        description="a property owner's sidewalk assessment — 50% of reconstruction or defective-"
        "sidewalk replacement cost, or an equal share of a new sidewalk on one side of a street with none.",
        input_model=SidewalkAssessmentInput, output_model=SidewalkAssessmentOutput, fn=sidewalk_assessment,
        keywords=("sidewalk assessment", "assessed", "50%", "reconstruction", "new sidewalk", "both sides",
                  "replacement cost", "special assessment"),
        route=Route(order=61, read="assistant.answering.routes.charges:sidewalk_assessment",
                    answers="an owner's share of a sidewalk's stated cost",
                    cues=(r"sidewalk", r"assess|\bpa(?:y|id|ying|ys)\b|\bshare|\bcost|\bow(?:e|es|ed|ing)\b|\bpocket\b|"
                                      r"\b(?:my|our) (?:part|portion|cut)\b|\b(?:part|portion) of (?:that|it|this|the)\b|"
                                      r"\b(?:lands?|falls?) on\b|\bon the hook\b")),
    ),
    ToolSpec(
        name="snow_removal_charge",
        description="what the owner is charged when Village employees remove snow or ice (hours x "
        "hourly rate including benefits + administrative fee per occasion), and the fine range.",
        input_model=SnowRemovalChargeInput, output_model=SnowRemovalChargeOutput, fn=snow_removal_charge,
        keywords=("snow", "ice", "shoveling", "snow removal charge", "fine", "per occasion", "hourly rate"),
        route=Route(order=64, read="assistant.answering.routes.charges:snow_charge",
                    answers="the charge for employees' hours of snow removal at stated rates",
                    cues=(r"snow|ice|shovel|clear|plow|storm|blizzard", r"hour|\bhrs?\b|\bminutes?\b|\bmins?\b|"
                          r"\b(?:village|town|city|crew|guys|employees|workers|they)\b[^.?!]{0,40}\b(?:shovel|plow|clear)\w*\b")),
    ),
    ToolSpec(
        name="asphalt_service_settlement",
        description="settle the deposit for the Town's driveway asphalt service against the actual "
        "cost — the owner pays the balance (30 days, tax roll after November 1) or the Town refunds the difference.",
        input_model=AsphaltServiceInput, output_model=AsphaltServiceOutput, fn=asphalt_service_settlement,
        keywords=("asphalt", "driveway", "deposit", "refund", "balance", "resurfacing", "tax roll"),
        route=Route(order=63, read="assistant.answering.routes.charges:asphalt_settlement",
                    answers="the balance or refund of an asphalt deposit against the actual cost",
                    cues=(r"asphalt|pav(?:e|ed|ing)|blacktop|apron", r"deposit|put down|put up \$|paid (?:up ?front|in advance)|up ?front|ahead of time|beforehand|in advance|"
                          r"\bstill owe\b|\bowe (?:them|the town)\b|\bbalance\b")),
    ),
    ToolSpec(
        name="guarantee_balance",
        description="an unpaid bill of the Town's charged to the owner's financial guarantee (cash deposit, letter "
        "of credit or bond), and the balance released to the owner.",
        input_model=GuaranteeBalanceInput, output_model=GuaranteeBalanceOutput, fn=guarantee_balance,
        keywords=("financial guarantee", "guarantee", "unpaid bill", "balance released", "deposit back"),
        route=Route(order=66, read="assistant.answering.routes.charges:guarantee_left",
                    answers="what is left of a financial guarantee after an unpaid bill is charged to it",
                    cues=(r"guarantee|letter of credit|\bbond\b|\bdeposit", r"\bback\b|return|releas|refund|left|balance|remain")),
    ),
    ToolSpec(
        name="culvert_installation_deposit",
        description="the deposit for a driveway culvert the Town installs (equal to the estimated "
        "installation cost), when it is due, and the ditch-restoration guarantee set by resolution.",
        input_model=CulvertDepositInput, output_model=CulvertDepositOutput, fn=culvert_installation_deposit,
        keywords=("culvert", "deposit", "driveway culvert", "installation cost", "end sections", "ditch"),
        route=Route(order=65, read="assistant.answering.routes.charges:culvert_deposit",
                    answers="the deposit for a culvert the Town installs, from its stated estimated cost",
                    cues=(r"\bculverts?\b", r"\bdeposit|\bput (?:down|up)\b")),
    ),
]
