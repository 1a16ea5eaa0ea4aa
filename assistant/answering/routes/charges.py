"""Charges: a sidewalk assessment, the repair bill, the asphalt deposit settlement, the
snow-removal charge. Each reads the amounts the question gives; its Route declares the
words it answers."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from assistant.answering import phrasing, reading, roles, slots
from assistant.answering.formatting import fmt_money
from assistant.answering.reading import NUMBER, number_value
from assistant.answering.parties import of_another
from assistant.retrieval.expansion import expand
from assistant.answering.routes.common import (
    Missing,
    asking,
    RouteContext,
    Routed,
    ambiguous,
    only_municipality,
    rule_ending,
    serves,
)

# the cost of the work, and other money a story may name (general English)
WORK_COST = re.compile(r"cost|estimate|quote|reconstruct|replac|repair|bid|price|total|bill|charge|run|come to|came to",
                       re.I)
OTHER_MONEY = re.compile(r"permit|fee|deposit|paid for|fine|bond|insurance|tax", re.I)

# a question that asks for an amount of money ("how much of the cost do I pay?" asks the share)
ASKS_AMOUNT = re.compile(r"\bhow much\b(?!\s+(?:of|lower|higher|wider|narrower|deeper|thicker|thinner|steeper|longer|"
                         r"shorter|bigger|smaller|farther|further|more|less)\b)|\bwhat (?:will|would|do|does) (?:i|we|they|he|she) (?:owe|pay|get)\b|"
                         r"\b(?:money|refund) back\b|\bget (?:something|anything|any(?: of it| money)?|money|it) back\b|\bowe (?:more|anything)\b|\bwhat(?:'s|s| is) (?:the|my|our) "
                         r"(?:share|bill|balance|refund|assessment)\b|"
                         r"\bwhat (?:will|would|do|does|did|can|could) (?:they|the \w+|it) (?:charge|bill)\b|"
                         r"\bwhat (?:will|would) (?:my|our|the) (?:share|bill|charge|assessment|part) (?:be|come to|run)\b|"
                         r"\bwhat (?:am|are) (?:i|we) (?:going to|gonna) (?:get )?(?:billed|charged|owe|pay)\b|"
                         # "what will I end up owing or getting back?", "how much am I going to owe"
                         r"\bwhat (?:will|would) (?:i|we) (?:end up )?(?:owing|paying|getting back)\b|"
                         r"\b(?:am|are) (?:i|we) (?:going to|gonna) (?:owe|pay|be (?:billed|charged))\b|"
                         # "what's that going to cost me?", "what am I getting billed?"
                         r"\bwhat(?:'s|s| is| will| would)\s+(?:that|this|it)\s+(?:going to |gonna )?(?:cost|run)\b|"
                         r"\bwhat (?:am|are) (?:i|we) (?:getting|being) (?:billed|charged)\b|\bcost (?:me|us)\b", re.I)


# a permit named: its fee is asked, not a share of a sidewalk's cost
MENTIONS_PERMIT = re.compile(r"\bpermits?\b", re.I)


# a cost the words give for several properties together
SHARED_COST = re.compile(r"\bfor (?:the )?(?:two|both|three|all) of us\b|\btogether\b|\bcombined\b|\bfor both\b|"
                         r"\bbetween (?:us|the two|both)\b|\bfor (?:our|the) (?:two|three|both) (?:houses|homes|lots|properties)\b",
                         re.I)
ESTIMATE = re.compile(r"\bestimat", re.I)
# an amount paid to have the work looked at or quoted, not for the work ("$189 just to come look at it")
_FOR_A_LOOK = re.compile(r"\W*(?:just\s+|only\s+)?(?:to\s+(?:come\s+)?(?:out\s+)?(?:and\s+)?(?:look|check|inspect|see|quote|"
                         r"give\s+(?:me|us|them)\s+a\s+(?:quote|price|bid))|for\s+(?:a|the|his|her|their)\s+(?:[\w-]+\s+){0,2}?(?:look|visit|"
                         r"inspection|quote|consult\w*|trip|service\s+call))\b", re.I)
FINAL_COST = re.compile(r"\bfinal\b|\bactual\b|\bcame (?:in )?(?:to|at)\b|\bended up\b|\bbill(?:ed)?\b|\binvoice", re.I)
OWNERS = ("houses", "homes", "owners", "lots", "properties", "parcels", "homeowners")
# "six on each side", "5 houses per side": the same number on both sides of the street
_EACH_SIDE = re.compile(rf"(?P<n>{NUMBER.pattern})\s+(?:(?:houses|homes|owners|homeowners|lots|properties|parcels)\s+)?"
                        r"(?:on\s+each|on\s+either|per|each)\s+side\b", re.I)
_ON_EACH = re.compile(rf"(?P<n>{NUMBER.pattern})\s+(?:(?:houses|homes|owners|homeowners|lots|properties|parcels)\s+)?"
                      r"on\s+each\b(?=\s*(?:[.,;:!?)]|$|and\b))", re.I)
_ACROSS = re.compile(rf"(?P<n>{NUMBER.pattern})\s+(?:(?:houses|homes|owners|lots|properties|parcels)\s+)?(?:(?:are|on)\s+)?"
                     r"(?:across(?:\s+the\s+(?:street|road|way))?|on\s+the\s+(?:other|opposite|far|north|south|east|west)"
                     r"\s+side)\b", re.I)
# a count of owners the words make the total of both sides: "a dozen houses total on the two sides", "14 homes in all"
_BOTH_SIDES_TOTAL = re.compile(r"\s*(?:\w+\s+){0,2}?(?:total|in all|altogether|combined|all told|on (?:the )?(?:two|both) "
                               r"sides|between (?:the )?(?:two|both) sides)\b", re.I)
# a walk newly built where there was none, in plain words ("no walks on either side", "putting one in")
NEW_WALK = re.compile(r"\bnew (?:side)?walks?\b|\bneither side|\b(?:no|without(?: any)?) (?:side)?walks?\b|"
                      r"\bput(?:ting)? (?:(?:a|one|the|new)\s+)*(?:side)?walks? in\b|\bput(?:ting)? in (?:(?:a|one|the|new)\s+)*(?:side)?walks?\b|"
                      r"\bputting (?:one|it|a (?:new )?(?:side)?walk) in\b|\binstall(?:ing|s|ed)? (?:a |one |the )?(?:new )?(?:side)?walk",
                      re.I)


_AREA_PRICE = re.compile(r"^(?P<n>\d[\d.]*\s+)?(?:square|sq)\.?\s*(?P<u>feet|foot|ft|yards?|yds?)$")
_LENGTH_PRICE = re.compile(r"^(?P<n>\d[\d.]*\s+)?(?:(?:lineal|linear|running)\s+)?(?:feet|foot|ft)$")



# "it's just me ... and the guy directly across the road": one owner on each side, said without a number
_ONE_EACH_SIDE = re.compile(r"\b(?:just|only)\s+(?P<me>me|us|my\s+(?:house|lot|place|property))\b[^.?!]{0,60}?\band\s+"
                            r"(?P<other>(?:the|one|a)\s+(?:guy|neighbou?r|owner|lady|woman|man|house|family|couple|lot|"
                            r"property|place)\s+(?:\w+\s+){0,2}across\s+(?:the\s+)?(?:street|road|way))", re.I)

def price_times_quantity(price, query) -> tuple[Decimal, str] | Missing:
    """A cost from the user's price of one thing ("$310 per square", "$1,150 per 100 sq ft") and their one
    quantity of that thing (a count of squares, an area, a length); asked for when none or several are given."""
    from assistant.answering.tiers import users_quantities
    from assistant.answering.worked import stem_of

    thing = price.unit.split("/", 1)[1]
    from assistant.answering.slot_safety import ROUGH_AMOUNT

    if ROUGH_AMOUNT.match(price.span.text):
        # "it runs a couple hundred a square": no exact price to multiply; asked
        return Missing(f"the price per {thing}: “{price.span.text}” is not an exact amount. What is the estimate, in "
                       "dollars?", slot="cost", candidates=(price.span.text,))
    quantities = users_quantities(query.turn, query.of_origin("turn"))
    if m := _AREA_PRICE.match(thing):
        per, found = Decimal((m.group("n") or "1").strip()), quantities.get("area", [])
        if m.group("u").startswith("y"):
            found = [(a / 9, w) for a, w in found]
        unit = "square yards" if m.group("u").startswith("y") else "square feet"
    elif m := _LENGTH_PRICE.match(thing):
        per, found, unit = Decimal((m.group("n") or "1").strip()), quantities.get("length", []), "feet"
    else:
        per, unit = Decimal(1), thing + "s"
        found = quantities.get(stem_of(thing), []) + [
            (c.number, c.span.text) for c in query.of_origin("turn")
            if c.kind == "count" and c.unit and stem_of(c.unit) == stem_of(thing)]
    # (not the price's own "per 100 sq ft")
    own = query.turn[price.span.end:price.span.end + 30]
    found = [(v, w) for v, w in found if w not in own]
    found = list(dict.fromkeys(found))
    distinct = list(dict.fromkeys(v for v, _ in found))
    if len(distinct) != 1 or per <= 0:
        return Missing(f"how many {unit} the work covers: “{price.span.text}” is a price "
                       f"per {thing}." if not distinct else
                       f"which quantity the price “{price.span.text}” per {thing} is for: "
                       + " or ".join(f"“{w}”" for _, w in found) + "?",
                       slot="cost", candidates=tuple(w for _, w in found))
    qty, written = distinct[0], next(w for v, w in found if v == distinct[0])
    cost = (qty / per * price.number).quantize(Decimal("0.01"), ROUND_HALF_UP)
    m = reading.PRICE_OF.match(query.turn, price.span.end)
    said = query.turn[price.span.start:m.end() if m else price.span.end].rstrip(".")
    return cost, f"{fmt_money(cost)} (“{written}” at “{said}”)"


def sidewalk_assessment(q: str, muni: str | None, ctx: RouteContext):
    """An owner's share of a sidewalk's cost (reconstruction, defective replacement, a new walk)."""
    from assistant.answering.routes import checks

    bad, total = checks.block_counts(q, ctx)
    if (checks.ASKS_SHARE.search(q) or _asks_whether_whole(q, ctx)) and bad is not None:
        # "what percent are bad, and what would I pay?" / "do I have to redo all of it? and what's my share?": the
        # share of bad blocks comes first
        return checks.defects(q, muni, ctx)
    if bad is None and checks.more_marked(ctx) is not None and ctx.query.earlier:
        # "and if he comes back and marks 2 more? ... what would I pay": the earlier turn's count, and the turn's more
        found = checks.defects(f"{ctx.query.earlier} {q}", muni, ctx)
        if found is not None:
            return found
    if bad is not None and total is not None:
        # "14 of my 20 squares failed ... $2,100 for just those, $3,000 to redo all 20. What will I pay?": the share
        # decides which cost is assessed, so it is worked out first
        found = checks.defects(q, muni, ctx)
        if found is not None:
            return found
    return owners_share(q, muni, ctx)


# a question whether ("Do I have to redo all of it?", "... replace all of it or just the bad ones?"), not a noun phrase of
# a money question ("what's my share of replacing the whole walk?")
_WHETHER = re.compile(r"^\W*(?:(?:and|so|ok|okay|then|but)\b\W*)*(?:do|does|did|will|would|must|is|are|can|could|should|"
                      r"have|has|am)\b|\bor\s+(?:just|only)\b", re.I)


def _asks_whether_whole(q: str, ctx: RouteContext) -> bool:
    """The turn itself counts the blocks ("13 out of my 20 squares") and asks whether the whole walk goes."""
    from assistant.answering.routes import checks

    if ctx.query is None or not ctx.query.of("count", "turn"):
        return False
    return any(checks.ASKS_WHOLE.search(x) and _WHETHER.search(x)
               for x in re.split(r"(?<=[?])\s*", asking(ctx.current or q)) if x.strip())


# which part of the walk an amount is the cost of: all of it, or the bad blocks alone (general English)
_WHOLE_SCOPE = re.compile(r"\b(?:all|whole|entire|everything|full|complete)\b", re.I)
_PART_SCOPE = re.compile(r"\b(?:just|only|those|bad|defective|failed|flagged|marked|damaged|broken)\b", re.I)


def _scope(x) -> str | None:
    """"$3,000 to redo all 20" -> "whole"; "for just those 14 squares is $2,100" -> "part"; else None. Read in the
    amount's own clause (cut at a comma, "and", a sentence end)."""
    before = re.split(r"[,;.!?]|\band\b", x.before[-50:])[-1]
    after = re.split(r"[,;.!?]|\band\b", x.after[:40])[0]
    near = f"{before} {after}"
    whole, part = bool(_WHOLE_SCOPE.search(near)), bool(_PART_SCOPE.search(near))
    return "whole" if whole and not part else "part" if part and not whole else None


