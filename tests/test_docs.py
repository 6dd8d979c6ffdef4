"""The documentation's examples are checked, so that none of them can go stale.

Every ```console block of README.md and docs/*.md is read. In a block with lines starting with
``$ ``, those lines are commands and the lines below each, up to the next ``$ ``, are what it
prints; in a block without them every line is a command (a trailing ``# comment`` aside). Every
command must name a real entry — a ``python -m tools.X`` (or ``benchmarks.X``) module, a make target of the Makefile,
a console script of pyproject.toml, or the ``dask`` command of the distributed package — and its
arguments must parse with the tool's own parser. The commands whose output is documented and
that answer in seconds (the tree tools, the next guess, a game's analysis, Absurdle, every
documented error) are run in a subprocess and their output compared with the documentation:

- a line ``...`` or ``…`` alone stands for any number of lines (an excerpt);
- ``…`` inside a line stands for any text (a timing, a path shortened by the terminal);
- ``$ echo $?`` after a command documents its exit status; otherwise a documented ``error:``
  means a non-zero status and anything else 0.

Outputs are compared at a terminal width of 160 columns (``COLUMNS``), without colour. Every
```pycon block is run as a doctest, from a temporary directory outside the checkout (as from an
installed package: no example may rely on the working directory). No example run may change
what ``git status`` shows: an example never writes into the repository. The docs hold no path
of any machine, and their relative links point at files of the repository.
"""

from __future__ import annotations

import argparse
import difflib
import doctest
import importlib
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
COLUMNS = 160
#: Tools whose documented runs need the solver (numba, the feedback table): marked slow.
SOLVER_TOOLS = {"tools.assist", "tools.analyse", "tools.absurdle", "tools.solve", "tools.prove",
                "tools.score_games"}
#: Tools whose documented outputs are run (the others take minutes or write artifacts; their
#: arguments are still parsed). A documented error of any tool is run too.
RUN_TOOLS = {"tools.tree", "tools.assist", "tools.analyse", "tools.absurdle", "tools.score_games"}
ELLIPSES = ("...", "…")


@dataclass
class Example:
    """One documented command: where it is, its words, and what it prints (None: not shown)."""

    path: Path
    line: int
    command: str
    output: list[str] | None = None
    status: int | None = None

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.command}"


def fenced_blocks(path: Path, language: str) -> list[tuple[int, list[str]]]:
    """``(line of the first content line, lines)`` of every ```language block of ``path``."""
    blocks, current, start = [], None, 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        stripped = line.strip()
        if current is None:
            if stripped == "```" + language:
                current, start = [], number + 1
        elif stripped.startswith("```"):
            blocks.append((start, current))
            current = None
        else:
            current.append(line.rstrip())
    assert current is None, f"{path}: a ```{language} block is not closed"
    return blocks


