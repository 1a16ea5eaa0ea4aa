"""How a calculator module declares its tools. The registry reads these lists.

A tool is a plain function ``fn(inp: InputModel) -> OutputModel`` where InputModel
subclasses assistant.types.ToolInput (extra="forbid") and OutputModel subclasses
assistant.types.ToolOutput. Each tools module exposes ``TOOLS: list[ToolSpec]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from assistant.types import ToolInput, ToolOutput


@dataclass(frozen=True)
class Route:
    """How a question reaches a calculator, declared beside the calculator.

    The planner loops over every tool's route by ``order`` (a narrower reading before a
    looser one: an address before a deadline), tries a route only when the question
    matches every pattern of ``cues`` (case-insensitive), and calls ``read`` — a function
    of the answering layer, named "module:function" so the calculators never import it —
    which maps the reading of the question (its slots) to the tool's arguments or says
    what is missing. ``answers`` says in words what questions it takes.
    """

    order: int
    read: str
    answers: str
    cues: tuple[str, ...] = ()


@dataclass(frozen=True)
class ToolSpec:
    name: str  # registry name, snake_case, stable: the CLI, the planner and the LLM use it
    description: str  # one or two sentences a user (and an LLM) can route on
    input_model: type[ToolInput]
    output_model: type[ToolOutput]
    fn: Callable[[ToolInput], ToolOutput]
    keywords: tuple[str, ...] = ()  # words that route a question here (planner hints)
    route: Route | None = None  # how the embedded planner reaches it; None: only the LLM, the CLI or a checklist

    @property
    def municipalities(self) -> tuple[str, ...]:
        """The municipality ids this tool's data covers (``tools:`` in its data file)."""
        from assistant.tools.coverage import municipalities

        return municipalities(self.name)
