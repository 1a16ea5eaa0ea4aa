"""The CI gate: the evaluation suite runs and its figures meet evals/thresholds.yaml.

The ordinary questions are asked in this process (one Assistant, loaded once); the
prompt-injection document questions go through the real ``python -m assistant ask
--jsonl`` subprocess on a scratch corpus, so one path always crosses the JSONL
contract. Select with ``-m eval``; it runs in the default suite.

The mechanics of the runner (turns and history, the scratch corpus, the quote checker,
the JSONL client) are tested first, without the model.
"""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from evals.run import (
    CORPUS,
    INJECTION_TEXT,
    JsonlAssistant,
    QuoteChecker,
    check_thresholds,
    evaluate,
    evaluate_heldout,
    expand_turns,
    in_process_ask,
    load_questions,
    load_thresholds,
    make_scratch_corpus,
    needs_scratch_corpus,
    public_figures,
    render_report,
    run_items,
)

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "evals" / "questions.yaml"
ASSISTANT_MODULE = ROOT / "assistant" / "answering" / "assistant.py"

CONVERSATION = {
    "id": "conv", "kind": "conversation", "municipality": None,
    "turns": [
        {"question": "Do I need a permit to dig in the street?", "expected": {"status": "clarify", "municipality": None}},
        {"question": "Brandon.", "expected": {"status": "answered", "municipality": "brandon"}},
        {"question": "And the insurance?", "expected": {"status": "answered", "municipality": "brandon"}},
    ],
}
SINGLE = {"id": "one", "kind": "lookup", "municipality": "delafield", "question": "Culvert size?",
          "expected": {"status": "answered", "municipality": "delafield", "citations": []}}


# -- runner mechanics (no model) ------------------------------------------------------------
def test_expand_turns_names_each_turn_and_groups_by_municipality():
    turns = expand_turns(CONVERSATION)
    assert [t["id"] for t in turns] == ["conv/1", "conv/2", "conv/3"]
    assert [t["turn"] for t in turns] == [1, 2, 3]
    assert {t["group"] for t in turns} == {"brandon"}  # no request municipality: the expected one
    assert all(t["municipality"] is None for t in turns)
    (one,) = expand_turns(SINGLE)
    assert one["id"] == "one" and one["group"] == "delafield" and one["municipality"] == "delafield"


def test_later_turns_carry_the_conversation_so_far():
    seen = []

    def ask(req):
        seen.append(req)
        return {"id": req["id"], "status": "answered", "answer": f"answer to {req['question']}", "citations": [],
                "tool_calls": []}

    records = run_items([CONVERSATION, SINGLE], ask)
    assert [r["turn"]["id"] for r in records] == ["conv/1", "conv/2", "conv/3", "one"]
    assert seen[0]["history"] == []
    assert seen[2]["history"] == [
        {"role": "user", "content": "Do I need a permit to dig in the street?"},
        {"role": "assistant", "content": "answer to Do I need a permit to dig in the street?"},
        {"role": "user", "content": "Brandon."},
        {"role": "assistant", "content": "answer to Brandon."},
    ]
    assert seen[3]["history"] == []  # a new item starts a new conversation
    assert records[2]["turn"]["history"] == seen[2]["history"]


def test_an_answer_that_raises_is_scored_as_an_error_and_the_run_goes_on():
    def ask(req):
        raise ValueError("bad line")

    records = run_items([SINGLE, SINGLE], ask)
    assert len(records) == 2 and records[0]["answer"]["error"] == "ValueError: bad line"


def test_heldout_figures_sit_beside_the_main_ones_and_reach_the_report():
    def ask(req):  # right status and municipality, no citation
        return {"id": req["id"], "status": "answered", "municipality": "delafield", "answer": "Culvert.",
                "citations": [], "tool_calls": []}

    wrong = {**SINGLE, "id": "two", "expected": {**SINGLE["expected"], "must_contain": ["18 inches"]}}
    held = evaluate_heldout([SINGLE, wrong], main_ask=ask, baselines=False)
    assert held["questions"] == 2 and held["answer_accuracy"] == 0.5 and held["failed"] == ["two"]
    assert not any(k.startswith("_") for k in held) and "gate" not in held  # reported, never gated
    figures = evaluate([SINGLE], main_ask=ask, baselines=False)
    figures["heldout"] = {"heldout2_questions": held}
    report = render_report(figures)
    assert "## Held-out questions: `evals/heldout2_questions.yaml`" in report and "`two`" in report
    assert "first scored before any change" in report  # what the set has seen is said beside it
    assert public_figures(figures)["heldout"]["heldout2_questions"]["answer_accuracy"] == 0.5
    # the answers cite nothing: no precision to lose, no loss section
    assert figures["citation_precision_loss"]["answers_citing"] == 0
    assert "## Where citation precision is lost" not in report


