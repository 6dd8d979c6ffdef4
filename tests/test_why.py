"""Why a guess is best: how it splits the answers left (solver.game.feedback.feedback_classes,
solver.exact.advice.Split), in the advice (``splits``) and in each move of an analysis
(``split``, ``optimal_split``), against the class sizes counted with the plain feedback rule."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from conftest import numpy_sub_list, state_of
from solver.exact.service import SearchService
from solver.game.feedback import code_to_text, feedback_classes, feedback_code
from solver.game.spec import Game

pytestmark = pytest.mark.kernels


def brute_sizes(word_list, state, guess) -> Counter:
    """feedback code -> answers of ``state`` it leaves, by the plain rule (tests' twin)."""
    return Counter(feedback_code(guess, word_list.answers[int(a)]) for a in state)


def test_the_atch_splits_by_hand(atch):
    """HATCH against the four -atch answers: its own green, and the three others alike (one
    class of 3, nobody found next turn); LYMPH gives each answer its own feedback (4 classes
    of 1: the next guess wins for every answer)."""
    word_list, table = atch
    service = SearchService(Game(word_list), table=table, book=False, cache=False)
    state = state_of(word_list, ["hatch", "latch", "match", "patch"])
    hatch = service.split(state, "hatch")
    assert (hatch.class_sizes, hatch.could_be_answer, hatch.classes, hatch.largest, hatch.solved_next) \
        == ((3, 1), True, 2, 3, 0)
    lymph = service.split(state, "lymph")
    assert (lymph.class_sizes, lymph.could_be_answer, lymph.solved_next) == ((1, 1, 1, 1), False, 4)
    codes, sizes = feedback_classes(table[word_list.guess_index("lymph")], state)
    assert [code_to_text(c) for c in codes] == ["bbbbg", "gbbbg", "bbybg", "bbbyg"]  # hatch latch match patch
    assert sizes.tolist() == [1, 1, 1, 1]
    assert lymph.to_json() == {"guess": "lymph", "class_sizes": [1, 1, 1, 1], "classes": 4, "largest": 1,
                               "solved_next": 4, "could_be_answer": False}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_feedback_classes_agree_with_the_plain_rule(seed):
    """Every guess of a random small list on random states: the codes (ascending) and sizes of
    the partition kernel are the plain rule's counts, and a Split's figures follow from them."""
    word_list, table = numpy_sub_list(seed, 40, 30, use_cache=False)
    service = SearchService(Game(word_list), table=table, book=False, cache=False)
    rng = random.Random(seed)
    for _ in range(10):
        state = np.array(sorted(rng.sample(range(word_list.n_answers), rng.randint(1, 40))), dtype=np.int32)
        for guess in rng.sample(word_list.guesses, 15):
            expected = brute_sizes(word_list, state, guess)
            codes, sizes = feedback_classes(table[word_list.guess_index(guess)], state)
            assert dict(zip(codes.tolist(), sizes.tolist())) == expected
            assert codes.tolist() == sorted(expected)
            split = service.split(state, guess)
            assert split.class_sizes == tuple(sorted(expected.values(), reverse=True))
            assert split.could_be_answer == (guess in {word_list.answers[int(a)] for a in state})
            assert split.solved_next == sum(1 for code, n in expected.items() if n == 1 and code != 242)


def test_the_advice_and_the_analysis_carry_the_splits():
    """The advice has a split for its next guess and every alternative; each move of an
    analysis has its guess's split and the optimal guess's, over the answers before the move."""
    from solver.evaluation.analysis import analyse_game

    word_list, table = numpy_sub_list(7, 30, 20, use_cache=False)
    service = SearchService(Game(word_list), table=table, book=False, cache=False)
    answer = word_list.answers[5]
    first = next(g for g in word_list.guesses if feedback_code(g, answer) != 242)
    history = [(first, code_to_text(feedback_code(first, answer)))]
    assert service.advise(history, top=3).splits == {}  # only when asked for (the kernel's load)
    advice = service.advise(history, top=3, splits=True)
    state = service.state_after(service.normalise(history))
    assert set(advice.splits) == {advice.next_guess, *(a.guess for a in advice.alternatives)}
    for guess, split in advice.splits.items():
        assert split.class_sizes == tuple(sorted(brute_sizes(word_list, state, guess).values(), reverse=True))
    assert advice.to_json()["splits"][advice.next_guess] == advice.splits[advice.next_guess].to_json()
    history.append((answer, "ggggg"))
    assert analyse_game(service.game, history, service=service).to_json()["moves"][0]["split"] is None
    analysis = analyse_game(service.game, history, service=service, splits=True).to_json()
    everything = np.arange(word_list.n_answers, dtype=np.int32)
    for move, before in zip(analysis["moves"], [everything, state]):
        assert move["optimal_guess"] is not None or move["optimal_split"] is None
        for key, guess in (("split", move["guess"]), ("optimal_split", move["optimal_guess"])):
            if guess is None:
                continue
            sizes = brute_sizes(word_list, before, guess)
            assert move[key]["guess"] == guess
            assert move[key]["class_sizes"] == sorted(sizes.values(), reverse=True)
    solved = service.advise(history, top=3, splits=True)
    assert solved.splits == {} and solved.to_json()["splits"] == {}
