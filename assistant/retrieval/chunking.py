"""Structure-aware chunks: one passage (a subsection or paragraph) per chunk, never
across a section boundary; a passage longer than the model's window is split on
sentences, each piece keeping the passage's citation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import ConfigDict

from assistant.retrieval.embeddings import MAX_TOKENS, count_tokens
from assistant.types import Passage

CHUNKER_VERSION = "structure-v5-sentences-headings-abbreviations-list-items"
TOKEN_BUDGET = MAX_TOKENS - 6  # headroom under the 256 word-piece window
MIN_PIECE_TOKENS = 32  # the least budget of a piece, whatever the length of its context

# (and before an item of a numbered list on its own line: "...the following streets:\n\n1. Washington Street ...\n\n2.
# Franklin Street ...", where the item's number is no end of the sentence before it)
_SENTENCE_END = re.compile(r"(?<=[.;:])\s*\n\s*(?=\d{1,3}\.\s)|(?<=[.;:])\s+(?=[A-Z(\"“])")
_LIST_MARK = re.compile(r"\s*\d{1,3}\.\s*")
# ("an A.M. Best rating", "U.S. Route 66", "P.O. Box": capitals with periods run on)
_ABBREV = re.compile(r"\b(Wis|Stats|No|Ch|Sec|St|Ave|Dr|Mr|Mrs|ft|in|Am|Cr|rec|Rep|Recr|sub|subs|subd|par|pars)\.$|\b(?:[A-Z]\.){2,}$")


@dataclass(frozen=True, slots=True, kw_only=True)
class Chunk:
    """A frozen slotted dataclass, not a pydantic model: a serving process holds one per
    passage, sentence and heading of every code (~330k at 31 codes), and a model's own
    ``__dict__`` and fields-set cost ~1 KiB more each (2.2 vs 1.2 KiB measured). Read and
    written by pydantic's TypeAdapter like a model (same JSON; unknown fields refused)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    id: str
    passage_id: str
    municipality: str
    part: int
    kind: str = "passage"  # "passage" (the whole subsection, or a window of it) or "sentence"
    text: str  # the passage's words (part of them when split), or one sentence
    context: str  # title and headings, prepended for embedding and lexical search

    @property
    def embed_text(self) -> str:
        return f"{self.context}\n{self.text}" if self.context else self.text


def context_of(p: Passage, defined: str = "") -> str:
    """Title and headings; and ``defined``: the code's own definition of an abbreviation the
    passage uses (``abbreviations_used``)."""
    parts = [p.title, *p.heading_path]
    if p.heading and p.heading not in parts:
        parts.append(p.heading)
    return " — ".join(x for x in [*parts, defined] if x)


# ---------------------------------------------------------------- abbreviations the code defines

_ABBR_IN_PARENS = re.compile(r"\(([A-Z][A-Z0-9]{1,7})\)")
_SKIP_IN_LONG_FORM = {"of", "and", "the", "for", "at", "on", "in", "to", "or", "a", "an"}
ABBREVIATION_WORDS = 80  # the most words of a definition carried to the passages using it


def _long_form_matches(before: str, abbr: str) -> bool:
    """'electrical personal assistive mobility device' before '(EPAMD)': the abbreviation's
    letters are the initials of the words just before it, small words skipped (the
    Schwartz–Hearst reading of 'long form (SHORT FORM)', initials only)."""
    words = [w for w in re.findall(r"[A-Za-z][\w'’-]*", before)[-(len(abbr) + 4):]
             if w.lower() not in _SKIP_IN_LONG_FORM]
    letters = [ch for ch in abbr if ch.isalpha()]
    return len(words) >= len(letters) and all(
        w[0].lower() == ch.lower() for w, ch in zip(words[-len(letters):], letters))


def abbreviation_definitions(passages: list[Passage]) -> dict[tuple[str, str], dict[str, tuple[str, str]]]:
    """(municipality, chapter) -> {abbreviation: (id of the passage defining it, its definition)}:
    where the text writes a long form with its abbreviation in parentheses, the sentences of
    that passage naming the abbreviation (at most ABBREVIATION_WORDS words)."""
    out: dict[tuple[str, str], dict[str, tuple[str, str]]] = {}
    for p in passages:
        for m in _ABBR_IN_PARENS.finditer(p.text):
            abbr = m.group(1)
            if abbr in out.get((p.municipality, p.chapter), {}) or not _long_form_matches(p.text[: m.start()], abbr):
                continue
            scope = out.setdefault((p.municipality, p.chapter), {})
            named = re.compile(rf"\b{re.escape(abbr)}s?\b")
            words = " ".join(s for s in sentences(p.text) if named.search(s)).split()
            scope[abbr] = (p.id, " ".join(words[:ABBREVIATION_WORDS]))
    return out