def _cost_by_scope(money: list, whole: bool, share) -> tuple | Missing | None:
    """The cost the share of defective blocks calls for: the whole walk's when the share makes the whole walk go, else
    the bad blocks'; (amount, its reading) when the amounts' own words tell it, Missing when the only amount is the other
    one's, None when the words tell nothing."""
    want = "whole" if whole else "part"
    scoped = [(x, _scope(x)) for x in money]
    hits = [x for x, sc in scoped if sc == want]
    said = f"{share.normalize():f}% of the blocks are defective, so " if share is not None else ""
    why = (f"{said}the entire sidewalk is replaced" if whole else f"{said}only the defective blocks are replaced")
    if len(hits) == 1:
        return hits[0], f"{fmt_money(hits[0].number)} (“{hits[0].span.text}”: {why})"
    if len(money) == 1 and scoped[0][1] not in (None, want):
        return Missing(f"the cost of {'replacing the whole sidewalk' if whole else 'replacing the defective blocks'}: "
                       f"{why}, and “{money[0].span.text}” is the cost of "
                       f"{'the defective blocks alone' if whole else 'the whole walk'}.", slot="cost",
                       candidates=(money[0].span.text,))
    return None


def owners_share(q: str, muni: str | None, ctx: RouteContext, whole: bool | None = None, share=None):
    """The assessment itself (sidewalk_assessment, less the hand-over to the share of defective blocks); ``whole``, when
    the share of defective blocks was worked out, whether it makes the whole walk go."""
    # amounts, not rates ("$35 an hour" is no cost of sidewalk work), in the order written
    # (amounts the words add up are one cost: "$2,500 for the slabs plus $750 for the apron")
    money = [s for s in ([*reading.summed(ctx.query.of_origin("turn"), ctx.query.turn),
                          *reading.summed(ctx.query.of_origin("earlier"), ctx.query.earlier)]
                         if ctx.query is not None else []) if s.kind == "money" and s.unit == "USD"]
    amounts = list(dict.fromkeys(s.number for s in money)) if ctx.query is not None else slots.money_all(q)
    if not amounts and MENTIONS_PERMIT.search(q):
        return None  # "how much does the village charge for the permit to ...?": a fee, not an assessment
    priced_at = [] if amounts or ctx.query is None else \
        [x for x in ctx.query.of("money") if "/" in (x.unit or "") and x.unit != "USD/hour"]
    from_price = None  # (cost, how it was worked) from the user's price of one thing
    if len(priced_at) == 1 and not ctx.query.of("duration"):
        # "$310 per square" and "8 of the 14 squares", "$1,150 per 100 sq ft" and "5 ft x 66 ft": the cost is the
        # price times the user's one quantity of what it prices; asked for when there is none, or several
        from_price = price_times_quantity(priced_at[0], ctx.query)
        if isinstance(from_price, Missing):
            return from_price
        amounts, money = [from_price[0]], []
    elif not amounts and ctx.query is not None and (ctx.query.of("duration") or any(
            "/" in (x.unit or "") for x in ctx.query.of("money"))):
        return None  # hours worked, a rate an hour: a bill for work (snow removal), not a share of a sidewalk's cost
    if not amounts:
        if ASKS_AMOUNT.search(q):  # "how much will I be assessed?" with no cost: ask for it
            return Missing("the cost of the sidewalk work (the assessment is a share of it).", slot="cost")
        return None
    low = q.lower()
    kind = ("new_one_side_none_either" if NEW_WALK.search(low)
            else "defective_replacement" if re.search(r"defect|replac", low) else "reconstruction")
    if whole is not None and kind == "reconstruction":
        kind = "defective_replacement"  # (the share of defective blocks was worked out: a defective walk's replacement)
    cost, sources, derived = amounts[0], {}, {}
    if len(money) == 1 and money[0].worked:
        sources = {"cost": money[0]}  # (a sum of the user's amounts: read from both)
    if from_price is not None:
        sources, derived = {"cost": priced_at[0]}, {"cost": from_price[1]}
    if kind != "new_one_side_none_either":
        shared = [s for s in money if SHARED_COST.search(s.after[:40]) or SHARED_COST.search(s.before[-40:])]
        if shared:
            # "$8,400 for the two of us together": one owner's assessment is a share of his own work's cost
            return Missing(f"your own part of the cost: “{shared[0].span.text}” is for more than one property. "
                           "What is the cost of the work on yours?", slot="cost", candidates=(shared[0].span.text,))
    looked = [s for s in money if _FOR_A_LOOK.match(s.after)]
    if looked and len(looked) < len(money) and len(amounts) == len(money):
        # "A concrete guy charged me $189 just to come look at it": the price of a look or a quote, not of the work
        money = [s for s in money if s not in looked]
        amounts = [s.number for s in money]
        cost = amounts[0]
        if len(money) == 1:
            sources = {"cost": money[0]}
            derived["cost"] = (f"{fmt_money(cost)} (“{money[0].span.text}”; “{looked[0].span.text}” was paid for a "
                               "look or a quote, not for the work)")
    by_scope = _cost_by_scope(money, whole, share) if whole is not None and money else None
    if isinstance(by_scope, Missing):
        return by_scope
    if by_scope is not None:
        (chosen, said), money = by_scope, [by_scope[0]]
        cost, sources, derived["cost"] = chosen.number, {"cost": chosen}, said
        amounts = [cost]
    estimates = [s for s in money if ESTIMATE.search(s.before[-40:]) or ESTIMATE.search(s.after[:15])]
    finals = [s for s in money if s not in estimates and FINAL_COST.search(s.before[-40:])]
    if len(money) > 1 and len(estimates) == 1 and len(finals) == len(money) - 1:
        # the code assesses on "current cost estimates": the estimate, not the final bill (a second quote or
        # bid is another estimate: that is asked about)
        cost, sources = estimates[0].number, {"cost": estimates[0]}
        derived["cost"] = (f"{fmt_money(cost)} (“{estimates[0].span.text}”: the assessment is based on current cost "
                           "estimates)")
    elif len(money) > 1:
        # "the permit was $50 and the replacement will cost $2,400": the cost of the work, by its own words
        by = roles.assign(money, {"cost": WORK_COST, "other": OTHER_MONEY}, ctx.query)
        if len(by.get("cost", [])) != 1:
            return ambiguous(roles.Ambiguous("cost of the sidewalk work", tuple(by.get("cost") or money)))
        theirs = [s for s in by.get("", []) if roles.whose(s)]
        if theirs and roles.whose(by["cost"][0]):
            # "$4,100 for mine and $2,850 for hers": each owner's own cost (one calculation each, or asked)
            return ambiguous(roles.Ambiguous("cost of the sidewalk work", (by["cost"][0], *theirs)))
        cost, sources = by["cost"][0].number, {"cost": by["cost"][0]}
    args = {"municipality": only_municipality(ctx, "sidewalk_assessment", muni), "kind": kind, "cost": str(cost)}
    same_both_sides, each_said = False, None
    if kind == "new_one_side_none_either":
        n = ([int(c.number) for c in ctx.query.of("count") if c.unit in OWNERS] if ctx.query is not None else []) \
            or slots.counts(q)
        each = _EACH_SIDE.search(q)
        if each is None and re.search(r"\bsides?\b", q, re.I):
            # "6 property owners on the block counting both sides, 3 on each": the side left out after "sides"
            each = _ON_EACH.search(q)
        if each is not None and (v := number_value(each)) is not None and v == int(v) and v > 0:
            # "a dozen of us homeowners, six on each side": the number on each side, both sides (a total told beside it
            # that is not twice that number is asked about)
            others = [x for x in n if x != int(v)]
            if others and others != [2 * int(v)]:
                return Missing(f"how many property owners are on each side of the street: “{each.group(0)}” does "
                               "not agree with the number of owners told.")
            n, each_said = [int(v)], each.group(0)
        same_both_sides = bool(len(n) == 1 and (each_said or re.search(r"\bon each side|\bon both sides|\b(?:per|each) side\b",
                                                                       low)))
        if same_both_sides:
            n = [n[0], n[0]]
        counted = {c.span.text for c in (ctx.query.of("count") if ctx.query is not None else [])}
        across = next((m for m in _ACROSS.finditer(q) if not any(m.group(0).startswith(c) for c in counted)), None) \
            if len(n) == 1 else None
        opposite_said = None
        whole = [c for c in (ctx.query.of("count") if ctx.query is not None else [])
                 if c.unit in OWNERS and _BOTH_SIDES_TOTAL.match(c.after[:50])]
        if across is None and len(whole) == 1 and len(n) == 2 and int(whole[0].number) in n:
            # "a dozen houses total on the two sides (seven on our side, five across the street)": the total is no
            # side's count; the other side's count is the one the words put across the street
            across = next((m for m in _ACROSS.finditer(q) if number_value(m) in n), None)
            n = [int(whole[0].number)]
        if across is not None and (v := number_value(across)) is not None and v == int(v):
            # "4 houses on our side and 3 across the street": the other side's count, its unit left out
            n, opposite_said = [n[0], int(v)], across.group(0)
            if len(whole) == 1 and int(whole[0].number) == n[0] and n[0] > n[1]:
                # (the total of both sides, less the other side's: the sidewalk side's count)
                total_said = whole[0].span.text
                n = [n[0] - n[1], n[1]]
                derived["owners_on_sidewalk_side"] = (f"{n[0]} (“{total_said}” on both sides in all, less "
                                                      f"“{opposite_said}”)")
        one_each = _ONE_EACH_SIDE.search(q) if not n else None
        if one_each is not None:
            # "It's just me (80 ft of frontage) and the guy directly across the road": one owner on each side
            n = [1, 1]
        if len(n) >= 2:
            args["owners_on_sidewalk_side"], args["owners_on_opposite_side"] = n[0], n[1]
        else:
            return Missing("how many property owners are on each side of the street.")
    routed = Routed("sidewalk_assessment", args, args["municipality"], phrasing.lead_generic, sources=sources,
                    derived=derived)
    if kind == "new_one_side_none_either" and one_each is not None:
        routed.derived["owners_on_sidewalk_side"] = f"1 (“{one_each.group('me')}”)"
        routed.derived["owners_on_opposite_side"] = f"1 (“{one_each.group('other')}”)"
    if each_said:
        routed.derived["owners_on_sidewalk_side"] = f"{n[0]} (“{each_said}”)"
        routed.derived["owners_on_opposite_side"] = f"{n[1]} (“{each_said}”)"
    elif same_both_sides:
        routed.derived["owners_on_opposite_side"] = f"{n[1]} (the same number: “on each side”)"
    elif kind == "new_one_side_none_either" and opposite_said:
        routed.derived["owners_on_opposite_side"] = f"{n[1]} (“{opposite_said}”)"
    return routed


