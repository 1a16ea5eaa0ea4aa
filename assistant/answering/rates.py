"""Arithmetic a quoted sentence asks for, with the user's one number: any code, no table.

"A fine of one hundred fifty ($150.00) dollars ... for each offense" and "cited on three
separate days", "$25.00 per newsrack" and "7 newsracks", "a penalty of 10% of such cost" and
"spent $850": the rate is read from the sentence the answer quotes, the count or the amount
from the user's words, and the product (or the share, or the cost with its penalty) is worked
out exactly. "Each day ... shall constitute a separate offense" makes a fine per offense a fine
per day. Nothing is worked out when the question gives no count or amount, or several that
could be it, or the sentence holds no rate, or two; the quote then answers alone.

Pure functions; the planner calls ``work_out`` with the sentences it is about to quote.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from assistant.answering.formatting import fmt_money
from assistant.answering.reading import NUMBER, Slot, number_value, read_slots
from assistant.retrieval.chunking import sentences
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems

# a question about an amount of money ("how much", "what will the bill be", "the total of the fines")
ASKS_AMOUNT = re.compile(
    r"\bhow much\b|\btotal\b|\bowe[sd]?\b|\bliable\b|\bbill(?:ed)?\b|\bcharged?\b|\bfines?\b[^.?!]{0,30}\?|"
    r"\bwhat(?: (?:will|would|do|does|did|am|is|are|should)\b|['’]s)[^.?!]{0,50}\b(?:pay|cost|fine|fee|fees|charge|bill)\b|"
    r"\b(?:do|would|will|must|should)\s+(?:i|we|they|he|she|you)\s+(?:\w+\s+)?(?:pay|owe)\b|"
    r"\badd up\b|\bcome to\b|\bwhat\s+(?:fine|fee|charge|penalty|amount)\b", re.I)
# "$25.00 per newsrack", "$150.00 ... for each offense", "$10 a day": the money slot's unit, written after it
# ("a"/"an" only right after the amount: "$10 a day", never "$75.00 if the excavation is in a paved area")
_PER = re.compile(r"^(?:[^.;$]{0,45}?\b(?:per|for\s+each|each|every)|\s*(?:a|an))\s+"
                  r"(?P<u>(?:linear\s+|square\s+|cubic\s+)?[a-z]+)\b", re.I)
_SEPARATE = re.compile(r"\beach\s+(?P<u>day|week|hour)\b[^.]{0,80}\bseparate\s+(?:offense|violation)", re.I)
_PERCENT_OF = re.compile(r"(?P<p>\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+(?:the\s+|such\s+|said\s+|that\s+)?"
                         r"(?P<of>(?:[a-z]+\s+){0,2}(?:costs?|amount|assessment|bill|estimate|price|fees?|charges?|"
                         r"expenses?|total|sum)\b)", re.I)
# a share that is divided again among owners is not one owner's share
_DIVIDED = re.compile(r"\bequally\b|\bdivided\b|\bdistributed\b|\bprorat|\bapportion", re.I)
_MAXIMUM = re.compile(r"\b(?:not (?:more|to exceed|exceeding)|not more than|up to|maximum|no more than)\s*[^.$]{0,40}$",
                      re.I)
# units people count with that mean the same thing as a code's unit
_SAME_UNIT = {"offens": {"day", "time", "ticket", "citat", "violat", "offens"}, "violat": {"day", "time", "ticket",
              "citat", "violat", "offens"}}
_TIERED = re.compile(r"\beach\s+additional\b|\bthereafter\b|\bfor\s+each\s+of\s+the\s+first\b", re.I)
_COMPOUND = re.compile(r"\s*(?:per|for\s+each|each|a|every)\s+[a-z]+", re.I)
# insurance limits ("$1,000,000 per person", "$20,000 each accident") are ceilings, never summed
_NOT_UNITS = {"person", "the", "such", "said", "any", "which", "that", "thereof", "of", "additional", "accident",
              "occurrence", "claim", "incident", "aggregate"}


@dataclass(frozen=True)
class Worked:
    """One product, share or sum, with everything it was read from."""

    kind: str  # "per_unit" | "percent" | "difference"
    rate_words: str  # verbatim from the sentence
    read_words: str  # verbatim from the question
    result: Decimal
    steps: list[str] = field(default_factory=list)
    maximum: bool = False  # the rate is a ceiling ("not more than $500"): the result is the most it can be
    sentence: str = ""
    unit: str | None = None  # "in" / "ft" for a rise over a run; None: money

    def shown(self) -> str:
        from assistant.answering.phrasing import quantity

        return fmt_money(self.result) if self.unit is None else quantity(self.result, self.unit)

    def call(self) -> dict:
        return {"name": "rate_calculation",
                "arguments": {"rate": self.rate_words, "read": self.read_words, "kind": self.kind},
                "result": {"steps": self.steps, "result": self.shown(), "maximum": self.maximum,
                           "quote": self.sentence}}


def _stem(word: str) -> str:
    return next(iter(stems(word)), word.lower())


def _same(unit: str, word: str) -> bool:
    a, b = _stem(unit.split()[-1]), _stem(word)
    return a == b or b in _SAME_UNIT.get(a, set())


def _counts(text: str) -> list[tuple[Decimal, str, str]]:
    """(number, the counted word, the words as written) for "three separate days", "5 carts", "7 newsracks"."""
    out = []
    rx = re.compile(rf"(?P<n>{NUMBER.pattern})\s+(?:(?:separate|different|more|other|of\s+(?:their|our|the|its|my)|"
                    r"[a-z]+-[a-z]+)\s+){0,2}(?P<w>[a-z]+)\b", re.I)
    for m in rx.finditer(text):
        n = number_value(m)
        if n is None or n != int(n) or n <= 0:
            continue
        out.append((n, m.group("w"), m.group(0)))
    return out


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
        if m and m.group("u").lower() not in _NOT_UNITS:
            out.append((s.number, m.group("u").lower(), sentence[s.span.start:s.span.end + m.end()].strip(), ceiling))
        elif separate and re.search(r"\bfined?\b|\bpenalt", before[-80:], re.I):
            # "shall be fined not more than $500 ... Each day ... shall constitute a separate offense"
            out.append((s.number, separate.group("u").lower(), s.span.text, ceiling))
    return out


def _distinct(rates: list) -> list:
    """One rate per amount and unit ("five hundred dollars ($500.00)" is one amount written twice)."""
    seen, out = set(), []
    for r in rates:
        if (r[0], r[1]) not in seen:
            seen.add((r[0], r[1]))
            out.append(r)
    return out


def _money_asked(slots: list[Slot]) -> list[Slot]:
    return [s for s in slots if s.kind == "money" and s.unit == "USD"]


# a sum held as security and settled against a cost: "charged to the financial guarantee ... and the balance
# thereof shall be released", "any amount ... over and above the deposit", "the difference shall be refunded"
_SECURITY = re.compile(r"\b(?:deposit|guarantee|bond|escrow|security)\b", re.I)
_SETTLES = re.compile(r"\b(?:balance|difference|remainder|excess|over and above|in excess of|refund(?:ed)?|"
                      r"return(?:ed)?|released?|exceeds?)\b", re.I)
_CHARGED = re.compile(r"\b(?:bill|cost|amount|charge|expense)", re.I)  # and what is settled against it
# the user's own words for the sum held ("I put down $3,800", "we posted a $1,500 guarantee") and for the cost
_HELD = re.compile(r"deposit|guarantee|bond|escrow|put down|posted|left with|paid (?:up ?front|in advance)|up ?front|"
                   r"advance", re.I)
_COST = re.compile(r"\bbill|\bcost|came to|come to|ended up|charged?|invoice|actual|final|spent|ran\b", re.I)
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
    held = [a for a in amounts if _HELD.search(_own_words(a)) and not _COST.search(_own_words(a))]
    cost = [a for a in amounts if _COST.search(_own_words(a)) and not _HELD.search(_own_words(a))]
    if len(held) != 1 or len(cost) != 1:
        return []  # which is the sum held and which the cost is not read from the words
    h, c = held[0], cost[0]
    diff = abs(h.number - c.number).quantize(Decimal("0.01"), ROUND_HALF_UP)
    held_words, cost_words = f"{fmt_money(h.number)} held (“{h.span.text}”)", f"{fmt_money(c.number)} cost (“{c.span.text}”)"
    steps = [f"{held_words} − {cost_words} = {fmt_money(diff)} left of the sum held" if h.number >= c.number else
             f"{cost_words} − {held_words} = {fmt_money(diff)} owed over the sum held"]
    return [Worked("difference", sentence, f"{h.span.text}; {c.span.text}", diff, steps, False, sentence)]


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


# tiers of a fee: "$2.00 for excavations which do not exceed 25 square feet ... and $0.25 for each additional square
# foot ...; but not to exceed $100.00", "$20.00 for each of the first three (3) carts and $40.00 for each additional cart"
_UP_TO = re.compile(rf"\b(?:do(?:es)?\s+not\s+exceed|not\s+exceeding|up\s+to|of\s+not\s+more\s+than|the\s+first)\s+"
                    rf"(?P<n>{NUMBER.pattern})\s*(?:\(\d+\)\s*)?(?P<u>(?:square|sq\.?|lineal|linear|cubic)\s+(?:feet|foot|ft|yards?)|"
                    r"feet|foot|[a-z]+)", re.I)
_EACH_FIRST = re.compile(rf"\bfor\s+each\s+of\s+the\s+first\s+(?P<n>{NUMBER.pattern})\s*(?:\(\d+\)\s*)?(?P<u>[a-z]+)", re.I)
_ADDITIONAL = re.compile(r"\b(?:for\s+)?each\s+additional\s+(?P<u>(?:square|sq\.?|lineal|linear|cubic)\s+(?:feet|foot|ft|yard)|"
                         r"[a-z]+)(?P<more>(?:[^;$]{0,40}?,?\s+or\s+(?:lineal|linear|square)\s+foot)?)", re.I)
_CAP = re.compile(r"\b(?:not\s+to\s+exceed|shall\s+not\s+exceed|maximum\s+of|at\s+most|up\s+to\s+a\s+maximum\s+of)\s*$", re.I)
_BY = re.compile(rf"(?P<a>\d+(?:\.\d+)?)\s*(?:'|’|ft\.?|feet|foot)?\s*(?:by|x|×)\s*(?P<b>\d+(?:\.\d+)?)\s*(?:'|’|ft\.?|feet|foot)\b",
                 re.I)
_PER_PER = re.compile(r"[)\s]*(?:\(\$[\d.,]+\)\s*)?per\s+(?P<u>[a-z]+)(?:\(s\))?\s+per\s+(?P<t>day|week|month)\b", re.I)
_TIER_GENERIC = stems("for which that do does not and or in of the a an area length size any such each permit fee fees")
_AREA = re.compile(rf"(?P<n>{NUMBER.pattern})\s*(?:square|sq\.?)\s*(?:feet|foot|ft)\b", re.I)


def _unit_kind(unit: str) -> str:
    u = unit.lower()
    if re.search(r"square|sq", u):
        return "area"
    if re.search(r"feet|foot|ft|lineal|linear", u):
        return "length"
    return _stem(u.split()[-1])


def _users_quantities(turn: str, slots: list[Slot]) -> dict[str, list[tuple[Decimal, str]]]:
    """What the question measures or counts, by kind: an area ("10 ft by 7 ft", "70 square feet"), a length
    in feet, or a count of things (by the thing's stem)."""
    out: dict[str, list[tuple[Decimal, str]]] = {}
    taken = []
    for m in _BY.finditer(turn):
        out.setdefault("area", []).append((Decimal(m.group("a")) * Decimal(m.group("b")), m.group(0)))
        taken.append((m.start(), m.end()))
    for m in _AREA.finditer(turn):
        v = number_value(m)
        if v is not None:
            out.setdefault("area", []).append((v, m.group(0)))
            taken.append((m.start(), m.end()))
    for s in slots:
        if s.kind == "length" and s.span.origin == "turn" and not any(a <= s.span.start < b for a, b in taken):
            feet = s.number if s.unit == "ft" else s.number / 12
            out.setdefault("length", []).append((feet, s.span.text))
    for n, w, written in _counts(turn):
        if not re.fullmatch(r"(?:feet|foot|ft|inch|inches|square|sq|days?|hours?|years?|months?|weeks?)", w, re.I):
            out.setdefault(_stem(w), []).append((n, written))
    # "we have like 140 carts ... picked up 5 of ours": the pronoun's count is one of each counted thing's
    for n, written in _pronoun_counts(turn):
        for k in [k for k in out if k not in ("area", "length")]:
            out[k].append((n, written))
    return out


def _tiered(turn: str, slots: list[Slot], sentence: str) -> Worked | None:
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
    quantities = _users_quantities(turn, slots)
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
            return None  # a measure of something the tier is not about: which tier is not guessed
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
        if len(rest) != 1 or not per or _stem(per.group("u")) != _stem(bound.group("u")) \
                or len({d.number for d in days}) != 1:
            return None
        more = rest[0].number * q * days[0].number
        steps.append(f"{fmt_money(rest[0].number)} × {q.normalize():f} × {days[0].number.normalize():f} "
                     f"{per.group('t')}s (“{days[0].span.text}”) = {fmt_money(more)}; {fmt_money(total)} + "
                     f"{fmt_money(more)} = {fmt_money(total + more)}")
        total += more
    maximum = False
    if cap is not None and total > cap.number:
        steps.append(f"more than the ceiling of {fmt_money(cap.number)}: {fmt_money(cap.number)}")
        total = cap.number
    total = total.quantize(Decimal("0.01"), ROUND_HALF_UP)
    words = sentence[base.span.start:(cap.span.end if cap is not None else add.end())]
    return Worked("tiered", words, written, total, steps, maximum, sentence)


# fines that rise with each offense: "a warning for a first offense, a fine of ... ($25.00) for a second offense, and
# ... ($50.00) for any third or subsequent offense"; "$100.00 ... for a first offense and $200.00 ... for any subsequent"
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
            "5th": 5}
