"""Arithmetic a quoted sentence asks for, with the user's one number: any code, no table.

"A fine of one hundred fifty ($150.00) dollars ... for each offense" and "cited on three
separate days", "$25.00 per newsrack" and "7 newsracks", "a penalty of 10% of such cost" and
"spent $850": the rate is read from the sentence the answer quotes, the count or the amount
from the user's words, and the product (or the share, or the cost with its penalty) is worked
out exactly. "Each day ... shall constitute a separate offense" makes a fine per offense a fine
per day. Nothing is worked out when the question gives no count or amount, or several that
could be it, or the sentence holds no rate, or two; the quote then answers alone.

Pure functions; the planner calls ``work_out`` with the sentences it is about to quote. It also tries the
arithmetic of their own modules: a fee in tiers (tiers.py), fines that rise with each offense (fines.py) and
the rise a slope gives over a length (slopes.py), all giving a ``Worked`` (worked.py).

(Those three were taken out in session 11 when samples7, unseen then, scored the same without them; they came
back in session 13 when held-out 10 and samples8, written without them, had four questions they answer. Tiers went
out again in session 14 (samples9: one turn gained, one lost, a total asked "together" worked as the fee alone) and
came back in session 16: samples10, never scored with them, gained a turn, and samples3/4/6/8/9 six; a total asked
"together" or "between the fee and the deposit" is left to the quotes.)
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from assistant.answering.factors import converted
from assistant.answering.fines import ANOTHER_FINE, NTH_OFFENSE, about_the_same, fine_by_offense
from assistant.answering.formatting import fmt_money
from assistant.answering.materials import material_for_area
from assistant.answering.reading import NUMBER, Slot, number_outside, number_value, read_slots
from assistant.answering.slopes import grade as slope_grade, remainder as kept_clear, rise as slope_rise
from assistant.answering.tiers import asks_more_than, tier_fee, with_other_charge
from assistant.answering.worked import Worked, counts_in, pronoun_counts, stem_of
from assistant.retrieval.chunking import sentences
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems

# a question about an amount of money ("how much", "what will the bill be", "the total of the fines")
# (a measure asked is no amount: "how much does it need to drop toward the curb?")
_MEASURE_ASKED = (r"(?![^.?!$]{0,30}\b(?:drop|slope|slant|pitch|fall|rise|climb|sink|settle|deep|deeper|thick|thicker|wide|"
                  r"wider|high|higher|tall|taller|room|space|clearance|overlap)s?\b)")
ASKS_AMOUNT = re.compile(
    r"\bhow much\b" + _MEASURE_ASKED + r"|\btotal\b|\bowe[sd]?\b|\bowing\b|\b(?:get|getting)\s+(?:\w+\s+){0,2}back\b|\brefund|\bliable\b|\bbill(?:ed)?\b|\bcharged?\b|\b(?:fines?|fined)\b[^.?!]{0,30}\?|"
    r"\bwhat(?: (?:will|would|do|does|did|am|is|are|should)\b|['’]s)[^.?!]{0,50}\b(?:pay|cost|fine|fee|fees|charge|bill)\b|"
    r"\b(?:do|would|will|must|should)\s+(?:i|we|they|he|she|you)\s+(?:\w+\s+)?(?:pay|owe)\b|"
    r"\badd up\b|\bcome to\b|\bwhat\s+(?:fine|fee|charge|penalty|amount)\b|"
    # "What can they come after me for, all in?": the sum they can claim
    r"\ball[- ]in\s*\?|\ball told\b|\bcome after (?:me|us|him|her|them) for\b", re.I)
# "$25.00 per newsrack", "$150.00 ... for each offense", "$10 a day": the money slot's unit, written after it
# ("a"/"an" only right after the amount: "$10 a day", never "$75.00 if the excavation is in a paved area")
# ("for each such violation": a violation; "for each small wireless facility ,": the thing, its words before it)
_PER = re.compile(r"^(?:[^.;$]{0,45}?\b(?:per|for\s+each|each|every)(?:\s+such|\s+said)?|\s*(?:a|an))\s+"
                  r"(?P<u>(?:linear\s+|square\s+|cubic\s+)?(?:[a-z]+\s+){0,2}?[a-z]+)"
                  r"(?=\s*(?:[,.;:)]|$)|\s+(?:of|in|on|per|to|for|which|that|and|or|by|with|shall|is|are|was|thereof|plus|"
                  r"up|until|each|every|a|an|the)\b|\s+[a-z]+ed\b)", re.I)  # ("per newsrack authorized")
_SEPARATE = re.compile(r"\beach\s+(?:and\s+every\s+)?(?:calendar\s+)?(?P<u>day|week|hour)\b[^.]{0,80}\b(?:separate|distinct)\s+"
                       r"(?:offen[cs]e|violation)", re.I)
_PERCENT_OF = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+(?:the\s+|such\s+|said\s+|that\s+)?"
                         r"(?P<of>(?:[a-z]+\s+){0,2}(?:costs?|amount|assessment|bill|estimate|price|fees?|charges?|"
                         r"expenses?|total|sum)\b)", re.I)
# a share that is divided again among owners is not one owner's share
_DIVIDED = re.compile(r"\bequally\b|\bdivided\b|\bdistributed\b|\bprorat|\bapportion", re.I)
_MAXIMUM = re.compile(r"\b(?:not (?:more|to exceed|exceeding)|not more than|up to|maximum|no more than)\s*[^.$]{0,40}$",
                      re.I)
# units people count with that mean the same thing as a code's unit
_SAME_UNIT = {"offens": {"day", "time", "ticket", "citat", "violat", "offens"}, "violat": {"day", "time", "ticket",
              "citat", "violat", "offens"}, "newsrack": {"box", "newsbox", "rack"},
              # ("$5,000.00 for each small wireless facility" of "half a dozen small cells")
              "facil": {"cell", "node"}}
_TIERED = re.compile(r"\beach\s+additional\b|\bthereafter\b|\bfor\s+each\s+of\s+the\s+first\b", re.I)
_COMPOUND = re.compile(r"\s*(?:per|for\s+each|each|a|every)\s+[a-z]+", re.I)
# insurance limits ("$1,000,000 per person", "$20,000 each accident") are ceilings, never summed
_NOT_UNITS = {"person", "the", "such", "said", "any", "which", "that", "thereof", "of", "additional", "accident",
              "occurrence", "claim", "incident", "aggregate"}


def _same(unit: str, word: str) -> bool:
    a, b = stem_of(unit.split()[-1]), stem_of(word)
    return a == b or b in _SAME_UNIT.get(a, set())


# the words that make an amount a fine ("shall be fined not more than $500.00", "a penalty of $50")
FINED = re.compile(r"\bfined?\b|\bpenalt", re.I)


def _per_unit_rates(sentence: str, passage_text: str) -> list[tuple[Decimal, str, str, bool]]:
    """(rate, unit, the words, whether a ceiling) for each money amount the sentence states per unit."""
    out = []
    if _TIERED.search(sentence):
        return []  # "$20.00 for each of the first three carts and $40.00 for each additional cart": tiers
    separate = _SEPARATE.search(passage_text)
    for s in read_slots(sentence):
        if s.kind != "money" or s.unit != "USD":
            continue
        after = sentence[s.span.end:]
        before = sentence[:s.span.start]
        ceiling = bool(_MAXIMUM.search(before[-60:]))
        m = _PER.search(after)
        if m and _COMPOUND.match(after[m.end():]):
            continue  # "$5.00 per cart per day" needs two counts
        if m and m.group("u").lower().split()[-1] not in _NOT_UNITS and m.group("u").lower().split()[0] not in _NOT_UNITS:
            out.append((s.number, m.group("u").lower(), sentence[s.span.start:s.span.end + m.end()].strip(), ceiling))
        elif separate and FINED.search(before[-80:]):
            # "shall be fined not more than $500 ... Each day ... shall constitute a separate offense"
            out.append((s.number, separate.group("u").lower(), s.span.text, ceiling))
    return out


# a quantity said with no number: "a bunch of our store's shopping carts", "several newsracks", "a few loads"
_VAGUE_THING = re.compile(r"\b(?:a\s+(?:whole\s+)?bunch\s+of|bunch\s+of|several|a\s+few|a\s+handful\s+of|a\s+lot\s+of|lots\s+of|"
                          r"a\s+number\s+of|multiple|a\s+couple(?:\s+of)?|a\s+pile\s+of|some\s+of)\s+"
                          r"(?:(?:of|our|my|their|his|her|the|its|those|these|them|[a-z]+['’]s)\s+)*(?:[a-z-]+\s+){0,2}?"
                          r"(?P<w>[a-z]{3,}s)\b", re.I)


def vague_thing(turn: str, sentences: list[str]) -> tuple[str, str] | None:
    """The user's words for a number of things the quoted sentence charges by each ("a bunch of our store's shopping
    carts" against "$20.00 for each of the first three (3) carts ... $5.00 per cart per day"), when the question asks an
    amount and gives no number of them: (the words, the thing). None otherwise."""
    if not ASKS_AMOUNT.search(turn):
        return None
    for m in _VAGUE_THING.finditer(turn):
        thing = stem_of(m.group("w"))
        for sentence in sentences:
            if re.search(rf"\b(?:per|each|every)\s+(?:[\w()]+\s+){{0,5}}?{re.escape(thing)}\w*", sentence, re.I) \
                    and re.search(r"\$\s?\d", sentence):
                if re.search(rf"\b\d+\s+(?:[a-z'’-]+\s+){{0,3}}?{re.escape(thing)}\w*", turn, re.I):
                    return None  # ("a bunch of carts ... 7 carts in all": the number is given)
                return m.group(0), m.group("w")
    return None


def _distinct(rates: list) -> list:
    """One rate per amount and unit ("five hundred dollars ($500.00)" is one amount written twice)."""
    seen, out = set(), []
    for r in rates:
        if (r[0], r[1]) not in seen:
            seen.add((r[0], r[1]))
            out.append(r)
    return out


def money_asked(slots: list[Slot]) -> list[Slot]:
    return [s for s in slots if s.kind == "money" and s.unit == "USD"]


# a sum held as security and settled against a cost: "charged to the financial guarantee ... and the balance
# thereof shall be released", "any amount ... over and above the deposit", "the difference shall be refunded"
_SECURITY = re.compile(r"\b(?:deposit|guarantee|bond|escrow|security)\b", re.I)
_SETTLES = re.compile(r"\b(?:balance|difference|remainder|excess|over and above|in excess of|refund(?:ed)?|"
                      r"return(?:ed)?|released?|exceeds?)\b", re.I)
_CHARGED = re.compile(r"\b(?:bill|cost|amount|charge|expense)", re.I)  # and what is settled against it
# the user's own words for the sum held ("I put down $3,800", "we posted a $1,500 guarantee") and for the cost
_HELD = re.compile(r"deposit|guarantee|bond|escrow|put down|put up|posted|left with|paid (?:up ?front|in advance)|up ?front|"
                   r"advance", re.I)
_COST = re.compile(r"\bbill|\bcost|came to|come to|end(?:s|ed|ing)? up|charged?|invoice|actual|final|spen[dt]\w*|ran\b", re.I)
# "the Village built the sidewalk itself for $4,750": the work done, for its price ("When we built we put up a $2,000
# guarantee for the curb" is no price: its "for" is not the amount's)
_DONE_FOR = re.compile(r"\b(?:built|did|done|constructed|installed|repaired|fixed|replaced|poured|paved)\b[^.;$]{0,40}"
                       r"\bfor\s*$", re.I)


def _a_cost(slot: Slot, words: str) -> bool:
    return bool(_COST.search(words) or _DONE_FOR.search(slot.before))
_ASKS_BACK = re.compile(r"\bget\b[^.?!]{0,25}\bback\b|\brefund|\bleft over\b|\bbalance\b|\bhow much more\b", re.I)


def _own_words(slot: Slot) -> str:
    """The words of the value's own clause, on both sides."""
    before = re.split(r"[.;!?]|,\s+(?:and|but)\b|\band\b", slot.before)[-1]
    after = re.split(r"[.;!?,]|\band\b", slot.after)[0]
    return before + " " + after


