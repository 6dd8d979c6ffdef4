"""The optimality-gap report: heuristic policies scored against the exact optimum per opener.

For every opener, the exact optimum (:func:`solver.exact.bellman.solve`, or a matching cached tree)
and every requested policy scored from that opener (:func:`solver.evaluation.scoring.score_policy`);
the gap in guesses and percent; and, per policy, the decisions where it loses most: at each
state the policy reaches where its guess differs from the optimal one, the exact total after
its guess (:meth:`solver.policies.exact_policy.ExactPolicy.value_after`) minus the optimum ``F(S, d)``
(Bertsimas & Paskov, Operations Research 2024, §3). Policies: :mod:`solver.policies.registry`.

Files under the output directory ``<out>/<name>/``:

- ``results/optimal-<opener>.json`` and ``results/<opener>--<policy>.json``: one checkpoint
  per finished result, so an interrupted run resumes without redoing finished work;
- ``gap.csv`` (one row per (opener, policy)), ``gap.md``, and the plots ``averages.png``,
  ``histograms.png``, ``time_per_game.png``.

When ``mig_a`` / ``mig_b`` are requested, their float-tie twins (``mig_a_float``,
``mig_b_float``, see :mod:`solver.policies.mig`) are scored too and shown in the "Tie readings"
section of gap.md (not in gap.csv or the plots): the thesis's MIG_B figure from SALET (7948)
is the float reading's; exact ties give 7946.

Exact trees solved here are cached in the user cache dir (``$EXACT_WORDLE_CACHE``, see
:func:`solver.game.feedback.cache_dir`) under ``optimal-trees/``; a tree in ``artifacts/`` is used
when it matches the lists, opener, mode and guess limit. Nothing is written to ``artifacts/``.
"""

from __future__ import annotations

import csv
import hashlib
import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.game.errors import InputError
from solver.game.feedback import cache_dir, feedback_table

REPORT_VERSION = 1
GUESS_LIMIT = 6
#: The openers of ``make report``.
DEFAULT_OPENERS = ("salet", "carle", "train", "raise", "clout", "soare", "salut", "lants", "reast",
                   "crate", "trace", "slate", "trape", "slane", "prate", "crane")
DEFAULT_POLICIES = ("mig_a", "mig_b", "rollout10_a", "rollout10_b", "rollout100_a")
#: MIG policies whose float-tie twin is scored too (section "Tie readings" of gap.md).
FLOAT_TWINS = {"mig_a": "mig_a_float", "mig_b": "mig_b_float"}
CSV_COLUMNS = ("opener", "policy", "total", "average", "max_guesses", "failures", "histogram",
               "optimal_total", "optimal_average", "gap_total", "gap_guesses", "gap_percent",
               "seconds", "seconds_per_game", "mode")


# ---------------------------------------------------------------------------------------------
# the exact optimum per opener


def optimal_tree_cache_path(word_list, opener: str, guess_limit: int = GUESS_LIMIT) -> Path:
    """Where a tree solved for the report is cached (user cache dir, never ``artifacts/``)."""
    key = hashlib.sha256(f"{word_list.answers_sha256}:{word_list.guesses_sha256}".encode()).hexdigest()[:12]
    return cache_dir() / "optimal-trees" / f"{word_list.name}-{key}-normal-{opener}-{guess_limit}.msgpack"


def _matching_tree(path: Path, word_list, opener: str, guess_limit: int):
    from solver.policies.exact_policy import ArtifactMismatchError, read_tree_artifact

    if not path.exists():
        return None
    try:
        header, tree = read_tree_artifact(path, word_list)
    except ArtifactMismatchError:
        return None
    if (header.get("opener") != opener or header.get("mode") != "normal"
            or header.get("objective") != "total" or header.get("guess_limit") != guess_limit):
        return None
    return header, tree


