"""Lengths from one unit to another: inches, feet, yards, and metric units (an inch is 25.4 mm exactly).

A pure function, exact in Decimal; a result that is not exact to three decimals is rounded to two and said
to be approximate. Not a calculator of the code's rules: it restates a figure a calculator gave in the unit
the user asked for.
"""

from __future__ import annotations

from decimal import Decimal

from pydantic import BaseModel, ConfigDict

# each unit in millimetres (exact: the inch is defined as 25.4 mm)
MM = {"in": Decimal("25.4"), "ft": Decimal("304.8"), "yd": Decimal("914.4"),
      "mm": Decimal(1), "cm": Decimal(10), "m": Decimal(1000)}
# the words people write for them
UNIT_OF = {"inch": "in", "inches": "in", "in": "in", "feet": "ft", "foot": "ft", "ft": "ft",
           "yard": "yd", "yards": "yd", "yd": "yd", "yds": "yd",
           "millimeter": "mm", "millimeters": "mm", "millimetre": "mm", "millimetres": "mm", "mm": "mm",
           "centimeter": "cm", "centimeters": "cm", "centimetre": "cm", "centimetres": "cm", "cm": "cm",
           "meter": "m", "meters": "m", "metre": "m", "metres": "m"}
NAMES = {"in": ("inch", "inches"), "ft": ("foot", "feet"), "yd": ("yard", "yards"), "mm": ("millimeter", "millimeters"),
         "cm": ("centimeter", "centimeters"), "m": ("meter", "meters")}


class Conversion(BaseModel):
    """A length restated in another unit."""

    model_config = ConfigDict(frozen=True)

    value: Decimal
    unit: str
    to_unit: str
    result: Decimal
    exact: bool
    text: str  # "0.875 feet", "about 0.83 feet"


def convert_length(value: Decimal, unit: str, to_unit: str) -> Conversion:
    """``value`` ``unit`` in ``to_unit`` (units as in MM or any word of UNIT_OF)."""
    src, dst = UNIT_OF.get(unit.lower(), unit), UNIT_OF.get(to_unit.lower(), to_unit)
    if src not in MM or dst not in MM:
        raise ValueError(f"unknown length unit: {unit if src not in MM else to_unit}")
    if value < 0:
        raise ValueError("a length is not negative")
    raw = value * MM[src] / MM[dst]
    exact = raw == raw.quantize(Decimal("0.001"))
    result = raw.quantize(Decimal("0.001")) if exact else raw.quantize(Decimal("0.01"))
    result = result.normalize() if result != result.to_integral_value() else result.quantize(Decimal(1))
    one, many = NAMES[dst]
    shown = format(result, "f")
    text = f"{'' if exact else 'about '}{shown} {one if result == 1 else many}"
    return Conversion(value=value, unit=src, to_unit=dst, result=result, exact=exact, text=text)