def _settled(amounts: list[Slot], sentence: str) -> list[Worked]:
    """A sum held and a cost, both the user's, settled the way the quoted sentence settles them."""
    if not (_SECURITY.search(sentence) and _SETTLES.search(sentence) and _CHARGED.search(sentence)) \
            or len({a.number for a in amounts}) != 2:
        return []
    held = [a for a in amounts if _HELD.search(_own_words(a)) and not _a_cost(a, _own_words(a))]
    cost = [a for a in amounts if _a_cost(a, _own_words(a)) and not _HELD.search(_own_words(a))]
    if len(held) != 1 or len(cost) != 1:
        return []  # which is the sum held and which the cost is not read from the words
    h, c = held[0], cost[0]
    diff = abs(h.number - c.number).quantize(Decimal("0.01"), ROUND_HALF_UP)
    held_words, cost_words = f"{fmt_money(h.number)} held (“{h.span.text}”)", f"{fmt_money(c.number)} cost (“{c.span.text}”)"
    steps = [f"{held_words} − {cost_words} = {fmt_money(diff)} left of the sum held" if h.number >= c.number else
             f"{cost_words} − {held_words} = {fmt_money(diff)} owed over the sum held"]
    return [Worked("difference", sentence, f"{h.span.text}; {c.span.text}", diff, steps, False, sentence)]


