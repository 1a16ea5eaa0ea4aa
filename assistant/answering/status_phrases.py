"""The words that decide an answer's status, read from data (answering/data/status_phrases.yaml):
where the code leaves a figure to someone else (and who), and the topics a streets chapter
does not cover, applied to a municipality whose manifest entry lists none of its own."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import yaml

DATA_FILE = Path(__file__).resolve().parent / "data" / "status_phrases.yaml"


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    return yaml.safe_load(DATA_FILE.read_text(encoding="utf-8")) or {}


@functools.lru_cache(maxsize=1)
def deferral() -> re.Pattern:
    """Any phrase by which the code leaves a figure to someone or somewhere else."""
    return re.compile("|".join(f"(?:{p})" for p in _data().get("deferral") or []), re.I)


@functools.lru_cache(maxsize=1)
def _left_to_others() -> tuple[tuple[re.Pattern, str | None], ...]:
    return tuple((re.compile(r["pattern"], re.I), r.get("who")) for r in _data().get("left_to_others") or [])


def who_sets(text: str) -> str | None:
    """Who the text leaves the figure to ("the Village Board", "the city council"), or None."""
    for pat, who in _left_to_others():
        m = pat.search(text)
        if not m:
            continue
        if who:
            return who
        if "who" in pat.groupindex and m.group("who"):
            return re.sub(r"\s+", " ", m.group("who")).strip()
    return None


def _mentions(pattern: str, text: str) -> bool:
    return re.search(rf"\b(?:{pattern})\b", text, re.I) is not None


@functools.lru_cache(maxsize=64)
def _code_text(mid: str, doc_key: int) -> str:
    from assistant.corpus import document

    doc = document(mid)
    return "\n".join([*(s.title for s in doc.sections), *(p.text for p in doc.passages)])


def code_mentions(mid: str, phrase: str) -> bool:
    """Whether a municipality's own text names ``phrase`` (a place, a body): "the Village of
    Hartland" in a Delafield question about the sewer agreement is the code's own subject."""
    from assistant.corpus import document

    try:
        doc = document(mid)
    except Exception:  # a text that does not parse is reported elsewhere
        return False
    return _mentions(re.escape(phrase), _code_text(mid, id(doc)))


def places_elsewhere() -> tuple[str, ...]:
    """Names of places near the municipalities held that a question may name bare ("in Pewaukee")."""
    return tuple(_data().get("places_elsewhere") or ())


@functools.lru_cache(maxsize=64)
def _default_lists(mid: str, doc_key: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    from assistant.corpus import document

    doc = document(mid)
    text = "\n".join([*(s.title for s in doc.sections), *(p.text for p in doc.passages)])
    data = _data()

    def absent(entries) -> tuple[str, ...]:
        # an entry is a pattern the text must not mention, or {asks, evidence}: the words a question asks the topic
        # in ("leave my car parked overnight") and the words a text that covers it uses ("parking", "towing")
        return tuple(e["asks"] if isinstance(e, dict) else e for e in entries or []
                     if not _mentions(e["evidence"] if isinstance(e, dict) else e, text))

    return absent(data.get("off_topic_default")), absent(data.get("off_topic_default_unless_streets"))


def off_topic_lists(m) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(off_topic, off_topic_unless_streets) of a municipality: its manifest entry's lists, and the default
    topics its own text never mentions (an entry's own list adds to the defaults: "garage sales" stays off topic
    for a chapter whose entry lists parking tickets)."""
    own = tuple(m.off_topic), tuple(m.off_topic_unless_streets)
    from assistant.corpus import document

    try:
        doc = document(m.id)
    except Exception:  # a text that does not parse is reported elsewhere; no default list then
        return own
    always, unless = _default_lists(m.id, id(doc))
    return (tuple(dict.fromkeys((*own[0], *always))), tuple(dict.fromkeys((*own[1], *unless))))
