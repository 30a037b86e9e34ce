// The workbench page: edit clues, then ask the server for each analysis panel; a new edit aborts the old ones.
"use strict";
const $ = (id) => document.getElementById(id);
const state = { rows: 0, cols: 0, clues: [], sel: 0, past: [], future: [], typed: null };
const client = Math.random().toString(36).slice(2);
let seq = 0, controllers = [], results = {};
window.fillominoTimings = [];  // per edit: ms until the verdict and the loose cells were shown

// Panels asked after each edit: "first" ones at once, the others once the verdict says they are worth asking.
const PANELS = [
  { name: "verdict", first: true, show: showVerdict },
  { name: "loose", first: true, show: showLoose },
  // which cells are loose comes first; the proofs that a loose cell has no further value follow here
  { name: "values", when: (v, l) => l && l.status === "multiple" && !l.complete, show: showValues },
  { name: "count", when: (v) => v.status === "multiple" || v.status === "unknown", show: showCount },
  { name: "suggest", when: (v) => v.status === "multiple", show: showSuggest },
  { name: "level", when: (v) => v.status !== "none", show: showLevel },
];

function showLevel(r) {
  if (r.status === "skipped") { $("level").textContent = "—"; return; }
  if (r.status === "unknown") { $("level").textContent = "unknown: the budget ran out"; return; }
  const head = r.status === "solved" ? `${r.level} (score ${r.score}); hardest step: ${r.hardest || "none"}`
    : `unrated: the techniques stop with ${r.open_cells} cells open`;
  $("level").dataset.status = r.level;
  $("level").textContent = head + (r.hint ? `. Next: ${r.hint}` : "");
}

function puzzleText() {
  const grid = [];
  for (let r = 0; r < state.rows; r++) grid.push(state.clues.slice(r * state.cols, (r + 1) * state.cols).map((v) => v || null));
  return JSON.stringify({ genre: "fillomino", puzzle: { grid } });
}

async function post(path, body, signal) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal });
  if (res.status === 400) throw new Error((await res.json()).error);
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return res;
}

function showError(message) {
  $("error").hidden = !message;
  $("error").textContent = message ? "error: " + message : "";
}

function setPuzzle(p) {
  state.rows = p.rows; state.cols = p.cols; state.clues = p.clues.slice(); state.sel = 0;
  state.past = []; state.future = [];
  buildBoard(); analyse();
}

async function loadText(text) {
  try {
    const p = await (await post("/api/load", { text })).json();
    showError(""); setPuzzle(p); $("board").focus();
  } catch (e) { showError(e.message); }
}

function edit(i, value, merge) {
  if (state.clues[i] === value) return;
  if (!merge) state.past.push(state.clues.slice());
  state.future = [];
  state.clues[i] = value;
  analyse();
}

function undo(from, to) {
  if (!from.length) return;
  to.push(state.clues.slice());
  state.clues = from.pop();
  state.typed = null;
  analyse();
}

// ---- analysis -------------------------------------------------------------------------------------------
function analyse() {
  for (const c of controllers) c.abort();
  controllers = []; results = {}; seq += 1;
  const mine = seq, text = puzzleText(), started = performance.now(), timing = { seq: mine };
  window.fillominoTimings.push(timing);
  showError(""); render();
  for (const p of PANELS) { busy(p.name, true); $(p.name).textContent = "working…"; $(p.name).dataset.status = ""; }
  $("answers").textContent = "";
  const pending = {};
  const ask = (p) => {
    const ctl = new AbortController(); controllers.push(ctl); pending[p.name] = ctl;
    return post("/api/panel/" + p.name, { puzzle: text, client, seq: mine }, ctl.signal)
      .then((res) => res.json())
      .then((r) => {
        if (mine !== seq || r.status === "cancelled") return null;
        results[p.name] = r; busy(p.name, false); p.show(r); render();
        if (!(p.name in timing)) timing[p.name] = performance.now() - started;  // unless derived earlier
        // a settled answer keeps the CPU it once took: say it was settled rather than count that again
        timing[p.name + "_server"] = r.ms; timing[p.name + "_cpu"] = r.cached ? null : r.cpu_ms;
        if (p.name === "verdict" && (r.status === "unique" || r.status === "none") && !results.loose) {
          // a proved unique (or unsolvable) grid has no loose cell: no need to wait for the search
          pending.loose.abort();
          results.loose = { status: r.status, loose: [], derived: true };
          busy("loose", false); showLoose(results.loose); timing.loose = timing.verdict;
        }
        if (p.name === "loose" && !results.verdict && ["unique", "multiple", "none"].includes(r.status)) {
          // the exact possible values already say which verdict it is; the two answers or the conflict follow
          showVerdictStatus(r.status, r.status === "unique" ? "unique (every cell has one possible value)"
            : r.status === "none" ? "none: no solution (finding the conflicting clues…)"
            : `multiple: ${r.loose.length} cells can take more than one value (drawing two answers…)`);
          timing.verdict = timing.loose;
        }
        return r;
      })
      .catch((e) => {
        if (e.name === "AbortError" || mine !== seq) return null;
        busy(p.name, false); $(p.name).textContent = "—"; showError(e.message); return null;
      });
  };
  const first = PANELS.filter((p) => p.first).map(ask);
  // the other panels wait for the first ones, so they never slow the verdict and the loose cells
  Promise.all(first).then(([v, l]) => {
    for (const p of PANELS) {
      if (p.first || !v) continue;
      if (p.when(v, l)) ask(p); else { busy(p.name, false); p.show({ status: "skipped", verdict: v.status, loose: l }); }
    }
  });
  post("/api/export/id", { puzzle: text }).then((r) => r.text()).then((id) => {
    if (mine === seq) history.replaceState(null, "", "#" + encodeURIComponent(id.trim()));
  }).catch(() => {});
}