# (materials by what they are: "a dozen tons of stone at $25 a ton")
REPAIR_PARTS = {"labor_cost": re.compile(r"\b(?:labou?r|man-?hours|crew\s+time|wages)\b", re.I),
                "materials_cost": re.compile(r"\b(?:materials?|stone|gravel|sand|asphalt|blacktop|concrete|cement|topsoil|"
                                             r"sod|seed|pipe|culvert pipe|cold\s+patch|hot\s+mix|patching\s+mix)\b", re.I),
                # (the machines a crew bills as equipment: "$410 for the roller and truck", "the skid steer time")
                "equipment_cost": re.compile(r"\b(?:equipment|roller|skid[\s-]?steer|backhoe|excavator|loader|compactor|"
                                             r"dump\s+truck|truck\s+time|machine\s+time|(?:the\s+)?truck)\b", re.I)}


# "labor, materials and equipment", "labor and materials": the parts listed together, one amount for them
_PART_WORD = r"(?:labou?r|materials?|equipment)"
_JOINT = re.compile(rf"\b{_PART_WORD}(?:\s*(?:,|&|\+|\band\b|\bplus\b)\s*(?:and\s+)?{_PART_WORD}\b)+", re.I)


def _joint_amount(amounts: list, labelled: dict, query):
    """The one amount of the turn when the words right before or after it list every part together ("Labor,
    materials and equipment came to $2,340", "$900 for labor and materials") and no part has an amount of its
    own: (the amount, the parts' words); else None. (A follow-up's amount said in place of the one told before,
    "what if their costs were $4,100 instead?", is read with the words the earlier one was said with.)"""
    own = [x for x in amounts if x.span.origin == "turn"] or \
        [x for x in amounts if x.worked.startswith("in place of")]
    if len(own) != 1:
        return None
    x = own[0]
    turn = query.source(x.span.origin)
    near = [m for m in _JOINT.finditer(turn) if 0 <= x.span.start - m.end() <= 25 or 0 <= m.start() - x.span.end <= 12]
    if len(near) != 1:
        return None
    listed = {part for part, rx in REPAIR_PARTS.items() if rx.search(near[0].group(0))}
    # (a part denied apart, "no equipment", is no amount of its own)
    if any(part not in listed for part in labelled) or any(
            part not in listed and rx.search(re.sub(rf"\b(?:no|without(?: any)?) {rx.pattern}", " ", turn, flags=re.I))
            for part, rx in REPAIR_PARTS.items()):
        return None  # another part named apart: its amount is asked for
    denied = {part for part, rx in REPAIR_PARTS.items() if re.search(rf"\b(?:no|without(?: any)?) {rx.pattern}", turn, re.I)}
    if set(REPAIR_PARTS) - listed - denied:
        return None  # a part neither listed nor denied ("labor and materials came to $900"): not taken as $0
    return x, f"“{near[0].group(0)}” together"


