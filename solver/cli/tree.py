"""``python -m tools.tree``: use a decision-tree artifact — verify, stats, export, next, play.

Only plain Python, numpy and msgpack are imported (never numba or the solver kernels), so a
lookup answers in well under a second from a cold start; only ``next`` after a history that
leaves the tree loads the exact solver (:func:`solver.evaluation.assist.advise_game`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

# No linear algebra happens here, and numpy's OpenBLAS would otherwise start a thread per core
# at import: ~30-40 ms of a lookup's cold start on a busy machine. An explicit setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from solver.game.spec import MODES, FeedbackRule, Objective
from solver.game.wording import counted
from solver.cli import _cli
from solver.cli._cli import (EXIT_FAILED, EXIT_INPUT, EXIT_OK, add_debug_option, entry_point,
                        exit_with, positive_seconds, prog_name)


DESCRIPTION = """\
Use a decision-tree artifact written by `python -m tools.solve`, or a shipped one by its name
(e.g. legacy-normal-salet, book/legacy-hard-crane: the files of artifacts/ and artifacts/book/,
which an installed package carries too; `stats` of a name that is not found lists them, and a
name two of them have is refused, naming both).

  verify ARTIFACT...      replay every answer with the plain-Python feedback rule; exit 0 when
                          every game is won and the stored figures match, 1 otherwise
  stats ARTIFACT          total, average, max, histogram, opener, list, mode, solver version,
                          each checked by the replay of verify first: exit 1 (the figures
                          marked unchecked, the opener never called proven) when it fails
  export ARTIFACT         every answer's game (--format paths) or the nested tree (json)
  next [ARTIFACT] [H...]  the next guess after a history like tarse:bbyyg crony:bgbgy; off
                          the tree, the exact solver's (as python -m tools.assist)
  play [ARTIFACT]         play interactively, or a whole game with --answer WORD

