"""The vocabulary-variant report: the classic agents beside the exact optimum as the word
lists grow, on real sub-lists and on lists of random letter strings (docs/algorithms.md §12).

For each list of the grid — kind (``real``: :func:`solver.game.variants.sub_lists` of the base
lists; ``fake``: :func:`solver.game.variants.fake_lists` of the same sizes) × fraction × list
seed — the report computes:

- **the exact optimum over all openers**, proven by :func:`solver.exact.prove.prove` (every
  opener bounded, the best solved exactly: docs/algorithms.md §9); total and average guesses
  of the best opener. A list on which no policy wins every game within 6 guesses has no
  optimum (recorded as such; the gap is then empty);
- **every agent** (default: the classic agents of §8.5) scored on all answers of the list in
  the ``answers`` belief setting, choosing its own first guess
  (:func:`solver.evaluation.belief_scoring.score_in_belief`); a randomised agent plays with the
  list's seed as its master seed. The Q-learning agent's shipped table belongs to the legacy
  lists, so on each variant it plays a table trained on that list in the ``answers`` setting
  (:func:`solver.policies.qlearning.train_qtable`, the shipped settings except the number of
  episodes: ``episodes_per_answer`` × the list's answers, seed = the list's seed).

Every finished piece (one list's optimum, one (list, agent) score) is a record of the journal
``<out>/results/vocab.journal`` (:mod:`solver.runs.journal`), so an interrupted run resumes;
the journal's fingerprint holds the whole request (base lists, grid, agents, training
settings, solver and kernels), and a journal of another request is refused
(:class:`~solver.runs.journal.ForeignJournalError`; ``resume=False`` starts over).

Outputs under ``out_dir`` (``reports/classic`` for the shipped report): ``vocab.csv`` (one row
per list and agent, the optimum as agent ``optimum``), ``vocab.md`` (one table per kind, means
and sample sds over the list seeds) and ``vocab.png`` (average guesses against the answer
list's size, one line per agent and the optimum; a panel per kind).
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass
from pathlib import Path

from solver.game.errors import InputError
from solver.studies.classic_report import mean_sd
from solver.game.spec import GUESS_LIMIT, Game

REPORT_VERSION = 1
DEFAULT_FRACTIONS = (0.02, 0.05, 0.1, 0.2, 0.3)
DEFAULT_KINDS = ("real", "fake")
DEFAULT_SEEDS = (0, 1)
DEFAULT_AGENTS = ("random_total", "random_possible", "minimax1", "expectimax1", "qlearning")
#: Q-learning training episodes per answer of the list (the shipped legacy table: 200,000
#: episodes for 2,315 answers, about 86 per answer).
EPISODES_PER_ANSWER = 100
#: Memory for the opener proof's memos (GB).
PROOF_MEMORY_GB = 1.0
OPTIMUM = "optimum"
CSV_COLUMNS = ("kind", "fraction", "seed", "lists", "n_answers", "n_guesses", "agent", "first_guess", "total",
               "average", "win_rate", "losses", "max_guesses", "optimum_total", "optimum_average",
               "optimum_source", "gap_guesses", "seconds", "seconds_per_game")


@dataclass
class VocabReport:
    """The request and one record per (list, agent), the optimum included as agent
    ``optimum`` (dicts with the keys of :data:`CSV_COLUMNS`)."""

    base: str
    fractions: list
    kinds: list
    seeds: list
    agents: list
    episodes_per_answer: int
    rows: list
    out_dir: Path


def check_request(agents, kinds, fractions, seeds) -> tuple[list, list, list, list]:
    """Normalise and check the request before any work.

    Returns:
        (agents, kinds, fractions, seeds), each without repeats, in the order given
        (fractions sorted ascending).

    Raises:
        UnknownPolicyError: an unknown agent. VariantError: an unknown kind, a fraction
        outside (0, 1], a seed that is not a whole number ≥ 0. InputError: an empty list, an
        agent that is not a classic agent.
    """
    from solver.game.variants import check_fraction, check_kind, check_seed
    from solver.policies.registry import check_policy_name

    agents = list(dict.fromkeys(check_policy_name(a) for a in agents if str(a).strip()))
    kinds = list(dict.fromkeys(check_kind(k) for k in kinds if str(k).strip()))
    fractions = sorted(dict.fromkeys(check_fraction(f) for f in fractions))
    seeds = list(dict.fromkeys(check_seed(s) for s in seeds))
    for label, values in (("agent", agents), ("vocabulary variant", kinds), ("fraction", fractions),
                          ("seed", seeds)):
        if not values:
            raise InputError(f"no {label} given")
    others = [a for a in agents if a not in DEFAULT_AGENTS]
    if others:
        raise InputError(f"{', '.join(others)}: the vocabulary report takes the classic agents "
                         f"{', '.join(DEFAULT_AGENTS)}")
    return agents, kinds, fractions, seeds


def report_fingerprint(base, agents, kinds, fractions, seeds, episodes_per_answer) -> dict:
    """The journal's fingerprint: the base lists, the request, the solver and its kernels."""
    from solver.exact.versions import SOLVER_VERSION
    from solver.runs.journal import run_fingerprint

    return run_fingerprint(base, solver_version=SOLVER_VERSION,
                           kind="vocab-report", report_version=REPORT_VERSION, agents=list(agents),
                           kinds=list(kinds), fractions=[float(f) for f in fractions], seeds=list(seeds),
                           episodes_per_answer=int(episodes_per_answer), proof_memory_gb=PROOF_MEMORY_GB)


