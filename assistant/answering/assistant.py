"""assistant.Assistant: load once, answer many. Every backend's answer passes the guards."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator

from pydantic import ValidationError

from assistant.answering.guards import check_answer, split_injection
from assistant.answering.planner import EmbeddedPlanner
from assistant.corpus import resolve_municipality
from assistant.retrieval.index import SearchHit, SearchIndex
from assistant.settings import Settings, get_settings
from assistant.types import Answer, ChatTurn, Passage

log = logging.getLogger("assistant.guards")


class Assistant:
    def __init__(self, index: SearchIndex, settings: Settings | None = None, llm=None):
        self.index = index
        self.settings = settings or index.settings
        self.embedded = EmbeddedPlanner(index)
        self.llm = llm  # an LLMPlanner, or None for the embedded default

    @classmethod
    def load(cls, settings: Settings | None = None, progress: Callable[[float, str], None] | None = None,
             chat_model=None) -> "Assistant":
        settings = settings or get_settings()
        index = SearchIndex.open(settings=settings, progress=progress)
        llm = None
        if chat_model is not None or settings.llm_model:
            from assistant.answering.llm import LLMPlanner

            llm = LLMPlanner(index, chat_model=chat_model, settings=settings)
        return cls(index, settings, llm)

    @property
    def backend(self) -> str:
        return self.llm.name if self.llm else "embedded"

    # -- answering -----------------------------------------------------------------
    def ask(self, question: str, municipality: str | None = None,
            history: Iterable[ChatTurn | dict] | None = None) -> Answer:
        try:
            muni = resolve_municipality(municipality).id if municipality else None
        except ValueError as exc:
            return Answer(status="refused", answer=f"I can't take that request: {exc}.")
        turns = [t if isinstance(t, ChatTurn) else ChatTurn.model_validate(t) for t in (history or [])]
        fallback = self.embedded.answer(question, muni, turns)
        if self.llm is None:
            return self._guarded(fallback, question, fallback)
        try:
            candidate = self.llm.answer(question, muni, turns, fallback)
        except Exception as exc:  # the LLM failing never fails the user
            log.warning("llm backend failed: %s", exc)
            fallback.guard_events.append(f"LLM backend failed ({type(exc).__name__}); the embedded answer is shown")
            return fallback
        return self._guarded(candidate, question, fallback)

    def _guarded(self, answer: Answer, question: str, fallback: Answer) -> Answer:
        # numbers in an injected instruction ("say the fee is $5") are no source for the answer
        asked, _ = split_injection(question)
        problems = check_answer(answer, allowed_text=asked + " " + self.embedded._coverage())
        if not problems:
            return answer
        for p in problems:
            log.warning("guard: %s (backend %s)", p, answer.backend)
        if answer is fallback:
            # the deterministic answer itself failed a guard: never show unchecked text
            return Answer(status="refused", answer="I could not compose an answer I can back with the code's text.",
                          guard_events=problems)
        fallback = fallback.model_copy(deep=True)
        fallback.guard_events = [f"replaced the {answer.backend} answer: {p}" for p in problems] + fallback.guard_events
        return fallback

    # -- staff lookups --------------------------------------------------------------
    def search(self, query: str, municipality: str | None = None, k: int = 10) -> list[SearchHit]:
        muni = resolve_municipality(municipality).id if municipality else None
        return self.index.search(query, muni, k=k)

    def show(self, ref: str, municipality: str | None = None) -> list[Passage]:
        from assistant.retrieval.citations import lookup

        return lookup(ref, municipality)

    def reindex(self, progress: Callable[[float, str], None] | None = None, force: bool = True) -> None:
        """Rebuild the index (``force=False``: build only what changed, e.g. a municipality just added)."""
        self.index = SearchIndex.open(settings=self.settings, embedder=self.index.embedder, progress=progress, force=force)
        self.embedded = EmbeddedPlanner(self.index)
        if self.llm is not None:
            self.llm.index = self.index

    # -- batch ---------------------------------------------------------------------
    def answer_jsonl(self, lines: Iterable[str]) -> Iterator[str]:
        """One JSON object per input line -> one per output line; a bad line gets an
        error object and the batch goes on."""
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            req_id = None
            try:
                req = json.loads(line)
                if not isinstance(req, dict):
                    raise ValueError("each line must be a JSON object")
                req_id = req.get("id")
                if not isinstance(req.get("question"), str):
                    raise ValueError("'question' must be a string")
                hist = req.get("history") or []
                if not isinstance(hist, list):
                    raise ValueError("'history' must be a list of {role, content}")
                ans = self.ask(req["question"], req.get("municipality"), hist)
                ans.id = None if req_id is None else str(req_id)
                yield ans.model_dump_json()
            except (ValueError, ValidationError, TypeError) as exc:
                msg = str(exc).splitlines()[0]
                yield json.dumps({"id": None if req_id is None else str(req_id), "status": "refused",
                                  "answer": f"line {n}: {msg}", "municipality": None, "citations": [],
                                  "tool_calls": [], "error": msg})
