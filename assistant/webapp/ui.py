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

EXAMPLES = [
    "What is the surcharge for opening a street paved 18 months ago in Brandon?",
    "When can I not open a street in the Village of Brandon?",
    "What insurance does a contractor need for an excavation permit in Delafield?",
    "How do I report an emergency excavation in Brandon?",
    "Who installs a driveway culvert in the Town of Delafield?",
    "How wide must a commercial sidewalk be in Brandon?",
]

THEME = gr.themes.Default(
    font=["ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "sans-serif"],
    font_mono=["ui-monospace", "SFMono-Regular", "Menlo", "monospace"],
)


class OrdinanceApp(gr.Blocks):
    """gr.Blocks whose launch() defaults to our theme, CSS, upload limit and no tracebacks."""

    settings: Settings
    loader: AssistantLoader
    upload_grants: UploadGrants | None = None

    def launch(self, *args: Any, **kwargs: Any):  # type: ignore[override]
        kwargs.setdefault("theme", THEME)
        kwargs.setdefault("css", render.CSS)
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

    return [(with_any, "auto")] + [(m.name, m.id) for m in municipalities()]


def _mid(value: str | None) -> str | None:
    return None if not value or value in ("auto", "all") else value


def _error_html(text: str) -> str:
    return f"<p class='oa-error'>{render.escape_html(text)}</p>"


def _status_html(status: dict[str, Any]) -> str:
    if status["ready"]:
        return ""
    if status["error"]:
        return _error_html(f"The assistant could not start: {status['error']}")
    pct = int(status["fraction"] * 100)
    msg = render.escape_html(status["message"])
    return (
        "<div class='oa-loading' id='oa-loading'>"
        f"<strong>Preparing the assistant</strong> (the search index is built on first start) — {pct}%"
        f"<br><progress max='100' value='{pct}' style='width:100%'></progress>"
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

    with OrdinanceApp(title="Municipal Code Assistant — Brandon & Delafield", analytics_enabled=False,
                      delete_cache=(3600, 3600)) as demo:
        demo.settings = settings
        demo.loader = loader
        demo.upload_grants = UploadGrants() if staff_on else None
        gr.Markdown(
            "## Municipal Code Assistant\n"
            "Village of Brandon, WI — Code ch. 404 *Streets and Sidewalks* · "
            "Town of Delafield, WI — Code ch. 8 *Highways*. Answers quote the code; "
            "they are not legal advice."
        )
        status = gr.HTML(_status_html(loader.status()), elem_id="oa-status")
        timer = gr.Timer(1.0, active=not loader.ready)

        def poll_status():
            s = loader.status()
            return _status_html(s), gr.Timer(active=not (s["ready"] or s["error"]))

        timer.tick(poll_status, None, [status, timer], api_name="status", concurrency_limit=None,
                   show_progress="hidden", queue=False)

        with gr.Tabs():
            # ------------------------------------------------------------ Ask
            with gr.Tab("Ask", id="ask"):
                with gr.Row():
                    ask_muni = gr.Dropdown(
                        _municipality_choices("Detect from my question"), value="auto",
                        label="Municipality", scale=1, elem_id="oa-ask-muni",
                    )
                    detected = gr.Markdown("", elem_id="oa-detected")
                chatbot = gr.Chatbot(label="Conversation", height=520, elem_id="oa-chat",
                                     buttons=["copy"], feedback_options=None, latex_delimiters=[])
                with gr.Row():
                    question = gr.Textbox(
                        label="Your question", placeholder="Ask about streets, sidewalks, permits, fees…",
                        lines=2, max_length=settings.max_question_chars, scale=5, elem_id="oa-question",
                        info=f"Up to {settings.max_question_chars} characters.",
                    )
                    ask_btn = gr.Button("Ask", variant="primary", scale=1, elem_id="oa-ask")
                clear_btn = gr.Button("New conversation", size="sm")
                gr.Examples(EXAMPLES, inputs=[question], label="Example questions (click one, then Ask)")

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
                ask_btn.click(ask, ask_inputs, ask_outputs, api_name="ask")
                question.submit(ask, ask_inputs, ask_outputs, api_name=False)
                clear_btn.click(lambda: ([], "", ""), None, [chatbot, question, detected], api_name=False,
                                queue=False)

            # ------------------------------------------------------------ Look up
            with gr.Tab("Look up", id="lookup"):
                with gr.Row():
                    lookup_q = gr.Textbox(label="Search the code", placeholder="e.g. backfill compaction",
                                          scale=4, max_length=settings.max_question_chars,
                                          elem_id="oa-lookup-q")
                    lookup_muni = gr.Dropdown(_municipality_choices("Both"), value="auto",
                                              label="Municipality", scale=1, elem_id="oa-lookup-muni")
                    lookup_btn = gr.Button("Search", variant="primary", scale=1, elem_id="oa-lookup-go")
                lookup_results = gr.HTML(elem_id="oa-lookup-results")
                hits_state = gr.State([])
                with gr.Row():
                    pick = gr.Dropdown(label="Result", choices=[], interactive=True, scale=2,
                                       elem_id="oa-pick")
                    citation_box = gr.Textbox(label="Citation (copy it)", interactive=False,
                                              buttons=["copy"], scale=3, elem_id="oa-citation")
                    open_btn = gr.Button("Open the whole section", scale=1, elem_id="oa-open")
                with gr.Accordion("Open a citation (e.g. § 404-7H, Delafield 8.01(4), or a title)", open=False):
                    with gr.Row():
                        ref_box = gr.Textbox(label="Citation or title", scale=4, max_length=200,
                                             elem_id="oa-ref")
                        ref_btn = gr.Button("Open", scale=1, elem_id="oa-ref-go")
                section_view = gr.HTML(elem_id="oa-section")
                with gr.Accordion("Browse each chapter's outline", open=False):
                    outline_muni = gr.Radio(_municipality_choices("")[1:], label="Chapter",
                                            elem_id="oa-outline-muni")
                    outline_view = gr.HTML(elem_id="oa-outline")
                    with gr.Row():
                        outline_pick = gr.Dropdown(label="Section", choices=[], scale=4,
                                                   elem_id="oa-outline-pick")
                        outline_open = gr.Button("Open section", scale=1, elem_id="oa-outline-open")

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
                lookup_btn.click(lookup, **lookup_io, api_name="lookup")
                lookup_q.submit(lookup, **lookup_io, api_name=False)

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

                open_btn.click(open_section, [pick, hits_state], section_view, api_name="open_section")

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
                    return render.section_html(title, passages)

                ref_btn.click(open_reference, ref_box, section_view, api_name="open_reference")
                ref_box.submit(open_reference, ref_box, section_view, api_name=False)

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
                                   concurrency_limit=None)

            # ------------------------------------------------------------ Checklist
            with gr.Tab("Contractor checklist", id="checklist"):
                _checklist_tab(settings)

            # ------------------------------------------------------------ Staff
            if staff_on:
                with gr.Tab("Staff", id="staff", elem_id="oa-staff"):
                    _staff_tab(settings, loader, demo.upload_grants)

    demo.queue(default_concurrency_limit=settings.queue_concurrency, max_size=settings.queue_max_size)
    return demo


def _section_for(mid: str, key: str) -> str:
    from assistant.corpus import document

    for s in document(mid).sections:
        if s.key == key or s.section == key or s.title == key:
            return render.section_html(render.section_title(s), s.passages)
    return "<p>That section was not found.</p>"


# ----------------------------------------------------------------------------- checklist tab


def _checklist_tab(settings: Settings) -> None:
    from assistant.checklist import LANE_LABELS, WORK_LABELS

    gr.Markdown("Describe the job; the checklist lists permits, fees, bonds and insurance, notices with "
                "their dates, seasonal limits, specifications and guarantees — each with its provision.")
    with gr.Row():
        c_muni = gr.Dropdown(_municipality_choices("")[1:], value="brandon", label="Municipality",
                             elem_id="oa-cl-muni")
        c_work = gr.Dropdown([(v, k) for k, v in WORK_LABELS.items()], value="street_opening",
                             label="Kind of work", elem_id="oa-cl-work")
        c_loc = gr.Textbox(label="Location", placeholder="e.g. 120 Main St.", max_length=300,
                           elem_id="oa-cl-location")
    with gr.Row():
        c_start = gr.Textbox(label="Planned start date (YYYY-MM-DD)", value=date.today().isoformat(),
                             max_length=10, elem_id="oa-cl-start")
        c_days = gr.Number(label="Duration (days)", value=5, precision=0, minimum=1, maximum=366,
                           elem_id="oa-cl-days")
        c_pave = gr.Radio([("Bituminous (asphalt)", "bituminous"), ("Concrete", "concrete"),
                           ("No pavement", "none")], value="none", label="Pavement opened",
                          elem_id="oa-cl-pavement")
        c_paved = gr.Textbox(label="Date of final paving (YYYY-MM-DD, if known)", max_length=10,
                             elem_id="oa-cl-paved")
    with gr.Row():
        c_emerg = gr.Checkbox(label="Emergency excavation", elem_id="oa-cl-emergency")
        c_util = gr.Checkbox(label="Applicant is a public utility", elem_id="oa-cl-utility")
        c_vutil = gr.Checkbox(label="…a Village public utility (Brandon)", elem_id="oa-cl-vutility")
        c_loss = gr.Checkbox(label="Utility service to properties will be cut", elem_id="oa-cl-loss")
        c_lanes = gr.Dropdown([(v, k) for k, v in LANE_LABELS.items()], value="none",
                              label="Lane closures", elem_id="oa-cl-lanes")
    with gr.Accordion("Contractor's insurance certificate and bond", open=False):
        with gr.Row():
            c_pp = gr.Number(label="Bodily injury, each person ($)", minimum=0, elem_id="oa-cl-pp")
            c_pa = gr.Number(label="Bodily injury, each accident ($)", minimum=0, elem_id="oa-cl-pa")
            c_pd = gr.Number(label="Property damage ($)", minimum=0, elem_id="oa-cl-pd")
            c_exp = gr.Textbox(label="Certificate expires (YYYY-MM-DD)", max_length=10, elem_id="oa-cl-exp")
        with gr.Row():
            c_self = gr.Checkbox(label="Self-insured", elem_id="oa-cl-self")
            c_bond = gr.Number(label="Indemnity bond on file ($, 0 if none)", minimum=0, elem_id="oa-cl-bond")
            c_fee = gr.Number(label="Permit fee set by the Board, if known ($)", minimum=0, elem_id="oa-cl-fee")
    with gr.Accordion("Details for sidewalks, driveways and heavy vehicles", open=False):
        with gr.Row():
            c_comm = gr.Checkbox(label="Commercial or industrial frontage (sidewalk)", elem_id="oa-cl-comm")
            c_appr = gr.Checkbox(label="Includes a driveway approach (sidewalk)", elem_id="oa-cl-appr")
            c_surf = gr.Dropdown([("—", ""), ("Concrete", "concrete"), ("Asphalt", "asphalt"),
                                  ("Gravel", "gravel")], value="", label="Driveway surface",
                                 elem_id="oa-cl-surface")
            c_road = gr.Dropdown([("Village / Town road", "local"), ("County highway", "county"),
                                  ("State highway", "state")], value="local", label="Road",
                                 elem_id="oa-cl-road")
            c_tons = gr.Number(label="Vehicle gross weight (tons)", minimum=0, elem_id="oa-cl-tons")
            c_lug = gr.Checkbox(label="Lugged wheels", elem_id="oa-cl-lug")
    c_go = gr.Button("Make the checklist", variant="primary", elem_id="oa-cl-go")
    c_msg = gr.Markdown(elem_id="oa-cl-msg")
    with gr.Row():
        c_md_dl = gr.DownloadButton("Download Markdown", visible=False, elem_id="oa-cl-md")
        c_pdf_dl = gr.DownloadButton("Download PDF", visible=False, elem_id="oa-cl-pdf")
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
                    render.safe_markdown(md))
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
            s_muni = gr.Dropdown(_municipality_choices("")[1:], value="brandon", label="Chapter of")
            s_file = gr.File(label="Chapter PDF", file_types=[".pdf"], type="filepath")
        s_validate = gr.Button("Validate")
        s_report = gr.Markdown()
        s_replace = gr.Button("Replace the chapter", interactive=False)
        s_replace_msg = gr.Markdown()
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
