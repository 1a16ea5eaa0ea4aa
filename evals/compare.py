"""Compare two evaluation runs (``latest.json`` of ``python -m evals run``): every set's accuracy and wrong figures,
and for the sets whose failures may be read, which turns were fixed and which broke.

    python -m evals.compare BEFORE/latest.json AFTER/latest.json --unseen heldout12_questions slotstress10_questions samples10

Sets named with ``--unseen`` show figures only (their failures are not read: evals/README.md)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def _sets(run: dict) -> dict[str, dict]:
    out = {"tuned": run, **run.get("heldout", {})}
    samples = run.get("samples") or {}
    if samples:
        out["samples"] = samples
        out.update(samples.get("more_sets", {}))
    return out


def compare(before: dict, after: dict, unseen: set[str]) -> list[str]:
    lines = []
    a_sets, b_sets = _sets(before), _sets(after)
    for name, a in a_sets.items():
        b = b_sets.get(name)
        if b is None or a.get("answer_accuracy") is None:
            continue
        line = (f"{name:26s} {a['answer_accuracy']:.3f} -> {b['answer_accuracy']:.3f}  "
                f"wrong {a.get('wrong_figures')} -> {b.get('wrong_figures')}")
        if name not in unseen:
            fixed = sorted(set(a.get("failed", [])) - set(b.get("failed", [])))
            broke = sorted(set(b.get("failed", [])) - set(a.get("failed", [])))
            line += f"  fixed {fixed} broke {broke}"
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--unseen", nargs="*", default=[], help="sets shown by figures only")
    args = p.parse_args(argv)
    for line in compare(json.loads(args.before.read_text()), json.loads(args.after.read_text()), set(args.unseen)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
