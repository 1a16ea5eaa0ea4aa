"""Which municipalities each calculator covers, and what it says elsewhere: read from data.

Each data file under ``assistant/tools/data/`` may hold a ``tools:`` section::

    tools:
      sidewalk_assessment:
        municipalities: [<id>, ...]        # the municipalities whose rules the tool implements
        default: <id>                      # optional: the input's default (callers that name none)
        not_covered:                       # optional: the answer for a municipality it does not cover
          <id>: "That code sets no sidewalk assessment; ..."

Code never names a municipality: it asks ``municipalities(tool)``, ``default_municipality(tool)``
and ``not_covered(tool, municipality)``; provision keys are joined as ``"<municipality>_<role>"``
by ``provision_key``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

DATA_DIR = Path(__file__).resolve().parent / "data"


@functools.cache
def _declarations() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(DATA_DIR.glob("*.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for name, entry in (raw.get("tools") or {}).items():
            if name in out:
                raise ValueError(f"{path.name}: tool {name!r} declared in two data files")
            if not entry.get("municipalities"):
                raise ValueError(f"{path.name}: tool {name!r} declares no municipalities")
            out[name] = dict(entry, data_file=path.name)
    return out


def municipalities(tool: str) -> tuple[str, ...]:
    """The municipality ids the tool's data covers (empty when the tool declares none)."""
    entry = _declarations().get(tool)
    return tuple(entry["municipalities"]) if entry else ()


def default_municipality(tool: str) -> str | None:
    """The input's default: the data's ``default`` for the tool, else the one municipality a
    single-municipality tool covers, else None (the caller must name one)."""
    entry = _declarations().get(tool) or {}
    if entry.get("default"):
        return str(entry["default"])
    covered = municipalities(tool)
    return covered[0] if len(covered) == 1 else None


def _names(ids: tuple[str, ...]) -> str:
    from assistant.corpus import municipality_by_id

    names = []
    for mid in ids:
        m = municipality_by_id(mid)
        names.append(m.name if m else mid)
    return " and ".join(names)


def not_covered(tool: str, municipality: str) -> str | None:
    """None when the tool covers ``municipality``; else the message the tool answers with
    (the data's own sentence, or one naming the municipalities the tool covers)."""
    covered = municipalities(tool)
    if municipality in covered:
        return None
    said = (_declarations().get(tool, {}).get("not_covered") or {}).get(municipality)
    if said:
        return str(said)
    from assistant.corpus import municipality_by_id

    m = municipality_by_id(municipality)
    who = m.name if m else municipality
    return (f"The code of the {who} we hold has no such rule; this calculator implements the rules of the "
            f"{_names(covered)}.")


def provision_key(municipality: str, role: str) -> str:
    """The data key of ``municipality``'s provision playing ``role`` (keys are '<id>_<role>')."""
    return f"{municipality}_{role}"


def municipality_field(tool: str, description: str):
    """A ``municipality`` input field: defaults to the tool's only municipality (from data)."""
    from pydantic import Field

    default = default_municipality(tool)
    if default is None:
        return Field(description=description)
    return Field(default_factory=lambda: default_municipality(tool), description=description)
