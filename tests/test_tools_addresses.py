"""Addresses: the Waukesha County uniform address grid (Delafield ch. 8, UNIFORM ADDRESS
SYSTEM) forward and inverse, and the house-number placement checks (Delafield (9),
Brandon § 404-15).

Every expected value below was worked by hand from the block counts of (4)(a)-(c):
west  124 + 16 a section for 6 sections, then 10 a section (220 at the end of the 6th);
north 1 + 11, 11, 8, 9, then 8 a row;   south 1 + 13, 9, then 8 a row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from assistant.corpus import cite, quote_is_verbatim
from assistant.tools import addresses as A
from assistant.tools.addresses import (
    TOOLS,
    AddressFromPositionInput,
    GridBlockLineInput,
    GridDataError,
    ParseAddressInput,
    PlacementInput,
    address_from_position,
    check_house_number_placement,
    grid_block_line,
    load_address_data,
    parse_address,
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
    return [c.id or str(c.input) for c in cases]


# --------------------------------------------------------------------------------------
# The grid data
# --------------------------------------------------------------------------------------


def test_counts_reach_the_county_lines_the_text_names():
    axes = load_address_data().grid.axes
    # derived from county_line and the counts: 6 + 18 sections west, 11 rows north, 13 south
    assert (axes["west"].sections, axes["north"].sections, axes["south"].sections) == (24, 11, 13)
    assert axes["west"].blocks_per_section == (16,) * 6 + (10,) * 18
    assert axes["north"].blocks_per_section == (11, 11, 8, 9) + (8,) * 7
    assert axes["south"].blocks_per_section == (13, 9) + (8,) * 11
    for name, start, end in [("west", 124, 400), ("north", 1, 96), ("south", 1, 111)]:
        axis = axes[name]
        assert axis.line_at(Fraction(0)) == start
        assert axis.line_at(Fraction(axis.sections)) == end
    # end of the sixth section: 124 + 6 x 16 = 220, not the "200" the text states
    assert axes["west"].line_at(Fraction(6)) == 220
    assert axes["west"].distance_of(Fraction(200)) == Fraction(19, 4)


def test_the_200_discrepancy_is_reported():
    notes = load_address_data().grid.axes["west"].tier_discrepancies()
    assert len(notes) == 1
    assert '"200"' in notes[0] and "220" in notes[0] and "18 × 10 = 400" in notes[0]
    out = address_from_position(AddressFromPositionInput(west=1, north=1, street_direction="north-south", side="east"))
    assert any('"200"' in a and "220" in a for a in out.assumptions)
    out = parse_address(ParseAddressInput(address="W305 N1530"))
    assert any('"200"' in a and "220" in a for a in out.assumptions)
    # the north and south counts agree with the text: no note for them
    axes = load_address_data().grid.axes
    assert axes["north"].tier_discrepancies() == [] and axes["south"].tier_discrepancies() == []


def _write_variant(tmp_path: Path, edit) -> str:
    raw = yaml.safe_load(A.DATA_FILE.read_text(encoding="utf-8"))
    edit(raw)
    p = tmp_path / "grid.yaml"
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return str(p)


def test_counts_that_miss_the_county_line_refuse_to_load(tmp_path):
    def edit(raw):
        raw["grid"]["axes"]["north"]["county_line"] = 97  # 95 blocks past row 4 do not split into 8s

    with pytest.raises(GridDataError, match="north|N"):
        load_address_data(_write_variant(tmp_path, edit))


def test_last_tier_must_repeat_to_the_county_line(tmp_path):
    def edit(raw):
        raw["grid"]["axes"]["south"]["tiers"][-1]["sections"] = 11

    with pytest.raises(GridDataError, match="repeat"):
        load_address_data(_write_variant(tmp_path, edit))


def test_every_quote_in_the_data_file_resolves_to_one_passage():
    sources = load_address_data().sources()
    assert len(sources) > 30
    for s in sources:
        c = cite(s.municipality, s.quote, section=s.section, title=s.title)
        assert c.passage_id, s.quote
        assert quote_is_verbatim(c), s.quote


def test_every_placement_rule_names_an_input_field():
    fields = set(PlacementInput.model_fields)
    for rules in load_address_data().placement.values():
        for r in rules:
            assert r.field in fields, r.id
            assert all(c.field in fields for c in r.when), r.id


def test_grid_quotes_come_from_the_uniform_address_system():
    for s in load_address_data().sources():
        c = s.citation()
        if s.municipality == "delafield":
            assert c.title == "UNIFORM ADDRESS SYSTEM"
            assert c.page in (10, 11, 12, 13)
        else:
            assert c.section == "404-15"


# --------------------------------------------------------------------------------------
# Forward: position -> address
# --------------------------------------------------------------------------------------

FORWARD: list[Case] = [
    Case(
        {"west": 5.3, "north": 1.25, "street_direction": "north-south", "side": "east"},
        {"address": "W208 N1476", "block": "W208 N14", "digits_before_parity": 75, "parity": "even"},
        "(4)(a) first 6 sections into 16 blocks: 124 + 5×16 + 0.3×16 = 208.8; (4)(b) 1 + 11 + 0.25×11 = "
        "14.75; (5)(a) east side even, so 75 steps to 76.",
        "worked-example",
    ),
    Case(
        {"west": 5.3, "north": 1.25, "street_direction": "north-south", "side": "west"},
        {"address": "W208 N1475", "parity": "odd"},
        "(5)(a) properties on the ... west sides of streets shall bear odd numbers.",
        "west-side-odd-no-step",
    ),
    Case(
        {"west": 6, "north": 0.5, "unit": "sections", "street_direction": "north-south", "side": "east"},
        {"address": "W220 N650", "west_line": 220.0},
        "(4)(a) the first 6 sections ... 16 blocks each: the sixth section ends at 124 + 96 = 220.",
        "end-of-sixth-section",
    ),
    Case(
        {"west": 31679, "north": 2640, "unit": "feet", "street_direction": "north-south", "side": "east"},
        {"street_designation": "W219", "property_number": "N650"},
        "(4)(a): one foot short of the sixth section line is still in the last 16-block section (219.997).",
        "one-foot-inside-sixth-section",
    ),
    Case(
        {"west": 6.5, "north": 0.5, "street_direction": "north-south", "side": "east"},
        {"address": "W225 N650"},
        "(4)(a) westward through the remaining towns, 10 blocks each: 220 + 0.5×10 = 225.",
        "seventh-section-10-blocks",
    ),
    Case(
        {"west": 2640, "north": 1320, "unit": "feet", "street_direction": "north-south", "side": "east"},
        {"address": "W132 N376"},
        "(4)(a)/(b) in feet: 2640 ft = 0.5 section → 124 + 8; 1320 ft = 0.25 → 1 + 2.75 = 3.75; 75 → 76.",
        "feet",
    ),
    Case(
        {"west": 0, "south": 0.5, "street_direction": "east-west", "side": "north"},
        {"address": "S7 W12400", "block": "W124 S7"},
        "(3)(a) the eastern boundary of Waukesha County ... numerical designation shall be \"124\"; "
        "(4)(c) south row 1 into 13 blocks: 1 + 6.5 = 7.5.",
        "east-county-line-even",
    ),
    Case(
        {"west": 0, "south": 0.5, "street_direction": "east-west", "side": "south"},
        {"address": "S7 W12401", "digits_before_parity": 0},
        "(5)(a) south side odd: 00 steps up to 01 inside the block.",
        "east-county-line-odd-steps-up",
    ),
    Case(
        {"west": 24, "north": 0.5, "street_direction": "east-west", "side": "north"},
        {"address": "N6 W39998", "block": "W399 N6", "west_line": 400.0, "digits_before_parity": 99},
        "(4)(a) \"400\", the latter being at the west edge of the County: the county line stays in block 399.",
        "west-county-line",
    ),
    Case(
        {"west": 24, "north": 0.5, "street_direction": "east-west", "side": "south"},
        {"address": "N6 W39999"},
        "(4)(a) west county line, odd side keeps 99.",
        "west-county-line-odd",
    ),
    Case(
        {"west": 1, "north": 11, "street_direction": "north-south", "side": "east"},
        {"address": "W140 N9598", "north_south_line": 96.0},
        "(4)(b) from \"1\", the base line, to \"96\" at the north County line (11 rows).",
        "north-county-line",
    ),
    Case(
        {"west": 1, "south": 13, "street_direction": "north-south", "side": "west"},
        {"address": "W140 S11099", "north_south_line": 111.0},
        "(4)(c) from \"1\", the base line, to \"111\" at the south County line (13 rows).",
        "south-county-line",
    ),
    Case(
        {"west": 1, "north": 2.5, "street_direction": "north-south", "side": "east"},
        {"address": "W140 N2700"},
        "(4)(b) the third row into 8 blocks: 1 + 22 + 0.5×8 = 27.",
        "north-row-3",
    ),
    Case(
        {"west": 1, "north": 3.5, "street_direction": "north-south", "side": "west"},
        {"address": "W140 N3551"},
        "(4)(b) the fourth row into 9 blocks: 1 + 22 + 8 + 0.5×9 = 35.5; west side odd: 50 → 51.",
        "north-row-4",
    ),
    Case(
        {"west": 1, "north": 4.5, "street_direction": "north-south", "side": "east"},
        {"address": "W140 N4400"},
        "(4)(b) from and including the fifth row ... 8 blocks each: 1 + 39 + 0.5×8 = 44.",
        "north-row-5",
    ),
    Case(
        {"west": 1, "south": 1.5, "street_direction": "north-south", "side": "east"},
        {"address": "W140 S1850"},
        "(4)(c) the second row into 9 blocks: 1 + 13 + 0.5×9 = 18.5.",
        "south-row-2",
    ),
    Case(
        {"west": 1, "south": 2.5, "street_direction": "north-south", "side": "east"},
        {"address": "W140 S2700"},
        "(4)(c) from and including the third row ... 8 blocks each: 1 + 22 + 0.5×8 = 27.",
        "south-row-3",
    ),
    Case(
        {"west": 1, "north": 0, "street_direction": "north-south", "side": "east"},
        {"address": "W140 N100"},
        "(3)(a) the base line's numerical designation shall be \"1\": the first block north is N1.",
        "base-line-north",
    ),
    Case(
        {"west": 1, "south": 0, "street_direction": "north-south", "side": "west"},
        {"address": "W140 S101"},
        "(5)(d) a block south of the base line is designated by its north boundary, line 1.",
        "base-line-south",
    ),
    Case(
        {"west": 3.85, "north": 0.4, "street_direction": "east-west", "side": "south"},
        {"address": "N5 W18561", "street_designation": "N5", "property_number": "W18561", "side": "south"},
        "(3)(d) a westerly street carries N/S then W: 124 + 3×16 + 0.85×16 = 185.6, 1 + 0.4×11 = 5.4; "
        "south side odd: 60 → 61.",
        "east-west-street",
    ),
    Case(
        {"west": 6.0757, "north": 0.5, "street_direction": "east-west", "side": "south"},
        {"address": "N6 W22075", "digits_before_parity": 75, "west_line": 220.757},
        "(5)(c) 2 digits for the relative position in the block: 220.757 → 75 (floor, not 76), odd side keeps 75.",
        "digits-floor-odd",
    ),
    Case(
        {"west": 6.0747, "north": 0.5, "street_direction": "east-west", "side": "north"},
        {"address": "N6 W22074", "digits_before_parity": 74},
        "(5)(c) 220.747 → 74 (floor), even side keeps 74.",
        "digits-floor-even",
    ),
    Case(
        {"west": 6.0995, "north": 0.5, "street_direction": "east-west", "side": "north"},
        {"address": "N6 W22098", "digits_before_parity": 99},
        "(5)(a) even side at 99.5 hundredths: 99 cannot step up out of the block, so 98.",
        "digits-99-even-steps-down",
    ),
    Case(
        {"west": 2, "north": 1, "bearing_degrees": 45, "side": "northwest"},
        {"address": "W156 N1201", "street_direction": "north-south", "side": "west", "deviation_degrees": 45.0},
        "(3)(f) a deviation of exactly 45 degrees ... shall be considered as being northerly or southerly.",
        "bearing-exactly-45",
    ),
    Case(
        {"west": 2, "north": 1, "bearing_degrees": 46, "side": "northwest"},
        {"address": "N12 W15600", "street_direction": "east-west", "side": "north"},
        "(3)(e) diagonal streets which run more from the east to the west ... numbered as westerly streets.",
        "bearing-46-is-westerly",
    ),
    Case(
        {"west": 2, "north": 1, "bearing_degrees": 135, "side": "northeast"},
        {"address": "W156 N1200", "street_direction": "north-south", "side": "east"},
        "(3)(f) exactly 45 degrees the other way (NW-SE street) is northerly too; its NE side is east.",
        "bearing-135",
    ),
    Case(
        {"west": 2, "north": 1, "bearing_degrees": 225, "side": "southeast"},
        {"street_direction": "north-south", "side": "east"},
        "(3)(f) 225° is the same street line as 45°.",
        "bearing-225",
    ),
    Case(
        {"west": 2, "north": 1, "bearing_degrees": 30, "side": "east"},
        {"address": "W156 N1200", "street_direction": "north-south", "side": "east", "deviation_degrees": 30.0},
        "(3)(e) diagonal streets that run more from the north to the south are numbered as northerly streets.",
        "bearing-30",
    ),
    Case(
        {"west": 2, "north": 1, "bearing_degrees": 100, "side": "south"},
        {"address": "N12 W15601", "street_direction": "east-west", "side": "south"},
        "(3)(e) a street running more east-west: W property number, south side odd.",
        "bearing-100",
    ),
]

@pytest.mark.parametrize("case", FORWARD, ids=ids(FORWARD))
def test_address_from_position(case: Case):
    out = address_from_position(AddressFromPositionInput(**case.input))
    assert out.ok, out.error
    assert out.tool == "address_from_position"
    for k, v in case.expected.items():
        assert getattr(out, k) == v, (k, case.rule)
    assert out.explanation and out.address in out.explanation
    assert out.citations and all(quote_is_verbatim(c) for c in out.citations)
    if "bearing_degrees" in case.input:
        assert any("45 degrees" in c.quote for c in out.citations)


def test_miles_and_sections_agree_and_miles_say_they_are_nominal():
    base = {"west": 7.25, "north": 2.2, "street_direction": "north-south", "side": "east"}
    miles = address_from_position(AddressFromPositionInput(**base, unit="miles"))
    sections = address_from_position(AddressFromPositionInput(**base, unit="sections"))
    assert miles.address == sections.address
    assert any("5,280" in a for a in miles.assumptions)
    assert not any("5,280" in a for a in sections.assumptions)


def test_readings_are_reported():
    out = address_from_position(AddressFromPositionInput(west=1, north=1, street_direction="north-south", side="east"))
    text = " ".join(out.assumptions)
    assert "floor" in text  # digits rounded down
    assert "parity" in text  # the step to the right parity
    assert "east side" in text  # which block line names a street


def test_county_line_reading_is_reported_only_on_a_county_line():
    on = address_from_position(AddressFromPositionInput(west=24, north=1, street_direction="east-west", side="north"))
    off = address_from_position(AddressFromPositionInput(west=23, north=1, street_direction="east-west", side="north"))
    assert any("outer county line" in a for a in on.assumptions)
    assert not any("outer county line" in a for a in off.assumptions)


BEYOND: list[Case] = [
    Case({"west": -0.01, "north": 1, "street_direction": "north-south", "side": "east"}, {"error": "east of"},
         "(3)(a) the north south base line shall be the eastern boundary of Waukesha County.", "east-of-county"),
    Case({"west": 24.001, "north": 1, "street_direction": "north-south", "side": "east"}, {"error": "beyond the west"},
         "(4)(a) \"400\", the latter being at the west edge of the County.", "west-of-county"),
    Case({"west": 1, "north": 11.01, "street_direction": "north-south", "side": "east"}, {"error": "beyond the north"},
         "(4)(b) \"96\" at the north County line.", "north-of-county"),
    Case({"west": 1, "south": 13.01, "street_direction": "north-south", "side": "east"}, {"error": "beyond the south"},
         "(4)(c) \"111\" at the south County line.", "south-of-county"),
    Case({"west": 126721, "north": 1, "unit": "feet", "street_direction": "east-west", "side": "north"},
         {"error": "beyond the west"}, "(4)(a) 24 sections × 5,280 ft = 126,720 ft.", "west-of-county-feet"),
    Case({"west": 1, "north": 1, "street_direction": "north-south", "side": "north"}, {"error": "east or west"},
         "(5)(a) a north-south street has east and west sides.", "wrong-side-for-ns"),
    Case({"west": 1, "north": 1, "street_direction": "east-west", "side": "east"}, {"error": "north or south"},
         "(5)(a) an east-west street has north and south sides.", "wrong-side-for-ew"),
    Case({"west": 1, "north": 1, "bearing_degrees": 45, "side": "northeast"}, {"error": "along the street"},
         "(3)(f) a NE-running street has no north-east side.", "side-along-diagonal"),
]


@pytest.mark.parametrize("case", BEYOND, ids=ids(BEYOND))
def test_positions_that_cannot_be_numbered(case: Case):
    out = address_from_position(AddressFromPositionInput(**case.input))
    assert out.ok is False
    assert out.address is None and out.property_number is None and out.street_designation is None
    assert case.expected["error"] in out.error


def test_county_lines_themselves_are_inside():
    for inp in [
        {"west": 0, "north": 0, "street_direction": "north-south", "side": "east"},
        {"west": 24, "north": 11, "street_direction": "north-south", "side": "east"},
        {"west": 24, "south": 13, "street_direction": "east-west", "side": "south"},
        {"west": 126720, "south": 0, "unit": "feet", "street_direction": "east-west", "side": "south"},
    ]:
        out = address_from_position(AddressFromPositionInput(**inp))
        assert out.ok, (inp, out.error)
        assert parse_address(ParseAddressInput(address=out.address)).ok


INVALID_FORWARD: list[Case] = [
    Case({"west": 1, "north": 1, "south": 1, "street_direction": "north-south", "side": "east"},
         {"match": "exactly one of `north` or `south`"}, "(3)(b)-(c)", "north-and-south"),
    Case({"west": 1, "street_direction": "north-south", "side": "east"},
         {"match": "exactly one of `north` or `south`"}, "(3)(b)-(c)", "neither"),
    Case({"west": 1, "north": 1, "side": "east"}, {"match": "street_direction"}, "(3)(e)", "no-direction"),
    Case({"west": 1, "north": 1, "street_direction": "north-south", "bearing_degrees": 10, "side": "east"},
         {"match": "bearing_degrees"}, "(3)(e)", "direction-and-bearing"),
    Case({"west": 1, "north": 1, "bearing_degrees": 400, "side": "east"}, {"match": "bearing_degrees"}, "", "bearing"),
    Case({"west": 1, "north": -1, "street_direction": "north-south", "side": "east"}, {"match": "north"}, "", "neg"),
    Case({"west": 1, "north": 1, "street_direction": "up-down", "side": "east"}, {"match": "street_direction"}, "", "dir"),
    Case({"west": 1, "north": 1, "street_direction": "north-south", "side": "left"}, {"match": "side"}, "", "side"),
    Case({"west": 1, "north": 1, "unit": "km", "street_direction": "north-south", "side": "east"},
         {"match": "unit"}, "", "unit"),
    Case({"west": float("nan"), "north": 1, "street_direction": "north-south", "side": "east"},
         {"match": "west"}, "", "nan"),
    Case({"west": 1, "north": 1, "street_direction": "north-south", "side": "east", "town": "x"},
         {"match": "town"}, "", "extra-field"),
]


@pytest.mark.parametrize("case", INVALID_FORWARD, ids=ids(INVALID_FORWARD))
def test_forward_input_validation_names_the_field(case: Case):
    with pytest.raises(ValidationError, match=re.escape(case.expected["match"])):
        AddressFromPositionInput(**case.input)


def test_forward_accepts_plain_words():
    inp = AddressFromPositionInput(west=1, north=1, street_direction="N-S", side="East side")
    assert (inp.street_direction, inp.side) == ("north-south", "east")
    inp = AddressFromPositionInput(west=1, north=1, street_direction="westerly", side="NW")
    assert (inp.street_direction, inp.side) == ("east-west", "northwest")


# --------------------------------------------------------------------------------------
# Inverse: address -> where
# --------------------------------------------------------------------------------------

PARSE: list[Case] = [
    Case(
        {"address": "W305 N1530"},
        {"address": "W305 N1530", "street_direction": "north-south", "block": "W305 N15", "side": "east",
         "parity": "even", "base_line_side": "north", "position_in_block": 0.3,
         "west": (14.5, 14.6), "ns": (Fraction(14, 11), Fraction(15, 11))},
        "(5)(b)-(d): W305 = 220 + 85 → 6 + 8.5 sections; N15 = 1 + 14 → 14/11 of the first 11-block row; "
        "30 is even → east side.",
        "example",
    ),
    Case(
        {"address": "n8 w22195 Johnson Dr"},
        {"address": "N8 W22195", "street_name": "Johnson Dr", "street_direction": "east-west",
         "block": "W221 N8", "side": "south", "parity": "odd", "west": (6.1, 6.2),
         "ns": (Fraction(7, 11), Fraction(8, 11))},
        "(3)(d) a westerly street: position north of the base line, then west; 95 odd → south side.",
        "east-west-street",
    ),
    Case(
        {"address": "W240 S1201"},
        {"block": "W240 S12", "side": "west", "base_line_side": "south", "west": (8.0, 8.1),
         "ns": (Fraction(11, 13), Fraction(12, 13))},
        "(5)(d) a block south of the base line is designated by its north and east boundaries.",
        "south",
    ),
    Case(
        {"address": "  w 305 - n 1530  "},
        {"address": "W305 N1530", "side": "east"},
        "(5)(b) a directional letter followed by the block line (spacing and case free).",
        "spacing-and-case",
    ),
    Case(
        {"address": "W124 N100"},
        {"block": "W124 N1", "west": (0, 0.0625), "ns": (0, Fraction(1, 11))},
        "(3)(a) 124 and 1: the block at the corner of the two base lines.",
        "corner-of-base-lines",
    ),
    Case(
        {"address": "W399 N9599"},
        {"block": "W399 N95", "side": "west", "west": (23.9, 24), "ns": (10.875, 11)},
        "(4)(a)-(b) the last blocks inside the west and north county lines.",
        "north-west-corner",
    ),
    Case(
        {"address": "W219 S11098"},
        {"block": "W219 S110", "west": (5.9375, 6), "ns": (12.875, 13)},
        "(4)(a),(c) the last 16-block section; the last block inside the south county line.",
        "sixth-section-south-line",
    ),
]


@pytest.mark.parametrize("case", PARSE, ids=ids(PARSE))
def test_parse_address(case: Case):
    out = parse_address(ParseAddressInput(**case.input))
    assert out.ok, out.error
    exp = dict(case.expected)
    west, ns = exp.pop("west", None), exp.pop("ns", None)
    for k, v in exp.items():
        assert getattr(out, k) == v, (k, case.rule)
    if west:
        assert (out.west_range.sections_from, out.west_range.sections_to) == pytest.approx(tuple(map(float, west)))
        assert out.west_range.feet_from == pytest.approx(float(west[0]) * 5280)
    if ns:
        assert (out.north_south_range.sections_from, out.north_south_range.sections_to) == pytest.approx(
            tuple(map(float, ns))
        )
    assert out.citations and all(quote_is_verbatim(c) for c in out.citations)
    assert out.side in out.explanation


CANNOT_EXIST: list[Case] = [
    Case({"address": "W123 N100"}, {"error": "east of the Waukesha County line"},
         "(3)(a) the eastern boundary of Waukesha County ... \"124\".", "east-of-124"),
    Case({"address": "W400 N100"}, {"error": "beyond the county"},
         "(4)(a) \"400\", the latter being at the west edge of the County.", "W400"),
    Case({"address": "W300 N9600"}, {"error": "beyond the county"}, "(4)(b) \"96\" at the north County line.", "N96"),
    Case({"address": "W300 S11100"}, {"error": "beyond the county"}, "(4)(c) \"111\" at the south County line.", "S111"),
    Case({"address": "N96 W30000"}, {"error": "beyond the county"}, "(4)(b) street beyond the north line.", "N96-st"),
    Case({"address": "W300 N099"}, {"error": "base line is block line 1"},
         "(3)(a) Its numerical designation shall be \"1\".", "block-0"),
    Case({"address": "W305 W1530"}, {"error": "start with N or S"},
         "(3)(b)-(c) a northerly street: position west, then north or south.", "W-W"),
    Case({"address": "N15 S1530"}, {"error": "start with W"},
         "(3)(d) a westerly street: position north or south, then west.", "N-S"),
    Case({"address": "W305 N30"}, {"error": "2 digits"},
         "(5)(c) the block line plus 2 additional digits.", "too-short"),
    Case({"address": "N1530 W305"}, {"error": "did you mean 'W305 N1530'"},
         "(5)(b) the first part, or street designation.", "swapped"),
    Case({"address": "305 N1530"}, {"error": "not a Waukesha County grid address"}, "(5)(b)", "no-letter"),
    Case({"address": "E305 N1530"}, {"error": "not a Waukesha County grid address"},
         "(5)(b) a directional letter, \"N\", \"S\" or \"W\".", "letter-E"),
    Case({"address": "1530 Main Street"}, {"error": "not a Waukesha County grid address"}, "(5)(b)", "plain"),
    Case({"address": "W305 N1530", "side": "west"}, {"error": "wrong side"},
         "(5)(a) the north and east sides ... even numbers.", "wrong-side"),
    Case({"address": "N8 W22195", "side": "north"}, {"error": "wrong side"},
         "(5)(a) the south and west sides ... odd numbers.", "wrong-side-ew"),
    Case({"address": "W305 N1530", "side": "north"}, {"error": "whose sides are east or west"},
         "(5)(a)", "side-along"),
]


@pytest.mark.parametrize("case", CANNOT_EXIST, ids=ids(CANNOT_EXIST))
def test_addresses_that_cannot_exist(case: Case):
    out = parse_address(ParseAddressInput(**case.input))
    assert out.ok is False
    assert case.expected["error"] in out.error, out.error


def test_right_side_passes():
    assert parse_address(ParseAddressInput(address="W305 N1530", side="east")).ok
    assert parse_address(ParseAddressInput(address="N8 W22195", side="south")).ok


def test_parse_validation():
    with pytest.raises(ValidationError, match="address"):
        ParseAddressInput(address="   ")
    with pytest.raises(ValidationError, match="side"):
        ParseAddressInput(address="W305 N1530", side="left")
    with pytest.raises(ValidationError, match="municipality"):
        ParseAddressInput(address="W305 N1530", municipality="delafield")


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------

DIRECTIONS = st.sampled_from(["north-south", "east-west"])
COMPASS = st.sampled_from(list(A._COMPASS_DEGREES))


@st.composite
def positions(draw):
    west = draw(st.floats(0, 24, allow_nan=False))
    north = draw(st.booleans())
    ns = draw(st.floats(0, 11 if north else 13, allow_nan=False))
    if draw(st.booleans()):
        direction = draw(DIRECTIONS)
        side = draw(st.sampled_from(["east", "west"] if direction == "north-south" else ["north", "south"]))
        street = {"street_direction": direction}
    else:
        street = {"bearing_degrees": draw(st.floats(0, 360, allow_nan=False))}
        side = draw(COMPASS)
    return {"west": west, ("north" if north else "south"): ns, **street, "side": side}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_round_trip_position_address_parse(inp):
    out = address_from_position(AddressFromPositionInput(**inp))
    if not out.ok:
        assert "along the street" in out.error
        assume(False)
    back = parse_address(ParseAddressInput(address=out.address.lower().replace(" ", "  ")))
    assert back.ok, back.error
    assert back.address == out.address
    assert back.block == out.block
    assert back.side == out.side
    assert back.street_direction == out.street_direction
    assert back.parity == out.parity
    # the position lies in the block the inverse describes
    ns = inp.get("north", inp.get("south"))
    assert back.west_range.sections_from <= inp["west"] + 1e-9
    assert inp["west"] <= back.west_range.sections_to + 1e-9
    assert back.north_south_range.sections_from <= ns + 1e-9 <= back.north_south_range.sections_to + 2e-9
    assert back.base_line_side == ("north" if "north" in inp else "south")


@settings(max_examples=200, deadline=None)
@given(
    st.floats(0, 24, allow_nan=False),
    st.floats(0, 24, allow_nan=False),
    st.sampled_from(["north", "south"]),
)
def test_numbers_never_decrease_along_a_street(a, b, side):
    lo, hi = sorted((a, b))
    outs = [
        address_from_position(AddressFromPositionInput(west=w, north=1, street_direction="east-west", side=side))
        for w in (lo, hi)
    ]
    nums = [int(o.property_number[1:]) for o in outs]
    assert nums[0] <= nums[1]
    assert all((n % 2 == 0) == (side == "north") for n in nums)


@settings(max_examples=200, deadline=None)
@given(st.fractions(min_value=0, max_value=24), st.sampled_from(["west", "north", "south"]))
def test_line_and_distance_are_inverse(s, name):
    axis = load_address_data().grid.axes[name]
    s = min(s, Fraction(axis.sections))
    assert axis.distance_of(axis.line_at(s)) == s
    assert axis.origin_line <= axis.block_of(axis.line_at(s)) <= axis.last_block


@settings(max_examples=200, deadline=None)
@given(st.floats(0, 360, allow_nan=False))
def test_bearing_classification(bearing):
    direction, deviation = A._street_direction_for_bearing(bearing)
    assert 0 <= deviation <= 90
    assert (direction == "north-south") == (deviation <= 45)
    # a street and its reverse are the same street
    assert A._street_direction_for_bearing((bearing + 180) % 360)[0] == direction


@pytest.mark.parametrize(
    "bearing,direction",
    [(0, "north-south"), (44.9, "north-south"), (45, "north-south"), (45.1, "east-west"), (90, "east-west"),
     (134.9, "east-west"), (135, "north-south"), (225, "north-south"), (315, "north-south"), (315.1, "north-south"),
     (314.9, "east-west"), (360, "north-south")],
)
def test_exactly_45_degrees_is_northerly(bearing, direction):
    """(3)(f) Where the general direction ... has a deviation of exactly 45 degrees, the
    direction of the street shall be considered as being northerly or southerly."""
    assert A._street_direction_for_bearing(bearing)[0] == direction


# --------------------------------------------------------------------------------------
# Placement checks
# --------------------------------------------------------------------------------------

DELAFIELD_OK = {
    "municipality": "delafield",
    "distance_from_pavement_edge_ft": 20,
    "distance_from_driveway_edge_ft": 5,
    "height_above_grade_ft": 4,
    "character_width_in": 2.5,
    "character_height_in": 4,
    "number_color": "black",
    "background": "white",
    "visible_from_road": True,
    "on_side_of_street_where_home_sits": True,
}
BRANDON_OK = {
    "municipality": "brandon",
    "character_height_in": 3,
    "placed_at_door": True,
    "visible_from_road": True,
    "building_setback_ft": 30,
}


def test_complete_compliant_installations_pass():
    for inp in (DELAFIELD_OK, BRANDON_OK):
        out = check_house_number_placement(PlacementInput(**inp))
        assert out.ok and out.verdict == "pass", out.explanation
        assert out.failures == []
        assert all(c.status in ("pass", "not_applicable") for c in out.checks)
        assert out.citations and all(quote_is_verbatim(c) for c in out.citations)


PLACEMENT: list[Case] = [
    # Delafield (9): "no more than 25 feet from the edge of the road pavement"
    Case({"distance_from_pavement_edge_ft": 25}, {"pavement_distance": "pass"}, "(9)(c) no more than 25 feet", "25ft"),
    Case({"distance_from_pavement_edge_ft": 25.5}, {"pavement_distance": "fail"}, "(9)(c) no more than 25 feet", "25.5"),
    Case({"distance_from_driveway_edge_ft": 10}, {"driveway_distance": "pass"}, "(9)(c) within 10 feet", "10ft"),
    Case({"distance_from_driveway_edge_ft": 10.1}, {"driveway_distance": "fail"}, "(9)(c) within 10 feet", "10.1"),
    Case({"height_above_grade_ft": 2}, {"height_above_grade": "pass"}, "(9)(c) between 2' and 8'", "2ft"),
    Case({"height_above_grade_ft": 8}, {"height_above_grade": "pass"}, "(9)(c) between 2' and 8'", "8ft"),
    Case({"height_above_grade_ft": 1.9}, {"height_above_grade": "fail"}, "(9)(c) between 2' and 8'", "1.9"),
    Case({"height_above_grade_ft": 8.1}, {"height_above_grade": "fail"}, "(9)(c) between 2' and 8'", "8.1"),
    Case({"character_width_in": 2.25}, {"character_width": "pass"}, "(9)(c) 2¼ wide", "w2.25"),
    Case({"character_width_in": 2.2}, {"character_width": "fail"}, "(9)(c) 2¼ wide", "w2.2"),
    Case({"character_height_in": 3.5}, {"character_height": "pass"}, "(9)(c) 3½ high", "h3.5"),
    Case({"character_height_in": 3.4}, {"character_height": "fail"}, "(9)(c) 3½ high", "h3.4"),
    Case({"number_color": "other"}, {"number_color": "fail"}, "(9)(c) black on a white or a reflective", "colour"),
    Case({"background": "reflective"}, {"background": "pass"}, "(9)(c) or a reflective background", "refl"),
    Case({"background": "other"}, {"background": "fail"}, "(9)(c) white or a reflective background", "bg"),
    Case({"visible_from_road": False}, {"visible_from_road": "fail"}, "(9)(c) clearly visible", "visible"),
    Case({"on_side_of_street_where_home_sits": False}, {"side_of_street": "fail"},
         "(9)(c) on the side of the street on which the home sits", "side"),
    Case({"on_mailbox": True, "other_mailbox_adjacent": True, "numbers_also_on_property": False},
         {"mailbox_not_shared": "fail"}, "(9)(c) provided there is no other mailbox adjacent", "mailbox-shared"),
    Case({"on_mailbox": True, "other_mailbox_adjacent": True, "numbers_also_on_property": True},
         {"mailbox_not_shared": "pass"}, "(9)(c) numbers must also be placed on each individual property", "mb-ok"),
    Case({"on_mailbox": True}, {"mailbox_not_shared": "not_applicable"}, "(9)(c) mailboxes may serve", "mb-alone"),
    Case({"orientation": "perpendicular", "visible_from_travel_direction": False},
         {"perpendicular_visible": "fail"}, "(9)(c) visible from the travel direction", "perp"),
    Case({"orientation": "perpendicular"}, {"perpendicular_visible": "not_checked"}, "(9)(c)", "perp-unknown"),
    Case({"shared_driveway_or_private_road": True, "numbered_at_public_road": True, "numbered_at_each_fork": False,
          "numbers_also_on_property": True},
         {"shared_at_public_road": "pass", "shared_at_each_fork": "fail", "shared_on_property": "pass"},
         "(9)(c) at each split, fork or intersection thereafter", "shared-fork"),
    Case({"shared_driveway_or_private_road": False, "numbered_at_each_fork": False},
         {"shared_at_each_fork": "not_applicable"}, "(9)(c) only shared driveways/private roads", "not-shared"),
]


@pytest.mark.parametrize("case", PLACEMENT, ids=ids(PLACEMENT))
def test_delafield_placement(case: Case):
    out = check_house_number_placement(PlacementInput(**{**DELAFIELD_OK, **case.input}))
    by_id = {c.id: c for c in out.checks}
    for rid, status in case.expected.items():
        assert by_id[rid].status == status, (rid, by_id[rid].detail, case.rule)
        assert quote_is_verbatim(by_id[rid].citation)
    statuses = set(case.expected.values())
    assert out.verdict == ("fail" if "fail" in statuses else "incomplete" if "not_checked" in statuses else "pass")
    if out.verdict == "fail":
        assert out.failures and all(f in out.explanation for f in out.failures)


BRANDON: list[Case] = [
    Case({"character_height_in": 2.5}, {"character_height": "pass"}, "§ 404-15 not less than 2 1/2 inches", "2.5"),
    Case({"character_height_in": 2.4}, {"character_height": "fail"}, "§ 404-15 not less than 2 1/2 inches", "2.4"),
    Case({"building_setback_ft": 50}, {"street_line_display": "not_applicable"},
         "§ 404-15 more than 50 feet from the street line", "50ft"),
    Case({"building_setback_ft": 50.5}, {"street_line_display": "not_checked"}, "§ 404-15 more than 50 feet", "50.5"),
    Case({"building_setback_ft": 80, "displayed_at_street_line": False}, {"street_line_display": "fail"},
         "§ 404-15 displayed at the street line", "80-no"),
    Case({"building_setback_ft": 80, "displayed_at_street_line": True}, {"street_line_display": "pass"},
         "§ 404-15 displayed at the street line", "80-yes"),
    Case({"suffix": "b"}, {"portion_suffix": "pass"}, "§ 404-15 the suffix A, B, C, etc.", "suffix-b"),
    Case({"suffix": "1/2"}, {"portion_suffix": "fail"}, "§ 404-15 the suffix A, B, C, etc.", "suffix-half"),
    Case({"placed_at_door": False}, {"at_door": "fail"}, "§ 404-15 immediately above, on or at the side", "door"),
]


@pytest.mark.parametrize("case", BRANDON, ids=ids(BRANDON))
def test_brandon_placement(case: Case):
    out = check_house_number_placement(PlacementInput(**{**BRANDON_OK, **case.input}))
    by_id = {c.id: c for c in out.checks}
    for rid, status in case.expected.items():
        assert by_id[rid].status == status, (rid, by_id[rid].detail, case.rule)
        assert by_id[rid].citation.section == "404-15"
    statuses = set(case.expected.values())
    assert out.verdict == ("fail" if "fail" in statuses else "incomplete" if "not_checked" in statuses else "pass")


def test_brandon_setback_unknown_is_not_checked_and_unregulated_fields_are_named():
    out = check_house_number_placement(
        PlacementInput(municipality="brandon", character_height_in=3, distance_from_pavement_edge_ft=30)
    )
    assert out.verdict == "incomplete"
    assert {c.id: c.status for c in out.checks}["street_line_display"] == "not_checked"
    assert out.not_regulated == ["distance_from_pavement_edge_ft"]
    assert "distance_from_pavement_edge_ft" in out.explanation


def test_delafield_unit_reading_is_reported():
    out = check_house_number_placement(PlacementInput(**DELAFIELD_OK))
    assert any("no unit" in a and "inches" in a for a in out.assumptions)


def test_placement_municipality_names_and_validation():
    assert PlacementInput(municipality="Town of Delafield").municipality == "delafield"
    assert PlacementInput(municipality="Brandon").municipality == "brandon"
    with pytest.raises(ValidationError, match="municipality"):
        PlacementInput(municipality="Madison")
    with pytest.raises(ValidationError, match="distance_from_pavement_edge_ft"):
        PlacementInput(municipality="delafield", distance_from_pavement_edge_ft=-1)
    with pytest.raises(ValidationError, match="number_colour"):
        PlacementInput(municipality="delafield", number_colour="black")
    with pytest.raises(ValidationError, match="background"):
        PlacementInput(municipality="delafield", background="blue")


# --------------------------------------------------------------------------------------
# grid_block_line
# --------------------------------------------------------------------------------------

BLOCK_LINE_CASES = [
    Case({"direction": "west", "sections": 0}, {"block_line": 124, "next": 16},
         '(4)(a) This base line shall be the eastern boundary of Waukesha County and its numerical designation '
         'shall be "124".', "west-0"),
    Case({"direction": "west", "sections": 1}, {"block_line": 140, "next": 16},
         "(4)(a) the first 6 sections ... shall be divided into 16 blocks each: 124 + 16.", "west-1"),
    Case({"direction": "west", "sections": 3}, {"block_line": 172, "next": 16},
         "(4)(a) 124 + 3 x 16 = 172.", "west-3"),
    Case({"direction": "west", "sections": 5}, {"block_line": 204, "next": 16},
         "(4)(a) 124 + 5 x 16 = 204: the last section before the tier boundary.", "west-5"),
    Case({"direction": "west", "sections": 6}, {"block_line": 220, "next": 10},
         '(4)(a) 124 + 6 x 16 = 220, though the text names the line "200".', "west-6-tier-boundary"),
    Case({"direction": "west", "sections": 7}, {"block_line": 230, "next": 10},
         "(4)(a) Westward through the remaining towns, the sections shall be divided into 10 blocks each: 220 + 10.",
         "west-7"),
    Case({"direction": "west", "sections": 24}, {"block_line": 400, "next": None},
         '(4)(a) "400", the latter being at the west edge of the County: 124 + 6 x 16 + 18 x 10.', "west-24-county"),
    Case({"direction": "north", "sections": 0}, {"block_line": 1, "next": 11},
         '(4)(b) Its numerical designation shall be "1".', "north-0"),
    Case({"direction": "north", "sections": 2}, {"block_line": 23, "next": 8},
         "(4)(b) the first and second rows of sections shall be divided into 11 blocks each: 1 + 11 + 11.",
         "north-2"),
    Case({"direction": "north", "sections": 4}, {"block_line": 40, "next": 8},
         "(4)(b) the third row into 8 blocks and the fourth row into 9 blocks: 23 + 8 + 9.", "north-4"),
    Case({"direction": "north", "sections": 5}, {"block_line": 48, "next": 8},
         "(4)(b) the fifth row northward ... 8 blocks each: 40 + 8.", "north-5"),
    Case({"direction": "north", "sections": 11}, {"block_line": 96, "next": None},
         '(4)(b) "96" at the north County line: 40 + 7 x 8.', "north-11-county"),
    Case({"direction": "south", "sections": 1}, {"block_line": 14, "next": 9},
         "(4)(c) the first row of sections shall be divided into 13 blocks: 1 + 13.", "south-1"),
    Case({"direction": "south", "sections": 2}, {"block_line": 23, "next": 8},
         "(4)(c) and the second row into 9 blocks: 1 + 13 + 9.", "south-2"),
    Case({"direction": "south", "sections": 3}, {"block_line": 31, "next": 8},
         "(4)(c) From and including the third row southward ... 8 blocks each: 23 + 8.", "south-3"),
    Case({"direction": "south", "sections": 13}, {"block_line": 111, "next": None},
         '(4)(c) "111" at the south County line: 23 + 11 x 8.', "south-13-county"),
]


@pytest.mark.parametrize("case", BLOCK_LINE_CASES, ids=ids(BLOCK_LINE_CASES))
def test_grid_block_line(case: Case):
    out = grid_block_line(GridBlockLineInput(**case.input))
    assert out.ok, out.error
    line = case.expected["block_line"]
    letter = {"west": "W", "north": "N", "south": "S"}[case.input["direction"]]
    assert out.block_line == line and out.designation == f"{letter}{line}"
    assert out.next_section_blocks == case.expected["next"]
    assert len(out.blocks_per_section) == case.input["sections"]
    assert out.nominal_distance_ft == 5280 * case.input["sections"]
    assert f"= {line} at the {case.input['direction']} edge" in out.explanation or case.input["sections"] == 0
    assert out.citations and all(quote_is_verbatim(c) for c in out.citations)
    assert {c.title for c in out.citations} == {"UNIFORM ADDRESS SYSTEM"}
    assert out.assumptions


def test_grid_block_line_arithmetic_is_written_out():
    assert "124 + 3 × 16 = 172 at the west edge of the first 3 sections" in grid_block_line(
        GridBlockLineInput(direction="west", sections=3)).explanation
    assert "1 + 2 × 11 + 8 + 9 + 7 × 8 = 96" in grid_block_line(
        GridBlockLineInput(direction="north", sections=11)).explanation
    assert "1 + 13 = 14 at the south edge of the first row." in grid_block_line(
        GridBlockLineInput(direction="south", sections=1)).explanation
    assert "Block line 111 is the south county line" in grid_block_line(
        GridBlockLineInput(direction="south", sections=13)).explanation


@pytest.mark.parametrize("sections,noted", [(5, False), (6, True), (12, True), (23, True), (24, False)])
def test_grid_block_line_notes_the_200_where_it_matters(sections, noted):
    out = grid_block_line(GridBlockLineInput(direction="west", sections=sections))
    has = any('"200"' in a and "220" in a for a in out.assumptions)
    assert has == noted
    for direction in ("north", "south"):
        assert not any('"200"' in a for a in grid_block_line(GridBlockLineInput(direction=direction,
                                                                                 sections=2)).assumptions)


def test_grid_block_line_cites_only_the_tiers_counted():
    quotes = [c.quote for c in grid_block_line(GridBlockLineInput(direction="west", sections=3)).citations]
    assert not any("remaining towns" in q for q in quotes)
    quotes = [c.quote for c in grid_block_line(GridBlockLineInput(direction="west", sections=7)).citations]
    assert any("remaining towns" in q for q in quotes)


@pytest.mark.parametrize("direction,beyond,last", [("west", 25, 24), ("north", 12, 11), ("south", 14, 13)])
def test_grid_block_line_beyond_the_county(direction, beyond, last):
    out = grid_block_line(GridBlockLineInput(direction=direction, sections=beyond))
    assert not out.ok and out.block_line is None
    assert f"sections = {beyond} lies beyond the county" in out.error and f"give 0 to {last}" in out.error
    assert out.citations


@pytest.mark.parametrize("bad,field", [
    ({"direction": "east", "sections": 2}, "direction"),
    ({"direction": "west", "sections": -1}, "sections"),
    ({"direction": "west", "sections": 2.5}, "sections"),
    ({"direction": "west"}, "sections"),
    ({"direction": "west", "sections": 2, "miles": 2}, "miles"),
])
def test_grid_block_line_validation(bad, field):
    with pytest.raises(ValidationError) as exc:
        GridBlockLineInput(**bad)
    assert field in str(exc.value)
    assert GridBlockLineInput(direction="W", sections=2).direction == "west"
    assert GridBlockLineInput(direction="Northward", sections=2).direction == "north"


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(["west", "north", "south"]), data=st.data())
def test_grid_block_line_agrees_with_the_axis(name, data):
    axis = load_address_data().grid.axes[name]
    n = data.draw(st.integers(0, axis.sections))
    assert grid_block_line(GridBlockLineInput(direction=name, sections=n)).block_line == axis.line_at(Fraction(n))


# --------------------------------------------------------------------------------------
# Registry entries
# --------------------------------------------------------------------------------------


def test_tools_are_declared():
    names = [t.name for t in TOOLS]
    assert names == ["address_from_position", "parse_address", "grid_block_line", "check_house_number_placement"]
    for t in TOOLS:
        assert isinstance(t, ToolSpec)
        assert re.fullmatch(r"[a-z][a-z0-9_]*", t.name)
        assert issubclass(t.input_model, ToolInput) and issubclass(t.output_model, ToolOutput)
        assert t.input_model.model_config.get("extra") == "forbid"
        assert t.description and t.keywords
        assert all(f.description for f in t.input_model.model_fields.values()), t.name
    examples = {
        "address_from_position": {"west": 1, "north": 1, "street_direction": "north-south", "side": "east"},
        "parse_address": {"address": "W305 N1530"},
        "check_house_number_placement": DELAFIELD_OK,
        "grid_block_line": {"direction": "west", "sections": 3},
    }
    for t in TOOLS:
        out = t.fn(t.input_model(**examples[t.name]))
        assert isinstance(out, t.output_model) and out.tool == t.name and out.ok
        # outputs serialise for the CLI's --json
        assert t.output_model.model_validate_json(out.model_dump_json()) == out