def _held_by_condition(turn: str, amounts: list[Slot], picked: list[tuple[str, str]], earlier: str = "") -> list[Worked]:
    """The code's sum held, chosen by the user's own case, settled against the user's one cost: "The deposit shall
    be in the sum of $25.00 if no pavement is involved or $75.00 if ... paved" with "From this deposit shall be
    deducted the expense to the city", and "a gravel shoulder with no pavement ... which cost them $18.40"."""
    from assistant.answering.alternatives import amount_by_condition

    if len({a.number for a in amounts}) != 1 or not _ASKS_BACK.search(turn) and not ASKS_AMOUNT.search(turn):
        return []
    cost = amounts[0]
    if _HELD.search(_own_words(cost)) or not _a_cost(cost, _own_words(cost) + " " + cost.after[:40]):
        return []  # the user's amount is no cost the sum held is settled against
    around = [s for s, _ in picked] + [x for _, text in picked for x in sentences(text)]
    settles = next((x for x in around if _SECURITY.search(x) and _CHARGED.search(x)
                    and re.search(r"\bdeduct|\bbalance\b|\bremainder\b|\breturned\b|\brefund", x, re.I)), None)
    if settles is None:
        return []
    chosen = [(x, c) for x in dict.fromkeys(around) if _SECURITY.search(x) and (c := amount_by_condition(turn, x))]
    if not chosen and earlier:
        # ("Need to open up a paved street ..." / "Say the city ends up spending $48 relaying the pavement. How much do I
        # get back?"): the case the conversation's earlier turn told
        chosen = [(x, c) for x in dict.fromkeys(around)
                  if _SECURITY.search(x) and (c := amount_by_condition(f"{earlier} {turn}", x))]
    if len({c.amount.number for _, c in chosen}) != 1:
        return []
    sentence, c = chosen[0]
    h = c.amount.number
    if cost.number > h:
        return []
    diff = (h - cost.number).quantize(Decimal("0.01"), ROUND_HALF_UP)
    steps = [f"{fmt_money(h)} held (“{c.amount.span.text} if {c.condition}”: “{c.said}”) − {fmt_money(cost.number)} "
             f"cost (“{cost.span.text}”) = {fmt_money(diff)} left of the sum held"]
    return [Worked("difference", sentence, f"{c.said}; {cost.span.text}", diff, steps, False, sentence,
                   others=(settles,) if settles != sentence else ())]


