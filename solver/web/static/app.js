// exact-wordle's page: the board (typed or on-screen keyboard, feedback typed as b/y/g or 0/1/2
// or set by tapping tiles), the calls to /api/next and /api/analyse, and the analysis with its
// explanations and a shareable text result. Plain DOM, no framework, nothing from a CDN.
"use strict";

const LENGTH = 5;
const LIMIT = 6;
const COLOURS = "byg";
const SQUARES = ["⬜", "🟨", "🟩"];
const STORE = "exact-wordle-game";
const THEME = "exact-wordle-theme";
const PALETTE = "exact-wordle-palette";
// What a tile's and a key's colour says, in words (screen readers read these). The colours are
// named as the palette draws them: the high-contrast one (style.css) draws "present" blue and
// "placed" orange, and a player who hears "yellow" sees no yellow.
const colourNames = () => (document.documentElement.dataset.palette === "contrast"
  ? ["gray", "blue", "orange"] : ["gray", "yellow", "green"]);
const MEANINGS = ["not in the word", "in the word, elsewhere", "in place"];
const tileWords = (c) => `${colourNames()[c]}: ${MEANINGS[c]}`;
const KEY_WORDS = ["", "ruled out", "present", "placed"];

// How a game's scores come from its moves' (tools.analyse's summary says the same): its regrets
// add up, its scores do not, so moves of 98, 50 and 66 make a game of 40.
const GAME_SCORES = "Game skill is scored from the total regret of the game, not averaged over moves "
  + "(game luck likewise from the total luck).";

// Plain-words explanations: the table headers' notes (hover or tap) and the explainer section.
const TERMS = {
  v: "V* is the number of guesses you still need on average from this position, counting the "
    + "next one, if every guess from here on is the best one (each answer still possible is "
    + "equally likely).",
  q: "Q* is the same average if you play this guess and then play perfectly. The best guesses "
    + "have Q* = V*.",
  regret: "Regret is Q* − V*: how many guesses this choice cost you on average compared with the "
    + "best guess. 0 means it was a best guess (there are often several). This is the skill part.",
  luck: "Luck is how much better (+) or worse (−) the feedback you got was than the average "
    + "feedback of this guess: the guesses you expected to still need after it (Q* − 1) minus "
    + "those you need now (V* of the new position). Over all answers it averages 0.",
  answers: "How many answers were still possible before this guess → after its feedback.",
  summary: "Total regret measures your choices (0 is perfect play); total luck measures the "
    + "feedback you were dealt. Perfect play's V* at the start, plus total regret, minus total "
    + "luck, is exactly the number of guesses the game took (a lost game: plus what the answers "
    + "left would still take).",
  skill: "Skill from 0 to 99, from the regret: 99 only for a best guess, 49 at half a guess "
    + "of regret, 33 at one guess (⌊99 · ½ / (½ + regret)⌋). " + GAME_SCORES,
  luckScore: "Luck from 0 to 99, from the luck: 50 when the feedback was as good as expected, "
    + "more when it was kinder, less when it was not.",
  answer: "Whether this guess is one of the answers still possible: only such a guess can win on "
    + "this turn. A guess that cannot be the answer sometimes splits the rest better.",
  unknown: "? means not known: the search ran out of its time budget before proving the value. "
    + "A * marks the best value found in time, not proven optimal (the true value is no larger).",
  lost: "!: this guess leaves an answer that can no longer be found for sure within six guesses; "
    + "its regret counts its Q* as if the limit were that many guesses later (+1, +2…), plus the "
    + "chance of being left with no sure win. +1 (or +2…) on V*: the position cannot be won for "
    + "sure in the guesses left; its values count as if the game went on past the sixth.",
  exact: "“Exact” means the suggestion is proven optimal: read from a decision tree solved in "
    + "advance, or solved now. “Best found, not proven” means the time budget ran out first: the "
    + "guess is the best found and a proven lower bound is shown.",
};
const TERM_LABELS = { v: "V*", q: "Q*", regret: "regret", luck: "luck", answers: "answers",
  answer: "could be the answer", skill: "skill", luckScore: "luck score" };

const state = {
  lists: [], words: "", mode: "normal", budget: 2, budgetCap: 2,
  longer: null,                               // the position last searched for the longest budget
  rows: [],                                   // submitted rows: {guess, colours: [0|1|2 ×5]}
  current: { letters: "", colours: [0, 0, 0, 0, 0], typed: 0 },
  ticket: 0, advice: null, analysis: null,
};
const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------- numbers --
function fmt(x, digits = 3) {
  if (x === null || x === undefined) return "?";
  const text = Math.abs(x).toFixed(digits);
  return (x < 0 && Number(text) !== 0 ? "−" : "") + text;
}
function signed(x, digits = 3) {
  if (x === null || x === undefined) return "?";
  const text = fmt(x, digits);
  return Number(Math.abs(x).toFixed(digits)) === 0 || text.startsWith("−") ? text : "+" + text;
}
const count = (n) => n.toLocaleString("en-US");
const plural = (n, one, many) => `${count(n)} ${n === 1 ? one : many}`;

// ----------------------------------------------------------------------------------- server --
// POST JSON; when it is busy (429: this client's searches, 503: everyone's) try again a few times. A newer
// request (a new ticket) aborts the older one, so that the server stops its work.
async function post(path, body, ticket) {
  if (state.controllerTicket !== ticket) {
    if (state.controller) state.controller.abort();
    state.controller = new AbortController();
    state.controllerTicket = ticket;
  }
  const signal = state.controller.signal;
  for (let busyTries = 0; ;) {
    let response, data;
    try {
      response = await fetch(path, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal,
      });
    } catch (err) {
      if (ticket !== state.ticket) return null;  // aborted: a newer request replaced it
      throw new Error("the server did not answer (is tools.serve still running?)");
    }
    const text = await response.text();
    try { data = JSON.parse(text); } catch (err) { data = { error: text.trim() || `HTTP ${response.status}` }; }
    if (ticket !== state.ticket) return null;
    const stopped = /ran past its budget/.test(data.error || "");  // would run out again
    if ((response.status === 429 || response.status === 503) && !stopped && busyTries < 4) {
      busyTries += 1;
      $("progress-text").textContent = `The server is busy (${data.error || response.status}); trying again…`;
      await sleep(700 * busyTries);
      if (ticket !== state.ticket) return null;
      continue;
    }
    if (!response.ok) { showProgress(null); throw new Error(data.error || `HTTP ${response.status}`); }
    showProgress(null);
    return data;
  }
}

// What the page is waiting for, said once a request has taken longer than a lookup would
// (the answer before it is greyed at once, and replaced by a dash then, so that it is never
// read as the answer to the new position); null: nothing.
function showProgress(text) {
  clearTimeout(state.progressTimer);
  const bar = $("progress-bar");
  bar.hidden = true;
  if (!text) { $("progress-text").textContent = ""; return; }
  state.progressTimer = setTimeout(() => {
    $("progress-text").textContent = text;
    $("suggestion").textContent = "…";
    $("status").textContent = "";
    $("value").textContent = "";
  }, 300);
}

function showError(text) { $("error").textContent = text || ""; }

// ------------------------------------------------------------------------------------- game --
const history = () => state.rows.map((r) => ({ guess: r.guess, feedback: r.colours.map((c) => COLOURS[c]).join("") }));
const won = () => state.rows.length > 0 && state.rows[state.rows.length - 1].colours.every((c) => c === 2);
const over = () => won() || state.rows.length >= LIMIT;

function save() {
  try {
    localStorage.setItem(STORE, JSON.stringify({ words: state.words, mode: state.mode, rows: state.rows }));
  } catch (err) { /* storage refused: the game is not kept across reloads */ }
}

function restore() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE) || "null");
    if (!saved || !state.lists.some((l) => l.name === saved.words)) return;
    state.words = saved.words;
    state.mode = saved.mode === "hard" || saved.mode === "ultra" ? saved.mode : "normal";
    state.rows = (saved.rows || []).filter((r) => /^[a-z]{5}$/.test(r.guess) && r.colours.length === LENGTH)
      .slice(0, LIMIT);
  } catch (err) { /* a stale or foreign value: start afresh */ }
}

function clearCurrent() { state.current = { letters: "", colours: [0, 0, 0, 0, 0], typed: 0 }; }

