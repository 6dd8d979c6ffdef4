"""The web server's HTTP connections: uvicorn's h11 protocol with a deadline on a request's headers
and a bound on each client's open connections.

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

That cap counts every open connection, idle ones too, and is the same for everyone: one client
holding 260 idle sockets made most other clients' requests 503 until it let go. So each client
address may hold at most ``per_client`` connections open at once
(:data:`CONNECTIONS_PER_CLIENT` by default); one more is closed as soon as it is made, before
it can count against the others. uvicorn has no such setting, so the count is kept by the same
protocol subclass. A browser opens at most six HTTP/1.1 connections to one server.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds a client has to send a request's line and headers, by default.
HEADER_TIMEOUT = 10.0
#: Connections one client address may have open at once, by default (a browser opens at most 6;
#: an office behind one address, a few browsers).
CONNECTIONS_PER_CLIENT = 32


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers are not all received
    within :attr:`header_timeout` seconds, and a connection that would give its client address
    more than :attr:`per_client` open at once (set both on a class of one server's own with
    :func:`protocol_with`: it holds the count of each address's connections)."""

    header_timeout: float = HEADER_TIMEOUT
    per_client: int = CONNECTIONS_PER_CLIENT
    #: Open connections by client address (host), of the connections this class made.
    open_by_client: dict[str, int] = {}

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection against its client address, closing it at once if the address
        already has :attr:`per_client` open; else start the header deadline."""
        super().connection_made(transport)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._counted: str | None = None
        host = self.client[0] if self.client else None  # None: not an IP socket
        if host is not None:
            open_now = self.open_by_client.get(host, 0)
            if open_now >= self.per_client:
                transport.close()  # nothing was asked yet: nothing to answer
                return
            self.open_by_client[host] = open_now + 1
            self._counted = host
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
        """uvicorn's handling of the received bytes, then the deadline is stopped once a request's
        headers are all in."""
        super().handle_events()
        if self.conn.their_state is not h11.IDLE:  # the headers are in (the body has its own limit)
            self._disarm()

    def on_response_complete(self) -> None:
        """uvicorn's end of a response, then the deadline is started again for the next request of a
        kept-alive connection."""
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm()  # the next request on this kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the deadline and uncount the connection from its client address, then uvicorn's own."""
        self._disarm()
        host = getattr(self, "_counted", None)
        if host is not None:
            self._counted = None
            self.open_by_client[host] -= 1
            if not self.open_by_client[host]:
                del self.open_by_client[host]
        super().connection_lost(exc)


def protocol_with(header_timeout: float = HEADER_TIMEOUT,
                  per_client: int = CONNECTIONS_PER_CLIENT) -> type[HeaderDeadlineProtocol]:
    """A :class:`HeaderDeadlineProtocol` subclass whose deadline is ``header_timeout`` seconds
    and which lets each client address hold ``per_client`` connections (≥ 1) open at once,
    with a count of its own (uvicorn makes one protocol object per connection from the class it
    is given)."""
    return type("HeaderDeadlineProtocol", (HeaderDeadlineProtocol,),
                {"header_timeout": float(header_timeout), "per_client": int(per_client),
                 "open_by_client": {}})
