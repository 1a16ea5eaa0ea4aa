"""The contractor's checklist on real jobs, with dates and items worked by hand.

Each scenario states the job, then what the code makes of it and why (the sentence of
the code, the calendar arithmetic). Counting is the Wisconsin rule (§ 990.001(4), Wis.
Stats.), the project default: hours leave out whole Sundays and legal holidays, a last
day on a Sunday or holiday moves to the next secular day, and periods that merely end
(a permit's validity, a guarantee) are not moved.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date

import pytest
from pydantic import ValidationError

from assistant.checklist import (
    GROUPS,
    Checklist,
    ChecklistRequest,
    build_checklist,
    pdf_safe,
    to_markdown,
    to_pdf,
)
from assistant.corpus import document, quote_is_verbatim


@dataclass(frozen=True)
class Expect:
    """An item whose text contains ``text``, in ``group``, with ``status`` and (if given) the date."""

    text: str
    group: str
    status: str | None = None
    due_date: date | None = None
    figure: str | None = None  # substring of the item's figure


@dataclass(frozen=True)
class Case:
    name: str
    request: dict
    expect: tuple[Expect, ...]
    absent: tuple[str, ...] = ()  # no item text contains these
    warnings: int | None = None  # how many warnings
    not_covered: tuple[str, ...] = ()  # substrings of not_covered notes
    why: str = ""


CASES = [
    Case(
        "brandon bituminous opening in March (frozen-ground window)",
        dict(municipality="brandon", work="street_opening", location="Main St at 2nd St", start_date="2025-03-10",
             duration_days=5, pavement="bituminous", final_paving_date="2024-06-01"),
        (
            # § 404-7A: "between November 15 and April 1" -> Mar 10 is inside; next allowed day Apr 2 (ends counted in).
            Expect("No openings between November 15 and April 1", "seasonal", "warning", date(2025, 4, 2)),
            # § 404-6 surcharge table: paved 2024-06-01, opened 2025-03-10 -> 9 months -> "New pavement to 1 year".
            Expect("Surcharge", "fees", "required", figure="5 times the permit fee"),
            Expect("permit fee", "fees", figure="set by the Village Board"),
            # § 404-7: 24 hours to the DPW. Mon 07:00 back 7 h to midnight, Sunday left out whole, Saturday 24:00
            # back 17 h -> Saturday 2025-03-08 07:00.
            Expect("Director of Public Works of the location and extent", "notices", "required", date(2025, 3, 8)),
            # § 404-7F: one business day before a Monday start -> Friday 2025-03-07.
            Expect("everyone affected", "notices", "required", date(2025, 3, 7)),
            Expect("4 hours before backfilling", "notices", "required"),
            # § 404-6: valid 30 days from approval (approval assumed on the start day): Mar 10 + 30 = Apr 9.
            Expect("valid for 30 days", "permits", "info", date(2025, 4, 9)),
            # § 404-7I: paving 2024-06-01 + 5 years = 2029-06-01 (a period that ends: not moved).
            Expect("five years after its permanent improvement", "permits", "warning", date(2029, 6, 1)),
            Expect("Indemnity bond", "bonds", "required", figure="$10,000"),
            Expect("Public liability insurance", "bonds", "required", figure="$1,000,000"),
            Expect("Bituminous patch depth", "specifications", "required"),
            Expect("Bituminous base (binder) layer: at most 1.5 in", "specifications"),
            Expect("Trench excavated ahead of pipe or conduit laying: at most 250 ft", "specifications"),
            # § 404-7G(6): permanent pavement within 60 days of the permit: Mar 10 + 60 = May 9 (Friday).
            Expect("Replace permanent pavement within 60 days", "post_work", "required", date(2025, 5, 9)),
            # § 404-6D: one year from completion (Fri Mar 14, 2025) -> Sat Mar 14, 2026 (an end, not moved).
            Expect("guaranteed for one year from completion", "post_work", "required", date(2026, 3, 14)),
        ),
        absent=("renewal", "Emergency"),
        warnings=2,
    ),
    Case(
        "brandon emergency in January before the MLK Day weekend",
        dict(municipality="brandon", work="alley_opening", start_date="2025-01-17", start_time="22:30",
             emergency=True, pavement="concrete", final_paving_date="2015-05-01", service_loss=True),
        (
            # § 404-7H: apply not later than the next business day. Fri Jan 17 -> Sat, Sun, and Mon Jan 20
            # (Martin Luther King Jr. Day) are not business days -> Tuesday 2025-01-21.
            Expect("not later than the next business day", "permits", "required", date(2025, 1, 21)),
            # § 404-6: no fee if filed within two regular business days -> Tue 21 (1), Wed 22 (2).
            Expect("Emergency: no permit fee", "fees", "required", date(2025, 1, 22), "no permit fee"),
            # Paved 2015-05-01: more than 5 years -> no surcharge.
            Expect("Surcharge", "fees", "info", figure="no surcharge"),
            Expect("emergency excavation is excepted", "seasonal", "info"),
            # § 404-7G(6): winter temporary patch replaced "by not later than the following June 1":
            # June 1, 2025 is a Sunday -> Monday 2025-06-02.
            Expect("temporary cold-mix bituminous surface (at least 3 in)", "seasonal", "conditional",
                   date(2025, 6, 2)),
            Expect("not required; notify the Village office immediately", "notices", "info"),
            Expect("Concrete patch depth", "specifications", "required"),
            Expect("Concrete contains no calcium chloride", "specifications"),
            Expect("Surface protected from traffic: at least 3 days", "specifications"),
            # Jan 17 + 60 days = Mar 18 (Tuesday).
            Expect("Replace permanent pavement", "post_work", "required", date(2025, 3, 18)),
        ),
        absent=("Director of Public Works of the location and extent", "before their utility service is cut",
                "No openings between November 15"),
        warnings=0,
    ),
    Case(
        "brandon opening that outlasts the permit: renewal, and insurance through the renewal",
        dict(municipality="brandon", work="street_opening", start_date="2025-08-04", duration_days=45,
             insurance=dict(per_person=1_000_000, property_damage=1_000_000, expires="2025-09-30",
                            indemnity_bond=10_000)),
        (
            # Aug 4 + 30 = Sep 3; the work ends Sep 17 -> renewal before Sep 3, renewed Sep 3 + 30 = Oct 3.
            Expect("valid for 30 days", "permits", "info", date(2025, 9, 3)),
            Expect("apply in writing for a renewal", "permits", "required", date(2025, 9, 3)),
            Expect("Renewal permit fee", "fees", "required", figure="set by the Village Board"),
            # Insurance must last "during the life of the permit and the period of excavation": through Oct 3.
            Expect("Coverage lasts until the work ends: required expiry on or after 2025-10-03", "bonds",
                   "shortfall"),
            Expect("Outside the November 15", "seasonal", "info"),
            # Aug 4 is a Monday: one business day before -> Friday Aug 1; 24 h -> Saturday Aug 2 07:00.
            Expect("everyone affected", "notices", None, date(2025, 8, 1)),
            Expect("Director of Public Works of the location and extent", "notices", None, date(2025, 8, 2)),
            Expect("Surcharge", "fees", "info", figure="no surcharge"),
        ),
        absent=("Even renewed once",),
        warnings=1,
    ),
    Case(
        "brandon Village utility in November, running into the window",
        dict(municipality="brandon", work="street_opening", start_date="2025-11-10", duration_days=10,
             village_utility=True, lane_closures="below_one_lane_each_way"),
        (
            Expect("Not required of this applicant: Indemnity bond", "bonds", "info"),
            Expect("Public utilities are bound", "permits", "info"),
            # Nov 10 -> Nov 19 crosses Nov 15.
            Expect("run into the no-opening window", "seasonal", "warning", date(2025, 11, 15)),
            Expect("flagman or a temporary traffic control signal", "specifications", "required"),
        ),
        warnings=1,
    ),
    Case(
        "brandon street privilege permit for a four-month building job with a closed street",
        dict(municipality="brandon", work="street_privilege", location="12 Oak St", start_date="2025-06-02",
             duration_days=120, lane_closures="full_closure", insurance=dict(per_person=500_000)),
        (
            Expect("Street privilege permit", "permits", "required"),
            Expect("building permit", "permits", "conditional"),
            # § 404-9: ends three months from issuance: Jun 2 -> Sep 2 (an end: not moved).
            Expect("ends automatically 3 months after issuance", "permits", "info", date(2025, 9, 2)),
            # Jun 2 + 119 days = Sep 29 > Sep 2.
            Expect("after the permit ends", "permits", "warning"),
            Expect("Street privilege permit fee", "fees", "required", figure="set by the Village Board"),
            Expect("Bond filed with the Village Clerk", "bonds", "required", figure="not exceeding $10,000"),
            Expect("no insurance limits for a street privilege permit", "bonds", "info"),
            Expect("not more than 1/3 of the street or alley", "specifications", "required"),
            Expect("full closure exceeds", "specifications", "warning"),
            Expect("vacate, clean", "post_work", "required"),
        ),
        absent=("Surcharge", "Indemnity bond deposited"),
        warnings=2,
        not_covered=("§ 404-8 allows building materials",),
    ),
    Case(
        "brandon commercial sidewalk with a driveway approach",
        dict(municipality="brandon", work="sidewalk", start_date="2025-05-05", commercial=True,
             driveway_approach=True),
        (
            # "at least two days before": Mon May 5 - 2 = Sat May 3; the Clerk's office is closed Saturdays
            # -> Friday May 2.
            Expect("Sidewalk permit", "permits", "required", date(2025, 5, 2)),
            Expect("Sidewalk permit fee", "fees", "required", figure="set by the Village Board"),
            Expect("Concrete at least 7 in thick within the driveway approach (commercial frontage), at least 8 ft",
                   "specifications"),
            Expect("slope toward the curb at least 0.5 in per foot", "specifications"),
            Expect("48 hours", "specifications"),
        ),
        absent=("Surcharge", "Indemnity bond"),
        not_covered=("no bond or insurance for a sidewalk permit",),
    ),
    Case(
        "brandon heavy vehicle: not regulated by ch. 404",
        dict(municipality="brandon", work="heavy_vehicle", start_date="2025-05-05", vehicle_weight_tons=12),
        (
            Expect("fails to report it commits a violation", "post_work", "info"),
            Expect("correct it within 10 days", "post_work", "conditional"),
        ),
        absent=("permit",),
        not_covered=("no heavy-vehicle permit",),
    ),
    Case(
        "delafield excavation with a certificate below the limits and expiring mid-job",
        dict(municipality="delafield", work="street_opening", start_date="2025-07-08", duration_days=10,
             pavement="bituminous", lane_closures="full_closure", public_utility=True, service_loss=True,
             insurance=dict(per_person=10_000, per_accident=15_000, property_damage=10_000, expires="2025-07-12")),
        (
            Expect("Written permit from the Town", "permits", "required"),
            Expect("Non-refundable application fee", "fees", "required", figure="Town Board"),
            Expect("No pavement-age surcharge", "fees", "info", figure="none"),
            Expect("Performance bond", "bonds", "required", figure="Town Board, by resolution"),
            Expect("Indemnity bond", "bonds", "required", figure="$10,000"),
            # $20,000 each accident required; $15,000 shown.
            Expect("bodily injury, each accident: required at least $20,000", "bonds", "shortfall"),
            # work Jul 8 -> Jul 17; the policy expires Jul 12.
            Expect("Coverage lasts until the work ends", "bonds", "shortfall"),
            Expect("Shortfall: Coverage continues without a gap for one year", "bonds", "shortfall"),
            # 48 hrs before Tue Jul 8 07:00: Tue 7 h + Mon 24 h, Sunday left out, Sat 17 h -> Sat Jul 5 07:00.
            Expect("Written notice to the Town Highway Commission", "notices", "required", date(2025, 7, 5)),
            Expect("ground is frozen", "seasonal", "conditional"),
            Expect("Traffic may not be shut off", "specifications", "warning"),
            Expect("realigned at no expense to the Town", "specifications", "conditional"),
            # one year after approval of the filling (assumed Jul 17, 2025) -> Jul 17, 2026.
            Expect("settling for one year", "post_work", "required", date(2026, 7, 17)),
            # drainage ditch repair within 30 days after completion: Jul 17 + 30 = Aug 16 (a Saturday, kept).
            Expect("repair the ditch and road surface within 30 days", "post_work", "conditional", date(2025, 8, 16)),
        ),
        absent=("4 hours before backfilling",),
        not_covered=("no separate notice before cutting service",),
    ),
    Case(
        "delafield concrete driveway with a culvert on a Town road",
        dict(municipality="delafield", work="driveway_culvert", start_date="2025-08-04",
             driveway_surface="concrete"),
        (
            Expect("Town Highway Superintendent for the culvert", "permits", "required"),
            Expect("Building Inspector for a concrete surface driveway", "permits", "required"),
            Expect("Deposit equal to the estimated cost of installing the culvert", "fees", "required"),
            Expect("Permit fee for a concrete surface driveway", "fees", "conditional", figure="Town Board"),
            Expect("landscaping restoration of the roadside ditch", "bonds", "required", figure="Town Board"),
            Expect("Driveway slope at any point: at most 12 %", "specifications"),
            Expect("Culvert cross section: at least 15 in", "specifications"),
            Expect("Culvert of corrugated metal pipe", "specifications"),
            Expect("no closer than 3 ft to the road's hard surface", "specifications"),
            # "within a year of the installation" -> Aug 4, 2026.
            Expect("the Town inspects within a year", "post_work", "required", date(2026, 8, 4)),
        ),
        absent=("Waukesha County", "asphalt"),
        not_covered=("no notice period or season",),
    ),
    Case(
        "delafield asphalt driveway onto a county highway",
        dict(municipality="delafield", work="driveway_culvert", start_date="2025-08-04", driveway_surface="asphalt",
             road_jurisdiction="county"),
        (
            Expect("Waukesha County Highway Department", "permits", "required"),
            Expect("Asphalt in the Town right-of-way", "permits", "required"),
            Expect("Town asphalting service", "fees", "conditional"),
        ),
        absent=("concrete surface driveway",),
    ),
    Case(
        "delafield 8-ton machine",
        dict(municipality="delafield", work="heavy_vehicle", start_date="2025-08-04", vehicle_weight_tons=8),
        (
            Expect("Town permit required before driving the machine", "permits", "required"),
            Expect("the vehicle exceeds it", "permits", "conditional"),
            Expect("drainage ditches or street curbs", "specifications", "required"),
            Expect("mud, gravel or dirt", "post_work", "required"),
        ),
    ),
    Case(
        "delafield light machine without lugs",
        dict(municipality="delafield", work="heavy_vehicle", start_date="2025-08-04", vehicle_weight_tons=2.5),
        (
            Expect("No Town permit needed for this machine", "permits", "info"),
            Expect("the vehicle is within it", "permits", "conditional"),
        ),
    ),
    Case(
        "delafield street privilege: not regulated by ch. 8",
        dict(municipality="delafield", work="street_privilege", start_date="2025-08-04", lane_closures="reduced"),
        (Expect("Traffic may not be shut off", "specifications", "required"),),
        not_covered=("no street privilege or encumbrance permit",),
    ),
]


@pytest.fixture(scope="module")
def built() -> dict[str, Checklist]:
    return {c.name: build_checklist(ChecklistRequest.model_validate(c.request)) for c in CASES}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_scenario(case: Case, built):
    cl = built[case.name]
    for e in case.expect:
        matches = [i for i in cl.items if e.text.lower() in i.text.lower()]
        assert matches, f"no item contains {e.text!r}; items: {[i.text[:70] for i in cl.items]}"
        item = matches[0]
        assert item.group == e.group, (e.text, item.group)
        if e.status:
            assert item.status == e.status, (e.text, item.status)
        if e.due_date:
            assert item.due_date == e.due_date, (e.text, item.due_date, item.explanation)
            assert item.tool, "a date comes from a calculator"
        if e.figure:
            assert item.figure and e.figure in item.figure, (e.text, item.figure)
    for text in case.absent:
        assert not [i for i in cl.items if text.lower() in i.text.lower()], text
    if case.warnings is not None:
        assert len(cl.warnings) == case.warnings, cl.warnings
    for note in case.not_covered:
        assert any(note.lower() in n.lower() for n in cl.not_covered), cl.not_covered


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_item_is_cited_verbatim(case: Case, built):
    cl = built[case.name]
    assert cl.items
    for item in cl.items:
        assert item.citations, item.text
        for c in item.citations:
            assert c.municipality == cl.request.municipality
            assert quote_is_verbatim(c), (item.text, c.label(), c.quote[:80])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_no_dollar_figure_the_code_does_not_give(case: Case, built):
    """Every dollar amount in an item is printed in the municipality's own text (or the
    contractor's own certificate, which appears only as 'certificate shows')."""
    cl = built[case.name]
    corpus = document(cl.request.municipality)
    text = " ".join(p.text for p in corpus.passages)
    code_figures = {m.replace(",", "") for m in re.findall(r"\$([\d,]+)", text)}
    for item in cl.items:
        shown = f"{item.text} {item.figure or ''}"
        shown = re.sub(r"certificate shows \$[\d,]+|Short by \$[\d,]+", "", shown)
        for m in re.findall(r"\$([\d,]+)", shown):
            assert m.replace(",", "") in code_figures, (item.text, m)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_groups_are_in_checklist_order(case: Case, built):
    order = [g for g, _ in GROUPS]
    seen = [order.index(i.group) for i in built[case.name].items]
    assert seen == sorted(seen)