_NTH_OFFENSE = re.compile(r"\bfor\s+(?:a|an|the|any|each|every)?\s*(?P<o>first|second|third|fourth|fifth|subsequent)"
                          r"(?P<more>\s+(?:or|and)\s+(?:any\s+|each\s+)?(?:subsequent|succeeding|further))?\s+"
                          r"(?:offen[cs]es?|violations?|convictions?)\b", re.I)
_WARNING = re.compile(r"\bwarning\b", re.I)
_USERS_NTH = re.compile(r"\b(?P<o>first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\s+(?:\w+\s+)?"
                        r"(?:offen[cs]e|violation|ticket|citation|time|strike)\b", re.I)
_ALL_OF_THEM = re.compile(r"\btotal\b|\ball\s+(?:three|four|five|\d+|of\s+them|together)\b|\baltogether\b|\bin\s+all\b|"
                          r"\bcombined\b|\badd\s+up\b|\bsum\b", re.I)
_OFFENSE_WORDS = {"offens", "violat", "ticket", "citat", "time", "fine"}


def _graduated(sentence: str) -> list[tuple[int, Decimal | None, bool, str]] | None:
    """(the offense it starts at, the fine or None for a warning, whether it holds for every later one, the
    words) for a sentence of fines by offense; None when it has fewer than two or a step reads two ways."""
    money = [x for x in read_slots(sentence) if x.kind == "money" and x.unit == "USD"]
    steps, last_end, prev = [], 0, 0
    for m in _NTH_OFFENSE.finditer(sentence):
        o = m.group("o").lower()
        n = prev + 1 if o == "subsequent" else _ORDINAL[o]
        between = sentence[last_end:m.start()]
        amounts = {x.number for x in money if last_end <= x.span.start < m.start()}
        if len(amounts) == 1:
            amount = amounts.pop()
        elif not amounts and _WARNING.search(between):
            amount = None
        else:
            return None
        start = next((x.span.start for x in money if last_end <= x.span.start < m.start()), m.start())
        # "one hundred ($100.00) dollars": the amount's words before the figure in brackets
        worded = re.search(r"\b((?:(?!(?:of|and|a|an|the|or)\b)[a-z-]+\s+){1,6})\($", sentence[last_end:start], re.I)
        if worded:
            start = last_end + worded.start(1)
        steps.append((n, amount, bool(m.group("more")) or o == "subsequent", sentence[start:m.end()].strip()))
        last_end, prev = m.end(), n
    if len(steps) < 2 or any(b[0] != a[0] + 1 for a, b in zip(steps, steps[1:])):
        return None
    return steps


