"""The classic agents' report: every agent on every answer, in both belief settings, against
the exact optimum (docs/algorithms.md §8.5; the gap report's ``--belief`` option).

For each belief setting (``answers``, ``guesses``: :mod:`solver.policies.belief`), each agent and,
for a randomised agent, each seed: :func:`solver.evaluation.belief_scoring.score_in_belief`
on all answers, the agent choosing its own first guess (as in Orenbach et al.) unless an
opener is given. The optimum compared against:

- **answers known**: the exact optimum — over every opener when the agents choose their own
  (the best row of ``artifacts/<lists>-normal-openers.csv``, written by ``tools.prove``: 7920
  = 3.42117 for the legacy lists, SALET, proven), or the optimum from the fixed opener
  (the opening book, :meth:`solver.exact.book.OpeningBook.tree`);
- **guesses**: the optimum of the same setting (a uniform prior over all 12,972 allowed words,
  Bellman over beliefs of up to 12,972 words) is not computable here; the answers-known
  optimum is a lower bound on nothing in that setting, so the report gives the gap to the
  answers-known optimum and says so.

Files under ``<out>`` (``reports/classic`` for the shipped report): ``classic.csv`` (one row per
(belief, agent, seed)), ``classic.md`` (the summary: mean ± sd over seeds, beside the published
figures) and ``results/classic.journal`` (one record per finished run, :mod:`solver.runs.journal`;
an interrupted run resumes; a journal of other kernels is refused).
"""

from __future__ import annotations

import csv
import io
import statistics
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from solver.game.files import ARTIFACTS_DIR
from solver.game.errors import InputError
from solver.game.spec import GUESS_LIMIT
from solver.policies.belief import BeliefSetting

REPORT_VERSION = 1
#: The agents of the classic report, in report order.
DEFAULT_AGENTS = ("random_total", "random_possible", "minimax1", "expectimax1", "entropy", "qlearning")
#: Agents that can play in the guesses setting (they do not need the answer list).
BELIEF_AGENTS = frozenset(DEFAULT_AGENTS)
DEFAULT_SEEDS = (0, 1, 2, 3, 4)
#: Orenbach et al.'s figures on the legacy lists, average guesses (their setting: "guesses").
PUBLISHED = {"random_possible": "4.73 (about 90 % wins)", "minimax1": "3.97", "expectimax1": "3.92",
             "entropy": "3.86", "qlearning": "3.79", "random_total": "—"}
#: Their agents not built here.
PUBLISHED_OTHERS = [("entropy with word frequencies", "3.73")]
CSV_COLUMNS = ("belief", "policy", "seed", "opener", "total", "average", "losses", "win_rate", "max_guesses",
               "histogram", "optimum_total", "optimum_average", "gap_guesses", "same_setting_optimum",
               "seconds", "seconds_per_game", "qtable_sha256")


@dataclass
class ClassicReport:
    """What the outputs are made from: the settings and one record per run."""

    lists: str
    n_answers: int
    beliefs: list
    policies: list
    seeds: list
    opener: str | None
    optimum_total: int
    optimum_source: str
    runs: list  # dicts, see score_run
    out_dir: Path


def check_request(word_list, policies, beliefs, seeds, opener=None) -> tuple[list, list, list, str | None]:
    """Normalise and check agents, belief settings, seeds and opener before any work.

    Raises:
        UnknownPolicyError: an unknown agent; InputError: an agent that cannot play in the
        guesses setting, an unknown belief, a seed that is not a whole number ≥ 0, no seed.
        UnknownWordError: the opener is not an allowed guess.
    """
    from solver.policies.belief import check_belief
    from solver.policies.registry import check_policy_name

    policies = list(dict.fromkeys(check_policy_name(p) for p in policies if p.strip()))
    beliefs = list(dict.fromkeys(check_belief(b) for b in beliefs))
    if not policies:
        raise InputError("no agent given")
    if not beliefs:
        raise InputError("no belief setting given")
    seeds = list(seeds)
    if not seeds:
        raise InputError("no seed given")
    for seed in seeds:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise InputError(f"seeds are whole numbers ≥ 0, not {seed!r}")
    if "guesses" in beliefs:
        others = [p for p in policies if p not in BELIEF_AGENTS]
        if others:
            raise InputError(f"{', '.join(others)} cannot play in the guesses belief setting (they need the "
                             f"answer list); that setting takes {', '.join(DEFAULT_AGENTS)}")
    if opener is not None and str(opener).strip().lower() not in ("", "own"):
        opener = str(opener).strip().lower()
        word_list.guess_index(opener)
    else:
        opener = None
    return policies, beliefs, list(dict.fromkeys(seeds)), opener


