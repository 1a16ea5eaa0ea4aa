"""Page furniture left in passages: per code, how many running headers/footers/page lines the
source prints, and how many of them the reader lets into passages (text, notes, captions).

    python scripts/furniture_counts.py [FILE_OR_FOLDER ...] [--json]

Default: the 31 whole codes of ../shared/corpus-scale and the five sample chapters of
../shared/corpus-samples. Furniture is found in the raw lines by shape alone, independently
of the reader (so the count is a check on it, not a copy of it):

- print header: a date, then a title, the same shape on three or more lines
  (``5/31/2019 Monticello, GA Code of Ordinances``: a browser's print header);
- page of total: ``102/226``, ``Page 3 of 12`` alone on a line, three or more times;
- supplement footer: ``Rev. 3/1/12 Supp. 11<TAB>1614.4`` (a line ending in a page number after
  a tab whose shape repeats), or a bare ``<TAB>1614.6``;
- created stamp: ``Created: 2021-08-10 10:42:26 [EST]``;
- running header: the capital-letter line(s) right after a footer
  (``16-12<TAB>CITY OF BOSTON CODE - ORDINANCES<TAB>16-12``).

Each distinct furniture string is then looked for in what the reader produced.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PRINT_HEADER = re.compile(r"^\d{1,2}/\d{1,2}/\d{2,4}\s+[A-Z][^\t]{2,100}$")
PAGE_OF = re.compile(r"^(?:\d{1,4}\s*/\s*\d{1,4}|Page\s+\d{1,4}\s+of\s+\d{1,4})$", re.I)
SUPP_FOOTER = re.compile(r"^(?:.*\bSupp\.?\s*(?:No\.?\s*)?\d+.*)?\t[\t ]*\d{1,5}(?:\.\d{1,3})?\s*$")
CREATED = re.compile(r"^Created:\s*\d{4}-\d{2}-\d{2}")


def _norm(s: str) -> str:
    return " ".join(s.split())


def _shape(s: str) -> str:
    return re.sub(r"\d+", "#", _norm(s))


def find_furniture(raw: str) -> dict[str, Counter]:
    """kind -> Counter of furniture strings (whitespace collapsed) printed in the source."""
    text = raw.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    stripped = [ln.strip() for ln in lines]
    shapes = Counter(_shape(s) for s in stripped if s)
    letters_only = Counter(re.sub(r"[\d\s]+", "", s) for s in stripped if s)
    out: dict[str, Counter] = {k: Counter() for k in ("print header", "page of total", "supplement footer",
                                                       "created stamp", "running header")}
    footer_at: list[int] = []
    for i, s in enumerate(stripped):
        if not s:
            continue
        if PRINT_HEADER.match(s) and shapes[_shape(s)] >= 3:
            out["print header"][_norm(s)] += 1
            footer_at.append(i)
        elif PAGE_OF.match(s) and shapes[_shape(s)] >= 3:
            out["page of total"][_norm(s)] += 1
            footer_at.append(i)
        elif CREATED.match(s):
            out["created stamp"][_norm(s)] += 1
            footer_at.append(i)
        elif "\t" in lines[i] and SUPP_FOOTER.match(lines[i].strip(" ")) and (
                "Supp" in s or re.fullmatch(r"\d{1,5}(?:\.\d{1,3})?", s)):
            out["supplement footer"][_norm(s)] += 1
            footer_at.append(i)
    for i in footer_at:
        for j in range(i + 1, min(len(lines), i + 12)):
            s = stripped[j]
            if not s:
                continue
            letters = re.sub(r"[^A-Za-z]", "", s)
            if j - 1 in footer_at or any(j == k for k in footer_at):
                continue
            if (letters and letters.isupper() and "\t" in lines[j] and not re.search(r"[.:;]$", s)
                    and letters_only[re.sub(r"[\d\s]+", "", s)] >= 3):
                out["running header"][_norm(s)] += 1
            break
    return {k: v for k, v in out.items() if v}


def reader_strings(path: Path) -> list[str]:
    """Every passage text, note, caption and heading path the reader makes of the file."""
    from assistant.parsing import read_code
    from assistant.parsing.reader import read_structure, to_sections
    from assistant.parsing.whole_code import part_layout

    data = path.read_bytes()
    lt, split = read_code(data, "auto", path.name)
    layouts = [(p.key, part_layout(lt, p)) for p in split.parts] if split else [("1", lt)]
    out: list[str] = []
    for key, part in layouts:
        st = read_structure(part)
        sections, _, _ = to_sections(st, "x", key, "x")
        for s in sections:
            out.append(s.title or "")
            out += s.notes
            for p in s.passages:
                out.append(p.text)
                out += p.notes
                out += [h or "" for h in p.heading_path]
    return [_norm(x) for x in out if x]


def count(path: Path) -> dict:
    raw = path.read_bytes().decode("utf-8-sig", errors="replace")
    furniture = find_furniture(raw)
    blob = "\n".join(reader_strings(path))
    row: dict = {"file": path.name, "printed": {}, "in_passages": {}}
    for kind, strings in furniture.items():
        row["printed"][kind] = sum(strings.values())
        n = 0
        for s in strings:
            if kind == "page of total" or kind == "supplement footer" and re.fullmatch(r"[\d.]+", s):
                n += len(re.findall(rf"(?<![\w/.]){re.escape(s)}(?![\w/]|\.\d)", blob))
            else:
                n += blob.count(s)
        row["in_passages"][kind] = n
    return row


def default_files() -> list[Path]:
    scale = sorted((ROOT.parent / "shared" / "corpus-scale").glob("*.txt"))
    samples = sorted(p for p in (ROOT.parent / "shared" / "corpus-samples").glob("*/text.*"))
    return scale + samples


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="*", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    files: list[Path] = []
    for p in args.paths or default_files():
        files += sorted(x for x in p.iterdir() if x.name.startswith("text.") or x.suffix == ".txt") if p.is_dir() else [p]
    rows = []
    for f in files:
        row = count(f)
        row["file"] = f.name if f.parent.name == "corpus-scale" else f"{f.parent.name}/{f.name}"
        rows.append(row)
        if not args.json:
            printed = sum(row["printed"].values())
            left = sum(row["in_passages"].values())
            detail = "; ".join(f"{k} {row['printed'][k]} printed / {row['in_passages'][k]} in passages"
                               for k in row["printed"])
            print(f"{row['file']:<40} printed {printed:>4}  in passages {left:>4}  {detail}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"total: printed {sum(sum(r['printed'].values()) for r in rows)}, "
              f"in passages {sum(sum(r['in_passages'].values()) for r in rows)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
