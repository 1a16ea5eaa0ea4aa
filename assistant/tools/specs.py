"""Specification checks: measurements against the code's thresholds, pass/fail per requirement.

Brandon: defective sidewalks and the 60% whole-replacement rule, sidewalk dimensions,
pavement patches (§ 404-7G), obstructions (§ 404-8, § 404-9), trenches and backfill
(§ 404-7). Delafield: driveways and culverts, heavy vehicles and temporary weight limits.
Every threshold comes from ``data/specs.yaml`` beside the words it is quoted from.
Comparisons are exact (Decimal / Fraction), so boundary values behave as the text says:
"not less than", "not more than" and "or more" include the limit itself.
"""

from __future__ import annotations

import functools
import math
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from assistant.corpus import cite, resolve_municipality, short_name
from assistant.tools.coverage import municipality_field, not_covered
from assistant.amendments import answers_changed_rules
from assistant.tools.spec import Route, ToolSpec
from assistant.types import Citation, ToolInput, ToolOutput

DATA_FILE = Path(__file__).resolve().parent / "data" / "specs.yaml"

Status = Literal["pass", "fail", "not_checked", "not_applicable", "waived"]


@functools.cache
def _data() -> dict[str, Any]:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))


def _provision(key: str) -> dict[str, Any]:
    return _data()["provisions"][key]


def _cite(key: str) -> Citation:
    p = _provision(key)
    return cite(p["municipality"], p["quote"], section=p.get("section"))


def provision_citation(key: str) -> Citation:
    """The citation of one provision of the data (its quote found in the indexed text)."""
    return _cite(key)


def _figure(key: str, field: str) -> Decimal:
    return Decimal(str(_provision(key)[field]))


def _fraction(key: str, field: str) -> Fraction:
    return Fraction(str(_provision(key)[field]))


def _municipality_id(value: str) -> str:
    m = resolve_municipality(value)
    if m is None:
        raise ValueError("municipality is required (an id or name from the manifest)")
    return m.id


def _num(x: Decimal | Fraction) -> str:
    """1.25 -> '1.25', 4 -> '4', Fraction(1, 3) -> '1/3'."""
    if isinstance(x, Fraction):
        return str(x) if x.denominator != 1 else str(x.numerator)
    s = format(x.normalize(), "f")
    return s


def _share_of(whole: Decimal, frac: Fraction) -> tuple[Decimal, bool]:
    """frac x whole in feet, rounded down to 0.01 ft when not exact (a maximum is never rounded up).
    Returns (value, exact)."""
    exact = Fraction(whole) * frac
    value = Decimal(exact.numerator) / Decimal(exact.denominator)
    rounded = value.quantize(Decimal("0.01"), rounding=ROUND_DOWN)
    return (value, True) if value == rounded else (rounded, False)


def _length(field: str) -> Any:
    return Field(default=None, ge=0, le=10_000, max_digits=10, decimal_places=4, description=field)


class SpecCheck(BaseModel):
    """One requirement of the code checked against one measurement."""

    model_config = ConfigDict(extra="forbid")

    requirement: str = Field(description="Stable id, e.g. 'vertical_differential'.")
    description: str = Field(description="The requirement in words.")
    required: str = Field(description="What complies, with its unit, e.g. 'less than 1 in'.")
    limit: Decimal | None = Field(default=None, description="The code's threshold, in `unit`.")
    unit: str | None = Field(default=None, description="Unit of limit and measured: in, ft, %, tons, days, hours.")
    measured: str | None = Field(default=None, description="The value checked, as given.")
    difference: Decimal | None = Field(
        default=None, description="The measurement minus the code's threshold, in `unit` (positive: above it); "
        "only when both are numbers in the same unit.")
    status: Status = Field(
        description="pass; fail; not_checked (no measurement given or the text sets no figure); "
        "not_applicable; waived (by special permission)."
    )
    note: str | None = Field(default=None, description="What follows from a failure, or why it was not checked.")
    citation: Citation = Field(description="Provision the requirement comes from.")


class SpecCheckOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Municipality id.")
    checks: list[SpecCheck] = Field(default_factory=list, description="Every requirement checked, in order.")
    failures: list[str] = Field(default_factory=list, description="Ids of the requirements that failed.")
    all_pass: bool | None = Field(
        default=None, description="True if every checked requirement passes; null if nothing was checkable."
    )


def _row(
    requirement: str,
    description: str,
    key: str,
    *,
    measured: Decimal | bool | str | None,
    ok: bool | None,
    required: str,
    limit: Decimal | None = None,
    unit: str | None = None,
    fail_note: str | None = None,
    status: Status | None = None,
    note: str | None = None,
) -> SpecCheck:
    if status is None:
        status = "not_checked" if ok is None else ("pass" if ok else "fail")
    if isinstance(measured, bool):
        shown: str | None = "yes" if measured else "no"
    elif isinstance(measured, Decimal):
        shown = f"{_num(measured)} {unit}" if unit else _num(measured)
    else:
        shown = measured
    if note is None:
        if status == "fail":
            note = fail_note or f"{shown or 'Not given'} does not meet the requirement: {required}."
        elif status == "not_checked":
            note = "No measurement given."
    difference = (measured - limit) if isinstance(measured, Decimal) and not isinstance(measured, bool) \
        and limit is not None else None
    return SpecCheck(
        requirement=requirement, description=description, required=required, limit=limit, unit=unit,
        measured=shown, difference=difference, status=status, note=note, citation=_cite(key),
    )


def _at_least(requirement: str, description: str, key: str, field: str, value: Decimal | None, unit: str,
              fail_note: str | None = None, limit: Decimal | None = None) -> SpecCheck:
    lim = limit if limit is not None else _figure(key, field)
    return _row(requirement, description, key, measured=value, ok=None if value is None else value >= lim,
                required=f"at least {_num(lim)} {unit}", limit=lim, unit=unit, fail_note=fail_note)


def _at_most(requirement: str, description: str, key: str, field: str, value: Decimal | None, unit: str,
             fail_note: str | None = None) -> SpecCheck:
    lim = _figure(key, field)
    return _row(requirement, description, key, measured=value, ok=None if value is None else value <= lim,
                required=f"at most {_num(lim)} {unit}", limit=lim, unit=unit, fail_note=fail_note)


def _finish(out: SpecCheckOutput, lead: str) -> SpecCheckOutput:
    checked = [c for c in out.checks if c.status in ("pass", "fail")]
    out.failures = [c.requirement for c in out.checks if c.status == "fail"]
    out.all_pass = (not out.failures) if checked else None
    parts = []
    for c in out.checks:
        shown = c.measured if c.measured is not None else "not given"
        parts.append(f"{c.description}: {shown} (required: {c.required}) -> {c.status}")
    verdict = (
        f"{len(out.failures)} requirement(s) fail: {', '.join(out.failures)}." if out.failures
        else ("Every checked requirement passes." if checked else "Nothing could be checked.")
    )
    out.explanation = f"{lead} " + "; ".join(parts) + ". " + verdict
    seen: list[Citation] = []
    for c in out.checks:
        if c.citation not in seen:
            seen.append(c.citation)
    out.citations = seen
    return out


def _wrong_place(tool: str, municipality: str, message: str) -> SpecCheckOutput:
    return SpecCheckOutput(tool=tool, ok=False, municipality=municipality, error=message)




# --------------------------------------------------------------------------- sidewalk defects


class SidewalkDefectInput(ToolInput):
    municipality: str = municipality_field("sidewalk_defect_check", "Municipality id or name; the tool's data says which codes it covers.")
    vertical_differential_in: Decimal | None = _length(
        "Height difference between adjacent sidewalk blocks (crack or joint), inches.")
    horizontal_gap_in: Decimal | None = _length("Horizontal gap between adjacent sidewalk blocks, inches.")
    surface_deterioration_depth_in: Decimal | None = _length(
        "Depth of surface deterioration within one block, inches.")
    defective_blocks: int | None = Field(default=None, ge=0, description="Defective blocks on the owner's sidewalk.")
    total_blocks: int | None = Field(default=None, ge=1, description="All blocks of the owner's sidewalk.")

    check_municipality = field_validator("municipality")(_municipality_id)

    @model_validator(mode="after")
    def _something_to_check(self) -> "SidewalkDefectInput":
        if (self.defective_blocks is None) != (self.total_blocks is None):
            raise ValueError("give both defective_blocks and total_blocks, or neither")
        if self.defective_blocks is not None and self.total_blocks is not None and \
                self.defective_blocks > self.total_blocks:
            raise ValueError(
                f"defective_blocks ({self.defective_blocks}) exceeds total_blocks ({self.total_blocks})")
        if all(v is None for v in (self.vertical_differential_in, self.horizontal_gap_in,
                                   self.surface_deterioration_depth_in, self.defective_blocks)):
            raise ValueError("give at least one measurement (vertical_differential_in, horizontal_gap_in, "
                             "surface_deterioration_depth_in) or defective_blocks and total_blocks")
        return self