def _fine_for(steps: list[tuple[int, Decimal | None, bool, str]], k: int) -> tuple[Decimal | None, str] | None:
    for n, amount, later, words in reversed(steps):
        if n == k or (later and n <= k):
            return amount, words
    return None


def _graduated_worked(turn: str, sentence: str) -> Worked | None:
    """The fine of the user's nth offense, or the total of their n offenses, by the sentence's steps."""
    steps = _graduated(sentence)
    if steps is None:
        return None
    nth = {_ORDINAL[m.group("o").lower()] for m in _USERS_NTH.finditer(turn)}
    counts = [(n, w, written) for n, w, written in _counts(turn) if _stem(w) in _OFFENSE_WORDS]
    total = bool(_ALL_OF_THEM.search(turn))
    if total and len({n for n, _, _ in counts}) == 1 and not nth:
        k = int(counts[0][0])
        lines, s = [], Decimal(0)
        for i in range(1, k + 1):
            got = _fine_for(steps, i)
            if got is None:
                return None
            amount, words = got
            s += amount or 0
            lines.append(f"offense {i}: {'a warning' if amount is None else fmt_money(amount)} (“{words}”)")
        s = s.quantize(Decimal("0.01"), ROUND_HALF_UP)
        return Worked("graduated", sentence, counts[0][2], s, ["; ".join(lines) + f"; together {fmt_money(s)}"],
                      False, sentence)
    if len(nth) == 1 and not total:
        k = nth.pop()
        got = _fine_for(steps, k)
        if got is None or got[0] is None:
            return None  # a warning is no amount
        amount, words = got
        written = next(m.group(0) for m in _USERS_NTH.finditer(turn))
        return Worked("graduated", words, written, amount.quantize(Decimal("0.01"), ROUND_HALF_UP),
                      [f"offense {k} (“{written}”): {fmt_money(amount)} (“{words}”)"], False, sentence)
    return None


