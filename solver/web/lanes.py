"""The web server's worker processes: a lookup lane, a search lane and a background build lane.

Work never runs in the server's own process (whose event loop only reads requests and writes
answers), and no lock serialises it. Three pools of worker processes (`pebble`, which can
stop a running task by stopping its process):

- **lookup** (:data:`LOOKUP_WORKERS` processes): every request first; it answers what the decision trees answer
  (a few milliseconds), checks the history (a bad one is a 400 at once) and otherwise says
  which lane must take it. Nothing slow runs here, so cheap lookups never wait behind
  searches. At most :data:`LOOKUPS_PER_CLIENT` lookups of one client address wait or run at
  a time (more: 429), :data:`LOOKUP_QUEUE` in all (more: 503). An on-tree state is answered
  at once (the exact next guess and its value); when its alternatives are not trivially
  complete, the answer is marked ``"alternatives_pending": true`` and they are ranked in the
  background (a search of the client's): on this lane for
  :data:`solver.web.work.LOOKUP_SECONDS`, then, if not finished, on the search lane within the
  request's budget; the same request sent again with ``"follow": true`` waits for them.
  Answers are kept (:data:`KEEP_ANSWERS`, least recently used dropped first) and repeated
  from memory: exact ones for any budget, the best found by a search that used up its budget
  for requests with that budget.
- **search** (``search_workers`` processes, at a lower CPU priority): states off every tree
  (after any opener whose tree is not shipped or cached: the state itself is searched, never
  the opener's whole tree) and game analyses, each within its request's budget (the task is stopped at the budget
  plus :data:`GRACE_SECONDS`). A task whose client hung up is stopped at once (its process
  is replaced). At most ``per_client`` searches of one client address run or wait at a
  time (more: 429), at most ``search_workers + queue`` in all (more: 503).
- **build** (one process, the lowest CPU priority): after a request names an opener with no
  tree, its whole tree is built in the background (at most :data:`BUILD_QUEUE` waiting or
  running, :data:`BUILDS_PER_CLIENT` per client address), so that later questions on it — a
  game's analysis above all — are lookups. No request ever waits for a build, and a build
  outlives the request that named its opener (it serves the game's later requests).

A worker killed from outside (``kill -9``, the out-of-memory killer) is replaced: an idle one's
pool is replaced at the next task, and the broken pool is stopped for good (its other
processes end: none is left behind); a lookup it was running is searched instead; a search or
analysis it was running is answered with a clean 503 ("try again"), never a 500, and the
lane goes on. So is a search whose own child process or shares died
(:class:`~solver.game.errors.WorkerLost`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections import OrderedDict
from concurrent.futures import TimeoutError
from concurrent.futures.process import BrokenProcessPool

from pebble import ProcessExpired
from solver.exact.advice import Status
# raised when the worker process running a task died (killed from outside), or its pool was
# replaced while the task waited: the task was not done (also what a search raises whose own
# child or shares died)
from solver.game.errors import WorkerLost
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
#: Processes of the lookup lane (a request's lookup never waits long behind another's ranking
#: of alternatives).
LOOKUP_WORKERS = 2
#: Lookups one client address may have waiting or running (the page sends two at a time).
LOOKUPS_PER_CLIENT = 8
#: Lookups waiting or running in all.
LOOKUP_QUEUE = 64
#: Seconds the server's stop waits for its pools' processes to end: pebble's join takes no
#: timeout once a pool is stopped, and a pool whose worker was killed mid-task can hang there.
CLOSE_SECONDS = 10.0


def _stop_for_good(pools) -> threading.Thread:
    """Stop ``pools``: their pending tasks dropped and their processes ended, by a thread that
    it returns. pebble ends a pool's processes in its ``join`` only (``stop`` just marks the
    pool stopped: a broken pool replaced with ``stop`` alone kept its live worker, a process
    and its memory leaked at every kill), and a join can hang (:data:`CLOSE_SECONDS`), so it
    runs in that thread, which the event loop never waits for."""

    def join() -> None:
        for pool in pools:
            pool.join()

    for pool in pools:
        pool.stop()
    joiner = threading.Thread(target=join, daemon=True, name="lanes-stop")
    joiner.start()
    return joiner


class Busy(Exception):
    """Too much work waiting (HTTP 503) or too many searches of one client (HTTP 429)."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class Disconnected(Exception):
    """The client hung up while its request waited; the work was stopped."""


async def _connected() -> bool:
    """``is_disconnected`` of work that no request waits for (a background search)."""
    return False


