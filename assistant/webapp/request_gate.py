"""An ASGI gate in front of the gradio app: uploads for signed-in staff only, and every
other request body bounded.

Uploads (``POST /gradio_api/upload``):

gradio accepts an upload from anyone and stores it before any event handler runs; its
``max_file_size`` bounds each file but not who may send one. This gate answers before a
byte of the body is read: without a staff area every upload is refused (403); with one,
only a request carrying a live staff grant (the cookie or header a signed-in session
received, see ``login_guard.UploadGrants``) passes, and only with a Content-Length
within the upload limit (413 otherwise; 411 without a length). So an anonymous upload
stores 0 bytes.

Every other POST body is capped at ``max_request_bytes`` (settings.max_request_bytes):
a declared Content-Length over it gets 413 at once; a body without one is cut off (the
app sees the client disconnect) when it passes the cap. A 3.4 MB request of 100,000
malformed history items never reaches gradio's parser, nor its traceback the log.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from assistant.webapp.login_guard import GRANT_COOKIE, GRANT_HEADER, UploadGrants

MULTIPART_OVERHEAD = 64 * 1024  # boundaries and part headers around the file


def is_upload(scope: dict[str, Any]) -> bool:
    path = scope.get("path", "").rstrip("/")
    return scope.get("type") == "http" and scope.get("method") == "POST" and path.endswith("/upload")


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def grant_token(headers: dict[str, str]) -> str | None:
    if headers.get(GRANT_HEADER):
        return headers[GRANT_HEADER].strip()
    cookie = SimpleCookie()
    try:
        cookie.load(headers.get("cookie", ""))
    except Exception:  # a malformed Cookie header is no grant
        return None
    morsel = cookie.get(GRANT_COOKIE)
    return morsel.value if morsel else None


class RequestGate:
    """ASGI middleware (see ``with_request_gate``)."""

    def __init__(self, app, grants: UploadGrants | None, max_bytes: int, max_request_bytes: int = 1_000_000):
        self.app = app
        self.grants = grants  # None: no staff area, no uploads at all
        self.max_bytes = max_bytes
        self.max_request_bytes = max_request_bytes

    async def __call__(self, scope, receive, send):
        if scope.get("type") != "http" or scope.get("method") != "POST":
            return await self.app(scope, receive, send)
        if not is_upload(scope):
            return await self._bounded(scope, receive, send)
        headers = _headers(scope)
        if self.grants is None or not self.grants.valid(grant_token(headers)):
            return await _refuse(send, 403, "Uploads are for signed-in staff only.")
        length = headers.get("content-length")
        if length is None or not length.isdigit():
            return await _refuse(send, 411, "An upload needs a Content-Length.")
        if int(length) > self.max_bytes + MULTIPART_OVERHEAD:
            return await _refuse(send, 413, f"The file is too large; the limit is {self.max_bytes:,} bytes.")
        return await self.app(scope, receive, send)

    async def _bounded(self, scope, receive, send):
        length = _headers(scope).get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_request_bytes):
            return await _refuse(send, 413, f"The request is too large; the limit is {self.max_request_bytes:,} bytes.")
        seen = 0

        async def counted():
            nonlocal seen
            message = await receive()
            if message.get("type") == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_request_bytes:
                    return {"type": "http.disconnect"}
            return message

        return await self.app(scope, counted, send)


async def _refuse(send, status: int, message: str) -> None:
    body = message.encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def with_request_gate(app_kwargs: dict[str, Any] | None, grants: UploadGrants | None, max_upload_bytes: int,
                      max_request_bytes: int) -> dict[str, Any]:
    """``launch(app_kwargs=...)`` with the gate added to the FastAPI app's middleware."""
    from starlette.middleware import Middleware

    kwargs = dict(app_kwargs or {})
    gate = Middleware(RequestGate, grants=grants, max_bytes=max_upload_bytes, max_request_bytes=max_request_bytes)
    kwargs["middleware"] = [*kwargs.get("middleware", []), gate]
    return kwargs