# "one and one-half percent per month", "12% per annum": a percentage charged for each period, of the amount owed
_PER_PERIOD = re.compile(r"\s*(?:per|a|an|each|every)\s+(?P<u>month|year|annum|week|day)\b", re.I)


def _percents(sentence: str) -> list[tuple[Decimal, str, int, str | None]]:
    """(percent, the words, where they start, the period or None) for "10% of such cost" and for a
    percentage charged per period ("one and one-half percent per month")."""
    out = [(Decimal(m.group("p")), m.group(0), m.start(), None) for m in _PERCENT_OF.finditer(sentence)]
    for s in read_slots(sentence):
        m = _PER_PERIOD.match(sentence, s.span.end) if s.kind == "percent" else None
        if m and not any(at <= s.span.start < at + len(w) for _, w, at, _ in out):
            unit = "year" if m.group("u").lower() == "annum" else m.group("u").lower()
            out.append((s.number, sentence[s.span.start:m.end()], s.span.start, unit))
    return out


# the words of an amount and of who pays it name no situation ("the cost", "the estimate", "the Village")
_SITUATION_GENERIC = stems("cost costs paid pay pays charge charged charges fee fees village town city county owner owners "
                           "property estimate estimates amount assess assessed assessment bill billed price total share")


def _situation_named(turn: str, sentence: str, passage_text: str) -> bool:
    """Of a provision's sentences that state a percentage (reconstruction 50%, a new walk 100% shared), is
    ``sentence`` the one whose own words (those the others do not have) the question shares, and it alone?"""
    stated = [x for x in sentences(passage_text) if _percents(x)]
    if sentence not in stated or len(stated) < 2:
        return False
    words = {x: stems(expand(x)) for x in stated}
    asked = stems(expand(turn)) - _SITUATION_GENERIC
    score = {x: len(asked & (w - set().union(*(words[y] for y in stated if y != x)))) for x, w in words.items()}
    best = max(score.values())
    return best > 0 and score[sentence] == best and sum(v == best for v in score.values()) == 1


_WHOLE_WEEK = re.compile(r"\b(?:a|one)\s+(?:full|whole|entire|straight)\s+week\b", re.I)
_WHOLE_DAYS = re.compile(rf"(?P<n>{NUMBER.pattern})\s+(?:full|whole|entire|straight|consecutive)\s+days\b", re.I)


def _day_counts(turn: str, slots: list[Slot]) -> list[tuple[Decimal, str, str]]:
    """Days the user gives as a stretch of time ("for two weeks", "a full week", "3 whole days"), as a count of
    days (a fine for each day a violation continues is counted by them)."""
    out = []
    for s in slots:
        if s.kind == "duration" and s.span.origin == "turn" and s.unit in ("days", "weeks") and s.number == int(s.number):
            out.append((s.number * (7 if s.unit == "weeks" else 1), "days", s.span.text))
    for m in _WHOLE_WEEK.finditer(turn):
        out.append((Decimal(7), "days", m.group(0)))
    for m in _WHOLE_DAYS.finditer(turn):
        n = number_value(m)
        if n is not None and n == int(n) and n > 0:
            out.append((n, "days", m.group(0)))
    return out


