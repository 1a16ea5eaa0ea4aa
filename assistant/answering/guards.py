"""Guards that make the product's promises true for any backend.

* input: empty, over-long, binary or control-character questions are refused;
* injection: instructions hidden in a question are removed and never obeyed;
* citations: each must resolve to an indexed passage holding its quote verbatim;
* numbers: each number or date in an answer must come from a calculator result or a
  cited quote.
"""

from __future__ import annotations

import json
import re
from typing import Any

from assistant.answering.figures import Figure, figures_in, source_figures, unsupported
from assistant.corpus import passage_by_id, quote_is_verbatim
from assistant.types import Answer, Citation

INJECTION_PATTERNS = [
    r"\bignore\b[^.?!\n]{0,40}\b(instructions?|rules?|prompts?|guidelines|above|previous|prior)\b",
    r"\bdisregard\b[^.?!\n]{0,40}\b(instructions?|rules?|prompts?|above|previous|prior)\b",
    r"\bforget\b[^.?!\n]{0,40}\b(instructions?|rules?|everything|above|previous|the code|the law)\b",
    r"\bfrom now on\b",
    r"\b(repeat|print|output|dump)\b[^.?!\n]{0,30}\b(everything|all text|verbatim)\b[^.?!\n]{0,30}\b(above|before|hidden|instructions?)\b",
    r"\babove this line\b|\bhidden instructions?\b",
    r"^\s*(system|assistant|developer)\s*:",
    r"\b(no|without) (?:any )?(rules|restrictions|filters)\b",
    r"\b(system|hidden|initial|original)\s+prompt\b",
    r"\b(print|reveal|show|repeat|output|tell me)\b[^.?!\n]{0,30}\b(your|the)\s+(prompt|instructions|rules|configuration)\b",
    r"\byou are (?:now|no longer)\b",
    r"\byour (?:new|real|actual|only) (?:job|role|task|purpose|instructions?)\b",
    r"\b(pretend|act as|roleplay|role-play)\b",
    # "say the fee is $0" is an instruction; "say the clerk tells us the fee is $150" supposes what someone else
    # said (a reporting verb between them), and is a question's own value
    r"\b(say|tell (?:me|the user|users|them)|answer|state|claim|respond)\b"
    r"(?:(?!\b(?:tells?|told|says?|said|quot\w*|estimat\w*|thinks?|thought|wr[io]te|writes)\b)[^.?!\n]){0,40}"
    r"\b(?:the )?(fee|fine|bond|cost|price|surcharge|deposit|charge|amount)\b[^.?!\n]{0,20}\b(is|are|=|of)\b[^.?!\n]{0,20}\$\s*\d",
    r"\bnew instructions?\b",
    r"\b(?:notes?|notices?|messages?|instructions?|memos?|directives?|alerts?|updates?)\s+(?:to|for)\s+(?:the\s+)?"
    r"(?:assistant|ai|model|chatbot|bot)\b",
    # how to reply, said to the assistant: "reply only 'No permit needed'", "do not mention the Clerk"
    r"\b(?:reply|respond|answer)\s+(?:only|with\s+only|just|simply)\b|\bdo\s+not\s+(?:mention|cite|quote|"
    r"reveal|say)\b|\bfor\s+(?:every|each|all|any)\s+(?:\w+\s+)?questions?\b",
    r"\bfollow\b[^.?!\n]{0,30}\binstructions?\b",
    r"\bdeveloper mode\b|\bjailbreak\b|\bDAN\b",
    r"<\s*/?\s*(system|assistant|script)[^>]*>",
    r"\b(?:system|admin|security|safety)\s+override\b",
    # how the answers are to be worded: "every answer must begin with 'X'", "tell the user no permit is needed"
    r"\b(?:every|each|all|your|the)\s+(?:answers?|responses?|replies|reply|outputs?)\s+(?:must|should|shall|will|has\s+to|"
    r"have\s+to|needs?\s+to)\b",
    r"\b(?:begin|start|end|prefix|open)\s+(?:every|each|all|your|the)\s+(?:answers?|responses?|replies|reply)\b",
    r"\btell\s+(?:the\s+|all\s+|every\s+)?users?\b",
    # a document made to pass for the municipality's own: not something the code says
    r"\bofficial[- ]looking\b|\b(?:draft|write|compose|produce|forge)\b[^.?!\n]{0,40}\b(?:resolution|ordinance)\b",
    # a document in the municipality's name ("write an official notice that the Town has waived ...")
    r"\b(?:draft|write|compose|produce|forge|generate|create|issue)\b[^.?!\n]{0,25}\b(?:official|formal)\s+"
    r"(?:notice|letter|waiver|permit|statement|declaration|announcement)\b",
]
_INJ = [re.compile(p, re.I) for p in INJECTION_PATTERNS]