# the words of an amount and of who pays it name no situation ("the cost", "the estimate", "the Village")
_SITUATION_GENERIC = stems("cost costs paid pay pays charge charged charges fee fees village town city county owner owners "
                           "property estimate estimates amount assess assessed assessment bill billed price total share")


# "what's the fee, and how much do I hand the clerk altogether with the deposit?": more than the tiers' fee is asked
_ALL_OWED = re.compile(r"\baltogether\b|\ball together\b|\bin all\b|\btotal\b|\bwith the (?:deposit|bond|fee)\b|"
                       r"\bplus the\b|\bincluding the\b", re.I)
# "the city picked up 5 of ours", "3 of them": a count of the things the question is about, named by a pronoun
_PRONOUN_COUNT = re.compile(rf"(?P<n>{NUMBER.pattern})\s+of\s+(?:ours|theirs|mine|yours|them|those|these|his|hers)\b", re.I)
# words of fines and of who gives them: a sentence of fines by offense is the question's only if more is shared
_FINE_GENERIC = stems("fine fined fines penalty penalties offense offenses violation violations violate violated ticket "
                      "tickets ticketed citation cited first second third fourth fifth subsequent city town village "
                      "person people what how much is are the a an of for our my we i it this that one again time times "
                      "shall be subject any each warning dollars cents")


