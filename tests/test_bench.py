"""The benchmark's metric functions on hand-worked values (speed itself is measured by
`python -m evals.bench`, never by a timed test)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from assistant.corpus import all_passages
from evals.bench import (
    GOLD_RETRIEVAL, HELDOUT_RETRIEVAL, first_hit_rank, load_gold, mean_reciprocal_rank, quality, recall_at_k,
    retrieval_targets,
)
from evals.scoring import percentile


@dataclass(frozen=True)
class RankCase:
    texts: tuple[str, ...]
    quotes: tuple[str, ...]
    rank: int | None


RANK_CASES = [
    RankCase(("a b c", "the fee is  $25\nper occasion", "x"), ("fee is $25 per occasion",), 2),
    RankCase(("no", "nothing"), ("fee",), None),
    RankCase(("first quote here", "second"), ("second", "first quote"), 1),  # any of the quotes
    RankCase((), ("x",), None),
    RankCase(("text",), ("   ",), None),  # an empty quote never matches
    RankCase(("Fee is $25",), ("fee is $25",), None),  # words compared exactly (case too)
]


@pytest.mark.parametrize("case", RANK_CASES)
def test_first_hit_rank(case):
    assert first_hit_rank(case.texts, case.quotes) == case.rank


def test_recall_at_k_hand_worked():
    ranks = [1, 3, None, 6, 2]
    assert recall_at_k(ranks, 1) == pytest.approx(1 / 5)
    assert recall_at_k(ranks, 5) == pytest.approx(3 / 5)
    assert recall_at_k(ranks, 10) == pytest.approx(4 / 5)
    assert recall_at_k([], 5) == 0.0


def test_mrr_hand_worked():
    # (1 + 1/3 + 0 + 1/6 + 1/2) / 5 = 2/5
    assert mean_reciprocal_rank([1, 3, None, 6, 2]) == pytest.approx(0.4)
    assert mean_reciprocal_rank([None, None]) == 0.0
    assert mean_reciprocal_rank([]) == 0.0


@pytest.mark.parametrize(
    "values,q,expected",
    [
        ([5.0], 50, 5.0),
        ([1.0, 2.0, 3.0, 4.0], 50, 2.5),  # halfway between the 2nd and 3rd
        ([3.0, 1.0, 2.0], 50, 2.0),  # order does not matter
        (list(range(1, 21)), 95, 19.05),  # position 19 * 0.95 = 18.05 -> 19 + 0.05
        ([10.0, 20.0], 0, 10.0),
        ([10.0, 20.0], 100, 20.0),
    ],
)
def test_percentile_hand_worked(values, q, expected):
    assert percentile(values, q) == pytest.approx(expected)


def test_percentile_of_nothing_is_nan():
    assert math.isnan(percentile([], 50))


def test_targets_read_the_issue_thresholds():
    sys_ = {
        "hybrid": {"recall_at_5": 0.96, "p50_ms": 30.0},
        "bm25": {"recall_at_5": 0.9},
        "dense": {"recall_at_5": 0.96},
    }
    t = retrieval_targets({"systems": sys_, "embed_p50_ms": 20.0, "build_s": 31, "peak_rss_mb": 900})
    assert t["hybrid_recall_at_5_ge_0.95"]
    assert not t["hybrid_recall_at_5_ahead_of_every_baseline"]  # a tie is not ahead
    assert t["hybrid_p50_le_1.5x_embed_p50"]
    assert not t["build_le_30_s"]
    assert t["peak_rss_le_1_gb"]


def test_quality_of_an_untimed_pass_hand_worked():
    items = [{"id": "a", "query": "q1", "gold": ["x"]}, {"id": "b", "query": "q2", "gold": ["y"]},
             {"id": "c", "query": "q3", "gold": ["z"]}]
    results = {"q1": ["x here"], "q2": ["no", "no", "y"], "q3": ["nothing"]}
    got = quality(items, lambda q, m: results[q])
    assert got == {"recall_at_1": round(1 / 3, 4), "recall_at_5": round(2 / 3, 4),
                   "mrr": round((1 + 1 / 3) / 3, 4), "misses": ["c"]}


@pytest.mark.parametrize("path, least", [(GOLD_RETRIEVAL, 80), (HELDOUT_RETRIEVAL, 60)], ids=["tuned", "heldout"])
def test_gold_quotes_are_in_one_passage_of_their_municipality(path, least):
    """Every gold quote is found in the parsed text of the municipality it names, so a
    miss is the search's fault, never the gold's; ids are unique; most are paraphrases."""
    items = load_gold(path)
    assert len(items) >= least and len({it["id"] for it in items}) == len(items)
    assert sum(1 for it in items if it.get("paraphrase")) * 2 >= len(items)
    texts: dict[str, list[str]] = {}
    for p in all_passages():
        texts.setdefault(p.municipality, []).append(" ".join(p.text.split()))
    lost = [(it["id"], q) for it in items for q in it["gold"]
            if not any(" ".join(q.split()) in t for t in texts[it["municipality"]])]
    assert lost == []
