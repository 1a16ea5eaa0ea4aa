"""`python -m evals.bench server`: does `chroma run` give the same top 5 as the embedded store?

The two chapters are indexed once with the configured embedder (embedded store), then the
same data folder is opened in server mode against a `chroma run` started on loopback for
the check (its collections are filled from the generation's stored vectors: nothing is
embedded twice) and stopped afterwards. Every query of the gold and held-out retrieval
sets is searched in both, with its municipality filter and across municipalities, and the
top 5 passage ids compared (order included).
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def start_chroma(path: Path, timeout_s: float = 60.0, port: int | None = None) -> tuple[int, Callable[[], None]]:
    """A `chroma run` on 127.0.0.1 (a free port unless one is given): (port, stop). The tests use it too."""
    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    exe = Path(sys.executable).parent / "chroma"
    proc = subprocess.Popen([str(exe), "run", "--path", str(path), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop() -> None:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=20)

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return port, stop
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError("chroma run exited at start")
            time.sleep(0.2)
    stop()
    raise RuntimeError(f"chroma run did not answer within {timeout_s:.0f} s")


def server_parity(embedder=None, progress: Callable[[str], None] = lambda m: None, k: int = 5) -> dict:
    from evals.bench import GOLD_RETRIEVAL, HELDOUT_RETRIEVAL, load_gold
    from evals.scale import _env

    from assistant.retrieval.index import SearchIndex
    from assistant.settings import get_settings

    if embedder is None:
        from assistant.retrieval.embeddings import get_embedder

        embedder = get_embedder()
    items = load_gold(GOLD_RETRIEVAL) + (load_gold(HELDOUT_RETRIEVAL) if HELDOUT_RETRIEVAL.exists() else [])
    out: dict = {"embedder": embedder.fingerprint, "queries": len(items), "k": k}
    with tempfile.TemporaryDirectory(prefix="bench-server-") as tmp:
        corpus, data = Path(tmp) / "corpus", Path(tmp) / "data"
        shutil.copytree(ROOT / "corpus", corpus)
        _env(corpus, data)
        base = get_settings()
        t0 = time.perf_counter()
        embedded = SearchIndex.open(base.model_copy(update={"chroma_mode": "embedded"}), embedder=embedder)
        out["build_s"] = round(time.perf_counter() - t0, 2)
        progress(f"embedded index: {len(embedded.chunks)} chunks in {out['build_s']} s")
        port, stop = start_chroma(Path(tmp) / "server")
        try:
            t0 = time.perf_counter()
            served = SearchIndex.open(base.model_copy(update={"chroma_mode": "server", "chroma_host": "127.0.0.1",
                                                              "chroma_port": port}), embedder=embedder)
            out["server_open_s"] = round(time.perf_counter() - t0, 2)
            out["server_embedded_texts"] = served.embedded_texts
            differ, compared = [], 0
            for it in items:
                for m in (it.get("municipality"), None):
                    a = [h.passage.id for h in embedded.search(it["query"], m, k=k)]
                    b = [h.passage.id for h in served.search(it["query"], m, k=k)]
                    compared += 1
                    if a != b:
                        differ.append({"id": it.get("id"), "municipality": m, "embedded": a, "server": b})
            out["searches"] = compared
            out["same_top5"] = compared - len(differ)
            out["differ"] = differ
            out["server_fallbacks"] = int(served._store_down_until != 0.0)
            served.close()
        finally:
            stop()
            embedded.close()
    return out