class SidewalkDefectOutput(SpecCheckOutput):
    block_defective: bool | None = Field(
        default=None, description="True if any measured characteristic makes the block defective.")
    defective_percent: Decimal | None = Field(default=None, description="Defective blocks / all blocks, % (2 dp).")
    whole_replacement_required: bool | None = Field(
        default=None, description="True when the defective share reaches the whole-replacement threshold.")
    whole_replacement_at_blocks: int | None = Field(
        default=None, description="The fewest defective blocks of total_blocks that reach the whole-replacement threshold.")
    total_blocks: int | None = Field(default=None, description="All blocks of the owner's sidewalk, as given.")


@answers_changed_rules("sidewalk_defect_check")
def sidewalk_defect_check(inp: SidewalkDefectInput) -> SidewalkDefectOutput:
    tool = "sidewalk_defect_check"
    if (message := not_covered(tool, inp.municipality)):
        return SidewalkDefectOutput(tool=tool, ok=False, municipality=inp.municipality, error=message)
    rows: list[SpecCheck] = []
    criteria = [
        ("vertical_differential", "Vertical differential between adjacent blocks", "sidewalk_vertical_differential",
         inp.vertical_differential_in),
        ("horizontal_gap", "Horizontal distance between adjacent blocks", "sidewalk_horizontal_gap",
         inp.horizontal_gap_in),
        ("surface_deterioration", "Surface deterioration depth within a block", "sidewalk_surface_deterioration",
         inp.surface_deterioration_depth_in),
    ]
    measured_any = False
    for rid, desc, key, value in criteria:
        lim = _figure(key, "defect_at_least_in")
        if value is not None:
            measured_any = True
        rows.append(_row(rid, desc, key, measured=value, ok=None if value is None else value < lim,
                         required=f"less than {_num(lim)} in ({_num(lim)} in or more is defective)",
                         limit=lim, unit="in", fail_note="Defective: the Village Board may order it repaired or "
                         "replaced, and the owner is assessed part of the cost (see sidewalk_assessment)."))
    block_defective = None
    if measured_any:
        block_defective = any(r.status == "fail" for r in rows)
    percent = whole = at_blocks = None
    if inp.total_blocks is not None and inp.defective_blocks is not None:
        threshold = _figure("sidewalk_whole_replacement", "at_least_percent")
        share = Fraction(inp.defective_blocks, inp.total_blocks) * 100
        whole = share >= Fraction(threshold)
        at_blocks = math.ceil(Fraction(threshold) * inp.total_blocks / 100)  # 60% of 24 blocks: 14.4, so 15
        percent = (Decimal(share.numerator) / Decimal(share.denominator)).quantize(Decimal("0.01"))
        rows.append(_row(
            "whole_sidewalk_replacement", "Share of the owner's sidewalk blocks that are defective",
            "sidewalk_whole_replacement", measured=f"{inp.defective_blocks} of {inp.total_blocks} ({_num(percent)} %)",
            ok=not whole, required=f"less than {_num(threshold)} % ({_num(threshold)} % or more: replace the "
            f"entire sidewalk)", limit=threshold, unit="%",
            fail_note="The entire sidewalk shall be replaced, not only the defective blocks.",
        ))
    out = SidewalkDefectOutput(
        tool=tool, municipality=inp.municipality, checks=rows, block_defective=block_defective,
        defective_percent=percent, whole_replacement_required=whole, whole_replacement_at_blocks=at_blocks,
        total_blocks=inp.total_blocks,
        assumptions=[
            "The list of defect characteristics starts at (b); whatever (a) held is missing from the text, so a "
            "sidewalk passing these checks may still be found defective on other grounds.",
            "Item (c) (horizontal distance) has no 'or more'; it is read as a minimum, like (b) and (d), since a "
            "gap wider than the stated distance cannot be less defective.",
            "'If 60% ... are determined to be defective of insufficient' is garbled; it is read as 'defective or "
            "insufficient', and 'If 60%' as '60% or more'.",
            "The characteristics determine that a sidewalk is defective; repair or replacement is ordered by the "
            "Village Board, which an owner may appeal to the Board of Public Works.",
        ],
    )
    lead = f"{short_name(inp.municipality)}'s defective-sidewalk characteristics: a block is defective when any measurement reaches its " \
           "threshold; the entire sidewalk is replaced when the defective share of the owner's blocks reaches " \
           "the whole-replacement threshold."
    return _finish(out, lead)  # type: ignore[return-value]


# --------------------------------------------------------------------------- sidewalk dimensions


class SidewalkDimensionInput(ToolInput):
    municipality: str = municipality_field("sidewalk_dimension_check", "Municipality id or name; the tool's data says which codes it covers.")
    use: Literal["residential", "commercial", "industrial"] = Field(
        description="What the sidewalk fronts: residential, or a commercial or industrial establishment.")
    at_driveway_approach: bool = Field(default=False, description="The section measured is within a driveway approach.")
    thickness_in: Decimal | None = _length("Concrete thickness, inches.")
    width_ft: Decimal | None = _length("Sidewalk width, feet.")
    cross_slope_toward_curb_in_per_ft: Decimal | None = Field(
        default=None, ge=-100, le=100, max_digits=8, decimal_places=4,
        description="Cross slope toward the curb, inches of fall per foot of width (negative: away from the curb).")
    traffic_free_hours: Decimal | None = Field(
        default=None, ge=0, le=10_000, max_digits=8, decimal_places=2,
        description="Hours the new concrete was kept free of all traffic.")

    check_municipality = field_validator("municipality")(_municipality_id)

    @model_validator(mode="after")
    def _something_to_check(self) -> "SidewalkDimensionInput":
        if all(v is None for v in (self.thickness_in, self.width_ft, self.cross_slope_toward_curb_in_per_ft,
                                   self.traffic_free_hours)):
            raise ValueError("give at least one of thickness_in, width_ft, cross_slope_toward_curb_in_per_ft, "
                             "traffic_free_hours")
        return self


class SidewalkDimensionOutput(SpecCheckOutput):
    min_cross_slope_drop_in: Decimal | None = Field(
        default=None, description="Given width_ft: the least fall toward the curb across the whole width, inches "
        "(width x the minimum slope per foot of width).")


@answers_changed_rules("sidewalk_dimension_check")
def sidewalk_dimension_check(inp: SidewalkDimensionInput) -> SidewalkDimensionOutput:
    tool = "sidewalk_dimension_check"
    if (message := not_covered(tool, inp.municipality)):
        return SidewalkDimensionOutput(tool=tool, ok=False, municipality=inp.municipality, error=message)
    key = "sidewalk_residential" if inp.use == "residential" else "sidewalk_commercial"
    thick_field = "driveway_min_thickness_in" if inp.at_driveway_approach else "min_thickness_in"
    where = " within a driveway approach" if inp.at_driveway_approach else ""
    rows = [_at_least("thickness", f"Thickness ({inp.use}{where})", key, thick_field, inp.thickness_in, "in")]
    assumptions = []
    if inp.use == "residential":
        rows.append(_row("width", "Width (residential)", key, measured=inp.width_ft, ok=None,
                         required="'shall match width' (no figure)", unit="ft", status="not_checked",
                         note="The code says residential walks 'shall match width' but gives no width; presumably "
                              "the width of the adjoining walks, which the Village decides."))
        assumptions.append("Residential walks 'shall match width' with no width given: the width is not checked.")
    else:
        rows.append(_at_least("width", f"Width ({inp.use})", key, "min_width_ft", inp.width_ft, "ft"))
    rows.append(_at_least("cross_slope", "Slope toward the curb per foot of width", "sidewalk_cross_slope",
                          "min_in_per_ft", inp.cross_slope_toward_curb_in_per_ft, "in/ft",
                          fail_note="Drainage slope toward the curb is below the minimum (a negative value slopes "
                                    "away from the curb)."))
    rows.append(_at_least("traffic_free", "Kept free from all traffic after pouring", "sidewalk_traffic_free",
                          "min_hours", inp.traffic_free_hours, "hours"))
    assumptions.append("The traffic-free period applies 'at normal temperatures'; colder weather may need longer.")
    drop = None
    if inp.width_ft is not None:
        per_ft = _figure("sidewalk_cross_slope", "min_in_per_ft")
        drop = inp.width_ft * per_ft
        assumptions.append("The least fall toward the curb is the minimum rate times the full width given; the code "
                           "states the rate per foot of width, not a total.")
    out = SidewalkDimensionOutput(tool=tool, municipality=inp.municipality, checks=rows, assumptions=assumptions,
                                  min_cross_slope_drop_in=drop)
    out = _finish(out, f"{short_name(inp.municipality)}'s standard specifications for a {inp.use} sidewalk{where}:")  # type: ignore[assignment]
    if drop is not None:
        out.explanation += (f" Slope toward the curb: {_num(inp.width_ft)} ft of width x {_num(per_ft)} in per foot "
                            f"= at least {_num(drop)} in of fall across the {_num(inp.width_ft)} ft sidewalk.")
    return out


