"""The gap report's outputs: gap.csv, gap.md, the PNG plots and the console tables.

Everything here turns a finished :class:`ReportData` (computed by
:func:`solver.studies.gap_report.run_report`) into files or tables; nothing is computed
beyond sums and means. Every file is written with :func:`solver.game.files.write_atomic`.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.evaluation.regret import DecisionRegret
from solver.game.files import write_atomic, write_text_atomic
from solver.game.spec import GUESS_LIMIT

CSV_COLUMNS = ("opener", "policy", "total", "average", "max_guesses", "failures", "histogram",
               "optimal_total", "optimal_average", "gap_total", "gap_guesses", "gap_percent",
               "seconds", "seconds_per_game", "mode")


@dataclass
class ReportData:
    """Everything the outputs are made from.

    Attributes:
        word_list_name, n_answers, n_guesses: the lists.
        openers, policies: the report's rows, in order (float twins not included).
        optimal: opener → optimum record (``total``, ``max_guesses``, ``histogram``,
            ``solve_seconds``: wall seconds of the exact solve, or None if the tree was read
            from a file).
        results: (opener, policy) → result record of :func:`~solver.studies.gap_report.score_task`
            (float twins included).
        out_dir: where the files go.
        twins: policy → the float-tie twin scored beside it (section "Tie readings").
        guess_limit: guesses allowed in a game.
    """

    word_list_name: str
    n_answers: int
    n_guesses: int
    openers: list
    policies: list
    optimal: dict
    results: dict
    out_dir: Path
    twins: dict = field(default_factory=dict)
    guess_limit: int = GUESS_LIMIT

    def row(self, opener: str, policy: str) -> dict:
        """One gap.csv row (numbers formatted as in the file)."""
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


def write_outputs(report: ReportData) -> None:
    """Write gap.csv, gap.md and the three PNG plots into ``report.out_dir``."""
    write_text_atomic(report.out_dir / "gap.csv", csv_text(report))
    plots = write_plots(report, report.out_dir)
    write_text_atomic(report.out_dir / "gap.md", markdown(report, plots))


def csv_text(report: ReportData) -> str:
    """gap.csv: a header, then one row per (opener, policy); ``\\n`` line ends."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for opener in report.openers:
        for policy in report.policies:
            writer.writerow(report.row(opener, policy))
    return buffer.getvalue()


def _mean(values) -> float:
    values = list(values)
    return sum(values) / len(values) if values else float("nan")


def policy_summary(report: ReportData) -> list[dict]:
    """Per policy, over the openers: mean average, mean gap (guesses and %), worst gap,
    failures, mean seconds per game."""
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


def top_regrets(report: ReportData, policy: str, k: int = 10) -> list[tuple[str, DecisionRegret]]:
    """The k decisions of ``policy`` with the largest regret, over all openers: (opener, regret)."""
    found = []
    for opener in report.openers:
        for data in report.results[(opener, policy)].get("regrets", []):
            found.append((opener, DecisionRegret.from_json(data)))
    found.sort(key=lambda t: (-t[1].regret, -len(t[1].state), t[0], t[1].state))
    return found[:k]


def regret_summary(report: ReportData, policy: str) -> dict:
    """The counts of :func:`solver.evaluation.regret.decision_regrets` summed over the openers."""
    total = {"decisions": 0, "differing": 0, "with_regret": 0, "lost_states": 0}
    for opener in report.openers:
        summary = report.results[(opener, policy)].get("regret_summary", {})
        for key in total:
            total[key] += int(summary.get(key, 0))
    return total


def _state_text(state: list, limit: int = 8) -> str:
    words = ", ".join(state[:limit])
    return f"{len(state)}: {words}" + (", …" if len(state) > limit else "")


def markdown(report: ReportData, plots: dict) -> str:
    """gap.md; ``plots`` maps a title to a PNG file name in the same directory."""
    n = report.n_answers
    lines = [
        f"# Optimality gap — {report.word_list_name}",
        "",
        f"Word list `{report.word_list_name}`: {n} answers, {report.n_guesses} allowed guesses; "
        f"games must be won within {report.guess_limit} guesses. For every opener, the exact optimum "
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
              "| opener | policy | total | average | max | failures | histogram (1..) | optimal total "
              "| gap | gap % | s/game |",
              "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |"]
    for opener in report.openers:
        for policy in report.policies:
            r = report.row(opener, policy)
            lines.append(f"| {opener} | {policy} | {r['total']} | {r['average']} | {r['max_guesses']} | "
                         f"{r['failures']} | {r['histogram']} | {r['optimal_total']} | "
                         f"{r['gap_guesses']} | {r['gap_percent']} | {float(r['seconds_per_game']):.2e} |")
    lines += _tie_readings(report)
    lines += ["", "## Where each policy loses most", "",
              "Decisions of the policy (over all openers) with the largest *regret*: the exact "
              "total over the state's answers after the policy's guess with optimal play "
              "afterwards, Q\\*(S, d, g), minus the optimum of that state, V\\*(S, d) = F(S, d); "
              f"per game = regret / |S|; share of the average = regret / {n}.", ""]
    for policy in report.policies:
        summary = regret_summary(report, policy)
        lines += [f"### {policy}", "",
                  f"{summary['decisions']} decisions on states of ≥ 2 answers over {len(report.openers)} "
                  f"openers; {summary['differing']} differ from the optimal guess, {summary['with_regret']} "
                  f"lose guesses; {summary['lost_states']} states reached cannot all be won in time.", ""]
        found = top_regrets(report, policy)
        if not found:
            lines += ["No decision loses guesses.", ""]
            continue
        lines += ["| opener | state (size: answers) | guesses left | its guess | optimal guess | V\\* "
                  "| Q\\* of its guess | regret | per game | share of average |",
                  "| --- | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
        for opener, r in found:
            lost = math.isinf(r.regret)
            lines.append(f"| {opener} | {_state_text(r.state)} | {r.guesses_left} | {r.guess} | "
                         f"{r.optimal_guess} | {r.value} | "
                         f"{'lost' if r.q_value is None else r.q_value} | "
                         f"{'∞' if lost else int(r.regret)} | "
                         f"{'∞' if lost else f'{r.regret_per_game:.3f}'} | "
                         f"{'∞' if lost else f'{r.regret / n:.4f}'} |")
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
              "from `artifacts/` when one matches. A tree read from a file carries no timing, so "
              "the time plot shows the exact solve only for the openers solved by this report.",
              f"- Policies: `solver.policies.registry`. Regenerate: `python -m tools.report --words "
              f"{report.word_list_name} --opener {','.join(report.openers)} --policies "
              f"{','.join(report.policies)}`.", ""]
    return "\n".join(lines)