_LATE_RISE = re.compile(r"\bshall\s+(?:be\s+)?increase[sd]?\b(?:[^.]|\.\d){0,120}\b(?:unpaid|not\s+paid|late)\b|"
                        r"\b(?:unpaid|not\s+paid)\b(?:[^.]|\.\d){0,80}\bshall\s+(?:be\s+)?increase[sd]?\b", re.I)
_NOT_PAID = re.compile(r"\b(?:never|not|didn['’]?t|haven['’]?t|hasn['’]?t)\s+(?:\w+\s+)?paid\b|\bunpaid\b|\blate\b|"
                       r"\b(?:neither|none)\b[^.?!]{0,25}\bpaid\b|\byet\s+to\s+(?:be\s+)?pa(?:y|id)\b|"
                       r"\bas of (?:today|now)\b|\bpast due\b|\boverdue\b|\bnever paid\b", re.I)


MEASURE_WORDS = _MEASURE_WORDS = stems("square feet foot yard yards inch inches gallon gallons pound pounds minimum least amount much "
                       "many how what the a an of for each per every surface wide long sidewalk walk")


def work_out(turn: str, slots: list[Slot], picked: list[tuple[str, str]], earlier: str = "") -> list[Worked]:
    """The arithmetic of the first quoted sentence (best first; each with the text of its whole section)
    that states a rate the question's one count or one amount fits, or settles a sum held (a deposit, a
    guarantee) against a cost the user gives both of, or a rise a slope gives over the user's length; []
    when none fits exactly one way."""
    rise = slope_rise(turn, slots, picked)
    if rise is not None:
        return [rise]
    steepness = slope_grade(turn, slots, picked)
    if steepness is not None:
        return [steepness]
    rest = kept_clear(turn, slots, picked)
    if rest is not None:
        return [rest]
    from assistant.answering.slopes import clear_width_left

    # (the least clear width may be a neighbour of the sentences quoted, in the same section)
    left = clear_width_left(turn, slots, [s for s, _ in picked] + [x for _, text in picked for x in sentences(text)])
    if left is not None:
        return [left]
    # (the rate of application may be a neighbour of the sentences quoted, in the same section, when the question
    # names what it is a rate of: "membrane curing compound" and "a uniform application of clear membrane curing
    # material ... one gallon of material for each 200 square feet")
    named = stems(turn) - _MEASURE_WORDS
    # (or the sentence before it names it: "... clear membrane curing material ..." / "The material shall be applied")
    neighbours = [x for _, text in picked for prev, x in zip(["", *sentences(text)], sentences(text))
                  if stems(f"{prev} {x}") & named]
    material = material_for_area(turn, slots, [s for s, _ in picked] + neighbours)
    if material is not None:
        return [material]
    factor = converted(turn, [s for s, _ in picked])
    if factor is not None:
        return [factor]
    if not (ASKS_AMOUNT.search(turn) or _ASKS_BACK.search(turn)):
        return []
    amounts = money_asked(slots)
    # the settling sentence may be a neighbour of the one quoted, in the same section (quoted then too)
    for sentence in [s for s, _ in picked] + [x for _, text in picked for x in sentences(text)]:
        settled = _settled(amounts, sentence)
        if settled:
            return settled
    held = _held_by_condition(turn, amounts, picked, earlier)
    if held:
        return held
    if not ASKS_AMOUNT.search(turn):
        return []
    counts = counts_in(turn) + _day_counts(turn, slots)
    for sentence, passage_text in picked:
        if not amounts and NTH_OFFENSE.search(sentence) and about_the_same(turn, passage_text) \
                and not ANOTHER_FINE.search(passage_text):
            fine = fine_by_offense(turn, sentence)
            if fine is not None:
                return [fine]
        if _TIERED.search(sentence) and len({a.number for a in amounts}) == 0:
            # (asked with another charge, "the fee and the cash deposit together": that charge's quoted amount too)
            tier = tier_fee(turn, slots, sentence) if not asks_more_than(turn, sentence) else \
                with_other_charge(turn, slots, sentence, [s for s, _ in picked])
            if tier is not None:
                return [tier]
        rates = _distinct(_per_unit_rates(sentence, passage_text))
        fits = []
        for rate, unit, words, ceiling in rates:
            mine = [(n, w, written) for n, w, written in counts if _same(unit, w)]
            if mine:
                mine += [(n, unit, written) for n, written in pronoun_counts(turn)]
            if len({n for n, _, _ in mine}) == 1:
                fits.append((rate, unit, words, ceiling, mine[0]))
        # the passage's other rates the same count fits ("$5.00 per cart" and "$X per cart per day"):
        # one product of several is not the amount owed
        elsewhere = [r for r in _distinct(_per_unit_rates(passage_text, passage_text))
                     if any(_same(r[1], w) for _, w, _ in counts) and r[0] not in {f[0] for f in fits}]
        # "In addition to the certificate of compliance fee, an annual fee of $25.00 per newsrack": the
        # product is not all that is owed, and the other charge is not given
        besides = re.search(r"\bin addition to\b|\bplus\b|\btogether with\b", sentence, re.I)
        # (unless that charge is the section's own, stated once: "There shall be a certificate of compliance fee
        # in the amount of $50.00." — added when the question asks the total of its own case)
        added = _charge_besides(sentence, passage_text) if besides and ASKS_TOTAL.search(turn) else None
        # "This fine shall increase by $33.00 if it remains unpaid at least 21 days after issuance" and "never paid
        # it": the fine owed depends on days the product does not count (left to the quotes)
        late = _LATE_RISE.search(passage_text) is not None and _NOT_PAID.search(turn) is not None
        if len(fits) == 1 and not amounts and not elsewhere and (not besides or added) and not late:
            rate, unit, words, ceiling, (n, w, written) = fits[0]
            total = (rate * n).quantize(Decimal("0.01"), ROUND_HALF_UP)
            steps = [f"{n} {w} (“{written}”) × {fmt_money(rate)} (“{words}”) = {fmt_money(total)}"]
            if added is not None:
                name, amount, other = added
                steps.append(f"the {name}: {fmt_money(amount)}; {fmt_money(total)} + {fmt_money(amount)} = "
                             f"{fmt_money(total + amount)}")
                total += amount
            # (a fine made one per day by another sentence of its section, "Each day such violation continues shall
            # constitute a separate offense": that sentence is worked from too, and quoted)
            each = next((x for x in sentences(passage_text) if _SEPARATE.search(x)), None) \
                if _PER.search(words) is None and not _SEPARATE.search(sentence) else None
            others = tuple(x for x in ((added[2] if added is not None else None), each) if x)
            return [Worked("per_unit", words, written, total, steps, ceiling, sentence, others=others)]
        if len(fits) > 1:
            return []
        if not rates:
            share = percent_of(turn, sentence, passage_text, amounts)
            if share is not None:
                return [share]
    # (the cost with its penalty may be stated by a neighbour of the sentences quoted, in the same section: "... shall
    # be liable to the city for the cost of such work, plus a penalty of 10% of such cost")
    quoted = {x for x, _ in picked}
    for _, passage_text in picked:
        for sentence in sentences(passage_text):
            if sentence not in quoted and not _per_unit_rates(sentence, passage_text):
                share = percent_of(turn, sentence, passage_text, amounts, added_only=True)
                if share is not None:
                    return [share]
    return []