def list_fields(kind: str, fraction: float, seed: int, word_list) -> dict:
    """The fields naming one generated list in a row of the report: its kind, fraction, seed, output
    name and sizes."""
    return {"kind": kind, "fraction": float(fraction), "seed": int(seed), "lists": word_list.output_name,
            "n_answers": word_list.n_answers, "n_guesses": word_list.n_guesses}


def _journal_shape():
    """A vocabulary report's journal record: an :func:`exact_optimum` (key ``…/optimum``) or a
    :func:`score_agent` (key ``…/AGENT``)."""
    from solver.runs.journal import NUMBER, record_shape

    return record_shape({
        OPTIMUM: {"first_guess": str, "optimum_total": (int, type(None)), "optimum_source": str,
                  "seconds": NUMBER, "proof_reused": int},
        "agent": {"agent": str, "first_guess": str, "total": int, "average": NUMBER, "win_rate": NUMBER,
                  "losses": int, "max_guesses": int, "seconds": NUMBER, "seconds_per_game": NUMBER},
    }, kind=lambda key: OPTIMUM if key.endswith(f"/{OPTIMUM}") else "agent")


def exact_optimum(word_list, jobs: int = 1) -> dict:
    """The exact optimum over all openers of ``word_list`` (normal mode, total guesses,
    6 guesses): ``{"first_guess", "optimum_total", "optimum_source", "seconds", "proof_reused"}``;
    ``optimum_total`` is None when no policy wins every game within 6 guesses; ``proof_reused``
    counts the openers whose work came from the proof's own journal (an interrupted or earlier
    proof of the same list in the user cache: the seconds are then not the whole proof's)."""
    from solver.exact.bellman import UnwinnableError
    from solver.exact.prove import discard_journal, prove

    started = time.perf_counter()
    try:
        result = prove(Game(word_list), jobs=jobs, memory_gb=PROOF_MEMORY_GB, resume=True)
        discard_journal(Game(word_list), 1)  # finished: its result is in the report's journal
    except UnwinnableError:
        return {"first_guess": "", "optimum_total": None, "seconds": time.perf_counter() - started, "proof_reused": 0,
                "optimum_source": f"none: no policy wins every game within {GUESS_LIMIT} guesses"}
    return {"first_guess": result.best.opener, "optimum_total": int(result.best.value),
            "optimum_source": "proven over all openers", "seconds": time.perf_counter() - started,
            "proof_reused": int(result.reused)}


def make_agent(name: str, word_list, table, seed: int, episodes_per_answer: int):
    """The agent ``name`` for ``word_list``; ``qlearning`` with a table trained on the list
    (module docstring)."""
    from solver.policies.registry import make_policy

    if name != "qlearning":
        return make_policy(name, word_list, table)
    from solver.policies.belief import make_universe
    from solver.policies.qlearning import QLearningPolicy, train_qtable

    qtable = train_qtable(word_list, "answers", episodes=int(episodes_per_answer) * word_list.n_answers,
                          seed=int(seed), universe=make_universe(word_list, "answers", table),
                          command="solver.studies.vocab_report")
    policy = QLearningPolicy(word_list, table, qtable=qtable)
    policy.name = "qlearning"
    return policy


