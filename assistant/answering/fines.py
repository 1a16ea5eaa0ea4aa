"""Fines that rise with each offense, from the quoted sentence: the fine of the user's nth offense or the
total of their n offenses ("a warning for a first offense, $25.00 for a second offense, and $50.00 for any
third or subsequent offense"). Any code, no table; only for a provision the question shares a word with
beyond fines and offenses.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from assistant.answering.formatting import fmt_money
from assistant.answering.reading import read_slots
from assistant.answering.worked import Worked, counts_in, stem_of
from assistant.retrieval.expansion import expand
from assistant.retrieval.lexical import stems

# fines that rise with each offense: "a warning for a first offense, a fine of ... ($25.00) for a second offense, and
# ... ($50.00) for any third or subsequent offense"; "$100.00 ... for a first offense and $200.00 ... for any subsequent"
_ORDINAL = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4,
            "5th": 5}
NTH_OFFENSE = re.compile(r"\bfor\s+(?:a|an|the|any|each|every)?\s*(?P<o>first|second|third|fourth|fifth|subsequent)"
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
    for m in NTH_OFFENSE.finditer(sentence):
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


def fine_by_offense(turn: str, sentence: str) -> Worked | None:
    """The fine of the user's nth offense, or the total of their n offenses, by the sentence's steps."""
    steps = _graduated(sentence)
    if steps is None:
        return None
    nth = {_ORDINAL[m.group("o").lower()] for m in _USERS_NTH.finditer(turn)}
    counts = [(n, w, written) for n, w, written in counts_in(turn) if stem_of(w) in _OFFENSE_WORDS]
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


# the question says which offense it is in other words ("again", "never been cited before"): left to the quotes
_SAYS_WHICH = re.compile(r"\bagain\b|\banother\b|\brepeat\w*|\bbefore\b|\bprevious\w*|\bprior\b|\bnever\b|"
                         r"\blast\s+(?:time|year|month|week)\b|\bonce\b|\btwice\b|\bhistory\b|\brecord\b|\bever\b",
                         re.I)


# a citation that happened ("got cited", "wrote us up", "for this one"), not a fine asked of a plan ("if we get caught")
_INCIDENT = re.compile(r"\b(?:got|was|were|been|just|already)\s+(?:cited|ticketed|fined|written\s+up|caught|tagged)\b|"
                       r"\bwrote\s+(?:us|me|him|her|them|it)\s+up\b|\b(?:this|that)\s+(?:one|time|ticket|citation)\b|"
                       r"\b(?:a|the|our|my)\s+(?:ticket|citation)\b", re.I)
# "In addition to the fines stated above, any tour operator ... shall be subject to a fine of five hundred ($500.00)
# dollars for each offense": a further fine beside the steps, which one person's fine alone does not settle
ANOTHER_FINE = re.compile(r"\bin\s+addition\s+to\s+(?:the|any|such)\s+(?:fines?|penalt(?:y|ies))\b", re.I)


def offense_needed(turn: str, sentence: str) -> tuple[str, ...] | None:
    """The sentence's fines by offense, when the question asks its own fine without saying which offense it is
    ("How much is the company going to be fined for this one?" against "$50.00 for a first offense and $100.00 for
    a second or subsequent offense"); None when it says (an ordinal, a count, "again") or the sentence has no steps."""
    steps = _graduated(sentence)
    if steps is None or _USERS_NTH.search(turn) or _SAYS_WHICH.search(turn) or not _INCIDENT.search(turn):
        return None
    if any(stem_of(w) in _OFFENSE_WORDS for _, w, _ in counts_in(turn)):
        return None
    return tuple(words for _, _, _, words in steps)


# words of fines and of who gives them: a sentence of fines by offense is the question's only if more is shared
_FINE_GENERIC = stems("fine fined fines penalty penalties offense offenses violation violations violate violated ticket "
                      "tickets ticketed citation cited first second third fourth fifth subsequent city town village "
                      "person people what how much is are the a an of for our my we i it this that one again time times "
                      "shall be subject any each warning dollars cents")


def about_the_same(turn: str, passage_text: str) -> bool:
    """Does the question share a word beyond fines and offenses with the provision (its section's text)?
    Fines by offense for shopping carts are not a Segway tour's."""
    return any(len(w) > 2 for w in (stems(expand(turn)) - _FINE_GENERIC) & stems(passage_text))
