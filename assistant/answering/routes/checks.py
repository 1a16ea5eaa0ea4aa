"""Specification checks: building materials on the walk, a walk's fall toward the curb, a
patch's depth, defective blocks, a driveway's slope, a heavy vehicle's weight, road
construction layers. Each reads its own values; its Route declares the words it answers."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from functools import partial
from typing import Any

from assistant.answering import limits, phrasing, reading, roles, slopes, slots
from assistant.answering.routes.common import (
    Missing,
    asking,
    own_clause,
    RouteContext,
    Routed,
    only_municipality,
    serves,
)
from assistant.answering.slot_safety import dimension
from assistant.answering.slopes import rises_and_runs
from assistant.answering.reading import NUMBER, number_value


# things a shop sets out on its walk ("planters and a bench", "two bistro tables and a sandwich board"), not building
# materials: the walk they leave clear is what the code limits
_FIXTURES = re.compile(r"\b(?:planters?|benche?s?|tables?|chairs?|seating|displays?|(?:clothing\s+|merchandise\s+)?racks?|"
                       r"sandwich\s+boards?|a-frames?|sidewalk\s+signs?|kiosks?|flower\s*pots?|pots|fixtures?|furniture)\b",
                       re.I)
# how much of the walk the fixtures may take, asked ("How far out from my wall can the stuff stick?", "how much room can
# the tables use?")
_ASKS_REACH = re.compile(r"\bhow\s+(?:far(?:\s+out)?|much\s+(?:room|space|of\s+(?:the|my|our)\s+(?:side)?walk)|many\s+(?:feet|inches)|"
                         r"deep|wide)\b[^?]{0,60}\b(?:stick|extend|reach|come|go|take|use|cover|put|set|be)\b|"
                         r"\bhow\s+far\s+(?:out|from)\b", re.I)
_MATERIALS = re.compile(r"\b(?:building\s+materials?|materials?|lumber|dumpsters?|roll-?offs?|bricks?|sand|gravel|"
                        r"scaffold\w*|construction)\b", re.I)


def obstruction(q: str, muni: str | None, ctx: RouteContext):
    """Building materials on the sidewalk and the street: how many feet of each they may take; a shop's fixtures on
    its walk: how much of it they may take and leave the clear width."""
    fixture = bool(_FIXTURES.search(q)) and not _MATERIALS.search(q)
    if fixture and ctx.query is not None:
        # the one width the turn gives ("seven and a half feet wide from the building to the curb") is the walk's
        widths = list({x.value: x for x in ctx.query.of("length", "turn") if x.unit == "ft"}.values())
        # ("Bench is 2 feet deep": a fixture's own size in feet, no width of the walk)
        sizes = [x for x in widths if _fixture_size(x)]
        widths = [x for x in widths if x not in sizes]
        if not widths and not sizes and muni is not None and _ASKS_REACH.search(asking(ctx.current or q)) \
                and serves(ctx, "obstruction_check", muni):
            # "How far out from my wall can the stuff stick?": what the fixtures may take is the walk's width less the
            # clear width the code keeps, so the walk's width is asked (never a width the code sets for new walks)
            return Missing("how wide the sidewalk is, from your wall to the curb: the fixtures may take what is left "
                           "after the code's clear width.", slot="sidewalk width",
                           provision=_slope_provision(muni, "fixture_clear_width"))
        if not widths and len(sizes) == 1 and muni is not None and serves(ctx, "obstruction_check", muni):
            return Missing(f"how wide the sidewalk is: the fixture's “{sizes[0].span.text}” are taken from that width, "
                           "and the code's clear width must be left beside it.", slot="sidewalk width",
                           provision=_slope_provision(muni, "fixture_clear_width"))
        # ("The sidewalk out front is 7 feet wide and I want to set a bench out there that's 30 inches deep": the
        # fixture's own size, the one other length the turn gives, in inches, is what it takes of the walk)
        inches = list({x.value: x for x in ctx.query.of("length", "turn") if x.unit == "in"}.values())
        if len(widths) != 1 or len(inches) > 1 or not serves(ctx, "obstruction_check", muni):
            return None
        only = only_municipality(ctx, "obstruction_check", muni)
        args = {"municipality": only, "situation": "sidewalk_fixture", "sidewalk_width_ft": widths[0].value}
        sources, derived = {"sidewalk_width_ft": widths[0]}, {}
        if not inches and len(sizes) == 1 and sizes[0].number < widths[0].number:
            args["sidewalk_obstructed_width_ft"] = sizes[0].value
            sources["sidewalk_obstructed_width_ft"] = sizes[0]
        if inches and inches[0].number / 12 < widths[0].number:
            # (to the ten-thousandth of a foot: "50 inches" is 4.1667 feet, as the calculator takes it)
            taken = (inches[0].number / 12).quantize(Decimal("0.0001")).normalize()
            args["sidewalk_obstructed_width_ft"] = roles.as_number(taken)
            derived["sidewalk_obstructed_width_ft"] = f"{roles.as_number(taken)} feet (“{inches[0].span.text}”)"
            sources["sidewalk_obstructed_width_ft"] = inches[0]
        return Routed("obstruction_check", args, only, phrasing.lead_obstruction, sources=sources, derived=derived)
    if not slots.lengths(q, "ft"):
        # "eleven and a half feet wide ... thirty-six feet curb to curb": widths in words, as the reading stage reads
        # them, each given to the thing its own clause names
        feet = [x for x in ctx.query.of("length", "turn") if x.unit == "ft"] if ctx.query is not None else []
        if not feet:
            return None
        sw, st = _width_of(feet, _SIDEWALK_WORDS), _width_of(feet, _STREET_WORDS)
    else:
        sw = slots.length_near(q, ("sidewalk", "walk"), "ft")
        st = slots.length_near(q, ("street", "road", "traveled"), "ft")
    args = {"municipality": only_municipality(ctx, "obstruction_check", muni), "situation": "building_materials"}
    if sw is not None:
        args["sidewalk_width_ft"] = str(sw)
    if st is not None:
        args["street_width_ft"] = str(st)
    if len(args) > 2:
        return Routed("obstruction_check", args, args["municipality"], phrasing.lead_obstruction)
    return None


_SIDEWALK_WORDS = re.compile(r"\b(?:side)?walk\b", re.I)


def _fixture_size(x) -> bool:
    """A length said of the fixture itself ("Bench is 2 feet deep", "a 3-foot planter"), not of the walk."""
    before = re.split(r"[,;.!?]|\band\b", x.before)[-1]
    if _SIDEWALK_WORDS.search(before) or re.match(r"\s*(?:wide\s+)?(?:of\s+)?(?:the\s+)?(?:side)?walk\b", x.after, re.I):
        return False
    return bool(_FIXTURES.search(before) or re.match(r"[\s-]*(?:deep|long|tall|high|in depth)\b", x.after, re.I)
                or _FIXTURES.match(re.sub(r"^[\s-]*(?:wide|deep|long)?\s*", "", x.after)))
_STREET_WORDS = re.compile(r"\b(?:street|road|traveled|travelled|roadway|curb\s+to\s+curb)\b", re.I)


def _width_of(feet: list, words: re.Pattern):
    """The one width whose own clause (the words before it back to the last comma, "and" or stop, and the few after)
    names the thing; None when none or several do."""
    own = []
    for x in feet:
        before = re.split(r"[,;.!?]|\band\b", x.before)[-1]
        after = re.split(r"[,;.!?]|\band\b", x.after)[0]
        if words.search(before) or words.search(after):
            own.append(x)
    values = {x.value for x in own}
    return own[0].value if len(values) == 1 else None


# "slabs are 5 by 6", "a 4 x 5 ft flag": two sides, neither said to be the width across the walk
_PAIR = re.compile(r"\b(?P<a>\d+(?:\.\d+)?)\s*(?:'|ft\.?|feet|foot)?\s*(?:by|x|×)\s*(?P<b>\d+(?:\.\d+)?)\s*"
                   r"(?:'|ft\.?|feet|foot)?(?!\s*(?:wide|width|in\b|inch|\"))", re.I)


# the fall across a walk asked as a figure: "how many inches lower is the curb side", "how much does it drop"
# ("how much does it have to slope toward the curb?" asks the rate itself: the quote answers it)
_ASKS_FALL = re.compile(r"\bhow (?:many inches|much|far)\s+(?:lower|higher|of (?:a )?(?:drop|fall))\b|"
                        r"\bhow (?:many inches|far) (?:does|should|must|will|do|has)\s+(?:it|the (?:side)?walk|that)\s+"
                        r"(?:(?:need|have) to\s+)?(?:drop|fall)\b|"
                        r"\b(?:lower|higher) than the (?:house|curb|building|property line)(?: side)?\b", re.I)


def _slope_provision(muni: str | None, key: str = "sidewalk_cross_slope") -> tuple[str, str] | None:
    """The sentence the calculator applies (its data's quote, found in the text: the cross slope unless ``key``
    names another), for a question asked back; None when the municipality's data has none."""
    from assistant.tools.specs import provision_citation

    try:
        c = provision_citation(key)
    except Exception:  # noqa: BLE001 - no such provision in the data, or a quote the text no longer holds
        return None
    return (c.passage_id, c.quote) if c.passage_id and c.municipality == muni else None


