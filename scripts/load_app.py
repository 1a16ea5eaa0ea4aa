"""Bounded load test of the web app on loopback: a burst of 10x the queue size.

Starts ``python app.py`` (the real Assistant) on a free loopback port, waits until the
assistant is ready, then fires one burst of ``--factor`` x ``queue_max_size`` requests
at once (questions, lookups and an over-long question), and reports how many were
answered, how many were told "busy, try again" (gradio's full queue), any other error,
the latencies, and the app's peak resident memory (psutil, app and its children,
sampled every 100 ms). Exit status 1 when the peak reaches ``--max-rss-mb`` (1,500 by
default) or when a request fails with anything but "busy".

    .venv/bin/python scripts/load_app.py            # real assistant, burst of 10 x 16
    .venv/bin/python scripts/load_app.py --json     # the report as JSON
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = [
    "What is the surcharge for opening a street paved 18 months ago in Brandon?",
    "When can I not open a street in the Village of Brandon?",
    "What insurance does a contractor need for an excavation permit in Delafield?",
    "How do I report an emergency excavation in Brandon?",
    "Who installs a driveway culvert in the Town of Delafield?",
    "How wide must a commercial sidewalk be in Brandon?",
    "How long is a street opening permit valid in Brandon?",
    "Do I need a permit to drive a 10 ton machine on a Town road in Delafield?",
]
LOOKUPS = ["backfill compaction", "frozen ground", "indemnity bond", "culvert end guards", "sidewalk thickness"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tree_rss(proc: psutil.Process) -> int:
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total


class RssSampler(threading.Thread):
    def __init__(self, proc: psutil.Process, every_s: float = 0.1):
        super().__init__(daemon=True)
        self.proc, self.every_s = proc, every_s
        self.peak = 0
        self.samples = 0
        self._stop_evt = threading.Event()

    def run(self) -> None:
        while not self._stop_evt.is_set():
            try:
                self.peak = max(self.peak, tree_rss(self.proc))
                self.samples += 1
            except psutil.Error:
                return
            self._stop_evt.wait(self.every_s)

    def stop(self) -> None:
        self._stop_evt.set()
        self.join(2)


def wait_ready(url: str, app: subprocess.Popen, timeout_s: float) -> float:
    """Seconds until the page serves and the assistant reports ready."""
    from gradio_client import Client

    t0 = time.monotonic()
    client = None
    while time.monotonic() - t0 < timeout_s:
        if app.poll() is not None:
            raise SystemExit(f"the app exited with status {app.returncode} before it was ready")
        try:
            client = client or Client(url, verbose=False, download_files=False)
            status = client.predict(api_name="/status")
            html = status[0] if isinstance(status, (list, tuple)) else status
            if not html:
                return time.monotonic() - t0
            if "could not start" in html:
                raise SystemExit("the assistant could not start: " + html)
        except SystemExit:
            raise
        except Exception:
            client = None
        time.sleep(1.0)
    raise SystemExit(f"the app was not ready within {timeout_s:.0f} s")


def burst(url: str, n: int, max_question_chars: int, timeout_s: float) -> dict:
    from gradio_client import Client

    n_clients = min(n, 20)
    clients = [Client(url, verbose=False, download_files=False, max_workers=max(1, -(-n // n_clients)) + 1)
               for _ in range(n_clients)]
    kinds, jobs = [], []
    start = time.monotonic()
    for i in range(n):
        c = clients[i % n_clients]
        if i % 10 == 9:
            kinds.append("too_long")
            jobs.append(c.submit("x" * (max_question_chars + 50), "auto", [], api_name="/ask"))
        elif i % 3 == 2:
            kinds.append("lookup")
            jobs.append(c.submit(LOOKUPS[i % len(LOOKUPS)], "auto", api_name="/lookup"))
        else:
            kinds.append("ask")
            jobs.append(c.submit(QUESTIONS[i % len(QUESTIONS)], "auto", [], api_name="/ask"))
    outcome: dict[str, int] = {"ok": 0, "busy": 0, "error": 0}
    errors: list[str] = []
    latencies: list[float] = []
    deadline = start + timeout_s
    for kind, job in zip(kinds, jobs):
        try:
            result = job.result(timeout=max(1.0, deadline - time.monotonic()))
            latencies.append(time.monotonic() - start)
            if kind == "too_long":
                text = json.dumps(result, ensure_ascii=False)
                if "limit is" not in text:
                    errors.append("an over-long question was not refused")
                    outcome["error"] += 1
                    continue
            outcome["ok"] += 1
        except Exception as exc:  # gradio_client raises QueueError on a full queue
            msg = str(exc)
            if "queue is full" in msg.lower() or "busy" in msg.lower():
                outcome["busy"] += 1
            else:
                outcome["error"] += 1
                errors.append(f"{type(exc).__name__}: {msg[:200]}")
    for c in clients:
        try:
            c.close()
        except Exception:
            pass
    latencies.sort()

    def pct(p: float) -> float | None:
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))], 2) if latencies else None

    return {"requests": n, **outcome, "errors": errors[:10], "wall_s": round(time.monotonic() - start, 2),
            "p50_s": pct(0.5), "p95_s": pct(0.95), "max_s": round(latencies[-1], 2) if latencies else None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--factor", type=int, default=10, help="burst size as a multiple of the queue size (default 10)")
    ap.add_argument("--max-rss-mb", type=float, default=1500.0, help="fail at or above this peak RSS (default 1500)")
    ap.add_argument("--ready-timeout", type=float, default=900.0, help="seconds to wait for the assistant")
    ap.add_argument("--burst-timeout", type=float, default=300.0, help="seconds to wait for the burst to finish")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    if not (1 <= args.factor <= 20):
        ap.error("--factor must be between 1 and 20 (the script stays bounded)")

    sys.path.insert(0, str(ROOT))
    from assistant.settings import get_settings

    settings = get_settings()
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    env = dict(os.environ, ASSISTANT_HOST="127.0.0.1", ASSISTANT_PORT=str(port), GRADIO_ANALYTICS_ENABLED="False",
               HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    log = open(ROOT / "data" / "load_app.log", "w") if (ROOT / "data").is_dir() else subprocess.DEVNULL
    app = subprocess.Popen([sys.executable, str(ROOT / "app.py")], cwd=ROOT, env=env, stdout=log,
                           stderr=subprocess.STDOUT)
    proc = psutil.Process(app.pid)
    sampler = RssSampler(proc)
    sampler.start()
    report: dict = {"url": url, "queue_max_size": settings.queue_max_size,
                    "queue_concurrency": settings.queue_concurrency}
    try:
        report["ready_s"] = round(wait_ready(url, app, args.ready_timeout), 1)
        report["rss_ready_mb"] = round(tree_rss(proc) / 2**20, 1)
        n = args.factor * settings.queue_max_size
        report["burst"] = burst(url, n, settings.max_question_chars, args.burst_timeout)
        time.sleep(0.5)
        report["rss_after_mb"] = round(tree_rss(proc) / 2**20, 1)
    finally:
        sampler.stop()
        app.terminate()
        try:
            app.wait(15)
        except subprocess.TimeoutExpired:
            app.kill()
            app.wait(5)
        if log is not subprocess.DEVNULL:
            log.close()
    report["peak_rss_mb"] = round(sampler.peak / 2**20, 1)
    report["rss_samples"] = sampler.samples
    report["max_rss_mb"] = args.max_rss_mb
    b = report["burst"]
    ok = report["peak_rss_mb"] < args.max_rss_mb and b["error"] == 0 and b["busy"] > 0
    report["pass"] = ok
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"app ready in {report['ready_s']} s (RSS {report['rss_ready_mb']} MB); queue: concurrency "
              f"{report['queue_concurrency']}, max size {report['queue_max_size']}")
        print(f"burst of {b['requests']}: {b['ok']} answered, {b['busy']} busy (try again), {b['error']} errors; "
              f"wall {b['wall_s']} s, p50 {b['p50_s']} s, p95 {b['p95_s']} s")
        for e in b["errors"]:
            print(f"  error: {e}")
        print(f"peak RSS {report['peak_rss_mb']} MB over {report['rss_samples']} samples "
              f"(limit {args.max_rss_mb:.0f} MB); after the burst {report['rss_after_mb']} MB")
        print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
