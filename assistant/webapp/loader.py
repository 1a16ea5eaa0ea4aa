"""Load the Assistant once, in the background, and report progress to the page.

``python app.py`` starts the server at once; the index (built on first start) and the
model load in a thread while the page shows a progress bar. Handlers ask
``loader.get()`` and get either the Assistant or a ``NotReady`` with the progress.
"""

from __future__ import annotations

import inspect
import logging
import threading
import time
from typing import Any, Callable

log = logging.getLogger("assistant.webapp")


def left_out() -> list[str]:
    """Municipalities (or manifest entries) left out because they cannot be read."""
    try:
        from assistant.corpus import load_problems

        return load_problems()
    except Exception as exc:  # noqa: BLE001 - the manifest itself: say so, never crash the page
        return [str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__]


class NotReady(RuntimeError):
    """The assistant is still loading (or failed to load): the message says which."""


class AssistantLoader:
    def __init__(self, factory: Callable[..., Any] | None = None, assistant: Any | None = None):
        self._factory = factory
        self._assistant = assistant
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.fraction = 1.0 if assistant is not None else 0.0
        self.message = "ready" if assistant is not None else "not started"
        self.error: str | None = None
        self.started_at: float | None = None

    # -- state ------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        return self._assistant is not None

    def status(self) -> dict[str, Any]:
        return {
            "ready": self.ready,
            "fraction": self.fraction,
            "message": self.message,
            "error": self.error,
            "elapsed_s": round(time.monotonic() - self.started_at, 1) if self.started_at else 0.0,
            "left_out": left_out(),
            # the index generation answers come from (the assistant moves to a newer one
            # between requests when another process rebuilds)
            "index_generation": getattr(getattr(self._assistant, "index", None), "generation", None),
        }

    def get(self) -> Any:
        if self._assistant is not None:
            return self._assistant
        self.start()
        if self.error:
            raise NotReady(f"The assistant could not start: {self.error}")
        raise NotReady(
            f"The assistant is still starting ({int(self.fraction * 100)}%: {self.message}). "
            "Please try again in a moment."
        )

    # -- loading ----------------------------------------------------------------
    def _progress(self, fraction: float, message: str) -> None:
        self.fraction = max(0.0, min(1.0, float(fraction)))
        self.message = str(message)
        log.info("loading %3d%% %s", int(self.fraction * 100), message)
        print(f"[assistant] {int(self.fraction * 100):3d}% {message}", flush=True)

    def start(self) -> None:
        with self._lock:
            if self._assistant is not None or self._thread is not None:
                return
            self.started_at = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="assistant-loader", daemon=True)
            self._thread.start()

    def wait(self, timeout: float | None = None) -> bool:
        if self._thread is not None:
            self._thread.join(timeout)
        return self.ready

    def _run(self) -> None:
        try:
            self._progress(0.01, "loading the assistant (the index is built on first start)")
            factory = self._factory or _default_factory
            kwargs = {}
            try:
                if "progress" in inspect.signature(factory).parameters:
                    kwargs["progress"] = self._progress
            except (TypeError, ValueError):
                pass
            assistant = factory(**kwargs)
            self._assistant = assistant
            self._progress(1.0, "ready")
        except Exception as exc:  # reported on the page; the server keeps running
            log.exception("assistant failed to load")
            self.error = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            self.message = "failed"

    def reload(self, assistant: Any) -> None:
        self._assistant = assistant


def _default_factory(progress: Callable[[float, str], None] | None = None) -> Any:
    from assistant.answering.assistant import Assistant

    try:
        params = inspect.signature(Assistant.load).parameters
    except (TypeError, ValueError):
        params = {}
    a = Assistant.load(progress=progress) if progress is not None and "progress" in params else Assistant.load()
    if progress is not None:
        progress(0.98, "warming up the embedding model")
    try:  # the model loads on first use: pay that now, not on the first visitor's question
        a.search("street opening permit", k=1)
    except Exception:  # a warm-up failure is not fatal; the first question will show it
        log.exception("warm-up search failed")
    return a
