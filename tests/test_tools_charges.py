"""Charges and assessments: Brandon Village repair bill, sidewalk assessments and snow
removal; Delafield asphalt service and culvert deposit. Every expected amount was worked
by hand; the `rule` column holds the sentence of the code each row implements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.corpus import cite, quote_is_verbatim
from assistant.tools import charges
from assistant.tools.charges import (
    TOOLS,
    AsphaltServiceInput,
    CulvertDepositInput,
    SidewalkAssessmentInput,
    SnowRemovalChargeInput,
    VillageRepairBillInput,
    asphalt_service_settlement,
    culvert_installation_deposit,
    sidewalk_assessment,
    snow_removal_charge,
    village_repair_bill,
)
from assistant.tools.spec import ToolSpec
from assistant.types import ToolInput, ToolOutput

D = Decimal


@dataclass(frozen=True)
class Case:
    input: dict[str, Any]
    expected: dict[str, Any]
    rule: str  # the sentence of the code the row implements
    id: str = ""


def ids(cases: list[Case]) -> list[str]:
    return [c.id for c in cases]


def walk_quotes(node: Any):
    if isinstance(node, dict):
        if "quote" in node and "municipality" in node:
            yield node
        for v in node.values():
            yield from walk_quotes(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk_quotes(v)


def assert_cited(out: ToolOutput) -> None:
    assert out.ok, out.error
    assert out.citations and all(quote_is_verbatim(c) for c in out.citations)
    assert out.explanation


# --------------------------------------------------------------------------- data and declarations


def test_every_quote_in_charges_yaml_resolves_to_one_passage():
    entries = list(walk_quotes(yaml.safe_load(charges.DATA_FILE.read_text(encoding="utf-8"))))
    assert len(entries) >= 20
    for e in entries:
        c = cite(e["municipality"], e["quote"], section=e.get("section"))
        assert quote_is_verbatim(c), e["quote"]
        if e.get("section"):
            assert c.section == e["section"]


def test_rates_are_read_from_the_data_file(monkeypatch):
    data = yaml.safe_load(charges.DATA_FILE.read_text(encoding="utf-8"))
    data["provisions"]["brandon_repair_deficiencies"]["administration_rate"] = "0.50"
    data["provisions"]["brandon_snow_charge"]["fee_per_occasion"] = "40"
    monkeypatch.setattr(charges, "_data", lambda: data)
    assert village_repair_bill(VillageRepairBillInput(labor_cost="100")).total == D("150.00")
    out = snow_removal_charge(SnowRemovalChargeInput(employees=[{"hours": 0, "hourly_rate_including_benefits": 1}]))
    assert out.total_charge == D("40.00")


def test_tools_are_declared():
    names = [t.name for t in TOOLS]
    assert names == ["village_repair_bill", "sidewalk_assessment", "snow_removal_charge",
                     "asphalt_service_settlement", "guarantee_balance", "culvert_installation_deposit"]
    for t in TOOLS:
        assert isinstance(t, ToolSpec) and re.fullmatch(r"[a-z][a-z0-9_]+", t.name)
        assert issubclass(t.input_model, ToolInput) and issubclass(t.output_model, ToolOutput)
        assert t.description and t.keywords and len(t.municipalities) == 1


# --------------------------------------------------------------------------- Village repair bill

REPAIR_CASES = [
    Case({"labor_cost": "1200", "materials_cost": "350.50", "equipment_cost": "400"},
         {"subtotal": D("1950.50"), "administration_fee": D("390.10"), "total": D("2340.60")},
         "§ 404-6: bill the permittee for all labor, materials and equipment used, plus 20% for administration.",
         "worked-example"),
    Case({"labor_cost": "0.03"}, {"subtotal": D("0.03"), "administration_fee": D("0.01"), "total": D("0.04")},
         "§ 404-6: plus 20% (0.006 rounds half-up to one cent).", "rounding-up"),
    Case({"labor_cost": "0.02"}, {"subtotal": D("0.02"), "administration_fee": D("0.00"), "total": D("0.02")},
         "§ 404-6: plus 20% (0.004 rounds to nothing).", "rounding-down"),
    Case({"materials_cost": "99.99"}, {"subtotal": D("99.99"), "administration_fee": D("20.00"), "total": D("119.99")},
         "§ 404-6: materials only (19.998 rounds to 20.00).", "materials-only"),
    Case({}, {"subtotal": D("0.00"), "administration_fee": D("0.00"), "total": D("0.00")},
         "§ 404-6: nothing used, nothing billed.", "zero"),
    Case({"basis": "village_elected_repair", "labor_cost": "1200", "maintenance_cost": "100"},
         {"subtotal": D("1300.00"), "administration_fee": D("0.00"), "total": D("1300.00"), "lien_after_days": 90},
         "§ 404-7: the cost of making such repair and of maintaining it for one year shall be charged.",
         "village-elected-repair"),
]


@pytest.mark.parametrize("case", REPAIR_CASES, ids=ids(REPAIR_CASES))
def test_village_repair_bill(case: Case):
    out = village_repair_bill(VillageRepairBillInput(**case.input))
    assert_cited(out)
    for k, v in case.expected.items():
        assert getattr(out, k) == v, k


def test_repair_bill_explains_the_arithmetic():
    out = village_repair_bill(VillageRepairBillInput(labor_cost="1200", materials_cost="350.50", equipment_cost="400"))
    assert "$1,950.50" in out.explanation and "20%" in out.explanation and "$2,340.60" in out.explanation
    assert out.citations[0].section == "404-6"


def test_maintenance_cost_does_not_belong_to_a_deficiency_bill():
    out = village_repair_bill(VillageRepairBillInput(labor_cost="100", maintenance_cost="50"))
    assert not out.ok and "maintenance_cost" in out.error and out.total is None


def test_repair_bill_is_brandon_only():
    out = village_repair_bill(VillageRepairBillInput(municipality="delafield", labor_cost="100"))
    assert not out.ok and out.total is None and "Delafield" in out.error


@pytest.mark.parametrize("bad,field", [
    ({"labor_cost": "-1"}, "labor_cost"),
    ({"equipment_cost": "10.005"}, "equipment_cost"),
    ({"labor_cost": "abc"}, "labor_cost"),
    ({"basis": "whim"}, "basis"),
    ({"overhead": "5"}, "overhead"),
])
def test_repair_bill_validation(bad, field):
    with pytest.raises(ValidationError) as exc:
        VillageRepairBillInput(**bad)
    assert field in str(exc.value)


money = st.decimals(min_value=0, max_value=1_000_000, places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=100, deadline=None)
@given(labor=money, materials=money, equipment=money)
def test_repair_bill_property(labor, materials, equipment):
    out = village_repair_bill(VillageRepairBillInput(labor_cost=labor, materials_cost=materials,
                                                     equipment_cost=equipment))
    subtotal = labor + materials + equipment
    assert out.subtotal == subtotal
    assert out.administration_fee == (subtotal * D("0.2")).quantize(D("0.01"), rounding=ROUND_HALF_UP)
    assert out.total == out.subtotal + out.administration_fee
    assert out.total >= subtotal


# --------------------------------------------------------------------------- sidewalk assessment

SIDEWALK_CASES = [
    Case({"kind": "reconstruction", "cost": "8000"},
         {"owner_assessment": D("4000.00"), "not_assessed_to_owner": D("4000.00"), "assessed_rate": D("0.50")},
         "The property owner will be assessed 50% of the cost of sidewalk reconstruction.", "reconstruction"),
    Case({"kind": "reconstruction", "cost": "1234.57"},
         {"owner_assessment": D("617.29"), "not_assessed_to_owner": D("617.28")},
         "50% of the cost (617.285 rounds half-up; the two parts still sum to the cost).", "reconstruction-odd-cent"),
    Case({"kind": "defective_replacement", "cost": "3000"},
         {"owner_assessment": D("1500.00"), "not_assessed_to_owner": D("1500.00")},
         "Owners are assessed for 50% of the sidewalk replacement costs.", "defective-replacement"),
    Case({"kind": "new_one_side_none_either", "cost": "9000", "owners_on_sidewalk_side": 3,
          "owners_on_opposite_side": 3},
         {"owners_count": 6, "per_owner_share": D("1500.00"), "owner_shares": [D("1500.00")] * 6},
         "100% of the assessment shall be distributed equally between property owners on both sides of the street.",
         "new-one-side-even"),
    Case({"kind": "new_one_side_none_either", "cost": "10000", "owners_on_sidewalk_side": 4,
          "owners_on_opposite_side": 5},
         {"owners_count": 9, "per_owner_share": D("1111.11"),
          "owner_shares": [D("1111.12")] + [D("1111.11")] * 8},
         "100% ... distributed equally (one owner pays the leftover cent).", "new-one-side-uneven"),
    Case({"kind": "new_one_side_none_either", "cost": "500", "owners_on_sidewalk_side": 2,
          "owners_on_opposite_side": 0},
         {"owners_count": 2, "per_owner_share": D("250.00")},
         "100% ... distributed equally (no owners across the street).", "new-one-side-nobody-opposite"),
]


@pytest.mark.parametrize("case", SIDEWALK_CASES, ids=ids(SIDEWALK_CASES))
def test_sidewalk_assessment(case: Case):
    out = sidewalk_assessment(SidewalkAssessmentInput(**case.input))
    assert_cited(out)
    for k, v in case.expected.items():
        assert getattr(out, k) == v, k


@pytest.mark.parametrize("inp,needle", [
    ({"kind": "new_one_side_none_either", "cost": "100"}, "both required"),
    ({"kind": "new_one_side_none_either", "cost": "100", "owners_on_sidewalk_side": 2}, "both required"),
    ({"kind": "new_one_side_none_either", "cost": "100", "owners_on_sidewalk_side": 0,
      "owners_on_opposite_side": 0}, "nobody"),
    ({"kind": "reconstruction", "cost": "100", "owners_on_sidewalk_side": 2, "owners_on_opposite_side": 2},
     "only to kind"),
    ({"kind": "reconstruction", "cost": "100", "municipality": "delafield"}, "Delafield"),
])
def test_sidewalk_assessment_invalid_combinations(inp, needle):
    out = sidewalk_assessment(SidewalkAssessmentInput(**inp))
    assert not out.ok and needle in out.error
    assert out.owner_assessment is None and out.per_owner_share is None and out.owner_shares == []


@pytest.mark.parametrize("bad,field", [
    ({"kind": "reconstruction", "cost": "-5"}, "cost"),
    ({"kind": "repaint", "cost": "5"}, "kind"),
    ({"kind": "new_one_side_none_either", "cost": "5", "owners_on_sidewalk_side": -1,
      "owners_on_opposite_side": 1}, "owners_on_sidewalk_side"),
])
def test_sidewalk_assessment_validation(bad, field):
    with pytest.raises(ValidationError) as exc:
        SidewalkAssessmentInput(**bad)
    assert field in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(cost=money, a=st.integers(0, 60), b=st.integers(0, 60))
def test_equal_split_property(cost, a, b):
    if a + b == 0:
        return
    out = sidewalk_assessment(SidewalkAssessmentInput(kind="new_one_side_none_either", cost=cost,
                                                      owners_on_sidewalk_side=a, owners_on_opposite_side=b))
    assert len(out.owner_shares) == a + b
    assert sum(out.owner_shares) == cost
    assert max(out.owner_shares) - min(out.owner_shares) <= D("0.01")


@settings(max_examples=100, deadline=None)
@given(cost=money, kind=st.sampled_from(["reconstruction", "defective_replacement"]))
def test_half_assessment_property(cost, kind):
    out = sidewalk_assessment(SidewalkAssessmentInput(kind=kind, cost=cost))
    assert out.owner_assessment + out.not_assessed_to_owner == cost
    assert abs(out.owner_assessment - out.not_assessed_to_owner) <= D("0.01")


# --------------------------------------------------------------------------- snow removal

SNOW_CASES = [
    Case({"employees": [{"hours": "2.5", "hourly_rate_including_benefits": "42.10"},
                        {"hours": "1", "hourly_rate_including_benefits": "38.00"}], "occasions": 2},
         {"employee_costs": [D("105.25"), D("38.00")], "labor_cost": D("143.25"), "administrative_fee": D("50.00"),
          "total_charge": D("193.25")},
         "§ 404-10: computed at the hourly rate, including benefits, of the employees involved ... together with an "
         "administrative fee of $25 per occasion.", "two-employees-two-occasions"),
    Case({"employees": [{"hours": "0", "hourly_rate_including_benefits": "50"}]},
         {"labor_cost": D("0.00"), "administrative_fee": D("25.00"), "total_charge": D("25.00")},
         "§ 404-10: an administrative fee of $25 per occasion.", "fee-only"),
    Case({"employees": [{"hours": "0.25", "hourly_rate_including_benefits": "33.33"}]},
         {"employee_costs": [D("8.33")], "total_charge": D("33.33")},
         "§ 404-10: hourly rate (8.3325 rounds to 8.33) plus $25.", "quarter-hour"),
    Case({"employees": [{"hours": "1.75", "hourly_rate_including_benefits": "38.50"},
                        {"hours": "1.75", "hourly_rate_including_benefits": "38.50"}]},
         {"employee_costs": [D("67.38"), D("67.38")], "labor_cost": D("134.75"), "total_charge": D("159.75")},
         "§ 404-10: one charge, rounded once (2 x 67.375 = 134.75, not 2 x 67.38).", "rounded-once"),
]


@pytest.mark.parametrize("case", SNOW_CASES, ids=ids(SNOW_CASES))
def test_snow_removal_charge(case: Case):
    out = snow_removal_charge(SnowRemovalChargeInput(**case.input))
    assert_cited(out)
    for k, v in case.expected.items():
        assert getattr(out, k) == v, k
    assert (out.fine_minimum, out.fine_maximum) == (D("30"), D("1000"))


def test_snow_removal_notes_the_gaps_of_the_text():
    out = snow_removal_charge(SnowRemovalChargeInput(employees=[{"hours": 1, "hourly_rate_including_benefits": 40}]))
    assert any("as set forth before" in a for a in out.assumptions)
    assert "not a penalty" in out.explanation and "$30.00 up to $1,000.00" in out.explanation
    assert {c.section for c in out.citations} == {"404-10"}


def test_snow_removal_is_brandon_only():
    out = snow_removal_charge(SnowRemovalChargeInput(
        municipality="Town of Delafield", employees=[{"hours": 1, "hourly_rate_including_benefits": 1}]))
    assert not out.ok and out.total_charge is None


@pytest.mark.parametrize("bad,field", [
    ({"employees": [{"hours": "-1", "hourly_rate_including_benefits": "40"}]}, "hours"),
    ({"employees": [{"hours": "1", "hourly_rate_including_benefits": "-40"}]}, "hourly_rate_including_benefits"),
    ({"employees": [{"hours": "1", "rate": "40"}]}, "rate"),
    ({"employees": []}, "employees"),
    ({"employees": [{"hours": "1", "hourly_rate_including_benefits": "40"}], "occasions": 0}, "occasions"),
])
def test_snow_removal_validation(bad, field):
    with pytest.raises(ValidationError) as exc:
        SnowRemovalChargeInput(**bad)
    assert field in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(
    crew=st.lists(st.tuples(st.decimals(0, 24, places=2), st.decimals(0, 200, places=2)), min_size=1, max_size=6),
    occasions=st.integers(1, 20),
)
def test_snow_removal_property(crew, occasions):
    out = snow_removal_charge(SnowRemovalChargeInput(
        employees=[{"hours": h, "hourly_rate_including_benefits": r} for h, r in crew], occasions=occasions))
    assert out.administrative_fee == D(25) * occasions
    # one charge rounded once (the per-employee costs shown are each rounded, so they may differ by cents)
    assert out.labor_cost == sum((h * r for h, r in crew), D(0)).quantize(D("0.01"), rounding=ROUND_HALF_UP)
    assert abs(out.labor_cost - sum(out.employee_costs)) <= D("0.005") * len(crew)
    assert out.total_charge == out.labor_cost + out.administrative_fee
    assert all(abs(c - h * r) <= D("0.005") for c, (h, r) in zip(out.employee_costs, crew))


# --------------------------------------------------------------------------- Delafield asphalt service

ASPHALT_CASES = [
    Case({"deposit": "1500", "actual_cost": "1725.40"},
         {"outcome": "owner_pays_balance", "balance_due": D("225.40"), "refund": D("0.00")},
         "Any amount owed ... over and above the amount of the property owner s deposit shall be paid within 30 days.",
         "owner-owes"),
    Case({"deposit": "2000", "actual_cost": "1800"},
         {"outcome": "town_refunds", "balance_due": D("0.00"), "refund": D("200.00")},
         "The Town shall pay to the property owner any amount which represents the difference ... lower than the "
         "property owner s deposit.", "town-refunds"),
    Case({"deposit": "1000", "actual_cost": "1000"},
         {"outcome": "settled", "balance_due": D("0.00"), "refund": D("0.00")},
         "Deposit equal to the actual cost: nothing either way.", "settled"),
    Case({"deposit": "1000", "actual_cost": "1000.01"},
         {"outcome": "owner_pays_balance", "balance_due": D("0.01")},
         "One cent over the deposit is owed.", "one-cent-over"),
]


@pytest.mark.parametrize("case", ASPHALT_CASES, ids=ids(ASPHALT_CASES))
def test_asphalt_service(case: Case):
    out = asphalt_service_settlement(AsphaltServiceInput(**case.input))
    assert_cited(out)
    for k, v in case.expected.items():
        assert getattr(out, k) == v, k
    assert out.pay_within_days == 30 and out.tax_roll_date == "November 1"


def test_asphalt_balance_states_the_30_day_and_tax_roll_rule():
    out = asphalt_service_settlement(AsphaltServiceInput(deposit="1500", actual_cost="1725.40"))
    assert "within 30 days" in out.explanation and "November 1" in out.explanation
    assert any("November 1" in c.quote for c in out.citations)


def test_asphalt_is_delafield_only():
    out = asphalt_service_settlement(AsphaltServiceInput(municipality="brandon", deposit="1", actual_cost="2"))
    assert not out.ok and out.balance_due is None and out.refund is None


@settings(max_examples=100, deadline=None)
@given(deposit=money, actual=money)
def test_asphalt_property(deposit, actual):
    out = asphalt_service_settlement(AsphaltServiceInput(deposit=deposit, actual_cost=actual))
    assert out.balance_due >= 0 and out.refund >= 0
    assert out.balance_due == 0 or out.refund == 0
    assert deposit + out.balance_due - out.refund == actual


# --------------------------------------------------------------------------- Delafield culvert deposit


def test_culvert_deposit_new_driveway():
    out = culvert_installation_deposit(CulvertDepositInput(estimated_installation_cost="800"))
    assert_cited(out)
    assert out.deposit == D("800.00")
    assert out.ditch_guarantee_set_by == "the Town Board, by resolution"
    assert "not in the code" in out.explanation


def test_culvert_deposit_existing_driveway():
    out = culvert_installation_deposit(CulvertDepositInput(estimated_installation_cost="1250.5",
                                                           situation="existing_driveway_notice"))
    assert_cited(out)
    assert out.deposit == D("1250.50") and out.deposit_within_days == 10 and out.tax_roll_date == "November 1"
    assert out.ditch_guarantee_set_by is None
    assert "within 10 days" in out.deposit_due


def test_culvert_deposit_invalid():
    out = culvert_installation_deposit(CulvertDepositInput(municipality="brandon", estimated_installation_cost="1"))
    assert not out.ok and out.deposit is None
    with pytest.raises(ValidationError) as exc:
        CulvertDepositInput(estimated_installation_cost="-1")
    assert "estimated_installation_cost" in str(exc.value)
