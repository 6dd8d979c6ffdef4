"""Issue 32: a tool run by a Python without the dependencies says which package is missing in
one plain line (no traceback, no rich), and how to install them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Runs ``python -m <module> <args>`` with the named top-level modules made unimportable (a
#: sys.meta_path finder that refuses them), as in a Python where they are not installed.
WRAPPER = """
import runpy, sys
blocked = set(sys.argv[1].split(","))
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in blocked:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Blocker())
module = sys.argv[2]
sys.argv = [module] + sys.argv[3:]
runpy.run_module(module, run_name="__main__", alter_sys=True)
"""


def run_without(blocked: str, module: str, *args: str, flags=()):
    return subprocess.run([sys.executable, *flags, "-c", WRAPPER, blocked, module, *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def assert_one_line(done, *packages: str):
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and "ModuleNotFoundError" not in done.stderr
    assert any(lines[0].startswith(f"error: the package {p!r} is not installed") for p in packages)
    assert "make install" in lines[0] and ".venv" in lines[0]


@pytest.mark.parametrize("module,args", [
    ("tools.assist", ["salet:bbbby"]),
    ("tools.prove", ["--words", "legacy"]),
])
def test_no_rich_is_one_plain_line(module, args):
    """rich missing: the error handler itself used to import it, and failed a second time."""
    assert_one_line(run_without("rich", module, *args), "rich")


@pytest.mark.parametrize("module", ["tools.assist", "tools.prove", "tools.solve"])
def test_no_numpy_at_import_is_one_plain_line(module):
    """numpy (and rich) missing: the tool's module fails as it is imported, before its main."""
    assert_one_line(run_without("numpy,rich", module, "--help"), "numpy", "rich")


def test_a_lookup_needs_no_rich():
    """``tools.tree next`` imports neither rich nor the solver: it works without rich."""
    done = run_without("rich", "tools.tree", "next", "artifacts/legacy-normal-salet.msgpack")
    assert done.returncode == 0 and done.stdout.startswith("next guess: salet"), done.stderr


def test_a_python_without_site_packages():
    """``python -S``: no site-packages at all (the venv's included)."""
    done = subprocess.run([sys.executable, "-S", "-m", "tools.assist", "salet:bbbby"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "is not installed for this Python" in done.stderr


def test_a_missing_module_of_our_own_is_not_called_a_dependency():
    from solver.cli._cli import missing_dependency

    assert missing_dependency(ModuleNotFoundError("x", name="solver.nope")) is None
    assert missing_dependency(ValueError("x")) is None
    assert "'pyyaml'" in missing_dependency(ModuleNotFoundError("x", name="yaml"))


def test_the_report_checks_matplotlib_before_any_work(tmp_path):
    """An optional dependency (matplotlib, the studies extra) is checked first: exit 2 naming
    the extra, before any solve, scoring or output directory."""
    out = tmp_path / "reports"
    done = run_without("matplotlib", "tools.report", "--words", "legacy", "--opener", "crane",
                       "--policies", "mig_a", "--out", str(out))
    assert done.returncode == 2, done.stderr
    assert "pip install 'exact-wordle[studies]'" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_the_agents_tools_name_their_extra_before_any_work(tmp_path):
    """wordle mcp without the mcp SDK, score-games --plot without matplotlib: exit 2 naming
    the extra, in one line, before any scoring or output."""
    done = run_without("mcp", "tools.mcp")
    assert done.returncode == 2, done.stderr
    assert "pip install 'exact-wordle[agents]'" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    out = tmp_path / "moves.csv"
    done = run_without("matplotlib", "tools.score_games", "docs/examples/agents.jsonl", "--csv", str(out),
                       "--plot", str(tmp_path / "regret.png"))
    assert done.returncode == 2, done.stderr
    assert "pip install 'exact-wordle[studies]'" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists() and not list(tmp_path.glob("*.png"))
