"""``python -m tools.serve``: the web page to play from any position and analyse a game."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name
from solver.game.wordlists import LEGACY_LISTS, PLAY_LISTS

#: Seconds the requests still running at a stop (Ctrl-C, SIGTERM) get before their
#: connections are closed and the lanes stopped (a request whose worker was killed from outside
#: must not hold the stop open).
STOP_SECONDS = 5

DESCRIPTION = """\
Serve the page at http://HOST:PORT/ : type your guesses (or use the on-screen keyboard), set
their colours by clicking the tiles or typing the feedback, and see the exact next guess, the
answers that remain, the best alternatives and, once the game is over, the analysis of every
move (as python -m tools.assist and python -m tools.analyse, whose functions the JSON
endpoints call). Normal and hard mode; lost games are analysed too; a shared grid can be
pasted. After an opener with no shipped or cached tree, the state asked is searched within
the request's budget (never the opener's whole tree first), and the opener's tree is built in
the background (at most 4 waiting, 1 per client) for the game's analysis.

The work runs in worker processes, never in the server's: two answer lookups from the
decision trees (milliseconds, never behind a search), --search-workers run searches (states
off every tree, analyses), --build-workers [1] build openers' trees in the background at the
lowest priority (0: none are built; such states are searched each time they are asked). A
next guess on a tree is answered at once; its alternatives, when not yet proven, follow from
a background search (the page fills them in as they arrive). A worker killed from outside
is replaced; the request it was running is answered with a 503 ("try again"), never left
hanging.