def load_or_solve_optimum(word_list, opener: str, *, jobs: int = -1, guess_limit: int = GUESS_LIMIT,
                          artifacts_dir: str | Path = "artifacts", progress=None):
    """The exact optimum for ``opener``: ``(header, tree, source)``.

    ``header`` holds at least ``total``, ``max_guesses``, ``histogram``, ``solve_seconds``;
    ``source`` is the path read, or ``"solved"``. Looks in ``artifacts_dir`` first, then the
    cache; otherwise solves with :func:`solver.exact.bellman.solve` and caches the tree.
    """
    from solver.exact.bellman import save_artifact, solve

    candidates = [Path(artifacts_dir) / f"{word_list.name}-normal-{opener}.msgpack",
                  optimal_tree_cache_path(word_list, opener, guess_limit)]
    for path in candidates:
        found = _matching_tree(path, word_list, opener, guess_limit)
        if found is not None:
            return found[0], found[1], str(path)
    result = solve(word_list, opener, guess_limit=guess_limit, jobs=jobs, progress=progress)
    path = save_artifact(result, candidates[1])
    header, tree = _matching_tree(path, word_list, opener, guess_limit)
    return header, tree, "solved"


# ---------------------------------------------------------------------------------------------
# losses of a policy's decisions


@dataclass
class Loss:
    """One decision of a policy that costs guesses against the optimum.

    Attributes:
        state: the answers of the state (words).
        guesses_left: guesses left before the decision.
        guess: the policy's guess.
        optimal_guess: the optimal guess.
        optimal_total: F(S, d), the least total guesses over the state's answers.
        policy_total: the exact total after the policy's guess with optimal play afterwards,
            or None if some answer can then no longer be won within the limit.
        extra_total: policy_total − optimal_total (inf if policy_total is None).
    """

    state: list
    guesses_left: int
    guess: str
    optimal_guess: str
    optimal_total: int
    policy_total: int | None
    extra_total: float

    @property
    def extra_per_game(self) -> float:
        """Extra expected guesses for a game in this state."""
        return self.extra_total / len(self.state)

    def to_json(self) -> dict:
        return {"state": self.state, "guesses_left": self.guesses_left, "guess": self.guess,
                "optimal_guess": self.optimal_guess, "optimal_total": self.optimal_total,
                "policy_total": self.policy_total,
                "extra_total": None if math.isinf(self.extra_total) else int(self.extra_total)}

    @classmethod
    def from_json(cls, data: dict) -> "Loss":
        extra = math.inf if data["extra_total"] is None else data["extra_total"]
        return cls(list(data["state"]), int(data["guesses_left"]), data["guess"], data["optimal_guess"],
                   int(data["optimal_total"]), data["policy_total"], extra)


def decision_losses(exact, decisions) -> tuple[list[Loss], dict]:
    """Price every decision of a policy against the optimum.

    Args:
        exact: a :class:`solver.policies.exact_policy.ExactPolicy` (ideally holding the opener's tree).
        decisions: :class:`solver.evaluation.scoring.Decision` records of the policy.

    Returns:
        ``(losses, summary)``: the decisions with a positive extra total, largest first (ties:
        larger state, then the state's words), and counts ``decisions``, ``differing``
        (guess ≠ the optimal guess), ``losing`` (extra > 0), ``lost_states`` (states the
        policy reached that no longer allow winning every answer in time).
    """
    from solver.exact.bellman import UnwinnableError

    word_list = exact.word_list
    losses: list[Loss] = []
    summary = {"decisions": 0, "differing": 0, "losing": 0, "lost_states": 0}
    for decision in decisions:
        state = decision.state
        if len(state) < 2:
            continue
        summary["decisions"] += 1
        try:
            best, optimal_guess = exact.solve(state, decision.guesses_left)
        except UnwinnableError:
            summary["lost_states"] += 1
            continue
        if decision.guess == optimal_guess:
            continue
        summary["differing"] += 1
        after = exact.value_after(state, decision.guesses_left, decision.guess)
        extra = math.inf if after is None else after - best
        if extra > 0:
            summary["losing"] += 1
            losses.append(Loss([word_list.answers[a] for a in state], int(decision.guesses_left),
                               word_list.guesses[decision.guess], word_list.guesses[optimal_guess],
                               int(best), after, extra))
    losses.sort(key=lambda l: (-l.extra_total, -len(l.state), l.state))
    return losses, summary


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


