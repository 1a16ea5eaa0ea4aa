"""The plain-word expansion rules (corpus/query_expansion.yaml) are well-formed data:
the file loads as a mapping of regular expressions to words, every key compiles, and no
two rules share a key (YAML would silently keep only the last of two equal keys)."""

from __future__ import annotations

import re

import yaml

from assistant.corpus import corpus_dir
from evals.ablation import compare

RULES = corpus_dir() / "query_expansion.yaml"


class _NoDuplicates(yaml.SafeLoader):
    """A loader that fails on a mapping holding one key twice."""

    def construct_mapping(self, node, deep=False):
        keys = [self.construct_object(k, deep=deep) for k, _ in node.value]
        dupes = sorted({k for k in keys if keys.count(k) > 1})
        assert not dupes, f"duplicate keys: {dupes}"
        return super().construct_mapping(node, deep=deep)


def _rules() -> dict:
    return yaml.load(RULES.read_text(encoding="utf-8"), Loader=_NoDuplicates)


def test_rules_load_as_a_mapping_of_words():
    rules = _rules()
    assert isinstance(rules, dict) and rules
    for key, words in rules.items():
        assert isinstance(key, str) and key.strip()
        assert isinstance(words, str) and words.split(), key


def test_every_key_compiles():
    for key in _rules():
        re.compile(key, re.I)


def test_no_key_duplicates_another():
    keys = list(_rules())
    # the same pattern written twice with only case or spacing changed is still a duplicate
    canon = [re.sub(r"\s+", " ", k.strip().lower()) for k in keys]
    assert len(set(canon)) == len(canon)


def test_duplicate_keys_are_caught():
    try:
        yaml.load('"a": x\n"a": y\n', Loader=_NoDuplicates)
    except AssertionError:
        return
    raise AssertionError("a duplicate key went unnoticed")


def test_compare_counts_help_and_hurt():
    # with the rule: ranks 1, None, 3, 2; without: 2, None, 1, None
    assert compare([1, None, 3, 2], [2, None, 1, None]) == (2, 1)
