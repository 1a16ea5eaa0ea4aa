"""The index's one code path against a real Chroma server, its fingerprint, and two
processes opening one data directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.retrieval.index import SearchIndex
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder

ROOT = Path(__file__).resolve().parent.parent


def start_chroma(path: Path, port: int | None = None):
    """A real `chroma run` on loopback: (port, stop) — evals.server_parity's, failing the test if it does not start."""
    from evals.server_parity import start_chroma as start

    try:
        return start(path, port=port)
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture
def chroma_server(tmp_path):
    port, stop = start_chroma(tmp_path / "server")
    try:
        yield port
    finally:
        stop()


def test_server_mode_gives_the_same_results_as_embedded(tmp_path, chroma_server):
    embedded = SearchIndex.open(Settings(data_dir=tmp_path / "emb"), embedder=FakeEmbedder())
    server_settings = Settings(data_dir=tmp_path / "srv", chroma_mode="server", chroma_host="127.0.0.1",
                               chroma_port=chroma_server)
    served = SearchIndex.open(server_settings, embedder=FakeEmbedder())
    assert served.built_now
    # the vectors went to the server, not to a local store
    emb_gen = tmp_path / "emb" / "generations" / embedded.generation
    srv_gen = tmp_path / "srv" / "generations" / served.generation
    assert (emb_gen / "chroma").is_dir() and not (srv_gen / "chroma").exists()
    assert any((tmp_path / "server").iterdir())
    for q in ("snow and ice removal within 24 hours", "indemnity bond for excavation"):
        a = [(h.passage.id, round(h.score, 5)) for h in embedded.search(q, "brandon", k=5)]
        b = [(h.passage.id, round(h.score, 5)) for h in served.search(q, "brandon", k=5)]
        assert a == b and a
    # a second open finds the server's collection complete: no rebuild
    again = SearchIndex.open(server_settings, embedder=FakeEmbedder())
    assert not again.built_now and again.fingerprint == served.fingerprint


def test_fingerprint_rebuilds_only_on_change(tmp_path):
    settings = Settings(data_dir=tmp_path)
    first = SearchIndex.open(settings, embedder=FakeEmbedder())
    assert first.built_now
    second = SearchIndex.open(settings, embedder=FakeEmbedder())
    assert not second.built_now and second.fingerprint == first.fingerprint
    info = json.loads((tmp_path / "index.json").read_text())
    assert info["fingerprint"] == first.fingerprint and info["chunks"] == len(first.chunks)
    assert info["generation"] == first.generation == second.generation

    class OtherModel(FakeEmbedder):
        fingerprint = "another-model"

    third = SearchIndex.open(settings, embedder=OtherModel())
    assert third.built_now and third.fingerprint != first.fingerprint


_OPEN = """
import json, sys
sys.path.insert(0, {root!r})
from assistant.retrieval.index import SearchIndex
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder
idx = SearchIndex.open(Settings(data_dir={data!r}), embedder=FakeEmbedder())
print(json.dumps({{"built": idx.built_now, "count": idx.vectors.count(), "chunks": len(idx.chunks)}}))
"""


def test_processes_at_once_on_one_data_directory(tmp_path):
    # four at once: opening the Chroma client on a new directory raced ("table collections
    # already exists") in nearly every round of four before the client was opened under the lock
    code = _OPEN.format(root=str(ROOT), data=str(tmp_path))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(4)]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err[-2000:]
        outs.append(json.loads(out.strip().splitlines()[-1]))
    assert sorted(o["built"] for o in outs) == [False, False, False, True]  # one built, the others waited
    assert all(o["count"] == o["chunks"] for o in outs)
    # and the directory is still sound for a third opener
    assert not SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder()).built_now


def test_server_mode_gives_the_same_top5_on_every_gold_query(tmp_path, chroma_server):
    """Issue 15's server target on the two chapters: the same top 5 passages from `chroma run`
    as from the embedded store for every gold retrieval query, with its municipality filter and
    across municipalities. (The real model's check is `python -m evals.bench server`.)"""
    from evals.bench import GOLD_RETRIEVAL, load_gold

    gold = load_gold(GOLD_RETRIEVAL)
    assert len(gold) > 100
    embedded = SearchIndex.open(Settings(data_dir=tmp_path / "emb"), embedder=FakeEmbedder())
    served = SearchIndex.open(Settings(data_dir=tmp_path / "srv", chroma_mode="server", chroma_host="127.0.0.1",
                                       chroma_port=chroma_server), embedder=FakeEmbedder())
    assert served.vectors.client is not embedded.vectors.client and not (tmp_path / "srv" / "chroma").exists()
    differ = []
    for it in gold:
        for m in (it["municipality"], None):
            a = [h.passage.id for h in embedded.search(it["query"], m, k=5)]
            b = [h.passage.id for h in served.search(it["query"], m, k=5)]
            assert len(a) == 5
            if a != b:
                differ.append((it["id"], m))
    assert not differ
    assert served._store_down_until == 0.0  # every dense search was answered by the server