class Lanes:
    """The three pools, started at once (their processes load the lists and the kernels).

    Args:
        lists: the word lists' names, as offered by the page.
        search_workers: processes of the search lane (≥ 1).
        build_workers: processes of the build lane (≥ 0; 0: no lane, no opener's tree is built).
        per_client: searches one client address may have running or waiting (≥ 1).
        queue: searches that may wait for a free search process (≥ 0).
    """

    def __init__(self, lists, *, search_workers: int = 2, build_workers: int = 1, per_client: int = 2,
                 queue: int = 8):
        self.lists = tuple(lists)
        sizes = {"lookup": LOOKUP_WORKERS, "search": search_workers, "build": build_workers}
        self.sizes = {role: size for role, size in sizes.items() if size > 0}  # 0 build workers: no lane
        self.pools = {role: self._new_pool(role) for role in self.sizes}
        self.builds: dict[tuple, tuple] = {}  # (words, mode, opener) -> (client, future)
        self.search_workers, self.per_client, self.queue = search_workers, per_client, queue
        self.searches: dict[str, int] = {}  # client address -> searches running or waiting
        self.lookups: dict[str, int] = {}  # client address -> lookups running or waiting
        self.following: dict[tuple, asyncio.Task] = {}  # request -> its alternatives' search
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
            _stop_for_good([broken])
            return self.pools[role].schedule(function, args, timeout=timeout)

    def warm(self, timeout: float = 600.0) -> None:
        """Start every process and load the kernels now; raises what a worker's start raised."""
        from solver.web import work

        futures = [self._schedule(role, work.warm, (role,))
                   for role, size in self.sizes.items() for _ in range(size)]
        for future in futures:
            future.result(timeout=timeout)

    def close(self) -> None:
        """Stop every lane: pending tasks dropped, each pool's processes ended, waited for
        together at most :data:`CLOSE_SECONDS` (a pool that hangs is left to the process's exit,
        which its workers do not outlive)."""
        for task in list(self.following.values()):
            task.cancel()
        _stop_for_good(list(self.pools.values())).join(CLOSE_SECONDS)

    async def _wait(self, future, is_disconnected, stop_running: bool = True):
        """The (pebble) future's result. Stops the task (and raises Disconnected) when the
        client hangs up, or when the waiting coroutine is cancelled; raises WorkerLost when its
        worker died or its pool was replaced, TimeoutError past the task's timeout, and what
        the task raised (an InputError). With ``stop_running`` False, a task already running
        is left to finish (a lookup: milliseconds, where stopping it would cost its worker,
        whose replacement loads the kernels again); one still waiting is dropped."""
        wrapped = asyncio.wrap_future(future)
        # its outcome is read here or nowhere: never "exception was never retrieved" at exit
        wrapped.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            while True:
                done, _ = await asyncio.wait({wrapped}, timeout=POLL_SECONDS)
                if done:
                    break
                if await is_disconnected():
                    if stop_running or not future.running():
                        future.cancel()  # a running pebble task: its process is stopped and replaced
                    raise Disconnected()
        except asyncio.CancelledError:
            if stop_running or not future.running():
                future.cancel()
            raise
        if wrapped.cancelled():  # not by us: its pool was stopped and replaced
            raise WorkerLost()
        try:
            return wrapped.result()
        except (ProcessExpired, BrokenProcessPool):
            raise WorkerLost() from None

    def _claim(self, counts: dict, client: str, per_client: int, total: int, what: str) -> None:
        """Count one more ``what`` of ``client`` in ``counts``; raises Busy (429: the client's
        ``per_client``; 503: ``total`` in all) instead when it would pass a limit."""
        mine, running = counts.get(client, 0), sum(counts.values())
        if mine >= per_client:
            raise Busy(f"this client already has {mine} {what} running or waiting (at most "
                       f"{per_client}); wait for one to finish", 429)
        if running >= total:
            raise Busy(f"the server is busy ({running} {what} running or waiting); try again "
                       "in a few seconds", 503)
        counts[client] = mine + 1

    @staticmethod
    def _release(counts: dict, client: str) -> None:
        counts[client] -= 1
        if not counts[client]:
            del counts[client]

    async def answer(self, client: str, kind: str, words: str, mode: Mode, history, top: int,
                     budget: float, is_disconnected, follow: bool = False) -> tuple[int, dict]:
        """``(status, json)`` for a ``"next"`` or ``"analyse"`` request (already checked for
        shape). With ``follow``, a next-guess request whose alternatives are being searched in
        the background waits for them (else it is answered at once). Raises InputError (400),
        Busy (429/503), Disconnected."""
        from solver.web import work

        args = (kind, words, mode, history, top, budget)
        key = (kind, words, mode, tuple(history), top)
        self._tidy_builds()
        for known in (key, (*key, budget)):  # an exact answer, or the best one this budget found
            if known in self.kept:
                self.kept.move_to_end(known)
                return 200, dict(self.kept[known], seconds=0.0)
        if follow and key in self.following:
            return 200, await self._follow(key, is_disconnected)
        self._claim(self.lookups, client, LOOKUPS_PER_CLIENT, LOOKUP_QUEUE, "lookups")
        try:
            route, result, opener = await self._wait(  # the next guess at once (no ranking)
                self._schedule("lookup", work.lookup, (*args, 0.0), timeout=LOOKUP_TIMEOUT), is_disconnected,
                stop_running=False)
        except TimeoutError:  # a lookup that was not cheap after all: its process was replaced
            route, result, opener = "search", None, None
        except WorkerLost:  # its worker was killed from outside: searched instead
            route, result, opener = "search", None, None
        finally:
            self._release(self.lookups, client)
        if opener is not None:  # later questions (the analysis) find its tree: built meanwhile
            self._build_later(client, words, mode, opener)
        if route == "answer":
            return 200, self._keep(key, result)
        if route == "partial":  # the next guess exact at once; its alternatives follow
            if key not in self.following and not self._search_later(client, key, args, budget, result):
                return 200, result  # no search free for this client: the alternatives as found
            if follow:
                return 200, await self._follow(key, is_disconnected)
            return 200, dict(result, alternatives_pending=True)
        return 200, self._keep(key, await self.search(client, args, budget, is_disconnected), budget)

    def _search_later(self, client: str, key, args, budget: float, partial: dict) -> bool:
        """Search the alternatives of ``key``'s request in the background (a search of
        ``client``'s, within ``budget``), its answer kept for the request's repeats; False
        (nothing started) when the client's or the server's search limit is reached. When the
        search fails (past its budget, its worker killed), its answer is ``partial`` (the
        lookup's: the next guess exact, the alternatives as found), not kept."""
        try:
            self._claim(self.searches, client, self.per_client, self.search_workers + self.queue,
                        "searches")
        except Busy:
            return False

        async def alternatives():
            from solver.web import work

            try:
                try:  # ranked on the lookup lane first (never behind searches): most are done there
                    route, answer, _ = await self._wait(self._schedule(
                        "lookup", work.lookup, (*args, work.LOOKUP_SECONDS), timeout=LOOKUP_TIMEOUT), _connected,
                        stop_running=False)
                except (TimeoutError, WorkerLost):
                    route = "search"
                if route == "answer":
                    return self._keep(key, answer)
                return self._keep(key, await self._searched(args, budget, _connected), budget)
            except Busy:
                return partial
            finally:
                self._release(self.searches, client)
                self.following.pop(key, None)

        task = asyncio.get_running_loop().create_task(alternatives())
        task.add_done_callback(lambda done: done.cancelled() or done.exception())  # seen by _follow
        self.following[key] = task
        return True

    async def _follow(self, key, is_disconnected) -> dict:
        """The answer of ``key``'s background search, once done. When the client waiting for it
        hangs up, the search is stopped (Disconnected)."""
        task = self.following[key]
        while not task.done():
            await asyncio.wait({task}, timeout=POLL_SECONDS)
            if not task.done() and await is_disconnected():
                task.cancel()  # stops its worker's task
                raise Disconnected()
        if task.cancelled():  # another request waiting for it hung up
            raise Busy("the search of the alternatives was stopped; try again", 503)
        return dict(task.result())

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
        """A search of ``client``'s on the search lane (limits: ``per_client``, 429;
        ``search_workers + queue`` in all, 503)."""
        self._claim(self.searches, client, self.per_client, self.search_workers + self.queue, "searches")
        try:
            return await self._searched(args, budget, is_disconnected)
        finally:
            self._release(self.searches, client)

    async def _searched(self, args, budget: float, is_disconnected) -> dict:
        """``work.search(*args)`` on the search lane, stopped at ``budget`` plus
        :data:`GRACE_SECONDS` (Busy 503), when its client hangs up (Disconnected) or when its
        worker dies (Busy 503: try again)."""
        from solver.web import work

        future = self._schedule("search", work.search, args, timeout=budget + GRACE_SECONDS)
        try:
            return await self._wait(future, is_disconnected)
        except TimeoutError:
            raise Busy(f"the search ran past its budget of {budget:g} s and was stopped", 503) from None
        except WorkerLost:
            raise Busy("the search's worker process stopped (it is replaced); try again", 503) from None

    def _build_later(self, client: str, words: str, mode: Mode, opener: str) -> None:
        """Start the background build of ``opener``'s tree, unless it is under way or the
        limits (:data:`BUILD_QUEUE`, :data:`BUILDS_PER_CLIENT`) are reached. Never awaited:
        the request that named the opener is answered by a search meanwhile."""
        from solver.web import work

        key = (words, mode, opener)
        if "build" not in self.pools or key in self.builds or len(self.builds) >= BUILD_QUEUE:
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
