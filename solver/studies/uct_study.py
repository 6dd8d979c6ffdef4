"""The UCT study: score UCT variants — and any other registered policy — on every answer and
render ``reports/uct/uct.md``.

:func:`run_study` plays each (policy, seed) pair that ``runs.csv`` does not hold yet with
:func:`solver.evaluation.scoring.score_policy` from the study's fixed opener, the answers known
(the answers setting). A randomised policy (UCT, ``random_total``, ``random_possible``) is
played once per master seed in games mode: decision ``k`` of the game against answer ``a`` is
seeded by ``SeedSequence(seed, spawn_key=(a, k))``, joblib workers. A deterministic policy
(``minimax1``, ``expectimax1``, ``entropy``, ``qlearning``, ``mig_b``, ...) is played once in
tree mode, whatever the seeds (they would give the same games); its row has an empty seed.
Each finished run is first recorded in the study's journal ``runs.journal``
(:mod:`solver.runs.journal`: its ``runs.csv`` row and guesses per answer, fsynced), then
folded into ``runs.csv`` (one row per run) and ``per_answer.csv`` (one column per run, named
``<policy>@<seed>``, or ``<policy>`` for a deterministic one), both rewritten atomically; the
journal is discarded once every run is folded. A study killed between the two steps folds the
journal's runs on the next start; a journal written by other kernels or another solver version
is refused (``resume=False``, ``--no-resume``, drops it). The UCT columns of ``runs.csv``
(``base`` … ``b_divisor``, ``rollouts``, ``rollouts_per_second``) are empty for other
policies; ``mode`` (``tree`` or ``games``, added after the first studies: empty in older rows,
which were all games mode) says how a run was played.
:func:`render` rebuilds the generated part of ``uct.md`` (between the ``<!-- generated -->``
markers; the text around them is kept) from the CSVs, the exact tree
(the opening book, :mod:`solver.exact.book`, per-answer guesses) and the
thesis's figures; policies that are not UCT get their own tables.

Policy names as in :mod:`solver.policies.registry` (UCT: :func:`solver.policies.uct.parse_policy_name`,
``uct50k_a``, ``uct5k_b_o``, ...; the classic agents ``minimax1``, ``random_possible``, ...).
"""

from __future__ import annotations

import csv
import datetime
import io
import platform
import statistics
from pathlib import Path

import numpy as np

from solver.game.checks import check_jobs
from solver.game.errors import InputError
from solver.runs.naming import journal_path
from solver.game.files import prepare_output_dir, usable_cache_dir, write_text_atomic

ROOT = Path(__file__).resolve().parents[2]
REPORT_DIR = ROOT / "reports" / "uct"
BEGIN, END = "<!-- generated: begin -->", "<!-- generated: end -->"
#: Peiszan (Basel 2025 thesis), opener SALET, legacy lists; as quoted in docs/algorithms.md §11.
THESIS = {"mig_a": 3.6112, "mig_b": 3.4333, "rollout10_a": 3.5641, "rollout10_b": 3.5866,
          "rollout100_a": 3.5387, "uct50k_a": 3.6605, "uct50k_b": 3.6566,
          "uct50k_a_o": 3.4937, "uct50k_b_o": 3.4907}
FIELDS = ["policy", "base", "variant_o", "rank", "n_rollouts", "n_top", "b_divisor", "seed",
          "opener", "games", "total", "average", "max_guesses", "failures", "histogram",
          "wall_seconds", "workers", "decisions", "rollouts", "rollouts_per_second",
          "seconds_per_game", "finished", "mode"]
#: Fields only a UCT run fills (empty for other policies).
UCT_FIELDS = ("base", "variant_o", "rank", "n_rollouts", "n_top", "b_divisor", "rollouts",
              "rollouts_per_second")
#: Report order of the policies that are not UCT (others after them, alphabetically).
AGENT_ORDER = ("random_total", "random_possible", "minimax1", "expectimax1", "entropy", "qlearning",
               "mig_a", "mig_b")


def default_study_dir(word_list, parent: str | Path = "reports") -> Path:
    """Where the study of ``word_list`` goes by default: ``<parent>/uct`` for the shipped
    legacy lists, ``<parent>/uct-<output_name>`` for any other (named by the lists' identity,
    :attr:`~solver.game.wordlists.WordList.output_name`, never by a directory's name)."""
    name = "uct" if word_list.shipped_name == "legacy" else f"uct-{word_list.output_name}"
    return Path(parent) / name


