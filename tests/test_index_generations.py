"""Index generations: running processes keep answering while another process rebuilds;
old generations (and their Chroma segment folders) go once nobody uses them; a damaged
store is reported and rebuilt; a Chroma server restarted empty is refilled.

The fake embedder keeps these fast (the mechanics do not depend on the model)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from assistant.answering.assistant import Assistant
from assistant.retrieval.follower import IndexFollower
from assistant.retrieval.generations import Generations
from assistant.retrieval.index import SearchIndex, VectorStoreUnreachable
from assistant.settings import Settings
from assistant.webapp.loader import AssistantLoader
from tests.fake_embedder import FakeEmbedder
from tests.test_index_backends import start_chroma

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

QUESTIONS = [
    ("How much is the bond for a street opening?", "brandon"),
    ("When must snow be removed from the sidewalk?", "brandon"),
    ("How many days notice before I excavate in the street?", "brandon"),
    ("Who sets the street opening fee?", "brandon"),
    ("Do I need a permit for a culvert under my driveway?", "delafield"),
    ("What insurance is required for an excavation permit?", "delafield"),
    ("How big must house numbers be?", "delafield"),
    ("Can I build a fence in the right-of-way?", "delafield"),
]


def _amend_first_passage_of(municipality: str, monkeypatch) -> None:
    """Make the index see one passage of ``municipality`` changed (a chapter amended)."""
    import assistant.retrieval.index as index_module

    real = index_module.all_passages

    def amended():
        out, done = [], False
        for p in real():
            if p.municipality == municipality and not done:
                p, done = p.model_copy(update={"text": p.text + " (amended)"}), True
            out.append(p)
        return out

    monkeypatch.setattr(index_module, "all_passages", amended)


def _segment_folders(root: Path) -> list[Path]:
    """Chroma's HNSW segment folders (named by uuid) anywhere under root."""
    return [p for p in root.rglob("*") if p.is_dir() and len(p.name) == 36 and p.name.count("-") == 4]


def _env(data_dir: Path) -> dict[str, str]:
    return {**os.environ, "ASSISTANT_DATA_DIR": str(data_dir), "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}


def _cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "tests.fake_cli", *args], cwd=ROOT, env=_env(data_dir),
                          capture_output=True, text=True, timeout=180)


def _comparable(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "id"}


@pytest.fixture
def small_corpus(monkeypatch):
    """A slice of each chapter: the mechanics are the same, and a build takes a fraction
    of a second instead of seconds."""
    import assistant.retrieval.index as index_module

    every = index_module.all_passages()
    some = [p for m in ("brandon", "delafield") for p in [q for q in every if q.municipality == m][:25]]
    monkeypatch.setattr(index_module, "all_passages", lambda: some)


def test_exact_search_finds_what_the_vector_store_finds(tmp_path, small_corpus):
    idx = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    for q, m in QUESTIONS:
        v = FakeEmbedder().embed_query(q)
        for muni in (m, None):
            want = idx.vectors.search(v, muni, k=10)
            got = idx.exact_search(v, muni, k=10)
            assert [c for c, _ in got] == [c for c, _ in want]
            assert all(abs(a[1] - b[1]) < 1e-5 for a, b in zip(got, want))


def test_ten_rebuilds_leave_no_orphaned_generation_or_segment(tmp_path, small_corpus):
    settings = Settings(data_dir=tmp_path)
    (tmp_path / "chroma").mkdir(parents=True)  # the single store of earlier versions
    (tmp_path / "chroma" / "chroma.sqlite3").write_bytes(b"old")
    reader = SearchIndex.open(settings, embedder=FakeEmbedder())  # a process still answering from the first
    _, unfinished = Generations(tmp_path).create()  # a build SIGKILLed half-way
    (unfinished / "chunks.json").write_text("[")
    first = reader.generation
    want = [h.passage.id for h in reader.search("indemnity bond for excavation", "brandon", k=5)]
    latest = None
    for _ in range(10):
        if latest is not None:
            latest.close()
        latest = SearchIndex.open(settings, embedder=FakeEmbedder(), force=True)
        assert latest.built_now
    gens = Generations(tmp_path)
    # the reader's generation stays while it is held, and it still answers
    assert gens.all_ids() == sorted([first, latest.generation])
    assert [h.passage.id for h in reader.search("indemnity bond for excavation", "brandon", k=5)] == want
    reader.close()  # the last user lets go: removed at once
    assert gens.all_ids() == [latest.generation] == [gens.current()]
    n_collections = len(latest.vectors.collections)
    assert len(_segment_folders(tmp_path)) == n_collections == 2
    assert not (tmp_path / "chroma").exists()
    latest.close()
    assert [h.passage.id for h in SearchIndex.open(settings, embedder=FakeEmbedder()).search(
        "indemnity bond for excavation", "brandon", k=5)] == want


