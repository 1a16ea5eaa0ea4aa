"""Amendments, the way a clerk makes them: compare a new text of a chapter with the one in
use, section by section, list the calculators and checklist items it touches, install it,
and keep a record of when each chapter changed.

- ``chapter_diff(old, new)``: sections added, removed and changed; within a changed section,
  subsections added, removed, changed or renumbered, and the figures (money, days, hours,
  inches, feet, percentages, ...) that changed, highlighted.
- ``provision_impacts(new)``: every verbatim quote the calculators and the checklist rely on
  (``assistant/tools/data/*.yaml`` and the checklist's own quotes), resolved against the new
  text: unchanged, changed (still there, but its paragraph changed) or gone (no longer
  resolves); with the calculators and checklist jobs that read it.
- ``install_chapter(...)``: backup, atomic replace, and a line in ``amendments.yaml`` of the
  corpus folder (its date is what ``changed_rule`` tells users).
- ``changed_rule(...)``: what a calculator answers when its quote no longer resolves — "this
  rule changed on <date>; the figure is not computed until the rule data is updated" — with
  the new text cited (never a stale figure).

Text comparison uses the standard library's ``difflib`` (SequenceMatcher): the texts are
short (tens of sections) and no third-party differ was needed.
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import difflib
import functools
import os
import re
import shutil
import typing
from collections import Counter
from datetime import date, datetime
from pathlib import Path
from typing import Any, Callable, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from assistant.corpus import QuoteNotFound, corpus_dir, document, municipality_by_id, municipalities
from assistant.types import Citation, Document, Municipality, Passage, Section, ToolOutput, normalize_ws

RECORD_FILE = "amendments.yaml"
DATA_DIR = Path(__file__).resolve().parent / "tools" / "data"

# --------------------------------------------------------------------------- figures

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


# --------------------------------------------------------------------------- diff models


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


# --------------------------------------------------------------------------- provisions and their users


class Provision(BaseModel):
    """One verbatim quote a calculator or the checklist relies on."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    municipality: str
    quote: str
    section: str | None = None
    where: str = Field(description="Where the quote is kept: data file and key path, or checklist builder.")
    users: tuple[str, ...] = Field(default=(), description="Calculators (registry names) and checklist jobs.")


class ProvisionImpact(BaseModel):
    model_config = ConfigDict(extra="forbid")

    provision: Provision
    status: Literal["unchanged", "changed", "gone"]
    old_label: str | None = None
    new_label: str | None = None
    new_text: str | None = Field(default=None, description="The passage that holds (or best matches) the quote now.")


