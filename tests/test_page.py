"""The page as a player meets it: whole games played in headless Chromium (Playwright driving
Debian's chromium)."""

from __future__ import annotations

import os
import re
import time

import pytest

from webserver import ROOT, serve

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def server():
    yield from serve()


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (.ci/run installs it)")
def test_a_whole_game_in_headless_chromium(server, warm_assist_kernels):
    """Play crony as the tree does: each suggestion shown must be the tree's next guess; set
    the tiles by clicking (gray → yellow → green); at the end the analysis shows one row per
    move, each with regret 0. Screenshots go to docs/img/."""
    import policy_tree
    from playwright.sync_api import expect, sync_playwright

    from solver.game.feedback import code_to_text

    tree = policy_tree.load(ROOT / "artifacts" / "legacy-normal-salet.msgpack")
    game = tree.game("crony")
    shots = ROOT / "docs" / "img"
    shots.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 900, "height": 1100})
        page.goto(server)
        for number, (guess, code) in enumerate(game, start=1):
            expect(page.locator("#suggestion")).to_have_text(guess, timeout=20_000)
            # every move, the opener included: the shipped tree records the opener proof
            expect(page.locator("#status")).to_have_text("(exact, from the tree)")
            page.click("#use-suggestion")
            row = page.locator("#board .row").nth(number - 1)
            for i, colour in enumerate(code_to_text(code)):
                for _ in range("byg".index(colour)):
                    row.locator(".tile").nth(i).click()
            expect(row.locator(".tile").nth(0)).to_have_class(re.compile(f"tile {code_to_text(code)[0]}"))
            page.click("#submit-row")
            if number == 2:
                remaining = len(tree.remaining_answers(game[:2]))
                expect(page.locator("#remaining-count")).to_have_text(f"{remaining} answers remain")
                expect(page.locator("#alternatives tbody tr")).to_have_count(5, timeout=20_000)
                first_alt = page.locator("#alternatives tbody tr").nth(0).locator("td").nth(1)
                expect(first_alt).to_have_text(tree.next_guess(game[:2]))
                page.screenshot(path=str(shots / "web-next.png"), full_page=True)
        expect(page.locator("#analysis tbody tr")).to_have_count(len(game), timeout=30_000)
        regrets = page.locator("#analysis tbody tr td:nth-child(6)").all_inner_texts()
        assert [r.rstrip("*") for r in regrets] == ["0.000"] * len(game)
        expect(page.locator("#summary")).to_contain_text(f"won in {len(game)} guesses; total regret 0.000")
        page.screenshot(path=str(shots / "web-analysis.png"), full_page=True)
        started = time.perf_counter()
        page.click("#undo")
        expect(page.locator("#suggestion")).to_have_text(game[-1][0], timeout=10_000)
        assert time.perf_counter() - started < 5
        browser.close()


@pytest.fixture(scope="module")
def fresh_server(tmp_path_factory):
    """A server with an empty user cache: an opener with no shipped tree is solved anew."""
    from solver.game.feedback import feedback_table, table_cache_path
    from solver.game.wordlists import load_word_list

    cache = tmp_path_factory.mktemp("cache")
    word_list = load_word_list("legacy")
    feedback_table(word_list)  # the feedback table is shared (built once), not the trees
    shared = table_cache_path(word_list)
    (cache / shared.name).symlink_to(shared)  # the table's name, in the cache directory
    yield from serve(dict(os.environ, EXACT_WORDLE_CACHE=str(cache)))


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian's chromium (.ci/run installs it)")
def test_a_lost_game_at_phone_size_in_headless_chromium(fresh_server):
    """At 390×844, a game opened with CATCH (no shipped tree: the page shows the progress of
    its solve) and lost after six guesses (the answer was HATCH) is entered row by row, the
    last guesses answered although the game can no longer be won, and analysed: six rows,
    every value shown (the last moves marked +1, valued past the sixth guess), not won."""
    from playwright.sync_api import expect, sync_playwright

    from solver.game.feedback import code_to_text, feedback_code
    from solver.game.wordlists import load_word_list

    guesses = ["catch", "batch", "latch", "match", "patch", "watch"]
    answers = load_word_list("legacy").answers
    left = [sum(all(feedback_code(g, a) == feedback_code(g, "hatch") for g in guesses[:k])
                for a in answers) for k in range(1, 7)]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(fresh_server)
        expect(page.locator("#suggestion")).to_have_text("salet", timeout=20_000)
        saw_progress = False
        for number, guess in enumerate(guesses, start=1):
            page.fill("#guess-input", guess)
            page.click("#add-guess")
            row = page.locator("#board .row").nth(number - 1)
            for i, colour in enumerate(code_to_text(feedback_code(guess, "hatch"))):
                for _ in range("byg".index(colour)):
                    row.locator(".tile").nth(i).click()
            page.click("#submit-row")
            if number == 1:  # CATCH's tree is being solved: the progress line says so
                try:
                    expect(page.locator("#progress")).to_contain_text("solving the CATCH tree", timeout=5_000)
                    saw_progress = True
                except AssertionError:
                    pass
            n = left[number - 1]
            expect(page.locator("#remaining-count")).to_have_text(
                f"{n} answer{'s remain' if n != 1 else ' remains'}", timeout=120_000)
            expect(page.locator("#error")).to_have_text("")
        assert saw_progress
        expect(page.locator("#analysis tbody tr")).to_have_count(6, timeout=120_000)
        cells = page.locator("#analysis tbody tr td").all_inner_texts()
        assert "?" not in cells
        v_column = page.locator("#analysis tbody tr td:nth-child(4)").all_inner_texts()
        assert v_column[-1].endswith("+1") and not v_column[0].endswith("+1")
        expect(page.locator("#summary")).to_contain_text("not won in 6 guesses")
        # no sideways scrolling at phone width: the tables scroll inside their own box
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        browser.close()