def check_study(out_dir: str | Path, word_list, opener: str | None = None) -> None:
    """Refuse (:class:`InputError`) a study directory whose CSVs were written for other
    lists (``per_answer.csv``'s answers differ from ``word_list``'s) or, when ``opener`` is
    given, hold runs from another opener (their gaps would be measured against the wrong
    optimum). A directory without CSVs passes."""
    out_dir = Path(out_dir)
    columns = _read_per_answer(out_dir / "per_answer.csv")
    if columns and tuple(columns.get("answer", ())) != tuple(word_list.answers):
        raise InputError(f"{out_dir / 'per_answer.csv'} was written for another answer list than "
                         f"{word_list.name!r}; use another report directory for these lists")
    if opener is not None:
        others = sorted({r.get("opener", "") for r in _read_runs(out_dir / "runs.csv")} - {opener})
        if others:
            raise InputError(f"{out_dir / 'runs.csv'} holds runs from opener(s) "
                             f"{', '.join(others)}, not {opener}; render with --opener "
                             f"{others[0]} or use another report directory")


def study_fingerprint(word_list) -> dict:
    """The fingerprint of the study's journal (:func:`solver.runs.journal.run_fingerprint`)."""
    from solver.exact.versions import SOLVER_VERSION
    from solver.runs.journal import run_fingerprint

    return run_fingerprint(word_list, solver_version=SOLVER_VERSION,
                           kind="uct-study")


def _read_csv(path: Path) -> tuple[list[str], list[dict]]:
    """(header, rows) of runs.csv; ``(FIELDS, [])`` when there is none yet."""
    if not path.exists():
        return list(FIELDS), []
    with path.open(newline="") as handle:
        reader = csv.DictReader(handle)
        rows = list(reader)
        return list(reader.fieldnames or FIELDS), rows


def _read_runs(path: Path) -> list[dict]:
    return _read_csv(path)[1]


def _read_per_answer(path: Path) -> dict[str, list[str]]:
    if not path.exists():
        return {}
    with path.open(newline="") as handle:
        rows = list(csv.reader(handle))
    header, body = rows[0], rows[1:]
    return {name: [row[i] for row in body] for i, name in enumerate(header)}


