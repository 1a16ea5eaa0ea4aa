"""Amounts the code sets by a condition the question does not say: which one applies is asked.

"Any violation ... at a sidewalk abutting land zoned solely for residential use and that has sixteen (16) or fewer
residential units shall result in a fine of one hundred ($100.00) dollars ..." beside the same sentence for "more than
sixteen (16)" units ($150.00) and for land "zoned for any use other than solely residential" ($250.00), asked "What
kind of fine are we looking at?" by someone who says nothing of the zoning or the units: the sentences are alike but
for their condition and their amount, so the user's own amount depends on words they have not given. Any code, no
table: the sentences are the ones the answer is about to quote, alike when most of their words are shared; the words
only one of them has are its condition. When the question's words meet exactly one condition, or none of the
sentences differ so, nothing is asked.

Pure functions; the planner calls ``condition_needed`` with the sentences it is about to quote, best first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from assistant.answering.reading import read_slots
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems

# the question asks for the user's own amount ("What kind of fine are we looking at?", "how much will I be charged")
_ASKS_OWN = re.compile(r"\b(?:how\s+much|what\s+(?:kind\s+of\s+|sort\s+of\s+)?(?:fine|fee|penalty|charge|amount|deposit|bond)|"
                       # "What's the total fine they're looking at?"
                       r"what(?:['’]s|\s+is|\s+would\s+be|\s+will\s+be)\s+the\s+(?:total\s+)?(?:fine|fee|penalty|charge)|"
                       r"what\s+(?:will|would|do|does)\b[^?]{0,40}\b(?:cost|charge|owe|pay|fine)|"
                       # "What am I looking at for fines?", "what are we facing?", "what am I on the hook for?"
                       r"what\s+(?:am|are|is)\s+(?:i|we|they|he|she)\s+(?:looking\s+at|facing|in\s+for|on\s+the\s+hook\s+for))\b",
                       re.I)
# the user's own case, or a party the user names ("the building next door", "my neighbor"): a case, not fines in general
_PERSONAL = re.compile(r"\b(?:i|i'm|i've|me|my|we|we're|our|us|next\s+door|neighbou?r\w*|(?:the|that|this)\s+(?:building|"
                       r"owner|store|shop|business|landlord|tenant))\b", re.I)
_NUMBERISH = re.compile(r"^\d|^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|sixteen|twenty|"
                        r"fifty|hundred|thousand|dollar|cent|no)$", re.I)
_SHARED_SHARE = 0.6  # alike: this share of the smaller sentence's words is in the other
# (small words that stop no run of a condition's words: "that has sixteen (16) or fewer residential units")
_FRAME = stems("a an the and or of to that has have with for than which is are be in on at by")


_CONSEQUENCE = re.compile(r"\s(?:shall|will|must|may)\s|\$|\(\$|\b(?:a\s+)?(?:fine|fee|penalty|charge)\s+of\b", re.I)
_LABEL_START = re.compile(r"^(?:[a-z]|\d+|[ivx]+)[.)]\s+", re.I)  # "b. occurring at ...": a cross-reference's label


@dataclass(frozen=True)
class Needed:
    conditions: tuple[str, ...]  # each sentence's own words, in its order ("sixteen (16) or fewer residential units")
    sentences: tuple[str, ...]


def _words(sentence: str) -> set[str]:
    return {w for w in stems(sentence) if not _NUMBERISH.match(w)}


def _amount(sentence: str) -> Decimal | None:
    found = {s.number for s in read_slots(sentence) if s.kind == "money" and s.unit == "USD"}
    return next(iter(found)) if len(found) == 1 else None


def _own_words(sentence: str, own: set[str], shared: set[str]) -> str:
    """The run of the sentence's words that holds every word only it has, widened to the words the alike
    sentences do not all share ("sixteen (16) or fewer residential units", not "fewer")."""
    tokens = list(re.finditer(r"[\w'’()-]+", sentence))
    marks = [i for i, t in enumerate(tokens) if stems(t.group(0)) & own]
    if not marks:
        return ""
    a, b = marks[0], marks[-1]
    while a > 0 and b - a < 12 and not (stems(tokens[a - 1].group(0)) & shared - _FRAME):
        a -= 1
    while b + 1 < len(tokens) and b - a < 12 and not (stems(tokens[b + 1].group(0)) & shared - _FRAME):
        b += 1
    a = max(a - 3, 0) if b - a < 3 else a
    b = min(b + 3, len(tokens) - 1) if b - a < 4 else b
    words = sentence[tokens[a].start():tokens[b].end()]
    # the condition, not its consequence: the amount is in the quotes below the question ("... zoned for any use
    # other than solely residential", not "... shall result in a fine of two hundred fifty ($250.00) dollars")
    words = _CONSEQUENCE.split(words, maxsplit=1)[0]
    return _LABEL_START.sub("", words).strip(" ,;")


# "$25.00 if no pavement is involved or $75.00 if the excavation is in a paved area": an amount and its own condition
_MONEY = re.compile(r"\$\s?\d[\d,]*(?:\.\d\d)?")
_IF_CLAUSE = re.compile(r"^[\s,)]*(?:dollars?\s*)?(?:\)\s*)?,?\s*(?P<c>(?:if|where|when|whenever|unless|in\s+(?:the\s+)?case\s+of)\b.*)$",
                        re.I | re.S)
_CLAUSE_END = re.compile(r"\s*(?:,?\s*(?:or|and)\s*$)|\s+(?:and\s+)?(?:shall|must|will)\s.*$|[;:].*$", re.I | re.S)


def cases_within(sentence: str) -> tuple[str, ...]:
    """The conditions of one sentence that sets two amounts or more each by its own condition ("$25.00 if no
    pavement is involved or $75.00 if the excavation is in a paved area"), in order; () when it does not."""
    found = list(_MONEY.finditer(sentence))
    if len({m.group(0) for m in found}) < 2:
        return ()
    cases = []
    for i, m in enumerate(found):
        after = sentence[m.end():found[i + 1].start() if i + 1 < len(found) else len(sentence)]
        c = _IF_CLAUSE.match(after)
        if c is None:
            return ()
        cases.append(_CLAUSE_END.sub("", c.group("c")).strip(" ,"))
    return tuple(cases) if all(cases) else ()


def condition_needed(turn: str, sentences: list[str], common: frozenset[str] = frozenset()) -> Needed | None:
    """The conditions to ask about, or None (the question says which, asks no own amount, or the sentences
    differ in no condition). ``common``: the code's everyday words, which name no case ("my excavation permit" says
    nothing of "the excavation is in a paved area")."""
    if not _ASKS_OWN.search(turn) or not _PERSONAL.search(turn) or re.search(r"\d", turn):
        return None  # (a question with figures of its own may meet a condition in them: not asked)
    asked_words = stems(turn) - common  # (the user's own words: "dig" is no "excavation ... in a paved area")
    # (their plain words put in the code's say a case only when they give two of its own words: "a dirt alley" is "no
    # pavement involved"; "dig", "excavation", names none)
    plain = stems(expand(turn)) - stems(turn) - common
    for s in sentences[:4]:
        cases = cases_within(s)
        if cases:
            own = [_words(c) - set().union(*(_words(o) for o in cases if o != c)) for c in cases]
            met = [i for i, o in enumerate(own) if o & asked_words or len(o & plain) >= 2]
            return None if len(met) == 1 else Needed(cases, (s,))
    priced = [(s, a) for s in sentences[:4] if (a := _amount(s)) is not None]
    if len(priced) < 2:
        return None
    first, _ = priced[0]
    alike = [(s, a) for s, a in priced
             if len(_words(s) & _words(first)) >= _SHARED_SHARE * min(len(_words(s)), len(_words(first)))]
    if len(alike) < 2 or len({a for _, a in alike}) < 2:
        return None
    asked = stems(expand(turn))
    own = []
    for s, _ in alike:
        others = set().union(*(_words(o) for o, _ in alike if o != s))
        own.append(_words(s) - others)
    if any(not o for o in own):
        return None  # a sentence with no words of its own: not a condition apart
    met = [i for i, o in enumerate(own) if o & asked]
    if len(met) == 1:
        return None  # the question says which
    shared = set.intersection(*(_words(s) for s, _ in alike))
    said = tuple(_own_words(s, o, shared) for (s, _), o in zip(alike, own))
    if any(not x for x in said):
        return None
    return Needed(said, tuple(s for s, _ in alike))
