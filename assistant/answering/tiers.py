"""A fee in tiers, from the quoted sentence, for the user's one quantity: any code, no table.

"$2.00 for excavations which do not exceed 25 square feet ... and $0.25 for each additional square foot ...;
but not to exceed $100.00" and "about 10 ft by 7 ft"; "$20.00 for each of the first three (3) carts and
$40.00 for each additional cart" and "5 carts" (with "$5.00 per cart per day" after it when the days are
given). Nothing is worked out when the question's measure is of something no tier names, when two
quantities fit, or when more is asked altogether than the tiers' fee.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from assistant.answering.formatting import fmt_money
from assistant.answering.reading import NUMBER, Slot, number_value, read_slots
from assistant.answering.worked import Worked, counts_in, pronoun_counts, stem_of
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems

# "what's the fee, and how much do I hand the clerk altogether with the deposit?": more than the tiers' fee is asked
ALL_OWED = re.compile(r"\baltogether\b|\ball together\b|\btogether\b|\bcombined\b|\bin all\b|\btotal\b|"
                      r"\ball in\b|\ball told\b|\bcounting the\b|\ball up\b|"
                      r"\bwith the (?:deposit|bond|fee)\b|\bplus the\b|\bincluding the\b|\bbetween the\b[^?.]{0,40}\band\b",
                      re.I)  # ("what's that together?", "between the permit fee and the cash deposit, how much ...")
# what else may be owed beside a fee in tiers ("the total I should expect to pay to get them back" for carts removed
# and stored asks the tiers' own total: nothing else is named)
OTHER_CHARGE = re.compile(r"\b(?:deposits?|bonds?|insurance|surcharges?|inspections?|application fees?|escrow)\b", re.I)


def asks_more_than(turn: str, sentence: str) -> bool:
    """Does the question ask more altogether than the tiers' fee: a total with another charge the sentence does not
    name?"""
    if not ALL_OWED.search(turn):
        return False
    others = {m.group(0).lower().rstrip("s") for m in OTHER_CHARGE.finditer(turn)}
    return bool(others - {m.group(0).lower().rstrip("s") for m in OTHER_CHARGE.finditer(sentence)})

# tiers of a fee: "$2.00 for excavations which do not exceed 25 square feet ... and $0.25 for each additional square
# foot ...; but not to exceed $100.00", "$20.00 for each of the first three (3) carts and $40.00 for each additional cart"
_UP_TO = re.compile(rf"\b(?:do(?:es)?\s+not\s+exceed|not\s+exceeding|up\s+to|of\s+not\s+more\s+than|the\s+first)\s+"
                    rf"(?P<n>{NUMBER.pattern})\s*(?:\(\d+\)\s*)?(?P<u>(?:square|sq\.?|lineal|linear|cubic)\s+(?:feet|foot|ft|yards?)|"
                    r"feet|foot|[a-z]+)", re.I)
_EACH_FIRST = re.compile(rf"\bfor\s+each\s+of\s+the\s+first\s+(?P<n>{NUMBER.pattern})\s*(?:\(\d+\)\s*)?(?P<u>[a-z]+)", re.I)
_ADDITIONAL = re.compile(r"\b(?:for\s+)?each\s+additional\s+(?P<u>(?:square|sq\.?|lineal|linear|cubic)\s+(?:feet|foot|ft|yard)|"
                         r"[a-z]+)(?P<more>(?:[^;$]{0,40}?,?\s+or\s+(?:lineal|linear|square)\s+foot)?)", re.I)
_CAP = re.compile(r"\b(?:not\s+to\s+exceed|shall\s+not\s+exceed|maximum\s+of|at\s+most|up\s+to\s+a\s+maximum\s+of)\s*$", re.I)
# ("10 ft by 7 ft", "5 ft wide by 120 ft long")
_BY = re.compile(r"(?P<a>\d+(?:\.\d+)?)\s*(?:'|’|ft\.?|feet|foot)?(?:\s+(?:wide|long|deep|across))?\s*(?:by|x|×)\s*"
                 r"(?P<b>\d+(?:\.\d+)?)\s*(?:'|’|ft\.?|feet|foot)(?=\W|$)", re.I)
# "apron 10 x 18": two bare numbers joined by "x" (no unit, no "by": "2 by 4" is lumber)
_BARE_BY = re.compile(r"(?<![\d.$])(?P<a>\d+(?:\.\d+)?)\s*(?:x|×)\s*(?P<b>\d+(?:\.\d+)?)(?!\d|\.\d|\s*(?:'|’|\"|ft\b|feet|foot|"
                      r"in\b|inch|%|mm|cm|m\b|yards?|yds?))", re.I)
_IN_FEET = re.compile(r"\d\s*(?:'|’)|\b(?:ft|feet|foot)\b", re.I)
_PER_PER = re.compile(r"[)\s]*(?:\(\$[\d.,]+\)\s*)?per\s+(?P<u>[a-z]+)(?:\(s\))?\s+per\s+(?P<t>day|week|month)\b", re.I)
_TIER_GENERIC = stems("for which that do does not and or in of the a an area length size any such each permit fee fees")
_WIDE = re.compile(r"(?:[\s-]+(?:in\s+)?(?:wide|width|across))\b", re.I)
# ("ninety feet of five-foot-wide walk": the length of a thing its width is said of)
_LONG = re.compile(r"(?:[\s-]+(?:in\s+)?(?:long|length)|\s+(?:along|of\s+(?:new\s+|[\w]+[\s-]+(?:foot|feet|ft|inch)[\s-]+wide\s+)?"
                   r"(?:frontage|sidewalks?|walks?|curbs?|driveways?|aprons?)))\b", re.I)
# "runs 130 feet along the frontage", "stretches 60 feet": a length by the verb before it
_RUNS = re.compile(r"\b(?:runs?|running|stretch(?:es|ing)?|extends?|extending)\s+(?:about\s+|roughly\s+|around\s+)?$", re.I)
_AREA = re.compile(rf"(?P<n>{NUMBER.pattern})\s*(?:square|sq\.?)\s*(?:feet|foot|ft)\b", re.I)


def _unit_kind(unit: str) -> str:
    u = unit.lower()
    if re.search(r"square|sq", u):
        return "area"
    if re.search(r"feet|foot|ft|lineal|linear", u):
        return "length"
    return stem_of(u.split()[-1])


def users_quantities(turn: str, slots: list[Slot]) -> dict[str, list[tuple[Decimal, str]]]:
    """What the question measures or counts, by kind: an area ("10 ft by 7 ft", "70 square feet"), a length
    in feet, or a count of things (by the thing's stem)."""
    out: dict[str, list[tuple[Decimal, str]]] = {}
    taken = []
    for m in _BY.finditer(turn):
        out.setdefault("area", []).append((Decimal(m.group("a")) * Decimal(m.group("b")), m.group(0)))
        taken.append((m.start(), m.end()))
    if _IN_FEET.search(turn):  # "an apron 10 x 18" beside measures told in feet: read in feet (shown as written)
        for m in _BARE_BY.finditer(turn):
            if not any(a <= m.start() < b for a, b in taken):
                out.setdefault("area", []).append((Decimal(m.group("a")) * Decimal(m.group("b")), m.group(0)))
                taken.append((m.start(), m.end()))
    for m in _AREA.finditer(turn):
        v = number_value(m)
        if v is not None:
            out.setdefault("area", []).append((v, m.group(0)))
            taken.append((m.start(), m.end()))
    # "6 feet wide and 150 feet long", "150 ft long, 6 ft wide": one width and one length make an area (beside
    # another told "by": "a 4 ft wide walk, 85 feet long, plus a 12 x 10 ft apron")
    free = [s for s in slots if s.kind == "length" and s.span.origin == "turn"
            and not any(a <= s.span.start < b for a, b in taken)]
    wide = [s for s in free if _WIDE.match(turn, s.span.end)]
    long_ = [s for s in free if (_LONG.match(turn, s.span.end) or _RUNS.search(turn[:s.span.start]))
             and not _WIDE.match(turn, s.span.end)]
    if len(wide) == 1 and len(long_) == 1:
        w, l_ = (x.number if x.unit == "ft" else x.number / 12 for x in (wide[0], long_[0]))
        a, b = sorted((wide[0], long_[0]), key=lambda x: x.span.start)
        end = (_WIDE.match(turn, b.span.end) if b is wide[0] else _LONG.match(turn, b.span.end))
        out.setdefault("area", []).append((w * l_, turn[a.span.start:end.end() if end else b.span.end]))
    for s in slots:
        if s.kind == "length" and s.span.origin == "turn" and not any(a <= s.span.start < b for a, b in taken):
            feet = s.number if s.unit == "ft" else s.number / 12
            out.setdefault("length", []).append((feet, s.span.text))
    for n, w, written in counts_in(turn):
        if not re.fullmatch(r"(?:feet|foot|ft|inch|inches|square|sq|days?|hours?|years?|months?|weeks?)", w, re.I):
            out.setdefault(stem_of(w), []).append((n, written))
    # "we have like 140 carts ... picked up 5 of ours": the pronoun's count is one of each counted thing's
    for n, written in pronoun_counts(turn):
        for k in [k for k in out if k not in ("area", "length")]:
            out[k].append((n, written))
    return out


def tier_fee(turn: str, slots: list[Slot], sentence: str) -> Worked | None:
    """The fee a sentence of tiers gives for the user's one quantity of the tiers' unit: the first tier
    (a flat amount up to N, or an amount for each of the first N), each additional unit at its rate, and
    the ceiling ("but not to exceed $100.00") when the sentence states one."""
    money = [x for x in read_slots(sentence) if x.kind == "money" and x.unit == "USD"]
    extra = list(_ADDITIONAL.finditer(sentence))
    if len(extra) != 1 or len(money) < 2:
        return None
    add = extra[0]
    rate = [x for x in money if x.span.end <= add.start() and not re.search(r"[;$]", sentence[x.span.end:add.start()])]
    if not rate:
        return None
    rate_slot = rate[-1]
    before = sentence[:rate_slot.span.start]
    # the first tier: "for each of the first three (3) carts", else the bounds ("do not exceed 25 square feet")
    each_first = _EACH_FIRST.search(before)
    bounds = [] if each_first else list(_UP_TO.finditer(before))
    if not each_first and not bounds:
        return None
    start = each_first.start() if each_first else bounds[0].start()
    first = [x for x in money if x.span.end <= start]  # "twenty dollars ($20.00)": one amount written twice
    if not first or rate_slot.span.start < start:
        return None
    base = first[-1]
    cap = next((x for x in money if x.span.start > add.end() and _CAP.search(sentence[:x.span.start][-40:])), None)
    units = [add.group("u")] + re.findall(r"(?:lineal|linear|square)\s+foot", add.group("more") or "", re.I)
    quantities = users_quantities(turn, slots)
    asked = stems(expand(turn))
    found = []
    for bound in ([each_first] if each_first else bounds):
        n = number_value(bound)
        kind = _unit_kind(bound.group("u"))
        if n is None or not any(_unit_kind(u) == kind for u in units):
            continue
        # a measure is of the tier's thing: "excavations which do not exceed 25 square feet", "tunnels not
        # exceeding 25 feet" (a 30-foot trench is no tunnel); a count names its thing itself ("first three carts")
        thing = stems(" ".join(re.findall(r"[a-z]+", sentence[:bound.start()].lower())[-4:])) - _TIER_GENERIC
        mine = quantities.get(kind, [])
        if mine and kind in ("area", "length") and not thing & asked:
            # a measure of something the tier is not about: which tier is not guessed — unless the user's measures of
            # this kind are only the sides of an area told ("tunnels not exceeding 25 feet" of a trench 4 feet wide and
            # 30 feet long: its area meets the excavations' tier)
            areas = [w for _, w in quantities.get("area", [])]
            if kind == "length" and thing and all(any(written in a for a in areas) for _, written in mine):
                continue
            return None
        if len({q for q, _ in mine}) == 1:
            found.append((n, kind, bound, mine[0]))
        elif mine:
            return None
    if len(found) != 1:
        return None  # no quantity of a tier's unit, or one for each of two tiers: which one is not guessed
    n, kind, bound, (q, written) = found[0]
    over = max(q - n, Decimal(0))
    unit_word = {"area": "square feet", "length": "feet"}.get(kind, bound.group("u"))
    if each_first:
        first_part = base.number * min(q, n)
        steps = [f"{fmt_money(base.number)} × {min(q, n).normalize():f} (the first {n.normalize():f})"]
    else:
        first_part = base.number
        steps = [f"{fmt_money(base.number)} up to {n.normalize():f} {unit_word}"]
    total = first_part + rate_slot.number * over
    steps[0] = (f"{q.normalize():f} {unit_word} (“{written}”): " + steps[0]
                + f" + {fmt_money(rate_slot.number)} × {over.normalize():f} additional = {fmt_money(total)}")
    # another charge after the tiers ("and (ii) a fee for the storage of the cart(s) ... $5.00 per cart per day"):
    # worked out too when it is per the tiers' unit per day and the user says for how many days, else nothing
    rest = {x.number: x for x in money if x.span.start > add.end() and x is not cap and x.number != rate_slot.number
            and (cap is None or x.number != cap.number)}  # "five dollars and no cents ($5.00)": one amount, the last writing
    rest = list(rest.values())
    if rest:
        per = _PER_PER.match(sentence, rest[0].span.end)
        days = [x for x in slots if x.kind == "duration" and per and x.unit.rstrip("s") == per.group("t").lower()]
        if len(rest) != 1 or not per or stem_of(per.group("u")) != stem_of(bound.group("u")) \
                or len({d.number for d in days}) != 1:
            return None
        more = rest[0].number * q * days[0].number
        steps.append(f"{fmt_money(rest[0].number)} × {q.normalize():f} × {days[0].number.normalize():f} "
                     f"{per.group('t')}s (“{days[0].span.text}”) = {fmt_money(more)}; {fmt_money(total)} + "
                     f"{fmt_money(more)} = {fmt_money(total + more)}")
        total += more
    maximum = False
    if cap is not None and total > cap.number:
        # (the sum over the ceiling is never said as an amount: it is not owed — "$2.00 ... + $0.25 × 455 additional
        # comes to more than the ceiling of $100.00: $100.00")
        over = f" = {fmt_money(total)}"
        steps[-1] = (steps[-1][:-len(over)] if steps[-1].endswith(over) else steps[-1] + ";") \
            + f" comes to more than the ceiling of {fmt_money(cap.number)}: {fmt_money(cap.number)}"
        total = cap.number
    total = total.quantize(Decimal("0.01"), ROUND_HALF_UP)
    words = sentence[base.span.start:(cap.span.end if cap is not None else add.end())]
    return Worked("tiered", words, written, total, steps, maximum, sentence)


def width_needed(turn: str, slots: list[Slot], sentence: str) -> str | None:
    """The words of the user's one length when a sentence of tiers charges the user's thing by area ("excavations
    which do not exceed 25 square feet") and the question gives that thing's length alone ("a trench going 30 feet"):
    its width is asked for, never the length read as a tier by length ("tunnels not exceeding 25 feet"). None
    otherwise."""
    quantities = users_quantities(turn, slots)
    lengths = quantities.get("length", [])
    if quantities.get("area") or len({q for q, _ in lengths}) != 1 or not _ADDITIONAL.search(sentence):
        return None
    asked = stems(expand(turn))
    for bound in _UP_TO.finditer(sentence):
        thing = stems(" ".join(re.findall(r"[a-z]+", sentence[:bound.start()].lower())[-4:])) - _TIER_GENERIC
        if _unit_kind(bound.group("u")) == "area" and thing & asked:
            return lengths[0][1]
    return None


def with_other_charge(turn: str, slots: list[Slot], sentence: str, quoted: list[str]) -> Worked | None:
    """A fee in tiers and the one other charge the question adds to it ("the permit fee and the cash deposit
    together"), the other's amount from a quoted sentence about it: its one amount, or the one whose condition the
    question meets ("$25.00 if no pavement is involved or $75.00 if ... in a paved area"). None when more than one
    other charge is named, or its amount is not read one way."""
    from assistant.answering.alternatives import amount_by_condition

    others = {m.group(0).lower().rstrip("s") for m in OTHER_CHARGE.finditer(turn)} - \
        {m.group(0).lower().rstrip("s") for m in OTHER_CHARGE.finditer(sentence)}
    if len(others) != 1:
        return None
    other = others.pop()
    tier = tier_fee(turn, slots, sentence)
    if tier is None:
        return None
    found = []
    for s in quoted:
        if s == sentence or not re.search(rf"\b{re.escape(other)}s?\b", s, re.I):
            continue
        money = {x.number for x in read_slots(s) if x.kind == "money" and x.unit == "USD"}
        chosen = amount_by_condition(turn, s)
        if chosen is not None:
            found.append((chosen.amount.number, f"“{chosen.amount.span.text} if {chosen.condition}” (you said “{chosen.said}”)", s))
        elif len(money) == 1:
            amount = money.pop()
            found.append((amount, f"“{fmt_money(amount)}”", s))
        elif money:
            return None  # several amounts, none chosen by the question's words: not guessed
    if len({a for a, _, _ in found}) != 1:
        return None
    amount, said, other_sentence = found[0]
    total = (tier.result + amount).quantize(Decimal("0.01"), ROUND_HALF_UP)
    steps = [*tier.steps, f"the {other}: {fmt_money(amount)} ({said})",
             f"{fmt_money(tier.result)} + {fmt_money(amount)} = {fmt_money(total)}"]
    return Worked("tiered", tier.rate_words, tier.read_words, total, steps, False, sentence, others=(other_sentence,))