def abbreviations_used(p: Passage, defined: dict[tuple[str, str], dict[str, tuple[str, str]]]) -> str:
    """The definitions of the abbreviations a passage uses (not the one it defines itself):
    'The use of EPAMDs are hereby prohibited' is indexed with what the code says an EPAMD is."""
    scope = defined.get((p.municipality, p.chapter)) or {}
    out = [f"{abbr}: {text}" for abbr, (pid, text) in sorted(scope.items())
           if pid != p.id and re.search(rf"\b{re.escape(abbr)}s?\b", p.text)]
    return " ".join(out)


def sentences(text: str) -> list[str]:
    pieces, buf = [], ""
    for part in _SENTENCE_END.split(text):
        buf = f"{buf} {part}".strip() if buf else part
        if _ABBREV.search(buf) or _LIST_MARK.fullmatch(buf):
            continue  # ("1." alone: the number of the list item it begins)
        pieces.append(buf)
        buf = ""
    if buf:
        pieces.append(buf)
    return pieces


def split_long(text: str, budget: int) -> tuple[list[str], str]:
    """Cut a text longer than ``budget`` word pieces (one "sentence" of a table or a fee
    schedule can be a hundred thousand words) at spaces: the pieces, each cut in proportion
    to the words left, and the rest that fits. Each word is tokenized once (word pieces never
    cross a space, so a join of words counts the sum of its words'), where tokenizing the
    whole rest again for every piece took hours on a long appendix."""
    from assistant.retrieval.embeddings import tokenizer

    words = text.split(" ")
    counts = [len(e.ids) - 2 for e in tokenizer().encode_batch(words)]  # less [CLS] and [SEP]
    start, left, pieces = 0, sum(counts) + 2, []
    while left > budget and start < len(words):
        cut = max(1, (len(words) - start) * budget // left - 1)
        pieces.append(" ".join(words[start:start + cut]))
        left -= sum(counts[start:start + cut])
        start += cut
    return pieces, " ".join(words[start:])


def chunk_passage(p: Passage, defined: str = "") -> list[Chunk]:
    context = context_of(p, defined)
    # a heading path the reader got wrong can be longer than the window itself: the text
    # still gets pieces of a useful size (the model reads the start of context + piece)
    budget = max(MIN_PIECE_TOKENS, TOKEN_BUDGET - count_tokens(context) + 2)
    groups: list[str] = []
    if count_tokens(p.text) <= budget:
        groups = [p.text]
    else:
        current = ""
        for s in sentences(p.text):
            candidate = f"{current} {s}".strip()
            if current and count_tokens(candidate) > budget:
                groups.append(current)
                current = s
            else:
                current = candidate
            if count_tokens(current) > budget:  # one sentence longer than the window
                pieces, current = split_long(current, budget)
                groups += pieces
        if current:
            groups.append(current)
    return [
        Chunk(
            id=f"{p.id}#{i}", passage_id=p.id, municipality=p.municipality, part=i,
            text=g, context=context,
        )
        for i, g in enumerate(groups)
    ]


def sentence_chunks(p: Passage, defined: str = "") -> list[Chunk]:
    """One chunk per sentence (small-to-big retrieval: a sentence matches, its passage is
    returned), each with the passage's context."""
    context = context_of(p, defined)
    return [
        Chunk(id=f"{p.id}#s{j}", passage_id=p.id, municipality=p.municipality, part=j, kind="sentence",
              text=s, context=context)
        for j, s in enumerate(sentences(p.text))
    ]


def heading_chunk(p: Passage) -> Chunk | None:
    """The passage's headings alone ("UNIFORM ADDRESS SYSTEM — VIOLATION."): a question
    about the topic matches them even when the text words it differently."""
    if not p.heading:
        return None
    return Chunk(id=f"{p.id}#h", passage_id=p.id, municipality=p.municipality, part=0, kind="heading",
                 text=p.heading, context=" — ".join(x for x in [p.title, *p.heading_path] if x))


def chunk_passages(passages: list[Passage], with_sentences: bool = False) -> list[Chunk]:
    passages = [p for p in passages if not p.reserved]  # "Reserved." is shown, never searched
    abbreviations = abbreviation_definitions(passages)
    defined = {p.id: abbreviations_used(p, abbreviations) for p in passages} if abbreviations else {}
    out = [c for p in passages for c in chunk_passage(p, defined.get(p.id, ""))]
    if with_sentences:
        out += [c for p in passages if len(sentences(p.text)) > 1
                for c in sentence_chunks(p, defined.get(p.id, ""))]
        out += [c for p in passages if (c := heading_chunk(p))]
    return out