def test_dates_come_with_the_counting_convention(built):
    cl = built[CASES[0].name]
    assert cl.convention and "990.001" in cl.convention
    assert {"deadline", "excavation_notice_deadlines", "street_opening_surcharge", "bond_insurance_requirements",
            "winter_opening_restriction", "pavement_patch_check", "trench_check"} <= set(cl.tools_used)


# ----------------------------------------------------------------------------- the request


@pytest.mark.parametrize("bad, field_name", [
    ({"colour": "red"}, "colour"),
    ({"work": "demolition"}, "work"),
    ({"municipality": "Springfield"}, "municipality"),
    ({"duration_days": 0}, "duration_days"),
    ({"start_date": "2025-02-30"}, "start_date"),
    ({"insurance": {"per_person": -5}}, "per_person"),
    ({"insurance": {"limit": 5}}, "limit"),
    ({"pavement": "gravel"}, "pavement"),
])
def test_request_rejects_bad_input_naming_the_field(bad, field_name):
    data = dict(municipality="brandon", work="street_opening", start_date="2025-05-05") | bad
    with pytest.raises(ValueError) as exc:
        ChecklistRequest.model_validate(data)
    assert field_name in str(exc.value)


@pytest.mark.parametrize("bad, words", [
    ({"start_date": "9999-12-31"}, "start_date: 9999-12-31 is out of range: give a date between 1900-01-01 and 2199-12-31"),
    ({"start_date": "0001-01-01"}, "start_date: 0001-01-01 is out of range"),
    ({"pavement": "concrete", "final_paving_date": "1066-10-14"}, "final_paving_date: 1066-10-14 is out of range"),
    ({"insurance": {"expires": "9999-12-31"}}, "insurance.expires: 9999-12-31 is out of range"),
    ({"insurance": {"per_person": 1e300}}, "insurance.per_person: Input should be less than or equal to 999999999999.99"),
    ({"insurance": {"indemnity_bond": 1e300}}, "insurance.indemnity_bond: Input should be less than or equal to"),
    ({"insurance": {"property_damage": float("inf")}}, "insurance.property_damage"),
    ({"permit_fee": 1e300}, "permit_fee: Input should be less than or equal to"),
])
def test_out_of_range_dates_and_sums_are_input_errors(capsys, bad, words):
    """Issue 13: 9999-12-31 and 1e300 overflowed inside a calculator ("date value out of
    range", or a calculator's own validation error); now the request names the field."""
    from assistant.__main__ import main

    data = dict(municipality="brandon", work="street_opening", start_date="2025-05-05") | bad
    rc = main(["checklist", "--json", json.dumps(data)])
    err = capsys.readouterr().err
    assert rc == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("error: invalid request: ") and words in err, err


