"""No module of the package binds one top-level name twice: a later pattern or function of the same name silently
replaces the first for every use above it (session 35: a follow-up pattern named like the reader's own ``_MOVED``
made every follow-up read with an earlier day raise IndexError)."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "assistant"


def _top_level_names(tree: ast.Module) -> Counter:
    names: Counter = Counter()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names[node.target.id] += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
    return names


def test_no_top_level_name_is_bound_twice():
    twice = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        names = _top_level_names(ast.parse(path.read_text(encoding="utf-8")))
        dup = sorted(n for n, k in names.items() if k > 1)
        if dup:
            twice[str(path.relative_to(PACKAGE))] = dup
    assert twice == {}


def test_the_check_sees_a_name_bound_twice():
    assert _top_level_names(ast.parse("import re\nA = re.compile('a')\ndef f(): pass\nA = 1\n"))["A"] == 2
