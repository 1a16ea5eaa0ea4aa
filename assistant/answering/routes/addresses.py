"""Grid addresses: a block line from a count of sections or rows; an address such as W305 N1530 read."""

from __future__ import annotations

import re

from assistant.answering import phrasing, slots
from assistant.answering.routes.common import RouteContext, Routed, asking, only_municipality


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