def score_agent(name: str, word_list, table, seed: int, episodes_per_answer: int) -> dict:
    """One agent on every answer of ``word_list`` (answers setting, its own first guess)."""
    from solver.evaluation.belief_scoring import bind_policy, score_in_belief
    from solver.policies.belief import make_universe

    universe = make_universe(word_list, "answers", table)
    bound = bind_policy(make_agent(name, word_list, table, seed, episodes_per_answer), universe)
    result = score_in_belief(bound, universe, seed=int(seed))
    return {"agent": name,
            "first_guess": word_list.guesses[int(result.games[0][0])] if bound.deterministic else "random",
            "total": result.total, "average": result.average, "win_rate": result.win_rate,
            "losses": result.losses, "max_guesses": result.max_guesses, "seconds": result.seconds,
            "seconds_per_game": result.seconds_per_game}


def _with_optimum(row: dict, optimum: dict) -> dict:
    total, n = optimum["optimum_total"], row["n_answers"]
    row = dict(row, optimum_total=total, optimum_source=optimum["optimum_source"],
               optimum_average=None if total is None else total / n)
    row["gap_guesses"] = None if total is None else row["average"] - total / n
    return row


def run_vocab_report(base, agents=DEFAULT_AGENTS, kinds=DEFAULT_KINDS, fractions=DEFAULT_FRACTIONS,
                     seeds=DEFAULT_SEEDS, out_dir: str | Path = "reports/classic", *,
                     episodes_per_answer: int = EPISODES_PER_ANSWER, jobs: int = 1, resume: bool = True,
                     console=None) -> VocabReport:
    """Run the grid (module docstring) and write ``vocab.csv``, ``vocab.md`` and ``vocab.png``
    under ``out_dir``.

    Args:
        base: the :class:`~solver.game.wordlists.WordList` the real sub-lists are drawn from
            (and whose sizes and word length the fake lists copy).
        agents: classic agent names. kinds: ``real`` and/or ``fake``. fractions: in (0, 1].
        seeds: list seeds, whole numbers ≥ 0 (also the random agents' and Q-learning's seeds).
        episodes_per_answer: Q-learning training episodes per answer (≥ 1).
        jobs: worker processes of the opener proofs (1: in this process; -1: all cores).
        resume: reuse the finished pieces of ``out_dir/results/vocab.journal``.
        console: a rich Console for the progress bar (None: none).

    Raises:
        UnknownPolicyError, VariantError, InputError: bad input (before any work).
        OutputError, CacheError: unusable output or cache directory (before any work).
        ForeignJournalError: the journal belongs to another request (``resume=True``).
    """
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
    from solver.studies.progress import LineProgress

    from solver.runs.journal import Journal
    from solver.game.feedback import feedback_table
    from solver.game.files import prepare_output_dir, usable_cache_dir
    from solver.game.variants import variant_lists

    from solver.game.errors import require_extra

    require_extra("matplotlib", "studies", "the vocabulary report's plot")  # before any work
    agents, kinds, fractions, seeds = check_request(agents, kinds, fractions, seeds)
    if isinstance(episodes_per_answer, bool) or not isinstance(episodes_per_answer, int) or episodes_per_answer < 1:
        raise InputError(f"--episodes-per-answer is a whole number ≥ 1, not {episodes_per_answer!r}")
    if not isinstance(jobs, int) or (jobs < 1 and jobs != -1):
        raise InputError(f"--jobs must be ≥ 1 or -1 (all cores), got {jobs}")
    out_dir = prepare_output_dir(out_dir)
    usable_cache_dir()
    (out_dir / "results").mkdir(parents=True, exist_ok=True)
    fingerprint = report_fingerprint(base, agents, kinds, fractions, seeds, episodes_per_answer)
    journal = Journal.open(out_dir / "results" / "vocab.journal", fingerprint, resume=resume,
                           shape=_journal_shape())
    plan = [(kind, fraction, seed) for kind in kinds for fraction in fractions for seed in seeds]
    rows = []
    progress = LineProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                        TimeElapsedColumn(), console=console, disable=console is None, transient=False)
    try:
        with progress:
            task = progress.add_task("lists × (optimum + agents)", total=len(plan) * (1 + len(agents)))
            for kind, fraction, seed in plan:
                word_list = variant_lists(base, kind, fraction, seed)
                fields = list_fields(kind, fraction, seed, word_list)
                prefix = f"{kind}/{fraction!r}/{seed}"
                optimum = journal.get(f"{prefix}/{OPTIMUM}")
                if optimum is None:
                    optimum = exact_optimum(word_list, jobs)
                    journal.append(f"{prefix}/{OPTIMUM}", optimum)
                progress.advance(task)
                total = optimum["optimum_total"]
                rows.append(_with_optimum(dict(fields, agent=OPTIMUM, first_guess=optimum["first_guess"],
                                               proof_reused=optimum.get("proof_reused", 0),
                                               total=total, average=None if total is None else total / fields[
                                                   "n_answers"],
                                               win_rate=None if total is None else 1.0, losses=None,
                                               max_guesses=None, seconds=optimum["seconds"],
                                               seconds_per_game=optimum["seconds"] / fields["n_answers"]),
                                          optimum))
                table = None
                for name in agents:
                    saved = journal.get(f"{prefix}/{name}")
                    if saved is None:
                        if table is None:
                            table = feedback_table(word_list)
                        saved = score_agent(name, word_list, table, seed, episodes_per_answer)
                        journal.append(f"{prefix}/{name}", saved)
                    rows.append(_with_optimum(dict(fields, **saved), optimum))
                    progress.advance(task)
    finally:
        journal.close()
    report = VocabReport(base.output_name, fractions, kinds, seeds, agents, int(episodes_per_answer), rows,
                         out_dir)
    write_outputs(report)
    return report


