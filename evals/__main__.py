"""python -m evals <verb>

    run        ask the known questions through the JSONL contract, score them beside
               the baselines, write evals/reports/ (report.md, charts, latest.json)
    bench      the benchmarks: `python -m evals bench retrieval|answer [--json]`
               (the same as `python -m evals.bench ...`)
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    from evals import offline_env

    offline_env()
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["bench"]:
        from evals.bench import main as bench_main

        return bench_main(argv[1:])
    from evals import run as runner

    parser = argparse.ArgumentParser(prog="python -m evals", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="verb", required=True)
    runner.add_arguments(sub.add_parser("run", help="run the evaluation suite and write the report"))
    sub.add_parser("bench", help="benchmarks: retrieval | answer (see python -m evals.bench --help)")
    args = parser.parse_args(argv)
    try:
        return runner.run(args)
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # one line, no traceback
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: {msg}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
