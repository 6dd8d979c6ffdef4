"""The web server (solver.web.app, solver.cli.serve): the JSON endpoints against the API, every bad
input a 4xx with its message. The page itself is tested in a browser in tests/test_page.py."""

from __future__ import annotations

from solver.game.spec import Game
import pytest

from webserver import ROOT

pytestmark = pytest.mark.timed  # the API's answers within a budget are compared to advise's


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from solver.web.app import create_app

    with TestClient(create_app(["legacy"], budget_cap=5.0, allow_hosts=["testserver"])) as test_client:
        yield test_client


def rows(*tokens):
    return [{"guess": t.split(":")[0], "feedback": t.split(":")[1]} for t in tokens]


@pytest.mark.slow
def test_next_is_the_assist_api(client, legacy_table, warm_assist_kernels):
    from collections import Counter

    import policy_tree

    from solver.evaluation.assist import advise_game as advise
    from solver.evaluation.openers import opener_report
    from solver.game.feedback import feedback_code

    word_list, table = legacy_table
    tree = policy_tree.load(ROOT / "artifacts" / "legacy-normal-salet.msgpack")
    for tokens, top in ((["salet:bbbby", "crane:bbbbb"], 5), (["salet:bbbby"], 0), ([], 0)):
        response = client.post("/api/next", json={"words": "legacy", "history": rows(*tokens),
                                                  "top": top, "budget": 5})
        assert response.status_code == 200
        got = response.json()
        if got.pop("alternatives_pending", False):  # answered at once; the alternatives follow
            got = client.post("/api/next", json={"words": "legacy", "history": rows(*tokens), "top": top,
                                                 "budget": 5, "follow": True}).json()
        expected = advise(Game(word_list), tokens, top=top, budget=5, tree=tree, table=table).to_json()
        got.pop("seconds"), expected.pop("seconds")
        # how good the first guess is: the opener tables' report, without a search (none yet
        # for the empty history)
        report = opener_report(word_list, "normal", tokens[0].split(":")[0], search=False) if tokens else None
        assert got.pop("opener_report") == (report.as_dict() if report and report.value is not None else None)
        assert not tokens or report.value == 7920  # SALET, the best opener, from the shipped table
        splits, _ = got.pop("splits"), expected.pop("splits")
        # the page's why: how the next guess and each alternative split the answers left
        assert set(splits) == {got["next_guess"], *(a["guess"] for a in got["alternatives"])}
        for guess, split in splits.items():
            sizes = Counter(feedback_code(guess, answer) for answer in got["answers"])
            assert split["class_sizes"] == sorted(sizes.values(), reverse=True)
            assert split["could_be_answer"] == (guess in got["answers"])
        if expected["status"] == "exact":
            assert got == expected
        else:  # every state here is exact (the tree records the opener proof)
            raise AssertionError(f"{tokens}: {expected['status']}")
    analysis = client.post("/api/analyse", json={"history": rows("salet:bbbby", "crane:bybbb",
                                                                 "birth:ggggg"), "budget": 2}).json()
    assert analysis["moves"][1]["regret_fraction"] == "21/43"
    assert [(m["split"]["guess"], m["optimal_split"]["guess"]) for m in analysis["moves"]] == \
        [("salet", "salet"), ("crane", "north"), ("birth", analysis["moves"][2]["optimal_guess"])]
    salet = Counter(feedback_code("salet", answer) for answer in word_list.answers)
    assert analysis["moves"][0]["split"]["class_sizes"] == sorted(salet.values(), reverse=True)
    # the same game as the guesses and the answer, or the guesses and the shared grid
    for extra in ({"answer": "birth"}, {"grid": "Wordle 1,234 3/6\n\n⬜⬜⬜⬜🟨\n⬜🟨⬜⬜⬜\n🟩🟩🟩🟩🟩"}):
        again = client.post("/api/analyse", json={"guesses": ["salet", "crane", "birth"], "budget": 2,
                                                  **extra}).json()
        assert again["moves"] == analysis["moves"] and again["mode"] == "normal"
    starred = client.post("/api/analyse", json={"guesses": ["salet", "crane"], "grid": "3/6*\n⬜⬜⬜⬜🟨\n🟩🟩🟩🟩🟩"})
    assert starred.status_code == 400 and "crane" in starred.json()["error"]


