"""Independent check of a loaded decision tree: replay every answer and compare with the header.

The replay uses the plain-Python rule :func:`solver.game.feedback.feedback_code`, not the numba
table the solver used, so a bug in the kernel and a damaged artifact both show up here. The
rule is the artifact's ``feedback`` (standard, or Yellow Wordle's, docs/algorithms.md §10.4):
a tree replayed under another rule than its own fails (its branches do not match).

Checks (each failing one adds a line to :attr:`VerifyReport.failures`):

- structure: the nodes are exactly those reachable from the root, each reached by one edge,
  numbered in depth-first preorder, each node's edge feedbacks strictly ascending;
- every guess is an allowed word of the artifact's list, the root guess is the stored opener;
  in ``hard`` mode every guess also uses all hints revealed so far, in ``ultra`` mode it is
  consistent with all feedback so far;
- every answer is won within ``guess_limit`` guesses, and every node is reached by some answer
  (no dead branches);
- the stored ``total``, ``histogram``, ``max_guesses`` and ``average`` equal the replay's, the
  stored ``word_length`` the words', the ``word_list`` name is what the words are (a shipped
  list's words carry its name, a ``custom-<hex>`` name is theirs), and an ``opener_proof``
  covers this guess list, every guess, and bounds the other openers no lower than the tree's
  value. (The reader's checksums already prove the bytes are the writer's; this proves the
  writer's figures are the tree's.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from policy_tree.lookup import PolicyTree, format_history
from solver.game.feedback import code_to_text, feedback_code
from solver.game.hard_mode import MODE_NAMES, mode_violation
from solver.game.spec import Mode, Objective
from solver.game.wording import counted


@dataclass
class VerifyReport:
    """Result of :func:`verify`.

    Attributes:
        n_answers: answers replayed.
        n_nodes: nodes in the tree.
        total: guesses summed over the answers the tree wins.
        max_guesses: most guesses any won answer took (0 if none).
        histogram: ``histogram[i]`` = answers won in ``i + 1`` guesses, length ``guess_limit``.
        failures: the first ``max_failures`` problems, one sentence each.
        n_failures: how many problems there were in all.
    """

    n_answers: int
    n_nodes: int
    total: int = 0
    max_guesses: int = 0
    histogram: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    n_failures: int = 0
    max_failures: int = 20

    @property
    def ok(self) -> bool:
        """True if the replay found no problem (``n_failures == 0``)."""
        return self.n_failures == 0

    @property
    def average(self) -> float:
        """Guesses per answer: ``total / n_answers`` (0.0 with no answers)."""
        return self.total / self.n_answers if self.n_answers else 0.0

    def fail(self, message: str) -> None:
        """Record one problem: counted in ``n_failures``, its ``message`` kept if fewer than
        ``max_failures`` are."""
        self.n_failures += 1
        if len(self.failures) < self.max_failures:
            self.failures.append(message)


def verify(policy: PolicyTree, max_failures: int = 20, feedback: str | None = None) -> VerifyReport:
    """Check ``policy`` as described in the module docstring; never raises for a bad tree.
    ``feedback``: replay under this rule instead of the artifact's own (``policy.feedback``);
    FeedbackError for an unknown rule."""
    from solver.game.feedback import check_feedback_rule

    rule = policy.feedback if feedback is None else check_feedback_rule(feedback)
    tree, words = policy.tree, policy.word_list
    report = VerifyReport(words.n_answers, tree.n_nodes, histogram=[0] * policy.guess_limit,
                          max_failures=max_failures)
    _check_structure(policy, report)
    _check_guesses(policy, report)
    _replay(policy, report, rule)
    _check_header(policy, report)
    _check_priors(policy, report, rule)
    return report


def _check_structure(policy: PolicyTree, report: VerifyReport) -> None:
    tree = policy.tree
    n = tree.n_nodes
    seen = [False] * n
    order: list[int] = []
    stack = [0]
    while stack:
        node = stack.pop()
        if seen[node]:
            report.fail(f"node {node} is reached by more than one edge (the tree is not a tree)")
            continue
        seen[node] = True
        order.append(node)
        lo, hi = int(tree.edge_start[node]), int(tree.edge_start[node + 1])
        feedbacks = [int(f) for f in tree.edge_feedback[lo:hi]]
        if any(a >= b for a, b in zip(feedbacks, feedbacks[1:])):
            report.fail(f"node {node}: edge feedbacks are not strictly ascending")
        # pushed in reverse so that the smallest feedback is visited first (preorder)
        stack.extend(int(c) for c in tree.edge_child[lo:hi][::-1])
    unreachable = [i for i in range(n) if not seen[i]]
    if unreachable:
        report.fail(f"{len(unreachable)} node(s) not reachable from the root, e.g. node "
                    f"{unreachable[0]} (guess {policy.guess_at(unreachable[0])!r})")
    if order != list(range(len(order))):
        first = next(i for i, node in enumerate(order) if node != i)
        report.fail(f"nodes are not numbered in depth-first preorder (position {first} holds "
                    f"node {order[first]})")


def _check_guesses(policy: PolicyTree, report: VerifyReport) -> None:
    n_guesses = policy.word_list.n_guesses
    bad = [i for i, g in enumerate(policy.tree.node_guess) if int(g) >= n_guesses]
    if bad:
        report.fail(f"{len(bad)} node(s) play a guess outside the allowed words, e.g. node {bad[0]}")
        return
    if policy.header["opener"] != policy.guess_at(0):
        report.fail(f"the stored opener is {policy.header['opener']!r} but the root plays "
                    f"{policy.guess_at(0)!r}")


def verify_position(policy: PolicyTree, position, max_failures: int = 3) -> VerifyReport:
    """Whether the tree wins from ``position`` (:meth:`PolicyTree.position`, on the tree): each
    answer left replayed from its node, after its history, as :func:`verify` replays them all
    (allowed guesses, hard and ultra-hard mode's rules, the guess limit, a branch for every
    feedback). What a lookup checks before it answers from a tree: the cost is that of the
    answers left, not of the whole tree. Never raises for a bad tree."""
    report = VerifyReport(len(position.answers), policy.tree.n_nodes,
                          histogram=[0] * policy.guess_limit, max_failures=max_failures)
    if position.node is not None:
        _replay(policy, report, policy.feedback, start=(position.node, position.steps, position.answers))
    return report


def _replay(policy: PolicyTree, report: VerifyReport, rule: str, start=None) -> None:
    """Replay every answer from the root (every node must be reached), or with ``start`` =
    ``(node, steps, answers)`` those answers from that node after those steps."""
    tree, limit = policy.tree, policy.guess_limit
    mode = Mode(policy.mode)
    restricted = mode is not Mode.NORMAL
    visits = [0] * tree.n_nodes
    first, before, answers = (0, (), policy.word_list.answers) if start is None else start
    for answer in answers:
        node, steps = first, list(before)
        while True:
            visits[node] += 1
            guess = policy.guess_at(node)
            if restricted and steps:
                why = mode_violation(mode, steps, guess)
                if why:
                    report.fail(f"{answer!r}: node {node} plays {guess!r} after "
                                f"{format_history(steps)}, illegal in {MODE_NAMES[mode]}: {why}")
            code = feedback_code(guess, answer, rule)
            steps.append((guess, code))
            if code == policy.tree.all_green:
                used = len(steps)  # <= limit: the check below stops every longer game
                report.total += used
                report.max_guesses = max(report.max_guesses, used)
                report.histogram[used - 1] += 1
                break
            if len(steps) >= limit:
                report.fail(f"{answer!r} is not won within {counted(limit, 'guess')}: {format_history(steps)}")
                break
            child = tree.child(node, code)
            if child < 0:
                report.fail(f"{answer!r}: node {node} (guess {guess!r}) has no branch for "
                            f"feedback {code_to_text(code, len(guess))}; path {format_history(steps)}")
                break
            node = child
    dead = [i for i, count in enumerate(visits) if count == 0] if start is None else []
    if dead:
        report.fail(f"{len(dead)} node(s) are reached by no answer, e.g. node {dead[0]} "
                    f"(guess {policy.guess_at(dead[0])!r})")


def _check_priors(policy: PolicyTree, report: VerifyReport, rule: str) -> None:
    """The stored weighted total against a replay under the stored weights."""
    weights = policy.prior_weights
    if weights is None:
        return
    guesses = policy.word_list.guesses
    used = policy.tree.guesses_per_answer(lambda g, a: feedback_code(guesses[g], a, rule),
                                          policy.word_list.answers)
    replayed = int((weights * used).sum())
    if replayed != policy.priors["weighted_total"]:
        report.fail(f"stored priors weighted_total {policy.priors['weighted_total']} differs from "
                    f"the replay's {replayed}")


def _check_header(policy: PolicyTree, report: VerifyReport) -> None:
    for name, stored, replayed in (
        ("total", policy.total, report.total),
        ("max_guesses", policy.max_guesses, report.max_guesses),
        ("histogram", policy.histogram, report.histogram),
    ):
        if stored != replayed:
            report.fail(f"stored {name} {stored} differs from the replay's {replayed}")
    expected = policy.total / report.n_answers
    if not math.isclose(policy.average, expected, rel_tol=1e-12):
        report.fail(f"stored average {policy.average!r} is not total / answers = {expected!r}")
    words = policy.word_list
    stored_length = policy.header.get("word_length", 5)
    if stored_length != len(words.answers[0]):
        report.fail(f"stored word_length {stored_length} but the words have {len(words.answers[0])} letters")
    shipped = words.shipped_name
    if shipped is not None and words.name != shipped:
        report.fail(f"stored word_list {words.name!r}, but the words are the shipped {shipped!r} lists")
    if words.name.startswith("custom-") and words.name != f"custom-{words.identity[:12]}":
        report.fail(f"stored word_list {words.name!r}, but these words are "
                    f"'custom-{words.identity[:12]}'")
    proof = policy.header.get("opener_proof")
    if proof is not None:
        primary = Objective(policy.header["objective"]).primary
        value = policy.total if primary is Objective.TOTAL else policy.max_guesses
        if proof["guesses_sha256"] != words.guesses_sha256:
            report.fail("opener_proof ran over another guess list (its guesses_sha256 differs)")
        if proof["openers"] != words.n_guesses:
            report.fail(f"opener_proof covers {proof['openers']} openers, the list has "
                        f"{words.n_guesses} guesses")
        if proof["others_at_least"] < value:
            report.fail(f"opener_proof bounds the other openers at {proof['others_at_least']}, "
                        f"below this tree's {value}: the opener would not be proven best")