def test_the_edges_of_the_ranges_are_computed():
    req = ChecklistRequest(municipality="brandon", work="street_opening", start_date="2199-12-31",
                           duration_days=366, pavement="bituminous", final_paving_date="2199-12-31",
                           permit_fee="999999999999.99",
                           insurance={"per_person": "999999999999.99", "expires": "2199-12-31",
                                      "indemnity_bond": "999999999999.99"})
    assert build_checklist(req).items


def test_request_rejects_paving_after_the_opening():
    with pytest.raises(ValidationError, match="cannot come before the paving"):
        ChecklistRequest(municipality="brandon", work="street_opening", start_date="2025-05-05",
                         pavement="bituminous", final_paving_date="2025-06-01")


def test_request_accepts_names_and_aliases():
    r = ChecklistRequest(municipality="Town of Delafield", work="alley opening", start_date="2025-05-05",
                         lane_closures=True, location="Main St\nDROP TABLE")
    assert (r.municipality, r.work, r.lane_closures) == ("delafield", "street_opening", "reduced")
    assert "\n" not in r.location
    r = ChecklistRequest(municipality="Village of Brandon", work="street_opening", start_date="2025-05-05",
                         duration_days=3, village_utility=True)
    assert r.end_date == date(2025, 5, 7) and r.public_utility