# ---------------------------------------------------------------------------------------------
# outputs



def summary_rows(report: VocabReport) -> list[dict]:
    """One row per (kind, fraction, agent) — the optimum first — with means and sample sds
    over the list seeds. ``average``/``gap`` are None when no list of the group has a value
    (lists without an optimum are left out of the optimum's and the gap's means, and
    counted in ``no_optimum``)."""
    out = []
    for kind in report.kinds:
        for fraction in report.fractions:
            for agent in [OPTIMUM, *report.agents]:
                runs = [r for r in report.rows if r["kind"] == kind and r["fraction"] == fraction
                        and r["agent"] == agent]
                if not runs:
                    continue
                valued = [r for r in runs if r["average"] is not None]
                gaps = [r["gap_guesses"] for r in runs if r["gap_guesses"] is not None]
                average, average_sd = mean_sd(r["average"] for r in valued) if valued else (None, None)
                win, win_sd = mean_sd(r["win_rate"] for r in valued) if valued else (None, None)
                gap, gap_sd = mean_sd(gaps) if gaps else (None, None)
                out.append({"kind": kind, "fraction": fraction, "agent": agent, "runs": len(runs),
                            "n_answers": mean_sd(r["n_answers"] for r in runs)[0],
                            "n_guesses": mean_sd(r["n_guesses"] for r in runs)[0],
                            "average": average, "average_sd": average_sd, "win_rate": win, "win_rate_sd": win_sd,
                            "gap": gap, "gap_sd": gap_sd, "gap_runs": len(gaps),
                            "no_optimum": sum(1 for r in runs if r["optimum_total"] is None),
                            "first_guesses": ", ".join(dict.fromkeys(r["first_guess"] or "—" for r in runs)),
                            "seconds_per_game": sum(r["seconds_per_game"] for r in runs) / len(runs)})
    return out


