"""Specification checks: Brandon sidewalks, pavement patches, obstructions and trenches;
Delafield driveways, culverts and heavy vehicles. Every row was read off the code by
hand; boundary rows sit exactly on each threshold ("or more", "not less than", "not
more than" include it; "more than" does not).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Callable

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.corpus import cite, quote_is_verbatim
from assistant.tools import specs
from assistant.tools.spec import ToolSpec
from assistant.tools.specs import (
    TOOLS,
    DrivewayInput,
    HeavyVehicleInput,
    ObstructionInput,
    PavementPatchInput,
    RoadConstructionInput,
    SidewalkDefectInput,
    SidewalkDimensionInput,
    TrenchInput,
    driveway_check,
    heavy_vehicle_check,
    obstruction_check,
    pavement_patch_check,
    road_construction_check,
    sidewalk_defect_check,
    sidewalk_dimension_check,
    trench_check,
)
from assistant.types import ToolInput, ToolOutput

D = Decimal


@dataclass(frozen=True)
class Case:
    input: dict[str, Any]
    expected: dict[str, Any]  # requirement id -> status, plus output fields under "fields"
    rule: str  # the sentence of the code the row implements
    id: str = ""


def ids(cases: list[Case]) -> list[str]:
    return [c.id for c in cases]


def statuses(out) -> dict[str, str]:
    return {c.requirement: c.status for c in out.checks}


def run_case(fn: Callable, model: type, case: Case):
    out = fn(model(**case.input))
    assert out.ok, out.error
    got = statuses(out)
    for rid, status in case.expected.items():
        if rid == "fields":
            continue
        assert got[rid] == status, (rid, got)
    for k, v in case.expected.get("fields", {}).items():
        assert getattr(out, k) == v, k
    assert out.failures == [r for r, s in got.items() if s == "fail"]
    for c in out.checks:
        assert quote_is_verbatim(c.citation), c.requirement
        if c.status == "fail":
            assert c.note, c.requirement
    assert out.explanation and out.citations
    return out


def walk_quotes(node: Any):
    if isinstance(node, dict):
        if "quote" in node and "municipality" in node:
            yield node
        for v in node.values():
            yield from walk_quotes(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk_quotes(v)


# --------------------------------------------------------------------------- data and declarations


def test_every_quote_in_specs_yaml_resolves_to_one_passage():
    entries = list(walk_quotes(yaml.safe_load(specs.DATA_FILE.read_text(encoding="utf-8"))))
    assert len(entries) >= 42
    for e in entries:
        c = cite(e["municipality"], e["quote"], section=e.get("section"))
        assert quote_is_verbatim(c), e["quote"]
        if e.get("section"):
            assert c.section == e["section"]


def test_thresholds_are_read_from_the_data_file(monkeypatch):
    data = yaml.safe_load(specs.DATA_FILE.read_text(encoding="utf-8"))
    data["provisions"]["trench_lengths"]["max_ahead_ft"] = "300"
    monkeypatch.setattr(specs, "_data", lambda: data)
    out = trench_check(TrenchInput(excavated_ahead_of_pipe_ft=260))
    assert statuses(out)["ahead_of_pipe"] == "pass"


def test_tools_are_declared():
    names = [t.name for t in TOOLS]
    assert names == ["sidewalk_defect_check", "sidewalk_dimension_check", "pavement_patch_check",
                     "obstruction_check", "trench_check", "driveway_check", "heavy_vehicle_check",
                     "road_construction_check"]
    for t in TOOLS:
        assert isinstance(t, ToolSpec) and re.fullmatch(r"[a-z][a-z0-9_]+", t.name)
        assert issubclass(t.input_model, ToolInput) and issubclass(t.output_model, ToolOutput)
        assert t.description and t.keywords and len(t.municipalities) == 1


def test_unit_in_every_measurement_field_name():
    units = ("_in", "_ft", "_percent", "_tons", "_days", "_hours", "_in_per_ft")
    for t in TOOLS:
        for name, f in t.input_model.model_fields.items():
            ann = str(f.annotation)
            if "Decimal" in ann:
                assert name.endswith(units), (t.name, name)


# --------------------------------------------------------------------------- sidewalk defects

DEFECT_CASES = [
    Case({"vertical_differential_in": "1"}, {"vertical_differential": "fail", "fields": {"block_defective": True}},
         "(b) One inch or more vertical differential between adjacent ... sidewalk blocks.", "vertical-exactly-1"),
    Case({"vertical_differential_in": "0.99"}, {"vertical_differential": "pass", "fields": {"block_defective": False}},
         "(b) One inch or more (just under).", "vertical-just-under"),
    Case({"horizontal_gap_in": "1.25"}, {"horizontal_gap": "fail", "fields": {"block_defective": True}},
         "(c) One-and-one-fourth inch horizontal distance between adjacent individual sidewalk blocks.",
         "gap-exactly-1.25"),
    Case({"horizontal_gap_in": "1.5"}, {"horizontal_gap": "fail"},
         "(c) read as a minimum: a wider gap is defective too.", "gap-wider"),
    Case({"horizontal_gap_in": "1.24"}, {"horizontal_gap": "pass"}, "(c) just under.", "gap-just-under"),
    Case({"surface_deterioration_depth_in": "0.5"}, {"surface_deterioration": "fail"},
         "(d) Deterioration of the surface to a vertical depth of 1/2 inch or more.", "deterioration-exactly-half"),
    Case({"surface_deterioration_depth_in": "0.49"}, {"surface_deterioration": "pass"},
         "(d) just under.", "deterioration-just-under"),
    Case({"vertical_differential_in": "0.5", "horizontal_gap_in": "0.5", "surface_deterioration_depth_in": "0.25"},
         {"vertical_differential": "pass", "horizontal_gap": "pass", "surface_deterioration": "pass",
          "fields": {"block_defective": False}},
         "None of the characteristics present.", "sound-block"),
    Case({"defective_blocks": 6, "total_blocks": 10},
         {"whole_sidewalk_replacement": "fail",
          "fields": {"whole_replacement_required": True, "defective_percent": D("60.00"), "block_defective": None}},
         "If 60% of a property owner's sidewalk blocks are determined to be defective ... the entire sidewalk shall "
         "be replaced.", "exactly-60-percent"),
    Case({"defective_blocks": 59, "total_blocks": 100},
         {"whole_sidewalk_replacement": "pass", "fields": {"whole_replacement_required": False}},
         "60% rule, just under.", "59-percent"),
    Case({"defective_blocks": 2, "total_blocks": 3},
         {"whole_sidewalk_replacement": "fail", "fields": {"defective_percent": D("66.67")}},
         "60% rule, above.", "two-thirds"),
    Case({"defective_blocks": 0, "total_blocks": 1},
         {"whole_sidewalk_replacement": "pass", "fields": {"whole_replacement_required": False}},
         "No defective blocks.", "none-defective"),
]


@pytest.mark.parametrize("case", DEFECT_CASES, ids=ids(DEFECT_CASES))
def test_sidewalk_defects(case: Case):
    run_case(sidewalk_defect_check, SidewalkDefectInput, case)


def test_sidewalk_defects_state_the_texts_problems():
    out = sidewalk_defect_check(SidewalkDefectInput(horizontal_gap_in="2"))
    text = " ".join(out.assumptions)
    assert "starts at (b)" in text and "'or more'" in text and "defective of insufficient" in text


@pytest.mark.parametrize("bad,needle", [
    ({}, "at least one measurement"),
    ({"defective_blocks": 3}, "both defective_blocks and total_blocks"),
    ({"defective_blocks": 11, "total_blocks": 10}, "exceeds total_blocks"),
    ({"total_blocks": 0, "defective_blocks": 0}, "total_blocks"),
    ({"vertical_differential_in": "-0.5"}, "vertical_differential_in"),
    ({"vertical_differential_cm": "2"}, "vertical_differential_cm"),
])
def test_sidewalk_defect_validation(bad, needle):
    with pytest.raises(ValidationError) as exc:
        SidewalkDefectInput(**bad)
    assert needle in str(exc.value)


def test_sidewalk_defects_brandon_only():
    out = sidewalk_defect_check(SidewalkDefectInput(municipality="delafield", vertical_differential_in=2))
    assert not out.ok and out.checks == [] and out.whole_replacement_required is None


inches = st.decimals(min_value=0, max_value=5, places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=100, deadline=None)
@given(v=inches, h=inches, d=inches)
def test_block_defective_property(v, h, d):
    out = sidewalk_defect_check(SidewalkDefectInput(
        vertical_differential_in=v, horizontal_gap_in=h, surface_deterioration_depth_in=d))
    assert out.block_defective == (v >= 1 or h >= D("1.25") or d >= D("0.5"))


@settings(max_examples=100, deadline=None)
@given(total=st.integers(1, 500), data=st.data())
def test_sixty_percent_property(total, data):
    bad = data.draw(st.integers(0, total))
    out = sidewalk_defect_check(SidewalkDefectInput(defective_blocks=bad, total_blocks=total))
    assert out.whole_replacement_required == (bad * 100 >= 60 * total)


# --------------------------------------------------------------------------- sidewalk dimensions

DIMENSION_CASES = [
    Case({"use": "residential", "thickness_in": "4"}, {"thickness": "pass"},
         "Residential walks shall match width, but not less than four inches in thickness.", "res-4in"),
    Case({"use": "residential", "thickness_in": "3.99"}, {"thickness": "fail"}, "Residential, just under.", "res-thin"),
    Case({"use": "residential", "thickness_in": "6", "at_driveway_approach": True}, {"thickness": "fail"},
         "except within driveway approaches where the minimum thickness shall be seven inches.", "res-driveway-6"),
    Case({"use": "residential", "thickness_in": "7", "at_driveway_approach": True}, {"thickness": "pass"},
         "driveway approaches: seven inches.", "res-driveway-7"),
    Case({"use": "residential", "width_ft": "5"}, {"width": "not_checked"},
         "Residential walks shall match width (no width given).", "res-width-unstated"),
    Case({"use": "commercial", "width_ft": "8", "thickness_in": "5"}, {"width": "pass", "thickness": "pass"},
         "commercial or industrial ... not less than eight feet in width and five inches in thickness.",
         "commercial-exact"),
    Case({"use": "industrial", "width_ft": "7.9", "thickness_in": "4.9"}, {"width": "fail", "thickness": "fail"},
         "commercial or industrial, both short.", "industrial-short"),
    Case({"use": "commercial", "thickness_in": "5", "at_driveway_approach": True}, {"thickness": "fail"},
         "commercial: driveway approaches seven inches.", "commercial-driveway-5"),
    Case({"use": "residential", "cross_slope_toward_curb_in_per_ft": "0.5"}, {"cross_slope": "pass"},
         "the sidewalk shall slope toward the curb at a minimum rate of 1/2 inch per foot of width.", "slope-exact"),
    Case({"use": "residential", "cross_slope_toward_curb_in_per_ft": "0.49"}, {"cross_slope": "fail"},
         "slope just under.", "slope-under"),
    Case({"use": "residential", "cross_slope_toward_curb_in_per_ft": "-0.5"}, {"cross_slope": "fail"},
         "slope away from the curb.", "slope-away"),
    Case({"use": "residential", "traffic_free_hours": "48"}, {"traffic_free": "pass"},
         "Sidewalks shall be kept free from all traffic at normal temperatures for 48 hours.", "traffic-48"),
    Case({"use": "residential", "traffic_free_hours": "47.5"}, {"traffic_free": "fail"}, "traffic short.",
         "traffic-47.5"),
]


@pytest.mark.parametrize("case", DIMENSION_CASES, ids=ids(DIMENSION_CASES))
def test_sidewalk_dimensions(case: Case):
    run_case(sidewalk_dimension_check, SidewalkDimensionInput, case)


DROP_CASES = [
    Case({"use": "residential", "width_ft": "5"}, {"fields": {"min_cross_slope_drop_in": D("2.5")}},
         "the sidewalk shall slope toward the curb at a minimum rate of 1/2 inch per foot of width of sidewalk "
         "(5 ft x 1/2 in = 2 1/2 in).", "drop-5ft"),
    Case({"use": "commercial", "width_ft": "8"}, {"width": "pass", "fields": {"min_cross_slope_drop_in": D("4")}},
         "commercial: not less than eight feet in width; 8 ft x 1/2 in = 4 in.", "drop-8ft-commercial"),
    Case({"use": "residential", "width_ft": "5.25", "cross_slope_toward_curb_in_per_ft": "0.5"},
         {"cross_slope": "pass", "fields": {"min_cross_slope_drop_in": D("2.625")}},
         "5 1/4 ft x 1/2 in = 2 5/8 in (exact, not rounded).", "drop-5.25ft"),
    Case({"use": "residential", "thickness_in": "4"}, {"fields": {"min_cross_slope_drop_in": None}},
         "no width given: no total fall.", "drop-no-width"),
]


@pytest.mark.parametrize("case", DROP_CASES, ids=ids(DROP_CASES))
def test_sidewalk_cross_slope_drop(case: Case):
    out = run_case(sidewalk_dimension_check, SidewalkDimensionInput, case)
    drop = case.expected["fields"]["min_cross_slope_drop_in"]
    if drop is None:
        assert "of fall" not in out.explanation
    else:
        width = D(case.input["width_ft"])
        assert f"at least {specs._num(drop)} in of fall across the {specs._num(width)} ft sidewalk" in out.explanation
        assert any("per foot of width" in c.quote for c in out.citations)


@settings(max_examples=50, deadline=None)
@given(width=st.decimals(0, 30, places=2))
def test_cross_slope_drop_property(width):
    out = sidewalk_dimension_check(SidewalkDimensionInput(use="residential", width_ft=width))
    assert out.min_cross_slope_drop_in == width / 2


def test_residential_width_note():
    out = sidewalk_dimension_check(SidewalkDimensionInput(use="residential", width_ft="5"))
    row = next(c for c in out.checks if c.requirement == "width")
    assert "match width" in row.note and row.limit is None
    assert out.all_pass is None


@pytest.mark.parametrize("bad,needle", [
    ({"use": "residential"}, "at least one of"),
    ({"use": "park", "thickness_in": "4"}, "use"),
    ({"use": "residential", "thickness_in": "-4"}, "thickness_in"),
])
def test_sidewalk_dimension_validation(bad, needle):
    with pytest.raises(ValidationError) as exc:
        SidewalkDimensionInput(**bad)
    assert needle in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(t=st.decimals(0, 12, places=2), use=st.sampled_from(["residential", "commercial", "industrial"]),
       drive=st.booleans())
def test_thickness_property(t, use, drive):
    out = sidewalk_dimension_check(SidewalkDimensionInput(use=use, thickness_in=t, at_driveway_approach=drive))
    need = D(7) if drive else (D(4) if use == "residential" else D(5))
    assert (statuses(out)["thickness"] == "pass") == (t >= need)


# --------------------------------------------------------------------------- pavement patches

PATCH_CASES = [
    Case({"pavement": "bituminous", "existing_pavement_depth_in": "2", "patch_depth_in": "2.5"},
         {"depth": "pass", "fields": {"required_depth_in": D("2.5"), "layer_conflict": False}},
         "Bituminous pavement shall be placed the full depth of the existing pavement or 2 1/2 inches, whichever is "
         "greater.", "bit-shallow-existing"),
    Case({"pavement": "bituminous", "existing_pavement_depth_in": "2", "patch_depth_in": "2.4"},
         {"depth": "fail"}, "2 1/2 inches minimum.", "bit-too-thin"),
    Case({"pavement": "bituminous", "existing_pavement_depth_in": "4", "patch_depth_in": "4"},
         {"depth": "pass", "fields": {"required_depth_in": D("4"), "layer_conflict": True}},
         "full depth of the existing pavement ... whichever is greater (deeper than the two layers can make).",
         "bit-deep-existing-conflict"),
    Case({"pavement": "bituminous", "patch_depth_in": "2.5"},
         {"depth": "pass", "fields": {"required_depth_in": D("2.5"), "depth_is_minimum_only": True}},
         "No existing depth: at least 2 1/2 inches.", "bit-existing-unknown"),
    Case({"pavement": "bituminous", "base_layer_in": "1.5", "top_layer_in": "1"},
         {"base_layer": "pass", "top_layer": "pass", "depth": "pass"},
         "a maximum of a base layer of 1 1/2 inches and a one-inch top layer.", "bit-layers-exact"),
    Case({"pavement": "bituminous", "base_layer_in": "1.75", "top_layer_in": "1.25"},
         {"base_layer": "fail", "top_layer": "fail"}, "layers over the maximum.", "bit-layers-thick"),
    Case({"pavement": "bituminous", "surface_deviation_in": "0.25"}, {"surface_deviation": "pass"},
         "Allowable deviations shall be no more than 1/4 inch as measured with a ten-foot straight edge.",
         "bit-deviation-exact"),
    Case({"pavement": "bituminous", "surface_deviation_in": "0.3"}, {"surface_deviation": "fail"},
         "deviation over 1/4 inch.", "bit-deviation-over"),
    Case({"pavement": "concrete", "existing_pavement_depth_in": "6", "patch_depth_in": "7"},
         {"depth": "pass", "fields": {"required_depth_in": D("7")}},
         "Concrete pavement shall be placed to the full depth of the existing pavement or seven inches, whichever is "
         "greater.", "conc-7"),
    Case({"pavement": "concrete", "existing_pavement_depth_in": "8", "patch_depth_in": "7.5"},
         {"depth": "fail", "fields": {"required_depth_in": D("8")}}, "full depth of an 8-inch pavement.",
         "conc-deeper-existing"),
    Case({"pavement": "concrete", "contains_calcium_chloride": True, "traffic_protection_days": "3"},
         {"no_calcium_chloride": "fail", "traffic_protection": "pass"},
         "Concrete used shall not contain calcium chloride. ... protected from traffic for a minimum of three days.",
         "conc-calcium"),
    Case({"pavement": "concrete", "contains_calcium_chloride": False, "traffic_protection_days": "2.5"},
         {"no_calcium_chloride": "pass", "traffic_protection": "fail"}, "three days minimum.", "conc-early-traffic"),
    Case({"pavement": "temporary_cold_mix", "patch_depth_in": "3"}, {"depth": "pass"},
         "temporarily resurfaced with a minimum of three inches of cold mix bituminous material.", "cold-mix-3"),
    Case({"pavement": "temporary_cold_mix", "patch_depth_in": "2"}, {"depth": "fail"}, "cold mix too thin.",
         "cold-mix-2"),
]


@pytest.mark.parametrize("case", PATCH_CASES, ids=ids(PATCH_CASES))
def test_pavement_patches(case: Case):
    run_case(pavement_patch_check, PavementPatchInput, case)


BACKFILL_CASES = [
    Case({"pavement": "bituminous", "existing_pavement_depth_in": "2"},
         {"fields": {"required_depth_in": D("2.5"), "backfill_below_surface_in": D("10.5")}},
         "§ 404-7G(1): four inches of three-inch crushed stone and four inches of three-fourths-inch crushed stone, "
         "plus the thickness of the required pavement structure (4 + 4 + 2 1/2).", "backfill-bit-2in-existing"),
    Case({"pavement": "bituminous", "existing_pavement_depth_in": "2.5"},
         {"fields": {"backfill_below_surface_in": D("10.5")}}, "existing exactly the minimum: 4 + 4 + 2 1/2.",
         "backfill-bit-exact-minimum"),
    Case({"pavement": "bituminous", "existing_pavement_depth_in": "4"},
         {"fields": {"backfill_below_surface_in": D("12")}}, "full existing depth 4 in: 4 + 4 + 4.",
         "backfill-bit-4in-existing"),
    Case({"pavement": "bituminous"},
         {"fields": {"backfill_below_surface_in": D("10.5"), "depth_is_minimum_only": True}},
         "no existing depth: the minimum 2 1/2 in, so at least 10 1/2 in.", "backfill-bit-unknown"),
    Case({"pavement": "concrete", "existing_pavement_depth_in": "6"},
         {"fields": {"required_depth_in": D("7"), "backfill_below_surface_in": D("15")}},
         "concrete: seven inches minimum: 4 + 4 + 7.", "backfill-concrete-7"),
    Case({"pavement": "concrete", "existing_pavement_depth_in": "8.5"},
         {"fields": {"backfill_below_surface_in": D("16.5")}}, "concrete 8 1/2 in existing: 4 + 4 + 8 1/2.",
         "backfill-concrete-8.5"),
    Case({"pavement": "temporary_cold_mix", "patch_depth_in": "3"},
         {"depth": "pass", "fields": {"backfill_below_surface_in": None}},
         "the temporary winter patch is not the 'required pavement structure': no backfill depth.",
         "backfill-cold-mix-none"),
]


@pytest.mark.parametrize("case", BACKFILL_CASES, ids=ids(BACKFILL_CASES))
def test_patch_backfill_depth(case: Case):
    out = run_case(pavement_patch_check, PavementPatchInput, case)
    backfill = case.expected["fields"]["backfill_below_surface_in"]
    g1 = [c for c in out.citations if c.subsection == "G(1)"]
    if backfill is None:
        assert not g1 and "Backfill stops" not in out.explanation
    else:
        assert g1 and "required pavement structure" in g1[0].quote and quote_is_verbatim(g1[0])
        assert f"= {specs._num(backfill)} in below the original surface" in out.explanation
        assert any("'The thickness of the required pavement structure'" in a and "required patch depth" in a
                   for a in out.assumptions)


def test_bituminous_layer_conflict_is_explained():
    out = pavement_patch_check(PavementPatchInput(pavement="bituminous", existing_pavement_depth_in="3.5"))
    assert out.layer_conflict
    assert any("cannot be matched" in a and "Director of Public Works" in a for a in out.assumptions)


@pytest.mark.parametrize("inp,field", [
    ({"pavement": "bituminous", "traffic_protection_days": "3"}, "traffic_protection_days"),
    ({"pavement": "concrete", "base_layer_in": "1.5"}, "base_layer_in"),
    ({"pavement": "temporary_cold_mix", "contains_calcium_chloride": False}, "contains_calcium_chloride"),
])
def test_patch_fields_of_another_pavement(inp, field):
    out = pavement_patch_check(PavementPatchInput(**inp))
    assert not out.ok and field in out.error and out.required_depth_in is None


def test_patch_delafield_has_no_depths():
    out = pavement_patch_check(PavementPatchInput(municipality="delafield", pavement="concrete"))
    assert not out.ok and "in kind" in out.error


@settings(max_examples=100, deadline=None)
@given(existing=st.one_of(st.none(), st.decimals(0, 15, places=2)),
       pavement=st.sampled_from(["bituminous", "concrete"]))
def test_required_depth_property(existing, pavement):
    out = pavement_patch_check(PavementPatchInput(pavement=pavement, existing_pavement_depth_in=existing))
    minimum = D("2.5") if pavement == "bituminous" else D(7)
    assert out.required_depth_in == (minimum if existing is None else max(existing, minimum))
    assert out.required_depth_in >= minimum
    assert out.layer_conflict == (pavement == "bituminous" and out.required_depth_in > D("2.5"))


# --------------------------------------------------------------------------- obstructions

OBSTRUCTION_CASES = [
    Case({"situation": "building_materials", "sidewalk_width_ft": "5", "sidewalk_obstructed_width_ft": "2.5",
          "street_width_ft": "30", "street_obstructed_width_ft": "10", "interferes_with_gutter_flow": False},
         {"sidewalk_share": "pass", "street_share": "pass", "gutter_flow": "pass"},
         "§ 404-8: shall not obstruct more than 1/2 of the sidewalk or more than 1/3 of the traveled portion of the "
         "street.", "materials-exactly-half-and-third"),
    Case({"situation": "building_materials", "sidewalk_width_ft": "5", "sidewalk_obstructed_width_ft": "2.51",
          "street_width_ft": "30", "street_obstructed_width_ft": "10.01"},
         {"sidewalk_share": "fail", "street_share": "fail", "gutter_flow": "not_checked"},
         "§ 404-8: just over half and a third.", "materials-over"),
    Case({"situation": "building_materials", "interferes_with_gutter_flow": True}, {"gutter_flow": "fail"},
         "§ 404-8: which do not interfere with the flow in the gutters.", "materials-gutter"),
    Case({"situation": "street_privilege_permit", "street_width_ft": "24", "street_obstructed_width_ft": "8",
          "sidewalk_width_ft": "5", "sidewalk_obstructed_width_ft": "0"},
         {"street_share": "pass", "sidewalk_traffic": "pass"},
         "§ 404-9: Such temporary obstruction shall cover not more than 1/3 of any street or alley.",
         "privilege-third"),
    Case({"situation": "street_privilege_permit", "street_width_ft": "24", "street_obstructed_width_ft": "9"},
         {"street_share": "fail"}, "§ 404-9: over a third.", "privilege-over-third"),
    Case({"situation": "street_privilege_permit", "sidewalk_width_ft": "5", "sidewalk_obstructed_width_ft": "5"},
         {"sidewalk_traffic": "fail"},
         "§ 404-9: Sidewalk traffic shall not be interrupted.", "privilege-sidewalk-closed"),
    Case({"situation": "street_privilege_permit", "sidewalk_width_ft": "5", "sidewalk_obstructed_width_ft": "2"},
         {"sidewalk_traffic": "not_checked"},
         "§ 404-9: partial obstruction — 'interrupted' is not defined.", "privilege-sidewalk-partial"),
    Case({"situation": "street_privilege_permit", "sidewalk_width_ft": "5", "sidewalk_obstructed_width_ft": "5",
          "temporary_sidewalk_width_ft": "4", "temporary_fence_height_ft": "4"},
         {"temporary_sidewalk_width": "pass", "temporary_fence_height": "pass"},
         "§ 404-9: temporary sidewalks of not less than four feet in width guarded by a closed fence at least four "
         "feet high.", "privilege-temporary-walk"),
    Case({"situation": "street_privilege_permit", "temporary_sidewalk_width_ft": "3.5",
          "temporary_fence_height_ft": "3"},
         {"temporary_sidewalk_width": "fail", "temporary_fence_height": "fail"},
         "§ 404-9: temporary sidewalk and fence too small.", "privilege-temporary-walk-small"),
    Case({"situation": "sidewalk_fixture", "commercial_area": True, "fixture_attached": False,
          "unobstructed_sidewalk_width_ft": "3"},
         {"commercial_area": "pass", "not_attached": "pass", "clear_width": "pass"},
         "§ 404-8: In no event shall the fixture reduce the unobstructed sidewalk width to less than three feet.",
         "fixture-exactly-3ft"),
    Case({"situation": "sidewalk_fixture", "unobstructed_sidewalk_width_ft": "2.99"}, {"clear_width": "fail"},
         "§ 404-8: under three feet.", "fixture-2.99ft"),
    Case({"situation": "sidewalk_fixture", "sidewalk_width_ft": "6", "sidewalk_obstructed_width_ft": "3"},
         {"clear_width": "pass"}, "§ 404-8: 6 ft walk minus 3 ft fixture leaves 3 ft.", "fixture-derived-width"),
    Case({"situation": "sidewalk_fixture", "commercial_area": False, "fixture_attached": True},
         {"commercial_area": "fail", "not_attached": "fail"},
         "§ 404-8: area used for commercial uses; not physically attached.", "fixture-residential-attached"),
]


@pytest.mark.parametrize("case", OBSTRUCTION_CASES, ids=ids(OBSTRUCTION_CASES))
def test_obstructions(case: Case):
    run_case(obstruction_check, ObstructionInput, case)


def test_obstruction_notes_the_404_8_404_9_conflict():
    for situation in ("building_materials", "street_privilege_permit"):
        out = obstruction_check(ObstructionInput(situation=situation))
        assert any("shall not be interrupted" in a for a in out.assumptions)


@pytest.mark.parametrize("bad,needle", [
    ({"situation": "building_materials", "sidewalk_width_ft": "4", "sidewalk_obstructed_width_ft": "5"},
     "exceeds sidewalk_width_ft"),
    ({"situation": "building_materials", "street_width_ft": "20", "street_obstructed_width_ft": "21"},
     "exceeds street_width_ft"),
    ({"situation": "parade"}, "situation"),
])
def test_obstruction_validation(bad, needle):
    with pytest.raises(ValidationError) as exc:
        ObstructionInput(**bad)
    assert needle in str(exc.value)


ALLOWED_CASES = [
    Case({"situation": "building_materials", "sidewalk_width_ft": "6", "street_width_ft": "36"},
         {"fields": {"max_sidewalk_obstruction_ft": D("3"), "max_street_obstruction_ft": D("12")}},
         "§ 404-8B(2): shall not obstruct more than 1/2 of the sidewalk or more than 1/3 of the traveled portion of "
         "the street (6 / 2 = 3; 36 / 3 = 12).", "materials-6ft-walk-36ft-street"),
    Case({"situation": "building_materials", "sidewalk_width_ft": "5", "sidewalk_obstructed_width_ft": "2.5",
          "street_width_ft": "30", "street_obstructed_width_ft": "10"},
         {"sidewalk_share": "pass", "street_share": "pass",
          "fields": {"max_sidewalk_obstruction_ft": D("2.5"), "max_street_obstruction_ft": D("10")}},
         "§ 404-8B(2): obstructing exactly the allowed widths passes.", "materials-at-the-allowed-widths"),
    Case({"situation": "building_materials", "sidewalk_width_ft": "7", "street_width_ft": "20"},
         {"fields": {"max_sidewalk_obstruction_ft": D("3.5"), "max_street_obstruction_ft": D("6.66")}},
         "§ 404-8B(2): 20 / 3 = 6.666... ft, rounded down to 6.66 (a maximum is never rounded up).",
         "materials-third-rounded-down"),
    Case({"situation": "street_privilege_permit", "street_width_ft": "36", "sidewalk_width_ft": "6"},
         {"fields": {"max_sidewalk_obstruction_ft": None, "max_street_obstruction_ft": D("12")}},
         "§ 404-9D(1): Such temporary obstruction shall cover not more than 1/3 of any street or alley; "
         "§ 404-9D(3): Sidewalk traffic shall not be interrupted (no share of the sidewalk).", "privilege-36ft"),
    Case({"situation": "street_privilege_permit", "street_width_ft": "24"},
         {"fields": {"max_street_obstruction_ft": D("8")}}, "§ 404-9D(1): 24 / 3 = 8.", "privilege-24ft"),
    Case({"situation": "sidewalk_fixture", "sidewalk_width_ft": "6"},
         {"fields": {"max_sidewalk_obstruction_ft": D("3"), "max_street_obstruction_ft": None}},
         "§ 404-8C(3): In no event shall the fixture reduce the unobstructed sidewalk width to less than three feet "
         "(6 - 3 = 3).", "fixture-6ft"),
    Case({"situation": "sidewalk_fixture", "sidewalk_width_ft": "2.5"},
         {"fields": {"max_sidewalk_obstruction_ft": D("0")}},
         "§ 404-8C(3): a walk narrower than three feet leaves no room for a fixture.", "fixture-narrow-walk"),
    Case({"situation": "building_materials"},
         {"fields": {"max_sidewalk_obstruction_ft": None, "max_street_obstruction_ft": None}},
         "no widths given: no allowed widths.", "materials-no-widths"),
]


@pytest.mark.parametrize("case", ALLOWED_CASES, ids=ids(ALLOWED_CASES))
def test_obstruction_allowed_widths(case: Case):
    out = run_case(obstruction_check, ObstructionInput, case)
    f = case.expected["fields"]
    w = case.input.get("sidewalk_width_ft")
    if f.get("max_sidewalk_obstruction_ft") is not None:
        assert f"at most {specs._num(f['max_sidewalk_obstruction_ft'])} ft of the {w} ft sidewalk" in out.explanation
    if f.get("max_street_obstruction_ft") is not None:
        assert f"at most {specs._num(f['max_street_obstruction_ft'])} ft of the {case.input['street_width_ft']} ft" \
            in out.explanation
    rounded = any("rounded down to 0.01 ft" in a for a in out.assumptions)
    assert rounded == (case.id == "materials-third-rounded-down")
    if case.input["situation"] == "street_privilege_permit" and w is not None:
        assert "no share of the sidewalk" in out.explanation


def test_obstruction_example_sentence():
    out = obstruction_check(ObstructionInput(situation="building_materials", sidewalk_width_ft="6",
                                             street_width_ft="36"))
    assert "at most 3 ft of the 6 ft sidewalk" in out.explanation
    assert "at most 12 ft of the 36 ft traveled street" in out.explanation
    assert [c.label() for c in out.citations] == ["Village of Brandon Code § 404-8B(2) (Obstructions and encroachments)"]


@settings(max_examples=100, deadline=None)
@given(width=st.decimals(1, 60, places=2), situation=st.sampled_from(["building_materials", "street_privilege_permit"]))
def test_allowed_street_width_is_the_largest_that_passes(width, situation):
    out = obstruction_check(ObstructionInput(situation=situation, street_width_ft=width))
    allowed = out.max_street_obstruction_ft
    assert allowed is not None and allowed * 3 <= width < (allowed + D("0.01")) * 3
    ok = obstruction_check(ObstructionInput(situation=situation, street_width_ft=width,
                                            street_obstructed_width_ft=allowed))
    assert statuses(ok)["street_share"] == "pass"
    over = allowed + D("0.01")
    if over <= width:
        bad = obstruction_check(ObstructionInput(situation=situation, street_width_ft=width,
                                                 street_obstructed_width_ft=over))
        assert statuses(bad)["street_share"] == "fail"


@settings(max_examples=100, deadline=None)
@given(width=st.decimals(1, 20, places=2), data=st.data())
def test_half_sidewalk_property(width, data):
    used = data.draw(st.decimals(0, width, places=2))
    out = obstruction_check(ObstructionInput(situation="building_materials", sidewalk_width_ft=width,
                                             sidewalk_obstructed_width_ft=used))
    assert (statuses(out)["sidewalk_share"] == "pass") == (used * 2 <= width)


# --------------------------------------------------------------------------- trenches

TRENCH_CASES = [
    Case({"excavated_ahead_of_pipe_ft": "250", "unfilled_behind_pipe_ft": "500"},
         {"ahead_of_pipe": "pass", "unfilled_behind_pipe": "pass"},
         "§ 404-7: no trench shall be excavated more than 250 feet in advance of pipe or conduit laying nor left "
         "unfilled more than 500 feet.", "exact-limits"),
    Case({"excavated_ahead_of_pipe_ft": "250.01", "unfilled_behind_pipe_ft": "501"},
         {"ahead_of_pipe": "fail", "unfilled_behind_pipe": "fail"}, "§ 404-7: over both limits.", "over-limits"),
    Case({"excavated_ahead_of_pipe_ft": "400", "unfilled_behind_pipe_ft": "900", "special_permission": True},
         {"ahead_of_pipe": "waived", "unfilled_behind_pipe": "waived"},
         "§ 404-7: Except by special permission from the Director of Public Works.", "special-permission"),
    Case({"backfill_layer_in": "12", "compaction_percent": "95", "largest_stone_in": "8"},
         {"backfill_layer": "pass", "compaction": "pass", "largest_stone": "pass"},
         "§ 404-7: Each layer (twelve-inch maximum) ... at least 95% ...; stones greater than eight inches.",
         "backfill-exact"),
    Case({"backfill_layer_in": "13", "compaction_percent": "94.9", "largest_stone_in": "9"},
         {"backfill_layer": "fail", "compaction": "fail", "largest_stone": "fail"},
         "§ 404-7: backfill out of specification.", "backfill-bad"),
]


@pytest.mark.parametrize("case", TRENCH_CASES, ids=ids(TRENCH_CASES))
def test_trenches(case: Case):
    run_case(trench_check, TrenchInput, case)


def test_trench_brandon_only():
    out = trench_check(TrenchInput(municipality="delafield", excavated_ahead_of_pipe_ft=1))
    assert not out.ok and out.checks == []


@settings(max_examples=100, deadline=None)
@given(ahead=st.decimals(0, 1000, places=2), behind=st.decimals(0, 1000, places=2), perm=st.booleans())
def test_trench_property(ahead, behind, perm):
    out = trench_check(TrenchInput(excavated_ahead_of_pipe_ft=ahead, unfilled_behind_pipe_ft=behind,
                                   special_permission=perm))
    s = statuses(out)
    if perm:
        assert s["ahead_of_pipe"] == s["unfilled_behind_pipe"] == "waived"
    else:
        assert (s["ahead_of_pipe"] == "fail") == (ahead > 250)
        assert (s["unfilled_behind_pipe"] == "fail") == (behind > 500)


# --------------------------------------------------------------------------- Delafield driveways

DRIVEWAY_CASES = [
    Case({"slope_percent": "12"}, {"slope": "pass"},
         "a slope not to exceed 12% at any such point.", "slope-exactly-12"),
    Case({"slope_percent": "12.01"}, {"slope": "fail"}, "slope over 12%.", "slope-over"),
    Case({"concrete_distance_from_road_hard_surface_ft": "3", "concrete_permit_obtained": True},
         {"concrete_setback": "pass", "concrete_permit": "pass"},
         "No concrete surfacing shall be installed on a private driveway closer than 3' from the hard surface.",
         "concrete-exactly-3ft"),
    Case({"concrete_distance_from_road_hard_surface_ft": "2.99", "concrete_permit_obtained": False},
         {"concrete_setback": "fail", "concrete_permit": "fail"}, "concrete too close, no permit.", "concrete-close"),
    Case({"culvert_diameter_in": "15", "culvert_material": "corrugated_metal", "end_guards": "concrete",
          "end_guards_beyond_street_height": False, "concrete_over_culvert": False},
         {"culvert_size": "pass", "culvert_material": "pass", "end_guards": "pass", "end_guard_height": "pass",
          "no_concrete_over_culvert": "pass"},
         "corrugated metal pipe ... not less than that of a 15\" pipe ... end guards made of concrete or steel.",
         "culvert-compliant"),
    Case({"culvert_diameter_in": "14.9", "culvert_material": "reinforced_concrete", "end_guards": "none",
          "end_guards_beyond_street_height": True, "concrete_over_culvert": True},
         {"culvert_size": "fail", "culvert_material": "fail", "end_guards": "fail", "end_guard_height": "fail",
          "no_concrete_over_culvert": "fail"},
         "culvert too small, wrong pipe, no end guards, concrete over it.", "culvert-noncompliant"),
    Case({"end_guards": "steel"}, {"end_guards": "pass", "culvert_size": "not_checked"},
         "end guards made of concrete or steel.", "steel-guards"),
]


@pytest.mark.parametrize("case", DRIVEWAY_CASES, ids=ids(DRIVEWAY_CASES))
def test_driveways(case: Case):
    run_case(driveway_check, DrivewayInput, case)


RISE_RUN_CASES = [
    Case({"rise_ft": "9", "run_ft": "60"}, {"slope": "fail", "fields": {"slope_percent_computed": D("15")}},
         "a slope not to exceed 12% at any such point: 9 / 60 x 100 = 15 %.", "9-over-60"),
    Case({"rise_ft": "5", "run_ft": "50"}, {"slope": "pass", "fields": {"slope_percent_computed": D("10")}},
         "5 / 50 x 100 = 10 %.", "5-over-50"),
    Case({"rise_ft": "6", "run_ft": "50"}, {"slope": "pass", "fields": {"slope_percent_computed": D("12")}},
         "6 / 50 x 100 = exactly 12 %: 'not to exceed' includes 12.", "exactly-12"),
    Case({"rise_ft": "6.01", "run_ft": "50"}, {"slope": "fail", "fields": {"slope_percent_computed": D("12.02")}},
         "6.01 / 50 x 100 = 12.02 %.", "just-over-12"),
    Case({"rise_ft": "3.0001", "run_ft": "25"}, {"slope": "fail", "fields": {"slope_percent_computed": D("12.00")}},
         "3.0001 / 25 x 100 = 12.0004 %: shown as 12.00 but over the limit (the exact ratio is checked).",
         "rounds-to-12-but-over"),
    Case({"rise_ft": "1", "run_ft": "3"}, {"slope": "fail", "fields": {"slope_percent_computed": D("33.33")}},
         "1 / 3 x 100 = 33.33 % (rounded to 2 decimals).", "one-in-three"),
    Case({"rise_ft": "0", "run_ft": "40"}, {"slope": "pass", "fields": {"slope_percent_computed": D("0")}},
         "a level driveway.", "level"),
    Case({"rise_ft": "9", "run_ft": "60", "slope_percent": "15"},
         {"slope": "fail", "fields": {"slope_percent_computed": D("15")}},
         "slope_percent given and agreeing with rise / run.", "percent-agrees"),
]


@pytest.mark.parametrize("case", RISE_RUN_CASES, ids=ids(RISE_RUN_CASES))
def test_driveway_slope_from_rise_and_run(case: Case):
    out = run_case(driveway_check, DrivewayInput, case)
    row = next(c for c in out.checks if c.requirement == "slope")
    assert f"{case.input['rise_ft']} ft rise over {case.input['run_ft']} ft run" in row.measured
    verdict = "more than" if case.expected["slope"] == "fail" else "within"
    assert f"{verdict} the 12 % limit" in out.explanation
    assert f"{case.input['rise_ft']} ft / {case.input['run_ft']} ft x 100 = " in out.explanation


def test_driveway_slope_percent_that_disagrees_with_rise_and_run():
    out = driveway_check(DrivewayInput(rise_ft="9", run_ft="60", slope_percent="12"))
    assert not out.ok and out.checks == [] and out.all_pass is None
    assert "slope_percent (12 %) differs" in out.error and "9 / 60 x 100 = 15 %" in out.error
    assert out.slope_percent_computed == D("15") and out.citations
    # agreeing to 2 decimals is agreement
    assert driveway_check(DrivewayInput(rise_ft="1", run_ft="3", slope_percent="33.333")).ok


def test_driveway_run_alone_gives_the_most_rise_the_limit_allows():
    out = driveway_check(DrivewayInput(run_ft="60"))
    assert out.max_rise_ft == D("7.2") and out.slope_limit_percent == D("12")
    assert "60 ft x 12 / 100 = 7.2 ft" in out.explanation


@pytest.mark.parametrize("bad,needle", [
    ({"rise_ft": "9"}, "give run_ft with rise_ft"),
    ({"rise_ft": "9", "run_ft": "0"}, "run_ft"),
    ({"rise_ft": "-1", "run_ft": "10"}, "rise_ft"),
])
def test_driveway_rise_run_validation(bad, needle):
    with pytest.raises(ValidationError) as exc:
        DrivewayInput(**bad)
    assert needle in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(rise=st.decimals(0, 30, places=2), run=st.decimals(D("0.5"), 200, places=2))
def test_rise_run_property(rise, run):
    out = driveway_check(DrivewayInput(rise_ft=rise, run_ft=run))
    assert (statuses(out)["slope"] == "pass") == (rise * 100 <= 12 * run)
    assert abs(out.slope_percent_computed - rise / run * 100) <= D("0.005")


def test_no_concrete_rows_without_concrete_surfacing():
    out = driveway_check(DrivewayInput(slope_percent="8"))
    assert "concrete_setback" not in statuses(out) and out.all_pass is True


def test_driveway_delafield_only():
    out = driveway_check(DrivewayInput(municipality="brandon", slope_percent="5"))
    assert not out.ok and out.all_pass is None


@pytest.mark.parametrize("bad,field", [
    ({"slope_percent": "-3"}, "slope_percent"),
    ({"culvert_material": "wood"}, "culvert_material"),
    ({"culvert_diameter_cm": "38"}, "culvert_diameter_cm"),
])
def test_driveway_validation(bad, field):
    with pytest.raises(ValidationError) as exc:
        DrivewayInput(**bad)
    assert field in str(exc.value)


# --------------------------------------------------------------------------- Delafield heavy vehicles

HEAVY_CASES = [
    Case({"gross_weight_tons": "3"}, {"permit": "pass", "temporary_limit": "not_applicable",
                                      "fields": {"permit_required": False}},
         "No machine having lugged wheels or weighing more than 3 tons ... unless a permit.", "exactly-3-tons"),
    Case({"gross_weight_tons": "3.001", "has_permit": True}, {"permit": "pass", "fields": {"permit_required": True}},
         "more than 3 tons, permit secured.", "over-3-with-permit"),
    Case({"gross_weight_tons": "5", "has_permit": False}, {"permit": "fail", "fields": {"permit_required": True}},
         "more than 3 tons without a permit.", "over-3-no-permit"),
    Case({"gross_weight_tons": "1", "lugged_wheels": True}, {"permit": "not_checked",
                                                            "fields": {"permit_required": True}},
         "No machine having lugged wheels ... unless a permit.", "lugged-light"),
    Case({"gross_weight_tons": "6", "temporary_limit_posted": True, "has_permit": True},
         {"temporary_limit": "pass", "fields": {"exceeds_temporary_limit": False}},
         "a gross vehicular weight ... of not more than 6 tons.", "exactly-6-posted"),
    Case({"gross_weight_tons": "6.5", "temporary_limit_posted": True, "has_permit": True,
          "has_special_permit": False},
         {"temporary_limit": "fail", "fields": {"exceeds_temporary_limit": True}},
         "over 6 tons on a posted road without a special permit.", "over-6-posted"),
    Case({"gross_weight_tons": "6.5", "temporary_limit_posted": True, "has_permit": True,
          "has_special_permit": True},
         {"temporary_limit": "pass", "fields": {"exceeds_temporary_limit": True}},
         "The Town may grant a special permit ... if ... an emergency condition exists.", "over-6-special-permit"),
    Case({"gross_weight_tons": "10", "has_permit": True},
         {"temporary_limit": "not_applicable", "fields": {"exceeds_temporary_limit": None}},
         "no temporary limit posted.", "heavy-unposted"),
]


@pytest.mark.parametrize("case", HEAVY_CASES, ids=ids(HEAVY_CASES))
def test_heavy_vehicles(case: Case):
    run_case(heavy_vehicle_check, HeavyVehicleInput, case)


OVER_CASES = [
    Case({"gross_weight_tons": "7.5", "temporary_limit_posted": True, "has_permit": True},
         {"temporary_limit": "not_checked", "fields": {"tons_over_limit": D("1.5"), "exceeds_temporary_limit": True}},
         "not more than 6 tons: 7.5 - 6 = 1.5 tons over; a special permit only if an emergency condition exists.",
         "7.5-posted"),
    Case({"gross_weight_tons": "7.5", "has_permit": True},
         {"temporary_limit": "not_applicable", "fields": {"tons_over_limit": D("1.5")}},
         "7.5 - 6 = 1.5 tons over a limit, should the road be posted.", "7.5-unposted"),
    Case({"gross_weight_tons": "6", "temporary_limit_posted": True, "has_permit": True},
         {"temporary_limit": "pass", "fields": {"tons_over_limit": D("0")}},
         "exactly 6 tons is 'not more than 6 tons': 0 over.", "exactly-6"),
    Case({"gross_weight_tons": "6.001", "temporary_limit_posted": True, "has_permit": True,
          "has_special_permit": True},
         {"temporary_limit": "pass", "fields": {"tons_over_limit": D("0.001")}},
         "6.001 - 6 = 0.001 tons over, with the special permit.", "just-over-6"),
    Case({"gross_weight_tons": "2"}, {"fields": {"tons_over_limit": D("0")}}, "well under: 0 over.", "2-tons"),
]


@pytest.mark.parametrize("case", OVER_CASES, ids=ids(OVER_CASES))
def test_heavy_vehicle_tons_over_limit(case: Case):
    out = run_case(heavy_vehicle_check, HeavyVehicleInput, case)
    over = case.expected["fields"]["tons_over_limit"]
    special = [c for c in out.citations if "special permit" in c.quote]
    if over > 0:
        assert f"= {specs._num(over)} tons over" in out.explanation
        assert "special permit" in out.explanation and "emergency" in out.explanation
        assert special and quote_is_verbatim(special[0])
    else:
        assert "(0 tons over)" in out.explanation and not special


def test_heavy_vehicle_explanation_states_the_determination():
    out = heavy_vehicle_check(HeavyVehicleInput(gross_weight_tons="7", temporary_limit_posted=True))
    assert "permit is required" in out.explanation and "over the posted temporary limit" in out.explanation


def test_heavy_vehicle_delafield_only_and_validation():
    out = heavy_vehicle_check(HeavyVehicleInput(municipality="brandon", gross_weight_tons="10"))
    assert not out.ok and out.permit_required is None
    with pytest.raises(ValidationError) as exc:
        HeavyVehicleInput(gross_weight_tons="-1")
    assert "gross_weight_tons" in str(exc.value)
    with pytest.raises(ValidationError) as exc:
        HeavyVehicleInput()
    assert "gross_weight_tons" in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(w=st.decimals(0, 40, places=3), lugged=st.booleans(), posted=st.booleans())
def test_heavy_vehicle_property(w, lugged, posted):
    out = heavy_vehicle_check(HeavyVehicleInput(gross_weight_tons=w, lugged_wheels=lugged,
                                                temporary_limit_posted=posted))
    assert out.permit_required == (lugged or w > 3)
    assert out.exceeds_temporary_limit == ((w > 6) if posted else None)
    assert out.tons_over_limit == max(w - 6, D(0))
    assert out.tons_over_permit_weight == max(w - 3, D(0))


def test_heavy_vehicle_says_how_far_past_the_permit_weight():
    """'Is that over the line where we need a permit, and by how many tons?': the excess over
    the permit weight is a figure of the answer, not only over a posted limit."""
    from assistant.answering.phrasing import lead_heavy

    out = heavy_vehicle_check(HeavyVehicleInput(gross_weight_tons="3.75"))
    assert out.tons_over_permit_weight == D("0.75")
    assert "3.75 tons, 0.75 tons more than 3" in out.explanation
    assert "**0.75 tons** over the weight that needs one" in lead_heavy(out)
    assert "over the weight" not in lead_heavy(heavy_vehicle_check(HeavyVehicleInput(gross_weight_tons="2",
                                                                                     lugged_wheels=True)))
    # on a posted road the excess over the posted limit is the figure asked, not the permit weight's
    posted = heavy_vehicle_check(HeavyVehicleInput(gross_weight_tons="7.25", temporary_limit_posted=True))
    assert "**1.25 tons** (2,500 lb) over the posted" in lead_heavy(posted) and "4.25" not in lead_heavy(posted)
    assert "4.25" not in posted.explanation


# --------------------------------------------------------------------------- Delafield road construction

ROAD_CASES = [
    Case({"wet_area": False},
         {"aggregate_base": "not_checked",
          "fields": {"aggregate_depth_in": D("10"), "required_initial_lift_in": D("2.5"), "corrective_lift_in": None,
                     "initial_lift_deficiency_in": None, "all_pass": None}},
         "(4)(e) a minimum of 10\" of crushed aggregate on the road bed in 2 lifts (5\" + 5\"); (4)(f) a 2 1/2\" "
         "lift of bituminous concrete.", "dry-figures"),
    Case({"wet_area": True},
         {"wet_area_stone": "not_checked", "fields": {"aggregate_depth_in": D("16")}},
         "(4)(e) In areas that are wet or seasonably wet, a 6\" layer of no. 2 stone shall be placed below the 10\" "
         "layer at the direction of the Town Board (10 + 6).", "wet-area-16"),
    Case({"wet_area": False, "final_deficiency_in": "0.4"},
         {"final_thickness": "fail", "fields": {"corrective_lift_in": D("1")}},
         "(4)(f) a lift over the entire roadway equal in thickness to such deficiency, but in no case less than "
         "1\": 0.4 -> 1.", "deficiency-0.4"),
    Case({"wet_area": False, "final_deficiency_in": "1"},
         {"final_thickness": "fail", "fields": {"corrective_lift_in": D("1")}},
         "(4)(f) exactly the 1\" minimum.", "deficiency-exactly-1"),
    Case({"wet_area": False, "final_deficiency_in": "1.3"},
         {"final_thickness": "fail", "fields": {"corrective_lift_in": D("1.3")}},
         "(4)(f) equal in thickness to such deficiency: 1.3 -> 1.3.", "deficiency-1.3"),
    Case({"wet_area": False, "final_deficiency_in": "0"},
         {"final_thickness": "pass", "fields": {"corrective_lift_in": D("0"), "all_pass": True}},
         "(4)(f) If the final thickness is found to be deficient (it is not): no corrective lift.",
         "no-deficiency"),
    Case({"wet_area": False, "initial_lift_in": "2.5"},
         {"initial_lift": "pass", "fields": {"initial_lift_deficiency_in": D("0")}},
         "(4)(f) If the initial lift should be found to be less than 2 1/2\" in thickness (exactly 2 1/2\" is not).",
         "initial-exactly-2.5"),
    Case({"wet_area": False, "initial_lift_in": "2.2"},
         {"initial_lift": "fail", "fields": {"initial_lift_deficiency_in": D("0.3")}},
         "(4)(f) the average deficiency shall be determined by the Town Engineer and a proportionate increase be "
         "made in the final lift: 2.5 - 2.2 = 0.3.", "initial-2.2"),
]


@pytest.mark.parametrize("case", ROAD_CASES, ids=ids(ROAD_CASES))
def test_road_construction(case: Case):
    out = run_case(road_construction_check, RoadConstructionInput, case)
    assert {c.title for c in out.citations} == {"STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS"}
    assert {c.subsection for c in out.citations} == {"(4)(e)", "(4)(f)"}
    depth = out.aggregate_depth_in
    assert f"= {specs._num(depth)} in" in out.explanation
    corr = case.expected["fields"].get("corrective_lift_in")
    if corr:
        d = case.input["final_deficiency_in"]
        assert f"the greater of {d} in and 1 in = {specs._num(corr)} in" in out.explanation


def test_road_wet_area_assumes_the_town_board_directs_the_stone():
    out = road_construction_check(RoadConstructionInput(wet_area=True))
    assert any("at the direction of the Town Board" in a and "16 in" in a and "10 in" in a for a in out.assumptions)
    dry = road_construction_check(RoadConstructionInput(wet_area=False))
    assert not any("direction of the Town Board" in a for a in dry.assumptions)
    assert "wet_area_stone" not in statuses(dry)


def test_road_construction_delafield_only_and_validation():
    out = road_construction_check(RoadConstructionInput(municipality="brandon", wet_area=False))
    assert not out.ok and out.aggregate_depth_in is None and "Delafield" in out.error
    for bad, needle in [({}, "wet_area"), ({"wet_area": False, "final_deficiency_in": "-0.5"}, "final_deficiency_in"),
                        ({"wet_area": False, "initial_lift_mm": "60"}, "initial_lift_mm")]:
        with pytest.raises(ValidationError) as exc:
            RoadConstructionInput(**bad)
        assert needle in str(exc.value)


@settings(max_examples=100, deadline=None)
@given(d=st.decimals(0, 6, places=2))
def test_corrective_lift_property(d):
    out = road_construction_check(RoadConstructionInput(wet_area=False, final_deficiency_in=d))
    assert out.corrective_lift_in == (max(d, D(1)) if d > 0 else 0)