# --------------------------------------------------------------------------- pavement patches


class PavementPatchInput(ToolInput):
    municipality: str = municipality_field("pavement_patch_check", "Municipality id or name; the tool's data says which codes it covers (§ 404-7G).")
    pavement: Literal["bituminous", "concrete", "temporary_cold_mix"] = Field(
        description="Replacement pavement: bituminous, concrete, or the temporary cold-mix winter patch.")
    existing_pavement_depth_in: Decimal | None = _length("Depth of the existing pavement, inches.")
    patch_depth_in: Decimal | None = _length("Depth of the replacement pavement placed, inches.")
    base_layer_in: Decimal | None = _length("Bituminous: base (binder) layer thickness, inches.")
    top_layer_in: Decimal | None = _length("Bituminous: top (surface) layer thickness, inches.")
    surface_deviation_in: Decimal | None = _length(
        "Bituminous: largest deviation under a ten-foot straight edge, inches.")
    contains_calcium_chloride: bool | None = Field(default=None, description="Concrete: the mix contains calcium chloride.")
    traffic_protection_days: Decimal | None = Field(
        default=None, ge=0, le=1000, max_digits=6, decimal_places=2,
        description="Concrete: days the surface was protected from traffic.")

    check_municipality = field_validator("municipality")(_municipality_id)


class PavementPatchOutput(SpecCheckOutput):
    required_depth_in: Decimal | None = Field(
        default=None, description="Depth the patch must reach: the greater of the existing depth and the minimum.")
    depth_is_minimum_only: bool = Field(
        default=False, description="True when no existing depth was given, so the required depth is only the minimum.")
    layer_conflict: bool = Field(
        default=False,
        description="Bituminous: the required depth exceeds what the maximum base and top layers can make.")
    backfill_below_surface_in: Decimal | None = Field(
        default=None, description="Bituminous or concrete: how far below the original surface the backfill stops, "
        "inches: the two crushed-stone layers plus the required pavement depth (§ 404-7G(1)).")


_ONLY_FOR = {
    "base_layer_in": "bituminous", "top_layer_in": "bituminous", "surface_deviation_in": "bituminous",
    "contains_calcium_chloride": "concrete", "traffic_protection_days": "concrete",
}


@answers_changed_rules("pavement_patch_check")
def pavement_patch_check(inp: PavementPatchInput) -> PavementPatchOutput:
    tool = "pavement_patch_check"
    if (message := not_covered(tool, inp.municipality)):
        return PavementPatchOutput(tool=tool, ok=False, municipality=inp.municipality, error=message)
    wrong = [f for f, kind in _ONLY_FOR.items() if getattr(inp, f) is not None and kind != inp.pavement]
    if wrong:
        return PavementPatchOutput(tool=tool, ok=False, municipality=inp.municipality, error=(
            f"{', '.join(wrong)} do(es) not apply to {inp.pavement} pavement: "
            + "; ".join(f"{f} is for {_ONLY_FOR[f]} pavement" for f in wrong) + "."))
    key = {"bituminous": "patch_bituminous_depth", "concrete": "patch_concrete_depth",
           "temporary_cold_mix": "patch_temporary_cold_mix"}[inp.pavement]
    minimum = _figure(key, "min_depth_in")
    assumptions: list[str] = []
    depth = inp.patch_depth_in
    if depth is None and inp.pavement == "bituminous" and inp.base_layer_in is not None \
            and inp.top_layer_in is not None:
        depth = inp.base_layer_in + inp.top_layer_in
        assumptions.append("No patch depth given: the depth is taken as base layer + top layer.")
    if inp.pavement == "temporary_cold_mix":
        required = minimum
        rows = [_at_least("depth", "Cold-mix bituminous temporary surface", key, "min_depth_in", depth, "in")]
        assumptions.append("The temporary surface must be replaced with the permanent pavement by the following "
                           "June 1 (see the deadlines tools).")
        only_min = False
    else:
        existing = inp.existing_pavement_depth_in
        required = max(existing, minimum) if existing is not None else minimum
        only_min = existing is None
        desc = f"{inp.pavement.capitalize()} patch depth (full existing depth or the minimum, whichever is greater)"
        rows = [_at_least("depth", desc, key, "min_depth_in", depth, "in", limit=required)]
        if only_min:
            assumptions.append("No existing pavement depth given: the patch must be at least the minimum, and the "
                               "full existing depth if that is greater.")
    conflict = False
    if inp.pavement == "bituminous":
        lk = "patch_bituminous_layers"
        max_base, max_top = _figure(lk, "max_base_layer_in"), _figure(lk, "max_top_layer_in")
        rows.append(_at_most("base_layer", "Bituminous base (binder) layer", lk, "max_base_layer_in",
                             inp.base_layer_in, "in"))
        rows.append(_at_most("top_layer", "Bituminous top (surface) layer", lk, "max_top_layer_in",
                             inp.top_layer_in, "in"))
        rows.append(_at_most("surface_deviation", "Deviation under a ten-foot straight edge",
                             "patch_bituminous_smoothness", "max_deviation_in", inp.surface_deviation_in, "in"))
        conflict = required > max_base + max_top
        assumptions.append(
            f"The text requires the full existing depth or {_num(minimum)} in, whichever is greater, yet places "
            f"bituminous pavement 'in a maximum of a base layer of {_num(max_base)} inches and a one-inch top "
            f"layer' ({_num(max_base + max_top)} in in all): an existing pavement deeper than that cannot be "
            "matched with those two layers. The depth and the layers are checked separately"
            + ("; here they conflict — ask the Director of Public Works how the extra depth is to be placed."
               if conflict else "."))
    if inp.pavement == "concrete":
        cc = inp.contains_calcium_chloride
        rows.append(_row("no_calcium_chloride", "Concrete contains no calcium chloride",
                         "patch_concrete_calcium_chloride", measured=None if cc is None else
                         ("contains calcium chloride" if cc else "none"), ok=None if cc is None else not cc,
                         required="no calcium chloride"))
        rows.append(_at_least("traffic_protection", "Surface protected from traffic", "patch_concrete_traffic",
                              "min_days", inp.traffic_protection_days, "days"))
    backfill = None
    if inp.pavement != "temporary_cold_mix":
        bk = "patch_backfill_allowance"
        coarse, fine = _figure(bk, "coarse_stone_layer_in"), _figure(bk, "fine_stone_layer_in")
        backfill = coarse + fine + required
        assumptions.append(
            "'The thickness of the required pavement structure' in § 404-7G(1) is read as the required patch depth "
            f"({_num(required)} in: the full existing depth or {_num(minimum)} in, whichever is greater)"
            + ("; with no existing depth given it is the minimum, so the backfill may have to stop lower."
               if only_min else "."))
    out = PavementPatchOutput(tool=tool, municipality=inp.municipality, checks=rows, required_depth_in=required,
                              depth_is_minimum_only=only_min, layer_conflict=conflict, assumptions=assumptions,
                              backfill_below_surface_in=backfill)
    lead = (f"{short_name(inp.municipality)} § 404-7G, {inp.pavement.replace('_', ' ')} pavement replacement: required depth "
            f"{_num(required)} in" + (" (at least; no existing depth given)" if only_min else "") + ".")
    out = _finish(out, lead)  # type: ignore[assignment]
    if backfill is not None:
        out.explanation += (
            f" Backfill stops {_num(coarse)} in (three-inch crushed stone) + {_num(fine)} in (three-fourths-inch "
            f"crushed stone) + {_num(required)} in (pavement) = {_num(backfill)} in below the original surface.")
        out.citations.append(_cite("patch_backfill_allowance"))
    return out  # type: ignore[return-value]


# --------------------------------------------------------------------------- obstructions