# one period of a charge by the period, told by the user ("thirty days past due", "a month late")
_ONE_PERIOD = {"month": re.compile(r"\b(?:thirty|30|thirty-one|31)\s+days\b|\b(?:a|one|1)\s+month\b", re.I),
               "year": re.compile(r"\b(?:a|one|1)\s+year\b|\b(?:365|twelve|12)\s+(?:days|months)\b", re.I)}
_PLUS_BEFORE = re.compile(r"\b(?:plus|in addition to|together with)\b", re.I)


def percent_of(turn: str, sentence: str, passage_text: str, amounts: list[Slot],
                added_only: bool = False) -> Worked | None:
    """The one percentage of the sentence taken of the user's one amount (the amount with it, when the sentence adds it:
    "the cost of such work, plus a penalty of 10% of such cost"); None when that is not one way."""
    percents = _percents(sentence)
    # a provision with several percentages for several situations (reconstruction 50%, a new walk 100%
    # shared, replacement 50%): which situation is the user's is not read from a count of words
    several = len({p for p, _, _, _ in _percents(passage_text)}) > 1 and not _situation_named(turn, sentence, passage_text)
    if len(percents) != 1 or len({a.number for a in amounts}) != 1 or several or _DIVIDED.search(sentence):
        return None
    (p, words, at, period), amount = percents[0], amounts[0]
    plus = _PLUS_BEFORE.search(sentence[max(0, at - 40):at]) is not None
    if added_only and (period or not plus):
        return None
    share = (amount.number * p / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    each = f" a {period}" if period else ""
    steps = [f"{p.normalize():f}%{each} of {fmt_money(amount.number)} (“{amount.span.text}”) = {fmt_money(share)}{each}"]
    if period:  # "a service charge of one and one-half percent per month": the charge of one month
        one = _ONE_PERIOD.get(period.lower())
        if one is not None and one.search(turn) and ASKS_TOTAL.search(turn):
            # "it's now thirty days past due ... the total if we pay it this week": one month's charge added
            steps.append(f"with one {period}'s charge: {fmt_money(amount.number)} + {fmt_money(share)} = "
                         f"{fmt_money(amount.number + share)}")
        return Worked("percent", words, amount.span.text, share, steps, False, sentence)
    if plus:
        total = amount.number + share
        steps.append(f"{fmt_money(amount.number)} + {fmt_money(share)} = {fmt_money(total)}")
        return Worked("percent", words, amount.span.text, total, steps, False, sentence)
    return Worked("percent", words, amount.span.text, share, steps, False, sentence)


# "In addition to the certificate of compliance fee, ...": the charge named
_IN_ADDITION = re.compile(r"\b(?:in addition to|together with|plus)\s+(?:the|any|a|an)\s+(?P<name>(?:[a-z-]+\s+){0,4}?"
                          r"(?:fee|charge|deposit|bond))\b", re.I)


def _charge_besides(sentence: str, section_text: str) -> tuple[str, Decimal, str] | None:
    """The charge a rate is "in addition to", when its section states it once with one amount: (its name, the
    amount, that sentence); None otherwise."""
    m = _IN_ADDITION.search(sentence)
    if m is None:
        return None
    name = m.group("name").lower()
    found = []
    for other in sentences(section_text):
        if other == sentence or name not in other.lower():
            continue
        money = {x.number for x in read_slots(other) if x.kind == "money" and x.unit == "USD"}
        if len(money) > 1:
            return None
        if money:
            found.append((money.pop(), other))
    if len({a for a, _ in found}) != 1:
        return None
    return name, found[0][0], found[0][1]


# "$0.25 for each additional square foot", "$25.00 per newsrack": an amount that grows with a quantity
_EACH_ADDITIONAL = re.compile(r"\bfor\s+each\s+additional\s+(?P<u>(?:linear\s+|lineal\s+|square\s+|cubic\s+)?[a-z]+)", re.I)
# units whose count a fine or a period states, not the user's job: a fine per day or per offense is quoted as it is
_OWN_COUNT_UNITS = {"day", "week", "month", "year", "hour", "offens", "violat", "occurr", "instanc", "time", "minut"}
# the question asks what the user will pay, not what the rate is ("how much is the fee per newsrack?")
# — for the asker's own case ("cost me", "charge us", "will I owe"), not the fee in general ("What does an excavation
# permit cost?", "What do we have to pay to get them back?": the rates quoted answer those)
# ("we'll owe the city", "how much is the fee going to be?", "will we be charged")
_ASKS_MY_AMOUNT = re.compile(r"\b(?:cost|charge|bill)\s+(?:me|us)\b|\b(?:will|would|do|must)\s+(?:i|we)\s+owe\b|"
                             r"\b(?:i|we)['’]ll\s+(?:owe|pay|be\s+(?:charged|billed))\b|\bgoing\s+to\s+(?:be|cost|run)\b|"
                             r"\bwill\s+(?:i|we)\s+(?:pay|be\s+(?:charged|billed))\b", re.I)
# the question asks everything owed: each charge the quoted section makes counts ("what's the total we'll owe?")
ASKS_TOTAL = re.compile(r"\btotal\b|\baltogether\b|\ball\s+told\b|\bin\s+all\b|\bcombined\b|"
                        # "Adding up the certificate fee and the per-box charge", "add them together"
                        r"\badd(?:ing|ed)?\s+up\b|\badd(?:ing|ed)?\s+(?:\w+\s+){1,8}?(?:up|together)\b|\bboth\s+fees\b|"
                        # "What do we owe the city when we apply?": all the user owes is asked, not one charge of it
                        r"\bwhat\s+(?:do|does|will|would|should)\s+(?:i|we|they|he|she|you)\s+(?:\w+\s+)?owe\b", re.I)
# a count in words the reading does not take ("one of our boxes", "a couple of carts")
_SOME_OF = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|a couple|a few|both|all)\s+of\s+(?:our|my|the|them|those)\b",
                      re.I)