function setGuess(word) {
  if (over()) return;
  state.current = { letters: word.slice(0, LENGTH), colours: [0, 0, 0, 0, 0], typed: 0 };
  showError("");
  drawBoard();
  // the keys typed next (the colours, Enter) go to the board: a button keeping the focus would
  // take the next Enter, set the guess again and wipe the colours typed
  $("board").focus({ preventScroll: true });
}

function key(k) {
  if (over()) {
    if (/^[a-z]$|^enter$|^back$/.test(k)) showError("The game is over: New game, or Undo last row.");
    return;
  }
  const cur = state.current;
  const full = cur.letters.length === LENGTH;
  const colour = full ? (/^[012]$/.test(k) ? Number(k) : COLOURS.indexOf(k)) : -1;
  if (k.startsWith("colour-")) {
    if (!full) { showError("Type the 5 letters of the guess first, then its colours."); return; }
    setColour(Number(k.slice(7)));
  } else if (full && k.length === 1 && colour >= 0) {
    setColour(colour);
  } else if (/^[a-z]$/.test(k)) {
    if (full) {
      showError("The row is full: type its colours (b/y/g or 0/1/2) or tap the tiles, then Enter; ⌫ deletes.");
      return;
    }
    cur.letters += k;
    showError("");
  } else if (k === "back") {
    if (cur.typed > 0) { cur.typed -= 1; cur.colours[cur.typed] = 0; } else cur.letters = cur.letters.slice(0, -1);
    showError("");
  } else if (k === "enter") {
    submit();
    return;
  } else return;
  drawBoard();
}

function setColour(colour) {
  const cur = state.current;
  if (cur.typed >= LENGTH) { showError("All five colours are set: Enter submits the row; ⌫ undoes a colour."); return; }
  cur.colours[cur.typed] = colour;
  cur.typed += 1;
  showError("");
  drawBoard();
}

async function submit() {
  const cur = state.current;
  if (cur.letters.length !== LENGTH) { showError(`A guess has ${LENGTH} letters.`); return; }
  const row = { guess: cur.letters, colours: [...cur.colours] };
  state.rows.push(row);
  clearCurrent();
  drawBoard();
  save();
  const failed = await refresh();
  if (failed && state.rows[state.rows.length - 1] === row) {  // refused: back to the typing row
    state.rows.pop();
    state.current = { letters: row.guess, colours: row.colours, typed: LENGTH };
    drawBoard();
    save();
    showAnswered();  // the position before it, answered already: its answers again
  }
}

// ------------------------------------------------------------------------------------ board --
function tile(letter, colour, { button = false, next = false, label = "" } = {}) {
  const el = document.createElement(button ? "button" : "div");
  el.className = "tile" + (letter ? " filled" : "") + (colour === null ? "" : " " + COLOURS[colour])
    + (next ? " next" : "");
  el.textContent = letter;
  if (button) el.type = "button";
  else if (label) el.setAttribute("role", "img");  // a plain tile says its letter and colour
  if (label) el.setAttribute("aria-label", label);
  return el;
}

function drawBoard() {
  const board = $("board");
  board.replaceChildren();
  for (let r = 0; r < LIMIT; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "group");
    if (r < state.rows.length) {
      const done = state.rows[r];
      row.classList.add("done");
      row.setAttribute("aria-label", `guess ${r + 1}: ${done.guess.toUpperCase()}`);
      [...done.guess].forEach((letter, i) => row.appendChild(tile(letter, done.colours[i], {
        label: `${letter.toUpperCase()}, ${tileWords(done.colours[i])}` })));
    } else if (r === state.rows.length && !over()) {
      const cur = state.current;
      const full = cur.letters.length === LENGTH;
      row.classList.add("current");
      row.setAttribute("aria-label", `guess ${r + 1}, being typed`);
      for (let i = 0; i < LENGTH; i++) {
        const letter = cur.letters[i] || "";
        if (!full) { row.appendChild(tile(letter, null)); continue; }
        const t = tile(letter, cur.colours[i], {
          button: true, next: i === cur.typed,
          label: `${letter}, ${colourNames()[cur.colours[i]]}: tap to change the colour`,
        });
        t.addEventListener("click", (e) => {
          cur.colours[i] = (cur.colours[i] + 1) % 3;
          drawBoard();
          if (e.detail === 0) board.querySelectorAll(".row.current .tile")[i].focus();  // keyboard user
        });
        row.appendChild(t);
      }
    } else {
      for (let i = 0; i < LENGTH; i++) row.appendChild(tile("", null));
    }
    board.appendChild(row);
  }
  $("use-suggestion").disabled = over() || !state.advice || !state.advice.next_guess;
  $("analyse-now").disabled = state.rows.length === 0 || over();
  $("undo").disabled = state.rows.length === 0 && state.current.letters === "";
  colourKeys();
}

// --------------------------------------------------------------------------------- keyboard --
const KEY_ROWS = ["qwertyuiop", "asdfghjkl", "+zxcvbnm-"];

function buildKeyboard() {
  const keyboard = $("keyboard");
  for (const letters of KEY_ROWS) {
    const row = document.createElement("div");
    row.className = "key-row";
    for (const ch of letters) {
      const k = ch === "+" ? "enter" : ch === "-" ? "back" : ch;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "key" + (k.length > 1 ? " wide" : "");
      button.dataset.key = k;
      button.textContent = k === "enter" ? "Enter" : k === "back" ? "⌫" : k;
      // one Tab stop less per key: the player's own keyboard types (onKeydown); a screen reader
      // still reads and presses them
      button.tabIndex = -1;
      button.setAttribute("aria-label", k === "back" ? "delete" : k === "enter" ? "enter" : k.toUpperCase());
      row.appendChild(button);
    }
    keyboard.appendChild(row);
  }
  const colours = document.createElement("div");
  colours.className = "key-row colours";
  COLOURS.split("").forEach((letter, c) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `key colour ${letter}`;
    button.dataset.key = `colour-${c}`;
    button.tabIndex = -1;
    colours.appendChild(button);
  });
  keyboard.appendChild(colours);
  labelColourKeys();
  keyboard.addEventListener("click", (e) => {
    const button = e.target.closest("button.key");
    if (!button) return;
    key(button.dataset.key);
  });
}

// The colour keys say the colour they set, as the palette draws it (b/y/g stay the letters typed).
function labelColourKeys() {
  const names = colourNames();
  for (const button of document.querySelectorAll("#keyboard .key.colour")) {
    const c = Number(button.dataset.key.slice(7));
    const kbd = document.createElement("kbd");
    kbd.textContent = COLOURS[c];
    button.replaceChildren(`${names[c]} `, kbd);
    button.setAttribute("aria-label", `next tile ${names[c]} (${COLOURS[c]} or ${c})`);
  }
}

// Every colour named in words (the board's tiles, the colour keys, the analysis's squares),
// named again when the palette changes.
function labelColours() {
  labelColourKeys();
  drawBoard();
  for (const squares of document.querySelectorAll(".mini[data-feedback]")) labelSquares(squares);
}

function labelSquares(squares) {
  const names = colourNames();
  squares.setAttribute("aria-label", [...squares.dataset.feedback].map((c) => names[COLOURS.indexOf(c)]).join(" "));
}

// Keys coloured by what is known: green beats yellow beats absent (a letter may repeat).
function colourKeys() {
  const known = {};
  for (const row of state.rows) {
    [...row.guess].forEach((letter, i) => {
      const c = row.colours[i];
      const rank = c === 2 ? 3 : c === 1 ? 2 : 1;
      known[letter] = Math.max(known[letter] || 0, rank);
    });
  }
  for (const button of document.querySelectorAll("#keyboard .key[data-key]")) {
    const k = button.dataset.key;
    if (k.length !== 1) continue;
    button.classList.remove("absent", "present", "correct");
    const rank = known[k] || 0;
    if (rank) button.classList.add(["", "absent", "present", "correct"][rank]);
    button.setAttribute("aria-label", k.toUpperCase() + (rank ? `, ${KEY_WORDS[rank]}` : ""));
  }
}

function onKeydown(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const target = e.target;
  if (target.closest && target.closest("textarea, select, input:not([type=radio])")) return;
  let k = e.key.toLowerCase();
  if (["BUTTON", "SUMMARY", "A"].includes(target.tagName) && (k === "enter" || k === " ")) return;  // its own action
  if (k === "backspace") k = "back";
  if (!/^([a-z012]|enter|back)$/.test(k)) return;
  e.preventDefault();
  key(k);
}

