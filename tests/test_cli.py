"""The CLI verbs in-process: one line on stderr and a non-zero exit on error."""

from __future__ import annotations

import json

from assistant.__main__ import main


def test_tool_list_and_run(capsys):
    assert main(["tool", "--list"]) == 0
    out = capsys.readouterr().out
    for name in ("street_opening_surcharge", "deadline", "bond_insurance_requirements", "parse_address"):
        assert name in out
    assert main(["tool", "deadline", "--json", '{"rule": "brandon_permit_validity", "event": "2026-03-02"}']) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["due_date"] == "2026-04-01" and result["citations"][0]["section"] == "404-6"


def test_tool_bad_arguments_name_the_field(capsys):
    assert main(["tool", "deadline", "--json", '{"rule": "brandon_permit_validity", "evnt": "2026-03-02"}']) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "evnt" in err and "\n" not in err
    # a combination the code does not allow: an explanation, exit 2, no number
    assert main(["tool", "street_opening_surcharge", "--json", '{"municipality": "delafield", "opening_date": "2026-01-01"}']) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is False and out["multiplier"] is None
    assert main(["tool", "deadline", "--json", "{oops"]) == 1
    assert "not valid JSON" in capsys.readouterr().err


def test_show_and_toc(capsys):
    assert main(["show", "§ 404-7H"]) == 0
    assert "not later than the next business day" in capsys.readouterr().out
    assert main(["show", "EXCAVATION IN PUBLIC RIGHT-OF-WAY (2)(b)", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["subsection"] for r in rows] == ["(2)(b)1.", "(2)(b)2.", "(2)(b)3."]
    assert rows[1]["page"] == 4 and "$20,000 each accident" in rows[1]["text"]
    assert main(["toc", "-m", "Town of Delafield"]) == 0
    assert "UNIFORM ADDRESS SYSTEM" in capsys.readouterr().out
    assert main(["show", "§ 404-99"]) == 1
    assert main(["toc", "-m", "Springfield"]) == 1
    assert "unknown municipality" in capsys.readouterr().err


def test_show_reports_the_known_problems_of_the_text(capsys):
    assert main(["show", "§ 404-7G(2)"]) == 0
    out = capsys.readouterr().out
    assert "text problem:" in out and "cannot be matched with those layers" in out
    assert main(["show", "§ 404-7G", "--json"]) == 0
    rows = {r["subsection"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["G(2)"]["known_problems"] and rows["G(3)"]["known_problems"] == []