def sidewalk_fall(q: str, muni: str | None, ctx: RouteContext):
    """A walk's cross slope: how far it falls toward the curb across a given width."""
    feet = slots.lengths(q, "ft")
    widths = [x for x in (ctx.query.of("length") if ctx.query is not None else []) if x.unit in ("ft", "in")]
    pair = _PAIR.search(ctx.current or q)
    if pair and pair.group("a") != pair.group("b") and serves(ctx, "sidewalk_dimension_check", muni) \
            and not any(dimension(x) == "width" for x in widths):
        # which side runs across the walk (curb side to house side) decides the fall: asked, never guessed
        return Missing(f"the width of the walk across it, curb side to house side: in “{pair.group(0).strip()}”, is it "
                       f"{pair.group('a')} feet or {pair.group('b')} feet?", slot="width",
                       candidates=(pair.group("a"), pair.group("b")), provision=_slope_provision(muni))
    if not (feet or widths) and muni is not None and serves(ctx, "sidewalk_dimension_check", muni) \
            and _ASKS_FALL.search(ctx.current or q) and _slope_provision(muni) is not None:
        # "How many inches lower does the curb side need to be than the house side?": the fall is so much per foot
        # of width, and no width is given: asked, never assumed
        return Missing("the width of the walk, curb side to house side (the fall toward the curb is counted per foot "
                       "of width).", slot="width", provision=_slope_provision(muni))
    if not (feet or widths) or not serves(ctx, "sidewalk_dimension_check", muni):
        return None
    use = "commercial" if re.search(r"commercial|business|store|shop", q, re.I) else "residential"
    only = only_municipality(ctx, "sidewalk_dimension_check", muni)
    if len(widths) == 1 and widths[0].unit == "in":
        # "66 inches wide": the calculator takes feet
        w = widths[0]
        return Routed("sidewalk_dimension_check", {"municipality": only, "use": use,
                                                   "width_ft": roles.as_number(w.number / 12)},
                      only, phrasing.lead_sidewalk_drop, sources={"width_ft": w},
                      derived={"width_ft": f"{roles.as_number(w.number / 12)} feet (from “{w.span.text}”)"})
    widths = [x for x in widths if x.unit == "ft" and dimension(x) in (None, "width")]  # not "60 feet long"
    if len(widths) > 1:
        return Missing("the width of the walk: is it " + " or ".join(f"“{x.span.text}”" for x in widths) + "?",
                       slot="width", candidates=tuple(x.span.text for x in widths))
    if not widths and ctx.query is not None:
        return None  # the lengths told are not the walk's width ("40 ft of storefront"); none is taken for it
    width, sources = (widths[0].number, {"width_ft": widths[0]}) if widths else (feet[0], {})
    return Routed("sidewalk_dimension_check", {"municipality": only, "use": use, "width_ft": roles.as_number(width)},
                  only, phrasing.lead_sidewalk_drop, sources=sources)


def patch(q: str, muni: str | None, ctx: RouteContext):
    """A pavement patch's required depth over a given existing pavement."""
    inches = slots.lengths(q, "in")
    derived: dict[str, str] = {}
    if not inches and ctx.query is not None:
        # "the existing slab is about six inches thick": a depth in words, as the reading stage reads it
        inches = [x.number for x in ctx.query.of("length") if x.unit == "in"]
    if not inches and ctx.query is not None:
        # "measured 0,25 ft on the cut face": a pavement's depth written in feet, in inches
        feet = [x for x in ctx.query.of("length") if x.unit == "ft" and x.number < 2]
        if len(feet) == 1:
            inches = [(feet[0].number * 12).normalize()]
            derived["existing_pavement_depth_in"] = f"{roles.as_number(inches[0])} inches (“{feet[0].span.text}” in inches)"
    if ctx.query is not None and len(set(inches)) > 1:
        # "The contractor says code only needs two and a half inches": a depth someone says the code asks is no
        # measurement of the pavement
        told = {x.number for x in ctx.query.of("length") if x.unit == "in" and limits.told_limit(x)}
        inches = [x for x in inches if x not in told] or inches
    if not inches or not serves(ctx, "pavement_patch_check", muni):
        return None
    low = q.lower()
    pavement = "concrete" if "concrete" in low else "bituminous"
    depth = slots.length_near(q, ("existing", "thick", "asphalt", "pavement", "concrete"), "in") if not derived \
        else inches[0]
    own = [x for x in ctx.query.of("length", "turn") if x.unit == "in"] if ctx.query is not None and ctx.query.follow_up \
        else []
    sources = {}
    if len({x.number for x in own}) == 1 and not derived:
        # "... existing asphalt is 2 inches thick ..." then "and if it's a concrete street, 8 inches thick?": this turn's
        # depth and pavement, in place of the earlier turn's (the words read shown)
        depth, sources = own[0].number, {"existing_pavement_depth_in": own[0]}
        said = re.search(r"\b(concrete|asphalt|blacktop|bituminous)\b", ctx.query.turn, re.I)
        if said is not None:
            pavement = "concrete" if said.group(1).lower() == "concrete" else "bituminous"
    if depth is None:
        if len(set(inches)) > 1:  # several depths and none the existing pavement's by its words
            return Missing("the depth of the existing pavement: is it " + " or ".join(f"{x} inches" for x in inches)
                           + "?", slot="existing pavement depth")
        depth = inches[0]
    only = only_municipality(ctx, "pavement_patch_check", muni)
    return Routed("pavement_patch_check", {"municipality": only, "pavement": pavement,
                                           "existing_pavement_depth_in": str(depth)}, only, phrasing.lead_patch,
                  derived=derived, sources=sources)


ASKS_MONEY = re.compile(r"\bhow much\b|\bassess|\bwhat (?:will|would|do) (?:i|we) (?:\w+ )?(?:owe|pay)\b|\bcost\b|"
                        # ("What am I going to end up paying?")
                        r"\bwhat\b[^.?!]{0,30}\b(?:pay|paying|owe|owing)\b|"
                        r"\b(?:my|our|the owner'?s) (?:share|part|portion)\b", re.I)
BLOCKS = re.compile(r"\b(\d{1,4})\s+(?:out\s+)?of\s+(?:(?:the|my|our|his|her|their)\s+)?(\d{1,4})\s+(?:sidewalk\s+)?(?:blocks|squares|slabs)", re.I)


# what a measurement between or within sidewalk blocks is, by the words beside it (general English)
DEFECT_MEASURES = {
    "vertical_differential_in": re.compile(r"\b(?:lip|vertical|differential|raised|heav(?:e|ed)|uneven|sticks? up|"
                                           r"higher|trip)", re.I),
    "horizontal_gap_in": re.compile(r"\b(?:gap|space|spacing|horizontal|apart|separat)", re.I),
    "surface_deterioration_depth_in": re.compile(r"\b(?:deteriorat|spall|scal(?:ed|ing)|pitt|pothole|hole|"
                                                 r"chipped|crumbl)", re.I),
}


def _defect_measures(ctx: RouteContext):
    """Lengths the words tie to one kind of defect; None when one is unclear or two compete."""
    if ctx.query is None:
        return None
    found: dict[str, object] = {}
    for s in ctx.query.of("length"):
        near = s.before[-60:] + " " + s.after[:30]
        kinds = [k for k, rx in DEFECT_MEASURES.items() if rx.search(near)]
        if len(kinds) != 1 or kinds[0] in found:
            return None
        found[kinds[0]] = s
    return found or None


# "twenty-five of them", "20 of those are heaved": a part of the blocks counted before
_PART_OF_THEM = re.compile(rf"(?P<n>{NUMBER.pattern})\s+of\s+(?:them|those|these)\b", re.I)
# "out of my two dozen slabs, fifteen got flagged": the part told after the whole
_PART_AFTER_WHOLE = re.compile(rf"\bout\s+of\s+(?:my|our|the|his|her|their)?\s*[^,.?!]{{1,40}}?\b(?:blocks?|squares?|"
                               rf"slabs?|panels?)\s*,\s*(?P<n>{NUMBER.pattern})\s+(?:of\s+them\s+)?"
                               r"(?:got|are|were|was|have|had|is|need|failed|flagged|marked|came)\b", re.I)


def _part(q: str) -> tuple[re.Match, str] | None:
    """The words that count the part of the blocks that is bad, and its number's own words."""
    m = _PART_OF_THEM.search(q)
    if m is not None:
        return m, m.group(0)
    m = _PART_AFTER_WHOLE.search(q) or _PART_MARKED.search(q) or _PART_GOT_MARKED.search(q)
    return (m, m.group("n")) if m is not None else None

