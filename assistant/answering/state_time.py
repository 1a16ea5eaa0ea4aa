"""A state's own rule of counting a period of days (data: assistant/tools/data/time_rules.yaml), for a municipality
outside Wisconsin: the last day moved off the days its computation-of-time statute names. Pure; the planner hands
the rule to ``periods.under_rule`` in place of Wisconsin's calendar."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import yaml

_DATA = Path(__file__).resolve().parents[1] / "tools" / "data" / "time_rules.yaml"
_DAYS = {"saturday", "sunday", "holiday"}


@dataclass(frozen=True)
class StateTimeRule:
    state: str
    cite: str
    says: str
    moves_off: frozenset[str]
    lands_off: frozenset[str]

    @property
    def convention_text(self) -> str:
        # (``periods.under_rule`` names the rule by the words before the colon)
        return f"rule of {self.cite}: {self.says}"

    @property
    def moves_to(self) -> str:
        """Where the rule moves a last day, in words."""
        if self.lands_off >= {"saturday", "sunday", "holiday"}:
            return "the next business day"
        return "the next day that is not " + " or ".join(
            {"saturday": "a Saturday", "sunday": "a Sunday", "holiday": "a legal holiday"}[k]
            for k in ("saturday", "sunday", "holiday") if k in self.lands_off)

    @functools.cached_property
    def _holidays(self):
        import holidays as holidays_lib

        return holidays_lib.country_holidays("US", subdiv=self.state, observed=True)

    def _is(self, d: date, kinds: frozenset[str]) -> bool:
        return (("saturday" in kinds and d.weekday() == 5) or ("sunday" in kinds and d.weekday() == 6)
                or ("holiday" in kinds and d in self._holidays))

    def why(self, d: date) -> str:
        """'a Saturday and Veterans Day': what makes a day one the rule moves off (its weekday and holiday)."""
        parts = [f"a {d.strftime('%A')}"] if d.weekday() >= 5 else []
        if d in self._holidays:
            parts.append(str(self._holidays.get(d)))
        return " and ".join(parts) or d.strftime("%A")

    def moved_off_closed_days(self, last: date) -> date:
        """The day a last day moves to under the state's rule (itself when it is not on a day the rule names)."""
        if not self._is(last, self.moves_off):
            return last
        day = last
        for _ in range(30):  # bounded: the next open day is a few days off
            day += timedelta(days=1)
            if not self._is(day, self.lands_off):
                return day
        return last


@functools.lru_cache(maxsize=1)
def _rules() -> dict[str, StateTimeRule]:
    data = yaml.safe_load(_DATA.read_text(encoding="utf-8")) or {}
    out = {}
    for state, entry in (data.get("states") or {}).items():
        moves, lands = frozenset(entry["moves_off"]), frozenset(entry["lands_off"])
        if not moves <= _DAYS or not lands <= _DAYS:
            raise ValueError(f"time_rules.yaml: {state}: days must be among {sorted(_DAYS)}")
        out[state.upper()] = StateTimeRule(state.upper(), entry["cite"], entry["says"], moves, lands)
    return out


def rule_for(state: str | None) -> StateTimeRule | None:
    """The state's rule of counting a period of days, when the data holds it (never Wisconsin's: the calendar has it)."""
    if not state or state.upper() == "WI":
        return None
    return _rules().get(state.upper())