# the user's own case ("my sewer hookup", "our racks", "they going to bill me"): a figure asked for it is theirs,
# not the rate in general
_OWN_CASE = re.compile(r"\b(?:my|our|me|us|we|we['’](?:d|ll|re))\b", re.I)
_HOW_MUCH = re.compile(r"\bhow\s+much\b" + _MEASURE_ASKED + r"|\bwhat(?:['’]s|\s+is|\s+will)\s+(?:the\s+)?(?:total|fee|bill|charge|cost)\b", re.I)


def asks_own_amount(turn: str) -> bool:
    """Does the question ask the amount of the user's own case ("How much will it cost me?", "How much is the
    permit fee to dig for my sewer hookup?", "What's the total we'll owe?"), not a rate in general?"""
    return bool(_ASKS_MY_AMOUNT.search(turn) or (_HOW_MUCH.search(turn) and _OWN_CASE.search(turn)))


def _numbers_outside_dates(turn: str, slots: list[Slot]) -> bool:
    """A number in the question that is no part of a date or a time it gives ("renewal April 1" gives no count)."""
    return number_outside(turn, slots, lambda kind: kind in ("date", "time"))


_A_FEE = re.compile(r"\b(?:permits?|licen[cs]es?|fees?)\b", re.I)


def needs_amount(turn: str, slots: list[Slot], sentence: str) -> str | None:
    """What the amount asked is a percentage of, when the quoted sentence charges a share of a sum the question
    does not give: "How much are they going to bill me?" against "liable to the city for the cost of such work,
    plus a penalty of 10% of such cost" asks for the cost. None when the question gives an amount (or a number
    that may be one), asks no amount of its own, or the sentence charges no share."""
    if not asks_own_amount(turn) or money_asked(slots) or _numbers_outside_dates(turn, slots):
        return None
    if _A_FEE.search(turn) and not _A_FEE.search(sentence):
        return None  # "how much is the permit to redo my own sidewalk?" asks a fee, not the share of a cost
    found = list(_PERCENT_OF.finditer(sentence))
    if len({m.group("of").lower() for m in found}) != 1 or _DIVIDED.search(sentence):
        return None
    of = re.sub(r"^(?:such|said|that|the)\s+", "", found[0].group("of").strip(), flags=re.I)
    # the sum is named before the share ("for the cost of such work, plus a penalty of 10% of such cost")
    named = re.search(rf"\b(?:the|a|an)\s+({re.escape(of.split()[-1])}\s+of\s+(?:(?:such|said|the|that|this)\s+)?"
                      rf"[\w-]+)\b", sentence, re.I)
    words = named.group(1) if named and named.start() < found[0].start() else of
    return "the " + re.sub(r"\b(?:such|said|that|this)\b", "the", words, flags=re.I)