def _partial_joint(amounts: list, query):
    """One amount for some parts listed together and each other part's own amount ("labor and materials at six-fifty
    and equipment at a couple hundred"): (the joint amount, the parts' words, {part: its own amount}); else None."""
    own = [x for x in amounts if x.span.origin == "turn"]
    if len(own) < 2:
        return None
    turn = query.turn
    joint = []
    for x in own:
        near = [m for m in _JOINT.finditer(turn) if 0 <= x.span.start - m.end() <= 25 or 0 <= m.start() - x.span.end <= 12]
        if len(near) == 1:
            joint.append((x, near[0]))
    if len(joint) != 1:
        return None
    x, m = joint[0]
    listed = {part for part, rx in REPAIR_PARTS.items() if rx.search(m.group(0))}
    rest: dict = {}
    for y in own:
        if y is x:
            continue
        words = re.split(r"[,;.]|\band\b", turn[max(0, y.span.start - 30):y.span.start])[-1] + " " + \
            re.split(r"[,;.]|\band\b", turn[y.span.end:y.span.end + 20])[0]
        parts = [part for part, rx in REPAIR_PARTS.items() if rx.search(words) and part not in listed]
        if len(parts) != 1 or parts[0] in rest:
            return None
        rest[parts[0]] = y
    if set(REPAIR_PARTS) != listed | set(rest):
        return None  # a part neither listed nor given its own amount: asked for, as ever
    return x, f"“{m.group(0)}” together", rest