def test_surcharge_with_a_known_fee_is_an_amount():
    cl = build_checklist(ChecklistRequest(municipality="brandon", work="street_opening", start_date="2025-05-05",
                                          pavement="bituminous", final_paving_date="2023-11-01", permit_fee=50))
    # 2023-11-01 -> 2025-05-05 is 1 year 6 months: "1 year to 2 years" -> 4 x $50 = $200.00.
    assert cl.item("Surcharge").figure == "$200.00"


def test_surcharge_without_a_paving_date_asks_for_it():
    cl = build_checklist(ChecklistRequest(municipality="brandon", work="street_opening", start_date="2025-05-05",
                                          pavement="concrete"))
    item = cl.item("Surcharge")
    assert item.status == "conditional" and "final paving" in item.text


# ----------------------------------------------------------------------------- export


def test_markdown_export(built):
    cl = built[CASES[0].name]
    md = to_markdown(cl)
    assert md.startswith("# Pre-application checklist: Street or alley opening (excavation) — Village of Brandon")
    for _, label, _ in cl.grouped():
        assert f"## {label}" in md
    assert "## Warnings" in md
    assert "Village of Brandon Code § 404-7A (Regulations governing excavations and openings): “" in md
    assert "- [ ] " in md and "**Date:** Saturday 2025-03-08 07:00" in md
    assert "990.001" in md


