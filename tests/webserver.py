"""Starting ``tools.serve`` in a subprocess for the web tests (tests/test_web.py, tests/test_page.py)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(env=None, *args):
    """Run ``tools.serve`` on a free port until the generator is closed; yields its URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tools.serve", "--port", str(port), *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    assert line.startswith("serving http://127.0.0.1"), (line, proc.stderr.read() if proc.poll() else "")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=20)