def output_lines(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def console_examples(path: Path) -> list[Example]:
    examples: list[Example] = []
    for start, lines in fenced_blocks(path, "console"):
        if not any(line.startswith("$ ") for line in lines):
            for offset, line in enumerate(lines):
                command = re.split(r"\s+#\s", " " + line, maxsplit=1)[0].strip()
                if command:
                    examples.append(Example(path, start + offset, command))
            continue
        current, status_next = None, False
        for offset, line in enumerate(lines):
            where = f"{path}:{start + offset}"
            if line.startswith("$ ") and line[2:].strip() == "echo $?":
                assert current is not None, f"{where}: `echo $?` must follow a command"
                status_next = True
            elif line.startswith("$ "):
                current = Example(path, start + offset, line[2:].strip(), [])
                examples.append(current)
            elif status_next:
                assert line.strip().isdigit(), f"{where}: `echo $?` must show a status"
                current.status, current, status_next = int(line), None, False
            else:
                assert current is not None, f"{where}: output before any command"
                current.output.append(line)
    for example in examples:
        if example.output is not None:
            example.output[:] = output_lines("\n".join(example.output))
    return examples


EXAMPLES = [example for path in DOCS for example in console_examples(path)]


def console_scripts() -> dict[str, str]:
    """pyproject's ``[project.scripts]``: script name → module."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = re.search(r"^\[project\.scripts\]\n(.*?)(?=^\[)", text, re.M | re.S)
    assert section, "pyproject.toml has no [project.scripts]"
    return {name: target.split(":")[0]
            for name, target in re.findall(r'^([\w-]+)\s*=\s*"([^"]+)"', section.group(1), re.M)}


def make_targets() -> tuple[set[str], str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w-]*):", text, re.M)), text


def split_command(command: str) -> list[str]:
    """The command's words, without environment assignments and timing wrappers."""
    words = shlex.split(re.sub(r"\$\([^)]*\)", "SUBST", command))
    while words:
        if re.fullmatch(r"[A-Z_][A-Z0-9_]*=.*", words[0]):
            words = words[1:]
        elif words[0] == "nice" and len(words) > 2 and words[1] == "-n":
            words = words[3:]
        elif words[0] in ("time", "/usr/bin/time"):
            words = words[1:]
            while words and words[0].startswith("-"):
                words = words[2:] if words[0] == "-f" else words[1:]
        else:
            return words
    return words


def entry(example: Example) -> tuple[str, str | None, list[str]]:
    """``(kind, module, argv)``: kind ``module`` (a tools module and its arguments), ``make``,
    or ``external``."""
    words = split_command(example.command)
    assert words, f"{example}: no command"
    program = words[0]
    if Path(program).name in ("python", "python3") and words[1:2] == ["-m"]:
        return "module", words[2], words[3:]
    scripts = console_scripts()
    if program in scripts:
        return "module", scripts[program], words[1:]
    if program == "make":
        targets, makefile = make_targets()
        for word in words[1:]:
            if "=" in word:
                variable = word.split("=")[0]
                assert re.search(rf"\$\({variable}\)", makefile), f"{example}: the Makefile has no {variable}"
            else:
                assert word in targets, f"{example}: the Makefile has no target {word!r}"
        return "make", None, words[1:]
    if program == "dask":
        assert words[1:2] in (["scheduler"], ["worker"]), f"{example}: unknown dask command"
        assert (Path(sys.executable).parent / "dask").exists(), "the dask command is not installed"
        return "external", None, words[1:]
    raise AssertionError(f"{example}: {program!r} is neither a tools module, a make target, a "
                         "console script nor dask")


class _Parsed(Exception):
    """Raised by the patched ``parse_args`` once the arguments parsed."""


def parse_arguments(module_name: str, argv: list[str]) -> None:
    """Parse ``argv`` with the tool's own parser (its ``build_parser``, or the one its ``main``
    builds, stopped right after parsing). Raises SystemExit on a usage error. ``tools.X`` is the
    checkout's shim of ``solver.cli.X``: the program's own module is parsed with."""
    if module_name.startswith("tools."):
        module_name = "solver.cli." + module_name.removeprefix("tools.")
    module = importlib.import_module(module_name)
    if hasattr(module, "build_parser"):
        module.build_parser().parse_args(argv)
        return
    original = argparse.ArgumentParser.parse_args

    def parse_then_stop(parser, args=None, namespace=None):
        original(parser, args, namespace)
        raise _Parsed

    main = getattr(module.main, "body", module.main)
    with mock.patch.object(argparse.ArgumentParser, "parse_args", parse_then_stop):
        with pytest.raises(_Parsed):
            main(argv)


def documents_error(example: Example) -> bool:
    return bool(example.output) and example.output[0].startswith("error:")


@pytest.mark.parametrize("example", EXAMPLES, ids=str)
def test_command_names_a_real_entry_and_its_arguments_parse(example, capsys):
    kind, module, argv = entry(example)
    if kind != "module":
        return
    assert module.startswith(("tools.", "benchmarks.")) and (ROOT / (module.replace(".", "/") + ".py")).exists(), (
        f"{example}: no module {module}")
    if documents_error(example):
        return  # a documented usage error: run below
    try:
        parse_arguments(module, argv)
    except SystemExit as exc:
        if exc.code == 0 and ("--help" in argv or "-h" in argv):
            return
        pytest.fail(f"{example}: the arguments do not parse (exit {exc.code}):\n"
                    f"{capsys.readouterr().err}")


def expected_pattern(lines: list[str]) -> re.Pattern:
    pieces = []
    for line in lines:
        if line.strip() in ELLIPSES:
            pieces.append(r"(?:[^\n]*\n)*?")
        else:
            pieces.append(r"[^\n]*?".join(re.escape(part) for part in line.split("…")) + r"\n")
    return re.compile("".join(pieces))


#: A plain progress line (solver.studies.progress.LineProgress): "label: done[/total][ unit], N s".
PROGRESS_LINE = re.compile(r"[^\n]*: \d+(/\d+)?( [a-z ]+)?, \d+ s\n?")


def run_example(example: Example) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS=str(COLUMNS), NO_COLOR="1")
    env.pop("FORCE_COLOR", None)
    _, module, argv = entry(example)
    result = subprocess.run([sys.executable, "-m", module, *argv], cwd=ROOT, env=env, text=True,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            timeout=300)
    # what a reader sees, without the progress lines a task of more than LineProgress's 2 s
    # prints (a slower machine prints them, a fast one not; no example shows one)
    result.stdout = "".join(line for line in result.stdout.splitlines(keepends=True)
                            if not PROGRESS_LINE.fullmatch(line))
    return result