def test_markdown_neutralises_what_the_user_typed():
    req = ChecklistRequest(municipality="brandon", work="sidewalk", start_date="2025-05-05",
                           location="Main [x](javascript:alert(1)) <img src=x>")
    md = to_markdown(build_checklist(req))
    assert not re.search(r"(?<!\\)\[x\]\(javascript", md) and not re.search(r"(?<!\\)<img", md)
    assert r"Main \[x\](javascript:alert(1)) \<img src=x\>" in md.splitlines()[0]


def test_pdf_export_is_printable(built):
    for case in CASES[:2] + CASES[7:8]:
        pdf = to_pdf(built[case.name])
        assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")
        assert b"/Type /Page" in pdf
        assert len(pdf) > 3000


def test_pdf_handles_characters_the_core_font_cannot_encode():
    req = ChecklistRequest(municipality="brandon", work="sidewalk", start_date="2025-05-05",
                           location="“Main” St — ⅓ block… ≤ 5 ft → 北")
    pdf = to_pdf(build_checklist(req))
    assert pdf.startswith(b"%PDF-")
    assert pdf_safe("§ 404-7 ½ ¼ “q” ‘s’ – — … ⅓ ≥ ×") == "§ 404-7 ½ ¼ \"q\" 's' -  -  ... 1/3 >= x"
    assert pdf_safe("北") == "?"
    pdf_safe("".join(chr(c) for c in range(32, 0x3000))).encode("latin-1")  # never raises