def _number(value, digits: int) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def csv_text(report: VocabReport) -> str:
    """``vocab.csv``: a header of :data:`CSV_COLUMNS`, then one row per (list, agent) run, floats
    rounded (None as an empty field)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    digits = {"average": 5, "win_rate": 5, "optimum_average": 5, "gap_guesses": 5, "seconds": 3,
              "seconds_per_game": 6, "fraction": 4}
    for row in report.rows:
        writer.writerow([_number(row[c], digits.get(c, 5)) for c in CSV_COLUMNS])
    return buffer.getvalue()


def _pm(mean, sd, runs: int, digits: int = 4, scale: float = 1.0, sign: bool = False) -> str:
    if mean is None:
        return "—"
    text = f"{mean * scale:+.{digits}f}" if sign else f"{mean * scale:.{digits}f}"
    return text + (f" ± {sd * scale:.{digits}f}" if runs > 1 else "")


KIND_TITLES = {"real": "Real sub-lists of the {base} lists",
               "fake": "Fake lists: random letter strings of the same sizes"}


def markdown(report: VocabReport) -> str:
    """``vocab.md``: per kind of list, a table of every agent beside the exact optimum by fraction
    (mean ± sample sd over the list seeds, the gap to the optimum; docs/algorithms.md §12)."""
    seeds = ", ".join(str(s) for s in report.seeds)
    fractions = ", ".join(f"{f:g}" for f in report.fractions)
    lines = [f"# Vocabulary variants: the classic agents beside the exact optimum ({report.base} lists)", "",
             "Generated by `python -m tools.vocab_report` (see README; definitions in docs/algorithms.md §12). "
             f"Lists: fractions {fractions} of the {report.base} answers and of its other guesses (scaled "
             f"together), list seeds {seeds}; `fake`: random letter strings of the same sizes. Every agent "
             "plays every answer of each list in the `answers` belief setting, choosing its own first guess; "
             f"a game of more than {GUESS_LIMIT} guesses is a loss. Figures: mean ± sample sd over the list "
             "seeds (one list per seed; a randomised agent plays with the list's seed).", ""]
    summary = summary_rows(report)
    reused = sum(1 for r in report.rows if r["agent"] == OPTIMUM and r.get("proof_reused"))
    for kind in report.kinds:
        lines += [f"## {KIND_TITLES[kind].format(base=report.base)}", "",
                  "| fraction | answers | guesses | agent | first guess | average guesses | win rate ≤ 6 (%) "
                  "| gap to optimum | s per game |",
                  "|---:|---:|---:|---|---|---:|---:|---:|---:|"]
        for row in (r for r in summary if r["kind"] == kind):
            is_optimum = row["agent"] == OPTIMUM
            agent = "**exact optimum**" if is_optimum else row["agent"]
            average = _pm(row["average"], row["average_sd"], row["runs"])
            if is_optimum and row["no_optimum"]:
                average += f" ({row['no_optimum']} of {row['runs']} lists: none within {GUESS_LIMIT})"
            gap = "" if is_optimum else _pm(row["gap"], row["gap_sd"], row["gap_runs"], sign=True)
            lines.append(f"| {row['fraction']:g} | {row['n_answers']:.0f} | {row['n_guesses']:.0f} | {agent} "
                         f"| {row['first_guesses']} | {average} "
                         f"| {_pm(row['win_rate'], row['win_rate_sd'], row['runs'], 2, 100)} | {gap} "
                         f"| {row['seconds_per_game']:.5f} |")
        lines.append("")
    lines += ["## Settings", "",
              f"- **real**: `sub_lists(lists, fraction, seed)` draws round(fraction × answers) of the "
              f"{report.base} answers and round(fraction × others) of its guesses that are not answers, "
              "with `numpy.random.default_rng(seed)`; the sampled answers stay guesses. Answers and guesses "
              "shrink together, so the ratio of guesses to answers (about 5.6 for legacy) stays put.",
              "- **fake**: `fake_lists(answers, guesses, 5, seed)`: that many distinct strings of 5 letters, "
              "each letter uniform on a–z, the answers a random subset of the guesses. Same sizes as the real "
              "list of the same fraction; no English letter statistics (no common letters like e, a, s, no "
              "positional habits), so a guess tells less and the game is harder.",
              "- **exact optimum**: `solver.exact.prove.prove` on each list: every allowed opener bounded, "
              "the best searched exactly (docs/algorithms.md §9): the least total guesses over all policies "
              f"and all openers, every game won within {GUESS_LIMIT} guesses; *proven over all openers*. The "
              "gap is the agent's average minus the optimum's average on the same list.",
              "- **agents** (docs/algorithms.md §8.5): random_total, random_possible (random agents, one game "
              "per answer, games go on until won), minimax1, expectimax1 (depth one over every allowed guess "
              "of the list), qlearning: the shipped table belongs to the legacy lists (one value per legacy "
              "guess), so on each list the agent plays a table trained on that list in the answers setting "
              f"with the shipped settings (α 0.05, ε 0.1, Q = 1 at the start) and "
              f"{report.episodes_per_answer} episodes per answer, seed = the list seed.",
              "- **s per game**: wall time of the scoring in one process on a shared 2-core machine; for the "
              "optimum, the proof's wall time divided by the answers"
              + (f" ({reused} of the proofs reused work journaled by an earlier run, so their time is not "
                 "the whole proof's)" if reused else "") + ". It varies from run to run.",
              *([f"- **sizes**: the grid stops at {report.fractions[-1]:g} of the lists: there each proof over "
                 "all openers took 5 s (real) to 40 s (fake) with 2 workers; a proof of the real sub-list at "
                 "0.35 (seed 0) did not finish in 12 minutes on the shared machine (not investigated further)."]
                if tuple(report.fractions) == DEFAULT_FRACTIONS else []),
              "- **published context**: Orenbach et al. (*AI algorithms on Wordle and its variants*) also "
              "ran their agents on vocabulary variants, but we have no figures of theirs for these lists to "
              "compare with; their legacy-list figures are in `classic.md`. On the full legacy lists "
              "(`classic.md`, answers setting) the optimum is 3.42117 (SALET, proven) and expectimax1 "
              "averages 3.4812.",
              "", "Plot: `vocab.png` (average guesses against the number of answers, one line per agent and "
              "the exact optimum, mean over the list seeds; a panel per kind).", ""]
    return "\n".join(lines)


def write_plot(report: VocabReport, path: Path) -> None:
    """``vocab.png``: average guesses against answers, a panel per kind (Agg backend)."""
    from solver.game.errors import require_extra

    require_extra("matplotlib", "studies", "the vocabulary report's plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from solver.game.files import write_atomic

    summary = summary_rows(report)
    colours = plt.get_cmap("tab10")
    fig, axes = plt.subplots(1, len(report.kinds), figsize=(6 * len(report.kinds), 4.8), sharey=True,
                             squeeze=False)
    for ax, kind in zip(axes[0], report.kinds):
        for i, agent in enumerate([OPTIMUM, *report.agents]):
            points = [(r["n_answers"], r["average"]) for r in summary
                      if r["kind"] == kind and r["agent"] == agent and r["average"] is not None]
            if not points:
                continue
            x, y = zip(*points)
            style = dict(color="black", linestyle="--", linewidth=2.2, marker="s") if agent == OPTIMUM \
                else dict(color=colours(i % 10), marker="o")
            ax.plot(x, y, label="exact optimum" if agent == OPTIMUM else agent, **style)
        ax.set_xscale("log")
        sizes = sorted({round(r["n_answers"]) for r in summary if r["kind"] == kind})
        ax.set_xticks(sizes, [str(n) for n in sizes])
        ax.minorticks_off()
        ax.set_xlabel("answers in the list (log scale)")
        ax.set_title(KIND_TITLES[kind].format(base=report.base).replace(": ", ":\n"), fontsize="medium")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("average guesses per game")
    axes[0][-1].legend(fontsize="small")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=110, metadata={"Software": None})
    plt.close(fig)
    write_atomic(path, buffer.getvalue())


def write_outputs(report: VocabReport) -> None:
    """Write ``vocab.csv``, ``vocab.md`` (atomically) and the plot ``vocab.png`` into
    ``report.out_dir``."""
    from solver.game.files import write_text_atomic

    write_text_atomic(report.out_dir / "vocab.csv", csv_text(report))
    write_text_atomic(report.out_dir / "vocab.md", markdown(report))
    write_plot(report, report.out_dir / "vocab.png")


def console_table(report: VocabReport):
    """A rich Table of the summary rows for the console: kind, fraction, answers, agent, average
    guesses, win rate, gap to the optimum, seconds per game."""
    from rich.table import Table

    table = Table(title=f"vocabulary variants of {report.base}: mean over list seeds "
                        f"{', '.join(str(s) for s in report.seeds)}")
    for column in ("kind", "fraction", "answers", "agent", "average", "win % ≤ 6", "gap", "s/game"):
        table.add_column(column, justify="left" if column in ("kind", "agent") else "right")
    for row in summary_rows(report):
        table.add_row(row["kind"], f"{row['fraction']:g}", f"{row['n_answers']:.0f}", row["agent"],
                      _pm(row["average"], row["average_sd"], row["runs"]),
                      _pm(row["win_rate"], row["win_rate_sd"], row["runs"], 2, 100),
                      "" if row["agent"] == OPTIMUM else _pm(row["gap"], row["gap_sd"], row["gap_runs"],
                                                              sign=True),
                      f"{row['seconds_per_game']:.5f}")
    return table

