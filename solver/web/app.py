"""The web page: play from any position and analyse the game, in a browser (Starlette).

One static page (``static/index.html``, ``app.js``, ``style.css``) and three JSON endpoints,
which ask the same search service as the command-line tools
(:class:`solver.exact.service.SearchService`, one per list and mode, in worker processes:
:mod:`solver.web.lanes`, :mod:`solver.web.work`):

- ``GET /api/config`` → ``{"lists": [{"name", "title", "note"}, ...], "default_list",
  "modes", "budget_cap": s, "default_budget": s}``;
- ``POST /api/next`` ``{"words": "nyt-2024", "mode": "normal", "history": [{"guess": "tarse",
  "feedback": "bbbby"}, ...], "top": 5, "budget": 2}`` →
  :meth:`solver.exact.service.Advice.to_json` (``tools.assist --json``, with the ``splits``
  of the next guess and the alternatives: the page's "why"); ``top`` 0 answers without ranking
  alternatives; histories of six guesses (lost games) are answered too. A state
  on a decision tree is answered at once; when its alternatives are not proven yet, the answer
  has ``"alternatives_pending": true`` and they are searched in the background: the same
  request with ``"follow": true`` waits for them (at most its budget);
- ``POST /api/analyse`` ``{"words", "mode", "history", "budget"}``, or with ``"guesses":
  [words]`` and the ``"answer"`` or the shared ``"grid"`` (a header ending in ``*``: hard
  mode) instead of the history → :meth:`solver.evaluation.analysis.GameAnalysis.to_json`
  (``tools.analyse --json``); the budget is the whole analysis's.

After an opener whose optimal tree is neither shipped nor cached, the state asked is searched
within the request's budget (never the opener's whole tree first): the answer is exact when
the search finishes in time, else the best guess found with its proven lower bound. The
opener's tree is then built in the background (:mod:`solver.web.lanes`), so that the game's
analysis is exact once it is ready.

Every input is checked (``Host`` — loopback names and ``allow_hosts`` only —, the JSON content
type, the body's size while it streams in and its nesting, the list name, the history, each
guess's letters and list, each feedback's pattern, ``top``, the budget, capped at
``budget_cap`` seconds): a bad one gets a 4xx with ``{"error": "<one line>"}``, the same
message the command line prints (a foreign ``Host``: Starlette's plain 400). A body not
received within ``body_timeout`` seconds: 408 (the headers' deadline is the connection's:
:mod:`solver.web.http`). Too many lookups, searches or analyses: 429 (one client) or 503 (all);
a search past its budget is stopped (503); a search whose worker died: 503 (try again); a
request still running when the server stops, past its grace period: 503 (shutting down).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import socket
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.game.errors import FeedbackError, InputError, UnwinnableError
from solver.game.feedback import code_to_text, parse_feedback
from solver.game.spec import MODES, Mode
from solver.game.wordlists import LEGACY_LISTS, PLAY_LISTS

STATIC = Path(__file__).resolve().parent / "static"
#: Longest a request may ask the exact search to run, by default.
BUDGET_CAP = 5.0
DEFAULT_BUDGET = 2.0
MAX_TOP = 10
#: The word length the page plays (``LENGTH`` in static/app.js: five tiles a row, five-square
#: grids): a list of other words is refused when the server starts, not guess by guess.
PAGE_WORD_LENGTH = 5
MAX_BODY = 16_384
#: Seconds a client has to send a request's body once its headers are in, by default.
BODY_TIMEOUT = 10.0
#: The deepest JSON nesting a request may have (ours have 3 levels).
MAX_DEPTH = 8
#: Host headers always accepted (the loopback names); more with ``allow_hosts``.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
_WORD = re.compile(r"[a-z]+")


class RequestError(InputError):
    """A request's body or field that cannot be used (HTTP 400)."""


class MediaTypeError(RequestError):
    """A POST whose body is not declared as JSON (HTTP 415)."""


