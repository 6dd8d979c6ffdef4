"""The UCT study: score UCT variants on every answer and render ``reports/uct/uct.md``.

:func:`run_study` plays each (policy, seed) pair that ``runs.csv`` does not hold yet with
:func:`solver.evaluation.scoring.score_policy` (games mode, per-game seeds from the master seed, joblib
workers) and appends a row; per-answer guess counts go to ``per_answer.csv`` (one column per
run). :func:`render` rebuilds the generated part of ``uct.md`` (between the
``<!-- generated -->`` markers; the text around them is kept) from the CSVs, the exact tree
(:func:`solver.exact.bellman.solve`, per-answer guesses) and the thesis's figures.

Policy names as in :func:`solver.policies.uct.parse_policy_name` (``uct50k_a``, ``uct5k_b_o``, ...).
"""

from __future__ import annotations

import csv
import datetime
import platform
import statistics
from pathlib import Path

import numpy as np

from solver.game.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
REPORT_DIR = ROOT / "reports" / "uct"
BEGIN, END = "<!-- generated: begin -->", "<!-- generated: end -->"
#: Peiszan (Basel 2025 thesis), opener SALET, legacy lists; as quoted in algorithms.md.
THESIS = {"mig_a": 3.6112, "mig_b": 3.4333, "rollout10_a": 3.5641, "rollout10_b": 3.5866,
          "rollout100_a": 3.5387, "uct50k_a": 3.6605, "uct50k_b": 3.6566,
          "uct50k_a_o": 3.4937, "uct50k_b_o": 3.4907}
FIELDS = ["policy", "base", "variant_o", "rank", "n_rollouts", "n_top", "b_divisor", "seed",
          "opener", "games", "total", "average", "max_guesses", "failures", "histogram",
          "wall_seconds", "workers", "decisions", "rollouts", "rollouts_per_second",
          "seconds_per_game", "finished"]


def _read_runs(path: Path) -> list[dict]:
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _read_per_answer(path: Path) -> dict[str, list[str]]:
    if not path.exists():
        return {}
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    return {name: [row[i] for row in body] for i, name in enumerate(header)}


def _write_per_answer(path: Path, columns: dict[str, list[str]]) -> None:
    names = list(columns)
    tmp = path.with_suffix(".tmp")
    with tmp.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(names)
        for row in zip(*(columns[n] for n in names)):
            writer.writerow(row)
    tmp.replace(path)


