"""Grid addresses: a block line from a count of sections or rows; an address such as W305 N1530 read."""

from __future__ import annotations

import re

from assistant.answering import phrasing, roles, slots
from assistant.answering.routes.common import RouteContext, Routed, asking, only_municipality, own_clause


def grid_block_line(q: str, muni: str | None, ctx: RouteContext):
    """The block line at the edge of the first N sections (west) or rows (north or south)."""
    m = re.search(r"(?:first|top of the|end of the|edge of the)?\s*(\w+)\s+(?:rows?|sections?)", q, re.I)
    n = None
    if m:
        word = m.group(1).lower()
        ordinals = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
                    "eighth": 8, "ninth": 9, "tenth": 10}
        n = ordinals.get(word) or slots._count(word)
    mm = re.search(r"first (\w+) (?:sections|rows)", q, re.I)
    if mm:
        n = slots._count(mm.group(1)) or n
    if n is None:
        return None
    direction = "north" if re.search(r"\bnorth", q, re.I) else "south" if re.search(r"\bsouth", q, re.I) else "west"
    return Routed("grid_block_line", {"direction": direction, "sections": n},
                  only_municipality(ctx, "grid_block_line", muni), phrasing.lead_grid)


# what the asking words must ask of an address written in the question
_ASKS_ADDRESS = re.compile(r"\b(?:address|which side|what side|where|block|grid|odd|even|exists?|valid|lie|located|location|"
                           r"number(?:ing)?|side of|what part)\b", re.I)


def parse_address(q: str, muni: str | None, ctx: RouteContext):
    """A grid address written in the question, read."""
    m = re.search(r"\b([NSW])\s?(\d{1,3})\s+([NSW])\s?(\d{3,5})\b", q, re.I)
    if not m:
        return None
    if not _ASKS_ADDRESS.search(asking(ctx.current or q)):
        return None  # ("Building at W305 N2380 Oak Ridge Ct ... Is that driveway too steep?": where the job is, not asked)
    return Routed("parse_address", {"address": m.group(0)}, only_municipality(ctx, "parse_address", muni),
                  phrasing.lead_generic)


# where installed house numbers stand, by the words of each length's own clause
_PLACEMENT = {"distance_from_driveway_edge_ft": re.compile(r"\bdriveway\b", re.I),
              "distance_from_pavement_edge_ft": re.compile(r"\b(?:road|pavement|street|blacktop|curb)\b", re.I),
              "height_above_grade_ft": re.compile(r"\b(?:off|above|up from)\s+(?:the\s+)?(?:ground|grade|dirt|lawn)\b|"
                                                  r"\b(?:high|height)\b", re.I)}
# the characters' own size, said right after the length ("3 inches tall", "7.5 cm wide")
_CHARACTER_SIZE = {"tall": "character_height_in", "high": "character_height_in", "wide": "character_width_in"}
_NUMBERS = re.compile(r"\b(?:house|address|street)\s+numb|\bnumbers?\s+(?:sign|post|plaque)|\bnumbers\b", re.I)
_PASSES = re.compile(r"\b(?:pass|ok|okay|allowed|legal|meet|comply|compliant|good|fine|work|right|enough|close enough|"
                     r"far enough|high enough|too (?:far|high|low|close))\b", re.I)


def number_placement(q: str, muni: str | None, ctx: RouteContext):
    """Installed (or planned) house numbers measured against the code: from the road, from the driveway, above grade;
    each length held against the requirement its own clause names, and none guessed."""
    if ctx.query is None or not _NUMBERS.search(q) or not _PASSES.search(asking(ctx.current or q)):
        return None
    lengths = [x for x in ctx.query.of("length", "turn") if x.unit in ("ft", "in")]
    if not lengths:
        return None
    args, sources, derived = {}, {}, {}
    for x in lengths:
        clause = own_clause(ctx.query.turn, x.span.start, x.span.end)
        inches = x.number * 12 if x.unit == "ft" else x.number
        size = _CHARACTER_SIZE.get(next((w.lower() for w in re.findall(r"\b(?:tall|high|wide)\b", x.after[:12], re.I)), ""))
        if size is not None and inches <= 24 and not _PLACEMENT["height_above_grade_ft"].search(x.after[:40]) \
                and not re.search(r"\b(?:off|above|up from)\b", x.after[:30], re.I):
            # "they're 7.5 cm tall and 5 cm wide": the characters' own size, in inches (not a placement)
            if size in args:
                return None
            args[size] = float(inches)
            sources[size] = x
            if x.unit != "in" or x.worked:
                how = x.worked.split(", ", 1)[1] if ", " in x.worked else ""  # ("at 2.54 centimeters to the inch")
                derived[size] = f"{roles.as_number(inches)} inches (“{x.span.text}”{', ' + how if how else ''})"
            continue
        hits = [f for f, rx in _PLACEMENT.items() if rx.search(clause)]
        if len(hits) != 1 or hits[0] in args:
            return None  # a length whose clause names no one requirement (or two lengths for one): not guessed
        feet = x.number / 12 if x.unit == "in" else x.number
        args[hits[0]] = float(feet)
        sources[hits[0]] = x
        if x.unit == "in" or x.worked or not re.search(r"\b(?:feet|foot|ft)\b|'", x.span.text, re.I):
            derived[hits[0]] = f"{roles.as_number(feet)} feet (“{x.span.text}”)"
    from assistant.tools.addresses import CHECK_HOUSE_NUMBER_PLACEMENT
    from assistant.tools.registry import run_tool

    only = only_municipality(ctx, CHECK_HOUSE_NUMBER_PLACEMENT, muni)
    probe = run_tool(CHECK_HOUSE_NUMBER_PLACEMENT, {"municipality": only, **args}) if only else None
    if probe is None or not probe.ok or set(args) <= set(getattr(probe, "not_regulated", []) or []):
        return None  # ("the front door is 120 feet from the road. How big ...?" of a code that sets no such distance:
        # what it does say is quoted)
    return Routed(CHECK_HOUSE_NUMBER_PLACEMENT, {"municipality": only, **args}, only, phrasing.lead_placement,
                  sources=sources, derived=derived)