def _tie_readings(report: ReportData) -> list[str]:
    n = report.n_answers
    twins = [(p, report.twins[p]) for p in report.policies
             if p in report.twins and any((o, report.twins[p]) in report.results for o in report.openers)]
    if not twins:
        return []
    lines = ["", "## Tie readings (MIG)", "",
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
    return lines


def _save_png(fig, path: Path) -> None:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110)
    write_atomic(path, buffer.getvalue())


def write_plots(report: ReportData, out_dir: Path) -> dict:
    """The three PNG plots (averages, histograms, time per game); returns {title: file name}."""
    from solver.game.errors import require_extra

    require_extra("matplotlib", "studies", "the report's plots")
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
    _save_png(fig, out_dir / "averages.png")
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
        if length > report.guess_limit:
            ax.axvline(report.guess_limit + 0.5, color="red", lw=0.8)
    for k in range(len(names), rows * cols):
        axes[k // cols][k % cols].axis("off")
    fig.suptitle(f"Guesses per game, all {len(openers)} openers — {report.word_list_name}")
    fig.tight_layout()
    _save_png(fig, out_dir / "histograms.png")
    plt.close(fig)
    files["Guess-count histograms per policy"] = "histograms.png"

    # 3. time per game, log scale; the exact solve only where this report timed it
    series = []  # (label, seconds per game, the exact solve's)
    solved = [report.optimal[o]["solve_seconds"] / n for o in openers
              if report.optimal[o].get("solve_seconds") is not None]
    if solved:
        series.append(("exact solve", solved, True))
    for name in policies:
        series.append((name, [report.results[(o, name)]["seconds_per_game"] for o in openers], False))
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(series) + 2), 4.5))
    for k, (label, t, exact) in enumerate(series):
        t = np.maximum(np.array(t, dtype=float), 1e-7)
        jitter = np.linspace(-0.15, 0.15, len(t)) if len(t) > 1 else np.zeros(1)
        colour = "black" if exact else colours((policies.index(label)) % 10)
        ax.scatter(np.full(len(t), k) + jitter, t, s=14, color=colour)
        ax.hlines(np.median(t), k - 0.3, k + 0.3, color="grey")
    ax.set_yscale("log")
    ax.set_xticks(np.arange(len(series)), [label for label, _, _ in series], rotation=30, ha="right")
    ax.set_ylabel("seconds per game (log scale)")
    ax.set_title("Time per game (one point per opener; line: median)")
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    _save_png(fig, out_dir / "time_per_game.png")
    plt.close(fig)
    files["Time per game (log scale)"] = "time_per_game.png"
    return files


def console_tables(report: ReportData) -> list:
    """The two rich tables ``python -m tools.report`` prints: every (opener, policy) result,
    and the per-policy summary over the openers."""
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(f"optimality gap: {report.word_list_name} ({report.n_answers} answers)"))
    for column, justify in (("opener", "left"), ("policy", "left"), ("total", "right"),
                            ("average", "right"), ("optimum", "right"), ("gap", "right"),
                            ("gap %", "right"), ("max", "right"), ("fail", "right"),
                            ("s/game", "right")):
        table.add_column(column, justify=justify)
    for opener in report.openers:
        for i, policy in enumerate(report.policies):
            r = report.row(opener, policy)
            table.add_row(opener if i == 0 else "", policy, str(r["total"]), r["average"],
                          f"{r['optimal_total']} ({r['optimal_average']})" if i == 0 else "",
                          r["gap_guesses"], r["gap_percent"], str(r["max_guesses"]),
                          str(r["failures"]), f"{float(r['seconds_per_game']):.2e}",
                          end_section=i == len(report.policies) - 1)
    summary = Table(title="per policy, over the openers")
    for column in ("policy", "mean average", "mean gap", "mean gap %", "worst gap", "failures", "s/game"):
        summary.add_column(column, justify="left" if column == "policy" else "right")
    for s in policy_summary(report):
        summary.add_row(s["policy"], f"{s['mean_average']:.4f}", f"{s['mean_gap']:.4f}",
                        f"{s['mean_gap_percent']:.2f}", f"{s['max_gap']:.4f}", str(s["failures"]),
                        f"{s['seconds_per_game']:.2e}")
    return [table, summary]
