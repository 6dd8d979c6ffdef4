"""The optimality-gap report: heuristic policies scored against the exact optimum per opener.

For every opener, the exact optimum (the opening book, :meth:`solver.exact.book.OpeningBook.tree`:
a matching tree shipped or in the user cache, else a solve) and every requested
policy scored from that opener (:func:`solver.evaluation.scoring.score_policy`); the gap in
guesses and percent; and, per policy, the decisions with the largest regret against the
optimum (:func:`solver.evaluation.regret.decision_regrets`). Policies:
:mod:`solver.policies.registry`. This module runs the work; :mod:`solver.studies.render`
writes the outputs.

Files under the output directory ``<out>/<name>/``:

- ``results/report.journal``: the report's journal (:mod:`solver.runs.journal`), one record
  per finished piece — ``optimum/<opener>`` and ``policy/<opener>/<policy>`` — so an
  interrupted run resumes without redoing finished work. It is kept after the report is
  written (a later run with more openers or policies reuses it). Its fingerprint holds the
  word lists, guess limit, solver version and every kernel's source: a journal of other
  kernels is refused (``resume=False``, ``--no-resume``, starts over).
- ``gap.csv`` (one row per (opener, policy)), ``gap.md``, and the plots ``averages.png``,
  ``histograms.png``, ``time_per_game.png``.

When ``mig_a`` / ``mig_b`` are requested, their float-tie twins (``mig_a_float``,
``mig_b_float``, see :mod:`solver.policies.mig`) are scored too and shown in the "Tie readings"
section of gap.md (not in gap.csv or the plots): the thesis's MIG_B figure from SALET (7948)
is the float reading's; exact ties give 7946.
"""

from __future__ import annotations

import time
from pathlib import Path

from solver.game.checks import check_jobs, worker_count
from solver.game.errors import InputError
from solver.game.feedback import feedback_table
from solver.game.files import prepare_output_dir, usable_cache_dir
from solver.game.spec import GUESS_LIMIT
from solver.runs.naming import journal_path
from solver.studies.render import ReportData, write_outputs

REPORT_VERSION = 2
#: The openers of ``make report``.
DEFAULT_OPENERS = ("salet", "carle", "train", "raise", "clout", "soare", "salut", "lants", "reast",
                   "crate", "trace", "slate", "trape", "slane", "prate", "crane")
DEFAULT_POLICIES = ("mig_a", "mig_b", "rollout10_a", "rollout10_b", "rollout100_a")
#: MIG policies whose float-tie twin is scored too (section "Tie readings" of gap.md).
FLOAT_TWINS = {"mig_a": "mig_a_float", "mig_b": "mig_b_float"}


# ---------------------------------------------------------------------------------------------
# one (opener, policy) task, run in a worker process

_WORKER: dict = {}


def _worker_policy(word_list, name: str):
    """Per-process table and policies, so rollout memos are shared across a worker's tasks."""
    from solver.policies.registry import make_policy

    key = (word_list.answers_sha256, word_list.guesses_sha256)
    if _WORKER.get("key") != key:
        _WORKER.clear()
        _WORKER.update(key=key, table=feedback_table(word_list), policies={}, exact={})
    policies = _WORKER["policies"]
    if name not in policies:
        policies[name] = make_policy(name, word_list, _WORKER["table"])
    return policies[name]


def _worker_exact(word_list, opener: str, tree_path: str):
    from solver.policies.exact_policy import ExactPolicy, read_tree_artifact

    exact = _WORKER["exact"]
    if opener not in exact:
        if len(exact) >= 2:
            exact.clear()
        _, tree = read_tree_artifact(tree_path, word_list)
        exact[opener] = ExactPolicy(word_list, _WORKER["table"], tree)
    return exact[opener]


def _journal_shape():
    from solver.runs.journal import NUMBER, record_shape

    none = type(None)
    return record_shape({
        "optimum/": {"opener": str, "total": int, "max_guesses": int, "histogram": list,
                     "solve_seconds": NUMBER, "source": str, "tree_path": str, "seconds": NUMBER},
        "policy/": {"opener": str, "policy": str, "total": int, "max_guesses": int, "failures": int,
                    "histogram": list, "seconds": NUMBER, "seconds_per_game": NUMBER, "mode": str,
                    "seed": (int, none), "top": int, "regret_summary": dict, "regrets": list},
    })


