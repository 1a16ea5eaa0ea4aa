"""Which municipality a question is about: named, implied ("the village"), or carried
over from the conversation."""

from __future__ import annotations

import functools
import re

from assistant.corpus import municipalities
from assistant.types import ChatTurn, Municipality

# other places people may name: they are outside what is loaded
_NAMED_PLACE = r"\b(?i:city|village|town|county) of ([A-Z][a-z]+(?: [A-Z][a-z]+)?)"


@functools.lru_cache(maxsize=1)
def _other_places() -> re.Pattern:
    from assistant.answering.status_phrases import places_elsewhere

    bare = "|".join(re.escape(p) for p in places_elsewhere())
    return re.compile(_NAMED_PLACE + (rf"|\b({bare})\b" if bare else ""))


_GENERIC = re.compile(r"^\s*(?:the\s+)?(?:city|village|town|county|township|borough|municipality)(?:\s+of)?\s*$", re.I)
_KIND_PREFIX = re.compile(r"^\s*(?:the\s+)?(?:city|village|town|county|township|borough)\s+of\s+", re.I)
_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
    "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho",
    "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
    "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
    "WI": "Wisconsin", "WY": "Wyoming", "DC": "District of Columbia",
}


def place_name(m: Municipality) -> str:
    """The place word of a municipality's name: 'City of Chagrin Falls' -> 'Chagrin Falls'."""
    return _KIND_PREFIX.sub("", m.name).split(",")[0].strip()


def _names(m: Municipality) -> list[str]:
    """Names that point to this municipality. Generic words ('the city', 'village') never
    do, whatever the manifest's aliases say."""
    names = [m.name, m.display_name, m.id.replace("-", " "), m.id, place_name(m), *m.aliases]
    return list(dict.fromkeys(n for n in names if n and not _GENERIC.match(n) and len(n) > 2))


@functools.lru_cache(maxsize=1024)
def _named_by(names: tuple[str, ...]) -> re.Pattern:
    """One pattern for any of a municipality's names, compiled once (a pattern per name per
    question, across a state's municipalities, overran the ``re`` module's cache)."""
    return re.compile("|".join(rf"(?<!\w){re.escape(n.lower())}(?!\w)" for n in names) or r"(?!x)x")


def _states_named(text: str) -> set[str]:
    found = {code for code in _STATES if re.search(rf"(?:,\s*|\s){code}\b", text)}
    found |= {code for code, name in _STATES.items() if re.search(rf"\b{name}\b", text, re.I)}
    return found


def name_candidates(text: str) -> list[Municipality]:
    """Every municipality the question names. Places sharing a name in different states are
    told apart by a state the question gives ('Springfield, MA', 'Springfield, Illinois');
    when it gives none, all of them are candidates (ask which one, listing these)."""
    low = text.lower()
    found = [m for m in municipalities() if _named_by(tuple(_names(m))).search(low)]
    if len(found) > 1:
        states = _states_named(text)
        by_state = [m for m in found if m.state in states]
        if by_state:
            found = by_state
        # 'Chagrin Falls' also holds 'Falls': keep the candidates whose own place name is named
        longest = max(len(place_name(m)) for m in found)
        exact = [m for m in found if len(place_name(m)) == longest
                 and re.search(rf"(?<!\w){re.escape(place_name(m).lower())}(?!\w)", low)]
        if exact and len({place_name(m).lower() for m in exact}) == 1 and len({place_name(m).lower() for m in found}) > 1:
            found = exact
    return found


def clarify_candidates(text: str) -> str | None:
    """'Which municipality do you mean: the City of Springfield, IL or the City of Springfield, MA?'
    when the question names a place shared by several municipalities; None otherwise."""
    found = name_candidates(text)
    if len(found) < 2:
        return None
    names = " or the ".join(m.display_name for m in found)
    return f"Which municipality do you mean: the {names}?"


def named_municipality(text: str) -> Municipality | None:
    low = text.lower()
    found = name_candidates(text)
    if len(found) == 1:
        return found[0]
    if not found:
        munis = municipalities()  # once: each call checks every text on disk
        kinds = {m.kind: m for m in munis}
        hits = [m for kind, m in kinds.items() if re.search(rf"\b{kind}\b", low)]
        # "village" / "town" alone point to the one municipality of that kind
        same_kind = {k: [m for m in munis if m.kind == k] for k in kinds}
        hits = [m for m in hits if len(same_kind[m.kind]) == 1]
        if len(hits) == 1:
            return hits[0]
    return None


def other_place(text: str) -> str | None:
    """A place named in the question that is not one we hold."""
    names = None
    for m in _other_places().finditer(text):
        name = m.group(1) or m.group(2)
        if names is None:
            names = [n.lower() for mm in municipalities() for n in _names(mm)]  # once, not per place
        if name and not any(name.lower() in n or n in name.lower() for n in names):
            return m.group(0) if m.group(1) else name  # "Village of Hartland" whole; a bare name alone
    return None


def from_history(history: list[ChatTurn]) -> Municipality | None:
    for turn in reversed(history):
        m = named_municipality(turn.content)
        if m:
            return m
    return None
