"""The web server as a process (``tools.serve``): it refuses what could hurt it (huge or deep
bodies, foreign ``Host`` headers, headers or bodies sent too slowly), stops work nobody waits
for, gives each request one budget, caps the lookups, searches and builds of one client and of
all, heals when its workers are killed (a soak test kills them while clients play), and says
in one line why it cannot start.

The speed under load (cheap lookups while searches run) is measured by ``make bench``
(``benchmarks.bench_serve``), not here."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from webserver import ROOT, free_port

# the workers load the full legacy feedback table; its searches keep budgets
pytestmark = [pytest.mark.slow, pytest.mark.timed]

#: Leaves the SALET tree at the second guess with 213 answers left: a search of seconds.
OFF_TREE = [("salet", "bbbbb"), ("qajaq", "bbbbb")]
#: Two poor guesses leaving 946 answers: a search that runs its whole budget (a state of the
#: second guess, which no opener table holds; the module's server builds no trees, so it stays
#: a search each time it is asked).
SLOW = [("fuzzy", "bbbbb"), ("xylyl", "bbbbb")]
#: A six-guess game (answer crony) that leaves the tree at the second guess.
OFF_TREE_GAME = ["salet", "qajaq", "fuzzy", "bumph", "wimpy", "crony"]


class Server:
    """``tools.serve`` on a free loopback port, with the given options."""

    def __init__(self, *options: str, env=None):
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "tools.serve", "--port", str(self.port),
                                      "--words", "legacy", *options], cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env)
        line = self.proc.stdout.readline()
        assert line.startswith("serving http://127.0.0.1"), (line, self.proc.stderr.read())

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=30)

    def post(self, path: str, body, *, headers=None, timeout: float = 60.0) -> tuple[int, dict]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        connection.request("POST", path, body=raw, headers={"Content-Type": "application/json", **(headers or {})})
        response = connection.getresponse()
        status, text = response.status, response.read()
        connection.close()
        return status, json.loads(text) if text.startswith(b"{") else {"text": text.decode()}

    def rss_kb(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by the server's descendants (its worker processes)."""
        children: dict[int, list[int]] = {}
        ticks = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
            ticks[int(entry)] = int(fields[11]) + int(fields[12])  # utime + stime
        total, todo = 0, list(children.get(self.proc.pid, []))
        while todo:
            pid = todo.pop()
            total += ticks.get(pid, 0)
            todo += children.get(pid, [])
        return total / os.sysconf("SC_CLK_TCK")


def rows(history) -> list[dict]:
    return [{"guess": guess, "feedback": feedback} for guess, feedback in history]


