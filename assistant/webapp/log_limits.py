"""Log records of bounded size: a hostile request (a 3.4 MB body of 100,000 malformed
history items) must not write megabytes to the log. Messages and tracebacks longer than
their limits keep their head and tail and say how much was cut."""

from __future__ import annotations

import logging
import traceback

MAX_MESSAGE_CHARS = 2_000
MAX_TRACEBACK_CHARS = 8_000


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head, tail = text[: limit * 3 // 4], text[-(limit // 4):]
    return f"{head} … [{len(text) - len(head) - len(tail):,} characters cut] … {tail}"


class TruncateLongRecords(logging.Filter):
    def __init__(self, max_message: int = MAX_MESSAGE_CHARS, max_traceback: int = MAX_TRACEBACK_CHARS):
        super().__init__()
        self.max_message = max_message
        self.max_traceback = max_traceback

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        if len(msg) > self.max_message:
            record.msg, record.args = _cut(msg, self.max_message), None
        if record.exc_info and not record.exc_text:
            text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
            record.exc_text = _cut(text, self.max_traceback)
        elif record.exc_text:
            record.exc_text = _cut(record.exc_text, self.max_traceback)
        return True


def bound_log_records(*names: str) -> None:
    """Install the filter on these loggers (once each)."""
    for name in names:
        logger = logging.getLogger(name)
        if not any(isinstance(f, TruncateLongRecords) for f in logger.filters):
            logger.addFilter(TruncateLongRecords())