def score_task(word_list, opener: str, name: str, tree_path: str, seed: int = 0, top: int = 10,
               jobs: int = 1) -> dict:
    """Score one policy from one opener and price its decisions; a JSON-ready dict."""
    from solver.evaluation.scoring import score_policy

    policy = _worker_policy(word_list, name)
    result = score_policy(policy, opener, guess_limit=GUESS_LIMIT, seed=seed, jobs=jobs)
    started = time.perf_counter()
    exact = _worker_exact(word_list, opener, tree_path)
    losses, summary = decision_losses(exact, result.decisions)
    summary["analysis_seconds"] = round(time.perf_counter() - started, 3)
    speed = {}
    if getattr(policy, "n_rollouts", None):  # UCT: rollouts per second per worker process
        searched = sum(d.games for d in result.decisions if len(d.state) >= 2)
        speed["rollouts_per_second"] = (policy.n_rollouts * searched
                                        / (result.seconds * max(1, result.jobs)))
    return {**speed,
        "kind": "policy", "opener": opener, "policy": name, "total": result.total,
        "max_guesses": result.max_guesses, "failures": result.failures,
        "histogram": result.histogram, "seconds": result.seconds,
        "seconds_per_game": result.seconds_per_game, "mode": result.mode,
        "seed": result.seed, "loss_summary": summary,
        "losses": [loss.to_json() for loss in losses[:top]],
    }


# ---------------------------------------------------------------------------------------------
# checkpoints


def _fingerprint(word_list) -> dict:
    return {"report_version": REPORT_VERSION, "word_list": word_list.name,
            "answers_sha256": word_list.answers_sha256, "guesses_sha256": word_list.guesses_sha256,
            "guess_limit": GUESS_LIMIT}


def _checkpoint_path(out_dir: Path, opener: str, policy: str | None) -> Path:
    name = f"optimal-{opener}.json" if policy is None else f"{opener}--{policy}.json"
    return out_dir / "results" / name


def _load_checkpoint(path: Path, fingerprint: dict, extra: dict | None = None) -> dict | None:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    wanted = dict(fingerprint, **(extra or {}))
    if any(data.get(k) != v for k, v in wanted.items()):
        return None
    return data


def _save_checkpoint(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=True))
    os.replace(tmp, path)


# ---------------------------------------------------------------------------------------------
# the whole report


@dataclass
class ReportData:
    """Everything the outputs are made from."""

    word_list_name: str
    n_answers: int
    n_guesses: int
    openers: list
    policies: list
    optimal: dict  # opener → optimum dict
    results: dict  # (opener, policy) → result dict (float twins included)
    out_dir: Path

    def row(self, opener: str, policy: str) -> dict:
        """One gap.csv row."""
        r, o = self.results[(opener, policy)], self.optimal[opener]
        average = r["total"] / self.n_answers
        optimal_average = o["total"] / self.n_answers
        return {
            "opener": opener, "policy": policy, "total": r["total"],
            "average": f"{average:.4f}", "max_guesses": r["max_guesses"], "failures": r["failures"],
            "histogram": " ".join(str(h) for h in r["histogram"]),
            "optimal_total": o["total"], "optimal_average": f"{optimal_average:.4f}",
            "gap_total": r["total"] - o["total"], "gap_guesses": f"{average - optimal_average:.4f}",
            "gap_percent": f"{100.0 * (r['total'] - o['total']) / o['total']:.2f}",
            "seconds": f"{r['seconds']:.3f}", "seconds_per_game": f"{r['seconds_per_game']:.6f}",
            "mode": r["mode"],
        }


