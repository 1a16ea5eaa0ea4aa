"""Parser for eCode360-style chapter text (Village of Brandon ch. 404).

The text has ``§ 404-6 Title.`` section headings and paragraphs separated by blank
lines, but the subsection letters and most numbers were stripped. The outline is
reconstructed from the shape of the paragraphs:

* a *heading-only* paragraph ("Bond.") opens a group; its children are numbered;
* a *run-in* paragraph ("Fee. The fee for ...") is a subsection with its heading;
* a run-in paragraph ending with ":" opens a group of the plain paragraphs after it;
* plain paragraphs at the top of a section are lettered A, B, C...;
* a group of plain children ends at the next headed paragraph, and a group of
  run-in children ends at the next heading-only paragraph or where the manifest's
  ``outline_hints.group_ends`` says (the text no longer shows it);
* labels still printed in the text ("(6)", "(b)") are kept and checked.

Every reconstructed label is flagged, and the result is checked against the
cross-references the manifest lists (``known_labels``): § 404-7G is Pavement
replacement, and so on. Mismatches become Document.warnings (a test keeps them at 0).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field

from assistant.types import Document, Municipality, Passage, Section, slug

SECTION_RE = re.compile(r"^§\s*(\d+-\d+)\s+(.+?)\s*(\[\d+\])?\s*$")
LABEL_ONLY_RE = re.compile(r"^\((\d+|[a-z])\)$")
FOOTNOTE_ONLY_RE = re.compile(r"^\[\d+\]$")
FOOTNOTE_MARK_RE = re.compile(r"\[(\d+)\]")
EDITORS_NOTE_RE = re.compile(r"^Editor['’]s Note", re.I)
VERB_RE = re.compile(
    r"\b(shall|must|will|may|is|are|has|have|was|were|should|can|does|do)\b", re.I
)
SUBSECTION_REF_RE = re.compile(r"\bSubsections?\s+((?:[A-Z](?:\(\d+\))?(?:,\s*|\s+(?:or|and)\s+)?)+)")


@dataclass
class _Para:
    text: str  # verbatim, footnote markers removed
    start: int
    end: int
    notes: list[str] = field(default_factory=list)
    label: str | None = None  # explicit label printed in the text, e.g. "(6)"
    heading: str | None = None
    heading_only: bool = False


@dataclass
class _Node:
    para: _Para | None
    label: str
    reconstructed: bool
    heading: str | None
    children: list["_Node"] = field(default_factory=list)
    body: list[_Para] = field(default_factory=list)


def _paragraphs(text: str) -> list[tuple[str, int, int]]:
    out = []
    for m in re.finditer(r"[^\n]+(?:\n(?!\s*\n)[^\n]*)*", text):
        chunk = m.group(0)
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            out.append((chunk.strip(), m.start() + lead, m.start() + lead + len(chunk.strip())))
    return out


def run_in_heading(text: str) -> str | None:
    """'Fee. The fee for ...' -> 'Fee'. None when the first sentence is not a heading."""
    m = re.match(r"^(.{2,200}?[a-z)])\.(?:\s+(?=[A-Z\"“(])|$)", text)
    if not m:
        return None
    head = m.group(1)
    if "§" in head or VERB_RE.search(head) or head.endswith((" Wis", " Stats")):
        return None
    if len(head.split()) > 25 or not head[0].isupper():
        return None
    return head


def _classify(raw: str, start: int, end: int) -> _Para:
    notes = [f"footnote [{n}]" for n in FOOTNOTE_MARK_RE.findall(raw)]
    text = FOOTNOTE_MARK_RE.sub("", raw).rstrip()
    p = _Para(text=text, start=start, end=end, notes=notes)
    head = run_in_heading(text)
    if head:
        p.heading = head
        p.heading_only = text.rstrip(". ") == head
    return p


def _is_doc_header(text: str, m: Municipality) -> bool:
    return m.name.split()[-1].lower() in text.lower() and not text.endswith(".") and len(text.split()) < 12


def parse_ecode(m: Municipality, text: str) -> Document:
    sections: list[tuple[str | None, str, bool, int, list[str], list[_Para]]] = []
    warnings: list[str] = []
    current: list | None = None
    pending_label: str | None = None
    for i, (raw, start, end) in enumerate(_paragraphs(text)):
        if i == 0 and _is_doc_header(raw, m):
            continue
        sm = SECTION_RE.match(raw)
        if sm:
            title = sm.group(2).rstrip(".").strip()
            current = [sm.group(1), title, False, start, [f"footnote {sm.group(3)}"] if sm.group(3) else [], []]
            sections.append(current)
            pending_label = None
            continue
        if current is None:  # text before the first heading: an untitled section
            title = str(m.outline_hints.get("untitled_title") or _title_from_content(raw))
            current = [None, title, True, start, [], []]
            sections.append(current)
        if FOOTNOTE_ONLY_RE.match(raw):
            continue
        if EDITORS_NOTE_RE.match(raw):
            paras = current[5]
            (paras[-1].notes if paras else current[4]).append(raw)
            continue
        lm = LABEL_ONLY_RE.match(raw)
        if lm:
            pending_label = f"({lm.group(1)})"
            continue
        paras = current[5]
        if "\t" in raw and paras and not pending_label:
            # a table ("\tAge of the Final Paving\tSurcharge") belongs to the paragraph
            # that introduces it: keep it verbatim in that passage
            prev = paras[-1]
            prev.text = text[prev.start:end].rstrip()
            prev.end = end
            continue
        para = _classify(raw, start, end)
        if pending_label:
            # an item printed with its own label ("(b) One inch or more ...") is an
            # enumeration item, never a heading
            para.heading, para.heading_only = None, False
        para.label, pending_label = pending_label, None
        paras.append(para)

    out_sections: list[Section] = []
    ordinal = 0
    for number, title, untitled, start, notes, paras in sections:
        key = number or slug(title)
        hints = m.outline_hints.get("group_ends", {}).get(key, [])
        roots = _outline(paras, set(hints))
        passages: list[Passage] = []
        for path, reconstructed, heading_path, para, heading in _flatten(roots, len(paras)):
            passages.append(
                Passage(
                    id=f"{m.id}:{key}:{path or '-'}:{ordinal}",
                    municipality=m.id,
                    chapter=m.chapter,
                    section=number,
                    title=title,
                    untitled=untitled,
                    subsection=path or None,
                    subsection_reconstructed=reconstructed,
                    heading=heading,
                    heading_path=heading_path,
                    text=para.text,
                    start=para.start,
                    end=para.end,
                    notes=para.notes,
                    ordinal=ordinal,
                )
            )
            ordinal += 1
        end = max((p.end for p in passages), default=start)
        out_sections.append(
            Section(
                municipality=m.id, chapter=m.chapter, section=number, title=title, untitled=untitled,
                notes=notes, passages=passages, start=start, end=end,
            )
        )
    doc = Document(municipality=m, sections=out_sections, warnings=warnings)
    doc.warnings.extend(check_known_labels(doc))
    return doc


def _title_from_content(text: str) -> str:
    head = run_in_heading(text)
    return head or " ".join(text.split()[:4])


def _letters():
    """A, B, ... Z, then AA, BB, ... (never runs out)."""
    n = 1
    while True:
        for ch in string.ascii_uppercase:
            yield ch * n
        n += 1


def _refs_whole_letter(text: str, letter: str) -> bool:
    """True when the paragraph cites 'Subsection <letter>' as a whole (a sibling, not a parent)."""
    for m in SUBSECTION_REF_RE.finditer(text):
        for ref in re.split(r",\s*|\s+(?:or|and)\s+", m.group(1)):
            if ref.strip() == letter:
                return True
    return False


def _outline(paras: list[_Para], group_ends: set[str]) -> list[_Node]:
    """Build the subsection tree of one section from its paragraphs."""
    roots: list[_Node] = []
    top_letters = _letters()
    i = 0
    while i < len(paras):
        p = paras[i]
        node = _Node(p, next(top_letters), True, p.heading)
        roots.append(node)
        i += 1
        if p.heading_only:
            node.para = None
            i = _children(node, paras, i, group_ends, letter=node.label)
        elif p.heading and p.text.endswith(":"):
            i = _plain_children(node, paras, i, letter=node.label)
    return roots


def _children(parent: _Node, paras: list[_Para], i: int, group_ends: set[str], letter: str) -> int:
    """Children of a heading-only paragraph, numbered (1), (2)..."""
    n = 0
    kind: str | None = None  # "plain" or "headed": a group holds one kind
    while i < len(paras):
        p = paras[i]
        if kind is None:
            kind = "plain" if not p.heading else "headed"
        if kind == "plain":
            if p.heading or _refs_whole_letter(p.text, letter):
                break
        else:
            if not p.heading:
                break
            if parent.children and parent.children[-1].heading in group_ends:
                break
        if p.label and p.label[1:-1].isalpha():
            label, reconstructed = p.label, False  # an item of a list, printed with its letter
        else:
            n += 1
            label, reconstructed = _number_label(p, n)
        child = _Node(p, label, reconstructed, p.heading)
        parent.children.append(child)
        i += 1
        if p.heading_only:
            child.para = None
            i = _sub_children(child, paras, i)
        elif p.heading and p.text.endswith(":"):
            i = _plain_children(child, paras, i, letter=None, lower=True)
    return i


def _number_label(p: _Para, n: int) -> tuple[str, bool]:
    if p.label and p.label.strip("()").isdigit():
        return p.label, False
    return f"({n})", True


def _sub_children(parent: _Node, paras: list[_Para], i: int) -> int:
    """Plain paragraphs under a nested heading-only line ('Slope.'): one is its body,
    several are items (a), (b)..."""
    items: list[_Para] = []
    while i < len(paras) and not paras[i].heading:
        items.append(paras[i])
        i += 1
    if len(items) == 1 and not items[0].label:
        parent.body = items
    else:
        for k, p in enumerate(items):
            explicit = p.label if p.label and not p.label.strip("()").isdigit() else None
            parent.children.append(_Node(p, explicit or f"({chr(ord('a') + k)})", explicit is None, None))
    return i


def _plain_children(parent: _Node, paras: list[_Para], i: int, letter: str | None, lower: bool = False) -> int:
    """Plain paragraphs after a run-in paragraph ending with ':' (a list)."""
    k = 0
    while i < len(paras) and not paras[i].heading:
        p = paras[i]
        if letter and _refs_whole_letter(p.text, letter):
            break
        k += 1
        label = f"({chr(ord('a') + k - 1)})" if lower else f"({k})"
        explicit = p.label
        parent.children.append(_Node(p, explicit or label, explicit is None, None))
        i += 1
    return i


def _flatten(roots: list[_Node], n_paras: int):
    """Yield (path, reconstructed, heading_path, para, heading) in document order."""
    single = n_paras == 1 and len(roots) == 1 and not roots[0].children

    def walk(node: _Node, prefix: str, recon: bool, heads: list[str]):
        path = prefix + node.label
        rec = recon or node.reconstructed
        if node.para is not None:
            yield ("" if single else path), (False if single else rec), heads, node.para, node.heading
        for b in node.body:
            yield path, rec, heads + ([node.heading] if node.heading else []), b, node.heading
        # explicit letter items under a list: attach to the nearest preceding child
        # whose text ends with ':' (the sentence that introduced the enumeration)
        intro: _Node | None = None
        for child in node.children:
            if child.para is not None and child.para.text.endswith(":"):
                intro = child
            explicit_letter = (
                child.label.startswith("(") and child.label[1:-1].isalpha() and not child.reconstructed
            )
            if explicit_letter and intro is not None and intro is not child and node.children.index(intro) < node.children.index(child):
                yield from walk(child, path + intro.label, rec, heads + _h(node) + _h(intro))
            else:
                yield from walk(child, path, rec, heads + _h(node))

    for r in roots:
        yield from walk(r, "", False, [])


def _h(node: _Node) -> list[str]:
    return [node.heading] if node.heading else []


def check_known_labels(doc: Document) -> list[str]:
    """Compare reconstructed labels with the ones the code's cross-references name."""
    problems = []
    for ref, expected in doc.municipality.known_labels.items():
        m = re.match(r"^(\d+-\d+)(.*)$", ref)
        if not m:
            continue
        section, sub = m.group(1), m.group(2)
        hits = [
            p for p in doc.passages
            if p.section == section and (p.subsection or "") .startswith(sub)
            and (p.subsection or "")[len(sub):len(sub) + 1] in ("", "(")
        ]
        ok = any(
            (p.heading or "").lower().startswith(expected.lower().rstrip("."))
            or expected.lower() in " ".join(p.heading_path).lower()
            or p.text.lower().startswith(expected.lower())
            for p in hits
        )
        if not ok:
            problems.append(f"§ {ref}: expected {expected!r}, reconstruction disagrees")
    return problems
