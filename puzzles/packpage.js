// The version-2 pack page (puzzles/packpage.py): walks precomputed solution-tree nodes.
// It knows no game's rules: every legal action, diagram and defence comes from Python.
// The player acts on the drawing: the game's click-mapper (window.fbPlay, its
// packplay.js) makes the drawing's cards, squares and fields pickable and maps a
// sequence of picks to one of the node's legal actions (their parts, from the game's
// PackKind.page_action); this script judges the action.  A game without a mapper gets
// its actions as buttons in notation.  The mapper also words the actions (fbPlay.words)
// and the defence's answers (fbPlay.reply, from PackKind.page_reply's parts) in the
// page's language: the status line and the list of moves say them so, the notation
// beside the words.
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("fb-data").textContent);
  const DEFENCE_DELAY_MS = 350;
  const el = (id) => document.getElementById(id);
  const i18n = window.fbI18n;
  const t = (key, args) => i18n.t(key, args);
  // moves: what was played, each {text, said: a message, own: the person's, not the defence's}
  const state = { puzzle: null, node: 0, history: [], moves: [], helped: false, busy: false };
  // what the status line and the title say, as messages: worded again when the language changes
  const shown = { status: null, title: null };
  // the node on the board: the mapper's controller, its prompt and worded choices (messages),
  // and the pick the keyboard was on (kept across nodes while the keyboard plays)
  const board = { play: null, prompt: null, choices: [], focus: null, keyboard: false };

  function puzzle() { return DATA.puzzles[state.puzzle]; }
  function current() { return puzzle().nodes[state.node]; }

  function setStatus(kind, key, args) {
    shown.status = { key, args };
    el("status").dataset.state = kind;
    el("status").textContent = t(key, args);
  }

  // A line of the drawing longer in this language than the drawing is wide is
  // squeezed to fit (the German status line of the duel's piste is).
  function fit() {
    const svg = el("diagram").querySelector("svg");
    if (!svg || !svg.viewBox || !svg.viewBox.baseVal) return;
    const width = svg.viewBox.baseVal.width;
    for (const text of svg.querySelectorAll("text")) {
      if (text.hasAttribute("text-anchor")) continue;
      text.removeAttribute("textLength");
      text.removeAttribute("lengthAdjust");
      const room = width - Number(text.getAttribute("x") || 0) - 6;
      if (room > 0 && text.getComputedTextLength() > room) {
        text.setAttribute("textLength", String(room));
        text.setAttribute("lengthAdjust", "spacingAndGlyphs");
      }
    }
  }

  function relabel() {
    fit();
    if (shown.status) el("status").textContent = i18n.word(shown.status);
    if (shown.title) el("title").textContent = i18n.word(shown.title);
    for (const pick of el("diagram").querySelectorAll(".pick")) {
      if (pick.fbLabel) pick.setAttribute("aria-label", i18n.word(pick.fbLabel));
    }
    drawChoices();
    drawMoves();
  }

  function rowOf(index) {
    return document.querySelector('#list tr.row[data-index="' + index + '"]');
  }

  // the moves played, one line each: the person's and the defence's, in words
  function drawMoves() {
    const box = el("moves");
    box.textContent = "";
    if (!state.moves.length) return;
    const title = document.createElement("span");
    title.textContent = t("pp.moves.title");
    const list = document.createElement("ol");
    for (const move of state.moves) {
      const item = document.createElement("li");
      item.className = move.own ? "own" : "defence";
      const said = typeof move.said === "string" ? move.said : i18n.word(move.said);
      item.textContent = move.own ? t("pp.moves.own", { action: said }) : said;
      list.appendChild(item);
    }
    box.append(title, list);
  }

  // how an exercise ended (the tree's leaf: "hit", "win:treffer"), in the game's words
  function leafMessage(leaf) {
    const key = "pp.leaf." + leaf.replace(/:/g, ".");
    return i18n.has(key) ? { key, args: {} } : leaf;
  }

  // An action in the game's words with its notation beside them, where the game words it.
  function actionWords(action) {
    if (!action.parts || !window.fbPlay) return action.text;
    return { key: "pp.action", args: { words: window.fbPlay.words(action.parts), text: action.text } };
  }

  // The defence's answer at an adversary's node, worded as the person's actions are.
  function replyWords(node) {
    if (!node.reply_parts || !window.fbPlay || !window.fbPlay.reply) return node.reply;
    return { key: "pp.action", args: { words: window.fbPlay.reply(node.reply_parts), text: node.reply } };
  }

  function findAction(node, text) {
    return (node.actions || []).find((a) => a.text === text);
  }

  // ---- the board: what the game's mapper may do ---------------------------------
  const api = {
    t,
    act: (text) => act(text),
    // make a part of the drawing pickable: a button for the keyboard and screen readers
    pick(node, id, label) {
      node.classList.add("pick");
      node.dataset.pick = id;
      node.setAttribute("role", "button");
      if (!node.hasAttribute("tabindex")) node.setAttribute("tabindex", "-1");
      api.label(node, label);
    },
    unpick(node) {
      node.classList.remove("pick");
      node.removeAttribute("role");
      node.removeAttribute("tabindex");
      node.removeAttribute("aria-label");
      delete node.dataset.pick;
      node.fbLabel = null;
    },
    label(node, message) {
      node.fbLabel = message;
      node.setAttribute("aria-label", i18n.word(message));
    },
    // the line that says what to pick next, and the choices the board cannot show
    // ({choice, label: message, run}: a parry, a pass, which card when two reach)
    prompt(message) { board.prompt = message; drawChoices(); },
    offer(choices) { board.choices = choices; drawChoices(); },
  };

  function drawChoices() {
    el("prompt").textContent = board.prompt ? i18n.word(board.prompt) : "";
    if (!board.play) return;
    const box = el("actions");
    const had = box.contains(document.activeElement) ? document.activeElement.dataset.choice : null;
    box.textContent = "";
    for (const choice of board.choices) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      button.dataset.choice = choice.choice;
      button.textContent = i18n.word(choice.label);
      button.addEventListener("click", () => { if (!state.busy) choice.run(); });
      box.appendChild(button);
    }
    // a choice the keyboard was on stays focused, or the keyboard goes back to the board
    if (had === null) return;
    const again = box.querySelector('button[data-choice="' + had + '"]');
    const svg = el("diagram").querySelector("svg");
    const stop = again || (svg && tabStop(svg));
    if (stop) stop.focus();
  }

  // One tab stop on the drawing (the pick last focused, else the first the mapper marks
  // "ready", else the first pick); the arrow keys move to the nearest pick that way,
  // Enter or Space picks.
  function tabStop(svg) {
    const picks = Array.from(svg.querySelectorAll(".pick"));
    const again = board.focus && svg.querySelector('.pick[data-pick="' + board.focus + '"]');
    const stop = again || svg.querySelector(".pick.ready") || picks[0] || null;
    for (const pick of picks) pick.setAttribute("tabindex", pick === stop ? "0" : "-1");
    return stop;
  }

  function nearest(from, key) {
    const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
    const centre = (node) => {
      const r = node.getBoundingClientRect();
      return [r.left + r.width / 2, r.top + r.height / 2];
    };
    const [x0, y0] = centre(from);
    let best = null, cost = Infinity;
    for (const pick of from.ownerSVGElement.querySelectorAll(".pick")) {
      if (pick === from) continue;
      const [x, y] = centre(pick);
      const along = (x - x0) * dx + (y - y0) * dy;
      const across = Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx);
      if (along <= 1) continue;
      const c = along + 3 * across;
      if (c < cost) { cost = c; best = pick; }
    }
    return best;
  }

  function keyboard(svg) {
    svg.addEventListener("keydown", (event) => {
      const pick = event.target.closest && event.target.closest(".pick");
      if (!pick) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        board.keyboard = true;
        click(pick);
        return;
      }
      if (!event.key.startsWith("Arrow")) return;
      event.preventDefault();
      const next = nearest(pick, event.key);
      if (next) next.focus();
    });
    svg.addEventListener("focusin", (event) => {
      const pick = event.target.closest && event.target.closest(".pick");
      if (!pick) return;
      board.focus = pick.dataset.pick;
      tabStop(svg);
    });
    svg.addEventListener("click", (event) => {
      const pick = event.target.closest && event.target.closest(".pick");
      if (pick && board.play && !state.busy) board.play.pick(pick);
    });
  }

  function drawActions(node) {
    const box = el("actions");
    box.textContent = "";
    board.play = null;
    board.prompt = null;
    board.choices = [];
    drawChoices();
    if (!node.actions) return;
    const svg = el("diagram").querySelector("svg");
    if (window.fbPlay && svg && node.actions.every((a) => a.parts)) {
      svg.setAttribute("role", "group");  // its picks are buttons, not parts of a picture
      svg.setAttribute("tabindex", "-1");  // Chromium would stop Tab on the drawing itself
      board.play = window.fbPlay.attach(svg, node.actions, api);
      drawChoices();  // the choices the mapper offered while it attached
      keyboard(svg);
      const stop = tabStop(svg);
      if (board.keyboard && stop) stop.focus();
      return;
    }
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
    fit();
    drawMoves();
    if (node.leaf !== undefined) {
      state.busy = false;
      drawActions(node);
      setStatus("solved", state.helped ? "pp.solved.help" : "pp.solved", { how: leafMessage(node.leaf) });
      rowOf(state.puzzle).classList.add("solved");
      if (board.keyboard) el("restart").focus();  // the keyboard goes on from the controls
      return;
    }
    if (node.reply !== undefined) {
      state.busy = true;
      drawActions(node);
      const said = replyWords(node);
      setStatus("good", "pp.defence", { action: said });
      setTimeout(() => {
        state.moves.push({ text: node.reply, said, own: false });
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
    const action = findAction(node, text);
    if (!action) return;
    // the keyboard plays on: the next node's board takes the focus
    board.keyboard = el("view").contains(document.activeElement) && document.activeElement !== document.body;
    if (action.to === null) {
      refuse(node, action);
      if (board.play) board.play.reset();
      return;
    }
    state.history.push({ node: state.node, moves: state.moves.length });
    state.moves.push({ text, said: actionWords(action), own: true });
    enter(action.to);
  }

  // An action without a node to go to: why it is refused (the verdicts of a pruned
  // tree's alternatives were computed by packpage.py with the game's exact judge).
  function refuse(node, action) {
    const text = actionWords(action);
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
    const best = findAction(node, node.best);
    setStatus("line", "pp.key", { action: best ? actionWords(best) : node.best });
    if (board.play && best) board.play.hint(best);  // the key's cards, squares or fields lit
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
  // #selftest=<JSON {puzzle, actions}> plays through DOM click events and writes what
  // the page said into <pre id="selftest-result">.  A step is "@takeback", "@hint",
  // "@restart", or a list of CSS selectors clicked one after the other (the cards,
  // squares, fields and worded choices of one action); a selector that finds nothing
  // is reported as missing.
  const { until, click, writeResult } = window.fbCommon;

  async function selfTest(spec) {
    const buttons = { "@takeback": "takeback", "@hint": "hint", "@restart": "restart" };
    click(rowOf(spec.puzzle));
    const steps = [];
    for (const action of spec.actions) {
      await until(() => !state.busy);
      const missing = [];
      const choices = Array.from(document.querySelectorAll("#actions button"), (b) => b.textContent);
      if (typeof action === "string" && action in buttons) {
        click(el(buttons[action]));
      } else {
        for (const selector of action) {
          const target = document.querySelector(selector);
          if (target) click(target);
          else missing.push(selector);
        }
      }
      const step = { action, missing, choices, state: el("status").dataset.state,
        message: el("status").textContent };
      await until(() => !state.busy);
      steps.push(step);
    }
    await until(() => !state.busy);
    return {
      steps, final: el("status").dataset.state, message: el("status").textContent,
      moves: state.moves.map((m) => m.text), row: rowOf(spec.puzzle).className,
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
