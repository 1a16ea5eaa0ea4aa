"""Amendments, the way a clerk makes them (issue 13 item 2): a real amendment of each chapter
(amounts changed, a section deleted, a subsection renumbered), installed in a scratch corpus
folder with ``python -m assistant amend``; the diff, the calculators it touches, what they
answer afterwards, the checklist, the caches, and the staff path for PDFs."""

from __future__ import annotations

import re
import shutil
from datetime import date
from pathlib import Path

import pytest

from assistant.__main__ import main
from assistant.corpus import QuoteNotFound, cite, document, municipality_by_id, quote_is_verbatim, source_text
from assistant.settings import Settings, get_settings

STAMP = re.compile(r"This rule changed on \w+ \d{1,2}, \d{4}: ")


@pytest.fixture
def scratch_corpus(tmp_path, monkeypatch):
    """A copy of the corpus the process reads (settings point at it); the real one is untouched."""
    corpus = tmp_path / "corpus"
    shutil.copytree(get_settings().corpus_dir, corpus)
    monkeypatch.setenv("ASSISTANT_CORPUS_DIR", str(corpus))
    get_settings.cache_clear()
    yield corpus
    get_settings.cache_clear()


def amended_brandon() -> str:
    """Amounts raised in § 404-6, § 404-10 (snow and ice) repealed, and a new first paragraph in
    § 404-15 that renumbers the street-number subsections (A becomes B, ...)."""
    t = source_text(municipality_by_id("brandon"))
    t = t.replace("$10,000", "$15,000").replace("$1,000,000", "$2,000,000")
    t = t[: t.index("§ 404-10 Snow")] + t[t.index("§ 404-11 Terrace"):]
    t = t.replace("Numbering system established.",
                  "Purpose. This section keeps house numbers visible to emergency services.\n\n"
                  "Numbering system established.", 1)
    return t


def amended_delafield() -> str:
    """Bond and insurance amounts raised, TEMPORARY WEIGHT RESTRICTIONS repealed (page breaks
    kept), and a new (2) in VEHICULAR TRAFFIC OVER DRAINAGE DITCHES renumbering (2) as (3)."""
    t = source_text(municipality_by_id("delafield"))
    t = t.replace("$10,000", "$15,000").replace("$20,000", "$30,000")
    i, j = t.index("TEMPORARY WEIGHT RESTRICTIONS. (1)"), t.index("DAMAGING STREETS PROHIBITED.")
    t = t[:i] + "".join(re.findall(r" \d+\n\n\d+ ", t[i:j])) + t[j:]
    t = t.replace("(2) PROHIBITED. No person shall operate",
                  "(2) SIGNS. The Town may post signs at ditch crossings. (3) PROHIBITED. No person shall operate", 1)
    return t


def amend(mid: str, text: str, tmp_path: Path, capsys, *extra: str) -> str:
    path = tmp_path / f"{mid}-amended.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["amend", str(path), "-m", mid, *extra]) == 0
    return capsys.readouterr().out


# ------------------------------------------------------------------------- the diff


def test_brandon_diff_and_affected_calculators(scratch_corpus, tmp_path, capsys):
    before = (scratch_corpus / "brandon-wi-code-ch404-streets-sidewalks.txt").read_bytes()
    out = amend("brandon", amended_brandon(), tmp_path, capsys, "--dry-run")
    assert (scratch_corpus / "brandon-wi-code-ch404-streets-sidewalks.txt").read_bytes() == before
    assert not (scratch_corpus / "amendments.yaml").exists() and "Dry run: nothing was changed." in out
    assert "**Removed** § 404-10 Snow and ice removal" in out
    assert re.search(r"\*\*Changed\*\* § 404-6 .*\*\*\$10,000\*\*.*→.*\*\*\$15,000\*\*", out), out
    assert "**$1,000,000**" in out and "**$2,000,000**" in out
    assert "renumbered" in out and "§ 404-15 Street numbers" in out
    affected = out.split("### Calculators and checklist items affected", 1)[1]
    for tool in ("snow_removal_charge", "bond_insurance_requirements", "insurance_certificate_check", "deadline"):
        assert tool in affected, tool
    assert "checklist: street opening" in affected
    assert "village_repair_bill" not in affected  # its provisions read the same


def test_delafield_diff_and_affected_calculators(scratch_corpus, tmp_path, capsys):
    out = amend("delafield", amended_delafield(), tmp_path, capsys, "--dry-run")
    assert "**Removed** TEMPORARY WEIGHT RESTRICTIONS" in out
    assert "**$10,000**" in out and "**$15,000**" in out and "**$30,000**" in out
    assert "(2) renumbered (3) (same text)" in out and "added (2)" in out
    affected = out.split("### Calculators and checklist items affected", 1)[1]
    for tool in ("bond_insurance_requirements", "insurance_certificate_check", "heavy_vehicle_check",
                 "checklist: heavy vehicle"):
        assert tool in affected, tool
    assert "asphalt_service_settlement" not in affected


# ------------------------------------------------------------------------- after the amendment


