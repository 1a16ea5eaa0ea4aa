"""Nothing about a particular municipality lives in code: it is data (issue 11, item 5).

Scans every ``assistant/**/*.py`` with ``ast`` for string constants (docstrings and
comments are not code and are allowed) that equal or contain a municipality id or name
taken from corpus/manifest.yaml, and fails naming file:line.
"""

from __future__ import annotations

import ast
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "assistant"

# TODO(issue 11 item 5): assistant/answering/ is being rewritten on main by another
# developer (planner, routing); it still names municipalities in code. Remove each
# entry here as that code moves its municipality knowledge to data.
EXEMPT_TODO: tuple[str, ...] = ()


def municipality_words(manifest: Path = ROOT / "corpus" / "manifest.yaml") -> list[str]:
    """Ids and names of every manifest entry, lower-cased (compared case-insensitively)."""
    data = yaml.safe_load(manifest.read_text(encoding="utf-8"))
    words: set[str] = set()
    for doc in data.get("documents", []):
        words.add(str(doc["id"]).lower())
        words.add(str(doc["name"]).lower())
    return sorted(words)


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                ids.add(id(body[0].value))
    return ids


def literal_hits(path: Path, words: list[str], root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    docstrings = _docstring_nodes(tree)
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            low = node.value.lower()
            found = [w for w in words if w in low]
            if found:
                rel = path.relative_to(root).as_posix()
                hits.append(f"{rel}:{node.lineno}: {node.value[:70]!r} names {found[0]!r}")
    return hits


def scanned_files() -> list[Path]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if any(rel.startswith(prefix) for prefix in EXEMPT_TODO):
            continue
        out.append(path)
    return out


def test_manifest_gives_words_to_look_for():
    words = municipality_words()
    assert len(words) >= 2 and all(words)


def test_scanner_finds_a_literal_and_skips_docstrings_and_comments(tmp_path):
    src = tmp_path / "mod.py"
    src.write_text(
        '"""Module about Brandon (a docstring: allowed)."""\n'
        "# brandon in a comment: allowed\n"
        "def f():\n"
        '    """Delafield docstring."""\n'
        '    return "brandon"\n'
        'X = f"the {1} Town of Delafield"\n',
        encoding="utf-8",
    )
    hits = literal_hits(src, municipality_words(), root=tmp_path)
    assert [h.split(":")[:2] for h in hits] == [["mod.py", "5"], ["mod.py", "6"]], hits


def test_no_municipality_literal_in_code():
    words = municipality_words()
    hits = [h for path in scanned_files() for h in literal_hits(path, words)]
    assert not hits, "municipality named in code (move it to data):\n" + "\n".join(hits)


def test_exemptions_still_needed():
    """An exempt folder that no longer names a municipality should leave the TODO list."""
    words = municipality_words()
    for prefix in EXEMPT_TODO:
        files = sorted((ROOT / prefix).rglob("*.py"))
        assert any(literal_hits(p, words) for p in files), f"{prefix} is clean: remove it from EXEMPT_TODO"


def test_every_tool_declares_its_municipalities_in_data():
    """The registry's ``tool.municipalities`` comes from the tools' data files, and names
    only manifest ids."""
    from assistant.corpus import municipalities
    from assistant.tools.registry import all_tools

    known = {m.id for m in municipalities()}
    for name, spec in all_tools().items():
        assert spec.municipalities, f"{name}: no `tools:` entry in assistant/tools/data/*.yaml"
        assert set(spec.municipalities) <= known, name


def test_a_tool_answers_elsewhere_from_data():
    """A single-municipality tool asked about another municipality answers with the data's
    sentence (ok=False), and its input defaults to the one municipality it covers."""
    from assistant.tools import coverage
    from assistant.tools.registry import all_tools, run_tool

    spec = all_tools()["snow_removal_charge"]
    assert len(spec.municipalities) == 1
    covered = spec.municipalities[0]
    other = next(m for m in coverage._declarations()["snow_removal_charge"]["not_covered"])
    out = run_tool(spec.name, {"municipality": other,
                               "employees": [{"hours": 1, "hourly_rate_including_benefits": 10}]})
    assert not out.ok and out.error == coverage.not_covered(spec.name, other)
    out = run_tool(spec.name, {"employees": [{"hours": 1, "hourly_rate_including_benefits": 10}]})
    assert out.ok and out.municipality == covered