# a count the words leave open: "several days in a row", "a few tickets", "multiple violations"
_VAGUE_COUNT = re.compile(r"\b(?:several|a\s+few|multiple|many|numerous|a\s+number\s+of|a\s+bunch\s+of|a\s+handful\s+of|"
                          r"some)\s+(?:(?:more|other|separate|different|straight|consecutive|whole|full)\s+)?"
                          r"(?P<noun>days|weeks|nights|times|tickets|citations|violations|offen[cs]es|occasions|visits|"
                          r"trips|storms|months)\b", re.I)
_EACH_CHARGED = re.compile(r"\b(?:for\s+each|each|per|every)\b", re.I)


def vague_count(turn: str, slots: list[Slot], sentence: str) -> tuple[str, str] | None:
    """The thing counted when a total is asked of an amount charged per thing and the question says only "several
    days", "a few tickets" (a count it leaves open, with no number of them given): its noun (plural) and the words
    said; else None."""
    m = _VAGUE_COUNT.search(turn)
    if m is None or not (ASKS_TOTAL.search(turn) or asks_own_amount(turn)) or not _EACH_CHARGED.search(sentence):
        return None
    noun = m.group("noun").lower()
    if any(_same(noun, w) for _, w, _ in counts_in(turn)) or \
            any(s.kind == "duration" and s.unit == noun for s in slots):
        return None  # ("several days ... 4 days in all": the number is given)
    return noun, m.group(0)


def needs_quantity(turn: str, slots: list[Slot], sentence: str) -> str | None:
    """The unit whose number the amount asked depends on, when the quoted sentence charges per unit (or per
    additional unit) and the question gives no such number: "How much will the permit to dig a trench cost me?"
    against "$2.00 ... and $0.25 for each additional square foot". None when it is given, or not needed."""
    if not asks_own_amount(turn) or re.search(r"\bper\b|\beach\b|\ba piece\b", turn, re.I):
        return None  # "how much is it per box?": the rate itself is asked
    units = [m.group("u").lower() for m in _EACH_ADDITIONAL.finditer(sentence)]
    if not units:
        units = [u for rate, u, words, ceiling in _per_unit_rates(sentence, sentence) if not ceiling]
    units = [u for u in units if u.split()[-1] not in _NOT_UNITS and stem_of(u.split()[-1])[:6] not in
             {x[:6] for x in _OWN_COUNT_UNITS}]
    if not units:
        return None
    unit = units[0]
    counts = counts_in(turn)
    if any(_same(unit, w) for _, w, _ in counts):
        return None
    if re.search(r"\b(?:foot|feet|square|yard|inch)", unit) and any(s.kind in ("length",) for s in slots):
        return None  # a measurement given: the area or length is the user's
    if any(s.kind == "count" and not re.match(r"(?:a|an)\s", s.span.text, re.I) for s in slots) \
            or _numbers_outside_dates(turn, slots) or _SOME_OF.search(turn):  # ("a permit" is an article)
        return None  # a number the words give may be it: left to the quote (never asked over a figure given)
    return unit

