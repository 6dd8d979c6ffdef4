"""``python -m tools.prove``: prove the best first guess over all allowed guesses."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from solver.game.spec import MODES, SEARCH_OBJECTIVES
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with, prog_name, journal_kept

DESCRIPTION = """\
Find and prove the best opener over all allowed guesses (docs/algorithms.md §9): every
opener gets a depth-one lower bound, then the openers are searched in bound order, each
against the best total so far as a cut-off (a cut-off opener gets a proven lower bound),
until every remaining opener's bound is at least the best. With --rank K the K best
openers are solved exactly and every other one is shown to be no better than the K-th.
With --top N only the N openers with the best depth-one bounds are considered: the result is
the best of those N, NOT a proof over all openers (the CSV is named ...-top<N>-openers.csv);
for lists where a full proof is out of reach.

Writes artifacts/<list>-<mode>-openers.csv (opener, status exact or lower_bound, value;
best first; the same for every run) and <same>.seconds.csv with each opener's search time,
and with --tree the best opener's decision tree, marked as proven optimal. Finished work
is journaled in the user cache, so a run stopped by Ctrl-C or SIGKILL resumes
(--no-resume starts over). On a dask.distributed cluster: start `dask scheduler` and
`dask worker ADDRESS --nthreads 1` on each machine, then --backend dask --scheduler ADDRESS
(--backend dask alone starts a LocalCluster of --jobs workers on this machine).
Its time on 2 cores: docs/benchmarks.md (the opener proof sections).

With --fixed-start K (2 or 3) it proves the best K words to play blind, whatever the
colours, then optimally (docs/algorithms.md §9.6): the K-word starts are bounded row by row
(each first word's own bound, then every continuation's), the best searched against the
cut-off. --rank N lists the N best with their totals. Writes
artifacts/<list>-normal-fixed<K>.csv (first, second[, third], status, value; a '*' line covers
every other start beginning with its words) and its .seconds.csv; journaled and resumable
like the opener proof. Total objective; in hard mode only the orders the rule allows blind
(each word allowed after every colouring before it) are considered.

With --objective worst it proves the least guaranteed maximum instead: for K = 1, 2, ... it
decides every opener (can some policy that plays it first win every game within K
guesses?) until an opener guarantees K; every opener then failed K - 1, so K is the least
worst case over all openers (docs/algorithms.md §9.5). Legacy lists on 2 cores: about 5
minutes in normal mode.

With --all (the total objective) it builds the opener table instead: every opener's exact
total, or "unwinnable", and for each of its feedbacks the exact value and first optimal guess
of the state it leaves (the second guesses), in artifacts/tables/<list>-<mode>-total.csv and
shards of 512 openers (artifacts/tables/<list>-<mode>-total/shard-NNN.msgpack), the best
openers first (docs/algorithms.md §9.7). It takes CPU-hours: every finished opener is
journaled and every finished shard written, so stop it at any time (Ctrl-C, SIGKILL,
--hours H) and rerun the same command to go on; shards on disk are checked and kept, never
recomputed (--shards 0-3 builds only those). Progress shows the openers done of the table,
openers per hour and the time left; CPU seconds per opener go to <name>.seconds.csv.
--all --openers W1,W2 recomputes those rows (nothing written) and compares them with the
table's shards: exit status 1 if any differs. Normal and hard mode.