def answers_optimum(word_list, opener: str | None, artifacts_dir: str | Path = ARTIFACTS_DIR,
                    jobs: int = -1) -> tuple[int, str]:
    """``(total, source)``: the exact optimum with the answers known, over every opener
    (``opener=None``: the proven best row of the openers CSV) or from ``opener``.

    Raises:
        InputError: ``opener`` is None and no openers CSV of these lists exists.
    """
    if opener is not None:
        from solver.exact.book import OpeningBook
        from solver.game.spec import Game

        shipped = (Path(artifacts_dir), Path(artifacts_dir) / "book")
        optimum = OpeningBook(Game(word_list, GUESS_LIMIT), shipped=shipped).tree(opener, jobs=jobs)
        return optimum.total, f"exact optimum from {opener}"
    from solver.exact.prove import OpenerStatus

    path = Path(artifacts_dir) / f"{word_list.output_name}-normal-openers.csv"
    if not path.exists():
        raise InputError(f"{path}: no proven optimum over openers for these lists; run python -m tools.prove "
                         "first, or give an opener")
    from solver.game.files import read_input_file

    try:
        rows = list(csv.DictReader(io.StringIO(read_input_file(path, "openers table").decode("utf-8"))))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not an openers table ({exc})") from None
    best = rows[0] if rows else None
    if best is None or best.get("status") != OpenerStatus.EXACT:
        raise InputError(f"{path}: its first row is not an exact optimum")
    return int(best["value"]), f"proven optimum over all openers ({best['opener']}, {path.name})"


def _qtable_digest(policy, belief: str) -> str:
    from solver.policies.qlearning import qtable_digest

    return qtable_digest(policy.qtable()) if getattr(policy, "name", "") == "qlearning" else ""


def _journal_shape():
    """A classic report's journal record: one :func:`score_run`."""
    from solver.runs.journal import NUMBER, record_shape

    return record_shape({"": {
        "belief": str, "policy": str, "seed": (int, type(None)), "opener": str, "first_guess": str,
        "total": int, "average": NUMBER, "losses": int, "win_rate": NUMBER, "max_guesses": int,
        "histogram": list, "optimum_total": int, "optimum_average": NUMBER, "gap_guesses": NUMBER,
        "same_setting_optimum": (int, str), "seconds": NUMBER, "seconds_per_game": NUMBER,
        "qtable_sha256": str}})


def score_run(policy, universe, seed: int | None, opener: str | None, optimum_total: int) -> dict:
    """One (belief, agent, seed) run as a msgpack-ready record."""
    from solver.evaluation.belief_scoring import bind_policy, score_in_belief

    bound = bind_policy(policy, universe)
    digest = _qtable_digest(bound, universe.belief)
    result = score_in_belief(bound, universe, seed=0 if seed is None else seed, opener=opener)
    n = result.n_games
    counts = [int(c) for c in np.bincount(result.guesses_per_answer, minlength=GUESS_LIMIT + 1)[1:]]
    return {"belief": universe.belief, "policy": policy.name, "seed": seed, "opener": opener or "own",
            "first_guess": bound.word_list.guesses[int(result.games[0][0])] if bound.deterministic else "",
            "total": result.total, "average": result.average, "losses": result.losses,
            "win_rate": result.win_rate, "max_guesses": result.max_guesses, "histogram": counts,
            "optimum_total": optimum_total, "optimum_average": optimum_total / n,
            "gap_guesses": result.average - optimum_total / n,
            "same_setting_optimum": (optimum_total if universe.belief is BeliefSetting.ANSWERS else "not computable"),
            "seconds": result.seconds, "seconds_per_game": result.seconds_per_game, "qtable_sha256": digest}


