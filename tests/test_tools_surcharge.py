"""Brandon's street-opening surcharge (§ 404-6): hand-worked table, boundaries, warnings,
Delafield, invalid input, citations and the no-rise property."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

import pytest
import yaml
from dateutil.relativedelta import relativedelta
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.corpus import cite, quote_is_verbatim
from assistant.tools.calendar import BusinessCalendar
from assistant.tools.surcharge import (
    DATA_FILE,
    TOOLS,
    SurchargeInput,
    surcharge_data,
    surcharge_for_opening,
)
from assistant.types import ToolInput, ToolOutput

WI = BusinessCalendar("wisconsin")
PAVED = date(2024, 6, 1)  # final paving used by most rows


def run(**kw):
    return surcharge_for_opening(SurchargeInput(**kw), calendar=WI)


@dataclass(frozen=True)
class Case:
    name: str
    final_paving: date
    opening: date
    fee: Decimal | None
    multiplier: int
    amount: Decimal | None
    boundary: bool
    sentence: str


CASES = [
    Case("same day", PAVED, PAVED, None, 5, None, False, "New pavement to 1 year: 5 times the permit fee"),
    Case("364 days", PAVED, date(2025, 5, 31), Decimal("100"), 5, Decimal("500.00"), False,
         "New pavement to 1 year: 5 times the permit fee"),
    Case("exactly 1 year", PAVED, date(2025, 6, 1), Decimal("100"), 5, Decimal("500.00"), True,
         "New pavement to 1 year (the anniversary itself is still 'to 1 year')"),
    Case("1 year and a day", PAVED, date(2025, 6, 2), Decimal("100"), 4, Decimal("400.00"), False,
         "1 year to 2 years: 4 times the permit fee"),
    Case("exactly 2 years", PAVED, date(2026, 6, 1), Decimal("100"), 4, Decimal("400.00"), True,
         "1 year to 2 years: 4 times"),
    Case("2 years and a day", PAVED, date(2026, 6, 2), Decimal("37.50"), 3, Decimal("112.50"), False,
         "2 years to 3 years: 3 times the permit fee"),
    Case("exactly 3 years", PAVED, date(2027, 6, 1), None, 3, None, True, "2 years to 3 years: 3 times"),
    Case("3 years and a day", PAVED, date(2027, 6, 2), None, 2, None, False, "3 years to 4 years: 2 times"),
    Case("exactly 4 years", PAVED, date(2028, 6, 1), None, 2, None, True, "3 years to 4 years: 2 times"),
    Case("4 years and a day", PAVED, date(2028, 6, 2), Decimal("80"), 1, Decimal("80.00"), False,
         "4 years to 5 years: 1 times the permit fee"),
    Case("exactly 5 years", PAVED, date(2029, 6, 1), Decimal("80"), 1, Decimal("80.00"), True,
         "4 years to 5 years: exactly 5 years is not 'More than 5 years'"),
    Case("5 years and a day", PAVED, date(2029, 6, 2), Decimal("80"), 0, Decimal("0.00"), False,
         "More than 5 years: No surcharge"),
    Case("20 years", PAVED, date(2044, 6, 1), None, 0, None, False, "More than 5 years: No surcharge"),
    Case("leap-day paving, 28 Feb next year is the anniversary", date(2020, 2, 29), date(2021, 2, 28), None, 5, None,
         True, "New pavement to 1 year (anniversary of 29 Feb is 28 Feb)"),
    Case("leap-day paving, 1 March next year", date(2020, 2, 29), date(2021, 3, 1), None, 4, None, False,
         "1 year to 2 years"),
    Case("fee of zero", PAVED, date(2024, 7, 1), Decimal("0"), 5, Decimal("0.00"), False, "5 times a $0 fee"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hand_worked(case: Case) -> None:
    r = run(opening_date=case.opening, final_paving_date=case.final_paving, permit_fee=case.fee)
    assert r.ok, r.error
    assert r.multiplier == case.multiplier, case.sentence
    assert r.amount == case.amount, case.sentence
    assert r.at_band_boundary is case.boundary, case.sentence
    assert r.pavement_age_days == (case.opening - case.final_paving).days
    assert r.convention and "anniversary" in r.convention
    assert r.explanation and r.citations


def test_band_labels_and_multipliers_match_the_table() -> None:
    got = [(b.label, b.multiplier, b.up_to_years) for b in surcharge_data().bands]
    assert got == [
        ("New pavement to 1 year", 5, 1),
        ("1 year to 2 years", 4, 2),
        ("2 years to 3 years", 3, 3),
        ("3 years to 4 years", 2, 4),
        ("4 years to 5 years", 1, 5),
        ("More than 5 years", 0, None),
    ]


def test_boundary_reports_the_other_reading() -> None:
    r = run(opening_date=date(2025, 6, 1), final_paving_date=PAVED)
    assert r.band == "New pavement to 1 year" and r.multiplier_other_reading == 4
    assert any("shared endpoint" in a or "share their endpoints" in a for a in r.assumptions)
    assert any('"1 year to 2 years" instead' in a and "4 times" in a for a in r.assumptions)
    five = run(opening_date=date(2029, 6, 1), final_paving_date=PAVED)
    assert five.multiplier == 1 and five.multiplier_other_reading == 0
    inside = run(opening_date=date(2025, 6, 2), final_paving_date=PAVED)
    assert inside.multiplier_other_reading is None


def test_without_a_fee_the_answer_stays_a_multiple() -> None:
    r = run(opening_date=date(2025, 1, 10), final_paving_date=PAVED)
    assert r.amount is None and r.permit_fee is None
    assert r.amount_text == "5 times the permit fee"
    assert "set by the Village Board" in r.explanation and "not in the code" in r.explanation
    assert "$" not in r.explanation  # no fee is invented
    assert any(c.subsection == "A(2)" and "set by the Village Board" in c.quote for c in r.citations)


def test_with_a_fee_the_arithmetic_is_shown() -> None:
    r = run(opening_date=date(2026, 6, 2), final_paving_date=PAVED, permit_fee="37.50")
    assert r.amount_text == "$112.50"
    assert "3 × $37.50 = $112.50" in r.explanation


def test_citation_of_the_row_applied() -> None:
    r = run(opening_date=date(2027, 6, 2), final_paving_date=PAVED)
    quotes = [c.quote for c in r.citations]
    assert any("3 years to 4 years" in q and "2 times the permit fee" in q for q in quotes)
    assert all(c.municipality == "brandon" for c in r.citations)


# ----------------------------------------------------------------- § 404-7 warnings


@dataclass(frozen=True)
class NewStreetCase:
    improved: date
    opening: date
    restricted: bool
    sentence: str


NEW_STREET = [
    NewStreetCase(date(2022, 9, 1), date(2025, 9, 1), True, "within five years after the date of improvement"),
    NewStreetCase(date(2020, 9, 1), date(2025, 9, 1), True, "the fifth anniversary is still within the period"),
    NewStreetCase(date(2020, 9, 1), date(2025, 9, 2), False, "the day after the five years"),
]


@pytest.mark.parametrize("case", NEW_STREET, ids=[c.sentence for c in NEW_STREET])
def test_new_street_five_year_rule(case: NewStreetCase) -> None:
    r = run(opening_date=case.opening, final_paving_date=case.improved, improved_or_repaved_date=case.improved)
    assert r.new_street_restriction is case.restricted, case.sentence
    has_warning = any("§ 404-7I" in w for w in r.warnings)
    assert has_warning is case.restricted
    assert any(c.subsection == "I" for c in r.citations) is case.restricted


def test_young_pavement_without_improvement_date_warns_conditionally() -> None:
    r = run(opening_date=date(2025, 9, 1), final_paving_date=date(2023, 9, 1))
    assert r.new_street_restriction is None
    assert any("If the final paving was the street's permanent improvement" in w for w in r.warnings)
    old = run(opening_date=date(2025, 9, 1), final_paving_date=date(2015, 9, 1))
    assert old.warnings == [] and old.multiplier == 0


def test_improvement_after_the_opening_does_not_restrict() -> None:
    r = run(opening_date=date(2025, 9, 1), final_paving_date=date(2023, 9, 1), improved_or_repaved_date=date(2025, 10, 1))
    assert r.new_street_restriction is False
    assert any("after the opening" in a for a in r.assumptions)


def test_winter_window_warning() -> None:
    r = run(opening_date=date(2025, 12, 1), final_paving_date=date(2010, 6, 1))
    assert r.in_no_opening_window is True
    assert any("November 15 - April 1" in w and "2026-04-02" in w for w in r.warnings)
    assert any(c.subsection == "A" and c.section == "404-7" for c in r.citations)
    summer = run(opening_date=date(2025, 7, 1), final_paving_date=date(2010, 6, 1))
    assert summer.in_no_opening_window is False


def test_opening_off_the_pavement_has_no_surcharge() -> None:
    r = run(opening_date=date(2025, 7, 1), disturbs_pavement=False, permit_fee=100)
    assert r.ok and r.multiplier == 0 and r.amount == Decimal("0.00")
    assert "in or disturbs the paved portion" in r.explanation


# ----------------------------------------------------------------------- Delafield


def test_delafield_has_no_surcharge() -> None:
    r = run(municipality="Delafield", opening_date=date(2025, 7, 1), final_paving_date=PAVED, permit_fee=100)
    assert not r.ok
    assert r.multiplier is None and r.amount is None and r.amount_text is None
    assert "no street-opening surcharge" in (r.error or "")
    for words in ("application fee", "resolution of the Town Board", "performance bond", "indemnity bond",
                  "certificate of insurance", "48 hours"):
        assert words in r.explanation
    assert r.citations and all(c.municipality == "delafield" for c in r.citations)
    assert any("48 hrs." in c.quote for c in r.citations)


# ----------------------------------------------------------------- invalid input


def test_negative_fee_gives_no_number() -> None:
    r = run(opening_date=date(2025, 7, 1), final_paving_date=PAVED, permit_fee="-5")
    assert not r.ok and "permit_fee" in (r.error or "")
    assert r.multiplier is None and r.amount is None


def test_opening_before_paving_gives_no_number() -> None:
    r = run(opening_date=date(2024, 5, 31), final_paving_date=PAVED, permit_fee=100)
    assert not r.ok and "before final_paving_date" in (r.error or "")
    assert r.multiplier is None and r.amount is None and r.permit_fee is None


def test_missing_paving_date_is_explained() -> None:
    r = run(opening_date=date(2024, 7, 1))
    assert not r.ok and "final_paving_date is required" in (r.error or "")
    assert r.multiplier is None


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"opening_date": "2025-07-01", "final_paving_date": "last spring"}, "final_paving_date"),
        ({"opening_date": "2025-13-01"}, "opening_date"),
        ({"opening_date": "2025-07-01", "fee": 100}, "fee"),
        ({"opening_date": "2025-07-01", "permit_fee": "a hundred"}, "permit_fee"),
        ({"opening_date": "2025-07-01", "municipality": "Springfield"}, "municipality"),
        ({}, "opening_date"),
    ],
)
def test_malformed_input_names_the_field(payload: dict, field: str) -> None:
    with pytest.raises(ValidationError) as exc:
        SurchargeInput.model_validate(payload)
    assert field in {str(e["loc"][0]) for e in exc.value.errors()}


# ----------------------------------------------------------------------- citations


def _yaml_quotes():
    data = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
    b = data["brandon"]
    yield "brandon", b["levy"]
    yield "brandon", b["fee"]
    for band in b["bands"]:
        yield "brandon", band
    for req in data["delafield"]["requirements"]:
        for q in req["quotes"]:
            yield "delafield", {"quote": q}


@pytest.mark.parametrize("municipality, ref", list(_yaml_quotes()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_citation_in_the_data_file_resolves(municipality: str, ref: dict) -> None:
    c = cite(municipality, ref["quote"], section=ref.get("section"), title=ref.get("title"))
    assert c.passage_id and quote_is_verbatim(c)


def test_tool_spec() -> None:
    (spec,) = TOOLS
    assert spec.name == "street_opening_surcharge"
    assert issubclass(spec.input_model, ToolInput) and issubclass(spec.output_model, ToolOutput)
    assert "surcharge" in spec.keywords and spec.description


# ---------------------------------------------------------------------- properties

paving_days = st.dates(min_value=date(2000, 1, 1), max_value=date(2030, 12, 31))


@settings(max_examples=300, deadline=None)
@given(paving_days, st.integers(min_value=0, max_value=3000), st.integers(min_value=0, max_value=800))
def test_surcharge_never_rises_with_age(paving: date, first: int, later: int) -> None:
    young = run(opening_date=paving + timedelta(days=first), final_paving_date=paving, permit_fee=100)
    old = run(opening_date=paving + timedelta(days=first + later), final_paving_date=paving, permit_fee=100)
    assert young.ok and old.ok
    assert old.multiplier <= young.multiplier  # type: ignore[operator]
    assert young.amount == Decimal(100 * young.multiplier).quantize(Decimal("0.01"))  # type: ignore[operator]


@settings(max_examples=200, deadline=None)
@given(paving_days, st.integers(min_value=1, max_value=5))
def test_each_anniversary_closes_its_band(paving: date, years: int) -> None:
    anniversary = paving + relativedelta(years=years)
    on = run(opening_date=anniversary, final_paving_date=paving)
    after = run(opening_date=anniversary + timedelta(days=1), final_paving_date=paving)
    assert on.multiplier == 6 - years and on.at_band_boundary
    assert after.multiplier == 5 - years


def test_total_with_permit_fee_adds_fee_and_surcharge():
    # $150 fee, paving 2025-03-04, opening 2027-10-05: 2 years 7 months -> "2 years to 3 years", 3 times
    from datetime import date
    from decimal import Decimal

    from assistant.tools.surcharge import SurchargeInput, surcharge_for_opening

    out = surcharge_for_opening(SurchargeInput(municipality="brandon", opening_date=date(2027, 10, 5),
                                                  final_paving_date=date(2025, 3, 4), permit_fee=Decimal("150")))
    assert out.multiplier == 3 and out.amount == Decimal("450.00")
    assert out.total_with_permit_fee == Decimal("600.00")
    # the total is in the result; the answer states it only when the question asks what is paid in all
    assert "$600.00" not in out.explanation
    from assistant.answering import phrasing
    from assistant.answering.routes.surcharge import _lead

    assert _lead("What surcharge do we pay on top?") is phrasing.lead_surcharge
    assert "**$600.00**" in _lead("What do we pay in total, fee and surcharge?")(out)