def repair_bill(q: str, muni: str | None, ctx: RouteContext):
    """The bill when the municipality repairs faulty work: labor, materials, equipment, each
    read from the money its own word labels ("$600 labor", "materials came to $250")."""
    if ctx.query is None or not ctx.query.of("money"):
        return None
    amounts = [s for s in reading.priced(ctx.query.of_origin("turn"), ctx.query.turn) if s.kind == "money"
               and s.unit == "USD"] + [s for s in ctx.query.of("money", "earlier") if s.unit == "USD"]
    labelled = roles.labelled_values(amounts, REPAIR_PARTS, ctx.query)
    for x in amounts:  # a priced quantity names its part within itself ("a dozen tons of stone at $25 a ton")
        inside = [part for part, rx in REPAIR_PARTS.items() if x.worked and rx.search(x.span.text)]
        if len(inside) == 1 and all(x is not y for found in labelled.values() for y in found):
            labelled.setdefault(inside[0], []).append(x)
    if not labelled:
        return None
    joint = _joint_amount(amounts, labelled, ctx.query)
    if joint is not None:
        # "Labor, materials and equipment came to $2,340": one amount for the parts its own words list together
        amount, named = joint
        only = only_municipality(ctx, "village_repair_bill", muni)
        args = {"municipality": only, "combined_cost": str(amount.number)}
        return Routed("village_repair_bill", args, only, phrasing.lead_generic, sources={"combined_cost": amount},
                      derived={"combined_cost": f"{fmt_money(amount.number)} (“{amount.span.text}”, for {named})"})
    partial_joint = _partial_joint(amounts, ctx.query)
    if partial_joint is not None:
        # "labor and materials at six-fifty and equipment at a couple hundred": one amount for the parts listed
        # together, and each other part's own
        amount, named, rest = partial_joint
        only = only_municipality(ctx, "village_repair_bill", muni)
        args = {"municipality": only, "combined_cost": str(amount.number),
                **{part: str(y.number) for part, y in rest.items()}}
        return Routed("village_repair_bill", args, only, phrasing.lead_generic,
                      sources={"combined_cost": amount, **rest},
                      derived={"combined_cost": f"{fmt_money(amount.number)} (“{amount.span.text}”, for {named})"})
    for part, found in labelled.items():
        if len(found) > 1:
            return ambiguous(roles.Ambiguous(part.replace("_", " "), tuple(found)))
    # a part the words deny ("no equipment", "without any materials") is $0; any other part needs its amount
    denied = {part: re.search(rf"\bno {rx.pattern}|\bwithout (?:any )?{rx.pattern}", q, re.I)
              for part, rx in REPAIR_PARTS.items()}
    for part, rx in REPAIR_PARTS.items():
        if part not in labelled and rx.search(ctx.current or q) and not denied[part]:
            # "materials seven hundred fifty": the word is there, its amount was not read; never $0
            return Missing(f"the {part.replace('_', ' ')} (the question names it, but no amount in dollars was read "
                           "for it).", slot=part.replace("_", " "))
    used = {id(x) for found in labelled.values() for x in found}
    unplaced = [x for x in amounts if id(x) not in used and x.span.origin == "turn"]
    if unplaced and len(labelled) < len(REPAIR_PARTS):
        # an amount no part's word labels, and a part with none: it is not taken to be $0
        return Missing("which part of the bill (labor, materials or equipment) " + " and ".join(x.label() for x in unplaced)
                       + " is: no word of the question says.", slot="part of the bill",
                       candidates=tuple(x.span.text for x in unplaced))
    unnamed = [part for part in REPAIR_PARTS if part not in labelled and not denied[part]]
    # "their labor was eighteen hundred and materials six-fifty ... what's the bill?": the user's own account of the bill
    # names every part but one, and never that one; it is taken as none, and the answer says so
    left_out = unnamed[0] if len(unnamed) == 1 and len(labelled) == len(REPAIR_PARTS) - 1 \
        and not REPAIR_PARTS[unnamed[0]].search(q) else None
    if unnamed and left_out is None:
        # "Labor came to $1,400. What's the total we bill him?": the bill is all labor, materials and equipment used;
        # a part the question leaves out is asked for, never taken as $0 (said "no materials", it is $0)
        return Missing(" and ".join(f"the {part.replace('_', ' ')}" for part in unnamed)
                       + " (the bill is all labor, materials and equipment used, plus the administration charge; "
                       "say “none” for a part that was not used).", slot=unnamed[0].replace("_", " "))
    only = only_municipality(ctx, "village_repair_bill", muni)
    args = {"municipality": only, **{part: str(found[0].number) if (found := labelled.get(part)) else "0"
                                     for part in REPAIR_PARTS}}
    routed = Routed("village_repair_bill", args, only, phrasing.lead_generic,
                    sources={part: found[0] for part, found in labelled.items()})
    for part in REPAIR_PARTS:
        if part == left_out:
            routed.defaults[part] = (f"$0.00 (no {part.replace('_cost', '').replace('_', ' ')} named; if any was used, "
                                     "the bill is more by its cost plus the administration charge)")
        elif part not in labelled:  # (denied: every other part was asked for above)
            routed.defaults[part] = f"$0.00 (“{denied[part].group(0)}”)"
    return routed


def asphalt_settlement(q: str, muni: str | None, ctx: RouteContext):
    """The deposit against the actual cost: the balance due (and by when) or the refund."""
    # amounts as the reading stage reads them ("two thousand nine hundred dollars" too), rates left out
    amounts = list(dict.fromkeys(s.number for s in ctx.query.of("money") if s.unit == "USD")) \
        if ctx.query is not None else slots.money_all(q)
    if len(amounts) == 1 and ASKS_AMOUNT.search(q) and serves(ctx, "asphalt_service_settlement", muni):
        said = next((s for s in (ctx.query.of("money") if ctx.query is not None else [])), None)
        given = said.span.text if said is not None else fmt_money(amounts[0])
        if said is not None and FINAL_COST.search(said.before[-40:]) and not re.search(r"deposit", said.before[-40:], re.I):
            # "the bill came to $2,300. How much do I still owe?": the deposit it is settled against is missing
            return Missing(f"the deposit you made before the work (to settle “{given}” against).", slot="deposit")
        return Missing(f"the actual cost of the work (to settle against “{given}”).", slot="actual cost")
    if len(amounts) < 2:
        return None
    only = only_municipality(ctx, "asphalt_service_settlement", muni)
    settled = roles.settlement_values(ctx.query) if ctx.query is not None else None
    if settled is not None and settled.ambiguous is not None:
        return ambiguous(settled.ambiguous)
    if settled is not None and settled.deposit is not None and settled.added is not None:
        # "... the final cost was $2,180" / "they added $450 to the final cost": the actual cost is the two together
        actual = settled.actual.number + settled.added.number
        routed = Routed("asphalt_service_settlement",
                        {"municipality": only, "deposit": str(settled.deposit.number), "actual_cost": str(actual)},
                        only, phrasing.lead_generic, sources={"deposit": settled.deposit},
                        derived={"actual_cost": f"{fmt_money(actual)} (“{settled.actual.span.text}” + "
                                                f"“{settled.added.span.text}” added)"})
        amounts = [settled.deposit.number, actual]
    elif settled is not None and settled.deposit is not None:
        routed = Routed("asphalt_service_settlement",
                        {"municipality": only, "deposit": str(settled.deposit.number),
                         "actual_cost": str(settled.actual.number)}, only, phrasing.lead_generic,
                        sources={"deposit": settled.deposit, "actual_cost": settled.actual})
        amounts = [settled.deposit.number, settled.actual.number]
    else:
        routed = Routed("asphalt_service_settlement",
                        {"municipality": only, "deposit": str(amounts[0]), "actual_cost": str(amounts[1])},
                        only, phrasing.lead_generic)
    billed = slots.event_moment(q)
    if billed is not None and amounts[1] > amounts[0]:
        day = billed.date() if hasattr(billed, "date") else billed
        balance = rule_ending(only, "asphalt_balance")
        if balance is not None:
            from assistant.tools.deadlines import rules

            # (the rule's event words cue which date is the bill's: "dated Friday, August 4" over "this summer")
            routed.follow.append(Routed("deadline", {"rule": balance, "event": day.isoformat()},
                                        only, phrasing.lead_deadline, cues={"event": rules()[balance].event}))
    return routed