# ----------------------------------------------------------------------------- CLI


def test_cli_markdown_json_and_pdf(capsysbinary, tmp_path):
    from assistant.__main__ import main

    job = json.dumps({"municipality": "delafield", "work": "driveway", "start_date": "2025-08-04"})
    assert main(["checklist", "--json", job]) == 0
    out = capsysbinary.readouterr().out.decode()
    assert out.startswith("# Pre-application checklist: Driveway and culvert — Town of Delafield")
    assert main(["checklist", "--json", job, "--format", "json"]) == 0
    data = json.loads(capsysbinary.readouterr().out)
    assert data["request"]["work"] == "driveway_culvert" and data["items"]
    target = tmp_path / "c.pdf"
    assert main(["checklist", "--json", job, "--format", "pdf", "--out", str(target)]) == 0
    assert target.read_bytes().startswith(b"%PDF-")
    request_file = tmp_path / "job.json"
    request_file.write_text(job)
    assert main(["checklist", "--json", f"@{request_file}", "--format", "json"]) == 0
    assert json.loads(capsysbinary.readouterr().out)["municipality_name"] == "Town of Delafield"


def test_cli_errors_are_one_line(capsys):
    from assistant.__main__ import main

    rc = main(["checklist", "--json", '{"municipality": "brandon", "work": "street_opening", '
                                      '"start_date": "2025-05-05", "colour": "red"}'])
    err = capsys.readouterr().err
    assert rc == 1 and err.count("\n") == 1 and "colour" in err and "Traceback" not in err
    rc = main(["checklist", "--json", "{not json"])
    assert rc == 1 and "not valid JSON" in capsys.readouterr().err