def _changed(out, tool: str) -> None:
    assert not out.ok and STAMP.match(out.error or ""), (tool, out.error)
    assert "not computed until the rule data is updated" in out.error
    for c in out.citations:  # the new text, quoted verbatim
        assert quote_is_verbatim(c), c


def test_calculators_say_the_rule_changed_and_cite_the_new_text(scratch_corpus, tmp_path, capsys):
    from assistant.tools.registry import run_tool

    amend("brandon", amended_brandon(), tmp_path, capsys)
    amend("delafield", amended_delafield(), tmp_path, capsys)
    today = date.today()
    stamp = f"This rule changed on {today:%B} {today.day}, {today.year}"

    bond = run_tool("bond_insurance_requirements", {"municipality": "delafield", "permit_type": "excavation"})
    _changed(bond, "bond")
    assert bond.error.startswith(stamp) and not bond.requirements
    assert any("$15,000" in c.quote for c in bond.citations)  # the new amount is cited, not computed
    assert "$10,000" not in bond.error  # the old amount is never repeated

    cert = run_tool("insurance_certificate_check", {"municipality": "brandon", "per_person_limit": 1_000_000,
                                                    "property_damage_limit": 1_000_000})
    _changed(cert, "cert")
    assert cert.compliant is None and not cert.checks

    snow = run_tool("snow_removal_charge", {"municipality": "brandon",
                                            "employees": [{"hours": 2, "hourly_rate_including_benefits": 40}]})
    _changed(snow, "snow")
    assert snow.total_charge is None

    heavy = run_tool("heavy_vehicle_check", {"municipality": "delafield", "gross_weight_tons": 8,
                                             "temporary_limit_posted": True})
    _changed(heavy, "heavy")

    # untouched rules still compute (the surcharge table sits in another paragraph of § 404-6); a
    # renumbered subsection is cited under its new label
    surcharge = run_tool("street_opening_surcharge", {"municipality": "brandon", "opening_date": "2026-07-01",
                                                      "final_paving_date": "2025-01-01", "permit_fee": 100})
    assert surcharge.ok and surcharge.amount == 400
    asphalt = run_tool("asphalt_service_settlement", {"municipality": "delafield", "deposit": 500, "actual_cost": 650})
    assert asphalt.ok and asphalt.balance_due == 150
    placement = run_tool("check_house_number_placement", {"municipality": "brandon", "character_height_in": 3})
    assert placement.ok
    height = next(c for c in placement.checks if c.field == "character_height_in")
    assert height.status == "pass" and height.citation.subsection == "C(3)"  # B(3) before the new A


def test_the_checklist_lists_what_changed_and_no_stale_figure(scratch_corpus, tmp_path, capsys):
    from assistant.checklist import ChecklistRequest, build_checklist, to_markdown

    amend("delafield", amended_delafield(), tmp_path, capsys)
    c = build_checklist(ChecklistRequest(
        municipality="delafield", work="street_opening", start_date=date(2027, 6, 1),
        insurance={"per_person": 10000, "per_accident": 20000, "property_damage": 10000}))
    warned = [i for i in c.items if STAMP.match(i.text)]
    assert warned and all(i.status == "warning" for i in warned)
    for i in c.items:  # no figure of the old text is stated by an item
        assert "$10,000" not in (i.figure or "") and "$20,000" not in (i.figure or ""), i
        assert "$10,000" not in i.text and "$20,000" not in i.text, i
    assert any("notice" in i.text.lower() for i in c.items)  # the rest of the checklist is still built
    md = to_markdown(c)
    assert "This rule changed on" in md

    heavy = build_checklist(ChecklistRequest(municipality="delafield", work="heavy_vehicle",
                                             start_date=date(2027, 6, 1), vehicle_weight_tons=8))
    assert heavy.warnings and not any("6 tons" in i.text for i in heavy.items)


def test_cached_citations_do_not_keep_old_amounts(scratch_corpus, tmp_path, capsys):
    from assistant.corpus import passage_by_id

    short = "An indemnity bond binding the applicant, as principal, and a corporate surety licensed"
    full = short + " to do business in this State, as surety, to the Town in the penal sum of $10,000"
    assert quote_is_verbatim(cite("delafield", full))  # both cached now
    assert "$10,000" in passage_by_id(cite("delafield", short).passage_id).text
    amend("delafield", amended_delafield(), tmp_path, capsys)
    with pytest.raises(QuoteNotFound):  # the old amount is no longer cited from the cache
        cite("delafield", full)
    now = passage_by_id(cite("delafield", short).passage_id).text
    assert "$15,000" in now and "$10,000" not in now
    rec = (scratch_corpus / "amendments.yaml").read_text(encoding="utf-8")
    assert "municipality: delafield" in rec and "pending:" in rec