function busy(name, on) { $(name).classList.toggle("busy", on); }

function showVerdictStatus(status, text) {
  $("verdict").dataset.status = status;
  $("verdict").textContent = text;
}

function showVerdict(v) {
  const rc = (cells) => cells.map(([r, c]) => `r${r + 1}c${c + 1}`).join(", ");
  showVerdictStatus(v.status, {
    unique: () => `unique (proved in ${v.ms} ms)`,
    multiple: () => `multiple: two answers differ at ${v.differ.length} cells (dashed)`,
    none: () => `none: no solution; conflicting clues ${rc(v.conflict)} (red)`,
    unknown: () => "unknown: the budget ran out before it was settled",
  }[v.status]());
  if (v.picture) {
    const img = document.createElement("img");
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(v.picture);
    img.alt = v.status === "unique" ? "the solution" : "two answers, differing cells tinted";
    $("answers").replaceChildren(img);
  }
}

function showLoose(r) {
  $("loose").dataset.status = r.status;
  $("loose").textContent = r.status === "multiple" ? `${r.loose.length} loose cells (shaded, with ${r.complete === false ? "the values seen so far" : "their possible values"})` : {
    unknown: "unknown: the budget ran out",
    none: "no solution, so no cell has a value",
    unique: "none: every cell is decided",
  }[r.status];
}

function showValues(r) {
  $("values").dataset.status = r.status;
  $("values").textContent = r.status === "unknown" ? "values beyond those shown: unknown, the budget ran out" : "";
  if (r.status === "multiple") showLoose(r);  // every value now: the caption says so
}

function showCount(r) {
  $("count").textContent = r.status === "skipped" ? { unique: "exactly 1 solution", none: "exactly 0 solutions" }[r.verdict] : r.text;
}

function showSuggest(r) {
  const el = $("suggest");
  if (r.status === "skipped") {
    el.textContent = { unique: "none needed: it is unique", none: "none: no clue makes a grid without solution unique",
      unknown: "not asked while the verdict is unknown" }[r.verdict];
    return;
  }
  if (r.status === "unknown") { el.textContent = "unknown: the budget ran out"; return; }
  const n = r.clues.length;
  el.textContent = `${n} clue${n === 1 ? "" : "s"} make it unique (green on the board; click one to add it)`;
}

// ---- board ----------------------------------------------------------------------------------------------
function buildBoard() {
  const board = $("board");
  board.style.gridTemplateColumns = `repeat(${state.cols}, 40px)`;
  const cells = [];
  for (let i = 0; i < state.rows * state.cols; i++) {
    const cell = document.createElement("div");
    cell.className = "cell";
    cell.dataset.r = Math.floor(i / state.cols); cell.dataset.c = i % state.cols;
    cell.addEventListener("mousedown", (e) => { e.preventDefault(); select(i); board.focus(); });
    cells.push(cell);
  }
  board.replaceChildren(...cells);
  $("shape").textContent = `${state.rows} × ${state.cols}`;
}

function select(i) { state.sel = i; state.typed = null; render(); }

