"""The total of several parties' figures, when the question asks it ("What's the surcharge for each crew and the
total?"): each party's headline amount (the first bold amount of its answer, the calculator's) added, exactly, and
recorded as a tool call so the answer guard finds the sum among the calculators' results."""

from __future__ import annotations

import re
from decimal import Decimal

from assistant.answering.formatting import fmt_money
from assistant.types import ToolCall

# a total asked of several: "and the total", "how much altogether", "combined", "for both of us together"
ASKS_TOTAL = re.compile(r"\b(?:the |a |in |grand )?total\b|\baltogether\b|\ball together\b|\bcombined\b|\bin all\b|"
                        r"\ball told\b|\b(?:both|all) of (?:us|them|those|these)\b[^.?!]{0,20}\btogether\b|"
                        r"\badd(?:ed)? (?:it |them |those |these )?(?:all )?up\b", re.I)
_BOLD_MONEY = re.compile(r"\*\*\$(?P<n>\d[\d,]*(?:\.\d\d)?)\*\*")


def headline_amount(answer: str) -> Decimal | None:
    """The first bold dollar amount of a party's answer (its calculator's headline figure), past the "I read:" line."""
    body = "\n\n".join(p for p in answer.split("\n\n") if not p.startswith("I read:"))
    m = _BOLD_MONEY.search(body)
    return Decimal(m.group("n").replace(",", "")) if m else None


def total_line(question: str, answers: list[str]) -> tuple[str, ToolCall] | None:
    """'Together: $450.00 + $180.00 = **$630.00**.' and its tool call, when the question asks a total and every
    party's answer has a headline amount; None otherwise."""
    if len(answers) < 2 or not ASKS_TOTAL.search(question):
        return None
    amounts = [headline_amount(a) for a in answers]
    if any(a is None for a in amounts):
        return None
    total = sum(amounts, Decimal(0))
    line = (("Both together" if len(amounts) == 2 else "All of them together") + ", in the order below: "
            + " + ".join(fmt_money(a) for a in amounts) + f" = **{fmt_money(total)}**.")
    call = ToolCall(name="sum_amounts", arguments={"amounts": [str(a) for a in amounts]},
                    result={"total": str(total)})
    return line, call
