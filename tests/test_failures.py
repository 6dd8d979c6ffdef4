"""Issue 13: every failure is a one-line message, never lost work or a misleading file.

One regression test (or a few) per problem the issue found, each driving the tools'
``main(argv)`` in-process (the same error funnel as ``python -m tools.X``) on tiny word lists,
with the user cache and the working directory in temporary directories:

- an output path that cannot be used is refused before any work; a failed final write keeps
  the journal, so a rerun finishes from it;
- a custom list (a directory called ``legacy`` included) never writes over, or under the name
  of, a shipped artifact or report;
- ``uct_report render`` with an unknown opener or a missing list writes nothing;
- bad option values, unusable output paths, a closed standard input and an unusable cache
  give one line and exit 2; internal errors exit 1 (traceback only with ``--debug``); Ctrl-C
  exits 130 with a message that fits the command;
- messages speak b/y/g and words;
- files respect the umask.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import msgpack
from solver.game.spec import Game
import pytest

import policy_tree
import benchmarks.bench
import solver.cli.report
import solver.cli.solve
import solver.cli.tree
import solver.cli.uct_report
from solver.exact import artifacts, bellman
from solver.studies import uct_study
from solver.game.wordlists import load_word_list

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ROOT / "artifacts" / "legacy-normal-salet.msgpack"
ANSWERS = ["cigar", "rebut", "sissy", "humph", "awake", "blush", "focal"]
GUESSES = ANSWERS + ["salet", "crane"]
UNPLAYED = ("/proc/exact-wordle-test/x.msgpack", "/proc/x.msgpack")  # unwritable, even for root


def write_list(directory: Path, answers=ANSWERS, guesses=GUESSES) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "answers.txt").write_text("\n".join(answers) + "\n")
    (directory / "guesses.txt").write_text("\n".join(guesses) + "\n")
    return directory


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A working directory and a user cache, both empty and temporary."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("EXACT_WORDLE_CACHE", str(tmp_path / "cache"))
    return work


@pytest.fixture
def words(tmp_path):
    return write_list(tmp_path / "lists" / "tiny")


def call(main, *args, capsys):
    """``main(args)`` in-process: (status, stdout, stderr)."""
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert "Traceback" not in err and "Traceback" not in out
    return status, out, err


def one_line_error(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def files_under(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())


def no_solve(*args, **kwargs):
    raise AssertionError("the solve started before the output path was checked")


# -- 1. output paths are checked before any work; a failed final write keeps the journal -------
@pytest.mark.parametrize("out", [*UNPLAYED, "DIRECTORY", "FILE/under/a/file.msgpack"])
def test_solve_refuses_an_unusable_output_before_any_work(home, words, capsys, monkeypatch, out):
    (home / "a-directory").mkdir()
    (home / "a-file").write_text("x")
    out = {"DIRECTORY": str(home / "a-directory"),
           "FILE/under/a/file.msgpack": str(home / "a-file" / "under" / "x.msgpack")}.get(out, out)
    monkeypatch.setattr(bellman, "solve", no_solve)
    status, out_text, err = call(solver.cli.solve.main, "--words", words, "--opener", "salet",
                                 "--out", out, "--jobs", "1", capsys=capsys)
    assert status == 2 and out_text == ""
    assert out in one_line_error(err) or str(Path(out).parent) in err
    assert files_under(home) == ["a-file"]


def test_solve_creates_missing_parent_directories(home, words, capsys):
    out = home / "deep" / "er" / "tree.msgpack"
    status, _, err = call(solver.cli.solve.main, "--words", words, "--opener", "salet", "--out", out,
                          "--jobs", "1", capsys=capsys)
    assert status == 0, err
    assert policy_tree.load(out).opener == "salet"


def test_a_failed_final_write_keeps_the_journal_and_a_rerun_finishes_from_it(
        home, words, capsys, monkeypatch):
    word_list = load_word_list(words)
    expected = bellman.solve(Game(word_list), "salet", jobs=1, resume=False).total
    journal = bellman.journal_path("solve", *bellman.game_inputs(Game(word_list)), "salet")
    real_write = artifacts.write_atomic

    def disk_full(path, payload):
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(artifacts, "write_atomic", disk_full)
    status, _, err = call(solver.cli.solve.main, "--words", words, "--opener", "salet", "--out",
                          home / "tree.msgpack", "--jobs", "1", capsys=capsys)
    assert status == 1
    line = one_line_error(err)
    assert "No space left on device" in line and str(journal) in line and "rerun" in line
    assert journal.exists() and not (home / "tree.msgpack").exists()

    # the rerun reads every root class back from the journal: no class is solved again
    monkeypatch.setattr(artifacts, "write_atomic", real_write)
    monkeypatch.setattr(bellman, "_solve_class", no_solve)
    status, out, err = call(solver.cli.solve.main, "--words", words, "--opener", "salet", "--out",
                            home / "tree.msgpack", "--jobs", "1", capsys=capsys)
    assert status == 0, err
    assert policy_tree.load(home / "tree.msgpack").total == expected
    assert not journal.exists()  # discarded once the artifact is written


def test_solve_discards_its_journal_only_after_the_artifact_is_saved(home, words):
    word_list = load_word_list(words)
    result = bellman.solve(Game(word_list), "salet", jobs=1, keep_journal=True)
    journal = bellman.journal_path("solve", *bellman.game_inputs(Game(word_list)), "salet")
    assert journal.exists() and result.journal is not None
    bellman.save_artifact(result, home / "t.msgpack")
    assert not journal.exists() and result.journal is None
    bellman.solve(Game(word_list), "salet", jobs=1)  # the default: discarded as before
    assert not journal.exists()


# -- 2. artifacts and reports are named by the lists' identity --------------------------------
def test_a_custom_directory_named_legacy_is_not_the_shipped_list(home, tmp_path, capsys):
    directory = write_list(tmp_path / "mine" / "legacy")
    word_list = load_word_list(directory)
    assert word_list.shipped_name is None and word_list.name != "legacy"
    assert word_list.output_name == f"custom-{word_list.identity[:12]}"
    assert load_word_list("legacy").output_name == "legacy"

    shipped = home / "artifacts" / "legacy-normal-salet.msgpack"
    shipped.parent.mkdir()
    shipped.write_bytes(SHIPPED.read_bytes())
    status, out, err = call(solver.cli.solve.main, "--words", directory, "--opener", "salet",
                            "--jobs", "1", capsys=capsys)
    assert status == 0, err
    written = home / "artifacts" / f"{word_list.output_name}-normal-salet.msgpack"
    assert files_under(home) == sorted(["artifacts/legacy-normal-salet.msgpack",
                                        str(written.relative_to(home))])
    assert shipped.read_bytes() == SHIPPED.read_bytes()  # the shipped artifact is untouched
    assert call(solver.cli.tree.main, "verify", written, capsys=capsys)[0] == 0  # the tools accept it
    assert call(solver.cli.tree.main, "stats", written, "--json", capsys=capsys)[0] == 0

    # naming a shipped artifact explicitly is refused too
    status, _, err = call(solver.cli.solve.main, "--words", directory, "--opener", "salet",
                          "--out", shipped, "--jobs", "1", capsys=capsys)
    assert status == 2 and "named for the shipped 'legacy' list" in one_line_error(err)
    assert shipped.read_bytes() == SHIPPED.read_bytes()


def test_reports_of_a_custom_list_are_named_by_its_identity(home, words, capsys):
    word_list = load_word_list(words)
    status, _, err = call(solver.cli.report.main, "--words", words, "--opener", "salet",
                          "--policies", "mig_a", "--jobs", "1", capsys=capsys)
    assert status == 0, err
    assert (home / "reports" / word_list.output_name / "gap.csv").exists()
    assert not (home / "reports" / "tiny").exists()
    # the optimum solved for the report is found again by its identity, not solved twice
    assert (home / "reports" / word_list.output_name / "results" / "report.journal").exists()


def test_the_report_finds_an_artifact_written_by_solve(home, words, capsys, monkeypatch):
    assert call(solver.cli.solve.main, "--words", words, "--opener", "salet", "--jobs", "1",
                capsys=capsys)[0] == 0
    monkeypatch.setattr(bellman, "solve", no_solve)
    status, _, err = call(solver.cli.report.main, "--words", words, "--opener", "salet",
                          "--policies", "mig_a", "--jobs", "1", capsys=capsys)
    assert status == 0, err


# -- 3. uct_report render never writes a misleading report -------------------------------------
@pytest.mark.parametrize("args, fragment", [
    (["--opener", "zzzzz"], "'zzzzz' is not an allowed guess"),
    (["--words", "MISSING"], "is neither a shipped word list"),
])
def test_uct_render_with_a_bad_opener_or_list_writes_nothing(home, words, capsys, args, fragment):
    args = [str(home / "nowhere") if a == "MISSING" else a for a in args]
    if "--words" not in args:
        args += ["--words", str(words)]
    status, out, err = call(solver.cli.uct_report.main, "render", *args, "--out", home / "uct",
                            capsys=capsys)
    assert status == 2 and fragment in one_line_error(err)
    assert files_under(home) == [] and not (home / "uct").exists()


def test_uct_render_refuses_runs_of_another_opener(home, words, capsys):
    uct = home / "uct"
    assert call(solver.cli.uct_report.main, "run", "--words", words, "--opener", "salet",
                "--policies", "uct20_a", "--jobs", "1", "--out", uct, capsys=capsys)[0] == 0
    before = files_under(home)
    status, _, err = call(solver.cli.uct_report.main, "render", "--words", words, "--opener",
                          "crane", "--out", uct, capsys=capsys)
    assert status == 2 and "runs from opener(s) salet, not crane" in one_line_error(err)
    assert files_under(home) == before
    status, out, err = call(solver.cli.uct_report.main, "render", "--words", words, "--opener",
                            "salet", "--out", uct, capsys=capsys)
    assert status == 0, err
    assert "Exact optimal tree from SALET" in (uct / "uct.md").read_text()


# -- 4. one line and exit 2 instead of a traceback -----------------------------------------------
def test_solve_jobs_0_exits_2(home, words, capsys, monkeypatch):
    monkeypatch.setattr(bellman, "solve", no_solve)
    status, _, err = call(solver.cli.solve.main, "--words", words, "--opener", "salet", "--jobs", "0",
                          capsys=capsys)
    assert status == 2 and "--jobs" in one_line_error(err)
    assert "N ≥ 1, or -1 for all cores, -2 for all but one, …; got 0" in err
    assert files_under(home) == []


def test_uct_report_run_with_bad_seeds_exits_2(home, words, capsys):
    status, out, err = call(solver.cli.uct_report.main, "run", "--words", words, "--seeds", "a",
                            "--out", home / "uct", capsys=capsys)
    assert status == 2 and "--seeds" in err and "'a'" in err
    assert files_under(home) == []


@pytest.mark.parametrize("target", ["DIRECTORY", *UNPLAYED])
def test_tree_export_to_a_directory_or_an_unwritable_path_exits_2(home, capsys, target):
    target = str(home) if target == "DIRECTORY" else target
    status, out, err = call(solver.cli.tree.main, "export", SHIPPED, "-o", target, capsys=capsys)
    assert status == 2 and out == "" and target in one_line_error(err)
    assert files_under(home) == []


def test_tree_export_creates_missing_directories(home, capsys):
    out = home / "new" / "paths.txt"
    assert call(solver.cli.tree.main, "export", SHIPPED, "-o", out, capsys=capsys)[0] == 0
    assert len(out.read_text().splitlines()) == 2315


def test_tree_play_with_standard_input_closed_exits_2(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)
    status, _, err = call(solver.cli.tree.main, "play", SHIPPED, capsys=capsys)
    assert status == 2 and "standard input is closed" in one_line_error(err)
    assert "--answer" in err


def test_tree_play_with_fd_0_closed_exits_2_in_a_real_process():
    proc = subprocess.run([sys.executable, "-m", "tools.tree", "play", str(SHIPPED)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60,
                          preexec_fn=lambda: os.close(0))
    assert proc.returncode == 2, proc.stderr
    assert "standard input is closed" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("cache", ["FILE", "/proc/exact-wordle-cache", "READ-ONLY"])
@pytest.mark.parametrize("tool", ["solve", "report", "uct_report"])
def test_an_unusable_cache_exits_2_before_any_work(home, words, capsys, monkeypatch, cache, tool):
    if cache == "FILE":
        cache = str(home.parent / "cache-file")
        Path(cache).write_text("not a directory")
    elif cache == "READ-ONLY":
        if os.geteuid() == 0:
            pytest.skip("root writes in a read-only directory")
        cache = str(home.parent / "read-only")
        Path(cache).mkdir(mode=0o555)
    monkeypatch.setenv("EXACT_WORDLE_CACHE", cache)
    monkeypatch.setattr(bellman, "solve", no_solve)
    common = ["--words", words, "--opener", "salet", "--jobs", "1"]
    main, args = {
        "solve": (solver.cli.solve.main, common + ["--out", home / "t.msgpack"]),
        "report": (solver.cli.report.main, common + ["--policies", "mig_a", "--out", home / "r"]),
        "uct_report": (solver.cli.uct_report.main, ["run", *common, "--policies", "uct20_a",
                                               "--out", home / "u"]),
    }[tool]
    status, _, err = call(main, *args, capsys=capsys)
    line = one_line_error(err)
    assert status == 2 and f"EXACT_WORDLE_CACHE={cache}" in line and "writable directory" in line
    assert files_under(home) == []


def test_an_internal_error_is_one_line_and_its_traceback_needs_debug(home, words, capsys,
                                                                     monkeypatch):
    def bug(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(bellman, "solve", bug)
    args = ["--words", words, "--opener", "salet", "--jobs", "1", "--out", home / "t.msgpack"]
    status, _, err = call(solver.cli.solve.main, *args, capsys=capsys)
    line = one_line_error(err)
    assert status == 1 and "internal error: ZeroDivisionError: a bug" in line and "--debug" in line
    status = solver.cli.solve.main([str(a) for a in args] + ["--debug"])
    err = capsys.readouterr().err
    assert status == 1 and "Traceback" in err and "ZeroDivisionError" in err


@pytest.mark.parametrize("tool, args, target, fragment", [
    ("solve", ["--opener", "salet"], (bellman, "solve"), "journal"),
    ("report", ["--opener", "salet", "--policies", "mig_a"], (bellman, "solve"), "report.journal"),
    ("uct_report", ["run", "--opener", "salet", "--policies", "uct20_a"],
     (uct_study, "score_run"), "rerun"),
    ("tree", ["play", "--answer", "crony"], (policy_tree.PolicyTree, "game"), "abandoned"),
    ("tree", ["export", "-o", "OUT"], (policy_tree, "export_paths"), "nothing was written"),
    ("bench", ["--only", "solve"], (benchmarks.bench, "bench_solve"), "nothing was written"),
])
def test_ctrl_c_exits_130_with_a_message_that_fits(home, words, capsys, monkeypatch, tool, args,
                                                   target, fragment):
    def interrupt(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(*target, interrupt)
    main = {"solve": solver.cli.solve.main, "report": solver.cli.report.main, "bench": benchmarks.bench.main,
            "uct_report": solver.cli.uct_report.main, "tree": solver.cli.tree.main}[tool]
    if tool == "tree":
        args = [args[0], str(SHIPPED), *[str(home / "x.txt") if a == "OUT" else a for a in args[1:]]]
    elif tool != "bench":
        args = [*args, "--words", str(words), "--jobs", "1", "--out", str(home / "o")]
    status, _, err = call(main, *args, capsys=capsys)
    last = err.strip().splitlines()[-1]  # after any progress bar
    assert status == 130 and last.startswith("interrupted") and fragment in last
    assert not list(home.rglob("*.tmp"))


def test_every_tool_accepts_debug(capsys):
    for main in (solver.cli.solve.main, solver.cli.report.main, solver.cli.uct_report.main, benchmarks.bench.main):
        assert main(["--help"]) == 0
        assert "--debug" in capsys.readouterr().out
    assert solver.cli.tree.main(["--debug", "next", str(SHIPPED), "--debug"]) == 0
    assert capsys.readouterr().out.startswith("next guess: salet")


# -- 5. messages speak b/y/g and words --------------------------------------------------------
def test_the_unwinnable_error_quotes_feedback_as_letters(home, tmp_path, capsys):
    atch = ["batch", "catch", "hatch", "latch", "match", "patch", "watch"]
    directory = write_list(tmp_path / "atch", atch, atch + ["salet"])
    status, _, err = call(solver.cli.solve.main, "--words", directory, "--opener", "salet",
                          "--guess-limit", "3", "--jobs", "1", capsys=capsys)
    line = one_line_error(err)
    assert status == 3 and "cannot all be won within 3 guesses" in line  # an answer, not bad input
    assert "after salet:bgbby the 6 answers left" in line
    assert "feedback 1" not in line and "feedback 2" not in line  # no internal codes


def test_the_off_tree_message_has_no_roadmap_text(capsys):
    """Off the tree, ``next`` says so and answers with the exact solver (exit 0)."""
    status, out, err = call(solver.cli.tree.main, "next", SHIPPED, "salet:bbbby", "crane:bbbbb",
                            capsys=capsys)
    assert status == 0 and err == "" and "leaves the SALET tree" in out
    assert "28 answers remain" in out and "next guess: bitty (exact" in out
    assert "later issue" not in out and "for now" not in out


def test_a_damaged_tree_names_the_feedback_in_letters(tmp_path):
    from solver.game.feedback import feedback_table
    from solver.policies.exact_policy import ExactPolicy
    from solver.game.errors import InputError
    from solver.game.wordlists import from_words

    word_list = from_words(ANSWERS, GUESSES, "tiny")
    table = feedback_table(word_list, use_cache=False)
    tree = bellman.solve(Game(word_list), "salet", jobs=1, resume=False).tree
    cut = type(tree)(tree.node_guess[:1], tree.edge_start[:2] * 0, tree.edge_feedback[:0],
                     tree.edge_child[:0], tree.word_length)
    with pytest.raises(InputError) as caught:
        ExactPolicy(word_list, table, cut)
    message = str(caught.value)
    assert "no branch for feedback" in message and "after 'salet'" in message
    feedback = message.split("no branch for feedback ")[1].split()[0]
    assert len(feedback) == 5 and set(feedback) <= set("byg")


# -- 6. written files respect the umask --------------------------------------------------------
def test_every_writer_respects_the_umask(home, words, capsys):
    old = os.umask(0o027)
    try:
        assert call(solver.cli.solve.main, "--words", words, "--opener", "salet", "--jobs", "1",
                    "--out", home / "t.msgpack", capsys=capsys)[0] == 0
        word_list = load_word_list(words)
        from solver.runs.journal import Journal
        from solver.game.feedback import table_cache_path

        path = bellman.journal_path("solve", *bellman.game_inputs(Game(word_list)), "crane")
        journal = Journal.open(path, {"run": 1})
        journal.append("k", 1)
        assert call(solver.cli.report.main, "--words", words, "--opener", "salet", "--policies",
                    "mig_a", "--jobs", "1", "--out", home / "r", capsys=capsys)[0] == 0
        assert call(solver.cli.tree.main, "export", home / "t.msgpack", "-o", home / "paths.txt",
                    capsys=capsys)[0] == 0
    finally:
        os.umask(old)
    written = [home / "t.msgpack", journal.path, table_cache_path(word_list), home / "paths.txt",
               *(home / "r").rglob("*.*")]
    assert len(written) > 6
    for path in written:
        assert stat.S_IMODE(path.stat().st_mode) == 0o640, path


def test_a_rewritten_artifact_keeps_its_mode(home, words, capsys):
    out = home / "t.msgpack"
    out.write_bytes(b"old")
    out.chmod(0o644)
    old = os.umask(0o077)
    try:
        assert call(solver.cli.solve.main, "--words", words, "--opener", "salet", "--jobs", "1",
                    "--out", out, capsys=capsys)[0] == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
    assert msgpack.unpackb(out.read_bytes(), raw=False)["opener"] == "salet"


def _children(pid: int) -> set[int]:
    try:
        return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGKILL"])
def test_a_stopped_solve_leaves_no_worker_running(tmp_path, signal_name):
    # a real process on the legacy lists, two forked workers: Ctrl-C (exit 130, the journal
    # kept) or SIGKILL must not leave a worker computing a class nobody will read
    import signal
    import time

    out = tmp_path / "fuzzy.msgpack"
    command = [sys.executable, "-m", "tools.solve", "--opener", "fuzzy", "--jobs", "2",
               "--out", str(out), "--no-resume"]
    child = subprocess.Popen(command, cwd=Path(__file__).resolve().parents[1], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    workers: set[int] = set()
    deadline = time.monotonic() + 120
    while len(workers) < 2 and time.monotonic() < deadline and child.poll() is None:
        time.sleep(0.2)
        workers = _children(child.pid)
    assert len(workers) == 2, "the solve never started its two workers"
    time.sleep(1.0)
    child.send_signal(getattr(signal, signal_name))
    _, err = child.communicate(timeout=30)
    if signal_name == "SIGINT":
        assert child.returncode == 130 and "rerun the same command to resume" in err
    else:
        assert child.returncode == -signal.SIGKILL
    time.sleep(1.0)
    assert not [w for w in workers if _running(w)], "a worker outlived the run"
    assert not out.exists()


def test_jobs_means_what_joblib_means_everywhere():
    """--jobs is joblib's n_jobs in every tool and every API: -1 all cores, -2 all but one."""
    import argparse

    from joblib import cpu_count

    from solver.cli import _cli
    from solver.game.checks import worker_count
    from solver.game.errors import InputError

    assert worker_count(3) == 3 and worker_count(-1) == cpu_count()
    assert worker_count(-2) == max(1, cpu_count() - 1)
    for bad in (0, 1.5, True, "2"):
        with pytest.raises(InputError):
            worker_count(bad)
    parser = argparse.ArgumentParser()
    _cli.add_jobs_option(parser)
    assert parser.parse_args(["--jobs", "-2"]).jobs == -2 and parser.parse_args([]).jobs == -1


