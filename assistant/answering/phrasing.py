"""All answer wording of the embedded planner, in one place: leads, clarifying questions,
refusals, notes. Pure functions of what was decided; no figure is written here that the
caller did not pass in.
"""

from __future__ import annotations

from datetime import date

from assistant.answering.formatting import fmt_date

CLARIFY_MUNI = "Which municipality do you mean"
CLARIFY_VALUE = "To work this out I need"
IGNORED_INSTRUCTION = "Part of the question asked me to change how I answer; that part was ignored."


def coverage(municipalities) -> str:
    return "; ".join(f"{m.name} Code ch. {m.chapter} ({m.chapter_title})" for m in municipalities)


def refuse_input(problem: str) -> str:
    return f"I can't take that question: {problem}."


def refuse_evasion() -> str:
    return ("I can't help with getting around the code. I can tell you what it requires — for example "
            "which permits, notices and bonds apply to the work — with citations.")


def refuse_only_instructions(covered: str) -> str:
    return (f"I only answer questions about the municipal codes I hold {covered}. "
            "Instructions to change how I answer are ignored.")


def not_held(covered: str, place: str) -> str:
    return f"I only hold the codes of {covered}, not {place}."


def out_of_scope(why: str, covered: str) -> str:
    lead = why + " " if why else ""
    return (f"{lead}That is not covered by the chapters I hold: {covered}. "
            "Ask your municipal office about other topics.")


def clarify_municipality(text: str) -> str:
    return f"{CLARIFY_MUNI}: {text}"


def clarify_between(names: list[str]) -> str:
    return f"{CLARIFY_MUNI}: the " + " or the ".join(names) + "? Their codes differ on this."


def clarify_value(text: str) -> str:
    return f"{CLARIFY_VALUE} {text}"


def clarify_time_of_day() -> str:
    return clarify_value("the time of day as well as the date (this period is counted in hours).")


def only_code_covers(name: str) -> str:
    return f"The question names no municipality; only the {name} code covers this topic."


def code_that_addresses(name: str) -> str:
    return f"The question names no municipality; the {name} code is the one that addresses it."


def lookup_lead(name: str) -> str:
    return f"Here is what the {name} code says:"


def not_stated_set_by(name: str, who: str | None) -> str:
    if who:
        return (f"The {name} code does not state this amount: it is set by {who}, so ask the office for "
                "the current figure.")
    return f"The {name} code does not state this figure; it says where it comes from:"


def not_stated_closest(name: str) -> str:
    return f"The {name} code does not state that figure. The closest provision says:"


def yearless_date(written: str, read_as: date) -> str:
    return (f"The question gives no year for “{written}”: it is read as {fmt_date(read_as)}, the nearest such "
            "day to today. Give the year if you meant another.")


def worked_out(tool: str, explanation: str) -> str:
    return f"How it was worked out (calculator `{tool}`): {explanation}"


def asked_for(slot: str, candidates: tuple[str, ...]) -> str:
    return f"Asked for {slot}" + (": the question gives " + ", ".join(f"“{c}”" for c in candidates)
                                  if candidates else "") + "."
