"use strict";
// Abzählen on the pages of `fechtbuch serve` and the Wartesaal: the count, whose turn,
// the pushes left and the feints spent, and one button per legal action (the notation
// of the action is what is sent; the server decides what is legal).
(function () {
  function line(className, text) {
    const p = document.createElement("p");
    p.className = className;
    p.textContent = text;
    return p;
  }

  function render(root, msg, api) {
    const view = msg.view;
    const board = document.createElement("div");
    board.className = "az-board";
    board.append(line("az-number", api.t("az.number", { number: view.number })));
    board.append(line("az-pushes", api.t("az.pushes", { a: view.pushes[0], b: view.pushes[1] })));
    const feints = view.feinted.map((spent, seat) => (spent ? "AB"[seat] : null)).filter((s) => s);
    board.append(line("az-feints", api.t("az.feints", { who: feints.join(", ") || "–" })));
    const row = document.createElement("div");
    row.className = "az-actions";
    for (const action of msg.legal || []) {
      const button = document.createElement("button");
      button.className = "az-action";
      button.dataset.action = action.text;
      button.textContent = api.t("az.action." + action.text);
      button.onclick = () => api.act(action.text);
      row.append(button);
    }
    board.append(row);
    root.append(board);
    if (api.hint) api.console(api.t("play.hint.is", { action: api.hint }));
  }

  window.FechtbuchGames.abzaehlen = { render, boardPlay: true, seatLabel: (seat) => "AB"[seat] };
})();