class ObstructionInput(ToolInput):
    municipality: str = municipality_field("obstruction_check", "Municipality id or name; the tool's data says which codes it covers (§ 404-8, § 404-9).")
    situation: Literal["building_materials", "street_privilege_permit", "sidewalk_fixture"] = Field(
        description="'building_materials': materials stored for the period the Clerk authorizes (§ 404-8); "
        "'street_privilege_permit': obstruction under a street privilege permit (§ 404-9); "
        "'sidewalk_fixture': a fixture an owner places on the sidewalk (§ 404-8 standards).")
    sidewalk_width_ft: Decimal | None = _length("Full sidewalk width, feet.")
    sidewalk_obstructed_width_ft: Decimal | None = _length("Width of sidewalk obstructed, feet.")
    street_width_ft: Decimal | None = _length(
        "Street width, feet (building materials: the traveled portion; permit: the whole street or alley).")
    street_obstructed_width_ft: Decimal | None = _length("Width of street obstructed, feet.")
    unobstructed_sidewalk_width_ft: Decimal | None = _length(
        "Fixture: narrowest unobstructed sidewalk width left, feet (default: width minus obstructed width).")
    temporary_sidewalk_width_ft: Decimal | None = _length("Permit: width of a temporary sidewalk provided, feet.")
    temporary_fence_height_ft: Decimal | None = _length(
        "Permit: height of the closed fence guarding the temporary sidewalk, feet.")
    commercial_area: bool | None = Field(default=None, description="Fixture: the property is in a commercial area.")
    fixture_attached: bool | None = Field(
        default=None, description="Fixture: physically attached to the sidewalk, a street fixture or a building.")
    interferes_with_gutter_flow: bool | None = Field(
        default=None, description="Building materials: they interfere with the flow in the gutters.")

    check_municipality = field_validator("municipality")(_municipality_id)

    @model_validator(mode="after")
    def _widths(self) -> "ObstructionInput":
        for part, whole in (("sidewalk_obstructed_width_ft", "sidewalk_width_ft"),
                            ("street_obstructed_width_ft", "street_width_ft"),
                            ("unobstructed_sidewalk_width_ft", "sidewalk_width_ft")):
            p, w = getattr(self, part), getattr(self, whole)
            if p is not None and w is not None and p > w:
                raise ValueError(f"{part} ({p}) exceeds {whole} ({w})")
        return self


def _fraction_row(rid: str, desc: str, key: str, field: str, part: Decimal | None, whole: Decimal | None,
                  what: str) -> SpecCheck:
    frac = _fraction(key, field)
    if part is None or whole is None:
        return _row(rid, desc, key, measured=None, ok=None, required=f"not more than {frac} of the {what}",
                    note=f"Give both the {what} width and the obstructed width.")
    if whole == 0:
        return _row(rid, desc, key, measured=None, ok=None, required=f"not more than {frac} of the {what}",
                    note=f"The {what} width is 0.")
    share = Fraction(part) / Fraction(whole)
    allowed = Fraction(whole) * frac
    return _row(rid, desc, key, measured=f"{_num(part)} ft of {_num(whole)} ft ({float(share):.1%})",
                ok=share <= frac, required=f"not more than {frac} of the {what} ({float(allowed):.2f} ft)",
                limit=Decimal(frac.numerator) / Decimal(frac.denominator), unit="fraction",
                fail_note=f"Obstructs {float(share):.1%} of the {what}; at most {float(allowed):.2f} ft may be used.")


class ObstructionOutput(SpecCheckOutput):
    max_sidewalk_obstruction_ft: Decimal | None = Field(
        default=None, description="Given sidewalk_width_ft: the most of the sidewalk's width that may be obstructed, "
        "feet (building materials: 1/2 of it; a fixture: what leaves the minimum clear width; a street privilege "
        "permit: none is given, sidewalk traffic shall not be interrupted). Rounded down to 0.01 ft.")
    max_street_obstruction_ft: Decimal | None = Field(
        default=None, description="Given street_width_ft: the most of the street's width that may be obstructed, "
        "feet (building materials: 1/3 of the traveled portion; a street privilege permit: 1/3 of the street or "
        "alley). Rounded down to 0.01 ft.")


def _allowed_widths(inp: ObstructionInput) -> tuple[Decimal | None, Decimal | None, list[str], list[str]]:
    """(max sidewalk ft, max street ft, explanation sentences, assumptions) for the situation."""
    side = street = None
    said: list[str] = []
    rounded = False
    w, s = inp.sidewalk_width_ft, inp.street_width_ft
    if inp.situation == "building_materials":
        k = "obstruction_building_materials"
        if w is not None:
            frac = _fraction(k, "max_sidewalk_fraction")
            side, exact = _share_of(w, frac)
            rounded |= not exact
            said.append(f"{frac} of the sidewalk: at most {_num(side)} ft of the {_num(w)} ft sidewalk")
        if s is not None:
            frac = _fraction(k, "max_street_fraction")
            street, exact = _share_of(s, frac)
            rounded |= not exact
            said.append(f"{frac} of the traveled portion of the street: at most {_num(street)} ft of the "
                        f"{_num(s)} ft traveled street")
    elif inp.situation == "street_privilege_permit":
        if s is not None:
            frac = _fraction("privilege_street_fraction", "max_street_fraction")
            street, exact = _share_of(s, frac)
            rounded |= not exact
            said.append(f"{frac} of the street or alley: at most {_num(street)} ft of the {_num(s)} ft street")
        if w is not None:
            said.append("no share of the sidewalk (sidewalk traffic shall not be interrupted; a fenced temporary "
                        "sidewalk may be provided instead)")
    elif w is not None:
        clear = _figure("fixture_clear_width", "min_clear_width_ft")
        side = max(w - clear, Decimal(0))
        said.append(f"the fixture must leave {_num(clear)} ft clear: at most {_num(side)} ft of the {_num(w)} ft "
                    "sidewalk (" + f"{_num(w)} - {_num(clear)}" + (")" if w >= clear else "; the walk is narrower "
                    "than the clear width, so no fixture fits)"))
    notes = ["Allowed widths that do not come out exact are rounded down to 0.01 ft."] if rounded else []
    return side, street, said, notes


@answers_changed_rules("obstruction_check")
def obstruction_check(inp: ObstructionInput) -> ObstructionOutput:
    tool = "obstruction_check"
    if (message := not_covered(tool, inp.municipality)):
        return ObstructionOutput(tool=tool, ok=False, municipality=inp.municipality, error=message)
    rows: list[SpecCheck] = []
    assumptions: list[str] = []
    if inp.situation == "building_materials":
        k = "obstruction_building_materials"
        rows.append(_fraction_row("sidewalk_share", "Sidewalk obstructed by building materials", k,
                                  "max_sidewalk_fraction", inp.sidewalk_obstructed_width_ft, inp.sidewalk_width_ft,
                                  "sidewalk"))
        rows.append(_fraction_row("street_share", "Traveled street obstructed by building materials", k,
                                  "max_street_fraction", inp.street_obstructed_width_ft, inp.street_width_ft,
                                  "traveled portion of the street"))
        g = inp.interferes_with_gutter_flow
        rows.append(_row("gutter_flow", "Gutter flow not interfered with", k, measured=g,
                         ok=None if g is None else not g, required="no interference with the flow in the gutters"))
        assumptions.append("§ 404-8 lets building materials take part of the sidewalk, while under a street "
                           "privilege permit (§ 404-9) sidewalk traffic 'shall not be interrupted'; this check "
                           "applies § 404-8 only (materials for the period the Village Clerk authorizes).")
    elif inp.situation == "street_privilege_permit":
        k = "privilege_street_fraction"
        rows.append(_fraction_row("street_share", "Street or alley covered by the temporary obstruction", k,
                                  "max_street_fraction", inp.street_obstructed_width_ft, inp.street_width_ft,
                                  "street or alley"))
        ks = "privilege_sidewalk_traffic"
        min_w, min_h = _figure(ks, "min_temporary_width_ft"), _figure(ks, "min_fence_height_ft")
        blocked, width = inp.sidewalk_obstructed_width_ft, inp.sidewalk_width_ft
        has_temp = inp.temporary_sidewalk_width_ft is not None
        if has_temp:
            rows.append(_at_least("temporary_sidewalk_width", "Temporary sidewalk width", ks,
                                  "min_temporary_width_ft", inp.temporary_sidewalk_width_ft, "ft"))
            rows.append(_at_least("temporary_fence_height", "Closed fence on both sides of the temporary sidewalk",
                                  ks, "min_fence_height_ft", inp.temporary_fence_height_ft, "ft"))
        elif blocked is not None and blocked > 0:
            fully = width is not None and blocked >= width
            rows.append(_row(
                "sidewalk_traffic", "Sidewalk traffic not interrupted", ks,
                measured=f"{_num(blocked)} ft of sidewalk obstructed", ok=False if fully else None,
                required=f"sidewalk traffic not interrupted, or a temporary sidewalk at least {_num(min_w)} ft wide "
                         f"with a closed fence at least {_num(min_h)} ft high on both sides",
                fail_note="The sidewalk is fully obstructed and no temporary sidewalk is provided.",
                note=None if fully else "Part of the sidewalk is obstructed and no temporary sidewalk is given; "
                     "whether that 'interrupts' sidewalk traffic is not defined by the code.",
            ))
        else:
            rows.append(_row("sidewalk_traffic", "Sidewalk traffic not interrupted", ks,
                             measured=None if blocked is None else "no sidewalk obstructed",
                             ok=None if blocked is None else True,
                             required="sidewalk traffic not interrupted",
                             note="Give sidewalk_obstructed_width_ft." if blocked is None else None))
        assumptions.append("§ 404-9 measures the obstruction against 'any street or alley' (the whole width), "
                           "while § 404-8 measures building materials against the 'traveled portion'; give the "
                           "whole street width here.")
        assumptions.append("§ 404-8 lets building materials take part of the sidewalk, but under a street "
                           "privilege permit sidewalk traffic 'shall not be interrupted': this check applies § 404-9.")
    else:
        clear = inp.unobstructed_sidewalk_width_ft
        if clear is None and inp.sidewalk_width_ft is not None and inp.sidewalk_obstructed_width_ft is not None:
            clear = inp.sidewalk_width_ft - inp.sidewalk_obstructed_width_ft
            inches = (clear * 12).quantize(Decimal("0.1")).normalize()
            assumptions.append(f"Unobstructed width taken as sidewalk width minus obstructed width ({_num(clear)} ft, "
                               f"{_num(inches)} inches); the code requires it 'at any point', so give the narrowest "
                               "point.")
        c = inp.commercial_area
        rows.append(_row("commercial_area", "Property in an area used for commercial uses", "fixture_commercial_area",
                         measured=c, ok=c, required="commercial area"))
        a = inp.fixture_attached
        rows.append(_row("not_attached", "Fixture not attached to the sidewalk, a street fixture or a building",
                         "fixture_not_attached", measured=a, ok=None if a is None else not a,
                         required="not attached, temporary design"))
        rows.append(_at_least("clear_width", "Unobstructed sidewalk width at every point", "fixture_clear_width",
                              "min_clear_width_ft", clear, "ft"))
        assumptions.append("The fixture must also not 'significantly impede' pedestrian flow, which has no figure.")
    side, street, said, notes = _allowed_widths(inp)
    out = ObstructionOutput(tool=tool, municipality=inp.municipality, checks=rows, assumptions=assumptions + notes,
                            max_sidewalk_obstruction_ft=side, max_street_obstruction_ft=street)
    lead = f"{short_name(inp.municipality)} obstruction rules, {inp.situation.replace('_', ' ')}:"
    if said:
        lead = f"{short_name(inp.municipality)} obstruction rules, {inp.situation.replace('_', ' ')}: allowed " + "; ".join(said) + \
            ". Checked:"
    return _finish(out, lead)  # type: ignore[return-value]


