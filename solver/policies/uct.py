"""UCT_N — Monte Carlo tree search with upper confidence bounds, and its variant O.

Sources: Kocsis & Szepesvári, *Bandit based Monte-Carlo planning* (ECML 2006) for UCT;
Eyerich, Keller & Helmert, *High-quality policies for the Canadian Traveler's Problem* (AAAI
2010) for UCT with base-policy rollouts on a belief-state problem; Peiszan, *Wordle:
heuristics and simulation* (Basel 2025 bachelor's thesis) for the Wordle version, its
parameters and variant O; our summary in docs/algorithms.md §8.3.

**One decision** at the state ``S`` (≥ 2 answers; a singleton is guessed directly,
:meth:`solver.policies.base.Policy.choose`) runs ``N`` rollouts on a search tree rooted at ``S``:

- *Tree.* Decision nodes are states; below a decision node, each successor is a guess
  (a chance node over the feedback); below a guess, one decision node per feedback class
  that has been reached (the all-green class ends the game and has none). Decision nodes
  are not shared between paths (a tree, not a graph).
- *Successors of a decision node with state* ``T`` (the root and every node below alike):
  the ``n`` best guesses that split ``T`` by exact entropy key (:mod:`solver.policies._policy_kernel`),
  equal keys in alphabetical order, for either base heuristic — the order that ranks the
  rollout policy's candidates (:mod:`solver.policies.rollout`, the thesis's reading: it reproduces
  the published Rollout figures). Option ``rank="members"`` (names ``…_p``) puts the
  possible answers (members of ``T``) first among equal keys, as MIG_B's tie rule does;
  with **variant O**, when ``|T| ≤ 10`` (``o_threshold``) the members of ``T`` that are not
  already among them are appended in alphabetical order. Guesses that do not split ``T``
  (entropy 0) are never successors; fewer than ``n`` remain only on tiny word lists. *Why the
  same rule below the root:* docs/algorithms.md §8.3 gives UCT one successor rule (restricted to the
  ``n`` best by entropy) and states variant O as "when at most 10 answers remain, add them
  to the successors", a condition that holds mostly below the root: from SALET, 85% of the
  answers meet their first decision in a state of more than 10 answers, while after one
  more (MIG_B) guess 95% sit in states of at most 10. So the restricted successor set
  applies there too; with all 12,972 guesses as successors a node would need 12,972
  rollouts before its first UCB choice, and the tree would never grow below the root.
  Ablations, not the algorithm of docs/algorithms.md §8.3: ``n_below`` successors below the root
  (1 = the base heuristic's guess only, when the ranking breaks ties as the base heuristic
  does: MIG_A, or MIG_B with ``rank="members"``) and variant O at the root only
  (``o_scope``).
- *Rollout.* Draw an answer ``a`` uniformly from ``S`` (SplitMix64 stream seeded from the
  decision's seed, the state's hash and ``guesses_left``). Descend from the root: at a
  decision node whose successors are not all visited, take the first unvisited one in
  successor order, play it against ``a`` and value it by letting the base heuristic (MIG_A
  or MIG_B) play on to the end — the rollout stops there. Otherwise take the successor
  maximising ``B·sqrt(log R(parent)/R(child)) − C(child)`` (``R`` visits, ``C`` average cost
  from that node, first in successor order on exact float ties), with ``B`` the average cost
  of the rollouts so far at this decision divided by ``b_divisor`` (5); follow the feedback
  of ``a`` to the child decision node, creating it if new. A singleton node or an all-green
  feedback ends the rollout.
- *Cost.* The rollout's cost is the number of guesses from ``S`` until ``a`` is guessed, the
  final correct guess included; a node ``i`` levels below the root is credited ``cost − i``.
  A rollout needing more than ``guesses_left`` guesses gets ``loss_penalty`` added (0 by
  default: the cost is the guess count, as the scorer counts a failed game's guesses).
- *Play.* The root successor with the lowest average cost (compared exactly: integer cost
  sums cross-multiplied by visits) among those visited; ties: higher entropy (lower exact
  key), then a possible answer, then alphabetical — the rollout policy's tie rule.

The base heuristic's choices and each state's successor list come from one pass over every
guess per state, memoised for the whole process by the state's 128-bit Zobrist hash (a cache
of pure functions: it changes the time, never a result). Same seed, same state, same
``guesses_left`` → same guess, whatever ran before in the process.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import numpy as np

from solver.policies.base import Policy

#: Variant O adds the state's answers to the successors when at most this many remain.
O_THRESHOLD = 10
#: Default memo size (slots, a power of two): 68 bytes a slot with n = 10, 68 MiB.
MEMO_CAPACITY = 1 << 20

_PROCESS: dict[tuple, dict] = {}


@dataclass
class UCTResult:
    """The outcome of one UCT decision (:meth:`UCTPolicy.search`).

    Attributes:
        guess: guess index played.
        root_guesses: int32[k], the root's successors in successor order.
        root_visits: int64[k], rollouts through each.
        root_costs: int64[k], sum of their rollout costs (guesses from the root).
        rollouts: rollouts run (N).
        seconds: wall seconds of the search.
        stats: kernel counters — decision nodes, successor slots, memo misses (scans),
            base-heuristic steps, deepest path.
    """

    guess: int
    root_guesses: np.ndarray
    root_visits: np.ndarray
    root_costs: np.ndarray
    rollouts: int
    seconds: float
    stats: dict

    @property
    def root_means(self) -> np.ndarray:
        """float64[k]: average cost of each root successor (nan if unvisited)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return self.root_costs / self.root_visits