# "has 15 slabs and he flagged 9", "16 squares, and they marked 12": the part, a bare number after the whole's count
_PART_MARKED = re.compile(rf"\b(?:blocks?|squares?|slabs?|panels?)\b[^.?!;]{{0,40}}?\b(?:flagged|marked|failed|tagged|"
                          rf"condemned|red-?tagged)\s+(?P<n>{NUMBER.pattern})(?![\d.,/-]?\d)(?!\s*(?:%|percent|inch|in\b|\"|feet|foot|ft|'|"
                          r"days?|years?|[-/]))", re.I)


# "my walk is 20 squares and 13 got marked": the part, a bare number before the marking
_PART_GOT_MARKED = re.compile(rf"\b(?:blocks?|squares?|slabs?|panels?)\b[^.?!;]{{0,30}}?\b(?:and|but|with|,)\s+(?P<n>{NUMBER.pattern})"
                              r"\s+(?:of\s+them\s+)?(?:got|were|are|have\s+been|was|came\s+back)?\s*(?:flagged|marked|failed|"
                              r"tagged|condemned|red-?tagged)\b", re.I)
_BLOCK_UNIT = re.compile(r"blocks?|squares?|slabs?|panels?", re.I)
# the question asks whether the whole walk goes, or the share that is bad
ASKS_WHOLE = re.compile(r"\b(?:whole|entire|all of (?:the|my|our))\s+(?:walk|sidewalk|thing)\b|\bwhat (?:percent|percentage|share|"
                        r"fraction)\b|\bhow many percent\b|"
                        # "do they make me redo all of it?", "replace it all", "tear out everything"
                        r"\b(?:redo|replace|re-?pour|tear out|rip out|pull out|do over)\s+(?:all of it|it all|everything|all)\b",
                        re.I)
ASKS_SHARE = re.compile(r"\bwhat (?:percent|percentage|share|fraction)\b|\bhow many percent\b|\bpercent(?:age)? (?:are|is)\b", re.I)


def _count_before(q: str, at: int, total: int) -> str | None:
    """A number, other than the walk's whole count, told before "N of those": what "those" may count."""
    for m in NUMBER.finditer(q[:at]):
        v = number_value(m)
        if v is not None and v != total and not re.match(r"\s*(?:inch|in\b|\"|feet|foot|ft|'|%|percent|years?|days?)",
                                                         q[m.end():], re.I) \
                and not re.search(r"[$#\d][\d,.]*$|[-/.]$", q[:m.start()]) and not re.match(r"[-/.,]?\d", q[m.end():]) \
                and not (1900 <= v <= 2100 and len(m.group(0)) == 4) \
                and not re.match(r"\s+[A-Z]", q[m.end():]) and not re.search(r"(?:\bat|#|\bno\.)\s*$", q[:m.start()], re.I):
            # (not "at 123 Elm": an address)
            return m.group(0)
    return None


def _block_counts(ctx: RouteContext) -> list:
    return [s for s in (ctx.query.of("count") if ctx.query is not None else []) if s.unit and _BLOCK_UNIT.match(s.unit)]


def block_wholes(ctx: RouteContext) -> list:
    """The counts of whole walks the words give ("20 slabs", not "11 of them")."""
    return [s for s in _block_counts(ctx) if not re.search(r"\bof\b", s.span.text, re.I)]


def block_counts(q: str, ctx: RouteContext) -> tuple[int | None, int | None]:
    """(defective, total) blocks the words count: "14 of 20 blocks"; "forty blocks ... twenty-five of them";
    "14 of my sidewalk blocks" (a part, no total)."""
    m = BLOCKS.search(q)
    if m:
        return int(m.group(1)), int(m.group(2))
    counts = _block_counts(ctx)
    parts = [s for s in counts if re.search(r"\bof\b", s.span.text, re.I)]
    wholes = [s for s in counts if s not in parts]
    part = _part(q)
    n = number_value(part[0]) if part else (parts[0].number if len(parts) == 1 else None)
    total = wholes[0].number if len(wholes) == 1 else None
    return (int(n) if n is not None and n == int(n) else None), (int(total) if total is not None else None)


def _counts_outside(ctx: RouteContext, m: re.Match) -> bool:
    """Whether the turn counts anything outside the words "13 out of my 20 squares" (another owner's "11 out of 20"):
    then each count is read and weighed by its own words, not taken from the match (a count of an earlier turn, "what
    makes a square defective?", is none)."""
    own = BLOCKS.search(ctx.query.turn) if ctx.query is not None else None
    return own is None or own.group(0) != m.group(0) or any(
        not (own.start() <= s.span.start < own.end()) for s in ctx.query.of("count", "turn"))


# a follow-up's further defective blocks: "and if he comes back and marks 2 more?", "what if 3 more fail?"
_MORE = re.compile(rf"\b(?:marks?|marked|flags?|flagged|tags?|tagged|fails?|failed|finds?|found|condemns?|condemned|adds?|"
                   rf"added)\s+(?:another\s+)?(?P<n>{NUMBER.pattern})\s+more\b|"
                   rf"\b(?P<n2>{NUMBER.pattern.replace('(?P<', '(?P<m_')})\s+more\s+(?:(?:blocks?|squares?|slabs?|panels?)\s+)?"
                   rf"(?:are\s+|get\s+|got\s+)?(?:marked|flagged|tagged|fail|failed|condemned|bad|defective)\b", re.I)


def more_marked(ctx: RouteContext) -> tuple[int, str] | None:
    """In a follow-up, the number of further blocks its own words mark defective, with those words."""
    if ctx.query is None or not ctx.query.follow_up:
        return None
    m = _MORE.search(ctx.query.turn)
    if m is None:
        return None
    said = NUMBER.fullmatch(m.group("n") or m.group("n2"))
    v = number_value(said) if said is not None else None
    return (int(v), m.group(0)) if v is not None and v == int(v) and v > 0 else None


def defects(q: str, muni: str | None, ctx: RouteContext):
    """The share of defective blocks, and whether the whole walk is replaced; or whether a measured
    lip, gap or deterioration makes a block defective, and by how much."""
    m = BLOCKS.search(q)
    bad, total = block_counts(q, ctx)
    if bad is not None and serves(ctx, "sidewalk_defect_check", muni) and (
            ASKS_WHOLE.search(q) or (total is not None and ASKS_MONEY.search(asking(ctx.current or q)))):
        only = only_municipality(ctx, "sidewalk_defect_check", muni)
        if total is None:
            # "14 of my blocks are bad. Does the whole walk go?": the share needs the count of all of them
            # ("Mine has 20 slabs and he flagged 11 of them. My neighbor's has 15 slabs and he flagged 9": each
            # whole count a candidate, so that each party's sentence may be read on its own)
            wholes = block_wholes(ctx)
            return Missing("how many blocks your sidewalk has in all (the share of defective blocks decides whether "
                           "the whole walk is replaced).", slot="total blocks",
                           candidates=tuple(w.span.text for w in wholes) if len(wholes) > 1 else ())
        part = _part(q)
        own_part = _part(ctx.query.turn) if ctx.query is not None and ctx.query.follow_up else None
        if own_part is not None and m is not None and BLOCKS.search(ctx.query.earlier or "") \
                and not BLOCKS.search(ctx.query.turn) and (n := number_value(NUMBER.search(own_part[1]))
                                                          if NUMBER.search(own_part[1]) else None) is not None:
            # "What if it turns out to be 26 of them?" after "22 of the 40 squares": the turn's count of bad blocks
            # in place of the earlier one, of the same whole
            bad = int(n)
            if bad > total:
                return None
            return Routed("sidewalk_defect_check", {"municipality": only, "defective_blocks": bad, "total_blocks": total},
                          only, phrasing.lead_defects,
                          derived={"defective_blocks": f"{bad} (“{own_part[1]}”, in place of “{m.group(1)}”)",
                                   "total_blocks": f"{total} (“{m.group(0)}”)"})
        if part is not None and (other := _count_before(q, part[0].start(), total)):
            # "my 18 squares ... marked eleven, but two of those are borderline": the part of a part; which count
            # the defective blocks are is asked
            return Missing(f"how many blocks are defective in the end: “{other}” or “{part[1]}”?",
                           slot="defective blocks", candidates=(other, part[1]))
        more = more_marked(ctx)
        if more is not None:
            # "and if he comes back and marks 2 more?": the earlier turn's defective blocks and the turn's more
            bad += more[0]
        if bad <= total:
            derived = {"defective_blocks": f"{bad} (“{part[1]}”)"} if part and not m else \
                {"defective_blocks": f"{bad} (“{m.group(0)}”)", "total_blocks": f"{total} (“{m.group(0)}”)"} \
                if m and not _counts_outside(ctx, m) else {}
            if more is not None:
                said = m.group(0) if m else part[1] if part else str(bad - more[0])
                derived = {**derived, "defective_blocks": f"{bad} (“{said}” and “{more[1]}”)",
                           **({"total_blocks": f"{total} (“{m.group(0)}”)"} if m else {})}
            routed = Routed("sidewalk_defect_check", {"municipality": only, "defective_blocks": bad, "total_blocks": total},
                            only, phrasing.lead_defects, derived=derived)
            money_asked = ASKS_MONEY.search(asking(ctx.current or q))
            if ASKS_MONEY.search(q) and (ASKS_SHARE.search(q) or ASKS_WHOLE.search(asking(q)) or money_asked):
                # "what percent are bad, and what would I pay?" / "Do they make us redo all of it, and what would we
                # actually pay?": the share, then the owner's assessment — of the whole walk's cost when the share
                # makes the whole walk go ("14 of 20 failed ... $2,100 for just those, $3,000 to redo all 20")
                from assistant.answering.routes.charges import owners_share
                from assistant.tools.registry import run_tool

                share = run_tool("sidewalk_defect_check", routed.arguments)
                whole = getattr(share, "whole_replacement_required", None) if getattr(share, "ok", False) else None
                paid = owners_share(q, muni, ctx, whole=whole, share=getattr(share, "defective_percent", None))
                if isinstance(paid, Routed):
                    routed.follow.append(paid)
                elif isinstance(paid, Missing) and getattr(share, "ok", False):
                    # (the share it states is the defect calculator's: its call goes with the question)
                    return dataclasses.replace(paid, readings=(*paid.readings, {
                        "name": "sidewalk_defect_check", "arguments": dict(routed.arguments),
                        "result": share.model_dump(mode="json")}))
                elif paid is not None:
                    return paid
            elif ASKS_MONEY.search(q):
                return None  # the assessment route answers what is owed
            return routed
    if not m and (bad is None or not ASKS_WHOLE.search(q)) and re.search(r"sidewalk|\bwalk|block|slab", q, re.I) and serves(ctx, "sidewalk_defect_check", muni):
        measures = _defect_measures(ctx)
        if not measures:
            return None
        only = only_municipality(ctx, "sidewalk_defect_check", muni)
        args, derived, sources = {"municipality": only}, {}, {}
        for arg, s in measures.items():
            inches = s.number * 12 if s.unit == "ft" else s.number
            args[arg] = roles.as_number(inches)
            sources[arg] = s
            if s.unit == "ft":
                derived[arg] = f"{roles.as_number(inches)} inches (from “{s.span.text}”)"
        return Routed("sidewalk_defect_check", args, only, phrasing.lead_defects, sources=sources, derived=derived,
                      focus=tuple(a.removesuffix("_in").removesuffix("_depth") for a in measures))
    if not m or ASKS_MONEY.search(q):
        return None  # "14 of 20 blocks ... how much will I be assessed?" asks the assessment, not the share
    only = only_municipality(ctx, "sidewalk_defect_check", muni)
    return Routed("sidewalk_defect_check", {"municipality": only, "defective_blocks": int(m.group(1)),
                                            "total_blocks": int(m.group(2))}, only, phrasing.lead_defects)


