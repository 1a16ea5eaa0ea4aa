"""Route a question to a calculator: the planner loops over the calculators' own route
declarations (``ToolSpec.route``: an order, the words a route answers, the function that
reads its arguments), never over a hand-ordered chain here.

A route whose cue words the question lacks is not tried; a route that reads nothing
returns None and the next one is tried; one that needs a value the question lacks returns
``Missing`` and the planner asks for it. A calculator whose data does not cover the
municipality asked about is passed over: the passages answer.
"""

from __future__ import annotations

import functools
import importlib
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass

from assistant.answering.routes.common import Missing, RouteContext, Routed
from assistant.retrieval.expansion import expand
from assistant.tools.registry import all_tools
from assistant.tools.spec import Route


@dataclass(frozen=True)
class Declared:
    """One calculator's route, resolved: its cue patterns compiled, its reader imported."""

    tool: str
    route: Route
    cues: tuple[re.Pattern, ...]
    read: Callable[[str, str | None, RouteContext], Routed | Missing | None]

    def applies(self, q: str) -> bool:
        return all(c.search(q) for c in self.cues)


def _reader(dotted: str) -> Callable:
    module, _, name = dotted.partition(":")
    return getattr(importlib.import_module(module), name)


@functools.cache
def declared_routes() -> tuple[Declared, ...]:
    """Every calculator's route, in its declared order (the registry is loaded once)."""
    found = []
    for name, spec in all_tools().items():
        if spec.route is None:
            continue
        found.append(Declared(name, spec.route, tuple(re.compile(c, re.I) for c in spec.route.cues),
                              _reader(spec.route.read)))
    orders = [d.route.order for d in found]
    if len(orders) != len(set(orders)):
        raise RuntimeError("two calculators declare the same route order")
    return tuple(sorted(found, key=lambda d: d.route.order))


class ToolRouter:
    def __init__(self, embedder=None):
        self.tools = all_tools()
        self.routes = declared_routes()
        self.embedder = embedder
        self._rule_vectors = None  # a cache of the rule catalogue's vectors, the same for every request
        self._lock = threading.Lock()

    def _rule_similarity(self, vector) -> dict[str, float]:
        """Cosine similarity of the question to each deadline rule's description
        (the rule catalogue is embedded once, on first use)."""
        if self.embedder is None or vector is None:
            return {}
        import numpy as np

        from assistant.tools.deadlines import rules

        with self._lock:
            if self._rule_vectors is None:
                ids = list(rules())
                texts = [f"{r.title}. {r.obligation} Counted from: {r.event}." for r in rules().values()]
                self._rule_vectors = (ids, np.asarray(self.embedder.embed_documents(texts), dtype=np.float32))
        ids, mat = self._rule_vectors
        sims = mat @ np.asarray(vector, dtype=np.float32)
        return dict(zip(ids, (float(x) for x in sims)))

    def route(self, q: str, muni: str | None, current: str | None = None, vector=None,
              query=None, found=None, only: frozenset[str] | None = None) -> Routed | Missing | None:
        """``q`` is the whole question (with the earlier turn's topic for a follow-up);
        ``current`` the words of this turn, whose values (dates, money) come first; ``found``, when given, the
        sections the search finds for the question (best first), asked for only by a route that weighs them;
        ``only``: the calculators to try (all when None)."""
        ctx = RouteContext(current=current or q, vector=vector, query=query, tools=self.tools,
                           similar=functools.partial(self._rule_similarity, vector),
                           found=functools.cache(found) if found is not None else list)
        routes = [d for d in self.routes if only is None or d.tool in only]
        out = self._first(q, muni, ctx, [d for d in routes if d.applies(q)])
        if out is not None:
            return out
        # then the routes the code's words for the user's plain ones reach (the expansion data: "walk" ->
        # sidewalk), only when no route the user's own words name has taken the question
        wide = expand(q, muni)
        if wide == q:
            return None
        # (a route reached only so computes, never asks: a question it would ask is not known to be for it; unless
        # the user's own words meet one of its cues and the plain word only its topic: "how much am I going to owe
        # for the walk?" asks for the cost as a "sidewalk" question would)
        reached = [d for d in routes if not d.applies(q) and d.applies(wide)]
        for declared in reached:
            own = len(declared.cues) > 1 and any(c.search(q) for c in declared.cues)
            out = self._first(q, muni, ctx, [declared], asks=own)
            if out is not None:
                return out
        return None

    def _first(self, q: str, muni: str | None, ctx: RouteContext, routes: list[Declared],
               asks: bool = True) -> Routed | Missing | None:
        for declared in routes:
            if muni and muni not in self.tools[declared.tool].municipalities:
                continue  # no calculator holds this municipality's figures: neither computed nor asked for
            out = declared.read(q, muni, ctx)
            if not asks and not isinstance(out, Routed):
                continue
            if out is not None:
                return out
        return None


__all__ = ["ToolRouter", "Routed", "Missing", "RouteContext", "declared_routes"]
