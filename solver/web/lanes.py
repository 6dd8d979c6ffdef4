"""The web server's worker processes: a lookup lane, a search lane and a background build lane.

Work never runs in the server's own process (whose event loop only reads requests and writes
answers), and no lock serialises it. Three pools of worker processes (`pebble`, which can
stop a running task by stopping its process):

- **lookup** (one process): every request first; it answers what the decision trees answer
  (a few milliseconds), checks the history (a bad one is a 400 at once) and otherwise says
  which lane must take it. Nothing slow runs here, so cheap lookups never wait behind
  searches. An on-tree state whose alternatives take longer to prove than
  :data:`solver.web.work.LOOKUP_SECONDS` goes on to the search lane when a search process is
  free, and is answered at once (the exact next guess, the alternatives marked not proven)
  when all are busy. Answers are kept (:data:`KEEP_ANSWERS`, least recently used dropped
  first) and repeated from memory: exact ones for any budget, the best found by a search
  that used up its budget for requests with that budget.
- **search** (``search_workers`` processes, at a lower CPU priority): states off every tree
  (after any opener whose tree is not shipped or cached: the state itself is searched, never
  the opener's whole tree) and game analyses, each within its request's budget (the task is stopped at the budget
  plus :data:`GRACE_SECONDS`). A task whose client hung up is stopped at once (its process
  is replaced). At most ``per_client`` searches of one client address run or wait at a
  time (more: 429), at most ``search_workers + queue`` in all (more: 503).
- **build** (one process, the lowest CPU priority): after a request names an opener with no
  tree, its whole tree is built in the background (at most :data:`BUILD_QUEUE` waiting or
  running, :data:`BUILDS_PER_CLIENT` per client address), so that later questions on it — a
  game's analysis above all — are lookups. No request ever waits for a build.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections import OrderedDict
from concurrent.futures import CancelledError, TimeoutError

from pebble import ProcessExpired
from solver.exact.advice import Status
from solver.game.spec import Mode

#: Seconds a search may run past its request's budget before it is stopped.
GRACE_SECONDS = 2.0
#: Seconds a lookup may take before its process is replaced and the request searched.
LOOKUP_TIMEOUT = 5.0
#: How often (seconds) a waiting request checks whether its client is still there.
POLL_SECONDS = 0.1
#: Answers kept in the server's memory.
KEEP_ANSWERS = 4096
#: Background builds of openers' trees waiting or running, at most (a request past it starts
#: none: it was answered already, and its opener's states are searched as they come).
BUILD_QUEUE = 4
#: Background builds one client address may have waiting or running.
BUILDS_PER_CLIENT = 1


class Busy(Exception):
    """Too much work waiting (HTTP 503) or too many searches of one client (HTTP 429)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class Disconnected(Exception):
    """The client hung up while its request waited; the work was stopped."""


