"""Deadlines of the two codes: one hand-worked row per rule, boundaries, the conveniences,
invalid input, every citation, and properties over the calendar."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.corpus import cite, quote_is_verbatim
from assistant.settings import get_settings
from assistant.tools import deadlines as dl
from assistant.tools.calendar import BusinessCalendar
from assistant.tools.deadlines import (
    DATA_FILE,
    RULE_IDS,
    TOOLS,
    DeadlineInput,
    EmergencyExcavationInput,
    ExcavationNoticesInput,
    OpeningSeasonInput,
    deadline,
    emergency_excavation_deadlines,
    excavation_notice_deadlines,
    rules,
    winter_opening_restriction,
)
from assistant.types import ToolInput, ToolOutput

CHI = ZoneInfo("America/Chicago")
WI = BusinessCalendar("wisconsin")
WI_SAT_CLOSED = BusinessCalendar("wisconsin", office_closed_saturdays=True)


def at(y: int, m: int, d: int, h: int = 0, mi: int = 0) -> datetime:
    return datetime(y, m, d, h, mi, tzinfo=CHI)


@dataclass(frozen=True)
class Case:
    rule: str
    event: date | datetime
    expected: date | datetime  # due_date, or due_at for periods in hours
    sentence: str  # the words of the code the row implements (and why the date)


CASES = [
    # Brandon § 404-6
    Case("brandon_permit_validity", date(2025, 5, 2), date(2025, 6, 1),
         "Permits shall be valid for a period of 30 days from the date of approval (end of a period: Sunday not moved)"),
    Case("brandon_permit_renewal", date(2025, 6, 1), date(2025, 7, 1),
         "apply for a thirty-day permit renewal (30 days on from the last valid day)"),
    Case("brandon_emergency_apply", date(2025, 1, 3), date(2025, 1, 6),
         "apply for an excavation permit not later than the next business day (Fri -> Mon)"),
    Case("brandon_emergency_fee_waiver", date(2025, 1, 3), date(2025, 1, 7),
         "filed ... within two regular business days of the excavation (Fri -> Tue)"),
    Case("brandon_restoration_guarantee", date(2024, 10, 1), date(2025, 10, 1),
         "responsible therefor for one year from the date of the completion of the work"),
    # Brandon § 404-7
    Case("brandon_notice_dpw_start", at(2025, 1, 6, 7), at(2025, 1, 4, 7),
         "notify the Director of Public Works 24 hours prior to commencement (Sunday left out)"),
    Case("brandon_notice_loss_of_service", at(2025, 1, 6, 9), at(2025, 1, 4, 21),
         "at least 12 hours prior to the loss of service (Mon 9 h + Sat 3 h)"),
    Case("brandon_notice_affected", date(2025, 1, 6), date(2025, 1, 3),
         "at least one business day before such work is to commence (Mon start -> Fri)"),
    Case("brandon_notice_backfill", at(2025, 1, 6, 13), at(2025, 1, 6, 9),
         "at least four hours prior to backfilling and/or restoring the surface"),
    Case("brandon_permanent_pavement", date(2025, 5, 1), date(2025, 6, 30),
         "Permanent pavements shall be replaced within 60 days of the date of the permit"),
    Case("brandon_winter_patch_replacement", date(2025, 1, 15), date(2025, 6, 2),
         "by not later than the following June 1 (Sun 1 June 2025 -> Mon 2 June)"),
    Case("brandon_new_street_utility_work", date(2025, 3, 3), date(2025, 4, 2),
         "all such excavation work in such street must be completed within 30 days"),
    Case("brandon_repaving_determination", date(2025, 6, 2), date(2025, 5, 3),
         "such determination shall be made not less than 30 days before the work of improvement or repaving shall "
         "begin (a Saturday: the Board's act, not a filing at an office, is not moved)"),
    Case("brandon_new_street_moratorium", date(2020, 7, 15), date(2025, 7, 15),
         "no permit ... for a period of five years after the date of improvement or repaving"),
    Case("brandon_village_repair_lien", date(2025, 1, 2), date(2025, 4, 2),
         "not paid within 90 days of actual notice ... it shall become a lien"),
    # Brandon sidewalks and §§ 404-8 to 404-18
    Case("brandon_sidewalk_permit", date(2025, 6, 9), date(2025, 6, 6),
         "permit ... at least two days before work (Mon -> Sat, office closed -> Fri)"),
    Case("brandon_sidewalk_curing_traffic", at(2025, 1, 4, 14, 30), at(2025, 1, 7, 14, 30),
         "kept free from all traffic at normal temperatures for 48 hours (Sat 2:30 PM, Sunday left out -> Tue)"),
    Case("brandon_sidewalk_repair", date(2025, 5, 1), date(2025, 6, 30),
         "The owner has 60 days to complete the repairs"),
    Case("brandon_sidewalk_obstruction_removal", at(2025, 1, 4, 10), at(2025, 1, 6, 10),
         "directing that the obstruction be removed within 24 hours (Sat notice, Sunday left out)"),
    Case("brandon_street_obstruction_removal", at(2025, 1, 7, 15, 30), at(2025, 1, 8, 15, 30),
         "directing that the obstruction be removed within 24 hours"),
    Case("brandon_privilege_obstruction_removal", at(2025, 11, 26, 12), at(2025, 11, 28, 12),
         "within 24 hours after such notice from the Village Board (Thanksgiving left out)"),
    Case("brandon_abatement_bill", date(2025, 3, 5), date(2025, 3, 15),
         "payable within 10 calendar days from receipt (Sat 15 Mar: not moved unless the settings say the office "
         "is closed on Saturdays; the answer says so)"),
    Case("brandon_abatement_tax_roll", date(2025, 3, 1), date(2025, 4, 30),
         "Within 60 days after such costs and expenses are incurred and remain unpaid"),
    Case("brandon_street_privilege_termination", date(2025, 1, 31), date(2025, 4, 30),
         "terminate at the end of three months from the date of issuance"),
    Case("brandon_snow_ice_removal", at(2025, 1, 11, 20), at(2025, 1, 13, 20),
         "within 24 hours after the end of a snow event (Sat evening -> Mon evening)"),
    Case("brandon_improvement_request", date(2025, 9, 16), date(2026, 9, 15),
         "on or before September 15 to be considered for installation in the following year"),
    Case("brandon_house_numbers", date(2025, 3, 10), date(2025, 3, 31),
         "placed within 20 days after the assigning (Sun 30 Mar -> Mon 31)"),
    Case("brandon_house_numbers_after_notice", date(2025, 4, 1), date(2025, 4, 11),
         "neglects to do so for 10 days after the service of such notice"),
    Case("brandon_debris_removal_charges", date(2025, 6, 6), date(2025, 7, 7),
         "fails to pay such costs within 30 days (Sun 6 July -> Mon 7)"),
    Case("brandon_damage_correction", date(2025, 6, 24), date(2025, 7, 5),
         "correct said damages within 10 days (July 4 -> Saturday, the next secular day)"),
    # Delafield ch. 8
    Case("delafield_excavation_notice", at(2025, 1, 7, 7), at(2025, 1, 4, 7),
         "written notice ... at least 48 hrs. before the commencement of the work (Sunday left out)"),
    Case("delafield_settlement_responsibility", date(2027, 8, 16), date(2028, 8, 16),
         "responsible for one year after approval of the filling and surfacing for any settling (a period that ends)"),
    Case("delafield_settlement_responsibility", date(2028, 2, 29), date(2029, 2, 28),
         "one year after a February 29 approval ends on February 28 (no February 29 in 2029)"),
    Case("delafield_culvert_inspection_request", date(2027, 6, 10), date(2028, 6, 10),
         "If no request is made for an inspection within a year of the installation of the culvert, the Town shall "
         "make an inspection (Saturday 2028-06-10: the end of a period, not moved)"),
    Case("delafield_culvert_deposit", date(2025, 8, 22), date(2025, 9, 2),
         "deposit ... within 10 days from date of notice (Labor Day -> Tue)"),
    Case("delafield_culvert_tax_roll", date(2025, 6, 1), date(2025, 11, 1),
         "if not paid to the Town Treasurer on or before November 1 (a Saturday: not moved by default)"),
    Case("delafield_ditch_restoration_bill", date(2025, 2, 3), date(2025, 3, 5),
         "If such bill is not paid within 30 days"),
    Case("delafield_curb_gutter_bill", date(2025, 2, 15), date(2025, 3, 17),
         "If such bill is not paid within 30 days"),
    Case("delafield_asphalt_balance", date(2025, 10, 10), date(2025, 11, 10),
         "shall be paid within 30 days (Sun 9 Nov -> Mon 10)"),
    Case("delafield_asphalt_tax_roll", date(2024, 7, 1), date(2024, 11, 1),
         "not paid to the Town Treasurer on or before November 1"),
    Case("delafield_ditch_repair", date(2025, 4, 10), date(2025, 5, 10),
         "within 30 days after the work is completed (a Saturday is not moved: not an office act)"),
    Case("delafield_insurance_change_notice", date(2025, 7, 25), date(2025, 7, 15),
         "cannot be changed or canceled except upon 10 days' notice to the Town"),
    Case("delafield_insurance_change_notice", date(2025, 7, 14), date(2025, 7, 3),
         "10 days' notice to the Town (Fri 4 July closed, Sat 5 July office closed -> Thu 3 July)"),
    Case("delafield_address_assignment", date(2025, 1, 15), date(2025, 2, 14),
         "Within 30 days after the final approval ... the Building Inspector shall assign addresses"),
    Case("delafield_house_numbers", date(2025, 10, 12), date(2025, 11, 12),
         "installed within 30 days from date of assignment (Veterans Day -> Wed)"),
    Case("delafield_house_numbers_new_building", date(2025, 3, 3), date(2025, 4, 2),
         "at the time of obtaining a building permit ... within 30 days thereafter install"),
    Case("delafield_house_numbers_noncompliance", date(2025, 11, 25), date(2025, 12, 26),
         "fails to correct the non-compliance within (30) days (Christmas -> Fri)"),
    Case("delafield_public_hearing_notice", date(2025, 7, 15), date(2025, 7, 5),
         "not less than 10 nor more than 30 days notice prior to the hearing (latest: 10 days before)"),
]
SPECIAL = {"brandon_no_opening_window", "delafield_frozen_ground"}  # tested below


def _run(rule: str, event, **kw):
    return deadline(DeadlineInput(rule=rule, event=event, **kw), calendar=WI)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.rule}-{c.event}" for c in CASES])
def test_hand_worked(case: Case) -> None:
    r = _run(case.rule, case.event)
    assert r.ok, r.error
    got = r.due_at if isinstance(case.expected, datetime) else r.due_date
    assert got == case.expected, case.sentence
    assert r.citations, "every result cites its provision"
    assert r.convention and "990.001(4)" in r.convention
    assert r.explanation.startswith(rules()[case.rule].obligation)
    assert r.rule == case.rule and r.municipality == rules()[case.rule].municipality


def test_every_rule_has_a_hand_worked_row() -> None:
    assert set(RULE_IDS) == {c.rule for c in CASES} | SPECIAL


def test_the_rules_listed_in_the_issue_are_there() -> None:
    wanted = {
        "brandon_permit_validity", "brandon_permit_renewal", "brandon_emergency_apply",
        "brandon_emergency_fee_waiver", "brandon_no_opening_window", "delafield_frozen_ground",
        "brandon_notice_dpw_start", "brandon_notice_loss_of_service", "brandon_notice_affected",
        "brandon_notice_backfill", "delafield_excavation_notice", "brandon_snow_ice_removal",
        "brandon_sidewalk_obstruction_removal", "brandon_abatement_bill", "brandon_abatement_tax_roll",
        "brandon_sidewalk_repair", "brandon_street_privilege_termination", "brandon_house_numbers",
        "brandon_house_numbers_after_notice", "delafield_house_numbers",
        "delafield_house_numbers_noncompliance", "brandon_winter_patch_replacement",
        "brandon_permanent_pavement", "brandon_improvement_request", "brandon_damage_correction",
        "brandon_village_repair_lien", "delafield_culvert_deposit", "delafield_ditch_restoration_bill",
        "delafield_culvert_tax_roll", "delafield_ditch_repair", "delafield_public_hearing_notice",
    }
    assert wanted <= set(RULE_IDS)


# ---------------------------------------------------------------- explanations and skips


def test_moved_last_day_reports_the_day_and_why() -> None:
    r = _run("delafield_house_numbers_noncompliance", date(2025, 11, 25))
    assert r.unadjusted == date(2025, 12, 25)
    assert [(s.day, s.reason) for s in r.skipped] == [(date(2025, 12, 25), "Christmas Day")]
    assert "Christmas Day" in r.explanation and "Friday 2025-12-26" in r.explanation
    assert any(a.startswith("Treated as legal holidays: 2025-12-25 (Christmas Day)") for a in r.assumptions)
    plain_weekend = _run("brandon_house_numbers", date(2025, 3, 10))
    assert not any("Treated as legal holidays" in a for a in plain_weekend.assumptions)


def test_validity_end_is_not_moved_and_says_so() -> None:
    r = _run("brandon_permit_validity", date(2025, 5, 2))
    assert r.skipped == []
    assert "not moved" in r.explanation
    assert any("pavement replacement" in a for a in r.assumptions)
    # 2025-06-01 is a Sunday: the day it would move to, were it read as a time to do an act, is given beside it
    assert r.due_date == date(2025, 6, 1) and r.if_an_act == date(2025, 6, 2)
    from assistant.answering.phrasing import lead_deadline

    lead = lead_deadline(r)
    assert "**June 1, 2025**" in lead and "a Sunday" in lead and "June 2, 2025" in lead
    assert _run("brandon_permit_validity", date(2025, 5, 5)).if_an_act is None  # a Wednesday: nothing to add


def test_delafield_one_year_periods_end_unmoved_and_cite_their_paragraphs() -> None:
    # 2028-06-10 is a Saturday and 2028-08-16 a Wednesday: neither is moved (periods that end)
    for rule, event, due, where in [
        ("delafield_culvert_inspection_request", date(2027, 6, 10), date(2028, 6, 10), "DRIVEWAYS AND CULVERTS"),
        ("delafield_settlement_responsibility", date(2027, 8, 16), date(2028, 8, 16),
         "EXCAVATION IN PUBLIC RIGHT-OF-WAY"),
    ]:
        r = _run(rule, event)
        assert r.due_date == due and r.unadjusted == due and r.skipped == []
        assert r.period == "1 year" and r.direction == "after"
        assert "not moved" in r.explanation
        assert all(c.municipality == "delafield" and c.title == where for c in r.citations)
    r = _run("delafield_culvert_inspection_request", date(2027, 6, 10))
    assert any("Town inspects on its own" in a for a in r.assumptions)
    assert [c.subsection for c in r.citations] == ["(3)(b)", "(3)(b)"]
    r = _run("delafield_settlement_responsibility", date(2027, 8, 16))
    assert r.citations[0].subsection == "(3)(c)" and "settling" in r.citations[0].quote


def test_hours_result_is_a_tz_aware_moment_and_skips_whole_sundays() -> None:
    r = _run("brandon_snow_ice_removal", at(2025, 1, 11, 20))
    assert r.due_at is not None and r.due_at.utcoffset() is not None
    assert r.due_date == date(2025, 1, 13)
    assert [(s.day, s.reason, s.effect) for s in r.skipped] == [(date(2025, 1, 12), "Sunday", "hours not counted")]
    assert "whole of Sundays and legal holidays" in r.explanation


def test_public_hearing_window() -> None:
    r = _run("delafield_public_hearing_notice", date(2025, 7, 15))
    assert (r.earliest_date, r.due_date) == (date(2025, 6, 15), date(2025, 7, 5))
    assert "3 times" in r.explanation
    assert "earliest day is not a business day (Sunday)" in r.explanation


def test_improvement_request_names_the_installation_year() -> None:
    r = _run("brandon_improvement_request", date(2025, 3, 1))
    assert r.due_date == date(2025, 9, 15)
    assert "installation in 2026" in r.explanation


def test_two_emergency_deadlines_both_bind() -> None:
    apply = _run("brandon_emergency_apply", date(2025, 12, 24))
    waiver = _run("brandon_emergency_fee_waiver", date(2025, 12, 24))
    assert apply.due_date == date(2025, 12, 26)
    assert waiver.due_date == date(2025, 12, 29)
    assert "brandon_emergency_fee_waiver" in apply.related_rules
    assert any("Two emergency deadlines bind" in a for a in apply.assumptions)
    assert {c.section for c in apply.citations + waiver.citations} == {"404-6", "404-7"}


def test_two_start_notices_are_flagged() -> None:
    r = _run("brandon_notice_dpw_start", at(2025, 1, 6, 7))
    assert any("Two start notices bind" in a for a in r.assumptions)
    assert "brandon_notice_affected" in r.related_rules


def test_house_number_starting_points_are_flagged() -> None:
    r = _run("delafield_house_numbers", date(2025, 3, 3))
    text = " ".join(r.assumptions)
    assert "(9)(b)" in text and "(10)" in text and "building permit" in text


# ---------------------------------------------------------------------- emergencies


def test_emergency_exempts_the_start_notices() -> None:
    r = _run("brandon_notice_dpw_start", at(2025, 1, 6, 7), emergency=True)
    assert r.ok and r.due_date is None and r.due_at is None
    assert "exempts emergency excavations" in r.explanation
    assert "brandon_emergency_apply" in r.related_rules


def test_emergency_flag_is_noted_where_it_changes_nothing() -> None:
    r = _run("brandon_notice_backfill", at(2025, 1, 6, 13), emergency=True)
    assert r.due_at == at(2025, 1, 6, 9)
    assert "The emergency flag does not change this rule." in r.assumptions


# -------------------------------------------------------------------------- windows


@dataclass(frozen=True)
class WindowCase:
    day: date
    inside: bool
    next_allowed: date
    sentence: str


WINDOW = [
    WindowCase(date(2025, 11, 14), False, date(2025, 11, 14), "the day before November 15 is open"),
    WindowCase(date(2025, 11, 15), True, date(2026, 4, 2), "between November 15 and April 1: November 15 inside"),
    WindowCase(date(2026, 1, 20), True, date(2026, 4, 2), "mid-winter"),
    WindowCase(date(2026, 4, 1), True, date(2026, 4, 2), "April 1 inside (ends included)"),
    WindowCase(date(2026, 4, 2), False, date(2026, 4, 2), "April 2 open"),
    WindowCase(date(2026, 7, 1), False, date(2026, 7, 1), "summer"),
]


@pytest.mark.parametrize("case", WINDOW, ids=[str(c.day) for c in WINDOW])
def test_brandon_no_opening_window(case: WindowCase) -> None:
    r = winter_opening_restriction(OpeningSeasonInput(opening_date=case.day), calendar=WI)
    assert r.tool == "winter_opening_restriction"
    assert (r.in_window, r.next_allowed_date) == (case.inside, case.next_allowed), case.sentence
    assert r.citations[0].section == "404-7"
    assert any("end dates are included" in a or "end dates" in a for a in r.assumptions)


def test_window_excepts_emergencies() -> None:
    r = winter_opening_restriction(OpeningSeasonInput(opening_date=date(2026, 1, 20), emergency=True), calendar=WI)
    assert r.in_window is True and r.next_allowed_date == date(2026, 1, 20)
    assert "emergency" in r.explanation and "brandon_emergency_apply" in r.explanation


def test_delafield_frozen_ground_has_no_dates() -> None:
    r = winter_opening_restriction(
        OpeningSeasonInput(municipality="Town of Delafield", opening_date=date(2026, 1, 20)), calendar=WI
    )
    assert r.ok and r.municipality == "delafield"
    assert r.due_date is None and r.in_window is None and r.window_start is None
    assert "fixes no dates" in r.explanation
    assert any("fixes no dates" in a for a in r.assumptions)
    assert r.citations[0].municipality == "delafield"


# --------------------------------------------------------------------- conveniences


def test_emergency_excavation_deadlines() -> None:
    r = emergency_excavation_deadlines(EmergencyExcavationInput(excavation=at(2025, 1, 3, 22)), calendar=WI)
    assert r.ok and (r.apply_by, r.fee_waiver_by) == (date(2025, 1, 6), date(2025, 1, 7))
    assert "§ 404-7H" in r.explanation and "§ 404-6" in r.explanation
    assert any("Both deadlines bind" in a for a in r.assumptions)
    assert len(r.citations) == 3


def test_emergency_excavation_in_delafield_is_explained_not_dated() -> None:
    r = emergency_excavation_deadlines(
        EmergencyExcavationInput(municipality="delafield", excavation=date(2025, 1, 3)), calendar=WI
    )
    assert not r.ok and r.apply_by is None and r.fee_waiver_by is None
    assert "no emergency-excavation deadlines" in (r.error or "")
    assert all(c.municipality == "delafield" for c in r.citations)


def test_every_notice_for_a_brandon_excavation() -> None:
    r = excavation_notice_deadlines(
        ExcavationNoticesInput(
            work_start=datetime(2025, 1, 6, 7), service_loss_at=datetime(2025, 1, 6, 9), backfill_at=datetime(2025, 1, 6, 13)
        ),
        calendar=WI,
    )
    got = {n.rule: n.latest for n in r.notices}
    assert got == {
        "brandon_notice_affected": date(2025, 1, 3),
        "brandon_notice_dpw_start": at(2025, 1, 4, 7),
        "brandon_notice_loss_of_service": at(2025, 1, 4, 21),
        "brandon_notice_backfill": at(2025, 1, 6, 9),
    }
    assert [n.rule for n in r.notices][0] == "brandon_notice_affected"
    assert r.earliest_latest == date(2025, 1, 3)


def test_emergency_excavation_notices_drop_the_exempt_ones() -> None:
    r = excavation_notice_deadlines(
        ExcavationNoticesInput(
            work_start=datetime(2025, 1, 6, 7), service_loss_at=datetime(2025, 1, 6, 9), emergency=True
        ),
        calendar=WI,
    )
    assert [n.rule for n in r.notices] == ["brandon_notice_affected"]
    assert "Not required for an emergency excavation" in r.explanation
    assert r.related_rules == ["brandon_emergency_apply"]


def test_delafield_notice() -> None:
    r = excavation_notice_deadlines(
        ExcavationNoticesInput(municipality="delafield", work_start=datetime(2025, 1, 7, 7), backfill_at=datetime(2025, 1, 8, 7)),
        calendar=WI,
    )
    assert [(n.rule, n.latest) for n in r.notices] == [("delafield_excavation_notice", at(2025, 1, 4, 7))]
    assert any("no separate notice" in a for a in r.assumptions)


# --------------------------------------------------------------- invalid input


def test_hours_rule_needs_a_time() -> None:
    r = _run("brandon_snow_ice_removal", date(2025, 1, 11))
    assert not r.ok and r.due_date is None and r.due_at is None
    assert "date and time" in (r.error or "")
    r = excavation_notice_deadlines(ExcavationNoticesInput(work_start=date(2025, 1, 6)), calendar=WI)
    assert not r.ok and r.notices == [] and "work_start" in (r.error or "")


def test_day_rule_uses_the_date_of_a_datetime() -> None:
    r = _run("brandon_house_numbers", datetime(2025, 3, 10, 16, 45))
    assert r.due_date == date(2025, 3, 31) and r.event == date(2025, 3, 10)
    assert any("only the date" in a for a in r.assumptions)


@pytest.mark.parametrize(
    "payload, field",
    [
        ({"rule": "brandon_no_such_rule", "event": "2025-01-01"}, "rule"),
        ({"rule": "brandon_house_numbers", "event": "next Tuesday"}, "event"),
        ({"rule": "brandon_house_numbers", "event": "2025-01-01", "when": "now"}, "when"),
        ({"event": "2025-01-01"}, "rule"),
    ],
)
def test_malformed_input_names_the_field(payload: dict, field: str) -> None:
    with pytest.raises(ValidationError) as exc:
        DeadlineInput.model_validate(payload)
    assert field in {str(e["loc"][0]) for e in exc.value.errors()}


def test_unknown_municipality_names_the_field() -> None:
    with pytest.raises(ValidationError) as exc:
        OpeningSeasonInput.model_validate({"municipality": "Springfield", "opening_date": "2025-01-01"})
    assert exc.value.errors()[0]["loc"] == ("municipality",)
    assert "unknown municipality" in str(exc.value)


# --------------------------------------------------------------- settings: convention


@pytest.fixture
def plain_calendar_settings(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TIME_CONVENTION", "calendar")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_plain_calendar_convention_from_settings(plain_calendar_settings) -> None:
    r = deadline(DeadlineInput(rule="brandon_house_numbers", event=date(2025, 3, 10)))
    assert r.due_date == date(2025, 3, 30) and r.skipped == []
    assert r.convention and r.convention.startswith("Plain calendar")
    snow = deadline(DeadlineInput(rule="brandon_snow_ice_removal", event=datetime(2025, 1, 11, 20)))
    assert snow.due_at == at(2025, 1, 12, 20)
    # business days are business days under both conventions: the text names them
    apply = deadline(DeadlineInput(rule="brandon_emergency_apply", event=date(2025, 1, 3)))
    assert apply.due_date == date(2025, 1, 6)


def test_wisconsin_is_the_default_convention() -> None:
    get_settings.cache_clear()
    r = deadline(DeadlineInput(rule="brandon_house_numbers", event=date(2025, 3, 10)))
    assert r.due_date == date(2025, 3, 31) and "990.001(4)" in (r.convention or "")


# ----------------------------------------------------------------------- citations


def _yaml_quotes():
    data = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
    for rule in data["rules"]:
        for ref in rule["citations"]:
            yield rule["id"], ref.get("municipality", rule["municipality"]), ref


@pytest.mark.parametrize("rule_id, municipality, ref", list(_yaml_quotes()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_citation_in_the_data_file_resolves(rule_id: str, municipality: str, ref: dict) -> None:
    c = cite(municipality, ref["quote"], section=ref.get("section"), title=ref.get("title"))
    assert c.passage_id and quote_is_verbatim(c)
    if ref.get("section"):
        assert c.section == ref["section"]


def test_numbers_in_the_data_appear_in_their_quotes() -> None:
    words = {1: "one|next|a year", 2: "two", 3: "three|3", 4: "four", 5: "five", 10: "10", 12: "12", 20: "20",
             24: "24", 30: r"30|thirty|\(30\)", 48: "48", 60: "60", 90: "90"}
    for rule in rules().values():
        n = rule.count.amount
        if n is None:
            continue
        quotes = " ".join(r.quote for r in rule.citations)
        assert re.search(rf"\b({words[n]})\b", quotes), (rule.id, n)


# ------------------------------------------------------------------------- tools


def test_tool_specs() -> None:
    names = [t.name for t in TOOLS]
    assert names == ["deadline", "emergency_excavation_deadlines", "excavation_notice_deadlines",
                     "winter_opening_restriction"]
    for t in TOOLS:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", t.name)
        assert issubclass(t.input_model, ToolInput) and issubclass(t.output_model, ToolOutput)
        assert t.description and t.keywords
    schema = DeadlineInput.model_json_schema()
    assert set(schema["properties"]["rule"]["enum"]) == set(RULE_IDS)


def test_tools_import_no_framework() -> None:
    from assistant.tools import calendar, surcharge

    for mod in (calendar, dl, surcharge):
        source = open(mod.__file__, encoding="utf-8").read()
        assert not re.search(r"^\s*(from|import)\s+(langchain|chromadb|gradio)", source, re.M), mod.__name__


# --------------------------------------------------------------------- properties

days = st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31))
BUSINESS_RULES = [r.id for r in rules().values() if r.count.kind in ("business_days_after", "business_days_before")]
ACT_DAY_RULES = [r.id for r in rules().values() if r.count.kind in ("days_after", "annual_date") and r.act]


@settings(max_examples=200, deadline=None)
@given(days, st.sampled_from(BUSINESS_RULES))
def test_business_day_due_dates_never_fall_on_a_weekend_or_holiday(day: date, rule: str) -> None:
    r = _run(rule, day)
    assert r.due_date is not None
    assert r.due_date.weekday() < 5 and not WI.is_legal_holiday(r.due_date)


@settings(max_examples=200, deadline=None)
@given(days, st.sampled_from(ACT_DAY_RULES))
def test_wisconsin_due_dates_never_fall_on_a_sunday_or_holiday(day: date, rule: str) -> None:
    r = _run(rule, day)
    assert r.due_date is not None and r.due_date >= day
    assert not WI.is_sunday_or_holiday(r.due_date)
    if rules()[rule].office_filing:
        # a Saturday stays (its office's hours are not known) and says so; with the office closed on
        # Saturdays it moves to a business day
        assert WI.is_business_day(r.due_date) or (r.due_date.weekday() == 5 and r.office_saturday)
        closed = deadline(DeadlineInput(rule=rule, event=day), calendar=WI_SAT_CLOSED)
        assert WI.is_business_day(closed.due_date) and not closed.office_saturday


def test_two_rules_about_as_near_from_different_events_are_asked_about_unless_the_words_name_one(tmp_path):
    """"When's the cutoff for our written notice?": the 48-hour notice before work and the deposit 10 days
    after the Town's notice score within the margin. A bare date is asked about; a story that dates the
    work's start is counted by the notice rule."""
    from assistant.answering.assistant import Assistant
    from assistant.settings import Settings

    a = Assistant.load(settings=Settings(data_dir=tmp_path))
    bare = a.ask("Our date is March 3, 2027. When's the cutoff for our written notice to the Town?", "delafield")
    assert bare.status == "clarify"
    assert "the date and time the work starts" in bare.answer and "the date of the Town Board's written notice" in bare.answer
    story = a.ask("We're planning to open up a town road for a water lateral on June 14, 2027, crew starts at 7 in "
                  "the morning. When's the cutoff for getting our written notice to the Town?", "delafield")
    assert story.status == "answered" and "June 11, 2027 7:00 AM" in story.answer
    assert "June 24, 2027" not in story.answer  # the culvert deposit's 10 days, counted from the wrong event


