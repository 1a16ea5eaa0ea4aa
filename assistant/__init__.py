"""Ordinance assistant: cited answers over municipal codes."""

from __future__ import annotations

__all__ = ["Assistant"]


def __getattr__(name: str):
    # Heavy imports (torch, chroma) stay lazy: `import assistant` is cheap.
    if name == "Assistant":
        from assistant.answering.assistant import Assistant

        return Assistant
    raise AttributeError(name)
