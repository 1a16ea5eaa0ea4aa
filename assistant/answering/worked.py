"""One piece of arithmetic a quoted sentence asks for (``Worked``), and the reading of the user's counts
it is done with: shared by the rates, the tiers of a fee, the fines by offense and the slopes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

from assistant.answering.formatting import fmt_money
from assistant.answering.reading import NUMBER, number_value
from assistant.retrieval.lexical import stems


@dataclass(frozen=True)
class Worked:
    """One product, share or sum, with everything it was read from."""

    kind: str  # "per_unit" | "percent" | "difference" | "tiered" | "graduated" | "rise"
    rate_words: str  # verbatim from the sentence
    read_words: str  # verbatim from the question
    result: Decimal
    steps: list[str] = field(default_factory=list)
    maximum: bool = False  # the rate is a ceiling ("not more than $500"): the result is the most it can be
    sentence: str = ""
    unit: str | None = None  # "in" / "ft" for a rise over a run; None: money
    others: tuple[str, ...] = ()  # further sentences a figure of it is read from (quoted too)

    def shown(self) -> str:
        from assistant.answering.phrasing import quantity

        if self.kind == "factor":  # "2,085 pounds per million gallons of water": the unit the code's sentence names
            return f"{format(self.result.normalize(), ',f')} {self.unit}"
        return fmt_money(self.result) if self.unit is None else quantity(self.result, self.unit)

    def call(self) -> dict:
        return {"name": "rate_calculation",
                "arguments": {"rate": self.rate_words, "read": self.read_words, "kind": self.kind},
                "result": {"steps": self.steps, "result": self.shown(), "maximum": self.maximum,
                           "quote": self.sentence}}


def _stem(word: str) -> str:
    return next(iter(stems(word)), word.lower())


def stem_of(word: str) -> str:
    return next(iter(stems(word)), word.lower())


def counts_in(text: str) -> list[tuple[Decimal, str, str]]:
    """(number, the counted word, the words as written) for "three separate days", "5 carts", "7 newsracks"."""
    out = []
    rx = re.compile(rf"(?P<n>{NUMBER.pattern})\s+(?:(?:separate|different|more|other|of\s+(?:their|our|the|its|my|your|his|her|these|those|an?)|"
                    r"[a-z]+-[a-z]+|[a-z]+['’]s)\s+){0,3}(?P<w>[a-z]+)\b(?:\s+(?:(?P<mid>[a-z]{3,})\s+)?(?P<head>[a-z]{3,}[^s\W]s)\b)?",
                    re.I)
    for m in rx.finditer(text):
        n = number_value(m)
        if n is None or n != int(n) or n <= 0:
            continue
        if _all_of_one(text, m.start(), n):
            continue  # "every one of those days": all of them, no count of one
        # "5 shopping carts", "3 dump trucks": a plural after a word that is not one names what is counted
        head = m.group("head")
        if head and m.group("mid") and (_UNIT_WORD.fullmatch(m.group("w")) or _UNIT_WORD.fullmatch(m.group("mid"))
                                        or m.group("mid").lower() in _NOT_HEADS or re.search(r"[^s]s$", m.group("mid"))):
            head = None  # ("5 foot wide walks": a measure, no count of walks; "seven small cell nodes": the nodes)
        if re.fullmatch(r"an?", m.group("num").strip(), re.I) and re.search(r"[^s]s$", head or m.group("w"), re.I) \
                and re.search(r"['’]s\s", m.group(0)):
            continue  # "a supermarket's shopping carts": the article is the owner's, it counts none of the carts
        if head and not re.search(r"[^s]s$", m.group("w"), re.I) and head.lower() not in _NOT_HEADS:
            out.append((n, head, m.group(0)))
        else:
            out.append((n, m.group("w"), m.group(0)[:m.end("w") - m.start()]))
    return out


# words of measure a number is said in, never adjectives of a thing counted after them
_UNIT_WORD = re.compile(r"(?:feet|foot|ft|inch|inches|in|yards?|miles?|tons?|pounds?|lbs?|hours?|days?|weeks?|months?|years?|"
                        r"minutes?|percent|dollars?|square|sq|cubic|gallons?|and|or|to|of|for|per|a|an|the)", re.I)


# plurals that are not what a number counts ("5 carts was", "two trucks this")
_NOT_HEADS = {"was", "has", "this", "is", "thus", "yes", "does", "goes", "always", "perhaps", "plus", "less", "unless",
              "across", "process", "address", "access", "business", "gas", "bus", "its", "us", "as", "his", "hers",
              "ours", "yours", "theirs", "towards", "besides", "afterwards", "sometimes"}


# "the city picked up 5 of ours", "3 of them": a count of the things the question is about, named by a pronoun
_PRONOUN_COUNT = re.compile(rf"(?P<n>{NUMBER.pattern})\s+of\s+(?:ours|theirs|mine|yours|them|those|these|his|hers)\b", re.I)


def pronoun_counts(turn: str) -> list[tuple[Decimal, str]]:
    out = []
    for m in _PRONOUN_COUNT.finditer(turn):
        n = number_value(m)
        if n is not None and n == int(n) and n > 0 and not _all_of_one(turn, m.start(), n):
            out.append((n, m.group(0)))
    return out


def _all_of_one(text: str, at: int, n: Decimal) -> bool:
    """"every one of those days", "each one of them": all of them, no count of one."""
    return n == 1 and re.search(r"\b(?:every|each|any|no|not)\s*$", text[:at], re.I) is not None