# the municipality's people did the clearing ("Village guys shoveled my walk", "the city sent two guys to plow")
_THEY_CLEARED = re.compile(r"\b(?:village|town|city|crew|guys|employees|workers|they)\b[^.?!]{0,40}"
                           r"\b(?:shovell?ed|plowed|ploughed|cleared|came (?:out |by |over )?(?:and|to) (?:shovel|plow|clear)|"
                           r"sent [^.?!]{0,30}\bto (?:shovel|plow|clear))", re.I)


# a second visit told after the first ("they came back the next day", "the next storm we had to clear it again")
_ANOTHER_VISIT = re.compile(r"\b(?:came|come|comes|went|were) back\b|\bagain\b|\bnext (?:day|storm|snow|time|morning|week)\b|"
                            r"\bsecond (?:time|visit|trip|storm)\b|\banother (?:visit|trip|time|storm)\b", re.I)


# visits told as several ("twice this winter", "the first time ..., the second time ...", "both times")
_SEVERAL_VISITS = re.compile(r"\b(?:twice|two\s+times|three\s+times|\d+\s+times|(?:first|second|third|last)\s+time|"
                             r"each\s+time|both\s+times|(?:on\s+)?(?:two|three|several)\s+(?:occasions|visits|trips|storms))\b",
                             re.I)


# a visit of several workers ("second time two guys for half an hour each"): the occasions told one by one are then
# no one employee's hours
_CREW_OF_SEVERAL = re.compile(r"\b(?:two|three|four|five|2|3|4|5|several|both)\s+(?:guys|men|workers|employees|people|"
                              r"crew\s+members|of\s+them|laborers)\b", re.I)


def _dated_visits(query) -> set:
    """The different days whose own sentence (or ';'-clause) gives hours worked: one visit each."""
    turn = query.turn
    days = {}
    for piece in re.split(r"(?<=[.!?;])\s+", turn):
        at = turn.find(piece)
        inside = [s for s in query.of_origin("turn") if at <= s.span.start < at + len(piece)]
        dated = {s.value for s in inside if s.kind == "date" and s.precision == "day"}
        if len(dated) == 1 and any(s.kind == "duration" for s in inside):
            days[next(iter(dated))] = piece
    return set(days)


def snow_charge(q: str, muni: str | None, ctx: RouteContext):
    """Employees' hours at their own rates, plus the fee per occasion."""
    if ctx.query is None:
        return None
    if not ctx.query.of("money"):
        if not ctx.query.of("duration") and ASKS_AMOUNT.search(ctx.current or q) and _THEY_CLEARED.search(ctx.current or q) \
                and not re.search(r"\bfine|\bpenalt|\bforfeit|\bcitation|\bticket", ctx.current or q, re.I):
            # "Village guys shoveled my walk twice last week. How much is that going to run me?": their hours and rates
            return Missing("how many hours each employee worked and their hourly rate, including benefits (the Village bills "
                           "those hours at those rates plus the fee per occasion).", slot="hours and hourly rate")
        if ctx.query.of("duration") and ASKS_AMOUNT.search(q):
            # "they cleared my walk for 2 hours, what do they charge me?": the charge is at the workers' own rates
            return Missing("the hourly rate, including benefits, of each employee who did the work (the Village "
                           "bills their hours at those rates plus the fee per occasion).",
                           slot="hourly rate including benefits")
        return None
    if ctx.query.follow_up and ctx.query.of("duration", "turn") and ctx.query.of("duration", "earlier") \
            and _ANOTHER_VISIT.search(ctx.query.turn):
        # "Oh wait, they came back the next day for the drifts too, just one guy for 45 minutes": a second visit's
        # hours beside the first's are never merged into one crew; each visit is asked about on its own
        return Missing("which visit to work out: a second visit's hours are not added to the first's here, so ask "
                       "about each visit on its own, with its employees, their hours and their hourly rates (each "
                       "occasion is charged its own hours and its own fee per occasion).",
                       slot="each visit's hours and rates")
    work = roles.snow_values(ctx.query)
    if len(_dated_visits(ctx.query)) > 1 or (_SEVERAL_VISITS.search(ctx.query.turn)
                                              and (work.occasions <= 1 or _CREW_OF_SEVERAL.search(ctx.query.turn))):
        # ("cleared my walk twice this winter. First time one guy for 45 minutes, second time two guys for half an
        # hour each": two visits, never one crew's hours on one occasion)
        # "January 20: two employees, 1.5 hours each ... February 3: just the first guy, 2 hours": visits on
        # different days, each with its own hours, are never read as one crew on one occasion
        return Missing("which visit to work out: the question tells of more than one visit, and each visit is "
                       "charged its own employees' hours at their rates and its own fee per occasion. Please ask about "
                       "each visit on its own, with its employees, their hours and their hourly rates.",
                       slot="each visit's hours and rates")
    if work.ambiguous is not None:
        return ambiguous(work.ambiguous)
    if work.missing is not None:
        return Missing(work.missing)
    only = only_municipality(ctx, "snow_removal_charge", muni)
    return Routed("snow_removal_charge",
                  {"municipality": only, "employees": work.employees, "occasions": work.occasions},
                  only, phrasing.lead_generic, derived=work.derived, sources=work.sources,
                  defaults={} if work.occasions_slot else {"occasions": "1 (no number of occasions given)"})


# an amount said of a party's own thing named before it ("Mine was $2,000, his was $1,500")
_WHOSE_BEFORE = re.compile(r"\b(?:(?P<mine>mine|ours|my\s+\w+|our\s+\w+)|his|hers|theirs|(?:his|her|their)\s+\w+|"
                           r"\w+['’]s)\s+(?:was|is|were|came\s+to)\s*$", re.I)
_ASKS_MINE = re.compile(r"\b(?:my|mine|me|i|our|ours|us|we)\b", re.I)
GUARANTEE_PARTS = {"guarantee": re.compile(r"\bguarantee|\bletter of credit|\bbond\b|\bdeposit|\bposted\b|\bput\s+up\b|"
                                           r"^cash\b", re.I),
                   "unpaid_bill": re.compile(r"\bbill(?:s|ed)?\b|\binvoice|\bcharged?\b|\bowe[sd]?\b|\bowing\b", re.I)}


# a bill (or invoice) and the amount it is for, a date or a number of its own between ("a bill dated Oct 2 for $640",
# "invoice #4471 for")
_BILL_FOR = re.compile(r"\b(?:bill|invoice)\s+(?:dated|of|from|sent|mailed|numbered|no\.|#)[^.;:$]{0,30}?\bfor\s*$", re.I)


