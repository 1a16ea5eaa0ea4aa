"""python -m assistant ask "QUESTION" [--municipality ID] [--json] | ask --jsonl < requests.jsonl"""

from __future__ import annotations

import sys
from typing import BinaryIO

from assistant.commands._common import municipality_arg


def add_parser(sub):
    p = sub.add_parser("ask", help="answer a question with citations")
    p.add_argument("question", nargs="?")
    p.add_argument("--municipality", "-m")
    p.add_argument("--json", action="store_true", help="print the Answer as JSON")
    p.add_argument("--jsonl", action="store_true", help="batch: JSON requests on stdin, one answer per line")
    return p


def serve_jsonl(assistant, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """Answer every line of ``stdin`` (bytes) on ``stdout``, one JSON object each. Lines are
    read in chunks and capped at settings.max_line_bytes, decoded one by one: a bad line
    is answered with its own ``refused`` and the batch goes on."""
    from assistant.bounded_input import read_lines

    for out in assistant.answer_jsonl(read_lines(stdin, assistant.settings.max_line_bytes)):
        stdout.write(out.encode("utf-8") + b"\n")
        stdout.flush()


def run(args) -> int:
    from assistant.answering.assistant import Assistant

    if not args.jsonl and not (args.question or "").strip():
        raise ValueError("give a question, or --jsonl to read requests from stdin")
    muni = municipality_arg(args.municipality)
    assistant = Assistant.load(progress=lambda f, m: print(f"[index {f:4.0%}] {m}", file=sys.stderr) if f < 1 else None)
    if args.jsonl:
        serve_jsonl(assistant, sys.stdin.buffer, sys.stdout.buffer)
        return 0
    ans = assistant.ask(args.question, muni)
    if args.json:
        print(ans.model_dump_json(indent=2))
        return 0
    print(f"[{ans.status} · {assistant.backend}]" + (f" {ans.municipality}" if ans.municipality else ""))
    print(ans.answer)
    for n in ans.notes:
        print(f"  note: {n}")
    return 0
