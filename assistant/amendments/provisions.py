"""Every verbatim quote the calculators and the checklist rely on, who relies on it, and what
became of it in a new text of the chapter: unchanged, changed (still there, in an amended
paragraph) or gone (no longer resolves).

Quotes are read from ``assistant/tools/data/*.yaml`` and from the checklist's own ``b.cite``
calls; the calculators that read a provision are found from the tools' data (``tools:``,
deadline plans, the bonds permits table) and, for provisions keyed by role, from the string
constants of the tool's functions (``ast``).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from assistant.corpus import municipalities
from assistant.types import Document, Passage, normalize_ws

DATA_DIR = Path(__file__).resolve().parent.parent / "tools" / "data"


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