def guarantee_left(q: str, muni: str | None, ctx: RouteContext):
    """An unpaid bill charged to the owner's financial guarantee: the balance released, each amount read by the
    word that labels it ("a $1,500 guarantee", "billed me $640")."""
    if ctx.query is None or not serves(ctx, "guarantee_balance", muni):
        return None
    money = [s for s in ctx.query.of("money") if s.unit == "USD"]
    if not money and muni is not None and _BILLED.search(ctx.current or q) and re.search(
            r"\bhow much\b|\bwhat(?:'s| is| will)\b[^?.]{0,30}\b(?:back|left|refund)", ctx.current or q, re.I):
        # "The Town redid the seeding ... and sent me a bill. How much of my deposit am I going to get back?": what is
        # left depends on amounts not given, and on whether the bill was paid within the 30 days
        return Missing("the amount of your deposit (financial guarantee) and of the bill, and whether the bill was "
                       "paid (what comes back depends on all three).", slot="guarantee and bill")
    if not UNPAID.search(q):
        return None
    labelled: dict[str, list] = {}
    named_elsewhere: list = []
    for s in money:
        # the noun the amount is of ("a $2,500 curb-and-gutter guarantee"), else the last label before it ("billed me $640")
        said = ctx.query.source(s.span.origin)
        clause = re.split(r"[.;,?!$()]|\s[-—]\s|\sand\s", said[s.span.end:s.span.end + 60])[0].split()
        # ("fifteen hundred dollars cash as the ditch landscaping guarantee": what it was put up as)
        as_what = re.match(r"(?:\w+\s+)?as\s+(?:an?|the|my|our)\s", " ".join(clause[:3]) + " ")
        after = clause[:7] if as_what else clause[:3]
        hit = next((p for p, rx in GUARANTEE_PARTS.items() if rx.search(" ".join(after))), None)
        if hit is None:
            before = roles.own_words_before(s, ctx.query)
            found = [(m.end(), p) for p, rx in GUARANTEE_PARTS.items() for m in rx.finditer(before)]
            hit = max(found)[1] if found else None
        if hit is None and _BILL_FOR.search(said[max(0, s.span.start - 50):s.span.start]):
            hit = "unpaid_bill"  # "a bill dated Oct 2 for $640": the bill, its date told between
        if hit is None and UNPAID.search(re.split(r"[.;?!]", said[s.span.end:s.span.end + 40])[0]):
            hit = "unpaid_bill"  # "we redid the ditch landscaping for $310, also unpaid after 30 days"
        whose = _WHOSE_BEFORE.search(said[max(0, s.span.start - 25):s.span.start])
        if hit is None and whose is not None:
            # "we each put up a cash deposit ... Mine was $2,000, his was $1,500": the thing named before, each party's
            found = [(m.end(), p) for p, rx in GUARANTEE_PARTS.items()
                     for m in rx.finditer(said[max(0, s.span.start - 200):s.span.start])]
            if found and whose.group("mine"):
                hit = max(found)[1]
            elif found and _ASKS_MINE.search(asking(ctx.current or q)):
                named_elsewhere.append(s)  # another's ("his was $1,500"), when the asker asks of their own
                continue
            # (another's, the ask naming no one's: left to the reading of two parties below, which asks)
        if hit is not None:
            labelled.setdefault(hit, []).append(s)
    named = {x.number for found in labelled.values() for x in found}  # every amount a label names (before any is set aside)
    named |= {x.number for x in named_elsewhere}
    bills = labelled.get("unpaid_bill", [])
    if len({s.number for s in bills}) > 1:
        # "charged me $1,150 for the install ... sent me a $725 bill, which I never paid": the bill whose own
        # sentence says it went unpaid
        unpaid = [s for s in bills if UNPAID.search(re.split(r"(?<=[.;?!])\s", ctx.query.source(s.span.origin)[
            s.span.end:s.span.end + 80])[0])]
        if len({s.number for s in unpaid}) == 1:
            labelled["unpaid_bill"] = unpaid[:1]
    for s in [x for x in money if x.number not in named]:
        # "billed $620 for lot 4 and $275 for lot 9": an amount joined by "and" to a labelled one just before it is
        # another of the same (two bills), never left out
        prior = [(x, part) for part, found in labelled.items() for x in found
                 if x.span.origin == s.span.origin and x.span.end <= s.span.start]
        if prior:
            x, part = max(prior, key=lambda y: y[0].span.end)
            gap = ctx.query.source(s.span.origin)[x.span.end:s.span.start]
            if len(gap) <= 40 and re.search(r"\band\b", gap) and not re.search(r"[.;?!]", gap):
                labelled[part].append(s)
    for part, found in labelled.items():
        if len({s.number for s in found}) > 1:
            return ambiguous(roles.Ambiguous(part.replace("_", " "), tuple(found)))
    loose = [s for s in money if s.number not in named]
    if loose and len(labelled) == len(GUARANTEE_PARTS) and any(
            x.span.origin == "turn" and of_another(ctx.query.turn, (x.span.start, x.span.end)) for x in loose):
        # "I had a $1,500 guarantee and they billed me $640 ... My brother's was $2,000 and $310": amounts no label
        # names, in a sentence about someone else, may be another party's guarantee: asked, never left out unsaid
        return ambiguous(roles.Ambiguous("guarantee", (*labelled["guarantee"], *loose)))
    missing = [p for p in GUARANTEE_PARTS if p not in labelled]
    if missing:
        what = {"guarantee": "the amount of your financial guarantee (deposit, letter of credit or bond)",
                "unpaid_bill": "the amount of the unpaid bill"}[missing[0]]
        return Missing(f"{what}.", slot=missing[0].replace("_", " "))
    only = only_municipality(ctx, "guarantee_balance", muni)
    routed = Routed("guarantee_balance", {"municipality": only, "guarantee": str(labelled["guarantee"][0].number),
                                          "unpaid_bill": str(labelled["unpaid_bill"][0].number)},
                    only, phrasing.lead_generic, sources={p: labelled[p][0] for p in GUARANTEE_PARTS})
    # "... billed me $740 on the Thursday before Halloween. When do they take it from the deposit and how much comes
    # back?": the day the unpaid bill is charged to the guarantee, counted from the bill's date, is asked too
    days = {d.value: d for d in ctx.query.of("date", "turn") if d.precision == "day"}
    # ("... sent us an $850 bill dated Wednesday May 3. If we just don't pay it, what happens ...?": the day it is
    # charged to the guarantee is part of what happens, counted from the dated bill)
    asks_when = _ASKS_WHEN.search(asking(ctx.current or q)) is not None or (
        _WHAT_HAPPENS.search(asking(ctx.current or q)) is not None
        and re.search(r"\b(?:bill|billed|invoice)\b", slots.dated_clause(ctx.current or q), re.I) is not None)
    if asks_when and len(days) == 1:
        rule = _bill_to_guarantee_rule(only, ctx.current or q)
        if rule is not None:
            day = next(iter(days.values()))
            routed.follow.append(Routed("deadline", {"rule": rule, "event": day.day.isoformat()}, only,
                                        phrasing.lead_deadline, sources={"event": day}))
    return routed


