// The version-2 pack page (puzzles/packpage.py): walks precomputed solution-tree nodes.
// It knows no game's rules: every legal action, diagram and defence comes from Python.
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("fb-data").textContent);
  const DEFENCE_DELAY_MS = 350;
  const el = (id) => document.getElementById(id);
  const i18n = window.fbI18n;
  const t = (key, args) => i18n.t(key, args);
  const state = { puzzle: null, node: 0, history: [], moves: [], helped: false, busy: false };
  // what the status line and the title say, as messages: worded again when the language changes
  const shown = { status: null, title: null };

  function puzzle() { return DATA.puzzles[state.puzzle]; }
  function current() { return puzzle().nodes[state.node]; }

  function setStatus(kind, key, args) {
    shown.status = { key, args };
    el("status").dataset.state = kind;
    el("status").textContent = t(key, args);
  }

  function relabel() {
    if (shown.status) el("status").textContent = i18n.word(shown.status);
    if (shown.title) el("title").textContent = i18n.word(shown.title);
    drawMoves();
  }

  function rowOf(index) {
    return document.querySelector('#list tr.row[data-index="' + index + '"]');
  }

  function drawMoves() {
    el("moves").textContent = state.moves.length ? t("pp.moves", { moves: state.moves.join("  ") }) : "";
  }

  // how an exercise ended (the tree's leaf: "hit", "win:treffer"), in the game's words
  function leafMessage(leaf) {
    const key = "pp.leaf." + leaf.replace(/:/g, ".");
    return i18n.has(key) ? { key, args: {} } : leaf;
  }

  function drawActions(node) {
    const box = el("actions");
    box.textContent = "";
    if (!node.actions) return;
    for (const action of node.actions) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = action.text;
      button.dataset.action = action.text;
      button.disabled = state.busy;
      button.addEventListener("click", () => act(action.text));
      box.appendChild(button);
    }
  }

  function enter(index) {
    state.node = index;
    const node = current();
    el("diagram").innerHTML = node.svg;
    i18n.apply(el("diagram"));
    drawMoves();
    if (node.leaf !== undefined) {
      state.busy = false;
      drawActions(node);
      setStatus("solved", state.helped ? "pp.solved.help" : "pp.solved", { how: leafMessage(node.leaf) });
      rowOf(state.puzzle).classList.add("solved");
      return;
    }
    if (node.reply !== undefined) {
      state.busy = true;
      drawActions(node);
      setStatus("good", "pp.defence", { action: node.reply });
      setTimeout(() => {
        state.moves.push(node.reply);
        enter(node.to);
      }, DEFENCE_DELAY_MS);
      return;
    }
    state.busy = false;
    drawActions(node);
    const task = i18n.counted("pp.task", node.turns);
    setStatus("play", task.key, task.args);
  }

  function act(text) {
    if (state.busy) return;
    const node = current();
    const action = (node.actions || []).find((a) => a.text === text);
    if (!action) return;
    if (action.to === null) {
      refuse(node, action);
      return;
    }
    state.history.push({ node: state.node, moves: state.moves.length });
    state.moves.push(text);
    enter(action.to);
  }

  // An action without a node to go to: why it is refused (the verdicts of a pruned
  // tree's alternatives were computed by packpage.py with the game's exact judge).
  function refuse(node, action) {
    const text = action.text;
    const lost = i18n.counted("pp.lost", node.turns, { action: text });
    if (action.verdict === "keeps") {
      const line = action.line ? { key: "pp.keeps.line", args: { line: action.line } } : "";
      const keeps = i18n.counted("pp.keeps", node.turns, { action: text, line });
      setStatus("good", keeps.key, keeps.args);
      rowOf(state.puzzle).classList.remove("failed");
    } else if (action.verdict === "loses") {
      setStatus("lost", "pp.exact", { lost });
      rowOf(state.puzzle).classList.add("failed");
    } else if (action.verdict === "unknown") {
      setStatus("line", "pp.unknown", { action: text });
    } else if (node.stored_only) {
      setStatus("line", "pp.stored_only", { action: text });
    } else {
      setStatus("lost", lost.key, lost.args);
      rowOf(state.puzzle).classList.add("failed");
    }
  }

  function takeBack() {
    if (state.busy || !state.history.length) return;
    const last = state.history.pop();
    state.moves.length = last.moves;
    enter(last.node);
  }

  function hint() {
    const node = current();
    if (state.busy || node.best === undefined) return;
    state.helped = true;
    setStatus("line", "pp.key", { action: node.best });
  }

  function selectPuzzle(index) {
    if (state.puzzle !== null) rowOf(state.puzzle).classList.remove("selected");
    state.puzzle = index;
    state.history = [];
    state.moves = [];
    state.helped = false;
    state.busy = false;
    rowOf(index).classList.add("selected");
    const p = puzzle();
    shown.title = i18n.counted("pp.exercise", p.n, { number: index + 1, id: p.id, game: { key: "pp.game" } });
    el("title").textContent = i18n.word(shown.title);
    enter(0);
  }

  function restart() {
    if (state.busy) return;
    selectPuzzle(state.puzzle);
  }

  // ---- automated checks, run only when the URL asks for them ------------------
  // #selftest=<JSON {puzzle, actions}> presses buttons through DOM click events
  // (action texts, or "@takeback", "@hint", "@restart") and writes what the page
  // said into <pre id="selftest-result">.
  const { until, click, writeResult } = window.fbCommon;

  async function selfTest(spec) {
    const buttons = { "@takeback": "takeback", "@hint": "hint", "@restart": "restart" };
    click(rowOf(spec.puzzle));
    const steps = [];
    for (const action of spec.actions) {
      await until(() => !state.busy);
      const offered = Array.from(document.querySelectorAll("#actions button"),
        (b) => b.dataset.action);
      if (action in buttons) {
        click(el(buttons[action]));
      } else {
        const button = document.querySelector('#actions button[data-action="' + action + '"]');
        if (button) click(button);
      }
      const step = { action, offered, state: el("status").dataset.state,
        message: el("status").textContent };
      await until(() => !state.busy);
      steps.push(step);
    }
    await until(() => !state.busy);
    return {
      steps, final: el("status").dataset.state, message: el("status").textContent,
      moves: state.moves, row: rowOf(spec.puzzle).className,
      svg: el("diagram").querySelector("svg") !== null,
    };
  }

  async function runChecks() {
    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash.startsWith("selftest=")) {
      const spec = JSON.parse(hash.slice(9));
      const results = [];
      for (const one of Array.isArray(spec) ? spec : [spec]) results.push(await selfTest(one));
      writeResult("selftest-result", Array.isArray(spec) ? results : results[0]);
    }
  }

  // ---- start -------------------------------------------------------------------
  el("restart").addEventListener("click", restart);
  el("takeback").addEventListener("click", takeBack);
  el("hint").addEventListener("click", hint);
  i18n.start(relabel);
  window.fbCommon.buildList(DATA.puzzles, selectPuzzle);
  if (DATA.puzzles.length) selectPuzzle(0);
  else setStatus("play", "pp.empty");
  runChecks();
})();
