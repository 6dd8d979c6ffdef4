"""Values, not strings: modes, settings, objectives, statuses and rules are enums, and no code
compares one against a string literal outside the module that defines its enum."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The names of every enum value a comparison might spell out as text.
VALUES = ("best found", "exact", "solved", "tree", "solver", "heuristic", "games", "auto", "answers",
          "guesses", "minimax", "expectimax", "normal", "hard", "ultra", "total", "worst", "standard", "yellow",
          "lower_bound", "adversarial", "fewest-clues", "lowest-code", "float", "weighted")
_ALTERNATIVES = "|".join(map(re.escape, VALUES))
COMPARISON = re.compile(r"""(==|!=|\bis\b|\bin\s*[([{])\s*["'](""" + _ALTERNATIVES + r""")["']""")


def test_no_mode_status_or_setting_is_compared_with_a_literal():
    found = []
    for path in sorted([*(ROOT / "solver").rglob("*.py"), *(ROOT / "policy_tree").rglob("*.py")]):
        if path.name.endswith("_kernel.py"):
            continue  # kernels compare integer codes
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if COMPARISON.search(code) and not re.search(r"\bfor \w+ in \(", code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []


def test_the_enums_read_their_names_and_serialise_as_them(atch):
    from solver.evaluation.scoring import ScoringMode, score_policy
    from solver.exact.proofs.results import OpenerStatus, OpenerValue
    from solver.game.absurdle import TieRule, check_tie
    from solver.game.errors import InputError
    from solver.game.spec import Mode
    from solver.policies.belief import BeliefSetting, check_belief
    from solver.policies.classic import DepthOneObjective
    from solver.policies.mig import TieReading
    from solver.policies.registry import make_policy

    word_list, table = atch
    assert check_belief(" Guesses ") is BeliefSetting.GUESSES
    with pytest.raises(InputError):
        check_belief("everything")
    assert check_tie("fewest-clues") is TieRule.FEWEST_CLUES
    assert OpenerValue("salet", "lower_bound", 7921, 0.0).status is OpenerStatus.LOWER_BOUND
    minimax = make_policy("minimax1", word_list, table)
    assert minimax.objective is DepthOneObjective.MINIMAX and minimax.name == "minimax1"
    assert make_policy("mig_a_float", word_list, table).ties is TieReading.FLOAT
    scored = score_policy(minimax, word_list.answers[0], game_mode="hard")
    assert scored.mode is ScoringMode.TREE and scored.game_mode is Mode.HARD
    assert scored.belief is BeliefSetting.ANSWERS and f"{scored.mode}" == "tree"
    with pytest.raises(ValueError, match="mode must be 'tree', 'games' or 'auto'"):
        score_policy(minimax, word_list.answers[0], mode="sometimes")
