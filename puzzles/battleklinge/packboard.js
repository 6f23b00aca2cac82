// Battleklinge's drawing (engines/battleklinge/svg.py, English words) worded on the pack
// pages (version 1: v1page.js, version 2: packpage.js) in the page's language: the board's
// and the banners' titles, the cards' names and titles, the labels of the hands and the
// side card, and the caption under the board.  Read from the drawing's own marks: the
// position in data-position, the school at the bottom in data-bottom, the pieces'
// use.piece elements, each card's g.card[data-card] with its colour mark (a disc for
// Gold, a diamond for Blau).  The version-1 page words the parts that change as it plays
// (the caption, the side card's label, the board's title) again after each move.
"use strict";

window.fbBoard = {
  // the square each master starts on is its school's banner (c1, c5: engines BANNER)
  BANNER: { g: 2, b: 22 },

  school(char) { return { key: "pp.bk.school." + char }; },

  // the school that has hit in the drawn position, or null
  winner(svg) {
    const masters = {};
    for (const piece of svg.querySelectorAll("use.piece")) {
      const kind = (piece.getAttribute("href") || "").replace("#piece-", "");
      if (kind.endsWith("-m")) masters[kind[0]] = Number(piece.dataset.sq);
    }
    for (const [own, enemy] of [["g", "b"], ["b", "g"]]) {
      if (masters[enemy] === undefined || masters[own] === this.BANNER[enemy]) return own;
    }
    return null;
  },

  word(svg, t) {
    if (!svg.dataset.position) return;  // not Battleklinge's board
    const turn = svg.dataset.position.split(" ")[1];
    const bottom = svg.dataset.bottom;
    const top = bottom === "g" ? "b" : "g";
    const title = svg.querySelector(":scope > title");
    if (title) title.textContent = t("pp.bk.board", { school: this.school(turn) });
    for (const banner of svg.querySelectorAll("g.banner")) {
      banner.querySelector("title").textContent = t("pp.bk.banner", { school: this.school(banner.dataset.owner) });
    }
    for (const card of svg.querySelectorAll("g.card")) {
      const name = { key: "pp.bk.card." + card.dataset.card };
      const mark = card.querySelector(":scope > circle") ? "g" : "b";
      card.querySelector("title").textContent = t("pp.bk.card.title", { name, school: this.school(mark) });
      card.querySelector("text.card-name").textContent = t(name.key);
    }
    for (const label of svg.querySelectorAll("text.hand-label")) {
      const row = label.dataset.row;
      label.textContent = row === "side" ? t("pp.bk.side", { school: this.school(turn) })
        : t("pp.bk.hand", { school: this.school(row === "bottom" ? bottom : top) });
    }
    const caption = svg.querySelector("text.caption");
    const won = this.winner(svg);
    if (caption) {
      caption.textContent = won ? t("pp.bk.caption.hit", { school: this.school(won) })
        : t("pp.bk.caption.turn", { school: this.school(turn) });
    }
  },
};