def validate_request(word_list, openers, policies) -> tuple[list, list]:
    """Normalise and check openers (allowed guesses) and policy names before any work.
    Raises UnknownWordError / UnknownPolicyError (exit 2 in the CLI)."""
    from solver.policies.registry import check_policy_name

    openers = [o.strip().lower() for o in openers if o.strip()]
    policies = [p.strip().lower() for p in policies if p.strip()]
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
               artifacts_dir: str | Path = "artifacts", console=None) -> ReportData:
    """Compute (or resume) every result and write gap.csv, gap.md and the plots.

    Args:
        word_list: the lists.
        openers: first guesses (words).
        policies: registry names (:mod:`solver.policies.registry`).
        out_dir: the report directory (``reports/<name>``).
        jobs: worker processes (-1: all cores) for the exact solves and the policy tasks.
        seed: master seed of randomised policies.
        top: decisions kept per (opener, policy) for "where it loses most".
        resume: reuse finished results found under ``out_dir/results``.
        float_twins: also score ``mig_a_float``/``mig_b_float`` when ``mig_a``/``mig_b`` are asked.
        console: a rich Console for progress bars (None: no progress display).

    Raises:
        UnknownWordError, UnknownPolicyError: bad openers or policy names (before any work).
    """
    from joblib import Parallel, cpu_count, delayed
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    openers, policies = validate_request(word_list, openers, policies)
    out_dir = Path(out_dir)
    fingerprint = _fingerprint(word_list)
    n_workers = cpu_count() if jobs < 0 else max(1, jobs)
    extra_policies = [FLOAT_TWINS[p] for p in policies if float_twins and p in FLOAT_TWINS
                      and FLOAT_TWINS[p] not in policies]
    all_policies = policies + extra_policies
    optimal: dict[str, dict] = {}
    tree_paths: dict[str, str] = {}
    results: dict[tuple, dict] = {}

    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, disable=console is None, transient=False)
    with progress:
        # phase 1: the exact optimum of every opener
        solve_task = progress.add_task("exact optimum per opener", total=len(openers))
        for opener in openers:
            path = _checkpoint_path(out_dir, opener, None)
            saved = _load_checkpoint(path, fingerprint, {"opener": opener}) if resume else None
            tree_path = None
            if saved is not None:
                tree_path = saved.get("tree_path")
                if not tree_path or _matching_tree(Path(tree_path), word_list, opener, GUESS_LIMIT) is None:
                    saved = None
            if saved is None:
                started = time.perf_counter()
                header, _, source = load_or_solve_optimum(word_list, opener, jobs=jobs,
                                                          artifacts_dir=artifacts_dir)
                tree_path = source if source != "solved" else str(optimal_tree_cache_path(word_list, opener))
                saved = dict(fingerprint, kind="optimal", opener=opener, total=int(header["total"]),
                             max_guesses=int(header["max_guesses"]),
                             histogram=[int(h) for h in header["histogram"]],
                             solve_seconds=float(header["solve_seconds"]),
                             source="solved" if source == "solved" else "cached",
                             tree_path=str(Path(tree_path).resolve()),
                             seconds=time.perf_counter() - started)
                _save_checkpoint(path, saved)
            optimal[opener] = saved
            tree_paths[opener] = saved["tree_path"]
            progress.advance(solve_task)

        # phase 2: every (opener, policy), heaviest first
        todo = []
        for opener in openers:
            for name in all_policies:
                path = _checkpoint_path(out_dir, opener, name)
                saved = _load_checkpoint(path, fingerprint, {"opener": opener, "policy": name, "top": top}) \
                    if resume else None
                if saved is not None:
                    results[(opener, name)] = saved
                else:
                    todo.append((opener, name))
        policy_task = progress.add_task("policies × openers", total=len(openers) * len(all_policies),
                                        completed=len(results))
        todo.sort(key=lambda t: (-_cost_guess(t[1]), all_policies.index(t[1]), openers.index(t[0])))
        if todo:
            inner_jobs = 1 if n_workers > 1 else jobs
            tasks = (delayed(score_task)(word_list, opener, name, tree_paths[opener], seed, top, inner_jobs)
                     for opener, name in todo)
            if n_workers == 1 or len(todo) == 1:
                outputs = (task[0](*task[1], **task[2]) for task in tasks)
            else:
                outputs = Parallel(n_jobs=n_workers, return_as="generator_unordered", batch_size=1,
                                   max_nbytes=None)(tasks)
            for data in outputs:
                data = dict(fingerprint, top=top, **data)
                _save_checkpoint(_checkpoint_path(out_dir, data["opener"], data["policy"]), data)
                results[(data["opener"], data["policy"])] = data
                progress.advance(policy_task)

    report = ReportData(word_list.name, word_list.n_answers, word_list.n_guesses, openers, policies,
                        optimal, results, out_dir)
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


# ---------------------------------------------------------------------------------------------
# outputs


def write_outputs(report: ReportData) -> None:
    """Write gap.csv, gap.md and the three PNG plots into ``report.out_dir``."""
    report.out_dir.mkdir(parents=True, exist_ok=True)
    write_csv(report, report.out_dir / "gap.csv")
    plots = write_plots(report, report.out_dir)
    (report.out_dir / "gap.md").write_text(markdown(report, plots))


