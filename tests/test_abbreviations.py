"""An abbreviation the code defines ('electrical personal assistive mobility device (EPAMD)')
is indexed with its definition wherever the code uses it, so that a passage saying only
'EPAMDs are prohibited' is found by the words of the definition ('Segway'). Real lines of
Boston's § 16-12.38A (../shared/corpus-samples/boston-ma-16-12)."""

from __future__ import annotations

from assistant.retrieval.chunking import (
    abbreviation_definitions,
    abbreviations_used,
    chunk_passages,
    context_of,
)
from assistant.retrieval.lexical import LexicalIndex
from assistant.types import Passage

DEFINITION = (
    "An electrical personal assistive mobility device (EPAMD) shall mean a self-balancing device with two (2) "
    "wheels not in tandem, designed to transport only one (1) person by an electric propulsion system having a "
    "maximum speed on a paved level surface of less than twenty (20) miles per hour. For purposes of this section "
    "16-12.38A, EPAMDs shall include but shall not be limited to the Segway® PT. For purposes of this section "
    "16-12.38A, electric or motorized wheelchairs and powerchairs shall not be considered EPAMDs.")
PROHIBITION = (
    "The use of EPAMDs are hereby prohibited, based upon the interest of safety, on all public property in the City "
    "of Boston except as specifically authorized by the provisions of this chapter. Public property includes but is "
    "not limited to all public ways, sidewalks, parks, plazas, bicycle paths and shared use paths owned by and/or "
    "under the care, custody and control of the City of Boston.")
SKATEBOARDS = (
    "Unless otherwise permitted by City rule or regulation, it shall be unlawful for any person to ride a "
    "skateboard, roller skates, or in-line skates on any sidewalk in the City of Boston.")


def _p(n: int, section: str, title: str, text: str, municipality: str = "boston", chapter: str = "16-12") -> Passage:
    return Passage(id=f"{municipality}:{section}:-:{n}", municipality=municipality, chapter=chapter, section=section,
                   title=title, heading_path=["16-12.38A ELECTRIC PERSONAL ASSISTIVE MOBILITY DEVICES"],
                   text=text, start=0, end=len(text), ordinal=n)


PASSAGES = [
    _p(1, "16-12.38A.1", "Definition of Electric Personal Assistive Mobility Device or EPAMD", DEFINITION),
    _p(2, "16-12.38A.2", "Prohibition of EPAMDs", PROHIBITION),
    _p(3, "16-12.37", "Prohibiting Operation of Skateboards", SKATEBOARDS),
]


def test_a_defined_abbreviation_and_its_definition_are_found():
    found = abbreviation_definitions(PASSAGES)[("boston", "16-12")]
    assert list(found) == ["EPAMD"]
    pid, text = found["EPAMD"]
    assert pid == PASSAGES[0].id and "Segway" in text


def test_the_passages_using_it_are_indexed_with_the_definition():
    defs = abbreviation_definitions(PASSAGES)
    used = abbreviations_used(PASSAGES[1], defs)
    assert used.startswith("EPAMD: An electrical personal assistive mobility device") and "Segway" in used
    assert abbreviations_used(PASSAGES[0], defs) == ""  # the defining passage is not indexed twice
    assert abbreviations_used(PASSAGES[2], defs) == ""  # nor one that does not use it
    # another chapter or municipality does not borrow it
    other = PASSAGES[1].model_copy(update={"id": "x:1:-:1", "municipality": "somerville"})
    assert abbreviations_used(other, defs) == ""
    chunks = [c for c in chunk_passages(PASSAGES, with_sentences=True) if c.passage_id == PASSAGES[1].id]
    assert chunks and all("Segway" in c.context for c in chunks)
    assert context_of(PASSAGES[1]) == "Prohibition of EPAMDs — 16-12.38A ELECTRIC PERSONAL ASSISTIVE MOBILITY DEVICES"


def test_a_word_of_the_definition_finds_the_prohibition_by_its_words():
    index = LexicalIndex(chunk_passages(PASSAGES))
    hits = index.search("Can I ride my Segway on the sidewalk?", "boston", 3)
    assert PASSAGES[1].id in {c.passage_id for c, _ in hits[:2]}


def test_parentheses_that_are_not_an_abbreviation_of_the_words_before_are_left_alone():
    text = "Any person violating this section shall be fined as set out in the Code (CBC) and this chapter (DPW)."
    assert abbreviation_definitions([_p(9, "16-12.1", "Penalty", text)]) == {}
