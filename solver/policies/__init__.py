"""The policies scored against the exact optimum (docs/algorithms.md §8): the interface
(:mod:`solver.policies.base`), MIG, rollout, UCT, the exact tree as a policy, the classic and
noisy agents, and the registry that builds a policy by name."""
