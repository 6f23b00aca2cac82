// Battleklinge on the version-2 pack page (puzzles/packpage.js): tap one of your pieces,
// the squares it reaches light up, tap one; when both cards of the hand reach it, tap
// the card (on the drawing or among the worded choices).  When no piece can move, the
// cards to hand on are offered.  Every pick is mapped to one of the node's legal
// actions, whose parts (the piece's square and its target as the drawing's data-sq,
// the card's id) come from Python (PackKind.page_action); the page never decides
// what is legal.
"use strict";

window.fbPlay = {
  FILES: "abcde",

  square(sq) { return this.FILES[sq % 5] + String(Math.floor(sq / 5) + 1); },

  card(id) { return { key: "pp.bk.card." + id }; },

  // an action in words (the page puts its notation beside them)
  words(parts) {
    if (parts.pass) return { key: "pp.bk.do.pass", args: { card: this.card(parts.card) } };
    return { key: "pp.bk.do.move", args: { card: this.card(parts.card), from: this.square(parts.from), to: this.square(parts.to) } };
  },

  // the defence's move in words, its school named (the page puts its notation beside them)
  reply(parts) {
    const school = { key: "pp.bk.school." + parts.school };
    const card = this.card(parts.card);
    if (parts.pass) return { key: "pp.bk.reply.pass", args: { school, card } };
    const key = parts.takes ? "pp.bk.reply.take" : "pp.bk.reply.move";
    return { key, args: { school, card, from: this.square(parts.from), to: this.square(parts.to) } };
  },

  attach(svg, actions, api) {
    const play = this;
    const pieces = {};  // square -> "g-m", "b-s", ...
    for (const use of svg.querySelectorAll("use.piece")) {
      pieces[use.dataset.sq] = (use.getAttribute("href") || "").replace("#piece-", "");
    }
    const rects = Array.from(svg.querySelectorAll("rect.sq"));
    const cards = {};
    for (const group of svg.querySelectorAll("g.card")) cards[group.dataset.card] = group;
    const moves = actions.filter((a) => !a.parts.pass);
    const passes = actions.filter((a) => a.parts.pass);
    const from = new Set(moves.map((a) => a.parts.from));
    const sel = { from: null, to: null, hinted: null };

    const what = (sq) => {
      const piece = pieces[sq];
      if (!piece) return { key: "pp.bk.empty" };
      return { key: "pp.bk.piece." + piece[2], args: { school: { key: "pp.bk.school." + piece[0] } } };
    };
    const options = (to) => moves.filter((a) => a.parts.from === sel.from && a.parts.to === to);

    function update() {
      const targets = new Set(sel.from === null ? [] : moves.filter((a) => a.parts.from === sel.from).map((a) => a.parts.to));
      const hinted = sel.hinted && !sel.hinted.pass ? [sel.hinted.from, sel.hinted.to] : [];
      for (const rect of rects) {
        const sq = Number(rect.dataset.sq);
        const lit = targets.has(sq);
        rect.classList.toggle("ready", from.has(sq));
        rect.classList.toggle("chosen", sq === sel.from || sq === sel.to);
        rect.classList.toggle("lit", lit);
        rect.classList.toggle("hinted", hinted.includes(sq));
        const key = sq === sel.from ? "pp.bk.square.chosen" : lit ? "pp.bk.square.lit" : "pp.bk.square";
        api.label(rect, { key, args: { square: play.square(sq), what: what(sq) } });
      }
      // the cards to choose from: both reaching the chosen target, or those to hand on
      const choice = sel.to !== null ? options(sel.to) : !moves.length ? passes : [];
      for (const [id, group] of Object.entries(cards)) {
        const offered = choice.find((a) => a.parts.card === id);
        if (offered) api.pick(group, "card:" + id, { key: "pp.bk.card.play", args: { name: play.card(id) } });
        else if (group.classList.contains("pick")) api.unpick(group);
        group.classList.toggle("lit", Boolean(offered));
        group.classList.toggle("hinted", Boolean(sel.hinted && sel.hinted.card === id && (sel.hinted.pass || sel.to !== null)));
      }
      api.offer(choice.map((a) => ({
        choice: "card:" + a.parts.card,
        label: a.parts.pass ? play.words(a.parts) : play.card(a.parts.card),
        run: () => api.act(a.text),
      })));
      if (sel.to !== null) api.prompt({ key: "pp.bk.both", args: { square: play.square(sel.to) } });
      else if (!moves.length) api.prompt({ key: "pp.bk.pass" });
      else if (sel.from !== null) api.prompt({ key: "pp.bk.prompt.target", args: { square: play.square(sel.from), what: what(sel.from) } });
      else api.prompt({ key: "pp.bk.prompt.piece" });
    }

    function pickSquare(sq) {
      if (sel.from !== null && sq !== sel.from) {
        const reach = options(sq);
        if (reach.length === 1) { api.act(reach[0].text); return; }
        if (reach.length > 1) { sel.to = sq; update(); return; }
      }
      sel.to = null;
      sel.from = from.has(sq) && sel.from !== sq ? sq : null;
      update();
    }

    for (const rect of rects) api.pick(rect, "sq:" + rect.dataset.sq, { key: "pp.bk.square", args: {} });
    update();
    return {
      pick(node) {
        if (node.dataset.sq !== undefined) { pickSquare(Number(node.dataset.sq)); return; }
        const card = node.dataset.card;
        const choice = sel.to !== null ? options(sel.to) : passes;
        const action = choice.find((a) => a.parts.card === card);
        if (action) api.act(action.text);
      },
      reset() { sel.from = null; sel.to = null; update(); },
      hint(action) { sel.hinted = action.parts; update(); },
    };
  },
};
