"""The web page: play from any position and analyse the game, in a browser (Starlette).

One static page (``static/index.html``, ``app.js``, ``style.css``) and three JSON endpoints,
which ask the same search service as the command-line tools
(:class:`solver.exact.service.SearchService`, one per list and mode, kept while the server runs):

- ``GET /api/config`` → ``{"lists": [...], "modes": [...], "budget_cap": s, "default_budget": s}``;
- ``POST /api/next`` ``{"words": "legacy", "mode": "normal", "history": [{"guess": "salet",
  "feedback": "bbbby"}, ...], "top": 5, "budget": 2}`` →
  :meth:`solver.exact.service.Advice.to_json` (``tools.assist --json``); ``top`` 0 answers
  without ranking alternatives; histories of six guesses (lost games) are answered too;
- ``POST /api/analyse`` ``{"words", "mode", "history", "budget"}`` →
  :meth:`solver.evaluation.analysis.GameAnalysis.to_json` (``tools.analyse --json``).

When a history starts with an opener whose optimal tree is neither shipped nor cached, both
answer ``202`` with ``{"building": {"opener", "done", "total"}}`` and solve the tree in the
background (once, kept in the user cache); the page repeats the request, showing the progress,
until the answer comes.

Every input is checked (list name, history length, each guess's letters and list, each
feedback's pattern, ``top``, the budget, capped at ``budget_cap`` seconds): a bad one gets a
400 with ``{"error": "<one line>"}``, the same message the command line prints. The exact
work runs one request at a time (the machine's cores go to the search's child process).
"""

from __future__ import annotations

import math
import re
import threading
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from solver.game.errors import InputError
from solver.game.feedback import code_to_text

STATIC = Path(__file__).resolve().parent / "static"
#: Longest a request may ask the exact search to run, by default.
BUDGET_CAP = 5.0
DEFAULT_BUDGET = 2.0
MAX_TOP = 10
MAX_BODY = 16_384
_WORD = re.compile(r"[a-z]+")
_FEEDBACK = re.compile(r"[byg]+")


class RequestError(InputError):
    """A request's body or field that cannot be used (HTTP 400)."""


class MediaTypeError(RequestError):
    """A POST whose body is not declared as JSON (HTTP 415)."""


MODES = ("normal", "hard")
#: What each shipped 5-letter list is, for the page's list choice (solver/data/README.md).
LIST_INFO = {
    "nyt-2024": {"title": "NYT 2024 lists",
                 "note": "Today's game on the New York Times site uses these: 2,309 answers, "
                         "14,855 allowed guesses (late 2024)."},
    "legacy": {"title": "Original 2022 lists",
               "note": "The lists of Wordle before the NYT edited them (2,315 answers, 12,972 "
                       "guesses): for old games and the published optimum (SALET, 3.4212)."},
}


class Game:
    """One word list ready for requests: a search service per mode, and the openers' trees
    being built in the background (:meth:`building`)."""

    def __init__(self, name: str):
        from solver.exact.service import SearchService
        from solver.game.feedback import feedback_table
        from solver.game.wordlists import load_word_list

        self.word_list = load_word_list(name)
        self.table = feedback_table(self.word_list)
        self.services = {mode: SearchService(self.word_list, mode=mode, table=self.table)
                         for mode in MODES}
        self._builds: dict[tuple[str, str], dict] = {}
        self._lock = threading.Lock()

    def building(self, mode: str, history) -> dict | None:
        """None when the history's opener has its tree (or the history is empty or not valid:
        the request then says why); else the build's progress ``{"opener", "done", "total"}``,
        the build started in a background thread if it is not running yet."""
        service = self.services[mode]
        if not history:
            return None
        opener = history[0][0]
        if opener not in set(self.word_list.guesses) or service.book.find(opener) is not None:
            return None
        key = (mode, opener)
        with self._lock:
            build = self._builds.get(key)
            if build is not None and build.get("error") is not None:
                del self._builds[key]  # the request itself reports the error
                return None
            if build is None:
                build = {"opener": opener, "done": 0, "total": self.word_list.n_answers, "error": None}
                self._builds[key] = build
                threading.Thread(target=self._build, args=(service, opener, build), daemon=True).start()
        return {k: build[k] for k in ("opener", "done", "total")}

    def _build(self, service, opener: str, build: dict) -> None:
        def progress(done: int, total: int) -> None:
            build["done"], build["total"] = done, total

        try:
            service.book.tree(opener, progress=progress, jobs=service.jobs)
        except Exception as exc:  # noqa: BLE001 - reported by the next request on this opener
            build["error"] = str(exc)
            return
        with self._lock:
            self._builds.pop((service.spec.mode, opener), None)


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
        guess, feedback = item["guess"].strip().lower(), item["feedback"].strip().lower()
        if len(guess) != word_length or not _WORD.fullmatch(guess):
            raise RequestError(f"guess {turn}: {item['guess'][:20]!r} is not a word of "
                               f"{word_length} letters a-z")
        if len(feedback) != word_length or not _FEEDBACK.fullmatch(feedback):
            raise RequestError(f"guess {turn} ({guess}): feedback {item['feedback'][:20]!r} is not "
                               f"{word_length} of b/y/g (gray/yellow/green)")
        steps.append((guess, feedback))
    return steps


