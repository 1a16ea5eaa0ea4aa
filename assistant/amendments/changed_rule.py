"""What a calculator answers when the words its rule rests on changed: "This rule changed on
<date>: ... The figure is not computed until the rule data is updated", with the new text
cited — never a stale figure, never an exception.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import typing
from datetime import date
from typing import Any, Callable

from assistant.amendments.install import pending_change, records
from assistant.amendments.provisions import _holder, best_match
from assistant.corpus import QuoteNotFound, corpus_dir, document, municipality_by_id
from assistant.types import Citation, Municipality, ToolOutput

def _when_changed(m: Municipality) -> date:
    mine = [r for r in records() if r.municipality == m.id]
    if mine:
        return mine[-1].date
    try:
        return date.fromtimestamp((corpus_dir() / m.source_file).stat().st_mtime)
    except OSError:
        return date.today()


def changed_rule(municipality: str, quote: str, section: str | None = None) -> tuple[str, list[Citation]]:
    """What a calculator says when the words its rule rests on changed — they are no longer in
    the code, or the paragraph holding them was amended — and the current text it cites
    instead (the passage holding or closest to them, if any)."""
    m = municipality_by_id(municipality)
    if m is None:
        return f"The rule's municipality {municipality!r} is not in the manifest.", []
    pending = pending_change(m.id, quote)
    when = pending[0].date if pending else _when_changed(m)
    doc = document(m.id)
    holders = _holder(doc, quote, section)
    now = holders[0] if len(holders) == 1 else best_match(doc, quote, section)
    # The old words are not repeated: they may hold the old figure, which must not be shown as the rule.
    if len(holders) == 1:
        what = f"the paragraph of the {m.name} code it rests on was amended ({now.citation().label()}, cited as it now reads)"
    elif now is not None:
        what = (f"the words of the {m.name} code it rests on are no longer in the text; the nearest provision now is "
                f"{now.citation().label()}, cited as it now reads")
    else:
        what = f"the section of the {m.name} code that held it is no longer in the text"
    message = (f"This rule changed on {when:%B} {when.day}, {when.year}: {what}. "
               "The figure is not computed until the rule data is updated.")
    return message, ([now.citation()] if now else [])


def _failed_output(out_cls: type[ToolOutput], tool: str, inp: Any, message: str,
                   citations: list[Citation]) -> ToolOutput:
    values: dict[str, Any] = {"tool": tool, "ok": False, "error": message, "explanation": "",
                              "citations": citations}
    for name, field in out_cls.model_fields.items():
        if name in values:
            continue
        if hasattr(inp, name):
            values[name] = getattr(inp, name)
        elif field.is_required():
            args = typing.get_args(field.annotation)
            if field.annotation is str:
                values[name] = ""
            elif args and all(isinstance(a, str) for a in args):  # a Literal: its "none" or first value
                values[name] = "none" if "none" in args else args[0]
    try:
        return out_cls.model_validate(values)
    except Exception:  # noqa: BLE001 — an input value the output types differently: leave it out
        pass
    plain = {k: v for k, v in values.items() if k in ("tool", "ok", "error", "explanation", "citations")
             or out_cls.model_fields[k].is_required()}
    try:
        return out_cls.model_validate(plain)
    except Exception:  # noqa: BLE001 — a required field we cannot fill: still answer, unvalidated
        return out_cls.model_construct(**plain)


# How many guarded calculator calls enclose this one (per thread and task): only the outermost
# turns a changed rule into an answer; an inner one (a calculator calling another, or the
# checklist) lets QuoteNotFound through to its caller, which knows what it was building.
_DEPTH: contextvars.ContextVar[int] = contextvars.ContextVar("changed_rule_depth", default=0)


@contextlib.contextmanager
def raising_changed_rules():
    """Inside this block calculators raise QuoteNotFound instead of answering (the checklist)."""
    token = _DEPTH.set(_DEPTH.get() + 1)
    try:
        yield
    finally:
        _DEPTH.reset(token)


def answers_changed_rules(tool: str) -> Callable:
    """Decorate a calculator: when a quote its rule rests on no longer resolves (the chapter was
    amended), it answers ok=False with ``changed_rule``'s message and the new text cited —
    never a stale figure, never an exception."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def guarded(inp: Any, *args: Any, **kwargs: Any) -> Any:
            outer = _DEPTH.get() == 0
            token = _DEPTH.set(_DEPTH.get() + 1)
            try:
                return fn(inp, *args, **kwargs)
            except QuoteNotFound as exc:
                if not outer:
                    raise
                message, citations = changed_rule(exc.municipality or getattr(inp, "municipality", ""),
                                                  exc.quote, exc.section)
                out_cls = typing.get_type_hints(fn).get("return", ToolOutput)
                return _failed_output(out_cls, tool, inp, message, citations)
            finally:
                _DEPTH.reset(token)

        return guarded

    return wrap


def is_changed_rule(out: ToolOutput) -> bool:
    return not out.ok and bool(out.error) and out.error.startswith("This rule changed on ")