def run_one(name: str, seed: int, opener: str, jobs: int, words: str, out_dir: Path) -> dict:
    """Score one (policy, seed) on every answer; append to the CSVs; return the row."""
    from solver.game.feedback import feedback_table
    from solver.evaluation.scoring import score_policy
    from solver.policies.uct import make_policy
    from solver.game.wordlists import load_word_list

    word_list = load_word_list(words)
    table = feedback_table(word_list)
    policy = make_policy(name, word_list, table, seed=seed)
    result = score_policy(policy, opener, seed=seed, jobs=jobs, mode="games")
    searched = sum(d.games for d in result.decisions if len(d.state) >= 2)
    rollouts = searched * policy.n_rollouts
    row = {
        "policy": policy.name, "base": policy.base, "variant_o": int(policy.variant_o),
        "rank": policy.rank, "n_rollouts": policy.n_rollouts, "n_top": policy.n_top,
        "b_divisor": policy.b_divisor, "seed": seed, "opener": result.opener,
        "games": result.n_games, "total": result.total, "average": f"{result.average:.5f}",
        "max_guesses": result.max_guesses, "failures": result.failures,
        "histogram": " ".join(map(str, result.histogram)),
        "wall_seconds": f"{result.seconds:.1f}", "workers": result.jobs, "decisions": searched,
        "rollouts": rollouts,
        "rollouts_per_second": f"{rollouts / (result.seconds * result.jobs):.0f}",
        "seconds_per_game": f"{result.seconds_per_game:.4f}",
        "finished": datetime.datetime.now().isoformat(timespec="seconds"),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    runs_path = out_dir / "runs.csv"
    new_file = not runs_path.exists()
    with runs_path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        if new_file:
            writer.writeheader()
        writer.writerow(row)
    per_answer_path = out_dir / "per_answer.csv"
    columns = _read_per_answer(per_answer_path) or {"answer": list(word_list.answers)}
    columns[f"{policy.name}@{seed}"] = [str(int(v)) for v in result.guesses_per_answer]
    _write_per_answer(per_answer_path, columns)
    return row


def exact_per_answer(words: str, opener: str) -> np.ndarray | None:
    """Guesses per answer under the exact optimal tree (None if the solver fails)."""
    try:
        from solver.exact.bellman import solve
        from solver.game.wordlists import load_word_list

        return solve(load_word_list(words), opener, jobs=1).guesses_per_answer
    except Exception as exc:  # the report still renders, without per-answer comparisons
        print(f"exact tree unavailable: {exc}")
        return None


def _fmt_mean_sd(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:.4f}"
    return f"{statistics.mean(values):.4f} ± {statistics.stdev(values):.4f}"


VARIANT_ORDER = ("a", "b", "a_o", "b_o", "a_p", "b_p", "a_o_p", "b_o_p")


def _variant(row: dict) -> str:
    """The policy name without ``uct<N>_``: ``a``, ``b_o``, ``b_p``, ``a_o_root``, ..."""
    return row["policy"].split("_", 1)[1]


def _variant_rank(variant: str) -> tuple:
    return (VARIANT_ORDER.index(variant), "") if variant in VARIANT_ORDER else (99, variant)


def render(out_dir: Path, words: str, opener: str) -> str:
    """The generated markdown (tables) from the CSVs."""
    runs = _read_runs(out_dir / "runs.csv")
    columns = _read_per_answer(out_dir / "per_answer.csv")
    exact = exact_per_answer(words, opener)
    lines = []
    if exact is not None:
        lines.append(f"Exact optimal tree from {opener.upper()}: total {int(exact.sum())}, average "
                     f"{exact.mean():.5f} (`solver.exact.bellman.solve`). Gap = average − exact average.")
        lines.append("")
    exact_avg = float(exact.mean()) if exact is not None else 7920 / 2315

    lines += ["### Every run", "",
              "| policy | N | seed | average | total | gap | max | failures | > exact | < exact "
              "| histogram (1..) | s/game | rollouts/s/core | wall s (workers) |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for row in sorted(runs, key=lambda r: (int(r["n_rollouts"]), _variant_rank(_variant(r)),
                                           int(r["seed"]))):
        worse = better = "–"
        col = columns.get(f"{row['policy']}@{row['seed']}")
        if exact is not None and col is not None:
            guesses = np.array([int(v) for v in col])
            worse = str(int((guesses > exact).sum()))
            better = str(int((guesses < exact).sum()))
        lines.append(
            f"| {row['policy']} | {int(row['n_rollouts']):,} | {row['seed']} | {row['average']} "
            f"| {row['total']} | {float(row['average']) - exact_avg:+.4f} | {row['max_guesses']} "
            f"| {row['failures']} | {worse} | {better} | {row['histogram']} "
            f"| {float(row['seconds_per_game']):.3f} | {int(row['rollouts_per_second']):,} "
            f"| {row['wall_seconds']} ({row['workers']}) |")
    lines.append("")

    # averages by N and variant, over seeds
    by_cell: dict[tuple[int, str], list[float]] = {}
    for row in runs:
        key = (int(row["n_rollouts"]), _variant(row))
        by_cell.setdefault(key, []).append(float(row["average"]))
    ns = sorted({n for n, _ in by_cell})

    def cell(n, v):
        vals = by_cell.get((n, v))
        return f"{_fmt_mean_sd(vals)} [{len(vals)}]" if vals else "–"

    groups = (("Average guesses by N, successors ranked by entropy then alphabetically (the "
               "default)", ("a", "b", "a_o", "b_o"), True),
              ("Average guesses by N, possible answers first among equal entropies (`_p`)",
               ("a_p", "b_p", "a_o_p", "b_o_p"), False))
    for title, variants, thesis in groups:
        if not any((n, v) in by_cell for n in ns for v in variants):
            continue
        lines += [f"### {title}", "",
                  "Mean ± sample sd over the master seeds run (number of seeds in brackets).", "",
                  "| N | " + " | ".join(f"uct_{v}" for v in variants) + " |",
                  "|---:|" + "---:|" * len(variants)]
        for n in ns:
            if any((n, v) in by_cell for v in variants):
                lines.append(f"| {n:,} | " + " | ".join(cell(n, v) for v in variants) + " |")
        if thesis:
            lines.append("| thesis, 50,000 | " + " | ".join(
                f"{THESIS[f'uct50k_{v}']:.4f}" for v in variants) + " |")
        lines.append("")
    others = sorted({v for _, v in by_cell if v not in VARIANT_ORDER}, key=_variant_rank)
    if others:
        lines += ["### Other configurations (ablations)", "",
                  "| policy | average (mean ± sd [seeds]) | gap |", "|---|---:|---:|"]
        for v in others:
            for n in ns:
                vals = by_cell.get((n, v))
                if vals:
                    lines.append(f"| uct{n // 1000}k_{v} | {cell(n, v)} | "
                                 f"{statistics.mean(vals) - exact_avg:+.4f} |")
        lines.append("")
    lines.append(f"Reference points (thesis): MIG_A {THESIS['mig_a']}, MIG_B {THESIS['mig_b']}, "
                 f"Rollout_10_A {THESIS['rollout10_a']}, Rollout_10_B {THESIS['rollout10_b']}, "
                 f"Rollout_100_A {THESIS['rollout100_a']}; exact {exact_avg:.5f}.")
    lines.append("")
    lines.append(f"Generated {datetime.date.today().isoformat()} on {platform.machine()}, "
                 f"Python {platform.python_version()}, from `runs.csv` and `per_answer.csv`.")
    return "\n".join(lines)


def write_report(out_dir: Path, generated: str) -> Path:
    path = out_dir / "uct.md"
    text = path.read_text() if path.exists() else f"# UCT\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = text.rstrip("\n") + f"\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    path.write_text(f"{head}{BEGIN}\n{generated}\n{END}{tail}")
    return path


def run_study(names, seeds, *, opener: str, jobs: int, words: str, out_dir: Path,
              force: bool = False, echo=print) -> list[dict]:
    """Play every (policy, seed) pair not yet in ``out_dir/runs.csv`` (all if ``force``);
    returns the new rows. Raises :class:`InputError` for a name that is not a UCT policy."""
    from solver.policies.uct import parse_policy_name

    names = [n.strip().lower() for n in names if n.strip()]
    for n in names:
        if parse_policy_name(n) is None:
            raise InputError(f"not a UCT policy name: {n!r} (e.g. uct50k_a, uct5k_b_o)")
    done = {(r["policy"], int(r["seed"])) for r in _read_runs(out_dir / "runs.csv")}
    rows = []
    for seed in seeds:
        for name in names:
            if (name, seed) in done and not force:
                echo(f"{name} seed {seed}: already in runs.csv")
                continue
            row = run_one(name, seed, opener, jobs, words, out_dir)
            rows.append(row)
            echo(f"{row['policy']} seed {seed}: average {row['average']}, max "
                 f"{row['max_guesses']}, failures {row['failures']}, {row['wall_seconds']} s, "
                 f"{int(row['rollouts_per_second']):,} rollouts/s/core")
    return rows
