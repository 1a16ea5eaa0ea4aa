"""ASSISTANT_TODAY pins the day relative dates count from (evaluations written on a given day)."""

from datetime import date

import pytest

from assistant.answering import slots
from assistant.answering.reading import read_query
from assistant.settings import Settings


def test_pinned_today_is_the_day_relative_dates_count_from(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-01")
    assert slots.today() == date(2026, 12, 1)
    assert [s.value for s in read_query("the notice was dated last Tuesday").slots] == ["2026-11-24"]
    # (said on the Monday after, the Tuesday before; said on the Wednesday, "last Tuesday" may be yesterday or the week
    # before, and both days are kept: test_reading)
    monkeypatch.setenv("ASSISTANT_TODAY", "2026-12-07")
    assert [s.value for s in read_query("the notice was dated last Tuesday").slots] == ["2026-12-01"]


def test_a_bad_pinned_day_names_the_variable(monkeypatch):
    monkeypatch.setenv("ASSISTANT_TODAY", "yesterday")
    with pytest.raises(ValueError, match="ASSISTANT_TODAY"):
        slots.today()
    with pytest.raises(Exception, match="today"):
        Settings()


def test_unpinned_today_is_the_clock(monkeypatch):
    monkeypatch.delenv("ASSISTANT_TODAY", raising=False)
    assert slots.today() == date.today()
