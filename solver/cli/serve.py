"""``python -m tools.serve``: the web page to play from any position and analyse a game."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name

DESCRIPTION = """\
Serve the page at http://HOST:PORT/ : type your guesses (or use the on-screen keyboard), set
their colours by clicking the tiles or typing the feedback, and see the exact next guess, the
answers that remain, the best alternatives and, once the game is over, the analysis of every
move (as python -m tools.assist and python -m tools.analyse, whose functions the JSON
endpoints call). Normal and hard mode; lost games are analysed too; a shared grid can be
pasted. After an opener with no shipped or cached tree, the state asked is searched within
the request's budget (never the opener's whole tree first), and the opener's tree is built in
the background (one at a time, at most 4 waiting, 1 per client) for the game's analysis.

The work runs in worker processes, never in the server's: one answers lookups from the
decision trees (milliseconds, never behind a search), --search-workers run searches (states
off every tree, analyses), one builds openers' trees in the background. A search runs at most its request's
budget (capped by --budget-cap) and is stopped when its client hangs up; one client address
may have --per-client searches running or waiting (more: HTTP 429), and at most
--search-workers + --queue wait in all (more: 503). Bodies over 16 KB (413), JSON nested over
8 deep (400), POSTs not sent as JSON (415) and a Host header other than 127.0.0.1, localhost,
[::1] or a name given with --allow-host (400) are refused, so other web pages cannot drive it.

Binds 127.0.0.1 unless told otherwise. The worker processes start and load the kernels before
"serving http://..." is printed; a port in use, an address that cannot be bound or a bad
--words is one line on stderr and exit status 2 before that. Ctrl-C stops the server.

Exit status: 0 stopped, 1 an internal error, 2 bad input (an option value, a word list, an
address that cannot be served), 130 interrupted.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog_name("serve"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=_cli.whole(1, 65535, what="a port number"), default=8000,
                        help="port (default 8000)")
    parser.add_argument("--words", default="nyt-2024,legacy",
                        help="shipped five-letter word lists offered, comma-separated, the page's default first "
                             "(default: nyt-2024,legacy — today's NYT lists, then the original 2022 ones)")
    parser.add_argument("--budget-cap", type=_cli.positive_seconds, default=5.0, metavar="SECONDS",
                        help="the most seconds a request may give the exact search (default 5)")
    parser.add_argument("--search-workers", type=_cli.whole(1, 256), default=2, metavar="N",
                        help="worker processes for searches (default 2)")
    parser.add_argument("--per-client", type=_cli.whole(1, 256), default=2, metavar="N",
                        help="searches one client address may have running or waiting (default 2)")
    parser.add_argument("--queue", type=_cli.whole(0, 256), default=8, metavar="N",
                        help="searches that may wait for a free worker (default 8)")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also accept requests whose Host header names NAME (repeatable; e.g. "
                             "the machine's name when serving a LAN with --host 0.0.0.0)")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted: server stopped")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from solver.game.errors import require_extra

    require_extra("starlette", "web", "the web page")
    require_extra("uvicorn", "web", "the web page")
    require_extra("pebble", "web", "the web page")
    import uvicorn

    from solver.web.app import create_app, listening_socket

    lists = [name.strip() for name in args.words.split(",") if name.strip()]
    sock = listening_socket(args.host, args.port)
    app = create_app(lists, budget_cap=args.budget_cap, search_workers=args.search_workers,
                     per_client=args.per_client, queue=args.queue, allow_hosts=args.allow_host)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"serving http://{shown}:{args.port}/ (Ctrl-C stops)", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
