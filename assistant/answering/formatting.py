"""How values are written in answers (formatting only: the values come from tools)."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal


def fmt_date(d: date | str) -> str:
    if isinstance(d, str):
        d = date.fromisoformat(d) if len(d) == 10 else datetime.fromisoformat(d)
    if isinstance(d, datetime):
        return f"{d.strftime('%B')} {d.day}, {d.year} {d.strftime('%I:%M %p').lstrip('0')}"
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def fmt_money(x: Decimal | float | int | str) -> str:
    return f"${Decimal(str(x)):,.2f}"
