"""The web app under load, answers compared: the same questions asked serially and from
N concurrent clients must get identical answers (issue 13 item 5, issue 11 item 4).

Used by ``tests/test_app_load.py`` (about 24 turns, 8 clients) and by the benchmark
command ``scripts/load_app.py --compare`` (76 turns, 8 clients, one app per concurrency
limit). Everything runs against the real app: ``python app.py`` in a subprocess on a free
loopback port, asked through its HTTP API with gradio_client (one ``Client`` per client
thread, as the gradio docs advise: a Client is one user). A conversation is asked turn by
turn by one client, each later turn carrying the chat history the app returned, as the
page does; different conversations run at the same time on different clients.

What is compared is everything ``/ask`` returns for a turn: the new chat messages (the
answer's text with its footer, each calculator box, the notes and every source box with
its quotes) and the "answered for" line. The answer's status is not sent to the page; a
change of status shows as a change of text.
"""

from __future__ import annotations

import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
import yaml

from evals.scoring import percentile

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "evals" / "questions.yaml"
SCRATCH_MUNICIPALITIES = {"testville"}  # served only by the scratch corpus of the evals
# items per kind for a 24-turn sample (a conversation item has two or three turns)
BASE_QUOTA = {"lookup": 6, "calculation": 6, "conversation": 3, "clarify": 2, "out_of_scope": 2, "not_stated": 2}
TURN_TIMEOUT_S = 120.0


# ----------------------------------------------------------------------------- the sample


@dataclass(frozen=True)
class Turn:
    id: str
    kind: str
    question: str
    municipality: str | None


def sample_conversations(turns: int = 24, path: Path = QUESTIONS) -> list[list[Turn]]:
    """A fixed sample of the evaluation questions, about ``turns`` turns (never fewer):
    items of each kind in BASE_QUOTA's proportions, evenly spaced through the file; each
    item a conversation of its turns. Items of the scratch municipality are left out."""
    items = yaml.safe_load(path.read_text(encoding="utf-8"))
    by_kind: dict[str, list[dict]] = {k: [] for k in BASE_QUOTA}
    for it in items:
        if it.get("kind") in by_kind and it.get("municipality") not in SCRATCH_MUNICIPALITIES:
            by_kind[it["kind"]].append(it)
    scale = max(1.0, turns / 24.0)
    while True:
        chosen: list[list[Turn]] = []
        for kind, base in BASE_QUOTA.items():
            pool = by_kind[kind]
            n = min(len(pool), max(1, round(base * scale)))
            step = len(pool) / n if n else 1
            for i in range(n):
                chosen.append(_turns_of(pool[int(i * step)]))
        if sum(len(c) for c in chosen) >= turns or scale > 20:
            break
        scale *= 1.1
    # interleave the kinds, so that every client meets each kind
    order = sorted(range(len(chosen)), key=lambda i: (i % 7, i))
    return [chosen[i] for i in order]


def _turns_of(item: dict) -> list[Turn]:
    raw = item.get("turns") or [{"question": item.get("question")}]
    many = len(raw) > 1
    return [Turn(id=f"{item['id']}/{n}" if many else item["id"], kind=item.get("kind") or "-",
                 question=t.get("question") or "", municipality=t.get("municipality", item.get("municipality")))
            for n, t in enumerate(raw, 1)]


# ----------------------------------------------------------------------------- the app


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
    """The peak resident memory of a process and its children, sampled every 100 ms."""

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

    def reset(self) -> None:
        self.peak = 0

    def stop(self) -> None:
        self._stop_evt.set()
        self.join(2)


@dataclass
class RunningApp:
    url: str
    process: subprocess.Popen
    rss: RssSampler
    ready_s: float = 0.0


def wait_ready(url: str, app: subprocess.Popen, timeout_s: float) -> float:
    """Seconds until the page serves and the assistant reports ready (bounded)."""
    from gradio_client import Client

    t0 = time.monotonic()
    client = None
    while time.monotonic() - t0 < timeout_s:
        if app.poll() is not None:
            raise RuntimeError(f"the app exited with status {app.returncode} before it was ready")
        try:
            client = client or Client(url, verbose=False, download_files=False)
            status = client.predict(api_name="/status")
            html = status[0] if isinstance(status, (list, tuple)) else status
            if "oa-ready" in (html or ""):
                return time.monotonic() - t0
            if "could not start" in (html or ""):
                raise RuntimeError("the assistant could not start: " + html)
        except RuntimeError:
            raise
        except Exception:  # noqa: BLE001 - not serving yet
            client = None
        time.sleep(0.5)
    raise TimeoutError(f"the app was not ready within {timeout_s:.0f} s")


