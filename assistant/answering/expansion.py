"""Plain-language query expansion from corpus/query_expansion.yaml (data, not code)."""

from __future__ import annotations

import functools
import re

import yaml

from assistant.corpus import corpus_dir


@functools.cache
def _rules(path: str) -> tuple[tuple[re.Pattern, str], ...]:
    try:
        data = yaml.safe_load(open(path, encoding="utf-8")) or {}
    except FileNotFoundError:
        return ()
    return tuple((re.compile(k, re.I), str(v)) for k, v in data.items())


def expand(question: str) -> str:
    """The question plus the code's words for the plain words it uses."""
    extra = [words for rx, words in _rules(str(corpus_dir() / "query_expansion.yaml")) if rx.search(question)]
    return f"{question} {' '.join(extra)}" if extra else question