@pytest.mark.parametrize("body, fragment", [
    ({"words": "elvish"}, "words must be one of legacy"),
    ({"history": "salet:bbbbb"}, "history must be a list"),
    ({"history": rows("salet:bbbbq")}, "guess 1 (salet): feedback 'bbbbq' is not five of b/y/g"),
    ({"history": rows("sal3t:bbbbb")}, "guess 1: 'sal3t' is not a word of 5 letters"),
    ({"history": rows("zzzzz:bbbbb")}, "guess 1: 'zzzzz' is not an allowed guess"),
    ({"history": rows("salet:bbbby", "crane:ggggg")}, "no answer and no allowed guess fits the history: after guess 2"),
    ({"history": rows(*["salet:bbbbb"] * 7)}, "a game has at most 6"),
    ({"budget": 60}, "budget must be a number of seconds in (0, 5]"),
    ({"budget": "1"}, "budget must be a number"),
    ({"top": -1}, "top must be a whole number from 0 to 10"),
    ({"follow": "yes"}, "follow must be true or false, got 'yes'"),
    ({"mode": "ultra", "history": rows("salet:bbbbg", "toast:bbbbg")},
     "guess 2 (toast) is not allowed in ultra-hard mode: had it been the answer, salet would have "
     "shown yybbg, not bbbbg"),
    ({"mode": "extreme"}, "mode must be one of normal, hard, ultra"),
])
def test_bad_requests_are_400_with_the_message(client, body, fragment):
    response = client.post("/api/next", json=body)
    assert response.status_code == 400 and fragment in response.json()["error"], response.text


def test_feedback_is_read_as_the_command_line_reads_it(client):
    """The page's API took b/y/g only; the CLI's parser also takes 0/1/2 and the squares."""
    answers = [client.post("/api/next", json={"history": [{"guess": "salet", "feedback": feedback}],
                                              "top": 0, "budget": 2}).json()
               for feedback in ("bbbby", "BBBBY", "00001", "⬛⬛⬛⬛🟨", "⬜⬜⬜⬜🟨")]
    assert all(a["history"] == ["salet:bbbby"] for a in answers), answers
    assert len({a["next_guess"] for a in answers}) == 1
    response = client.post("/api/next", json={"history": [{"guess": "salet", "feedback": "0000"}]})
    assert response.status_code == 400
    assert response.json()["error"] == ("guess 1 (salet): feedback '0000' is not five of b/y/g "
                                        "(gray/yellow/green), 0/1/2, or ⬛🟨🟩 squares")


@pytest.mark.parametrize("name", ["wordfreq-4", "wordfreq-6", "wordfreq-7"])
def test_the_page_refuses_a_list_it_cannot_play(name):
    """The page plays five-letter words: serving a six-letter list answered every guess with
    an error about the guess's length, or the grid's, that the user could do nothing about."""
    from solver.game.errors import InputError
    from solver.web.app import create_app

    with pytest.raises(InputError) as caught:
        create_app(["legacy", name], warm=False)
    letters = name[-1]
    assert str(caught.value) == (
        f"{name!r} has {letters}-letter words, but the page plays 5-letter Wordle only (its board, "
        f"keyboard and shared grids): offer legacy, nyt-2024; `python -m tools.assist --words "
        f"{name}` plays {name}")


def test_a_body_that_is_not_json_is_400(client):
    response = client.post("/api/next", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 400 and response.json() == {"error": "the request body is not JSON"}
    assert client.get("/api/next").status_code == 405


def test_a_post_must_say_json(client):
    response = client.post("/api/next", content=b"{}", headers={"content-type": "text/plain"})
    assert response.status_code == 415 and "Content-Type: application/json" in response.json()["error"]


def test_config_names_the_lists():
    from starlette.testclient import TestClient

    from solver.web.app import create_app

    with TestClient(create_app(["nyt-2024", "legacy"], warm=False, allow_hosts=["testserver"])) as client:
        config = client.get("/api/config").json()
    assert [item["name"] for item in config["lists"]] == ["nyt-2024", "legacy"]
    assert config["lists"][1]["title"] == "Original 2022 lists" and config["default_list"] == "nyt-2024"
    assert config["modes"] == ["normal", "hard", "ultra"]


