"use strict";
// Touché with pyramids on the pages of `fechtbuch serve` and the Wartesaal, played by
// hand: the own hand as cards, the board as 112 fields (each with its card, the
// pyramids in their team's colour and shape, a crowned field's pyramid in the colour
// and shape of the team that crowned it under a gold crown), the round's
// pattern as a small diagram, the teams with their points.  Tap a card and the fields
// it may take light up (a joker: every empty field and the opponents' pyramids it may
// lift; a dead card: marked, and it can be exchanged); tap a lit field to play.  Every
// tap is mapped to one of the legal actions the server sent (their parts: card, field,
// what the action does); the page never decides what is legal.  A round's end is shown
// as a moment: "Touché!" with the completed pattern lit, or a round without a point;
// the end of the game on the page's end screen, in the game's words (endScreen).
(function () {
  const COLS = "abcdefghijklmn";
  const COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00"];
  const SHAPES = ["triangle", "diamond", "circle", "square", "pentagon", "star"];
  const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  // the shapes of the patterns as (column, row) cells, drawn as small diagrams
  const PATTERNS = {
    linie: [[[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]],
    kvadrat: [[[0, 0], [1, 0], [0, 1], [1, 1]]],
    "t-form": [[[0, 0], [1, 0], [2, 0], [1, 1], [1, 2]]],
    kors: [[[1, 0], [0, 1], [1, 1], [2, 1], [1, 2]], [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]]],
  };
  PATTERNS.kombination = [PATTERNS.linie[0], PATTERNS.kvadrat[0], PATTERNS["t-form"][0], PATTERNS.kors[0]];
  const ui = { key: null, card: null, swap: [], lift: null, table: null, seen: null, moment: null, cursor: null };

  const el = (tag, cls, text) => {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const svgEl = (tag, attrs) => {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };
  const fieldName = (f) => COLS[f % 14] + String(Math.floor(f / 14) + 1);

  function cardName(api, card) {
    if (card === "XX") return api.t("tp.card.joker");
    const rank = card[0] === "T" ? "10" : card[0];
    return api.t("tp.card", { rank: api.t("tp.rank." + rank), suit: suitSign(card) });
  }
  const suitSign = (card) => SUITS[card[1]] || "";
  const isRed = (card) => card[1] === "H" || card[1] === "D";
  function cardFace(api, card) {
    if (card === "XX") return api.t("tp.card.joker");
    return api.t("tp.rank." + (card[0] === "T" ? "10" : card[0])) + suitSign(card);
  }
  const teamName = (api, team) => api.t("tp.colour." + team);
  // a seat's name: the page's (the colour, worded from the catalogue) or the room's person
  function seatName(api, msg, seat, teams) {
    const name = msg.names ? api.t(msg.names[seat]) : api.t("tp.seat." + (seat % teams));
    const team = teamName(api, seat % teams);
    return name.startsWith(team) ? name : api.t("tp.seat.team", { name, team });
  }

  // a crown over a crowned field's pyramid: gold over the team's own shape, or dark and
  // alone where the page does not know who crowned the field (an exercise's position)
  const CROWN = [[-7, 2], [-7, -7], [-3.5, -3], [0, -8.5], [3.5, -3], [7, -7], [7, 2]];

  function crownMark(team) {
    const svg = svgEl("svg", { viewBox: "-10 -10 20 20", class: "tp-marker tp-crowned", "aria-hidden": "true" });
    const known = team !== null && team !== undefined;
    if (known) {
      const base = shapeNode(SHAPES[team], COLOURS[team], "#000");
      base.setAttribute("transform", "translate(0 3.5) scale(.68)");
      svg.append(base);
    }
    const crown = svgEl("polygon", {
      points: CROWN.map(([x, y]) => `${x},${known ? y * .6 - 4.8 : y + 3}`).join(" "),
      fill: known ? "#f2c230" : "#111", stroke: known ? "#000" : "#fff", "stroke-width": "1",
    });
    svg.append(crown);
    return svg;
  }

  // a pyramid: the team's colour and shape (told apart without colour too); a crowned
  // field's: crownMark
  function marker(team, crowned) {
    if (crowned) return crownMark(team);
    const svg = svgEl("svg", { viewBox: "-10 -10 20 20", class: "tp-marker", "aria-hidden": "true" });
    svg.append(shapeNode(SHAPES[team], COLOURS[team], "#000"));
    return svg;
  }

  function shapeNode(shape, fill, stroke) {
    let node;
    if (shape === "circle") node = svgEl("circle", { r: 7 });
    else if (shape === "square") node = svgEl("rect", { x: -6.5, y: -6.5, width: 13, height: 13 });
    else {
      let points;
      if (shape === "triangle") points = [[0, -9], [8.5, 6.5], [-8.5, 6.5]];
      else if (shape === "diamond") points = [[0, -9], [9, 0], [0, 9], [-9, 0]];
      else if (shape === "pentagon") points = [0, 1, 2, 3, 4].map((i) => [9 * Math.sin(2 * Math.PI * i / 5), -9 * Math.cos(2 * Math.PI * i / 5)]);
      else points = [...Array(10).keys()].map((i) => { const r = i % 2 ? 4 : 9.5; return [r * Math.sin(Math.PI * i / 5), -r * Math.cos(Math.PI * i / 5)]; });
      node = svgEl("polygon", { points: points.map((p) => p.map((x) => x.toFixed(1)).join(",")).join(" ") });
    }
    node.setAttribute("fill", fill);
    node.setAttribute("stroke", stroke);
    node.setAttribute("stroke-width", "1.2");
    return node;
  }

  function chip(api, team, own) {
    const box = el("span", "tp-chip");
    box.append(marker(team, false), document.createTextNode(teamName(api, team) + (own ? " " + api.t("tp.you") : "")));
    return box;
  }

  function patternDiagram(api, pattern, team) {
    const shapes = PATTERNS[pattern] || [];
    const box = el("span", "tp-pattern-diagram");
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", api.t("tp.pattern." + pattern));
    for (const cells of shapes) {
      const svg = svgEl("svg", { viewBox: "-0.1 -0.1 5.2 3.2", class: "tp-shape" });
      for (const [x, y] of cells) {
        svg.append(svgEl("rect", { x, y, width: 0.9, height: 0.9, rx: 0.15, fill: team === undefined ? "currentColor" : COLOURS[team] }));
      }
      box.append(svg);
    }
    return box;
  }

  // ---- what the seat may do: the legal actions by card and field ------------------
  function actionsOf(msg) {
    return (msg.legal || []).filter((a) => a.act && a.act !== "other");
  }

  function targetsOf(legal, card) {
    const targets = {};
    for (const a of legal) {
      if (a.card !== card || !a.field || a.act !== "place") continue;
      (targets[a.field] = targets[a.field] || []).push(a);
    }
    return targets;
  }

  function describeField(api, view, f) {
    const card = view.layout[f];
    const cell = view.cells[f];
    const what = card ? cardName(api, card) : api.t("tp.free");
    let who = api.t("tp.field.empty");
    const crowner = (view.crowns || {})[fieldName(f)];
    if (cell === -2) who = crowner === undefined ? api.t("tp.field.crowned") : api.t("tp.field.crowned.team", { team: teamName(api, crowner) });
    else if (cell >= 0) who = api.t("tp.field.team", { team: teamName(api, cell) });
    return api.t("tp.field", { field: fieldName(f), card: what, who });
  }

  // ---- the moment of a round's end ------------------------------------------------
  // The page sees every state of its table; when the round number rises, the fields
  // crowned since are the completed pattern, and the team whose points rose called it.
  function noticeRound(msg, view) {
    if (!view || msg.type === "exercise" || !view.cells) return;
    const table = msg.table;
    const seen = ui.seen;
    ui.seen = { table, round: view.round, cells: view.cells.slice(), scores: view.scores.slice(), pattern: view.pattern };
    if (ui.table !== table) { ui.table = table; ui.moment = null; return; }
    if (!seen || view.round <= seen.round) return;
    const fields = [];
    view.cells.forEach((c, f) => { if (c === -2 && seen.cells[f] !== -2) fields.push(f); });
    const team = view.scores.findIndex((s, t) => s > seen.scores[t]);
    ui.moment = { round: seen.round, pattern: seen.pattern, team, fields, over: view.phase === "ende" || view.round > view.rounds, scores: view.scores.slice() };
  }

  function momentBox(api, view, mine) {
    const moment = ui.moment;
    const box = el("div", "tp-moment");
    box.setAttribute("role", "status");
    if (moment.team >= 0) {
      box.classList.add("touche");
      box.append(el("p", "tp-touche", api.t("tp.touche")));
      const line = el("p", "", api.t("tp.touche.line", { team: teamName(api, moment.team), pattern: api.t("tp.pattern." + moment.pattern), round: moment.round }));
      box.append(line);
      if (moment.team === mine) box.append(el("p", "tp-good", api.t("tp.touche.yours")));
    } else {
      box.append(el("p", "tp-touche", api.t("tp.round.none", { round: moment.round })));
    }
    box.append(scoreLine(api, view, mine));
    if (!moment.over) {
      const next = el("button", "tp-next", api.t("tp.round.next", { round: moment.round + 1 }));
      next.id = "tp-next";
      // the page's own parts may wait for the moment (a hotseat's hand-over): the page
      // redraws them all, the Wartesaal only the board
      next.onclick = () => { ui.moment = null; if (api.refresh) api.refresh(); else api.redraw(); };
      box.append(next);
    } else {
      box.append(el("p", "tp-over", api.t("tp.game.over")));
    }
    return box;
  }

  function scoreLine(api, view, mine) {
    const line = el("p", "tp-scores");
    line.setAttribute("aria-label", api.t("tp.points"));
    line.append(document.createTextNode(api.t("tp.points") + ": "));
    view.scores.forEach((score, team) => {
      const item = chip(api, team, team === mine);
      item.append(document.createTextNode(" " + score));
      item.dataset.team = String(team);
      line.append(item);
    });
    return line;
  }

  // ---- the page ----------------------------------------------------------------
  function render(root, msg, api) {
    root.textContent = "";
    const view = msg.view;
    if (!view || !view.cells) return;
    const exercise = msg.type === "exercise";
    const redraw = () => render(root, msg, { ...api, hint: null });
    api = { ...api, redraw };
    // the analysis' turning point is a position of the past: no round's end to notice,
    // and the table's moment (the last Touché) is not shown over it
    if (!msg.turning) noticeRound(msg, view);
    const moment = msg.turning ? null : ui.moment;
    const key = `${msg.table}/${(msg.moves || []).length}/${(msg.legal || []).length}`;
    if (ui.key !== key) { ui.key = key; ui.card = null; ui.swap = []; ui.lift = null; ui.cursor = null; }
    const legal = actionsOf(msg);
    const seat = view.seat;
    const mine = seat === undefined || seat === null ? null : seat % view.teams;
    const finished = exercise ? msg.solved || msg.lost : msg.finished;
    const wrap = el("div", "tp-wrap");
    wrap.dataset.phase = view.phase || "";
    root.append(wrap);

    // the round, its pattern and the points
    const head = el("div", "tp-head");
    const rounds = view.rounds;
    if (!exercise) head.append(el("span", "tp-round", api.t("tp.round", { round: Math.min(view.round, rounds), rounds })));
    if (view.pattern) {
      const pattern = el("span", "tp-pattern");
      pattern.append(document.createTextNode(api.t("tp.pattern.label") + " "), patternDiagram(api, view.pattern, mine === null ? undefined : mine),
        document.createTextNode(" " + api.t("tp.pattern." + view.pattern)));
      head.append(pattern);
    }
    wrap.append(head);
    if (!exercise) wrap.append(scoreLine(api, view, mine));
    wrap.append(seatsRow(api, msg, view, mine));

    if (moment && !exercise) wrap.append(momentBox(api, view, mine));

    // choices before play: the round's pattern, the member a team starts with
    const patterns = legal.filter((a) => a.act === "pattern");
    if (patterns.length && !moment) wrap.append(patternChoice(api, patterns));
    const leads = legal.filter((a) => a.act === "lead");
    if (leads.length && !moment) wrap.append(leadChoice(api, msg, leads));
    if (!patterns.length && !leads.length && !exercise && view.phase === "wahl" && !finished && !moment) {
      wrap.append(el("p", "tp-waiting", api.t("tp.choosing", { name: seatName(api, msg, view.to_move, view.teams) })));
    }

    // the hint (Rat) in words: its card and field are lit; at the turning point the
    // better action's (the page says it in words)
    let hinted = msg.turning ? msg.turning.better_action : null;
    if (api.hint && !hinted) {
      hinted = (msg.legal || []).find((a) => a.text === api.hint) || null;
      if (hinted) api.console(api.t(exercise ? "tp.solution.is" : "tp.hint.is", { action: actionWords(api, msg, hinted) }));
    }

    const playing = legal.some((a) => a.field || a.act === "exchange" || a.act === "pass") && !moment;
    const card = ui.card === null ? null : (view.hand || [])[ui.card];
    const targets = card ? targetsOf(legal, card) : {};
    const complete = new Set(moment ? moment.fields.map(fieldName) : view.complete || []);
    wrap.append(board(api, msg, view, { targets, complete, hinted, mine, playing }));
    if (ui.lift) wrap.append(liftChoice(api, ui.lift));
    // the hand's row under its heading "Deine Karten:" only while there are cards to
    // show: an empty hand at the game's end left the heading standing alone (the
    // turning point of a finished game shows the hand of its past position)
    if (view.hand && view.hand.length && view.phase !== "ende") wrap.append(hand(api, view, legal, playing, hinted));
    else if (!view.hand && !exercise) wrap.append(el("p", "tp-hidden", api.t("tp.hand.hidden")));
    if (playing) {
      const pass = legal.find((a) => a.act === "pass");
      if (pass) {
        const button = el("button", "tp-pass", api.t("tp.pass"));
        button.onclick = () => api.act(pass.text);
        wrap.append(button);
      }
      exchangeButton(api, wrap, legal);
    }
    wrap.append(discardRow(api, view));
    if (exercise && msg.solved) wrap.append(el("p", "tp-touche", api.t("tp.touche")));
    restoreFocus(root);
  }

  function actionWords(api, msg, action) {
    const args = { card: action.card ? cardName(api, action.card) : "", field: action.field || "" };
    if (action.act === "exchange") return api.t("tp.do.exchange", { cards: action.cards.map((c) => cardName(api, c)).join(", ") }) + ` (${action.text})`;
    if (action.act === "pattern") return api.t("tp.pattern." + action.pattern) + ` (${action.text})`;
    if (action.act === "lead") return api.t("tp.lead", { name: seatName(api, msg, action.seat, msg.view.teams) }) + ` (${action.text})`;
    return api.t("tp.do." + action.act, args) + ` (${action.text})`;
  }

  function seatsRow(api, msg, view, mine) {
    const row = el("div", "tp-seats");
    row.setAttribute("aria-label", api.t("tp.seats"));
    for (let s = 0; s < view.players; s++) {
      const team = s % view.teams;
      const item = el("span", "tp-seat");
      item.dataset.seat = String(s);
      if (s === view.to_move && view.phase !== "ende") item.classList.add("to-move");
      if (team === mine) item.classList.add("mine");
      item.append(marker(team, false));
      const you = s === view.seat ? " " + api.t("tp.you") : "";
      const pile = view.pile_sizes[s] === undefined ? "" : api.t("tp.seat.pile", { n: view.pile_sizes[s] });
      item.append(document.createTextNode(api.t("tp.seat", { name: seatName(api, msg, s, view.teams), hand: view.hand_sizes[s] }) + (pile ? " " + pile : "") + you));
      row.append(item);
    }
    return row;
  }

  function patternChoice(api, actions) {
    const box = el("div", "tp-choose");
    box.append(el("p", "", api.t("tp.choose.pattern")));
    for (const action of actions) {
      const button = el("button", "tp-pattern-button");
      button.dataset.pattern = action.pattern;
      button.append(patternDiagram(api, action.pattern), el("span", "", api.t("tp.pattern." + action.pattern)));
      button.setAttribute("aria-label", api.t("tp.pattern." + action.pattern) + ": " + api.t("tp.pattern.help." + action.pattern));
      button.title = api.t("tp.pattern.help." + action.pattern);
      button.onclick = () => api.act(action.text);
      box.append(button);
    }
    return box;
  }

  function leadChoice(api, msg, actions) {
    const box = el("div", "tp-choose");
    box.append(el("p", "", api.t("tp.choose.lead")));
    for (const action of actions) {
      const button = el("button", "tp-lead-button", api.t("tp.lead", { name: seatName(api, msg, action.seat, msg.view.teams) }));
      button.dataset.seat = String(action.seat);
      button.onclick = () => api.act(action.text);
      box.append(button);
    }
    return box;
  }

  function board(api, msg, view, aids) {
    const { targets, complete, hinted, mine, playing } = aids;
    const grid = el("div", "tp-board");
    grid.setAttribute("role", "grid");
    grid.setAttribute("aria-label", api.t("tp.board"));
    const lifts = {};
    if (playing && ui.card !== null && view.hand && view.hand[ui.card] === "XX") {
      for (const a of actionsOf(msg)) if (a.act === "remove" || a.act === "replace") (lifts[a.field] = lifts[a.field] || []).push(a);
    }
    const last = msg.last && msg.last.field;
    // one tab stop on the board (the field last focused, else the first lit one, else
    // a8); the arrow keys move between the fields, Enter or Space taps one
    const lit = Object.keys(targets)[0] || Object.keys(lifts)[0];
    const stop = ui.cursor || lit || "a8";
    grid.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
      const field = event.target.dataset && event.target.dataset.field;
      if (!step || !field) return;
      event.preventDefault();
      const col = Math.min(13, Math.max(0, COLS.indexOf(field[0]) + step[0]));
      const row = Math.min(8, Math.max(1, Number(field.slice(1)) + step[1]));
      const next = grid.querySelector(`.tp-cell[data-field="${COLS[col]}${row}"]`);
      event.target.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
      ui.cursor = next.dataset.field;
    });
    for (let row = 7; row >= 0; row--) {
      const line = el("div", "tp-row");
      line.setAttribute("role", "row");
      for (let col = 0; col < 14; col++) {
        const f = row * 14 + col;
        const name = fieldName(f);
        const card = view.layout[f];
        const cell = view.cells[f];
        const button = el("button", "tp-cell");
        button.setAttribute("role", "gridcell");
        button.dataset.field = name;
        button.tabIndex = name === stop ? 0 : -1;
        if (!card) button.classList.add("free");
        if (card && isRed(card)) button.classList.add("red");
        const face = el("span", "tp-face", card ? cardFace(api, card) : "★");
        button.append(face);
        if (cell === -2) {
          const crowner = (view.crowns || {})[name];
          button.classList.add("crowned");
          if (crowner !== undefined) button.dataset.crownedBy = String(crowner);
          button.append(marker(crowner === undefined ? null : crowner, true));
        }
        else if (cell >= 0) { button.classList.add("team-" + cell); if (cell === mine) button.classList.add("mine"); button.append(marker(cell, false)); }
        if (complete.has(name)) button.classList.add("complete");
        if (last === name) button.classList.add("last");
        if (hinted && hinted.field === name) button.classList.add("hinted");
        const here = targets[name];
        const lift = lifts[name];
        if (here) button.classList.add("target");
        if (lift) button.classList.add("lift");
        button.setAttribute("aria-label", describeField(api, view, f) + (here || lift ? " " + api.t("tp.field.playable") : ""));
        button.onclick = () => {
          api.console(describeField(api, view, f));
          if (here) { ui.lift = null; api.act(here[0].text); return; }
          if (lift) { ui.lift = { field: name, actions: lift }; api.redraw(); }
        };
        line.append(button);
      }
      grid.append(line);
    }
    return grid;
  }

  function liftChoice(api, lift) {
    const box = el("div", "tp-lift");
    box.append(el("p", "", api.t("tp.lift.ask", { field: lift.field })));
    for (const action of lift.actions) {
      const button = el("button", "tp-lift-" + action.act, api.t("tp.lift." + action.act));
      button.onclick = () => { ui.lift = null; api.act(action.text); };
      box.append(button);
    }
    const back = el("button", "tp-lift-back", api.t("tp.back"));
    back.onclick = () => { ui.lift = null; api.redraw(); };
    box.append(back);
    return box;
  }

  function hand(api, view, legal, playing, hinted) {
    const row = el("div", "tp-hand");
    row.setAttribute("aria-label", api.t("tp.hand"));
    row.append(el("span", "tp-hand-title", api.t("tp.hand") + ":"));
    const dead = new Set(view.dead || []);
    const exchangeable = legal.some((a) => a.act === "exchange");
    view.hand.forEach((card, index) => {
      const button = el("button", "tp-card");
      button.dataset.card = card;
      button.dataset.index = String(index);
      if (isRed(card)) button.classList.add("red");
      if (card === "XX") button.classList.add("joker");
      const face = el("span", "tp-card-face", cardFace(api, card));
      button.append(face);
      let words = cardName(api, card);
      if (dead.has(card)) {
        button.classList.add("dead");
        button.append(el("span", "tp-card-note", api.t("tp.card.dead.short")));
        words += ": " + api.t("tp.card.dead");
      } else if (card === "XX") {
        button.append(el("span", "tp-card-note", api.t("tp.card.joker.short")));
        words += ": " + api.t("tp.card.joker.help");
      }
      if (ui.card === index) button.classList.add("chosen");
      if (ui.swap.includes(index)) button.classList.add("swap");
      if (hinted && (hinted.card === card || (hinted.cards || []).includes(card))) button.classList.add("hinted");
      button.setAttribute("aria-label", words);
      button.onclick = () => {
        api.console(words);
        if (!playing) return;
        ui.lift = null;
        if (dead.has(card) && exchangeable) {
          ui.swap = ui.swap.includes(index) ? ui.swap.filter((i) => i !== index) : [...ui.swap, index];
        }
        ui.card = ui.card === index ? null : index;
        api.redraw();
      };
      row.append(button);
    });
    return row;
  }

  function exchangeButton(api, wrap, legal) {
    if (!ui.swap.length) return;
    const cards = ui.swap.map((i) => wrap.querySelector(`.tp-card[data-index="${i}"]`).dataset.card).sort();
    const action = legal.find((a) => a.act === "exchange" && a.cards.slice().sort().join() === cards.join());
    if (!action) return;
    const button = el("button", "tp-exchange", api.t("tp.exchange", { n: cards.length }));
    button.onclick = () => { ui.swap = []; api.act(action.text); };
    wrap.append(button);
  }

  function discardRow(api, view) {
    const row = el("div", "tp-discard");
    row.setAttribute("aria-label", api.t("tp.discard"));
    row.append(el("span", "", api.t("tp.discard.count", { n: view.discard.length })));
    for (const card of view.discard.slice(-8)) {
      const item = el("span", "tp-mini" + (isRed(card) ? " red" : ""), cardFace(api, card));
      row.append(item);
    }
    return row;
  }

  // a redraw replaces every button: keep the keyboard's place on the board or hand
  let focused = null;
  document.addEventListener("focusin", (event) => {
    const target = event.target;
    if (target.dataset && (target.dataset.field || target.dataset.index !== undefined)) {
      focused = target.dataset.field ? `.tp-cell[data-field="${target.dataset.field}"]` : `.tp-card[data-index="${target.dataset.index}"]`;
    } else focused = null;
  });
  function restoreFocus(root) {
    if (!focused || document.activeElement && document.activeElement !== document.body) return;
    const again = root.querySelector(focused);
    if (again) again.focus();
  }

  // the page's end screen in the game's words (the page says who won): how many
  // rounds were played, and every team's points
  function endScreen(msg, api) {
    const view = msg.view;
    if (!view || view.phase !== "ende") return null;
    const points = view.scores.map((s, t) => `${teamName(api, t)} ${s}`).join(" · ");
    return { reason: api.t("tp.final.after", { rounds: view.rounds }), detail: api.t("tp.final.points", { points }) };
  }

  // actionList false: the page lists no actions at all, the board and the hand offer
  // them (the Wartesaal folds its list away: boardPlay)
  // wide: on a wide screen the page sets the board beside its other parts (the board
  // of 14 x 8 fields under the end screen ran below the screen's edge)
  // holdsCover: while a round's moment is shown, the page's hand-over waits for its "Weiter"
  window.FechtbuchGames["touche-pyramiden"] = {
    render, endScreen, boardPlay: true, actionList: false, wide: true, holdsCover: () => Boolean(ui.moment),
  };
})();
