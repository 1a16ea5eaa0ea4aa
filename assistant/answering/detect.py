"""Which municipality a question is about: named, implied ("the village"), or carried
over from the conversation."""

from __future__ import annotations

import re

from assistant.corpus import municipalities
from assistant.types import ChatTurn, Municipality

# other places people may name: they are outside what is loaded
_OTHER_PLACES = re.compile(
    r"\b(?:city|village|town|county) of ([A-Z][a-z]+(?: [A-Z][a-z]+)?)|\b(Milwaukee|Madison|Waukesha|Fond du Lac|Oshkosh|"
    r"Green Bay|Chicago|Pewaukee|Hartland|Oconomowoc|Summit|Brookfield|Menomonee Falls|New Berlin|Muskego)\b"
)


def _names(m: Municipality) -> list[str]:
    generic = {"village", "town", "city", "the village", "the town"}
    return [n for n in [m.name, m.id, *m.aliases] if n.lower() not in generic]


def named_municipality(text: str) -> Municipality | None:
    low = text.lower()
    found = []
    for m in municipalities():
        for n in _names(m):
            if re.search(rf"\b{re.escape(n.lower())}\b", low):
                found.append(m)
                break
    if len(found) == 1:
        return found[0]
    if not found:
        kinds = {m.kind: m for m in municipalities()}
        hits = [m for kind, m in kinds.items() if re.search(rf"\b{kind}\b", low)]
        # "village" / "town" alone point to the one municipality of that kind
        same_kind = {k: [m for m in municipalities() if m.kind == k] for k in kinds}
        hits = [m for m in hits if len(same_kind[m.kind]) == 1]
        if len(hits) == 1:
            return hits[0]
    return None


def other_place(text: str) -> str | None:
    """A place named in the question that is not one we hold."""
    for m in _OTHER_PLACES.finditer(text):
        name = m.group(1) or m.group(2)
        if name and not any(name.lower() in n.lower() or n.lower() in name.lower()
                            for mm in municipalities() for n in _names(mm)):
            return name
    return None


def from_history(history: list[ChatTurn]) -> Municipality | None:
    for turn in reversed(history):
        m = named_municipality(turn.content)
        if m:
            return m
    return None
