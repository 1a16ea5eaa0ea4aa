"""The web app: ``python app.py`` serves it on settings.host:settings.port (127.0.0.1:7860).

No key and no network: the model and the index are local. On first start the search
index is built while the page shows a progress bar. Importing this module does no heavy
work: ``build_app(assistant)`` returns the gr.Blocks, and tests inject a fake assistant.
"""

from __future__ import annotations

import os

# Before gradio or the model libraries are imported: no telemetry, no hub downloads.
os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")

from typing import Any  # noqa: E402

import gradio as gr  # noqa: E402


def build_app(assistant: Any | None = None, **kwargs: Any) -> gr.Blocks:
    """The gradio app. ``assistant`` is the Assistant (or a fake with ask/search/show/
    reindex); None starts loading the real one in the background."""
    from assistant.webapp import build_app as _build

    return _build(assistant, **kwargs)


def main() -> None:
    import logging

    import sys

    from assistant.settings import SettingsProblem, get_settings

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        settings = get_settings()
    except SettingsProblem as exc:  # one line naming the variable, no traceback
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
    demo = build_app()  # starts loading the Assistant (and building the index) in the background
    print(f"[app] serving on http://{settings.host}:{settings.port} (the assistant keeps loading in the background)",
          flush=True)
    demo.launch(server_name=settings.host, server_port=settings.port)


if __name__ == "__main__":
    main()