With --objective worst --all every opener gets its exact least worst case: the levels go on
past the best one, each deciding every opener that has not yet won, up to --guess-limit; the
CSV then holds no lower_bound row (value inf: the opener cannot win every game within the
limit), and the summary counts the openers at each value. It decides every opener at the
best level and beyond, so it takes far longer than the proof of the best opener
(docs/prove.md); it is journaled like the rest (its own journal), so it resumes.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m tools.prove`` (``wordle prove``), with :data:`DESCRIPTION`
    as its help text."""
    parser = argparse.ArgumentParser(prog=prog_name("prove"), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="word list: 'legacy', 'nyt-2024', 'wordfreq-4', 'wordfreq-6', 'wordfreq-7', "
                             "or a directory with answers.txt "
                             "and guesses.txt (default: legacy)")
    parser.add_argument("--mode", choices=MODES, default="normal",
                        help=f"{_cli.MODE_HELP}; default normal")
    parser.add_argument("--objective", choices=SEARCH_OBJECTIVES, default="total",
                        help="minimise total guesses (default) or the worst case")
    parser.add_argument("--rank", type=_cli.positive_count, default=1,
                        help="solve the K best openers exactly (default 1: the best)")
    parser.add_argument("--all", dest="all_openers", action="store_true",
                        help="every opener exactly: with the total objective the opener table "
                             "(artifacts/tables/, resumable, see above); with --objective worst "
                             "every opener's exact least worst case (5, 6, ... or inf: cannot "
                             "win every game within --guess-limit); no lower_bound rows")
    parser.add_argument("--shards", default=None, metavar="LIST",
                        help="with --all (total): build only these shards of the table, e.g. "
                             "'0-3,7' (default: every shard not on disk yet)")
    parser.add_argument("--check", action="store_true",
                        help="with --all (total): read and check the table's shards on disk and "
                             "write its CSV from them; search nothing")
    parser.add_argument("--hours", type=_cli.positive_hours, default=None, metavar="H",
                        help="with --all (total): start no new opener after H hours (the "
                             "finished ones are kept; rerun to go on)")
    parser.add_argument("--tables-dir", default=None, metavar="DIR",
                        help="with --all (total): where the table's CSV and shards go "
                             "(default: artifacts/tables)")
    parser.add_argument("--openers", default=None,
                        help="comma-separated openers: consider only these")
    parser.add_argument("--fixed-start", dest="fixed_start", type=_cli.positive_count, default=None,
                        metavar="K", help="prove the best K words (2 or 3) played blind, then "
                                          "optimal play (default: the best opener)")
    parser.add_argument("--top", type=_cli.positive_count, default=None, metavar="N",
                        help="consider only the N openers with the best depth-one bounds (a "
                             "search, not a proof over all openers; default: all)")
    _cli.add_jobs_option(parser)
    parser.add_argument("--backend", choices=("loky", "dask"), default="loky",
                        help="loky: joblib processes on this machine (default); dask: the "
                             "workers of a dask.distributed cluster (--scheduler, or a "
                             "LocalCluster of --jobs workers without it)")
    parser.add_argument("--scheduler", default=None,
                        help="the dask scheduler's address, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--tree", action="store_true",
                        help="also solve and save the best opener's decision tree "
                             "(artifacts/<list>-<mode>-<opener>.msgpack), marked as proven")
    parser.add_argument("--memory-gb", type=_cli.memory_gb, default=4.0,
                        help="memory for the workers' memo tables (default 4)")
    parser.add_argument("--guess-limit", dest="guess_limit", type=_cli.guess_limit, default=6,
                        metavar="K", help="every game must be won within K guesses (default 6)")
    parser.add_argument("--out", default=None,
                        help="CSV path (default: artifacts/<list>-<mode>-openers.csv)")
    parser.add_argument("--no-resume", action="store_true",
                        help="discard the journal of an interrupted run and start over")
    add_debug_option(parser)
    return parser


@entry_point(interrupted=journal_kept("openers", "proof"))
def main(argv: Sequence[str] | None = None) -> int:
    """Run ``prove`` on ``argv`` (default ``sys.argv[1:]``): prove the best opener over every
    allowed guess (docs/algorithms.md §9), or with ``--fixed-start`` the best words played blind
    (§9.6), or with ``--all`` every opener's exact value (the opener tables, §9.7); returns the exit
    status (0; errors mapped by :func:`~solver.cli._cli.run_main`: 2 for bad input, 3 unwinnable,
    130 interrupted, the journal kept)."""
    args = build_parser().parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    from solver.exact.prove import (OpenerStatus, default_csv_path, discard_journal, proof_journal,
                                    proof_sentences, prove, save_openers_csv, save_proven_tree,
                                    standing, timings_path)
    from solver.game.wordlists import load_word_list

    from solver.game.files import prepare_output_file

    from solver.game.errors import InputError

    from solver.game.spec import Game, Objective

    word_list = load_word_list(args.words)
    game = Game(word_list, args.guess_limit, mode=args.mode, objective=args.objective)
    if args.fixed_start is not None:
        return _fixed_start(args, game)
    if args.all_openers and game.objective is Objective.TOTAL:
        return _table(args, game)
    if (args.shards is not None or args.hours is not None or args.tables_dir is not None
            or args.check):
        raise InputError("--shards, --hours, --check and --tables-dir are for --all with the "
                         "total objective")
    if args.top is not None and args.tree:
        raise InputError("--tree marks the tree as proven, which --top is not: solve the tree "
                         "with python -m tools.solve --opener W")
    openers = [w for w in args.openers.split(",") if w.strip()] if args.openers else None
    # the output path is checked before any work (a bad one would lose the run's result)
    path = prepare_output_file(args.out or default_csv_path(game, top=args.top),
                               inputs=word_list.files)
    prepare_output_file(timings_path(path), inputs=word_list.files)
    console = Console(stderr=True)
    phases = {"seed": "seeding", "bound": "bounding", "search": "searching", "level": "deciding"}
    with _progress_bar(console) as bar:
        task = bar.add_task("", total=None, phase="proving")
        current = {"phase": None}

        def progress(info):
            phase = (info["phase"], info.get("level"))
            if phase != current["phase"]:  # a new phase or level: the ETA starts afresh
                current["phase"] = phase
                bar.reset(task)
            if info["phase"] == "level":
                description = (f"within {info['level']} guesses: {info['won']} openers win "
                               f"every game, {info['searched']} decided")
            else:
                description = (f"best {info['best']}, cut-off {info['cutoff']}, "
                               f"{info['searched']} searched")
            bar.update(task, completed=info["done"], total=info["total"],
                       phase=phases[info["phase"]], description=description)

        result = prove(game, rank=args.rank, openers=openers, jobs=args.jobs,
                       memory_gb=args.memory_gb, resume=not args.no_resume, progress=progress,
                       backend=args.backend, scheduler=args.scheduler, top=args.top,
                       all_openers=args.all_openers)
    journal = proof_journal(game, args.rank, openers, args.top, args.all_openers)
    try:
        path, timings = save_openers_csv(result, path)
    except OSError as exc:
        from solver.game.errors import WriteFailedError

        raise WriteFailedError(
            f"cannot write {path} ({exc.strerror or exc}); the proof's work is kept in its journal "
            f"{journal}: rerun the same command (with a writable --out) and it finishes in "
            "seconds") from exc
    tree_path = None
    if args.tree:
        tree_path = save_proven_tree(result, jobs=args.jobs)
    discard_journal(game, args.rank, openers, args.top, args.all_openers)
    if args.all_openers:
        _report_every_opener(result, path, timings, tree_path)
        return EXIT_OK
    # the table and the "proven" sentences come from the rows the CSV holds (ties included)
    stand = standing(result)
    table = Table(title=f"best openers: {word_list.name}, {args.mode}, {args.objective}")
    for column in ("rank", "opener", "value", "average"):
        table.add_column(column, justify="right" if column != "opener" else "left")
    for place, row in stand.shown:
        average = f"{row.value / word_list.n_answers:.5f}" if game.objective is Objective.TOTAL else ""
        table.add_row(str(place), row.opener, str(row.value), average)
    Console().print(table)
    for sentence in proof_sentences(result):
        Console().print(sentence, soft_wrap=True, highlight=False)
    if game.objective is Objective.WORST:
        least = result.best.value
        levels = ", ".join(f"{k} {v:.1f} s" for k, v in result.phase_seconds.items())
        # the last level decides openers in order, a chunk at a time, until --rank of them win
        last = sum(1 for row in result.openers if row.status is OpenerStatus.EXACT or row.value > least)
        Console().print(f"{len(result.openers)} openers decided within 1..{least - 1} "
                        f"guesses; within {least}, the first {last} in order, of which "
                        f"{len(result.ranked)} win ({result.reused} decisions from the journal); "
                        f"{levels}; {result.seconds:.1f} s in all; "
                        f"CSV {path} (timings: {timings})"
                        + (f"; tree {tree_path}" if tree_path else ""), soft_wrap=True)
        return EXIT_OK
    considered = (f"{len(result.openers)} openers" if args.top is None else
                  f"the top {len(result.openers)} of {word_list.n_guesses} openers by bound")
    Console().print(f"{considered}: {result.searched} searched "
                    f"({result.reused} of them from the journal), the rest ruled out by their bound; "
                    f"{result.seconds:.1f} s; CSV {path} (timings: {timings})"
                    + (f"; tree {tree_path}" if tree_path else ""), soft_wrap=True)
    return EXIT_OK


def _report_every_opener(result, path, timings, tree_path) -> None:
    """The summary of ``--all``: how many openers have each least worst case (the first few of
    each in the proof's order), the "proven" sentences, and the levels' decisions and times;
    every figure is counted from the rows the CSV holds."""
    from rich.console import Console
    from rich.table import Table

    from solver.exact.bellman import INF
    from solver.exact.prove import least_worst_case_counts, proof_sentences

    counts = least_worst_case_counts(result)
    game = result.game
    table = Table(title=f"every opener's least worst case: {result.word_list.name}, "
                        f"{game.mode.value}")
    for column in ("least worst case", "openers", "first in the proof's order"):
        table.add_column(column, justify="left" if column.startswith("first") else "right")
    for value, openers in counts.items():
        first = [row.opener for row in result.openers if row.value == value][:5]
        label = f"more than {game.guess_limit}" if value >= INF else str(value)
        table.add_row(label, str(openers), ", ".join(first) + (", …" if openers > 5 else ""))
    console = Console()
    console.print(table)
    for sentence in proof_sentences(result):
        console.print(sentence, soft_wrap=True, highlight=False)
    # level K decided every opener whose value is K or more (all of them below the least)
    levels = "; ".join(
        f"within {k}: {sum(1 for row in result.openers if row.value >= k)} decided, "
        f"{sum(1 for row in result.openers if row.value == k)} win, {seconds:.1f} s"
        for k, seconds in ((int(name.split()[-1]), seconds)
                           for name, seconds in result.phase_seconds.items()))
    console.print(f"{levels}; {result.reused} decisions from the journal; "
                  f"{result.seconds:.1f} s in all; CSV {path} (timings: {timings})"
                  + (f"; tree {tree_path}" if tree_path else ""), soft_wrap=True, highlight=False)


def parse_shards(text: str) -> list[int]:
    """``--shards``: comma-separated shard numbers and ranges (``0-3,7``), as a sorted list.

    Raises:
        InputError: anything else (the message quotes the part)."""
    from solver.game.errors import InputError

    shards = set()
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise InputError(f"--shards: {part!r} is not a shard number or a range like 0-3")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise InputError(f"--shards: the range {part!r} runs backwards")
        shards.update(range(first, last + 1))
    return sorted(shards)


def _table(args, game) -> int:
    """``--all`` with the total objective: build or resume the opener table, or (with
    ``--openers``) recompute some rows and compare them with the table's shards."""
    import time

    from rich.console import Console
    from rich.table import Table

    from policy_tree.opener_table import TableStatus
    from solver.exact.proofs.table import TABLES_DIR, build_table
    from solver.game.errors import InputError

    if args.rank != 1 or args.top is not None or args.tree or args.out is not None:
        raise InputError("--all builds the whole table: --rank, --top, --tree and --out do not "
                         "apply (--tables-dir sets where it goes)")
    directory = args.tables_dir or TABLES_DIR
    if args.openers:
        return _table_check(args, game, directory)
    shards = parse_shards(args.shards) if args.shards is not None else None
    if args.check:
        if shards is not None or args.hours is not None:
            raise InputError("--check searches nothing: --shards and --hours do not apply")
        shards = []
    deadline = None if args.hours is None else time.monotonic() + args.hours * 3600
    console = Console(stderr=True)
    with _progress_bar(console) as bar:
        task = bar.add_task("", total=None, phase="openers")

        def progress(info):
            eta = "" if info["eta"] is None else f", about {_duration(info['eta'])} left"
            bar.update(task, completed=info["done"], total=info["total"],
                       description=f"{info['per_hour']:.0f} openers/h{eta}, shard "
                                   f"{info['shard']}")

        result = build_table(game, jobs=args.jobs, memory_gb=args.memory_gb,
                             resume=not args.no_resume, progress=progress, backend=args.backend,
                             scheduler=args.scheduler, directory=directory, shards=shards,
                             deadline=deadline)
    counts = {status: sum(1 for row in result.rows if row.status is status) for status in TableStatus}
    exact = [row for row in result.rows if row.status is TableStatus.EXACT]
    out = Console()
    table = Table(title=f"opener table {result.name}: {counts[TableStatus.EXACT]} exact, "
                        f"{counts[TableStatus.UNWINNABLE]} unwinnable, "
                        f"{counts[TableStatus.PENDING]} pending")
    for column in ("rank", "opener", "value", "average"):
        table.add_column(column, justify="left" if column == "opener" else "right")
    n_answers = game.word_list.n_answers
    for row in exact[:10]:
        place = 1 + sum(1 for other in exact if other.value < row.value)
        table.add_row(str(place), row.opener, str(row.value), f"{row.value / n_answers:.5f}")
    out.print(table)
    if result.finished and exact:
        best = exact[0]
        others = [row.value for row in exact if row.opener != best.opener]
        out.print(f"every opener decided: the best is {best.opener}, {best.value}; every other "
                  f"opener's value is at least {min(others) if others else 'inf'}"
                  f" ({counts[TableStatus.UNWINNABLE]} cannot win every game within "
                  f"{game.guess_limit})", soft_wrap=True, highlight=False)
    elif exact:
        out.print(f"the table is partial: ranks are among the {len(exact)} decided openers only",
                  highlight=False)
    cpu = sum(result.cpu_seconds.values())
    mean = f", mean {cpu / result.computed:.2f} CPU-s per opener" if result.computed else ""
    out.print(f"shards {result.complete}/{result.shards} on disk ({len(result.written)} written now); "
              f"{result.computed} openers searched{mean}, {result.reused} from the journal; "
              f"{result.seconds:.1f} s; CSV {result.csv}", soft_wrap=True, highlight=False)
    return EXIT_OK


def _table_check(args, game, directory) -> int:
    """``--all --openers``: recompute the rows and compare them with the shards on disk."""
    from rich.console import Console
    from rich.table import Table

    from policy_tree.opener_table import OpenerTable
    from solver.exact.bellman import INF
    from solver.exact.proofs.table import recompute

    openers = [w.strip().lower() for w in args.openers.split(",") if w.strip()]
    computed = recompute(game, openers, jobs=args.jobs, memory_gb=args.memory_gb,
                         backend=args.backend, scheduler=args.scheduler)
    shipped = OpenerTable.open(game.word_list, game.mode.value, game.objective.value,
                               directory=directory, missing_ok=True)
    table = Table(title="recomputed openers against the table")
    for column in ("opener", "value", "table", "second guesses", "agree"):
        table.add_column(column, justify="left" if column in ("opener", "agree") else "right")
    differ = 0
    for word, entry in zip(openers, computed):
        stored = None if shipped is None else shipped.entry(word)
        value = "inf" if entry.value >= INF else str(entry.value)
        if stored is None:
            table.add_row(word, value, "—", str(len(entry.codes)), "not in the table")
            continue
        same = (stored.value == entry.value and list(stored.codes) == list(entry.codes)
                and list(stored.values) == list(entry.values)
                and list(stored.guesses) == list(entry.guesses))
        differ += not same
        table.add_row(word, value, "inf" if stored.value >= INF else str(stored.value),
                      str(len(entry.codes)), "yes" if same else "NO")
    Console().print(table)
    if differ:
        Console(stderr=True).print(f"{differ} of {len(openers)} openers differ from the table",
                                   highlight=False)
        return 1
    return EXIT_OK


def _duration(seconds: float) -> str:
    """A time left, in words: ``3 h 20 min``, ``12 min``, ``40 s``."""
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60)} min"
    if seconds >= 60:
        return f"{int(seconds // 60)} min"
    return f"{int(seconds)} s"