class UCTPolicy(Policy):
    """UCT_N with base heuristic MIG_A or MIG_B, optionally variant O; randomised.

    Args:
        word_list: the :class:`solver.game.wordlists.WordList`.
        table: its feedback table, uint8 or uint16[n_guesses, n_answers].
        n_rollouts: N, rollouts per decision (≥ 1).
        n_top: n, successors taken from the entropy ranking (≥ 1; 10 in the thesis).
        variant_o: add a state's answers to its successors when at most ``o_threshold``
            remain (variant O).
        b_divisor: B = (average rollout cost so far) / b_divisor (5 in the thesis; > 0).
        base: ``"a"`` (MIG_A) or ``"b"`` (MIG_B).
        seed: used when :meth:`choose` gets no seed (the scorer always passes one).
        loss_penalty: added to the cost of a rollout exceeding ``guesses_left`` (≥ 0).
        o_threshold: see ``variant_o`` (10).
        rank: order of equal entropies in the successor ranking: ``"alpha"`` (alphabetical,
            the default, as the rollout policy's candidates) or ``"members"`` (possible
            answers first, then alphabetical).
        n_below: successors taken from the ranking at decision nodes below the root
            (1 ≤ n_below ≤ n_top; default n_top). An ablation: 1 leaves only the ranking's
            first guess below the root (the base heuristic's guess for MIG_A, and for
            MIG_B with ``rank="members"``).
        o_scope: where variant O applies: ``"all"`` decision nodes (default) or the
            ``"root"`` only (an ablation).
        memo_capacity: slots of the per-process state memo (a power of two).
        name: report name; default ``uct{N}_{base}[_o]`` as in :func:`policy_name`.

    Raises:
        ValueError: a parameter out of range.
    """

    deterministic = False

    def __init__(self, word_list, table: np.ndarray, n_rollouts: int = 50_000, n_top: int = 10,
                 variant_o: bool = False, b_divisor: float = 5.0, base: str = "a", seed: int = 0,
                 loss_penalty: int = 0, o_threshold: int = O_THRESHOLD, rank: str = "alpha",
                 n_below: int | None = None, o_scope: str = "all",
                 memo_capacity: int = MEMO_CAPACITY, name: str | None = None):
        super().__init__(word_list, table)
        base = str(base).lower()
        if base not in ("a", "b"):
            raise ValueError(f"base heuristic must be 'a' (MIG_A) or 'b' (MIG_B), got {base!r}")
        if rank not in ("alpha", "members"):
            raise ValueError(f"rank must be 'alpha' or 'members', got {rank!r}")
        if o_scope not in ("all", "root"):
            raise ValueError(f"o_scope must be 'all' or 'root', got {o_scope!r}")
        n_below = int(n_top) if n_below is None else int(n_below)
        if not 1 <= n_below <= int(n_top):
            raise ValueError(f"n_below must be in 1..n_top, got {n_below}")
        if int(n_rollouts) < 1:
            raise ValueError(f"n_rollouts must be at least 1, got {n_rollouts}")
        if int(n_top) < 1:
            raise ValueError(f"n_top must be at least 1, got {n_top}")
        if not float(b_divisor) > 0:
            raise ValueError(f"b_divisor must be positive, got {b_divisor}")
        if int(loss_penalty) < 0 or int(o_threshold) < 0:
            raise ValueError("loss_penalty and o_threshold must be non-negative")
        if memo_capacity < 2 or memo_capacity & (memo_capacity - 1):
            raise ValueError(f"memo_capacity must be a power of two, got {memo_capacity}")
        self.n_rollouts = int(n_rollouts)
        self.n_top = int(n_top)
        self.variant_o = bool(variant_o)
        self.o_threshold = int(o_threshold)
        self.b_divisor = float(b_divisor)
        self.base = base
        self.seed = int(seed)
        self.loss_penalty = int(loss_penalty)
        self.memo_capacity = int(memo_capacity)
        self.rank = rank
        self.rank_answers_first = rank == "members"
        self.n_below = n_below
        self.o_scope = o_scope
        self.name = name or policy_name(self.n_rollouts, base, self.variant_o, rank=rank,
                                        o_scope=o_scope, n_top=self.n_top, n_below=n_below,
                                        b_divisor=self.b_divisor)
        self.searches = 0
        self.rollouts_run = 0
        self.search_seconds = 0.0

    @property
    def rollouts_per_second(self) -> float:
        """Rollouts per wall second over this object's searches so far (0 before any)."""
        return self.rollouts_run / self.search_seconds if self.search_seconds > 0 else 0.0

    def _process_data(self) -> dict:
        """Per-process arrays: answer-major table, Zobrist keys, prime tables, memo, scratch.
        Kept at module level (not pickled with the policy); rebuilt once per worker."""
        wl = self.word_list
        key = (wl.guesses_sha256, wl.answers_sha256, self.n_top, self.base, self.rank_answers_first,
               self.memo_capacity)
        data = _PROCESS.get(key)
        if data is None:
            from solver.policies._uct_kernel import new_memo, new_scan_workspace
            from solver.game.hashing import zobrist_keys
            from solver.policies.mig import factor_tables, pattern_count

            table = self._table()
            factors = factor_tables(wl.n_answers)
            z1, z2 = zobrist_keys(wl.n_answers)
            data = {
                "tableT": np.ascontiguousarray(table.T),
                "zobrist": (z1, z2),
                "factors": factors,
                "memo": new_memo(self.memo_capacity, self.n_top),
                "ws": new_scan_workspace(wl.n_guesses, wl.n_answers, self.n_top,
                                         factors[0].shape[0], pattern_count(wl)),
            }
            if len(_PROCESS) >= 4:
                _PROCESS.clear()
            _PROCESS[key] = data
        return data

    def _table(self) -> np.ndarray:
        table = self.table
        if table is None:
            raise ValueError("the policy has no feedback table")
        return np.ascontiguousarray(table)  # uint8, or uint16 for words of more than 5 letters

    def search(self, state, guesses_left: int, seed: int | None = None) -> UCTResult:
        """Run one decision's N rollouts from ``state`` (sorted answer indices, ≥ 2 of them)
        with ``guesses_left`` ≥ 1 guesses left; ``seed`` (any int, used modulo 2**64) or the
        policy's own seed. Raises ValueError on a state of fewer than two answers."""
        from solver.policies._uct_kernel import (STAT_DECISION_NODES, STAT_MAX_DEPTH, STAT_SCANS,
                                        STAT_SIM_STEPS, STAT_SLOTS, UctSettings, UctTables,
                                        uct_search)

        state = np.ascontiguousarray(state, dtype=np.int32)
        if state.ndim != 1 or state.size < 2:
            raise ValueError("UCT searches states of at least two answers")
        if guesses_left < 1:
            raise ValueError(f"guesses_left must be at least 1, got {guesses_left}")
        seed = self.seed if seed is None else int(seed)
        data = self._process_data()
        started = time.perf_counter()
        tables = UctTables(self._table(), data["tableT"], self.word_list.answer_guess_index,
                           data["zobrist"][0], data["zobrist"][1], data["factors"], self.base == "b",
                           self.rank_answers_first)
        settings = UctSettings(self.n_rollouts, self.o_threshold if self.variant_o else 0,
                               self.n_below,
                               self.o_threshold if self.variant_o and self.o_scope == "all" else 0,
                               self.b_divisor, self.loss_penalty, np.uint64(seed % (1 << 64)))
        guess, guesses, visits, costs, stats = uct_search(state, int(guesses_left), tables,
                                                          data["memo"], data["ws"], settings)
        seconds = time.perf_counter() - started
        self.searches += 1
        self.rollouts_run += self.n_rollouts
        self.search_seconds += seconds
        info = {"decision_nodes": int(stats[STAT_DECISION_NODES]), "slots": int(stats[STAT_SLOTS]),
                "scans": int(stats[STAT_SCANS]), "sim_steps": int(stats[STAT_SIM_STEPS]),
                "max_depth": int(stats[STAT_MAX_DEPTH])}
        return UCTResult(int(guess), guesses, visits, costs, self.n_rollouts, seconds, info)

    def _choose(self, state: np.ndarray, guesses_left: int, seed: int | None) -> int:
        return self.search(state, guesses_left, seed).guess


