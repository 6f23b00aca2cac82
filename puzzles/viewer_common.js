// Shared by every pack page (a game's own page for version 1, packpage.js for version 2): the
// page's texts (window.fbI18n), the puzzle list, and the helpers of the automated browser
// checks (tests/support/browser.py): wait in page time, click through DOM events, hand a
// result back via --dump-dom.

// Every text of the page from the catalogue of its language (pagekit.py): the German and
// English catalogues in #fb-texts, the language chosen in the header (it starts as `pack
// html --lang` chose, else as the browser's language, German when that is neither).
// Elements marked data-i18n (a key) and data-i18n-args (its arguments as JSON) are worded
// in place, data-i18n-label into the aria-label; a game's board script (window.fbBoard)
// words its own drawing; the page script words the rest in its onChange.
window.fbI18n = {
  texts: null,
  lang: "de",
  changed: [],

  start(onChange) {
    this.texts = JSON.parse(document.getElementById("fb-texts").textContent);
    this.shell = JSON.parse(document.getElementById("fb-shell").textContent);
    const browser = (navigator.language || "").slice(0, 2).toLowerCase();
    const start = document.documentElement.dataset.startLang || (browser in this.texts ? browser : "de");
    if (onChange) this.changed.push(onChange);
    const select = document.getElementById("lang");
    select.addEventListener("change", () => this.use(select.value));
    this.use(start);
  },

  use(lang) {
    this.lang = lang;
    document.documentElement.lang = lang;
    document.getElementById("lang").value = lang;
    const heading = this.word(this.shell.heading);
    document.title = heading;
    document.getElementById("heading").textContent = heading;
    document.getElementById("facts").textContent = this.shell.facts.map((m) => this.word(m)).join(" \u00b7 ");
    this.apply(document.body);
    for (const onChange of this.changed) onChange();
  },

  has(key) { return key in this.texts[this.lang]; },

  // The text of `key` with its {placeholders} filled; an argument may itself be a message
  // ({key, args}), a number is written as the language writes it.
  t(key, args) {
    let text = this.texts[this.lang][key];
    if (text === undefined) return key;
    for (const [name, value] of Object.entries(args || {})) {
      const worded = value !== null && typeof value === "object" ? this.word(value)
        : typeof value === "number" ? this.number(value) : String(value);
      text = text.split("{" + name + "}").join(worded);
    }
    return text;
  },

  // a message counting n: `key`.one for one, `key`.other for any other count (n an argument)
  counted(key, n, args) { return { key: key + (n === 1 ? ".one" : ".other"), args: { ...args, n } }; },

  word(message) { return this.t(message.key, message.args); },

  // a name the game may not have worded (a motif, how an exercise ends): as stored then
  wordOr(key, fallback) { return this.has(key) ? this.t(key) : fallback; },

  // at most two decimals, as the language writes them (1,5 or 1.5)
  number(x) { return x.toLocaleString(this.lang, { maximumFractionDigits: 2 }); },

  apply(root) {
    const args = (el) => (el.dataset.i18nArgs ? JSON.parse(el.dataset.i18nArgs) : {});
    for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = this.t(el.dataset.i18n, args(el));
    for (const el of root.querySelectorAll("[data-i18n-label]")) {
      el.setAttribute("aria-label", this.t(el.dataset.i18nLabel, args(el)));
    }
    if (window.fbBoard) {
      for (const svg of root.querySelectorAll("svg")) window.fbBoard.word(svg, (key, a) => this.t(key, a));
    }
  },
};

window.fbCommon = {
  buildList(puzzles, selectPuzzle) {
    const body = document.getElementById("list-body");
    puzzles.forEach((p, index) => {
      const row = document.createElement("tr");
      row.className = "row";
      row.dataset.index = index;
      for (let i = 0; i < 5; i++) row.appendChild(document.createElement("td"));
      row.cells[0].textContent = String(index + 1);
      row.cells[1].textContent = String(p.n);
      row.cells[4].className = "state";
      row.tabIndex = 0;
      row.addEventListener("click", () => selectPuzzle(index));
      row.addEventListener("keydown", (event) => {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); selectPuzzle(index); }
      });
      body.appendChild(row);
    });
    const relabel = () => {
      const i18n = window.fbI18n;
      puzzles.forEach((p, index) => {
        const row = body.rows[index];
        row.cells[2].replaceChildren(...p.tags.map((tag) => {
          const span = document.createElement("span");
          span.className = "tag";
          span.textContent = i18n.wordOr("pp.tag." + tag, tag);
          return span;
        }));
        row.cells[3].textContent = i18n.number(p.difficulty);
      });
    };
    window.fbI18n.changed.push(relabel);
    relabel();
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