# --------------------------------------------------------------------------- trenches


class TrenchInput(ToolInput):
    municipality: str = municipality_field("trench_check", "Municipality id or name; the tool's data says which codes it covers (§ 404-7).")
    excavated_ahead_of_pipe_ft: Decimal | None = _length("Trench excavated in advance of pipe or conduit laying, feet.")
    unfilled_behind_pipe_ft: Decimal | None = _length("Trench left unfilled behind laid pipe or conduit, feet.")
    special_permission: bool = Field(
        default=False, description="The Director of Public Works gave special permission for longer trenches.")
    backfill_layer_in: Decimal | None = _length("Thickness of each compacted backfill layer, inches.")
    compaction_percent: Decimal | None = Field(
        default=None, ge=0, le=200, max_digits=6, decimal_places=2,
        description="Dry density achieved, % of the Modified Proctor maximum dry density.")
    largest_stone_in: Decimal | None = _length("Largest rock or stone in the backfill, inches.")

    check_municipality = field_validator("municipality")(_municipality_id)


@answers_changed_rules("trench_check")
def trench_check(inp: TrenchInput) -> SpecCheckOutput:
    tool = "trench_check"
    if (message := not_covered(tool, inp.municipality)):
        return _wrong_place(tool, inp.municipality, message)
    k = "trench_lengths"
    rows = [
        _at_most("ahead_of_pipe", "Trench excavated ahead of pipe or conduit laying", k, "max_ahead_ft",
                 inp.excavated_ahead_of_pipe_ft, "ft"),
        _at_most("unfilled_behind_pipe", "Trench left unfilled behind laid pipe or conduit", k,
                 "max_unfilled_behind_ft", inp.unfilled_behind_pipe_ft, "ft"),
    ]
    if inp.special_permission:
        rows = [r.model_copy(update={"status": "waived", "note": "Special permission from the Director of Public "
                                     "Works lifts this limit."}) for r in rows]
    rows.append(_at_most("backfill_layer", "Compacted backfill layer thickness", "backfill_compaction",
                         "max_layer_in", inp.backfill_layer_in, "in"))
    rows.append(_at_least("compaction", "Dry density, % of Modified Proctor maximum", "backfill_compaction",
                          "min_compaction_percent", inp.compaction_percent, "%",
                          fail_note="Backfill not achieving the compaction shall be removed and recompacted by the "
                                    "permittee."))
    rows.append(_at_most("largest_stone", "Largest rock or stone in the backfill", "backfill_stones", "max_stone_in",
                         inp.largest_stone_in, "in"))
    out = SpecCheckOutput(tool=tool, municipality=inp.municipality, checks=rows, assumptions=[
        "'No trench ... more than' the stated lengths: a trench of exactly the stated length complies.",
    ])
    return _finish(out, f"{short_name(inp.municipality)} § 404-7 trench and backfill limits:")


# --------------------------------------------------------------------------- Delafield driveways


class DrivewayInput(ToolInput):
    municipality: str = municipality_field("driveway_check", "Municipality id or name; the tool's data says which codes it covers (DRIVEWAYS AND CULVERTS).")
    slope_percent: Decimal | None = Field(
        default=None, ge=0, le=100, max_digits=6, decimal_places=3,
        description="Steepest grade of the driveway, percent (rise/run x 100, either direction).")
    rise_ft: Decimal | None = _length(
        "Vertical rise (or fall) over the steepest stretch, feet; give with run_ft to compute the slope.")
    run_ft: Decimal | None = Field(
        default=None, gt=0, le=10_000, max_digits=10, decimal_places=4,
        description="Horizontal run of that same stretch, feet (more than 0); give with rise_ft.")
    concrete_distance_from_road_hard_surface_ft: Decimal | None = _length(
        "Concrete surfacing only: distance from the road's hard surface to the concrete, feet.")
    concrete_permit_obtained: bool | None = Field(
        default=None, description="Concrete surfacing only: permit obtained from the Building Inspector.")
    culvert_diameter_in: Decimal | None = _length(
        "Culvert size, inches (round pipe diameter, or the diameter of a round pipe with equal cross section).")
    culvert_material: Literal["corrugated_metal", "reinforced_concrete", "plastic", "other"] | None = Field(
        default=None, description="Culvert pipe material.")
    end_guards: Literal["concrete", "steel", "none", "other"] | None = Field(
        default=None, description="Material of the culvert's end guards, or none.")
    end_guards_beyond_street_height: bool | None = Field(
        default=None, description="The end guards rise beyond street height.")
    concrete_over_culvert: bool | None = Field(
        default=None, description="Concrete surfacing laid over the culvert within the road right-of-way.")

    check_municipality = field_validator("municipality")(_municipality_id)

    @model_validator(mode="after")
    def _rise_with_run(self) -> "DrivewayInput":
        if self.rise_ft is not None and self.run_ft is None:
            raise ValueError("give run_ft with rise_ft (the slope is rise / run x 100), or run_ft alone for the most "
                             "rise the limit allows over it")
        return self


class DrivewayOutput(SpecCheckOutput):
    slope_percent_computed: Decimal | None = Field(
        default=None, description="Given rise_ft and run_ft: rise / run x 100, percent, rounded to 2 decimals "
        "(the check itself uses the exact ratio).")
    max_rise_ft: Decimal | None = Field(
        default=None, description="Given run_ft alone: the most rise (or fall) the slope limit allows over that run, "
        "feet (run x limit / 100, exact).")
    slope_limit_percent: Decimal | None = Field(default=None, description="The slope limit, percent.")
    slope_gap_percent: Decimal | None = Field(
        default=None, description="Given rise_ft and run_ft: how far the computed slope is from the limit, percentage "
        "points (|computed - limit|, both as rounded to 2 decimals).")


