"""``python -m tests.fake_cli <verb> ...``: the real CLI with the fake embedder, for tests of
the index's mechanics across processes (a batch while another process rebuilds) that must
not spend half a minute loading torch and embedding with the real model in each process."""

from __future__ import annotations

import sys

import assistant.retrieval.embeddings as embeddings
import assistant.retrieval.index as index
from tests.fake_embedder import FakeEmbedder

_FAKE = FakeEmbedder()
embeddings.get_embedder = index.get_embedder = lambda: _FAKE  # type: ignore[assignment]

if __name__ == "__main__":
    from assistant.__main__ import main

    sys.exit(main(sys.argv[1:]))