def _about_the_same(turn: str, passage_text: str) -> bool:
    """Does the question share a word beyond fines and offenses with the provision (its section's text)?
    Fines by offense for shopping carts are not a Segway tour's."""
    return any(len(w) > 2 for w in (stems(expand(turn)) - _FINE_GENERIC) & stems(passage_text))


def _pronoun_counts(turn: str) -> list[tuple[Decimal, str]]:
    out = []
    for m in _PRONOUN_COUNT.finditer(turn):
        n = number_value(m)
        if n is not None and n == int(n) and n > 0:
            out.append((n, m.group(0)))
    return out


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


# a rise over a run: "a slope not to exceed 12%" or "a cross slope of one-quarter inch per foot of width", and the
# user's one length ("the driveway runs 60 feet", "the walk will be 5 feet wide"), asked how much higher or lower
ASKS_RISE = re.compile(r"\bhow much (?:higher|lower|above|below|rise|drop|fall)\b|\bdifference in (?:height|elevation)\b|"
                       r"\bhow much (?:of a )?(?:rise|drop|fall)\b", re.I)
_SLOPE_WORD = re.compile(r"\b(?:slope|grade|pitch)\b", re.I)
_PER_FOOT = re.compile(r"\s*(?:per|to the|for each|a)\s+(?:lineal\s+|linear\s+)?(?:foot|ft)\b", re.I)


