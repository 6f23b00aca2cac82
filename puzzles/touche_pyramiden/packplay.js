// Touché with pyramids on the version-2 pack page (puzzles/packpage.js), played on the
// drawing as at the serve page's table: tap a card of your hand (under the board) and
// the fields it may take light up, tap one.  A joker also lights the opponents'
// pyramids it may lift (then: only remove, or put your own in its place); dead cards
// are marked, and tapping them chooses them for an exchange (a worded choice).  Every
// pick is mapped to one of the node's legal actions, whose parts (card, field, what
// the action does) come from Python (PackKind.page_action); the page never decides
// what is legal.
"use strict";

window.fbPlay = {
  card(code) { return { key: "pp.tp.card." + code }; },

  // several cards in words: "7♥, 5♦"
  cards(codes) {
    if (codes.length === 1) return this.card(codes[0]);
    return { key: "pp.tp.and", args: { first: this.card(codes[0]), rest: this.cards(codes.slice(1)) } };
  },

  // an action in words (the page puts its notation beside them)
  words(parts) {
    if (parts.act === "exchange") return { key: "pp.tp.do.exchange", args: { cards: this.cards(parts.cards) } };
    if (parts.act === "pass") return { key: "pp.tp.do.pass" };
    return { key: "pp.tp.do." + parts.act, args: { card: this.card(parts.card), field: parts.field } };
  },

  // the defence's choice in words (the page puts its notation beside them): the card you
  // draw, or the opponent's action, its team named by the colour of its pyramids
  reply(parts) {
    if (parts.act === "draw") return { key: "pp.tp.reply.draw", args: { card: this.card(parts.card) } };
    const team = { key: "pp.tp.colour." + parts.team };
    if (parts.act === "exchange") return { key: "pp.tp.reply.exchange", args: { team, cards: this.cards(parts.cards) } };
    if (parts.act === "pass") return { key: "pp.tp.reply.pass", args: { team } };
    const act = parts.act === "place" && parts.card === "XX" ? "joker" : parts.act;
    return { key: "pp.tp.reply." + act, args: { team, card: this.card(parts.card), field: parts.field } };
  },

  attach(svg, actions, api) {
    const play = this;
    const fields = Array.from(svg.querySelectorAll("rect.field"));
    const hand = Array.from(svg.querySelectorAll("g.hand-card"));
    const codes = hand.map((card) => card.dataset.card);
    const mine = svg.querySelector("g.mine") ? Number(svg.querySelector("g.mine").dataset.team) : null;
    const owner = {};  // field -> team, or "crowned"
    for (const g of svg.querySelectorAll("g.pyramid")) owner[g.dataset.field] = Number(/team-(\d+)/.exec(g.getAttribute("class"))[1]) - 1;
    for (const g of svg.querySelectorAll("g.crowned")) owner[g.dataset.field] = "crowned";
    const exchanges = actions.filter((a) => a.parts.act === "exchange");
    const pass = actions.find((a) => a.parts.act === "pass");
    const sel = { card: null, swap: [], lift: null, hinted: null };

    function byField(act) {
      const out = {};
      if (sel.card === null) return out;
      for (const a of actions) {
        if (a.parts.card !== codes[sel.card] || !act.includes(a.parts.act)) continue;
        (out[a.parts.field] = out[a.parts.field] || []).push(a);
      }
      return out;
    }

    function what(field, rect) {
      const card = rect.dataset.card ? play.card(rect.dataset.card) : { key: "pp.tp.free" };
      const team = owner[field];
      let who = { key: "pp.tp.field.empty" };
      if (team === "crowned") who = { key: "pp.tp.field.crowned" };
      else if (team === mine) who = { key: "pp.tp.field.mine" };
      else if (team !== undefined) who = { key: "pp.tp.field.team", args: { team: { key: "pp.tp.colour." + team } } };
      return { key: "pp.tp.field", args: { field, card, who } };
    }

    function exchange() {
      const chosen = sel.swap.map((i) => codes[i]).sort().join();
      return exchanges.find((a) => a.parts.cards.slice().sort().join() === chosen) || null;
    }

    function prompt() {
      if (sel.lift !== null) return { key: "pp.tp.lift.ask", args: { field: sel.lift } };
      if (sel.card === null) return { key: "pp.tp.prompt.card" };
      const code = codes[sel.card];
      if (code === "XX") return { key: "pp.tp.prompt.joker" };
      const dead = hand[sel.card].classList.contains("dead");
      return { key: dead ? "pp.tp.prompt.dead" : "pp.tp.prompt.field", args: { card: play.card(code) } };
    }

    function update() {
      const places = byField(["place"]);
      const lifts = byField(["remove", "replace"]);
      const hinted = sel.hinted || {};
      for (const rect of fields) {
        const field = rect.dataset.field;
        const place = Boolean(places[field]);
        const lift = Boolean(lifts[field]) && !place;
        rect.classList.toggle("lit", place || lift);
        rect.classList.toggle("lift", lift);
        rect.classList.toggle("chosen", sel.lift === field);
        rect.classList.toggle("hinted", hinted.field === field);
        const about = what(field, rect);
        const label = place ? { key: "pp.tp.field.lit", args: { what: about } }
          : lift ? { key: "pp.tp.field.lift", args: { what: about } } : about;
        api.label(rect, label);
      }
      hand.forEach((card, i) => {
        const code = codes[i];
        const dead = card.classList.contains("dead");
        card.classList.add("ready");
        card.classList.toggle("chosen", sel.card === i);
        card.classList.toggle("swap", sel.swap.includes(i));
        card.classList.toggle("hinted", hinted.card === code || (hinted.cards || []).includes(code));
        card.setAttribute("aria-pressed", sel.card === i || sel.swap.includes(i) ? "true" : "false");
        const key = sel.swap.includes(i) ? "pp.tp.pick.swap" : sel.card === i ? "pp.tp.pick.chosen"
          : dead ? "pp.tp.pick.dead" : code === "XX" ? "pp.tp.pick.joker" : "pp.tp.pick.card";
        api.label(card, { key, args: { card: play.card(code) } });
      });
      const choices = [];
      if (sel.lift !== null) {
        for (const a of lifts[sel.lift] || []) {
          choices.push({ choice: a.parts.act, label: { key: "pp.tp.lift." + a.parts.act }, run: () => api.act(a.text) });
        }
        choices.push({ choice: "back", label: { key: "pp.tp.back" }, run: () => { sel.lift = null; update(); } });
      }
      const swap = exchange();
      if (swap) choices.push({ choice: "exchange", label: { key: "pp.tp.exchange", args: { n: sel.swap.length } }, run: () => api.act(swap.text) });
      if (pass) choices.push({ choice: "pass", label: { key: "pp.tp.pass" }, run: () => api.act(pass.text) });
      api.offer(choices);
      api.prompt(prompt());
    }

    function pickCard(i) {
      sel.lift = null;
      const dead = hand[i].classList.contains("dead");
      if (dead && exchanges.length) sel.swap = sel.swap.includes(i) ? sel.swap.filter((j) => j !== i) : [...sel.swap, i];
      sel.card = sel.card === i ? null : i;
      update();
    }

    function pickField(field) {
      const place = byField(["place"])[field];
      if (place) { api.act(place[0].text); return; }
      const lift = byField(["remove", "replace"])[field];
      if (!lift) return;
      if (lift.length === 1) { api.act(lift[0].text); return; }
      sel.lift = field;
      update();
    }

    hand.forEach((card, i) => api.pick(card, "card:" + i, { key: "pp.tp.pick.card", args: { card: play.card(codes[i]) } }));
    for (const rect of fields) api.pick(rect, "field:" + rect.dataset.field, { key: "pp.tp.board.plain" });
    update();
    return {
      pick(node) {
        if (node.dataset.field !== undefined) pickField(node.dataset.field);
        else if (node.dataset.index !== undefined) pickCard(Number(node.dataset.index));
      },
      reset() { sel.card = null; sel.swap = []; sel.lift = null; update(); },
      hint(action) { sel.hinted = action.parts; update(); },
    };
  },
};
