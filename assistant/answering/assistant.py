"""assistant.Assistant: load once, answer many. Every backend's answer passes the guards."""

from __future__ import annotations

import copy
import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from assistant.answering.batch import BadLine, parse_request, refusal
from assistant.answering import phrasing
from assistant.answering.guards import InputProblem, check_answer, check_question
from assistant.answering.planner import EmbeddedPlanner
from assistant.bounded_input import InputLine
from assistant.corpus import forget_parsed, resolve_municipality
from assistant.retrieval.follower import IndexFollower
from assistant.retrieval.index import SearchHit, SearchIndex
from assistant.settings import Settings, get_settings
from assistant.types import Answer, ChatTurn, Passage

log = logging.getLogger("assistant.guards")


@dataclass(frozen=True)
class _Answerers:
    """What answers from one index generation: a request takes one and keeps it."""

    index: SearchIndex
    embedded: EmbeddedPlanner
    llm: object | None  # an LLMPlanner, or None for the embedded default


class Assistant:
    def __init__(self, index: SearchIndex, settings: Settings | None = None, llm=None):
        self.settings = settings or index.settings
        self.follower = IndexFollower(index, on_switch=_forget_changed_corpus)
        self._answerers = _Answerers(index, EmbeddedPlanner(index), llm)
        self._answerers_lock = threading.Lock()

    # the generation in use now (a request holds its own through ``_answering``)
    @property
    def index(self) -> SearchIndex:
        return self.follower.index

    @property
    def embedded(self) -> EmbeddedPlanner:
        return self._answerers_for(self.follower.index).embedded

    @property
    def llm(self):
        return self._answerers_for(self.follower.index).llm

    @llm.setter
    def llm(self, planner) -> None:
        """Set (or, with None, remove) the LLM backend for the requests that start after this."""
        have = self._answerers_for(self.follower.index)
        with self._answerers_lock:
            self._answerers = _Answerers(have.index, have.embedded, planner)

    @contextmanager
    def _answering(self) -> Iterator[_Answerers]:
        """The answerers of the published index generation, held for one request: a newer
        generation is picked up here, between requests, never in the middle of one."""
        with self.follower.using() as idx:
            yield self._answerers_for(idx)

    def _answerers_for(self, idx: SearchIndex) -> _Answerers:
        have = self._answerers
        if have.index is idx:
            return have
        with self._answerers_lock:
            have = self._answerers
            if have.index is idx:
                return have
            # the tool router depends only on the embedding model: shared across generations
            router = getattr(have.embedded, "router", None)
            embedded = EmbeddedPlanner(idx, tool_router=router) if router is not None else EmbeddedPlanner(idx)
            llm = None
            if have.llm is not None:
                llm = copy.copy(have.llm)
                llm.index = idx
            made = _Answerers(idx, embedded, llm)
            if idx is self.follower.index:
                self._answerers = made
            return made

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
        self.follower.refresh()  # first: a newer generation may know another municipality
        try:
            muni = resolve_municipality(municipality).id if municipality else None
        except ValueError as exc:
            return Answer(status="refused", answer=f"I can't take that request: {exc}.")
        refused = self._input_refusal(question)
        if refused is not None:
            return refused
        turns = [t if isinstance(t, ChatTurn) else ChatTurn.model_validate(t) for t in (history or [])]
        with self._answering() as using:
            fallback = using.embedded.answer(question, muni, turns)
            # (the user's own words of the conversation: a clarifying question may name back a value an earlier
            # turn gave, "is it “$2,150” or “$2,975”?")
            # (and a "what if" follow-up's earlier question asked again with its figures, in the user's own words)
            said = " \n ".join([*(t.content for t in turns if t.role == "user"), question,
                                *([fallback.read_as] if fallback.read_as else [])])
            if using.llm is None:
                guarded = self._guarded(using, fallback, said, fallback)
                if guarded is fallback:
                    return guarded
                # the answer planned failed a guard: the code's sentences for the question, quoted, if they pass
                quoted = using.embedded.quotes_only(question, muni, turns)
                if quoted is not None and not check_answer(quoted, allowed_text=using.embedded._coverage(), question=said):
                    quoted.guard_events = [*guarded.guard_events, phrasing.QUOTED_AFTER_GUARD] + quoted.guard_events
                    quoted.notes.insert(0, phrasing.QUOTED_AFTER_GUARD)
                    return quoted
                return guarded
            try:
                candidate = using.llm.answer(question, muni, turns, fallback)
            except Exception as exc:  # the LLM failing never fails the user
                log.warning("llm backend failed: %s", exc)
                fallback.guard_events.append(f"LLM backend failed ({type(exc).__name__}); the embedded answer is shown")
                return fallback
            return self._guarded(using, candidate, said, fallback)

    def _input_refusal(self, question: str) -> Answer | None:
        """A question no backend may see (empty, too long, binary): refused here, in our own
        words. Not passed through the number guard, whose sources are the code's text: the
        figures of this message are the question's length and the limit."""
        try:
            check_question(question, self.settings.max_question_chars)
        except InputProblem as exc:
            return Answer(status="refused", answer=f"I can't take that question: {exc}.")
        return None

    def _guarded(self, using: _Answerers, answer: Answer, question: str, fallback: Answer) -> Answer:
        # the question is no source of figures: a number the user gave counts only where a
        # calculator echoed it as an input (its call's arguments or result)
        problems = check_answer(answer, allowed_text=using.embedded._coverage(), question=question)
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
        self.follower.refresh()
        muni = resolve_municipality(municipality).id if municipality else None
        with self.follower.using() as idx:
            return idx.search(query, muni, k=k)

    def show(self, ref: str, municipality: str | None = None) -> list[Passage]:
        from assistant.retrieval.citations import lookup

        self.follower.refresh()
        return lookup(ref, municipality)

    def reindex(self, progress: Callable[[float, str], None] | None = None, force: bool = True) -> None:
        """Build a new generation and answer from it from the next request on (requests in
        flight finish on the one they started with). ``force=False`` re-embeds only what
        changed (a municipality just added); unchanged municipalities keep their vectors."""
        new = SearchIndex.open(settings=self.settings, embedder=self.index.embedder, progress=progress, force=force)
        self.follower.adopt(new)

    # -- batch ---------------------------------------------------------------------
    def answer_jsonl(self, lines: Iterable[str | bytes | InputLine]) -> Iterator[str]:
        """One JSON object per input line -> one per output line. Every line is answered:
        a bad one (not JSON, too deep, not UTF-8, a lone surrogate, too long, ...) gets its
        own ``refused`` object naming the line and the problem, and the batch goes on.

        ``lines`` may be text lines, raw byte lines, or the ``InputLine``s of
        ``assistant.bounded_input.read_lines`` (how the CLI reads stdin, size-capped)."""
        cap = self.settings.max_line_bytes
        for n, item in enumerate(lines, 1):
            line = _as_input_line(n, item, cap)
            if line.error is None and not line.text.strip():
                continue
            req_id = None
            try:
                if line.error is not None:
                    raise BadLine(line.error)
                req = parse_request(line.text)
                req_id = req.id
                ans = self.ask(req.question, req.municipality, req.history)
                ans.id = req_id
                yield ans.model_dump_json()
            except BadLine as exc:
                yield json.dumps(refusal(line.number, str(exc), getattr(exc, "req_id", None)))
            except Exception as exc:  # one line never ends the batch
                log.exception("batch line %d failed", line.number)
                yield json.dumps(refusal(line.number, f"this line could not be answered ({type(exc).__name__})",
                                         req_id))


def _as_input_line(n: int, item: str | bytes | InputLine, cap: int) -> InputLine:
    if isinstance(item, InputLine):
        return item
    raw = item if isinstance(item, bytes) else None
    if raw is None:
        try:
            raw = item.encode("utf-8")
        except UnicodeEncodeError:  # text that already holds a lone surrogate: let the parser name it
            return InputLine(n, item) if len(item) <= cap else InputLine(n, None, "the line is too long")
    raw = raw.rstrip(b"\r\n")
    if len(raw) > cap:
        return InputLine(n, None, f"the line is too long ({len(raw):,} bytes; the limit is {cap:,})")
    try:
        return InputLine(n, raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return InputLine(n, None, f"the line is not valid UTF-8 (byte {exc.start + 1} is 0x{raw[exc.start]:02x})")


def _forget_changed_corpus(old: SearchIndex, new: SearchIndex) -> None:
    """A generation built from another corpus: the parsed texts this process cached are old."""
    if old.fingerprint != new.fingerprint:
        forget_parsed()