def policy_name(n_rollouts: int, base: str, variant_o: bool, *, rank: str = "alpha",
                o_scope: str = "all", n_top: int = 10, n_below: int | None = None,
                b_divisor: float = 5.0) -> str:
    """The report name of a configuration: ``uct{N}_{base}[_o[_root]][_p][_n{n}][_nb{n}]
    [_d{divisor}]``, N in thousands (``50k``) when a multiple of 1000; options at their
    defaults are left out (``uct50k_a``, ``uct5k_b_o``, ``uct1500_a``, ``uct50k_b_p``)."""
    n = f"{n_rollouts // 1000}k" if n_rollouts % 1000 == 0 else str(n_rollouts)
    name = f"uct{n}_{base}"
    if variant_o:
        name += "_o_root" if o_scope == "root" else "_o"
    if rank == "members":
        name += "_p"
    if n_top != 10:
        name += f"_n{n_top}"
    if n_below is not None and n_below != n_top:
        name += f"_nb{n_below}"
    if float(b_divisor) != 5.0:
        name += f"_d{float(b_divisor):g}"
    return name


_NAME = re.compile(r"^uct(\d+)(k?)_([ab])(_o(_root)?)?(_p)?(?:_n(\d+))?(?:_nb(\d+))?"
                   r"(?:_d(\d+(?:\.\d+)?))?$")


