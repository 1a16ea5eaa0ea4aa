"""The unit a question asks its answer in ("Give it to me in feet, my grade rod reads in feet"), and a
calculator's bold lengths restated in it ("**10.5 inches** (0.875 feet)") by assistant.tools.lengths.

The restated figure comes from a tested function (convert_length), and each conversion is recorded as a
tool call, so the answer guard finds its figures among the calculators' results.
"""

from __future__ import annotations

import re
from decimal import Decimal

from assistant.tools.lengths import UNIT_OF, convert_length
from assistant.types import ToolCall

_UNITS = r"(?P<u>feet|foot|ft|inches|inch|yards?|meters?|metres?|centimet(?:er|re)s?|cm|millimet(?:er|re)s?|mm)"
# a unit asked for: "give it to me in feet", "I need that in inches", "my rod reads in feet", "in meters, please",
# "convert it to feet", "how many feet is that" is no ask of this kind (the calculator's unit may be feet already)
_ASKED = re.compile(r"\b(?:give|tell|want|need|answer|convert|express|put|show|reads?|read|measures?|works?|working|"
                    r"rather|prefer|say)\b[^.?!]{0,30}?\b(?:in|into|to)\s+" + _UNITS + r"\b|"
                    r"\bin\s+" + _UNITS.replace("?P<u>", "?P<u2>") + r"\s*,?\s*(?:please|pls|thanks)\b", re.I)
_IN_UNIT = re.compile(r"\b(?:in|into|to)\s+" + _UNITS + r"\b", re.I)
# a calculator's bold length: "**10.5 inches**"
_BOLD_LENGTH = re.compile(r"\*\*(?P<n>\d[\d,]*(?:\.\d+)?) (?P<u>inches|inch|feet|foot|yards|yard)\*\*")


def asked_unit(question: str) -> str | None:
    """The length unit the question asks its answer in ('ft', 'in', ...), or None (none, or two different)."""
    if not _ASKED.search(question):
        return None
    # every unit the question puts an answer in ("in feet, or in inches if easier": two, so none is taken)
    found = {UNIT_OF[m.group("u").lower()] for m in _IN_UNIT.finditer(question)}
    return found.pop() if len(found) == 1 else None


def restate(text: str, question: str) -> tuple[str, list[ToolCall]]:
    """The text with each bold length in another unit than the one asked followed by its value in the asked
    unit, and the conversions as tool calls; the text unchanged when no unit is asked."""
    to = asked_unit(question)
    if to is None:
        return text, []
    calls: list[ToolCall] = []

    def one(m: re.Match) -> str:
        unit = UNIT_OF[m.group("u")]
        if unit == to:
            return m.group(0)
        value = Decimal(m.group("n").replace(",", ""))
        conv = convert_length(value, unit, to)
        calls.append(ToolCall(name="convert_length", arguments={"value": str(value), "unit": unit, "to_unit": to},
                              result=conv.model_dump(mode="json")))
        return f"{m.group(0)} ({conv.text})"

    return _BOLD_LENGTH.sub(one, text), calls