def test_the_rule_data_update_ends_the_notice(scratch_corpus, tmp_path, capsys, monkeypatch):
    """Once the file holding a changed provision is updated (newer than the amendment), the
    calculator computes again."""
    from assistant import amendments
    from assistant.amendments import install
    from assistant.tools.registry import run_tool

    amend("brandon", amended_brandon(), tmp_path, capsys)
    args = {"municipality": "brandon", "basis": "uncorrected_deficiencies", "labor_cost": 100}
    assert run_tool("village_repair_bill", args).ok
    # § 404-6 changed: a provision still quoted verbatim but in an amended paragraph is flagged...
    flagged = [p for r in amendments.records() for p in r.pending if p.status == "changed"]
    assert flagged
    for p in (p for r in amendments.records() for p in r.pending):  # each names a file that exists
        assert install._holding_file(p.where).is_file(), p.where
    p = flagged[0]
    assert amendments.pending_change("brandon", p.quote)
    updated = tmp_path / "updated.yaml"
    updated.write_text("updated\n", encoding="utf-8")
    monkeypatch.setattr(install, "_holding_file", lambda where: updated)
    assert amendments.pending_change("brandon", p.quote) is None


# ------------------------------------------------------------------------- the staff path and PDFs


def _brandon_pdf(path: Path, text: str) -> Path:
    from fpdf import FPDF

    pdf = FPDF(format="letter")
    pdf.set_font("helvetica", size=9)
    pdf.add_page()
    for line in text.replace("\t", " ").splitlines():
        pdf.multi_cell(0, 4.2, line.encode("latin-1", "replace").decode("latin-1") or " ", align="J",
                       new_x="LMARGIN", new_y="NEXT")
    path.write_bytes(bytes(pdf.output()))
    return path


def test_staff_accepts_the_brandon_pdf_that_ingest_accepts(scratch_corpus, tmp_path):
    """The eCode text of a PDF is reflowed into paragraphs before it is parsed, as ``ingest``
    does: the staff path read the wrapped lines as they came and found 1 section.
    (read_new_chapter also checks the installed text parses into the sections ``ingest``'s
    parse_pages gives, and refuses otherwise.)"""
    from assistant.webapp.staff import corpus_text_from_pages, replace_chapter, validate_chapter_pdf

    pdf = _brandon_pdf(tmp_path / "ch404-amended.pdf", amended_brandon())
    settings = Settings(corpus_dir=scratch_corpus, data_dir=tmp_path / "data")
    v = validate_chapter_pdf("brandon", pdf, settings)
    assert v.ok, v.report
    assert v.sections == 13
    assert "**Removed** § 404-10 Snow and ice removal" in v.report and "snow\\_removal\\_charge" in v.report
    msg = replace_chapter(v, settings)
    assert msg.startswith("Replaced brandon-wi-code-ch404-streets-sidewalks.txt (13 sections)"), msg
    assert "await a rule-data update" in msg
    titles = [s.title for s in document("brandon").sections]
    assert "Snow and ice removal" not in titles and "Street numbers" in titles and len(titles) == 13
    # the old conversion (pages joined as they came) is what found a single section
    from assistant.parsing import parse_document
    from assistant.parsing.pdf import pages_from_pdf

    pages = pages_from_pdf(pdf)
    raw = "\n\n".join(p.text for p in pages) + "\n"
    assert len(parse_document(municipality_by_id("brandon"), raw).sections) < 3
    assert len(parse_document(municipality_by_id("brandon"), corpus_text_from_pages("ecode_text", pages)).sections) == 13


def test_amend_refuses_bad_input_and_changes_nothing(scratch_corpus, tmp_path, capsys):
    before = sorted(p.name for p in scratch_corpus.iterdir())
    bad = tmp_path / "x.pdf"
    bad.write_text("not a pdf")
    assert main(["amend", str(bad), "-m", "brandon"]) != 0
    assert main(["amend", str(tmp_path), "-m", "brandon"]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 2, err
    assert sorted(p.name for p in scratch_corpus.iterdir()) == before


def test_asked_after_an_amendment_the_answer_says_the_rule_changed(scratch_corpus, tmp_path, capsys, monkeypatch):
    """End to end on the embedded planner (a hashed stand-in embedder: no model is loaded)."""
    from assistant.answering.assistant import Assistant
    from assistant.retrieval.index import SearchIndex
    from tests.fake_embedder import FakeEmbedder

    amend("delafield", amended_delafield(), tmp_path, capsys)
    amend("brandon", amended_brandon(), tmp_path, capsys)
    monkeypatch.setenv("ASSISTANT_DATA_DIR", str(tmp_path / "data"))
    get_settings.cache_clear()
    a = Assistant(SearchIndex.open(get_settings(), embedder=FakeEmbedder()))
    for q, tool in (("What indemnity bond is required for an excavation permit in Delafield?",
                     "bond_insurance_requirements"),
                    ("Village employees removed snow from my sidewalk in Brandon: 2 hours at $40. What is the charge?",
                     "snow_removal_charge")):
        ans = a.ask(q)
        lead = next(p for p in ans.answer.split("\n\n") if not p.startswith("I read:"))  # after what was read
        assert lead.startswith("This rule changed on "), (q, ans.answer)
        assert [t.name for t in ans.tool_calls] == [tool] and not ans.tool_calls[0].result["ok"]
        assert "$10,000" not in ans.answer and "Sorry" not in ans.answer and not ans.guard_events
