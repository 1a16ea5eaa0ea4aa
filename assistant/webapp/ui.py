"""The gradio app: Ask, Look up, Contractor checklist (and Staff, when configured).

``build_app(assistant=None) -> gr.Blocks`` does no heavy work: with no assistant it
starts loading the real one in a background thread and the page shows the progress.
Every handler catches its own errors and shows a friendly message (the traceback goes
to the server log only); corpus text is always escaped; the queue bounds concurrency
and length, so a burst beyond it is told "busy, try again" by gradio itself.
"""

from __future__ import annotations

import logging
import os
import re
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

import gradio as gr

from assistant.settings import Settings, get_settings
from assistant.webapp import render
from assistant.webapp.loader import AssistantLoader, NotReady
from assistant.webapp.log_limits import bound_log_records
from assistant.webapp.login_guard import GRANT_COOKIE, UploadGrants
from assistant.webapp.request_gate import with_request_gate
from assistant.webapp.staff import (
    Validation,
    client_address,
    login_guard_for,
    replace_chapter,
    sign_in,
    staff_enabled,
    validate_chapter_pdf,
)

log = logging.getLogger("assistant.webapp")

SORRY = "Sorry — something went wrong on our side. Please try again, or rephrase."

def _examples() -> list[str]:
    """Example questions, from each manifest entry's ``example_questions``."""
    from assistant.corpus import municipalities

    return [q for m in municipalities() for q in m.example_questions]


def _app_title() -> str:
    from assistant.corpus import municipalities

    return "Municipal Code Assistant — " + " & ".join(m.short_name or m.name for m in municipalities())


def _app_header() -> str:
    from assistant.corpus import municipalities

    chapters = " · ".join(f"{m.name}, {m.state} — Code ch. {m.chapter} *{m.chapter_title}*" for m in municipalities())
    return f"# Municipal Code Assistant\n{chapters}. Answers quote the code; they are not legal advice."

