"""One amount of a sentence that names several, each for its own condition, chosen by the user's words:
"The deposit shall be in the sum of $25.00 if no pavement is involved or $75.00 if the excavation is in a
paved area" and "a cut in the paved street" ($75.00) or "a gravel alley, no paving anywhere" ($25.00). Any
code, no table; a condition counts only when the question says it the same way, negated or not ("no paving",
"unpaved" against "no pavement"), and exactly one condition may be met.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.answering.reading import Slot, read_slots
from assistant.retrieval.lexical import stems

# "$25.00 if no pavement is involved", "$75.00 when the excavation is in a paved area"
_IF = re.compile(r"\s*(?:\)\s*)?(?:dollars\s+)?(?:if|when|where|in\s+case)\s+(?P<cond>[^;$]{3,90}?)(?=\s*(?:,?\s+or\s+|;|,\s+and\s+|\s+and\s+(?:shall|must|will|is|are)\b|\.\s|\.$|$))",
                 re.I)
_NEGATION = re.compile(r"\b(?:no|not|without|non|none|never)\b|\bun(?=[a-z]{3,})", re.I)
_GENERIC = stems("the a an is are be been being involved such said any this that which excavation work area located "
                 "there it its in on of for to by with")


@dataclass(frozen=True)
class Chosen:
    amount: Slot
    condition: str  # the sentence's words ("no pavement is involved")
    said: str  # the question's words that meet it ("no paving")


def _keys(words: str) -> set[str]:
    return {w for w in stems(re.sub(r"\bun(?=[a-z]{3,})", "", words)) - _GENERIC if len(w) > 2}


# the kinds of a thing a condition names by its general word ("a paved area": a cut "in the asphalt", "blacktop")
_KINDS_OF = {"pave": ("asphalt", "blacktop", "bitumin")}


def _same(a: str, b: str) -> bool:
    """One word in two forms: a stem the other's start ("pave" / "pavement"); or the user's word a kind of the code's
    ("asphalt" of "a paved area")."""
    short, long_ = sorted((a, b), key=len)
    if long_.startswith(short) and len(short) >= 4:
        return True
    return any(a.startswith(general) and b.startswith(kinds) for general, kinds in _KINDS_OF.items())


def _mentions(turn: str, key: str) -> list[tuple[bool, str]]:
    """Each mention of a stem in the question, with whether it is negated ("no paving", "unpaved")."""
    out = []
    for m in re.finditer(r"[A-Za-z][A-Za-z'-]*", turn):
        word = m.group(0)
        bare = re.sub(r"^un(?=[a-z]{3,})", "", word, flags=re.I)
        if not any(_same(key, w) for w in stems(bare)):
            continue
        before = " ".join(re.findall(r"[A-Za-z']+", turn[max(0, m.start() - 25):m.start()])[-3:])
        negated = bare != word or bool(re.search(r"\b(?:no|not|without|non|never|isn't|aren't)\b", before, re.I))
        lead = re.findall(r"[A-Za-z(']+\s*$|[A-Za-z(']+\s+[A-Za-z(']+\s*$", turn[max(0, m.start() - 25):m.start()])
        out.append((negated, ((lead[0] if lead else "") + word).replace("(", "")))
    return out


def amount_by_condition(turn: str, sentence: str) -> Chosen | None:
    """The sentence's one amount whose condition the question meets; None when the sentence names fewer
    than two amounts each with an "if" of its own, or the question meets none or several."""
    money = [x for x in read_slots(sentence) if x.kind == "money" and x.unit == "USD"]
    options = []
    for x in money:
        m = _IF.match(sentence, x.span.end)
        if m:
            options.append((x, m.group("cond").strip()))
    if len(options) < 2 or len({x.number for x, _ in options}) != len(options):
        return None
    met = []
    for x, cond in options:
        negated = bool(_NEGATION.search(cond))
        keys = _keys(cond)
        said = [w for k in keys for neg, w in _mentions(turn, k) if neg == negated]
        contrary = [w for k in keys for neg, w in _mentions(turn, k) if neg != negated]
        if said and not contrary:
            met.append(Chosen(x, cond, said[0]))
    return met[0] if len(met) == 1 else None
