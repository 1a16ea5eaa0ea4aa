"""A chapter's new text against the one in use, section by section: sections added, removed and
changed; within a changed section, subsections added, removed, changed or renumbered, and the
figures (money, days, hours, inches, feet, percentages, ...) that changed.

Texts are compared with the standard library's ``difflib`` (SequenceMatcher, word by word): the
chapters are short (tens of sections) and no third-party differ was needed.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field

from assistant.types import Document, Passage, Section, normalize_ws

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|twenty-four|thirty|"
    "forty|forty-eight|fifty|sixty|seventy-two|ninety|hundred"
)


_UNITS = (
    r"regular\s+business\s+days?|business\s+days?|calendar\s+days?|days?|hours?|weeks?|months?|years?|"
    r"inch(?:es)?|feet|foot|ft\.?|miles?|tons?|pounds?|percent|degrees?"
)


_FIGURE = re.compile(
    r"\$\s?\d{1,3}(?:,\d{3})+(?:\.\d+)?|\$\s?\d+(?:\.\d+)?"  # money
    r"|\d+(?:\.\d+)?\s?%"  # 20%
    rf"|(?:\d+(?:[.,]\d+)?(?:\s+\d+/\d+)?|\d+/\d+|[¼½¾]|\b(?:{_NUMBER_WORDS})\b)(?:[\s-]+(?:and[\s-]+)?"
    rf"(?:one-(?:half|fourth|third)|[¼½¾]))?[\s-]*(?:\(\d+\)\s*)?(?:{_UNITS})\b",
    re.IGNORECASE,
)


def figures(text: str) -> list[str]:
    """The figures of a text — money, percentages, numbers with a unit — as written."""
    return [normalize_ws(m.group(0)) for m in _FIGURE.finditer(text)]


def _figure_change(old: str, new: str) -> tuple[list[str], list[str]]:
    a, b = Counter(f.lower() for f in figures(old)), Counter(f.lower() for f in figures(new))
    gone = [f for f in figures(old) if (a - b)[f.lower()]]
    came = [f for f in figures(new) if (b - a)[f.lower()]]
    return list(dict.fromkeys(gone)), list(dict.fromkeys(came))


class PassageChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["added", "removed", "changed", "renumbered"]
    old_label: str | None = Field(default=None, description="Subsection path in the text in use.")
    new_label: str | None = Field(default=None, description="Subsection path in the new text.")
    old_text: str | None = None
    new_text: str | None = None
    figures_removed: list[str] = Field(default_factory=list, description="Figures only in the old text.")
    figures_added: list[str] = Field(default_factory=list, description="Figures only in the new text.")


class SectionChange(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["added", "removed", "changed"]
    label: str = Field(description="Section number and title (the new one when both exist).")
    old_title: str | None = None
    new_title: str | None = None
    passages: list[PassageChange] = Field(default_factory=list)
    figures_removed: list[str] = Field(default_factory=list)
    figures_added: list[str] = Field(default_factory=list)


class ChapterDiff(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    sections_before: int
    sections_after: int
    unchanged: int = Field(description="Sections whose text is the same.")
    changes: list[SectionChange] = Field(default_factory=list)

    def of_kind(self, kind: str) -> list[SectionChange]:
        return [c for c in self.changes if c.kind == kind]


def _label(s: Section) -> str:
    return f"§ {s.section} {s.title}" if s.section else s.title


def _sub(p: Passage) -> str:
    """The passage's label: its subsection path, else its run-in heading, else '(text)'."""
    return p.subsection or p.heading or "(text)"


def _similar(a: str, b: str) -> float:
    """Similarity of two texts, compared word by word (fast on paragraphs; 1.0 = same words)."""
    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()


def _pair_leftovers(old: list, new: list, text: Callable[[Any], str], at_least: float) -> list[tuple[Any, Any]]:
    """Greedy pairs of the most similar leftovers (renumbered or retitled pieces)."""
    scored = sorted(((_similar(text(a), text(b)), i, j) for i, a in enumerate(old) for j, b in enumerate(new)),
                    reverse=True)
    used_a: set[int] = set()
    used_b: set[int] = set()
    pairs = []
    for score, i, j in scored:
        if score < at_least:
            break
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        pairs.append((old[i], new[j]))
    return pairs


def _passage_changes(old: Section, new: Section) -> list[PassageChange]:
    """Same text first (unchanged, or renumbered when its label moved), then the same label
    (changed), then the most similar leftovers (renumbered and changed), then added / removed."""
    left_a, left_b = list(old.passages), list(new.passages)
    out: list[PassageChange] = []
    for a in list(left_a):
        b = next((p for p in left_b if normalize_ws(p.text) == normalize_ws(a.text)), None)
        if b is None:
            continue
        left_a.remove(a)
        left_b.remove(b)
        if _sub(a) != _sub(b):
            out.append(PassageChange(kind="renumbered", old_label=_sub(a), new_label=_sub(b), old_text=a.text,
                                     new_text=b.text))
    for a in list(left_a):
        b = next((p for p in left_b if _sub(p) == _sub(a)), None)
        if b is None or _similar(a.text, b.text) < 0.5:
            continue
        left_a.remove(a)
        left_b.remove(b)
        gone, came = _figure_change(a.text, b.text)
        out.append(PassageChange(kind="changed", old_label=_sub(a), new_label=_sub(b), old_text=a.text,
                                 new_text=b.text, figures_removed=gone, figures_added=came))
    for a, b in _pair_leftovers(left_a, left_b, lambda p: p.text, 0.6):
        gone, came = _figure_change(a.text, b.text)
        out.append(PassageChange(kind="changed", old_label=_sub(a), new_label=_sub(b), old_text=a.text,
                                 new_text=b.text, figures_removed=gone, figures_added=came))
        left_a.remove(a)
        left_b.remove(b)
    out += [PassageChange(kind="removed", old_label=_sub(p), old_text=p.text, figures_removed=figures(p.text))
            for p in left_a]
    out += [PassageChange(kind="added", new_label=_sub(p), new_text=p.text, figures_added=figures(p.text))
            for p in left_b]
    return out


def chapter_diff(old: Document, new: Document) -> ChapterDiff:
    """Section by section: added, removed, changed (with subsections and figures)."""
    olds = {s.key: s for s in old.sections}
    news = {s.key: s for s in new.sections}
    pairs = [(olds[k], news[k]) for k in olds if k in news]
    left_a = [s for k, s in olds.items() if k not in news]
    left_b = [s for k, s in news.items() if k not in olds]
    for a, b in _pair_leftovers(left_a, left_b, lambda s: s.text, 0.6):  # renumbered or retitled sections
        pairs.append((a, b))
        left_a.remove(a)
        left_b.remove(b)
    changes: list[SectionChange] = []
    unchanged = 0
    for a, b in pairs:
        if normalize_ws(a.text) == normalize_ws(b.text) and a.title == b.title and a.section == b.section:
            unchanged += 1
            continue
        gone, came = _figure_change(a.text, b.text)
        changes.append(SectionChange(kind="changed", label=_label(b), old_title=_label(a), new_title=_label(b),
                                     passages=_passage_changes(a, b), figures_removed=gone, figures_added=came))
    changes += [SectionChange(kind="removed", label=_label(s), old_title=_label(s), figures_removed=figures(s.text))
                for s in left_a]
    changes += [SectionChange(kind="added", label=_label(s), new_title=_label(s), figures_added=figures(s.text))
                for s in left_b]
    return ChapterDiff(municipality=new.municipality.id, sections_before=len(old.sections),
                       sections_after=len(new.sections), unchanged=unchanged, changes=changes)
