"""The web app (gradio): Ask, Look up, Contractor checklist, and a staff-only area."""

from assistant.webapp.ui import build_app

__all__ = ["build_app"]