def report_fingerprint(word_list) -> dict:
    """The fingerprint of the classic report's journal
    (:func:`solver.runs.journal.run_fingerprint`): the lists, the solver version, every kernel's
    source, the report's kind and :data:`REPORT_VERSION`."""
    from solver.exact.versions import SOLVER_VERSION
    from solver.runs.journal import run_fingerprint

    return run_fingerprint(word_list, solver_version=SOLVER_VERSION,
                           kind="classic-report", report_version=REPORT_VERSION)


def run_classic_report(word_list, policies=DEFAULT_AGENTS, beliefs=("answers", "guesses"),
                       seeds=DEFAULT_SEEDS, out_dir: str | Path = "reports/classic", *, opener=None,
                       resume: bool = True, artifacts_dir: str | Path = ARTIFACTS_DIR, jobs: int = -1,
                       console=None) -> ClassicReport:
    """Score every agent in every belief setting (randomised agents once per seed) and write
    ``classic.csv`` and ``classic.md`` under ``out_dir``.

    Args:
        word_list: the lists. policies: agent names (registry). beliefs: ``answers`` and/or
        ``guesses``. seeds: whole numbers ≥ 0 (deterministic agents run once).
        out_dir: the report directory. opener: a fixed first guess, or None/"own" (the agent's own).
        resume: reuse finished runs from ``out_dir/results/classic.journal``.
        console: a rich Console for the progress bar (None: none).

    Raises:
        UnknownPolicyError, UnknownWordError, InputError: bad input (before any work).
        OutputError, CacheError: unusable output or cache directory (before any work).
        QTableError: the Q-learning agent's table is missing or of other lists.
        ForeignJournalError: the journal was written by other kernels (``resume=False``).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from solver.studies.progress import LineProgress

    from solver.runs.journal import Journal
    from solver.game.feedback import feedback_table
    from solver.game.files import prepare_output_dir, usable_cache_dir
    from solver.policies.belief import make_universe
    from solver.policies.registry import make_policy

    policies, beliefs, seeds, opener = check_request(word_list, policies, beliefs, seeds, opener)
    out_dir = prepare_output_dir(out_dir)
    usable_cache_dir()
    optimum_total, optimum_source = answers_optimum(word_list, opener, artifacts_dir, jobs)
    table = feedback_table(word_list)
    agents = {name: make_policy(name, word_list, table) for name in policies}
    if "qlearning" in agents:  # a missing or foreign Q-table is bad input: say so before any work
        from solver.policies.qlearning import load_qtable, qtable_path

        for belief in beliefs:
            load_qtable(qtable_path(word_list, belief), word_list)
    (out_dir / "results").mkdir(parents=True, exist_ok=True)
    journal = Journal.open(out_dir / "results" / "classic.journal", report_fingerprint(word_list), resume=resume,
                           shape=_journal_shape())
    plan = [(belief, name, seed if not agents[name].deterministic else None)
            for belief in beliefs for name in policies
            for seed in (seeds if not agents[name].deterministic else [None])]
    runs = []
    progress = LineProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, disable=console is None, transient=False)
    try:
        with progress:
            task = progress.add_task("agents × beliefs × seeds", total=len(plan))
            universes = {}
            for belief, name, seed in plan:
                if belief not in universes:
                    universes.clear()
                    universes[belief] = make_universe(word_list, belief, table)
                universe = universes[belief]
                key = f"{belief}/{name}/{'-' if seed is None else seed}/{opener or 'own'}"
                saved = journal.get(key)
                digest = _qtable_digest(agents[name].in_belief(universe), belief) if name == "qlearning" else ""
                if saved is None or saved.get("qtable_sha256", "") != digest \
                        or saved.get("optimum_total") != optimum_total:
                    saved = score_run(agents[name], universe, seed, opener, optimum_total)
                    journal.append(key, saved)
                runs.append(saved)
                progress.advance(task)
    finally:
        journal.close()
    report = ClassicReport(word_list.output_name, word_list.n_answers, beliefs, policies, seeds, opener,
                           optimum_total, optimum_source, runs, out_dir)
    write_outputs(report)
    return report


# ---------------------------------------------------------------------------------------------
# outputs


def mean_sd(values) -> tuple[float, float]:
    """(mean, sample standard deviation) of the values; sd 0.0 for a single value."""
    values = [float(v) for v in values]
    return statistics.fmean(values), statistics.stdev(values) if len(values) > 1 else 0.0


def summary_rows(report: ClassicReport) -> list[dict]:
    """One row per (belief, agent): means and sample sds over the seeds (sd 0 for one run)."""
    rows = []
    for belief in report.beliefs:
        for name in report.policies:
            runs = [r for r in report.runs if r["belief"] == belief and r["policy"] == name]
            if not runs:
                continue
            average, average_sd = mean_sd(r["average"] for r in runs)
            win, win_sd = mean_sd(r["win_rate"] for r in runs)
            optimum = report.optimum_total / report.n_answers
            rows.append({"belief": belief, "policy": name, "runs": len(runs), "average": average,
                         "average_sd": average_sd, "win_rate": win, "win_rate_sd": win_sd,
                         "loss_rate": 1.0 - win, "gap": average - optimum,
                         "max_guesses": max(r["max_guesses"] for r in runs),
                         "seconds_per_game": sum(r["seconds_per_game"] for r in runs) / len(runs),
                         "seconds": sum(r["seconds"] for r in runs) / len(runs),
                         "first_guess": runs[0].get("first_guess") or "random",
                         "same_setting": (str(report.optimum_total) if belief == BeliefSetting.ANSWERS
                                          else "not computable")})
    return rows


def csv_text(report: ClassicReport) -> str:
    """``classic.csv``: a header of :data:`CSV_COLUMNS`, then one row per run (agent, belief
    setting, seed), the histogram as space-separated counts and the averages rounded."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for run in report.runs:
        row = dict(run, seed="" if run["seed"] is None else run["seed"],
                   histogram=" ".join(str(h) for h in run["histogram"]),
                   average=f"{run['average']:.5f}", win_rate=f"{run['win_rate']:.5f}",
                   optimum_average=f"{run['optimum_average']:.5f}", gap_guesses=f"{run['gap_guesses']:.5f}",
                   seconds=f"{run['seconds']:.3f}", seconds_per_game=f"{run['seconds_per_game']:.6f}")
        writer.writerow([row[c] for c in CSV_COLUMNS])
    return buffer.getvalue()


