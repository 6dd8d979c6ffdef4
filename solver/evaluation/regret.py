"""The regret of a policy's decisions against the exact optimum.

For a state ``S`` (the answers still possible) with ``d`` guesses left, ``V*(S, d)`` is the
least total number of guesses over the answers of ``S`` (``F(S, d)`` of Bertsimas & Paskov,
Operations Research 2024, §3) and ``Q*(S, d, g)`` the total when ``g`` is played now and the
optimum afterwards, ``|S| + Σ_{C ≠ all-green} V*(C, d − 1)``. A decision's *regret* is
``Q*(S, d, g) − V*(S, d)`` ≥ 0: the guesses the choice costs summed over the state's answers
(divide by ``|S|`` for a game in that state). Both come from
:class:`solver.policies.exact_policy.ExactPolicy` (``solve`` and ``value_after``).
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
    """

    state: list
    guesses_left: int
    guess: str
    optimal_guess: str
    value: int
    q_value: int | None
    regret: float

    @property
    def regret_per_game(self) -> float:
        """Extra expected guesses for one game in this state, ``regret / |S|``."""
        return self.regret / len(self.state)

    def to_json(self) -> dict:
        """A JSON/msgpack-ready dict (an infinite regret is stored as None)."""
        return {"state": list(self.state), "guesses_left": self.guesses_left, "guess": self.guess,
                "optimal_guess": self.optimal_guess, "value": self.value, "q_value": self.q_value,
                "regret": None if math.isinf(self.regret) else int(self.regret)}

    @classmethod
    def from_json(cls, data: dict) -> DecisionRegret:
        """The inverse of :meth:`to_json`."""
        regret = math.inf if data["regret"] is None else data["regret"]
        return cls(list(data["state"]), int(data["guesses_left"]), data["guess"],
                   data["optimal_guess"], int(data["value"]), data["q_value"], regret)


def decision_regrets(exact, decisions) -> tuple[list[DecisionRegret], dict]:
    """Price every decision of a policy against the optimum.

    Args:
        exact: a :class:`solver.policies.exact_policy.ExactPolicy` (ideally holding the
            opener's tree, so most states are answered without search).
        decisions: :class:`solver.evaluation.scoring.Decision` records of the policy (a
            sorted int32 ``state``, ``guesses_left``, the ``guess`` index).

    Returns:
        ``(regrets, summary)``: the decisions with a positive regret, largest first (ties:
        larger state, then the state's words), and the int counts ``decisions`` (states of at
        least two answers), ``differing`` (guess ≠ the optimal guess), ``with_regret``
        (regret > 0) and ``lost_states`` (states the policy reached from which no policy wins
        every answer in time; they are not priced).
    """
    from solver.exact.bellman import UnwinnableError

    word_list = exact.word_list
    regrets: list[DecisionRegret] = []
    summary = {"decisions": 0, "differing": 0, "with_regret": 0, "lost_states": 0}
    for decision in decisions:
        state = decision.state
        if len(state) < 2:
            continue
        summary["decisions"] += 1
        try:
            value, optimal_guess = exact.solve(state, decision.guesses_left)
        except UnwinnableError:
            summary["lost_states"] += 1
            continue
        if decision.guess == optimal_guess:
            continue
        summary["differing"] += 1
        q_value = exact.value_after(state, decision.guesses_left, decision.guess)
        regret = math.inf if q_value is None else q_value - value
        if regret > 0:
            summary["with_regret"] += 1
            regrets.append(DecisionRegret(
                [word_list.answers[a] for a in state], int(decision.guesses_left),
                word_list.guesses[decision.guess], word_list.guesses[optimal_guess], int(value),
                q_value, regret))
    regrets.sort(key=lambda r: (-r.regret, -len(r.state), r.state))
    return regrets, summary