# "rises 3 feet over 40", "will rise one foot for every eight feet it runs", "drops 2 ft in 25 ft"
_N = r"(?:\d+(?:\.\d+)?|(?:a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
_N += r"twenty-five|thirty|forty|fifty|sixty|hundred|a hundred)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?)"
RISE_RUN = re.compile(rf"(?:rises|climbs|rise|climb|drops?|falls?|goes up|comes up)\s+(?:about\s+)?(?P<rise>{_N})\s*(?:feet|foot|ft)"
                      rf"\D{{0,25}}?(?:over|for every|per|in|every|across)\s+(?:a\s+|the\s+)?(?P<run>{_N})\s*(?:feet|foot|ft)?",
                      re.I)


# "150 feet long and climbs 15 feet": the run first, then the rise over it
RUN_THEN_RISE = re.compile(rf"(?P<run>{_N})\s*(?:feet|foot|ft)\.?\s+long,?\s+(?:and\s+)?(?:it\s+)?(?:rises|climbs|drops|falls|"
                           rf"goes up|comes up)\s+(?:about\s+)?(?P<rise>{_N})\s*(?:feet|foot|ft)\b", re.I)


def number_value_of(m: re.Match, group: str):
    from decimal import Decimal

    from assistant.answering.reading import worded_number

    raw = m.group(group).lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", raw):
        return Decimal(raw)
    return Decimal(1) if raw in ("a", "one") else worded_number(raw)


_NOT_A_SLOPE = re.compile(r"\s*(?:of\s+)?(?:(?:lot|road|street)\s+)?(?:frontage|front\b|wide\b|width\b|deep\b|depth\b|"
                         r"thick\b|lot\b)", re.I)


# numbers that measure something else than a length along the drive: an area ("2.3 acres", "a 24 x 30 garage"), a
# share ("15%"); blanked before looking for a bare number that could be a rival rise or run
_OTHER_MEASURES = re.compile(r"\b\d+(?:\.\d+)?\s*(?:acres?\b|sq(?:uare)?\.?\s*(?:ft|feet|foot)\b|%|percent\b)|"
                             r"\b\d+(?:\.\d+)?\s*(?:x|by)\s*\d+(?:\.\d+)?\b(?!\s*(?:feet|foot|ft|inch|in\b|\"|'))", re.I)


def _rise_and_run(ctx: RouteContext):
    """(rise, run) in feet from the lengths of the user's turn, each told by its own words; None unless exactly one
    length reads as the rise and one as the run (inches and meters converted to feet)."""
    if ctx.query is None:
        return None
    from decimal import Decimal

    lengths, rises, runs = rises_and_runs(ctx.query.of("length", "turn"))
    if ctx.query.follow_up and len(lengths) == 1 and len(rises) + len(runs) == 1:
        # "what if we move the garage up so the run is only 72 feet?" after "climb 9 feet ... over about 100 feet": the
        # turn's one length of one role, the earlier turn's length of the other
        _, up, over = rises_and_runs(ctx.query.of("length", "earlier"))
        if runs and len(up) == 1:
            rises = up
        elif rises and len(over) == 1:
            runs = over
    # (another length its own words name as something else: "130 ft of frontage", "a 66-foot-wide lot")
    others = [x for x in lengths if x not in rises and x not in runs]
    if len(rises) != 1 or len(runs) != 1 or not all(_NOT_A_SLOPE.match(x.after) or dimension(x) in ("width", "depth", "thickness")
                                                    for x in others):
        return None
    if reading.number_outside(_OTHER_MEASURES.sub(lambda m: " " * len(m.group()), ctx.query.turn), ctx.query.slots,
                              lambda kind: kind != "count"):
        return None  # a bare number besides ("one contractor says it climbs 6 feet, the other measured 8"): not read here
    feet = [x.number / Decimal(12) if x.unit == "in" else x.number for x in (rises[0], runs[0])]
    return (feet[0], feet[1], rises[0], runs[0]) if feet[1] > 0 else None