def _rise(turn: str, slots: list[Slot], picked: list[tuple[str, str]]) -> Worked | None:
    """The rise a quoted slope gives over the user's one length, in the slope's own terms (a percentage of
    the run, or inches per foot of it); None when the question asks no height, gives no length or two, or
    the best sentence with a slope states none or several."""
    from assistant.answering.limits import _MAX_BEFORE, _MIN_BEFORE

    if not ASKS_RISE.search(turn):
        return None
    runs = [s for s in slots if s.kind == "length" and s.span.origin == "turn"]
    if len({(s.number if s.unit == "ft" else s.number / 12) for s in runs}) != 1:
        return None
    run = runs[0]
    feet = run.number if run.unit == "ft" else run.number / 12
    for sentence, _ in picked:
        if not _SLOPE_WORD.search(sentence):
            continue
        found = [(s, "percent") for s in read_slots(sentence) if s.kind == "percent"]
        found += [(s, "per_foot") for s in read_slots(sentence)
                  if s.kind == "length" and s.unit == "in" and _PER_FOOT.match(sentence, s.span.end)]
        if not found:
            continue  # "the maximum and minimum slope in any cut": a slope with no figure
        if len({(k, s.number) for s, k in found}) > 1:
            return None  # several slopes: which one is not guessed
        rate, kind = found[0]
        before = sentence[max(0, rate.span.start - 40):rate.span.start]
        most = bool(_MAX_BEFORE.search(before)) and not _MIN_BEFORE.search(before)
        end = rate.span.end + (m.end() - rate.span.end if (m := _PER_FOOT.match(sentence, rate.span.end)) else 0)
        words = sentence[rate.span.start:end]
        if kind == "percent":
            result, unit = (feet * rate.number / 100), "ft"
            step = f"{rate.number.normalize():f}% of {feet.normalize():f} feet (“{run.span.text}”) = "
        else:
            result, unit = feet * rate.number, "in"
            step = f"{rate.number.normalize():f} inch per foot × {feet.normalize():f} feet (“{run.span.text}”) = "
        from assistant.answering.phrasing import quantity

        result = result.quantize(Decimal("0.001"), ROUND_HALF_UP).normalize()
        return Worked("rise", words, run.span.text, result, [step + quantity(result, unit)], most, sentence, unit)
    return None


