// Shared by every pack page (a game's own page for version 1, packpage.js for version 2): the
// puzzle list, and the helpers of the automated browser checks (tests/support/browser.py):
// wait in page time, click through DOM events, hand a result back via --dump-dom.
window.fbCommon = {
  // At most two decimals, no trailing zeros (JSON 3.0 arrives as 3 anyway).
  shortNumber(x) { return String(Math.round(x * 100) / 100); },

  buildList(puzzles, selectPuzzle) {
    const body = document.getElementById("list-body");
    puzzles.forEach((p, index) => {
      const row = document.createElement("tr");
      row.className = "row";
      row.dataset.index = index;
      const cells = [String(index + 1), String(p.n), "", window.fbCommon.shortNumber(p.difficulty), ""];
      cells.forEach((text, i) => {
        const td = document.createElement("td");
        td.textContent = text;
        if (i === 2) {
          for (const tag of p.tags) {
            const span = document.createElement("span");
            span.className = "tag";
            span.textContent = tag;
            td.appendChild(span);
          }
        }
        if (i === 4) td.className = "state";
        row.appendChild(td);
      });
      row.tabIndex = 0;
      row.addEventListener("click", () => selectPuzzle(index));
      row.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); selectPuzzle(index); }
      });
      body.appendChild(row);
    });
  },

  tick() { return new Promise((resolve) => setTimeout(resolve, 40)); },
  async until(condition) {
    for (let i = 0; i < 500 && !condition(); i++) await window.fbCommon.tick();
  },
  click(node) { node.dispatchEvent(new MouseEvent("click", { bubbles: true })); },
  writeResult(id, value) {
    const pre = document.createElement("pre");
    pre.id = id;
    pre.hidden = true;
    pre.textContent = JSON.stringify({ value, errors: window.fbErrors || [] });
    document.body.appendChild(pre);
    document.title = id + " done";
  },
};
