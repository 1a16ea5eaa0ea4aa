"""A staff query across municipalities (issue 15): each municipality's best passages,
grouped, each cited, from the same filtered search a single municipality gets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from assistant.retrieval.index import SearchIndex, per_municipality
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder

ROOT = Path(__file__).resolve().parents[1]
QUERY = "bond for a street opening"


def test_each_municipality_gets_its_own_best_passages(tmp_path):
    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    try:
        groups = per_municipality(idx, QUERY, k=2)
        assert sorted(g.municipality for g in groups) == sorted({p.municipality for p in idx.passages})
        for g in groups:
            assert 1 <= len(g.hits) <= 2 and all(h.passage.municipality == g.municipality for h in g.hits)
            # the same passages as that municipality's own search
            assert [h.passage.id for h in g.hits] == [h.passage.id for h in idx.search(QUERY, g.municipality, k=2)]
        sims = [g.best_similarity for g in groups]
        assert sims == sorted(sims, reverse=True)
    finally:
        idx.close()


def _cli(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = {"ASSISTANT_DATA_DIR": str(tmp_path / "data"), "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1",
           "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "tests.fake_cli", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)


def test_search_command_groups_by_municipality_with_citations(tmp_path):
    r = _cli(tmp_path, "search", QUERY, "--per-municipality", "2", "--json")
    assert r.returncode == 0, r.stderr
    groups = json.loads(r.stdout)
    assert {g["municipality"] for g in groups} == {"brandon", "delafield"}
    for g in groups:
        assert g["name"] and 1 <= len(g["hits"]) <= 2
        for h in g["hits"]:
            assert h["municipality"] == g["municipality"] and h["text"] and (h["section"] or h["title"])
    text = _cli(tmp_path, "search", QUERY, "--per-municipality", "1")
    assert text.returncode == 0 and text.stdout.count("== ") == 2 and "1. " in text.stdout
    bad = _cli(tmp_path, "search", QUERY, "--per-municipality", "1", "-m", "brandon")
    assert bad.returncode != 0 and "leave out --municipality" in bad.stderr
    zero = _cli(tmp_path, "search", QUERY, "--per-municipality", "0")
    assert zero.returncode != 0 and "between 1 and" in zero.stderr
