"""Does each expansion rule pay on questions it wasn't written for? (a command, never a test)

    python -m evals.ablation expansion [--json] [--rules FILE]

Loads the hybrid index once (as ``python -m evals.bench retrieval`` does), then scores the
first-hit rank in the top 5 of the hybrid search for the baseline (every rule of
corpus/query_expansion.yaml, or of ``--rules``) and for each rule removed alone (the loaded
rules patched in memory, the cache of expanded queries cleared), on:

- ``tuned``: evals/gold_retrieval.yaml (the rules were written reading its misses);
- ``heldout1``: evals/heldout_retrieval.yaml (a hit: a passage holding a gold quote);
- ``heldout2``..``heldout4``: the questions of the held-out answer sets as retrieval queries,
  every turn that expects citations (a hit: a passage whose municipality and section, or
  title, and subsection match one of the turn's expected citations, as evals/scoring.py
  matches an answer's citation). Only ranks are read, never an expected answer.

Per rule: how many held-out queries it helps (removing it worsens their rank) or hurts
(removing it improves it), over the held-out sets together, the same for the tuned set, and
how many queries its key matches at all. The search result depends only on the query and its
expansion, so a query whose expansion a removal leaves unchanged is not searched again.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from evals.bench import DEPTH, GOLD_RETRIEVAL, HELDOUT_RETRIEVAL, first_hit_rank, load_gold, recall_at_k
from evals.scoring import citation_matches

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "corpus" / "query_expansion.yaml"
HELDOUT_QUESTIONS = {
    "heldout2": ROOT / "evals" / "heldout2_questions.yaml",
    "heldout3": ROOT / "evals" / "heldout3_questions.yaml",
    "heldout4": ROOT / "evals" / "heldout4_questions.yaml",
}
MISS = DEPTH + 1  # a query without a hit in the top 5 ranks below every hit


@dataclass(frozen=True)
class Query:
    """One retrieval query and how a returned passage counts as its hit."""

    set: str
    query: str
    municipality: str | None
    quotes: tuple[str, ...] = ()
    citations: tuple[dict, ...] = ()
    citation_municipality: str | None = None

    def rank(self, passages: list) -> int | None:
        if self.quotes:
            return first_hit_rank([p.text for p in passages], self.quotes)
        for r, p in enumerate(passages, 1):
            cited = {"municipality": p.municipality, "section": p.section, "title": p.title,
                     "subsection": p.subsection}
            if any(citation_matches(cited, w, self.citation_municipality) for w in self.citations):
                return r
        return None


@dataclass
class QuerySet:
    name: str
    heldout: bool
    queries: list[Query] = field(default_factory=list)


# -- query sets (pure) ---------------------------------------------------------------
def gold_set(name: str, path: Path, heldout: bool) -> QuerySet:
    return QuerySet(name, heldout, [Query(name, it["query"], it.get("municipality"), quotes=tuple(it["gold"]))
                                    for it in load_gold(path)])


def question_set(name: str, path: Path) -> QuerySet:
    """Every turn of an answer set that expects a citation, as a retrieval query."""
    from evals.run import expand_turns, load_questions

    out = QuerySet(name, True)
    for item in load_questions(path):
        for t in expand_turns(item):
            wanted = tuple(c for c in (t["expected"].get("citations") or []) if c.get("section") or c.get("title"))
            if not wanted or not t["question"].strip():
                continue
            muni = t["expected"].get("municipality") or t["municipality"]
            out.queries.append(Query(name, t["question"], t["municipality"] or muni, citations=wanted,
                                     citation_municipality=muni))
    return out


def default_sets() -> list[QuerySet]:
    sets = [gold_set("tuned", GOLD_RETRIEVAL, False), gold_set("heldout1", HELDOUT_RETRIEVAL, True)]
    sets += [question_set(n, p) for n, p in HELDOUT_QUESTIONS.items() if p.exists()]
    return sets


def load_rules(path: Path = RULES) -> list[tuple[str, str]]:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    return [(str(k), str(v)) for k, v in data.items()]


# -- patching the loaded rules ---------------------------------------------------------
@contextlib.contextmanager
def rules_in_use(rules: list[tuple[str, str]]) -> Iterator[None]:
    """Expansion uses exactly ``rules`` inside the block (the cached expansions forgotten on
    the way in and out)."""
    from assistant.retrieval import expansion

    compiled = tuple((re.compile(k, re.I), v) for k, v in rules)
    saved = expansion._rules
    expansion._rules = lambda path: compiled
    expansion._expand.cache_clear()
    try:
        yield
    finally:
        expansion._rules = saved
        expansion._expand.cache_clear()


def rule_matches(key: str, question: str) -> bool:
    """Does the key match the text the expansion matches against (the question and its singulars)?"""
    from assistant.retrieval.expansion import singulars

    return bool(re.compile(key, re.I).search(f"{question} {singulars(question)}"))


# -- comparing (pure) -------------------------------------------------------------------
def compare(base: list[int | None], other: list[int | None]) -> tuple[int, int]:
    """(helped, hurt) of the rule whose removal gives ``other``: helped = queries ranked
    better with the rule (removing it worsens them), hurt = ranked worse with it."""
    helped = hurt = 0
    for b, o in zip(base, other):
        b, o = b or MISS, o or MISS
        helped += b < o
        hurt += b > o
    return helped, hurt


def summary(ranks: list[int | None]) -> dict:
    return {"queries": len(ranks), "recall_at_1": round(recall_at_k(ranks, 1), 4),
            "recall_at_5": round(recall_at_k(ranks, DEPTH), 4)}


# -- the run ------------------------------------------------------------------------------
class Ranker:
    """Ranks of every query under the rules in use; a search is cached by (query,
    municipality, expansion), so an unchanged expansion is never searched twice."""

    def __init__(self, index):
        self.index = index
        self._cache: dict[tuple, int | None] = {}
        self.searches = 0

    def ranks(self, sets: list[QuerySet]) -> dict[str, list[int | None]]:
        from assistant.retrieval.expansion import expand

        out = {}
        for s in sets:
            rs = []
            for q in s.queries:
                key = (q.query, q.municipality, expand(q.query))
                if key not in self._cache:
                    self.searches += 1
                    hits = self.index.search(q.query, q.municipality, k=DEPTH, mode="hybrid")
                    self._cache[key] = q.rank([h.passage for h in hits])
                rs.append(self._cache[key])
            out[s.name] = rs
        return out


def ablate(index, sets: list[QuerySet], rules: list[tuple[str, str]],
           progress: Callable[[str], None] = lambda m: None) -> dict:
    ranker = Ranker(index)
    with rules_in_use(rules):
        base = ranker.ranks(sets)
    progress(f"baseline: {ranker.searches} searches")
    heldout = [s.name for s in sets if s.heldout]
    tuned = [s.name for s in sets if not s.heldout]
    per_rule = []
    for i, (key, words) in enumerate(rules):
        with rules_in_use(rules[:i] + rules[i + 1:]):
            ranks = ranker.ranks(sets)
        row: dict = {"key": key, "words": words}
        for label, names in (("heldout", heldout), ("tuned", tuned)):
            h = t = 0
            for n in names:
                a, b = compare(base[n], ranks[n])
                h, t = h + a, t + b
            row[f"{label}_helped"], row[f"{label}_hurt"] = h, t
        row["matches"] = {s.name: sum(rule_matches(key, q.query) for q in s.queries) for s in sets}
        row["recall_at_5_without"] = {n: round(recall_at_k(r, DEPTH), 4) for n, r in ranks.items()}
        per_rule.append(row)
        if (i + 1) % 10 == 0:
            progress(f"{i + 1}/{len(rules)} rules ({ranker.searches} searches)")
    return {
        "rules": len(rules),
        "sets": {s.name: {"heldout": s.heldout, **summary(base[s.name])} for s in sets},
        "per_rule": per_rule,
        "no_help_on_heldout": [r["key"] for r in per_rule if r["heldout_helped"] == 0],
        "match_nothing": [r["key"] for r in per_rule if not any(r["matches"].values())],
        "searches": ranker.searches,
    }


def against(index, sets: list[QuerySet], rules: list[tuple[str, str]], other: list[tuple[str, str]],
            progress: Callable[[str], None] = lambda m: None) -> dict:
    """The figures under ``rules`` and under ``other`` (a pruned file), the queries ``other``
    ranks worse or better, per set, and, for each rule of ``rules`` that ``other`` lacks,
    what adding it back alone to ``other`` does on the held-out sets."""
    ranker = Ranker(index)
    with rules_in_use(rules):
        base = ranker.ranks(sets)
    with rules_in_use(other):
        pruned = ranker.ranks(sets)
    out: dict = {"rules": len(rules), "other_rules": len(other), "sets": {}}
    for s in sets:
        better, worse = compare(base[s.name], pruned[s.name])  # better with ``rules``: worse pruned
        out["sets"][s.name] = {"heldout": s.heldout, "before": summary(base[s.name]),
                               "after": summary(pruned[s.name]), "worse_after": better, "better_after": worse}
    heldout = [s.name for s in sets if s.heldout]
    kept = {k for k, _ in other}
    restore = []
    for rule in rules:
        if rule[0] in kept:
            continue
        with rules_in_use(other + [rule]):
            ranks = ranker.ranks(sets)
        h = t = 0
        for n in heldout:
            a, b = compare(ranks[n], pruned[n])
            h, t = h + a, t + b
        restore.append({"key": rule[0], "heldout_helped_if_restored": h, "heldout_hurt_if_restored": t})
    out["restore"] = restore
    progress(f"{ranker.searches} searches")
    return out


def open_index(progress: Callable[[str], None]):
    from assistant.retrieval.embeddings import get_embedder
    from assistant.retrieval.index import SearchIndex
    from assistant.settings import get_settings

    embedder = get_embedder()
    embedder.model
    tmp = tempfile.mkdtemp(prefix="ablation-index-")
    settings = get_settings().model_copy(update={"data_dir": Path(tmp), "chroma_mode": "embedded"})
    t0 = time.perf_counter()
    index = SearchIndex.open(settings=settings, embedder=embedder, force=True)
    progress(f"index built in {time.perf_counter() - t0:.1f} s ({len(index.chunks)} chunks)")
    return index, tmp


def print_report(out: dict) -> None:
    print(f"Expansion ablation: {out['rules']} rules, hybrid top {DEPTH}, first-hit rank\n")
    print(f"{'set':<10} {'queries':>7} {'R@1':>6} {'R@5':>6}")
    for name, s in out["sets"].items():
        print(f"{name:<10} {s['queries']:>7} {s['recall_at_1']:>6.3f} {s['recall_at_5']:>6.3f}"
              f"{'' if s['heldout'] else '  (tuned)'}")
    print(f"\n{'held-out +/-':>12} {'tuned +/-':>10} {'matches':>8}  key")
    for r in out["per_rule"]:
        m = sum(r["matches"].values())
        print(f"{r['heldout_helped']:>5} / {r['heldout_hurt']:<4} {r['tuned_helped']:>4} / {r['tuned_hurt']:<3} "
              f"{m:>8}  {r['key']}")
    print(f"\nhelp no held-out query: {len(out['no_help_on_heldout'])}")
    print(f"match no query in any set: {len(out['match_nothing'])}")
    for k in out["match_nothing"]:
        print(f"  {k}")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m evals.ablation", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    e = sub.add_parser("expansion", help="each expansion rule removed alone, on the tuned and held-out sets")
    e.add_argument("--json", action="store_true")
    e.add_argument("--rules", type=Path, default=RULES, help="the rules file to ablate (default: the corpus's)")
    e.add_argument("--baseline-only", action="store_true", help="only the figures with every rule")
    e.add_argument("--against", type=Path, default=None,
                   help="a pruned rules file: figures before/after and what restoring each dropped rule does")
    return parser


def main(argv: list[str] | None = None) -> int:
    from evals import offline_env

    offline_env()
    args = build_parser().parse_args(argv)

    def progress(msg: str) -> None:
        print(f"[ablation] {msg}", file=sys.stderr)

    import shutil

    index, tmp = open_index(progress)
    try:
        rules = load_rules(args.rules)
        sets = default_sets()
        if args.against:
            out = against(index, sets, rules, load_rules(args.against), progress)
        elif args.baseline_only:
            ranker = Ranker(index)
            with rules_in_use(rules):
                base = ranker.ranks(sets)
            out = {"rules": len(rules), "sets": {s.name: {"heldout": s.heldout, **summary(base[s.name])}
                                                 for s in sets}}
        else:
            out = ablate(index, sets, rules, progress)
    finally:
        index = None
        shutil.rmtree(tmp, ignore_errors=True)
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    elif args.against:
        for name, s in out["sets"].items():
            b, a = s["before"], s["after"]
            print(f"{name:<10} {b['queries']:>4} R@5 {b['recall_at_5']:.3f} -> {a['recall_at_5']:.3f}  "
                  f"R@1 {b['recall_at_1']:.3f} -> {a['recall_at_1']:.3f}  worse {s['worse_after']} better {s['better_after']}")
        for r in out["restore"]:
            if r["heldout_helped_if_restored"] or r["heldout_hurt_if_restored"]:
                print(f"restoring {r['key']}: held-out helped {r['heldout_helped_if_restored']}"
                      f" hurt {r['heldout_hurt_if_restored']}")
    elif args.baseline_only:
        for name, s in out["sets"].items():
            print(f"{name:<10} {s['queries']:>7} R@1 {s['recall_at_1']:.3f} R@5 {s['recall_at_5']:.3f}")
    else:
        print_report(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
