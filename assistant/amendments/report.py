"""The clerk's report of an amendment (Markdown): the diff, then what it touches."""

from __future__ import annotations

from typing import Callable

from assistant.amendments.diff import ChapterDiff
from assistant.amendments.provisions import ProvisionImpact

def _mark(figs: list[str]) -> str:
    return ", ".join(f"**{f}**" for f in figs)


def report_markdown(diff: ChapterDiff, impacts: list[ProvisionImpact], escape: Callable[[str], str] = str) -> str:
    """The clerk's report: the diff, then what it touches. ``escape`` guards text from the file."""
    e = escape
    lines = [f"### Changes: {diff.sections_before} sections before, {diff.sections_after} after, "
             f"{diff.unchanged} unchanged"]
    if not diff.changes:
        lines.append("No section changed.")
    for c in diff.changes:
        if c.kind == "added":
            lines.append(f"- **Added** {e(c.label)}" + (f" — figures {_mark(list(map(e, c.figures_added)))}"
                                                         if c.figures_added else ""))
        elif c.kind == "removed":
            lines.append(f"- **Removed** {e(c.label)}")
        else:
            head = f"- **Changed** {e(c.label)}"
            if c.old_title and c.old_title != c.new_title:
                head += f" (was {e(c.old_title)})"
            if c.figures_removed or c.figures_added:
                head += (f" — figures {_mark(list(map(e, c.figures_removed))) or 'none'} → "
                         f"{_mark(list(map(e, c.figures_added))) or 'none'}")
            lines.append(head)
            for p in c.passages:
                if p.kind == "renumbered":
                    lines.append(f"  - {e(p.old_label or '')} renumbered {e(p.new_label or '')} (same text)")
                elif p.kind == "changed":
                    where = e(p.new_label or "") + (f" (was {e(p.old_label or '')})" if p.old_label != p.new_label
                                                    else "")
                    fig = (f": {_mark(list(map(e, p.figures_removed))) or 'no figure'} → "
                           f"{_mark(list(map(e, p.figures_added))) or 'no figure'}"
                           if p.figures_removed or p.figures_added else ": wording changed")
                    lines.append(f"  - {where}{fig}")
                else:
                    lines.append(f"  - {p.kind} {e(p.old_label or p.new_label or '')}")
    hit = [i for i in impacts if i.status != "unchanged"]
    lines.append("")
    lines.append(f"### Calculators and checklist items affected: {len(hit)} of {len(impacts)} provisions")
    if not hit:
        lines.append("None: every provision they quote reads the same.")
    for i in hit:
        users = ", ".join(i.provision.users) or "(no calculator)"
        what = "no longer in the text" if i.status == "gone" else "its paragraph changed"
        now = f"; now closest: {e(i.new_label)}" if i.status == "gone" and i.new_label else ""
        lines.append(f"- {e(users)}: “{e(i.provision.quote[:90])}{'…' if len(i.provision.quote) > 90 else ''}” "
                     f"— {what}{now}")
    if hit:
        lines.append("")
        lines.append("Until their rule data (assistant/tools/data/*.yaml) is updated, these calculators answer "
                     "that the rule changed and cite the new text; they compute no figure.")
    return "\n".join(lines)