# Contrast is set here, once, for every widget (WCAG 2.1 AA: 4.5:1 for text, 3:1 for large
# text and controls), in light and dark mode: the default orange buttons (2.8:1 with white)
# and the pale grey hints (#bbbbc2, 1.9:1) failed. Blue 700 with white is 6.7:1; zinc 600
# on white is 7.7:1; zinc 300 on zinc 950 (dark) is 13:1.
THEME = gr.themes.Default(
    primary_hue=gr.themes.colors.blue,
    secondary_hue=gr.themes.colors.blue,
    neutral_hue=gr.themes.colors.zinc,
    font=["ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "sans-serif"],
    font_mono=["ui-monospace", "SFMono-Regular", "Menlo", "monospace"],
).set(
    body_text_color_subdued="*neutral_600",
    body_text_color_subdued_dark="*neutral_300",
    block_info_text_color="*neutral_600",
    block_info_text_color_dark="*neutral_300",
    block_label_text_color="*neutral_700",
    block_label_text_color_dark="*neutral_200",
    block_title_text_color="*neutral_800",
    block_title_text_color_dark="*neutral_100",
    input_placeholder_color="*neutral_500",
    input_placeholder_color_dark="*neutral_400",
    color_accent="*primary_700",
    color_accent_soft="*primary_50",
    color_accent_soft_dark="*neutral_700",
    border_color_accent="*primary_700",
    border_color_accent_dark="*primary_400",
    link_text_color="*primary_700",
    link_text_color_dark="*primary_300",
    link_text_color_visited="*primary_800",
    link_text_color_visited_dark="*primary_200",
    link_text_color_hover="*primary_800",
    link_text_color_hover_dark="*primary_200",
    link_text_color_active="*primary_800",
    link_text_color_active_dark="*primary_200",
    button_primary_background_fill="*primary_700",
    button_primary_background_fill_hover="*primary_800",
    button_primary_background_fill_dark="*primary_600",
    button_primary_background_fill_hover_dark="*primary_700",
    button_primary_text_color="white",
    button_primary_text_color_dark="white",
    checkbox_background_color_selected="*primary_700",
    checkbox_border_color_selected="*primary_700",
    checkbox_label_text_color_selected="*neutral_900",
    checkbox_label_text_color_selected_dark="*neutral_50",
    slider_color="*primary_700",
)

PAGE_HEAD = ('<meta name="viewport" content="width=device-width, initial-scale=1">'
             f"<style>{render.HEAD_CSS}</style><script>{render.SCRIPT}</script>")


class OrdinanceApp(gr.Blocks):
    """gr.Blocks whose launch() defaults to our theme, CSS, upload limit and no tracebacks."""

    settings: Settings
    loader: AssistantLoader
    upload_grants: UploadGrants | None = None

    def launch(self, *args: Any, **kwargs: Any):  # type: ignore[override]
        kwargs.setdefault("theme", THEME)
        kwargs.setdefault("css", render.CSS)
        kwargs.setdefault("head", PAGE_HEAD)
        kwargs.setdefault("show_error", False)
        # uploads exist only for the staff's chapter PDF: without a staff area, refuse them all
        kwargs.setdefault("max_file_size", self.settings.max_upload_bytes if staff_enabled(self.settings) else 1024)
        kwargs.setdefault("footer_links", ["api"])
        kwargs.setdefault("share", False)
        kwargs.setdefault("quiet", True)
        kwargs.setdefault("ssr_mode", False)
        # uploads only with a signed-in staff session's grant; every other body bounded
        kwargs["app_kwargs"] = with_request_gate(kwargs.get("app_kwargs"), self.upload_grants,
                                                 self.settings.max_upload_bytes, self.settings.max_request_bytes)
        return super().launch(*args, **kwargs)


# ----------------------------------------------------------------------------- helpers


def _municipality_choices(with_any: str) -> list[tuple[str, str]]:
    from assistant.corpus import municipalities

    ms = municipalities()
    shared = {m.name for m in ms if sum(x.name == m.name for x in ms) > 1}
    return [(with_any, "auto")] + [(m.display_name if m.name in shared else m.name, m.id) for m in ms]


def _first_municipality() -> str | None:
    """The first manifest entry's id: the default of the municipality pickers."""
    choices = _municipality_choices("")[1:]
    return choices[0][1] if choices else None


def _mid(value: str | None) -> str | None:
    return None if not value or value in ("auto", "all") else value


def _error_html(text: str) -> str:
    return f"<p class='oa-error'>{render.escape_html(text)}</p>"


def _left_out_html(status: dict[str, Any]) -> str:
    items = status.get("left_out") or []
    if not items:
        return ""
    lis = "".join(f"<li>{render.escape_html(x)}</li>" for x in items)
    return f"<div class='oa-left-out' id='oa-left-out'><strong>Left out (cannot be read):</strong><ul>{lis}</ul></div>"


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _status_html(status: dict[str, Any]) -> str:
    if status["ready"]:  # the mark tells scripts (and tests) the state is known
        return "<span class='oa-ready' hidden></span>" + _left_out_html(status)
    if status["error"]:
        return _error_html(f"The assistant could not start: {status['error']}")
    pct = int(status["fraction"] * 100)
    msg = render.escape_html(status["message"])
    return (
        "<div class='oa-loading' id='oa-loading'>"
        f"<strong>Preparing the assistant</strong> (the search index is built on first start) — {pct}%"
        f"<br><progress max='100' value='{pct}' style='width:100%' "
        "aria-label='Preparing the assistant'></progress>"
        f"<br><small>{msg} · {status['elapsed_s']} s</small></div>"
    )


def _checklist_dir() -> Path:
    d = Path(tempfile.gettempdir()) / "ordinance-assistant-checklists"
    d.mkdir(parents=True, exist_ok=True)
    cutoff = time.time() - 3600
    for f in d.iterdir():  # bounded housekeeping: files older than an hour
        try:
            if f.is_file() and f.stat().st_mtime < cutoff:
                f.unlink()
        except OSError:
            pass
    return d


FIELD_LABELS = {
    "final_paving_date": "Date of final paving", "start_date": "Start date", "duration_days": "Duration",
    "municipality": "Municipality", "work": "Kind of work", "location": "Location", "pavement": "Pavement",
    "insurance.per_person": "Bodily injury, each person", "insurance.per_accident": "Bodily injury, each accident",
    "insurance.property_damage": "Property damage", "insurance.expires": "Certificate expires",
    "insurance.indemnity_bond": "Indemnity bond", "permit_fee": "Permit fee", "vehicle_weight_tons": "Vehicle weight",
    "lane_closures": "Lane closures",
}


def _labelled(text: str) -> str:
    for name, label in sorted(FIELD_LABELS.items(), key=lambda kv: -len(kv[0])):
        text = re.sub(rf"\b{re.escape(name)}\b", label, text)
    return text


def _pydantic_message(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        parts = []
        for e in errors()[:8]:
            loc = ".".join(str(x) for x in e.get("loc", ()) if x != "__root__")
            msg = str(e.get("msg", "")).removeprefix("Value error, ")
            parts.append(f"{loc}: {msg}" if loc else msg)
        return _labelled("; ".join(parts))
    return str(exc).splitlines()[0] if str(exc).strip() else type(exc).__name__


def _parse_date(label: str, value: Any) -> str | None:
    if value in (None, ""):
        return None
    if isinstance(value, (int, float)):  # gr.DateTime may give a timestamp
        return date.fromtimestamp(value).isoformat()
    text = str(value).strip()[:10]
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise ValueError(f"{label}: write the date as YYYY-MM-DD")
    return text


def _money(value: Any) -> Any:
    return None if value in (None, "") else value


# ----------------------------------------------------------------------------- app


def build_app(
    assistant: Any | None = None,
    *,
    settings: Settings | None = None,
    loader: AssistantLoader | None = None,
) -> gr.Blocks:
    """The web app. ``assistant``: an object with ask/search/show/reindex (a fake in
    tests); None loads the real Assistant in the background when the app is built."""
    settings = settings or get_settings()
    if loader is None:
        loader = AssistantLoader(assistant=assistant)
        if assistant is None:
            loader.start()
    staff_on = staff_enabled(settings)
    bound_log_records("assistant", "assistant.webapp", "assistant.guards")

    with OrdinanceApp(title=_app_title(), analytics_enabled=False,
                      delete_cache=(3600, 3600)) as demo:
        demo.settings = settings
        demo.loader = loader
        demo.upload_grants = UploadGrants() if staff_on else None
        gr.Markdown(_app_header(), elem_id="oa-header")
        # The banner starts empty and the page asks the loader for its state as it loads
        # (demo.load below): the config is built once, so a value computed here would show a
        # start-up state ("Preparing … 1%") to every later visitor for a moment.
        status = gr.HTML("", elem_id="oa-status")
        timer = gr.Timer(1.0, active=True)

        def poll_status():
            s = loader.status()
            return _status_html(s), gr.Timer(active=not (s["ready"] or s["error"]))

        timer.tick(poll_status, None, [status, timer], api_name="status", concurrency_limit=None,
                   show_progress="hidden", queue=False)
        # what a screen reader announces: each answer, the number of results, an opened section
        announce = gr.HTML("", elem_id="oa-announce", elem_classes=["oa-sr-only"], padding=False)
        # a section link clicked in the page (a source box's "Open … in the Look up tab"): the
        # page script writes the link's query here (outside the tabs, which mount lazily)
        goto = gr.Textbox(visible="hidden", elem_id="oa-goto", label="Section link")

        with gr.Tabs(elem_id="oa-tabs") as tabs:
            # ------------------------------------------------------------ Ask
            with gr.Tab("Ask", id="ask"):
                with gr.Row(equal_height=False):
                    # min_width: on a phone the box takes the whole row (it was clipped to
                    # "Detect from m…" beside the note)
                    ask_muni = gr.Dropdown(
                        _municipality_choices("Detect from my question"), value="auto",
                        label="Municipality", scale=1, min_width=300, elem_id="oa-ask-muni",
                    )
                    with gr.Column(scale=2, min_width=240):
                        detected = gr.Markdown("", elem_id="oa-detected", elem_classes=["oa-live"])
                # the height follows the viewport (app.css), so the question box stays in view
                chatbot = gr.Chatbot(label="Conversation", elem_id="oa-chat", autoscroll=False,
                                     buttons=["copy"], feedback_options=None, latex_delimiters=[],
                                     placeholder="Ask a question below; answers quote the code.")
                with gr.Row(equal_height=False):
                    # one line that grows: Enter sends, Shift+Enter starts a new line
                    question = gr.Textbox(
                        label="Your question", placeholder="Ask about streets, sidewalks, permits, fees…",
                        lines=1, max_lines=6, max_length=settings.max_question_chars, scale=5, min_width=200,
                        elem_id="oa-question",
                        info=f"Enter sends; Shift+Enter starts a new line. Up to {settings.max_question_chars} "
                             "characters.",
                    )
                    ask_btn = gr.Button("Ask", variant="primary", scale=1, min_width=72, elem_id="oa-ask")
                clear_btn = gr.Button("New conversation", size="sm", elem_id="oa-clear")
                gr.Examples(_examples(), inputs=[question], label="Example questions (pick one, then Ask)")

                def ask(question_text: str, municipality: str, history: list[dict] | None):
                    history = list(history or [])
                    q = (question_text or "").strip()
                    if not q:
                        return history, "", gr.update()
                    if len(q) > settings.max_question_chars:
                        history += [
                            {"role": "user", "content": render.escape_markdown(q[:200]) + "…"},
                            {"role": "assistant", "content": (
                                f"Your question is {len(q):,} characters long; the limit is "
                                f"{settings.max_question_chars:,}. Please shorten it and ask again.")},
                        ]
                        return history, question_text, gr.update()
                    turns = render.history_turns(history, settings.max_history_turns * 2)
                    history.append({"role": "user", "content": render.escape_markdown(q)})
                    try:
                        from assistant.types import ChatTurn

                        a = loader.get()
                        answer = a.ask(q, municipality=_mid(municipality),
                                       history=[ChatTurn(**t) for t in turns])
                    except NotReady as exc:
                        history.append({"role": "assistant", "content": str(exc)})
                        return history, question_text, gr.update()
                    except Exception:
                        log.exception("ask failed")
                        history.append({"role": "assistant", "content": SORRY})
                        return history, question_text, gr.update()
                    history += render.answer_messages(answer)
                    name = render.municipality_name(answer.municipality)
                    if not name:
                        note = ""
                    elif _mid(municipality):
                        note = f"Answering for **{render.escape_markdown(name)}** (your choice)."
                    else:
                        note = (f"Answered for **{render.escape_markdown(name)}** — detected from your "
                                "question. Pick another municipality above to change it.")
                    return history, "", note

                ask_inputs = [question, ask_muni, chatbot]
                ask_outputs = [chatbot, question, detected]
                def announce_answer(history: list[dict] | None) -> str:
                    return _announce(render.answer_announcement(history or []))

                for event in (ask_btn.click(ask, ask_inputs, ask_outputs, api_name="ask"),
                              question.submit(ask, ask_inputs, ask_outputs, api_name=False)):
                    event.then(announce_answer, chatbot, announce, api_name=False, queue=False,
                               show_progress="hidden", js=None).then(
                        None, None, None, js="() => window.oaShowLastAnswer && window.oaShowLastAnswer()",
                        api_name=False, queue=False)
                clear_btn.click(lambda: ([], "", "", _announce("New conversation started.")), None,
                                [chatbot, question, detected, announce], api_name=False, queue=False)

            # ------------------------------------------------------------ Look up
            with gr.Tab("Look up", id="lookup"):
                with gr.Row():
                    lookup_q = gr.Textbox(label="Search the code", placeholder="e.g. backfill compaction",
                                          scale=4, max_length=settings.max_question_chars,
                                          min_width=240, elem_id="oa-lookup-q")
                    lookup_muni = gr.Dropdown(_municipality_choices("Both"), value="auto",
                                              label="Municipality", scale=1, min_width=200, elem_id="oa-lookup-muni")
                    lookup_btn = gr.Button("Search", variant="primary", scale=1, min_width=120, elem_id="oa-lookup-go")
                lookup_results = gr.HTML(elem_id="oa-lookup-results")
                hits_state = gr.State([])
                with gr.Row():
                    pick = gr.Dropdown(label="Result", choices=[], interactive=True, scale=2,
                                       min_width=240, elem_id="oa-pick")
                    citation_box = gr.Textbox(label="Citation (copy it)", interactive=False,
                                              buttons=["copy"], scale=3, min_width=240, elem_id="oa-citation")
                    open_btn = gr.Button("Open the whole section", scale=1, min_width=200, elem_id="oa-open")
                with gr.Accordion("Open a citation (e.g. § 404-7H, 8.01(4), or a title)", open=False):
                    with gr.Row():
                        ref_box = gr.Textbox(label="Citation or title", scale=4, max_length=200,
                                             min_width=240, elem_id="oa-ref")
                        ref_btn = gr.Button("Open", scale=1, min_width=120, elem_id="oa-ref-go")
                section_view = gr.HTML(elem_id="oa-section")
                with gr.Accordion("Browse each chapter's outline", open=False):
                    outline_muni = gr.Radio(_municipality_choices("")[1:], label="Chapter",
                                            elem_id="oa-outline-muni")
                    outline_view = gr.HTML(elem_id="oa-outline")
                    with gr.Row():
                        outline_pick = gr.Dropdown(label="Section", choices=[], scale=4,
                                                   min_width=240, elem_id="oa-outline-pick")
                        outline_open = gr.Button("Open section", scale=1, min_width=160, elem_id="oa-outline-open")

                def lookup(query: str, municipality: str):
                    q = (query or "").strip()
                    empty = gr.update(choices=[], value=None)
                    if not q:
                        return "<p>Type some words to search for.</p>", empty, "", []
                    if len(q) > settings.max_question_chars:
                        return _error_html("That search is too long; please shorten it."), empty, "", []
                    try:
                        a = loader.get()
                        k = min(10, settings.max_top_k)
                        hits = a.search(q, municipality=_mid(municipality), k=k)
                    except NotReady as exc:
                        return _error_html(str(exc)), empty, "", []
                    except Exception:
                        log.exception("lookup failed")
                        return _error_html(SORRY), empty, "", []
                    stored = [h.passage.model_dump(mode="json") for h in hits]
                    labels = [(f"{i}. {render.passage_label(h.passage)}", str(i - 1))
                              for i, h in enumerate(hits, 1)]
                    first_label = render.passage_label(hits[0].passage) if hits else ""
                    return (render.hits_html(hits),
                            gr.update(choices=labels, value=labels[0][1] if labels else None),
                            first_label, stored)

                lookup_io = dict(inputs=[lookup_q, lookup_muni],
                                 outputs=[lookup_results, pick, citation_box, hits_state])
                def announce_hits(stored: list[dict] | None, html: str | None) -> str:
                    if stored:
                        n = len(stored)
                        return _announce(f"{n} passage{'s' if n != 1 else ''} found. The first is picked below.")
                    return _announce(re.sub(r"<[^>]+>", "", html or ""))

                for event in (lookup_btn.click(lookup, **lookup_io, api_name="lookup"),
                              lookup_q.submit(lookup, **lookup_io, api_name=False)):
                    event.then(announce_hits, [hits_state, lookup_results], announce, api_name=False,
                               queue=False, show_progress="hidden")

                def _stored_passage(stored: list[dict], index: str | None):
                    from assistant.types import Passage

                    try:
                        return Passage.model_validate(stored[int(index)])
                    except (TypeError, ValueError, IndexError):
                        return None

                def pick_result(index: str | None, stored: list[dict]):
                    p = _stored_passage(stored, index)
                    return render.passage_label(p) if p else ""

                pick.change(pick_result, [pick, hits_state], citation_box, api_name=False,
                            concurrency_limit=None, show_progress="hidden")

                def open_section(index: str | None, stored: list[dict]):
                    try:
                        p = _stored_passage(stored, index)
                        if p is None:
                            return "<p>Search first, then pick a result.</p>"
                        return _section_for(p.municipality, p.section or p.title)
                    except Exception:
                        log.exception("open section failed")
                        return _error_html(SORRY)

                open_btn.click(open_section, [pick, hits_state], section_view, api_name="open_section").then(
                    None, None, None, js=_FOCUS_SECTION, api_name=False, queue=False)

                def open_reference(ref: str):
                    ref = (ref or "").strip()
                    if not ref:
                        return "<p>Type a citation such as § 404-7H.</p>"
                    try:
                        passages = loader.get().show(ref)
                    except NotReady as exc:
                        return _error_html(str(exc))
                    except Exception:
                        log.exception("show failed")
                        return _error_html("That citation was not found. Try a section number such as "
                                           "§ 404-7H, or a section title.")
                    if not passages:
                        return "<p>Nothing found for that reference.</p>"
                    p0 = passages[0]
                    title = render.section_title_for_passage(p0)
                    return render.section_html(title, passages, link=render.section_link(p0))

                ref_btn.click(open_reference, ref_box, section_view, api_name="open_reference").then(
                    None, None, None, js=_FOCUS_SECTION, api_name=False, queue=False)
                ref_box.submit(open_reference, ref_box, section_view, api_name=False).then(
                    None, None, None, js=_FOCUS_SECTION, api_name=False, queue=False)

                def outline(mid: str | None):
                    from assistant.corpus import document

                    if not mid:
                        return "", gr.update(choices=[], value=None)
                    try:
                        doc = document(mid)
                    except Exception:
                        log.exception("outline failed")
                        return _error_html(SORRY), gr.update(choices=[], value=None)
                    choices = [((f"§ {s.section} " if s.section else "") + s.title, f"{mid}|{s.key}")
                               for s in doc.sections]
                    return render.outline_html(doc.sections), gr.update(choices=choices, value=None)

                outline_muni.change(outline, outline_muni, [outline_view, outline_pick], api_name="outline",
                                    concurrency_limit=None)

                def open_outline_section(value: str | None):
                    if not value or "|" not in value:
                        return "<p>Pick a section first.</p>"
                    mid, key = value.split("|", 1)
                    try:
                        return _section_for(mid, key)
                    except Exception:
                        log.exception("outline section failed")
                        return _error_html(SORRY)

                outline_open.click(open_outline_section, outline_pick, section_view, api_name=False,
                                   concurrency_limit=None).then(
                    None, None, None, js=_FOCUS_SECTION, api_name=False, queue=False)

                def follow_link(query: str):
                    from urllib.parse import parse_qs

                    params = parse_qs((query or "").split("#", 1)[0].lstrip("?"))
                    html, said = _section_from_link((params.get("section") or [""])[0], (params.get("m") or [""])[0])
                    return gr.Tabs(selected="lookup"), html, _announce(said)

                goto.change(follow_link, goto, [tabs, section_view, announce], api_name=False, queue=False,
                           show_progress="hidden").then(None, None, None, js=_FOCUS_SECTION, api_name=False,
                                                         queue=False)

            # ------------------------------------------------------------ Checklist
            with gr.Tab("Contractor checklist", id="checklist"):
                _checklist_tab(settings)

            # ------------------------------------------------------------ Staff
            if staff_on:
                with gr.Tab("Staff", id="staff", elem_id="oa-staff"):
                    _staff_tab(settings, loader, demo.upload_grants)

        def on_load(request: gr.Request):
            s = loader.status()
            banner, timer_state = _status_html(s), gr.Timer(active=not (s["ready"] or s["error"]))
            params = dict(request.query_params) if request is not None else {}
            if params.get("section"):
                html, said = _section_from_link(params["section"], params.get("m", ""))
                return banner, timer_state, gr.Tabs(selected="lookup"), html, _announce(said)
            return banner, timer_state, gr.update(), gr.update(), gr.update()

        demo.load(on_load, None, [status, timer, tabs, section_view, announce], api_name=False, queue=False,
                  show_progress="hidden").then(None, None, None, js=_FOCUS_SECTION, api_name=False, queue=False)

    demo.queue(default_concurrency_limit=settings.queue_concurrency, max_size=settings.queue_max_size)
    return demo


_FOCUS_SECTION = "() => window.oaFocusSection && window.oaFocusSection()"


def _announce(text: str) -> str:
    """The live region's content: plain words, escaped; a zero-width tail changes with
    the time so the same words said twice are announced twice."""
    return f"<p>{render.escape_html(text)}<span hidden>{time.monotonic_ns()}</span></p>" if text else ""


def _section_from_link(ref: str, mid: str) -> tuple[str, str]:
    """The whole section a link names, its cited part marked: (HTML, what to announce).
    Reads the corpus only, so a shared link opens while the index is still loading."""
    from assistant.corpus import municipality_by_id
    from assistant.retrieval.citations import parse_citation, passages_for

    ref = (ref or "").strip()[:200]
    mid = (mid or "").strip()[:40] or None
    if mid is not None and municipality_by_id(mid) is None:
        return _error_html(f"No municipality '{mid}' in this assistant."), "That link names no known municipality."
    try:
        parsed = parse_citation(ref, mid) if ref else None
    except Exception:
        log.exception("section link failed")
        parsed = None
    if parsed is None:
        msg = f"The link's section '{ref}' was not found. Try a section number such as § 404-7H."
        return _error_html(msg), msg
    whole = passages_for(parsed.model_copy(update={"subsection": None}))
    cited = [p.id for p in passages_for(parsed)] if parsed.subsection else []
    if not whole:
        return _error_html("That section was not found."), "That section was not found."
    p0 = whole[0]
    title = render.section_title_for_passage(p0)
    if parsed.subsection:
        title += f" — cited: {parsed.subsection}"
    link = render.section_link(p0.model_copy(update={"subsection": parsed.subsection}))
    return render.section_html(title, whole, cited=cited, link=link), f"Opened {title}."


def _section_for(mid: str, key: str) -> str:
    from assistant.corpus import document

    for s in document(mid).sections:
        if s.key == key or s.section == key or s.title == key:
            link = render.section_link(s.passages[0].model_copy(update={"subsection": None})) if s.passages else None
            return render.section_html(render.section_title(s), s.passages, link=link)
    return "<p>That section was not found.</p>"


# ----------------------------------------------------------------------------- checklist tab


def _checklist_tab(settings: Settings) -> None:
    from assistant.checklist import LANE_LABELS, WORK_LABELS

    gr.Markdown("Describe the job; the checklist lists permits, fees, bonds and insurance, notices with "
                "their dates, seasonal limits, specifications and guarantees — each with its provision.")
    with gr.Row():
        c_muni = gr.Dropdown(_municipality_choices("")[1:], value=_first_municipality(), label="Municipality",
                             min_width=240, elem_id="oa-cl-muni")
        c_work = gr.Dropdown([(v, k) for k, v in WORK_LABELS.items()], value="street_opening",
                             label="Kind of work", min_width=240, elem_id="oa-cl-work")
        c_loc = gr.Textbox(label="Location", placeholder="e.g. 120 Main St.", max_length=300,
                           min_width=240, elem_id="oa-cl-location")
    with gr.Row():
        c_start = gr.Textbox(label="Planned start date (YYYY-MM-DD)", value=date.today().isoformat(),
                             max_length=10, min_width=200, elem_id="oa-cl-start")
        c_days = gr.Number(label="Duration (days)", value=5, precision=0, minimum=1, maximum=366,
                           min_width=160, elem_id="oa-cl-days")
        c_pave = gr.Radio([("Bituminous (asphalt)", "bituminous"), ("Concrete", "concrete"),
                           ("No pavement", "none")], value="none", label="Pavement opened",
                          min_width=240, elem_id="oa-cl-pavement")
        c_paved = gr.Textbox(label="Date of final paving (YYYY-MM-DD, if known)", max_length=10,
                             min_width=200, elem_id="oa-cl-paved")
    # checkboxes stand in a column of their own: in a row, gradio squeezes them to nothing on a phone
    with gr.Row():
        with gr.Column(scale=3, min_width=260):
            c_emerg = gr.Checkbox(label="Emergency excavation", elem_id="oa-cl-emergency")
            c_util = gr.Checkbox(label="Applicant is a public utility", elem_id="oa-cl-utility")
            c_vutil = gr.Checkbox(label="…a Village public utility", elem_id="oa-cl-vutility")
            c_loss = gr.Checkbox(label="Utility service to properties will be cut", elem_id="oa-cl-loss")
        c_lanes = gr.Dropdown([(v, k) for k, v in LANE_LABELS.items()], value="none",
                              label="Lane closures", scale=1, min_width=220, elem_id="oa-cl-lanes")
    with gr.Accordion("Contractor's insurance certificate and bond", open=False):
        with gr.Row():
            c_pp = gr.Number(label="Bodily injury, each person ($)", minimum=0, min_width=200, elem_id="oa-cl-pp")
            c_pa = gr.Number(label="Bodily injury, each accident ($)", minimum=0, min_width=200, elem_id="oa-cl-pa")
            c_pd = gr.Number(label="Property damage ($)", minimum=0, min_width=200, elem_id="oa-cl-pd")
            c_exp = gr.Textbox(label="Certificate expires (YYYY-MM-DD)", max_length=10, min_width=200,
                               elem_id="oa-cl-exp")
        with gr.Row():
            with gr.Column(min_width=160):
                c_self = gr.Checkbox(label="Self-insured", elem_id="oa-cl-self")
            c_bond = gr.Number(label="Indemnity bond on file ($, 0 if none)", minimum=0, min_width=200,
                               elem_id="oa-cl-bond")
            c_fee = gr.Number(label="Permit fee set by the Board, if known ($)", minimum=0, min_width=200,
                              elem_id="oa-cl-fee")
    with gr.Accordion("Details for sidewalks, driveways and heavy vehicles", open=False):
        with gr.Row():
            with gr.Column(scale=2, min_width=260):
                c_comm = gr.Checkbox(label="Commercial or industrial frontage (sidewalk)", elem_id="oa-cl-comm")
                c_appr = gr.Checkbox(label="Includes a driveway approach (sidewalk)", elem_id="oa-cl-appr")
                c_lug = gr.Checkbox(label="Lugged wheels", elem_id="oa-cl-lug")
            c_surf = gr.Dropdown([("—", ""), ("Concrete", "concrete"), ("Asphalt", "asphalt"),
                                  ("Gravel", "gravel")], value="", label="Driveway surface",
                                 min_width=200, elem_id="oa-cl-surface")
            c_road = gr.Dropdown([("Village / Town road", "local"), ("County highway", "county"),
                                  ("State highway", "state")], value="local", label="Road",
                                 min_width=200, elem_id="oa-cl-road")
            c_tons = gr.Number(label="Vehicle gross weight (tons)", minimum=0, min_width=200, elem_id="oa-cl-tons")
    c_go = gr.Button("Make the checklist", variant="primary", elem_id="oa-cl-go")
    c_msg = gr.Markdown(elem_id="oa-cl-msg", elem_classes=["oa-live"])
    with gr.Row():
        c_md_dl = gr.DownloadButton("Download Markdown", visible=False, min_width=200, elem_id="oa-cl-md")
        c_pdf_dl = gr.DownloadButton("Download PDF", visible=False, min_width=200, elem_id="oa-cl-pdf")
    c_view = gr.Markdown(elem_id="oa-cl-view")

    def make_checklist(municipality, work, location, start_date, duration_days, pavement, final_paving_date,
                       emergency, public_utility, village_utility, service_loss, lane_closures,
                       per_person, per_accident, property_damage, expires, self_insured, indemnity_bond,
                       permit_fee, commercial, driveway_approach, driveway_surface, road_jurisdiction,
                       vehicle_weight_tons, lugged_wheels):
        hidden = gr.update(visible=False, value=None)
        try:
            from pydantic import ValidationError

            from assistant.checklist import ChecklistRequest, build_checklist, to_markdown, to_pdf

            try:
                insurance = None
                if any(v not in (None, "") for v in (per_person, per_accident, property_damage, expires,
                                                        indemnity_bond)) or self_insured:
                    insurance = {
                        "per_person": _money(per_person), "per_accident": _money(per_accident),
                        "property_damage": _money(property_damage),
                        "expires": _parse_date("Certificate expiry", expires),
                        "self_insured": bool(self_insured), "indemnity_bond": _money(indemnity_bond),
                    }
                data = {
                    "municipality": municipality, "work": work, "location": location or "",
                    "start_date": _parse_date("Start date", start_date),
                    "duration_days": int(duration_days or 1),
                    "pavement": pavement or "none",
                    "final_paving_date": _parse_date("Final paving date", final_paving_date),
                    "emergency": bool(emergency), "public_utility": bool(public_utility),
                    "village_utility": bool(village_utility), "service_loss": bool(service_loss),
                    "lane_closures": lane_closures or "none", "permit_fee": _money(permit_fee),
                    "insurance": insurance, "commercial": bool(commercial),
                    "driveway_approach": bool(driveway_approach),
                    "driveway_surface": driveway_surface or None, "road_jurisdiction": road_jurisdiction or "local",
                    "vehicle_weight_tons": _money(vehicle_weight_tons), "lugged_wheels": bool(lugged_wheels),
                }
                if data["start_date"] is None:
                    raise ValueError("Start date: required")
                req = ChecklistRequest.model_validate(data)
            except (ValidationError, ValueError) as exc:
                return ("**Please check the form:** " + render.escape_markdown(_pydantic_message(exc)),
                        hidden, hidden, "")
            checklist = build_checklist(req)
            md = to_markdown(checklist)
            out = _checklist_dir()
            stem = f"checklist-{req.municipality}-{req.work}-{req.start_date.isoformat()}-{os.urandom(3).hex()}"
            md_path = out / f"{stem}.md"
            pdf_path = out / f"{stem}.pdf"
            md_path.write_text(md, encoding="utf-8")
            pdf_path.write_bytes(to_pdf(checklist))
            n = len(checklist.items)
            msg = (f"**{n} items** for {render.escape_markdown(checklist.municipality_name)}"
                   + (f" — **{len(checklist.warnings)} warning(s)**" if checklist.warnings else "")
                   + ". Download it below.")
            return (msg, gr.update(visible=True, value=str(md_path)), gr.update(visible=True, value=str(pdf_path)),
                    render.checklist_preview(md))
        except Exception:
            log.exception("checklist failed")
            return SORRY, hidden, hidden, ""

    inputs = [c_muni, c_work, c_loc, c_start, c_days, c_pave, c_paved, c_emerg, c_util, c_vutil, c_loss,
              c_lanes, c_pp, c_pa, c_pd, c_exp, c_self, c_bond, c_fee, c_comm, c_appr, c_surf, c_road,
              c_tons, c_lug]
    c_go.click(make_checklist, inputs, [c_msg, c_md_dl, c_pdf_dl, c_view], api_name="checklist")


# ----------------------------------------------------------------------------- staff tab


def _staff_tab(settings: Settings, loader: AssistantLoader, grants: UploadGrants | None) -> None:
    authed = gr.State(False)
    guard = login_guard_for(settings)  # failed sign-ins per client address and overall, across sessions
    pending = gr.State(None)
    with gr.Column(visible=True) as login_col:
        gr.Markdown("Staff only: sign in to re-index or replace a chapter.")
        s_user = gr.Textbox(label="User", max_length=100, elem_id="oa-staff-user")
        s_pw = gr.Textbox(label="Password", type="password", max_length=200, elem_id="oa-staff-pw")
        s_login = gr.Button("Sign in", elem_id="oa-staff-login")
        s_login_msg = gr.Markdown()
        s_grant = gr.Textbox(visible="hidden", elem_id="oa-staff-grant")  # the session's upload grant
    with gr.Column(visible=False) as panel:
        gr.Markdown("### Re-index\nRebuild the search index from the corpus.")
        s_reindex = gr.Button("Re-index now", elem_id="oa-staff-reindex")
        s_reindex_msg = gr.Markdown()
        gr.Markdown("### Replace a chapter\nUpload the new PDF; it is validated before anything is replaced.")
        with gr.Row():
            s_muni = gr.Dropdown(_municipality_choices("")[1:], value=_first_municipality(), label="Chapter of")
            s_file = gr.File(label="Chapter PDF", file_types=[".pdf"], type="filepath", elem_id="oa-replace-file")
        s_validate = gr.Button("Validate")
        s_report = gr.Markdown()
        s_replace = gr.Button("Replace the chapter", interactive=False)
        s_replace_msg = gr.Markdown()
        gr.Markdown("### Add a municipality or a chapter\nUpload a chapter as text, Markdown, HTML, XML or PDF; "
                    "read it, check the report, then add it (nothing changes before *Add*).")
        with gr.Row():
            a_file = gr.File(label="Chapter file", file_types=[".txt", ".md", ".html", ".htm", ".xml", ".pdf"],
                             type="filepath", elem_id="oa-add-file")
            with gr.Column():
                a_id = gr.Textbox(label="Id (e.g. somerville)", max_length=40, elem_id="oa-add-id")
                a_name = gr.Textbox(label="Name (e.g. City of Somerville)", max_length=120, elem_id="oa-add-name")
                a_state = gr.Textbox(label="State (two letters)", max_length=2, elem_id="oa-add-state")
            with gr.Column():
                a_kind = gr.Dropdown(["city", "village", "town", "county"], value="city", label="Kind")
                a_chapter = gr.Textbox(label="Chapter (blank: as printed)", max_length=20)
                a_title = gr.Textbox(label="Chapter title (blank: as printed)", max_length=200)
        a_read = gr.Button("Read", elem_id="oa-add-read")
        a_report = gr.Markdown(elem_id="oa-add-report")
        a_add = gr.Button("Add", interactive=False, elem_id="oa-add-confirm")
        a_msg = gr.Markdown(elem_id="oa-add-msg")
        a_pending = gr.State(None)
        s_logout = gr.Button("Sign out", size="sm")

    async def login(user: str, password: str, request: gr.Request):
        r = await sign_in(settings, guard, grants, user, password, client_address(request))
        if r.ok:
            return True, gr.update(visible=False), gr.update(visible=True), "", r.token
        return False, gr.update(), gr.update(), r.message, ""

    # its own queue, unlimited and async: an attempt starts at once (a locked address is refused in
    # a millisecond, a failure pauses without a thread), so a flood never fills the shared queue
    s_login.click(login, [s_user, s_pw], [authed, login_col, panel, s_login_msg, s_grant],
                  api_name="staff_login", concurrency_id="staff_login", concurrency_limit=None).then(
        None, s_grant, None, js=f"(t) => {{ if (t) document.cookie = '{GRANT_COOKIE}=' + t + "
                                f"'; path=/; SameSite=Strict'; }}")

    def logout(token: str):
        if grants is not None:
            grants.revoke(token)
        return False, gr.update(visible=True), gr.update(visible=False), None, gr.update(interactive=False), ""

    s_logout.click(logout, s_grant, [authed, login_col, panel, pending, s_replace, s_grant], api_name=False,
                   queue=False).then(None, None, None,
                                     js=f"() => {{ document.cookie = '{GRANT_COOKIE}=; path=/; max-age=0'; }}")

    def reindex(is_authed: bool, progress=gr.Progress()):
        if not is_authed:
            return "Please sign in first."
        try:
            progress(0.05, desc="Re-indexing…")
            a = loader.get()
            try:
                a.reindex(progress=lambda frac, msg: progress(frac, desc=msg))
            except TypeError:  # an assistant whose reindex takes no progress callback
                a.reindex()
            return "Re-indexed."
        except NotReady as exc:
            return str(exc)
        except Exception:
            log.exception("reindex failed")
            return SORRY

    s_reindex.click(reindex, authed, s_reindex_msg, api_name="staff_reindex", concurrency_id="staff",
                    concurrency_limit=1)

    def validate(is_authed: bool, mid: str, path: str | None):
        if not is_authed:
            return "Please sign in first.", None, gr.update(interactive=False)
        if not path:
            return "Upload a PDF first.", None, gr.update(interactive=False)
        try:
            v = validate_chapter_pdf(mid, path, settings)
        except Exception:
            log.exception("validation failed")
            return SORRY, None, gr.update(interactive=False)
        return v.report, (v.__dict__ if v.ok else None), gr.update(interactive=v.ok)

    s_validate.click(validate, [authed, s_muni, s_file], [s_report, pending, s_replace],
                     api_name="staff_validate", concurrency_id="staff", concurrency_limit=1)

    def replace(is_authed: bool, v: dict | None):
        if not is_authed:
            return "Please sign in first.", gr.update(interactive=False)
        if not v:
            return "Validate a PDF first.", gr.update(interactive=False)
        try:
            msg = replace_chapter(Validation(**v), settings)
            if msg.startswith("Replaced"):
                loader.get().reindex()
                msg += " Re-indexed."
            return render.escape_markdown(msg), gr.update(interactive=False)
        except NotReady as exc:
            return render.escape_markdown(str(exc)), gr.update(interactive=False)
        except Exception:
            log.exception("replace failed")
            return SORRY, gr.update(interactive=False)

    s_replace.click(replace, [authed, pending], [s_replace_msg, s_replace], api_name="staff_replace",
                    concurrency_id="staff", concurrency_limit=1)

    def read_new(is_authed: bool, path: str | None, mid: str, name: str, state: str, kind: str, chapter: str,
                 title: str):
        from assistant.municipality_add import AddRequest, plan_add, report_markdown

        if not is_authed:
            return "Please sign in first.", None, gr.update(interactive=False)
        if not path:
            return "Upload a chapter file first.", None, gr.update(interactive=False)
        try:
            req = AddRequest(file=path, id=mid or "", name=name or "", state=state or "", kind=kind or None,
                             chapter=chapter or None, title=title or None, display_file=Path(path).name)
            plan = plan_add(req)
        except Exception as exc:  # a bad file or field: one line, nothing changed
            return f"Not added: {render.escape_markdown(_one_line(exc))}", None, gr.update(interactive=False)
        return report_markdown(plan.report), plan.request.model_dump(), gr.update(interactive=True)

    a_read.click(read_new, [authed, a_file, a_id, a_name, a_state, a_kind, a_chapter, a_title],
                 [a_report, a_pending, a_add], api_name="staff_add_read", concurrency_id="staff", concurrency_limit=1)

    def add_new(is_authed: bool, req: dict | None, progress=gr.Progress()):
        from assistant.municipality_add import AddRequest, apply_add, plan_add

        if not is_authed:
            return "Please sign in first.", gr.update(interactive=False)
        if not req:
            return "Read a chapter first.", gr.update(interactive=False)
        try:
            plan = plan_add(AddRequest(**req))  # once more, on exactly the file to be added
            result = apply_add(plan, build_index=False)
            progress(0.1, desc="Indexing the new chapter…")
            a = loader.get()
            try:
                a.reindex(progress=lambda frac, msg: progress(frac, desc=msg), force=False)
            except TypeError:  # an assistant whose reindex takes no arguments
                a.reindex()
            return render.escape_markdown(result.message) + ". Indexed.", gr.update(interactive=False)
        except NotReady as exc:
            return render.escape_markdown(str(exc)), gr.update(interactive=False)
        except Exception as exc:
            log.exception("adding a municipality failed")
            return f"Not added: {render.escape_markdown(_one_line(exc))}", gr.update(interactive=False)

    a_add.click(add_new, [authed, a_pending], [a_msg, a_add], api_name="staff_add", concurrency_id="staff",
                concurrency_limit=1)
