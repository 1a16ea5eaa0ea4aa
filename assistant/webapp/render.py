"""Pure rendering for the web app: answers to chat messages, hits to HTML, outlines.

Nothing here imports gradio. Text from the corpus (and from answers, which quote it) is
escaped before it is placed in HTML or Markdown, so a document cannot inject markup or
script; the only tags we emit are our own.
"""

from __future__ import annotations

import html
import re
from typing import Any, Iterable

from assistant.types import Answer, Citation, Passage, Section

# Markdown punctuation that could turn quoted text into links, images, emphasis, code or tables.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]#|~])")


def escape_html(text: str) -> str:
    return html.escape(text or "", quote=True)


def _neutralise_tags(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_markdown(text: str) -> str:
    """Corpus text for a Markdown surface: Markdown punctuation backslash-escaped, then
    ``& < >`` turned into entities so no tag can open (in that order, so that no escape
    lands inside an entity)."""
    return _neutralise_tags(_MD_SPECIAL.sub(r"\\\1", text or ""))


def safe_markdown(text: str) -> str:
    """Our own Markdown (answers, checklists): keep the formatting (blockquotes included),
    but no HTML tag can open."""
    return (text or "").replace("<", "&lt;")


# ----------------------------------------------------------------------------- chat


def citation_fields(c: Citation) -> str:
    parts = [f"Section {c.section}" if c.section else f"Section: {c.title}"]
    if c.section:
        parts.append(c.title)
    parts.append(f"subsection {c.subsection}" if c.subsection else "subsection: none")
    parts.append(f"page {c.page}" if c.page is not None else "page: none (no pages in this text)")
    return " · ".join(parts)


def section_ref(c: Citation | Passage) -> str:
    """The reference a section link carries: '404-7H', '8.01(4)', or a title and its path
    for text without section numbers; ``retrieval.citations.parse_citation`` reads it back."""
    sub = c.subsection or ""
    if c.section:
        return f"{c.section}{sub}"
    return f"{c.title} {sub}".strip()


def section_link(c: Citation | Passage) -> str:
    """A page-relative URL that opens the cited section in the Look up tab
    (``?section=404-7H&m=brandon``); the page also opens it when loaded with it."""
    from urllib.parse import quote, urlencode

    return "?" + urlencode({"section": section_ref(c), "m": c.municipality}, quote_via=quote)


def _provision_key(c: Citation) -> tuple:
    return (c.municipality, c.chapter, c.section, c.title, c.subsection, c.page)


def group_citations(citations: Iterable[Citation]) -> list[list[Citation]]:
    """Citations of one provision together, in the order each provision is first cited;
    a quote repeated word for word is kept once."""
    groups: dict[tuple, list[Citation]] = {}
    for c in citations:
        group = groups.setdefault(_provision_key(c), [])
        if all(g.quote.strip() != c.quote.strip() for g in group):
            group.append(c)
    return list(groups.values())


def citation_message(group: Citation | list[Citation]) -> dict[str, Any]:
    """One collapsible box per cited provision: the title is the citation, the body its
    fields, every sentence quoted from it (verbatim), and a link that opens the section."""
    cites = [group] if isinstance(group, Citation) else list(group)
    c = cites[0]
    quotes = []
    for one in cites:
        lines = [line for line in (one.quote or "").splitlines() if line.strip()]
        quotes.append("\n".join("> " + escape_markdown(line) for line in lines) or "> (no quote)")
    where = f"§ {c.section}{c.subsection or ''}" if c.section else c.title
    link = f"[Open {escape_markdown(where)} in the Look up tab]({section_link(c)})"
    body = f"{escape_markdown(citation_fields(c))}\n\n" + "\n\n".join(quotes) + f"\n\n{link}"
    title = "Source: " + c.label()
    if len(cites) > 1:
        title += f" — {len(cites)} quotes"
    return {
        "role": "assistant",
        "content": body,
        "metadata": {"title": title, "status": "done"},
    }


def _value_lines(result: dict[str, Any]) -> list[str]:
    skip = {"tool", "ok", "error", "explanation", "citations", "assumptions", "convention", "skipped"}
    lines = []
    for key, value in result.items():
        if key in skip or value in (None, "", [], {}):
            continue
        if isinstance(value, (dict, list)):
            continue
        lines.append(f"- **{escape_markdown(key.replace('_', ' '))}**: {escape_markdown(str(value))}")
    return lines[:12]


def tool_message(call: Any) -> dict[str, Any]:
    """A calculator the answer used: its name, values, explanation and assumptions."""
    name = getattr(call, "name", None) or call.get("name", "calculator")
    result = getattr(call, "result", None)
    if result is None and isinstance(call, dict):
        result = call.get("result", {})
    result = result or {}
    parts = [f"Calculator **{escape_markdown(name)}**"]
    if result.get("ok") is False and result.get("error"):
        parts.append("Could not compute: " + escape_markdown(str(result["error"])))
    parts += _value_lines(result)
    if result.get("explanation"):
        parts.append("\n" + escape_markdown(str(result["explanation"])))
    if result.get("convention"):
        parts.append("\n*Time counted:* " + escape_markdown(str(result["convention"])))
    for a in result.get("assumptions") or []:
        parts.append("- *Assumption:* " + escape_markdown(str(a)))
    return {
        "role": "assistant",
        "content": "\n".join(parts),
        "metadata": {"title": f"Calculator: {name}", "status": "done"},
    }


def municipality_name(mid: str | None) -> str | None:
    if not mid:
        return None
    from assistant.corpus import municipality_by_id

    m = municipality_by_id(mid)
    return m.name if m else mid


def answer_messages(answer: Answer) -> list[dict[str, Any]]:
    """The assistant's turn: the answer, then calculators, notes and one box per citation."""
    text = safe_markdown(answer.answer.strip()) or "(no answer)"
    footer = [f"*Answered by the {escape_markdown(answer.backend)} backend"]
    name = municipality_name(answer.municipality)
    if name:
        footer.append(f" · {escape_markdown(name)}")
    footer.append("*")
    msgs: list[dict[str, Any]] = [{"role": "assistant", "content": text + "\n\n" + "".join(footer)}]
    for call in answer.tool_calls:
        msgs.append(tool_message(call))
    if answer.notes:
        msgs.append(
            {
                "role": "assistant",
                "content": "\n".join("- " + escape_markdown(n) for n in answer.notes),
                "metadata": {"title": "Notes on the text", "status": "done"},
            }
        )
    for group in group_citations(answer.citations):
        msgs.append(citation_message(group))
    return msgs


_MD_MARKS = re.compile(r"(?<!\\)[*_`#>]")


def plain_text(markdown: str) -> str:
    """Our Markdown as plain words for a screen reader's announcement."""
    text = html.unescape(_MD_MARKS.sub("", markdown or ""))
    text = re.sub(r"\\([\\`*_\[\]#|~])", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def answer_announcement(messages: list[dict[str, Any]]) -> str:
    """What the live region says after an answer: its words and how many sources it cites."""
    last_user = max((i for i, m in enumerate(messages or []) if m.get("role") == "user"), default=-1)
    turn = list(messages or [])[last_user + 1:]
    main = [m for m in turn if m.get("role") == "assistant" and not (m.get("metadata") or {}).get("title")]
    if not main:
        return ""
    words = plain_text(_FOOTER.sub("", message_text(main[0])))
    n = sum(1 for m in turn if str((m.get("metadata") or {}).get("title") or "").startswith("Source: "))
    tail = f" {n} source{'s' if n != 1 else ''} below the answer." if n else ""
    return f"Answer: {words}{tail}"


def checklist_preview(markdown: str) -> str:
    """The checklist's Markdown for the page: its task boxes ('- [ ] ') become a plain
    ballot box, as a disabled checkbox without a label is an unlabelled form control."""
    def box(m: re.Match) -> str:
        return m.group(1) + (" ☐ " if m.group(2) == " " else " ☑ ")

    return safe_markdown(re.sub(r"(?m)^(\s*[-*]) \[( |x|X)\] ", box, markdown or ""))


def message_text(message: dict[str, Any]) -> str:
    """The text of a chatbot message whether its content is a string or a list of parts."""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    if isinstance(content, dict):
        return str(content.get("text", ""))
    return ""


_FOOTER = re.compile(r"\n\n\*Answered by the .*\*\s*$", re.S)


def history_turns(messages: Iterable[dict[str, Any]], max_turns: int) -> list[dict[str, str]]:
    """Chatbot messages -> [{'role', 'content'}] for ChatTurn: the boxes (sources,
    calculators) are left out, and only the last ``max_turns`` turns are kept."""
    turns = []
    for m in messages or []:
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            continue
        if (m.get("metadata") or {}).get("title"):
            continue
        text = _FOOTER.sub("", message_text(m)).strip()
        if text:
            text = re.sub(r"\\([\\`*_\[\]#|~])", r"\1", html.unescape(text))
            turns.append({"role": m["role"], "content": text})
    return turns[-max_turns:] if max_turns > 0 else []


# ----------------------------------------------------------------------------- look up


def highlight(text: str, terms: Iterable[str]) -> str:
    """Escape ``text`` and wrap each whole-word occurrence of ``terms`` in <mark>.

    Matches are found on the raw text and every piece is escaped on its own, so a term
    can never match inside an entity such as ``&amp;``."""
    words = sorted({t for t in terms if t and t.strip()}, key=len, reverse=True)
    if not words:
        return escape_html(text)
    pattern = re.compile(
        r"(?<![\w])(" + "|".join(re.escape(w) for w in words) + r")(?![\w])", re.IGNORECASE
    )
    out, pos = [], 0
    for m in pattern.finditer(text):
        out.append(escape_html(text[pos : m.start()]))
        out.append("<mark>" + escape_html(m.group(0)) + "</mark>")
        pos = m.end()
    out.append(escape_html(text[pos:]))
    return "".join(out)


def passage_label(p: Passage) -> str:
    return p.citation(quote="").label()


def hits_html(hits: list[Any]) -> str:
    if not hits:
        return "<p class='oa-empty'>No passage matched. Try other words or the other municipality.</p>"
    rows = []
    for rank, hit in enumerate(hits, 1):
        p: Passage = hit.passage
        label = escape_html(passage_label(p))
        heading = f"<em>{escape_html(p.heading)}</em> — " if p.heading else ""
        rows.append(
            "<div class='oa-hit'>"
            f"<div class='oa-hit-head'><span class='oa-rank'>{rank}.</span> <strong>{label}</strong> "
            f"<span class='oa-score'>score {hit.score:.3f}</span></div>"
            f"<div class='oa-hit-text'>{heading}{highlight(p.text, hit.matched_terms)}</div>"
            f"{_problems_html(p)}</div>"
        )
    return "<div class='oa-hits'>" + "".join(rows) + "</div>"


def section_html(title: str, passages: list[Passage], cited: Iterable[str] = (), link: str | None = None) -> str:
    """A section's passages under its title; ``cited`` passage ids are marked, ``link`` (a
    page-relative section URL) is offered for sharing."""
    if not passages:
        return "<p class='oa-empty'>Nothing found for that reference.</p>"
    cited = set(cited)
    head = escape_html(title)
    body = []
    for p in passages:
        sub = f"<span class='oa-sub'>{escape_html(p.subsection)}</span> " if p.subsection else ""
        page = f" <span class='oa-page'>(p. {p.page})</span>" if p.page is not None else ""
        if p.id in cited:
            body.append(f"<div class='oa-cited'><span class='oa-cited-tag'>Cited:</span> "
                        f"<p>{sub}{escape_html(p.text)}{page}</p>{_problems_html(p)}</div>")
        else:
            body.append(f"<p>{sub}{escape_html(p.text)}{page}</p>{_problems_html(p)}")
    share = (f"<p><a class='oa-link' href='{escape_html(link)}'>Link to this section</a> "
             "(copy it to share)</p>") if link else ""
    return f"<div class='oa-section'><h3>{head}</h3>{''.join(body)}{share}</div>"


def _problems_html(p: Passage) -> str:
    """Known problems of the text at this passage (the manifest's ``known_problems``)."""
    from assistant.corpus import known_problems_of

    notes = known_problems_of(p)
    if not notes:
        return ""
    return "".join(f"<div class='oa-problem'>⚠ {escape_html(n)}</div>" for n in notes)


def section_title_for_passage(p: Passage) -> str:
    from assistant.types import format_citation

    return format_citation(p.municipality, p.section, p.title, None, p.page)


def section_title(s: Section) -> str:
    from assistant.types import format_citation

    return format_citation(s.municipality, s.section, s.title, None, s.page)


def outline_html(sections: list[Section]) -> str:
    items = []
    for s in sections:
        num = f"§ {escape_html(s.section)} " if s.section else ""
        untitled = " <em>(no heading in the text)</em>" if s.untitled else ""
        page = f" <span class='oa-page'>p. {s.page}</span>" if s.page is not None else ""
        subs = []
        for p in s.passages:
            if not (p.subsection or p.heading):
                continue
            sp = f" <span class='oa-page'>p. {p.page}</span>" if p.page is not None else ""
            subs.append(
                f"<li>{escape_html(p.subsection or '')} {escape_html(p.heading or _first_words(p.text))}{sp}</li>"
            )
        sub_html = f"<ul>{''.join(subs)}</ul>" if subs else ""
        items.append(f"<li><strong>{num}{escape_html(s.title)}</strong>{untitled}{page}{sub_html}</li>")
    return "<ul class='oa-outline'>" + "".join(items) + "</ul>"


def _first_words(text: str, n: int = 8) -> str:
    words = text.split()
    return " ".join(words[:n]) + ("…" if len(words) > n else "")


def _static(name: str) -> str:
    from pathlib import Path

    return (Path(__file__).resolve().parent / "static" / name).read_text(encoding="utf-8")


CSS = _static("app.css")
SCRIPT = _static("a11y.js")
HEAD_CSS = _static("page-head.css")