def score_task(word_list, opener: str, name: str, tree_path: str, seed: int = 0, top: int = 10,
               jobs: int = 1) -> dict:
    """Score one policy from one opener and price its decisions.

    Returns a msgpack/JSON-ready dict: ``opener``, ``policy``, ``total``, ``max_guesses``,
    ``failures``, ``histogram`` (list of int), ``seconds`` (wall seconds of the scoring),
    ``seconds_per_game``, ``mode``, ``seed``, ``regret_summary`` (counts of
    :func:`~solver.evaluation.regret.decision_regrets` plus ``analysis_seconds``), ``regrets``
    (the ``top`` largest, :meth:`DecisionRegret.to_json` dicts) and, for UCT policies,
    ``rollouts_per_second`` (per worker process).
    """
    from solver.evaluation.regret import decision_regrets
    from solver.evaluation.scoring import score_policy

    policy = _worker_policy(word_list, name)
    result = score_policy(policy, opener, guess_limit=GUESS_LIMIT, seed=seed, jobs=jobs)
    started = time.perf_counter()
    exact = _worker_exact(word_list, opener, tree_path)
    regrets, summary = decision_regrets(exact, result.decisions)
    summary["analysis_seconds"] = round(time.perf_counter() - started, 3)
    speed = {}
    if getattr(policy, "n_rollouts", None):  # UCT: rollouts per second per worker process
        searched = sum(d.games for d in result.decisions if len(d.state) >= 2)
        speed["rollouts_per_second"] = (policy.n_rollouts * searched
                                        / (result.seconds * max(1, result.jobs)))
    return {**speed,
            "opener": opener, "policy": name, "total": result.total,
            "max_guesses": result.max_guesses, "failures": result.failures,
            "histogram": result.histogram, "seconds": result.seconds,
            "seconds_per_game": result.seconds_per_game, "mode": result.mode,
            "seed": result.seed, "regret_summary": summary,
            "regrets": [regret.to_json() for regret in regrets[:top]]}


# ---------------------------------------------------------------------------------------------
# the journal


def default_report_dir(word_list, parent: str | Path = "reports") -> Path:
    """``<parent>/<name>``, ``<name>`` the lists'
    :attr:`~solver.game.wordlists.WordList.output_name` (``legacy``, ``nyt-2024``, or
    ``custom-<12 hex of their identity>``): a custom list never writes into a shipped list's
    report."""
    return Path(parent) / word_list.output_name


def report_fingerprint(word_list) -> dict:
    """The fingerprint of a report's journal (:func:`solver.runs.journal.run_fingerprint`):
    the lists, the solver version, every kernel's source, the report's kind and
    :data:`REPORT_VERSION` (the report always plays normal mode, the total objective and
    :data:`~solver.game.spec.GUESS_LIMIT`, so its kind stands for them)."""
    from solver.exact.versions import SOLVER_VERSION
    from solver.runs.journal import run_fingerprint

    return run_fingerprint(word_list, solver_version=SOLVER_VERSION,
                           kind="gap-report", report_version=REPORT_VERSION)


# ---------------------------------------------------------------------------------------------
# the whole report


def validate_request(word_list, openers, policies) -> tuple[list, list]:
    """Normalise and check openers (allowed guesses) and policy names before any work.
    Raises UnknownWordError / UnknownPolicyError (exit 2 in the CLI)."""
    from solver.policies.registry import check_policy_name

    openers = [o.strip().lower() for o in openers if o.strip()]
    # module:attr policies keep their case (module names are case-sensitive)
    policies = [p.strip() if ":" in p else p.strip().lower() for p in policies if p.strip()]
    if not openers:
        raise InputError("no opener given")
    if not policies:
        raise InputError("no policy given")
    for opener in openers:
        word_list.guess_index(opener)
    policies = [check_policy_name(p) for p in policies]
    return list(dict.fromkeys(openers)), list(dict.fromkeys(policies))