class BodyTooLarge(RequestError):
    """A request body over :data:`MAX_BODY` bytes (HTTP 413)."""


class BodyTimeout(RequestError):
    """A request body not received within its deadline (HTTP 408)."""


#: What each shipped 5-letter list is, for the page's list choice (solver/data/README.md).
LIST_INFO = {
    "nyt-2024": {"title": "NYT 2024 lists",
                 "note": "Today's game on the New York Times site uses these: 2,309 answers, "
                         "14,855 allowed guesses (late 2024)."},
    "legacy": {"title": "Original 2022 lists",
               "note": "The lists of Wordle before the NYT edited them (2,315 answers, 12,972 "
                       "guesses): for old games and the published optimum (SALET, 3.4212)."},
}


def _history(value, word_length: int) -> list[tuple[str, str]]:
    if not isinstance(value, list):
        raise RequestError("history must be a list of {\"guess\": word, \"feedback\": bbygb} objects")
    if len(value) > 6:
        raise RequestError(f"history has {len(value)} guesses; a game has at most 6")
    steps = []
    for turn, item in enumerate(value, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("guess"), str) \
                or not isinstance(item.get("feedback"), str):
            raise RequestError(f"guess {turn}: expected {{\"guess\": word, \"feedback\": bbygb}}")
        guess = item["guess"].strip().lower()
        if len(guess) != word_length or not _WORD.fullmatch(guess):
            raise RequestError(f"guess {turn}: {item['guess'][:20]!r} is not a word of "
                               f"{word_length} letters a-z")
        try:  # the command line's parser: b/y/g, 0/1/2 or the shared squares
            code = parse_feedback(item["feedback"], word_length)
        except FeedbackError as exc:
            raise RequestError(f"guess {turn} ({guess}): {exc}") from None
        steps.append((guess, code_to_text(code, word_length)))
    return steps


def _budget(value, cap: float) -> float:
    if value is None:
        return min(DEFAULT_BUDGET, cap)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 < value <= cap:
        raise RequestError(f"budget must be a number of seconds in (0, {cap:g}], got {value!r}")
    return float(value)


def _mode(value) -> Mode:
    """The request's play mode (normal when not given); RequestError (400) for another name."""
    if value is None:
        return Mode.NORMAL
    if value not in MODES:
        raise RequestError(f"mode must be one of {', '.join(MODES)}, got {str(value)[:20]!r}")
    return Mode(value)


def _follow(value) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise RequestError(f"follow must be true or false, got {str(value)[:20]!r}")
    return value


def _top(value) -> int:
    if value is None:
        return 5
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TOP:
        raise RequestError(f"top must be a whole number from 0 to {MAX_TOP}, got {value!r}")
    return value


