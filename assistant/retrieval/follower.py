"""Keep a running process on the published index generation.

A long-running process (``ask --jsonl``, the web app) enters ``IndexFollower.using()`` at
the start of each request. That costs one ``stat`` of the pointer file; when another
process has published a newer generation, it is opened there, before the request reads
anything, and becomes the current one. The request gets one index for its whole life
(never two generations in one answer); the previous generation is closed (its lease let go)
when the last request using it ends.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from assistant.retrieval.generations import Generations
from assistant.retrieval.index import SearchIndex

log = logging.getLogger("assistant.index")

RETRY_S = 5.0  # a published generation that failed to open is tried again after this long


class IndexFollower:
    def __init__(self, index: SearchIndex, on_switch: Callable[[SearchIndex, SearchIndex], None] | None = None):
        self._index = index
        self._gens = Generations(Path(index.settings.data_dir))
        self._stamp = self._gens.stamp()
        self._lock = threading.Lock()
        self._failed: tuple[tuple | None, float] | None = None
        self._on_switch = on_switch
        self.switches = 0

    @property
    def index(self) -> SearchIndex:
        """The current index (for a request, use ``using()``: it holds the index)."""
        return self._index

    @contextmanager
    def using(self) -> Iterator[SearchIndex]:
        """The current index, held for one request (moved to a newer generation first)."""
        self.refresh()
        for _ in range(3):
            with self._lock:
                idx = self._index
                held = idx.hold()
            if held:
                break
        else:  # closed under us three times (adopt races): answer from it anyway
            held = False
        try:
            yield idx
        finally:
            if held:
                idx.unhold()

    def refresh(self) -> None:
        """Move to the published generation if it is not the one in use."""
        stamp = self._gens.stamp()
        if stamp == self._stamp:
            return
        with self._lock:
            if stamp == self._stamp:
                return
            if self._failed and self._failed[0] == stamp and time.monotonic() - self._failed[1] < RETRY_S:
                return
            current = self._index
            gid = self._gens.current()
            if gid is None or gid == current.generation:
                self._stamp = stamp
                return
            try:
                new = SearchIndex.open_published(current.settings, embedder=current.embedder)
            except Exception as exc:  # keep answering from the generation we have
                log.warning("could not open the newer index generation %s (%s); still answering from %s",
                            gid, exc, current.generation)
                self._failed = (stamp, time.monotonic())
                return
            self._failed = None
            self._swap(new, stamp)

    def adopt(self, index: SearchIndex) -> None:
        """Use ``index`` (built in this process) from the next request on."""
        with self._lock:
            self._swap(index, self._gens.stamp())

    def _swap(self, new: SearchIndex, stamp) -> None:
        old = self._index
        self._index, self._stamp = new, stamp
        self.switches += 1
        log.info("index generation %s -> %s", old.generation, new.generation)
        if self._on_switch is not None:
            self._on_switch(old, new)
        if old is not new:
            old.retire()