def work_out(turn: str, slots: list[Slot], picked: list[tuple[str, str]]) -> list[Worked]:
    """The arithmetic of the first quoted sentence (best first; each with the text of its whole section)
    that states a rate the question's one count or one amount fits, or settles a sum held (a deposit, a
    guarantee) against a cost the user gives both of, or a rise a slope gives over the user's length; []
    when none fits exactly one way."""
    rise = _rise(turn, slots, picked)
    if rise is not None:
        return [rise]
    if not (ASKS_AMOUNT.search(turn) or _ASKS_BACK.search(turn)):
        return []
    amounts = _money_asked(slots)
    # the settling sentence may be a neighbour of the one quoted, in the same section (quoted then too)
    for sentence in [s for s, _ in picked] + [x for _, text in picked for x in sentences(text)]:
        settled = _settled(amounts, sentence)
        if settled:
            return settled
    if not ASKS_AMOUNT.search(turn):
        return []
    counts = _counts(turn)
    for sentence, passage_text in picked:
        if not amounts and _NTH_OFFENSE.search(sentence) and _about_the_same(turn, passage_text):
            fine = _graduated_worked(turn, sentence)
            if fine is not None:
                return [fine]
        if _TIERED.search(sentence) and len({a.number for a in amounts}) == 0 and not _ALL_OWED.search(turn):
            tier = _tiered(turn, slots, sentence)
            if tier is not None:
                return [tier]
        rates = _distinct(_per_unit_rates(sentence, passage_text))
        fits = []
        for rate, unit, words, ceiling in rates:
            mine = [(n, w, written) for n, w, written in counts if _same(unit, w)]
            if mine:
                mine += [(n, unit, written) for n, written in _pronoun_counts(turn)]
            if len({n for n, _, _ in mine}) == 1:
                fits.append((rate, unit, words, ceiling, mine[0]))
        # the passage's other rates the same count fits ("$5.00 per cart" and "$X per cart per day"):
        # one product of several is not the amount owed
        elsewhere = [r for r in _distinct(_per_unit_rates(passage_text, passage_text))
                     if any(_same(r[1], w) for _, w, _ in counts) and r[0] not in {f[0] for f in fits}]
        # "In addition to the certificate of compliance fee, an annual fee of $25.00 per newsrack": the
        # product is not all that is owed, and the other charge is not given
        besides = re.search(r"\bin addition to\b|\bplus\b|\btogether with\b", sentence, re.I)
        if len(fits) == 1 and not amounts and not elsewhere and not besides:
            rate, unit, words, ceiling, (n, w, written) = fits[0]
            total = (rate * n).quantize(Decimal("0.01"), ROUND_HALF_UP)
            steps = [f"{n} {w} (“{written}”) × {fmt_money(rate)} (“{words}”) = {fmt_money(total)}"]
            return [Worked("per_unit", words, written, total, steps, ceiling, sentence)]
        if len(fits) > 1:
            return []
        percents = _percents(sentence)
        # a provision with several percentages for several situations (reconstruction 50%, a new walk 100%
        # shared, replacement 50%): which situation is the user's is not read from a count of words
        several = len({p for p, _, _, _ in _percents(passage_text)}) > 1 and not _situation_named(turn, sentence, passage_text)
        if len(percents) == 1 and len({a.number for a in amounts}) == 1 and not rates and not several \
                and not _DIVIDED.search(sentence):
            (p, words, at, period), amount = percents[0], amounts[0]
            share = (amount.number * p / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
            each = f" a {period}" if period else ""
            steps = [f"{p.normalize():f}%{each} of {fmt_money(amount.number)} (“{amount.span.text}”) = "
                     f"{fmt_money(share)}{each}"]
            if period:  # "a service charge of one and one-half percent per month": the charge of one month
                return [Worked("percent", words, amount.span.text, share, steps, False, sentence)]
            if re.search(r"\b(?:plus|in addition to|together with)\b",
                         sentence[max(0, at - 40):at], re.I):
                total = amount.number + share
                steps.append(f"{fmt_money(amount.number)} + {fmt_money(share)} = {fmt_money(total)}")
                return [Worked("percent", words, amount.span.text, total, steps, False, sentence)]
            return [Worked("percent", words, amount.span.text, share, steps, False, sentence)]
    return []