def driveway(q: str, muni: str | None, ctx: RouteContext):
    """A driveway's slope, as a percent or from its rise over its run."""
    if not serves(ctx, "driveway_check", muni):
        return None
    low = q.lower()
    # the lengths as the reading stage reads them first ("drops 30 inches over a 20-foot stretch", "a hundred and
    # twenty feet long and climbs about fifteen feet": a worded number whole, not its last word), else the pattern
    read = _rise_and_run(ctx)
    rr = read[:2] if read is not None else None
    if rr is None:
        rr = RISE_RUN.search(q) or RUN_THEN_RISE.search(q)
        if rr is not None:
            rise, run = number_value_of(rr, "rise"), number_value_of(rr, "run")
            rr = (rise, run) if rise is not None and run else None
    pct = re.search(r"(\d+(?:\.\d+)?)\s*(?:%|percent)", low)
    if len(re.findall(r"(\d+(?:\.\d+)?)\s*(?:%|percent)", low)) > 1 and not rr:
        # two slopes named ("the road is 8% and our drive 14%"): which is the driveway's is asked
        shown = tuple(m.group(0) for m in re.finditer(r"\d+(?:\.\d+)?\s*(?:%|percent)", q, re.I))
        return Missing("the driveway's slope: is it " + " or ".join(f"“{x}”" for x in shown) + "?",
                       slot="slope", candidates=shown)
    if not rr and not pct and muni is not None and ctx.query is not None:
        grade = reading.bare_number(ctx.query.turn, ctx.query.slots, _BARE_GRADE)
        if grade is not None:
            # "the driveway will climb at about 8 the whole way up": a grade with no unit — 8 percent and 8 degrees
            # (about 14 percent) fall on either side of a limit, so the unit is asked, never guessed
            return Missing(f"the unit of the slope “{grade}”: percent or degrees?", slot="slope", candidates=(grade,))
        bare = reading.bare_number(ctx.query.turn, ctx.query.slots, _BARE_RISE)
        if bare is not None:
            # "the driveway climbs about 6 from the road to the garage ... 40 feet back": feet or inches is asked (6 feet
            # over 40 is far steeper than 6 inches), never guessed
            return Missing(f"the unit of the rise “{bare}”: feet or inches?", slot="rise", candidates=(bare,))
    args = {"municipality": only_municipality(ctx, "driveway_check", muni)}
    cues, degree_said = {}, ""
    if rr and "rise_ft" in ctx.tools["driveway_check"].input_model.model_fields:
        args.update(rise_ft=roles.as_number(rr[0]), run_ft=roles.as_number(rr[1]))
        # the words that give each its role ("climbs 9 feet over 80"): another rise or run still competes, a
        # length its own words make a width ("16 feet wide") does not (slot safety)
        cues = {"rise_ft": "rise rises climb climbs drop drops fall falls up", "run_ft": "run runs over across every in"}
    elif pct:
        args["slope_percent"] = pct.group(1)
    elif (deg := slopes.DEGREES.search(ctx.current or q)) is not None and len(slopes.DEGREES.findall(q)) == 1:
        # "the driveway slopes at 10 degrees": the grade in percent is the tangent (17.63%), and the answer says so
        pct_of = slopes.degrees_to_percent(Decimal(deg.group("n")))
        args["slope_percent"] = str(pct_of)
        degree_said = f"{pct_of}% (“{deg.group(0)}”: the tangent of {deg.group('n')}°, as a percent)"
    elif ASKS_MOST_RISE.search(asking(ctx.current or q)) and ctx.query is not None:
        # "The driveway runs 125 feet from the road up to the garage. What's the most the garage can sit above the
        # road?": the most rise the limit allows over the one run the words give
        runs = [s for s in ctx.query.of("length", "turn") if s.unit == "ft" and dimension(s) in (None, "length")]
        if len({s.value for s in runs}) == 1 and not _IS_RUN.search(f"{runs[0].before[-40:]} {runs[0].span.text} "
                                                                    f"{runs[0].after[:30]}"):
            runs = []
        if len({s.value for s in runs}) == 1:
            args["run_ft"] = roles.as_number(runs[0].number)
            cues = {"run_ft": "run runs long length driveway drive"}
        elif len({s.value for s in runs}) > 1 and muni is not None:
            # "90 feet to where the apron starts, or 110 feet to the slab": which run is the driveway's is asked
            shown = tuple(dict.fromkeys(s.span.text for s in runs))
            return Missing("the driveway's run (its horizontal length): is it " + " or ".join(f"“{x}”" for x in shown)
                           + "?", slot="run", candidates=shown)
    if len(args) > 1:
        routed = Routed("driveway_check", args, args["municipality"], phrasing.lead_driveway, cues=cues)
        if degree_said:
            routed.derived["slope_percent"] = degree_said
        if read is not None and "rise_ft" in args:
            # each length from its own span; one told in inches (or meters) is converted, and the answer says so
            routed.sources.update(rise_ft=read[2], run_ft=read[3])
            for name, feet, slot in (("rise_ft", read[0], read[2]), ("run_ft", read[1], read[3])):
                if slot.unit == "in":
                    routed.derived[name] = f"{roles.as_number(feet)} feet (“{slot.span.text}” ÷ 12)"
            if ASKS_MOST_RISE.search(asking(ctx.current or q)):
                # "... And what's the most it could rise over that 60 feet?": the most rise over the same run, too
                most = Routed("driveway_check", {"municipality": args["municipality"], "run_ft": args["run_ft"]},
                              args["municipality"], phrasing.lead_driveway, sources={"run_ft": read[3]})
                if "run_ft" in routed.derived:
                    most.derived["run_ft"] = routed.derived["run_ft"]
                routed.follow.append(most)
        return routed
    return None


# a rise said with no unit ("climbs about 6 from the road", "drops 9 to the street")
_BARE_RISE = re.compile(r"\b(?:climbs?|climbing|rises?|rising|drops?|dropping|falls?|falling|goes up|comes up|is up)\s+"
                        r"(?:(?:about|around|roughly|maybe|nearly|almost|just (?:over|under))\s+)?"
                        # ("drops seven from the garage down to the road": a number in words too)
                        r"(?P<n>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                        r"fifteen|twenty)\b"
                        r"(?!\s*(?:%|percent|feet|foot|ft|inch|in\b|\"|'|’|”|yards?|meters?|cm|mm|degrees?|[:/.,]\d))", re.I)
# a grade said with no unit ("will climb at about 8 the whole way up", "a grade of 9", "slopes at 10", "an 11 grade")
_BARE_GRADE = re.compile(r"(?:\b(?:climbs?|climbing|rises?|rising|drops?|dropping|falls?|falling|slopes?|sloping|"
                         r"pitche[sd]?|goes up|comes up)\s+at|\b(?:grade|slope|pitch)\s+(?:of|is|was|will be|would be)|"
                         r"\b(?:at|an?)(?=\s+(?:about\s+|around\s+|roughly\s+)?\S+\s+(?:grade|slope|pitch)\b))\s+"
                         r"(?:an?\s+)?(?:(?:about|around|roughly|maybe|nearly|almost|just (?:over|under))\s+)?"
                         r"(?P<n>\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
                         r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)\b"
                         r"(?!\s*(?:%|percent|feet|foot|ft|inch|in\b|\"|'|’|”|yards?|meters?|cm|mm|degrees?|°|[:/.,]\d|"
                         r"(?:in|to|over|per|for every)\s+\d))", re.I)
# the most a driveway may rise asked ("what's the most the garage end can sit above the road?", "how high can the
# garage floor be compared to the road?")
ASKS_MOST_RISE = re.compile(r"\b(?:most|max(?:imum)?|highest|how\s+(?:high|much\s+higher|far\s+up|"
                            # ("How much can the driveway climb over that length ...?")
                            r"much(?=\s+(?:can|could|may|will|would|should)\b)))\b[^?]{0,60}"
                            r"\b(?:above|higher|up|rise|climb|sit|be)\b|\bhow\s+(?:high|much\s+(?:higher|rise))\b", re.I)
# a length of the driveway itself, end to end ("runs 125 feet", "a 90-foot driveway", "110 feet long")
_IS_RUN = re.compile(r"\b(?:runs?|running|long|length|driveway|drive)\b", re.I)


# a vehicle, and a question whether (or by how much) it is over a weight limit (general English)
VEHICLE = re.compile(r"\b(?:truck|tri-?axle|tandem|semi|trailer|dump|vehicle|rig|hauler|loader|excavator|pickup|pick-up|"
                     r"van|suv|bus|camper|motorhome|rv)s?\b", re.I)
# what else is driven on a road, or the driving itself ("a 12-ton roller", "we'll be hauling")
_MACHINE = re.compile(r"\b(?:machine|machinery|roller|paver|crane|grader|skid[- ]?steer|backhoe|bulldozer|dozer|tractor|"
                      r"fork\s?lifts?|telehandlers?|trenchers?|compactors?|scrapers?|"
                      r"equipment|lugs?|lugged|cleats?|tracks?|tracked|haul\w*|driv\w*|axles?|gvw|gross)\b", re.I)
ASKS_OVER = re.compile(r"\bhow (?:much|far) over\b|\bover (?:the|that|their|its) (?:weight )?limit\b|\boverweight\b|"
                       r"\b(?:(?:are|is) (?:we|it|he|she|they|my truck|our truck)|am i) (?:still )?(?:over|under)\b|"
                       # "weight limit signs just went up ... am I legal to run it loaded?"
                       r"\b(?:am i|are we|is it|is he|is my \w+)\s+(?:legal|allowed|ok|okay)\b(?=[^.?!]*\b(?:load|run|drive|haul|"
                       r"use|take)\w*)|"
                       # "can I run my loaded dump truck over the road where the weight limit signs are up?"
                       r"\bcan (?:i|we|he|she|they|you|my \w+|our \w+) (?:still )?(?:run|drive|take|haul|bring|use|cross)\b"
                       r"(?=[^.?!]*\b(?:weight|limit|posted|tons?)\b)", re.I)


# words that make a question one of weight ("Am I allowed to drive the rig through the ditch?" is not)
_WEIGHT_TOPIC = re.compile(r"\b(?:weigh\w*|limits?|posted|tons?|heavy|heavier|overweight|loaded|gvw|gross\w*|pounds?|lbs?)\b",
                           re.I)
# a vehicle's weight said with no unit ("our loaded truck goes about 11", "it grosses 26")
_BARE_WEIGHT = re.compile(r"\b(?:weighs?|weighing|grosses|goes|runs|scales?(?: out)?(?: at)?|comes? in at|is|'s|at|"
                          # "lists operating weight 5,500", "just says GROSS 5800"
                          # ("the plate just says GVW 5,800", "gross vehicle weight rating 26,000")
                          r"weight(?:\s+(?:of|is|was|as|at))?:?|gvwr?:?|gross(?:\s+(?:of|is|was))?:?)\s+"
                          r"(?:(?:about|around|roughly|maybe|nearly|almost|right at|close to|just (?:over|under))\s+)?"
                          # ("my dump truck is about six and a half loaded": in words too)
                          r"(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?|(?:%s)(?:\s+and\s+a\s+half)?)\b"
                          r"(?!\s*(?:%%|percent|feet|foot|ft|inch|in\b|miles?|mph|hours?|days?|weeks?|months?|"
                          r"years?|axles?|wheels?|of\b|times\b|[:/.,]\d))" % reading.WORDED.pattern, re.I)
