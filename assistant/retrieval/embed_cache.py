"""Content-addressed chunk vectors: within one build each distinct text is embedded once,
and a text the previous generation already embedded (same embedder) is read back from its
vector files instead of embedded again.

A vector is a function of the text the embedder is given (``Chunk.embed_text``) and the
model, nothing else, so the key is a hash of the two. Inside one build this saves little on
whole codes (the heading context makes most texts differ: 3.4% of the chunks of 10 codes
repeat another's, ``evals/reports/scale/duplicates.md``); across builds it is what makes a
changed chapter or an amended section cost only its own new text instead of its whole
municipality.

Nothing new is stored: the previous generation's ``vectors/<unit>.npy`` files, in the order
of its ``chunks.json``, are the cache (read memory-mapped, only the rows wanted).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from pathlib import Path

import numpy as np

from assistant.retrieval.chunking import Chunk

log = logging.getLogger("assistant.index")


def text_key(text: str, embedder_id: str) -> bytes:
    """The cache key of one text embedded by one model (16 bytes of BLAKE2b)."""
    return hashlib.blake2b(f"{embedder_id}\x00{text}".encode("utf-8"), digest_size=16).digest()


class VectorCache:
    """Vectors by content for one build. Of the chunks given to ``vectors``: ``embedded``
    counts the texts handed to the embedder, ``from_previous`` those read back from the
    previous generation and ``repeated`` the chunks whose text was already embedded or read
    in this build (the three add up to the chunks)."""

    def __init__(self, embedder_id: str):
        self.embedder_id = embedder_id
        self._stored: dict[bytes, tuple[Path, int]] = {}
        self._fresh: dict[bytes, np.ndarray] = {}
        self.embedded = 0
        self.from_previous = 0
        self.repeated = 0

    def keys(self, chunks: list[Chunk]) -> list[bytes]:
        return [text_key(c.embed_text, self.embedder_id) for c in chunks]

    def remember(self, vector_files: dict[str, Path], chunks_by_unit: dict[str, list[Chunk]], model: str) -> None:
        """Index a generation's stored vectors by text (its units' vector files and chunks in
        file order). A generation of another model is ignored."""
        if model != self.embedder_id:
            return
        for unit, cs in chunks_by_unit.items():
            f = vector_files.get(unit)
            if f is None:
                continue
            for row, k in enumerate(self.keys(cs)):
                self._stored.setdefault(k, (f, row))

    def unknown(self, keys: list[bytes]) -> int:
        """How many distinct keys neither this build nor the previous generation holds."""
        return len({k for k in keys if k not in self._fresh and k not in self._stored})

    def vectors(self, chunks: list[Chunk], embed: Callable[[list[str]], list[list[float]]], batch: int,
                done: Callable[[int], None] = lambda n: None, keys: list[bytes] | None = None) -> np.ndarray:
        """The float32 vectors of ``chunks`` in order: known texts looked up, the others
        embedded once each, ``batch`` texts a call (``done`` is told how many after each)."""
        keys = keys if keys is not None else self.keys(chunks)
        first: dict[bytes, int] = {}
        for i, k in enumerate(keys):
            first.setdefault(k, i)
        wanted = [k for k in first if k not in self._fresh]
        read_back = self._read_stored([k for k in wanted if k in self._stored])
        todo = [k for k in wanted if k not in self._fresh]
        for s in range(0, len(todo), batch):
            part = todo[s : s + batch]
            rows = np.asarray(embed([chunks[first[k]].embed_text for k in part]), dtype=np.float32)
            if rows.ndim != 2 or rows.shape[0] != len(part):
                raise ValueError(f"the embedder returned {rows.shape} for {len(part)} texts")
            for k, row in zip(part, rows):
                self._fresh[k] = row
            self.embedded += len(part)
            done(len(part))
        self.repeated += len(keys) - len(todo) - read_back
        if not keys:
            return np.zeros((0, 0), dtype=np.float32)
        arr = np.stack([self._fresh[k] for k in keys]).astype(np.float32, copy=False)
        for k, i in first.items():  # point at the unit's array (kept anyway), freeing the batch arrays
            self._fresh[k] = arr[i]
        return arr

    def _read_stored(self, keys: list[bytes]) -> int:
        """Read the rows of ``keys`` from the previous generation's files; how many were read."""
        n = 0
        by_file: dict[Path, list[tuple[bytes, int]]] = {}
        for k in keys:
            f, row = self._stored[k]
            by_file.setdefault(f, []).append((k, row))
        for f, wanted in by_file.items():
            try:
                arr = np.load(f, mmap_mode="r", allow_pickle=False)
                if arr.ndim != 2 or arr.dtype != np.float32:
                    raise ValueError(f"{arr.shape} {arr.dtype}")
                rows = np.array(arr[[r for _, r in wanted]], dtype=np.float32)
                del arr
                if not np.isfinite(rows).all():
                    raise ValueError("non-finite values")
            except Exception as exc:  # noqa: BLE001 - unreadable: those texts are embedded again
                log.warning("stored vectors %s are unusable (%s); embedding their texts again", f, exc)
                for k, _ in wanted:
                    self._stored.pop(k, None)
                continue
            for (k, _), row in zip(wanted, rows):
                self._fresh[k] = row
            n += len(wanted)
        self.from_previous += n
        return n
