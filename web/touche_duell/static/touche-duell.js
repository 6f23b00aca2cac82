"use strict";
// The Touché duel's board for the page of `fechtbuch serve`: the track and the own
// hand as the server's SVG draws them (the seat's view only), the score, and the
// legal actions as the page's buttons.
(function () {
  function render(root, msg, api) {
    const view = msg.view;
    const names = msg.names || ["A", "B"];
    if (view.score) {  // a game; an exercise's view is its drawing only
      const score = document.createElement("p");
      score.className = "td-score";
      score.textContent = api.t("td.score", { a: view.score[0], b: view.score[1], target: view.target, from: view.squares[0], to: view.squares[1] });
      root.append(score);
    }
    if (view.svg) {
      const board = document.createElement("div");
      board.className = "svg-board";
      board.innerHTML = view.svg;
      root.append(board);
    }
    if (view.hand_sizes) {  // between the turns of a hotseat game, and for a spectator
      const hidden = document.createElement("p");
      hidden.textContent = api.t("td.hidden", { a: view.hand_sizes[0], b: view.hand_sizes[1], pile: view.pile_size, name: names[view.mover] });
      root.append(hidden);
    }
    if (view.hand) {
      const hand = document.createElement("p");
      hand.className = "td-hand";
      hand.setAttribute("aria-label", api.t("td.hand"));
      hand.textContent = view.hand.join(" ");
      root.append(hand);
    }
    if (api.hint) api.console(api.t("play.hint.is", { action: api.hint }));
  }
  // the fencers are A and B wherever a seat's person is named
  window.FechtbuchGames["touche-duell"] = { render, boardPlay: false, seatLabel: (seat) => "AB"[seat] };
})();