def write_csv(report: ReportData, path: Path) -> None:
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS, lineterminator="\n")
        writer.writeheader()
        for opener in report.openers:
            for policy in report.policies:
                writer.writerow(report.row(opener, policy))


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def policy_summary(report: ReportData) -> list[dict]:
    """Per policy, over the openers: mean average, mean gap, worst gap, failures, time."""
    rows = []
    for policy in report.policies:
        r = [report.row(o, policy) for o in report.openers]
        rows.append({
            "policy": policy,
            "mean_average": _mean(float(x["average"]) for x in r),
            "mean_gap": _mean(float(x["gap_guesses"]) for x in r),
            "mean_gap_percent": _mean(float(x["gap_percent"]) for x in r),
            "max_gap": max(float(x["gap_guesses"]) for x in r),
            "failures": sum(int(x["failures"]) for x in r),
            "seconds_per_game": _mean(float(x["seconds_per_game"]) for x in r),
        })
    return rows


def top_losses(report: ReportData, policy: str, k: int = 10) -> list[tuple[str, Loss]]:
    """The k decisions where ``policy`` loses most, over all openers: (opener, Loss)."""
    found = []
    for opener in report.openers:
        for data in report.results[(opener, policy)].get("losses", []):
            found.append((opener, Loss.from_json(data)))
    found.sort(key=lambda t: (-t[1].extra_total, -len(t[1].state), t[0], t[1].state))
    return found[:k]


def _state_text(state: list, limit: int = 8) -> str:
    words = ", ".join(state[:limit])
    return f"{len(state)}: {words}" + (", …" if len(state) > limit else "")


