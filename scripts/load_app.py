"""Bounded load tests of the web app on loopback (benchmark commands, not timed tests).

Both start ``python app.py`` (the real Assistant, embedded default) on a free loopback
port, wait until the assistant is ready and sample the app's resident memory (psutil, app
and its children, every 100 ms). The shared machinery is ``evals/app_load.py``.

Burst (default): one burst of ``--factor`` x ``queue_max_size`` requests at once
(questions, lookups and an over-long question); reports how many were answered, how many
were told "busy, try again" (gradio's full queue), any other error, the latencies and the
peak memory. Exit status 1 when the peak reaches ``--max-rss-mb`` (1,500 by default) or a
request fails with anything but "busy".

Compare (``--compare``): a fixed sample of the evaluation questions (``--turns``, 66 turns
by default: lookups, calculations, conversations with history, clarify, out of scope,
not stated) is asked serially by one client, then from ``--clients`` (8) concurrent
clients; every concurrent answer (text, calculators, notes, source boxes, the "answered
for" line) must be identical to its serial one. With ``--limits 1,2,4,8`` the concurrent
run is repeated against one app per concurrency limit (ASSISTANT_QUEUE_CONCURRENCY);
each reports answer latency p50/p95, wall time and peak memory. Exit status 1 when any
answer differs or the peak reaches ``--max-rss-mb``.

    .venv/bin/python scripts/load_app.py                          # burst of 10 x 16
    .venv/bin/python scripts/load_app.py --compare                # 66 turns, 8 clients, the configured limit
    .venv/bin/python scripts/load_app.py --compare --limits 1,2,4,8 [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from evals.app_load import (  # noqa: E402
    ask_all,
    compare,
    latency_summary,
    running_app,
    sample_conversations,
    tree_rss,
)

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
MB = 2**20


def _log_path(name: str) -> Path | None:
    return ROOT / "data" / name if (ROOT / "data").is_dir() else None


# ----------------------------------------------------------------------------- burst


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


def run_burst(args: argparse.Namespace) -> int:
    from assistant.settings import get_settings

    settings = get_settings()
    report: dict = {"queue_max_size": settings.queue_max_size, "queue_concurrency": settings.queue_concurrency}
    with running_app(ready_timeout_s=args.ready_timeout, log_path=_log_path("load_app.log")) as app:
        report["url"] = app.url
        report["ready_s"] = round(app.ready_s, 1)
        report["rss_ready_mb"] = round(tree_rss(app.rss.proc) / MB, 1)
        n = args.factor * settings.queue_max_size
        report["burst"] = burst(app.url, n, settings.max_question_chars, args.burst_timeout)
        time.sleep(0.5)
        report["rss_after_mb"] = round(tree_rss(app.rss.proc) / MB, 1)
        report["peak_rss_mb"] = round(app.rss.peak / MB, 1)
        report["rss_samples"] = app.rss.samples
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


# ----------------------------------------------------------------------------- compare


def run_compare(args: argparse.Namespace) -> int:
    from assistant.settings import get_settings

    # a limit may repeat (1,2,4,8,8,4,2,1: on a shared machine the order evens out the others' load)
    limits = [int(x) for x in args.limits.split(",")] if args.limits else [get_settings().queue_concurrency]
    conversations = sample_conversations(args.turns)
    n_turns = sum(len(c) for c in conversations)
    report: dict = {"turns": n_turns, "conversations": len(conversations), "clients": args.clients,
                    "max_rss_mb": args.max_rss_mb, "limits": []}
    serial = None
    say = (lambda m: None) if args.json else (lambda m: print(m, flush=True))
    for limit in limits:
        env = {"ASSISTANT_QUEUE_CONCURRENCY": str(limit),
               "ASSISTANT_QUEUE_MAX_SIZE": str(max(args.clients * 2, 16))}
        with running_app(env, ready_timeout_s=args.ready_timeout, log_path=_log_path(f"load_app_{limit}.log")) as app:
            if serial is None:
                t0 = time.monotonic()
                serial = ask_all(app.url, conversations, clients=1)
                report["serial"] = {"wall_s": round(time.monotonic() - t0, 1), **latency_summary(serial)}
                say(f"serial: {n_turns} turns ({len(conversations)} conversations) by 1 client in "
                    f"{report['serial']['wall_s']} s; answer p50 {report['serial']['p50_s']} s, "
                    f"p95 {report['serial']['p95_s']} s")
            app.rss.reset()
            t0 = time.monotonic()
            concurrent = ask_all(app.url, conversations, clients=args.clients)
            wall = time.monotonic() - t0
            diffs = compare(serial, concurrent)
            row = {"limit": limit, "wall_s": round(wall, 1), **latency_summary(concurrent),
                   "load_avg_1min": round(os.getloadavg()[0], 1),
                   "turns_per_s": round(n_turns / wall, 2), "peak_rss_mb": round(app.rss.peak / MB, 1),
                   "differing": len(diffs), "differences": [d.describe() for d in diffs]}
        report["limits"].append(row)
        say(f"limit {limit}: {args.clients} clients, {n_turns} turns in {row['wall_s']} s "
            f"({row['turns_per_s']} turns/s); answer p50 {row['p50_s']} s, p95 {row['p95_s']} s; "
            f"peak RSS {row['peak_rss_mb']} MB (load avg {row['load_avg_1min']}); {row['differing']} of {n_turns} answers differ from the serial run")
        for d in row["differences"]:
            say("  " + d.replace("\n", "\n  "))
    ok = all(r["differing"] == 0 and r["peak_rss_mb"] < args.max_rss_mb for r in report["limits"])
    report["pass"] = ok
    if args.json:
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        print("PASS" if ok else "FAIL")
    return 0 if ok else 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--factor", type=int, default=10, help="burst size as a multiple of the queue size (default 10)")
    ap.add_argument("--max-rss-mb", type=float, default=1500.0, help="fail at or above this peak RSS (default 1500)")
    ap.add_argument("--ready-timeout", type=float, default=900.0, help="seconds to wait for the assistant")
    ap.add_argument("--burst-timeout", type=float, default=300.0, help="seconds to wait for the burst to finish")
    ap.add_argument("--compare", action="store_true",
                    help="ask evaluation questions serially, then concurrently, and report differing answers")
    ap.add_argument("--turns", type=int, default=64, help="--compare: at least this many turns (default 64 -> 66)")
    ap.add_argument("--clients", type=int, default=8, help="--compare: concurrent clients (default 8)")
    ap.add_argument("--limits", default="", help="--compare: the app's concurrency limits to measure, e.g. 1,2,4,8 "
                    "(default: the configured ASSISTANT_QUEUE_CONCURRENCY)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    args = ap.parse_args(argv)
    if not (1 <= args.factor <= 20):
        ap.error("--factor must be between 1 and 20 (the script stays bounded)")
    if not (1 <= args.clients <= 32) or not (1 <= args.turns <= 400):
        ap.error("--clients must be 1-32 and --turns 1-400 (the script stays bounded)")
    if args.limits and not all(x.strip().isdigit() and 1 <= int(x) <= 32 for x in args.limits.split(",")):
        ap.error("--limits: comma-separated numbers from 1 to 32")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    return run_compare(args) if args.compare else run_burst(args)


if __name__ == "__main__":
    sys.exit(main())