def test_the_report_says_where_citation_precision_is_lost():
    cited = {**SINGLE, "id": "cited", "expected": {**SINGLE["expected"],
             "citations": [{"section": None, "title": "DRIVEWAYS AND CULVERTS", "subsection": "(1)"}]}}

    def ask(req):  # the expected provision and another one
        c = {"municipality": "delafield", "chapter": "8", "section": None, "page": 2, "quote": "q", "passage_id": None}
        return {"id": req["id"], "status": "answered", "municipality": "delafield", "answer": "Culvert.",
                "citations": [{**c, "title": "DRIVEWAYS AND CULVERTS", "subsection": "(1)"},
                              {**c, "title": "LITTERING PROHIBITED", "subsection": None}], "tool_calls": []}

    figures = evaluate([cited], main_ask=ask, baselines=False)
    assert figures["citation_precision"] == 0.5
    assert figures["citation_precision_loss"]["extra_citations"] == {"points": 0.5, "answers": ["cited"]}
    report = render_report(figures)
    assert "## Where citation precision is lost" in report
    assert "| a lookup quoting an expected provision and others beside it | 0.500 | `cited` |" in report


def test_scratch_corpus_adds_the_injection_document(tmp_path):
    dest = make_scratch_corpus(tmp_path / "corpus")
    manifest = yaml.safe_load((dest / "manifest.yaml").read_text())
    assert [d["id"] for d in manifest["documents"]] == ["brandon", "delafield", "testville"]
    assert (dest / INJECTION_TEXT.name).read_text() == INJECTION_TEXT.read_text()
    assert (CORPUS / "manifest.yaml").read_text().count("testville") == 0  # the real corpus is untouched


def test_quote_checker_reads_both_corpora(tmp_path):
    checker = QuoteChecker([CORPUS, make_scratch_corpus(tmp_path / "corpus")])
    p = checker.passages["brandon"][5]
    words = " ".join(p.text.split()[:8])
    good = {"municipality": "brandon", "section": p.section, "title": p.title, "quote": words, "passage_id": p.id}
    assert checker(good)
    assert checker({**good, "passage_id": None})  # found through the section
    assert not checker({**good, "quote": words + " and a fee of $5"})
    assert not checker({**good, "quote": ""})
    t = checker.passages["testville"][0]
    assert checker({"municipality": "testville", "section": t.section, "title": t.title,
                    "quote": " ".join(t.text.split()[:6]), "passage_id": t.id})


def test_only_testville_items_need_the_scratch_corpus():
    assert not needs_scratch_corpus(SINGLE)
    assert needs_scratch_corpus({**SINGLE, "municipality": "testville"})


FAKE_JSONL = textwrap.dedent("""
    import json, sys
    for line in sys.stdin:
        req = json.loads(line)
        if req["question"] == "die":
            sys.exit(3)
        print(json.dumps({"id": req["id"], "status": "answered", "answer": req["question"].upper(),
                          "citations": [], "tool_calls": [], "history_turns": len(req.get("history") or [])}),
              flush=True)
""")


def test_jsonl_client_speaks_one_line_each_way(tmp_path):
    script = tmp_path / "fake.py"
    script.write_text(FAKE_JSONL)
    with JsonlAssistant(command=[sys.executable, str(script)], timeout_s=20) as ask:
        records = run_items([CONVERSATION], ask)
        assert [r["answer"]["answer"] for r in records] == ["DO I NEED A PERMIT TO DIG IN THE STREET?", "BRANDON.",
                                                            "AND THE INSURANCE?"]
        assert [r["answer"]["history_turns"] for r in records] == [0, 2, 4]
        with pytest.raises(EOFError):
            ask({"id": "x", "question": "die", "municipality": None, "history": []})


# -- the gate ----------------------------------------------------------------------------------
@pytest.mark.eval
@pytest.mark.slow
@pytest.mark.skipif(not QUESTIONS.exists(), reason="evals/questions.yaml not written yet")
@pytest.mark.skipif(not ASSISTANT_MODULE.exists(), reason="the assistant has not landed yet")
def test_evaluation_suite_meets_the_thresholds(tmp_path_factory):
    from assistant.answering.assistant import Assistant
    from assistant.settings import get_settings

    settings = get_settings().model_copy(update={"data_dir": tmp_path_factory.mktemp("eval-data"),
                                                 "chroma_mode": "embedded"})
    ask = in_process_ask(Assistant.load(settings=settings))
    items = load_questions(QUESTIONS)
    assert any(needs_scratch_corpus(it) for it in items), "no question goes through the JSONL subprocess"
    figures = evaluate(items, main_ask=ask, baselines=False, thresholds=load_thresholds())

    out = tmp_path_factory.mktemp("eval-report")
    (out / "latest.json").write_text(json.dumps(public_figures(figures), indent=2))
    (out / "report.md").write_text(render_report(figures))
    failures = check_thresholds(figures, load_thresholds())
    problems = [s for s in figures["_scores"] if not s.correct or s.invented or s.unfaithful_quotes]
    detail = "\n".join(
        f"  {s.id}: status {s.status_got} (expected {s.status_expected}) missing {s.missing} "
        f"forbidden {s.forbidden} invented {s.invented}" for s in problems[:40]
    )
    assert not failures, f"below thresholds: {failures}\nreport: {out / 'report.md'}\n{detail}"