def test_a_request_in_flight_keeps_its_generation(tmp_path, small_corpus):
    settings = Settings(data_dir=tmp_path)
    follower = IndexFollower(SearchIndex.open(settings, embedder=FakeEmbedder()))
    gens = Generations(tmp_path)
    with follower.using() as held:
        want = [h.passage.id for h in held.search("excavation permit", "brandon", k=3)]
        newer = SearchIndex.open(settings, embedder=FakeEmbedder(), force=True)  # another builder publishes
        with follower.using() as next_request:  # a request starting now gets the new one
            assert next_request is not held and next_request.generation == newer.generation == gens.current()
        # the request in flight keeps answering from its own generation, still on disk
        assert not held.closed and held.generation in gens.all_ids()
        assert [h.passage.id for h in held.search("excavation permit", "brandon", k=3)] == want
    assert held.closed  # let go once its last request ended
    newer.close()
    assert gens.all_ids() == [newer.generation]
    with follower.using() as idx:
        assert [h.passage.id for h in idx.search("excavation permit", "brandon", k=3)] == want


def test_a_corrupted_store_is_reported_and_rebuilt(tmp_path, monkeypatch, capsys, small_corpus):
    settings = Settings(data_dir=tmp_path)
    good = SearchIndex.open(settings, embedder=FakeEmbedder())
    want = [h.passage.id for h in good.search("culvert under a driveway", "delafield", k=5)]
    gid = good.generation
    good.close()
    sqlite = tmp_path / "generations" / gid / "chroma" / "chroma.sqlite3"
    sqlite.write_bytes(b"this is not a database" * 4096)

    # a plain open notices, says so, and builds a new generation; the damaged one is removed
    again = SearchIndex.open(settings, embedder=FakeEmbedder())
    assert again.built_now and again.generation != gid
    assert any(gid in p and "damaged" in p and "not a database" in p for p in again.problems)
    assert [h.passage.id for h in again.search("culvert under a driveway", "delafield", k=5)] == want
    again.close()
    assert Generations(tmp_path).all_ids() == [again.generation]

    # `index --force` on a corrupted store works (it never opens the damaged one)
    (tmp_path / "generations" / again.generation / "chroma" / "chroma.sqlite3").write_bytes(b"\0garbage" * 999)
    import assistant.retrieval.index as index_module
    from assistant.__main__ import main

    monkeypatch.setattr(index_module, "get_settings", lambda: settings)
    monkeypatch.setattr(index_module, "get_embedder", lambda: FakeEmbedder())
    assert main(["index", "--force", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["built_now"] and out["generation"] != again.generation
    assert Generations(tmp_path).all_ids() == [out["generation"]]

    # a pointer naming nothing is reported too, and a generation built
    (tmp_path / "CURRENT").write_text("garbage")
    repaired = SearchIndex.open(settings, embedder=FakeEmbedder())
    assert repaired.built_now and any("pointer" in p and "unreadable" in p for p in repaired.problems)
    repaired.close()
    out["generation"] = repaired.generation
    assert Generations(tmp_path).all_ids() == [out["generation"]]

    # and `index` (no --force) on a damaged store reports the damage in its output
    (tmp_path / "generations" / out["generation"] / "passages.json").write_text("{ not json")
    assert main(["index"]) == 0
    captured = capsys.readouterr()
    assert "damaged" in captured.err and out["generation"] in captured.err
    assert captured.out.strip().splitlines()[-1].startswith("built: generation")


_READER = """
import sys, time
sys.path.insert(0, {root!r})
from assistant.retrieval.index import SearchIndex
from assistant.settings import Settings
from tests.fake_embedder import FakeEmbedder
idx = SearchIndex.open_published(Settings(data_dir={data!r}), embedder=FakeEmbedder())
print(idx.generation, flush=True)
time.sleep(600)
"""


_REBUILDER = """
import sys, time
import tests.fake_cli
from assistant.__main__ import main
sys.stdin.readline()  # started early (imports overlap the others' start), rebuilds when told
for _ in range(3):
    assert main(["index", "--force"]) == 0
    time.sleep(0.3)
"""


def test_batch_and_app_keep_answering_while_another_process_rebuilds_three_times(tmp_path):
    """The acceptance test of issue 13 item 1: an `ask --jsonl` batch (a process) and a
    web-app-like loop (a worker thread on one long-lived Assistant, beside this thread's batch
    client) answer every request exactly as before while `index --force` runs three times in
    another process; afterwards one generation is left, and a SIGKILLed reader's generation
    is removed too. (One app worker: two threads on one Assistant give different answers
    even without rebuilds, the planner's shared per-request state of issue 13 item 5.)"""
    SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder()).close()
    gens = Generations(tmp_path)
    first = gens.current()

    # a reader that will be SIGKILLed while it holds the first generation
    reader = subprocess.Popen([PY, "-c", _READER.format(root=str(ROOT), data=str(tmp_path))], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=_env(tmp_path))
    batch_err = (tmp_path / "batch.err").open("w")
    batch = subprocess.Popen([PY, "-m", "tests.fake_cli", "ask", "--jsonl"], cwd=ROOT, env=_env(tmp_path),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=batch_err, text=True, bufsize=1)
    rebuilder_proc = subprocess.Popen([PY, "-c", _REBUILDER], cwd=ROOT, env=_env(tmp_path), stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    app = Assistant(SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder()))
    loader = AssistantLoader(assistant=app)  # what the web app's handlers ask for the assistant
    try:
        assert reader.stdout.readline().strip() == first

        def batch_ask(n: int) -> dict:
            q, m = QUESTIONS[n % len(QUESTIONS)]
            batch.stdin.write(json.dumps({"id": n, "question": q, "municipality": m}) + "\n")
            batch.stdin.flush()
            line = batch.stdout.readline()
            assert line, f"the batch ended at line {n}: {(tmp_path / 'batch.err').read_text()[-2000:]}"
            return json.loads(line)

        def app_ask(n: int) -> dict:
            q, m = QUESTIONS[n % len(QUESTIONS)]
            return json.loads(loader.get().ask(q, m).model_dump_json())

        base_batch = [_comparable(batch_ask(n)) for n in range(len(QUESTIONS))]
        base_app = [_comparable(app_ask(n)) for n in range(len(QUESTIONS))]
        assert base_batch == base_app  # one code path: the batch and the app agree
        assert not any("Sorry" in a["answer"] for a in base_batch)

        rebuilt: list[tuple[int, str, str]] = []

        def rebuild_three_times() -> None:  # one process, the CLI's `index --force` three times
            out, err = rebuilder_proc.communicate("go\n", timeout=300)
            rebuilt.append((rebuilder_proc.returncode, out, err))

        rebuilder = threading.Thread(target=rebuild_three_times)
        rebuilder.start()
        wrong: list[tuple[str, int, dict]] = []
        counts = {"batch": 0, "app": 0}

        def app_worker() -> None:
            n = 0
            while (rebuilder.is_alive() or n < 200) and n < 5000:
                got = _comparable(app_ask(n))
                if got != base_app[n % len(QUESTIONS)]:
                    wrong.append(("app", n, got))
                n += 1
            counts["app"] = n

        with ThreadPoolExecutor(1) as pool:
            workers = [pool.submit(app_worker)]
            n = 0
            while (rebuilder.is_alive() or n < 300) and n < 5000:
                got = _comparable(batch_ask(n))
                if got != base_batch[n % len(QUESTIONS)]:
                    wrong.append(("batch", n, got))
                n += 1
            counts["batch"] = n
            for w in workers:
                w.result(timeout=300)
        rebuilder.join()
        assert rebuilt[0][0] == 0, rebuilt[0][2][-2000:]
        assert rebuilt[0][1].count("built: generation") == 3
        assert not wrong, wrong[:3]
        assert counts["batch"] >= 300 and counts["app"] >= 200
        print(f"answered while rebuilding: batch {counts['batch']}, app {counts['app']}")

        # one more request each: both move to the last generation and let the others go
        last = gens.current()
        assert _comparable(batch_ask(0)) == base_batch[0]
        assert _comparable(app_ask(0)) == base_app[0]
        assert app.index.generation == last == loader.status()["index_generation"] and app.follower.switches >= 3
        assert gens.all_ids() == sorted({first, last})  # the killed-to-be reader still holds the first

        reader.send_signal(signal.SIGKILL)
        reader.wait(timeout=30)
        app.reindex()  # a build collects what nobody holds: the SIGKILLed reader's lease is gone
        assert first not in gens.all_ids() and app.index.generation == gens.current()
        assert _comparable(app_ask(1)) == base_app[1]
        assert _comparable(batch_ask(1)) == base_batch[1]  # the batch follows the app's rebuild too
        assert gens.all_ids() == [gens.current()]  # ... and lets the one it left go
    finally:
        for proc in (reader, rebuilder_proc):
            if proc.poll() is None:
                proc.kill()
        batch.stdin.close()
        rc = batch.wait(timeout=60)
        batch_err.close()
    assert rc == 0, (tmp_path / "batch.err").read_text()[-2000:]


def test_a_chroma_server_restarted_empty_is_refilled(tmp_path, monkeypatch, small_corpus):
    port, stop = start_chroma(tmp_path / "server-1")
    settings = Settings(data_dir=tmp_path / "data", chroma_mode="server", chroma_host="127.0.0.1", chroma_port=port)
    query = "snow and ice removal within 24 hours"
    try:
        running = SearchIndex.open(settings, embedder=FakeEmbedder())
        want = [h.passage.id for h in running.search(query, "brandon", k=5)]
        stop()
        _, stop = start_chroma(tmp_path / "server-2", port=port)  # same port, no data
        # a running process: its next search finds the collections gone, refills them, answers
        assert [h.passage.id for h in running.search(query, "brandon", k=5)] == want
        assert [h.passage.id for h in running.search(query, "delafield", k=5)]
        # a process opening later finds a collection missing: refilled from the stored
        # vectors, no re-embedding, same generation
        running.vectors.client.delete_collection(running.vectors.collections["delafield"].name)
        again = SearchIndex.open(settings, embedder=FakeEmbedder())
        assert not again.built_now and again.generation == running.generation
        assert any("refilled" in p and "delafield" in p for p in again.problems)
        assert [h.passage.id for h in again.search(query, "brandon", k=5)] == want

        # one municipality amended: the other's collection is reused on the server as it is
        _amend_first_passage_of("delafield", monkeypatch)
        third = SearchIndex.open(settings, embedder=FakeEmbedder())
        assert third.built_now and third.reused == ["brandon"]
        assert third.vectors.names["brandon"] == running.vectors.names["brandon"]
        assert third.vectors.names["delafield"] != running.vectors.names["delafield"]
        running.close()
        again.close()  # the old generation's last user: it goes, with the collection only it named
        client = third.vectors.client
        assert {c.name for c in client.list_collections()} == set(third.vectors.names.values())
        assert [h.passage.id for h in third.search(query, "brandon", k=5)] == want

        # the server down altogether: searches answer from the generation's own vectors
        stop()
        assert [h.passage.id for h in third.search(query, "brandon", k=5)] == want
        assert [h.passage.id for h in third.search(query, None, k=5)]
        # ... and opening says the server does not answer (no rebuild: it would not help)
        with pytest.raises(VectorStoreUnreachable, match="does not answer"):
            SearchIndex.open(settings, embedder=FakeEmbedder())
        assert Generations(tmp_path / "data").all_ids() == [third.generation]
    finally:
        stop()


def test_an_unchanged_municipality_keeps_its_vectors(tmp_path, monkeypatch, small_corpus):
    """Issue 15's unit: a change to one municipality re-embeds (and re-chunks) only that one,
    and the index searches exactly as one built from scratch."""
    import assistant.retrieval.index as index_module
    from assistant.retrieval.chunking import chunk_passages

    changed = "delafield"
    first = SearchIndex.open(Settings(data_dir=tmp_path), embedder=FakeEmbedder())
    _amend_first_passage_of(changed, monkeypatch)
    counting = FakeEmbedder()
    embedded: list[str] = []
    counting.embed_documents = lambda texts, show_progress=False: (embedded.extend(texts), FakeEmbedder().embed_documents(texts))[1]
    second = SearchIndex.open(Settings(data_dir=tmp_path), embedder=counting)
    assert second.built_now and second.reused == [m for m in first.vectors.collections if m != changed]
    # only the changed municipality is chunked again, and of it only text never embedded
    # (the amended passage's) goes to the embedder: the rest is read back by content
    old_texts = {c.embed_text for c in first.chunks}
    amended = {c.embed_text for c in second.chunks if c.municipality == changed} - old_texts
    assert embedded and sorted(embedded) == sorted(amended)
    info = Generations(tmp_path).info(second.generation)
    assert info.units[changed].reused_from is None
    assert all(u.reused_from == first.generation for m, u in info.units.items() if m != changed)
    # the same chunks in the same order as a build from scratch: ties break the same way
    scratch = SearchIndex.open(Settings(data_dir=tmp_path / "scratch"), embedder=FakeEmbedder())
    assert [c.id for c in second.chunks] == [c.id for c in chunk_passages(index_module.all_passages(), True)]
    assert [c.id for c in second.chunks] == [c.id for c in scratch.chunks]
    for q, m in QUESTIONS:
        assert [(h.passage.id, h.score) for h in second.search(q, m)] == [(h.passage.id, h.score) for h in scratch.search(q, m)]
