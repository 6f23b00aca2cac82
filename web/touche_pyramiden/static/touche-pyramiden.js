"use strict";
// Touché with pyramids on the page of `fechtbuch serve`: the board as the sheet draws
// it (the server's SVG), scores and the own hand; the legal actions are the page's
// buttons.
(function () {
  function render(root, msg, api) {
    const view = msg.view;
    const info = document.createElement("p");
    if (view.scores) info.textContent = api.t("tp.info", { round: Math.min(view.round, view.rounds || view.round), rounds: view.rounds || "?", scores: view.scores.join(" : "), pattern: view.pattern || "–" });
    root.append(info);
    const board = document.createElement("div");
    board.className = "svg-board";
    board.innerHTML = view.svg;
    root.append(board);
    const text = document.createElement("pre");
    text.className = "textboard";
    text.textContent = view.text;
    root.append(text);
    if (api.hint) api.console(api.t("play.hint.is", { action: api.hint }));
  }
  window.FechtbuchGames["touche-pyramiden"] = { render, boardPlay: false };
})();