// ---------------------------------------------------------------------------------- answers --
function busy(on) {
  for (const id of ["advice", "alternatives-section", "remaining-section"]) $(id).classList.toggle("waiting", on);
}

// Ask for the next guess with its alternatives, or the analysis once the game is over (or
// when asked: ``analyse``; ``analysis``: one already received, for a pasted game).
// ``budget``: seconds the position's search may take (the page's default budget, or the
// server's cap when the player asks to search longer). Returns the Error when the next guess
// could not be had (its panels then say so), else null.
async function refresh({ analysis = null, analyse = false, budget = state.budget } = {}) {
  const ticket = ++state.ticket;
  const key = positionKey();
  const body = { words: state.words, mode: state.mode, history: history() };
  const analysing = over() || analysis !== null || analyse;
  busy(true);
  showError("");
  showProgress(`Searching this position (at most ${fmt(budget, 0)} s)…`);
  let advice;
  try {
    // the next guess and its alternatives in one request, so that the position takes at most
    // the budget said: asked one after the other, each search took the whole budget (a 5 s
    // search took 10 s). A state on a tree is answered at once, its alternatives followed.
    advice = await post("/api/next", { ...body, top: analysing ? 0 : 5, budget }, ticket);
  } catch (err) {
    if (ticket !== state.ticket) return null;
    busy(false);
    showProgress(null);
    failed(`No next guess for this position: ${err.message}`);
    showError(err.message);
    return err;
  }
  if (ticket !== state.ticket) return null;
  state.advice = advice;
  state.answered = { key, advice, alternatives: analysing ? null : advice };
  showAdvice(advice);
  drawBoard();
  if (over()) recordFinished();  // kept now, whatever becomes of its analysis
  try {
    if (analysing) {
      $("alternatives-section").hidden = true;
      if (!analysis) {
        clearAnalysis("Analysing the game…");  // never the previous game's rows beside this board
        analysis = await post("/api/analyse", { ...body, budget: state.budget }, ticket);
        if (ticket !== state.ticket) return null;
      }
      showAnalysis(analysis);
    } else {
      $("analysis-section").hidden = true;
      $("alternatives-section").hidden = false;
      showAlternatives(advice);
      if (advice.alternatives_pending) {  // the rest are being proven: fill them in when they arrive
        $("alternatives-note").textContent = "Proving the other alternatives…";
        try {
          const full = await post("/api/next", { ...body, top: 5, budget, follow: true }, ticket);
          if (ticket !== state.ticket) return null;
          state.answered.alternatives = full;
          showAlternatives(full);
        } catch (err) {  // the guesses shown are this position's, as found at once: kept
          if (ticket !== state.ticket) return null;
          $("alternatives-note").textContent = `The other alternatives could not be proven: ${err.message}`;
        }
      }
    }
  } catch (err) {
    if (ticket !== state.ticket) return null;
    if (analysing) {  // the panel says what failed, with no rows of an earlier game, and offers again
      clearAnalysis("");
      $("summary").replaceChildren(`The analysis failed: ${err.message}.`);
      $("analysis-retry").hidden = false;
      showError(`The analysis failed: ${err.message}`);
    } else showError(err.message);
  }
  busy(false);
  return null;
}

// A position not answered: the advice, the alternatives and the answers left are emptied
// (never the previous position's beside the new board) and ``text`` says what failed.
function failed(text) {
  state.advice = null;
  document.querySelector("#advice .label").textContent = "next guess";
  $("suggestion").textContent = "—";
  $("suggestion").classList.remove("solved", "several", "count");
  $("status").textContent = text;
  $("value").textContent = "";
  $("longer-line").hidden = true;
  $("use-suggestion").classList.remove("invisible");
  $("use-suggestion").hidden = false;
  $("alternatives-section").hidden = over();
  showAlternatives({ alternatives: [], alternatives_complete: true });
  $("alternatives-note").textContent = "";
  $("remaining-section").hidden = false;
  $("remaining-count").textContent = "Answers remaining: not known";
  $("remaining-list").textContent = "";
  $("left-tree").textContent = "";
  $("analysis-section").hidden = true;
  clearAnalysis("");
  drawBoard();
}

// The answers of the position on the board, when it was answered already (a row refused goes
// back to the position before it).
function showAnswered() {
  const answered = state.answered;
  if (!answered || answered.key !== positionKey()) return;
  state.advice = answered.advice;
  showAdvice(answered.advice);
  if (answered.alternatives) {
    $("alternatives-section").hidden = false;
    showAlternatives(answered.alternatives);
  }
  drawBoard();
}

// The analysis panel emptied (its rows, summary, notes and the text to share), ``note`` shown.
function clearAnalysis(note) {
  state.analysis = null;
  $("analysis").querySelector("tbody").replaceChildren();
  $("summary").replaceChildren();
  $("analysis-note").textContent = note;
  $("analysis-retry").hidden = true;
  $("result-text").value = "";
  $("copy-status").textContent = "";
  if (note) $("analysis-section").hidden = false;
}

function showAdvice(a) {
  const solved = a.status === "solved";
  const lost = !solved && (a.game_over || state.rows.length >= LIMIT);
  const list = state.lists.find((l) => l.name === a.word_list);
  const game = `${list ? list.title : a.word_list} · ${a.mode}`;  // which game the advice is for
  const n = a.answers_remaining;
  // after a loss the word shown is the answer, or the answers it may have been (never the
  // best guess past the sixth: it read as the answer, PATCH for WATCH)
  const several = lost && n > 1;
  $("suggestion").textContent = solved ? state.rows[state.rows.length - 1].guess
    : !lost ? (a.next_guess || "—") : n === 1 ? a.answers[0]
      : n <= 3 ? a.answers.join(" / ") : `${count(n)} answers`;
  $("suggestion").classList.toggle("solved", solved);
  $("suggestion").classList.toggle("several", several);
  $("suggestion").classList.toggle("count", several && n > 3);
  document.querySelector("#advice .label").textContent = solved ? "solved"
    : lost ? (n === 1 ? "the answer" : "the answer was one of") : "next guess";
  let status = "", value = "";
  if (solved) {
    status = `Won in ${plural(state.rows.length, "guess", "guesses")}.`;
  } else if (lost) {
    status = a.answers_remaining === 1 ? "Not won in six guesses: this was the answer."
      : `Not won in six guesses: ${plural(a.answers_remaining, "answer was", "answers were")} still possible.`;
  } else if (a.status === "exact") {
    status = `Exact (${{tree: "decision tree", table: "opener table"}[a.source] || "solved now"}) · ${game}`;
    value = `V* = ${fmt(a.expected_guesses, 4)}: guesses to go, this one included.`;
    if (a.extra_guesses) value += ` Not every answer can be won in time: counted as if the game went on (+${a.extra_guesses}).`;
  } else {
    status = `Best found, not proven (time ran out) · ${game}`;
    value = (a.value_total === null ? "No value found in time" : `${fmt(a.expected_guesses, 4)} guesses to go with it`)
      + `; the best is at least ${fmt(a.lower_bound_expected, 4)}`
      + (a.gap_expected === null ? "." : ` (at most ${fmt(a.gap_expected, 4)} from optimal).`);
  }
  $("status").textContent = status;
  $("value").textContent = value;
  const opener = a.opener_report;  // how good the first guess is, from the opener tables
  $("opener-line").hidden = !opener;
  $("opener-line").textContent = opener ? openerLine(opener) : "";
  // not proven in time: the player may give the search the server's longest budget, once per position
  $("longer-line").hidden = solved || lost || a.status === "exact" || state.budgetCap <= state.budget
    || state.longer === positionKey();
  $("search-longer").textContent = `Search longer (up to ${fmt(state.budgetCap, 0)} s)`;
  $("remaining-section").hidden = solved;
  $("use-suggestion").classList.toggle("invisible", solved);
  $("use-suggestion").hidden = lost;  // room for the answers it may have been
  $("remaining-count").textContent = a.outside_list
    ? `No answer of the list fits: ${plural(n, "allowed guess does", "allowed guesses do")}`
    : `${count(n)} answer${n === 1 ? " remains" : "s remain"}`;
  $("remaining-list").textContent = a.answers.join(" ");
  $("remaining-details").open = n <= 12;
  labelRemaining();
  $("left-tree").textContent = a.left_tree || "";
}

