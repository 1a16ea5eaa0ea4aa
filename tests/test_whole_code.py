"""Whole codes in one file (Municode text exports): charter, chapters and appendices read
as one municipality with many chapters, each section cited by its own chapter."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXCERPT = ROOT / "tests" / "data" / "whole-code-excerpt.txt"
SCALE = ROOT.parent / "shared" / "corpus-scale"



def _split(data: bytes):
    from assistant.parsing.layouts import read_layout
    from assistant.parsing.whole_code import split_code

    lt = read_layout(data, "auto", "code.txt")
    return lt, split_code(lt)


@pytest.mark.parametrize("newline", [b"\r\n", b"\r", b"\n"])
def test_excerpt_splits_into_charter_chapters_and_appendix_whatever_the_line_ends(newline):
    data = EXCERPT.read_bytes().replace(b"\r\n", newline)
    lt, split = _split(data)
    assert split is not None
    assert [(p.key, p.title, p.kind) for p in split.parts] == [
        ("Charter", "Charter", "charter"), ("1", "General Provisions", "chapter"),
        ("20", "Streets and Sidewalks", "chapter"), ("Appendix A", "Fee Schedule", "appendix")]
    assert any("front matter" in n for n in split.notes)
    # each part keeps the whole text's offsets
    ch20 = split.parts[2]
    assert lt.text[ch20.lines[0].start:].startswith("Chapter 20 - STREETS AND SIDEWALKS[1]")


def test_single_chapter_is_not_a_whole_code():
    one = b"Chapter 20 - STREETS AND SIDEWALKS\nSec. 20-1. - Street cuts.\nNo person shall cut a street.\n"
    assert _split(one)[1] is None


def test_dry_run_reads_each_chapter_with_its_own_sections_footnotes_and_reserved_range(tmp_corpus):
    from assistant.municipality_add import AddRequest, plan_add, report_lines

    before = (tmp_corpus / "manifest.yaml").read_text(encoding="utf-8")
    plan = plan_add(AddRequest(file=str(EXCERPT), id="example", name="City of Example", state="GA"))
    assert plan.whole_code
    assert [c.chapter for c in plan.municipality.chapters] == ["Charter", "1", "20"]
    assert {c.source_file for c in plan.municipality.chapters} == {"example-code.txt"}
    rows = {(s["chapter"], s["number"]): s for s in plan.report.sections}
    # the charter is numbered by article: 1.01, 1.02, 2.01 are all its sections
    assert [k[1] for k in rows if k[0] == "Charter"] == ["1.01", "1.02", "2.01"]
    assert rows[("20", "20-1")]["caption"] == "Street cuts" and rows[("20", "20-1")]["passages"] == 2
    assert rows[("20", "20-2–20-15")]["reserved"]
    assert rows[("20", "20-16")]["caption"] == "Width"
    assert any("Appendix A" in s and "left out" in s for s in plan.report.skipped)
    lines = report_lines(plan.report)
    assert any(ln.startswith("  ch. 20 Streets and Sidewalks: 3 sections (1 reserved)") for ln in lines)
    assert (tmp_corpus / "manifest.yaml").read_text(encoding="utf-8") == before  # a plan changes nothing


def test_footnotes_are_notes_not_rule_text_and_groups_have_no_footnote_marks(tmp_corpus):
    from assistant.municipality_add import AddRequest, plan_add
    from assistant.parsing import parse_municipality

    plan = plan_add(AddRequest(file=str(EXCERPT), id="example", name="City of Example", state="GA"))
    doc = parse_municipality(plan.municipality, lambda ch: plan.source)
    texts = [p.text for p in doc.passages]
    assert not any("Home rule" in t or "repealed former art. II" in t or "--- (" in t for t in texts)
    width = next(p for p in doc.passages if p.section == "20-16")
    assert width.chapter == "20" and width.heading_path == ["ARTICLE II. - SIDEWALKS"]
    cut = [p for p in doc.passages if p.section == "20-1"]
    assert [p.subsection for p in cut] == ["(a)", "(b)"] and cut[1].notes == ["(Ord. No. 07-27, 9-27-07)"]
    # every passage's text is in the stored file at its offsets
    text = plan.source.decode("utf-8-sig").replace("\r\n", "\n")
    assert all(p.text[:20] in text[p.start:p.end] for p in doc.passages if not p.reserved)
    # a reserved range is one stand-in passage "Reserved." at its heading
    stub = next(p for p in doc.passages if p.reserved)
    assert stub.section == "20-2–20-15" and "Reserved" in text[stub.start:stub.end]


def test_add_whole_code_writes_one_file_and_every_chapter_then_remove(tmp_corpus):
    from assistant.corpus import document, municipality_by_id, reset_caches
    from assistant.municipality_add import AddRequest, apply_add, plan_add, remove_municipality

    plan = plan_add(AddRequest(file=str(EXCERPT), id="example", name="City of Example", state="GA"))
    res = apply_add(plan, build_index=False)
    assert "whole code, 3 chapters" in res.message
    assert (tmp_corpus / "example-code.txt").read_bytes() == EXCERPT.read_bytes()
    reset_caches()
    m = municipality_by_id("example")
    assert [c.chapter for c in m.chapters] == ["Charter", "1", "20"]
    doc = document("example")
    assert {p.chapter for p in doc.passages} == {"Charter", "1", "20"}
    assert len({p.id for p in doc.passages}) == len(doc.passages)
    assert remove_municipality("example") == ["example-code.txt"]


@pytest.mark.skipif(not SCALE.is_dir(), reason="../shared/corpus-scale (whole Georgia codes) is not on this machine")
@pytest.mark.parametrize("name,chapter,section,caption", [
    ("pearson.txt", "54", "54-2", "Excavations; obstructions"),
    ("monticello.txt", None, None, None),
])
def test_real_whole_codes_read_every_chapter(name, chapter, section, caption):
    from assistant.parsing.reader import read_structure
    from assistant.parsing.whole_code import part_layout

    lt, split = _split((SCALE / name).read_bytes())
    assert split is not None and len(split.parts) >= 15
    read = {p.key: read_structure(part_layout(lt, p)) for p in split.parts}
    with_sections = [k for k, st in read.items() if st.sections]
    assert len(with_sections) >= 0.9 * len(split.parts)
    if chapter:
        got = {s.number: s.caption for s in read[chapter].sections}
        assert got[section] == caption
