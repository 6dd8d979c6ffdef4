// exact-wordle page: the board, the tile colours, and the calls to /api/next and /api/analyse.
"use strict";
const LETTERS = "byg";
const state = { rows: [], words: "legacy", mode: "normal", budget: 2, ticket: 0 };
const $ = (id) => document.getElementById(id);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// POST, repeated while the server builds the opener's tree (202), showing its progress.
async function post(path, body, ticket) {
  for (;;) {
    const response = await fetch(path, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
    if (response.status !== 202) { $("progress").textContent = ""; return data; }
    if (ticket !== undefined && ticket !== state.ticket) return data;
    const b = data.building;
    $("progress").textContent = `solving the ${b.opener.toUpperCase()} tree (first use of this opener; `
      + `kept for next time): ${b.done} of ${b.total} answers`;
    await sleep(500);
  }
}

function history() {
  return state.rows.filter((r) => r.done)
    .map((r) => ({ guess: r.guess, feedback: r.colours.map((c) => LETTERS[c]).join("") }));
}

function pending() {
  const last = state.rows[state.rows.length - 1];
  return last && !last.done ? last : null;
}

function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  state.rows.forEach((row, r) => {
    const div = document.createElement("div");
    div.className = "row" + (row.done ? " done" : "");
    div.dataset.row = r;
    [...row.guess].forEach((letter, i) => {
      const tile = document.createElement("button");
      tile.type = "button";
      tile.className = "tile " + LETTERS[row.colours[i]];
      tile.textContent = letter;
      tile.dataset.index = i;
      tile.setAttribute("aria-label", `${letter} ${["gray", "yellow", "green"][row.colours[i]]}`);
      if (!row.done) {
        tile.addEventListener("click", () => { row.colours[i] = (row.colours[i] + 1) % 3; drawBoard(); });
      }
      div.appendChild(tile);
    });
    board.appendChild(div);
  });
  $("submit-row").disabled = !pending();
}

function showError(text) { $("error").textContent = text || ""; }

function fmt(x, digits = 3) { return x === null || x === undefined ? "?" : x.toFixed(digits); }

function showAdvice(a) {
  $("suggestion").textContent = a.next_guess || "—";
  if (a.status === "solved") {
    $("status").textContent = "(solved)";
    $("value").textContent = "";
  } else if (a.status === "exact") {
    $("status").textContent = `(exact, from the ${a.source})`
      + (a.extra_guesses ? ` — not every answer can be won within the guesses left; valued as if the game went on (+${a.extra_guesses})` : "");
    $("value").textContent = `${fmt(a.expected_guesses, 5)} expected guesses from here (${a.value_total} over ${a.answers_remaining} answers)`;
  } else {
    $("status").textContent = "(best found, not proven)";
    const worth = a.value_total === null ? "no exact value found in time"
      : `${fmt(a.expected_guesses, 5)} expected guesses`;
    $("value").textContent = `${worth}; the optimum is at least ${fmt(a.lower_bound_expected, 5)} (proven lower bound)`;
  }
  const n = a.answers_remaining;
  $("remaining-count").textContent = `${n} answer${n === 1 ? " remains" : "s remain"}`;
  $("remaining-list").textContent = n <= 30 ? ": " + a.answers.join(", ") : "";
}

