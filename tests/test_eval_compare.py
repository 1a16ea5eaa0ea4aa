"""evals.compare: per-set figures of two runs, and fixed / broken turns only for sets whose failures may be read."""

from evals.compare import compare


def _run(acc: float, failed: list[str], unseen_failed: list[str]) -> dict:
    return {"answer_accuracy": acc, "wrong_figures": 0, "failed": [],
            "heldout": {"seen": {"answer_accuracy": acc, "wrong_figures": 1, "failed": failed},
                        "fresh": {"answer_accuracy": acc, "wrong_figures": 0, "failed": unseen_failed}}}


def test_compare_names_flipped_turns_of_seen_sets_only():
    lines = compare(_run(0.5, ["a", "b"], ["x"]), _run(0.75, ["b", "c"], ["y"]), unseen={"fresh"})
    seen = next(line for line in lines if line.startswith("seen"))
    fresh = next(line for line in lines if line.startswith("fresh"))
    assert "0.500 -> 0.750" in seen and "fixed ['a'] broke ['c']" in seen
    assert "fixed" not in fresh and "x" not in fresh and "y" not in fresh
