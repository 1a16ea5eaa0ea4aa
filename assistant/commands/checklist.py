"""python -m assistant checklist --json '{...}' [--format md|json|pdf] [--out FILE]

The contractor's pre-application checklist for one job. The JSON object holds the
fields of assistant.checklist.ChecklistRequest (``--schema`` prints them); ``--json -``
reads it from stdin and ``--json @file.json`` from a file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def add_parser(sub):
    p = sub.add_parser("checklist", help="contractor's pre-application checklist for a job",
                       description=__doc__)
    p.add_argument("--json", dest="request_json", help="the job as a JSON object ('-' = stdin, '@FILE' = a file)")
    p.add_argument("--format", choices=("md", "json", "pdf"), default="md", help="output format (default md)")
    p.add_argument("--out", help="write to this file instead of stdout (required for pdf on a terminal)")
    p.add_argument("--schema", action="store_true", help="print the request's JSON schema")
    return p


def _read_request(value: str | None) -> str:
    """The request's text: inline, from stdin ('-') or from a regular file ('@FILE'), at
    most settings.max_request_bytes (a FIFO or a device such as /dev/zero is refused)."""
    from assistant.bounded_input import read_regular_file, read_stream
    from assistant.settings import get_settings

    if value is None:
        raise ValueError("give the job with --json '{...}' (see --schema)")
    cap = get_settings().max_request_bytes
    if value == "-":
        data = read_stream(sys.stdin.buffer, cap, "the request on stdin")
    elif value.startswith("@"):
        try:
            data = read_regular_file(value[1:], cap)
        except FileNotFoundError:
            raise ValueError(f"--json: no such file: {value[1:]}") from None
        except IsADirectoryError:
            raise ValueError(f"--json: {value[1:]} is a directory") from None
        except PermissionError:
            raise ValueError(f"--json: cannot read {value[1:]} (permission denied)") from None
    else:
        return value
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"--json: the request is not UTF-8 text (byte {exc.start + 1})") from None


def _validation_message(exc) -> str:
    parts = []
    for e in exc.errors()[:6]:
        loc = ".".join(str(x) for x in e.get("loc", ()))
        msg = str(e.get("msg", "")).removeprefix("Value error, ")
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "invalid request: " + "; ".join(parts)


def run(args) -> int:
    from pydantic import ValidationError

    from assistant.checklist import ChecklistRequest, build_checklist, to_markdown, to_pdf

    if args.schema:
        json.dump(ChecklistRequest.model_json_schema(), sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    text = _read_request(args.request_json)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--json is not valid JSON: {exc.msg} at position {exc.pos}") from None
    if not isinstance(data, dict):
        raise ValueError("--json must be a JSON object")
    try:
        req = ChecklistRequest.model_validate(data)
    except ValidationError as exc:
        raise ValueError(_validation_message(exc)) from None
    checklist = build_checklist(req)
    if args.format == "pdf":
        payload: bytes = to_pdf(checklist)
    elif args.format == "json":
        payload = (checklist.model_dump_json(indent=2) + "\n").encode("utf-8")
    else:
        payload = to_markdown(checklist).encode("utf-8")
    if args.out:
        Path(args.out).write_bytes(payload)
        print(f"wrote {args.out} ({len(checklist.items)} items, {len(checklist.warnings)} warnings)",
              file=sys.stderr)
    elif args.format == "pdf" and sys.stdout.isatty():
        raise ValueError("a PDF needs --out FILE (or redirect stdout)")
    else:
        sys.stdout.buffer.write(payload)
        sys.stdout.flush()
    return 0