def json_depth(raw: bytes) -> int:
    """The deepest nesting of ``[``/``{`` in a JSON text (brackets inside strings skipped), so
    that a deep body is refused before the parser recurses into it."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


async def read_json(request: Request, timeout: float = BODY_TIMEOUT) -> dict:
    """The request's JSON object, read at most :data:`MAX_BODY` bytes into memory (a longer
    body is refused while it streams in: 413) within ``timeout`` seconds (else BodyTimeout,
    408), at most :data:`MAX_DEPTH` deep. Raises RequestError (and MediaTypeError for a body
    not sent as JSON)."""
    try:
        async with asyncio.timeout(timeout):
            return await _read_json(request)
    except TimeoutError:
        raise BodyTimeout(f"the request body did not arrive within {timeout:g} s") from None


async def _read_json(request: Request) -> dict:
    import json

    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise MediaTypeError("POST bodies must be JSON, sent with Content-Type: application/json")
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        raise BodyTooLarge(f"the request body is larger than {MAX_BODY} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BodyTooLarge(f"the request body is larger than {MAX_BODY} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if json_depth(raw) > MAX_DEPTH:
        raise RequestError(f"the request body is nested more than {MAX_DEPTH} deep")
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise RequestError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError("the request body must be a JSON object")
    return data


def create_app(lists=(PLAY_LISTS, LEGACY_LISTS), *, budget_cap: float = BUDGET_CAP, warm: bool = True,
               search_workers: int = 2, build_workers: int = 1, per_client: int = 2, queue: int = 8,
               allow_hosts=(), body_timeout: float = BODY_TIMEOUT) -> Starlette:
    """The ASGI app serving the page for the shipped ``lists``.

    Args:
        lists: shipped word lists' names offered (the first is the page's default).
        budget_cap: the most seconds a request may give the search (> 0).
        warm: start the worker processes and load the kernels now (else at the first request).
        search_workers, build_workers, per_client, queue: see :class:`solver.web.lanes.Lanes`.
        allow_hosts: ``Host`` names accepted besides :data:`LOCAL_HOSTS` (a request naming
            another host gets a 400, so that other web pages cannot drive this server).
        body_timeout: seconds a request's body may take to arrive (> 0; more: 408).

    Raises:
        InputError: no list, an unknown list, a cap or a count out of range.
    """
    from solver.game.wordlists import BUILTIN_LISTS
    from solver.web.lanes import Busy, Disconnected, Lanes

    lists = list(dict.fromkeys(lists))
    if not lists:
        raise InputError("no word list to offer: give --words, e.g. --words nyt-2024,legacy")
    for name in lists:
        if name not in BUILTIN_LISTS:
            raise InputError(f"{name!r} is not a shipped word list ({', '.join(BUILTIN_LISTS)})")
    if isinstance(budget_cap, bool) or not isinstance(budget_cap, (int, float)) \
            or not math.isfinite(budget_cap) or not 0 < budget_cap <= 3600:
        raise InputError(f"the budget cap must be a number of seconds in (0, 3600], got {budget_cap!r}")
    if isinstance(body_timeout, bool) or not isinstance(body_timeout, (int, float)) \
            or not math.isfinite(body_timeout) or not 0 < body_timeout <= 3600:
        raise InputError(f"the body timeout must be a number of seconds in (0, 3600], got {body_timeout!r}")
    for label, value, least in (("search workers", search_workers, 1), ("build workers", build_workers, 0),
                                ("searches per client", per_client, 1), ("queue", queue, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= 256:
            raise InputError(f"{label} must be a whole number from {least} to 256, got {value!r}")
    from solver.game.wordlists import load_word_list

    for name in lists:  # the words only (the feedback tables load in the workers)
        words = _word_lists.setdefault(name, load_word_list(name))
        if words.word_length != PAGE_WORD_LENGTH:
            five = [n for n in BUILTIN_LISTS if load_word_list(n).word_length == PAGE_WORD_LENGTH]
            raise InputError(
                f"{name!r} has {words.word_length}-letter words, but the page plays "
                f"{PAGE_WORD_LENGTH}-letter Wordle only (its board, keyboard and shared grids): offer "
                f"{', '.join(five)}; `python -m tools.assist --words {name}` plays {name}")
    lanes = Lanes(lists, search_workers=search_workers, build_workers=build_workers, per_client=per_client,
                  queue=queue)
    if warm:
        lanes.warm()

    def checked(data: dict):
        name = data.get("words", lists[0])
        if not isinstance(name, str) or name not in lists:
            raise RequestError(f"words must be one of {', '.join(lists)}, got {str(name)[:40]!r}")
        return name, _budget(data.get("budget"), budget_cap)

    async def index(request: Request):
        return FileResponse(STATIC / "index.html")

    async def config(request: Request):
        return JSONResponse({
            "lists": [{"name": name, **LIST_INFO.get(name, {"title": name, "note": ""})} for name in lists],
            "default_list": lists[0], "modes": list(MODES), "budget_cap": budget_cap,
            "default_budget": min(DEFAULT_BUDGET, budget_cap)})

    async def next_guess(request: Request):
        data = await read_json(request, body_timeout)
        words, budget = checked(data)
        history = _history(data.get("history", []), _word_lists[words].word_length)
        return await lanes.answer(_client(request), "next", words, _mode(data.get("mode")), history,
                                  _top(data.get("top")), budget, request.is_disconnected,
                                  follow=_follow(data.get("follow")))

    async def analyse(request: Request):
        data = await read_json(request, body_timeout)
        words, budget = checked(data)
        if "guesses" in data:  # the guesses with the answer or the shared grid (tools.analyse)
            history, mode = await _game_of(data, words)
        else:
            mode = _mode(data.get("mode"))
            history = _history(data.get("history", []), _word_lists[words].word_length)
        return await lanes.answer(_client(request), "analyse", words, mode, history, 0, budget,
                                  request.is_disconnected)

    async def _game_of(data: dict, words: str):
        from starlette.concurrency import run_in_threadpool

        from solver.game.history import grid_mode

        guesses, answer, grid = data["guesses"], data.get("answer"), data.get("grid")
        if not isinstance(guesses, list) or not all(isinstance(g, str) for g in guesses) or len(guesses) > 6:
            raise RequestError("guesses must be a list of at most 6 words")
        for name, value in (("answer", answer), ("grid", grid)):
            if value is not None and not isinstance(value, str):
                raise RequestError(f"{name} must be a string")
        mode = _mode(data.get("mode") or grid_mode(grid))
        steps = await run_in_threadpool(_parse_game, words, guesses, answer, grid)
        return [(guess, code_to_text(code, len(guess))) for guess, code in steps], mode

    def endpoint(handler):
        async def handle(request: Request):
            try:
                answer = await handler(request)
            except Disconnected:  # nobody to answer; the work was stopped
                return JSONResponse({"error": "the client went away"}, status_code=499)
            except Busy as exc:
                return JSONResponse({"error": str(exc)}, status_code=exc.status)
            except UnwinnableError as exc:  # the solver's answer about good input: 422, not 400
                return JSONResponse({"error": str(exc).strip().split("\n")[0]}, status_code=422)
            except InputError as exc:
                text = str(exc).strip().splitlines()
                status = (415 if isinstance(exc, MediaTypeError) else 413 if isinstance(exc, BodyTooLarge)
                          else 408 if isinstance(exc, BodyTimeout) else 400)
                return JSONResponse({"error": text[0] if text else type(exc).__name__}, status_code=status)
            except asyncio.CancelledError:  # the server is stopping: uvicorn cancels what still
                # runs once its grace period is over (the work itself was stopped on the way out);
                # a clean 503 that says so, not uvicorn's bare 500 and a traceback on stderr
                return JSONResponse({"error": "the server is shutting down; try again once it is back"},
                                    status_code=503, headers={"Connection": "close", "Retry-After": "5"})
            except Exception as exc:  # a bug: a short message, never a traceback
                return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"[:300]},
                                    status_code=500)
            status, body = answer
            return JSONResponse(body, status_code=status)
        return handle

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        lanes.close()

    routes = [
        Route("/", index),
        Route("/api/config", config),
        Route("/api/next", endpoint(next_guess), methods=["POST"]),
        Route("/api/analyse", endpoint(analyse), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    hosts = [*LOCAL_HOSTS, *allow_hosts]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])
    app.state.lanes = lanes
    return app


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


_word_lists: dict = {}


def _parse_game(words: str, guesses, answer, grid):
    """:meth:`solver.game.history.History.from_record` on the named lists (loaded once)."""
    from solver.game.history import History
    from solver.game.spec import Game

    return History.from_record(Game(_word_lists[words]), guesses, answer=answer, grid=grid)


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening; raises InputError naming the address."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except (socket.gaierror, UnicodeError) as exc:
        raise InputError(f"cannot serve on {host!r}: {getattr(exc, 'strerror', None) or exc}") from None
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
        sock.listen(2048)  # connections made once "serving" is printed wait for the server
    except OSError as exc:
        sock.close()
        raise InputError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    return sock