// One line on the opener from the opener tables: its expected guesses, rank and the best.
function openerLine(o) {
  const name = o.opener.toUpperCase();
  if (o.value === "inf") return `Opener ${name}: no policy that opens with it wins every game within six.`;
  const among = o.decided === o.openers ? `of ${count(o.openers)} openers`
    : `among the ${count(o.decided)} openers decided so far`;
  const tie = o.tied ? `, tied with ${count(o.tied)}` : "";
  const best = o.gap ? `; the best, ${o.best.toUpperCase()}, ${fmt(o.best_value / o.answers, 5)}` : "";
  return `Opener ${name}: ${fmt(o.average, 5)} guesses per game with optimal play, rank ${o.rank}`
    + ` ${among}${tie}${best}.`;
}

// The position the advice is for: the list, the mode and the history.
function positionKey() {
  return JSON.stringify([state.words, state.mode, history()]);
}

function searchLonger() {
  state.longer = positionKey();
  $("longer-line").hidden = true;
  refresh({ budget: state.budgetCap });
}

function labelRemaining() {
  const details = $("remaining-details");
  const n = state.advice ? state.advice.answers_remaining : 0;
  details.querySelector("summary").textContent = details.open ? "hide the list"
    : n === 1 ? "show it" : n <= 12 ? "show them" : `show all ${count(n)}`;
}

// Always five rows (blank ones kept invisible), so that nothing below moves when they come.
function placeholderRow() {
  const tr = document.createElement("tr");
  tr.className = "blank";
  tr.setAttribute("aria-hidden", "true");
  const pick = document.createElement("button");
  pick.type = "button";
  pick.className = "pick word";
  pick.tabIndex = -1;
  pick.textContent = "·····";
  ["·", pick, "·", "·", ""].forEach((content, i) => {
    const td = document.createElement("td");
    if (i === 0) td.className = "rank";
    td.append(content);
    tr.appendChild(td);
  });
  return tr;
}

function showAlternatives(a) {
  const body = $("alternatives").querySelector("tbody");
  body.replaceChildren();
  a.alternatives.forEach((alt, i) => {
    const tr = document.createElement("tr");
    if (alt.guess === a.next_guess) tr.className = "best";
    const rank = document.createElement("td");
    rank.className = "rank";
    rank.textContent = String(i + 1);
    const guess = document.createElement("td");
    const pick = document.createElement("button");
    pick.type = "button";
    pick.className = "pick word";
    pick.textContent = alt.guess;
    pick.title = `type ${alt.guess} into the board`;
    pick.addEventListener("click", () => setGuess(alt.guess));
    guess.appendChild(pick);
    const q = document.createElement("td");
    q.textContent = fmt(alt.expected, 4) + (alt.exact ? "" : "*");
    const answer = document.createElement("td");
    answer.textContent = alt.could_be_answer ? "yes" : "no";
    answer.className = alt.could_be_answer ? "yes" : "no";
    const why = document.createElement("td");
    const split = (a.splits || {})[alt.guess];
    if (split) {
      const best = a.splits[a.next_guess];
      const sides = [{ role: alt.guess === a.next_guess ? "the best guess" : "this guess", split,
                       togo: fmt(alt.expected) + (alt.exact ? "" : "* (at least)") }];
      if (best && alt.guess !== a.next_guess) {
        sides.push({ role: "the best guess", split: best,
                     togo: a.status === "exact" ? fmt(a.expected_guesses) : fmt(a.expected_guesses) + " (best found)" });
      }
      why.appendChild(whyButton(tr, 5, `why ${alt.guess}`, sides, a.answers_remaining, "Why?"));
    }
    tr.append(rank, guess, q, answer, why);
    body.appendChild(tr);
  });
  while (body.children.length < 5) body.appendChild(placeholderRow());
  const allExact = a.alternatives.every((alt) => alt.exact);
  // none: the search valued no guess exactly in time (a large state), unless one answer is left
  $("alternatives-note").textContent = a.alternatives.length === 0
    ? (a.next_guess === undefined ? "" : a.answers_remaining === 1 ? "Nothing to compare: one answer is left."
      : "No guess was valued exactly within the time budget: the next guess above is the best found.")
    : a.alternatives_complete ? "Proven to be the best guesses; each Q* is exact. Tap a guess to play it."
      : (allExact ? "Each Q* is exact; guesses not valued in time may be as good as the lower ones."
        : "The guesses valued within the time budget (* best found, not proven).") + " Tap a guess to play it.";
}

function analysisCell(text, cls) {
  const td = document.createElement("td");
  // an interval "3.421…3.512" may wrap after its "…", the answers "2,315→150" after the "→"
  // (a zero-width space: no break is offered there otherwise), so that a narrow table wraps
  // between two numbers rather than hide one behind a scroll
  td.textContent = text.replace(/[…→]/g, "$&\u200b");
  if (cls) td.className = cls;
  return td;
}

// A proven interval [low, high] (high null: no upper bound found in time) as text.
function interval(pair, show = fmt) {
  if (!pair) return "?";
  const [low, high] = pair;
  if (low === null) return `≤ ${show(high)}`;
  return high === null ? `≥ ${show(low)}` : `${show(low)}…${show(high)}`;
}

function moveValues(m) {
  const extra = m.extra_guesses ? ` +${m.extra_guesses}` : "";
  const per = m.answers_before;
  const v = m.value_exact ? fmt(m.v_star)
    : interval(m.value_lower_bound_total === null ? null
      : [m.value_lower_bound_total / per, m.value_total === null ? null : m.value_total / per]);
  // a guess that gives up the sure win: Q* with the limit relaxed (+N), its finite regret (!)
  const q = m.q_loses ? (m.relaxed_q_total === null ? `${interval(m.relaxed_q_interval)} +?`
    : `${fmt(m.relaxed_q_total / per)} +${m.q_extra_guesses}`)
    : (m.q_star === null ? interval(m.q_star_interval) : fmt(m.q_star)) + extra;
  const regret = m.regret_finite === null ? interval(m.regret_finite_interval)
    : fmt(m.regret_finite) + (m.q_loses || m.value_exact ? "" : "*");  // *: against the best value found
  return {
    v: v + extra, q, regret: regret + (m.q_loses ? "!" : ""),
    luck: m.luck === null ? interval(m.luck_interval, signed) : signed(m.luck),
    skill: m.skill_score === null ? "?" : String(m.skill_score),
    luckScore: m.luck_score === null ? "?" : String(m.luck_score),
  };
}

function showAnalysis(g) {
  state.analysis = g;
  $("analysis-section").hidden = false;
  $("analysis-note").textContent = "";
  $("analysis-retry").hidden = true;
  const body = $("analysis").querySelector("tbody");
  body.replaceChildren();
  for (const m of g.moves) {
    const tr = document.createElement("tr");
    const values = moveValues(m);
    const guess = document.createElement("td");
    guess.className = "guess";
    const word = document.createElement("span");
    word.className = "word";
    word.textContent = m.guess;
    const squares = document.createElement("span");
    squares.className = "mini";
    squares.setAttribute("role", "img");
    squares.dataset.feedback = m.feedback;
    labelSquares(squares);
    for (const c of m.feedback) {
      const s = document.createElement("i");
      s.className = c;
      squares.appendChild(s);
    }
    const inline = document.createElement("span");
    inline.className = "answers-inline";
    inline.textContent = `${count(m.answers_before)}→\u200b${count(m.answers_after)}`;  // may wrap after →
    const optimalAlso = m.optimal_guess && m.optimal_guess !== m.guess && !(m.regret === 0 && !m.q_loses);
    if (m.split) {  // the guess opens its "why": how it and the best guess split the answers
      const sides = [{ role: optimalAlso || !m.optimal_split ? "your guess" : "your guess, a best guess",
                       split: m.split, togo: values.q }];
      if (optimalAlso && m.optimal_split) sides.push({ role: "the best guess", split: m.optimal_split, togo: values.v });
      const button = whyButton(tr, 7, `why: move ${m.number}, ${m.guess}`, sides, m.answers_before, "");
      button.append(word, squares);
      guess.append(button, inline);
    } else {
      guess.append(word, squares, inline);
    }
    if (optimalAlso) {
      const best = document.createElement("span");
      best.className = "best-guess";
      best.textContent = `best: ${m.optimal_guess}`;
      guess.appendChild(best);
    }
    if (m.in_words) {
      const words = document.createElement("span");
      words.className = "in-words";
      words.textContent = m.in_words;
      guess.appendChild(words);
    }
    const regretClass = m.q_loses ? "regret bad" : m.regret_finite === null ? "regret"
      : m.regret_finite > 0 ? "regret bad" : "regret good";
    const luckClass = m.luck === null ? "luck" : m.luck > 1e-9 ? "luck good" : m.luck < -1e-9 ? "luck bad" : "luck";
    tr.append(analysisCell(String(m.number), "number"), guess,
      analysisCell(`${count(m.answers_before)}→${count(m.answers_after)}`, "answers"),
      analysisCell(values.v, "v"), analysisCell(values.q, "q"),
      analysisCell(values.regret, regretClass), analysisCell(values.skill, "skill"),
      analysisCell(values.luck, luckClass), analysisCell(values.luckScore, "luck-score"));
    body.appendChild(tr);
  }
  $("summary").replaceChildren(...summaryNodes(g));
  const notes = [];
  if (g.moves.some((m) => m.extra_guesses)) notes.push("+N: valued as if the game went on N guesses past the sixth.");
  if (!g.all_values_exact) notes.push("a…b: not proven within the time budget; the exact value lies between a and b (≥ a: no upper bound found). *: measured against the best value found, not proven optimal.");
  if (g.moves.some((m) => m.q_loses)) notes.push("!: the guess gave up winning every answer within six guesses; its regret is finite: Q* with the limit relaxed (+N) plus the chance of being left with no sure win.");
  $("analysis-note").textContent = notes.join(" ");
  $("result-text").value = resultText(g);
  $("copy-status").textContent = "";
  recordGame(g);
}