class Lanes:
    """The three pools, started at once (their processes load the lists and the kernels).

    Args:
        lists: the word lists' names, as offered by the page.
        search_workers: processes of the search lane (≥ 1).
        per_client: searches one client address may have running or waiting (≥ 1).
        queue: searches that may wait for a free search process (≥ 0).
    """

    def __init__(self, lists, *, search_workers: int = 2, per_client: int = 2, queue: int = 8):
        self.lists = tuple(lists)
        self.sizes = {"lookup": 1, "search": search_workers, "build": 1}
        self.pools = {role: self._new_pool(role) for role in self.sizes}
        self.builds: dict[tuple, tuple] = {}  # (words, mode, opener) -> (client, future)
        self.search_workers, self.per_client, self.queue = search_workers, per_client, queue
        self.searches: dict[str, int] = {}  # client address -> searches running or waiting
        self.kept: OrderedDict = OrderedDict()  # request (with the budget unless exact) -> answer

    def _new_pool(self, role: str):
        from pebble import ProcessPool

        from solver.web import work

        return ProcessPool(self.sizes[role], initializer=work.start, initargs=(self.lists, role),
                           context=multiprocessing.get_context("forkserver"))

    def _schedule(self, role: str, function, args, timeout: float | None = None):
        """``function(*args)`` on the ``role`` lane. A pool whose worker was killed from
        outside while idle refuses all work ("Unexpected error within the Pool"): it is
        replaced by a new one, which takes the task, so a lane never stays broken."""
        try:
            return self.pools[role].schedule(function, args, timeout=timeout)
        except RuntimeError:
            broken, self.pools[role] = self.pools[role], self._new_pool(role)
            broken.stop()
            return self.pools[role].schedule(function, args, timeout=timeout)

    def warm(self, timeout: float = 600.0) -> None:
        """Start every process and load the kernels now; raises what a worker's start raised."""
        from solver.web import work

        futures = [self._schedule(role, work.warm, (role,))
                   for role, size in self.sizes.items() for _ in range(size)]
        for future in futures:
            future.result(timeout=timeout)

    def close(self) -> None:
        for pool in self.pools.values():
            pool.stop()
            pool.join(timeout=10)

    async def _wait(self, future, is_disconnected):
        """The future's result; stops it (and raises Disconnected) when the client hangs up."""
        wrapped = asyncio.wrap_future(future)
        while True:
            done, _ = await asyncio.wait({wrapped}, timeout=POLL_SECONDS)
            if done:
                return wrapped.result()
            if await is_disconnected():
                future.cancel()  # a running pebble task: its process is stopped and replaced
                raise Disconnected()

    async def answer(self, client: str, kind: str, words: str, mode: Mode, history, top: int,
                     budget: float, is_disconnected) -> tuple[int, dict]:
        """``(status, json)`` for a ``"next"`` or ``"analyse"`` request (already checked for
        shape). Raises InputError (400), Busy (429/503), Disconnected."""
        from solver.web import work

        args = (kind, words, mode, history, top, budget)
        key = (kind, words, mode, tuple(history), top)
        self._tidy_builds()
        for known in (key, (*key, budget)):  # an exact answer, or the best one this budget found
            if known in self.kept:
                self.kept.move_to_end(known)
                return 200, dict(self.kept[known], seconds=0.0)
        try:
            route, result, opener = await self._wait(
                self._schedule("lookup", work.lookup, args, timeout=LOOKUP_TIMEOUT), is_disconnected)
        except TimeoutError:  # a lookup that was not cheap after all: its process was replaced
            route, result, opener = "search", None, None
        except ProcessExpired:  # its worker was killed from outside: searched instead
            route, result, opener = "search", None, None
        if opener is not None:  # later questions (the analysis) find its tree: built meanwhile
            self._build_later(client, words, mode, opener)
        if route == "answer":
            return 200, self._keep(key, result)
        if route == "partial" and sum(self.searches.values()) >= self.search_workers:
            return 200, result  # the next guess exact, the alternatives best found in a moment
        return 200, self._keep(key, await self.search(client, args, budget, is_disconnected), budget)

    def _keep(self, key, answer: dict, budget: float | None = None) -> dict:
        """Keep ``answer`` for repeats of the request: under ``key`` when it is exact (the
        alternatives complete), else under ``key`` and the ``budget`` its search used up."""
        exact = answer.get("status") in (Status.EXACT, Status.SOLVED) and answer.get("alternatives_complete", True) \
            if "moves" not in answer else answer.get("all_values_exact", False)
        if exact or budget is not None:
            self.kept[key if exact else (*key, budget)] = answer
            if len(self.kept) > KEEP_ANSWERS:
                self.kept.popitem(last=False)
        return answer

    async def search(self, client: str, args, budget: float, is_disconnected) -> dict:
        from solver.web import work

        running = sum(self.searches.values())
        mine = self.searches.get(client, 0)
        if mine >= self.per_client:
            raise Busy(f"this client already has {mine} searches running or waiting (at most "
                       f"{self.per_client}); wait for one to finish", 429)
        if running >= self.search_workers + self.queue:
            raise Busy(f"the server is busy ({running} searches running or waiting); try again "
                       "in a few seconds", 503)
        self.searches[client] = mine + 1
        try:
            future = self._schedule("search", work.search, args, timeout=budget + GRACE_SECONDS)
            try:
                return await self._wait(future, is_disconnected)
            except TimeoutError:
                raise Busy(f"the search ran past its budget of {budget:g} s and was stopped", 503) from None
            except ProcessExpired:
                raise Busy("the search's worker process stopped (it is replaced); try again", 503) from None
            except CancelledError:
                raise Disconnected() from None
        finally:
            self.searches[client] -= 1
            if not self.searches[client]:
                del self.searches[client]

    def _build_later(self, client: str, words: str, mode: Mode, opener: str) -> None:
        """Start the background build of ``opener``'s tree, unless it is under way or the
        limits (:data:`BUILD_QUEUE`, :data:`BUILDS_PER_CLIENT`) are reached. Never awaited:
        the request that named the opener is answered by a search meanwhile."""
        from solver.web import work

        key = (words, mode, opener)
        if key in self.builds or len(self.builds) >= BUILD_QUEUE:
            return
        if sum(who == client for who, _ in self.builds.values()) >= BUILDS_PER_CLIENT:
            return
        self.builds[key] = (client, self._schedule("build", work.build, (words, mode, opener)))

    def _tidy_builds(self) -> None:
        """Forget finished builds; answers kept as not exact for a built opener's histories are
        dropped, so the next such request is answered from its tree."""
        for key, (_, future) in list(self.builds.items()):
            if not future.done():
                continue
            del self.builds[key]
            if future.cancelled() or future.exception() is not None:
                continue
            words, mode, opener = key
            for kept in [k for k in self.kept if len(k) == 6 and k[1:3] == (words, mode)
                         and k[3] and k[3][0][0] == opener]:
                del self.kept[kept]