Limits (defaults in brackets; past a client's own limit: HTTP 429, past the server's: 503):
  lookups          8 per client address, 64 in all, waiting or running
  searches         --per-client [2] per client address, --search-workers + --queue [2 + 8]
                   in all (a next guess's background alternatives and an analysis count as
                   searches); each runs at most its request's budget (--budget-cap [5 s])
                   plus 2 s, then 503; stopped when its client hangs up
  builds           1 per client address, 4 in all (more are not started; nothing waits)
  connections      --max-connections [256] connections or requests at once (more: 503);
                   --max-connections-per-client [32] open from one client address (more are
                   closed at once, so one client cannot take the others' connections)
  request headers  --header-timeout [10 s] to arrive (else the connection is closed)
  request body     --body-timeout [10 s] to arrive (408); 16 KB at most (413); JSON nested 8
                   deep at most (400); POSTs must be sent as JSON (415)
  idle connection  5 s between requests on a kept-alive connection (then closed)
A Host header other than 127.0.0.1, localhost, [::1] or a name given with --allow-host is
refused (400), so other web pages cannot drive the server.

Binds 127.0.0.1 unless told otherwise. The numba kernels are compiled (once, unless wordle warm
did: minutes, a progress line per step on stderr), then the worker processes start and load
them, before "serving http://..." is printed; a port in use, an address that cannot be bound or a bad
--words is one line on stderr and exit status 2 before that. Ctrl-C stops the server.

Exit status: 0 stopped, 1 an internal error, 2 bad input (an option value, a word list, an
address that cannot be served), 130 interrupted.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.serve`` (``wordle serve``), with :data:`DESCRIPTION`
    as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("serve"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=_cli.whole(1, 65535, what="a port number"), default=8000,
                        help="port (default 8000)")
    parser.add_argument("--words", default=f"{PLAY_LISTS},{LEGACY_LISTS}",
                        help="shipped five-letter word lists offered, comma-separated, the page's default first "
                             f"(default: {PLAY_LISTS},{LEGACY_LISTS} — today's NYT lists, then the original "
                             "2022 ones)")
    parser.add_argument("--budget-cap", type=_cli.positive_seconds, default=5.0, metavar="SECONDS",
                        help="the most seconds a request may give the exact search (default 5)")
    parser.add_argument("--search-workers", type=_cli.whole(1, 256), default=2, metavar="N",
                        help="worker processes for searches (default 2)")
    parser.add_argument("--build-workers", type=_cli.whole(0, 256), default=1, metavar="N",
                        help="worker processes building new openers' trees in the background, at the "
                             "lowest priority (default 1; 0: none are built)")
    parser.add_argument("--per-client", type=_cli.whole(1, 256), default=2, metavar="N",
                        help="searches one client address may have running or waiting (default 2)")
    parser.add_argument("--queue", type=_cli.whole(0, 256), default=8, metavar="N",
                        help="searches that may wait for a free worker (default 8)")
    parser.add_argument("--max-connections", type=_cli.whole(1, 65535), default=256, metavar="N",
                        help="connections and requests handled at once; more get 503 (default 256)")
    parser.add_argument("--max-connections-per-client", type=_cli.whole(1, 65535), default=32, metavar="N",
                        help="connections one client address may have open at once; more are closed as "
                             "soon as they are made, the other clients' unaffected (default 32)")
    parser.add_argument("--header-timeout", type=_cli.positive_seconds, default=10.0, metavar="SECONDS",
                        help="seconds a client has to send a request's headers, else its connection is "
                             "closed (default 10)")
    parser.add_argument("--body-timeout", type=_cli.positive_seconds, default=10.0, metavar="SECONDS",
                        help="seconds a client has to send a request's body, else 408 (default 10)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also accept requests whose Host header names NAME (repeatable; e.g. "
                             "the machine's name when serving a LAN with --host 0.0.0.0)")
    add_debug_option(parser)
    return parser


def compile_kernels_once() -> None:
    """Compile the play kernels (:func:`solver.evaluation.warm.ensure_compiled`) unless the
    stamp says numba's cache holds them: in a child process (the server's own process never
    loads numba), its progress lines on stderr. Compiled here, once, the workers only load
    them: a worker stopped at a request's deadline has nothing to compile again."""
    from solver.evaluation.warm import is_compiled

    if is_compiled(5):  # the offered lists are the shipped five-letter ones
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from solver.evaluation import warm

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        pool.submit(warm.ensure_compiled, 5).result()


@entry_point(interrupted="interrupted: server stopped")
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``serve`` on ``argv`` (default ``sys.argv[1:]``): compile the kernels, then serve the web
    page on ``--host``/``--port`` (uvicorn, with the header deadline and per-client bound of
    :mod:`solver.web.http`) until Ctrl-C; returns the exit status (0; 2 for bad input or a missing
    ``web`` extra)."""
    args = build_parser().parse_args(argv)
    from solver.game.errors import require_extra

    require_extra("starlette", "web", "the web page")
    require_extra("uvicorn", "web", "the web page")
    require_extra("pebble", "web", "the web page")
    import uvicorn

    from solver.web.app import create_app, listening_socket
    from solver.web.http import protocol_with

    lists = [name.strip() for name in args.words.split(",") if name.strip()]
    sock = listening_socket(args.host, args.port)
    compile_kernels_once()  # before the workers start: no request's budget pays for it
    app = create_app(lists, budget_cap=args.budget_cap, search_workers=args.search_workers,
                     build_workers=args.build_workers, per_client=args.per_client, queue=args.queue,
                     allow_hosts=args.allow_host, body_timeout=args.body_timeout)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"serving http://{shown}:{args.port}/ (Ctrl-C stops)", flush=True)
    # h11 with a deadline on the headers and a bound on each client's connections (uvicorn has
    # neither: solver.web.http); uvicorn's own limit on connections and requests at once, and
    # its keep-alive timeout; at a stop, requests still running get STOP_SECONDS before their
    # connections close
    protocol = protocol_with(args.header_timeout, args.max_connections_per_client)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", http=protocol,
                                           limit_concurrency=args.max_connections, timeout_keep_alive=5,
                                           timeout_graceful_shutdown=STOP_SECONDS))
    server.run(sockets=[sock])
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
