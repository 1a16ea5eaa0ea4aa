"""Helpers shared by the CLI verbs."""

from __future__ import annotations

import json
import sys
from typing import Any

from assistant.corpus import resolve_municipality


def municipality_arg(value: str | None) -> str | None:
    m = resolve_municipality(value) if value else None
    return m.id if m else None


def print_json(obj: Any) -> None:
    json.dump(obj, sys.stdout, ensure_ascii=False, indent=2, default=str)
    sys.stdout.write("\n")


def citation_fields(p) -> dict:
    return {
        "municipality": p.municipality, "chapter": p.chapter, "section": p.section, "title": p.title,
        "subsection": p.subsection, "page": p.page,
    }


def open_index(quiet: bool = False):
    from assistant.retrieval.index import SearchIndex

    def progress(frac: float, msg: str) -> None:
        if not quiet:
            print(f"[index {frac:4.0%}] {msg}", file=sys.stderr)

    return SearchIndex.open(progress=progress)