@answers_changed_rules("driveway_check")
def driveway_check(inp: DrivewayInput) -> DrivewayOutput:
    tool = "driveway_check"
    if (message := not_covered(tool, inp.municipality)):
        return DrivewayOutput(tool=tool, ok=False, municipality=inp.municipality, error=message)
    limit = _figure("driveway_slope", "max_slope_percent")
    computed = exact = gap = None
    slope_said = ""
    if inp.rise_ft is not None and inp.run_ft is not None:
        exact = inp.rise_ft / inp.run_ft * 100
        computed = exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        approx = "" if exact == computed else "about "
        gap = abs(computed - limit)
        verdict = (f"{_num(gap)} % more than the {_num(limit)} % limit" if exact > limit else
                   f"within the {_num(limit)} % limit ({_num(gap)} % under it)" if exact < limit else
                   f"within the {_num(limit)} % limit (exactly at it)")
        slope_said = (f" Slope from rise and run: {_num(inp.rise_ft)} ft / {_num(inp.run_ft)} ft x 100 = "
                      f"{approx}{_num(computed)} %, {verdict}.")
        if inp.slope_percent is not None and \
                inp.slope_percent.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) != computed:
            error = (f"slope_percent ({_num(inp.slope_percent)} %) differs from the slope of rise_ft and run_ft "
                     f"({_num(inp.rise_ft)} / {_num(inp.run_ft)} x 100 = {approx}{_num(computed)} %): give one "
                     "of them, or values that agree.")
            return DrivewayOutput(tool=tool, ok=False, municipality=inp.municipality, error=error, explanation=error,
                                  slope_percent_computed=computed, citations=[_cite("driveway_slope")])
    most = None
    if inp.run_ft is not None and inp.rise_ft is None:
        # "the driveway runs 125 feet up to the garage: how high can the garage sit?": the limit over that run
        most = (inp.run_ft * limit / 100).normalize()
        slope_said = (f" Over a run of {_num(inp.run_ft)} ft, a slope of at most {_num(limit)} % allows a rise of at most "
                      f"{_num(inp.run_ft)} ft x {_num(limit)} / 100 = {_num(most)} ft (on an even grade; no stretch may "
                      f"be steeper).")
    if exact is not None:
        rows = [_row("slope", "Driveway slope at any point", "driveway_slope",
                     measured=f"{_num(inp.rise_ft)} ft rise over {_num(inp.run_ft)} ft run = "  # type: ignore[arg-type]
                              f"{'about ' if exact != computed else ''}{_num(computed)} %",  # type: ignore[arg-type]
                     ok=exact <= limit, required=f"at most {_num(limit)} %", limit=limit, unit="%",
                     fail_note=f"Steeper than {_num(limit)} %: the slope is rise / run x 100 = "
                               f"{_num(computed)} %.")]  # type: ignore[arg-type]
    else:
        rows = [_at_most("slope", "Driveway slope at any point", "driveway_slope", "max_slope_percent",
                         inp.slope_percent, "%")]
    concrete = inp.concrete_distance_from_road_hard_surface_ft is not None or inp.concrete_permit_obtained is not None
    if concrete:
        rows.append(_at_least("concrete_setback", "Concrete surfacing distance from the road's hard surface",
                              "driveway_concrete_setback", "min_distance_ft",
                              inp.concrete_distance_from_road_hard_surface_ft, "ft"))
        p = inp.concrete_permit_obtained
        rows.append(_row("concrete_permit", "Permit from the Building Inspector for a concrete driveway",
                         "driveway_concrete_permit", measured=p, ok=p, required="permit obtained"))
    k = "culvert_pipe"
    rows.append(_at_least("culvert_size", "Culvert cross section", k, "min_diameter_in", inp.culvert_diameter_in, "in",
                          fail_note=f"Smaller than the cross section of a {_num(_figure(k, 'min_diameter_in'))}-inch "
                                    "pipe."))
    m = inp.culvert_material
    rows.append(_row("culvert_material", "Culvert of corrugated metal pipe", k,
                     measured=None if m is None else m.replace("_", " "),
                     ok=None if m is None else m == "corrugated_metal", required="corrugated metal pipe",
                     fail_note="A driveway culvert shall be corrugated metal pipe (the road standards' allowance of "
                               "reinforced concrete pipe concerns culverts of roads built for the Town)."))
    g = inp.end_guards
    rows.append(_row("end_guards", "End guards of concrete or steel", "culvert_end_guards", measured=g,
                     ok=None if g is None else g in ("concrete", "steel"), required="end guards of concrete or steel"))
    b = inp.end_guards_beyond_street_height
    rows.append(_row("end_guard_height", "End guards not beyond street height", "culvert_end_guards", measured=b,
                     ok=None if b is None else not b, required="not beyond street height"))
    c = inp.concrete_over_culvert
    rows.append(_row("no_concrete_over_culvert", "No concrete surfacing over the culvert in the right-of-way",
                     "culvert_no_concrete_over", measured=c, ok=None if c is None else not c,
                     required="no concrete over the culvert"))
    assumptions = [
        "The slope limit is part of the definition of safe vehicular access for a building site's paved "
        "driveway ('at any such point'); it is applied to the steepest point.",
        "The culvert's minimum cross section ('not less than that of a "
        f"{_num(_figure(k, 'min_diameter_in'))}\" pipe') is compared as the diameter of an equivalent round pipe.",
        "A culvert is required only 'where necessary'; its length is set by the Town Highway Superintendent.",
    ]
    out = DrivewayOutput(tool=tool, municipality=inp.municipality, checks=rows, slope_percent_computed=computed,
                         assumptions=assumptions, max_rise_ft=most, slope_limit_percent=limit, slope_gap_percent=gap)
    if exact is not None:
        out.assumptions.append("The slope is the rise over the horizontal run given (rise / run x 100); measure "
                               "the steepest stretch, since the limit applies 'at any such point'.")
    out = _finish(out, f"{short_name(inp.municipality)} driveway and culvert requirements:")  # type: ignore[assignment]
    out.explanation += slope_said
    return out


# --------------------------------------------------------------------------- Delafield heavy vehicles


class HeavyVehicleInput(ToolInput):
    municipality: str = municipality_field("heavy_vehicle_check", "Municipality id or name; the tool's data says which codes it covers.")
    gross_weight_tons: Decimal = Field(
        ge=0, le=1000, max_digits=8, decimal_places=3, description="Weight of the machine or vehicle, tons (2,000 lb).")
    lugged_wheels: bool = Field(default=False, description="The machine has lugged wheels.")
    temporary_limit_posted: bool = Field(
        default=False, description="The Town road, bridge or culvert is posted with a temporary weight limit.")
    has_permit: bool | None = Field(
        default=None, description="A Town permit (with its route) has been secured for the machine.")
    has_special_permit: bool | None = Field(
        default=None, description="A special (emergency) permit to exceed a posted temporary limit.")

    check_municipality = field_validator("municipality")(_municipality_id)


class HeavyVehicleOutput(SpecCheckOutput):
    permit_required: bool | None = Field(default=None, description="A Town permit specifying the route is required.")
    exceeds_temporary_limit: bool | None = Field(
        default=None, description="Over the temporary limit on a posted road (null if none is posted).")
    tons_over_limit: Decimal | None = Field(
        default=None, description="Gross weight minus the temporary weight limit when over it, else 0, tons "
        "(given whether or not a limit is posted: how far over a posted road's limit the vehicle would be).")
    tons_over_permit_weight: Decimal | None = Field(
        default=None, description="Weight minus the weight above which a Town permit is required, when over it, "
        "else 0, tons.")
    pounds_over_limit: Decimal | None = Field(
        default=None, description="tons_over_limit in pounds (short tons of 2,000 lb).")


def _whole_if_whole(x: Decimal) -> Decimal:
    """700.00 as 700 (not 7E+2), 700.5 as it is."""
    return x.quantize(Decimal(1)) if x == x.to_integral_value() else x