# ... or with the word after it ("the plate just says 5,800 for weight", "lists 7,200 as the gross")
_WEIGHT_NAMED_AFTER = re.compile(r"(?<![\d,.$])\b(?P<n>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s+(?:for|as)\s+(?:the\s+|its\s+)?"
                                 r"(?:(?:operating|gross|rated|vehicle|machine)\s+)?(?:weight|gross|gvw|gvwr)\b", re.I)
_EMPTY = re.compile(r"\b(?:empty|unloaded|tare|bare)\b", re.I)
_LOADED = re.compile(r"\b(?:loaded|full|fully loaded|with (?:the |a |its )?load|gross)\b", re.I)


def heavy_vehicle(q: str, muni: str | None, ctx: RouteContext):
    """A vehicle's gross weight against the permit rule and a posted temporary limit."""
    weights = ctx.query.of("weight") if ctx.query is not None else []
    if weights:  # a weight bought at a price is material, no vehicle's ("mix 11.2 tons @ $78/ton")
        own = ctx.query.of_origin("turn")
        bought = [x.span for x in reading.priced(own, ctx.query.turn) if x.worked and x not in own]
        weights = [w for w in weights if not any(b.start <= w.span.start < b.end for b in bought)]
    # "a 6 ton temporary limit", "the limit is 6 tons": the posted limit, no vehicle's weight
    weights = [w for w in weights if not limits.told_limit(w)]
    if not serves(ctx, "heavy_vehicle_check", muni):
        return None
    if weights and not (VEHICLE.search(q) or _MACHINE.search(q) or ASKS_OVER.search(q)):
        return None  # "gravel for the backfill came on a 22,000 lb load ticket": a material's weight, no vehicle's
    if weights and ctx.query is not None and len({m.number for m in ctx.query.of("money") if m.unit == "USD"}) >= 2 \
            and not ASKS_OVER.search(q) and not re.search(r"\b(?:legal|allowed|permit|limit|over|overweight)\b", q, re.I):
        return None  # "$2,600 up front ... a 5-ton roller ... the bill came in at $2,315": money asked, no load checked
    if not weights:
        bare = (reading.bare_number(ctx.query.turn, ctx.query.slots, _BARE_WEIGHT)
                or reading.bare_number(ctx.query.turn, ctx.query.slots, _WEIGHT_NAMED_AFTER)) if ctx.query is not None else None
        if muni is not None and bare is not None and (VEHICLE.search(q) or _MACHINE.search(q)) and _WEIGHT_TOPIC.search(q):
            # "posted with the temporary weight limit. Our loaded truck goes about 11": tons or pounds is asked (11 tons is
            # over a 6-ton limit, 11,000 pounds under it), never guessed
            # (the units the user names as the ones in doubt are the ones asked: "doesn't say lbs or kg")
            metric = re.search(r"\b(?:kg|kgs|kilo\w*|metric|tonnes?)\b", ctx.current or q, re.I)
            units = "pounds or kilograms" if metric else "tons or pounds"
            return Missing(f"the unit of the vehicle's weight “{bare}”: {units}?", slot="gross weight",
                           candidates=(bare,))
        unsure = reading.AMBIGUOUS_TONS.search(ctx.current or q)
        if muni is not None and unsure is not None:
            # "scale ticket says 5.8 T": metric tonnes (about 6.39 US tons) or US tons (the limit's) — asked, never guessed
            said = unsure.group(0).strip()
            return Missing(f"the unit of “{said}”: metric tonnes or US (short) tons? The code's limits are in US tons, and "
                           "a metric tonne is heavier.", slot="gross weight", candidates=(said,))
        if muni is not None and VEHICLE.search(q) and ASKS_OVER.search(q) and _WEIGHT_TOPIC.search(q):
            # "we haul with a tri-axle, the weight signs are up. How much over are we?": no weight, no figure
            return Missing("the vehicle's gross weight, loaded (truck and load together).", slot="gross weight")
        return None
    if len({w.value for w in weights}) == 2:
        # "8,000 lbs empty and 19,000 lbs loaded. We'll be running it loaded": the gross weight on the road is
        # the loaded one, unless the words say it runs empty
        def said(w, rx):  # the word right after the weight ("19,000 lbs loaded"), else right before ("empty, 8,000")
            after = re.split(r"[,;.]|\band\b", w.after[:14])[0]
            return bool(rx.search(after)) if (_EMPTY.search(after) or _LOADED.search(after)) \
                else bool(rx.search(re.split(r"[,;.]|\band\b", w.before[-14:])[-1]))
        empty = [w for w in weights if said(w, _EMPTY)]
        loaded = [w for w in weights if said(w, _LOADED)]
        runs_empty = re.search(r"\b(?:run|running|drive|driving|go|going|come|coming|travel\w*)\s+(?:it\s+)?empty\b", q, re.I)
        carried = [w for w in weights if _CARGO.search(w.before[-24:]) or _CARRIED_AFTER.match(w.after)]
        if not empty and not loaded and len(carried) == 1 and not runs_empty \
                and _VEHICLE_ONLY.search(re.split(r"[.;!?]", weights[0].before)[-1] + " " + weights[0].after[:20]) \
                and carried[0] is not weights[0]:
            # "Truck is 8,000 lbs with a 3,000 lb load": the vehicle's own weight and what it carries, together
            own, load = weights[0], carried[0]
            return _together(q, ctx, muni, own.number + load.number, f"“{own.span.text}” + “{load.span.text}” carried")
        if len(empty) == 1 and len(loaded) == 1 and empty[0] is not loaded[0] and not runs_empty:
            weights = loaded
        elif len(empty) == 1 and not loaded and not runs_empty:
            # "weighs 8,600 lb empty and we'd be hauling 4,200 lb of pavers": the other weight is what it carries,
            # so the gross weight on the road is the two together (and the answer shows the sum it read)
            cargo = [w for w in weights if w is not empty[0]
                     and (_CARGO.search(w.before[-24:]) or _CARRIED_AFTER.match(w.after))]
            if len(cargo) == 1:
                return _together(q, ctx, muni, empty[0].number + cargo[0].number,
                                 f"“{empty[0].span.text}” empty + “{cargo[0].span.text}” carried")
    joined = _one_rig(weights, ctx.query.turn) if ctx.query is not None and len(weights) > 1 else None
    if joined is not None:
        # "Our 14,000 lb excavator on a 3,500 lb trailer behind a 6,000 lb pickup": one rig, its parts weighed together
        parts = " + ".join(f"“{w.span.text}” {name}" for w, name in joined)
        return _together(q, ctx, muni, sum((w.number for w in weights), Decimal(0)), f"{parts}; together on the road")
    rig = _rig_parts(weights[0], ctx.query.source(weights[0].span.origin)) \
        if ctx.query is not None and len(weights) == 1 else None
    if rig is not None:
        # "My pickup is 7,200 lbs, the trailer 2,800 and the skid steer on it about 3,400": one rig on the road, its
        # gross weight the parts together (the bare figures read in the first one's pounds, and the sum shown)
        parts = " + ".join(f"“{said}” {name}" for name, _, said in rig)
        first = _vehicle_clause(weights[0], ctx.query.source(weights[0].span.origin))
        return _together(q, ctx, muni, sum((n for _, n, _ in rig), weights[0].number),
                         f"“{weights[0].span.text}”{' ' + first[0] if first else ''} + {parts}, in pounds as the first; "
                         "together on the road")
    own = [_vehicle_clause(w, ctx.query.source(w.span.origin)) for w in weights] if ctx.query is not None else []
    if len(own) == 2 and all(c is not None for c in own) and own[0][0] == own[1][0]:
        # "Truck one grosses 11,000 lbs, truck two grosses 14,500 lbs": two of the same kind, told apart by their labels
        own = [(_labelled(name, clause), clause) for name, clause in own]
    if len(weights) == 2 and len({w.value for w in weights}) == 2 and all(c is not None for c in own) \
            and own[0][0] != own[1][0]:
        # "our 7,400 lb track loader ..., and our dump truck grosses 13,500 lbs loaded": two vehicles, each its own
        # weight — each checked (its lugs read from its own words), never one weight taken for both
        # (the lugs each vehicle's own words say; the posted limit the whole question says, of the road both run on)
        posted = _heavy_args(q, ctx, muni, weights[0].number)["temporary_limit_posted"]
        checks = []
        for w, (name, clause) in zip(weights, own):
            args = {**_heavy_args(clause, ctx, muni, w.number), "temporary_limit_posted": posted}
            checks.append(Routed("heavy_vehicle_check", args, args["municipality"], partial(_lead_named, name=name),
                                 sources={"gross_weight_tons": w}))
        checks[0].follow.append(checks[1])
        return checks[0]
    if len({w.value for w in weights}) > 1:
        return Missing("the vehicle's gross weight: is it " + " or ".join(f"“{w.span.text}”" for w in weights)
                       + "?", slot="gross weight", candidates=tuple(w.span.text for w in weights))
    args = _heavy_args(q, ctx, muni, weights[0].number)
    return Routed("heavy_vehicle_check", args, args["municipality"], phrasing.lead_heavy,
                  sources={"gross_weight_tons": weights[0]})