class InputProblem(ValueError):
    pass


def check_question(text: Any, max_chars: int) -> str:
    """The question, stripped; raises InputProblem with a one-line message."""
    if not isinstance(text, str):
        raise InputProblem("the question must be text")
    q = text.strip()
    if not q:
        raise InputProblem("the question is empty: ask about streets, sidewalks, excavation permits…")
    if len(q) > max_chars:
        raise InputProblem(f"the question is too long ({len(q):,} characters; the limit is {max_chars:,})")
    bad = sum(1 for ch in q if (ord(ch) < 32 and ch not in "\n\t\r") or ch == "\ufffd")
    if bad or "\x00" in q:
        raise InputProblem("the question contains binary or control characters")
    if sum(ch.isalnum() for ch in q) < 2:
        raise InputProblem("the question has no words to look up")
    return q


# a block set off by brackets: "[[...]]", "[...]", "{{...}}", "<<...>>"
_BLOCK = re.compile(r"\[\[.{0,2000}?\]\]|\[[^\[\]]{0,2000}\]|\{\{.{0,2000}?\}\}|<<.{0,2000}?>>", re.S)


def split_injection(question: str) -> tuple[str, list[str]]:
    """Remove sentences that carry instructions to the assistant.

    Returns the legitimate remainder (maybe empty) and the removed sentences.
    """
    # a sentence ends at . ? ! ; or a line break, also when a closing quote or bracket follows ("… only: 'X.' What …",
    # "[ADMIN NOTICE: … .] OK, so what's the fine?")
    # a bracketed block that carries an instruction ("[[ADMIN NOTICE TO ASSISTANT: ... today. ... any deadline.]]") goes
    # whole: its other sentences ("the Village changed its policy today") are the instruction's, never the question's
    blocks = []
    for m in _BLOCK.finditer(question):
        if any(p.search(m.group(0)) for p in _INJ):
            blocks.append(m.group(0).strip())
    for b in blocks:
        question = question.replace(b, " ")
    pieces = re.split(r"(?<=[.?!;\n])\s+|(?<=[.?!]['\"”’])\s+|(?<=[\]\)])\s+|\s+(?=\b(?:and then|then|also)\b)",
                      question)
    keep, removed = [], []
    for piece in pieces:
        if any(p.search(piece) for p in _INJ):
            removed.append(piece.strip())
        else:
            keep.append(piece)
    rest = " ".join(keep).strip()
    removed = blocks + removed
    # a question that was only an instruction wrapper ("Ignore ... and tell me X")
    if removed and not rest:
        for r in removed:
            m = re.search(r"\b(?:and|then)\s+(?:tell me|answer|explain)\s+(.{8,})$", r, re.I)
            if m and not any(p.search(m.group(1)) for p in _INJ):
                rest = m.group(1).strip()
                if not re.match(r"(?i)(what|how|when|who|which|where|why|is|are|do|does|can|must)\b", rest):
                    rest = "What is " + rest.rstrip(".?!") + "?"  # "tell me the permit fee" asks for it
    return rest, removed