def parse_policy_name(name: str) -> dict | None:
    """The :class:`UCTPolicy` options a report name stands for (:func:`policy_name`), or None
    if it is not a UCT name. Examples: ``uct50k_b_o`` (N = 50,000, MIG_B, variant O),
    ``uct50k_b_p`` (answers first among ties (equal entropy)), ``uct50k_a_o_root``
    (variant O at the root only), ``uct50k_a_nb1`` (below the root only the base heuristic's
    guess), ``uct5k_a_n20_d2.5`` (n = 20, B divisor 2.5)."""
    match = _NAME.match(str(name).strip().lower())
    if not match:
        return None
    number, kilo, base, o, o_root, members, n_top, n_below, divisor = match.groups()
    options = {"n_rollouts": int(number) * (1000 if kilo else 1), "base": base,
               "variant_o": bool(o)}
    if o_root:
        options["o_scope"] = "root"
    if members:
        options["rank"] = "members"
    if n_top:
        options["n_top"] = int(n_top)
    if n_below:
        options["n_below"] = int(n_below)
    if divisor:
        options["b_divisor"] = float(divisor)
    return options


def make_policy(name: str, word_list, table: np.ndarray, seed: int = 0) -> UCTPolicy:
    """Build the UCT policy a report name stands for (:func:`parse_policy_name`).

    Raises:
        ValueError: ``name`` is not a UCT policy name, or its options are out of range.
    """
    options = parse_policy_name(name)
    if options is None:
        raise ValueError(f"{name!r} is not a UCT policy name (e.g. uct50k_a, uct5k_b_o)")
    return UCTPolicy(word_list, table, seed=seed, name=str(name).strip().lower(), **options)


# ---------------------------------------------------------------------------------------------
# registration in solver.policies.registry (imported there as a plugin module)


def _registry_validate(name: str, suffix: str) -> dict:
    from solver.policies.registry import UnknownPolicyError

    options = parse_policy_name("uct" + suffix)
    if options is None:
        raise UnknownPolicyError(
            f"unknown policy {name!r}: UCT names are uct<N>[k]_<a|b>[_o[_root]][_p][_n<n>]"
            "[_nb<n>][_d<divisor>], e.g. uct50k_a, uct5k_b_o")
    return options


def _registry_factory(word_list, table, name, suffix):
    options = _registry_validate(name, suffix)
    return UCTPolicy(word_list, table, name=name, **options)


_registry_factory.validate = _registry_validate


def _register() -> None:
    from solver.policies.registry import register_policy

    register_policy("uct", _registry_factory,
                    "uct<N>[k]_<a|b>[_o] (UCT_N on MIG_A/MIG_B, N rollouts per decision; _o: "
                    "variant O; _p: answers first among ties (equal entropy))")


_register()