function render() {
  const n = state.rows * state.cols, cells = $("board").children;
  if (cells.length !== n) return;
  const key = (r, c) => r * state.cols + c;
  const loose = new Map(), suggested = new Map(), differ = new Set(), conflict = new Set();
  // the values panel completes the loose cells' values; until then they are the ones seen so far (…)
  const full = results.values && results.values.loose ? results.values : null;
  const shown = full || results.loose;
  const partial = !full && shown && shown.complete === false;
  for (const [r, c, vals] of (shown && shown.loose) || []) loose.set(key(r, c), vals);
  for (const [r, c, v] of (results.suggest && results.suggest.clues) || []) suggested.set(key(r, c), v);
  for (const [r, c] of (results.verdict && results.verdict.differ) || []) differ.add(key(r, c));
  for (const [r, c] of (results.verdict && results.verdict.conflict) || []) conflict.add(key(r, c));
  for (let i = 0; i < n; i++) {
    const cell = cells[i], clue = state.clues[i];
    cell.className = "cell";
    cell.classList.toggle("sel", i === state.sel);
    cell.classList.toggle("loose", loose.has(i));
    cell.classList.toggle("differ", differ.has(i));
    cell.classList.toggle("conflict", conflict.has(i));
    cell.style.borderRight = i % state.cols === state.cols - 1 ? "none" : "";
    cell.style.borderBottom = i >= n - state.cols ? "none" : "";
    const parts = [];
    if (clue) parts.push(span("clue", String(clue)));
    else if (suggested.has(i)) {
      const s = span("suggestion", String(suggested.get(i)));
      s.title = "suggested clue: click to add it";
      s.addEventListener("mousedown", (e) => { e.preventDefault(); e.stopPropagation(); state.sel = i; edit(i, suggested.get(i)); });
      parts.push(s);
    }
    if (loose.has(i)) {
      const c = span("cands", loose.get(i).join(" ") + (partial ? " …" : ""));
      c.title = (partial ? "possible, so far: " : "possible: ") + loose.get(i).join(", ");
      parts.push(c);
    }
    cell.replaceChildren(...parts);
  }
}

function span(cls, text) { const s = document.createElement("span"); s.className = cls; s.textContent = text; return s; }

// ---- keys, loading, export --------------------------------------------------------------------------------
document.addEventListener("keydown", (e) => {
  const tag = e.target.tagName;
  if (tag === "TEXTAREA" || tag === "INPUT") {
    if (e.target.id === "source" && e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); loadText($("source").value); }
    return;
  }
  const k = e.key.toLowerCase();
  if ((e.ctrlKey || e.metaKey) && (k === "z" || k === "y")) {
    e.preventDefault();
    if (k === "y" || e.shiftKey) undo(state.future, state.past); else undo(state.past, state.future);
    return;
  }
  if (!state.rows || e.ctrlKey || e.metaKey || e.altKey) return;
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  const i = state.sel, n = state.rows * state.cols;
  if (moves[e.key]) {
    e.preventDefault();
    const r = Math.min(state.rows - 1, Math.max(0, Math.floor(i / state.cols) + moves[e.key][0]));
    const c = Math.min(state.cols - 1, Math.max(0, (i % state.cols) + moves[e.key][1]));
    select(r * state.cols + c);
  } else if (/^[0-9]$/.test(e.key)) {
    e.preventDefault();
    const d = Number(e.key), now = Date.now(), t = state.typed;
    // digits typed quickly into one cell make one number (1 then 2 is 12) and one undo step
    const more = t && t.cell === i && now - t.at < 1000 && t.value * 10 + d <= n;
    const value = more ? t.value * 10 + d : d;
    state.typed = value ? { cell: i, value, at: now } : null;
    edit(i, value, more);
  } else if (e.key === "Delete" || e.key === "Backspace" || e.key === " ") {
    e.preventDefault(); state.typed = null; edit(i, 0);
  }
});

$("load").addEventListener("click", () => loadText($("source").value));
$("source").addEventListener("paste", () => setTimeout(() => loadText($("source").value), 0));
$("new").addEventListener("click", () => {
  const r = Number($("new-rows").value), c = Number($("new-cols").value);
  loadText(JSON.stringify({ genre: "fillomino", puzzle: { grid: Array.from({ length: r }, () => Array(c).fill(null)) } }));
});
$("undo").addEventListener("click", () => undo(state.past, state.future));
$("redo").addEventListener("click", () => undo(state.future, state.past));
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", (e) => {
  e.preventDefault();
  const file = e.dataTransfer.files[0];
  if (!file) return;
  file.text().then((text) => { $("source").value = text; loadText(text); });
});

for (const button of document.querySelectorAll("[data-export]")) {
  button.addEventListener("click", async () => {
    const fmt = button.dataset.export;
    if (!state.rows) return;
    try {
      const res = await post("/api/export/" + fmt, { puzzle: puzzleText() });
      if (fmt === "svg" || fmt === "png") {
        const a = document.createElement("a");
        a.href = URL.createObjectURL(await res.blob()); a.download = "fillomino." + fmt; a.click();
        setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      } else $("export").value = (await res.text()).trim();
      showError("");
    } catch (e) { showError(e.message); }
  });
}
$("link").addEventListener("click", () => { $("export").value = location.href; });

fetch("/api/start").then((r) => r.json()).then((start) => {
  if (location.hash.length > 1) loadText(decodeURIComponent(location.hash.slice(1)));
  else if (start.puzzle) setPuzzle(start.puzzle);
});
