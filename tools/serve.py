"""``python -m tools.serve``: the web page to play from any position and analyse a game."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from tools import _cli
from tools._cli import EXIT_OK, add_debug_option, entry_point, exit_with

DESCRIPTION = """\
Serve the page at http://HOST:PORT/ : type your guesses, click the tiles to set their colours
(gray → yellow → green), and see the exact next guess, the answers that remain, the best
alternatives and, once the game is won, the analysis of every move (as python -m tools.assist
and python -m tools.analyse, whose functions the JSON endpoints call). Binds 127.0.0.1 unless
told otherwise; every request's time budget is capped by --budget-cap. Normal and hard mode
(a switch on the page); lost games are analysed too. An opener with no tree yet has it solved
once in the background (the page shows the progress) and kept in the user cache. Ctrl-C stops
the server.

Exit status: 0 stopped, 1 an internal error, 2 bad input (an option value, a word list),
130 interrupted.
"""


def port_number(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number from 1 to 65535")
    return port


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.serve", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    parser.add_argument("--words", default="legacy",
                        help="shipped word lists offered, comma-separated (default: legacy; "
                             "e.g. legacy,nyt-2024)")
    parser.add_argument("--budget-cap", type=_cli.positive_seconds, default=5.0, metavar="SECONDS",
                        help="the most seconds a request may give the exact search (default 5)")
    add_debug_option(parser)
    return parser


@entry_point(interrupted="interrupted: server stopped")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import uvicorn

    from solver.web.app import create_app

    lists = [name.strip() for name in args.words.split(",") if name.strip()]
    app = create_app(lists, budget_cap=args.budget_cap)
    print(f"serving http://{args.host}:{args.port}/ (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return EXIT_OK


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
