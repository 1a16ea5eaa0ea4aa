"""One bad municipality never stops the rest; places sharing a name are told apart."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SECTIONED = "§ 1-1 Sidewalks.\nThe owner shall clear the sidewalk within 24 hours.\n\n§ 1-2 Penalty.\nA fine of $50.\n"



def _append(corpus: Path, text: str) -> None:
    with (corpus / "manifest.yaml").open("a", encoding="utf-8") as fh:
        fh.write(text)


def test_bad_entries_are_left_out_and_the_rest_keep_working(tmp_corpus, capsys):
    from assistant.__main__ import main
    from assistant.corpus import all_passages, load_problems, municipalities

    # a transcription that is not one (the case), a missing file, an invalid entry
    (tmp_corpus / "broken.txt").write_text("no page numbers here\n", encoding="utf-8")
    _append(tmp_corpus, """
  - id: broken
    name: City of Broken
    kind: city
    state: OR
    chapter: "10"
    chapter_title: Streets
    source_file: broken.txt
    source_format: pdf_transcript
  - id: missing
    name: Village of Missing
    kind: village
    state: OH
    chapters:
      - {chapter: "3", source_file: nowhere.txt, source_format: text}
  - id: invalid
    name: Town of Invalid
    kind: hamlet
    chapter: "1"
    source_file: x.txt
    source_format: text
""")
    assert [m.id for m in municipalities()] == ["brandon", "delafield"]
    problems = load_problems()
    assert len(problems) == 3
    assert any("invalid" in p and "kind" in p for p in problems)
    assert any(p.startswith("City of Broken, OR (broken): no pages found") for p in problems)
    assert any("Village of Missing, OH (missing): its text is missing" in p for p in problems)
    assert {p.municipality for p in all_passages()} == {"brandon", "delafield"}
    # every command still works for the others, and names what was left out on stderr
    assert main(["show", "§ 404-7H"]) == 0
    cap = capsys.readouterr()
    assert "not later than the next business day" in cap.out
    assert cap.err.count("warning: left out:") == 3
    assert main(["toc", "-m", "delafield"]) == 0
    assert main(["toc", "-m", "broken"]) == 1
    assert "City of Broken, OR is left out: " in capsys.readouterr().err
    assert main(["municipality", "list"]) == 0
    assert capsys.readouterr().out.count("left out:") == 3
    # the web app's status line names them too
    from assistant.webapp.loader import AssistantLoader
    from assistant.webapp.ui import _status_html

    status = AssistantLoader(assistant=object()).status()
    assert status["ready"] and len(status["left_out"]) == 3
    html = _status_html(status)
    assert "Left out" in html and "City of Broken, OR (broken)" in html


def test_a_municipality_whose_text_fails_to_index_is_left_out_of_search(tmp_corpus):
    from tests.fake_embedder import FakeEmbedder

    from assistant.retrieval.index import SearchIndex

    (tmp_corpus / "ok.txt").write_text(SECTIONED, encoding="utf-8")
    (tmp_corpus / "bad.txt").write_bytes(b"\x00\x01 not text")
    _append(tmp_corpus, """
  - id: ok
    name: City of Okay
    kind: city
    state: OR
    chapters: [{chapter: "1", source_file: ok.txt, source_format: text}]
  - id: bad
    name: City of Bad
    kind: city
    state: OR
    chapters: [{chapter: "1", source_file: bad.txt, source_format: text}]
""")
    idx = SearchIndex.open(embedder=FakeEmbedder())
    assert {p.municipality for p in idx.passages} == {"brandon", "delafield", "ok"}
    assert idx.search("clear the sidewalk within 24 hours", "ok", k=1)[0].passage.section == "1-1"


def test_a_municipality_whose_embedding_fails_is_left_out_of_the_index(tmp_corpus):
    from tests.fake_embedder import FakeEmbedder

    from assistant.corpus import load_problems
    from assistant.retrieval.index import SearchIndex

    (tmp_corpus / "ok.txt").write_text(SECTIONED, encoding="utf-8")
    _append(tmp_corpus, """
  - id: ok
    name: City of Okay
    kind: city
    state: OR
    chapters: [{chapter: "1", source_file: ok.txt, source_format: text}]
""")

    class FailsOnOkay(FakeEmbedder):
        def embed_documents(self, texts, show_progress: bool = False):
            if any("clear the sidewalk within 24 hours" in t for t in texts):
                raise RuntimeError("the model ran out of memory")
            return super().embed_documents(texts)

    idx = SearchIndex.open(embedder=FailsOnOkay())
    assert {p.municipality for p in idx.passages} == {"brandon", "delafield"}
    assert idx.search("snow removal", "brandon", k=1)
    assert any(p.startswith("ok: its passages could not be indexed (RuntimeError") for p in load_problems())


def test_places_sharing_a_name_are_told_apart_by_state(tmp_corpus):
    from assistant.answering.detect import clarify_candidates, name_candidates, named_municipality
    from assistant.corpus import UnknownMunicipality, resolve_municipality

    for mid, state in (("springfield-il", "IL"), ("springfield-ma", "MA")):
        (tmp_corpus / f"{mid}.txt").write_text(SECTIONED, encoding="utf-8")
        _append(tmp_corpus, f"""
  - id: {mid}
    name: City of Springfield
    kind: city
    state: {state}
    aliases: ["the City", "city", "Springfield"]
    chapters: [{{chapter: "1", source_file: {mid}.txt, source_format: text}}]
""")
    q = "How long do I have to clear the sidewalk in Springfield?"
    assert named_municipality(q) is None
    assert [m.id for m in name_candidates(q)] == ["springfield-il", "springfield-ma"]
    assert clarify_candidates(q) == ("Which municipality do you mean: the City of Springfield, IL "
                                     "or the City of Springfield, MA?")
    assert named_municipality("Snow rules in Springfield, MA?").id == "springfield-ma"
    assert named_municipality("Snow rules in Springfield, Illinois?").id == "springfield-il"
    # generic words never alias one municipality, whatever the aliases say
    assert named_municipality("Can the city fine me for snow?") is None
    assert named_municipality("Does the Village of Brandon require a permit?").id == "brandon"
    with pytest.raises(UnknownMunicipality, match="more than one municipality"):
        resolve_municipality("City of Springfield")
    assert resolve_municipality("City of Springfield, MA").id == "springfield-ma"