@answers_changed_rules("heavy_vehicle_check")
def heavy_vehicle_check(inp: HeavyVehicleInput) -> HeavyVehicleOutput:
    tool = "heavy_vehicle_check"
    if (message := not_covered(tool, inp.municipality)):
        return HeavyVehicleOutput(tool=tool, ok=False, municipality=inp.municipality, error=message)
    k = "heavy_vehicle_permit"
    over = _figure(k, "permit_over_tons")
    w = inp.gross_weight_tons
    needed = inp.lugged_wheels or w > over
    why = []
    if w > over:
        # by how much only where no posted limit is the question (a posted road's excess is the figure then)
        why.append(f"weighs {_num(w)} tons, more than {_num(over)}" if inp.temporary_limit_posted else
                   f"weighs {_num(w)} tons, {_num(w - over)} tons more than {_num(over)}")
    if inp.lugged_wheels:
        why.append("has lugged wheels")
    rows: list[SpecCheck] = []
    if needed:
        p = inp.has_permit
        rows.append(_row("permit", "Town permit for a heavy or lugged-wheel machine", k,
                         measured=None if p is None else ("permit secured" if p else "no permit"),
                         ok=p, required="permit secured first, specifying the route",
                         fail_note="Not to be driven on any street, alley or public place without the permit; the "
                                   "permit's route must be kept.",
                         note=None if p is not None else "A permit is required (the machine " + " and ".join(why)
                                                        + "); say whether one was secured."))
    else:
        rows.append(_row("permit", "Town permit for a heavy or lugged-wheel machine", k,
                         measured=f"{_num(w)} tons, no lugged wheels", ok=True,
                         required=f"permit if over {_num(over)} tons or with lugged wheels",
                         note="No permit needed: not more than the weight and no lugged wheels."))
    exceeds = None
    kt = "temporary_weight_limit"
    limit = _figure(kt, "max_gross_tons")
    if inp.temporary_limit_posted:
        exceeds = w > limit
        sp = inp.has_special_permit
        if not exceeds:
            rows.append(_row("temporary_limit", "Gross weight within the posted temporary limit", kt,
                             measured=w, ok=True, required=f"at most {_num(limit)} tons", limit=limit, unit="tons"))
        else:
            rows.append(_row("temporary_limit", "Gross weight within the posted temporary limit",
                             "temporary_weight_special_permit", measured=w, ok=None if sp is None else sp,
                             required=f"at most {_num(limit)} tons, or a special permit (emergency only)",
                             limit=limit, unit="tons",
                             fail_note="Over the temporary limit without a special permit; a special permit is "
                                       "granted only in an emergency.",
                             note=None if sp is not None else "Over the temporary limit: a special permit, granted "
                                                              "only in an emergency, is needed."))
    else:
        rows.append(_row("temporary_limit", "Gross weight within a posted temporary limit", kt, measured=w, ok=None,
                         status="not_applicable", required=f"at most {_num(limit)} tons where posted",
                         limit=limit, unit="tons", note="No temporary weight limit posted on the route."))
    over_by = max(w - limit, Decimal(0))
    out = HeavyVehicleOutput(tool=tool, municipality=inp.municipality, checks=rows, permit_required=needed,
                             exceeds_temporary_limit=exceeds, tons_over_limit=over_by,
                             pounds_over_limit=_whole_if_whole(over_by * 2000),
                             tons_over_permit_weight=max(w - over, Decimal(0)), assumptions=[
                                 "Tons are short tons of 2,000 lb, as in Wisconsin's vehicle laws.",
                                 f"'Weighing more than {_num(over)} tons' excludes exactly {_num(over)} tons; the "
                                 f"temporary limit 'not more than {_num(limit)} tons' allows exactly {_num(limit)} "
                                 "tons.",
                                 "The permit rule speaks of the machine's weight, the temporary limit of gross "
                                 "vehicular weight; one weight is used for both.",
                             ])
    lead = (f"{short_name(inp.municipality)} heavy vehicle rules: a Town permit is "
            + (f"required (the machine {' and '.join(why)})." if needed else
               f"not required (not more than {_num(over)} tons, no lugged wheels).")
            + (f" It is over the posted temporary limit of {_num(limit)} tons." if exceeds else "")
            + (f" It is within the posted temporary limit of {_num(limit)} tons." if exceeds is False else ""))
    out = _finish(out, lead)  # type: ignore[assignment]
    posted = "the posted" if inp.temporary_limit_posted else "a posted"
    if over_by > 0:
        out.explanation += (
            f" Weight against {posted} temporary limit: {_num(w)} - {_num(limit)} = {_num(over_by)} tons over; on a "
            "road so posted it may run only with a special permit, which the Town grants only when an emergency "
            "requires the vehicle.")
        special = _cite("temporary_weight_special_permit")
        if special not in out.citations:
            out.citations.append(special)
    else:
        out.explanation += (f" Weight against {posted} temporary limit: {_num(w)} tons is not more than "
                            f"{_num(limit)} tons (0 tons over).")
    return out  # type: ignore[return-value]


# --------------------------------------------------------------------------- Delafield road construction


class RoadConstructionInput(ToolInput):
    municipality: str = municipality_field("road_construction_check", "Municipality id or name; the tool's data says which codes it covers (STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS (4)).")
    wet_area: bool = Field(
        description="The road crosses an area that is wet or seasonably wet (where the Town Board may direct a "
        "layer of no. 2 stone below the crushed aggregate).")
    initial_lift_in: Decimal | None = _length(
        "Thickness of the initial bituminous lift as placed (e.g. found by coring), inches.")
    final_deficiency_in: Decimal | None = _length(
        "How much the final asphalt thickness falls short of the requirement, inches (0: not deficient).")

    check_municipality = field_validator("municipality")(_municipality_id)


class RoadConstructionOutput(SpecCheckOutput):
    aggregate_depth_in: Decimal | None = Field(
        default=None, description="Stone under the pavement, inches: the crushed aggregate (two lifts) plus, in a "
        "wet area, the no. 2 stone layer below it.")
    required_initial_lift_in: Decimal | None = Field(
        default=None, description="Thickness of the first lift of bituminous concrete, inches.")
    stone_and_first_lift_in: Decimal | None = Field(
        default=None, description="The stone (aggregate_depth_in) and the first bituminous lift together, inches.")
    initial_lift_deficiency_in: Decimal | None = Field(
        default=None, description="Given initial_lift_in: how much thinner than required it is (0 if not); the "
        "final lift is increased in proportion, as the Town Engineer determines.")
    corrective_lift_in: Decimal | None = Field(
        default=None, description="Given final_deficiency_in: thickness of the lift over the entire roadway that "
        "remedies it (equal to the deficiency, never less than the minimum); 0 when not deficient.")


@answers_changed_rules("road_construction_check")
def road_construction_check(inp: RoadConstructionInput) -> RoadConstructionOutput:
    tool = "road_construction_check"
    if (message := not_covered(tool, inp.municipality)):
        return RoadConstructionOutput(tool=tool, ok=False, municipality=inp.municipality, error=message)
    ka, kl, kw = "road_aggregate_base", "road_aggregate_lifts", "road_wet_area_stone"
    base = _figure(ka, "min_depth_in")
    lower, top = _figure(kl, "lower_lift_in"), _figure(kl, "top_lift_in")
    stone = _figure(kw, "layer_in")
    depth = base + stone if inp.wet_area else base
    rows = [
        _row("aggregate_base", "Crushed aggregate on the approved subgrade, in 2 lifts", ka, measured=None, ok=None,
             required=f"at least {_num(base)} in", limit=base, unit="in",
             note="Figure stated; no measurement given."),
        _row("aggregate_lifts", "Lower lift gradation no. 1, top lift gradation no. 2", kl, measured=None, ok=None,
             required=f"{_num(lower)} in + {_num(top)} in", limit=lower + top, unit="in",
             note="Figure stated; no measurement given."),
    ]
    if inp.wet_area:
        rows.append(_row("wet_area_stone", "Layer of no. 2 stone below the aggregate in a wet area", kw,
                         measured=None, ok=None, required=f"{_num(stone)} in, at the direction of the Town Board",
                         limit=stone, unit="in", note="Placed when the Town Board directs it."))
    kb, ki, kf = "road_bituminous_lift", "road_initial_lift_deficiency", "road_final_deficiency"
    lift = _figure(kb, "lift_in")
    rows.append(_row("bituminous_lift", "Lift of bituminous concrete on the approved aggregate", kb, measured=None,
                     ok=None, required=f"{_num(lift)} in", limit=lift, unit="in",
                     note="Figure stated; the initial lift is checked below when its thickness is given."))
    shortfall = None
    said = [f"aggregate {_num(lower)} in + {_num(top)} in = {_num(base)} in"
            + (f", plus the {_num(stone)} in no. 2 stone layer in a wet area = {_num(depth)} in" if inp.wet_area
               else "")]
    said.append(f"first bituminous lift {_num(lift)} in")
    if inp.initial_lift_in is not None:
        need = _figure(ki, "min_initial_lift_in")
        shortfall = max(need - inp.initial_lift_in, Decimal(0))
        rows.append(_at_least(
            "initial_lift", "Initial bituminous lift thickness", ki, "min_initial_lift_in", inp.initial_lift_in,
            "in", fail_note=f"{_num(shortfall)} in thinner than {_num(need)} in: the Town Engineer determines the "
            "average deficiency and the final lift is increased in proportion."))
        said.append(f"initial lift {_num(inp.initial_lift_in)} in against {_num(need)} in: "
                    + (f"{_num(need)} - {_num(inp.initial_lift_in)} = {_num(shortfall)} in short, made up in the "
                       "final lift" if shortfall else "not deficient"))
    corrective = None
    if inp.final_deficiency_in is not None:
        least = _figure(kf, "min_corrective_lift_in")
        d = inp.final_deficiency_in
        corrective = max(d, least) if d > 0 else Decimal(0)
        rows.append(_row(
            "final_thickness", "Final asphalt thickness not deficient", kf, measured=f"{_num(d)} in short",
            ok=d == 0, required="no deficiency", fail_note=f"Remedy: a lift of {_num(corrective)} in over the "
            f"entire roadway (equal to the {_num(d)} in deficiency, but not less than {_num(least)} in)."))
        said.append(f"final thickness {_num(d)} in short: "
                    + (f"corrective lift over the entire roadway = the greater of {_num(d)} in and {_num(least)} in "
                       f"= {_num(corrective)} in" if d > 0 else "no corrective lift"))
    assumptions = [
        "These standards apply to a road to be accepted and maintained as a Town highway; the typical section "
        "(Exhibits A and B) and the Town Engineer may require more.",
        'The aggregate depth is the stone under the pavement: the "minimum of 10\"" of crushed aggregate in two '
        "5-inch lifts; a test or added material the Town Board requires to stabilize the road can add to it.",
    ]
    if inp.wet_area:
        assumptions.append(f'In a wet or seasonably wet area the {_num(stone)}" layer of no. 2 stone is placed "at '
                           f'the direction of the Town Board": the {_num(depth)} in assumes the Board so directs; '
                           f"without that direction the aggregate is {_num(base)} in.")
    if inp.initial_lift_in is not None and shortfall:
        assumptions.append("The text makes 'a proportionate increase' in the final lift for an initial-lift "
                           "deficiency without saying how much; the shortfall is reported, and the Town Engineer "
                           "determines the average deficiency from cores.")
    if corrective is not None:
        assumptions.append("final_deficiency_in is the shortfall of the finished asphalt against the required "
                           "thickness, as the Town determines it (e.g. by coring); the remedy lift covers the entire "
                           "roadway.")
    out = RoadConstructionOutput(
        tool=tool, municipality=inp.municipality, checks=rows, aggregate_depth_in=depth, required_initial_lift_in=lift,
        stone_and_first_lift_in=(depth + lift) if depth is not None and lift is not None else None,
        initial_lift_deficiency_in=shortfall, corrective_lift_in=corrective, assumptions=assumptions)
    lead = f"{short_name(inp.municipality)} standards for a road to be accepted as a Town highway: " + "; ".join(said) + ". Checked:"
    return _finish(out, lead)  # type: ignore[return-value]


