"""Bonds, insurance and guarantees (Brandon § 404-6, § 404-9; Delafield ch. 8) and the
certificate checker. Every expected value was read off the code by hand; the `rule`
column holds the sentence each row implements.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.corpus import cite, quote_is_verbatim
from assistant.tools import bonds
from assistant.tools.bonds import (
    TOOLS,
    BondRequirementsInput,
    CertificateCheckInput,
    bond_insurance_requirements,
    insurance_certificate_check,
)
from assistant.tools.spec import ToolSpec
from assistant.types import ToolInput, ToolOutput


@dataclass(frozen=True)
class Case:
    input: dict[str, Any]
    expected: dict[str, Any]
    rule: str  # the sentence of the code the row implements
    id: str = ""


def ids(cases: list[Case]) -> list[str]:
    return [c.id for c in cases]


def by_id(out) -> dict[str, Any]:
    return {r.id: r for r in out.requirements}


def walk_quotes(node: Any):
    if isinstance(node, dict):
        if "quote" in node and "municipality" in node:
            yield node
        for v in node.values():
            yield from walk_quotes(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk_quotes(v)


# --------------------------------------------------------------------------- data and citations


def test_every_quote_in_bonds_yaml_resolves_to_one_passage():
    entries = list(walk_quotes(yaml.safe_load(bonds.DATA_FILE.read_text(encoding="utf-8"))))
    assert len(entries) >= 30
    for e in entries:
        c = cite(e["municipality"], e["quote"], section=e.get("section"))
        assert c.municipality == e["municipality"]
        assert quote_is_verbatim(c), e["quote"]
        if e.get("section"):
            assert c.section == e["section"]


def test_every_requirement_names_known_provisions():
    data = yaml.safe_load(bonds.DATA_FILE.read_text(encoding="utf-8"))
    keys = set(data["provisions"])
    for permit in data["permits"]:
        for req in permit["requirements"]:
            assert set(req["provisions"]) <= keys, req["id"]
            for k in ("amount_from", "max_from", "exemption"):
                if k in req:
                    assert req[k] in keys


def test_figures_are_read_from_the_data_file(monkeypatch):
    data = yaml.safe_load(bonds.DATA_FILE.read_text(encoding="utf-8"))
    data["provisions"]["brandon_opening_bond"]["amount"] = "12345"
    monkeypatch.setattr(bonds, "_data", lambda: data)
    out = bond_insurance_requirements(BondRequirementsInput(municipality="brandon", permit_type="street_opening"))
    assert by_id(out)["indemnity_bond"].amount == Decimal("12345")


def test_tools_are_declared():
    names = [t.name for t in TOOLS]
    assert names == ["bond_insurance_requirements", "insurance_certificate_check"]
    for t in TOOLS:
        assert isinstance(t, ToolSpec)
        assert re.fullmatch(r"[a-z][a-z0-9_]+", t.name)
        assert issubclass(t.input_model, ToolInput) and issubclass(t.output_model, ToolOutput)
        assert t.description and t.keywords
        assert t.input_model.model_config.get("extra") == "forbid"


# --------------------------------------------------------------------------- requirements

REQUIREMENT_CASES = [
    Case(
        {"municipality": "brandon", "permit_type": "street_opening"},
        {"indemnity_bond": ("required", Decimal("10000"), None),
         "liability_insurance": ("required", None, {"per_person": Decimal("1000000"),
                                                    "property_damage": Decimal("1000000")}),
         "self_insurance_certificate": ("alternative", None, {"per_person": Decimal("1000000"),
                                                              "property_damage": Decimal("1000000")}),
         "restoration_guarantee": ("required", None, "the Village Board"),
         "annual_bond": ("optional", None, "the Village Board"),
         "permit_fee": ("required", None, "the Village Board")},
        "§ 404-6: an indemnity bond in the sum of $10,000; public liability insurance in an amount not less "
        "than $1,000,000 per person and $1,000,000 for property damage; guarantee in an amount determined by "
        "the Village Board; annual bond ... in the amount determined by the Village Board.",
        "brandon-opening-contractor",
    ),
    Case(
        {"municipality": "Village of Brandon", "permit_type": "street_opening", "applicant": "village_public_utility"},
        {"indemnity_bond": ("exempt", Decimal("10000"), None),
         "liability_insurance": ("required", None, {"per_person": Decimal("1000000"),
                                                    "property_damage": Decimal("1000000")})},
        "§ 404-6: a Village public utility ... shall not be required to post the indemnity bond.",
        "brandon-village-utility-exempt-from-bond",
    ),
    Case(
        {"municipality": "brandon", "permit_type": "street_opening", "applicant": "public_utility"},
        {"indemnity_bond": ("required", Decimal("10000"), None)},
        "§ 404-6: All public utilities ... are hereby required to be bound by the terms and conditions.",
        "brandon-other-utility-posts-bond",
    ),
    Case(
        {"municipality": "brandon", "permit_type": "street_privilege"},
        {"privilege_bond": ("required", None, "the Director of Public Works"),
         "liability_insurance": ("conditional", None, "Village officials, as a condition of the permit"),
         "permit_fee": ("required", None, "the Village Board")},
        "§ 404-9: a bond in an amount determined by the Director of Public Works not exceeding $10,000 ... "
        "Upon request, the Village Board may waive this requirement.",
        "brandon-street-privilege",
    ),
    Case(
        {"municipality": "delafield", "permit_type": "excavation"},
        {"application_fee": ("required", None, "the Town Board, by resolution"),
         "performance_bond": ("required", None, "the Town Board, by resolution"),
         "indemnity_bond": ("required", Decimal("10000"), None),
         "insurance_certificate": ("alternative", None, {"per_person": Decimal("10000"),
                                                         "per_accident": Decimal("20000"),
                                                         "property_damage": Decimal("10000")})},
        "Delafield (2): performance bond in an amount as set forth ... by resolution; indemnity bond in the "
        "penal sum of $10,000; in lieu ... not less than $10,000 each person and $20,000 each accident and "
        "property damage ... not less than $10,000 each accident.",
        "delafield-excavation",
    ),
    Case(
        {"municipality": "delafield", "permit_type": "driveway_culvert"},
        {"culvert_installation_deposit": ("required", None, "the estimate of the installation cost"),
         "ditch_restoration_guarantee": ("required", None, "the Town Board, by resolution"),
         "concrete_driveway_permit_fee": ("conditional", None, "the Town Board, by resolution")},
        "DRIVEWAYS AND CULVERTS (1), (3)(a), (4)(a): deposit equal to the estimated cost; guarantee in the "
        "amount set forth ... by resolution; permit fee set by the Town Board by resolution.",
        "delafield-driveway-culvert",
    ),
    Case(
        {"municipality": "delafield", "permit_type": "curb_and_gutter"},
        {"curb_and_gutter_guarantee": ("required", None, "the Town Board, by resolution")},
        "DRIVEWAYS AND CULVERTS (6)(a): the financial guarantee herein provided in subsection (3) above shall be "
        "required.",
        "delafield-curb-and-gutter",
    ),
]


@pytest.mark.parametrize("case", REQUIREMENT_CASES, ids=ids(REQUIREMENT_CASES))
def test_requirements(case: Case):
    out = bond_insurance_requirements(BondRequirementsInput(**case.input))
    assert out.ok, out.error
    reqs = by_id(out)
    for rid, (status, amount, extra) in case.expected.items():
        r = reqs[rid]
        assert r.status == status, rid
        assert r.amount == amount, rid
        if isinstance(extra, dict):
            assert r.limits == extra, rid
        elif isinstance(extra, str):
            assert r.amount_set_by == extra, rid
            assert not r.amount_in_code or r.max_amount is not None, rid
    assert out.citations and out.explanation


def test_street_privilege_bond_has_a_ceiling_not_an_amount():
    out = bond_insurance_requirements(BondRequirementsInput(municipality="brandon", permit_type="street_privilege"))
    bond = by_id(out)["privilege_bond"]
    assert bond.amount is None and bond.max_amount == Decimal("10000")
    assert "Director of Public Works" in bond.amount_set_by
    assert any("may waive" in c.quote for c in bond.citations)


def test_amounts_left_to_a_body_have_no_figure():
    for entry in yaml.safe_load(bonds.DATA_FILE.read_text(encoding="utf-8"))["permits"]:
        out = bond_insurance_requirements(BondRequirementsInput(
            municipality=entry["municipality"], permit_type=entry["permit_type"]))
        for r in out.requirements:
            if not r.amount_in_code:
                assert r.amount is None and r.max_amount is None and not r.limits, r.id
                assert r.amount_set_by, r.id
                assert r.id.replace("_", " ") in out.explanation


def test_village_own_work_is_outside_section_404_6():
    out = bond_insurance_requirements(BondRequirementsInput(
        municipality="brandon", permit_type="street_opening", applicant="municipal_work"))
    assert out.ok and out.exempt_from_section and out.requirements == []
    assert "shall not apply to Village excavation work" in out.citations[0].quote


def test_delafield_states_no_exemption():
    out = bond_insurance_requirements(BondRequirementsInput(
        municipality="delafield", permit_type="excavation", applicant="public_utility"))
    assert all(r.status != "exempt" for r in out.requirements)
    assert any("no exemption" in a for a in out.assumptions)


def test_delafield_notes_cut_off_and_garbled_sentences():
    out = bond_insurance_requirements(BondRequirementsInput(municipality="delafield", permit_type="excavation"))
    text = " ".join(out.assumptions)
    assert "stops mid-way" in text and "garbled" in text


def test_aliases_map_to_the_municipality_permit():
    out = bond_insurance_requirements(BondRequirementsInput(municipality="brandon", permit_type="excavation"))
    assert out.permit_type == "street_opening"
    assert any("read as" in a for a in out.assumptions)
    out = bond_insurance_requirements(BondRequirementsInput(municipality="delafield", permit_type="street_opening"))
    assert out.permit_type == "excavation"


@pytest.mark.parametrize("municipality,permit_type", [
    ("brandon", "driveway_culvert"), ("brandon", "curb_and_gutter"), ("delafield", "street_privilege"),
])
def test_permit_the_code_does_not_have(municipality, permit_type):
    out = bond_insurance_requirements(BondRequirementsInput(municipality=municipality, permit_type=permit_type))
    assert not out.ok and out.error and "permit types it covers" in out.error
    assert out.requirements == []


@pytest.mark.parametrize("bad,field", [
    ({"municipality": "Oconomowoc", "permit_type": "excavation"}, "municipality"),
    ({"municipality": "brandon", "permit_type": "parade"}, "permit_type"),
    ({"municipality": "brandon", "permit_type": "excavation", "applicant": "mayor"}, "applicant"),
    ({"municipality": "brandon", "permit_type": "excavation", "bond": 5}, "bond"),
])
def test_requirements_input_validation(bad, field):
    with pytest.raises(ValidationError) as exc:
        BondRequirementsInput(**bad)
    assert field in str(exc.value)


@settings(max_examples=60, deadline=None)
@given(
    municipality=st.sampled_from(["brandon", "delafield"]),
    permit_type=st.sampled_from(["street_opening", "street_privilege", "excavation", "driveway_culvert",
                                 "curb_and_gutter"]),
    applicant=st.sampled_from(["contractor", "public_utility", "village_public_utility", "municipal_work"]),
)
def test_requirements_property_cited_and_figures_only_from_the_code(municipality, permit_type, applicant):
    out = bond_insurance_requirements(BondRequirementsInput(
        municipality=municipality, permit_type=permit_type, applicant=applicant))
    if not out.ok:
        assert out.error and not out.requirements
        return
    for r in out.requirements:
        assert r.citations, r.id
        assert all(quote_is_verbatim(c) for c in r.citations)
        if r.status == "exempt":
            assert applicant == "village_public_utility" and municipality == "brandon"


# --------------------------------------------------------------------------- certificate checker

BRANDON_OK = dict(
    municipality="brandon", per_person_limit="1000000", property_damage_limit="1000000",
    indemnity_bond_amount="10000", expiry_date="2025-12-31", work_start_date="2025-05-01",
    work_end_date="2025-06-15",
)
DELAFIELD_OK = dict(
    municipality="delafield", per_person_limit="10000", per_accident_limit="20000",
    property_damage_limit="10000", cancellation_notice_days=10, insurer_authorized_in_wisconsin=True,
    expiry_date="2026-05-01", work_start_date="2025-05-01", work_end_date="2025-06-15",
    permit_issue_date="2025-04-20",
)


def with_(base: dict, **changes) -> dict:
    d = dict(base)
    for k, v in changes.items():
        if v is None:
            d.pop(k, None)
        else:
            d[k] = v
    return d


CERT_CASES = [
    Case(BRANDON_OK, {"compliant": True, "shortfalls": []},
         "§ 404-6: not less than $1,000,000 per person and $1,000,000 for property damage; bond $10,000.",
         "brandon-meets-everything"),
    Case(with_(BRANDON_OK, per_person_limit="500000"), {"compliant": False, "shortfalls": ["per_person_limit"]},
         "§ 404-6: not less than $1,000,000 per person.", "brandon-per-person-short"),
    Case(with_(BRANDON_OK, per_person_limit="999999.99"), {"compliant": False, "shortfalls": ["per_person_limit"]},
         "§ 404-6: not less than $1,000,000 per person (one cent short).", "brandon-per-person-one-cent-short"),
    Case(with_(BRANDON_OK, property_damage_limit="250000"),
         {"compliant": False, "shortfalls": ["property_damage_limit"]},
         "§ 404-6: $1,000,000 for property damage.", "brandon-property-damage-short"),
    Case(with_(BRANDON_OK, expiry_date="2025-06-14"),
         {"compliant": False, "shortfalls": ["coverage_through_work_end"]},
         "§ 404-6: will maintain during the life of the permit and the period of excavation.",
         "brandon-expires-day-before-end"),
    Case(with_(BRANDON_OK, expiry_date="2025-06-15"), {"compliant": True, "shortfalls": []},
         "§ 404-6: maintained through the period of excavation (expiry on the last day counts).",
         "brandon-expires-on-end-day"),
    Case(with_(BRANDON_OK, expiry_date="2025-04-30"),
         {"compliant": False, "shortfalls": ["in_force_at_start", "coverage_through_work_end"]},
         "§ 404-6: Prior to the commencement of excavation work ... has in force.", "brandon-expired-before-start"),
    Case(with_(BRANDON_OK, indemnity_bond_amount="5000"), {"compliant": False, "shortfalls": ["indemnity_bond"]},
         "§ 404-6: an indemnity bond in the sum of $10,000.", "brandon-bond-short"),
    Case(with_(BRANDON_OK, indemnity_bond_amount=None, village_public_utility=True),
         {"compliant": True, "shortfalls": [], "status": {"indemnity_bond": "not_applicable"}},
         "§ 404-6: a Village public utility ... shall not be required to post the indemnity bond.",
         "brandon-village-utility-no-bond"),
    Case(with_(BRANDON_OK, indemnity_bond_amount="0"), {"compliant": False, "shortfalls": ["indemnity_bond"]},
         "§ 404-6: the applicant must execute and deposit ... an indemnity bond.", "brandon-no-bond"),
    Case(with_(BRANDON_OK, self_insured=True, expiry_date=None, indemnity_agreement_filed=False),
         {"compliant": False, "shortfalls": ["self_insurance_indemnity_agreement"]},
         "§ 404-6: said permittee shall also execute to the Village an agreement to indemnify.",
         "brandon-self-insured-without-agreement"),
    Case(with_(BRANDON_OK, self_insured=True, expiry_date=None, indemnity_agreement_filed=True),
         {"compliant": True, "shortfalls": []},
         "§ 404-6: a certificate of self-insurance in the sums set forth in this subsection.",
         "brandon-self-insured-with-agreement"),
    Case(with_(BRANDON_OK, property_damage_limit=None),
         {"compliant": None, "shortfalls": [], "status": {"property_damage_limit": "not_checked"}},
         "§ 404-6: $1,000,000 for property damage (not shown: cannot be checked).", "brandon-limit-missing"),
    Case(with_(BRANDON_OK, work_end_date=None),
         {"compliant": None, "shortfalls": [], "status": {"coverage_through_work_end": "not_checked"}},
         "§ 404-6: maintain during ... the period of excavation (no end date given).", "brandon-no-end-date"),
    Case(DELAFIELD_OK, {"compliant": True, "shortfalls": []},
         "Delafield (2)(b)2.: not less than $10,000 each person and $20,000 each accident and property damage "
         "... $10,000 each accident; 10 days' notice.", "delafield-meets-everything"),
    Case(with_(DELAFIELD_OK, per_accident_limit="19999.99"),
         {"compliant": False, "shortfalls": ["per_accident_limit"]},
         "Delafield (2)(b)2.: $20,000 each accident.", "delafield-per-accident-one-cent-short"),
    Case(with_(DELAFIELD_OK, per_person_limit="9000", property_damage_limit="5000"),
         {"compliant": False, "shortfalls": ["per_person_limit", "property_damage_limit"]},
         "Delafield (2)(b)2.: $10,000 each person ... $10,000 each accident (property damage).",
         "delafield-two-limits-short"),
    Case(with_(DELAFIELD_OK, cancellation_notice_days=9),
         {"compliant": False, "shortfalls": ["cancellation_notice"]},
         "Delafield (2)(b)2.: cannot be changed or canceled except upon 10 days' notice to the Town.",
         "delafield-9-days-notice"),
    Case(with_(DELAFIELD_OK, insurer_authorized_in_wisconsin=False),
         {"compliant": False, "shortfalls": ["insurer_authorized"]},
         "Delafield (2)(b)2.: issued by companies authorized to do business under the laws of this State.",
         "delafield-unauthorized-insurer"),
    Case(with_(DELAFIELD_OK, expiry_date="2026-04-19"),
         {"compliant": False, "shortfalls": ["one_year_coverage"], "status": {"one_year_coverage": "renewal_required"}},
         "Delafield (2)(b)2.: If such insurance policy expires ... within one year of the date of issuance ... "
         "similar insurance must be provided without any gap in coverage.", "delafield-expires-day-before-anniversary"),
    Case(with_(DELAFIELD_OK, expiry_date="2026-04-20"), {"compliant": True, "shortfalls": []},
         "Delafield (2)(b)2.: one year of the date of issuance (coverage through the anniversary suffices).",
         "delafield-expires-on-anniversary"),
    Case(with_(DELAFIELD_OK, expiry_date="2025-06-01"),
         {"compliant": False, "shortfalls": ["coverage_through_work_end", "one_year_coverage"]},
         "Delafield (2)(b)2.: coverage without a gap; expiry before the work ends.", "delafield-expires-mid-work"),
    Case({"municipality": "delafield", "indemnity_bond_amount": "10000"},
         {"compliant": True, "shortfalls": [], "status": {"indemnity_bond": "pass"}},
         "Delafield (2)(b): In lieu of the indemnity bond, the applicant may deposit ... a certificate of insurance.",
         "delafield-bond-instead-of-insurance"),
    Case(with_(DELAFIELD_OK, indemnity_bond_amount="5000"),
         {"compliant": True, "shortfalls": [], "status": {"indemnity_bond": "not_applicable"}},
         "Delafield (2)(b)2.: the certificate of insurance is in lieu of the indemnity bond.",
         "delafield-small-bond-but-good-insurance"),
    Case(with_(DELAFIELD_OK, indemnity_bond_amount="5000", per_person_limit="5000"),
         {"compliant": False, "shortfalls": ["indemnity_bond", "per_person_limit"]},
         "Delafield (2)(b)1.-2.: penal sum of $10,000, or insurance of $10,000 each person.",
         "delafield-neither-bond-nor-insurance"),
    Case(with_(DELAFIELD_OK, self_insured=True, insurer_authorized_in_wisconsin=None),
         {"compliant": False, "shortfalls": ["insurer_authorized"]},
         "Delafield (2)(b)2.: issued by companies authorized ... (no self-insurance alternative).",
         "delafield-self-insured"),
    Case(with_(DELAFIELD_OK, permit_issue_date="2024-02-29", expiry_date="2025-02-28", work_start_date=None,
               work_end_date="2024-06-01"),
         {"compliant": True, "shortfalls": []},
         "Delafield (2)(b)2.: one year from a 29 February issuance ends on 28 February.",
         "delafield-leap-day-permit"),
]


@pytest.mark.parametrize("case", CERT_CASES, ids=ids(CERT_CASES))
def test_certificate_check(case: Case):
    out = insurance_certificate_check(CertificateCheckInput(**case.input))
    assert out.ok, out.error
    assert out.compliant is case.expected["compliant"]
    assert [s.requirement for s in out.shortfalls] == case.expected["shortfalls"]
    statuses = {c.requirement: c.status for c in out.checks}
    for rid, status in case.expected.get("status", {}).items():
        assert statuses[rid] == status
    for s in out.shortfalls:
        assert s.note and quote_is_verbatim(s.citation)
    assert out.explanation and out.citations


def test_shortfall_says_by_how_much_and_cites_the_provision():
    out = insurance_certificate_check(CertificateCheckInput(**with_(BRANDON_OK, per_person_limit="750000")))
    (s,) = out.shortfalls
    assert s.note == "Short by $250,000."
    assert s.required == "at least $1,000,000" and s.provided == "$750,000"
    assert s.citation.section == "404-6" and "$1,000,000 per person" in s.citation.quote


def test_expiry_before_end_counts_the_days():
    out = insurance_certificate_check(CertificateCheckInput(**with_(BRANDON_OK, expiry_date="2025-06-05")))
    (s,) = out.shortfalls
    assert "10 day(s) before the work ends" in s.note


def test_one_year_rule_gives_the_gap_to_fill():
    out = insurance_certificate_check(CertificateCheckInput(**with_(DELAFIELD_OK, expiry_date="2025-12-31")))
    (s,) = out.shortfalls
    assert s.requirement == "one_year_coverage" and s.status == "renewal_required"
    assert "2025-12-31" in s.note and "2026-04-20" in s.note
    assert "garbled" in " ".join(out.assumptions)


def test_delafield_mentions_the_performance_bond_it_cannot_check():
    out = insurance_certificate_check(CertificateCheckInput(**DELAFIELD_OK))
    assert any("performance bond" in a.lower() and "resolution" in a for a in out.assumptions)


@pytest.mark.parametrize("municipality,permit_type", [
    ("brandon", "street_privilege"), ("delafield", "driveway_culvert"), ("delafield", "street_privilege"),
])
def test_certificate_for_a_permit_without_limits(municipality, permit_type):
    out = insurance_certificate_check(CertificateCheckInput(municipality=municipality, permit_type=permit_type))
    assert not out.ok and "insurance limits" in out.error
    assert out.checks == [] and out.compliant is None


@pytest.mark.parametrize("bad,field", [
    (with_(BRANDON_OK, per_person_limit="-1"), "per_person_limit"),
    (with_(BRANDON_OK, property_damage_limit="100.001"), "property_damage_limit"),
    (with_(BRANDON_OK, expiry_date="31/12/2025"), "expiry_date"),
    (with_(BRANDON_OK, work_end_date="2025-04-01"), "work_end_date"),
    (with_(BRANDON_OK, cancellation_notice_days=-3), "cancellation_notice_days"),
    (with_(BRANDON_OK, insurer="Acme"), "insurer"),
    (with_(BRANDON_OK, municipality="Springfield"), "municipality"),
])
def test_certificate_input_validation(bad, field):
    with pytest.raises(ValidationError) as exc:
        CertificateCheckInput(**bad)
    assert field in str(exc.value)


money = st.decimals(min_value=0, max_value=5_000_000, places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=80, deadline=None)
@given(per_person=money, property_damage=money, bond=money)
def test_brandon_limits_property(per_person, property_damage, bond):
    out = insurance_certificate_check(CertificateCheckInput(**with_(
        BRANDON_OK, per_person_limit=per_person, property_damage_limit=property_damage, indemnity_bond_amount=bond)))
    short = {s.requirement for s in out.shortfalls}
    assert ("per_person_limit" in short) == (per_person < Decimal("1000000"))
    assert ("property_damage_limit" in short) == (property_damage < Decimal("1000000"))
    assert ("indemnity_bond" in short) == (bond < Decimal("10000"))
    assert out.compliant is (not short)


@settings(max_examples=80, deadline=None)
@given(expiry_offset=st.integers(-400, 800), work_days=st.integers(0, 200))
def test_delafield_dates_property(expiry_offset, work_days):
    issue = date(2025, 4, 20)
    start = issue + timedelta(days=5)
    end = start + timedelta(days=work_days)
    expiry = issue + timedelta(days=expiry_offset)
    out = insurance_certificate_check(CertificateCheckInput(**with_(
        DELAFIELD_OK, permit_issue_date=issue, work_start_date=start, work_end_date=end, expiry_date=expiry)))
    short = {s.requirement for s in out.shortfalls}
    assert ("coverage_through_work_end" in short) == (expiry < end)
    assert ("in_force_at_start" in short) == (expiry < start)
    assert ("one_year_coverage" in short) == (expiry < date(2026, 4, 20))
    assert out.compliant is (not short)