def _walk_quotes(node: Any, path: str, mid: str | None, ids: set[str], out: list[tuple[str, str, str | None, str]]):
    if isinstance(node, dict):
        here = node.get("municipality") if isinstance(node.get("municipality"), str) else mid
        if isinstance(node.get("quote"), str) and here:
            out.append((here, node["quote"], node.get("section"), path))
        for q in node.get("quotes", []) if isinstance(node.get("quotes"), list) else []:
            if isinstance(q, str) and here:
                out.append((here, q, node.get("section"), path))
        for k, v in node.items():
            if k in ("quote", "quotes", "tools"):
                continue
            key = str(k)
            sub_mid = key if key in ids else next((i for i in ids if key.startswith(f"{i}_")), here)
            _walk_quotes(v, f"{path}.{key}" if path else key, sub_mid, ids, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            label = v.get("id") if isinstance(v, dict) and isinstance(v.get("id"), str) else str(i)
            _walk_quotes(v, f"{path}[{label}]", mid, ids, out)


@functools.cache
def _module_constants(module_file: Path) -> dict[str, set[str]]:
    """For each top-level function of a module: the string constants it and the module's
    functions it calls (transitively) hold."""
    tree = ast.parse(module_file.read_text(encoding="utf-8"))
    funcs: dict[str, ast.AST] = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for n in tree.body:  # a module-level table of functions (CERTIFICATE_METHODS) is followed too
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            funcs.setdefault(n.targets[0].id, n.value)
    own: dict[str, set[str]] = {}
    calls: dict[str, set[str]] = {}
    for name, fn in funcs.items():
        own[name] = {n.value for n in ast.walk(fn) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        calls[name] = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id in funcs}
    out: dict[str, set[str]] = {}
    for name in funcs:
        seen, todo, acc = set(), [name], set()
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            acc |= own[f]
            todo += list(calls[f])
        out[name] = acc
    return out


def _tool_users(data_file: str, mid: str, where: str, raw: dict) -> list[str]:
    """The calculators that read the provision at ``where`` of ``data_file`` for ``mid``."""
    from assistant.tools.registry import all_tools

    tools = {n: s for n, s in all_tools().items() if mid in s.municipalities}
    declared = [n for n in (raw.get("tools") or {}) if n in tools]
    key = re.match(r"[^.\[]+\.([^.\[]+)", where)
    top = where.split(".")[0].split("[")[0]
    if data_file == "deadlines.yaml":
        rule = re.search(r"\[([^\]]+)\]", where)
        rid = rule.group(1) if rule else ""
        users = ["deadline"]
        plans = (raw.get("municipalities") or {}).get(mid, {})
        for name, fields in (("excavation_notice_deadlines", ("start_notices", "service_loss_notice", "backfill_notice")),
                             ("emergency_excavation_deadlines", ("emergency_apply", "emergency_fee_waiver")),
                             ("winter_opening_restriction", ("opening_season",))):
            named = [plans.get(f) for f in fields]
            flat = {x for v in named for x in (v if isinstance(v, list) else [v]) if x}
            if rid in flat and name in tools:
                users.append(name)
        surcharge = _yaml(DATA_DIR / "surcharge.yaml")
        if rid in {v for e in surcharge.values() if isinstance(e, dict) for v in e.values() if isinstance(v, str)}:
            users.append("street_opening_surcharge")
        return users
    if top == "provisions" and key:
        prov = key.group(1)
        role = prov[len(mid) + 1:] if prov.startswith(f"{mid}_") else prov
        module = DATA_DIR.parent / f"{Path(data_file).stem}.py"
        users = []
        if module.is_file():
            consts = _module_constants(module)
            for name in declared:
                fn = tools[name].fn
                if {prov, role} & consts.get(getattr(fn, "__wrapped__", fn).__name__, set()):
                    users.append(name)
        if data_file == "bonds.yaml":  # the permits table names its provisions
            named = {x for e in raw.get("permits", []) for r in e.get("requirements", [])
                     for x in [*r.get("provisions", []), r.get("amount_from"), r.get("limits_from"),
                               r.get("exemption")] if isinstance(x, str)}
            if prov in named and "bond_insurance_requirements" in tools:
                users.append("bond_insurance_requirements")
        return sorted(set(users)) or declared
    return declared


@functools.lru_cache(maxsize=32)
def _yaml_at(path: Path, stamp: tuple[int, int]) -> Any:
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when built: ten times faster
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}


def _yaml(path: Path) -> Any:
    st = path.stat()
    return _yaml_at(path, (st.st_mtime_ns, st.st_size))


def _checklist_users(tool_users: list[str], mid: str) -> list[str]:
    """Checklist jobs of ``mid`` whose builder calls one of these calculators."""
    from assistant import checklist

    data = checklist._checklist_data()["municipalities"].get(mid, {})
    names = set(tool_users)
    jobs = []
    for work, entry in data.get("work", {}).items():
        fns = [entry["builder"], *data.get("after_every_job", [])]
        called = set()
        for f in fns:
            called |= _checklist_calls().get(f"_{f}", set())
        if names & called:
            jobs.append(f"checklist: {work.replace('_', ' ')}")
    return jobs