# -- an empty value is an error, never the default in disguise ----------------------------------
@pytest.mark.parametrize("tool, args", [
    ("assist", ["--words", "", "salet:bbbbb"]),
    ("analyse", ["--words", "", "salet", "--answer", "birth"]),
    ("tree", ["next", "--words", ""]),
    ("tree", ["next", "legacy-normal-salet", ""]),
    ("opener", ["salet", "--words", ""]),
    ("solve", ["--words", "", "--opener", "salet"]),
    ("report", ["--words", "legacy", "--name", ""]),
    ("noisy", ["--out", ""]),
    ("assist", ["--tree", "", "salet:bbbbb"]),
])
def test_an_empty_value_is_refused_with_exit_2(home, capsys, tool, args):
    """`assist --words ''` answered on the default lists (``args.words or PLAY_LISTS``)."""
    import importlib

    main = importlib.import_module(f"solver.cli.{tool}").main
    status, out, err = call(main, *args, capsys=capsys)
    assert status == 2 and out == "", (out, err)
    assert "an empty value" in one_line_error(err)
    assert files_under(home) == []


def test_an_empty_word_list_name_is_no_word_list(home):
    """The library too: '' is not the working directory's lists."""
    import solver
    from solver.game.errors import WordListError

    write_list(home)  # lists in the working directory, which Path('') names
    for words in ("", " "):
        with pytest.raises(WordListError, match="an empty name is no word list"):
            load_word_list(words)
        with pytest.raises(WordListError):
            solver.advise("salet:bbbbb", words)


# -- a report's name is a name under --out, never a path out of it ----------------------------
@pytest.mark.parametrize("tool, extra", [("report", []), ("report", ["--belief", "answers"]), ("noisy", [])])
@pytest.mark.parametrize("name", ["../../escape", "..", ".", "a/b", "/abs", "a\\b"])
def test_a_report_name_that_is_a_path_is_refused(home, words, capsys, tool, extra, name):
    import importlib

    main = importlib.import_module(f"solver.cli.{tool}").main
    out_dir = home / "out" / "deep"
    status, out, err = call(main, "--words", words, "--out", out_dir, "--name", name, *extra,
                            capsys=capsys)
    assert status == 2 and f"--name {name!r}: a name, not a path" in one_line_error(err)
    assert files_under(home) == [] and not (home / "escape").exists()
