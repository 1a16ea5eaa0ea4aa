"""Street addresses: the Waukesha County uniform address grid and house-number placement.

The Town of Delafield (ch. 8, UNIFORM ADDRESS SYSTEM) adopts the county's grid of
invisible blocks: block lines are numbered westward from the east county line (124) and
north or south from the east-west base line (1), each block gets 100 numbers, even on the
north and east sides of a street and odd on the south and west. An address has two parts:
the street designation (the block line the street lies in, e.g. ``W305`` for a
north-south street) and the property number (the block line along the street plus two
digits for the position in the block, e.g. ``N1530``).

Four tools:

* :func:`address_from_position` — position, street direction and side -> address;
* :func:`parse_address` — address -> block, distances, side; flags one that cannot exist;
* :func:`check_house_number_placement` — installed numbers against Delafield's sub. (9)
  or Brandon's § 404-15;
* :func:`grid_block_line` — the block line number at the far edge of the first N whole
  sections (west) or rows of sections (north, south).

The grid's block counts, the thresholds and the readings chosen where the text is silent
live in ``data/address_grid.yaml`` next to the words they come from. Arithmetic on the
grid is exact (fractions), so a position on a block line never lands in the wrong block
through rounding.
"""

from __future__ import annotations

import functools
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from assistant.amendments import answers_changed_rules
from assistant.tools.spec import Route, ToolSpec
from assistant.types import Citation, ToolInput, ToolOutput

DATA_FILE = Path(__file__).resolve().parent / "data" / "address_grid.yaml"

ADDRESS_FROM_POSITION = "address_from_position"
PARSE_ADDRESS = "parse_address"
CHECK_HOUSE_NUMBER_PLACEMENT = "check_house_number_placement"
GRID_BLOCK_LINE = "grid_block_line"

