"""python -m assistant tool --list | tool NAME --json '{...}' [--schema]"""

from __future__ import annotations

import json

from assistant.commands._common import print_json


def add_parser(sub):
    p = sub.add_parser("tool", help="run a calculator")
    p.add_argument("name", nargs="?")
    p.add_argument("--list", action="store_true", help="list the calculators")
    p.add_argument("--json", dest="args_json", help="the arguments as a JSON object")
    p.add_argument("--schema", action="store_true", help="print the tool's input schema")
    return p


def run(args) -> int:
    from assistant.tools.registry import all_tools, get_tool, run_tool

    if args.list or not args.name:
        for spec in all_tools().values():
            fields = ", ".join(spec.input_model.model_fields)
            print(f"{spec.name}: {spec.description}\n    fields: {fields}")
        return 0
    spec = get_tool(args.name)
    if args.schema:
        print_json(spec.input_model.model_json_schema())
        return 0
    try:
        arguments = json.loads(args.args_json or "{}")
    except json.JSONDecodeError as exc:
        raise ValueError(f"--json is not valid JSON: {exc.msg} at position {exc.pos}") from None
    if not isinstance(arguments, dict):
        raise ValueError("--json must be a JSON object")
    result = run_tool(args.name, arguments)
    print_json(result.model_dump(mode="json"))
    return 0 if result.ok else 2
