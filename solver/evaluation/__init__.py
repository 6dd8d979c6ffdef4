"""Evaluation: policies scored from an opener against every answer, regret against the optimum,
the analysis of a finished game (regret and luck per move), logged games scored, exact rewards,
and the environments (Gymnasium, text, verifiers) that give them to agents."""
