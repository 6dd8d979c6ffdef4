"""``python -m benchmarks.bench_dask`` (part of ``make bench``): the opener proof on a dask cluster.

For each ``--workers N`` (default 1, 2 and 4) a fresh ``distributed.LocalCluster`` of N worker
processes with one thread each is started, and the proof runs through it as a user runs it:
``python -m tools.prove --words LIST --backend dask --scheduler ADDRESS --no-resume --out …``,
a subprocess (the dask client). The openers CSVs of all runs must be byte-identical to each
other and, when there is one, to the committed ``artifacts/<lists>-<mode>-openers.csv``;
the benchmark fails (exit status 1) if they are not.

What it prints per N, besides the proof's wall seconds:

- **tasks**: the proof's tasks, by kind — bound tasks (``BOUND_CHUNK`` openers' depth-one
  bounds each, or ``RULED_OUT_CHUNK`` of those whose cheap bound already reaches the cut-off)
  and search tasks (one opener each) — and **compute per task**: the seconds the
  task function ran on its worker (the worker's ``compute`` interval, as the scheduler
  receives it);
- **overhead per task**, from the scheduler's clock and the worker's (one machine, one
  clock): *dispatch* — from the moment the task could have started (it had reached the
  scheduler, and its worker had finished its task before) to the start of its compute (the
  scheduler's decision, the message to the worker, unpickling): the worker idles, though there
  is work; and *report* — from the end of its compute to the scheduler holding its result.
  While the worker computes its next task the report costs the worker nothing (the proof's
  kernel is compiled ``nogil``, so the worker's event loop sends it meanwhile): only the
  *exposed* report — of a task after which the worker had no task waiting (the last ones of a batch:
  the client waits for them before its next call) — is lost. The overhead share is
  Σ (dispatch + exposed report) / Σ (compute + dispatch + exposed report);
- **calls** and **empty-call round trip**: the proof's calls to the executor (one per search
  batch, per bound pass: the client waits for each call's results before the next) and the
  wall time of one call with one empty task (the proof's own bound task over no openers),
  submitted and collected by the proof's executor from this process: the fixed cost of a
  call at the client, which calls × round trip bounds from above;
- **busy**: Σ compute / (N × wall): the rest is the workers waiting — for the last task of a
  batch (the proof's cut-off is fixed per batch), for the client's own work (the order of
  the openers, the journal), for the processes to start and load the kernels, or for dask;
- the workers' CPU seconds and peak RSS (each worker's memo is ``--memory-gb`` × 0.6 / N).

With more workers than cores (4 on a 2-core machine) the workers share the cores: every
task's compute time stretches, and on an otherwise idle machine the wall cannot fall below
the one with as many workers as cores (on a shared one, more processes get a larger share).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from benchmarks.record import record as record_figures
from solver.cli import _cli
from solver.cli._cli import EXIT_OK, add_debug_option, entry_point, exit_with
from benchmarks.bench import ROOT, measure

try:
    from distributed.diagnostics.plugin import SchedulerPlugin
except ImportError:  # without the [dask] extra: main() says what to install
    SchedulerPlugin = object

#: Name of the scheduler plugin that records the proof's tasks.
PLUGIN = "exact-wordle-task-timeline"
#: Kinds of task by the name of the proof's task function (dask names each task after it).
KINDS = {"_bound_task": "bound", "_search_task": "search"}
EXIT_MISMATCH = 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_dask", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--words", default="legacy",
                        help="word list (default: legacy; wordfreq-7 is a quick run)")
    parser.add_argument("--mode", choices=("normal", "hard"), default="normal",
                        help="normal (default) or hard mode")
    parser.add_argument("--workers", type=_cli.positive_count, action="append", default=None,
                        help="worker processes of a run, one thread each (repeatable; "
                             "default: 1, 2 and 4)")
    parser.add_argument("--memory-gb", type=float, default=4.0,
                        help="the proof's --memory-gb, for all workers' memos (default 4)")
    parser.add_argument("--expected", default=None,
                        help="the CSV every run must equal (default: the committed "
                             "artifacts/<lists>-<mode>-openers.csv, if there is one)")
    add_debug_option(parser)
    return parser


class TaskTimeline(SchedulerPlugin):
    """Scheduler plugin: for each task of the proof (keys named after the task function), when
    it reached the scheduler and in which message from the client (one per executor call),
    on which worker it ran, its compute interval (the worker's ``startstops``) and when its
    result reached the scheduler."""

    name = PLUGIN

    def __init__(self):
        self.arrived: dict[str, float] = {}
        self.messages: set[str] = set()
        self.finished: dict[str, dict] = {}

    def transition(self, key, start, finish, *args, stimulus_id=None, **kwargs):
        now = time.time()
        key = str(key)
        if key.split("-")[0] not in KINDS:
            return
        if start == "released":
            self.arrived.setdefault(key, now)
            self.messages.add(stimulus_id)
        elif start == "processing" and finish == "memory":
            self.finished[key] = {"done": now, "worker": kwargs.get("worker"),
                                  "startstops": [dict(s) for s in kwargs.get("startstops", ())]}


def _timeline(dask_scheduler) -> dict:
    plugin = dask_scheduler.plugins[PLUGIN]
    return {"arrived": dict(plugin.arrived), "finished": dict(plugin.finished),
            "calls": len(plugin.messages)}


def _worker_usage() -> dict:
    """This worker process's CPU seconds (user + system) and peak RSS (MB)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return {"cpu": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024}


def _import_proof() -> None:
    import solver.exact.proofs.total  # noqa: F401  (the task functions' module)


def task_figures(timeline: dict) -> dict[str, dict]:
    """Per kind of task: lists of each task's compute, dispatch, report and exposed report
    seconds (see the module docstring)."""
    by_worker: dict[str, list] = {}
    for key, record in timeline["finished"].items():
        computes = [s for s in record["startstops"] if s["action"] == "compute"]
        if not computes or key not in timeline["arrived"]:
            continue
        start = min(s["start"] for s in computes)
        stop = max(s["stop"] for s in computes)
        by_worker.setdefault(record["worker"], []).append(
            (start, stop, timeline["arrived"][key], record["done"], key))
    figures: dict[str, dict] = {}
    for tasks in by_worker.values():
        tasks.sort()
        previous_stop = float("-inf")
        for i, (start, stop, arrived, done, key) in enumerate(tasks):
            ready = max(arrived, previous_stop)  # the earliest it could have started
            # with the worker's next task waiting, the gap before it is that task's dispatch
            # and the report is hidden; without, the worker waits for the client's next call
            waiting = i + 1 < len(tasks) and tasks[i + 1][2] <= stop
            entry = figures.setdefault(KINDS[key.split("-")[0]],
                                       {"compute": [], "dispatch": [], "report": [],
                                        "exposed": []})
            entry["compute"].append(stop - start)
            entry["dispatch"].append(start - ready)
            entry["report"].append(done - stop)
            entry["exposed"].append(0.0 if waiting else done - stop)
            previous_stop = stop
    return figures


def call_round_trip(address: str, word_list, mode: str, repeat: int = 15) -> float:
    """Median wall seconds of one executor call with one empty proof task (the bound task over
    no openers, with the proof's job description), from this process: what a batch pays at
    the client besides its tasks' work."""
    from solver.exact.proofs.runner import Executor, Job
    from solver.exact.proofs.total import _bound_task
    from solver.game.spec import Game

    job = Job(word_list, Game(word_list, 6, mode=mode), 1 << 16)
    walls = []
    with Executor(1, "dask", address) as executor:
        for _ in range(repeat):
            started = time.perf_counter()
            assert list(executor.map(_bound_task, [(job, [], 0)])) == [[]]
            walls.append(time.perf_counter() - started)
    return statistics.median(walls)


def run_on_cluster(n_workers: int, words: str, mode: str, memory_gb: float, word_list,
                   scratch: Path) -> dict:
    """One proof on a fresh LocalCluster of ``n_workers`` processes; its figures and CSV."""
    from distributed import Client, LocalCluster

    load_before = os.getloadavg()
    started = time.perf_counter()
    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        client.run(_import_proof)
        cluster_seconds = time.perf_counter() - started
        client.register_plugin(TaskTimeline())
        usage_before = client.run(_worker_usage)
        out = scratch / f"openers-{n_workers}.csv"
        command = [sys.executable, "-m", "tools.prove", "--words", words, "--mode", mode,
                   "--backend", "dask", "--scheduler", cluster.scheduler_address,
                   "--memory-gb", str(memory_gb), "--no-resume", "--out", str(out)]
        run = measure(command)
        usage_after = client.run(_worker_usage)
        timeline = client.run_on_scheduler(_timeline)
        round_trip = call_round_trip(cluster.scheduler_address, word_list, mode)
    return {
        "workers": n_workers, "wall": run["wall"], "client_cpu": run["cpu"],
        "cluster_seconds": cluster_seconds, "round_trip": round_trip,
        "tasks": task_figures(timeline), "calls": timeline["calls"],
        "worker_cpu": sum(usage_after[w]["cpu"] - usage_before[w]["cpu"] for w in usage_after),
        "worker_peak_mb": max(u["peak_mb"] for u in usage_after.values()),
        "csv": out.read_bytes(),
        "load": (load_before[0], os.getloadavg()[0]),
    }


def figure_rows(run: dict, cores: int) -> list[tuple[str, str]]:
    n = run["workers"]
    label = f"{n} worker{'s' if n > 1 else ''}"
    if n > cores:
        label += f" (oversubscribed: {cores} cores)"
    tasks = run["tasks"]
    compute = sum(sum(t["compute"]) for t in tasks.values())
    rows = [(f"{label}: proof wall s (tools.prove, whole process)", f"{run['wall']:.1f}"),
            (f"{label}: cluster start and worker imports, s", f"{run['cluster_seconds']:.1f}")]
    for kind in sorted(tasks):
        t = tasks[kind]
        lost = sum(t["dispatch"]) + sum(t["exposed"])
        mean, median = statistics.mean, statistics.median
        rows += [
            (f"{label}: {kind} tasks × compute s, mean (median)",
             f"{len(t['compute'])} × {mean(t['compute']):.3f} ({median(t['compute']):.3f})"),
            (f"{label}: {kind} tasks, dispatch ms, mean (median)",
             f"{1e3 * mean(t['dispatch']):.1f} ({1e3 * median(t['dispatch']):.1f})"),
            (f"{label}: {kind} tasks, report ms, mean (median); exposed, mean",
             f"{1e3 * mean(t['report']):.1f} ({1e3 * median(t['report']):.1f}); "
             f"{1e3 * mean(t['exposed']):.1f}"),
            (f"{label}: {kind} tasks, overhead: (dispatch + exposed) / task time, %",
             f"{100 * lost / (sum(t['compute']) + lost):.2f}"),
        ]
    call_share = run["calls"] * run["round_trip"] / run["wall"]
    rows += [
        (f"{label}: executor calls × empty-call round trip ms",
         f"{run['calls']} × {1e3 * run['round_trip']:.1f}"),
        (f"{label}: calls' round trips, % of wall (upper figure)", f"{100 * call_share:.2f}"),
        (f"{label}: busy (Σ compute / workers × wall), %",
         f"{100 * compute / (n * run['wall']):.1f}"),
        (f"{label}: CPU s, workers / client", f"{run['worker_cpu']:.0f} / {run['client_cpu']:.0f}"),
        (f"{label}: peak RSS per worker MB (max)", f"{run['worker_peak_mb']:.0f}"),
        (f"{label}: load average, before / after", f"{run['load'][0]:.1f} / {run['load'][1]:.1f}"),
    ]
    return rows


@entry_point(interrupted="interrupted; benchmarks only print, nothing was written")
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from solver.exact.prove import default_csv_path
    from solver.game.errors import InputError, require_extra
    from solver.game.spec import Game
    from solver.game.wordlists import load_word_list

    require_extra("distributed", "dask", "benchmarks.bench_dask")
    if not args.memory_gb > 0:
        raise InputError(f"--memory-gb must be > 0, got {args.memory_gb}")
    word_list = load_word_list(args.words)
    expected_path = Path(args.expected) if args.expected else \
        default_csv_path(Game(word_list, mode=args.mode), directory=ROOT / "artifacts")
    expected = expected_path.read_bytes() if expected_path.exists() else None
    if args.expected and expected is None:
        raise InputError(f"{args.expected}: no such file")
    workers = args.workers or [1, 2, 4]
    cores = os.cpu_count() or 1
    console = Console()
    console.print(f"machine: {platform.machine()}, {cores} cores, Python "
                  f"{platform.python_version()}; {args.words} lists, {args.mode} mode")
    runs = []
    with tempfile.TemporaryDirectory() as scratch:
        for n in workers:
            runs.append(run_on_cluster(n, args.words, args.mode, args.memory_gb, word_list,
                                       Path(scratch)))
    table = Table(title=f"opener proof on a dask LocalCluster, {args.words}, {args.mode}")
    table.add_column("figure")
    table.add_column("value", justify="right")
    rows = [row for run in runs for row in figure_rows(run, cores)]
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)
    digests = {hashlib.sha256(run["csv"]).hexdigest()[:12] for run in runs}
    same = len(digests) == 1
    console.print(f"openers CSV: {'the same' if same else 'DIFFERENT'} for "
                  f"{', '.join(str(n) for n in workers)} workers (sha256 {', '.join(sorted(digests))})",
                  soft_wrap=True)
    if expected is not None:
        matches = all(run["csv"] == expected for run in runs)
        console.print(f"{'equal to' if matches else 'DIFFERENT from'} {expected_path}",
                      soft_wrap=True)
        same = same and matches
    notes = [f"Openers CSV: {'the same' if same else 'DIFFERENT'} for {', '.join(str(n) for n in workers)} "
             "workers" + (f", {'equal to' if matches else 'different from'} the committed "
                          f"{expected_path.name}" if expected is not None else "") + "."]
    record_figures("dask", f"Opener proof on a dask LocalCluster, {args.words} lists, {args.mode} mode",
                   ("figure", "value"), rows, notes=notes, prog="python -m benchmarks.bench_dask", argv=argv)
    return EXIT_OK if same else EXIT_MISMATCH


def run() -> None:
    exit_with(main)


if __name__ == "__main__":
    run()