def run_report(word_list, openers, policies, out_dir, *, jobs: int = -1, seed: int = 0,
               top: int = 10, resume: bool = True, float_twins: bool = True,
               artifacts_dir=None, console=None) -> ReportData:
    """Compute (or resume) every result and write gap.csv, gap.md and the plots.

    Args:
        word_list: the lists.
        openers: first guesses (words).
        policies: registry names (:mod:`solver.policies.registry`).
        out_dir: the report directory (``reports/<name>``).
        jobs: worker processes (-1: all cores) for the exact solves and the policy tasks.
        seed: master seed of randomised policies.
        top: decisions kept per (opener, policy) for "where it loses most".
        resume: reuse the finished results in the report's journal
            (``<out_dir>/results/report.journal``, :func:`solver.runs.naming.journal_path`);
            False discards the journal and computes everything again (the optimal trees are
            the opening book's: found, or solved once and kept in the user cache).
        float_twins: also score ``mig_a_float``/``mig_b_float`` when ``mig_a``/``mig_b`` are asked.
        artifacts_dir: where shipped optimal trees are looked for (a directory or a sequence;
            None: :data:`solver.exact.book.SHIPPED_DIRS`), before the user cache.
        console: a rich Console for progress bars (None: no progress display).

    Returns:
        the :class:`~solver.studies.render.ReportData` the files were written from.

    Raises:
        UnknownWordError, UnknownPolicyError, InputError: bad openers, policy names,
            ``jobs``, ``seed`` or ``top`` (before any work).
        OutputError: ``out_dir`` cannot be created or written (before any work).
        CacheError: the cache directory cannot be used (before any work).
        MissingExtraError: matplotlib (the ``studies`` extra) is not installed (before any work).
        ForeignJournalError: ``resume`` and the report's journal was written by another
            solver version or other kernels.
    """
    from solver.exact.executor import Executor
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from solver.studies.progress import LineProgress

    from solver.runs.journal import Journal
    from solver.exact.book import SHIPPED_DIRS, OpeningBook
    from solver.game.errors import WriteFailedError, require_extra
    from solver.game.spec import Game

    require_extra("matplotlib", "studies", "the report's plots")  # before any work, not after it
    openers, policies = validate_request(word_list, openers, policies)
    jobs = check_jobs(jobs)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputError(f"the seed is a whole number ≥ 0, not {seed!r}")
    if isinstance(top, bool) or not isinstance(top, int) or top < 0:
        raise InputError(f"top is a number of decisions ≥ 0, not {top!r}")
    out_dir = prepare_output_dir(out_dir)
    usable_cache_dir()
    journal = Journal.open(journal_path("report", directory=Path(out_dir) / "results"),
                           report_fingerprint(word_list), resume=resume, shape=_journal_shape())
    n_workers = worker_count(jobs)
    twins = {p: FLOAT_TWINS[p] for p in policies if float_twins and p in FLOAT_TWINS}
    all_policies = policies + [t for t in twins.values() if t not in policies]
    shipped = SHIPPED_DIRS if artifacts_dir is None else (
        [artifacts_dir] if isinstance(artifacts_dir, (str, Path)) else list(artifacts_dir))
    book = OpeningBook(Game(word_list, GUESS_LIMIT), shipped=shipped)
    optimal: dict[str, dict] = {}
    results: dict[tuple, dict] = {}

    progress = LineProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, disable=console is None, transient=False)
    with progress:
        # phase 1: the exact optimum of every opener
        solve_task = progress.add_task("exact optimum per opener", total=len(openers))
        for opener in openers:
            key = f"optimum/{opener}"
            saved = journal.get(key)
            found = book.find(opener)
            if saved is not None and (found is None or found.path is None
                                      or str(Path(found.path).resolve()) != saved["tree_path"]):
                saved = None  # the tree file went away (or another one serves): find or solve it
            if saved is None:
                started = time.perf_counter()
                optimum = found if found is not None else book.tree(opener, jobs=jobs)
                if optimum.path is None:  # solved, but the cache refused the file
                    raise WriteFailedError(f"cannot write the solved tree of {opener!r} to the cache "
                                           f"({book.file_name(opener)}); its journal is kept")
                solve_seconds = None if found is not None else time.perf_counter() - started
                saved = {"opener": opener, "total": optimum.total, "max_guesses": optimum.max_guesses,
                         "histogram": [int(h) for h in optimum.histogram],
                         "solve_seconds": solve_seconds,
                         "source": "solved" if found is None else "found",
                         "tree_path": str(Path(optimum.path).resolve()),
                         "seconds": time.perf_counter() - started}
                journal.append(key, saved)
            optimal[opener] = saved
            progress.advance(solve_task)

        # phase 2: every (opener, policy), heaviest first
        todo = []
        for opener in openers:
            for name in all_policies:
                saved = journal.get(f"policy/{opener}/{name}")
                if saved is not None and saved.get("seed") == seed and saved.get("top") == top:
                    results[(opener, name)] = saved
                else:
                    todo.append((opener, name))
        policy_task = progress.add_task("policies × openers", total=len(openers) * len(all_policies),
                                        completed=len(results))
        todo.sort(key=lambda t: (-_cost_guess(t[1]), all_policies.index(t[1]), openers.index(t[0])))
        if todo:
            inner_jobs = 1 if n_workers > 1 else jobs
            calls = ((word_list, opener, name, optimal[opener]["tree_path"], seed, top, inner_jobs)
                     for opener, name in todo)
            workers = 1 if len(todo) == 1 else n_workers
            outputs = Executor(workers).map_unordered(score_task, calls)
            for data in outputs:
                data = dict(data, seed=seed, top=top)
                journal.append(f"policy/{data['opener']}/{data['policy']}", data)
                results[(data["opener"], data["policy"])] = journal.get(
                    f"policy/{data['opener']}/{data['policy']}")
                progress.advance(policy_task)
    journal.close()

    report = ReportData(word_list.name, word_list.n_answers, word_list.n_guesses, openers, policies,
                        optimal, results, out_dir, twins=twins, guess_limit=GUESS_LIMIT)
    write_outputs(report)
    return report


def _cost_guess(name: str) -> float:
    """Rough relative cost of a policy, to start the heaviest tasks first."""
    import re

    match = re.match(r"rollout(\d+)", name)
    if match:
        return float(match.group(1))
    if name.startswith("uct"):
        return 1e6
    return 1.0