def markdown(report: ReportData, plots: dict) -> str:
    n = report.n_answers
    lines = [
        f"# Optimality gap — {report.word_list_name}",
        "",
        f"Word list `{report.word_list_name}`: {n} answers, {report.n_guesses} allowed guesses; "
        f"games must be won within {GUESS_LIMIT} guesses. For every opener, the exact optimum "
        "(`solver.exact.bellman.solve`, minimum total guesses) beside each policy scored from the same "
        "opener against every answer. Gap = policy average − optimal average (guesses per game); "
        "percent of the optimal total.",
        "",
        "## Average guesses per opener",
        "",
        "| opener | optimum | " + " | ".join(report.policies) + " |",
        "| --- | ---: | " + " | ".join("---:" for _ in report.policies) + " |",
    ]
    for opener in report.openers:
        opt = report.optimal[opener]["total"]
        cells = []
        for policy in report.policies:
            row = report.row(opener, policy)
            cells.append(f"{row['average']} (+{row['gap_guesses']})")
        lines.append(f"| {opener} | {opt / n:.4f} ({opt}) | " + " | ".join(cells) + " |")
    lines += ["", "## Per policy, over the openers", "",
              "| policy | mean average | mean gap (guesses) | mean gap (%) | worst gap | failures | seconds per game |",
              "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for s in policy_summary(report):
        lines.append(f"| {s['policy']} | {s['mean_average']:.4f} | {s['mean_gap']:.4f} | "
                     f"{s['mean_gap_percent']:.2f} | {s['max_gap']:.4f} | {s['failures']} | "
                     f"{s['seconds_per_game']:.2e} |")
    speeds = [(p, _mean(report.results[(o, p)]["rollouts_per_second"] for o in report.openers))
              for p in report.policies
              if all("rollouts_per_second" in report.results[(o, p)] for o in report.openers)]
    if speeds:
        lines += ["", "Rollouts per second per worker process (N × decisions searched / "
                  "(seconds × workers), mean over the openers): "
                  + ", ".join(f"{p} {r:,.0f}" for p, r in speeds) + "."]
    lines += ["", "## All results", "",
              "| opener | policy | total | average | max | failures | histogram (1..) | optimal total | gap | gap % | s/game |",
              "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"]
    for opener in report.openers:
        for policy in report.policies:
            r = report.row(opener, policy)
            lines.append(f"| {opener} | {policy} | {r['total']} | {r['average']} | {r['max_guesses']} | "
                         f"{r['failures']} | {r['histogram']} | {r['optimal_total']} | "
                         f"{r['gap_guesses']} | {r['gap_percent']} | {float(r['seconds_per_game']):.2e} |")
    twins = [(p, FLOAT_TWINS[p]) for p in report.policies
             if p in FLOAT_TWINS and any((o, FLOAT_TWINS[p]) in report.results for o in report.openers)]
    if twins:
        lines += ["", "## Tie readings (MIG)", "",
                  "MIG ties are exact here: two guesses whose entropies are mathematically equal get "
                  "bit-identical scores (`solver.policies.mig`), and the tie rule decides. The thesis's "
                  "figures (SALET: MIG_A 8360 = 3.6112, MIG_B 7948 = 3.4333) are reproduced by the "
                  "*float* reading — entropy in bits, −Σ p log2 p summed over the feedback codes in "
                  "descending order, ties only between bit-equal floats — where rounding breaks some "
                  "ties instead of the rule. Exact ties give MIG_B 7946 from SALET.",
                  "",
                  "| opener | " + " | ".join(f"{p} (exact) | {t} (float)" for p, t in twins) + " |",
                  "| --- | " + " | ".join("---: | ---:" for _ in twins) + " |"]
        for opener in report.openers:
            cells = []
            for p, t in twins:
                a = report.results[(opener, p)]["total"]
                b = report.results.get((opener, t), {}).get("total", "")
                cells.append(f"{a} ({a / n:.4f}) | " + (f"{b} ({b / n:.4f})" if b != "" else ""))
            lines.append(f"| {opener} | " + " | ".join(cells) + " |")
    lines += ["", "## Where each policy loses most", "",
              "Decisions of the policy (over all openers) whose guess costs most against the optimum: "
              "*extra* = exact total over the state's answers after the policy's guess (optimal play "
              "afterwards) − the optimum F(S, d) of that state; per game = extra / |S|; "
              f"share of the average = extra / {n}.", ""]
    for policy in report.policies:
        summary = _sum_summaries(report, policy)
        lines += [f"### {policy}", "",
                  f"{summary['decisions']} decisions on states of ≥ 2 answers over {len(report.openers)} "
                  f"openers; {summary['differing']} differ from the optimal guess, {summary['losing']} "
                  f"lose guesses; {summary['lost_states']} states reached cannot all be won in time.", ""]
        found = top_losses(report, policy)
        if not found:
            lines += ["No decision loses guesses.", ""]
            continue
        lines += ["| opener | state (size: answers) | guesses left | its guess | optimal guess | optimum F | after its guess | extra | per game | share of average |",
                  "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
        for opener, loss in found:
            extra = "∞" if math.isinf(loss.extra_total) else str(int(loss.extra_total))
            after = "lost" if loss.policy_total is None else str(loss.policy_total)
            per_game = "∞" if math.isinf(loss.extra_total) else f"{loss.extra_per_game:.3f}"
            share = "∞" if math.isinf(loss.extra_total) else f"{loss.extra_total / n:.4f}"
            lines.append(f"| {opener} | {_state_text(loss.state)} | {loss.guesses_left} | {loss.guess} | "
                         f"{loss.optimal_guess} | {loss.optimal_total} | {after} | {extra} | "
                         f"{per_game} | {share} |")
        lines.append("")
    lines += ["## Plots", ""]
    for title, name in plots.items():
        lines += [f"![{title}]({name})", ""]
    lines += ["## How this was made", "",
              "- Deterministic policies are evaluated as decision trees: each state's decision is "
              "computed once (recursive partition from the opener), so the totals are exact.",
              "- Seconds per game: wall seconds of the policy's evaluation / games, in one worker "
              "process; rollout policies share their base-heuristic memo within a worker, so "
              "later tasks can be faster than a cold start.",
              "- Optimal totals: the exact solver; trees are cached (user cache dir) and read "
              "from `artifacts/` when one matches.",
              f"- Policies: `solver.policies.registry`. Regenerate: `python -m tools.report --words "
              f"{report.word_list_name} --opener {','.join(report.openers)} --policies "
              f"{','.join(report.policies)}`.", ""]
    return "\n".join(lines)


def _sum_summaries(report: ReportData, policy: str) -> dict:
    total = {"decisions": 0, "differing": 0, "losing": 0, "lost_states": 0}
    for opener in report.openers:
        summary = report.results[(opener, policy)].get("loss_summary", {})
        for key in total:
            total[key] += int(summary.get(key, 0))
    return total


def write_plots(report: ReportData, out_dir: Path) -> dict:
    """The three PNG plots; returns {title: file name}."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = report.n_answers
    openers, policies = report.openers, report.policies
    colours = plt.get_cmap("tab10")
    files = {}

    # 1. average per opener and policy beside the optimum
    fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(openers) + 3), 5))
    width = 0.8 / (len(policies) + 1)
    x = np.arange(len(openers))
    opt = np.array([report.optimal[o]["total"] / n for o in openers])
    ax.bar(x - 0.4 + width / 2, opt, width, color="black", label="optimum")
    values = [opt]
    for i, policy in enumerate(policies):
        avg = np.array([report.results[(o, policy)]["total"] / n for o in openers])
        values.append(avg)
        ax.bar(x - 0.4 + width * (i + 1.5), avg, width, color=colours(i % 10), label=policy)
    low, high = min(v.min() for v in values), max(v.max() for v in values)
    ax.set_ylim(max(0.0, low - 0.15 * (high - low + 0.1)), high + 0.1 * (high - low + 0.1))
    ax.set_xticks(x, openers, rotation=45, ha="right")
    ax.set_ylabel("average guesses per game")
    ax.set_title(f"Average guesses per opener — {report.word_list_name}")
    ax.legend(fontsize="small", ncol=min(3, len(policies) + 1))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_dir / "averages.png", dpi=110)
    plt.close(fig)
    files["Average guesses per opener and policy, beside the optimum"] = "averages.png"

    # 2. guess-count histograms per policy (summed over the openers)
    names = ["optimum"] + policies
    cols = min(3, len(names))
    rows = (len(names) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False, sharey=True)
    length = max([len(report.optimal[o]["histogram"]) for o in openers]
                 + [len(report.results[(o, p)]["histogram"]) for o in openers for p in policies])
    for k, name in enumerate(names):
        ax = axes[k // cols][k % cols]
        hist = np.zeros(length)
        for o in openers:
            h = report.optimal[o]["histogram"] if name == "optimum" else report.results[(o, name)]["histogram"]
            hist[:len(h)] += h
        share = 100.0 * hist / hist.sum()
        ax.bar(np.arange(1, length + 1), share, color="black" if k == 0 else colours((k - 1) % 10))
        ax.set_title(name)
        ax.set_xticks(np.arange(1, length + 1))
        ax.set_xlabel("guesses")
        if k % cols == 0:
            ax.set_ylabel("% of games")
        if length > GUESS_LIMIT:
            ax.axvline(GUESS_LIMIT + 0.5, color="red", lw=0.8)
    for k in range(len(names), rows * cols):
        axes[k // cols][k % cols].axis("off")
    fig.suptitle(f"Guesses per game, all {len(openers)} openers — {report.word_list_name}")
    fig.tight_layout()
    fig.savefig(out_dir / "histograms.png", dpi=110)
    plt.close(fig)
    files["Guess-count histograms per policy"] = "histograms.png"

    # 3. time per game, log scale
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(names) + 2), 4.5))
    for k, name in enumerate(names):
        if name == "optimum":
            t = [report.optimal[o]["solve_seconds"] / n for o in openers]
            label = "exact solve"
        else:
            t = [report.results[(o, name)]["seconds_per_game"] for o in openers]
            label = name
        t = np.maximum(np.array(t, dtype=float), 1e-7)
        jitter = np.linspace(-0.15, 0.15, len(t)) if len(t) > 1 else np.zeros(1)
        ax.scatter(np.full(len(t), k) + jitter, t, s=14, color="black" if k == 0 else colours((k - 1) % 10))
        ax.hlines(np.median(t), k - 0.3, k + 0.3, color="grey")
        names[k] = label
    ax.set_yscale("log")
    ax.set_xticks(np.arange(len(names)), names, rotation=30, ha="right")
    ax.set_ylabel("seconds per game (log scale)")
    ax.set_title("Time per game (one point per opener; line: median)")
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out_dir / "time_per_game.png", dpi=110)
    plt.close(fig)
    files["Time per game (log scale)"] = "time_per_game.png"
    return files