def _budget(value, cap: float) -> float:
    if value is None:
        return min(DEFAULT_BUDGET, cap)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
            or not 0 < value <= cap:
        raise RequestError(f"budget must be a number of seconds in (0, {cap:g}], got {value!r}")
    return float(value)


def _mode(value) -> str:
    if value is None:
        return "normal"
    if value not in MODES:
        raise RequestError(f"mode must be one of {', '.join(MODES)}, got {str(value)[:20]!r}")
    return value


def _top(value) -> int:
    if value is None:
        return 5
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_TOP:
        raise RequestError(f"top must be a whole number from 0 to {MAX_TOP}, got {value!r}")
    return value


def create_app(lists=("legacy",), *, budget_cap: float = BUDGET_CAP, warm: bool = True) -> Starlette:
    """The ASGI app serving the page for the shipped ``lists`` (loaded, with their trees, now).

    ``budget_cap``: the most seconds a request may give the search. ``warm``: load the solver's
    kernels now, so the first request does not pay for it. Raises InputError for an unknown
    list or a cap that is not positive."""
    from solver.game.wordlists import BUILTIN_LISTS

    for name in lists:
        if name not in BUILTIN_LISTS:
            raise InputError(f"{name!r} is not a shipped word list ({', '.join(BUILTIN_LISTS)})")
    if not (isinstance(budget_cap, (int, float)) and math.isfinite(budget_cap) and budget_cap > 0):
        raise InputError(f"the budget cap must be a positive number of seconds, got {budget_cap!r}")
    games = {name: Game(name) for name in lists}
    lock = threading.Lock()
    if warm:  # the search kernels loaded now, not by the first request
        game = next(iter(games.values()))
        game.services["normal"].advise(["salet:bbbby", "crane:bbbbb"], top=2)

    async def body_of(request: Request) -> dict:
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise MediaTypeError("POST bodies must be JSON, sent with Content-Type: application/json")
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise RequestError(f"the request body is larger than {MAX_BODY} bytes")
        import json

        try:
            data = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise RequestError("the request body is not JSON") from None
        if not isinstance(data, dict):
            raise RequestError("the request body must be a JSON object")
        return data

    def game_of(data: dict) -> Game:
        name = data.get("words", next(iter(games)))
        if not isinstance(name, str) or name not in games:
            raise RequestError(f"words must be one of {', '.join(games)}, got {str(name)[:40]!r}")
        return games[name]

    async def index(request: Request):
        return FileResponse(STATIC / "index.html")

    async def config(request: Request):
        return JSONResponse({
            "lists": [{"name": name, **LIST_INFO.get(name, {"title": name, "note": ""})} for name in games],
            "default_list": next(iter(games)), "modes": list(MODES), "budget_cap": budget_cap,
            "default_budget": min(DEFAULT_BUDGET, budget_cap)})

    def _next(data: dict):
        game = game_of(data)
        mode = _mode(data.get("mode"))
        history = _history(data.get("history", []), game.word_list.word_length)
        top, budget = _top(data.get("top")), _budget(data.get("budget"), budget_cap)
        building = game.building(mode, history)
        if building is not None:
            return 202, {"building": building}
        with lock:
            advice = game.services[mode].advise(history, top=top, budget=budget,
                                                alternatives_budget=budget)
        return 200, advice.to_json()

    def _analyse(data: dict):
        from solver.evaluation.analysis import analyse_game, grid_mode, parse_game

        game = game_of(data)
        if "guesses" in data:  # the guesses with the answer or the shared grid (tools.analyse)
            guesses, answer, grid = data["guesses"], data.get("answer"), data.get("grid")
            if not isinstance(guesses, list) or not all(isinstance(g, str) for g in guesses) \
                    or len(guesses) > 6:
                raise RequestError("guesses must be a list of at most 6 words")
            for name, value in (("answer", answer), ("grid", grid)):
                if value is not None and not isinstance(value, str):
                    raise RequestError(f"{name} must be a string")
            mode = _mode(data.get("mode") or grid_mode(grid))
            steps = parse_game(game.word_list, guesses, answer=answer, grid=grid)
            history = [(guess, code_to_text(code, len(guess))) for guess, code in steps]
        else:
            mode = _mode(data.get("mode"))
            history = _history(data.get("history", []), game.word_list.word_length)
        budget = _budget(data.get("budget"), budget_cap)
        building = game.building(mode, history)
        if building is not None:
            return 202, {"building": building}
        with lock:
            analysis = analyse_game(game.word_list, history, budget=budget,
                                    service=game.services[mode])
        return 200, analysis.to_json()

    def endpoint(work):
        async def handle(request: Request):
            from starlette.concurrency import run_in_threadpool

            try:
                data = await body_of(request)
                status, answer = await run_in_threadpool(work, data)
                return JSONResponse(answer, status_code=status)
            except InputError as exc:
                text = str(exc).strip().splitlines()
                return JSONResponse({"error": text[0] if text else type(exc).__name__},
                                    status_code=415 if isinstance(exc, MediaTypeError) else 400)
            except Exception as exc:  # a bug: a short message, never a traceback
                return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"[:300]},
                                    status_code=500)
        return handle

    routes = [
        Route("/", index),
        Route("/api/config", config),
        Route("/api/next", endpoint(_next), methods=["POST"]),
        Route("/api/analyse", endpoint(_analyse), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes)
