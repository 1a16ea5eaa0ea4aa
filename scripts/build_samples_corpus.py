"""Build a corpus folder with the five sample chapters added, for the evaluation.

    python scripts/build_samples_corpus.py OUT_DIR [--samples ../shared/corpus-samples] [--index]

Copies corpus/ (manifest and texts) to OUT_DIR and runs `municipality add` for each sample
into it. corpus/manifest.yaml itself is not changed (the two existing municipalities'
answers stay as they are). Then point the assistant at it:

    ASSISTANT_CORPUS_DIR=OUT_DIR ASSISTANT_DATA_DIR=OUT_DIR/../data python -m evals run ...

With --index the search index is built now (in ASSISTANT_DATA_DIR, default OUT_DIR/../data);
otherwise the first command that searches builds it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# folder -> (id, name, state, kind); kinds and names as each SOURCE.md gives them
SAMPLES = {
    "boston-ma-16-12": ("boston", "City of Boston", "MA", "city"),
    "chagrin-falls-oh-ch903": ("chagrin-falls", "Village of Chagrin Falls", "OH", "village"),
    "crawfordville-ga-ch30": ("crawfordville", "City of Crawfordville", "GA", "city"),
    "somerville-ma-ch12": ("somerville", "City of Somerville", "MA", "city"),
    "williams-az-ch152": ("williams", "City of Williams", "AZ", "city"),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out_dir")
    ap.add_argument("--samples", default=str(ROOT.parent / "shared" / "corpus-samples"))
    ap.add_argument("--index", action="store_true", help="build the search index now")
    ap.add_argument("--force", action="store_true", help="replace OUT_DIR if it exists")
    args = ap.parse_args(argv)
    out = Path(args.out_dir).resolve()
    samples = Path(args.samples)
    if not samples.is_dir():
        print(f"error: no samples at {samples}", file=sys.stderr)
        return 1
    if out.exists():
        if not args.force:
            print(f"error: {out} exists (use --force to replace it)", file=sys.stderr)
            return 1
        shutil.rmtree(out)
    shutil.copytree(ROOT / "corpus", out)
    os.environ["ASSISTANT_CORPUS_DIR"] = str(out)
    os.environ.setdefault("ASSISTANT_DATA_DIR", str(out.parent / "data"))
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    sys.path.insert(0, str(ROOT))
    from assistant.__main__ import main as cli

    for folder, (mid, name, state, kind) in SAMPLES.items():
        text = next(p for p in (samples / folder).iterdir() if p.name.startswith("text."))
        code = cli(["municipality", "add", str(text), "--id", mid, "--name", name, "--state", state,
                    "--kind", kind, "--no-index"])
        if code != 0:
            print(f"error: adding {folder} failed", file=sys.stderr)
            return code
    if args.index:
        return cli(["index"])
    print(f"corpus with the samples: {out}\n  ASSISTANT_CORPUS_DIR={out} ASSISTANT_DATA_DIR={os.environ['ASSISTANT_DATA_DIR']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
