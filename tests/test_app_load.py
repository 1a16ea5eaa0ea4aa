"""The web app under load: evaluation questions asked from 8 concurrent clients get the
answers of the serial run (issue 13 item 5, issue 11 item 4).

The real app (``python app.py``, embedded default, its index built in tmp_path) on a free
loopback port, asked through its HTTP API. A conversation keeps one client and carries the
history the app returned; the others run beside it. The benchmark over 66 turns and
several concurrency limits is ``scripts/load_app.py --compare``.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

pytest.importorskip("gradio_client")

from evals.app_load import ask_all, compare, running_app, sample_conversations  # noqa: E402

CLIENTS = 8


def test_the_sample_covers_every_kind_and_conversations_with_history():
    conversations = sample_conversations(24)
    turns = [t for c in conversations for t in c]
    assert 24 <= len(turns) <= 30
    kinds = Counter(t.kind for t in turns)
    assert set(kinds) == {"lookup", "calculation", "conversation", "clarify", "out_of_scope", "not_stated"}
    assert any(len(c) > 1 for c in conversations)
    assert sample_conversations(24) == conversations  # fixed: the same sample every run
    assert sum(len(c) for c in sample_conversations(64)) >= 64


@pytest.mark.slow
def test_eight_concurrent_clients_get_the_answers_of_the_serial_run(tmp_path):
    conversations = sample_conversations(24)
    env = {"ASSISTANT_DATA_DIR": str(tmp_path / "data"), "ASSISTANT_QUEUE_CONCURRENCY": str(CLIENTS),
           "ASSISTANT_QUEUE_MAX_SIZE": str(2 * CLIENTS)}
    with running_app(env, ready_timeout_s=600, log_path=tmp_path / "app.log") as app:
        serial = ask_all(app.url, conversations, clients=1)
        concurrent = ask_all(app.url, conversations, clients=CLIENTS)
    # the serial run is real answers, not "still loading" or "Sorry" (else the comparison is empty)
    texts = [json.dumps(r.output["text"], ensure_ascii=False) for r in serial]
    failed = ("Sorry — something went wrong", "The assistant is still starting", "The assistant could not start")
    assert not [t for t in texts if any(f in t for f in failed)], texts[:3]
    assert sum(bool(r.output["citations"]) for r in serial) >= len(serial) // 2
    assert any(r.output["calculators"] for r in serial)
    differing = compare(serial, concurrent)
    assert not differing, (f"{len(differing)} of {len(serial)} answers differ under {CLIENTS} clients:\n"
                           + "\n".join(d.describe() for d in differing[:5]))
