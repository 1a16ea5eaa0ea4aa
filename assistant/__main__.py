"""python -m assistant <verb> ... — one line on stderr and a non-zero exit on error."""

from __future__ import annotations

import argparse
import importlib
import sys

from assistant.commands import VERBS


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m assistant", description=__doc__)
    sub = parser.add_subparsers(dest="verb", required=True)
    for verb in VERBS:
        try:
            mod = importlib.import_module(f"assistant.commands.{verb}")
        except ModuleNotFoundError as exc:
            if exc.name == f"assistant.commands.{verb}":
                continue  # verb not built yet
            raise
        p = mod.add_parser(sub)
        p.set_defaults(_run=mod.run)
    return parser


class UserError(Exception):
    """An error whose message is meant for the user, printed as one line."""


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = int(args._run(args) or 0)
        _report_left_out(args)
        return code
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # one line, no traceback
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        print(f"error: {msg}", file=sys.stderr)
        _report_left_out(args)
        return 1


def _report_left_out(args) -> None:
    """A municipality (or manifest entry) that cannot be read is named on stderr; the
    command still ran for every other one."""
    if getattr(args, "verb", None) == "municipality" and getattr(args, "action", None) == "list":
        return
    try:
        from assistant.corpus import load_problems

        for p in load_problems():
            print(f"warning: left out: {p}", file=sys.stderr)
    except Exception:  # noqa: BLE001 - the manifest itself is unreadable: the error said so
        pass


if __name__ == "__main__":
    sys.exit(main())
