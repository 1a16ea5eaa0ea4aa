"""Compose answers from retrieved passages: the sentences that answer, quoted verbatim
with their citations. Nothing here writes a number of its own."""

from __future__ import annotations

import math
import functools
import re

from assistant.settings import ranking
from assistant.answering.guards import looks_like_injection
from assistant.corpus import known_problems_of, municipality_by_id
from assistant.retrieval.chunking import sentences
from assistant.retrieval.index import SearchHit
from assistant.retrieval.lexical import stem_sequence, stems
from assistant.types import Citation, Passage

from assistant.answering.status_phrases import who_sets  # noqa: E402,F401  (kept importable from here)


def place_stems(extra: str = "") -> frozenset[str]:
    """Words that name a place, not a topic: every loaded municipality's names, ids, aliases,
    county and state (data), and the kinds of municipality."""
    from assistant.corpus import municipalities

    words = " ".join(" ".join([m.name, m.id.replace("-", " "), *m.aliases, m.county, m.state])
                     for m in municipalities())
    return _place_stems(f"{words} village town city county code {extra}")


@functools.lru_cache(maxsize=64)
def _place_stems(text: str) -> frozenset[str]:
    return frozenset(stems(text))


def _bigrams(text: str) -> set[tuple[str, str]]:
    seq = stem_sequence(text)
    return set(zip(seq, seq[1:]))


def _score(sentence: str, q_stems: set[str], q_bigrams: set[tuple[str, str]] = frozenset()) -> float:
    s = stems(sentence)
    if not s:
        return 0.0
    phrase = len(_bigrams(sentence) & q_bigrams) if q_bigrams else 0
    return (len(s & q_stems) + 1.5 * phrase) / math.sqrt(len(s) + 4)


_ROAD_KIND = re.compile(r"\b(county|state)\s+(?:hwy|highway|trunk|road|route)s?\b", re.I)


def best_sentences(question: str, hits: list[SearchHit], max_sentences: int = 2,
                   must: re.Pattern | None = None,
                   similarity: dict[tuple[str, str], float] | None = None,
                   depth: int = 4, asking: str | None = None,
                   ranks: list[int] | None = None) -> list[tuple[Passage, str, float]]:
    """The sentences of the top passages that best answer the question: words shared
    with the (expanded) question, the passage's rank, and — when given — the cosine
    similarity of each sentence to the question. ``asking``: the (expanded) sentences that ask, whose words weigh
    again (what is asked matters more than the story told around it). ``ranks``: the rank each hit
    weighs at, where it is not its place in the list (a passage of the best section added to those found)."""
    similarity = similarity or {}
    # (a kind of road is no place: "we live on a county hwy, not a town road" asks about county highways)
    roads = stems(" ".join(m.group(1) for m in _ROAD_KIND.finditer(question)
                           if not re.search(r"\b(?:not|no|never)\s+(?:on\s+)?(?:a|an|the)?\s*$", question[:m.start()], re.I)))
    q_stems = stems(question) - (place_stems() - roads)
    a_stems = (stems(asking) - place_stems()) & q_stems if asking else set()
    q_bigrams = _bigrams(question)
    top_dense = max([h.dense_score or 0.0 for h in hits[:4]] + [1e-6])
    scored: list[tuple[float, int, int, Passage, str]] = []
    for place, h in enumerate(hits[:depth]):
        rank = ranks[place] if ranks is not None else place
        weight = ranking().rank_share * (1.0, 0.8, 0.65, 0.5, 0.4, 0.3, 0.25, 0.2)[min(rank, 7)] + (1 - ranking().rank_share) * (h.dense_score or 0.0) / top_dense
        context = stems(" ".join([h.passage.title, *h.passage.heading_path, h.passage.heading or ""]))
        ctx_bonus = 0.5 * len(context & q_stems) / 3
        for j, s in enumerate(sentences(h.passage.text)):
            if must is not None and not must.search(s):
                continue
            if not quotable(h.passage, s):
                continue
            sim = similarity.get((h.passage.id, s))
            if sim is None and len(sentences(h.passage.text)) == 1:
                sim = similarity.get((h.passage.id, h.passage.text))
            asked = ranking().ask_weight * _score(s, a_stems) if a_stems else 0.0
            sc = weight * (_score(s, q_stems, q_bigrams) + asked + ctx_bonus + 0.05
                           + ranking().sim_weight * max((sim or 0.0) - 0.15, 0.0))
            scored.append((sc, rank, j, h.passage, s))
    if not scored:
        return []
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    top = scored[0]
    chosen = [top]
    for cand in scored[1:]:
        if len(chosen) >= max_sentences:
            break
        same_passage = cand[3].id == top[3].id
        if (same_passage and cand[0] >= ranking().same_passage * top[0]) or (not same_passage and cand[0] >= ranking().other_passage * top[0]):
            chosen.append(cand)
    chosen.sort(key=lambda t: (t[1], t[2]))
    return [(c[3], c[4], c[0]) for c in chosen]