Without ARTIFACT, next and play use the shipped optimal tree of today's NYT lists (nyt-2024,
normal mode); --words legacy (Wordle's original 2022 lists) and --mode hard pick another.
  upgrade ARTIFACT...     rewrite a version 1 or 2 artifact (no header checksum) as version 3,
                          after a replay confirms every stored figure

Feedback is five of b/y/g (gray/yellow/green, first letter first), five digits 0/1/2, or the
squares Wordle shares (⬛ or ⬜ gray, 🟨 yellow, 🟩 green). A Yellow Wordle tree (solved with
--feedback yellow) takes b/y only, ggggg for the win: a feedback with a green is refused.

Exit status: 0 success, 1 verification failed (or an internal error; --debug shows its
traceback), 2 bad input (unknown word, malformed feedback or history, a history no answer
fits, a missing or damaged artifact, an unusable output path, no standard input to play
from), 130 interrupted.
"""

def shipped_trees() -> list[str]:
    """The short names of the shipped trees (:func:`policy_tree.shipped.shipped_trees`)."""
    from policy_tree.shipped import shipped_trees as names

    return names()


def resolve_artifact(text: str) -> str:
    """The file an ARTIFACT names: a path, or a shipped tree's short name
    (:func:`policy_tree.shipped.resolve_artifact`, which :func:`policy_tree.load` applies too).

    Raises:
        MissingArtifactError: a bare name no shipped tree has, or one two of them have."""
    from policy_tree.shipped import resolve_artifact as resolve

    return resolve(text)


def play_tree(words: str | None = None, mode: str | None = None) -> str:
    """The path of the shipped optimal tree of the shipped lists ``words`` (default
    :data:`solver.game.wordlists.PLAY_LISTS`, today's NYT lists) in ``mode`` (default normal):
    ``artifacts/<words>-<mode>-<opener>.msgpack`` (the one shipped tree of the lists and mode
    with the default objective, limit and feedback), what ``next`` and ``play`` use when no
    ARTIFACT is given.

    Raises:
        InputError: no such tree is shipped (naming the shipped ones), or more than one.
    """
    import re

    from solver.game.errors import InputError
    from solver.game.wordlists import PLAY_LISTS

    words = PLAY_LISTS if words is None else words
    mode = "normal" if mode is None else mode
    pattern = re.compile(rf"{re.escape(words)}-{re.escape(mode)}-[a-z]+")
    found = [name for name in shipped_trees() if pattern.fullmatch(name)]
    if len(found) != 1:
        raise InputError(f"{'no' if not found else len(found)} shipped optimal trees of the {words!r} lists in "
                         f"{mode} mode: give ARTIFACT (shipped: {', '.join(shipped_trees()) or 'none'})")
    return resolve_artifact(found[0])


def tree_and_history(args) -> tuple[str, list[str]]:
    """``next``/``play``'s ARTIFACT (resolved) and history: without an ARTIFACT (the first word
    is a history token, ``WORD:FEEDBACK``, or there is none), :func:`play_tree` of ``--words``
    and ``--mode``. Raises InputError for an ARTIFACT given with ``--words`` or ``--mode``."""
    from solver.game.errors import InputError

    history = list(getattr(args, "history", []))
    artifact = args.artifact
    if artifact is not None and ":" in artifact and not Path(artifact).exists():
        history.insert(0, artifact)
        artifact = None
    if artifact is None:
        return play_tree(args.words, args.mode), history
    if args.words is not None or args.mode is not None:
        raise InputError(f"{artifact}: --words and --mode choose the shipped tree when no ARTIFACT "
                         "is given; an ARTIFACT's own lists and mode are used")
    return resolve_artifact(artifact), history


def _add_tree_choice(command) -> None:
    command.add_argument("artifact", nargs="?", metavar="ARTIFACT",
                         help="a tree's file or shipped name (default: the shipped optimal tree of "
                              "--words and --mode)")
    command.add_argument("--words", default=None, metavar="LISTS",
                         help="without ARTIFACT: the shipped lists whose optimal tree is used, "
                              "'nyt-2024' (today's NYT lists, the default) or 'legacy' (Wordle's "
                              "original 2022 lists)")
    command.add_argument("--mode", default=None, choices=MODES,
                         help="without ARTIFACT: normal (default), hard or ultra")


HISTORY_HELP = ("the game so far, one word:feedback token per guess, e.g. salet:bbyyg crony:02012 "
                "(with none, the opener is printed)")
LIST_AT_MOST = 10  # remaining answers are listed in full up to this many
MAX_INPUT_LINE = 200  # longer lines typed to `play` are refused without being echoed
#: The most characters of one line `play` reads from standard input before it stops (exit 2):
#: a longer line is not typed, and `< /dev/zero` must end. Past MAX_INPUT_LINE nothing of the
#: line is kept (it is read on in pieces, to find its end), so memory stays bounded either way.
MAX_LINE_READ = 64 << 20


def read_line(limit: int, stream=None) -> tuple[str, int]:
    """One line of standard input (``stream``, default ``sys.stdin``), read at most ``limit``
    + 1 characters at a time: ``(line, length)``. A line of at most ``limit`` characters is
    returned whole (its newline included); of a longer one only its first ``limit`` + 1
    characters are kept (the caller refuses it) while the rest is read on in pieces and
    dropped, and ``length`` counts them all; one longer than :data:`MAX_LINE_READ` (or
    unending: ``/dev/zero``) is an InputError (exit 2).

    Raises:
        EOFError: the input has ended. InputError: the line is longer than MAX_LINE_READ."""
    from solver.game.errors import InputError

    stream = sys.stdin if stream is None else stream
    line = stream.readline(limit + 1)
    if not line:
        raise EOFError
    length = len(line.rstrip("\n"))
    tail = line
    while not tail.endswith("\n") and length > limit:  # the rest of a long line, dropped
        tail = stream.readline(1 << 16)
        if not tail:
            break
        length += len(tail.rstrip("\n"))
        if length > MAX_LINE_READ:
            raise InputError(f"standard input: a line of more than {MAX_LINE_READ} characters "
                             "is not a feedback; play stops")
    return line, length


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.tree`` (``wordle tree``), with :data:`DESCRIPTION`
    as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("tree"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_debug_option(parser)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    verify = commands.add_parser(
        "verify", help="replay every answer through the tree and check the stored figures",
        description="Replay every answer through the tree with the plain-Python feedback rule "
                    "(independent of the solver's numba kernel). Checks that every game is won "
                    "within the guess limit, every guess is an allowed word, every node is "
                    "reachable and used, and the stored total/histogram/max/average match. "
                    "Exit 0 if all pass, 1 listing the first failures, 2 if a file cannot be read.")
    verify.add_argument("artifacts", nargs="+", metavar="ARTIFACT", help="artifact file(s)")
    verify.add_argument("--max-failures", type=_cli.whole(1, 10**6), default=10,
                        help="failures listed per artifact (default 10)")
    verify.add_argument("--feedback", default=None, metavar="RULE",
                        help="replay under this feedback rule (standard or yellow) instead of "
                             "the one the artifact records (a tree fails under another rule)")

    stats = commands.add_parser("stats", help="figures stored in an artifact",
                                description="Show what the artifact stores: total, average, max "
                                            "and histogram of guesses, opener, word list, mode "
                                            "and solver version.")
    stats.add_argument("artifact", metavar="ARTIFACT")
    stats.add_argument("--json", action="store_true", help="print machine-readable JSON")

    export = commands.add_parser(
        "export", help="write every answer's game (paths) or the nested tree (json)",
        description="paths: one line per answer, in answer order, "
                    "'guess feedback guess feedback ... answer ggggg'. json: nested "
                    '{"guess": ..., "children": {"bbbbb": {...}}}; a node ending every game '
                    'that reaches it has "children": {}.')
    export.add_argument("artifact", metavar="ARTIFACT")
    export.add_argument("--format", choices=("paths", "json"), default="paths",
                        help="output format (default: paths)")
    export.add_argument("-o", "--output", metavar="FILE",
                        help="write to FILE (atomically) instead of stdout")

    nxt = commands.add_parser("next", help="the next guess after a history",
                              description="Print the tree's next guess after the history and "
                                          "how many answers remain (listing them when at most "
                                          f"{LIST_AT_MOST}). When the history leaves the tree, "
                                          "or no answer of the list fits it, answer with the "
                                          "exact search service under the tree's game, as "
                                          "python -m tools.assist does.")
    _add_tree_choice(nxt)
    nxt.add_argument("history", nargs="*", metavar="WORD:FEEDBACK", help=HISTORY_HELP)
    nxt.add_argument("--budget", type=positive_seconds, default=None, metavar="SECONDS",
                     help="off the tree: seconds the exact search may take before it gives the "
                          "best guess found, labelled not proven (default: the exact answer)")

    play = commands.add_parser(
        "play", help="play a game with the tree's guesses",
        description="Interactive: the tree recommends a guess, you type the feedback Wordle "
                    "gave (b/y/g, 0/1/2 or squares; WORD:FEEDBACK if you played another word; "
                    "q to quit), until ggggg. With --answer WORD, play the whole game against "
                    "WORD and print the board.")
    _add_tree_choice(play)
    play.add_argument("--answer", metavar="WORD", help="play automatically against this answer")
    play.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                      help="coloured board: auto = only on a terminal (default)")
    upgrade = commands.add_parser(
        "upgrade", help="rewrite an artifact of format version 1 or 2 as version 3",
        description="Versions 1 and 2 hold no checksum over their header, so they are no longer "
                    "opened. upgrade reads such a file, replays every answer (as verify), and "
                    "only when every check passes rewrites it in place, atomically, as version 3 "
                    "with the same tree and figures (a version 3 file is left as it is). Exit 0 "
                    "when every file is upgraded or already current, 1 when a replay fails (the "
                    "file is left untouched), 2 when a file cannot be read.")
    upgrade.add_argument("artifacts", nargs="+", metavar="ARTIFACT", help="artifact file(s)")
    for command in (verify, stats, export, nxt, play, upgrade):
        add_debug_option(command, subcommand=True)
    return parser


def _interrupted(argv: list[str]) -> str:
    if "play" in argv:
        return "interrupted: game abandoned"
    return "interrupted; nothing was written"


@entry_point(interrupted=_interrupted)
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``tree`` on ``argv`` (default ``sys.argv[1:]``): the subcommand named (verify, stats,
    export, next, play, upgrade); returns its exit status."""
    args = build_parser().parse_args(argv)
    return {"verify": cmd_verify, "stats": cmd_stats, "export": cmd_export, "next": cmd_next,
            "play": cmd_play, "upgrade": cmd_upgrade}[args.command](args)


# -- verify -------------------------------------------------------------------------------
def cmd_verify(args) -> int:
    """``tree verify``: replay every answer through each artifact (:func:`policy_tree.verify`) and
    print OK with its figures or FAILED with its problems; returns 0, 1 if a tree failed, 2 if a
    file could not be read."""
    import policy_tree
    from solver.game.errors import InputError
    from solver.cli._cli import print_error

    if args.feedback is not None:
        from solver.game.feedback import check_feedback_rule

        check_feedback_rule(args.feedback)
    status = EXIT_OK
    for path in args.artifacts:
        try:
            tree = policy_tree.load(resolve_artifact(path))
        except InputError as exc:  # report each unreadable file, then check the others
            print_error(str(exc))
            status = EXIT_INPUT
            continue
        report = policy_tree.verify(tree, max_failures=args.max_failures, feedback=args.feedback)
        if report.ok:
            print(f"OK {path}: {report.n_answers} answers, all won within {tree.guess_limit} "
                  f"guesses; total {report.total}, average {report.average:.5f}, max "
                  f"{report.max_guesses}, histogram {' '.join(map(str, report.histogram))}; "
                  f"{report.n_nodes} nodes")
        else:
            print(f"FAILED {path}: {report.n_failures} problem(s)")
            for line in report.failures:
                print(f"  - {line}")
            if report.n_failures > len(report.failures):
                print(f"  ... and {report.n_failures - len(report.failures)} more")
            status = max(status, EXIT_FAILED)
    return status


# -- upgrade ------------------------------------------------------------------------------
def cmd_upgrade(args) -> int:
    """``tree upgrade``: rewrite each artifact of an older format version in the current one, after
    its replay passes (the new bytes decoded before they are written); returns 0, 1 if a replay
    failed (the file is left as it is), 2 if a file could not be read."""
    import policy_tree
    from policy_tree.reader import read_artifact_bytes
    from policy_tree.schema import FORMAT_VERSION
    from solver.game.errors import InputError
    from solver.game.files import write_atomic
    from solver.cli._cli import print_error

    status = EXIT_OK
    for path in args.artifacts:
        try:
            data = read_artifact_bytes(Path(path))
            tree = policy_tree.decode(data, path, unchecked_ok=True)
        except InputError as exc:
            print_error(str(exc))
            status = EXIT_INPUT
            continue
        version = tree.header["format_version"]
        if version == FORMAT_VERSION:
            print(f"current {path}: already format version {FORMAT_VERSION}")
            continue
        report = policy_tree.verify(tree, max_failures=5)
        if not report.ok:
            print(f"FAILED {path}: left as it is (version {version}); the replay found "
                  f"{report.n_failures} problem(s)")
            for line in report.failures:
                print(f"  - {line}")
            status = max(status, EXIT_FAILED)
            continue
        payload = tree.to_bytes()
        policy_tree.decode(payload, path)  # the new bytes load as they are about to be written
        write_atomic(path, payload)
        print(f"upgraded {path}: format version {version} -> {FORMAT_VERSION}, replay OK "
              f"(total {report.total}, {report.n_nodes} nodes)")
    return status


# -- stats --------------------------------------------------------------------------------
def stats_document(tree, path: str, report=None) -> dict:
    """The figures ``stats --json`` prints: the stored values, and with ``report`` (the
    tree's :func:`policy_tree.verify`) whether the replay confirmed them (``verified``, its
    first ``verify_failures``) and so whether the recorded opener proof holds for this tree
    (``opener_proven``: a proof is recorded and the tree verifies)."""
    checked = {} if report is None else {
        "verified": report.ok, "verify_failures": report.failures,
        "opener_proven": report.ok and tree.opener_proof is not None}
    return {
        "artifact": path, "word_list": tree.word_list.name,
        "answers": tree.word_list.n_answers, "guesses": tree.word_list.n_guesses,
        "mode": tree.mode, "feedback": tree.feedback, "objective": tree.objective,
        "guess_limit": tree.guess_limit,
        "opener": tree.opener, "total": tree.total, "average": tree.average,
        "max_guesses": tree.max_guesses, "histogram": tree.histogram, "nodes": tree.n_nodes,
        "solver_version": tree.solver_version,
        "tree_sha256": tree.tree_sha256, "opener_proof": tree.opener_proof,
        "priors": None if tree.priors is None else {
            "source": tree.priors["source"], "sha256": tree.priors["sha256"],
            "weighted_total": tree.priors["weighted_total"],
            "expected_guesses": tree.priors["weighted_total"] / int(tree.prior_weights.sum())},
        **checked,
    }


def cmd_stats(args) -> int:
    """``tree stats``: the artifact's stored figures (:func:`stats_document`), checked by a replay
    first, as tables or JSON (``--json``); returns 0, or 1 if the replay did not confirm them."""
    import policy_tree

    tree = policy_tree.load(resolve_artifact(args.artifact))
    # every claim shown is checked first: the replay confirms the stored figures, and only a
    # tree that passes it is said to be proven (its recorded opener proof checked against it)
    report = policy_tree.verify(tree, max_failures=3)
    doc = stats_document(tree, args.artifact, report)
    status = EXIT_OK if report.ok else EXIT_FAILED
    if args.json:
        print(json.dumps(doc, indent=2))
        return status
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    summary = Table(title=escape(args.artifact), show_header=False)
    summary.add_column("field", style="bold")
    summary.add_column("value")
    summary.add_row("word list", escape(f"{doc['word_list']} ({doc['answers']} answers, "
                                        f"{doc['guesses']} guesses)"))
    summary.add_row("mode / objective", f"{doc['mode']} / {doc['objective']}")
    if doc["feedback"] != FeedbackRule.STANDARD:
        summary.add_row("feedback", f"{doc['feedback']} (greens shown as yellow unless the guess "
                        "is right)" if doc["feedback"] == FeedbackRule.YELLOW else doc["feedback"])
    proof = doc["opener_proof"]
    worth = "total" if doc["objective"] == Objective.TOTAL else "worst case"
    if not report.ok:
        opener = (" (claims to be proven optimal, but the tree fails verification: not proven)"
                  if proof else " (the tree fails verification)")
    elif proof:
        opener = (f" (proven optimal over all {proof['openers']} allowed guesses: every other "
                  f"opener's {worth} is at least {proof['others_at_least']})")
    else:
        opener = " (optimal tree for this opener; the opener itself is not proven best)"
    summary.add_row("opener", doc["opener"] + opener)
    summary.add_row("total guesses", str(doc["total"]))
    summary.add_row("average", f"{doc['average']:.5f}")
    if doc["priors"] is not None:
        priors = doc["priors"]
        summary.add_row("priors", escape(f"{priors['source']} (sha256 {priors['sha256'][:12]}…): "
                                         f"{priors['expected_guesses']:.5f} expected guesses"))
    summary.add_row("max guesses", f"{doc['max_guesses']} (limit {doc['guess_limit']})")
    summary.add_row("tree nodes", str(doc["nodes"]))
    summary.add_row("solver version", escape(doc["solver_version"]))
    summary.add_row("verified", "yes: every answer replayed, the stored figures match" if report.ok
                    else escape(f"NO: {report.failures[0]} (`tree verify` lists every failure); "
                                "the figures above are as stored, unchecked"))
    histogram = Table(title="answers by guesses needed")
    histogram.add_column("guesses", justify="right")
    histogram.add_column("answers", justify="right")
    histogram.add_column("share", justify="right")
    histogram.add_column("")
    peak = max(doc["histogram"]) or 1
    for i, count in enumerate(doc["histogram"], start=1):
        bar = "█" * round(40 * count / peak) if count else ""
        histogram.add_row(str(i), str(count), f"{100 * count / doc['answers']:.1f}%", bar)
    console = Console(highlight=False)
    console.print(summary)
    console.print(histogram)
    return status


# -- export -------------------------------------------------------------------------------
def cmd_export(args) -> int:
    """``tree export``: the tree as text paths or as JSON (``--format``), to ``--output`` (written
    atomically) or standard output; returns 0."""
    import policy_tree
    from policy_tree.export import export_json_text

    from solver.game.files import prepare_output_file, write_text_atomic

    tree = policy_tree.load(resolve_artifact(args.artifact))
    if args.output:  # refused (exit 2) or its directory created before the export is built
        prepare_output_file(args.output, inputs=[args.artifact])
    text = policy_tree.export_paths(tree) if args.format == "paths" else export_json_text(tree)
    if args.output:
        write_text_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return EXIT_OK


# -- next ---------------------------------------------------------------------------------
def describe_remaining(answers) -> str:
    """``"N answers remain"``, followed by the answers when there are at most ``LIST_AT_MOST``."""
    n = len(answers)
    head = f"{n} answer{'s remain' if n != 1 else ' remains'}"
    return f"{head}: {', '.join(answers)}" if n <= LIST_AT_MOST else head


def advise_off_tree(tree, steps, budget_option, *, in_book: bool = True) -> int:
    """Print the search service's next guess for a history the tree does not answer (off the
    tree, or fitting no answer of the list: the allowed guesses that fit are the answers; or
    where the tree fails its check, ``in_book=False``: the tree is not read)."""
    from solver.exact.service import SearchService
    from solver.studies.play_render import advice_text

    from solver.cli.assist import OUTPUT_SECONDS, seconds_left
    from solver.evaluation.warm import ensure_compiled

    service = SearchService.for_tree(tree, in_book=in_book)
    service.checked_steps(steps)  # a history nothing fits is refused before any compiling
    # start-up counts too (from the process's start), but not a first run's compiling
    started = time.monotonic() if ensure_compiled(tree.word_list.word_length) else _cli.budget_clock()
    budget = seconds_left(budget_option, started, OUTPUT_SECONDS)
    advice = service.advise(steps, top=0, budget=budget)
    print(advice_text(advice))
    return EXIT_OK


def cmd_next(args) -> int:
    """``tree next``: the tree's next guess after the history and the answers left; off the tree (or
    where the tree fails its check from there) the search service's next guess
    (:func:`advise_off_tree`); returns 0."""
    import policy_tree

    from policy_tree.errors import InconsistentHistoryError

    artifact, history = tree_and_history(args)
    tree = policy_tree.load(artifact)
    try:
        position = tree.position(history)
    except InconsistentHistoryError:  # no answer of the list fits: as `wordle assist`, the search
        return advise_off_tree(tree, tree.normalise_history(history), args.budget)  # service
    if position.won:
        print(f"solved: {position.steps[-1][0]} in {counted(len(position.steps), 'guess')}")
        return EXIT_OK
    if position.node is None:  # the history left the tree: the search service answers
        return advise_off_tree(tree, position.steps, args.budget)
    check = policy_tree.verify_position(tree, position)  # the answers left, replayed from here
    if not check.ok:  # a damaged or crafted tree: its guess is no answer; the search's is
        print(f"warning: {artifact}: the tree does not win every answer left from here "
              f"({check.failures[0]}; `tree verify` lists every failure); the exact solver "
              "answers instead", file=sys.stderr)
        return advise_off_tree(tree, position.steps, args.budget, in_book=False)
    print(f"next guess: {tree.guess_at(position.node)}")
    print(describe_remaining(position.answers))
    return EXIT_OK


# -- play ---------------------------------------------------------------------------------
_TILE_STYLE = ("bold white on grey35", "bold black on yellow3", "bold white on green4")
_SQUARE = ("⬛", "🟨", "🟩")


def board_row(number: int, guess: str, code: int, colour: bool):
    """One row of the board: rich ``Text`` with coloured tiles and squares, or plain
    ``"1  salet  bbbby"``."""
    from rich.text import Text
    from solver.game.feedback import code_to_text

    colours = [(code // 3**i) % 3 for i in range(len(guess))]
    if not colour:
        return Text(f"{number}  {guess}  {code_to_text(code, len(guess))}")
    row = Text(f"{number}  ")
    for letter, c in zip(guess, colours):
        row.append(f" {letter.upper()} ", style=_TILE_STYLE[c])
    row.append("  " + "".join(_SQUARE[c] for c in colours))
    return row


def _console(choice: str):
    from rich.console import Console

    force = {"always": True, "never": False, "auto": None}[choice]
    console = Console(highlight=False, force_terminal=force)
    return console, console.is_terminal if force is None else force


def cmd_play(args) -> int:
    """``tree play``: with ``--answer`` the tree's whole game against that answer, else an
    interactive game (:func:`play_interactive`); InputError for a history given; returns the exit
    status."""
    import policy_tree

    artifact, history = tree_and_history(args)
    if history:
        from solver.game.errors import InputError

        raise InputError(f"play takes no history ({history[0]!r}): `next {history[0]}` gives the guess after it")
    tree = policy_tree.load(artifact)
    console, colour = _console(args.color)
    if args.answer is not None:
        steps = tree.game(args.answer)
        for number, (guess, code) in enumerate(steps, start=1):
            console.print(board_row(number, guess, code, colour))
        console.print(f"solved {steps[-1][0]} in {counted(len(steps), 'guess')}")
        return EXIT_OK
    return play_interactive(tree, console, colour)


_NO_STDIN = ("standard input is closed, so the feedback cannot be typed: run `play` in a terminal "
             "(or pipe the feedback in, one per line), or play a whole game with --answer WORD")


def play_interactive(tree, console, colour: bool) -> int:
    """Recommend, read feedback, repeat until all green; 'q' (or end of input) quits."""
    from rich.markup import escape

    from policy_tree.errors import NotInTreeError
    from policy_tree.lookup import parse_history_token
    from solver.game.errors import InputError
    from solver.game.feedback import parse_feedback

    if sys.stdin is None or sys.stdin.closed:
        raise InputError(_NO_STDIN)
    steps: list[tuple[str, int]] = []
    position = tree.position(steps)
    service = None  # the search service, made when the game first leaves the tree
    console.print(f"{escape(tree.word_list.name)} list, {len(position.answers)} answers; type the feedback "
                  "Wordle shows (b/y/g, 0/1/2 or squares), WORD:FEEDBACK if you played another "
                  "word, q to quit")
    while True:
        if position.node is not None:
            suggestion = tree.guess_at(position.node)
        else:  # off the tree: the exact next guess from the search service
            from solver.evaluation.warm import ensure_compiled
            from solver.exact.service import SearchService

            ensure_compiled(tree.word_list.word_length)
            service = service or SearchService.for_tree(tree)
            suggestion = service.advise(steps, top=0).next_guess
        console.print(f"guess {len(steps) + 1}: [bold]{suggestion}[/]")
        prompt = f"feedback for {suggestion}> "
        try:
            console.print(prompt, end="", markup=False, highlight=False)
            line, length = read_line(MAX_INPUT_LINE)
            line = line.strip()
        except EOFError:
            console.print()
            return EXIT_OK
        except (OSError, RuntimeError, ValueError):  # standard input closed or unreadable
            console.print()
            raise InputError(_NO_STDIN) from None
        if line.lower() in ("q", "quit", "exit"):
            return EXIT_OK
        if not line:
            continue
        if length > MAX_INPUT_LINE:  # not echoed: a pasted file would flood the terminal
            console.print(f"[bold red]error:[/] a line of {length} characters is not a "
                          "feedback (five of b/y/g, 0/1/2 or squares) nor WORD:FEEDBACK",
                          soft_wrap=True)
            continue
        try:
            if ":" in line:
                step = parse_history_token(line)
            else:
                step = (suggestion, parse_feedback(line, len(suggestion)))
            candidate = tree.position([*steps, step])
        except InputError as exc:  # a typo costs a retry, not the game
            console.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
            continue
        steps.append(step)
        position = candidate
        console.print(board_row(len(steps), step[0], step[1], colour))
        if position.won:
            console.print(f"solved {step[0]} in {counted(len(steps), 'guess')}")
            return EXIT_OK
        console.print(describe_remaining(position.answers))
        if position.node is None and suggestion is not None:  # just left the tree: say so once
            try:
                tree.guess_after(position)
            except NotInTreeError as exc:
                console.print(f"[yellow]{escape(str(exc))}[/]", soft_wrap=True)


def run() -> None:
    """The console entry: ``main()``, then a quick exit (:func:`~solver.cli._cli.exit_with`:
    every file is closed when ``main`` returns), so that the interpreter's teardown of numpy
    and numba, most of a second under load, does not come after a ``--budget``'s answer."""
    exit_with(main, quick_exit=True)


if __name__ == "__main__":
    run()