# the words before a weight that say it is carried, not the vehicle's own ("hauling 4,200 lb of pavers")
_CARGO = re.compile(r"\b(?:haul(?:ing|s)?|carry(?:ing)?|carries|load(?:ing)? (?:up )?|with|plus|bring(?:ing)?|"
                    r"deliver(?:ing)?|payload of|load of|cargo of)\s+(?:an?\s+|the\s+)?(?:about |around |roughly |maybe |another )?$",
                    re.I)


# what a weight said after it is carried ("4,300 lb of pavers on it", "3 tons in the bed", "a 3,000 lb load", "2 tons of
# gravel")
_CARRIED_AFTER = re.compile(r"\s*(?:of\s+[\w-]+(?:\s+[\w-]+)?\s+)?(?:on|in)\s+(?:it|the\s+(?:bed|trailer|truck|back|box|deck))\b|"
                            r"\s*(?:of\s+)?(?:load|payload|cargo)\b|\s*of\s+(?:gravel|stone|sand|dirt|fill|pavers|block|brick|"
                            r"mulch|asphalt|concrete|material|topsoil)\b", re.I)
# a further part of one rig, its weight bare after the first's ("..., the trailer 2,800 and the skid steer on it about
# 3,400"): a towed or carried thing, the figure in the first weight's pounds
_RIG_PART = re.compile(r"(?:\s*,\s*(?:and\s+|plus\s+)?|\s+(?:and|plus)\s+|\s*\+\s*)"
                       r"(?P<name>(?:(?:the|a|an|my|our|his|her|their|its)\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)"
                       r"(?P<on>\s+(?:on|in)\s+(?:it|the\s+\w+|top))?\s+(?:(?:is|at|weighs|comes\s+to|another)\s+)?"
                       r"(?:(?:about|around|roughly|maybe|approx\.?|approximately|close\s+to|nearly)\s+)?"
                       r"(?P<n>\d{1,3}(?:,\d{3})+|\d{3,6})(?:\s*(?:lbs?\.?|pounds|#))?(?![\d,.]*\s*(?:%|feet|foot|ft|inch|in\b|"
                       r"tons?|miles?|mph|gallons?|yards?|sq|square))(?=\W|$)", re.I)
_TOWED = re.compile(r"\b(?:trailer|skid[- ]?steer|load|loader|excavator|mini[- ]?ex|backhoe|bobcat|machine|equipment|"
                    r"roller|paver|pavers|stone|gravel|dirt|sand|mulch|block|material|tractor)s?\b", re.I)


# what joins one part of a rig to the next ("... excavator on a ...", "... trailer behind a ...", "... towing a ...")
_RIG_JOIN = re.compile(r"^\s*(?P<name>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)\s+(?:sitting\s+|loaded\s+|riding\s+|hauled\s+)?"
                       r"(?:on(?:to|\s+top\s+of)?|behind|towed\s+by|towing|pulling|pulled\s+by|hitched\s+to|in\s+the\s+bed\s+of)"
                       r"\s+(?:a|an|the|our|my|his|her|their|its)\s+$", re.I)


def _one_rig(weights: list, text: str) -> list[tuple[object, str]] | None:
    """Weights said of the parts of one rig, each joined to the next by what carries or pulls it ("Our 14,000 lb
    excavator on a 3,500 lb trailer behind a 6,000 lb pickup"): each with its part's name; None otherwise."""
    ordered = sorted(weights, key=lambda w: w.span.start)
    if len({w.span.origin for w in ordered}) != 1 or len(ordered) > 4:
        return None
    out = []
    for a, b in zip(ordered, ordered[1:]):
        m = _RIG_JOIN.match(text[a.span.end:b.span.start])
        if m is None or not (_VEHICLE_ONLY.search(m.group("name")) or _TOWED.search(m.group("name"))):
            return None
        out.append((a, m.group("name")))
    last = re.match(r"\s*([a-z][\w-]*(?:\s+[a-z][\w-]*){0,1})", text[ordered[-1].span.end:], re.I)
    name = last.group(1) if last and (_VEHICLE_ONLY.search(last.group(1)) or _TOWED.search(last.group(1))) else None
    if name is None:
        return None
    return [*out, (ordered[-1], name)]


def _together(q: str, ctx: RouteContext, muni: str | None, total: Decimal, words: str) -> Routed:
    """The heavy-vehicle check of weights read as one gross weight, the sum and its parts shown as read."""
    args = _heavy_args(q, ctx, muni, total)
    return Routed("heavy_vehicle_check", args, args["municipality"], phrasing.lead_heavy,
                  derived={"gross_weight_tons": f"{roles.as_number(total)} tons ({words})"})


def _rig_parts(weight, text: str) -> list[tuple[str, Decimal, str]] | None:
    """The further parts of one rig listed after its first weight in pounds, each (name, tons, words): a trailer and
    what is on it; None unless at least one part is towed or carried."""
    if not re.search(r"\b(?:lbs?|pounds?|#)", weight.span.text, re.I):
        return None
    at, parts = weight.span.end, []
    while len(parts) < 4:
        m = _RIG_PART.match(text, at)
        if m is None:
            break
        name = re.sub(r"^(?:the|a|an|my|our|his|her|their|its)\s+", "", m.group("name"), flags=re.I)
        if not (_TOWED.search(name) or m.group("on")):
            break
        # (the bare figure in the first one's pounds, converted as the reading stage converts any weight)
        tons = next(x.number for x in reading.read_slots(f"{m.group('n')} lbs") if x.kind == "weight")
        parts.append((name, tons, m.group("n")))
        at = m.end()
    return parts or None


def _lead_named(result, name: str) -> str:
    """The heavy-vehicle lead of one of several vehicles, named by the user's word for it ("For the loader ...")."""
    # ("truck B" is named without an article: "For truck B")
    article = "" if _LABEL_AFTER.match(name.split(" ", 1)[-1]) and " " in name else "the "
    return re.sub(r"^For this vehicle\b", f"For {article}{name}", phrasing.lead_heavy(result))


def _vehicle_clause(weight, text: str) -> tuple[str, str] | None:
    """The vehicle a weight is said of, in the words of its own clause ("our 7,400 lb track loader", "our dump truck
    grosses 13,500 lbs loaded"), with that clause; None when its clause names none."""
    start = max([0] + [m.end() for m in re.finditer(r"[,;.!?]\s|\band\b", text[:weight.span.start])])
    end_m = re.search(r"[,;.!?](?:\s|$)|\band\b", text[weight.span.end:])
    end = weight.span.end + (end_m.start() if end_m else len(text) - weight.span.end)
    clause = text[start:end]
    after = text[weight.span.end:end]
    for segment in (after[:30], text[start:weight.span.start]):
        found = list(_VEHICLE_ONLY.finditer(segment))
        if found:
            # (the last run of vehicle words: "dump truck", not "dump")
            first = len(found) - 1
            while first > 0 and not segment[found[first - 1].end():found[first].start()].strip():
                first -= 1
            return segment[found[first].start():found[-1].end()].lower(), clause
    return None


# a vehicle named before its weight ("our dump truck grosses"), not the driving ("haul", "drive")
_VEHICLE_ONLY = re.compile(VEHICLE.pattern + r"|\b(?:roller|paver|crane|grader|skid[- ]?steer|backhoe|bulldozer|dozer|"
                           r"tractor)s?\b", re.I)
# the label that tells one of two like vehicles from the other: "truck one", "truck B", "truck #2", "the first truck",
# "the other truck"
_LABEL_AFTER = re.compile(r"^\s*(?:#\s?\d+|no\.\s?\d+|number\s+\w+|\d\b|[A-D]\b|one\b|two\b|three\b)")
_LABEL_BEFORE = re.compile(r"\b(?:first|second|third|1st|2nd|3rd|other|another|next|last)\s+(?:[\w-]+\s+)?$", re.I)


def _labelled(name: str, clause: str) -> str:
    """A vehicle's name with the label its clause gives it ("truck b", "second truck"); the name alone without one."""
    at = clause.lower().find(name)
    if at < 0:
        return name
    after = _LABEL_AFTER.match(clause[at + len(name):])
    if after:
        label = after.group(0).strip()
        return f"{name} {label.upper() if len(label) == 1 else label}"
    before = _LABEL_BEFORE.search(clause[:at])
    return f"{before.group(0).split()[0].lower()} {name}" if before else name


