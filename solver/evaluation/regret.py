"""The regret of a policy's decisions against the exact optimum.

For a state ``S`` (the answers still possible) with ``d`` guesses left, ``V*(S, d)`` is the
least total number of guesses over the answers of ``S`` (``F(S, d)`` of Bertsimas & Paskov,
Operations Research 2024, §3) and ``Q*(S, d, g)`` the total when ``g`` is played now and the
optimum afterwards, ``|S| + Σ_{C ≠ all-green} V*(C, d − 1)``. A decision's *regret* is
``Q*(S, d, g) − V*(S, d)`` ≥ 0: the guesses the choice costs summed over the state's answers
(divide by ``|S|`` for a game in that state). Both come from
:class:`solver.policies.exact_policy.ExactPolicy` (``solve`` and ``value_after``) in normal
mode, or from the game's :class:`solver.exact.service.SearchService` in any mode (hard mode's
values depend on what the history allows).

A decision that gives up the sure finish (some answer can no longer be won in time) has a
strict regret of ``inf``; its **finite regret** is the rule of docs/algorithms.md §15.4, the
one the analysis and the Gymnasium environment use (:meth:`SearchService.relaxed_q
<solver.exact.service.SearchService.relaxed_q>`: ``Q*`` with the limit relaxed just enough,
plus the answers left with no sure finish), so that a policy's regrets add up to a finite
total. For every other decision the finite regret is the regret.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class DecisionRegret:
    """One decision of a policy whose guess costs guesses against the optimum.

    Attributes:
        state: the answers of the state (words, in list order).
        guesses_left: guesses left before the decision (``d``).
        guess: the policy's guess (``g``).
        optimal_guess: the optimal guess at this state (the solver's tie-break).
        value: ``V*(S, d)``, the least total guesses over the state's answers (an int).
        q_value: ``Q*(S, d, g)``, the total after the policy's guess with optimal play
            afterwards (an int), or None if some answer can then no longer be won in time.
        regret: ``q_value − value`` in guesses summed over the state's answers (a float:
            ``inf`` when ``q_value`` is None).
        regret_finite: the finite regret (module docstring): ``regret`` when finite, else the
            move's finite value (§15.4) less ``value``, > 0; None only when read from a record
            written before it was kept.
    """

    state: list
    guesses_left: int
    guess: str
    optimal_guess: str
    value: int
    q_value: int | None
    regret: float
    regret_finite: float | None = None

    def __post_init__(self):
        if self.regret_finite is None and not math.isinf(self.regret):
            self.regret_finite = self.regret

    @property
    def regret_per_game(self) -> float:
        """Extra expected guesses for one game in this state, ``regret / |S|``."""
        return self.regret / len(self.state)

    def to_json(self) -> dict:
        """A JSON/msgpack-ready dict (an infinite regret is stored as None)."""
        return {"state": list(self.state), "guesses_left": self.guesses_left, "guess": self.guess,
                "optimal_guess": self.optimal_guess, "value": self.value, "q_value": self.q_value,
                "regret": None if math.isinf(self.regret) else int(self.regret),
                "regret_finite": None if self.regret_finite is None else int(self.regret_finite)}

    @classmethod
    def from_json(cls, data: dict) -> DecisionRegret:
        """The inverse of :meth:`to_json`."""
        regret = math.inf if data["regret"] is None else data["regret"]
        return cls(list(data["state"]), int(data["guesses_left"]), data["guess"],
                   data["optimal_guess"], int(data["value"]), data["q_value"], regret,
                   data.get("regret_finite"))


class _Pricer:
    """V*, Q* and the finite value of a decision, from an ExactPolicy (normal mode; the
    finite rule from the service of its game, made when first needed) or a SearchService."""

    def __init__(self, exact):
        from solver.exact.service import SearchService

        self.service = exact if isinstance(exact, SearchService) else None
        self.exact = None if self.service is not None else exact
        self.word_list = exact.word_list

    def _steps(self, history) -> list[tuple[str, int]]:
        return [(self.word_list.guesses[int(g)], int(c)) for g, c in history]

    def solve(self, state, guesses_left: int, history) -> tuple[int, int]:
        """``(V*, optimal guess index)``; UnwinnableError when no policy wins every answer."""
        from solver.exact.bellman import UnwinnableError

        if self.exact is not None:
            return self.exact.solve(state, guesses_left)
        where = self.service.position(self._steps(history))
        if where.tree is None or where.extra:
            raise UnwinnableError("no policy wins every answer of the state in time")
        return int(where.tree_value), int(where.tree.node_guess[where.node])

    def q_value(self, state, guesses_left: int, history, guess: int) -> int | None:
        """``Q*``, or None when the guess gives up the sure finish."""
        from solver.exact.anytime import INF

        if self.exact is not None:
            return self.exact.value_after(state, guesses_left, guess)
        q = self.service.q_value(state, guesses_left, self._steps(history), self.word_list.guesses[guess])
        return None if q >= INF else int(q)

    def finite_cost(self, state, guesses_left: int, history, guess: int, value: int) -> int:
        """The finite value (§15.4) of a guess that gives up the sure finish."""
        if self.service is None:
            from solver.evaluation.assist import service_for
            from solver.game.spec import Game

            self.service = service_for(Game(self.word_list, self.exact.guess_limit), table=self.exact.table)
        relaxed = self.service.relaxed_q(state, guesses_left, self._steps(history),
                                         self.word_list.guesses[guess])
        return relaxed.cost(value)


def decision_regrets(exact, decisions) -> tuple[list[DecisionRegret], dict]:
    """Price every decision of a policy against the optimum.

    Args:
        exact: a :class:`solver.policies.exact_policy.ExactPolicy` (normal mode; ideally
            holding the opener's tree, so most states are answered without search), or the
            game's :class:`solver.exact.service.SearchService` (any mode: hard mode's values
            depend on the decisions' histories).
        decisions: :class:`solver.evaluation.scoring.Decision` records of the policy (a
            sorted int32 ``state``, ``guesses_left``, the ``guess`` index, its ``history``).

    Returns:
        ``(regrets, summary)``: the decisions with a positive regret, largest first (ties:
        larger state, then the state's words), each with its finite regret (module docstring),
        and the int counts ``decisions`` (states of at least two answers), ``differing``
        (guess ≠ the optimal guess), ``with_regret`` (regret > 0) and ``lost_states`` (states
        the policy reached from which no policy wins every answer in time; they are not
        priced).
    """
    from solver.exact.bellman import UnwinnableError

    pricer = _Pricer(exact)
    word_list = pricer.word_list
    regrets: list[DecisionRegret] = []
    summary = {"decisions": 0, "differing": 0, "with_regret": 0, "lost_states": 0}
    for decision in decisions:
        state, left, history = decision.state, decision.guesses_left, decision.history
        if len(state) < 2:
            continue
        summary["decisions"] += 1
        try:
            value, optimal_guess = pricer.solve(state, left, history)
        except UnwinnableError:
            summary["lost_states"] += 1
            continue
        if decision.guess == optimal_guess:
            continue
        summary["differing"] += 1
        q_value = pricer.q_value(state, left, history, decision.guess)
        regret = math.inf if q_value is None else q_value - value
        if regret > 0:
            finite = regret if q_value is not None else (
                pricer.finite_cost(state, left, history, decision.guess, value) - value)
            summary["with_regret"] += 1
            regrets.append(DecisionRegret(
                [word_list.answers[a] for a in state], int(left),
                word_list.guesses[decision.guess], word_list.guesses[optimal_guess], int(value),
                q_value, regret, finite))
    regrets.sort(key=lambda r: (-r.regret, -len(r.state), r.state))
    return regrets, summary
