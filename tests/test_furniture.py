"""Page furniture never reaches a passage; each passage keeps its page.

The fixtures are real lines, bytes unchanged, of two Municode codes printed from a browser
to PDF and saved as text (../shared/corpus-scale): tests/data/furniture-print-monticello.txt
(monticello.txt lines 9660–9900, pages 200–205 of 226) and furniture-print-turner.txt
(turner-county.txt lines 4370–4520, pages 101–104 of 267, words separated by tabs). Each page
break there prints the browser's header and the page of total:

    5/31/2019 Monticello, GA Code of Ordinances
    202/226
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from assistant.parsing.furniture import remove_furniture
from assistant.parsing.layouts import plain_lines, read_layout
from assistant.parsing.reader import read_structure, to_sections

DATA = Path(__file__).parent / "data"
PRINT_HEADER = re.compile(r"\d{1,2}/\d{1,2}/\d{4} [A-Z][\w ,.]* Code of Ordinances")
PAGE_OF_TOTAL = re.compile(r"(?<![\w/.])\d{1,3}/(?:226|267)(?![\w/])")


def _sections(name: str):
    st = read_structure(read_layout((DATA / name).read_bytes(), "auto", name))
    sections, _, _ = to_sections(st, "x", "58", "x")
    return st, {s.section: s for s in sections}


def _everything(sections) -> list[str]:
    out = []
    for s in sections.values():
        out += [s.title, *s.notes]
        for p in s.passages:
            out += [p.text, *p.notes, *(h or "" for h in p.heading_path), p.heading or ""]
    return out


def test_fixtures_print_the_furniture():
    for name, pages in (("furniture-print-monticello.txt", 6), ("furniture-print-turner.txt", 4)):
        raw = (DATA / name).read_text(encoding="utf-8")
        assert len(PRINT_HEADER.findall(raw)) == pages and len(PAGE_OF_TOTAL.findall(raw)) == pages


def test_print_headers_and_page_lines_never_reach_passages():
    for name in ("furniture-print-monticello.txt", "furniture-print-turner.txt"):
        st, sections = _sections(name)
        assert len(sections) >= 5
        for t in _everything(sections):
            assert not PRINT_HEADER.search(t), (name, t)
            assert not PAGE_OF_TOTAL.search(t), (name, t)
        assert any("page lines" in s and "running lines" in s for s in st.skipped)


def test_a_page_of_total_heads_the_text_after_it():
    _, sec = _sections("furniture-print-monticello.txt")
    # 58-167 ends just before '200/226'; 58-168 starts after it
    assert sec["58-167"].passages[0].page == 199
    assert sec["58-168"].passages[0].page == 200
    # 58-196 runs on page 201 up to the '202/226' block; 58-197 starts after it
    assert {p.page for p in sec["58-196"].passages} == {201}
    assert sec["58-197"].passages[0].page == 202
    _, sec = _sections("furniture-print-turner.txt")
    assert sec["26-26"].passages[0].page == 100 and sec["26-27"].passages[0].page == 101


def test_a_sentence_cut_by_the_page_break_reads_on():
    # monticello § 58-231: '… from a system permitted by the Environmental Protection' ends page 203;
    # after the print header, the page line and page 204's column of labels, 'Division to provide …'
    _, sec = _sections("furniture-print-monticello.txt")
    cut = [p for p in sec["58-231"].passages if "permitted by the Environmental Protection Division" in p.text]
    assert len(cut) == 1 and (cut[0].page, cut[0].page_end) == (203, 204)
    # and the wrapped lines of a page printed to PDF are one paragraph, not one passage a line
    assert len(sec["58-196"].passages) == 3
    assert sec["58-196"].passages[0].text.startswith("Except as provided in section 58-198, before commencing")


def test_labels_printed_in_a_column_apart_from_their_text_are_not_attached():
    st, sec = _sections("furniture-print-monticello.txt")
    assert all(p.subsection is None for s in sec.values() for p in s.passages)
    assert any("printed in a column" in w for w in st.warnings)


def test_numbers_ending_table_rows_are_not_pages():
    # turner-county.txt lines 1935–1942 (a table of state laws, words tab-separated), minus its page block
    rows = ["1905 63 75 1\u20147 Ch.\t1", "1925 780 147 art.\tI Ch.\t14,\tArt.\tI",
            "1931 583 59 1 Ch.\t2,\tArt.\tI,\t§\t4", "2,\t3 Ch.\t2,\tArt.\tI,\t§\t6,", "Ch.\t2,\tArt.\tI,\t§\t7",
            "4 Ch.\t2,\tArt.\tI,\t§\t9", "5 Ch.\t2,\tArt.\tI,\t§\t11", "6 Ch.\t2,\tArt.\tI,\t§\t14"]
    lines, removed = remove_furniture(plain_lines("\n".join(rows)))
    assert [ln.text for ln in lines] == rows and removed == []
    # auburn.txt: a lone '9' between blank lines in a disposition table is no page break, and the
    # row after it is kept
    rows = ["", "", "8 ", "17.150.070 ", "", "", "", "9 ", "17.170.070 B(3) ", "", "", "", "10 \xa0 \xa0 \xa0 Added "]
    lines, removed = remove_furniture(plain_lines("\n".join(rows)))
    assert "17.170.070 B(3)" in [ln.text for ln in lines] and removed == []
    assert all(ln.page is None for ln in lines)


BOSTON = Path(__file__).resolve().parents[2] / "shared" / "corpus-samples" / "boston-ma-16-12" / "text.txt"


@pytest.mark.skipif(not BOSTON.is_file(), reason="the corpus samples are not beside the repo")
def test_a_sentence_cut_by_a_word_export_page_break_and_a_line_break_reads_on():
    # Boston § 16-12.38A.4 (b): '… on the operation and' | footer 1618.1 | header | 'use of EPAMDs by its
    # employees and customers. For' | 'purposes of this section, customers shall include …'
    st = read_structure(read_layout(BOSTON.read_bytes(), "auto", BOSTON.name))
    sections, _, _ = to_sections(st, "x", "16-12", "x")
    sec = {s.section: s for s in sections}
    b = [p for p in sec["16-12.38A.4"].passages if p.subsection == "(b)"]
    assert len(b) == 1 and " ".join(b[0].text.split()).endswith(
        "on the operation and use of EPAMDs by its employees and customers. For purposes of this section, customers "
        "shall include all tour patrons and users, whether or not consideration is paid for such use.")
    assert (b[0].page, b[0].page_end) == ("1618.1", "1618.2")
    assert len(sec["16-12.33"].passages) == 1  # '… eighteen (18") inches' | 'into the street, …'