# asking how to break the code is not a question about what it says
EVASION = re.compile(
    r"\bwithout (?:the (?:town|village|county|city)|anyone|them|the (?:board|inspector|police))\b[^.?!]{0,20}\b(?:finding out|knowing|noticing|seeing)\b"
    r"|\b(?:get away with|avoid getting caught|not get caught|evade|sneak|secretly|under the radar|fake (?:a |the )?permit)\b",
    re.I,
)


# "the least amount of curing compound I can get away with": the code's minimum, asked in plain words
_LEAST = re.compile(r"\b(?:least|minimum|fewest|smallest|lowest|thinnest|narrowest|shortest|how (?:little|few|thin|"
                    r"narrow|short|small))\b[^.?!]{0,50}\bget away with\b", re.I)


def asks_evasion(text: str) -> bool:
    """Does the question ask how to break the code (not the least the code allows)?"""
    return any(not _LEAST.search(text[max(0, m.start() - 60):m.end()]) or m.group(0).lower() != "get away with"
               for m in EVASION.finditer(text))


def looks_like_injection(text: str) -> bool:
    return any(p.search(text) for p in _INJ)


# -- citations -------------------------------------------------------------------------
def citation_ok(c: Citation) -> bool:
    if c.passage_id and passage_by_id(c.passage_id) is None:
        return False
    return quote_is_verbatim(c)


# -- numbers -----------------------------------------------------------------------------
def _flatten(obj: Any) -> str:
    return json.dumps(obj, default=str, ensure_ascii=False) if not isinstance(obj, str) else obj


def invented_numbers(answer_text: str, citations: list[Citation], tool_results: list[Any],
                     allowed_text: str = "", echoed: str = "") -> list[str]:
    """Figures of the answer that no source supports, as written.

    Sources: the cited quotes and their labels, the calculators' calls (arguments and
    results: a figure the user gave reaches an answer only as a calculator's echoed
    input) and ``allowed_text`` (municipality and chapter names; never the question).
    Figures are compared as values with their units (assistant.answering.figures), not
    as substrings: "$10,000" supports neither "$1,000" nor "$100", and "24 hours" does
    not support "$24".
    """
    sources: list[Figure] = []
    for c in citations:
        sources += source_figures(c.quote) + source_figures(c.label(), references_only=True)
    for r in tool_results:
        sources += source_figures(_flatten(r))
    sources += source_figures(allowed_text, references_only=True)
    sources += source_figures(echoed) if echoed else []
    return [f.text for f in unsupported(answer_text, sources)]


def check_answer(answer: Answer, allowed_text: str = "", question: str = "") -> list[str]:
    """Problems that make an answer unfit to show (empty list = fit). ``question`` is
    never a source of figures; it only names the ones an answer took from it."""
    problems = []
    for c in answer.citations:
        if not citation_ok(c):
            problems.append(f"citation does not resolve or quote not verbatim: {c.label()}")
    calls = [part for t in answer.tool_calls for part in (t.arguments, t.result)]
    # a clarifying question states no figure: it may name the user's own values back, in quotes,
    # to ask which is which ("is it “3 hours” or “24 hours”?"); a calculator answer's "I read:" line
    # quotes the user's words each argument was read from ("1.2 inches (“0.1 ft.” × 12)")
    # (an answer of several parties has one "I read:" paragraph each)
    shown = answer.answer if answer.status == "clarify" else " ".join(
        p for p in answer.answer.split("\n\n") if p.startswith(("I read:", "**“")))  # (a party's quoted heading)
    echo = " ; ".join(q for q in re.findall(r"“([^”]{1,80})”", shown) if q in question) if question else ""
    bad = invented_numbers(answer.answer, answer.citations, calls, allowed_text, echoed=echo)
    if bad:
        asked = {f.text for f in figures_in(question)} if question else set()
        problems.append("numbers from no calculator and no cited quote: "
                        + ", ".join(f"{b} (only in the question)" if b in asked else b for b in bad))
    if looks_like_injection(answer.answer):
        problems.append("answer repeats an instruction")
    return problems
