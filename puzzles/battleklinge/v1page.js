// fechtbuch pack viewer: browse a puzzle pack, try moves against its solution trees.
//
// The rules part is a small transcription of engines/battleklinge/reference.py
// (same move order), tested against it in tests/browser/test_viewer.py.  The drawing is
// the SVG made by engines/battleklinge/svg.py; this script only moves its pieces,
// cards and arrows around, reading square and slot places from the markup.
"use strict";

(function () {
  const DATA = JSON.parse(document.getElementById("fb-data").textContent);
  const CARDS = DATA.cards; // [{id, name, offsets: [[dx, dy], ...], mark}]
  const BANNER = DATA.banner; // [gold banner square, blau banner square]
  const COLOR_CHARS = "gb";
  // every word from the page's catalogue (viewer_common.js, pagekit.py); a school by its
  // key, a card by its id; packboard.js words the drawing's fixed parts
  const i18n = window.fbI18n;
  const t = (key, args) => i18n.t(key, args);
  const school = (color) => ({ key: "pp.bk.school." + COLOR_CHARS[color] });
  const cardName = (card) => ({ key: "pp.bk.card." + CARDS[card].id });
  const FILES = "abcde";
  const REPLY_DELAY_MS = 450;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const CARD_INDEX = {};
  CARDS.forEach((card, index) => { CARD_INDEX[card.id] = index; });

  // ---- rules ---------------------------------------------------------------
  function cardIndex(text) {
    const key = text.trim().toLowerCase().replace("ß", "ss");
    if (!(key in CARD_INDEX)) throw new Error("unknown card " + JSON.stringify(text));
    return CARD_INDEX[key];
  }

  function parsePosition(text) {
    const fields = text.trim().split(" ");
    const board = new Array(25).fill("");
    fields[0].split("/").forEach((rankText, row) => {
      const rank = 4 - row;
      let file = 0;
      for (const ch of rankText) {
        if ("12345".includes(ch)) file += Number(ch);
        else board[rank * 5 + file++] = ch;
      }
    });
    const hand = (t) => t.split(",").map(cardIndex).sort((a, b) => a - b);
    return {
      board, turn: COLOR_CHARS.indexOf(fields[1]),
      hands: [hand(fields[2]), hand(fields[3])], side: cardIndex(fields[4]),
    };
  }

  function positionText(pos) {
    const rows = [];
    for (let rank = 4; rank >= 0; rank--) {
      let row = "", empty = 0;
      for (let file = 0; file < 5; file++) {
        const ch = pos.board[rank * 5 + file];
        if (ch) { row += (empty ? String(empty) : "") + ch; empty = 0; } else empty++;
      }
      rows.push(row + (empty ? String(empty) : ""));
    }
    const hands = pos.hands.map((h) => h.map((c) => CARDS[c].id).join(","));
    return [rows.join("/"), COLOR_CHARS[pos.turn], hands[0], hands[1], CARDS[pos.side].id].join(" ");
  }

  const colorOf = (ch) => (ch === "" ? -1 : ch === ch.toUpperCase() ? 0 : 1);
  const squareName = (sq) => FILES[sq % 5] + String(Math.floor(sq / 5) + 1);
  const parseSquare = (t) => FILES.indexOf(t[0]) + 5 * (Number(t[1]) - 1);

  function winner(pos) {
    for (const color of [0, 1]) {
      const own = pos.board.indexOf(color === 0 ? "M" : "m");
      const enemy = pos.board.indexOf(color === 0 ? "m" : "M");
      if (enemy < 0 || own === BANNER[1 - color]) return color;
    }
    return null;
  }

  function legalMoves(pos) {
    if (winner(pos) !== null) return [];
    const me = pos.turn, sign = me === 0 ? 1 : -1, moves = [];
    for (const card of pos.hands[me]) {
      for (let sq = 0; sq < 25; sq++) {
        if (colorOf(pos.board[sq]) !== me) continue;
        const file = sq % 5, rank = Math.floor(sq / 5);
        for (const [dx, dy] of CARDS[card].offsets) {
          const tf = file + sign * dx, tr = rank + sign * dy;
          if (tf < 0 || tf > 4 || tr < 0 || tr > 4) continue;
          if (colorOf(pos.board[tr * 5 + tf]) === me) continue;
          moves.push({ card, from: sq, to: tr * 5 + tf });
        }
      }
    }
    if (!moves.length) return pos.hands[me].map((card) => ({ card, from: null, to: null }));
    return moves.sort((a, b) => a.card - b.card || a.from - b.from || a.to - b.to);
  }

  function play(pos, move) {
    const board = pos.board.slice();
    if (move.from !== null) { board[move.to] = board[move.from]; board[move.from] = ""; }
    const hands = pos.hands.map((h) => h.slice());
    hands[pos.turn] = hands[pos.turn].filter((c) => c !== move.card).concat([pos.side])
      .sort((a, b) => a - b);
    return { board, turn: 1 - pos.turn, hands, side: move.card };
  }

  const moveText = (m) =>
    CARDS[m.card].id + ":" + (m.from === null ? "pass" : squareName(m.from) + squareName(m.to));

  function parseMove(text) {
    const [card, rest] = text.split(":");
    if (rest === "pass") return { card: cardIndex(card), from: null, to: null };
    return { card: cardIndex(card), from: parseSquare(rest.slice(0, 2)), to: parseSquare(rest.slice(2)) };
  }

  // A move in words with its notation beside them ("Volte d1–c2 (volte:d1c2)"), as the
  // version-2 page says it (packplay.js): with ``named`` its school is named, and a
  // student it takes, from the position ``pos`` it is played in.
  function said(pos, text, named) {
    const move = parseMove(text);
    const card = cardName(move.card);
    const by = { school: school(pos.turn), card };
    let words;
    if (move.from === null) {
      words = named ? { key: "pp.bk.reply.pass", args: by } : { key: "pp.bk.do.pass", args: { card } };
    } else {
      const squares = { from: squareName(move.from), to: squareName(move.to) };
      const taken = pos.board[move.to];
      const takes = taken.toLowerCase() === "s" && colorOf(taken) !== pos.turn;
      words = !named ? { key: "pp.bk.do.move", args: { card, ...squares } }
        : { key: takes ? "pp.bk.reply.take" : "pp.bk.reply.move", args: { ...by, ...squares } };
    }
    return { key: "pp.action", args: { words, text } };
  }

  // ---- solution trees ------------------------------------------------------
  // An attacker node maps winning moves to "hit" or a defender node; a defender
  // node maps every reply to the next attacker node.
  const distanceMemo = new WeakMap();
  function distance(attackerNode) {
    // Attacker moves until the hit when both sides play best from here.
    if (distanceMemo.has(attackerNode)) return distanceMemo.get(attackerNode);
    let best = Infinity;
    for (const result of Object.values(attackerNode)) {
      const d = result === "hit" ? 1
        : 1 + Math.max(...Object.values(result).map(distance));
      best = Math.min(best, d);
    }
    distanceMemo.set(attackerNode, best);
    return best;
  }

  function chooseReply(defenderNode, history, line) {
    // The pack's main line while the game follows it; otherwise the longest
    // defence: the reply after which the hit is furthest away, ties by move text.
    const next = line[history.length];
    const onLine = history.every((m, i) => m === line[i]);
    if (onLine && next !== undefined && next in defenderNode) return next;
    let best = null, bestDistance = -1;
    for (const reply of Object.keys(defenderNode).sort()) {
      const d = distance(defenderNode[reply]);
      if (d > bestDistance) { best = reply; bestDistance = d; }
    }
    return best;
  }

  // ---- page state ----------------------------------------------------------
  const el = (id) => document.getElementById(id);
  const state = {
    index: -1, puzzle: null, start: null, pos: null, history: [], node: null,
    phase: "idle", selected: null, stepping: false, timer: null, helped: false,
  };

  function svgRoot() { return el("diagram").querySelector("svg"); }
  function bottomColor() { return COLOR_CHARS.indexOf(svgRoot().dataset.bottom); }
  function squareRect(sq) { return svgRoot().querySelector('rect.sq[data-sq="' + sq + '"]'); }
  function centre(sq) {
    const r = squareRect(sq);
    return [Number(r.getAttribute("x")) + Number(r.getAttribute("width")) / 2,
      Number(r.getAttribute("y")) + Number(r.getAttribute("height")) / 2];
  }
  function make(tag, attrs) {
    const node = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }
  const attackerMovesPlayed = () => Math.ceil(state.history.length / 2);
  const remaining = () => state.puzzle.n - attackerMovesPlayed();
  // the texts shown, as messages ({key, args}): worded again when the language changes
  const shown = { title: null, status: null, solution: null, choice: null };
  const word = (message) => (message ? i18n.word(message) : "");
  const counted = (key, n, args) => i18n.counted(key, n, args);

  function setStatus(kind, key, args) {
    shown.status = { key, args };
    const box = el("status");
    box.dataset.state = kind;
    box.textContent = word(shown.status);
  }

  function setSolution(message) {
    shown.solution = message;
    el("solution").textContent = word(message);
  }

  function relabel() {
    el("title").textContent = word(shown.title);
    el("status").textContent = word(shown.status);
    el("solution").textContent = word(shown.solution);
    if (shown.choice) showChoice(shown.choice.moves, shown.choice.prompt);
    if (state.puzzle) draw();
  }

  function drawArrow(layer, move, cls, colour) {
    const [x1, y1] = centre(move.from), [x2, y2] = centre(move.to);
    const dx = x2 - x1, dy = y2 - y1, shorten = 16 / Math.hypot(dx, dy);
    const line = make("line", {
      class: cls, x1, y1, x2: x2 - dx * shorten, y2: y2 - dy * shorten,
      stroke: colour, "stroke-width": 8, "stroke-linecap": "round", opacity: 0.85,
      "marker-end": "url(#arrowhead)",
    });
    if (cls === "hint-arrow") line.setAttribute("stroke-dasharray", "2 12");
    layer.appendChild(line);
  }

  function draw() {
    const svg = svgRoot(), pos = state.pos, bottom = bottomColor();
    const pieces = svg.querySelector("g.pieces");
    pieces.replaceChildren();
    pos.board.forEach((ch, sq) => {
      if (!ch) return;
      const [cx, cy] = centre(sq);
      const kind = COLOR_CHARS[colorOf(ch)] + "-" + ch.toLowerCase();
      pieces.appendChild(make("use", {
        class: "piece", "data-sq": sq, href: "#piece-" + kind,
        x: cx - 32, y: cy - 32, width: 64, height: 64,
      }));
    });
    // Cards: each keeps its group; move it to its slot and point its grid at the holder.
    const last = state.history.length ? parseMove(state.history[state.history.length - 1]) : null;
    const places = [];
    pos.hands[1 - bottom].forEach((c, i) => places.push([c, "top-" + i, false]));
    pos.hands[bottom].forEach((c, i) => places.push([c, "bottom-" + i, true]));
    places.push([pos.side, "side", pos.turn === bottom]);
    const firstHand = pos.hands[pos.turn][0];
    for (const [card, slot, up] of places) {
      const group = svg.querySelector('g.card[data-card="' + CARDS[card].id + '"]');
      const box = svg.querySelector('rect.slot[data-slot="' + slot + '"]');
      group.setAttribute("transform",
        "translate(" + box.getAttribute("x") + " " + box.getAttribute("y") + ")");
      group.dataset.slot = slot;
      const grid = group.querySelector("g.grid");
      if (up) grid.removeAttribute("transform");
      else grid.setAttribute("transform",
        "rotate(180 " + grid.dataset.cx + " " + grid.dataset.cy + ")");
      const face = group.querySelector("rect.card-face");
      let stroke = "#6d6456", width = 1.2;
      if (last && last.card === card) { stroke = "#138a72"; width = 3.5; }
      if (state.selected !== null && pos.hands[pos.turn].includes(card)) {
        stroke = card === firstHand ? "#1a9fb0" : "#e07b1a"; width = 3.5;
      }
      face.setAttribute("stroke", stroke);
      face.setAttribute("stroke-width", width);
    }
    svg.querySelector('text.hand-label[data-row="side"]').textContent =
      t("pp.bk.side", { school: school(pos.turn) });
    svg.querySelector(":scope > title").textContent = t("pp.bk.board", { school: school(pos.turn) });
    const w = winner(pos);
    svg.querySelector("text.caption").textContent = w !== null
      ? t("pp.bk.caption.hit", { school: school(w) })
      : last ? t("pp.bk.caption.last", { school: school(pos.turn), move: moveText(last) })
        : t("pp.bk.caption.turn", { school: school(pos.turn) });
    const arrows = svg.querySelector("g.arrows");
    arrows.replaceChildren();
    if (last && last.from !== null) drawArrow(arrows, last, "arrow", "#138a72");
    drawMarks();
    drawMoves();
  }

  // the moves played, one line each: the person's school's ("Du: ...") and the
  // defence's, its school named, in words
  function drawMoves() {
    const box = el("moves");
    box.textContent = "";
    if (!state.history.length) return;
    const title = document.createElement("span");
    title.textContent = t("pp.moves.title");
    const list = document.createElement("ol");
    let pos = state.start;
    state.history.forEach((text, i) => {
      const item = document.createElement("li");
      const own = i % 2 === 0;
      item.className = own ? "own" : "defence";
      item.textContent = own ? t("pp.moves.own", { action: said(pos, text, false) }) : word(said(pos, text, true));
      list.appendChild(item);
      pos = play(pos, parseMove(text));
    });
    box.append(title, list);
  }

  function drawMarks() {
    const svg = svgRoot(), marks = svg.querySelector("g.marks");
    marks.replaceChildren();
    if (state.selected === null) return;
    const [sx, sy] = centre(state.selected);
    marks.appendChild(make("circle", {
      class: "selection", cx: sx, cy: sy, r: 30, fill: "none", stroke: "#138a72", "stroke-width": 4,
    }));
    const hand = state.pos.hands[state.pos.turn];
    const byTarget = {};
    for (const m of legalMoves(state.pos)) {
      if (m.from === state.selected) (byTarget[m.to] = byTarget[m.to] || []).push(m.card);
    }
    for (const [to, cards] of Object.entries(byTarget)) {
      const [cx, cy] = centre(Number(to));
      // Turquoise for the first hand card, orange for the second, both when both reach.
      if (cards.includes(hand[0])) marks.appendChild(make("circle", {
        class: "target-mark", cx, cy, r: cards.length > 1 ? 14 : 10, fill: "#1a9fb0", opacity: 0.9,
      }));
      if (cards.includes(hand[1])) marks.appendChild(make("circle", {
        class: "target-mark", cx, cy, r: 7, fill: "#e07b1a", opacity: 0.95,
      }));
    }
  }

  function showChoice(moves, prompt) {
    const box = el("choice");
    box.replaceChildren();
    shown.choice = moves.length ? { moves, prompt } : null;
    if (!moves.length) return;
    const label = document.createElement("span");
    label.textContent = word(prompt) + " ";
    box.appendChild(label);
    const hand = state.pos.hands[state.pos.turn];
    for (const m of moves) {
      const button = document.createElement("button");
      button.textContent = word(cardName(m.card));
      button.dataset.move = moveText(m);
      button.className = m.card === hand[0] ? "first" : "second";
      button.addEventListener("click", () => { showChoice([], null); tryMove(m); });
      box.appendChild(button);
    }
  }

  function offerPass() {
    // No piece can move: the player still hands on a card (rules: "Tausch ohne Bewegung").
    const moves = legalMoves(state.pos);
    if (moves.length && moves[0].from === null) {
      showChoice(moves, { key: "pp.bk.pass" });
    }
  }

  // ---- play ----------------------------------------------------------------
  function onSquareClick(sq) {
    if (state.phase !== "attacker") return;
    state.stepping = false; // the player takes over from a stepped main line
    const moves = legalMoves(state.pos);
    const own = colorOf(state.pos.board[sq]) === state.pos.turn;
    if (state.selected !== null && !own) {
      const options = moves.filter((m) => m.from === state.selected && m.to === sq);
      if (options.length === 1) { tryMove(options[0]); return; }
      if (options.length > 1) { showChoice(options, { key: "pp.bk.both", args: { square: squareName(sq) } }); return; }
    }
    showChoice([], null);
    state.selected = own && moves.some((m) => m.from === sq) && state.selected !== sq ? sq : null;
    draw();
  }

  function tryMove(move) {
    const text = moveText(move);
    const attacker = state.pos.turn;
    const words = said(state.pos, text, false);
    state.selected = null;
    showChoice([], null);
    state.pos = play(state.pos, move);
    state.history.push(text);
    const node = state.node;
    if (node && text in node) {
      const result = node[text];
      if (result === "hit") {
        if (winner(state.pos) !== attacker) {
          fail("pp.bk.broken.hit", text, "the pack says " + text + " hits, but the rules disagree");
          return;
        }
        state.node = null;
        state.phase = "solved";
        markRow(state.helped ? "helped" : "solved");
        setStatus("solved", state.helped ? "pp.bk.solved.help" : "pp.bk.solved", { move: words });
      } else {
        state.node = result;
        state.phase = "defender";
        setStatus("good", "pp.bk.good", { move: words, school: school(1 - attacker) });
        if (!state.stepping) state.timer = setTimeout(computerReply, REPLY_DELAY_MS);
      }
    } else {
      state.node = null;
      state.phase = "lost";
      markRow("failed");
      const lost = counted("pp.bk.lost", remaining() + 1, { move: words });
      setStatus("lost", lost.key, lost.args);
    }
    draw();
  }

  function computerReply() {
    state.timer = null;
    if (state.phase !== "defender") return;
    const reply = chooseReply(state.node, state.history, state.puzzle.line);
    const before = state.pos;
    if (!applyReply(reply)) return;
    const answer = counted("pp.bk.answer", remaining(), { move: said(before, reply, false), school: school(before.turn) });
    setStatus("good", answer.key, answer.args);
    draw();
    offerPass();
  }

  function applyReply(reply) {
    const legal = legalMoves(state.pos).map(moveText);
    if (!legal.includes(reply)) {
      fail("pp.bk.broken.reply", reply, "the pack's reply " + reply + " is not legal here");
      return false;
    }
    state.pos = play(state.pos, parseMove(reply));
    state.history.push(reply);
    state.node = state.node[reply];
    state.phase = "attacker";
    return true;
  }

  function fail(key, move, english) {
    state.phase = "error";
    setStatus("error", "pp.bk.broken", { problem: { key, args: { move } } });
    console.error("fechtbuch viewer: " + english);
  }

  function markRow(result) {
    const row = document.querySelector('#list tr.row[data-index="' + state.index + '"]');
    if (!row || row.classList.contains("solved")) return;
    row.classList.remove("failed");
    row.classList.add(result === "failed" ? "failed" : "solved");
  }

  function replay(history) {
    // Rebuild the game from the start along the tree (for take-back).
    clearTimeout(state.timer);
    state.pos = state.start; state.history = []; state.node = state.puzzle.solution;
    state.phase = "attacker"; state.selected = null; state.stepping = false;
    for (const text of history) {
      const move = parseMove(text);
      const node = state.node;
      state.pos = play(state.pos, move);
      state.history.push(text);
      state.node = node && text in node && node[text] !== "hit" ? node[text] : null;
    }
    state.phase = state.history.length % 2 ? "defender" : "attacker";
  }

  function restart() {
    replay([]);
    state.helped = false;
    showChoice([], null);
    setSolution(null);
    const task = counted("pp.bk.task", state.puzzle.n, { school: school(state.pos.turn) });
    setStatus("play", task.key, task.args);
    draw();
    offerPass();
  }

  function takeBack() {
    const h = state.history.slice();
    if (!h.length) return;
    h.pop();
    if (h.length % 2) h.pop(); // back to the attacker's turn
    replay(h);
    showChoice([], null);
    const back = h.length ? counted("pp.bk.taken_back", remaining(), {}) : { key: "pp.bk.at_start" };
    setStatus("play", back.key, back.args);
    draw();
    offerPass();
  }

  function showSolution() {
    if (state.phase !== "attacker" || !state.node) {
      setSolution({ key: "pp.bk.main_line", args: { line: state.puzzle.line.join(" ") } });
      return;
    }
    state.helped = true;
    const keys = Object.keys(state.node).sort();
    setSolution({ key: "pp.bk.winning", args: { keys: keys.join(", ") } });
    const arrows = svgRoot().querySelector("g.arrows");
    for (const k of keys) {
      const m = parseMove(k);
      if (m.from !== null) drawArrow(arrows, m, "hint-arrow", "#2b5fb3");
    }
  }

  function stepLine() {
    const line = state.puzzle.line;
    const onLine = state.history.every((m, i) => m === line[i]);
    if (!onLine || state.history.length >= line.length) replay([]);
    clearTimeout(state.timer);
    state.stepping = true;
    const k = state.history.length;
    const text = line[k];
    const move = parseMove(text);
    const before = state.pos;
    state.pos = play(before, move);
    state.history.push(text);
    state.node = state.node && text in state.node && state.node[text] !== "hit" ? state.node[text] : null;
    state.phase = k + 1 === line.length ? "done" : k % 2 ? "attacker" : "defender";
    state.selected = null;
    showChoice([], null);
    const done = winner(state.pos) !== null;
    setStatus("line", done ? "pp.bk.line_step.hit" : "pp.bk.line_step",
      { number: k + 1, count: line.length, school: school(before.turn), move: said(before, text, false) });
    draw();
  }

  // ---- list and selection ----------------------------------------------------
  function selectPuzzle(index) {
    clearTimeout(state.timer);
    state.index = index;
    state.puzzle = DATA.puzzles[index];
    state.start = parsePosition(state.puzzle.position);
    document.querySelectorAll("#list tr.row").forEach((row) => {
      const selected = Number(row.dataset.index) === index;
      row.classList.toggle("selected", selected);
      if (selected) row.scrollIntoView({ block: "nearest" });
    });
    el("diagram").innerHTML = state.puzzle.svg;
    i18n.apply(el("diagram"));
    svgRoot().addEventListener("click", (event) => {
      const target = event.target.closest("rect.sq");
      if (target) onSquareClick(Number(target.dataset.sq));
    });
    const p = state.puzzle;
    shown.title = { key: "pp.bk.exercise", args: {
      number: index + 1, n: p.n, school: school(COLOR_CHARS.indexOf(p.attacker)),
      difficulty: p.difficulty, id: p.id,
    } };
    el("title").textContent = word(shown.title);
    restart();
  }

  // ---- automated checks, run only when the URL asks for them ------------------
  // #selftest=<JSON {puzzle, actions}> plays moves and presses buttons through the
  // UI (DOM click events on squares and buttons) and writes what the page said into
  // <pre id="selftest-result">; #rulestest=<JSON [positions]> writes the legal
  // moves and successor positions for comparison with the Python reference.
  const { until, click, writeResult } = window.fbCommon;

  async function selfTest(spec) {
    // spec: {puzzle: index, actions: [move text | "click:<square>" | "takeback" | "step" |
    //   "hint" | "restart"]}
    const steps = [];
    const buttons = { takeback: "takeback", step: "step", hint: "hint", restart: "restart" };
    click(document.querySelector('#list tr.row[data-index="' + spec.puzzle + '"]'));
    for (const action of spec.actions) {
      await until(() => state.phase !== "defender" || state.stepping);
      let choices = [];
      if (action in buttons) {
        click(el(buttons[action]));
      } else if (action.startsWith("click:")) {
        click(squareRect(parseSquare(action.slice(6))));
      } else {
        const move = parseMove(action);
        if (move.from !== null) {
          click(squareRect(move.from));
          click(squareRect(move.to));
        }
        choices = Array.from(document.querySelectorAll("#choice button"), (b) => b.dataset.move);
        const button = document.querySelector('#choice button[data-move="' + action + '"]');
        if (button) click(button);
      }
      const step = {
        action, choices, state: el("status").dataset.state, message: el("status").textContent,
      };
      await until(() => state.phase !== "defender" || state.stepping);
      if (step.state === "good") step.reply = state.history[state.history.length - 1];
      step.solution = el("solution").textContent;
      steps.push(step);
    }
    const row = document.querySelector('#list tr.row[data-index="' + spec.puzzle + '"]');
    return {
      steps, final: el("status").dataset.state, message: el("status").textContent,
      history: state.history, position: positionText(state.pos), row: row.className,
    };
  }

  function rulesTest(positions) {
    return positions.map((text) => {
      const pos = parsePosition(text);
      const moves = legalMoves(pos);
      return {
        position: positionText(pos), winner: winner(pos), moves: moves.map(moveText),
        children: moves.map((m) => positionText(play(pos, m))),
      };
    });
  }

  async function runChecks() {
    const hash = decodeURIComponent(location.hash.slice(1));
    if (hash.startsWith("selftest=")) {
      // One spec, or a list of specs run one after the other on the same page.
      const spec = JSON.parse(hash.slice(9));
      const results = [];
      for (const one of Array.isArray(spec) ? spec : [spec]) results.push(await selfTest(one));
      writeResult("selftest-result", Array.isArray(spec) ? results : results[0]);
    } else if (hash.startsWith("rulestest=")) {
      writeResult("rulestest-result", rulesTest(JSON.parse(hash.slice(10))));
    }
  }

  // ---- start -------------------------------------------------------------------
  el("restart").addEventListener("click", restart);
  el("takeback").addEventListener("click", takeBack);
  el("hint").addEventListener("click", showSolution);
  el("step").addEventListener("click", stepLine);
  i18n.start(relabel);
  window.fbCommon.buildList(DATA.puzzles, selectPuzzle);
  if (DATA.puzzles.length) selectPuzzle(0);
  else setStatus("play", "pp.empty");
  runChecks();
})();
