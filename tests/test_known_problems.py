"""Known flaws of the texts (the manifest's `known_problems`, from ../shared/TEXT-NOTES.md):
each one names text that exists, and an answer quoting that text tells the reader."""

from __future__ import annotations

import re

import pytest

from assistant.answering.compose import text_notes
from assistant.corpus import all_passages, municipalities


def _norm(text: str) -> str:
    return " ".join(text.split())


PROBLEMS = [(m.id, k) for m in municipalities() for k in m.known_problems]


def test_every_municipality_lists_its_known_problems():
    assert {m for m, _ in PROBLEMS} == {"brandon", "delafield"}
    assert len(PROBLEMS) >= 20


@pytest.mark.parametrize("muni, problem", PROBLEMS, ids=[k.where[:30] for _, k in PROBLEMS])
def test_each_problem_touches_exactly_one_passage_and_is_reported_with_it(muni, problem):
    touched = [p for p in all_passages() if p.municipality == muni and _norm(problem.where) in _norm(p.text)]
    assert len(touched) == 1, "a known problem must name text that exists, once"
    assert problem.note in text_notes(touched)


_REFERENCE = re.compile(r"§+\s*\d+-\d+[A-Z]?(?:\(\d+\))*|(?:\(\w{1,4}\))+")  # citations, not figures
_FIGURE = re.compile(r"\d[\d,./¼½¾]*(?: \d+/\d+)?")


@pytest.mark.parametrize("muni, problem", PROBLEMS, ids=[k.where[:30] for _, k in PROBLEMS])
def test_every_figure_in_a_note_is_in_the_text_it_touches(muni, problem):
    """A note is data, not a calculator: it may repeat the code's figures, never make new ones."""
    passage = next(p for p in all_passages() if p.municipality == muni and _norm(problem.where) in _norm(p.text))
    figures = [f.rstrip(".,") for f in _FIGURE.findall(_REFERENCE.sub(" ", problem.note))]
    assert [f for f in figures if f not in _norm(passage.text)] == []


def test_passages_without_a_known_problem_get_no_such_note():
    notes = {k.note for _, k in PROBLEMS}
    clean = [p for p in all_passages() if not any(_norm(k.where) in _norm(p.text) for _, k in PROBLEMS)]
    assert clean and not notes & set(text_notes(clean))



def test_staff_views_show_the_problems_of_a_passage():
    from assistant.webapp.render import escape_html, section_html

    flawed = next(p for p in all_passages() if "Residential walks shall match width" in p.text)
    clean = next(p for p in all_passages() if p.municipality == "brandon" and not text_notes([p]))
    html = section_html("Sidewalks", [flawed, clean])
    assert html.count("oa-problem") == 1 and "no width for residential sidewalks" in html
    note = next(n for n in text_notes([flawed]) if "residential" in n)
    assert escape_html(note) in html and (note == escape_html(note) or note not in html)  # escaped
