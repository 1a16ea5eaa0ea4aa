"""CLI verbs. Each module here exposes ``add_parser(subparsers)`` and ``run(args) -> int``.

``python -m assistant <verb>`` discovers them: adding a verb is adding a module.
"""

VERBS = ("search", "show", "toc", "index", "ingest", "amend", "tool", "ask", "checklist", "municipality")
