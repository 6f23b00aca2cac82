"use strict";
// The Touché duel's table on the pages of `fechtbuch serve` and the Wartesaal, drawn
// here from the seat's view (the server never sends the other hand): the piste with
// both fencers, the own hand as cards to pick, the other hand as card backs, the pile
// and the discards, and the card-counting aid.  A click sequence (cards, then a square
// or the opponent) is mapped to one of the legal actions the server sent, and only its
// notation is sent back: the server decides what is legal.  A round's end is shown as
// a moment of its own (the server deals the next round at once).
(function () {
  const SQUARES = 23;
  const PARRY_PHASES = ["parade", "parade-l", "parade-v", "ausweichen", "ausweichen-v"];
  const picked = {};   // per table: the chosen cards and a lunge's step, until the view changes
  const seen = {};     // per table: the moves already shown, and a round's end waiting for "next round"

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // the fencers' names: you and the computer's strength, the two people at one device,
  // the people of a Wartesaal table
  function fencerNames(msg, api) {
    const letters = ["A", "B"];
    if (msg.type === "exercise") return letters.map((l, s) => (s === msg.view.seat ? api.t("td.you", { seat: l }) : api.t("td.opponent", { seat: l })));
    if (msg.mode === "computer" || msg.mode === "daily") {
      const strength = api.t("choice.strength." + msg.facts.strength);
      return letters.map((l, s) => (msg.people.includes(s) ? api.t("td.you", { seat: l }) : api.t("td.computer", { seat: l, strength })));
    }
    if (msg.mode === "hotseat" || msg.mode === "replay") return letters.map((l) => api.t("td.fencer", { seat: l }));
    return letters.map((l, s) => `${(msg.names || letters)[s]} (${l})`);
  }

  function card(value, className) {
    const node = el("span", "td-card " + (className || ""));
    node.append(el("span", "td-pip", String(value)));
    return node;
  }

  function backs(count, label) {
    const row = el("div", "td-backs");
    row.setAttribute("role", "img");
    row.setAttribute("aria-label", label);
    for (let i = 0; i < count; i += 1) row.append(el("span", "td-card td-back"));
    return row;
  }

  function render(root, msg, api) {
    const view = msg.view;
    const table = el("div", "td-table");
    table.dataset.phase = view.phase;
    root.append(table);
    const names = fencerNames(msg, api);
    const key = msg.table || "exercise";
    const moment = roundMoment(msg, key);
    const me = view.seat === undefined ? null : view.seat;
    // the analysis' turning point: the better action lit on the table as if chosen
    const lit = msg.turning && me !== null ? turningLights(view, msg.turning.better_action, me) : null;
    const draw = () => { table.textContent = ""; drawTable(table, msg, api, names, me, key, lit); };
    draw();
    if (moment) {
      showMoment(table, moment, names, api, () => {
        seen[key].moment = null;
        draw();
        // the keyboard goes on at the own hand of the next round
        const first = table.querySelector(".td-own:not(:disabled)");
        if (first) first.focus();
      });
    }
    if (api.hint) {
      const hinted = (msg.legal || []).find((a) => a.text === api.hint);
      if (hinted) api.console(api.t("play.hint.is", { action: `${api.t(hinted.label_key, hinted.args)} (${hinted.text})` }));
    }
  }

  // ---- a round's end: found in the explanation of the move that ended it ----------
  function roundMoment(msg, key) {
    const moves = msg.moves || [];
    const state = seen[key] || { count: 0, moment: null };
    seen[key] = state;
    if (msg.mode === "replay" || moves.length < state.count) { state.count = moves.length; state.moment = null; return null; }
    for (let i = state.count; i < moves.length; i += 1) {
      const explanation = moves[i].explanation;
      if (explanation && explanation.round) state.moment = { ...explanation.round, final: msg.finished && i === moves.length - 1 };
    }
    state.count = moves.length;
    return state.moment;
  }

  function momentWords(moment, names, api) {
    // "You (A)" takes the verb's second person: "You win the round", not "You (A) wins"
    const yours = moment.winner !== null && names[moment.winner] === api.t("td.you", { seat: ["A", "B"][moment.winner] });
    const winner = moment.winner === null ? api.t("td.round.nobody") : yours ? api.t("td.round.won.you") : api.t("td.round.won", { name: names[moment.winner] });
    return { title: api.t("td.round." + moment.how), winner };
  }

  function showMoment(table, moment, names, api, next) {
    const box = el("div", "td-moment td-" + moment.how);
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-label", api.t("td.round." + moment.how));
    const words = momentWords(moment, names, api);
    box.append(el("h4", "td-moment-title", words.title));
    const piste = el("div", "td-mini");
    for (const seat of [0, 1]) {
      const fencer = el("span", `td-fencer td-fencer-${"ab"[seat]}`, "AB"[seat]);
      if (moment.how === "treffer" && moment.winner !== null && seat !== moment.winner) fencer.classList.add("td-touched");
      if (moment.how === "treffer" && seat === moment.winner) fencer.classList.add("td-lunging");
      piste.append(fencer);
    }
    box.append(piste);
    box.append(el("p", "td-moment-winner", words.winner));
    if (moment.hands) {
      moment.hands.forEach((hand, seat) => {
        const row = el("div", "td-moment-hand");
        row.append(el("span", "", names[seat] + ": "));
        for (const value of hand) row.append(card(value, value === moment.distance ? "td-counts" : ""));
        box.append(row);
      });
    }
    box.append(el("p", "td-moment-score", api.t("td.score.line", { a: moment.score[0], b: moment.score[1] })));
    if (!moment.final) {
      const button = el("button", "td-next", api.t("td.next"));
      button.onclick = next;
      box.append(button);
      setTimeout(() => button.focus(), 0);
    }
    table.append(box);
  }

  // ---- the turning point: which cards of the hand and which squares the better
  // action uses, drawn as a choice is drawn (the cards raised, the squares lit)
  function turningLights(view, action, me) {
    const dir = me === 0 ? 1 : -1;
    const own = view.squares[me];
    const foe = view.squares[1 - me];
    const cards = [];
    const take = (value, count) => {
      view.hand.forEach((v, index) => { if (v === value && count > 0 && !cards.includes(index)) { cards.push(index); count -= 1; } });
    };
    const squares = {};
    if (action.kind === "move") {
      take(Math.abs(action.step), 1);
      squares[own + dir * action.step] = action.step > 0 ? "forward" : "back";
    } else if (action.kind === "attack") {
      take(action.value, action.count);
      squares[foe] = "attack";
    } else if (action.kind === "lunge") {
      take(action.step, 1);
      take(action.value, action.count);
      squares[own + dir * action.step] = "stepped";
      squares[foe] = "attack";
    } else if (action.kind === "retreat") {
      take(action.step, 1);
      squares[own - dir * action.step] = "back";
    } else if (action.kind === "parry") {
      take(view.attack[0], view.attack[1]);
    }
    return { cards, squares };
  }

  // ---- the table -----------------------------------------------------------------
  function drawTable(table, msg, api, names, me, key, lit) {
    const view = msg.view;
    const legal = msg.legal || [];
    const other = me === null ? null : 1 - me;
    const head = el("div", "td-head");
    head.append(el("span", "td-name td-name-a" + (view.mover === 0 ? " td-to-act" : ""), names[0]));
    const score = el("span", "td-score", api.t("td.score.line", { a: view.score[0], b: view.score[1] }));
    score.title = api.t("td.target", { target: view.target });
    head.append(score);
    head.append(el("span", "td-name td-name-b" + (view.mover === 1 ? " td-to-act" : ""), names[1]));
    table.append(head);
    table.append(el("p", "td-facts", api.t("td.facts", { target: view.target, distance: view.squares[1] - view.squares[0] })));

    // the other hand (card backs), or both at one device between turns
    const hidden = el("div", "td-hidden");
    for (const seat of [0, 1]) {
      if (seat === me) continue;
      hidden.append(backs(view.hand_sizes[seat], api.t("td.backs", { name: names[seat], n: view.hand_sizes[seat] })));
    }
    table.append(hidden);

    const state = chosen(msg, key);
    const targets = me === null ? {} : reachable(view, legal, state, me);
    if (lit) for (const [square, kind] of Object.entries(lit.squares)) targets[square] = { kind, hinted: true };
    table.append(piste(view, names, targets, api, (square) => clickSquare(square)));

    const middle = el("div", "td-middle");
    const pile = el("div", "td-pile");
    pile.append(el("span", "td-card td-back"), el("span", "td-pile-count", api.t("td.pile", { n: view.pile_size })));
    pile.setAttribute("aria-label", api.t("td.pile", { n: view.pile_size }));
    middle.append(pile);
    if (view.discard) {
      const fan = el("div", "td-discard");
      fan.setAttribute("aria-label", api.t("td.discard.label"));
      view.discard.forEach((count, index) => { for (let i = 0; i < count; i += 1) fan.append(card(index + 1, "td-small")); });
      if (!fan.children.length) fan.append(el("span", "td-empty", api.t("td.discard.none")));
      middle.append(fan);
    }
    table.append(middle);
    if (me === null || !view.hand) return;

    const prompt = el("p", "td-prompt");
    prompt.setAttribute("aria-live", "polite");
    prompt.textContent = promptText(view, legal, state, api);
    table.append(prompt);
    table.append(handRow(view, legal, lit ? { cards: lit.cards, step: null, hinted: true } : state, api, (index) => clickCard(index)));
    const choices = el("div", "td-choices");
    const parry = legal.find((a) => a.kind === "parry");
    if (parry) {
      const button = el("button", "td-parry-button", api.t("td.action.parry.cards", { value: view.attack[0], count: view.attack[1] }));
      button.onclick = () => api.act(parry.text);
      choices.append(button);
    }
    const pass = legal.find((a) => a.kind === "pass");
    if (pass) {
      const button = el("button", "td-pass", api.t("td.action.pass"));
      button.onclick = () => api.act(pass.text);
      choices.append(button);
    }
    if (state.step !== null) {
      const only = legal.find((a) => a.kind === "move" && a.step === state.step);
      if (only) {
        const button = el("button", "td-step-only", api.t("td.step.only", { step: state.step }));
        button.onclick = () => api.act(only.text);
        choices.append(button);
      }
      const back = el("button", "td-undo-step", api.t("td.step.back"));
      back.onclick = () => { state.step = null; state.cards = []; redraw(); };
      choices.append(back);
    }
    table.append(choices);
    if (api.aids) table.append(countingPanel(view, api));

    // a choice redraws the table; the focus stays on the card or square (keyboard play)
    function redraw() {
      const focused = document.activeElement;
      const again = focused && focused.dataset && focused.dataset.index !== undefined ? `.td-own[data-index='${focused.dataset.index}']`
        : focused && focused.dataset && focused.dataset.square ? `.td-sq[data-square='${focused.dataset.square}']` : null;
      table.textContent = "";
      drawTable(table, msg, api, names, me, key);
      const target = again && table.querySelector(again);
      if (target) target.focus();
    }

    function clickCard(index) {
      const value = view.hand[index];
      if (state.step !== null && index === stepIndex(view, state)) return;  // the card of the step
      const parry = legal.find((a) => a.kind === "parry");
      if (parry && value === view.attack[0] && !state.cards.length && !legal.some((a) => a.kind === "retreat" && a.step === value)) {
        api.act(parry.text);
        return;
      }
      if (state.cards.includes(index)) state.cards = state.cards.filter((i) => i !== index);
      else if (state.cards.length && view.hand[state.cards[0]] === value) state.cards = [...state.cards, index];
      else state.cards = [index];
      redraw();
    }

    function clickSquare(square) {
      const target = targets[square];
      if (!target) return;
      if (target.lungeStep) { state.step = target.lungeStep; state.cards = []; redraw(); return; }
      if (target.action) api.act(target.action.text);
    }
  }

  // the selection of the current view; a new view (another move) starts afresh
  function chosen(msg, key) {
    const stamp = `${(msg.moves || []).length}/${msg.view.phase}/${msg.view.squares}/${(msg.view.hand || []).join("")}`;
    if (!picked[key] || picked[key].stamp !== stamp) picked[key] = { stamp, cards: [], step: null };
    return picked[key];
  }

  function stepIndex(view, state) {
    return view.hand.indexOf(state.step);
  }

  // The squares the chosen cards reach, each with the legal action it plays: forward
  // and back for one card, the opponent's square for an attack (several equal cards:
  // a stronger attack), the forward square of a lunge's step, the back square of a
  // retreat.  Every action comes from the server's legal list.
  function reachable(view, legal, state, me) {
    const dir = me === 0 ? 1 : -1;
    const own = view.squares[me];
    const foe = view.squares[1 - me];
    const out = {};
    const values = state.cards.map((i) => view.hand[i]);
    const value = values[0];
    const count = values.length;
    if (state.step !== null) {
      const stepped = own + dir * state.step;
      out[stepped] = { kind: "stepped" };
      const lunge = legal.find((a) => a.kind === "lunge" && a.step === state.step && a.value === value && a.count === count);
      if (lunge) out[foe] = { kind: "attack", action: lunge };
      return out;
    }
    if (!count) return out;
    const attack = legal.find((a) => a.kind === "attack" && a.value === value && a.count === count);
    if (attack) out[foe] = { kind: "attack", action: attack };
    if (count !== 1) return out;
    const forward = legal.find((a) => a.kind === "move" && a.step === value);
    const lunges = legal.some((a) => a.kind === "lunge" && a.step === value);
    if (forward || lunges) out[own + dir * value] = { kind: "forward", action: forward, lungeStep: lunges ? value : null };
    const back = legal.find((a) => (a.kind === "move" && a.step === -value) || (a.kind === "retreat" && a.step === value));
    if (back) out[own - dir * value] = { kind: "back", action: back };
    return out;
  }

  // The arrow keys walk a row of buttons (the piste's squares, the own cards); Tab
  // reaches the lit squares and the cards, Enter picks.
  function arrowKeys(row, selector) {
    row.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      const items = [...row.querySelectorAll(selector)].filter((item) => !item.disabled);
      const at = items.indexOf(event.target);
      if (!step || at < 0) return;
      event.preventDefault();
      items[Math.min(items.length - 1, Math.max(0, at + step))].focus();
    });
    return row;
  }

  function piste(view, names, targets, api, onClick) {
    const row = el("div", "td-piste");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", api.t("td.piste"));
    for (let square = 1; square <= SQUARES; square += 1) {
      const cell = el("button", "td-sq");
      cell.dataset.square = square;
      const seat = view.squares.indexOf(square);
      let label = api.t("td.square", { n: square });
      if (seat >= 0) {
        cell.append(el("span", `td-fencer td-fencer-${"ab"[seat]}`, "AB"[seat]));
        label += ": " + names[seat];
      }
      const target = targets[square];
      if (target) {
        cell.classList.add("td-" + target.kind);
        if (target.hinted) cell.classList.add("td-hinted");
        label += " – " + api.t("td.target." + target.kind);
      } else cell.tabIndex = -1;
      cell.setAttribute("aria-label", label);
      cell.onclick = () => onClick(square);
      row.append(cell);
    }
    return arrowKeys(row, ".td-sq");
  }

  function handRow(view, legal, state, api, onClick) {
    const row = el("div", "td-hand");
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", api.t("td.hand"));
    const parry = legal.some((a) => a.kind === "parry");
    let parryCards = parry ? view.attack[1] : 0;
    view.hand.forEach((value, index) => {
      const button = el("button", "td-card td-own");
      button.append(el("span", "td-pip", String(value)));
      button.dataset.value = value;
      button.dataset.index = index;
      const selected = state.cards.includes(index);
      const stepCard = state.step !== null && index === stepIndex(view, state);
      if (selected) button.classList.add("td-selected");
      if (selected && state.hinted) button.classList.add("td-hinted");
      if (stepCard) button.classList.add("td-stepped");
      if (parryCards && value === view.attack[0]) { button.classList.add("td-parry"); parryCards -= 1; }
      button.setAttribute("aria-pressed", selected ? "true" : "false");
      button.setAttribute("aria-label", api.t("td.card", { value }));
      button.disabled = !legal.length;
      button.onclick = () => onClick(index);
      row.append(button);
    });
    return arrowKeys(row, ".td-own");
  }

  function promptText(view, legal, state, api) {
    if (!legal.length) return "";
    const values = state.cards.map((i) => view.hand[i]);
    if (state.step !== null) return api.t("td.prompt.lunge", { step: state.step, distance: Math.abs(view.squares[1] - view.squares[0]) - state.step });
    if (PARRY_PHASES.includes(view.phase)) {
      const [value, count] = view.attack;
      const can = legal.some((a) => a.kind === "parry");
      const retreat = legal.some((a) => a.kind === "retreat");
      const key = can ? (retreat ? "td.prompt.parry_or_retreat" : "td.prompt.parry") : "td.prompt.retreat";
      return api.t(key, { value, count });
    }
    if (values.length) return api.t("td.prompt.chosen", { value: values[0], count: values.length });
    return api.t(view.phase === "letzter" ? "td.prompt.last" : "td.prompt.turn");
  }

  // the card-counting aid: per value the cards played and those not seen (the other
  // hand and the pile hold them)
  function countingPanel(view, api) {
    const box = el("table", "td-counting");
    const caption = el("caption", "", api.t("td.counting"));
    box.append(caption);
    const rows = [["td.counting.value", [1, 2, 3, 4, 5]], ["td.counting.played", view.discard], ["td.counting.unseen", view.unseen]];
    for (const [label, cells] of rows) {
      const tr = el("tr");
      tr.append(el("th", "", api.t(label)));
      for (const cell of cells) tr.append(el("td", "", String(cell)));
      box.append(tr);
    }
    return box;
  }

  // the end screen's own words: the final score and how the last round ended
  function endScreen(msg, api) {
    const view = msg.view;
    if (!view || !view.score) return {};
    const names = fencerNames(msg, api);
    const last = (msg.moves || [])[msg.moves.length - 1];
    const round = last && last.explanation && last.explanation.round;
    const detail = api.t("td.final", { a: view.score[0], b: view.score[1], nameA: names[0], nameB: names[1] });
    if (!round || msg.ended_by) return { detail };
    const words = momentWords(round, names, api);
    return { reason: api.t("td.round.reason", { how: words.title, winner: words.winner }), detail };
  }

  // the fencers are A and B wherever a seat's person is named; the page shows no list
  // of the actions in notation (the table offers them all)
  window.FechtbuchGames["touche-duell"] = { render, endScreen, boardPlay: false, actionList: false, seatLabel: (seat) => "AB"[seat] };
})();