TOOLS: list[ToolSpec] = [
    ToolSpec(
        name="sidewalk_defect_check",
        description="is a sidewalk block defective (vertical differential, horizontal gap, surface "
        "deterioration), and must the whole sidewalk be replaced (share of defective blocks)?",
        input_model=SidewalkDefectInput, output_model=SidewalkDefectOutput, fn=sidewalk_defect_check,
        keywords=("defective sidewalk", "trip hazard", "uneven", "crack", "gap", "deterioration", "60%",
                  "replace sidewalk", "sidewalk blocks"),
        route=Route(order=74, read="assistant.answering.routes.checks:defects",
                    answers="whether N of M defective blocks mean replacing the whole walk",
                    cues=()),
    ),
    ToolSpec(
        name="sidewalk_dimension_check",
        description="check a new sidewalk's thickness, width, slope toward the curb and curing time "
        "against the standard specifications (residential or commercial/industrial, driveway approaches); given the "
        "width, how many inches the walk must fall toward the curb across it.",
        input_model=SidewalkDimensionInput, output_model=SidewalkDimensionOutput, fn=sidewalk_dimension_check,
        keywords=("sidewalk thickness", "sidewalk width", "slope", "driveway approach", "concrete sidewalk",
                  "commercial sidewalk", "inches thick", "cross slope", "fall toward the curb", "drainage"),
        route=Route(order=72, read="assistant.answering.routes.checks:sidewalk_fall",
                    answers="how far a walk of a stated width must fall toward the curb",
                    cues=(r"\b(drop|slope|fall|pitch|lower)\b", r"sidewalk|walk")),
    ),
    ToolSpec(
        name="pavement_patch_check",
        description="required depth and layers of a street-opening pavement patch (bituminous, concrete "
        "or temporary cold mix) and whether a patch meets them.",
        input_model=PavementPatchInput, output_model=PavementPatchOutput, fn=pavement_patch_check,
        keywords=("patch", "pavement replacement", "asphalt", "bituminous", "concrete", "depth", "layer",
                  "calcium chloride", "cold mix"),
        route=Route(order=73, read="assistant.answering.routes.checks:patch",
                    answers="how deep a patch must be over a stated existing pavement",
                    cues=(r"\bpatch|replacement|restor|backfill|asphalt|blacktop|bituminous",
                          # ("a concrete street that's 6 inches thick": the street's own pavement, as it is)
                          r"existing|current|old|\b(?:street|road|pavement|asphalt|blacktop|concrete|slab)\b[^.?!]{0,30}?"
                          r"(?:\bis\b|'s\b|\bare\b|\bwas\b|\bruns?\b|\bmeasur\w*|,)(?:[^.?!]|\.\d){0,20}\bthick\b")),
    ),
    ToolSpec(
        name="obstruction_check",
        description="how many feet of the sidewalk and street building materials, a street privilege "
        "obstruction or a sidewalk fixture may take (half the sidewalk, a third of the street, three feet clear), "
        "and whether a given obstruction leaves enough.",
        input_model=ObstructionInput, output_model=ObstructionOutput, fn=obstruction_check,
        keywords=("obstruction", "building materials", "dumpster", "encroachment", "fixture", "sidewalk cafe",
                  "street privilege", "temporary sidewalk", "block the sidewalk", "how much of the sidewalk",
                  "how much of the street", "how many feet"),
        route=Route(order=71, read="assistant.answering.routes.checks:obstruction",
                    answers="how many feet of a stated walk and street building materials may take",
                    cues=(r"building materials|materials|lumber|dumpster|planters?|bench|tables|chairs|displays?|racks?|"
                          r"sandwich boards?|fixtures?", r"sidewalk|walk")),
    ),
    ToolSpec(
        name="trench_check",
        description="trench length ahead of pipe laying and left unfilled behind it, and backfill "
        "layer thickness, compaction and stone size.",
        input_model=TrenchInput, output_model=SpecCheckOutput, fn=trench_check,
        keywords=("trench", "open trench", "pipe laying", "conduit", "backfill", "compaction", "feet ahead"),
        route=Route(order=78, read="assistant.answering.routes.checks:trench",
                    answers="a trench's length ahead of the pipe laying or left unfilled behind it, against its limit",
                    cues=(r"trench|excavat|\bdig|backfill", r"pipe|conduit")),
    ),
    ToolSpec(
        name="driveway_check",
        description="driveway slope (given as a percent, or computed from rise and run against the "
        "12% limit), concrete setback from the road's hard surface, and the driveway culvert (size, corrugated "
        "metal, end guards, no concrete over it).",
        input_model=DrivewayInput, output_model=DrivewayOutput, fn=driveway_check,
        keywords=("driveway", "slope", "grade", "culvert", "end guards", "corrugated", "concrete driveway",
                  "12%", "15 inch", "rise", "run", "feet over", "too steep"),
        route=Route(order=75, read="assistant.answering.routes.checks:driveway",
                    answers="whether a driveway's stated slope (or rise over run) is within the limit",
                    cues=(r"driveway|drive\b", r"slope|steep|grade|rise|rises|climb|climbs")),
    ),
    ToolSpec(
        name="heavy_vehicle_check",
        description="whether a heavy or lugged-wheel machine needs a Town permit, whether a vehicle "
        "may use a road posted with a temporary weight limit, and how many tons over that limit it is (a special "
        "permit is granted only in an emergency).",
        input_model=HeavyVehicleInput, output_model=HeavyVehicleOutput, fn=heavy_vehicle_check,
        keywords=("heavy vehicle", "tons", "weight limit", "lugged wheels", "machine", "truck", "permit",
                  "road restriction", "frost law", "tons over", "special permit", "overweight"),
        route=Route(order=76, read="assistant.answering.routes.checks:heavy_vehicle",
                    answers="whether a vehicle of a stated weight needs a permit or exceeds a posted limit",
                    cues=()),
    ),
    ToolSpec(
        name="road_construction_check",
        description="construction standards for a road to be accepted as a Town highway — how many "
        "inches of crushed aggregate (and the wet-area stone layer), how thick the first bituminous lift must be, "
        "and how thick a corrective lift must be when the final asphalt is found too thin.",
        input_model=RoadConstructionInput, output_model=RoadConstructionOutput, fn=road_construction_check,
        keywords=("road construction", "new road", "town highway", "subdivision road", "crushed aggregate",
                  "gravel base", "lift", "asphalt thickness", "bituminous", "wet area", "corrective lift",
                  "deficient", "coring"),
        route=Route(order=77, read="assistant.answering.routes.checks:road_construction",
                    answers="the aggregate and asphalt layers a road needs to be accepted",
                    cues=(r"stone|aggregate|(?<!fork)(?<!fork )lift|too thin|deficien|base course|gravel base|road base",)),
    ),
]
