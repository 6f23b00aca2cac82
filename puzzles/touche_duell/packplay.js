// The Touché duel on the version-2 pack page (puzzles/packpage.js), played on the
// drawing as at the serve page's table: pick cards of your hand (equal ones for a
// stronger attack), the squares they reach light up, forward and back, and the
// opponent when they attack; tap one.  A lunge is a step (the forward square of its
// card) and then an attack from there; a parry is the marked cards (or its worded
// choice), a declined last attack a worded choice.  Every pick is mapped to one of the
// node's legal actions, whose parts (the cards played, the square, a lunge's first
// square) come from Python (PackKind.page_action); the page never decides what is legal.
"use strict";

window.fbPlay = {
  PARRY_PHASES: ["parade", "parade-l", "parade-v", "ausweichen", "ausweichen-v"],

  // an action in words (the page puts its notation beside them)
  words(parts) {
    const args = { step: Math.abs(parts.step), value: parts.value, count: parts.count };
    const key = {
      move: parts.step > 0 ? "pp.td.do.forward" : "pp.td.do.back",
      attack: "pp.td.do.attack",
      lunge: "pp.td.do.lunge",
      retreat: "pp.td.do.retreat",
      parry: "pp.td.do.parry",
      pass: "pp.td.do.pass",
    }[parts.kind];
    return { key, args };
  },

  // the defence's choice in words (the page puts its notation beside them): the cards
  // you draw after your action (and the round's end right there: the opponent cannot
  // parry or act, or the hands are compared), or the opponent's action
  reply(parts) {
    if (parts.kind === "draw") {
      const draw = parts.cards.length ? { key: "pp.td.draw", args: { cards: parts.cards.join(", ") } }
        : { key: "pp.td.draw.none" };
      if (!parts.ended) return draw;
      return { key: "pp.td.ended." + parts.ended, args: { draw, who: { key: "pp.td.seat." + parts.seat } } };
    }
    const key = parts.kind !== "move" ? "pp.td.reply." + parts.kind
      : parts.step > 0 ? "pp.td.reply.forward" : "pp.td.reply.back";
    const who = { key: "pp.td.seat." + parts.seat };
    return { key, args: { who, step: Math.abs(parts.step), value: parts.value, count: parts.count } };
  },

  attach(svg, actions, api) {
    const play = this;
    const viewer = Number(svg.dataset.viewer);
    const squares = svg.dataset.squares.split(" ").map(Number);
    const [attackValue, attackCount] = svg.dataset.attack.split(" ").map(Number);
    const phase = svg.dataset.phase;
    const cards = Array.from(svg.querySelectorAll("g.card.own"));
    const values = cards.map((card) => Number(card.dataset.value));
    const rects = Array.from(svg.querySelectorAll("rect.sq"));
    const parry = actions.find((a) => a.parts.kind === "parry");
    const pass = actions.find((a) => a.parts.kind === "pass");
    // the chosen cards (places in the hand), and a lunge's step: its card and square
    const sel = { cards: [], step: null, via: null, hinted: null };

    const same = (a, b) => a.length === b.length && a.slice().sort().join() === b.slice().sort().join();
    const chosen = () => sel.cards.map((i) => values[i]);

    // the squares the chosen cards reach: {kind, action, lunge} by square
    function targets() {
      const out = {};
      const picked = chosen();
      if (sel.via !== null) {
        out[sel.via] = { kind: "stepped", action: null };
        for (const a of actions) {
          const p = a.parts;
          if (p.kind === "lunge" && p.via === sel.via && p.step === values[sel.step] && picked.length && same(p.cards, picked)) {
            out[p.square] = { kind: "attack", action: a };
          }
        }
        return out;
      }
      if (!picked.length) return out;
      for (const a of actions) {
        const p = a.parts;
        if (p.square === null || p.via !== undefined || !same(p.cards, picked)) continue;
        const kind = p.kind === "attack" ? "attack" : p.kind === "move" && p.step > 0 ? "forward" : "back";
        out[p.square] = { kind, action: a };
      }
      if (picked.length === 1) {
        for (const a of actions) {
          const p = a.parts;
          if (p.kind !== "lunge" || p.step !== picked[0]) continue;
          const target = out[p.via] || (out[p.via] = { kind: "forward", action: null });
          target.lunge = true;
        }
      }
      return out;
    }

    // the cards a parry plays, as many as the attack has
    function parryCards() {
      const out = [];
      if (!parry) return out;
      values.forEach((v, i) => { if (v === attackValue && out.length < attackCount) out.push(i); });
      return out;
    }

    function who(seat) {
      const name = { key: "pp.td.seat." + seat };
      return seat === viewer ? { key: "pp.td.you", args: { seat: name } } : name;
    }

    function prompt() {
      if (sel.via !== null) {
        const distance = Math.abs(squares[1] - squares[0]) - values[sel.step];
        return { key: "pp.td.prompt.lunge", args: { step: values[sel.step], distance } };
      }
      if (play.PARRY_PHASES.includes(phase)) {
        const retreat = actions.some((a) => a.parts.kind === "retreat");
        const key = parry ? (retreat ? "pp.td.prompt.parry_or_retreat" : "pp.td.prompt.parry") : "pp.td.prompt.retreat";
        return { key, args: { value: attackValue, count: attackCount } };
      }
      const picked = chosen();
      if (picked.length) return { key: "pp.td.prompt.chosen", args: { value: picked[0], count: picked.length } };
      return { key: phase === "letzter" ? "pp.td.prompt.last" : "pp.td.prompt.turn" };
    }

    function update() {
      const lit = targets();
      const parrying = parryCards();
      const hinted = sel.hinted || { cards: [], square: null };
      const hintedCards = [];
      const wanted = (hinted.kind === "lunge" ? [hinted.step] : []).concat(hinted.cards || []);
      values.forEach((v, i) => {
        const at = wanted.indexOf(v);
        if (at >= 0) { hintedCards.push(i); wanted.splice(at, 1); }
      });
      cards.forEach((card, i) => {
        const picked = sel.cards.includes(i);
        const step = sel.step === i;
        card.classList.toggle("chosen", picked);
        card.classList.toggle("stepped", step);
        card.classList.toggle("parry", parrying.includes(i));
        card.classList.toggle("hinted", hintedCards.includes(i));
        card.classList.add("ready");
        card.setAttribute("aria-pressed", picked || step ? "true" : "false");
        const key = step ? "pp.td.card.step" : picked ? "pp.td.card.chosen" : parrying.includes(i) ? "pp.td.card.parry" : "pp.td.card";
        api.label(card, { key, args: { value: values[i] } });
      });
      for (const rect of rects) {
        const square = Number(rect.dataset.square);
        const target = lit[square];
        rect.classList.toggle("lit", Boolean(target));
        for (const kind of ["forward", "back", "attack", "stepped"]) rect.classList.toggle(kind, Boolean(target) && target.kind === kind);
        rect.classList.toggle("hinted", square === hinted.square || square === hinted.via);
        const seat = squares.indexOf(square);
        let label = seat >= 0 ? { key: "pp.td.square.fencer", args: { n: square, who: who(seat) } } : { key: "pp.td.square", args: { n: square } };
        if (target) label = { key: "pp.td.lit", args: { square: label, target: { key: "pp.td.target." + target.kind } } };
        api.label(rect, label);
      }
      const choices = [];
      if (parry) choices.push({ choice: "parry", label: play.words(parry.parts), run: () => api.act(parry.text) });
      if (pass) choices.push({ choice: "pass", label: play.words(pass.parts), run: () => api.act(pass.text) });
      if (sel.via !== null) {
        const only = actions.find((a) => a.parts.kind === "move" && a.parts.square === sel.via);
        if (only) choices.push({ choice: "step-only", label: { key: "pp.td.step.only", args: { step: values[sel.step] } }, run: () => api.act(only.text) });
        choices.push({ choice: "step-back", label: { key: "pp.td.step.back" }, run: () => { sel.via = null; sel.step = null; sel.cards = []; update(); } });
      }
      api.offer(choices);
      api.prompt(prompt());
    }

    function pickCard(i) {
      if (sel.step === i) { sel.via = null; sel.step = null; sel.cards = []; update(); return; }
      const value = values[i];
      const retreat = actions.some((a) => a.parts.kind === "retreat" && a.parts.cards[0] === value);
      if (parry && value === attackValue && !sel.cards.length && !retreat) { api.act(parry.text); return; }
      if (sel.cards.includes(i)) sel.cards = sel.cards.filter((j) => j !== i);
      else if (sel.cards.length && values[sel.cards[0]] === value) sel.cards = [...sel.cards, i];
      else sel.cards = [i];
      update();
    }

    function pickSquare(square) {
      const target = targets()[square];
      if (!target) return;
      if (target.lunge && sel.via === null) {
        sel.step = sel.cards[0];
        sel.via = square;
        sel.cards = [];
        update();
        return;
      }
      if (target.action) api.act(target.action.text);
    }

    cards.forEach((card, i) => api.pick(card, "card:" + i, { key: "pp.td.card", args: { value: values[i] } }));
    for (const rect of rects) api.pick(rect, "sq:" + rect.dataset.square, { key: "pp.td.square", args: { n: Number(rect.dataset.square) } });
    update();
    return {
      pick(node) {
        if (node.dataset.square !== undefined) pickSquare(Number(node.dataset.square));
        else if (node.dataset.index !== undefined) pickCard(Number(node.dataset.index));
      },
      reset() { sel.cards = []; sel.step = null; sel.via = null; update(); },
      hint(action) { sel.hinted = action.parts; update(); },
    };
  },
};
