"""The Brandon (eCode360-style) parser: structure, reconstructed labels, notes, spans."""

from __future__ import annotations

import re

import pytest

from assistant.corpus import cite, document, source_text, municipality_by_id, QuoteNotFound
from assistant.types import normalize_ws


@pytest.fixture(scope="module")
def doc():
    return document("brandon")


def _passage(doc, section, subsection):
    hits = [p for p in doc.passages if p.section == section and p.subsection == subsection]
    assert hits, f"no passage {section}{subsection}"
    return hits[0]


def test_sections_in_order_with_titles(doc):
    numbers = [s.section for s in doc.sections]
    assert numbers[0] is None  # the untitled sidewalk text before § 404-6
    assert numbers[1:] == [f"404-{n}" for n in range(6, 19)]
    titles = {s.section: s.title for s in doc.sections}
    assert titles["404-6"] == "Excavations of streets, alleys, public ways and grounds"
    assert titles["404-10"] == "Snow and ice removal"


def test_untitled_text_gets_a_content_title_and_no_number(doc):
    first = doc.sections[0]
    assert first.untitled and first.section is None and first.title == "Sidewalks"
    assert first.passages[0].text.startswith("New subdivision sidewalks.")
    # the document header line is not a passage
    assert all("General Regulations" not in p.text for p in doc.passages)


@pytest.mark.parametrize(
    "section, subsection, starts",
    [
        ("404-7", "G(2)", "Bituminous pavement shall be placed"),
        ("404-7", "G(6)", "In emergency excavations during winter months"),
        ("404-7", "G(7)", "When a street is reconstructed"),
        ("404-7", "H", "Emergency excavation. In the event of an emergency"),
        ("404-7", "E(6)", "When the sides of the trench will not stand"),
        ("404-8", "D", "Removal by Village for sidewalk obstructions"),
        ("404-8", "E", "Removal by Village for obstruction and encroachments located"),
        ("404-8", "B(2)", "Building materials for the period"),
        ("404-17", "C(1)", "The operator of any motor vehicle which tracks"),
        ("404-6", "A(4)", "Surcharge. In addition to any permit fees"),
        ("404-6", "D(5)", "An annual bond may be given"),
        ("404-15", "B(2)", "Expense. Such number or numbers"),
    ],
)
def test_reconstructed_labels_match_the_codes_cross_references(doc, section, subsection, starts):
    p = _passage(doc, section, subsection)
    assert p.text.startswith(starts)
    assert p.subsection_reconstructed  # the letter was stripped from the text


def test_known_labels_check_passes_and_would_catch_a_shift(doc):
    assert doc.warnings == []
    from assistant.parsing.ecode import check_known_labels

    shifted = doc.model_copy(deep=True)
    for p in shifted.passages:
        if p.section == "404-7" and p.subsection and p.subsection.startswith("G"):
            p.subsection = "F" + p.subsection[1:]
    assert any("404-7G" in w for w in check_known_labels(shifted))


def test_explicit_labels_are_kept_and_marked(doc):
    # "(b)" printed in the text starts the defect list; its items hang under the
    # sentence that introduces the enumeration
    items = [p for p in doc.sections[0].passages if p.subsection and p.subsection.endswith(("(b)", "(c)", "(d)"))]
    assert [p.subsection for p in items] == ["E(2)(b)", "F(1)(b)", "F(1)(c)", "F(1)(d)"]
    assert items[1].text.startswith("One inch or more vertical differential")


def test_run_in_headings(doc):
    p = _passage(doc, "404-7", "A")
    assert p.heading == "Frozen ground"
    assert _passage(doc, "404-6", "A(3)").heading == "Fee; emergency excavation"
    assert _passage(doc, "404-7", "G(2)").heading_path == ["Pavement replacement"]


def test_notes_and_footnote_markers_are_out_of_the_text(doc):
    for p in doc.passages:
        assert "Editor's Note" not in p.text
        assert not re.search(r"\[\d+\]", p.text)
    fee = _passage(doc, "404-6", "A(2)")
    assert "footnote [1]" in fee.notes
    assert any(n.startswith("Editor's Note") for p in doc.passages for n in p.notes)


def test_surcharge_table_stays_in_its_passage(doc):
    p = _passage(doc, "404-6", "A(4)")
    assert "New pavement to 1 year" in p.text and "More than 5 years" in p.text


def test_spans_point_at_the_source(doc):
    src = source_text(municipality_by_id("brandon"))
    for p in doc.passages:
        raw = re.sub(r"\[\d+\]", "", src[p.start : p.end])
        assert normalize_ws(raw) == normalize_ws(p.text), p.id


def test_single_paragraph_sections_have_no_subsection(doc):
    assert _passage(doc, "404-12", None).text == "All vaults and cisterns under sidewalks shall be prohibited."


def test_ids_are_unique_and_deterministic(doc):
    ids = [p.id for p in doc.passages]
    assert len(ids) == len(set(ids))
    assert _passage(doc, "404-7", "H").id.startswith("brandon:404-7:H:")


def test_cite_resolves_quotes_and_refuses_unknown_ones():
    c = cite("brandon", "within 24 hours after the end of a snow event")
    assert (c.section, c.subsection, c.title) == ("404-10", "A", "Snow and ice removal")
    assert "§ 404-10A" in c.label()
    with pytest.raises(QuoteNotFound):
        cite("brandon", "the permit fee is $5")
