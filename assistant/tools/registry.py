"""The one registry of calculators: the CLI, the planner and the LLM binding read it.

Tool names are the registry keys; each tools module declares ``TOOLS: list[ToolSpec]``.
"""

from __future__ import annotations

import functools
import importlib
import json

from pydantic import ValidationError

from assistant.tools.spec import ToolSpec
from assistant.types import ToolOutput

MODULES = ("surcharge", "deadlines", "bonds", "charges", "specs", "addresses")


class ToolInputError(ValueError):
    """Arguments that do not fit the tool's input model; the message names the fields."""


@functools.cache
def all_tools() -> dict[str, ToolSpec]:
    tools: dict[str, ToolSpec] = {}
    for name in MODULES:
        try:
            mod = importlib.import_module(f"assistant.tools.{name}")
        except ModuleNotFoundError as exc:  # a calculator module not installed: its tools are absent
            if exc.name != f"assistant.tools.{name}":
                raise
            continue
        for spec in getattr(mod, "TOOLS", []):
            if spec.name in tools:
                raise RuntimeError(f"tool name {spec.name!r} declared twice")
            tools[spec.name] = spec
    return tools


def get_tool(name: str) -> ToolSpec:
    tools = all_tools()
    if name not in tools:
        raise KeyError(f"unknown tool {name!r}; known: {', '.join(sorted(tools))}")
    return tools[name]


def describe_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        field = ".".join(str(x) for x in err.get("loc", ())) or "input"
        parts.append(f"{field}: {err.get('msg')}")
    return "; ".join(parts)


def run_tool(name: str, arguments: dict) -> ToolOutput:
    spec = get_tool(name)
    try:
        inp = spec.input_model.model_validate(arguments)
    except ValidationError as exc:
        raise ToolInputError(f"{name}: {describe_validation_error(exc)}") from None
    return spec.fn(inp)


def _described(spec: ToolSpec) -> str:
    """The description a model routes on, led by the municipalities the tool's data covers."""
    from assistant.corpus import municipality_by_id

    names = [m.name for m in (municipality_by_id(mid) for mid in spec.municipalities) if m]
    return f"{', '.join(names)}: {spec.description}" if names else spec.description


def as_langchain_tools() -> list:
    """The calculators as LangChain StructuredTools with the same args schema; the
    full result (citations included) travels as the tool message's artifact."""
    from langchain_core.tools import StructuredTool

    out = []
    for spec in all_tools().values():

        def _call(_spec=spec, **kwargs):
            result = _spec.fn(_spec.input_model.model_validate(kwargs))
            payload = result.model_dump(mode="json")
            return json.dumps(payload, default=str), payload

        out.append(
            StructuredTool.from_function(
                func=_call, name=spec.name, description=_described(spec),
                args_schema=spec.input_model, response_format="content_and_artifact",
            )
        )
    return out
