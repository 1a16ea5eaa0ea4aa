"""Structure reports of whole codes (what `municipality add --dry-run` prints), one line per
code and the per-chapter report of each, without changing any corpus.

    python scripts/whole_code_reports.py [FOLDER] [--out FILE.md]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", type=Path, nargs="?", default=ROOT.parent / "shared" / "corpus-scale")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    from assistant.corpus import reset_caches
    from assistant.municipality_add import AddRequest, plan_add, report_lines
    from assistant.parsing import ParseError
    from assistant.settings import get_settings

    tmp = Path(tempfile.mkdtemp(prefix="code-reports-"))
    shutil.copytree(ROOT / "corpus", tmp / "corpus")
    os.environ["ASSISTANT_CORPUS_DIR"] = str(tmp / "corpus")
    os.environ["ASSISTANT_DATA_DIR"] = str(tmp / "data")
    get_settings.cache_clear()
    reset_caches()
    summary = ["| code | chapters | sections | reserved | passages | depth | notes | left out / skipped |",
               "|---|---|---|---|---|---|---|---|"]
    details: list[str] = []
    try:
        for f in sorted(p for p in args.folder.glob("*.txt")):
            mid = "".join(ch if ch.isalnum() else "-" for ch in f.stem.lower()).strip("-")[:40]
            try:
                plan = plan_add(AddRequest(file=str(f), id=mid, name=f"Code of {f.stem}", state="GA"))
            except ParseError as exc:
                summary.append(f"| {f.name} | — | — | — | — | — | — | {exc} |")
                continue
            r = plan.report
            left = next((s for s in r.skipped if "left out" in s), "")
            summary.append(f"| {f.name} | {len(r.chapters)} | {len(r.sections)} | "
                           f"{sum(c['reserved'] for c in r.chapters)} | {r.passages} | {r.subsection_depth} | "
                           f"{r.notes} | {left[:120]} ({len(r.skipped)} skipped notes) |")
            details += ["", f"## {f.name}", "", "```", *report_lines(r)[:80], "```"]
            print(summary[-1], file=sys.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = "\n".join(["# Structure of the whole codes", "", *summary, *details, ""])
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