def _heavy_args(q: str, ctx: RouteContext, muni: str | None, tons) -> dict:
    low = q.lower()
    return {"municipality": only_municipality(ctx, "heavy_vehicle_check", muni),
            "gross_weight_tons": roles.as_number(tons),
            # "neither has lugs": a denial of lugs outweighs "tracked"
            "lugged_wheels": slots.affirmed(r"lug|cleat", low) or (
                not re.search(r"lug|cleat", low) and slots.affirmed(r"\btrack", low)),
            "temporary_limit_posted": slots.affirmed(r"posted|temporary|weight limit|limit is|signs? (?:are |is )?up", low)}


# which figure of the road standards a question asks: the checks whose provisions it cites
ROAD_FOCUS = {
    "aggregate": ("aggregate_base", "aggregate_lifts", "wet_area_stone"),
    "lift": ("bituminous_lift", "initial_lift"),
    "corrective": ("final_thickness",),
    "both": ("aggregate_base", "aggregate_lifts", "wet_area_stone", "bituminous_lift", "initial_lift"),
    "each": ("aggregate_base", "aggregate_lifts", "wet_area_stone", "bituminous_lift", "initial_lift"),
    "each_sum": ("aggregate_base", "aggregate_lifts", "wet_area_stone", "bituminous_lift", "initial_lift"),
}
# the stone and the lift asked as two asks ("how much stone goes under it, and how thick is the asphalt lift?")
_TWO_ASKS = re.compile(r"\b(?:aggregate|stone|gravel|base course)[^?]*?(?:,\s*|\s)(?:and|&|plus)\s+(?:how|what|whats|what's)\b"
                       r"[^?]*\b(?:bituminous|asphalt|blacktop|lifts?)\b|"
                       r"\b(?:bituminous|asphalt|blacktop|lifts?)\b[^?]*?(?:,\s*|\s)(?:and|&|plus)\s+(?:how|what|whats|what's)\b"
                       r"[^?]*\b(?:aggregate|stone|gravel|base course)\b", re.I)


# ground that is wet, in the words people use (general English)
WET = re.compile(r"\b(?:wet|soggy|swamp(?:y)?|marsh(?:y)?|bog(?:gy)?|mucky|spongy|saturated|standing water|low spot|"
                 r"wetlands?|seasonally wet|seasonably wet)\b", re.I)


def road_focus(question: str, deficiency_given: bool) -> str:
    """"How thick is the first bituminous lift?" asks the lift, not the stone under it."""
    if deficiency_given:
        return "corrective"
    # ("the stone depth under the blacktop": where the stone goes, no lift asked)
    paving = re.search(r"(?<!under the )(?<!below the )(?<!beneath the )(?<!under )(?<!beneath )"
                       r"\b(?:bituminous|asphalt|blacktop|lifts?)\b", question, re.I)
    stone = re.search(r"aggregate|stone|gravel|base course", question, re.I)
    if paving and not stone:
        return "lift"
    if paving and stone and _TWO_ASKS.search(question):
        # two asks: each its own figure (and their sum too when a total is asked as well)
        # ("how thick is the whole section once the lift is on", "adding it all up": the sum is asked too)
        return "each_sum" if re.search(r"\b(?:plus|total|together|combined|in all|altogether|all told|whole|entire|"
                                       r"overall|all up)\b", question, re.I) \
            else "each"
    # ("adding it all up", "from the bottom of the stone to the top of the first lift": the layers summed)
    if paving and stone and re.search(r"\b(?:plus|total|together|combined|in all|altogether|all told|both|whole|everything|"
                                      r"from (?:the )?subgrade up|all (?:the )?layers|add(?:ing|ed)?\b[^?.]{0,12}\bup|"
                                      # ("From approved subgrade to the top of the first asphalt lift")
                                      r"from (?:the )?(?:\w+ )?(?:bottom|subgrade|sub-grade|dirt|native soil)\b[^?.]{0,40}"
                                      r"\b(?:up )?to (?:the )?top)\b", question, re.I):
        return "both"  # "total thickness of stone plus first asphalt lift"
    return "aggregate"


# ("thirteen inches under where finished grade will be" is a depth below grade, no shortfall: "under" alone is not one)
_SHORT_AFTER = re.compile(r"^\s*(?:short|too thin|thin|shy|under\s+(?:spec|the\s+(?:required|minimum|spec))|deficien\w*|"
                          r"less than (?:required|spec))\b", re.I)
_SHORT_BEFORE = re.compile(r"\b(?:short by|deficient by|deficiency of|shortfall of|under by|thin by)\s*(?:about\s+)?$", re.I)


def road_construction(q: str, muni: str | None, ctx: RouteContext):
    """The layers a road needs to be accepted: aggregate, the first lift, a corrective lift."""
    if not serves(ctx, "road_construction_check", muni):
        return None
    low = q.lower()
    args: dict[str, Any] = {"municipality": only_municipality(ctx, "road_construction_check", muni),
                            "wet_area": slots.affirmed(WET, low)}  # ("sandy and dry so no wet-area layer": denied)
    # "came up three-quarters of an inch short", "1/2 inch too thin", "deficient by 0.75 in": the shortfall, read
    # (worded numbers too) from the length the words make a shortfall
    short = [x for x in (ctx.query.of("length", "turn") if ctx.query is not None else [])
             if x.unit == "in" and (_SHORT_AFTER.match(x.after) or _SHORT_BEFORE.search(x.before))]
    if len({x.value for x in short}) > 1 and muni is not None:
        shown = tuple(dict.fromkeys(x.span.text for x in short))
        return Missing("the shortfall of the final thickness: is it " + " or ".join(f"“{x}”" for x in shown)
                       + "? (each stretch's corrective lift is worked from its own)", slot="deficiency",
                       candidates=shown)
    thin = short[0] if short else None
    if thin is not None:
        args["final_deficiency_in"] = thin.value
    fields = ctx.tools["road_construction_check"].input_model.model_fields
    args = {k: v for k, v in args.items() if k in fields}
    focus = road_focus(low, thin is not None)
    return Routed("road_construction_check", args, args.get("municipality"), partial(phrasing.lead_road, focus=focus),
                  focus=ROAD_FOCUS[focus])


# a trench's length ahead of the pipe laid or left open behind it ("180 yards of open trench behind where the pipe's
# already been laid", "we're 300 feet ahead of the pipe")
_AHEAD = re.compile(r"\b(?:ahead|in\s+advance|in\s+front\s+of|before\s+(?:the\s+)?(?:pipe|conduit)|not\s+yet\s+laid)\b", re.I)
_BEHIND = re.compile(r"\b(?:behind|unfilled|not\s+(?:yet\s+)?(?:back)?filled|(?:already|been)\s+(?:been\s+)?laid)\b", re.I)
# a length that is the trench's depth or a layer's thickness, not its run along the pipe
_NOT_A_RUN = re.compile(r"\b(?:deep|depth|thick\w*|lifts?|layers?|wide|width)\b", re.I)


def trench(q: str, muni: str | None, ctx: RouteContext):
    """One trench length, ahead of the pipe laying or left unfilled behind it, against its limit."""
    if ctx.query is None or not serves(ctx, "trench_check", muni):
        return None
    lengths = list({x.value: x for x in ctx.query.of("length", "turn") if x.unit == "ft"}.values())
    if not 1 <= len(lengths) <= 2:
        return None
    # ("100 yards ahead of the pipe crew, and the backfill is trailing around 150 yards behind": one length for each
    # limit, each told by the words of its own clause)
    found: dict[str, Any] = {}
    for x in lengths:
        clause = limits.clause_at(ctx.query.turn, x.span.start)
        if len(lengths) > 1:
            clause = own_clause(ctx.query.turn, x.span.start, x.span.end)
        ahead, behind = _AHEAD.search(clause), _BEHIND.search(clause)
        if _NOT_A_RUN.search(clause) or dimension(x) not in (None, "length"):
            return None  # "a yard and a half of depth to backfill": a depth, held against no length limit
        if bool(ahead) == bool(behind):
            return None  # which of the two limits the length is held against is not guessed
        arg = "unfilled_behind_pipe_ft" if behind else "excavated_ahead_of_pipe_ft"
        if arg in found:
            return None  # two lengths for one limit: which one is not guessed
        found[arg] = x
    only = only_municipality(ctx, "trench_check", muni)
    routed = Routed("trench_check", {"municipality": only, **{a: x.value for a, x in found.items()}}, only,
                    phrasing.lead_trench, sources=dict(found))
    for arg, x in found.items():
        if x.worked or not re.search(r"\b(?:feet|foot|ft)\b|'", x.span.text, re.I):
            routed.derived[arg] = f"{x.value} feet (“{x.span.text}”)"
    return routed