Unit = Literal["miles", "sections", "feet"]
StreetDirection = Literal["north-south", "east-west"]
Side = Literal["north", "south", "east", "west"]
CompassSide = Literal["north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]
AxisName = Literal["west", "north", "south"]

# (5)(d): the boundary that designates a block along each axis.
_BOUNDARY = {"W": "east", "N": "south", "S": "north"}

_COMPASS_DEGREES: dict[str, float] = {
    "north": 0.0,
    "northeast": 45.0,
    "east": 90.0,
    "southeast": 135.0,
    "south": 180.0,
    "southwest": 225.0,
    "west": 270.0,
    "northwest": 315.0,
}


class GridDataError(ValueError):
    """The address grid data file is inconsistent (its counts miss a county line...)."""


# --------------------------------------------------------------------------------------
# The data file
# --------------------------------------------------------------------------------------


class Source(BaseModel):
    """Where a rule comes from: a verbatim quote, resolved to a citation at run time."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    municipality: str
    quote: str
    section: str | None = None
    title: str | None = None

    def citation(self) -> Citation:
        from assistant.corpus import cite

        return cite(self.municipality, " ".join(self.quote.split()), section=self.section, title=self.title)


class Tier(Source):
    sections: int | None = Field(description="Sections (rows) in this tier; null: repeat to the county line.")
    blocks_per_section: int = Field(gt=0)
    stated_end_line: int | None = Field(default=None, description="Where the text says the tier ends.")
    stated_start_line: int | None = Field(default=None, description="Where the text says the tier starts.")


class Axis(BaseModel):
    """One direction of the grid: block lines numbered outward from a base line."""

    model_config = ConfigDict(extra="forbid")

    letter: Literal["W", "N", "S"]
    label: str
    base: str
    origin_line: int
    origin: Source
    county_line: int
    tiers: list[Tier]
    _blocks: tuple[int, ...] = PrivateAttr(default=())
    _tier_of_section: tuple[int, ...] = PrivateAttr(default=())

    @model_validator(mode="after")
    def _derive_sections(self) -> "Axis":
        if not self.tiers or self.tiers[-1].sections is not None:
            raise GridDataError(f"axis {self.letter}: the last tier must repeat to the county line (sections: null)")
        if any(t.sections is None or t.sections <= 0 for t in self.tiers[:-1]):
            raise GridDataError(f"axis {self.letter}: every tier but the last needs a positive number of sections")
        blocks: list[int] = []
        tier_of: list[int] = []
        for i, t in enumerate(self.tiers[:-1]):
            blocks += [t.blocks_per_section] * int(t.sections or 0)
            tier_of += [i] * int(t.sections or 0)
        last = self.tiers[-1]
        remaining = self.county_line - self.origin_line - sum(blocks)
        repeat, rest = divmod(remaining, last.blocks_per_section)
        if remaining <= 0 or rest:
            raise GridDataError(
                f"axis {self.letter}: from {self.origin_line} the counts do not reach the county line "
                f"{self.county_line} in whole sections of {last.blocks_per_section} blocks "
                f"({remaining} blocks remain)"
            )
        blocks += [last.blocks_per_section] * repeat
        tier_of += [len(self.tiers) - 1] * repeat
        self._blocks = tuple(blocks)
        self._tier_of_section = tuple(tier_of)
        return self

    @property
    def blocks_per_section(self) -> tuple[int, ...]:
        """Blocks in each section (row), outward from the base line, to the county line."""
        return self._blocks

    @property
    def sections(self) -> int:
        """How many sections (rows) lie between the base line and the county line."""
        return len(self._blocks)

    def tiers_within(self, sections: int) -> list[Tier]:
        """The tiers the first ``sections`` sections (rows) fall in (the first tier for 0)."""
        wanted = set(self._tier_of_section[: max(sections, 1)])
        return [t for i, t in enumerate(self.tiers) if i in wanted]

    @property
    def last_block(self) -> int:
        """The last block designation inside the county (its outer side is the county line)."""
        return self.county_line - 1

    def line_at(self, sections: Fraction) -> Fraction:
        """The (fractional) block line at a distance from the base line, in sections."""
        if sections < 0 or sections > self.sections:
            raise ValueError(f"{sections} sections lies outside the county")
        whole = min(math.floor(sections), self.sections - 1)
        return self.origin_line + sum(self._blocks[:whole]) + (sections - whole) * self._blocks[whole]

    def distance_of(self, line: Fraction) -> Fraction:
        """The distance from the base line, in sections, of a (fractional) block line."""
        if line < self.origin_line or line > self.county_line:
            raise ValueError(f"block line {line} lies outside the county")
        at = Fraction(self.origin_line)
        for i, n in enumerate(self._blocks):
            if line <= at + n:
                return i + (line - at) / n
            at += n
        return Fraction(self.sections)  # pragma: no cover - the range check above

    def block_of(self, line: Fraction) -> int:
        """The block a line value lies in, named by its boundary toward the base lines.

        A value on the outer county line belongs to the last block inside the county.
        """
        return min(math.floor(line), self.last_block)

    def arithmetic(self, sections: Fraction) -> str:
        """'124 + 5 × 16 + 0.3 × 16 = 208.8' for a distance in sections."""
        whole = min(math.floor(sections), self.sections - 1)
        parts = [str(self.origin_line)]
        run_n, run_len = None, 0
        for n in self._blocks[:whole]:
            if n == run_n:
                run_len += 1
                continue
            if run_n is not None:
                parts.append(f"{run_len} × {run_n}")
            run_n, run_len = n, 1
        if run_n is not None:
            parts.append(f"{run_len} × {run_n}")
        frac = sections - whole
        if frac:
            parts.append(f"{_num(frac)} × {self._blocks[whole]}")
        return " + ".join(parts) + f" = {_num(self.line_at(sections))}"

    def tier_discrepancies(self) -> list[str]:
        """Where the text's stated block lines disagree with its own block counts."""
        notes = []
        at = self.origin_line
        for i, t in enumerate(self.tiers):
            n_sections = t.sections if t.sections is not None else self._tier_of_section.count(i)
            end = at + n_sections * t.blocks_per_section
            if t.stated_end_line is not None and t.stated_end_line != end:
                stated_at = self.distance_of(Fraction(t.stated_end_line))
                notes.append(
                    f'The text says the block lines of the first {n_sections} sections {self.label} run '
                    f'from "{at}" to "{t.stated_end_line}" and the rest from "{t.stated_end_line}" to '
                    f'"{self.county_line}", but its own counts give {at} + {n_sections} × '
                    f"{t.blocks_per_section} = {end} at the end of section {n_sections} and "
                    + self._rest_sum(i, end)
                    + f". The counts are used: they reproduce {self.origin_line} and {self.county_line} "
                    f"(as the north and south counts reproduce their county lines), so block line "
                    f"{t.stated_end_line} lies {_num(stated_at)} sections {self.label}, inside section "
                    f"{math.floor(stated_at) + 1}, and the {self.tiers[i + 1].blocks_per_section}-block sections "
                    f"begin at line {end}."
                )
            at = end
        return notes

    def _rest_sum(self, tier_index: int, start: int) -> str:
        terms = []
        for j, t in enumerate(self.tiers[tier_index + 1 :], start=tier_index + 1):
            n = t.sections if t.sections is not None else self._tier_of_section.count(j)
            terms.append(f"{n} × {t.blocks_per_section}")
        return f"{start} + " + " + ".join(terms) + f" = {self.county_line} at the county line"


class NumbersPerBlock(Source):
    value: int = Field(gt=1)


class Parity(Source):
    even_sides: list[Side]
    odd_sides: list[Side]


class Diagonal(BaseModel):
    model_config = ConfigDict(extra="forbid")
    northerly_max_deviation_degrees: float
    sources: list[Source]


class Sources(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sources: list[Source]


class Grid(BaseModel):
    model_config = ConfigDict(extra="forbid")

    county: str
    numbers_per_block: NumbersPerBlock
    nominal_feet_per_section: int
    parity: Parity
    diagonal: Diagonal
    designation: Sources
    point_of_determination: Sources
    axes: dict[AxisName, Axis]

    @property
    def digits(self) -> int:
        return len(str(self.numbers_per_block.value - 1))


class Condition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    field: str
    equals: Any = None
    greater_than: float | None = None

    def holds(self, value: Any) -> bool | None:
        if value is None:
            return None
        if self.greater_than is not None:
            return value > self.greater_than
        return value == self.equals

    def describe(self) -> str:
        if self.greater_than is not None:
            return f"{self.field} > {_num(self.greater_than)}"
        return f"{self.field} = {_show(self.equals)}"


class Check(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    min: float | None = None
    max: float | None = None
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")
    pattern: str | None = None


class PlacementRule(Source):
    id: str
    requirement: str
    field: str
    unit: str | None = None
    check: Check
    when: list[Condition] = Field(default_factory=list)
    optional: bool = Field(default=False, description="Checked only when the field is given.")


class PlacementCode(BaseModel):
    """How one municipality's house-number rules are named and read (data, not code)."""

    model_config = ConfigDict(extra="forbid")

    who: str = Field(description="The rules as named in the explanation, e.g. the code and its section.")
    assumptions: list[str] = Field(default_factory=list, description="Readings of the text the check uses.")


class AddressData(BaseModel):
    model_config = ConfigDict(extra="forbid")

    grid: Grid
    readings: dict[str, str]
    placement: dict[str, list[PlacementRule]]
    placement_codes: dict[str, PlacementCode] = Field(default_factory=dict)
    tools: dict[str, Any] = Field(default_factory=dict, description="Coverage (assistant/tools/coverage.py).")

    def sources(self) -> list[Source]:
        """Every quote in the file (for the citation test)."""
        g = self.grid
        out: list[Source] = [g.numbers_per_block, g.parity, *g.diagonal.sources]
        out += [*g.designation.sources, *g.point_of_determination.sources]
        for axis in g.axes.values():
            out += [axis.origin, *axis.tiers]
        for rules in self.placement.values():
            out += rules
        return out


@functools.cache
def load_address_data(path: str | None = None) -> AddressData:
    """Read and check the data file (cached). Raises GridDataError when inconsistent."""
    raw = yaml.safe_load(Path(path or DATA_FILE).read_text(encoding="utf-8"))
    try:
        return AddressData.model_validate(raw)
    except GridDataError:
        raise
    except ValueError as exc:  # pydantic wraps errors raised in validators
        raise GridDataError(str(exc)) from exc


def _grid() -> Grid:
    return load_address_data().grid


def _readings() -> dict[str, str]:
    return load_address_data().readings


# --------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------


def _num(x: Fraction | float | int) -> str:
    """A number for people: at most 4 decimals, no trailing zeros."""
    text = f"{float(x):.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return _num(v)
    return str(v)


def _exact(value: float) -> Fraction:
    """The decimal a user typed, exactly (5.3 is 53/10, not the nearest binary float)."""
    return Fraction(repr(float(value)))


def _dedupe(citations: list[Citation]) -> list[Citation]:
    seen: set[tuple[str | None, str]] = set()
    out = []
    for c in citations:
        key = (c.passage_id, c.quote)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _parity_of_side(side: Side) -> Literal["even", "odd"]:
    return "even" if side in _grid().parity.even_sides else "odd"


def _sides_for(parity: str, direction: StreetDirection) -> Side:
    sides = _grid().parity.even_sides if parity == "even" else _grid().parity.odd_sides
    wanted = ("east", "west") if direction == "north-south" else ("north", "south")
    return next(s for s in sides if s in wanted)


def _number_in_block(axis: Axis, line: Fraction, parity: Literal["even", "odd"]) -> tuple[int, int, int, bool]:
    """(block, raw digits, digits, stepped): floor of the position within the block in
    hundredths, then one step to the right parity, staying inside the block."""
    per_block = _grid().numbers_per_block.value
    block = axis.block_of(line)
    raw = min(math.floor((line - block) * per_block), per_block - 1)
    want = 0 if parity == "even" else 1
    digits = raw
    if raw % 2 != want:
        digits = raw + 1 if raw + 1 < per_block else raw - 1
    return block, raw, digits, digits != raw


def _street_direction_for_bearing(bearing: float) -> tuple[StreetDirection, float]:
    """The direction a diagonal street is numbered as, and its deviation from north-south."""
    b = bearing % 180.0
    deviation = min(b, 180.0 - b)
    limit = _grid().diagonal.northerly_max_deviation_degrees
    return ("north-south" if deviation <= limit else "east-west"), deviation


def _resolve_side(side: str, bearing: float, direction: StreetDirection) -> Side | None:
    """Which numbering side a compass side names, for a street with this bearing.

    The two sides of a street face its two normals (bearing ± 90°); the side meant is the
    normal nearer the compass direction given. None when the direction given runs along
    the street (it names neither side).
    """
    a = _COMPASS_DEGREES[side]
    normals = [(bearing + 90.0) % 360.0, (bearing - 90.0) % 360.0]

    def gap(n: float) -> float:
        d = abs(a - n) % 360.0
        return min(d, 360.0 - d)

    g0, g1 = gap(normals[0]), gap(normals[1])
    if math.isclose(g0, g1, abs_tol=1e-9):
        return None
    normal = math.radians(normals[0] if g0 < g1 else normals[1])
    if direction == "north-south":
        return "east" if math.sin(normal) > 0 else "west"
    return "north" if math.cos(normal) > 0 else "south"


# --------------------------------------------------------------------------------------
# Models shared by the two grid tools
# --------------------------------------------------------------------------------------


class GridRange(BaseModel):
    """Where a block lies along one axis, as block lines and as distances from its base line."""

    model_config = ConfigDict(extra="forbid")

    axis: Literal["west", "north", "south"] = Field(
        description="west: from the east county line; north/south: from the east-west base line."
    )
    block: str = Field(description="Block designation along this axis, e.g. 'W305' or 'N15'.")
    line_from: float = Field(description="Block line on the side toward the base line.")
    line_to: float = Field(description="Block line on the far side.")
    sections_from: float = Field(description="Distance of line_from from the base line, in sections (≈ miles).")
    sections_to: float = Field(description="Distance of line_to from the base line, in sections (≈ miles).")
    feet_from: float = Field(description="sections_from in feet, taking a section as 5,280 ft (nominal).")
    feet_to: float = Field(description="sections_to in feet, taking a section as 5,280 ft (nominal).")


def _range(axis_name: AxisName, block: int) -> GridRange:
    g = _grid()
    axis = g.axes[axis_name]
    lo = axis.distance_of(Fraction(block))
    hi = axis.distance_of(Fraction(block + 1))
    return GridRange(
        axis=axis_name,
        block=f"{axis.letter}{block}",
        line_from=block,
        line_to=block + 1,
        sections_from=float(lo),
        sections_to=float(hi),
        feet_from=float(lo * g.nominal_feet_per_section),
        feet_to=float(hi * g.nominal_feet_per_section),
    )


def _grid_citations(axes: list[AxisName], *, diagonal: bool = False) -> list[Citation]:
    g = _grid()
    sources: list[Source] = []
    for name in axes:
        sources += [g.axes[name].origin, *g.axes[name].tiers]
    sources += [g.numbers_per_block, g.parity, *g.designation.sources]
    if diagonal:
        sources += g.diagonal.sources
    return _dedupe([s.citation() for s in sources])


def _always_assumptions() -> list[str]:
    r = _readings()
    return [*_grid().axes["west"].tier_discrepancies(), r["digits"], r["parity"], r["street_line"]]


# --------------------------------------------------------------------------------------
# address_from_position
# --------------------------------------------------------------------------------------


def _norm_word(v: Any) -> Any:
    if isinstance(v, str):
        v = re.sub(r"[\s_]+", " ", v.strip().lower())
        v = re.sub(r"\s+side$", "", v)
    return v


class AddressFromPositionInput(ToolInput):
    """A property's position on the Waukesha County grid, its street and its side of it."""

    west: float = Field(
        allow_inf_nan=False,
        description="Distance west of the east line of Waukesha County (block line 124), in `unit`. "
        "For a north-south street: where the street (its centre line) lies; for an east-west "
        "street: the property's point of determination along it.",
    )
    north: float | None = Field(
        default=None,
        ge=0,
        allow_inf_nan=False,
        description="Distance north of the east-west base line (block line 1), in `unit`; "
        "give this or `south`, not both.",
    )
    south: float | None = Field(
        default=None,
        ge=0,
        allow_inf_nan=False,
        description="Distance south of the east-west base line (block line 1), in `unit`; "
        "give this or `north`, not both.",
    )
    unit: Unit = Field(
        default="miles",
        description="miles, sections (whole and fractional sections counted from the line: "
        "exact under the code) or feet; miles and feet assume 1-mile (5,280 ft) sections.",
    )
    street_direction: StreetDirection | None = Field(
        default=None,
        description="north-south or east-west; for a diagonal or curved street give bearing_degrees instead.",
    )
    bearing_degrees: float | None = Field(
        default=None,
        ge=0,
        le=360,
        allow_inf_nan=False,
        description="General direction of a diagonal or curved street, degrees clockwise from north "
        "(30 and 210 are the same street). 45° off north-south or less counts as northerly/southerly.",
    )
    side: CompassSide = Field(
        description="Side of the street the property is on: north, south, east or west "
        "(northeast... also accepted for diagonal streets)."
    )

    @field_validator("street_direction", mode="before")
    @classmethod
    def _direction_words(cls, v: Any) -> Any:
        v = _norm_word(v)
        if isinstance(v, str):
            v = v.replace(" ", "-")
            if v in {"ns", "n-s", "north-south", "northsouth", "south-north", "northerly", "southerly"}:
                return "north-south"
            if v in {"ew", "e-w", "east-west", "eastwest", "west-east", "westerly", "easterly"}:
                return "east-west"
        return v

    @field_validator("side", mode="before")
    @classmethod
    def _side_words(cls, v: Any) -> Any:
        v = _norm_word(v)
        if isinstance(v, str):
            v = v.replace("-", "").replace(" ", "")
            v = {"n": "north", "s": "south", "e": "east", "w": "west", "ne": "northeast",
                 "nw": "northwest", "se": "southeast", "sw": "southwest"}.get(v, v)
        return v

    @model_validator(mode="after")
    def _one_of_each(self) -> "AddressFromPositionInput":
        if (self.north is None) == (self.south is None):
            raise ValueError(
                "give exactly one of `north` or `south` (the distance from the east-west base line)"
            )
        if (self.street_direction is None) == (self.bearing_degrees is None):
            raise ValueError(
                "give exactly one of `street_direction` (north-south or east-west) or "
                "`bearing_degrees` (for a diagonal or curved street)"
            )
        return self


class AddressFromPositionOutput(ToolOutput):
    address: str | None = Field(default=None, description="The full grid address, e.g. 'W305 N1530'.")
    street_designation: str | None = Field(default=None, description="First part: letter and block line, e.g. 'W305'.")
    property_number: str | None = Field(
        default=None, description="Second part: letter, block line and 2 digits, e.g. 'N1530'."
    )
    street_direction: StreetDirection | None = Field(
        default=None, description="How the street is numbered (a diagonal street by its bearing)."
    )
    deviation_degrees: float | None = Field(
        default=None, description="For a bearing: its deviation from north-south, 0–90°."
    )
    side: Side | None = Field(default=None, description="Side of the street the number belongs to.")
    parity: Literal["even", "odd"] | None = Field(default=None, description="Even (north, east) or odd (south, west).")
    block: str | None = Field(default=None, description="The block, e.g. 'W305 N15' (east and base-line-side lines).")
    west_line: float | None = Field(default=None, description="Fractional block line of the position, westward.")
    north_south_line: float | None = Field(
        default=None, description="Fractional block line of the position, north or south."
    )
    digits_before_parity: int | None = Field(
        default=None, description="Position in the block in hundredths (floor), before the parity step."
    )


@answers_changed_rules("address_from_position")
def address_from_position(inp: AddressFromPositionInput) -> AddressFromPositionOutput:
    """The Waukesha County grid address of a property from its position and street."""
    g = _grid()
    name = ADDRESS_FROM_POSITION
    assumptions = _always_assumptions() + [_readings()["position"]]
    if inp.unit != "sections":
        assumptions.append(_readings()["nominal_section"])

    ns_name: AxisName = "north" if inp.north is not None else "south"
    per_unit = {"sections": Fraction(1), "miles": Fraction(1), "feet": Fraction(1, g.nominal_feet_per_section)}
    west_s = _exact(inp.west) * per_unit[inp.unit]
    ns_s = _exact(inp.north if inp.north is not None else inp.south) * per_unit[inp.unit]  # type: ignore[arg-type]
    west_axis, ns_axis = g.axes["west"], g.axes[ns_name]
    citations = _grid_citations(["west", ns_name], diagonal=inp.bearing_degrees is not None)

    def fail(error: str) -> AddressFromPositionOutput:
        return AddressFromPositionOutput(
            tool=name, ok=False, error=error, explanation=error, citations=citations, assumptions=assumptions
        )

    unit_word = inp.unit
    if west_s < 0:
        return fail(
            f"west = {_num(inp.west)} {unit_word} lies east of the Waukesha County line (block line "
            f"{west_axis.origin_line}); the grid only numbers properties in the county."
        )
    if west_s > west_axis.sections:
        return fail(
            f"west = {_num(inp.west)} {unit_word} lies beyond the west county line, which is "
            f"{west_axis.sections} sections (block line {west_axis.county_line}) west of the east county line."
        )
    if ns_s > ns_axis.sections:
        return fail(
            f"{ns_name} = {_num(inp.north if inp.north is not None else inp.south)} {unit_word} lies beyond the "
            f"{ns_name} county line, which is {ns_axis.sections} rows of sections (block line "
            f"{ns_axis.county_line}) {ns_axis.label}."
        )

    if inp.bearing_degrees is not None:
        direction, deviation = _street_direction_for_bearing(inp.bearing_degrees)
        bearing: float = inp.bearing_degrees
    else:
        direction, deviation = inp.street_direction, None  # type: ignore[assignment]
        bearing = 0.0 if direction == "north-south" else 90.0
    side = _resolve_side(inp.side, bearing, direction)  # type: ignore[arg-type]
    if side is None:
        across = "east or west" if direction == "north-south" else "north or south"
        return fail(
            f"side = {inp.side} runs along the street (numbered as {direction}); its sides are {across}."
        )
    parity = _parity_of_side(side)

    west_line = west_axis.line_at(west_s)
    ns_line = ns_axis.line_at(ns_s)
    west_block = west_axis.block_of(west_line)
    ns_block = ns_axis.block_of(ns_line)
    width = g.digits
    if direction == "north-south":  # (3)(b)-(c): street by its place west, number north or south
        street_axis, street_s, street_block = west_axis, west_s, west_block
        num_axis, num_line, num_s = ns_axis, ns_line, ns_s
    else:  # (3)(d): street by its place north or south, number west
        street_axis, street_s, street_block = ns_axis, ns_s, ns_block
        num_axis, num_line, num_s = west_axis, west_line, west_s
    block, raw, digits, stepped = _number_in_block(num_axis, num_line, parity)
    street_designation = f"{street_axis.letter}{street_block}"
    property_number = f"{num_axis.letter}{block}{digits:0{width}d}"
    address = f"{street_designation} {property_number}"

    if west_s == west_axis.sections or ns_s == ns_axis.sections:
        assumptions.append(_readings()["county_lines"])
    if deviation is not None and deviation == g.diagonal.northerly_max_deviation_degrees:
        assumptions.append(
            f"The street's bearing deviates exactly {_num(deviation)}° from north-south, so it is numbered "
            "as a northerly or southerly street ((3)(f))."
        )

    how_street = (
        f"The street lies {_num(street_s)} sections {street_axis.label}: {street_axis.arithmetic(street_s)}, "
        f"in the block whose {_BOUNDARY[street_axis.letter]} boundary is line {street_block}, so the street "
        f"designation is {street_designation}."
    )
    depth = num_line - block
    clamp = " (the county line itself stays in the last block inside the county)" if depth >= 1 else ""
    if stepped:
        step = f" The {side} side takes {parity} numbers, so {raw:0{width}d} becomes {digits:0{width}d}."
    else:
        step = f" The {side} side takes {parity} numbers, and {raw:0{width}d} is {parity}."
    how_number = (
        f"The property lies {_num(num_s)} sections {num_axis.label}: {num_axis.arithmetic(num_s)}, in block "
        f"{num_axis.letter}{block} at {_num(depth)} of its depth, i.e. "
        f"{_num(depth * g.numbers_per_block.value)} of its {g.numbers_per_block.value} numbers; rounded down "
        f"that is {raw:0{width}d}{clamp}.{step} Property number: {property_number}."
    )
    street_kind = f"The street is numbered as {direction}"
    if deviation is not None:
        street_kind += f" (bearing {_num(bearing)}°, {_num(deviation)}° off north-south)"
    explanation = f"{street_kind}. {how_street} {how_number} Address: {address}."

    return AddressFromPositionOutput(
        tool=name,
        explanation=explanation,
        citations=citations,
        assumptions=assumptions,
        address=address,
        street_designation=street_designation,
        property_number=property_number,
        street_direction=direction,
        deviation_degrees=deviation,
        side=side,
        parity=parity,
        block=f"W{west_block} {ns_axis.letter}{ns_block}",
        west_line=float(west_line),
        north_south_line=float(ns_line),
        digits_before_parity=raw,
    )


# --------------------------------------------------------------------------------------
# parse_address
# --------------------------------------------------------------------------------------

_ADDRESS_RE = re.compile(
    r"""^\s*
    (?P<l1>[NSW])\s*[-.]?\s*(?P<n1>\d+)
    \s*[,;/-]?\s*
    (?P<l2>[NSW])\s*[-.]?\s*(?P<n2>\d+)
    (?:[\s,]+(?P<rest>.*?))?\s*$""",
    re.IGNORECASE | re.VERBOSE,
)


class ParseAddressInput(ToolInput):
    """A Waukesha County grid address to read, and optionally the side it is on."""

    address: str = Field(
        min_length=1,
        description="The address, e.g. 'W305 N1530' or 'N8 W22195 Johnson Dr' (spacing and case are free).",
    )
    side: Side | None = Field(
        default=None,
        description="Optional: the side of the street the property is actually on, to check the number's parity.",
    )

    @field_validator("side", mode="before")
    @classmethod
    def _side_words(cls, v: Any) -> Any:
        v = _norm_word(v)
        if isinstance(v, str):
            v = {"n": "north", "s": "south", "e": "east", "w": "west"}.get(v, v)
        return v


class ParseAddressOutput(ToolOutput):
    address: str | None = Field(default=None, description="The address written the standard way, e.g. 'W305 N1530'.")
    street_name: str | None = Field(default=None, description="Text after the number (street name), unchecked.")
    street_designation: str | None = Field(default=None, description="First part, e.g. 'W305'.")
    property_number: str | None = Field(default=None, description="Second part, e.g. 'N1530'.")
    street_direction: StreetDirection | None = Field(default=None, description="How the street is numbered.")
    base_line_side: Literal["north", "south"] | None = Field(
        default=None, description="Whether the address lies north or south of the east-west base line."
    )
    side: Side | None = Field(default=None, description="Side of the street the number belongs on.")
    parity: Literal["even", "odd"] | None = Field(default=None, description="Parity of the property number.")
    block: str | None = Field(default=None, description="The block, e.g. 'W305 N15'.")
    position_in_block: float | None = Field(
        default=None, description="How far along the block the number lies (digits / 100)."
    )
    west_range: GridRange | None = Field(default=None, description="Where the block lies west of the county line.")
    north_south_range: GridRange | None = Field(
        default=None, description="Where the block lies north or south of the base line."
    )


def _swap_hint(l1: str, n1: str, l2: str, n2: str) -> str:
    """' Did you mean ...?' when the two parts in the other order make a valid address."""
    swapped = f"{l2}{n2} {l1}{n1}"
    if _check_parts(l2, int(n2), l1, n2=n1) is None:
        return f" The street designation comes first: did you mean {swapped!r}?"
    return ""


def _axis_for_letter(letter: str) -> tuple[AxisName, Axis]:
    name: AxisName = {"W": "west", "N": "north", "S": "south"}[letter]  # type: ignore[assignment]
    return name, _grid().axes[name]


def _block_problem(letter: str, block: int, what: str) -> str | None:
    _, axis = _axis_for_letter(letter)
    if block < axis.origin_line:
        if letter == "W":
            return (
                f"{what} {letter}{block} lies east of the Waukesha County line: block lines west of it "
                f"start at {axis.origin_line}."
            )
        return (
            f"{what} {letter}{block} cannot exist: the base line is block line {axis.origin_line}, so "
            f"{letter} block lines start at {axis.origin_line}."
        )
    if block > axis.last_block:
        return (
            f"{what} {letter}{block} lies beyond the county: the {axis.label.split(' of ')[0]} county line is "
            f"block line {axis.county_line}, so the last block inside the county is {letter}{axis.last_block}."
        )
    return None


def _check_parts(l1: str, street_block: int, l2: str, n2: str) -> str | None:
    """The reason an address cannot exist, or None."""
    if l1 == "W" and l2 not in "NS":
        return (
            f"a street designated {l1}{street_block} runs north-south, so its property numbers start with "
            f"N or S, not {l2}."
        )
    if l1 in "NS" and l2 != "W":
        return (
            f"a street designated {l1}{street_block} runs east-west, so its property numbers start with W, "
            f"not {l2}."
        )
    width = _grid().digits
    if len(n2) <= width:
        return (
            f"the property number {l2}{n2} needs the block line followed by {width} digits for the "
            "position in the block."
        )
    problem = _block_problem(l1, street_block, "The street designation")
    if problem:
        return problem
    return _block_problem(l2, int(n2[:-width]), "The property number's block")


@answers_changed_rules("parse_address")
def parse_address(inp: ParseAddressInput) -> ParseAddressOutput:
    """Read a grid address: where it lies, which side of the street, whether it can exist."""
    g = _grid()
    name = PARSE_ADDRESS
    assumptions = _always_assumptions()
    m = _ADDRESS_RE.match(inp.address)
    if not m:
        error = (
            f"{inp.address!r} is not a Waukesha County grid address: expected a street designation and a "
            "property number, each a letter N, S or W followed by digits, e.g. 'W305 N1530' "
            "(north-south street) or 'N8 W22195' (east-west street)."
        )
        return ParseAddressOutput(
            tool=name, ok=False, error=error, explanation=error,
            citations=_grid_citations(["west", "north", "south"]), assumptions=assumptions,
        )
    l1, n1, l2, n2 = m["l1"].upper(), m["n1"], m["l2"].upper(), m["n2"]
    street_block = int(n1)
    width = g.digits
    direction: StreetDirection = "north-south" if l1 == "W" else "east-west"
    ns_letter = l2 if direction == "north-south" else l1
    axes: list[AxisName] = ["west", _axis_for_letter(ns_letter)[0] if ns_letter in "NS" else "north"]
    citations = _grid_citations(axes)

    problem = _check_parts(l1, street_block, l2, n2)
    if problem:
        error = f"{inp.address!r} cannot exist: {problem}" + _swap_hint(l1, n1, l2, n2)
        return ParseAddressOutput(
            tool=name, ok=False, error=error, explanation=error, citations=citations, assumptions=assumptions
        )

    num_block, digits = int(n2[:-width]), int(n2[-width:])
    parity: Literal["even", "odd"] = "even" if digits % 2 == 0 else "odd"
    side = _sides_for(parity, direction)
    ns_name, ns_axis = _axis_for_letter(ns_letter)
    west_block = street_block if direction == "north-south" else num_block
    ns_block = num_block if direction == "north-south" else street_block
    west_range = _range("west", west_block)
    ns_range = _range(ns_name, ns_block)
    street_designation = f"{l1}{street_block}"
    property_number = f"{l2}{num_block}{digits:0{width}d}"
    address = f"{street_designation} {property_number}"
    along, across = (ns_range, west_range) if direction == "north-south" else (west_range, ns_range)
    along_axis = ns_axis if direction == "north-south" else g.axes["west"]
    at = along_axis.distance_of(Fraction(num_block) + Fraction(digits, g.numbers_per_block.value))
    explanation = (
        f"{address}: {'an' if direction == 'east-west' else 'a'} {direction} street in the block {across.block} (block lines {across.line_from:g}–"
        f"{across.line_to:g}, {_num(across.sections_from)}–{_num(across.sections_to)} sections "
        f"{_axis_for_letter(l1)[1].label}); the property lies in block {along.block} (block lines "
        f"{along.line_from:g}–{along.line_to:g}, {_num(along.sections_from)}–{_num(along.sections_to)} sections "
        f"{along_axis.label}), {digits} hundredths into it, about {_num(at)} sections "
        f"(≈ {_num(at * g.nominal_feet_per_section)} ft at 5,280 ft a section) {along_axis.label}. "
        f"{digits:0{width}d} is {parity}, so the number belongs on the {side} side of the street."
    )
    out = ParseAddressOutput(
        tool=name,
        explanation=explanation,
        citations=citations,
        assumptions=assumptions,
        address=address,
        street_name=(m["rest"] or None),
        street_designation=street_designation,
        property_number=property_number,
        street_direction=direction,
        base_line_side="north" if ns_letter == "N" else "south",
        side=side,
        parity=parity,
        block=f"W{west_block} {ns_letter}{ns_block}",
        position_in_block=digits / g.numbers_per_block.value,
        west_range=west_range,
        north_south_range=ns_range,
    )
    if inp.side is not None and inp.side != side:
        sides = "east or west" if direction == "north-south" else "north or south"
        if inp.side not in sides.split(" or "):
            error = (
                f"side = {inp.side}: {address} is on a {direction} street, whose sides are {sides}."
            )
        else:
            error = (
                f"{address} is on the wrong side of the street: {parity} numbers belong on the {side} side "
                f"(even on the north and east, odd on the south and west), but the property is on the "
                f"{inp.side} side."
            )
        out.ok = False
        out.error = error
        out.explanation = error + " " + explanation
    return out


# --------------------------------------------------------------------------------------
# grid_block_line
# --------------------------------------------------------------------------------------


class GridBlockLineInput(ToolInput):
    """Which way from the base line, and how many whole sections (rows) out."""

    direction: AxisName = Field(
        description="west: from the east county line (block line 124) westward; north or south: from the "
        "east-west base line (block line 1)."
    )
    sections: int = Field(
        ge=0,
        description="Whole sections (west) or rows of sections (north, south) counted from that line; 0 is the "
        "line itself. At most 24 west, 11 north, 13 south (the county lines).",
    )

    @field_validator("direction", mode="before")
    @classmethod
    def _direction_words(cls, v: Any) -> Any:
        v = _norm_word(v)
        if isinstance(v, str):
            v = {"w": "west", "n": "north", "s": "south", "westward": "west", "northward": "north",
                 "southward": "south", "westerly": "west", "northerly": "north", "southerly": "south"}.get(v, v)
        return v


class GridBlockLineOutput(ToolOutput):
    direction: AxisName | None = Field(default=None, description="The axis counted along.")
    sections: int | None = Field(default=None, description="Whole sections (rows) counted from the base line.")
    block_line: int | None = Field(
        default=None, description="The block line at the outer edge of those sections (rows), e.g. 172."
    )
    designation: str | None = Field(
        default=None, description="The line as a street designation would write it, e.g. 'W172'."
    )
    blocks_per_section: list[int] = Field(
        default_factory=list, description="Blocks in each section (row) counted, outward from the base line."
    )
    next_section_blocks: int | None = Field(
        default=None, description="Blocks in the next section (row) outward; null at the county line."
    )
    nominal_distance_ft: int | None = Field(
        default=None, description="sections × 5,280 ft: the distance if every section were exactly a mile (nominal)."
    )


def _sum_in_runs(origin: int, blocks: tuple[int, ...]) -> str:
    """'124 + 6 × 16 + 2 × 10' (runs of equal counts), or '124' for none."""
    parts = [str(origin)]
    run_n, run_len = None, 0
    for n in blocks:
        if n == run_n:
            run_len += 1
            continue
        if run_n is not None:
            parts.append(f"{run_len} × {run_n}" if run_len > 1 else str(run_n))
        run_n, run_len = n, 1
    if run_n is not None:
        parts.append(f"{run_len} × {run_n}" if run_len > 1 else str(run_n))
    return " + ".join(parts)


@answers_changed_rules("grid_block_line")
def grid_block_line(inp: GridBlockLineInput) -> GridBlockLineOutput:
    """The block line at the outer edge of the first N sections (rows) along one axis."""
    g = _grid()
    axis = g.axes[inp.direction]
    name = GRID_BLOCK_LINE
    unit = "sections" if inp.direction == "west" else "rows of sections"
    one = "section" if inp.direction == "west" else "row"
    n = inp.sections
    citations = _dedupe([s.citation() for s in [axis.origin, *axis.tiers_within(n)]])
    assumptions: list[str] = []
    if n > axis.sections:
        error = (
            f"sections = {n} lies beyond the county: {axis.label.split(' of ')[0]}ward the county has "
            f"{axis.sections} {unit} (block line {axis.county_line} at the county line); give 0 to {axis.sections}."
        )
        return GridBlockLineOutput(
            tool=name, ok=False, error=error, explanation=error, direction=inp.direction, sections=n,
            citations=_dedupe([s.citation() for s in [axis.origin, *axis.tiers]]), assumptions=assumptions,
        )
    counted = axis.blocks_per_section[:n]
    line = axis.origin_line + sum(counted)
    nxt = axis.blocks_per_section[n] if n < axis.sections else None
    # The west tier boundary: the text's "200" disagrees with its own counts (220). Every line
    # from the sixth section out to the one before the county line depends on that reading.
    first = axis.tiers[0]
    if inp.direction == "west" and first.stated_end_line is not None and (first.sections or 0) <= n < axis.sections:
        assumptions += axis.tier_discrepancies()
    assumptions.append(
        "Sections are counted whole, as the text counts them; a section is a surveyed section, about a mile, "
        "and each block gets 100 numbers 'regardless of discrepancies in block sizes'."
    )
    where = "the east county line" if inp.direction == "west" else "the east-west base line"
    if n == 0:
        arithmetic = f"{where} itself is block line {axis.origin_line}"
    else:
        first_n = f"the first {one}" if n == 1 else f"the first {n} {unit}"
        arithmetic = f"{_sum_in_runs(axis.origin_line, counted)} = {line} at the {inp.direction} edge of {first_n}"
    tail = (
        f" The next {one} outward has {nxt} blocks." if nxt is not None
        else f" Block line {line} is the {inp.direction} county line."
    )
    explanation = (
        f"Block lines are numbered {inp.direction}ward from {axis.origin_line} at {where}, each {one} adding "
        f"its blocks: {arithmetic}.{tail}"
    )
    return GridBlockLineOutput(
        tool=name,
        explanation=explanation,
        citations=citations,
        assumptions=assumptions,
        direction=inp.direction,
        sections=n,
        block_line=line,
        designation=f"{axis.letter}{line}",
        blocks_per_section=list(counted),
        next_section_blocks=nxt,
        nominal_distance_ft=n * g.nominal_feet_per_section,
    )


# --------------------------------------------------------------------------------------
# check_house_number_placement
# --------------------------------------------------------------------------------------


def _municipality_id(v: Any) -> Any:
    """An id, name or alias resolved to an id the placement rules cover (from the data)."""
    if not isinstance(v, str):
        return v
    from assistant.corpus import UnknownMunicipality, resolve_municipality

    covered = sorted(load_address_data().placement)
    try:
        m = resolve_municipality(v)
    except UnknownMunicipality:
        m = None
    if m is None or m.id not in covered:
        raise ValueError(f"no house-number rules for {v!r}; known: {', '.join(covered)}")
    return m.id


class PlacementInput(ToolInput):
    """Installed house numbers, as measured. Leave out what was not measured."""

    municipality: str = Field(
        description="Whose rules: a municipality id or name whose house-number rules the data holds."
    )
    distance_from_pavement_edge_ft: float | None = Field(
        default=None, ge=0, allow_inf_nan=False, description="Feet from the edge of the road pavement."
    )
    distance_from_driveway_edge_ft: float | None = Field(
        default=None,
        ge=0,
        allow_inf_nan=False,
        description="Feet from the nearer side edge of the driveway.",
    )
    height_above_grade_ft: float | None = Field(
        default=None,
        allow_inf_nan=False,
        description="Feet above the finished grade at the point of installation.",
    )
    character_width_in: float | None = Field(
        default=None, gt=0, allow_inf_nan=False, description="Width of the characters, inches."
    )
    character_height_in: float | None = Field(
        default=None, gt=0, allow_inf_nan=False, description="Height of the characters, inches (both)."
    )
    number_color: Literal["black", "other"] | None = Field(
        default=None, description="Colour of the letters and numbers: black or other."
    )
    background: Literal["white", "reflective", "other"] | None = Field(
        default=None, description="Background: white, reflective or other."
    )
    visible_from_road: bool | None = Field(
        default=None,
        description="Clearly visible from the traveled road / seen plainly from the street.",
    )
    on_side_of_street_where_home_sits: bool | None = Field(
        default=None, description="Installed on the premises, on the side of the street the home sits."
    )
    on_mailbox: bool = Field(default=False, description="The numbers are displayed on a mailbox.")
    other_mailbox_adjacent: bool = Field(
        default=False, description="Another mailbox stands next to it."
    )
    numbers_also_on_property: bool | None = Field(
        default=None, description="Numbers are also placed on the property itself."
    )
    orientation: Literal["parallel", "perpendicular"] = Field(
        default="parallel",
        description="Numbers parallel (the default, as the code advises) or perpendicular to the road.",
    )
    visible_from_travel_direction: bool | None = Field(
        default=None,
        description="For perpendicular numbers: visible from the travel direction next to them.",
    )
    shared_driveway_or_private_road: bool = Field(
        default=False, description="The home shares a common driveway or is on a private road."
    )
    numbered_at_public_road: bool | None = Field(
        default=None, description="Shared driveway/private road: numbers where it meets the public road."
    )
    numbered_at_each_fork: bool | None = Field(
        default=None, description="Shared driveway/private road: numbers at each split, fork or intersection after."
    )
    placed_at_door: bool | None = Field(
        default=None, description="Immediately above, on or at the side of the proper door."
    )
    building_setback_ft: float | None = Field(
        default=None, ge=0, allow_inf_nan=False, description="Feet from the street line to the building."
    )
    displayed_at_street_line: bool | None = Field(
        default=None, description="The number is also displayed at the street line."
    )
    suffix: str | None = Field(
        default=None, description="Suffix for a portion of a building, e.g. 'A'; case is ignored."
    )

    @field_validator("suffix", mode="after")
    @classmethod
    def _suffix_upper(cls, v: str | None) -> str | None:
        return v.upper() if v else v

    @field_validator("municipality", mode="before")
    @classmethod
    def _municipality_names(cls, v: Any) -> Any:
        return _municipality_id(v)


CheckStatus = Literal["pass", "fail", "not_checked", "not_applicable"]


class RequirementCheck(BaseModel):
    """One requirement of the code and how the installation measures against it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Stable id of the requirement.")
    requirement: str = Field(description="The requirement in plain words.")
    field: str = Field(description="The input field it checks.")
    status: CheckStatus = Field(description="pass, fail, not_checked (no measurement) or not_applicable.")
    measured: str | None = Field(default=None, description="The value given.")
    detail: str = Field(description="Why it passes, fails or was not checked.")
    citation: Citation = Field(description="The provision.")


class PlacementOutput(ToolOutput):
    municipality: str | None = Field(default=None, description="Whose rules were applied.")
    verdict: Literal["pass", "fail", "incomplete"] | None = Field(
        default=None,
        description="fail if any requirement fails; pass if every applicable one passes; "
        "incomplete if none fails but some were not measured.",
    )
    checks: list[RequirementCheck] = Field(default_factory=list, description="One row per requirement.")
    failures: list[str] = Field(default_factory=list, description="The requirements that fail, in words.")
    not_regulated: list[str] = Field(
        default_factory=list, description="Fields given that this municipality's code does not regulate."
    )


def _evaluate(rule: PlacementRule, value: Any) -> tuple[CheckStatus, str]:
    c = rule.check
    unit = f" {rule.unit}" if rule.unit else ""
    if value is None:
        return "not_checked", f"not given: set {rule.field} to check it"
    if c.min is not None and c.max is not None:
        ok = c.min <= value <= c.max
        return ("pass" if ok else "fail"), (
            f"{_show(value)}{unit} is {'within' if ok else 'outside'} {_num(c.min)}–{_num(c.max)}{unit}"
        )
    if c.max is not None:
        ok = value <= c.max
        return ("pass" if ok else "fail"), (
            f"{_show(value)}{unit} is {'at most' if ok else 'more than'} {_num(c.max)}{unit}"
        )
    if c.min is not None:
        ok = value >= c.min
        return ("pass" if ok else "fail"), (
            f"{_show(value)}{unit} is {'at least' if ok else 'less than'} {_num(c.min)}{unit}"
        )
    if c.in_ is not None:
        ok = value in c.in_
        return ("pass" if ok else "fail"), (
            f"{_show(value)} is {'one of' if ok else 'not one of'} {', '.join(map(_show, c.in_))}"
        )
    if c.pattern is not None:
        ok = re.fullmatch(c.pattern, str(value)) is not None
        return ("pass" if ok else "fail"), (
            f"{value!r} is {'a' if ok else 'not a'} letter suffix (A, B, C, ...)"
        )
    ok = value == c.equals
    return ("pass" if ok else "fail"), (
        f"{rule.field} is {_show(value)}; required: {_show(c.equals)}"
    )


@answers_changed_rules("check_house_number_placement")
def check_house_number_placement(inp: PlacementInput) -> PlacementOutput:
    """Installed house numbers against Delafield's or Brandon's rules, requirement by requirement."""
    rules = load_address_data().placement[inp.municipality]
    values = inp.model_dump()
    checks: list[RequirementCheck] = []
    for rule in rules:
        cond = [(c, c.holds(values.get(c.field))) for c in rule.when]
        value = values.get(rule.field)
        if any(h is False for _, h in cond):
            status: CheckStatus = "not_applicable"
            detail = "applies only when " + " and ".join(c.describe() for c, _ in cond)
        elif any(h is None for _, h in cond):
            status = "not_checked"
            detail = "applies when " + " and ".join(c.describe() for c, _ in cond) + "; not given"
        elif value is None and rule.optional:
            status, detail = "not_applicable", f"checked only when {rule.field} is given"
        else:
            status, detail = _evaluate(rule, value)
        checks.append(
            RequirementCheck(
                id=rule.id,
                requirement=" ".join(rule.requirement.split()),
                field=rule.field,
                status=status,
                measured=None if value is None else _show(value),
                detail=detail,
                citation=rule.citation(),
            )
        )

    used = {r.field for r in rules} | {c.field for r in rules for c in r.when} | {"municipality"}
    defaults = PlacementInput.model_fields
    not_regulated = sorted(
        f for f in inp.model_fields_set if f not in used and values[f] != defaults[f].default
    )
    failures = [f"{c.requirement}: {c.detail}" for c in checks if c.status == "fail"]
    if failures:
        verdict: Literal["pass", "fail", "incomplete"] = "fail"
    elif any(c.status == "not_checked" for c in checks):
        verdict = "incomplete"
    else:
        verdict = "pass"

    code = load_address_data().placement_codes.get(inp.municipality)
    who = code.who if code else inp.municipality
    counts = {s: sum(c.status == s for c in checks) for s in ("pass", "fail", "not_checked", "not_applicable")}
    explanation = (
        f"Checked the installation against the {len(checks)} requirements of {who}: "
        f"{counts['pass']} pass, {counts['fail']} fail, {counts['not_checked']} not measured, "
        f"{counts['not_applicable']} not applicable. Verdict: {verdict}."
    )
    if failures:
        explanation += " Fails: " + "; ".join(failures) + "."
    missing = [c.field for c in checks if c.status == "not_checked"]
    if missing:
        explanation += " Not measured: " + ", ".join(dict.fromkeys(missing)) + "."
    if not_regulated:
        explanation += (
            " Not regulated by this code: " + ", ".join(not_regulated) + "."
        )

    assumptions: list[str] = list(code.assumptions) if code else []
    return PlacementOutput(
        tool=CHECK_HOUSE_NUMBER_PLACEMENT,
        explanation=explanation,
        citations=_dedupe([c.citation for c in checks if c.status != "not_applicable"]),
        assumptions=assumptions,
        municipality=inp.municipality,
        verdict=verdict,
        checks=checks,
        failures=failures,
        not_regulated=not_regulated,
    )


# --------------------------------------------------------------------------------------
# Registry entries
# --------------------------------------------------------------------------------------

TOOLS: list[ToolSpec] = [
    ToolSpec(
        name=ADDRESS_FROM_POSITION,
        description=(
            "Compute a Waukesha County grid address such as 'W305 N1530' from a "
            "property's position west of the county line and north or south of the base line, the "
            "street's direction or bearing, and the side of the street."
        ),
        input_model=AddressFromPositionInput,
        output_model=AddressFromPositionOutput,
        fn=address_from_position,  # type: ignore[arg-type]
        keywords=(
            "address", "house number", "property number", "street designation", "grid", "block line",
            "base line", "county line", "uniform address system", "Waukesha County", "numbering",
        ),
    ),
    ToolSpec(
        name=PARSE_ADDRESS,
        description=(
            "Read a Waukesha County grid address such as 'W305 N1530': where it lies "
            "(block, distances from the county line and the base line), which side of the street it "
            "belongs on, and whether it can exist."
        ),
        input_model=ParseAddressInput,
        output_model=ParseAddressOutput,
        fn=parse_address,  # type: ignore[arg-type]
        keywords=(
            "address", "where is", "which side", "odd", "even", "house number", "block", "grid",
            "W", "N", "S", "uniform address system", "Waukesha County",
        ),
        route=Route(order=10, read="assistant.answering.routes.addresses:parse_address",
                    answers="a grid address written in the question: where it lies, which side, whether it exists",
                    cues=(r"\b(?:address|which side|what side|where (?:is|does|would)|block|grid|odd|even|exist|valid|"
                          r"lie|located|location|number(?:ing)?)\b",)),
    ),
    ToolSpec(
        name=GRID_BLOCK_LINE,
        description=(
            "Waukesha County address grid: what block line number lies at the west edge "
            "of the first N sections west of the county line, or at the north or south edge of the first N "
            "rows of sections from the base line (e.g. 3 sections west: 172)."
        ),
        input_model=GridBlockLineInput,
        output_model=GridBlockLineOutput,
        fn=grid_block_line,  # type: ignore[arg-type]
        keywords=(
            "block line", "which block line", "block line number", "sections west", "rows of sections",
            "west edge", "north edge", "south edge", "county line", "base line", "first sections", "grid",
            "uniform address system", "Waukesha County",
        ),
        route=Route(order=20, read="assistant.answering.routes.addresses:grid_block_line",
                    answers="the block line at the edge of the first N sections or rows",
                    cues=(r"block line",)),
    ),
    ToolSpec(
        name=CHECK_HOUSE_NUMBER_PLACEMENT,
        description=(
            "Check installed house numbers against the code (distance from the road and the driveway, "
            "height above grade, character size, colours, shared driveways; or minimum height, display at "
            "the street line for buildings set back far, A/B/C suffixes, as each code says)."
        ),
        input_model=PlacementInput,
        output_model=PlacementOutput,
        fn=check_house_number_placement,  # type: ignore[arg-type]
        route=Route(order=21, read="assistant.answering.routes.addresses:number_placement",
                    answers="installed house numbers' distances from the road and the driveway, height above grade and "
                    "the characters' size, against the code",
                    cues=(r"numb", r"driveway|road|pavement|street|ground|grade|tall|wide|high")),
        keywords=(
            "house number", "address numbers", "street number", "install", "mailbox", "height", "size",
            "inches", "visible", "driveway", "setback", "suffix", "reflective",
        ),
    ),
]