_ASKS_WHEN = re.compile(r"\bwhen\b|\bwhat (?:date|day)\b|\bhow long\b|\bhow soon\b", re.I)
_WHAT_HAPPENS = re.compile(r"\bwhat (?:happens|then|now|next)\b|\bwhat (?:will|would|do|does) (?:they|the town|the village|"
                           r"the city) do\b", re.I)


def _bill_to_guarantee_rule(muni: str | None, words: str) -> str | None:
    """The catalogue's rule by which an unpaid bill is charged to the guarantee (its event the bill's date), the one
    the question's words name when there are several ("my roadside ditch"); None when none or no word tells."""
    from assistant.retrieval.lexical import stems
    from assistant.tools.deadlines import rules

    found = [r for r in rules().values() if r.municipality == muni and "guarantee" in r.obligation.lower()
             and "bill" in r.event.lower()]
    if len(found) <= 1:
        return found[0].id if found else None
    said = stems(expand(words, muni)) - stems("bill billed guarantee financial paid pay town village city date day within")
    scored = sorted(((len(said & stems(f"{r.title} {r.obligation}")), r.id) for r in found), reverse=True)
    return scored[0][1] if scored[0][0] > scored[1][0] else None


# the municipality billed the owner for work it did
_BILLED = re.compile(r"\b(?:sent|mailed|gave|handed)\s+(?:me|us|them)\s+(?:a|an|the|their)\s+(?:bill|invoice)\b|"
                     r"\bbilled\s+(?:me|us)\b|\bgot\s+(?:a|an|the|their)\s+(?:bill|invoice)\b", re.I)
# the bill went unpaid: what the guarantee then pays
UNPAID = re.compile(r"\b(?:didn['’]?t|did not|never|haven['’]?t|have not|wasn['’]?t|was not|not|went|"
                    r"don['’]?t|do not|doesn['’]?t|does not|won['’]?t|will not)\s+(?:\w+\s+)?"
                    r"(?:pa(?:y|id)|unpaid)\b|\bnever\s+(?:got|get|gotten)\s+(?:a)?round\s+to\s+pay(?:ing)?\b|\bunpaid\b|\bpast due\b|\boverdue\b|"
                    # "If neither owner pays, ...", "if nobody pays the bill"
                    r"\b(?:neither|nobody|no one|none of (?:us|them))\b[^.?!]{0,25}\bpa(?:ys?|id)\b|"
                    r"\blet\s+(?:\w+\s+){0,2}(?:go|slide|sit|ride)\s+(?:(?:way|well|long|far)\s+)?(?:past|over|beyond)\b|\bout of (?:my|our|the) (?:guarantee|deposit|bond)|"
                    r"\b(?:taking|take|took|taken|charg\w*|deduct\w*)\b[^.?!]{0,30}\b(?:guarantee|deposit|bond)\b|"
                    # "If we ignore it, what happens?"
                    r"\bignor(?:e|ed|es|ing)\s+(?:it|the bill|that bill|the invoice|them)\b|"
                    # "a bill for $385 that I honestly forgot about, it's been over a month"
                    r"\bforg(?:ot|otten|etting)\s+(?:all\s+)?(?:about|to\s+pay)\b|"
                    r"\b(?:it['’]?s|it has|it had) been (?:over|more than|past|longer than) (?:a month|30 days|thirty days)\b", re.I)


# the deposit asked as an amount ("how much do I put down", "what do we have to deposit")
_ASKS_DEPOSIT = re.compile(r"\bhow much\b[^?.]{0,40}\b(?:deposit|put (?:down|up)|pay (?:up ?front|in advance)|hand over)\b|"
                           r"\bwhat (?:amount )?(?:do|does|will|would|must) (?:i|we|they|he|she) (?:\w+ ){0,2}?"
                           r"(?:deposit|put (?:down|up))\b|\b(?:deposit|put down|put up)\b[^?.]{0,20}\bhow much\b|"
                           r"\b(?:amount|size) of (?:the|my|our) deposit\b", re.I)
# the installation's estimated cost, by the words beside an amount ("estimated cost is $1,180", "estimates $650 to
# install it")
_INSTALL_COST = re.compile(r"\bestimat|\binstall|\bquote", re.I)
# an amount the user paid for the pipe itself ("bought the pipe and end sections myself for $420"): no part of it
_BOUGHT = re.compile(r"\b(?:bought|purchased|paid for|picked up)\b[^.?!$]{0,60}$", re.I)
# money asked back ("how much of my deposit do I get back", "what's left of it", "is refunded"): a balance, no deposit
_COMES_BACK = re.compile(r"\b(?:get|gets|getting|got|come|comes|coming|give|gives|paid|pay|hand|handed)\b[^.?!]{0,25}\bback\b|"
                         r"\brefund\w*|\breturn(?:ed|s)?\b|\bleft over\b|\bwhat(?:['’]s| is) left\b|\breleas\w*|\bbalance\b|"
                         r"\bremain(?:s|ing|der)\b", re.I)
_HELD_OR_BILLED = re.compile(r"\b(?:deposit\w*|guarantee\w*|bond|letter of credit|bill\w*|invoice\w*|paid|charged)\b", re.I)
_EXISTING_DRIVE = re.compile(r"\bexisting\b|\b(?:letter|notice|notif\w*)\b|\b(?:my|our|the) (?:current|old) driveway\b", re.I)


def culvert_deposit(q: str, muni: str | None, ctx: RouteContext):
    """The deposit for a culvert the Town installs: the estimated installation cost, read by its own words (a pipe the
    owner bought is no part of it); a new driveway's (with the application) or an existing one's after the Town's
    notice (within the days the code gives)."""
    if ctx.query is None or not serves(ctx, "culvert_installation_deposit", muni):
        return None
    asks = asking(ctx.current or q)
    if not _ASKS_DEPOSIT.search(asks) or _COMES_BACK.search(asks):
        return None  # "when is the deposit due?": a day, the deadline's; "how much of my deposit comes back?": a balance
    money = [s for s in ctx.query.of("money") if s.unit == "USD"]
    named = [s for s in money if _INSTALL_COST.search(s.before[-40:] + " " + s.after[:25])
             and not _BOUGHT.search(s.before[-70:])]
    if not money:
        return None  # "How much is the culvert deposit?": the rule, quoted (it equals the estimated cost)
    if len({s.number for s in named}) == 1:
        cost = named[0]
    elif not named and len({s.number for s in money}) == 1 and not _BOUGHT.search(money[0].before[-70:]) \
            and not _HELD_OR_BILLED.search(money[0].before[-30:] + " " + money[0].after[:30]):
        cost = money[0]  # (never an amount told as a deposit, guarantee or bill itself: "a $1,500 cash deposit")
    else:
        return ambiguous(roles.Ambiguous("estimated cost of installing the culvert", tuple(named or money)))
    situation = "existing_driveway_notice" if _EXISTING_DRIVE.search(q) else "new_driveway"
    only = only_municipality(ctx, "culvert_installation_deposit", muni)
    args = {"municipality": only, "estimated_installation_cost": str(cost.number), "situation": situation}
    return Routed("culvert_installation_deposit", args, only, phrasing.lead_generic,
                  sources={"estimated_installation_cost": cost})