@contextmanager
def running_app(env: dict[str, str] | None = None, ready_timeout_s: float = 600.0,
                log_path: Path | None = None) -> Iterator[RunningApp]:
    """``python app.py`` (the README's command 1 path, embedded default) on a free loopback
    port, ``env`` added to the environment (e.g. ASSISTANT_DATA_DIR,
    ASSISTANT_QUEUE_CONCURRENCY); stopped on exit."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    full_env = dict(os.environ, ASSISTANT_HOST="127.0.0.1", ASSISTANT_PORT=str(port),
                    GRADIO_ANALYTICS_ENABLED="False", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
                    ANONYMIZED_TELEMETRY="False", ASSISTANT_STAFF_USER="", ASSISTANT_STAFF_PASSWORD="")
    full_env.update(env or {})
    log = open(log_path, "w") if log_path else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, str(ROOT / "app.py")], cwd=ROOT, env=full_env, stdout=log,
                            stderr=subprocess.STDOUT)
    sampler = RssSampler(psutil.Process(proc.pid))
    sampler.start()
    try:
        app = RunningApp(url=url, process=proc, rss=sampler)
        app.ready_s = wait_ready(url, proc, ready_timeout_s)
        yield app
    finally:
        sampler.stop()
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        if log is not subprocess.DEVNULL:
            log.close()


# ----------------------------------------------------------------------------- asking


@dataclass
class TurnResult:
    turn: Turn
    output: dict[str, Any]  # what /ask returned for this turn, in parts
    latency_s: float


def _split(new_messages: list[dict], detected: Any, box: Any) -> dict[str, Any]:
    """A turn's output in the parts a reader sees: the answer's text, calculator boxes,
    notes, source boxes, the 'answered for' line and what is left in the question box."""
    parts: dict[str, Any] = {"text": [], "calculators": [], "notes": [], "citations": [], "other": [],
                             "detected": detected, "question_box": box}
    for m in new_messages:
        if not isinstance(m, dict) or m.get("role") != "assistant":
            parts["other"].append(m)
            continue
        title = str((m.get("metadata") or {}).get("title") or "")
        key = ("citations" if title.startswith("Source: ") else "calculators" if title.startswith("Calculator: ")
               else "notes" if title else "text")
        parts[key].append({"title": title, "content": m.get("content")} if title else m.get("content"))
    return parts


def ask_conversation(client: Any, conversation: Sequence[Turn]) -> list[TurnResult]:
    """One conversation, turn by turn, each later turn with the history the app returned."""
    history: list[dict] = []
    out = []
    for turn in conversation:
        t0 = time.perf_counter()
        job = client.submit(turn.question, turn.municipality or "auto", history, api_name="/ask")
        new_history, box, detected = job.result(timeout=TURN_TIMEOUT_S)
        latency = time.perf_counter() - t0
        out.append(TurnResult(turn, _split(list(new_history)[len(history):], detected, box), latency))
        history = list(new_history)
    return out


def ask_all(url: str, conversations: Sequence[Sequence[Turn]], clients: int = 1) -> list[TurnResult]:
    """Every conversation through the app from ``clients`` concurrent clients (threads, one
    gradio Client each, taking the next conversation when done); results in sample order."""
    from gradio_client import Client

    work: queue.Queue[int] = queue.Queue()
    for i in range(len(conversations)):
        work.put(i)
    results: dict[int, list[TurnResult]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(clients)

    def worker() -> None:
        try:
            client = Client(url, verbose=False, download_files=False)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
            start.abort()
            return
        try:
            start.wait(60)
            while True:
                try:
                    i = work.get_nowait()
                except queue.Empty:
                    return
                results[i] = ask_conversation(client, conversations[i])
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            try:
                client.close()
            except Exception:  # noqa: BLE001
                pass

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + TURN_TIMEOUT_S * (sum(len(c) for c in conversations) + 1)
    for t in threads:
        t.join(max(0.0, deadline - time.monotonic()))
    if errors:
        raise RuntimeError(f"{len(errors)} client(s) failed: {type(errors[0]).__name__}: {errors[0]}") from errors[0]
    if len(results) != len(conversations):
        raise TimeoutError(f"only {len(results)} of {len(conversations)} conversations answered in time")
    return [r for i in range(len(conversations)) for r in results[i]]


# ----------------------------------------------------------------------------- comparing


@dataclass
class Difference:
    id: str
    question: str
    parts: list[str]  # which parts differ: text, citations, calculators, notes, detected, ...
    serial: dict[str, Any] = field(repr=False)
    concurrent: dict[str, Any] = field(repr=False)

    def describe(self, width: int = 160) -> str:
        lines = [f"{self.id} ({', '.join(self.parts)}): {self.question[:80]}"]
        for p in self.parts:
            lines.append(f"    serial:     {json.dumps(self.serial.get(p), ensure_ascii=False)[:width]}")
            lines.append(f"    concurrent: {json.dumps(self.concurrent.get(p), ensure_ascii=False)[:width]}")
        return "\n".join(lines)


def compare(serial: Sequence[TurnResult], concurrent: Sequence[TurnResult]) -> list[Difference]:
    """The turns whose concurrent output is not identical to the serial one."""
    if [r.turn.id for r in serial] != [r.turn.id for r in concurrent]:
        raise ValueError("the two runs asked different turns")
    diffs = []
    for a, b in zip(serial, concurrent):
        if a.output != b.output:
            parts = [k for k in a.output if a.output.get(k) != b.output.get(k)]
            diffs.append(Difference(a.turn.id, a.turn.question, parts, a.output, b.output))
    return diffs


def latency_summary(results: Sequence[TurnResult]) -> dict[str, float]:
    xs = [r.latency_s for r in results]
    return {"p50_s": round(percentile(xs, 50), 2), "p95_s": round(percentile(xs, 95), 2),
            "max_s": round(max(xs), 2) if xs else float("nan")}