function summaryNodes(g) {
  const out = [];
  const strong = (text) => { const b = document.createElement("strong"); b.textContent = text; return b; };
  const text = (t) => document.createTextNode(t);
  const regret = g.total_regret_finite, luck = g.total_luck;
  const score = (x) => (x === null ? "?" : `${x}/99`);
  out.push(strong(g.won ? `Won in ${plural(g.guesses, "guess", "guesses")}. ` : g.game_over
    ? "Not won in six guesses: the game is over. " : `${plural(g.guesses, "guess", "guesses")} so far. `));
  const lost = g.moves.some((m) => m.q_loses);
  out.push(text("Skill: "), strong(score(g.skill_score)),
    text(regret === null ? ` (proven bounds ${interval(g.total_regret_finite_interval)}: not exact in time). `
      : regret === 0 ? " (perfect play: 0 guesses lost to your choices). "
        : ` (${fmt(regret)} guess${fmt(regret) === "1.000" ? "" : "es"} lost to your choices, on average`
          + `${lost ? "; a guess gave up winning every answer in time" : ""}). `));
  out.push(text("Luck: "), strong(score(g.luck_score)),
    text(luck === null ? ` (proven bounds ${interval(g.total_luck_interval, signed)}: not exact in time).`
      : ` (${signed(luck)} guesses: ${luck > 1e-9 ? "the feedback was kinder than average"
        : luck < -1e-9 ? "the feedback was less helpful than average" : "average feedback"}).`));
  if (g.moves.length > 1) {  // a game's score is not the mean of its moves': said where it is shown
    const note = document.createElement("span");
    note.className = "skill-note";
    note.textContent = ` ${GAME_SCORES}`;
    out.push(note);
  }
  if (regret !== null && luck !== null && g.start_expected !== null && g.final_expected !== null) {
    const p = document.createElement("span");
    p.className = "equation";
    p.textContent = ` ${fmt(g.start_expected)} (perfect play's average) + ${fmt(regret)} (skill) `
      + `${luck > 0 ? "−" : "+"} ${fmt(Math.abs(luck))} (luck) = ${g.guesses}`
      + (g.won ? "." : ` + ${fmt(g.final_expected)} (what the answers left would still take).`);
    out.push(p);
  }
  return out;
}

function resultText(g) {
  const list = state.lists.find((l) => l.name === g.word_list);
  const score = g.won ? `${g.guesses}/${LIMIT}` : `X/${LIMIT}`;
  const lines = [`exact-wordle ${score}${g.mode === "hard" ? "*" : ""} · ${list ? list.title : g.word_list}`];
  for (const m of g.moves) {
    const values = moveValues(m);
    lines.push(`${[...m.feedback].map((c) => SQUARES[COLOURS.indexOf(c)]).join("")} `
      + `skill ${values.skill} · luck ${values.luckScore} (regret ${values.regret} · luck ${values.luck})`);
  }
  const totalRegret = g.total_regret_finite === null ? interval(g.total_regret_finite_interval) : fmt(g.total_regret_finite);
  const totalLuck = g.total_luck === null ? interval(g.total_luck_interval, signed) : signed(g.total_luck);
  const out = (x) => (x === null ? "?" : String(x));
  lines.push(`Skill ${out(g.skill_score)}/99 · Luck ${out(g.luck_score)}/99 (regret ${totalRegret} · luck ${totalLuck})`);
  if (g.start_expected !== null) lines.push(`Perfect play averages ${fmt(g.start_expected)} guesses.`);
  return lines.join("\n");
}

async function copyResult() {
  const area = $("result-text");
  try {
    await navigator.clipboard.writeText(area.value);
    $("copy-status").textContent = "Copied.";
  } catch (err) {  // no clipboard API (plain http on a LAN, an old browser): select for Ctrl-C
    area.focus();
    area.select();
    let copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    $("copy-status").textContent = copied ? "Copied." : "Selected: press Ctrl-C (⌘-C) to copy.";
  }
}

// ------------------------------------------------------------------------------------- why --
// Why a guess is best: how it splits the answers left (the server's ``split``: class sizes,
// largest first, ``solved_next``, ``could_be_answer``), beside the best guess's split.
let whyCount = 0;

// A button that opens (and closes) a row below ``tr`` with the panel of ``sides``.
function whyButton(tr, columns, label, sides, answers, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "why";
  button.setAttribute("aria-expanded", "false");
  const id = `why-${++whyCount}`;
  button.setAttribute("aria-controls", id);
  if (text) {
    button.textContent = text;
    button.setAttribute("aria-label", label);
  } else button.title = "why: how this guess splits the answers left";
  button.addEventListener("click", () => {
    const open = button.getAttribute("aria-expanded") === "true";
    const existing = document.getElementById(id);
    if (existing) existing.remove();
    button.setAttribute("aria-expanded", String(!open));
    if (open) return;
    const row = document.createElement("tr");
    row.className = "why-row";
    row.id = id;
    const cell = document.createElement("td");
    cell.colSpan = columns;
    cell.appendChild(whyPanel(sides, answers));
    row.appendChild(cell);
    tr.after(row);
  });
  return button;
}

function whyPanel(sides, answers) {
  const panel = document.createElement("div");
  panel.className = "why-panel";
  for (const side of sides) panel.appendChild(whySide(side, answers));
  if (sides.length === 2) {
    const [mine, best] = sides.map((x) => x.split);
    const note = document.createElement("p");
    note.className = "why-note";
    const parts = [];
    if (best.largest < mine.largest) parts.push(`leaves at most ${count(best.largest)} answers where ${mine.guess.toUpperCase()} may leave ${count(mine.largest)}`);
    if (best.classes > mine.classes) parts.push(`splits them into ${best.classes - mine.classes} more groups`);
    if (best.solved_next > mine.solved_next) parts.push(`ends the game next turn for ${best.solved_next - mine.solved_next} more answers`);
    note.textContent = parts.length ? `${best.guess.toUpperCase()} ${parts.join(", ")}.`
      : `${best.guess.toUpperCase()} needs fewer guesses later on average, although its first split does not look better.`;
    panel.appendChild(note);
  }
  return panel;
}

