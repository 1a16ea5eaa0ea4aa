"""python -m assistant toc [--municipality ID] [--json]"""

from __future__ import annotations

from assistant.commands._common import municipality_arg, print_json
from assistant.corpus import document, municipalities


def outline(mid: str) -> list[dict]:
    out = []
    for s in document(mid).sections:
        subs = []
        for p in s.passages:
            if p.subsection:
                head = p.heading or (p.text[:60].rstrip() + ("…" if len(p.text) > 60 else ""))
                subs.append({"subsection": p.subsection, "heading": head, "page": p.page})
        out.append({"section": s.section, "title": s.title, "untitled": s.untitled,
                    "page": s.passages[0].page if s.passages else None, "subsections": subs})
    return out


def add_parser(sub):
    p = sub.add_parser("toc", help="each chapter's outline")
    p.add_argument("--municipality", "-m")
    p.add_argument("--json", action="store_true")
    return p


def run(args) -> int:
    mid = municipality_arg(args.municipality)
    ms = [m for m in municipalities() if mid is None or m.id == mid]
    if args.json:
        print_json({m.id: outline(m.id) for m in ms})
        return 0
    for m in ms:
        print(f"{m.name} Code, ch. {m.chapter} {m.chapter_title}")
        for s in outline(m.id):
            num = f"§ {s['section']} " if s["section"] else ""
            flag = " (untitled in the text)" if s["untitled"] else ""
            page = f"  p. {s['page']}" if s["page"] else ""
            print(f"  {num}{s['title']}{flag}{page}")
            seen = set()
            for sub in s["subsections"]:
                if (sub["subsection"], sub["heading"]) in seen:
                    continue
                seen.add((sub["subsection"], sub["heading"]))
                print(f"      {sub['subsection']} {sub['heading']}")
        print()
    return 0