def runnable(example: Example) -> bool:
    if not example.output:
        return False
    kind, module, _ = entry(example)
    return kind == "module" and (module in RUN_TOOLS or documents_error(example))


def _run_param(example: Example):
    _, module, _ = entry(example)
    slow = module in SOLVER_TOOLS or any("exact solver" in line for line in example.output)
    return pytest.param(example, id=str(example), marks=[pytest.mark.slow] if slow else [])


def git_status() -> str | None:
    """``git status --porcelain`` of the checkout (untracked files listed one by one), or None
    where there is no git or no repository (then nothing is compared)."""
    try:
        done = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


@pytest.fixture
def leaves_the_repository_as_it_was():
    """Fails the example that changed ``git status`` (wrote, changed or removed a file of the
    checkout): examples write into temporary directories only."""
    before = git_status()
    yield
    after = git_status()
    if before is not None and after is not None and after != before:
        diff = "\n".join(difflib.unified_diff(before.splitlines(), after.splitlines(), "before",
                                              "after", lineterm=""))
        pytest.fail(f"the example changed the repository (git status):\n{diff}")


@pytest.mark.parametrize("example", [_run_param(e) for e in EXAMPLES if runnable(e)])
@pytest.mark.timed
@pytest.mark.usefixtures("leaves_the_repository_as_it_was")
def test_documented_output_is_what_the_command_prints(example):
    result = run_example(example)
    actual = output_lines(result.stdout)
    if not expected_pattern(example.output).fullmatch("".join(line + "\n" for line in actual)):
        diff = "\n".join(difflib.unified_diff(example.output, actual, "documented", "printed",
                                              lineterm=""))
        pytest.fail(f"{example}: the output differs from the documentation:\n{diff}")
    if example.status is not None:
        assert result.returncode == example.status, f"{example}: exit status {result.returncode}"
    elif documents_error(example):
        assert result.returncode != 0, f"{example}: documents an error, but exit status 0"
    else:
        assert result.returncode == 0, f"{example}: exit status {result.returncode}"


PYCON = {path: blocks for path in DOCS if (blocks := fenced_blocks(path, "pycon"))}


