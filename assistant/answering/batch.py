"""The JSONL batch contract's input side: one line -> one checked request, or a clear
one-line reason why the line cannot be answered.

A line may be anything: not JSON, nested 1,500 deep, not UTF-8, holding a lone UTF-16
surrogate (``"\\ud800"``), a history of the wrong shape, or far too long (the reader in
``assistant.bounded_input`` reports those before they get here). ``parse_request``
raises ``BadLine`` for each; the caller answers it with a ``refused`` line and goes on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from assistant.types import ChatTurn

MAX_DEPTH = 20  # a request is two levels deep; anything far deeper is not one


class BadLine(ValueError):
    """Why a line is not a request (one line, for the user)."""


@dataclass(frozen=True)
class BatchRequest:
    id: str | None
    question: str
    municipality: str | None
    history: list[ChatTurn]


def refusal(line_no: int, message: str, req_id: str | None = None) -> dict[str, Any]:
    """The answer object for a line that could not be answered."""
    return {"id": req_id, "status": "refused", "answer": f"line {line_no}: {message}", "municipality": None,
            "citations": [], "tool_calls": [], "error": message}


def _nesting_depth(text: str, limit: int) -> int:
    """Bracket depth outside strings, counted up to ``limit`` (cheap, no recursion)."""
    depth = deepest = 0
    in_str = escaped = False
    for ch in text:
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_text(value: str, what: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise BadLine(f"{what} holds an invalid character (a lone UTF-16 surrogate "
                      f"\\u{ord(value[exc.start]):04x} at character {exc.start + 1})") from None


def request_id(data: dict) -> str | None:
    rid = data.get("id")
    if rid is None or isinstance(rid, bool) or not isinstance(rid, (str, int, float)):
        return None
    rid = str(rid)
    try:
        rid.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return rid[:200]


def parse_request(line: str) -> BatchRequest:
    """One line of the batch -> a request; BadLine with a clear message otherwise."""
    if _nesting_depth(line, MAX_DEPTH) > MAX_DEPTH:
        raise BadLine(f"the line is nested more than {MAX_DEPTH} levels deep; a request is one JSON object "
                      '{"id", "question", "municipality", "history"}')
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadLine(f"not valid JSON ({exc.msg} at character {exc.pos + 1})") from None
    except RecursionError:  # belt and braces: the depth check above should catch it first
        raise BadLine("the line is nested too deeply to read") from None
    if not isinstance(data, dict):
        raise BadLine("each line must be a JSON object")
    rid = request_id(data)
    try:
        question = data.get("question")
        if not isinstance(question, str):
            raise BadLine("'question' must be a string")
        _check_text(question, "the question")
        muni = data.get("municipality")
        if muni is not None and not isinstance(muni, str):
            raise BadLine("'municipality' must be a string or null")
        if muni is not None:
            _check_text(muni, "'municipality'")
        hist = data.get("history") or []
        if not isinstance(hist, list):
            raise BadLine("'history' must be a list of {role, content}")
        turns = []
        for i, item in enumerate(hist, 1):
            if (not isinstance(item, dict) or item.get("role") not in ("user", "assistant")
                    or not isinstance(item.get("content"), str)):
                raise BadLine(f"history item {i} must be {{\"role\": \"user\" or \"assistant\", \"content\": text}}")
            _check_text(item["content"], f"history item {i}")
            turns.append(ChatTurn(role=item["role"], content=item["content"]))
    except BadLine as exc:
        raise BadLineWithId(str(exc), rid) from None
    return BatchRequest(rid, question, muni, turns)


class BadLineWithId(BadLine):
    """A bad request whose id could still be read (echoed in the refusal)."""

    def __init__(self, message: str, req_id: str | None):
        super().__init__(message)
        self.req_id = req_id