def test_a_saturday_payment_day_is_given_as_the_saturday_and_the_office_rule_is_said_in_words() -> None:
    """A bill payable within 10 days of Tuesday, December 15, 2026 is due Friday the 25th, Christmas: the last
    day moves to Saturday the 26th. The Saturday stays (the office's hours are not in the code) and the answer
    says that § 990.001(4)(c) allows the next day the office is open, without writing a date for it."""
    from assistant.answering.phrasing import lead_deadline

    r = _run("brandon_abatement_bill", date(2026, 12, 15))
    assert r.due_date == date(2026, 12, 26) and r.office_saturday
    lead = lead_deadline(r)
    assert "December 26, 2026" in lead and "990.001(4)(c)" in lead
    assert "December 28" not in lead and "December 25, 2026" not in lead  # no second date stated as a deadline
    closed = deadline(DeadlineInput(rule="brandon_abatement_bill", event=date(2026, 12, 15)), calendar=WI_SAT_CLOSED)
    assert closed.due_date == date(2026, 12, 28) and not closed.office_saturday


# ---------------------------------------------------------------- the notice given: the earliest event
@pytest.mark.parametrize("rule, act, earliest", [
    ("brandon_repaving_determination", date(2026, 11, 23), date(2026, 12, 23)),
    ("delafield_insurance_change_notice", date(2027, 1, 6), date(2027, 1, 16)),
    ("brandon_notice_affected", date(2025, 1, 3), date(2025, 1, 4)),  # Friday's notice is timely for Saturday work
    ("brandon_sidewalk_permit", date(2025, 6, 6), date(2025, 6, 8)),  # Monday's latest day is Friday (Sat closed)
    ("brandon_notice_dpw_start", at(2025, 1, 4, 7), at(2025, 1, 6, 7)),  # 24 hours, Sunday left out
    ("delafield_excavation_notice", at(2025, 1, 3, 10), at(2025, 1, 6, 10)),  # 48 hours, Sunday left out
])
def test_a_notice_given_dates_the_earliest_event(rule, act, earliest):
    out = deadline(DeadlineInput(rule=rule, event=act, given="act"))
    assert out.ok and out.earliest_event == earliest and out.due_date is None, out.explanation
    assert "earliest day it is timely for" in out.explanation


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["brandon_repaving_determination", "delafield_insurance_change_notice",
                        "brandon_notice_affected", "brandon_sidewalk_permit"]),
       st.dates(min_value=date(2024, 1, 1), max_value=date(2030, 12, 31)))
def test_the_earliest_event_is_the_first_the_notice_is_timely_for(rule, act):
    out = deadline(DeadlineInput(rule=rule, event=act, given="act"))
    earliest = out.earliest_event
    assert earliest > act
    assert deadline(DeadlineInput(rule=rule, event=earliest)).due_date >= act
    assert deadline(DeadlineInput(rule=rule, event=earliest - timedelta(days=1))).due_date < act


def test_given_act_is_refused_for_a_period_counted_forward():
    out = deadline(DeadlineInput(rule="brandon_permit_validity", event=date(2025, 6, 6), given="act"))
    assert not out.ok and "counted back" in out.error
