"""Search recall@5 of the sample chapters' questions, per municipality.

    ASSISTANT_CORPUS_DIR=... ASSISTANT_DATA_DIR=... python -m evals.sample_recall [--samples DIR]

A question counts when it expects an answer citing a section (every turn of a
conversation that does); it is a hit when one of the top 5 passages the search returns
for its words, filtered to the expected municipality, lies in one of the cited sections
(the subsection is not asked for). Prints JSON: per municipality recall@5, the number of
queries and the ids missed. ``python -m evals run --samples`` runs this beside the answers.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from evals.scoring import citation_matches

DEPTH = 5


def recall_queries(items: Sequence[dict]) -> list[dict]:
    """(id, municipality, question, cited sections) of every turn that expects a citation."""
    from evals.run import expand_turns

    out = []
    for item in items:
        for turn in expand_turns(item):
            exp = turn["expected"] or {}
            cites = [c for c in exp.get("citations") or [] if c.get("section") or c.get("title")]
            muni = exp.get("municipality") or turn["municipality"]
            if exp.get("status", "answered") != "answered" or not cites or not muni or not turn["question"]:
                continue
            out.append({"id": turn["id"], "municipality": muni, "question": turn["question"],
                        "citations": [{**c, "subsection": None} for c in cites]})
    return out


def recall_by_municipality(queries: Sequence[dict], search: Callable[[str, str], list[dict]],
                           k: int = DEPTH) -> dict[str, dict]:
    """``search(question, municipality)`` returns the top passages' citations (dicts with
    municipality, section, title) best first."""
    by: dict[str, dict] = {}
    for q in queries:
        cited = search(q["question"], q["municipality"])[:k]
        hit = any(citation_matches(c, w, q["municipality"]) for c in cited for w in q["citations"])
        row = by.setdefault(q["municipality"], {"queries": 0, "hits": 0, "missed": []})
        row["queries"] += 1
        row["hits"] += hit
        if not hit:
            row["missed"].append(q["id"])
    for row in by.values():
        row["recall_at_5"] = round(row["hits"] / row["queries"], 4) if row["queries"] else None
    return by


def main(argv: list[str] | None = None) -> int:
    from evals.run import SAMPLE_QUESTIONS, load_sample_questions

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--samples", type=Path, default=SAMPLE_QUESTIONS, help="folder of the samples' question files")
    args = ap.parse_args(argv)
    from assistant.answering.assistant import Assistant

    assistant = Assistant.load()

    def search(question: str, municipality: str) -> list[dict]:
        return [h.passage.citation().model_dump() for h in assistant.search(question, municipality, k=DEPTH)]

    print(json.dumps(recall_by_municipality(recall_queries(load_sample_questions(args.samples)), search)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
