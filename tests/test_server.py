"""The web server as a process (``tools.serve``): it refuses what could hurt it (huge or deep
bodies, foreign ``Host`` headers), stops work nobody waits for, gives each request one budget,
caps the searches of one client, and says in one line why it cannot start.

The speed under load (cheap lookups while searches run) is measured by ``make bench``
(``benchmarks.bench_serve``), not here."""

from __future__ import annotations

import http.client
import json
import os
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
#: A six-guess game (answer crony) that leaves the tree at the second guess.
OFF_TREE_GAME = ["salet", "qajaq", "fuzzy", "bumph", "wimpy", "crony"]


class Server:
    """``tools.serve`` on a free loopback port, with the given options."""

    def __init__(self, *options: str):
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "tools.serve", "--port", str(self.port),
                                      "--words", "legacy", *options], cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
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


@pytest.fixture(scope="module")
def server(warm_assist_kernels):  # compiled into numba's cache before the workers load it
    started = Server("--search-workers", "1", "--per-client", "1", "--queue", "1")
    yield started
    started.close()


def test_a_foreign_host_is_refused(server):
    status, answer = server.post("/api/next", {"history": []}, headers={"Host": "attacker.example"})
    assert status == 400 and "Invalid host header" in answer["text"]
    assert server.post("/api/next", {"history": []}, headers={"Host": f"localhost:{server.port}"})[0] == 200


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
    """A search (budget 5 s) is stopped within a second of its client closing the connection."""
    body = json.dumps({"words": "legacy", "history": rows(OFF_TREE), "top": 5, "budget": 5}).encode()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    start_cpu = server.cpu_seconds()
    sock.sendall(b"POST /api/next HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n" % len(body) + body)
    try:
        time.sleep(1.5)
        busy = server.cpu_seconds() - start_cpu
        # at nice 5 on a busy machine the search gets a fraction of a core, but it does run
        assert busy > 0.15, f"the search was not running ({busy:.2f} CPU-s in 1.5 s)"
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
        results["first"] = server.post("/api/next", {"history": rows(OFF_TREE), "top": 5, "budget": 3})

    thread = threading.Thread(target=first)
    thread.start()
    time.sleep(0.8)
    second = server.post("/api/next", {"history": rows(OFF_TREE[:1] + [("fuzzy", "bbbbb")]), "top": 5,
                                       "budget": 3})
    thread.join(timeout=30)
    assert results["first"][0] == 200
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
    import signal

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