def lane_workers(server_pid: int) -> dict[int, int]:
    """``{pid: nice value}`` of the server's lane workers: the processes its forkserver started
    (lookups run at nice 0, searches at 5, builds at 10: solver.web.work.start)."""
    children: dict[int, list[int]] = {}
    names, nice = {}, {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                    names[int(entry)] = cmdline.read()
            except OSError:
                continue
            if fields[0] == "Z":  # ended, not yet reaped
                continue
            children.setdefault(int(fields[1]), []).append(int(entry))
            nice[int(entry)] = int(fields[16])
    forkservers = [pid for pid in children.get(server_pid, []) if b"forkserver" in names.get(pid, b"")]
    return {pid: nice[pid] for server in forkservers for pid in children.get(server, [])}


@pytest.fixture(scope="module")
def server(warm_assist_kernels, tmp_path_factory):  # kernels compiled into numba's cache first
    """The module's server, with a user cache of its own holding only the legacy feedback table:
    no opener's tree a player has cached (FUZZY's would make the SLOW state a lookup)."""
    from solver.game.feedback import table_cache_path
    from solver.game.wordlists import load_word_list

    cache = tmp_path_factory.mktemp("cache")
    table = table_cache_path(load_word_list("legacy"))  # written by warm_assist_kernels' table
    shutil.copyfile(table, cache / table.name)
    started = Server("--search-workers", "1", "--build-workers", "0", "--per-client", "1", "--queue", "1",
                     "--header-timeout", "2", "--body-timeout", "2",
                     env=dict(os.environ, EXACT_WORDLE_CACHE=str(cache)))
    yield started
    started.close()


def test_a_foreign_host_is_refused(server):
    status, answer = server.post("/api/next", {"history": []}, headers={"Host": "attacker.example"})
    assert status == 400 and "Invalid host header" in answer["text"]
    assert server.post("/api/next", {"history": []}, headers={"Host": f"localhost:{server.port}"})[0] == 200


def test_the_empty_history_is_answered_whole_and_starts_no_search(server):
    """The openers listed before any guess are the book's, whatever the budget: answered at
    once, with no background search holding the client's one search (--per-client 1) when it
    asks its next question."""
    status, answer = server.post("/api/next", {"history": [], "top": 5, "budget": 5})
    assert status == 200 and answer["next_guess"] == "salet" and len(answer["alternatives"]) == 5
    assert "alternatives_pending" not in answer
    status, answer = server.post("/api/next", {"history": rows(OFF_TREE), "top": 5, "budget": 5})
    assert status == 200 and answer["status"] == "exact", answer


def test_deep_json_is_400(server):
    status, answer = server.post("/api/next", b"[" * 5000 + b"]" * 5000)
    assert status == 400 and answer == {"error": "the request body is nested more than 8 deep"}


def test_a_huge_chunked_body_is_refused_while_it_streams(server):
    """300 MB sent in chunks: the server answers 413 after 16 KB and its memory hardly moves."""
    before = server.rss_kb()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    sock.sendall(b"POST /api/next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Transfer-Encoding: chunked\r\n\r\n")
    chunk = b"%x\r\n" % (1 << 20) + b" " * (1 << 20) + b"\r\n"
    sent = 0
    try:
        for _ in range(300):
            sock.sendall(chunk)
            sent += 1
    except OSError:  # the server answered and closed the connection: the rest was never read
        pass
    reply = b""
    try:
        while b"\r\n\r\n" not in reply:
            part = sock.recv(4096)
            if not part:
                break
            reply += part
    except OSError:
        pass
    sock.close()
    grown_mb = (server.rss_kb() - before) / 1024
    assert reply.startswith(b"HTTP/1.1 413"), reply[:100]
    assert grown_mb < 20, f"RSS grew by {grown_mb:.1f} MB after {sent} MB sent"


def test_a_client_that_hangs_up_stops_its_search(server):
    """A search (budget 5 s, of a state that takes minutes) is stopped within a second of its
    client closing the connection."""
    body = json.dumps({"words": "legacy", "history": rows(SLOW), "top": 5, "budget": 5}).encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    start_cpu, started = server.cpu_seconds(), time.monotonic()
    sock.sendall(b"POST /api/next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(body) + body)
    try:
        # at nice 5 on a busy machine the search gets a fraction of a core, but it does run
        busy = 0.0
        while busy <= 0.3 and time.monotonic() - started < 3.0:
            time.sleep(0.1)
            busy = server.cpu_seconds() - start_cpu
        assert busy > 0.3, f"the search was not running ({busy:.2f} CPU-s in 3 s)"
        sock.settimeout(0.01)
        with pytest.raises(TimeoutError):  # no answer yet: the search is the one running
            sock.recv(1)
    finally:
        sock.close()  # also when the check fails: a search left running would fail the next tests
    time.sleep(1.0)
    idle_from = server.cpu_seconds()
    time.sleep(1.0)
    after = server.cpu_seconds() - idle_from
    assert after < 0.2, f"{after:.2f} CPU-s used in the second after the client hung up"


def test_one_client_has_its_cap_and_the_queue_its_bound(server):
    """--per-client 1: a second search of the same client is 429 while the first runs."""
    results = {}

    def first():
        results["first"] = server.post("/api/next", {"history": rows(SLOW), "top": 5, "budget": 3})

    thread = threading.Thread(target=first)
    thread.start()
    time.sleep(0.8)
    second = server.post("/api/next", {"history": rows(OFF_TREE[:1] + [("fuzzy", "bbbbb")]), "top": 5,
                                       "budget": 3})  # not asked before: no answer kept
    thread.join(timeout=30)
    assert results["first"][0] == 200, results["first"]
    assert results["first"][1]["status"] == "best found, not proven"  # it ran its whole budget
    assert second[0] == 429 and "at most 1" in second[1]["error"]


def test_an_analysis_of_six_off_tree_moves_fits_one_budget(server):
    """The budget is the whole analysis's: six moves off the tree answer within it (the server
    stops a search at its budget plus 2 s with a 503, so a 200 is the proof)."""
    started = time.monotonic()
    status, answer = server.post("/api/analyse", {"guesses": OFF_TREE_GAME, "answer": "crony", "budget": 2})
    elapsed = time.monotonic() - started
    assert status == 200, answer
    assert [move["guess"] for move in answer["moves"]] == OFF_TREE_GAME
    assert answer["seconds"] <= 2.5 and elapsed < 4.0, (answer["seconds"], elapsed)


@pytest.mark.parametrize("options, message", [
    (["--words", ","], "no word list to offer"),
    (["--words", "elvish"], "'elvish' is not a shipped word list"),
    (["--host", "no-such-host.invalid"], "cannot serve on 'no-such-host.invalid'"),
])
def test_start_up_errors_are_one_line_and_exit_2(options, message):
    done = subprocess.run([sys.executable, "-m", "tools.serve", "--port", str(free_port()), *options], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "", (done.returncode, done.stdout)
    assert len(done.stderr.strip().splitlines()) == 1 and message in done.stderr, done.stderr


def test_a_busy_port_is_one_line_and_exit_2():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "tools.serve", "--port", str(port)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"error: cannot serve on 127.0.0.1:{port}: Address already in use", done.stderr


@pytest.mark.slow
@pytest.mark.timed
def test_a_killed_idle_worker_is_replaced_and_its_lane_answers_again():
    """kill -9 of an idle lookup or search worker broke its pebble pool for good (every later
    request: 500 "Unexpected error within the Pool"); the lane now replaces the pool."""
    import asyncio

    from solver.game.spec import Mode
    from solver.web.lanes import Lanes

    async def connected():
        return False

    async def play():
        lanes = Lanes(["legacy"], search_workers=1)
        try:
            lanes.warm()
            for role in ("lookup", "search", "build"):
                manager = lanes.pools[role]._pool_manager.worker_manager
                for worker in list(manager.workers.values()):
                    os.kill(worker.pid, signal.SIGKILL)
            await asyncio.sleep(1.0)
            answers = [await lanes.answer("c", "next", "legacy", Mode.NORMAL, history, 0, 3.0, connected)
                       for history in ([("crane", "bbbbb")], [("crane", "bbbby"), ("moist", "bbbbb")])]
            return answers
        finally:
            lanes.close()

    for status, answer in asyncio.run(play()):
        assert status == 200 and answer["status"] == "exact", answer


@pytest.mark.slow
@pytest.mark.timed
def test_a_replaced_pool_leaves_no_process_behind():
    """kill -9 of an idle lookup worker breaks its pebble pool, which the lane replaces at the
    next request; the broken pool's other worker lived on (pebble ends a pool's processes only
    when it is joined, never when it is stopped), one process and its memory more at every kill
    (4 kills: a lane of 7 processes). Now the lane is its size again after each kill, the killed
    pool's other worker ends, and each next request is answered."""
    started = Server("--search-workers", "1", "--build-workers", "0")
    try:
        assert len(lane_workers(started.proc.pid)) == 3  # 2 lookups, 1 search
        for feedback in ("bbbbb", "bbbby", "bbbyb"):  # a new state each time (not a kept answer)
            lookups = [pid for pid, nice in lane_workers(started.proc.pid).items() if nice == 0]
            assert len(lookups) == 2, lookups
            os.kill(lookups[0], signal.SIGKILL)
            time.sleep(1.0)  # (pebble sees an idle worker's death within its poll: the pool breaks)
            status, answer = started.post("/api/next", {"history": rows([("crane", feedback)]), "top": 0,
                                                        "budget": 3})
            assert status == 200 and answer["status"] == "exact", answer
            deadline = time.monotonic() + 20
            while len(lane_workers(started.proc.pid)) != 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            workers = lane_workers(started.proc.pid)
            assert len(workers) == 3 and lookups[1] not in workers, (lookups, workers)
    finally:
        started.close()


# -- issue 32, item 2: slow clients, limits on every kind of work, killed workers ----------------

def _closed_by_server(sock: socket.socket) -> bool:
    """True when the server closed ``sock`` (a send fails or a read sees the end)."""
    try:
        sock.setblocking(False)
        return sock.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def test_one_client_cannot_hold_every_connection():
    """Issue 58: --max-connections counts idle connections too, and one client address held
    them all (300 idle sockets: every other client's request a 503). Now one address keeps at
    most its share open (the default of --max-connections-per-client), the connections past it
    are closed at once, others are answered; once it closes its sockets it may connect again.
    (The flooder connects from 127.0.0.2, another loopback address.)"""
    started = Server("--search-workers", "1", "--build-workers", "0", "--max-connections", "40")
    flood: list[socket.socket] = []
    try:
        for _ in range(60):
            sock = socket.socket()
            sock.bind(("127.0.0.2", 0))
            sock.connect(("127.0.0.1", started.port))
            flood.append(sock)
        held, deadline = None, time.monotonic() + 5  # (the server accepts them all in a moment)
        while time.monotonic() < deadline:
            time.sleep(0.3)
            before, held = held, sum(not _closed_by_server(s) for s in flood)
            if held == before:
                break
        statuses = []
        for _ in range(20):
            connection = http.client.HTTPConnection("127.0.0.1", started.port, timeout=10)
            connection.request("GET", "/api/config")
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
            connection.close()
        assert statuses == [200] * 20, statuses
        from solver.web.http import CONNECTIONS_PER_CLIENT

        assert held == sum(not _closed_by_server(s) for s in flood) == CONNECTIONS_PER_CLIENT, held
        for sock in flood:
            sock.close()
        flood.clear()
        time.sleep(0.5)
        again = socket.socket()
        flood.append(again)
        again.bind(("127.0.0.2", 0))
        again.settimeout(10)
        again.connect(("127.0.0.1", started.port))
        again.sendall(b"GET /api/config HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert again.recv(12) == b"HTTP/1.1 200"
    finally:
        for sock in flood:
            sock.close()
        started.close()


def test_headers_sent_slowly_are_dropped_and_others_still_served(server):
    """Connections sending their headers a byte at a time stayed open for ever (1,100 of
    1,100); with --header-timeout 2 each is closed 2 s after it opened, however often it
    sends, while a normal request on another connection is answered. (From 40 loopback
    addresses, each within its share of connections: --max-connections-per-client.)"""
    trickling = [socket.create_connection(("127.0.0.1", server.port), timeout=10,
                                          source_address=(f"127.0.0.{k + 2}", 0)) for k in range(40)]
    request = b"POST /api/next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    started = time.monotonic()
    closed_at: dict[int, float] = {}
    sent = 0
    while len(closed_at) < len(trickling) and time.monotonic() - started < 8:
        for k, sock in enumerate(trickling):  # a byte every 0.5 s: never idle for long
            if k in closed_at:
                continue
            try:
                sock.sendall(request[sent % len(request):][:1])
            except OSError:
                closed_at[k] = time.monotonic() - started
                continue
            if _closed_by_server(sock):
                closed_at[k] = time.monotonic() - started
            sock.setblocking(True)
        sent += 1
        if sent == 2:
            status, answer = server.post("/api/next", {"history": [], "top": 0})
            assert status == 200 and answer["next_guess"] == "salet"
        time.sleep(0.5)
    for sock in trickling:
        sock.close()
    assert len(closed_at) == len(trickling), f"{len(trickling) - len(closed_at)} slow connections still open"
    assert 1.5 <= min(closed_at.values()) and max(closed_at.values()) < 6, closed_at


def test_a_header_a_byte_every_3_s_is_dropped(server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    started = time.monotonic()
    closed = False
    for byte in b"POST /api/next HTTP/1.1\r\n":
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            closed = True
            break
        time.sleep(3)
        if _closed_by_server(sock):
            closed = True
            break
        sock.setblocking(True)
    sock.close()
    assert closed and time.monotonic() - started < 7


def test_a_body_sent_too_slowly_is_408(server):
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    started = time.monotonic()
    sock.sendall(b"POST /api/next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 100\r\n\r\n{\"history\": ")
    reply = b""
    while b"}" not in reply:
        part = sock.recv(4096)
        if not part:
            break
        reply += part
    sock.close()
    assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
    assert b'{"error":"the request body did not arrive within 2 s"}' in reply
    assert time.monotonic() - started < 5


def test_an_on_tree_next_guess_is_at_once_and_its_alternatives_follow(server):
    """The next guess from the tree is answered without waiting for its alternatives; the
    same request with "follow" waits for them (issue 35, item 6)."""
    history = rows([("salet", "bbbyb")])
    first = server.post("/api/next", {"history": history, "top": 5, "budget": 5})
    assert first[0] == 200 and first[1]["status"] == "exact"
    if not first[1]["alternatives_complete"]:  # proven within the lookup on a fast machine
        assert first[1]["alternatives_pending"] is True
        status, full = server.post("/api/next", {"history": history, "top": 5, "budget": 5, "follow": True})
        assert status == 200 and full["next_guess"] == first[1]["next_guess"], full
        assert full["value_total"] == first[1]["value_total"] and "alternatives_pending" not in full
        assert full["alternatives"][0]["q_total"] == full["value_total"]
        assert len(full["alternatives"]) >= len(first[1]["alternatives"])


def test_lookups_have_a_limit_per_client_and_in_all():
    """The accounting every kind of work shares: a client past its own limit gets 429, the
    server past its total 503, and a finished piece of work frees its place."""
    from solver.web.lanes import LOOKUP_QUEUE, LOOKUPS_PER_CLIENT, Busy, Lanes

    lanes = Lanes.__new__(Lanes)  # the counters only: no worker processes
    counts: dict = {}
    for _ in range(LOOKUPS_PER_CLIENT):
        lanes._claim(counts, "a", LOOKUPS_PER_CLIENT, LOOKUP_QUEUE, "lookups")
    with pytest.raises(Busy) as caught:
        lanes._claim(counts, "a", LOOKUPS_PER_CLIENT, LOOKUP_QUEUE, "lookups")
    assert caught.value.status == 429 and f"at most {LOOKUPS_PER_CLIENT}" in str(caught.value)
    clients = [f"c{k}" for k in range((LOOKUP_QUEUE - LOOKUPS_PER_CLIENT) // LOOKUPS_PER_CLIENT)]
    for client in clients:
        for _ in range(LOOKUPS_PER_CLIENT):
            lanes._claim(counts, client, LOOKUPS_PER_CLIENT, LOOKUP_QUEUE, "lookups")
    assert sum(counts.values()) == LOOKUP_QUEUE
    with pytest.raises(Busy) as caught:
        lanes._claim(counts, "newcomer", LOOKUPS_PER_CLIENT, LOOKUP_QUEUE, "lookups")
    assert caught.value.status == 503 and "the server is busy" in str(caught.value)
    lanes._release(counts, "a")
    lanes._claim(counts, "newcomer", LOOKUPS_PER_CLIENT, LOOKUP_QUEUE, "lookups")
    assert counts["newcomer"] == 1 and counts["a"] == LOOKUPS_PER_CLIENT - 1


def _new_openers(count: int, seed: int) -> list[tuple[str, str]]:
    """``count`` first steps (opener, feedback of a real answer) whose opener has no tree
    shipped: each asks the server to build one."""
    import random

    from solver.game.feedback import code_to_text, feedback_code
    from solver.game.wordlists import load_word_list

    word_list = load_word_list("legacy")
    shipped = {path.stem.rsplit("-", 1)[-1] for path in (ROOT / "artifacts").rglob("legacy-normal-*.msgpack")}
    rng = random.Random(seed)
    steps = []
    while len(steps) < count:
        opener = rng.choice(word_list.guesses)
        if opener in shipped or opener in (s for s, _ in steps):
            continue
        answer = rng.choice(word_list.answers)
        steps.append((opener, code_to_text(feedback_code(opener, answer), 5)))
    return steps


def test_a_flood_of_new_openers_starts_one_build_per_client_and_a_few_in_all(warm_assist_kernels):
    """20 requests naming 20 new openers queued 20 whole-tree builds; now one client gets one
    build, many clients at most BUILD_QUEUE, every request is answered (200, or from the opener
    table) or refused cleanly (429/503), and another player's new opener still gets its build
    at once."""
    import asyncio

    TABLE = "table"  # an answer the opener table held (status 200)

    from solver.game.spec import Mode
    from solver.web.lanes import BUILD_QUEUE, BUILDS_PER_CLIENT, Busy, Lanes

    async def connected():
        return False

    async def ask(lanes, client, step):
        try:
            status, answer = await lanes.answer(client, "next", "legacy", Mode.NORMAL, [step], 0, 0.3, connected)
            return status if answer.get("source") != "table" else TABLE
        except Busy as exc:
            return exc.status

    async def flood():
        lanes = Lanes(["legacy"], search_workers=1, per_client=1, queue=1)
        try:
            steps = _new_openers(41, seed=32)
            one = await asyncio.gather(*(ask(lanes, "flooder", step) for step in steps[:20]))
            mine = [client for client, _ in lanes.builds.values()]
            many = await asyncio.gather(*(ask(lanes, f"client{k}", step) for k, step in enumerate(steps[20:40])))
            in_all = len(lanes.builds)
            late = await ask(lanes, "latecomer", steps[40])
            return one, mine, many, in_all, late, dict(lanes.builds)
        finally:
            lanes.close()

    from solver.game.files import cache_dir
    from solver.runs.journal import _frames, _unpack

    journals = cache_dir() / "journals"
    before = set(journals.glob("solve-*.journal"))
    try:
        one, mine, many, in_all, late, builds = asyncio.run(flood())
    finally:  # the stopped builds' journals (resumable solves): only this test's openers'
        openers = {opener for opener, _ in _new_openers(41, seed=32)}
        for path in set(journals.glob("solve-*.journal")) - before:
            try:
                if _unpack(_frames(path.read_bytes())[0][0])["fingerprint"].get("opener") in openers:
                    path.unlink()
            except (OSError, IndexError, KeyError, ValueError):
                pass
    assert set(one) <= {200, TABLE, 429, 503} and set(many) <= {200, TABLE, 429, 503}, (one, many)
    # one search of the client's at a time (per_client 1); the rest refused, except the openers
    # whose second guess the opener table holds (a lookup: no search to refuse)
    assert one.count(429) >= 19 - one.count(TABLE), one
    assert mine == ["flooder"] * BUILDS_PER_CLIENT
    assert in_all <= BUILD_QUEUE
    assert late in (200, 429, 503)


@pytest.mark.slow
def test_soak_workers_killed_at_random_while_clients_play(warm_assist_kernels):
    """A bounded soak (about 25 s, loopback): three clients play on-tree and off-tree states
    while a worker process of the server is killed (SIGKILL) every 1.5-3 s. Every answer is
    right (the tree's next guess, or the exact value the API computes here) or a clean 503;
    none is a 500, a 499 or a hang; afterwards every lane answers again."""
    import random

    import policy_tree
    import solver
    from solver.game.feedback import code_to_text, feedback_code
    from solver.game.wordlists import load_word_list

    tree = policy_tree.load(ROOT / "artifacts" / "legacy-normal-salet.msgpack")
    rng = random.Random(35)
    word_list = load_word_list("legacy")
    answers = list(word_list.answers)
    on_tree, off_tree = [], []  # many states: kept answers are repeated without a worker
    while len(on_tree) < 400:
        game = tree.game(rng.choice(answers))
        if len(game) >= 2:
            history = [(g, code_to_text(c, 5)) for g, c in game[:rng.randrange(1, min(len(game), 4))]]
            on_tree.append((history, tree.next_guess([f"{g}:{f}" for g, f in history])))
    while len(off_tree) < 16:  # two tree moves, then a guess of ours: a small state to search
        answer = rng.choice(answers)
        game = tree.game(answer)
        if len(game) < 4:
            continue
        history = [(g, code_to_text(c, 5)) for g, c in game[:2]]
        guess = rng.choice(word_list.guesses)
        history.append((guess, code_to_text(feedback_code(guess, answer), 5)))
        advice = solver.advise([f"{g}:{f}" for g, f in history], "legacy", top=0)
        if advice.status == "exact" and advice.to_json()["left_tree"] is not None and advice.next_guess:
            off_tree.append((history, advice.to_json()["value_total"]))

    started = Server("--search-workers", "1", "--per-client", "32", "--queue", "8", "--budget-cap", "5")
    outcomes: list[tuple[str, int, dict]] = []
    kills: list[int] = []
    stop = threading.Event()

    def killer() -> None:
        while not stop.wait(rng.uniform(1.5, 3.0)):
            pids = list(lane_workers(started.proc.pid))
            if pids:
                pid = rng.choice(pids)
                try:
                    os.kill(pid, signal.SIGKILL)
                    kills.append(pid)
                except ProcessLookupError:
                    pass

    def player(seed: int) -> None:
        local = random.Random(seed)
        while not stop.is_set():
            if local.random() < 0.75:
                history, expected = local.choice(on_tree)
                top = local.choice([0, 5])
                status, answer = started.post("/api/next", {"history": rows(history), "top": top, "budget": 3,
                                                            "follow": top > 0}, timeout=30)
                outcomes.append(("tree", status, answer, expected))
            else:
                history, expected = local.choice(off_tree)
                status, answer = started.post("/api/next", {"history": rows(history), "top": 0, "budget": 3},
                                              timeout=30)
                outcomes.append(("search", status, answer, expected))

    try:
        threads = [threading.Thread(target=player, args=(k,)) for k in range(3)] + [threading.Thread(target=killer)]
        for thread in threads:
            thread.start()
        time.sleep(25)
        stop.set()
        for thread in threads:
            thread.join(timeout=40)
        assert not any(thread.is_alive() for thread in threads), "a client hung"
        wrong = []
        for kind, status, answer, expected in outcomes:
            if status == 503 and answer.get("error"):
                continue
            if status != 200:
                wrong.append((kind, status, answer))
            elif kind == "tree" and (answer["status"] != "exact" or answer["next_guess"] != expected):
                wrong.append((kind, status, answer.get("next_guess"), expected))
            elif kind == "search" and answer["status"] == "exact" and answer["value_total"] != expected:
                wrong.append((kind, status, answer.get("value_total"), expected))
        assert not wrong, wrong[:5]
        assert len(kills) >= 5, kills
        assert sum(status == 200 for _, status, _, _ in outcomes) >= 10, [o[:2] for o in outcomes]
        time.sleep(3)  # the last killed worker replaced: every lane answers again
        for history, _ in (on_tree[0], off_tree[0]):
            for _ in range(3):
                status, answer = started.post("/api/next", {"history": rows(history), "top": 0, "budget": 5})
                if status == 200:
                    break
            assert status == 200, answer
    finally:
        stop.set()
        started.close()


def test_help_and_troubleshooting_state_the_limits_the_code_has():
    from solver.web.app import BODY_TIMEOUT, MAX_BODY
    from solver.web.http import CONNECTIONS_PER_CLIENT, HEADER_TIMEOUT
    from solver.web.lanes import BUILD_QUEUE, BUILDS_PER_CLIENT, GRACE_SECONDS, LOOKUP_QUEUE, LOOKUPS_PER_CLIENT

    done = subprocess.run([sys.executable, "-m", "tools.serve", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    text = " ".join(done.stdout.split())
    assert done.returncode == 0
    for fragment in (f"lookups {LOOKUPS_PER_CLIENT} per client address, {LOOKUP_QUEUE} in all",
                     f"builds {BUILDS_PER_CLIENT} per client address, {BUILD_QUEUE} in all",
                     f"plus {GRACE_SECONDS:g} s, then 503", f"--header-timeout [{HEADER_TIMEOUT:g} s]",
                     f"--body-timeout [{BODY_TIMEOUT:g} s]", f"{MAX_BODY // 1024} KB at most (413)",
                     f"--max-connections-per-client [{CONNECTIONS_PER_CLIENT}]",
                     f"open at once; more are closed as soon as they are made, the other clients' "
                     f"unaffected (default {CONNECTIONS_PER_CLIENT})"):
        assert fragment in text, fragment
    troubleshooting = (ROOT / "docs" / "troubleshooting.md").read_text()
    assert f"| {LOOKUPS_PER_CLIENT} / {LOOKUP_QUEUE} |" in troubleshooting
    assert f"| {BUILDS_PER_CLIENT} / {BUILD_QUEUE} |" in troubleshooting
    assert f"`--header-timeout` {HEADER_TIMEOUT:g} s" in troubleshooting
    assert f"`--body-timeout` {BODY_TIMEOUT:g} s" in troubleshooting
    assert f"`--max-connections-per-client` {CONNECTIONS_PER_CLIENT}" in troubleshooting
    assert f"`--max-connections-per-client N` | connections one client address may have open at once " \
           f"({CONNECTIONS_PER_CLIENT})" in (ROOT / "docs" / "play.md").read_text()


def test_requests_in_flight_at_a_stop_get_a_clean_503(warm_assist_kernels):
    """Two requests still running when the server is stopped (Ctrl-C) past its grace period: a
    search and a next guess waiting for its alternatives. Each got uvicorn's bare 500 and a
    CancelledError traceback on stderr; now a 503 whose JSON says the server is shutting down."""
    import signal

    started = Server("--search-workers", "1", "--budget-cap", "30", "--queue", "2")
    outcomes: dict = {}

    def ask(name: str, body: dict) -> None:
        try:
            outcomes[name] = started.post("/api/next", body, timeout=90)
        except OSError as exc:
            outcomes[name] = repr(exc)

    threads = [threading.Thread(target=ask, args=("search", {"history": rows(SLOW), "top": 5, "budget": 25})),
               threading.Thread(target=ask, args=("follow", {"history": rows([("salet", "bbbby")]), "top": 5,
                                                             "budget": 25, "follow": True}))]
    try:
        for thread in threads:
            thread.start()
        time.sleep(3)  # both running
        assert not outcomes, outcomes
        started.proc.send_signal(signal.SIGINT)
        for thread in threads:
            thread.join(timeout=90)
        started.proc.wait(timeout=60)
    finally:
        if started.proc.poll() is None:
            started.proc.kill()
    stderr = started.proc.stderr.read()
    for name in ("search", "follow"):
        assert outcomes[name] == (503, {"error": "the server is shutting down; try again once it is back"}), (
            outcomes, stderr)
    assert "Traceback" not in stderr and "CancelledError" not in stderr, stderr