def _pm(mean: float, sd: float, runs: int, digits: int = 4, scale: float = 1.0) -> str:
    text = f"{mean * scale:.{digits}f}"
    return text + (f" ± {sd * scale:.{digits}f}" if runs > 1 else "")


def markdown(report: ClassicReport) -> str:
    """``classic.md``: the table of every agent in each belief setting (mean ± sample sd over the
    seeds for random agents, the gap to the optimum with the answers known, Orenbach et al.'s
    figures beside the ``guesses`` rows), then the notes on the settings."""
    optimum = report.optimum_total / report.n_answers
    lines = [f"# Classic agents against the exact optimum ({report.lists} lists)", "",
             "Generated by `python -m tools.report --belief both` (see README); every agent plays all "
             f"{report.n_answers} answers, choosing its own first guess"
             + ("" if report.opener is None else f" — here fixed: {report.opener}") + ". "
             "Random agents: mean ± sample sd over the seeds "
             f"{', '.join(str(s) for s in report.seeds)}; games go on until won, a game of more than "
             f"{GUESS_LIMIT} guesses is a loss. Optimum with the answers known: "
             f"{report.optimum_total} = {optimum:.5f} guesses per game, {report.optimum_source}.", "",
             "| belief | agent | runs | first guess | average guesses | win rate ≤ 6 (%) | loss rate (%) "
             "| gap to optimum | optimum total of this setting | max | s per game | Orenbach et al. |",
             "|---|---|---:|---|---:|---:|---:|---:|---|---:|---:|---:|"]
    for row in summary_rows(report):
        lines.append(f"| {row['belief']} | {row['policy']} | {row['runs']} | {row['first_guess']} "
                     f"| {_pm(row['average'], row['average_sd'], row['runs'])} "
                     f"| {_pm(row['win_rate'], row['win_rate_sd'], row['runs'], 2, 100)} "
                     f"| {100 * row['loss_rate']:.2f} | {row['gap']:+.4f} | {row['same_setting']} "
                     f"| {row['max_guesses']} | {row['seconds_per_game']:.5f} "
                     f"| {PUBLISHED.get(row['policy'], '') if row['belief'] == BeliefSetting.GUESSES else ''} |")
    lines += ["", "Orenbach et al.'s other agents (not built here): "
              + "; ".join(f"{name} {value}" for name, value in PUBLISHED_OTHERS)
              + ". Their figures are for their setting, the one of our `guesses` rows.", "",
              "## The settings, and why the figures differ", "",
              "- **answers**: the agent knows the 2,315-word answer list; the words still possible are the "
              "answers consistent with the feedback. The exact optimum of this setting is the answers-known "
              "optimum above, so the gap is a true optimality gap.",
              "- **guesses** (Orenbach et al.'s setting): the agent is not given the answer list; every one of "
              "the 12,972 allowed words consistent with the feedback counts as possible, equally likely; the "
              "hidden answers are still the 2,315. The exact optimum of that setting (a Bellman recursion over "
              "beliefs of up to 12,972 words) is not computable here, so the gap is to the answers-known "
              "optimum: it mixes the cost of not knowing the list with the agent's own loss.",
              "- Orenbach et al. report averages over their own simulated games (sample size and seeds not "
              "given in the issue's summary), with their own rules for ties and the opener; our agents follow "
              "the definitions in docs/algorithms.md §8.5 (minimax1/expectimax1/entropy over all allowed guesses, "
              "ties to a possible word then alphabetical; Q-learning's reward and schedule are ours), so equal "
              "figures are not expected — only the order and the rough size.",
              "- `entropy` plays the guess whose feedback distribution over the words still possible has the "
              "largest Shannon entropy (entropies compared exactly). Over the answers it is the gap report's "
              "MIG_B (`mig_b`, the same rule and ties); in the `guesses` setting the distribution is over the "
              "allowed words still possible.",
              "- `random_total` guesses any allowed word until one word is left (then it guesses it, as every "
              "policy here does); it has no published figure beside it.",
              "- seconds per game: wall time of the scoring on the shared 2-core machine, one process "
              "(deterministic agents are played as a tree, each state decided once).", ""]
    return "\n".join(lines)


def write_outputs(report: ClassicReport) -> None:
    """Write ``classic.csv`` and ``classic.md`` atomically into ``report.out_dir``."""
    from solver.game.files import write_text_atomic

    write_text_atomic(report.out_dir / "classic.csv", csv_text(report))
    write_text_atomic(report.out_dir / "classic.md", markdown(report))


def console_table(report: ClassicReport):
    """A rich Table of the summary rows for the console: agent, belief setting, runs, average
    guesses, win rate, gap to the optimum, seconds per game."""
    from rich.table import Table

    table = Table(title=f"classic agents, {report.lists}: optimum {report.optimum_total} "
                        f"({report.optimum_total / report.n_answers:.5f}) with the answers known")
    for column in ("belief", "agent", "runs", "average", "win % ≤ 6", "gap", "s/game"):
        table.add_column(column, justify="right" if column not in ("belief", "agent") else "left")
    for row in summary_rows(report):
        table.add_row(row["belief"], row["policy"], str(row["runs"]),
                      _pm(row["average"], row["average_sd"], row["runs"]),
                      _pm(row["win_rate"], row["win_rate_sd"], row["runs"], 2, 100),
                      f"{row['gap']:+.4f}", f"{row['seconds_per_game']:.5f}")
    return table
