"""The web server's HTTP connections: uvicorn's h11 protocol with a deadline on a request's headers.

uvicorn (0.54) has no timeout on receiving a request: ``timeout_keep_alive`` covers the idle time
*between* requests and is reset by every byte received, so a client that sends its headers one
byte every few seconds holds its connection for ever (a "slowloris"; uvicorn issue #157 lists
such limits, and xorbitsai/inference PR #5213 describes the same gap). An ASGI middleware cannot
help: the app is called only once the headers are complete. uvicorn takes the protocol class as
its documented ``http`` setting, so the deadline is a small subclass of its own h11 protocol
(:class:`HeaderDeadlineProtocol`): a connection whose request line and headers are not complete
within ``header_timeout`` seconds of the connection (or of the end of the previous response, on a
kept-alive connection) is closed. The body has its own deadline, in the app
(:func:`solver.web.app.read_json`: 408), and uvicorn's ``limit_concurrency`` caps the connections
and requests handled at once (more: 503).
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a request's line and headers, by default.
HEADER_TIMEOUT = 10.0


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers are not all received
    within :attr:`header_timeout` seconds (set it on the class with :func:`protocol_with`)."""

    header_timeout: float = HEADER_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._headers_too_slow)

    def _disarm(self) -> None:
        handle = getattr(self, "_header_deadline", None)
        if handle is not None:
            handle.cancel()
            self._header_deadline = None

    def _headers_too_slow(self) -> None:
        self._header_deadline = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()  # nothing to answer: the request never arrived

    def handle_events(self) -> None:
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # the headers are in (the body has its own limit)
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request on this kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def protocol_with(header_timeout: float) -> type[HeaderDeadlineProtocol]:
    """A :class:`HeaderDeadlineProtocol` subclass whose deadline is ``header_timeout`` seconds
    (uvicorn makes one protocol object per connection from the class it is given)."""
    return type("HeaderDeadlineProtocol", (HeaderDeadlineProtocol,), {"header_timeout": float(header_timeout)})