def _csv_text(header: list[str], rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")  # the csv module's default line end
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def is_uct(name: str) -> bool:
    """True for a UCT policy name (:func:`solver.policies.uct.parse_policy_name`)."""
    from solver.policies.uct import parse_policy_name

    return parse_policy_name(name) is not None


def run_key(policy: str, seed) -> str:
    """The journal key and ``per_answer.csv`` column of a run: ``<policy>@<seed>``, or
    ``<policy>`` for a deterministic policy's single run (empty seed)."""
    return f"{policy}@{seed}" if str(seed) != "" else policy


def check_names(names) -> list[str]:
    """The normalised, de-duplicated policy names; raises
    :class:`~solver.policies.registry.UnknownPolicyError` (an InputError) for a name no
    registered family accepts."""
    from solver.policies.registry import check_policy_name

    return list(dict.fromkeys(check_policy_name(n) for n in names if n.strip()))


def build_policy(name: str, word_list, table: np.ndarray, seed: int = 0):
    """The policy called ``name`` for the study: a UCT name through
    :func:`solver.policies.uct.make_policy` (its own seed ``seed``; the scorer passes every
    decision's seed anyway), any other through :func:`solver.policies.registry.make_policy`.

    Raises:
        UnknownPolicyError: no registered family accepts ``name``.
        QTableError: ``qlearning`` without a Q-table for these lists (checked here, before work).
    """
    from solver.policies.registry import make_policy as make_registered

    if is_uct(name):
        from solver.policies.uct import make_policy

        return make_policy(name, word_list, table, seed=seed)
    policy = make_registered(name, word_list, table)
    if hasattr(policy, "qtable"):
        policy.qtable()  # a missing or foreign Q-table is bad input: say so now
    return policy


def score_run(name: str, seed: int, opener: str, jobs: int, word_list) -> tuple[dict, np.ndarray]:
    """Score one (policy, seed) on every answer from ``opener``: games mode with master seed
    ``seed`` for a randomised policy, tree mode for a deterministic one (``seed`` unused; the
    row's seed is empty).

    Returns ``(row, guesses)``: the runs.csv row (``FIELDS``, values formatted as in the
    file; the UCT fields empty for other policies) and int64[n_answers], the guesses used
    for each answer (list order)."""
    from solver.evaluation.scoring import ScoringMode, score_policy
    from solver.game.feedback import feedback_table

    table = feedback_table(word_list)
    policy = build_policy(name, word_list, table, seed=seed)
    result = score_policy(policy, opener, seed=seed, jobs=jobs, mode=ScoringMode.AUTO)
    mode = result.mode
    searched = sum(d.games for d in result.decisions if len(d.state) >= 2)
    row = {
        "policy": policy.name, "seed": seed if mode is ScoringMode.GAMES else "", "opener": result.opener,
        "games": result.n_games, "total": result.total, "average": f"{result.average:.5f}",
        "max_guesses": result.max_guesses, "failures": result.failures,
        "histogram": " ".join(map(str, result.histogram)),
        "wall_seconds": f"{result.seconds:.1f}", "workers": result.jobs, "decisions": searched,
        "seconds_per_game": f"{result.seconds_per_game:.4f}",
        "finished": datetime.datetime.now().isoformat(timespec="seconds"), "mode": mode,
    }
    row.update({f: "" for f in UCT_FIELDS})
    if is_uct(name):
        rollouts = searched * policy.n_rollouts
        row.update({"base": policy.base, "variant_o": int(policy.variant_o), "rank": policy.rank,
                    "n_rollouts": policy.n_rollouts, "n_top": policy.n_top,
                    "b_divisor": policy.b_divisor, "rollouts": rollouts,
                    "rollouts_per_second": f"{rollouts / (result.seconds * result.jobs):.0f}"})
    return {f: row[f] for f in FIELDS}, np.asarray(result.guesses_per_answer, dtype=np.int64)


def fold_runs(out_dir: Path, runs: dict, answers) -> None:
    """Write the journal's ``runs`` (``{run_key: {"row": ..., "guesses": ...}}``, :func:`run_key`)
    into ``runs.csv`` (a run already there is replaced, others appended) and
    ``per_answer.csv`` (its column set), each rewritten with
    :func:`~solver.game.files.write_atomic`; ``answers`` is the list's answers in order."""
    out_dir = Path(out_dir)
    runs_path, per_answer_path = out_dir / "runs.csv", out_dir / "per_answer.csv"
    columns = _read_per_answer(per_answer_path) or {"answer": list(answers)}
    header, rows = _read_csv(runs_path)
    header += [f for f in FIELDS if f not in header]
    for key, run in runs.items():
        columns[key] = [str(int(v)) for v in run["guesses"]]
        row = {k: str(v) for k, v in run["row"].items()}
        same = [i for i, r in enumerate(rows)
                if (r["policy"], r.get("seed", "")) == (row["policy"], row.get("seed", ""))]
        if same:
            rows[same[-1]] = row
        else:
            rows.append(row)
    names = list(columns)
    write_text_atomic(per_answer_path, _csv_text(names, zip(*(columns[n] for n in names))))
    write_text_atomic(runs_path, _csv_text(header, ([r.get(f, "") for f in header] for r in rows)))


def exact_per_answer(words, opener: str) -> np.ndarray:
    """Guesses per answer under the exact optimal tree, int64[n_answers] (the shipped or cached
    tree, else solved and cached). ``words`` is a list name, a directory or a
    :class:`~solver.game.wordlists.WordList`.

    Raises:
        WordListError, UnknownWordError: no such list, or ``opener`` is not an allowed guess.
        UnwinnableError: see :meth:`solver.exact.book.OpeningBook.tree`.
    """
    from solver.exact.book import OpeningBook
    from solver.game.spec import Game
    from solver.game.feedback import feedback_table
    from solver.game.wordlists import WordList, load_word_list

    word_list = words if isinstance(words, WordList) else load_word_list(words)
    optimum = OpeningBook(Game(word_list)).tree(opener, jobs=1)
    table = feedback_table(word_list)
    return optimum.tree.guesses_per_answer(lambda g, a: int(table[g, a]), range(word_list.n_answers))


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


def _against_exact(columns: dict, row: dict, exact: np.ndarray) -> tuple[str, str]:
    """(answers needing more guesses than the exact tree, answers needing fewer) of one run,
    from its per_answer.csv column; ``("–", "–")`` without one."""
    col = columns.get(run_key(row["policy"], row.get("seed", "")))
    if col is None:
        return "–", "–"
    guesses = np.array([int(v) for v in col])
    return str(int((guesses > exact).sum())), str(int((guesses < exact).sum()))


def _agent_rank(name: str) -> tuple:
    return (AGENT_ORDER.index(name), "") if name in AGENT_ORDER else (len(AGENT_ORDER), name)


def _agent_tables(runs: list[dict], columns: dict, exact: np.ndarray, opener: str) -> list[str]:
    """The markdown of the policies that are not UCT: one row per run, then mean ± sd per
    policy over its seeds."""
    exact_avg = float(exact.mean())
    runs = sorted(runs, key=lambda r: (_agent_rank(r["policy"]), int(r["seed"] or -1)))
    lines = ["### Other agents (classic agents and other registered policies)", "",
             f"Every agent here plays from the study's fixed opener {opener.upper()} (its own "
             "choice only from the second guess on), knowing the answer list — unlike "
             "`reports/classic/classic.md`, where each agent chooses its first guess. Randomised "
             "agents: one run per master seed (games mode, the seeds of the UCT runs); "
             "deterministic agents: one run (tree mode, seed –: every seed gives the same games). "
             "Failures: games not won within 6 guesses (they are played on to the end).", "",
             "| agent | seed | mode | average | total | gap | max | failures | > exact | < exact "
             "| histogram (1..) | s/game | wall s (workers) |",
             "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for row in runs:
        worse, better = _against_exact(columns, row, exact)
        lines.append(
            f"| {row['policy']} | {row['seed'] or '–'} | {row.get('mode') or 'games'} | {row['average']} "
            f"| {row['total']} | {float(row['average']) - exact_avg:+.4f} | {row['max_guesses']} "
            f"| {row['failures']} | {worse} | {better} | {row['histogram']} "
            f"| {float(row['seconds_per_game']):.4f} | {row['wall_seconds']} ({row['workers']}) |")
    lines.append("")
    by_policy: dict[str, list[dict]] = {}
    for row in runs:
        by_policy.setdefault(row["policy"], []).append(row)
    lines += ["Mean ± sample sd over the runs of each agent (number of runs in brackets):", "",
              "| agent | average | gap | failures per run |", "|---|---:|---:|---:|"]
    for name, rows in by_policy.items():
        averages = [float(r["average"]) for r in rows]
        failures = statistics.mean(int(r["failures"]) for r in rows)
        lines.append(f"| {name} | {_fmt_mean_sd(averages)} [{len(rows)}] "
                     f"| {statistics.mean(averages) - exact_avg:+.4f} | {failures:.1f} |")
    lines.append("")
    return lines


def render(out_dir: Path, words, opener: str) -> str:
    """The generated markdown (tables) from the CSVs, every gap against the exact optimum of
    ``opener`` on ``words`` (a list name, a directory or a WordList). Writes nothing.

    Raises:
        WordListError, UnknownWordError: no such list, or ``opener`` is not an allowed guess.
        InputError: the CSVs hold other lists or other openers (:func:`check_study`).
        UnwinnableError, CacheError, WriteFailedError: the exact optimum cannot be had
            (:func:`exact_per_answer`).
    """
    from solver.game.wordlists import WordList, load_word_list

    out_dir = Path(out_dir)
    word_list = words if isinstance(words, WordList) else load_word_list(words)
    opener = opener.strip().lower()
    word_list.guess_index(opener)
    check_study(out_dir, word_list, opener)
    all_runs = _read_runs(out_dir / "runs.csv")
    runs = [r for r in all_runs if is_uct(r["policy"])]
    agent_runs = [r for r in all_runs if not is_uct(r["policy"])]
    columns = _read_per_answer(out_dir / "per_answer.csv")
    exact = exact_per_answer(word_list, opener)
    lines = [f"Exact optimal tree from {opener.upper()}: total {int(exact.sum())}, average "
             f"{exact.mean():.5f} (`solver.exact.bellman.solve`). Gap = average − exact average. "
             f"Every run starts with {opener.upper()} (the study's fixed opener).",
             ""]
    exact_avg = float(exact.mean())

    if runs:
        lines += ["### Every run" + (" (UCT)" if agent_runs else ""), "",
                  "| policy | N | seed | average | total | gap | max | failures | > exact | < exact "
                  "| histogram (1..) | s/game | rollouts/s/core | wall s (workers) |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
        for row in sorted(runs, key=lambda r: (int(r["n_rollouts"]), _variant_rank(_variant(r)),
                                               int(r["seed"]))):
            worse, better = _against_exact(columns, row, exact)
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
              ("Average guesses by N, answers first among ties (equal entropy) (`_p`)",
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
    if agent_runs:
        lines += _agent_tables(agent_runs, columns, exact, opener)
    lines.append(f"Reference points (thesis): MIG_A {THESIS['mig_a']}, MIG_B {THESIS['mig_b']}, "
                 f"Rollout_10_A {THESIS['rollout10_a']}, Rollout_10_B {THESIS['rollout10_b']}, "
                 f"Rollout_100_A {THESIS['rollout100_a']}; exact {exact_avg:.5f}.")
    lines.append("")
    lines.append(f"Generated {datetime.date.today().isoformat()} on {platform.machine()}, "
                 f"Python {platform.python_version()}, from `runs.csv` and `per_answer.csv`.")
    return "\n".join(lines)


def write_report(out_dir: Path, generated: str) -> Path:
    """Replace the generated part of ``out_dir/uct.md`` with ``generated`` (atomically).
    Raises OutputError when ``out_dir`` cannot be created or written."""
    path = prepare_output_dir(out_dir) / "uct.md"
    text = path.read_text() if path.exists() else f"# UCT\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text or END not in text:
        text = text.rstrip("\n") + f"\n\n{BEGIN}\n{END}\n"
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return write_text_atomic(path, f"{head}{BEGIN}\n{generated}\n{END}{tail}")


def run_study(names, seeds, *, opener: str, jobs: int, words: str, out_dir: Path,
              force: bool = False, resume: bool = True, echo=print) -> list[dict]:
    """Play every (policy, seed) pair not yet in ``out_dir/runs.csv`` (all if ``force``; a
    rerun pair replaces its row and column). A deterministic policy is played once, whatever
    the seeds (module docstring).

    Returns the new runs.csv rows. Raises, before any work: :class:`InputError` for a name
    no registered policy family accepts (UnknownPolicyError), a missing Q-table
    (QTableError), a bad ``jobs`` or seed, or CSVs of other lists (:func:`check_study`);
    WordListError / UnknownWordError for the lists or the opener; OutputError / CacheError
    when ``out_dir`` or the cache cannot be written. Then
    :class:`~solver.runs.journal.ForeignJournalError` when ``resume`` and ``runs.journal`` was
    written by other kernels or another solver version (``resume=False`` discards it: runs it
    holds that are not in the CSVs yet are played again)."""
    import numbers

    from solver.runs.journal import Journal, record_shape
    from solver.game.feedback import feedback_table
    from solver.game.wordlists import WordList, load_word_list

    names = check_names(names)
    seeds = list(seeds)
    for seed in seeds:
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
            raise InputError(f"seeds are whole numbers ≥ 0, not {seed!r}")
    seeds = [int(s) for s in dict.fromkeys(seeds)]
    jobs = check_jobs(jobs)
    word_list = words if isinstance(words, WordList) else load_word_list(words)
    opener = opener.strip().lower()
    word_list.guess_index(opener)
    check_study(out_dir, word_list)
    usable_cache_dir()
    table = feedback_table(word_list)
    deterministic = {n: build_policy(n, word_list, table).deterministic for n in names}
    out_dir = prepare_output_dir(out_dir)
    journal = Journal.open(journal_path("runs", directory=out_dir), study_fingerprint(word_list),
                           resume=resume, shape=record_shape({"": {"row": dict, "guesses": (list, np.ndarray)}}))
    if len(journal):
        fold_runs(out_dir, journal.records(), word_list.answers)
        echo(f"{len(journal)} finished run(s) recovered from {journal.path}")
    done = {(r["policy"], r.get("seed", "")) for r in _read_runs(out_dir / "runs.csv")}
    rows = []
    for i, seed in enumerate(seeds):
        for name in names:
            if deterministic[name] and i > 0:
                continue  # played once: every seed gives the same games
            label = "(deterministic)" if deterministic[name] else f"seed {seed}"
            if (name, "" if deterministic[name] else str(seed)) in done and not force:
                echo(f"{name} {label}: already in runs.csv")
                continue
            row, guesses = score_run(name, seed, opener, jobs, word_list)
            key = run_key(row["policy"], row["seed"])
            journal.append(key, {"row": row, "guesses": guesses})
            fold_runs(out_dir, {key: journal.get(key)}, word_list.answers)
            rows.append(row)
            speed = (f", {int(row['rollouts_per_second']):,} rollouts/s/core" if row["rollouts_per_second"] != ""
                     else f", {row['mode']} mode")
            echo(f"{row['policy']} {label}: average {row['average']}, max {row['max_guesses']}, "
                 f"failures {row['failures']}, {row['wall_seconds']} s{speed}")
    journal.discard()  # every run is in the CSVs
    return rows