// ``togo``: the expected guesses with the guess, as the tables show it ("∞": it gives up a game).
function whySide({ role, split, togo }, answers) {
  const box = document.createElement("div");
  box.className = "why-guess";
  const title = document.createElement("h3");
  const word = document.createElement("span");
  word.className = "word";
  word.textContent = split.guess;
  title.append(word, document.createTextNode(` (${role})`));
  const bar = document.createElement("div");
  bar.className = "split-bar";
  bar.setAttribute("role", "img");
  bar.setAttribute("aria-label", `${split.guess.toUpperCase()} splits the ${count(answers)} answers into `
    + `${plural(split.classes, "group", "groups")} by the colours; the largest has ${count(split.largest)}`);
  split.class_sizes.forEach((size, i) => {
    const part = document.createElement("span");
    part.style.flexGrow = String(size);
    // the guess's own all-green class (it is the answer) is its last class of 1
    const won = split.could_be_answer && size === 1 && i === split.class_sizes.length - 1;
    part.className = won ? "won" : size === 1 ? "one" : "";
    part.title = won ? "the answer: won now" : plural(size, "answer", "answers");
    bar.appendChild(part);
  });
  const facts = document.createElement("ul");
  const items = [
    `${plural(split.classes, "possible colouring", "possible colourings")}: it leaves at most `
      + `${plural(split.largest, "answer", "answers")} whatever the colours`,
    split.could_be_answer
      ? `wins now if it is the answer` + (answers > 1 ? `; of the ${count(answers - 1)} others, the next guess `
        + `surely finds ${count(split.solved_next)}` : "")
      : `cannot be the answer itself; of the ${count(answers)} answers, the next guess surely finds `
        + count(split.solved_next),
    togo === "∞" ? "gives up winning every game within six guesses"
      : `${togo} guesses to go on average with it, this one included`,
  ];
  for (const text of items) {
    const li = document.createElement("li");
    li.textContent = text;
    facts.appendChild(li);
  }
  box.append(title, bar, facts);
  return box;
}

// --------------------------------------------------------------------------------- history --
// Every finished game analysed here, kept in this browser (localStorage): no account, nothing
// sent. Exported and imported as a JSON file of the same records (checked on import).
const HISTORY = "exact-wordle-history";
const HISTORY_FORMAT = "exact-wordle-history";
const HISTORY_VERSION = 1;
const HISTORY_MAX = 5000;                 // games kept (the oldest go first)
const VALUE_MAX = 1000;                   // |regret|, |luck| of one game, in guesses: far above any real one
const IMPORT_MAX_BYTES = 2 * 1024 * 1024;
const RECENT = 14;                        // the "last 14 games" average (as the WordleBot's 14 days)
const STEP = /^[a-z]{5}:[byg]{5}$/;

function loadHistory() {
  try {
    const games = JSON.parse(localStorage.getItem(HISTORY) || "[]");
    return Array.isArray(games) ? games.filter((g) => checkGame(g) === null) : [];
  } catch (err) { return []; }
}

function storeHistory(games) {
  try {
    localStorage.setItem(HISTORY, JSON.stringify(games.slice(-HISTORY_MAX)));
    return true;
  } catch (err) { return false; }
}

const gameKey = (g) => `${g.words}|${g.mode}|${g.history.join(" ")}`;
const finite = (x) => typeof x === "number" && Number.isFinite(x);
const score = (x) => Number.isInteger(x) && x >= 0 && x <= 99;

// null when ``g`` is a well-formed record, else what is wrong with it.
function checkGame(g) {
  if (!g || typeof g !== "object" || Array.isArray(g)) return "is not an object";
  if (typeof g.words !== "string" || !/^[a-z0-9][a-z0-9.+-]{0,39}$/.test(g.words)) return "words: not a word-list name";
  if (!["normal", "hard", "ultra"].includes(g.mode)) return "mode: not normal, hard or ultra";
  if (!Array.isArray(g.history) || g.history.length < 1 || g.history.length > LIMIT
      || !g.history.every((step) => typeof step === "string" && STEP.test(step))) {
    return `history: expected 1 to ${LIMIT} guesses like "salet:bbbby"`;
  }
  const won = g.history[g.history.length - 1].endsWith(":ggggg");
  if (g.history.slice(0, -1).some((step) => step.endsWith(":ggggg"))) return "history: goes on after a win";
  if (g.won !== won) return "won: does not match the history";
  if (!won && g.history.length < LIMIT) return "history: not a finished game";
  if (typeof g.saved !== "string" || Number.isNaN(Date.parse(g.saved))) return "saved: not a date";
  for (const name of ["regret", "luck"]) if (g[name] !== null && !finite(g[name])) return `${name}: not a number or null`;
  if (g.regret_finite !== undefined && g.regret_finite !== null && !(finite(g.regret_finite) && g.regret_finite >= 0)) {
    return "regret_finite: not a number ≥ 0 or null";
  }
  if (g.exact !== undefined && typeof g.exact !== "boolean") return "exact: not true or false";
  // a game's regret is at least 0 and both are a few guesses: a value out of range (±1e308)
  // is no game's, and would stretch the trend chart past what a number can draw
  if (g.regret !== null && (g.regret < 0 || g.regret > VALUE_MAX)) return `regret: not from 0 to ${VALUE_MAX} guesses`;
  if (g.luck !== null && Math.abs(g.luck) > VALUE_MAX) return `luck: not from −${VALUE_MAX} to ${VALUE_MAX} guesses`;
  for (const name of ["skill_score", "luck_score"]) {
    if (g[name] !== undefined && g[name] !== null && !score(g[name])) return `${name}: not a whole number from 0 to 99`;
  }
  return null;
}

// The record of an analysed game (the analysis JSON ``g``), or null when it is not finished:
// ``regret`` the strict total regret (null when a guess gave up a sure win: ∞), ``regret_finite``
// the finite one (docs/algorithms.md §15.4) and ``luck`` in guesses (null when not exact),
// ``skill_score`` and ``luck_score`` 0–99 (a proven bound when ``exact`` is false).
function gameRecord(g) {
  if (!(g.won || g.guesses >= LIMIT)) return null;
  const record = {
    words: g.word_list, mode: g.mode, history: g.history, won: g.won, saved: new Date().toISOString(),
    regret: g.moves.some((m) => m.q_loses) ? null : g.total_regret, regret_finite: g.total_regret_finite,
    luck: g.total_luck, exact: g.all_values_exact,
  };
  if (score(g.skill_score)) record.skill_score = g.skill_score;
  if (score(g.luck_score)) record.luck_score = g.luck_score;
  return checkGame(record) === null ? record : null;
}

function recordGame(g) {
  const record = gameRecord(g);
  if (!record) return;
  const games = loadHistory();
  const key = gameKey(record);
  const old = games.findIndex((x) => gameKey(x) === key);
  if (old >= 0) {  // analysed again (a reload, exact now): the first date kept, the values renewed
    record.saved = games[old].saved;
    games[old] = record;
  } else games.push(record);
  storeHistory(games);
  renderHistory(games);
}