MAX_LIST_ITEMS = 6  # items of a list quoted after the sentence that introduces it
_LABEL = re.compile(r"\([^)]*\)|\d+\.|[A-Z]")  # one level of a subsection path: (2), (b), 1., C


# a sentence that introduces the items below it: "...if the following requirements are met:",
# "...subject to the following."
INTRODUCES_LIST = re.compile(r"(?::|\b(?:the following|as follows)\s*[.:]?)\s*$", re.I)


def list_items(passage: Passage, sentence: str, passages: list[Passage]) -> list[Passage]:
    """The items a sentence ending in a colon introduces ("...if the following requirements
    are met:"): the passages one level below it in the same section, in order."""
    if not INTRODUCES_LIST.search(sentence) or not passage.subsection:
        return []
    if sentences(passage.text)[-1] != sentence:
        return []  # the colon is not where the passage ends: its list is inside the text
    parent = passage.subsection
    return [q for q in passages
            if (q.municipality, q.section, q.title) == (passage.municipality, passage.section, passage.title)
            and q.subsection and q.subsection.startswith(parent)
            and len(_LABEL.findall(q.subsection[len(parent):])) == 1][:MAX_LIST_ITEMS]


def quotable(passage: Passage, sentence: str) -> bool:
    """May the sentence be quoted as an answer? Not an instruction planted in a document (never quoted as the
    law), not a run-in heading alone (it answers nothing)."""
    if re.fullmatch(r"\s*(?:[\w'’-]+\s*){1,3}:\s*", sentence):
        return False  # "Fees :": a label of the items below it, which answer (it alone answers nothing)
    if re.search(r"(?:\.\s?){4,}\W*$", sentence) and not re.search(r"\d", sentence):
        return False  # "Street opening, per week......": a table row cut from its figures
    return not looks_like_injection(sentence) and sentence.rstrip(".") != (passage.heading or "").rstrip(".")


def continuation(passage: Passage, sentence: str) -> str | None:
    """What a sentence that introduces something ("...the following minimum coverages:") runs on
    to inside its own passage: the next sentence, or None."""
    if not INTRODUCES_LIST.search(sentence):
        return None
    parts = sentences(passage.text)
    k = parts.index(sentence) if sentence in parts else -1
    return parts[k + 1] if 0 <= k < len(parts) - 1 else None


def quote_block(passage: Passage, sentence: str) -> tuple[str, Citation]:
    c = passage.citation(quote=sentence)
    return f"> “{sentence}”\n> — {c.label()}", c


def muni_name(mid: str | None) -> str:
    m = municipality_by_id(mid) if mid else None
    return m.name if m else (mid or "")


def text_notes(passages: list[Passage]) -> list[str]:
    """Tell the reader where a cited passage's label or text is a reconstruction, and every
    known problem of the text (the manifest's ``known_problems``) that the passage touches."""
    notes = []
    for p in passages:
        notes += known_problems_of(p)
        if p.subsection_reconstructed and p.subsection:
            notes.append(
                f"The subsection label {p.subsection} of {p.title} is reconstructed: the text lost its letters "
                "and numbers, and the label follows the code's own cross-references where they name it."
            )
        if p.untitled:
            notes.append(
                f"“{p.title}” has no section heading in the text; it is cited by its content, not by a number."
            )
    return list(dict.fromkeys(notes))
