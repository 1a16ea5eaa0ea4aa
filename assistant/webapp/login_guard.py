"""Staff sign-in under abuse: failed attempts limited per client address and overall,
and the upload grant a signed-in session holds.

* ``LoginGuard`` counts failed sign-ins in moving windows (the ``limits`` package, in
  memory): per client address (default 5 in 15 minutes) and over all addresses (default
  30 in 15 minutes, against guessing spread over many addresses). The count is kept by
  address, not by browser session, so a new session does not start afresh; a locked
  address (or a locked app) is refused at once, before the password is even compared.
  Compared: a hand-written dict of deques would do, but ``limits`` is well kept, has the
  moving window and its clean-up, and reads its limits from strings ("5/15 minutes")
  that live in settings.
* ``UploadGrants``: a successful sign-in issues a random token bound to that session
  (sent back to the browser as a cookie, or by an API client as a header); the upload
  gate (``assistant.webapp.request_gate``) lets an upload through only with a live token.
  Signing out revokes it; tokens expire; at most ``max_grants`` live at once.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse, storage, strategies

GRANT_COOKIE = "oa_staff"
GRANT_HEADER = "x-oa-staff-token"


@dataclass(frozen=True)
class LoginDecision:
    allowed: bool
    message: str = ""


class LoginGuard:
    def __init__(self, per_address: str = "5/15 minutes", overall: str = "30/15 minutes"):
        self.per_address: RateLimitItem = parse(per_address)
        self.overall: RateLimitItem = parse(overall)
        self._window = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def check(self, address: str) -> LoginDecision:
        """Whether a sign-in from ``address`` may be tried now (not counted)."""
        if not self._window.test(self.per_address, "address", address):
            wait = self._wait_s(self.per_address, "address", address)
            return LoginDecision(False, f"Too many failed sign-ins from your address. Try again in {wait}.")
        if not self._window.test(self.overall, "overall"):
            wait = self._wait_s(self.overall, "overall")
            return LoginDecision(False, f"Staff sign-in is paused after too many failed attempts. Try again in {wait}.")
        return LoginDecision(True)

    def failed(self, address: str) -> None:
        self._window.hit(self.per_address, "address", address)
        self._window.hit(self.overall, "overall")

    def succeeded(self, address: str) -> None:
        self._window.clear(self.per_address, "address", address)

    def _wait_s(self, item: RateLimitItem, *ids: str) -> str:
        reset = self._window.get_window_stats(item, *ids).reset_time
        minutes = max(1, round((reset - time.time()) / 60))
        return f"{minutes} minute" + ("" if minutes == 1 else "s")


class UploadGrants:
    """Tokens of signed-in staff sessions that may upload (thread-safe, bounded)."""

    def __init__(self, ttl_s: float = 3600.0, max_grants: int = 64):
        self.ttl_s = ttl_s
        self.max_grants = max_grants
        self._lock = threading.Lock()
        self._expires: dict[str, float] = {}

    def issue(self) -> str:
        token = secrets.token_urlsafe(32)
        now = time.monotonic()
        with self._lock:
            self._purge(now)
            while len(self._expires) >= self.max_grants:  # the oldest goes first
                self._expires.pop(min(self._expires, key=self._expires.__getitem__))
            self._expires[token] = now + self.ttl_s
        return token

    def valid(self, token: str | None) -> bool:
        if not token:
            return False
        now = time.monotonic()
        with self._lock:
            self._purge(now)
            return any(secrets.compare_digest(token, t) for t in self._expires)

    def revoke(self, token: str | None) -> None:
        if token:
            with self._lock:
                self._expires.pop(token, None)

    def _purge(self, now: float) -> None:
        for t in [t for t, exp in self._expires.items() if exp <= now]:
            del self._expires[t]
