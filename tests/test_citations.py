"""Citations typed by staff ('§ 404-7H', a Delafield section title and subsection path) read
back to the provision they name."""

from __future__ import annotations

import pytest

from assistant.corpus import document, municipalities
from assistant.retrieval.citations import parse_citation, passages_for

SECTIONS = [(m.id, s.section, s.title) for m in municipalities() for s in document(m.id).sections]


@pytest.mark.parametrize("mid, section, title", SECTIONS, ids=[f"{m}:{t}" for m, _, t in SECTIONS])
def test_every_section_title_reads_back_to_its_section(mid, section, title):
    # titles holding a municipality's word ("... OF TOWN HIGHWAYS", "OFFICIAL TOWN HIGHWAY
    # AND STREET MAP") lost that word to the municipality detection
    for given in (mid, None):
        ref = parse_citation(title, given)
        assert ref is not None and (ref.municipality, ref.section, ref.title) == (mid, section, title)
        assert passages_for(ref)


@pytest.mark.parametrize("text, given, want", [
    ("STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS (4)(f)", "delafield",
     ("delafield", "STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS", "(4)(f)")),
    ("Town of Delafield STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS (4)(e)", None,
     ("delafield", "STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS", "(4)(e)")),
    ("Delafield EXCAVATION IN PUBLIC RIGHT-OF-WAY (2)(b)1.", None,
     ("delafield", "EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)1.")),
    ("§ 404-7H", "brandon", ("brandon", "Regulations governing excavations and openings", "H")),
    ("Village of Brandon 404-6A(4)", None, ("brandon", "Excavations of streets, alleys, public ways and grounds", "A(4)")),
])
def test_a_typed_citation_names_its_provision(text, given, want):
    ref = parse_citation(text, given)
    assert ref is not None and (ref.municipality, ref.title, ref.subsection) == want


def test_a_municipality_word_inside_another_word_names_no_municipality():
    assert parse_citation("downtown sidewalks", None) is None
