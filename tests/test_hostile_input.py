"""Every line answered, every file argument bounded (issue 13, item 3).

The batch reader and the request parser are tested in-process with a stub assistant;
the hostile-input set then goes through the real CLI code path (``serve_jsonl`` over
the real Assistant, with the hashed test embedder so no torch is loaded) in a child
process with an address-space limit, and every line must be answered.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from assistant.answering.assistant import Assistant
from assistant.bounded_input import InputLine, NotARegularFile, read_lines, read_regular_file
from assistant.settings import Settings
from assistant.types import Answer

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIMIT = 1536 * 1024 * 1024  # the target: peak ≤ 1.5 GB on the hostile set


class EchoAssistant(Assistant):
    """The real answer_jsonl over a stub ask (no index)."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.asked: list[tuple] = []

    def ask(self, question, municipality=None, history=None):
        self.asked.append((question, municipality, list(history or [])))
        if question == "boom":
            raise RuntimeError("planner failed")
        return Answer(status="answered", answer=question.upper())


class Stream(io.RawIOBase):
    """A binary stream that generates ``size`` bytes of ``fill`` then ``tail``, lazily."""

    def __init__(self, fill: bytes, size: int, tail: bytes = b""):
        self.fill, self.left, self.tail = fill, size, tail

    def readable(self):
        return True

    def read1(self, n: int = -1) -> bytes:
        if self.left > 0:
            k = min(n, self.left)
            self.left -= k
            return (self.fill * (k // len(self.fill) + 1))[:k]
        out, self.tail = self.tail[:n], self.tail[n:]
        return out

    read = read1


def _lines(*raw: bytes, cap: int = 100) -> list[InputLine]:
    return list(read_lines(io.BytesIO(b"".join(raw)), cap, chunk_bytes=7))


# -- the line reader -------------------------------------------------------------------------
def test_reader_reports_each_bad_line_and_keeps_the_good_ones():
    got = _lines(b'{"a": 1}\r\n', b"x" * 150 + b"\n", b"\xff\xfe bad\n", b"\n", "é ok".encode(), cap=100)
    assert [g.number for g in got] == [1, 2, 3, 4, 5]
    assert got[0].text == '{"a": 1}' and got[0].error is None
    assert got[1].text is None and "too long (150 bytes; the limit is 100)" in got[1].error
    assert got[2].text is None and "not valid UTF-8" in got[2].error and "0xff" in got[2].error
    assert got[3].text == ""
    assert got[4].text == "é ok"


def test_reader_never_holds_an_oversize_line():
    # 50 MB on one line, then a good line: the reader's memory stays near one chunk + the cap
    stream = Stream(b"[", 50_000_000, b'\n{"question": "after"}\n')
    tracemalloc.start()
    try:
        got = list(read_lines(stream, 65_536))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [g.error is not None for g in got] == [True, False]
    assert "too long (50,000,000 bytes" in got[0].error
    assert got[1].text == '{"question": "after"}'
    assert peak < 1_000_000, peak


# -- every line answered ---------------------------------------------------------------------
HOSTILE = [
    ("deep nesting", b"[" * 1500 + b"\n", "nested more than"),
    ("deep object", b'{"question": ' + b'{"a":' * 1500 + b"1" + b"}" * 1501 + b"\n", "nested more than"),
    ("invalid UTF-8", b'{"id": "u", "question": "caf\xe9?"}\n', "not valid UTF-8"),
    ("lone surrogate", b'{"id": "s", "question": "snow \\ud800 removal?"}\n', "lone UTF-16 surrogate \\ud800"),
    ("surrogate in history", b'{"id": "h", "question": "and?", "history": [{"role": "user", "content": "\\udfff"}]}\n',
     "history item 1"),
    ("oversize", b'{"id": "big", "question": "' + b"a" * 70_000 + b'"}\n', "too long"),
    ("not an object", b"[1, 2]\n", "must be a JSON object"),
    ("not JSON", b"{not json\n", "not valid JSON"),
    ("bad history", b'{"id": "b", "question": "q", "history": [1]}\n', "history item 1"),
    ("bad history shape", b'{"id": "b2", "question": "q", "history": {"role": "user"}}\n', "'history' must be"),
    ("null question", b'{"id": "n", "question": null}\n', "'question' must be a string"),
    ("binary", b"\x00\x01\x02\n", "not valid JSON"),
]


def test_every_hostile_line_gets_its_own_refusal_and_the_batch_goes_on():
    a = EchoAssistant(Settings(max_line_bytes=65_536))
    good = b'{"id": "ok%d", "question": "how wide is a sidewalk?"}\n'
    data = b"".join(good % i + raw for i, (_, raw, _) in enumerate(HOSTILE)) + good % 99
    out = [json.loads(x) for x in a.answer_jsonl(read_lines(io.BytesIO(data), 65_536))]
    assert len(out) == 2 * len(HOSTILE) + 1
    for i, (name, _, words) in enumerate(HOSTILE):
        ok, bad = out[2 * i], out[2 * i + 1]
        assert ok["status"] == "answered" and ok["id"] == f"ok{i}", name
        assert bad["status"] == "refused", name
        assert bad["answer"].startswith(f"line {2 * i + 2}: "), (name, bad["answer"])
        assert words in bad["error"], (name, bad["error"])
    assert out[-1]["id"] == "ok99" and out[-1]["status"] == "answered"
    # ids are echoed where the line could be read
    assert {o["id"] for o in out if o["status"] == "refused"} >= {"s", "h", "b", "b2", "n"}


def test_an_unexpected_failure_is_that_line_only():
    a = EchoAssistant(Settings())
    out = [json.loads(x) for x in a.answer_jsonl(['{"id": 1, "question": "boom"}', '{"id": 2, "question": "fine"}'])]
    assert out[0]["status"] == "refused" and out[0]["id"] == "1" and "RuntimeError" in out[0]["error"]
    assert out[1] == {**out[1], "id": "2", "status": "answered", "answer": "FINE"}


def test_text_lines_are_capped_too():
    a = EchoAssistant(Settings(max_line_bytes=1000))
    out = [json.loads(x) for x in a.answer_jsonl([json.dumps({"question": "x" * 2000}), '{"question": "\\ud800"}',
                                                  '{"question": "y"}'])]
    assert [o["status"] for o in out] == ["refused", "refused", "answered"]
    assert "too long" in out[0]["error"] and "surrogate" in out[1]["error"]


# -- the hostile set through the real CLI path, under a memory limit ---------------------------
CHILD = textwrap.dedent("""
    import resource, sys
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
    sys.path.insert(0, {root!r})
    from assistant.answering.assistant import Assistant
    from assistant.commands.ask import serve_jsonl
    from assistant.retrieval.index import SearchIndex
    from assistant.settings import Settings
    from tests.fake_embedder import FakeEmbedder

    settings = Settings(data_dir={data!r})
    a = Assistant(SearchIndex.open(settings=settings, embedder=FakeEmbedder()), settings)
    print("ready", file=sys.stderr, flush=True)
    serve_jsonl(a, sys.stdin.buffer, sys.stdout.buffer)
    # this process's own peak (VmHWM): ru_maxrss would carry the forking pytest process's peak
    # across exec (a suite that has loaded the model reports its 1.6 GB here)
    hwm = [ln.split()[1] for ln in open("/proc/self/status") if ln.startswith("VmHWM:")]
    print("peak_rss_kb", hwm[0] if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
          file=sys.stderr, flush=True)
""")


def test_hostile_set_under_a_memory_limit_every_line_answered(tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD.format(limit=MEMORY_LIMIT, root=str(ROOT), data=str(tmp_path / "data")))
    good = b'{"id": "g%d", "question": "How wide must a commercial sidewalk be in Brandon?"}\n'
    lines = [raw for _, raw, _ in HOSTILE]
    lines.append(b'{"id": "huge", "question": "' + b"z" * 100_000_000 + b'"}\n')  # a 100 MB line
    lines.append(b'{"id": "long", "question": "' + b"w" * 10_000 + b'"}\n')  # 10,000 characters
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False"}
    proc = subprocess.Popen([sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=str(ROOT), env=env)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True)
    reader.start()
    t0 = time.monotonic()
    try:
        for i, raw in enumerate(lines):
            proc.stdin.write(good % i)
            for k in range(0, len(raw), 1 << 20):  # a stream, as a pipe delivers it
                proc.stdin.write(raw[k:k + (1 << 20)])
        proc.stdin.write(good % 999)
        proc.stdin.close()
        proc.wait(timeout=240)
    finally:
        if proc.poll() is None:
            proc.kill()
    reader.join(timeout=10)
    err = proc.stderr.read().decode(errors="replace")
    assert proc.returncode == 0, err[-2000:]
    answers = [json.loads(x) for x in out]
    assert len(answers) == 2 * len(lines) + 1, err[-2000:]
    assert [a["id"] for a in answers[0::2]] == [f"g{i}" for i in range(len(lines))] + ["g999"]
    assert all(a["status"] == "answered" for a in answers[0::2]), [a["answer"] for a in answers[0::2]]
    bad = answers[1::2]
    assert all(a["status"] == "refused" for a in bad), [(a["id"], a["answer"][:80]) for a in bad]
    assert "too long" in bad[-2]["error"]
    assert bad[-1]["id"] == "long" and "too long (10,000 characters; the limit is 1,000)" in bad[-1]["answer"]
    peak_kb = int(err.split("peak_rss_kb")[1].split()[0])
    print(f"hostile set: {len(answers)} answers in {time.monotonic() - t0:.1f} s, peak RSS {peak_kb / 1024:.0f} MB")
    assert peak_kb * 1024 < MEMORY_LIMIT


# -- file arguments --------------------------------------------------------------------------
def test_a_fifo_and_a_device_are_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        t0 = time.monotonic()
        with pytest.raises(NotARegularFile):
            read_regular_file(path, 1000)
        assert time.monotonic() - t0 < 1
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 2001)
    with pytest.raises(ValueError, match="too large"):
        read_regular_file(big, 2000)


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    pre = f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_LIMIT}, {MEMORY_LIMIT}))"
    code = f"{pre}; import sys; from assistant.__main__ import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=str(ROOT),
                          timeout=timeout, stdin=subprocess.DEVNULL, env={**os.environ, "HF_HUB_OFFLINE": "1"})


@pytest.mark.parametrize("argv, words", [
    (["checklist", "--json", "@/dev/zero"], "is a device, not a regular file"),
    (["checklist", "--json", "@{fifo}"], "is a pipe (FIFO), not a regular file"),
    (["checklist", "--json", "@{big}"], "too large"),
    (["ingest", "{fifo}", "-m", "brandon"], "is a pipe (FIFO), not a regular file"),
    (["ingest", "/dev/zero", "-m", "brandon"], "is a device, not a regular file"),
    (["ingest", "{fifo_txt}", "-m", "brandon"], "is a pipe (FIFO), not a regular file"),
])
def test_file_arguments_are_bounded_regular_files(tmp_path, argv, words):
    os.mkfifo(tmp_path / "pipe")
    os.mkfifo(tmp_path / "pipe.txt")
    with open(tmp_path / "big.json", "wb") as fh:
        fh.truncate(5_000_000)  # sparse: 5 MB of nothing
    names = {"fifo": tmp_path / "pipe", "fifo_txt": tmp_path / "pipe.txt", "big": tmp_path / "big.json"}
    t0 = time.monotonic()
    r = _cli(*[a.format(**names) for a in argv], timeout=60)
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert words in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert time.monotonic() - t0 < 30