@pytest.mark.slow
@pytest.mark.parametrize("path", list(PYCON), ids=lambda p: str(p.relative_to(ROOT)))
@pytest.mark.usefixtures("leaves_the_repository_as_it_was")
def test_python_examples_run_as_documented(path, monkeypatch, tmp_path):
    """A page's ```pycon blocks are one session, run in order as doctests, from a directory
    outside the checkout (a path relative to the repository's root would work from the
    checkout only, not from an installed package)."""
    assert ROOT not in tmp_path.parents
    monkeypatch.chdir(tmp_path)
    session: dict = {}
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    for start, lines in PYCON[path]:
        name = f"{path.relative_to(ROOT)}:{start}"
        test = doctest.DocTestParser().get_doctest("\n".join(lines) + "\n", session, name,
                                                   str(path), start - 1)
        runner.run(test, out=report.append, clear_globs=False)
        session.update(test.globs)  # a DocTest runs on a copy of the globals it is given
    assert runner.failures == 0, "".join(report)


MACHINE_PATH = re.compile(r"(?<![\w.~])/(?:work|tmp|home|root|Users|mnt|scratch)/|[A-Z]:\\\\")


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_path_of_a_machine(path):
    hits = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if MACHINE_PATH.search(line)]
    assert not hits, "paths of a machine:\n" + "\n".join(hits)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files(path):
    text = path.read_text(encoding="utf-8")
    missing = [target for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text)
               if "://" not in target and not (path.parent / target).exists()]
    assert not missing, f"{path.relative_to(ROOT)}: links to missing files: {missing}"


def test_readme_is_a_short_guide():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines; move detail into docs/"


def test_the_examples_are_found():
    """The parser above finds the documented commands (so the tests above cannot pass empty)."""
    assert sum(1 for e in EXAMPLES if e.path.name == "README.md") >= 5
    assert sum(1 for e in EXAMPLES if e.output and runnable(e)) >= 10
    assert PYCON


def test_the_api_page_documents_every_export_of_solver():
    import solver

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    missing = [name for name in solver.__all__ if not re.search(rf"`solver\.{name}\b", text)]
    assert missing == [], f"docs/api.md does not document solver.{', solver.'.join(missing)}"
    assert 'gymnasium.make("solver:ExactWordle-v0")' in text


def test_a_documented_command_works_pasted_into_a_fresh_shell_after_the_set_up():
    """README's set-up: `make install`, `source .venv/bin/activate`; then a command of the docs,
    in a shell with none of this session's environment (no venv on PATH, no PYTHONPATH)."""
    activate = ROOT / ".venv" / "bin" / "activate"
    if not activate.is_file():
        pytest.skip("no .venv in this checkout (the tests run in another environment)")
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp"), "LANG": "C.UTF-8",
           "EXACT_WORDLE_COMPILE_NOTICE_SAID": "1"}
    done = subprocess.run(["bash", "-c", "source .venv/bin/activate && python -m tools.tree next "
                           "artifacts/legacy-normal-salet.msgpack salet:bbbby north:bbggg && "
                           "wordle tree next artifacts/legacy-normal-salet.msgpack"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "next guess: abamp" and "next guess: salet" in done.stdout



@pytest.mark.parametrize("path", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_issue_number_or_commit_id(path):
    """The docs are a reference, not a log: history lives in git (no "issue 12", no `4fbffb6`)."""
    text = path.read_text(encoding="utf-8")
    issues = re.findall(r"(?i)\bissues?\s+#?\d+", text)
    commits = [h for h in re.findall(r"`([0-9a-f]{7,12})`", text) if re.search(r"\d", h) and re.search(r"[a-f]", h)]
    assert issues == [] and commits == []


def test_the_artifact_schema_names_its_current_version():
    from policy_tree import schema

    assert schema.__doc__.startswith(f"The decision-tree artifact format (msgpack), version {schema.FORMAT_VERSION}.")
    assert f"``FORMAT_VERSION`` ({schema.FORMAT_VERSION})" in schema.__doc__


def test_the_repository_check_sees_a_file_an_example_would_write():
    """The check of the examples (``leaves_the_repository_as_it_was``) sees a new file."""
    before = git_status()
    if before is None:
        pytest.skip("no git repository here")
    probe = ROOT / "reports" / f".docs-probe-{os.getpid()}"
    try:
        probe.write_text("written by an example\n")
        assert git_status() != before
    finally:
        probe.unlink(missing_ok=True)
    assert git_status() == before