@functools.cache
def _checklist_calls() -> dict[str, set[str]]:
    """For each checklist builder: every name it (transitively) calls, tool functions included."""
    from assistant import checklist

    tree = ast.parse(Path(checklist.__file__).read_text(encoding="utf-8"))
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    direct = {name: {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)} for name, fn in funcs.items()}
    out = {}
    for name in funcs:
        seen, todo = set(), [name]
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            todo += [g for g in direct.get(f, ()) if g in funcs]
        out[name] = set().union(*(direct[f] for f in seen))
    return out


def _checklist_inline_quotes(mid: str) -> list[Provision]:
    """The quotes the checklist builders cite directly (``b.cite("...")``) for ``mid``'s jobs."""
    from assistant import checklist

    data = checklist._checklist_data()["municipalities"].get(mid, {})
    tree = ast.parse(Path(checklist.__file__).read_text(encoding="utf-8"))
    funcs = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    out: list[Provision] = []
    for work, entry in data.get("work", {}).items():
        for builder in [entry["builder"], *data.get("after_every_job", [])]:
            for name in sorted(_reachable(funcs, f"_{builder}")):
                for call in ast.walk(funcs[name]):
                    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "cite"
                            and call.args and isinstance(call.args[0], ast.Constant)
                            and isinstance(call.args[0].value, str)):
                        sec = call.args[1].value if len(call.args) > 1 and isinstance(call.args[1], ast.Constant) \
                            else None
                        out.append(Provision(municipality=mid, quote=call.args[0].value, section=sec,
                                             where=f"assistant/checklist.py {name}:{call.lineno}",
                                             users=(f"checklist: {work.replace('_', ' ')}",)))
    merged: dict[tuple[str, str], Provision] = {}
    for p in out:
        k = (p.quote, p.where)
        if k in merged:
            merged[k] = merged[k].model_copy(update={"users": tuple(dict.fromkeys(merged[k].users + p.users))})
        else:
            merged[k] = p
    return list(merged.values())


