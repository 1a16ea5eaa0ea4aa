"""No per-request state on shared objects: the same answers from 8 threads as serially."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import yaml

from assistant.answering.assistant import Assistant
from assistant.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def _questions(n: int = 48) -> list[tuple[str, str | None]]:
    items = []
    for name in ("questions.yaml", "heldout2_questions.yaml"):
        for it in yaml.safe_load((ROOT / "evals" / name).read_text(encoding="utf-8")):
            if "question" in it and it.get("municipality") != "testville":
                items.append((it["question"], it.get("municipality")))
    step = max(1, len(items) // n)
    return items[::step][:n]


@pytest.mark.slow
def test_eight_threads_get_the_answers_of_the_serial_run(tmp_path):
    assistant = Assistant.load(settings=Settings(data_dir=tmp_path / "data"))
    questions = _questions()
    serial = [assistant.ask(q, m).model_dump_json() for q, m in questions]
    with ThreadPoolExecutor(max_workers=8) as pool:
        parallel = list(pool.map(lambda qm: assistant.ask(*qm).model_dump_json(), questions))
    differing = [q for (q, _), a, b in zip(questions, serial, parallel) if a != b]
    assert not differing, f"{len(differing)} of {len(questions)} answers differ under 8 threads: {differing[:3]}"