function showAlternatives(a) {
  const body = $("alternatives").querySelector("tbody");
  body.replaceChildren();
  a.alternatives.forEach((alt, i) => {
    const tr = document.createElement("tr");
    for (const text of [String(i + 1), alt.guess, fmt(alt.expected, 5), alt.could_be_answer ? "yes" : "no"]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  });
  $("alternatives-note").textContent = a.alternatives.length === 0 ? "" : a.alternatives_complete
    ? "the best guesses, exact Q-values" : "guesses valued exactly within the time budget (not proven to be the best)";
}

function showAnalysis(g) {
  $("analysis-section").hidden = false;
  const body = $("analysis").querySelector("tbody");
  body.replaceChildren();
  for (const m of g.moves) {
    const tr = document.createElement("tr");
    const star = m.value_exact ? "" : "*";
    const extra = m.extra_guesses ? ` +${m.extra_guesses}` : "";
    const cells = [m.number, m.guess, m.answers_before, fmt(m.v_star) + star + extra,
      m.q_loses ? "loses" : fmt(m.q_star) + extra, m.regret === null ? (m.q_loses ? "∞" : "?") : fmt(m.regret) + star,
      m.luck === null ? "?" : (m.luck >= 0 ? "+" : "") + fmt(m.luck), m.optimal_guess || "?"];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = String(text);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  const regret = g.total_regret === null ? "?" : fmt(g.total_regret);
  const luck = g.total_luck === null ? "?" : (g.total_luck >= 0 ? "+" : "") + fmt(g.total_luck);
  $("summary").textContent = `${g.won ? "won" : "not won"} in ${g.guesses} guesses; total regret ${regret}, luck ${luck}`
    + (g.moves.some((m) => m.extra_guesses) ? " (+N: valued as if the game went on N guesses past the sixth)" : "")
    + (g.all_values_exact ? "" : " (* best found within the time budget, not proven)");
}

async function refresh() {
  const ticket = ++state.ticket;
  const body = { words: state.words, mode: state.mode, history: history() };
  $("analysis-section").hidden = true;
  showAlternatives({ alternatives: [] });
  $("alternatives-note").textContent = "";
  try {
    const advice = await post("/api/next", { ...body, top: 0 }, ticket);
    if (ticket !== state.ticket) return;
    showError("");
    showAdvice(advice);
    if (advice.status === "solved" || body.history.length >= 6) {
      $("alternatives-note").textContent = "analysing the game…";
      const analysis = await post("/api/analyse", { ...body, budget: state.budget }, ticket);
      if (ticket !== state.ticket) return;
      $("alternatives-note").textContent = "";
      showAnalysis(analysis);
      return;
    }
    $("alternatives-note").textContent = "valuing the alternatives…";
    const full = await post("/api/next", { ...body, top: 5, budget: state.budget }, ticket);
    if (ticket !== state.ticket) return;
    showAlternatives(full);
  } catch (err) {
    if (ticket !== state.ticket) return;
    showError(err.message);
    return err;
  }
}

function addGuess(word) {
  word = word.trim().toLowerCase();
  if (!/^[a-z]{5}$/.test(word)) { showError(`'${word}' is not a word of 5 letters a-z`); return; }
  if (state.rows.filter((r) => r.done).length >= 6) { showError("a game has at most 6 guesses"); return; }
  showError("");
  const row = pending();
  if (row) { row.guess = word; row.colours = [0, 0, 0, 0, 0]; }
  else state.rows.push({ guess: word, colours: [0, 0, 0, 0, 0], done: false });
  $("guess-input").value = "";
  drawBoard();
}

async function submitRow() {
  const row = pending();
  if (!row) return;
  row.done = true;
  drawBoard();
  const failed = await refresh();
  if (failed) { row.done = false; drawBoard(); }
}

async function init() {
  const config = await (await fetch("/api/config")).json();
  state.budget = config.default_budget;
  const select = $("words");
  for (const list of config.lists) {
    const option = document.createElement("option");
    option.value = list.name;
    option.textContent = list.title;
    select.appendChild(option);
  }
  state.words = config.default_list;
  select.addEventListener("change", () => { state.words = select.value; state.rows = []; drawBoard(); refresh(); });
  const mode = $("mode");
  mode.addEventListener("change", () => { state.mode = mode.value; state.rows = []; drawBoard(); refresh(); });
  $("guess-form").addEventListener("submit", (e) => { e.preventDefault(); addGuess($("guess-input").value); });
  $("use-suggestion").addEventListener("click", () => addGuess($("suggestion").textContent));
  $("submit-row").addEventListener("click", submitRow);
  $("undo").addEventListener("click", () => { state.rows.pop(); drawBoard(); refresh(); });
  $("new-game").addEventListener("click", () => { state.rows = []; drawBoard(); refresh(); });
  drawBoard();
  refresh();
}

init();