// The game on the board, once over, kept before its analysis comes (or if it fails: the game
// still counts, and opening it again analyses it); a game kept already is left as it is.
function recordFinished() {
  const record = {
    words: state.words, mode: state.mode, history: history().map((h) => `${h.guess}:${h.feedback}`),
    won: won(), saved: new Date().toISOString(), regret: null, luck: null,
  };
  if (checkGame(record) !== null) return;
  const games = loadHistory();
  if (games.some((x) => gameKey(x) === gameKey(record))) return;
  games.push(record);
  storeHistory(games);
  renderHistory(games);
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

// A game's 0–99 skill and luck: its analysis's scores (skill from the total finite regret), else
// (a record without them, from an older page) scored here from its finite regret and its luck
// by solver/evaluation/scores.py's formulas, in floating point; null: not analysed yet.
function skillOf(g) {
  if (score(g.skill_score)) return g.skill_score;
  const regret = finite(g.regret_finite) ? g.regret_finite : g.regret;
  return finite(regret) ? Math.floor((99 * 0.5) / (0.5 + Math.max(regret, 0))) : null;
}
function luckOf(g) {
  if (score(g.luck_score)) return g.luck_score;
  return finite(g.luck) ? Math.floor(99 * (0.5 + g.luck / (2 * (0.5 + Math.abs(g.luck)))) + 0.5) : null;
}
// A score as the history shows it: "≥" when it is a proven bound (not exact in time).
const shownScore = (g, x) => (x === null ? "—" : `${g.exact === false ? "≥" : ""}${x}`);

// The games in the order they were played (the oldest first).
const played = (games) => games.map((g, i) => [g, i])
  .sort((a, b) => Date.parse(a[0].saved) - Date.parse(b[0].saved) || a[1] - b[1]).map(([g]) => g);

// The current streak of wins (up to the latest game) and the longest.
function streaks(games) {
  let current = 0, longest = 0;
  for (const g of played(games)) {
    current = g.won ? current + 1 : 0;
    longest = Math.max(longest, current);
  }
  return { current, longest };
}

// How many games were won in 1, 2, … 6 guesses, and how many were lost (the last).
function distribution(games) {
  const counts = Array(LIMIT + 1).fill(0);
  for (const g of games) counts[g.won ? g.history.length - 1 : LIMIT] += 1;
  return counts;
}

function renderHistory(games = loadHistory()) {
  const scored = games.filter((g) => skillOf(g) !== null);
  const bounds = scored.filter((g) => g.exact === false).length;
  // every game counts in each average: the 0-99 scores come from the finite regret, so a game
  // whose guess gave up a sure win (strict regret ∞) is no longer left out
  $("history-unit").textContent = "skill and luck: 0–99, 99 best. Every game counts: a guess that "
    + "gave up a sure win (!) counts by its finite regret."
    + (bounds ? ` ${plural(bounds, "game was", "games were")} not proven in time: scored at the proven bound (≥).` : "")
    + (games.length > scored.length ? ` ${plural(games.length - scored.length, "game is", "games are")} not `
      + "analysed yet (Open it in the list to analyse it): counted in games, won and guesses only." : "");
  const body = $("history-averages").querySelector("tbody");
  body.replaceChildren();
  const rows = [[`last ${RECENT}`, played(games).slice(-RECENT)], ["all", games]];
  for (const [label, chosen] of rows) {
    const tr = document.createElement("tr");
    const wins = chosen.filter((g) => g.won);
    const skills = chosen.map(skillOf).filter(finite), lucks = chosen.map(luckOf).filter(finite);
    const cells = [
      label, count(chosen.length),
      chosen.length ? `${Math.round(100 * wins.length / chosen.length)}%` : "—",
      wins.length ? fmt(mean(wins.map((g) => g.history.length)), 2) : "—",
      skills.length ? String(Math.round(mean(skills))) : "—",
      lucks.length ? String(Math.round(mean(lucks))) : "—",
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  drawStreaksAndDistribution(games);
  drawTrend(played(games));
  const list = $("history-list").querySelector("tbody");
  list.replaceChildren();
  for (const g of [...games].reverse()) {
    const tr = document.createElement("tr");
    const lists = state.lists.find((l) => l.name === g.words);
    const cells = [
      new Date(g.saved).toLocaleDateString("en-CA"),
      `${lists ? lists.title : g.words}${g.mode !== "normal" ? `, ${g.mode}` : ""}: ${g.history.map((x) => x.slice(0, 5)).join(" ")}`,
      `${g.won ? g.history.length : "X"}/${LIMIT}`,
      shownScore(g, skillOf(g)),
      shownScore(g, luckOf(g)),
    ];
    for (const text of cells) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    const open = document.createElement("td");
    if (lists) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "Open";
      button.setAttribute("aria-label", `open the game ${g.history.map((x) => x.slice(0, 5)).join(" ")}`);
      button.addEventListener("click", () => openGame(g));
      open.appendChild(button);
    }
    tr.appendChild(open);
    list.appendChild(tr);
  }
  $("history-details").querySelector("summary").textContent = games.length
    ? `All your games (${count(games.length)})` : "No games yet: a game you finish here is kept";
  $("history-export").disabled = games.length === 0;
  $("history-clear").disabled = games.length === 0;
}

// The streaks of wins, and the guesses per game (1 to 6, X: lost) as bars, as every Wordle shows.
function drawStreaksAndDistribution(games) {
  const { current, longest } = streaks(games);
  $("history-streaks").textContent = games.length
    ? `Current streak: ${count(current)} · Max streak: ${count(longest)} (games won in a row)` : "";
  const table = $("history-distribution");
  const body = table.querySelector("tbody");
  body.replaceChildren();
  table.hidden = games.length === 0;
  const counts = distribution(games);
  const most = Math.max(1, ...counts);
  counts.forEach((n, i) => {
    const tr = document.createElement("tr");
    tr.className = i < LIMIT ? "won" : "lost";
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = i < LIMIT ? String(i + 1) : "X";
    if (i === LIMIT) th.title = "lost";
    const bar = document.createElement("td");
    bar.className = "bar-cell";
    const fill = document.createElement("span");
    fill.className = "bar";
    fill.style.width = `${(100 * n) / most}%`;
    fill.hidden = n === 0;
    bar.appendChild(fill);
    const number = document.createElement("td");
    number.className = "n";
    number.textContent = count(n);
    tr.append(th, bar, number);
    body.appendChild(tr);
  });
}

// The trend of skill and luck over the last 30 games, as a small inline SVG line chart.
function drawTrend(games) {
  const figure = $("history-trend");
  const recent = games.slice(-30);
  const points = recent.map((g) => [skillOf(g), luckOf(g)]);
  if (recent.length < 2) { figure.hidden = true; figure.replaceChildren(); return; }
  const low = 0, high = 99;
  const W = 340, H = 120, pad = 22;
  const x = (i) => pad + (i * (W - 2 * pad)) / (recent.length - 1);
  const y = (v) => H - pad - ((v - low) * (H - 2 * pad)) / (high - low);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  const label = `skill and luck of your last ${recent.length} games, oldest first`;
  svg.setAttribute("aria-label", label);
  const line = (x1, y1, x2, y2, cls) => {
    const el = document.createElementNS(ns, "line");
    Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => el.setAttribute(k, v));
    el.setAttribute("class", cls);
    svg.appendChild(el);
  };
  line(pad, y(low), W - pad, y(low), "chart-axis");
  line(pad, y(high), W - pad, y(high), "chart-axis");
  for (const [v, at] of [[high, y(high)], [low, y(low)]]) {
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", 2);
    t.setAttribute("y", at + 4);
    t.setAttribute("class", "chart-label");
    t.textContent = String(v);
    svg.appendChild(t);
  }
  [0, 1].forEach((k) => {
    const path = points.map((p, i) => (finite(p[k]) ? `${x(i).toFixed(1)},${y(p[k]).toFixed(1)}` : null));
    const poly = document.createElementNS(ns, "polyline");
    poly.setAttribute("points", path.filter(Boolean).join(" "));
    poly.setAttribute("class", k === 0 ? "chart-a" : "chart-b");
    svg.appendChild(poly);
  });
  const caption = document.createElement("figcaption");
  caption.textContent = `${label}: skill solid, luck dashed.`;
  figure.replaceChildren(svg, caption);
  figure.hidden = false;
}

// The board shows a game's history (from the history list or an analysed grid): its mode
// checked, its rows coloured, kept.
function showGame(g) {
  document.querySelector(`#mode input[value="${g.mode}"]`).checked = true;
  state.rows = g.history.map((step) => {
    const [guess, feedback] = step.split(":");
    return { guess, colours: [...feedback].map((c) => COLOURS.indexOf(c)) };
  });
  clearCurrent();
  drawBoard();
  save();
}

function openGame(g) {
  state.words = g.words;
  state.mode = g.mode;
  $("words").value = g.words;
  showListNote();
  showGame(g);
  refresh().then(() => $("analysis-section").scrollIntoView({ block: "start" }));
}

function exportHistory() {
  const games = loadHistory();
  const doc = { format: HISTORY_FORMAT, version: HISTORY_VERSION, exported: new Date().toISOString(), games };
  const blob = new Blob([JSON.stringify(doc, null, 1)], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = `exact-wordle-games-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  $("history-status").textContent = `Exported ${plural(games.length, "game", "games")}.`;
}

// The games of an exported file, or an Error saying what is wrong with it (nothing is kept then).
function parseHistoryFile(text) {
  let doc;
  try { doc = JSON.parse(text); } catch (err) { return new Error("this file is not JSON"); }
  if (!doc || doc.format !== HISTORY_FORMAT) return new Error(`this is not a file of games exported from this page (no "format": "${HISTORY_FORMAT}")`);
  if (doc.version !== HISTORY_VERSION) return new Error(`this file is of version ${JSON.stringify(doc.version)}; this page reads version ${HISTORY_VERSION}`);
  if (!Array.isArray(doc.games)) return new Error("this file has no list of games");
  if (doc.games.length > HISTORY_MAX) return new Error(`this file has ${count(doc.games.length)} games; at most ${count(HISTORY_MAX)} are kept`);
  for (let i = 0; i < doc.games.length; i++) {
    const wrong = checkGame(doc.games[i]);
    if (wrong) return new Error(`game ${i + 1} of the file: ${wrong}`);
  }
  return doc.games;
}

async function importHistory(file) {
  const status = $("history-status");
  if (file.size > IMPORT_MAX_BYTES) {
    status.textContent = `Not imported: ${file.name} is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`;
    return;
  }
  const games = parseHistoryFile(await file.text());
  if (games instanceof Error) { status.textContent = `Not imported: ${games.message}.`; return; }
  const kept = loadHistory();
  const known = new Set(kept.map(gameKey));
  const fresh = games.filter((g) => !known.has(gameKey(g)));
  const merged = [...kept, ...fresh].sort((a, b) => Date.parse(a.saved) - Date.parse(b.saved));
  // at most HISTORY_MAX games are kept, the newest: the message counts what stays and what goes
  const stored = merged.slice(-HISTORY_MAX);
  const dropped = merged.slice(0, merged.length - stored.length);
  const freshKeys = new Set(fresh.map(gameKey));
  const droppedFresh = dropped.filter((g) => freshKeys.has(gameKey(g))).length;
  if (!storeHistory(stored)) { status.textContent = "Not imported: this browser refused to store them."; return; }
  renderHistory(stored);
  status.textContent = `Imported ${plural(fresh.length - droppedFresh, "game", "games")}`
    + (games.length > fresh.length ? ` (${count(games.length - fresh.length)} already here)` : "")
    + (dropped.length ? `; this browser keeps the newest ${count(HISTORY_MAX)} games, so the `
       + `${plural(dropped.length, "oldest game was", "oldest games were")} dropped (${count(droppedFresh)} `
       + `from the file, ${count(dropped.length - droppedFresh)} kept here before)` : "")
    + ".";
}

function clearHistory() {
  const games = loadHistory();
  if (!games.length) return;
  if (!confirm(`Forget all ${plural(games.length, "game", "games")} kept in this browser? Export them first to keep a copy.`)) return;
  try { localStorage.removeItem(HISTORY); } catch (err) { /* nothing kept anyway */ }
  renderHistory([]);
  $("history-status").textContent = "All games cleared.";
}

// ----------------------------------------------------------------------------------- terms --
function toggleTerm(button) {
  const section = button.closest("section");
  const note = section.querySelector(".term-note");
  const term = button.dataset.term;
  const open = button.getAttribute("aria-expanded") === "true";
  for (const other of section.querySelectorAll("button.term")) other.setAttribute("aria-expanded", "false");
  if (open) { note.hidden = true; return; }
  button.setAttribute("aria-expanded", "true");
  note.replaceChildren();
  const label = document.createElement("strong");
  label.textContent = TERM_LABELS[term] + ". ";
  note.append(label, document.createTextNode(TERMS[term]));
  note.hidden = false;
}

function setUpTerms() {
  for (const button of document.querySelectorAll("button.term")) {
    button.title = TERMS[button.dataset.term];
    button.setAttribute("aria-expanded", "false");
    button.setAttribute("aria-controls", button.closest("section").querySelector(".term-note").id);
    button.addEventListener("click", () => toggleTerm(button));
  }
  for (const dd of document.querySelectorAll("#explainer dd[data-term]")) dd.textContent = TERMS[dd.dataset.term];
}

// ----------------------------------------------------------------------------------- theme --
function currentTheme() {
  return document.documentElement.dataset.theme
    || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
}

function labelTheme() {
  const other = currentTheme() === "dark" ? "light" : "dark";
  $("theme").setAttribute("aria-label", `switch to the ${other} theme`);
  $("theme").textContent = other === "dark" ? "☾" : "☀";
}

function switchTheme() {
  const next = currentTheme() === "dark" ? "light" : "dark";
  const system = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  try {
    if (next === system) { delete document.documentElement.dataset.theme; localStorage.removeItem(THEME); }
    else { document.documentElement.dataset.theme = next; localStorage.setItem(THEME, next); }
  } catch (err) { document.documentElement.dataset.theme = next; }
  labelTheme();
}

function labelPalette() {
  $("palette").setAttribute("aria-pressed", String(document.documentElement.dataset.palette === "contrast"));
}

function switchPalette() {
  const contrast = document.documentElement.dataset.palette !== "contrast";
  if (contrast) document.documentElement.dataset.palette = "contrast";
  else delete document.documentElement.dataset.palette;
  try {
    if (contrast) localStorage.setItem(PALETTE, "contrast"); else localStorage.removeItem(PALETTE);
  } catch (err) { /* kept for this visit only */ }
  labelPalette();
  labelColours();
}

// ----------------------------------------------------------------------------- pasted grid --
async function analysePasted(e) {
  e.preventDefault();
  const grid = $("paste-grid").value.trim();
  const answer = $("paste-answer").value.trim().toLowerCase();
  const guesses = $("paste-guesses").value.toLowerCase().split(/[^a-z]+/).filter(Boolean);
  if (!guesses.length) { showError("Give your guesses in order, e.g. salet courd anion crony."); return; }
  if (!grid && !answer) { showError("Paste the grid Wordle shared, or give the answer."); return; }
  const body = { words: state.words, guesses };
  if (grid) body.grid = grid;
  if (answer) body.answer = answer;
  const ticket = ++state.ticket;
  showError("");
  $("paste-form").querySelector("button[type=submit]").disabled = true;
  try {
    const g = await post("/api/analyse", { ...body, budget: state.budget }, ticket);
    if (ticket !== state.ticket || !g) return;
    state.mode = g.mode;
    showGame(g);
    await refresh({ analysis: g });
    $("analysis-section").scrollIntoView({ behavior: "smooth", block: "start" });
  } catch (err) {
    if (ticket === state.ticket) showError(err.message);
  } finally {
    $("paste-form").querySelector("button[type=submit]").disabled = false;
  }
}

// ------------------------------------------------------------------------------------ start --
function newGame() {
  state.rows = [];
  clearCurrent();
  state.analysis = null;
  drawBoard();
  save();
  refresh();
}

function showListNote() {
  const list = state.lists.find((l) => l.name === state.words);
  $("list-note").textContent = list ? list.note : "";
}

async function init() {
  buildKeyboard();
  setUpTerms();
  showAlternatives({ alternatives: [], alternatives_complete: true });
  $("alternatives-note").textContent = "";
  labelTheme();
  labelPalette();
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", labelTheme);
  drawBoard();
  let config;
  try {
    config = await (await fetch("/api/config")).json();
  } catch (err) {
    showError("The server did not answer /api/config (is tools.serve running?)");
    return;
  }
  state.lists = config.lists;
  state.budget = config.default_budget;
  state.budgetCap = config.budget_cap;
  state.words = config.default_list;
  restore();
  const select = $("words");
  for (const list of config.lists) {
    const option = document.createElement("option");
    option.value = list.name;
    option.textContent = list.title;
    select.appendChild(option);
  }
  select.value = state.words;
  document.querySelector(`#mode input[value="${state.mode}"]`).checked = true;
  showListNote();
  renderHistory();
  select.addEventListener("change", () => {
    state.words = select.value;
    showListNote();
    save();
    select.blur();  // letters typed next go to the board, not to the list's type-ahead
    refresh();
  });
  for (const radio of document.querySelectorAll("#mode input")) {
    radio.addEventListener("change", () => { state.mode = radio.value; save(); refresh(); });
  }
  $("use-suggestion").addEventListener("click", () => state.advice && setGuess(state.advice.next_guess));
  $("search-longer").addEventListener("click", searchLonger);
  $("undo").addEventListener("click", () => {
    if (state.current.letters) { clearCurrent(); drawBoard(); return; }
    state.rows.pop();
    drawBoard();
    save();
    refresh();
  });
  $("new-game").addEventListener("click", newGame);
  $("analyse-now").addEventListener("click", () => refresh({ analyse: true }));
  $("analysis-retry").addEventListener("click", () => refresh({ analyse: true }));
  $("copy").addEventListener("click", copyResult);
  $("remaining-details").addEventListener("toggle", labelRemaining);
  $("theme").addEventListener("click", switchTheme);
  $("palette").addEventListener("click", switchPalette);
  $("history-export").addEventListener("click", exportHistory);
  $("history-import-button").addEventListener("click", () => $("history-import").click());
  $("history-import").addEventListener("change", (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (file) importHistory(file);
  });
  $("history-clear").addEventListener("click", clearHistory);
  $("paste-form").addEventListener("submit", analysePasted);
  document.addEventListener("keydown", onKeydown);
  // A button (or summary) clicked or tapped gives the focus back, so that Enter on the keyboard
  // submits the row (one reached with Tab keeps it: Enter then presses that button).
  document.addEventListener("click", (e) => {
    const button = e.target.closest && e.target.closest("button, summary");
    if (button && e.detail > 0) button.blur();
  });
  drawBoard();
  refresh();
}

init();
