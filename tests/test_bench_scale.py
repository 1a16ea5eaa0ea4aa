"""The scale bench's mechanics on a tiny tier (fake embedder, two synthetic whole codes):
its JSON keys, the incremental add embedding only the new code, and the report."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXCERPT = ROOT / "tests" / "data" / "whole-code-excerpt.txt"


def test_scale_bench_tiny_tiers(tmp_path, monkeypatch):
    from tests.fake_embedder import FakeEmbedder
    from evals.scale import bench_scale, write_report

    codes = tmp_path / "codes"
    codes.mkdir()
    data = EXCERPT.read_bytes()
    (codes / "example.txt").write_bytes(data)
    (codes / "sample-county.txt").write_bytes(data.replace(b"EXAMPLE", b"SAMPLE") + b"\n")
    out = bench_scale((0, 1), codes, FakeEmbedder(), with_answers=False, queries=3)
    assert [t["codes"] for t in out["tiers"]] == [0, 1]
    for t in out["tiers"]:
        for key in ("passages", "build_s", "search_p50_ms", "search_p50_ms_unfiltered", "peak_rss_mb", "disk_mb",
                    "recall_at_5"):
            assert isinstance(t[key], (int, float)), key
    t0, t1 = out["tiers"]
    assert t1["passages"] > t0["passages"]
    add = t0["add_one_code"]
    # the one code added is the only part embedded: every unit before it is reused
    assert add["units_reused"] == add["units_before"] == 2
    assert 0 < add["chunks_embedded"] == t1["chunks"] - t0["chunks"]
    assert 0 < add["texts_embedded"] <= add["chunks_embedded"]  # repeated text is embedded once
    report = write_report(out, tmp_path / "scale.md")
    text = report.read_text(encoding="utf-8")
    assert "| 1 |" in text and "## Projection" in text and (tmp_path / "scale.png").stat().st_size > 0
