"""Fuzzing every command-line entry point in-process (issue 13).

Each test drives one tool's ``main(argv)`` (solver.cli.solve, solver.cli.tree, solver.cli.report,
tools.uct_report; benchmarks.bench's argument parsing only, its benchmarks stubbed out) with
arguments drawn by hypothesis from pools of good, bad and malformed values: tiny word lists in
temporary directories (valid ones solve in well under a second; a custom directory called
``legacy``; duplicates, mixed lengths, missing files, ...), artifacts (valid, truncated, random
bytes, empty, a directory), output paths (fresh, in missing directories, a directory, under a
file, unwritable), user caches (usable, a file, unwritable) and junk tokens. Every example runs
with the working directory in a fresh temporary directory. Each asserts:

- ``main`` returns (or raises SystemExit with) a status in {0, 1, 2, 130}, no traceback is
  printed (unless ``--debug`` asks for it) and no internal error is reported;
- no file appears outside the output paths the arguments name (or the tools' default output
  directories, ``artifacts/`` and ``reports/`` under the working directory), the user cache
  excepted, and the inputs are unchanged;
- no partial file: no temporary file is left anywhere, and every artifact written loads.

The example budget is fixed (``settings``) and the examples are derandomised, so the run is
reproducible and takes well under a minute (the solve and report fuzzers are marked slow:
``make test`` runs them, ``make test-fast`` does not).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from pathlib import Path

from solver.game.spec import Game
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import policy_tree
import benchmarks.bench
import solver.cli.report
import solver.cli.solve
import solver.cli.tree
import solver.cli.uct_report
from solver.exact.bellman import save_artifact, solve
from solver.game.wordlists import load_word_list

STATUSES = {0, 1, 2, 130}
ANSWERS = ["cigar", "rebut", "sissy", "humph", "awake", "blush"]
GUESSES = ANSWERS + ["salet", "crane"]
FUZZ = dict(deadline=None, derandomize=True, database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _write(directory: Path, answers, guesses) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    if answers is not None:
        (directory / "answers.txt").write_text(answers)
    if guesses is not None:
        (directory / "guesses.txt").write_text(guesses)
    return directory


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Inputs (word lists, artifacts), a shared user cache and bad caches, under one tmp dir."""
    base = tmp_path_factory.mktemp("fuzz")
    inputs = base / "inputs"
    lines = "\n".join
    lists = {
        "tiny": _write(inputs / "tiny", lines(ANSWERS) + "\n", lines(GUESSES) + "\n"),
        "legacy-named": _write(inputs / "custom" / "legacy", lines(ANSWERS[:4]) + "\n",
                               lines(GUESSES) + "\n"),
        "markup": _write(inputs / "odd[/x]", lines(ANSWERS[:3]) + "\n", lines(GUESSES) + "\n"),
        "four-letters": _write(inputs / "four", "able\nbake\ncake\n", "able\nbake\ncake\nzzzz\n"),
        "duplicate": _write(inputs / "dup", "cigar\ncigar\n", "cigar\n"),
        "mixed-lengths": _write(inputs / "mixed", "cigar\nable\n", "cigar\nable\n"),
        "missing-answer": _write(inputs / "miss", "cigar\nrebut\n", "cigar\n"),
        "empty": _write(inputs / "empty", "", ""),
        "not-ascii": _write(inputs / "nonascii", "cigär\n", "cigär\n"),
        "no-files": _write(inputs / "nofiles", None, None),
        "binary": _write(inputs / "binary", None, None),
        "missing-dir": inputs / "does-not-exist",
        "a-file": inputs / "tiny" / "answers.txt",
    }
    (lists["binary"] / "answers.txt").write_bytes(b"\xff\xfe\x00")
    (lists["binary"] / "guesses.txt").write_bytes(b"\xff\xfe\x00")

    cache = base / "cache"
    previous = os.environ.get("EXACT_WORDLE_CACHE")
    os.environ["EXACT_WORDLE_CACHE"] = str(cache)
    try:
        tiny = load_word_list(lists["tiny"])
        good = save_artifact(solve(Game(tiny), "salet", jobs=1, resume=False), inputs / "tiny.msgpack")
        markup = save_artifact(solve(Game(load_word_list(lists["markup"])), "salet", jobs=1, resume=False),
                               inputs / "markup.msgpack")
    finally:
        if previous is None:
            os.environ.pop("EXACT_WORDLE_CACHE", None)
        else:
            os.environ["EXACT_WORDLE_CACHE"] = previous
    data = good.read_bytes()
    artifacts = {"good": good, "markup": markup, "missing": inputs / "nope.msgpack", "directory": inputs / "tiny"}
    # issue 23: a header figure flipped (the checksums record refuses it), a device, a FIFO
    at = data.index(b"\xa5total") + 6
    for name, payload in (("total-flipped", data[:at + 1] + bytes([data[at + 1] ^ 0x01]) + data[at + 2:]),
                          ("truncated", data[:len(data) // 2]), ("random", os.urandom(300)),
                          ("empty", b""), ("trailing", data + b"\x00"),
                          ("flipped", data[:-10] + bytes([data[-10] ^ 0xFF]) + data[-9:])):
        artifacts[name] = inputs / f"{name}.msgpack"
        artifacts[name].write_bytes(payload)
    artifacts["device"] = Path("/dev/zero")
    if hasattr(os, "mkfifo"):
        artifacts["fifo"] = base / "fifo.msgpack"  # outside inputs: the snapshot reads those
        os.mkfifo(artifacts["fifo"])
    cache_file = base / "cache-file"
    cache_file.write_text("not a directory")
    caches = {"usable": cache, "file": cache_file, "unwritable": Path("/proc/exact-wordle-fuzz")}
    return {"base": base, "inputs": inputs, "lists": lists, "artifacts": artifacts,
            "caches": caches}


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


def _is_within(path: Path, roots) -> bool:
    return any(path == root or root in path.parents for root in roots)


def run_fuzzed(world, main, argv, *, out_options=("--out",), default_outputs=(), cache="usable",
               stdin_lines=None):
    """Run ``main(argv)`` in a fresh working directory and check the contract (module doc)."""
    import tempfile

    work = Path(tempfile.mkdtemp(dir=world["base"], prefix="work-"))
    (work / "a-file").write_text("in the way")
    argv = [a.replace("{work}", str(work)) for a in argv]
    inputs_before = _snapshot(world["inputs"])
    old_cwd, old_env, old_stdin = os.getcwd(), os.environ.get("EXACT_WORDLE_CACHE"), sys.stdin
    out, err = io.StringIO(), io.StringIO()
    os.chdir(work)
    os.environ["EXACT_WORDLE_CACHE"] = str(world["caches"][cache])
    sys.stdin = io.StringIO("".join(f"{line}\n" for line in stdin_lines or []))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:  # allowed, though the funnel returns instead
                status = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
        if old_env is None:
            os.environ.pop("EXACT_WORDLE_CACHE", None)
        else:
            os.environ["EXACT_WORDLE_CACHE"] = old_env
    stdout, stderr = out.getvalue(), err.getvalue()
    event(f"exit status {status}")
    context = f"argv={argv}\nstatus={status}\nstdout={stdout[-2000:]}\nstderr={stderr[-2000:]}"
    assert status in STATUSES, context
    if "--debug" not in argv:  # --debug adds the traceback to the message
        assert "Traceback" not in stderr and "Traceback" not in stdout, context
    assert "internal error" not in stderr, context

    # files only where the arguments (or the tools' defaults) say
    named = list(default_outputs)
    named += [argv[i + 1] for i, token in enumerate(argv[:-1]) if token in out_options]
    named += [token.split("=", 1)[1] for token in argv for option in out_options
              if option.startswith("--") and token.startswith(option + "=")]
    roots = {(work / name).resolve() for name in named if "\0" not in name}
    new_files = [p for p in work.rglob("*") if p.is_file() and p.name != "a-file"]
    stray = [p for p in new_files if not _is_within(p.resolve(), roots)]
    assert not stray, f"files outside the output paths: {stray}\n{context}"
    assert _snapshot(world["inputs"]) == inputs_before, f"an input changed\n{context}"
    # no partial files
    for directory in (work, world["caches"]["usable"]):
        leftovers = [p for p in directory.rglob("*") if p.name.endswith(".tmp") or "write-probe" in p.name]
        assert not leftovers, f"temporary files left: {leftovers}\n{context}"
    for path in new_files:
        assert path.stat().st_size > 0, f"empty file {path}\n{context}"
        if path.suffix == ".msgpack":
            policy_tree.load(path)  # a complete, valid artifact
    return status, stdout, stderr


# -- pools -----------------------------------------------------------------------------------
LISTS = ["tiny", "legacy-named", "markup", "four-letters", "duplicate", "mixed-lengths",
         "missing-answer", "empty", "not-ascii", "no-files", "binary", "missing-dir", "a-file"]
WORDS = st.one_of(st.just("tiny"), st.sampled_from(LISTS))  # the valid list half the time
OPENERS = ["salet", "salet", "cigar", "CRANE", "zzzzz", "sal", "", "able", "cigär"]
JOBS = ["1", "1", "1", "2", "0", "-1", "x", "1.5", "nan", "inf", "-2", "99999999999999999999999"]
OUT_FILES = ["out.msgpack", "deep/er/out.msgpack", "{work}", "a-file/x.msgpack", "/proc/x.msgpack",
             "n\x00l", "/proc/fuzz/x.msgpack", "artifacts/legacy-normal-salet.msgpack", "/dev/null"]
OUT_DIRS = ["rep", "deep/er", "a-file", "a-file/sub", "/proc/fuzz", "{work}"]
JUNK = st.one_of(st.sampled_from(["--bogus", "-x", "--", "-", "--out", "--jobs=", "--help",
                                  "--debug", "\x00", "💥", "--words=", "-o"]),
                 st.text(max_size=8))
CACHES = st.sampled_from(["usable"] * 6 + ["file", "unwritable"])


def _list_arg(world, name: str) -> str:
    return str(world["lists"][name])


def _option(name, values):
    return st.tuples(st.just(name), st.sampled_from(values)).map(list)


def _flag(name):
    return st.just([name])


def _argv(required, optional, max_optional=4):
    """Required option groups, then up to ``max_optional`` optional ones and junk, shuffled."""
    return st.tuples(
        st.tuples(*required) if required else st.just(()),
        st.lists(st.one_of(*optional), max_size=max_optional),
        st.sampled_from([False, False, False, True]).flatmap(  # junk in one example of four
            lambda junk: JUNK.map(lambda t: [[t]]) if junk else st.just([])),
    ).flatmap(lambda parts: st.permutations(list(parts[0]) + parts[1] + parts[2])).map(
        lambda groups: [token for group in groups for token in group])


# -- the tools -------------------------------------------------------------------------------
@pytest.mark.slow  # about 5-10 s
@settings(max_examples=80, **FUZZ)
@given(data=st.data())
def test_fuzz_solve(world, data):
    words = data.draw(WORDS.map(lambda n: _list_arg(world, n)), label="words")
    argv = data.draw(_argv([st.just(["--words", words])], [
        _option("--opener", OPENERS), _option("--jobs", JOBS), _option("--out", OUT_FILES),
        _option("--guess-limit", ["6", "2", "1", "0", "-3", "300", "a", "nan", "inf", "-inf",
                                  "99999999999999999999999", "6.0"]),
        _option("--objective", ["total", "worst", "best"]), _flag("--no-resume"),
        _option("--feedback", ["standard", "yellow", "purple", ""]),
        _flag("--debug")]), label="argv")
    cache = data.draw(CACHES, label="cache")
    status, _, err = run_fuzzed(world, solver.cli.solve.main, argv, default_outputs=["artifacts"],
                                cache=cache)
    assert status != 130


@settings(max_examples=100, **FUZZ)
@given(data=st.data())
def test_fuzz_tree(world, data):
    artifacts = list(world["artifacts"])
    artifact = data.draw(st.sampled_from(["good"] * 4 + artifacts), label="artifact")
    path = str(world["artifacts"][artifact])
    history = st.lists(st.sampled_from(["salet:bbbbb", "salet:bybbb", "cigar:ggggg",
                                        "zzzzz:bbbbb", "salet", "salet:bbbbq", "salet:⬛⬛⬛⬛🟨",
                                        ":", "crane:00000", "salet:22222", "rebut:bgbyb"]),
                       max_size=3)
    command = data.draw(st.sampled_from(["verify", "stats", "export", "next", "play"]),
                        label="command")
    optional = {
        "verify": [_option("--max-failures", ["1", "0", "-1", "x", "nan", "inf", "1e3",
                                              "99999999999999999999999"]),
                   st.sampled_from(artifacts).map(lambda a: [str(world["artifacts"][a])])],
        "stats": [_flag("--json")],
        "export": [_option("--format", ["paths", "json", "xml"]),
                   _option("-o", ["paths.txt", "deep/er/t.json", "{work}", "a-file/x", "/proc/x",
                                  "/dev/null", "", path])],  # the input as output: refused
        "next": [history.map(list)],
        "play": [_option("--answer", ["cigar", "CIGAR", "zzzzz", "salet", ""]),
                 _option("--color", ["auto", "always", "never", "pink"])],
    }[command] + [_flag("--debug")]
    rest = data.draw(_argv([], optional, max_optional=3), label="rest")
    stdin = data.draw(st.lists(st.sampled_from(["bbbbb", "ggggg", "q", "", "salet:bbbbb", "xyz",
                                                "cigar:ggggg", "🟩🟩🟩🟩🟩", "bybbb"]),
                               max_size=5), label="stdin")
    status, out, err = run_fuzzed(world, solver.cli.tree.main, [command, path, *rest],
                                  out_options=("-o", "--output"), stdin_lines=stdin)
    if artifact == "good" and status == 1:
        assert command == "verify"  # 1 only when some *other* artifact failed verification


@pytest.mark.slow  # about 5-10 s (plots)
@settings(max_examples=15, **FUZZ)
@given(data=st.data())
def test_fuzz_report(world, data):
    words = data.draw(WORDS.map(lambda n: _list_arg(world, n)), label="words")
    openers = st.lists(st.sampled_from(["salet"] * 4 + OPENERS), min_size=1, max_size=2).map(",".join)
    policies = st.lists(st.sampled_from(["mig_a"] * 4 + ["mig_b", "rollout2_a", "exact", "bogus",
                                                          "uct10_a", "mig_c", ""]),
                        min_size=1, max_size=2)
    argv = data.draw(_argv([st.just(["--words", words]),
                            openers.map(lambda o: ["--opener", o]),
                            policies.map(lambda p: ["--policies", ",".join(p)])], [
        _option("--out", OUT_DIRS), _option("--name", ["x", "deep/name"]),
        _option("--jobs", JOBS), _option("--seed", ["0", "3", "-1", "x"]),
        _option("--top", ["0", "3", "-2"]), _flag("--no-resume"), _flag("--debug")]),
        label="argv")
    cache = data.draw(CACHES, label="cache")
    run_fuzzed(world, solver.cli.report.main, argv, default_outputs=["reports"], cache=cache)


@settings(max_examples=40, **FUZZ)
@given(data=st.data())
def test_fuzz_uct_report(world, data):
    words = data.draw(WORDS.map(lambda n: _list_arg(world, n)), label="words")
    command = data.draw(st.sampled_from(["run", "render", "report"]), label="command")
    argv = data.draw(_argv([st.just(["--words", words]),
                            _option("--policies", ["uct10_a"] * 3 + ["uct10_b_o,uct10_a", "mig_a",
                                                                     "bogus", ""])], [
        _option("--seeds", ["0", "0,1", "a", "-1", "", "1,,2"]), _option("--opener", OPENERS),
        _option("--jobs", JOBS), _option("--out", OUT_DIRS), _flag("--force"),
        _flag("--no-resume"), _flag("--debug")]), label="argv")
    cache = data.draw(CACHES, label="cache")
    run_fuzzed(world, solver.cli.uct_report.main, [command, *argv], default_outputs=["reports"],
               cache=cache)


@settings(max_examples=40, **FUZZ)
@given(argv=_argv([], [_option("--repeat", ["3", "1", "0", "x"]), _option("--opener", OPENERS),
                       _option("--only", ["solve", "lookup", "policies", "uct", "bogus"]),
                       _flag("--debug")]))
def test_fuzz_bench_arguments(world, argv):
    """Argument parsing only: the benchmarks themselves are stubbed out."""
    real = (benchmarks.bench.bench_solve, benchmarks.bench.OPTIONAL)
    benchmarks.bench.bench_solve, benchmarks.bench.OPTIONAL = (lambda *args: []), ()
    try:
        run_fuzzed(world, benchmarks.bench.main, argv)
    finally:
        benchmarks.bench.bench_solve, benchmarks.bench.OPTIONAL = real
