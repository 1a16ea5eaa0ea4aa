"""The Town of Delafield transcription -> pages -> sections and passages."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from assistant.corpus import municipality_by_id, source_text
from assistant.parsing import ParseError
from assistant.parsing.paged import parse_paged
from assistant.parsing.pages import Page
from assistant.parsing.transcript import pages_from_transcript
from assistant.types import Document, normalize_ws

TITLES = [
    "HIGHWAY COMMISSION",
    "DRIVEWAYS AND CULVERTS",
    "EXCAVATION IN PUBLIC RIGHT-OF-WAY",
    "HEAVY OR INJURIOUS VEHICLES RESTRICTED",
    "TEMPORARY WEIGHT RESTRICTIONS",
    "DAMAGING STREETS PROHIBITED",
    "BARRICADES, INTERFERENCE WITH PROHIBITED",
    "PLACING INJURIOUS SUBSTANCE ON STREET PROHIBITED",
    "LITTERING PROHIBITED",
    "DEBRIS FROM VEHICLES PROHIBITED",
    "SPILLING DEBRIS FROM VEHICLES PROHIBITED",
    "VEHICULAR TRAFFIC OVER DRAINAGE DITCHES AND STREET CURBS",
    "UNPAVED HIGHWAY RIGHT-OF-WAY AREAS; ENCROACHMENTS PROHIBITED",
    "STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS",
    "OFFICIAL TOWN HIGHWAY AND STREET MAP",
    "ADOPTION, AMENDMENTS, AND EFFECTIVE DATE",
    "UNIFORM ADDRESS SYSTEM",
    "SOLID AND HAZARDOUS WASTE SITING",
    "SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION",
]


@pytest.fixture(scope="module")
def source() -> str:
    return source_text(municipality_by_id("delafield"))


@pytest.fixture(scope="module")
def pages(source) -> list[Page]:
    return pages_from_transcript(source)


@pytest.fixture(scope="module")
def doc(pages) -> Document:
    return parse_paged(municipality_by_id("delafield"), pages)


def _passage(doc: Document, title: str, subsection: str | None, contains: str = ""):
    hits = [
        p
        for p in doc.passages
        if p.title == title and p.subsection == subsection and contains in normalize_ws(p.text)
    ]
    assert len(hits) == 1, (title, subsection, contains, len(hits))
    return hits[0]


# --------------------------------------------------------------------------- pages


def test_pages_are_numbered_lines_and_header_is_skipped(source, pages):
    assert [p.number for p in pages] == list(range(1, 16))
    for p in pages:
        assert source[p.start : p.end] == p.text
        assert not re.match(r"\d+\s", p.text) and not re.search(r"\s\d+$", p.text)
    assert pages[0].text.startswith("8.01 HIGHWAY COMMISSION.")
    assert pages[3].text.endswith("each person and")
    assert pages[4].text.startswith("$20,000 each accident")


def test_multi_line_page_and_errors():
    text = "Title\n\n1 first line\nsecond line 1\n\n2 next page 2\n"
    pages = pages_from_transcript(text)
    assert [(p.number, p.text) for p in pages] == [(1, "first line\nsecond line"), (2, "next page")]
    assert all(text[p.start : p.end] == p.text for p in pages)
    with pytest.raises(ParseError):
        pages_from_transcript("no pages here\n")
    with pytest.raises(ParseError):
        pages_from_transcript("1 a page 1\nstray text\n")


# --------------------------------------------------------------------------- sections


def test_nineteen_sections_with_titles_and_printed_numbers_only(doc):
    assert [s.title for s in doc.sections] == TITLES
    numbers = {s.title: s.section for s in doc.sections if s.section}
    assert numbers == {"HIGHWAY COMMISSION": "8.01", "OFFICIAL TOWN HIGHWAY AND STREET MAP": "8.14"}
    assert all(not s.untitled for s in doc.sections)
    assert all(s.passages for s in doc.sections)


def test_section_notes(doc):
    by_title = {s.title: s for s in doc.sections}
    assert by_title["UNPAVED HIGHWAY RIGHT-OF-WAY AREAS; ENCROACHMENTS PROHIBITED"].notes == ["(Cr. #89-224)"]
    assert by_title["SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION"].notes == ["(Rep. and Recr. Ord )"]


def test_section_pages(doc):
    pages = {s.title: s.page for s in doc.sections}
    assert pages["HIGHWAY COMMISSION"] == 1
    assert pages["DRIVEWAYS AND CULVERTS"] == 2
    assert pages["EXCAVATION IN PUBLIC RIGHT-OF-WAY"] == 4
    assert pages["UNPAVED HIGHWAY RIGHT-OF-WAY AREAS; ENCROACHMENTS PROHIBITED"] == 8
    assert pages["OFFICIAL TOWN HIGHWAY AND STREET MAP"] == 10
    assert pages["SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION"] == 13


# --------------------------------------------------------------------------- passages


@dataclass(frozen=True)
class Case:
    title: str
    subsection: str | None
    contains: str
    page: int
    page_end: int
    heading: str | None = None
    notes: tuple[str, ...] = ()


CASES = [
    Case("HIGHWAY COMMISSION", None, "A Town Highway Commission is hereby established", 1, 1),
    Case("HIGHWAY COMMISSION", "(7)", "in connection with the Town highways as the Town Highway", 1, 2),
    Case("DRIVEWAYS AND CULVERTS", "(1)", "CULVERTS TO BE INSTALLED. No driveway", 2, 2,
         "CULVERTS TO BE INSTALLED.", ("(Am. #88-200)",)),
    Case("DRIVEWAYS AND CULVERTS", "(3)(a)", "Guarantee Specifications. All applications", 2, 2,
         "Guarantee Specifications.", ("(rep. & rec )",)),
    Case("DRIVEWAYS AND CULVERTS", "(3)(c)", "the property owner shall be billed therefore by the Town", 2, 3,
         "Unsatisfactory Landscape/Repair.", ("(rep. & rec )",)),
    Case("DRIVEWAYS AND CULVERTS", "(5)", "STREET GRADE. Every building", 3, 3, "STREET GRADE.", ("(Cr. #88-200)",)),
    Case("DRIVEWAYS AND CULVERTS", "(6)(b)", "shall be as subsection (c) below.", 4, 4, None, ("(cr )",)),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(a)", "Performance Bond.", 4, 4, "Performance Bond."),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)1.", "penal sum of $10,000", 4, 4, "Bond."),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)2.", "$10,000 each person and $20,000 each accident", 4, 5,
         "Insurance."),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)3.", "Form. The bonds", 5, 5, "Form."),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(3)(a)", "when the ground is frozen", 5, 5),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(3)(d)", "Any tunnel shall be backfilled with 4 1/2 bag mix", 5, 6),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(3)(e)", "at least 48 hrs. before", 6, 6),
    Case("EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(3)(h)", "realigned at no expense to the Town", 6, 6),
    Case("TEMPORARY WEIGHT RESTRICTIONS", "(3)", "would not damage the Town road", 6, 7, "SPECIAL PERMIT."),
    Case("VEHICULAR TRAFFIC OVER DRAINAGE DITCHES AND STREET CURBS", "(2)", "issue any further plumbing", 7, 8,
         "PROHIBITED."),
    Case("STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS", "(4)(a)", "Exhibits", 8, 8, None, ("(Am. #90-264)",)),
    Case("STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS", "(4)(h)", "standard end sections. When", 9, 9),
    Case("STANDARDS FOR THE CONSTRUCTION OF TOWN HIGHWAYS", "(4)(i)", "Ditch bottom may be seeded.", 9, 9),
    Case("OFFICIAL TOWN HIGHWAY AND STREET MAP", None, "official Town Highway and Street Map", 10, 10),
    Case("UNIFORM ADDRESS SYSTEM", "(4)(a)", '"124" at the County line', 11, 11),
    Case("UNIFORM ADDRESS SYSTEM", "(6)", "assigned its proper number", 11, 12, "POINT OF DETERMINATION."),
    Case("UNIFORM ADDRESS SYSTEM", "(9)(c)", "2¼ wide and 3½ high", 13, 13, None, ("(Repeal & Rec. #99-484)",)),
    Case("UNIFORM ADDRESS SYSTEM", "(11)", "penalties of Chapter 25", 13, 13, "VIOLATION.", ("(Repeal & Rec )",)),
    Case("SOLID AND HAZARDOUS WASTE SITING", "(2)", "granted by AB", 13, 13),
    Case("SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION", "(1)(a)", "discharge of septage into the public sewerage system",
         13, 14, "INTRODUCTION."),
    Case("SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION", "(1)(b)ii.", "supersede any previous", 14, 14),
    Case("SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION", "(2)", "FLOATABLE OIL shall mean", 15, 15,
         "FLOATABLE OIL"),
    Case("SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION", "(2)", "APPROVING AUTHORITY", 14, 14,
         "APPROVING AUTHORITY"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.title[:20]}{c.subsection}")
def test_passage_citations(doc, case: Case):
    p = _passage(doc, case.title, case.subsection, case.contains)
    assert (p.page, p.page_end) == (case.page, case.page_end)
    assert p.heading == case.heading
    assert tuple(p.notes) == case.notes
    if p.heading:
        assert p.text.startswith(p.heading)  # run-in heading stays in the text
    for note in p.notes:
        assert note not in p.text


def test_heading_paths(doc):
    p = _passage(doc, "EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)1.")
    assert p.heading_path == ["FINANCIAL REQUIREMENTS", "Indemnity Bond or Certificate of Insurance"]
    p = _passage(doc, "UNIFORM ADDRESS SYSTEM", "(3)(a)")
    assert p.heading_path == ["BASE LINES"]


def test_subsection_paths_of_a_section(doc):
    subs = [p.subsection for s in doc.sections if s.title == "EXCAVATION IN PUBLIC RIGHT-OF-WAY" for p in s.passages]
    assert subs == ["(1)", "(2)(a)", "(2)(b)1.", "(2)(b)2.", "(2)(b)3."] + [f"(3)({c})" for c in "abcdefgh"]
    subs = [p.subsection for s in doc.sections if s.title.startswith("STANDARDS FOR") for p in s.passages]
    assert subs[-1] == "(4)(i)"  # (i) after (h) is a letter, not a roman numeral
    subs = [p.subsection for s in doc.sections if s.title == "HIGHWAY COMMISSION" for p in s.passages]
    assert subs == [None] + [f"({i})" for i in range(1, 8)]


def test_references_are_not_labels(doc):
    # "subsection (c) below", "sub. (9).", "five (5) days", "within (30) days" stay text
    assert "(c) below" in _passage(doc, "DRIVEWAYS AND CULVERTS", "(6)(b)").text
    assert _passage(doc, "UNIFORM ADDRESS SYSTEM", "(10)").text.endswith("sub. (9).")
    assert "within (30) days" in _passage(doc, "UNIFORM ADDRESS SYSTEM", "(11)").text
    assert "five (5) days" in _passage(doc, "SANITARY SEWER REGULATIONS, FOXWOOD ESTATES SUBDIVISION", "(2)",
                                       "CARBONACEOUS").text


def test_stacked_definition_labels_warn_and_keep_definitions(doc):
    sewer = [s for s in doc.sections if s.title.startswith("SANITARY SEWER")][0]
    defs = [p for p in sewer.passages if p.subsection == "(2)" and p.heading != "DEFINITIONS"]
    assert len(defs) == 5 + 14  # (a)-(e) and (f)-(s) stacked ahead of their text
    assert all(p.text.strip() for p in sewer.passages)
    assert not any(re.search(r"\([a-s]\) \([a-t]\)", p.text) for p in sewer.passages)
    assert sum("stacked" in w for w in doc.warnings) == 2
    assert [p.heading for p in defs][:2] == ["APPROVING AUTHORITY", "BUILDING DRAIN"]
    assert defs[-1].heading == "PUBLIC SEWER"


def test_no_page_numbers_no_tags_no_empty_passages(doc):
    for p in doc.passages:
        assert p.text.strip()
        assert not re.search(r"\((?:Am|Cr|rep|Repeal)\b", p.text), p.id
        assert p.page <= p.page_end
    # the page break inside (2)(b)2. leaves no page number behind
    assert "each person and $20,000" in normalize_ws(_passage(doc, "EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)2.").text)
    assert "4 5" not in _passage(doc, "EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)2.").text


def test_spans_point_into_the_source(doc, source, pages):
    for p in doc.passages:
        parts = [source[max(p.start, pg.start) : min(p.end, pg.end)] for pg in pages if pg.start < p.end and pg.end > p.start]
        raw = " ".join(parts)  # page numbers between the pages dropped
        raw = normalize_ws(raw)
        for note in p.notes:  # notes are stored with whitespace normalised
            raw = raw.replace(note, " ")
        assert normalize_ws(raw) == normalize_ws(p.text), p.id


def test_no_passage_crosses_a_section_boundary(doc):
    for s in doc.sections:
        for p in s.passages:
            assert s.start <= p.start < p.end <= s.end, p.id
    starts = [s.start for s in doc.sections]
    assert starts == sorted(starts)


def test_ids_are_unique_and_deterministic(doc, pages):
    ids = [p.id for p in doc.passages]
    assert len(ids) == len(set(ids))
    assert ids[0] == "delafield:8.01:-:0"
    again = parse_paged(municipality_by_id("delafield"), pages)
    assert [p.id for p in again.passages] == ids
    p = _passage(doc, "EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)1.")
    assert p.id.startswith("delafield:excavation-in-public-right-of-way:(2)(b)1.:")


def test_citation_label(doc):
    p = _passage(doc, "EXCAVATION IN PUBLIC RIGHT-OF-WAY", "(2)(b)1.")
    assert p.citation().label().endswith("EXCAVATION IN PUBLIC RIGHT-OF-WAY (2)(b)1., p. 4")


def test_parse_document_dispatches_to_the_paged_parser(source):
    from assistant.parsing import parse_document

    d = parse_document(municipality_by_id("delafield"), source)
    assert len(d.sections) == 19


def test_no_headings_is_a_parse_error():
    with pytest.raises(ParseError):
        parse_paged(municipality_by_id("delafield"), [Page(1, "just some lowercase text", 0)])
    with pytest.raises(ParseError):
        parse_paged(municipality_by_id("delafield"), [])


# --------------------------------------------------------------------------- robustness

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_TOKENS = st.sampled_from(
    ["(1)", "(2)", "(3)", "(a)", "(b)", "(h)", "(i)", "(j)", "1.", "2.", "i.", "ii.", "HIGHWAY", "ROADS.",
     "SEWER", "FOO BAR.", "(Am. #1)", "(cr )", "(CBOD)", "The", "Town", "shall", "mean", "text.", "8.01",
     "AB", "by", "When", ",", ":", "\n", "$5", "5", "subsection"]
)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.lists(_TOKENS, max_size=40).map(" ".join), min_size=1, max_size=4))
def test_random_structure_never_crashes(texts):
    pages, offset = [], 0
    for i, t in enumerate(texts, 1):
        pages.append(Page(i, t, offset))
        offset += len(t) + 5
    try:
        doc = parse_paged(municipality_by_id("delafield"), pages)
    except ParseError:
        return
    for p in doc.passages:
        assert p.text.strip() and p.start < p.end and p.page <= p.page_end
    assert len({p.id for p in doc.passages}) == len(doc.passages)