def _progress_bar(console):
    """The proofs' progress: a live bar on a terminal, plain lines when piped (LineProgress)."""
    from rich.progress import (BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)
    from solver.studies.progress import LineProgress

    return LineProgress(TextColumn("[bold]{task.fields[phase]}[/]"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("{task.description}"), TimeElapsedColumn(), TimeRemainingColumn(),
                        console=console, transient=True)


def _fixed_start(args, game) -> int:
    """``--fixed-start K``: the best K-word start played blind (docs/algorithms.md §9.6)."""
    from rich.console import Console
    from rich.table import Table

    from solver.exact.proofs.fixed_start import (check_fixed_start, default_csv_path,
                                                 discard_fixed_start_journal, fixed_sentences,
                                                 fixed_standing, order_note, prove_fixed_start,
                                                 save_sequences_csv)
    from solver.game.errors import InputError
    from solver.game.files import prepare_output_file

    if args.tree or args.top is not None or args.openers or args.all_openers:
        raise InputError("--fixed-start takes none of --tree, --top, --openers, --all")
    check_fixed_start(game, args.fixed_start)
    word_list = game.word_list
    path = prepare_output_file(args.out or default_csv_path(game, args.fixed_start), inputs=word_list.files)
    prepare_output_file(path.with_name(path.stem + ".seconds.csv"), inputs=word_list.files)
    console = Console(stderr=True)
    phases = {"seed": "seeding", "bound": "bounding", "rows": "rows", "search": "searching"}
    with _progress_bar(console) as bar:
        current = {"phase": None, "task": None}

        def progress(info):
            if info["phase"] != current["phase"]:  # a task per phase: its own ETA and lines
                if current["task"] is not None:
                    bar.remove_task(current["task"])
                current["phase"] = info["phase"]
                current["task"] = bar.add_task("", total=None, phase=phases[info["phase"]])
            task = current["task"]
            bar.update(task, completed=info["done"], total=info["total"], phase=phases[info["phase"]],
                       description=f"best {info['best']}, cut-off {info['cutoff']}, "
                                   f"{info['searched']} searched")

        result = prove_fixed_start(game, args.fixed_start, rank=args.rank, jobs=args.jobs,
                                   memory_gb=args.memory_gb, resume=not args.no_resume,
                                   progress=progress, backend=args.backend, scheduler=args.scheduler)
    path, timings = save_sequences_csv(result, path)
    discard_fixed_start_journal(game, args.fixed_start, args.rank)
    table = Table(title=f"best {args.fixed_start}-word starts played blind: {word_list.name}")
    for column in ("rank", "words", "value", "average", "order"):
        table.add_column(column, justify="left" if column in ("words", "order") else "right")
    for place, row in fixed_standing(result).shown:
        table.add_row(str(place), " ".join(row.words), str(row.value),
                      f"{row.value / word_list.n_answers:.5f}", order_note(result, row.words))
    Console().print(table)
    for sentence in fixed_sentences(result):
        Console().print(sentence, soft_wrap=True, highlight=False)
    seconds = ", ".join(f"{k} {v:.1f} s" for k, v in result.phase_seconds.items())
    Console().print(f"{result.words} words: {result.searched} starts searched ({result.reused} of them "
                    f"from the journal), the rest ruled out by their bounds; {seconds}; "
                    f"{result.seconds:.1f} s; CSV {path} (timings: {timings})", soft_wrap=True)
    return EXIT_OK


def run() -> None:
    """The console entry: :func:`main` on the process's arguments, then ``sys.exit`` with its status
    (:func:`~solver.cli._cli.exit_with`)."""
    exit_with(main)


if __name__ == "__main__":
    run()
