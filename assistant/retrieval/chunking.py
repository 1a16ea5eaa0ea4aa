"""Structure-aware chunks: one passage (a subsection or paragraph) per chunk, never
across a section boundary; a passage longer than the model's window is split on
sentences, each piece keeping the passage's citation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import ConfigDict

from assistant.retrieval.embeddings import MAX_TOKENS, count_tokens
from assistant.types import Passage

CHUNKER_VERSION = "structure-v3-sentences-headings"
TOKEN_BUDGET = MAX_TOKENS - 6  # headroom under the 256 word-piece window
MIN_PIECE_TOKENS = 32  # the least budget of a piece, whatever the length of its context

_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(\"“])")
_ABBREV = re.compile(r"\b(Wis|Stats|No|Ch|Sec|St|Ave|Dr|Mr|Mrs|ft|in|Am|Cr|rec|Rep|Recr)\.$")


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


def context_of(p: Passage) -> str:
    parts = [p.title, *p.heading_path]
    if p.heading and p.heading not in parts:
        parts.append(p.heading)
    return " — ".join(x for x in parts if x)


def sentences(text: str) -> list[str]:
    pieces, buf = [], ""
    for part in _SENTENCE_END.split(text):
        buf = f"{buf} {part}".strip() if buf else part
        if _ABBREV.search(buf):
            continue
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


def chunk_passage(p: Passage) -> list[Chunk]:
    context = context_of(p)
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


def sentence_chunks(p: Passage) -> list[Chunk]:
    """One chunk per sentence (small-to-big retrieval: a sentence matches, its passage is
    returned), each with the passage's context."""
    context = context_of(p)
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
    out = [c for p in passages for c in chunk_passage(p)]
    if with_sentences:
        out += [c for p in passages if len(sentences(p.text)) > 1 for c in sentence_chunks(p)]
        out += [c for p in passages if (c := heading_chunk(p))]
    return out
