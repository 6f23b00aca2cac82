"use strict";
// Battleklinge's board for the page of `fechtbuch serve`, as the rulebook's
// "Bedienung" and "Hilfen am Brett" describe it.  Everything it offers comes from
// the server's legal actions (card, from, to): tap a piece and its targets light up
// (turquoise: the upper hand card, orange: the lower, both: a dialog asks which card
// to give away); tap a card first and every piece that can use it gets a ring, and
// dots show its jumps around all own pieces (one tap on a dot moves the only piece
// that reaches it).  Any card can be tapped for a description.
(function () {
  const FILES = "abcde";
  const ui = { key: null, piece: null, card: null, shown: null, table: null, cursor: null };

  function squareName(file, rank) { return FILES[file] + String(rank + 1); }

  function describeCard(api, spec) {
    const jumps = spec.offsets.map(([dx, dy]) => {
      const parts = [];
      if (dy) parts.push(api.t(dy > 0 ? "bk.dir.forward" : "bk.dir.back", { n: Math.abs(dy) }));
      if (dx) parts.push(api.t(dx > 0 ? "bk.dir.right" : "bk.dir.left", { n: Math.abs(dx) }));
      return parts.join(" + ");
    });
    return api.t("bk.card.describe", { name: spec.label, jumps: jumps.join("; ") });
  }

  function cardGrid(spec) {
    const grid = document.createElement("span");
    grid.className = "bk-grid";
    grid.setAttribute("aria-hidden", "true");
    const jumps = new Set(spec.offsets.map(([dx, dy]) => `${2 + dx},${2 - dy}`));
    for (let row = 0; row < 5; row++) for (let col = 0; col < 5; col++) {
      const cell = document.createElement("i");
      if (row === 2 && col === 2) cell.className = "c";
      else if (jumps.has(`${col},${row}`)) cell.className = "j";
      grid.append(cell);
    }
    return grid;
  }

  function renderDraft(root, msg, api) {
    const draft = msg.prelude;
    // a pick is sent as the notation of its legal action (the page's and the room's differ)
    const legal = new Map(msg.legal.map((m) => [m.card, m.text]));
    const wrap = document.createElement("div");
    wrap.className = "bk-wrap bk-draft";
    const head = document.createElement("p");
    head.textContent = api.t("bk.draft", { first: msg.names[draft.first] })
      + (draft.to_choose === null ? "" : " " + api.t("bk.draft.turn", { name: msg.names[draft.to_choose] }));
    wrap.append(head);
    const row = (cards, label, clickable) => {
      const box = document.createElement("div");
      box.className = "bk-hand";
      box.setAttribute("aria-label", label);
      const title = document.createElement("span");
      title.textContent = label + ":";
      box.append(title);
      for (const card of cards) {
        const spec = draft.cards[card];
        const button = document.createElement("button");
        button.className = "bk-card";
        button.dataset.card = card;
        button.setAttribute("aria-label", describeCard(api, spec));
        const name = document.createElement("span");
        name.textContent = spec.label;
        button.append(name, cardGrid(spec));
        button.onclick = () => {
          api.console(describeCard(api, spec));
          if (clickable && legal.has(card)) api.act(legal.get(card));
        };
        box.append(button);
      }
      return box;
    };
    wrap.append(row(draft.open, api.t("bk.draft.open"), true));
    wrap.append(row(draft.hands[0], msg.names[0], false), row(draft.hands[1], msg.names[1], false));
    root.append(wrap);
  }

  function render(root, msg, api) {
    const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset : null;
    root.textContent = "";  // a tap redraws the board in place
    draw(root, msg, api);
    // the keyboard stays where it was: the same square, or the same card
    const again = focused && (focused.square ? `.bk-board [data-square="${focused.square}"]` : focused.card ? `.bk-hand [data-card="${focused.card}"]` : null);
    const target = again && root.querySelector(again);
    if (target) target.focus();
  }

  function draw(root, msg, api) {
    api.warn("");
    // every card's name from the catalogue (bk.cardname.<id>), in the page's language
    for (const [id, spec] of Object.entries((msg.prelude || msg.view).cards)) spec.label = api.t("bk.cardname." + id);
    if (msg.prelude) { renderDraft(root, msg, api); return; }
    const view = msg.view;
    const exercise = msg.type === "exercise";
    const key = `${msg.table}/${msg.moves.length}/${msg.legal.length}`;
    if (ui.key !== key) { ui.key = key; ui.piece = null; ui.card = null; }
    if (ui.table !== msg.table) { ui.table = msg.table; ui.cursor = null; }
    const seat = exercise ? view.aids.seat : msg.seat;
    const flip = exercise ? seat === 1 : (msg.mode !== "hotseat" || api.rotate) && seat === 1;
    const legal = msg.legal;
    const myHand = view.hands[seat];
    const slot = (card) => (card === myHand[0] ? "upper" : card === myHand[1] ? "lower" : null);
    const finished = exercise ? msg.solved || msg.lost : msg.finished;
    const aids = api.aids && !finished;
    const warnings = [];

    const wrap = document.createElement("div");
    wrap.className = "bk-wrap";
    const hands = (who) => {
      const row = document.createElement("div");
      row.className = "bk-hand bk-hand-" + (who === seat ? "own" : who === "side" ? "side" : "other");
      row.setAttribute("aria-label", api.t(who === seat ? "bk.hand.own" : "bk.hand.other"));
      const cards = who === "side" ? [view.side] : view.hands[who];
      for (const card of cards) {
        const spec = view.cards[card];
        const button = document.createElement("button");
        button.className = "bk-card";
        button.dataset.card = card;
        const place = who === seat ? slot(card) : null;
        if (place) button.classList.add(place);
        if (ui.card === card) button.classList.add("chosen");
        if (msg.last && msg.last.card === card) button.classList.add("played");
        button.setAttribute("aria-label", describeCard(api, spec));
        const name = document.createElement("span");
        name.textContent = spec.label + (who === "side" ? " (" + api.t("bk.side") + ")" : "");
        button.append(name, cardGrid(spec));
        button.onclick = () => {
          api.console(describeCard(api, spec));
          if (place && legal.some((m) => m.card === card && m.from)) {
            ui.card = ui.card === card ? null : card;
            ui.piece = null;
            render(root, msg, api);
          }
        };
        row.append(button);
      }
      return row;
    };

    const board = document.createElement("div");
    board.className = "bk-board";
    board.setAttribute("role", "grid");
    board.setAttribute("aria-label", api.t("bk.board"));
    const pieceAt = {};
    for (const piece of view.pieces) pieceAt[piece.square] = piece;
    const threatened = new Set(aids && view.aids.seat === seat ? view.aids.threatened : []);
    if (aids && view.aids.seat === seat && view.aids.master_threatened) warnings.push(api.t("bk.warn.master"));
    if (aids && view.aids.seat === seat && view.aids.banner_danger) warnings.push(api.t("bk.warn.banner"));
    const gift = aids && ui.card ? view.aids.gifts[ui.card] : null;
    if (gift && gift.master) warnings.push(api.t("bk.warn.gift_master", { card: view.cards[ui.card].label }));
    if (gift && gift.banner) warnings.push(api.t("bk.warn.gift_banner", { card: view.cards[ui.card].label }));
    const crosses = new Set(gift ? gift.squares : []);

    // targets of the selected piece, or the template of the chosen card
    const targets = {};
    for (const move of legal) {
      if (!move.from) continue;
      if (ui.piece && move.from === ui.piece && (!ui.card || move.card === ui.card)) (targets[move.to] = targets[move.to] || []).push(move);
      if (!ui.piece && ui.card && move.card === ui.card) (targets[move.to] = targets[move.to] || []).push(move);
    }
    const ringed = new Set(ui.card && !ui.piece ? legal.filter((m) => m.card === ui.card && m.from).map((m) => m.from) : []);
    const movable = new Set(legal.filter((m) => m.from).map((m) => m.from));
    const last = msg.last && msg.last.from ? [msg.last.from, msg.last.to] : [];
    const centres = {};

    // one tab stop on the board: the square the keyboard was on, else the chosen piece,
    // else the first piece that can move; the arrow keys walk the squares as drawn
    const stop = [ui.cursor, ui.piece, ...movable].find((name) => name && /^[a-e][1-5]$/.test(name)) || null;
    let line = null;
    for (let row = 0; row < 5; row++) for (let col = 0; col < 5; col++) {
      if (col === 0) {
        line = document.createElement("div");
        line.className = "bk-row";
        line.setAttribute("role", "row");
        line.setAttribute("aria-label", api.t("bk.rank", { n: flip ? row + 1 : 5 - row }));
        board.append(line);
      }
      const rank = flip ? row : 4 - row;
      const file = flip ? 4 - col : col;
      const name = squareName(file, rank);
      centres[name] = [col, row];
      const cell = document.createElement("button");
      cell.className = "bk-sq" + ((file + rank) % 2 ? "" : " dark");
      cell.dataset.square = name;
      cell.dataset.col = col;
      cell.dataset.row = row;
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = name === (stop || "a5") ? 0 : -1;
      const banner = view.banners.indexOf(name);
      if (banner >= 0) cell.classList.add("banner");
      if (aids && banner === seat && view.aids.seat === seat && view.aids.banner_danger) cell.classList.add("banner-danger");
      if (last.includes(name)) cell.classList.add("bk-last");
      if (crosses.has(name)) cell.classList.add("bk-cross");
      const piece = pieceAt[name];
      let label = name + ": ";
      if (piece) {
        const dot = document.createElement("span");
        dot.className = `bk-piece s${piece.school}` + (piece.master ? " master" : "");
        dot.textContent = piece.master ? "♛" : "";
        if (ui.piece === name) dot.classList.add("selected");
        if (ringed.has(name)) dot.classList.add("ring");
        if (threatened.has(name)) dot.classList.add("threat");
        cell.append(dot);
        label += api.t(piece.master ? "bk.master" : "bk.student", { school: msg.names ? msg.names[piece.school] : seatLabel(piece.school, api) });
        if (threatened.has(name)) label += ", " + api.t("bk.threatened");
      } else label += api.t("bk.empty");
      if (targets[name]) {
        const cards = new Set(targets[name].map((m) => m.card));
        const mark = document.createElement("span");
        const places = [...cards].map(slot);
        mark.className = "bk-dot " + (cards.size > 1 ? "both" : places[0] || "upper") + (ui.piece ? "" : " template");
        cell.append(mark);
        label += ", " + api.t("bk.target");
      }
      if (api.coords) {
        const coord = document.createElement("span");
        coord.className = "coord";
        coord.textContent = name;
        cell.append(coord);
      }
      cell.setAttribute("aria-label", label);
      cell.onclick = () => tap(name);
      line.append(cell);
    }
    board.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
      const at = event.target.dataset;
      if (!step || at.col === undefined) return;
      event.preventDefault();
      const col = Math.min(4, Math.max(0, Number(at.col) + step[0]));
      const row = Math.min(4, Math.max(0, Number(at.row) + step[1]));
      const next = board.querySelector(`[data-col="${col}"][data-row="${row}"]`);
      event.target.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
      ui.cursor = next.dataset.square;
    });

    function chooseAndPlay(moves) {
      if (moves.length === 1) { api.act(moves[0].text); return; }
      const dialog = document.getElementById("card-dialog");
      const buttons = document.getElementById("card-dialog-buttons");
      buttons.textContent = "";
      for (const move of moves) {
        const button = document.createElement("button");
        button.className = "bk-card " + (slot(move.card) || "");
        button.dataset.card = move.card;
        button.textContent = view.cards[move.card].label;
        button.onclick = () => { dialog.close(); api.act(move.text); };
        buttons.append(button);
      }
      dialog.showModal();
    }

    function tap(name) {
      ui.cursor = name;
      if (targets[name]) {
        const moves = targets[name];
        const pieces = new Set(moves.map((m) => m.from));
        if (pieces.size === 1) { chooseAndPlay(moves); return; }
        api.console(api.t("bk.several"));
        return;
      }
      if (movable.has(name)) { ui.piece = ui.piece === name ? null : name; render(root, msg, api); return; }
      if (ui.piece || ui.card) { ui.piece = null; render(root, msg, api); }
    }

    if (api.hint) {
      const [, squares] = api.hint.split(":");
      const [a, b] = squares ? [centres[squares.slice(0, 2)], centres[squares.slice(2, 4)]] : [];
      if (a && b) {  // a move between two squares (not a pass)
        const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        svg.setAttribute("class", "bk-arrow");
        svg.setAttribute("viewBox", "0 0 5 5");
        svg.innerHTML = '<defs><marker id="bk-head" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto">'
          + '<path d="M0,0 L4,2 L0,4 z" fill="#1a8a3a"/></marker></defs>'
          + `<line id="hint-arrow" x1="${a[0] + 0.5}" y1="${a[1] + 0.5}" x2="${b[0] + 0.5}" y2="${b[1] + 0.5}" stroke="#1a8a3a" stroke-width="0.12" marker-end="url(#bk-head)"/>`;
        board.append(svg);
      }
    }

    const other = 1 - seat;
    wrap.append(hands(other), board, hands("side"), hands(seat));
    for (const move of legal.filter((m) => !m.from)) {
      const button = document.createElement("button");
      button.className = "bk-pass";
      button.dataset.card = move.card;
      button.textContent = api.t("bk.pass", { card: view.cards[move.card].name });
      button.onclick = () => api.act(move.text);
      wrap.append(button);
    }
    root.append(wrap);
    if (warnings.length) api.warn(warnings.join(" "));
    const shownKey = `${msg.table}/${msg.moves.length}`;
    if (ui.shown !== shownKey) {
      ui.shown = shownKey;
      if (!exercise && msg.mode !== "replay") animateLast(board, msg, centres, api.speed);
      if (aids && view.aids.seat === seat && view.aids.master_threatened && legal.length) api.bell();
    }
  }

  // Each move is shown: the piece jumps from its square, a captured piece falls, the
  // played card slides to the side slot.  Only once per move (not on a tap's redraw).
  function animateLast(board, msg, centres, speed) {
    const last = msg.last;
    if (!last || !speed || !board.animate) return;
    const side = board.parentElement.querySelector(`.bk-hand [data-card="${last.card}"]`);
    if (side) side.animate([{ transform: "translateY(-30px)", opacity: 0.3 }, { transform: "none", opacity: 1 }], { duration: speed });
    if (!last.from) return;
    const cell = board.clientWidth / 5;
    const [fromCol, fromRow] = centres[last.from];
    const [toCol, toRow] = centres[last.to];
    const target = board.querySelector(`[data-square="${last.to}"]`);
    const piece = target.querySelector(".bk-piece");
    const move = msg.moves[msg.moves.length - 1];
    const key = move && move.explanation.key;
    if (key === "bk.explain.capture" || key === "bk.explain.master") {
      const fallen = document.createElement("span");
      fallen.className = `bk-piece s${1 - last.seat}` + (key === "bk.explain.master" ? " master" : "");
      target.append(fallen);
      fallen.animate([{ transform: "none", opacity: 1 }, { transform: "translateY(30%) scale(0.2)", opacity: 0 }],
        { duration: speed, fill: "forwards" }).onfinish = () => fallen.remove();
    }
    if (piece) {
      const dx = (fromCol - toCol) * cell;
      const dy = (fromRow - toRow) * cell;
      piece.animate([{ transform: `translate(${dx}px, ${dy}px) scale(1.15)` }, { transform: "none" }],
        { duration: speed, easing: "ease-out" });
    }
  }

  // a seat is a school (Gold, Blau) wherever the seat's person is named
  const seatLabel = (seat, api) => api.t(seat === 0 ? "choice.school.g" : "choice.school.b");
  window.FechtbuchGames.battleklinge = { render, boardPlay: true, seatLabel };
})();
