"""A deterministic stand-in for the sentence embedder: hashed bag-of-words vectors.

For tests of the index's mechanics (Chroma server, locking) that must not spend a
minute loading torch in every process. Retrieval quality is tested with the real model.
"""

from __future__ import annotations

import hashlib
import math
import re

DIM = 64


class FakeEmbedder:
    fingerprint = "fake-hash-64"

    def _vec(self, text: str) -> list[float]:
        v = [0.0] * DIM
        for w in re.findall(r"[a-z0-9]+", text.lower()):
            h = int(hashlib.md5(w.encode()).hexdigest(), 16)
            v[h % DIM] += 1.0
        n = math.sqrt(sum(x * x for x in v)) or 1.0
        return [x / n for x in v]

    def embed_documents(self, texts, show_progress: bool = False):
        return [self._vec(t) for t in texts]

    def embed_query(self, text):
        return self._vec(text)