def _reachable(funcs: dict, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        f = todo.pop()
        if f in seen or f not in funcs:
            continue
        seen.add(f)
        todo += [n.id for n in ast.walk(funcs[f]) if isinstance(n, ast.Name) and n.id in funcs]
    return seen


def provisions(mid: str) -> list[Provision]:
    """Every quote ``mid``'s calculators and checklist rely on, with who relies on it."""
    ids = {m.id for m in municipalities()}
    out: list[Provision] = []
    for path in sorted(DATA_DIR.glob("*.yaml")):
        raw = _yaml(path)
        found: list[tuple[str, str, str | None, str]] = []
        _walk_quotes(raw, "", None, ids, found)
        for m, quote, section, where in found:
            if m != mid or (path.name == "checklist.yaml" and not where.startswith("quotes")):
                continue
            if path.name == "checklist.yaml":
                users = [f"checklist: {w.replace('_', ' ')}" for w, e in
                         raw["municipalities"].get(mid, {}).get("work", {}).items()
                         if any(i.get("quote") and where.endswith(f"{mid}_{i['quote']}") for i in e.get("items", []))]
                users = users or ["checklist"]
            else:
                users = _tool_users(path.name, mid, where, raw)
                users = users + _checklist_users(users, mid)
            out.append(Provision(municipality=mid, quote=quote, section=section, where=f"{path.name} {where}",
                                 users=tuple(dict.fromkeys(users))))
    out += _checklist_inline_quotes(mid)
    return out


def _holder(doc: Document, quote: str, section: str | None) -> list[Passage]:
    want = normalize_ws(quote)
    return [p for p in doc.passages if want in normalize_ws(p.text) and (section is None or p.section == section)]


def best_match(doc: Document, quote: str, section: str | None = None) -> Passage | None:
    """The passage of ``doc`` most like ``quote`` (its section first): what the words became."""
    words = set(re.findall(r"[a-z]+", quote.lower()))
    if not words:
        return None
    pool = [p for p in doc.passages if section and p.section == section] or doc.passages
    scored = [(len(words & set(re.findall(r"[a-z]+", p.text.lower()))) / len(words), -len(p.text), p) for p in pool]
    score, _, p = max(scored, key=lambda t: (t[0], t[1]), default=(0.0, 0, None))
    return p if p is not None and score >= 0.5 else None


def provision_impacts(old: Document, new: Document) -> list[ProvisionImpact]:
    """Each provision of the municipality against the new text."""
    out = []
    for prov in provisions(new.municipality.id):
        before = _holder(old, prov.quote, prov.section)
        after = _holder(new, prov.quote, prov.section)
        old_label = before[0].citation().label() if len(before) == 1 else None
        if len(after) == 1:
            same = len(before) == 1 and normalize_ws(before[0].text) == normalize_ws(after[0].text)
            out.append(ProvisionImpact(provision=prov, status="unchanged" if same else "changed", old_label=old_label,
                                       new_label=after[0].citation().label(), new_text=after[0].text))
        else:
            guess = best_match(new, prov.quote, prov.section)
            out.append(ProvisionImpact(provision=prov, status="gone", old_label=old_label,
                                       new_label=guess.citation().label() if guess else None,
                                       new_text=guess.text if guess else None))
    return out


# --------------------------------------------------------------------------- report


def _mark(figs: list[str]) -> str:
    return ", ".join(f"**{f}**" for f in figs)


def report_markdown(diff: ChapterDiff, impacts: list[ProvisionImpact], escape: Callable[[str], str] = str) -> str:
    """The clerk's report: the diff, then what it touches. ``escape`` guards text from the file."""
    e = escape
    lines = [f"### Changes: {diff.sections_before} sections before, {diff.sections_after} after, "
             f"{diff.unchanged} unchanged"]
    if not diff.changes:
        lines.append("No section changed.")
    for c in diff.changes:
        if c.kind == "added":
            lines.append(f"- **Added** {e(c.label)}" + (f" — figures {_mark(list(map(e, c.figures_added)))}"
                                                         if c.figures_added else ""))
        elif c.kind == "removed":
            lines.append(f"- **Removed** {e(c.label)}")
        else:
            head = f"- **Changed** {e(c.label)}"
            if c.old_title and c.old_title != c.new_title:
                head += f" (was {e(c.old_title)})"
            if c.figures_removed or c.figures_added:
                head += (f" — figures {_mark(list(map(e, c.figures_removed))) or 'none'} → "
                         f"{_mark(list(map(e, c.figures_added))) or 'none'}")
            lines.append(head)
            for p in c.passages:
                if p.kind == "renumbered":
                    lines.append(f"  - {e(p.old_label or '')} renumbered {e(p.new_label or '')} (same text)")
                elif p.kind == "changed":
                    where = e(p.new_label or "") + (f" (was {e(p.old_label or '')})" if p.old_label != p.new_label
                                                    else "")
                    fig = (f": {_mark(list(map(e, p.figures_removed))) or 'no figure'} → "
                           f"{_mark(list(map(e, p.figures_added))) or 'no figure'}"
                           if p.figures_removed or p.figures_added else ": wording changed")
                    lines.append(f"  - {where}{fig}")
                else:
                    lines.append(f"  - {p.kind} {e(p.old_label or p.new_label or '')}")
    hit = [i for i in impacts if i.status != "unchanged"]
    lines.append("")
    lines.append(f"### Calculators and checklist items affected: {len(hit)} of {len(impacts)} provisions")
    if not hit:
        lines.append("None: every provision they quote reads the same.")
    for i in hit:
        users = ", ".join(i.provision.users) or "(no calculator)"
        what = "no longer in the text" if i.status == "gone" else "its paragraph changed"
        now = f"; now closest: {e(i.new_label)}" if i.status == "gone" and i.new_label else ""
        lines.append(f"- {e(users)}: “{e(i.provision.quote[:90])}{'…' if len(i.provision.quote) > 90 else ''}” "
                     f"— {what}{now}")
    if hit:
        lines.append("")
        lines.append("Until their rule data (assistant/tools/data/*.yaml) is updated, these calculators answer "
                     "that the rule changed and cite the new text; they compute no figure.")
    return "\n".join(lines)


# --------------------------------------------------------------------------- reading the new text


def corpus_text_from_pages(source_format: str, pages: list) -> str:
    """A PDF's pages in the format the corpus already reads for this municipality, so the
    same parser serves the new text (the manifest need not change). eCode text is reflowed
    into paragraphs first, exactly as ``ingest`` reads an eCode PDF."""
    if source_format == "pdf_transcript":  # one line per page: "N text N"
        return "\n\n".join(f"{p.number} {' '.join(p.text.split())} {p.number}" for p in pages) + "\n"
    if source_format == "ecode_text":
        from assistant.parsing.pdf import reflow_paragraphs

        return reflow_paragraphs(pages)
    raise ValueError(f"cannot install a PDF for source format {source_format!r}")


class NewChapter(BaseModel):
    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    text: str = Field(description="The chapter in the corpus's own format, as it would be installed.")
    document: Document = Field(description="That text parsed exactly as the corpus will parse it.")
    pages: int | None = Field(default=None, description="Pages of the PDF, when it was one.")


def read_new_chapter(m: Municipality, path: Path, *, max_bytes: int, max_pages: int,
                     timeout_s: float | None = None, text_allowed: bool = True) -> NewChapter:
    """Read a PDF (or a text in the corpus's format) as ``ingest`` does, and convert it to the
    text to install; ParseError (one line) when it cannot be read or the two readings differ."""
    from assistant.parsing import ParseError, parse_document
    from assistant.parsing.pdf import DEFAULT_TIMEOUT_S, pages_from_pdf, parse_pages

    if not path.exists():
        raise ParseError(f"no such file: {path}")
    if not path.is_file():
        raise ParseError(f"{path.name} is not a regular file")
    if path.stat().st_size > max_bytes:
        raise ParseError(f"the file is {path.stat().st_size:,} bytes; the limit is {max_bytes:,} bytes")
    if text_allowed and path.suffix.lower() == ".txt":
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise ParseError(f"{path.name} is not UTF-8 text") from None
        return NewChapter(text=text, document=parse_document(m, text))
    pages = pages_from_pdf(path, max_bytes=max_bytes, max_pages=max_pages, timeout_s=timeout_s or DEFAULT_TIMEOUT_S)
    as_ingested = parse_pages(m, pages)
    text = corpus_text_from_pages(m.source_format, pages)
    try:
        doc = parse_document(m, text)
    except ParseError:
        raise
    except Exception as exc:  # noqa: BLE001 — odd text must give a one-line error
        raise ParseError(f"the converted text does not parse ({type(exc).__name__})") from exc
    if [(s.section, s.title) for s in doc.sections] != [(s.section, s.title) for s in as_ingested.sections]:
        raise ParseError("the text to install parses into other sections than the PDF itself; not installed")
    return NewChapter(text=text, document=doc, pages=len(pages))


# --------------------------------------------------------------------------- install and record


class PendingProvision(BaseModel):
    """A provision whose paragraph changed or whose quote no longer resolves: calculators that
    rely on it answer "this rule changed" until the file holding it (``where``) is updated."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["changed", "gone"]
    quote: str
    section: str | None = None
    where: str = Field(description="The file holding the quote, relative to the package, and its key.")


class AmendmentRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    municipality: str
    date: date
    at: datetime = Field(description="When the chapter was replaced (local time).")
    source_file: str
    backup: str
    from_file: str = Field(description="Name of the file the new text came from.")
    sections_added: list[str] = Field(default_factory=list)
    sections_removed: list[str] = Field(default_factory=list)
    sections_changed: list[str] = Field(default_factory=list)
    provisions_affected: int = 0
    pending: list[PendingProvision] = Field(default_factory=list)


def records(folder: Path | None = None) -> list[AmendmentRecord]:
    path = Path(folder or corpus_dir()) / RECORD_FILE
    try:
        st = path.stat()
    except OSError:
        return []
    return list(_records(str(path), (st.st_mtime_ns, st.st_size, st.st_ino)))


@functools.lru_cache(maxsize=8)
def _records(path: str, stamp: tuple[int, int, int]) -> tuple[AmendmentRecord, ...]:
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    return tuple(AmendmentRecord.model_validate(r) for r in raw)


def _holding_file(where: str) -> Path:
    name = where.split(" ", 1)[0]
    return DATA_DIR / name if "/" not in name else DATA_DIR.parent.parent / name


def pending_change(municipality: str, quote: str) -> tuple[AmendmentRecord, PendingProvision] | None:
    """The amendment after which ``quote`` of ``municipality`` awaits a data update, if any: its
    paragraph changed (or it stopped resolving) and the file holding it is older than the amendment."""
    want = normalize_ws(quote)
    for rec in reversed(records()):
        if rec.municipality != municipality:
            continue
        for p in rec.pending:
            if normalize_ws(p.quote) != want:
                continue
            try:
                updated = datetime.fromtimestamp(_holding_file(p.where).stat().st_mtime) > rec.at
            except OSError:
                updated = False
            return None if updated else (rec, p)
    return None


def install_chapter(m: Municipality, text: str, *, from_file: str, diff: ChapterDiff,
                    impacts: list[ProvisionImpact], folder: Path | None = None,
                    today: date | None = None) -> AmendmentRecord:
    """Back up the chapter in use, replace it atomically with ``text`` and record the amendment."""
    folder = Path(folder or corpus_dir())
    target = folder / m.source_file
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    backup = target.with_name(f"{target.name}.{stamp}.bak")
    shutil.copy2(target, backup)
    tmp = target.with_name(f"{target.name}.new")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)
    now = datetime.now()
    rec = AmendmentRecord(
        municipality=m.id, date=today or now.date(), at=now, source_file=m.source_file, backup=backup.name,
        from_file=from_file,
        sections_added=[c.label for c in diff.of_kind("added")],
        sections_removed=[c.label for c in diff.of_kind("removed")],
        sections_changed=[c.label for c in diff.of_kind("changed")],
        provisions_affected=sum(i.status != "unchanged" for i in impacts),
        pending=[PendingProvision(status=i.status, quote=i.provision.quote, section=i.provision.section,
                                  where=i.provision.where) for i in impacts if i.status != "unchanged"],
    )
    all_records = [r.model_dump(mode="json") for r in records(folder)] + [rec.model_dump(mode="json")]
    rec_path = folder / RECORD_FILE
    rec_tmp = rec_path.with_name(f"{RECORD_FILE}.new")
    rec_tmp.write_text("# Chapters replaced (python -m assistant amend, or the staff tab); newest last.\n"
                       + yaml.safe_dump(all_records, sort_keys=False, allow_unicode=True), encoding="utf-8")
    os.replace(rec_tmp, rec_path)
    return rec


# --------------------------------------------------------------------------- a rule that changed


def _when_changed(m: Municipality) -> date:
    mine = [r for r in records() if r.municipality == m.id]
    if mine:
        return mine[-1].date
    try:
        return date.fromtimestamp((corpus_dir() / m.source_file).stat().st_mtime)
    except OSError:
        return date.today()


def changed_rule(municipality: str, quote: str, section: str | None = None) -> tuple[str, list[Citation]]:
    """What a calculator says when the words its rule rests on changed — they are no longer in
    the code, or the paragraph holding them was amended — and the current text it cites
    instead (the passage holding or closest to them, if any)."""
    m = municipality_by_id(municipality)
    if m is None:
        return f"The rule's municipality {municipality!r} is not in the manifest.", []
    pending = pending_change(m.id, quote)
    when = pending[0].date if pending else _when_changed(m)
    doc = document(m.id)
    holders = _holder(doc, quote, section)
    now = holders[0] if len(holders) == 1 else best_match(doc, quote, section)
    # The old words are not repeated: they may hold the old figure, which must not be shown as the rule.
    if len(holders) == 1:
        what = f"the paragraph of the {m.name} code it rests on was amended ({now.citation().label()}, cited as it now reads)"
    elif now is not None:
        what = (f"the words of the {m.name} code it rests on are no longer in the text; the nearest provision now is "
                f"{now.citation().label()}, cited as it now reads")
    else:
        what = f"the section of the {m.name} code that held it is no longer in the text"
    message = (f"This rule changed on {when:%B} {when.day}, {when.year}: {what}. "
               "The figure is not computed until the rule data is updated.")
    return message, ([now.citation()] if now else [])


def _failed_output(out_cls: type[ToolOutput], tool: str, inp: Any, message: str,
                   citations: list[Citation]) -> ToolOutput:
    values: dict[str, Any] = {"tool": tool, "ok": False, "error": message, "explanation": "",
                              "citations": citations}
    for name, field in out_cls.model_fields.items():
        if name in values:
            continue
        if hasattr(inp, name):
            values[name] = getattr(inp, name)
        elif field.is_required():
            args = typing.get_args(field.annotation)
            if field.annotation is str:
                values[name] = ""
            elif args and all(isinstance(a, str) for a in args):  # a Literal: its "none" or first value
                values[name] = "none" if "none" in args else args[0]
    try:
        return out_cls.model_validate(values)
    except Exception:  # noqa: BLE001 — an input value the output types differently: leave it out
        pass
    plain = {k: v for k, v in values.items() if k in ("tool", "ok", "error", "explanation", "citations")
             or out_cls.model_fields[k].is_required()}
    try:
        return out_cls.model_validate(plain)
    except Exception:  # noqa: BLE001 — a required field we cannot fill: still answer, unvalidated
        return out_cls.model_construct(**plain)


# How many guarded calculator calls enclose this one (per thread and task): only the outermost
# turns a changed rule into an answer; an inner one (a calculator calling another, or the
# checklist) lets QuoteNotFound through to its caller, which knows what it was building.
_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("changed_rule_depth", default=0)


@contextlib.contextmanager
def raising_changed_rules():
    """Inside this block calculators raise QuoteNotFound instead of answering (the checklist)."""
    token = _DEPTH.set(_DEPTH.get() + 1)
    try:
        yield
    finally:
        _DEPTH.reset(token)


def answers_changed_rules(tool: str) -> Callable:
    """Decorate a calculator: when a quote its rule rests on no longer resolves (the chapter was
    amended), it answers ok=False with ``changed_rule``'s message and the new text cited —
    never a stale figure, never an exception."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def guarded(inp: Any, *args: Any, **kwargs: Any) -> Any:
            outer = _DEPTH.get() == 0
            token = _DEPTH.set(_DEPTH.get() + 1)
            try:
                return fn(inp, *args, **kwargs)
            except QuoteNotFound as exc:
                if not outer:
                    raise
                message, citations = changed_rule(exc.municipality or getattr(inp, "municipality", ""),
                                                  exc.quote, exc.section)
                out_cls = typing.get_type_hints(fn).get("return", ToolOutput)
                return _failed_output(out_cls, tool, inp, message, citations)
            finally:
                _DEPTH.reset(token)

        return guarded

    return wrap


def is_changed_rule(out: ToolOutput) -> bool:
    return not out.ok and bool(out.error) and out.error.startswith("This rule changed on ")
