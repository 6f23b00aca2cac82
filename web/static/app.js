"use strict";
// The page of `fechtbuch serve`: menus built from the server's catalogue, and one
// table at a time.  The page never decides what is legal: it shows the legal actions
// the server sent and sends back the notation of the one chosen.  Each game's board
// is drawn by its own script (window.FechtbuchGames[slug]), which the catalogue names.
window.FechtbuchGames = window.FechtbuchGames || {};
const App = { ws: null, catalogue: null, msg: null, hint: null, records: {}, mode: null };
const $ = (id) => document.getElementById(id);

function send(message) { App.ws.send(JSON.stringify(message)); }

function connect() {
  App.ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  App.ws.onmessage = (event) => handle(JSON.parse(event.data));
  App.ws.onclose = () => showError(t("error.closed"));
}

function handle(msg) {
  if (msg.type === "catalogue") { App.catalogue = msg; loadScripts(msg).then(renderMenu); }
  else if (msg.type === "table" || msg.type === "exercise") { App.replay = null; hideReplayButtons(); App.msg = msg; App.hint = null; App.analysis = null; showPlay(); }
  else if (msg.type === "analysis" && msg.replay !== undefined) { App.replayAnalysis = msg; showReplayTurning(); }
  else if (msg.type === "analysis") { App.analysis = msg; $("status").textContent = msg.note ? t(msg.note.key, msg.note.args) : t("play.analysed"); renderMoves(App.msg); $("turning").hidden = !msg.turning; }
  else if (msg.type === "hint") { App.hint = msg.action; $("console").textContent = t(App.msg.type === "exercise" ? "ex.solution.is" : "play.hint.is", { action: msg.action }); showPlay(true); }
  else if (msg.type === "saved") { renderSaved(msg); }
  else if (msg.type === "replay") { App.replay = msg; App.ply = 0; App.hint = null; App.replayAnalysis = null; showReplay(); }  // no hint of the last table
  else if (msg.type === "records") { App.records[msg.game] = msg; renderRecords(msg.game); showStatus(); }
  else if (msg.type === "error") { $("menu-status").textContent = ""; showError(errorText(msg)); }
}

// A server error in the page's language: a refusal in play comes with its own message
// key and arguments; any other line starts with the field it refuses ("action: ...",
// "undo: ..."), and the catalogue words each field a player can meet
// (``error.<field>``); the English detail stays out of sight, for bug reports.
function errorText(msg) {
  $("error").dataset.detail = msg.message;
  if (msg.key) return t(msg.key, msg.args);
  const key = "error." + String(msg.message).split(":")[0];
  return t(key) === key ? t("error.other") : t(key);
}

function showError(text) {
  const box = $("error");
  box.textContent = t("error.prefix") + " " + text;
  box.hidden = false;
  clearTimeout(App.errorTimer);
  App.errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

function loadScripts(catalogue) {
  for (const game of catalogue.games.filter((g) => g.style)) {
    document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: game.style }));
  }
  return Promise.all(catalogue.games.map((game) => new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = game.script;
    script.onload = resolve;
    script.onerror = resolve;
    document.head.appendChild(script);
  })));
}

// ---- the menu ------------------------------------------------------------
function optionSelect(game, name, spec) {
  const label = document.createElement("label");
  label.append(t("option." + name) + " ");
  const select = document.createElement("select");
  select.name = name;
  select.id = `${game.slug}-${name}`;
  for (const choice of spec.choices) {
    const option = document.createElement("option");
    option.value = choice;
    option.textContent = choiceText(name, choice);
    if (choice === spec.default) option.selected = true;
    select.append(option);
  }
  label.append(select);
  return label;
}

// a name in the page's language if the catalogue has one, else as the server gave it:
// menu choices (``choice.<option>.<value>``), games (``game.<slug>``, else the plugin's
// title) and packs (``pack.<name>``; a ``serve --pack`` file is named by its file)
function wordOr(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}
const choiceText = (name, value) => wordOr(`choice.${name}.${value}`, value);
const gameTitle = (game) => wordOr(`game.${game.slug}`, game.title);
const packTitle = (name) => wordOr(`pack.${name}`, name);

function renderMenu() {
  const root = $("games");
  root.textContent = "";
  for (const game of App.catalogue.games) {
    const card = document.createElement("article");
    card.className = "game-card";
    card.id = `game-${game.slug}`;
    const title = document.createElement("h3");
    title.textContent = gameTitle(game);
    card.append(title);
    const form = document.createElement("div");
    for (const [name, spec] of Object.entries(game.setup)) form.append(optionSelect(game, name, spec));
    card.append(form);
    const options = () => Object.fromEntries([...form.querySelectorAll("select")].map((s) => [s.name, s.value]));
    const buttons = document.createElement("div");
    for (const mode of game.modes) {
      if (mode === "exercise") continue;
      const button = document.createElement("button");
      button.id = `start-${game.slug}-${mode}`;
      button.textContent = t("mode." + mode);
      button.onclick = () => startGame({ game: game.slug, mode, options: options() });
      buttons.append(button);
    }
    card.append(buttons);
    const packs = App.catalogue.packs.filter((p) => p.game === game.slug);
    if (game.modes.includes("exercise") && packs.length) {
      const row = document.createElement("div");
      const label = document.createElement("label");
      label.append(t("ex.pack") + " ");
      const select = document.createElement("select");
      select.id = `${game.slug}-pack`;
      for (const pack of packs) {
        const option = document.createElement("option");
        option.value = pack.name;
        option.textContent = `${packTitle(pack.name)} (${pack.count})`;
        select.append(option);
      }
      label.append(select);
      const number = document.createElement("input");
      number.type = "number"; number.min = 1; number.value = 1; number.id = `${game.slug}-number`;
      number.setAttribute("aria-label", t("ex.number"));
      number.style.width = "4.5em";
      const start = document.createElement("button");
      start.id = `start-${game.slug}-exercise`;
      start.textContent = t("mode.exercise");
      start.onclick = () => send({ type: "exercise", pack: select.value, number: Number(number.value) });
      row.append(label, number, start);
      card.append(row);
      for (const pack of packs) card.append(exerciseOverview(game, pack));
    }
    const saved = document.createElement("details");
    saved.id = `saved-${game.slug}`;
    const savedTitle = document.createElement("summary");
    savedTitle.textContent = t("replay.saved");
    saved.append(savedTitle);
    saved.ontoggle = () => { if (saved.open) send({ type: "saved", game: game.slug }); };
    card.append(saved);
    const record = document.createElement("p");
    record.id = `record-${game.slug}`;
    card.append(record);
    root.append(card);
    send({ type: "records", game: game.slug });
  }
}

// a new game from the menu, and the same again from the end screen ("Revanche")
function startGame(started) {
  App.mode = started.mode;
  App.started = started;
  $("menu-status").textContent = t("menu.preparing");  // the daily duel takes seconds
  send({ type: "new", ...started });
}

// every exercise of a pack as a button: green when solved, yellow when solved with help
function exerciseOverview(game, pack) {
  const details = document.createElement("details");
  details.className = "overview";
  details.dataset.pack = pack.name;
  const summary = document.createElement("summary");
  summary.textContent = t("ex.overview", { pack: packTitle(pack.name) });
  details.append(summary);
  pack.ids.forEach((id, index) => {
    const button = document.createElement("button");
    button.className = "exercise";
    button.dataset.puzzle = id;
    button.textContent = String(index + 1);
    button.onclick = () => send({ type: "exercise", pack: pack.name, number: index + 1 });
    details.append(button);
  });
  return details;
}

function renderSaved(msg) {
  const box = $(`saved-${msg.game}`);
  if (!box) return;
  for (const old of box.querySelectorAll("button")) old.remove();
  for (const saved of msg.games) {
    const button = document.createElement("button");
    button.className = "saved-game";
    button.textContent = t("replay.item", { at: saved.at.replace("T", " ").slice(0, 16), mode: t("mode." + saved.mode), moves: saved.moves });
    button.onclick = () => send({ type: "replay", game: msg.game, id: saved.id });
    box.append(button);
  }
}

// ---- replaying a saved game: the positions as the player saw them, step by step; at
// the analysis' ``turning`` point the position before it as its mover saw it, with the
// better move as the board's hint (Battleklinge's green arrow, the lit cards and fields)
function hideReplayButtons() {
  for (const id of ["replay-back", "replay-next", "replay-turning"]) $(id).hidden = true;
}

function showReplay(turning) {
  const replay = App.replay;
  const ply = App.ply;
  $("menu").hidden = true;
  $("play").hidden = false;
  for (const id of ["undo", "hint", "resign", "abort", "end", "turning", "solution"]) $(id).hidden = true;
  $("replay-back").hidden = false;
  $("replay-next").hidden = false;
  $("cover").hidden = true;
  const game = App.catalogue.games.find((g) => g.slug === replay.game);
  $("replay-turning").hidden = !game.analysis || !replay.plies.length;
  $("play-title").textContent = `${gameTitle(game)} – ${t("replay.title")}`;
  $("facts").textContent = t("replay.ply", { ply, plies: replay.plies.length });
  const previous = ply > 0 ? replay.plies[ply - 1] : null;
  $("explanation").textContent = previous ? t(previous.explanation.key, previous.explanation.args) : "";
  const view = turning ? turning.view : ply < replay.plies.length ? replay.plies[ply].view : replay.final;
  const shown = {
    type: "table", table: `replay-${replay.id}`, game: replay.game, mode: "replay", names: replay.names.map((name) => t(name)),
    people: replay.people, seat: view && view.seat !== undefined ? view.seat : (view.aids ? view.aids.seat : replay.people[0]),
    view, legal: [], last: previous ? { ...previous.action, seat: null } : null, finished: true,
    moves: replay.plies.slice(0, ply).map((p) => ({ text: p.text, explanation: p.explanation, seat: 0 })),
    turning: turning || null,
  };
  const board = $("board");
  board.textContent = "";
  $("play").classList.toggle("wide", Boolean(window.FechtbuchGames[replay.game].wide));
  window.FechtbuchGames[replay.game].render(board, shown, { ...api(), hint: turning ? turning.better : null });
  $("actions").textContent = "";
  const list = $("moves");
  list.textContent = "";
  replay.plies.forEach((p, index) => {
    const item = document.createElement("li");
    // in words, the notation beside them, as in the game's own move list
    item.textContent = p.explanation && p.explanation.key ? `${t(p.explanation.key, p.explanation.args)} (${p.text})` : p.text;
    if (index === ply - 1) item.className = "current";
    list.append(item);
  });
  $("status").textContent = ply === replay.plies.length ? t("replay.end") : "";
}

function renderRecords(slug) {
  const el = $(`record-${slug}`);
  const data = App.records[slug];
  if (!el || !data) return;
  const parts = Object.entries(data.record).map(([strength, r]) =>
    t("record.line", { strength, wins: r.wins, help: r.wins_with_help, losses: r.losses }));
  const solved = Object.values(data.exercises);
  parts.push(t("record.exercises", { green: solved.filter((s) => s === "solved").length, yellow: solved.filter((s) => s !== "solved").length }));
  for (const button of document.querySelectorAll(`#game-${slug} button.exercise`)) {
    const status = data.exercises[button.dataset.puzzle];
    button.classList.toggle("solved", status === "solved");
    button.classList.toggle("solved-help", status === "solved-with-help");
    button.setAttribute("aria-label", `${button.textContent}: ${t(status ? "ex.status." + status : "ex.status.open")}`);
  }
  const game = App.catalogue.games.find((g) => g.slug === slug);
  if (game && game.modes.includes("daily")) parts.push(t("record.streak", { streak: data.streak }));
  el.textContent = parts.join(" · ");
}

// ---- a table ---------------------------------------------------------------
function api() {
  return {
    t, act: (text) => send({ type: "act", table: App.msg.table, action: text }),
    aids: $("aids").checked, coords: $("coords").checked, rotate: $("rotate").checked,
    speed: Number($("speed").value),
    hint: App.hint, console: (text) => { $("console").textContent = text; },
    warn: (text) => { $("warning").textContent = text || ""; $("warning").hidden = !text; },
    bell: () => beep(880, 250, 0.08),
    // the whole table again (the board's own moment is done: the page's cover may show)
    refresh: () => { if (App.msg && !App.replay) showPlay(true); },
  };
}

function showPlay(keepConsole) {
  const msg = App.msg;
  // a seat's name that is a key of the catalogue (the pyramids' colours) is worded in
  // the page's language, again after the language changes
  if (msg.names) msg.names = (msg.seat_keys = msg.seat_keys || msg.names).map((name) => t(name));
  $("menu-status").textContent = "";
  $("menu").hidden = true;
  $("play").hidden = false;
  if (!keepConsole) $("console").textContent = "";
  const game = App.catalogue.games.find((g) => g.slug === msg.game);
  const exercise = msg.type === "exercise";
  $("play-title").textContent = exercise
    ? t("ex.title", { game: gameTitle(game), pack: packTitle(msg.pack), number: msg.number, n: msg.n })
    : `${gameTitle(game)} – ${t("mode." + msg.mode)}`;
  $("facts").textContent = exercise ? t("ex.task", { n: msg.n }) : factsText(msg);
  $("solution").hidden = !exercise;
  $("hint").hidden = exercise || msg.mode === "hotseat" || msg.finished || Boolean(msg.prelude);
  $("resign").hidden = exercise || msg.finished;
  $("undo").hidden = Boolean(msg.finished);  // a finished game takes nothing back
  const last = exercise ? null : msg.moves[msg.moves.length - 1];
  $("explanation").textContent = last ? t(last.explanation.key, last.explanation.args) : "";
  if (!keepConsole && msg.mode === "hotseat" && App.lastToAct !== undefined && App.lastToAct !== msg.to_act) beep(520, 120, 0.08);
  App.lastToAct = exercise ? undefined : msg.to_act;
  const covered = !exercise && msg.covered;
  if (covered) $("cover-text").textContent = t("hotseat.pass", { name: msg.names[msg.to_act] });
  api().warn("");
  const renderer = window.FechtbuchGames[msg.game];
  $("play").classList.toggle("wide", Boolean(renderer && renderer.wide));
  const board = $("board");
  const focused = boardFocus();
  board.textContent = "";
  if (renderer) renderer.render(board, msg, api());
  // one thing at a time at one device: a board's moment (the pyramids' round end, with
  // its "Weiter") first, the hand-over after it (the board calls api.refresh), then the
  // next seat's choices
  const held = covered && renderer && renderer.holdsCover && renderer.holdsCover();
  $("cover").hidden = !covered || Boolean(held);
  restoreBoardFocus(focused);
  renderActions(msg, renderer);
  renderMoves(msg);
  $("abort").hidden = exercise || msg.finished || msg.repetitions < 3;
  showEnd(msg, game, renderer);
  $("turning").hidden = !(App.analysis && App.analysis.turning);
  startClock();
  showStatus();
  if ((msg.finished || msg.solved || msg.lost) && !exercise) send({ type: "records", game: msg.game });
  if (exercise && (msg.solved || msg.lost)) send({ type: "records", game: msg.game });
}

// A new state redraws the board and replaces its buttons: the keyboard keeps its place
// on the same square, field or card (each board script marks them with data-*), else
// on the board's tab stop (a grid's one, or the first button Tab reaches).
function boardFocus() {
  const el = document.activeElement;
  if (!el || !$("board").contains(el)) return null;
  const key = ["square", "field", "index", "card"].find((k) => el.dataset[k] !== undefined);
  return key ? `[data-${key}="${el.dataset[key]}"]` : "";
}

function restoreBoardFocus(selector) {
  if (selector === null || (document.activeElement && document.activeElement !== document.body)) return;
  const board = $("board");
  const again = (selector && board.querySelector(selector)) || board.querySelector("[role=grid] [tabindex='0']")
    || [...board.querySelectorAll("button")].find((button) => !button.disabled && button.tabIndex >= 0);
  if (again) again.focus();
}

function factsText(msg) {
  const parts = [];
  if (msg.facts.strength) parts.push(t("facts.strength", { strength: choiceText("strength", msg.facts.strength) }));
  if (msg.facts.cards) parts.push(t("facts.cards", { cards: t("choice.cards." + msg.facts.cards) }));
  if (msg.facts.day) parts.push(t("facts.day", { day: msg.facts.day }));
  if (msg.facts.ruleset) parts.push(choiceText("ruleset", msg.facts.ruleset));
  if (msg.mode !== "hotseat") parts.push(t("facts.you", { name: msg.names[msg.people[0]] }));
  return parts.join(" · ");
}

function renderActions(msg, renderer) {
  const box = $("actions");
  box.textContent = "";
  if (!msg.legal.length || (renderer && renderer.actionList === false)) return;
  const holder = renderer && renderer.boardPlay ? document.createElement("details") : box;
  if (holder !== box) {
    const summary = document.createElement("summary");
    summary.textContent = t("play.all");
    holder.append(summary);
    box.append(holder);
  }
  for (const action of msg.legal) {
    const button = document.createElement("button");
    const words = action.label_key ? t(action.label_key, action.args) + " " : "";
    button.textContent = words + (action.label_key ? `(${action.text})` : action.label || action.text);
    button.dataset.action = action.text;
    button.onclick = () => send({ type: "act", table: msg.table, action: action.text });
    holder.append(button);
  }
}

function renderMoves(msg) {
  const list = $("moves");
  list.textContent = "";
  for (const move of msg.moves) {
    const item = document.createElement("li");
    if (msg.type === "exercise") {
      // in words, the notation beside them, as in a game's move list and a replay
      const words = move.explanation ? `${t(move.explanation.key, move.explanation.args)} (${move.text})` : move.text;
      item.textContent = (move.defence ? t("ex.defence") + " " : "") + words;
    } else {
      // in words, the notation beside them
      item.textContent = move.explanation.key ? `${t(move.explanation.key, move.explanation.args)} (${move.text})` : `${msg.names[move.seat]}: ${move.text}`;
      if (move.cpu) item.className = "cpu";
      const analysed = App.analysis && App.analysis.moves[list.children.length];
      if (analysed && analysed.mark) {
        const mark = document.createElement("strong");
        mark.className = "mark-bad";
        mark.textContent = " " + analysed.mark;
        item.append(mark);
        if (analysed.better) {
          const better = document.createElement("div");
          better.className = "better";
          const words = analysed.better_words;  // a board's words for the move, the notation beside them
          const move = words ? `${t(words.label_key, words.args)} (${analysed.better})` : analysed.better;
          better.textContent = analysed.better_score ? t("play.better", { move, score: analysed.better_score }) : t("play.better.plain", { move });
          item.append(better);
        }
      }
    }
    list.append(item);
  }
}

function showStatus() {
  const msg = App.msg;
  if (!msg) return;
  const status = $("status");
  status.className = "";
  if (msg.type === "exercise") {
    if (msg.solved) { status.textContent = t(msg.helped ? "ex.solved.help" : "ex.solved"); status.className = msg.helped ? "solved-help" : "solved"; }
    else if (msg.lost) { status.textContent = t("ex.lost"); status.className = "mark-bad"; }
    else status.textContent = t("ex.left", { n: msg.turns_left });
    return;
  }
  if (!msg.finished) {
    // against the computer the person's own seat is "Du" on the board: its turn is
    // said to the person, not by the seat's name ("A ist am Zug" beside "Du (A)")
    const yours = msg.mode !== "hotseat" && msg.people.includes(msg.to_act);
    const parts = [msg.to_act === null ? "" : yours ? t("play.your_turn") : t("play.to_act", { name: msg.names[msg.to_act] })];
    if (msg.repetitions >= 3) parts.push(t("play.repetition"));
    status.textContent = parts.join(" ");
    return;
  }
  const words = resultWords(msg);
  // one sentence of the result: "Du hast gewonnen!" says who won ("Blau gewinnt." beside it
  // said it twice)
  let text = [words.reason, words.you || words.winner].filter((part) => part).join(" ");
  if (msg.helped && msg.mode !== "hotseat") text += " " + t("play.with_help");
  const records = App.records[msg.game];
  if (msg.mode === "daily" && records) text += " " + t("record.streak", { streak: records.streak }) + (msg.daily_counts ? "" : " " + t("daily.practice"));
  status.textContent = text;
}

// The result of a finished game in words: why it ended (resigned, time, aborted),
// who won, and for a person against the computer whether they won.  An aborted game
// has no result (``msg.result`` is null).
function resultWords(msg) {
  if (msg.ended_by === "aborted") return { reason: t("play.aborted"), winner: "", you: "", won: null };
  const result = msg.result;
  const best = Math.max(...result);
  const winners = result.map((r, seat) => (r === best ? msg.names[seat] : null)).filter((n) => n);
  const draw = winners.length === result.length;
  const words = {
    reason: msg.ended_by ? t("play." + msg.ended_by, { name: msg.names[msg.loser] }) : "",
    winner: draw ? t("play.draw") : t("play.won", { name: winners.join(", ") }),
    you: "", won: null,
  };
  if (msg.mode !== "hotseat" && !draw) {  // a draw is neither won nor lost: "Unentschieden"
    words.won = result[msg.people[0]] === best;
    words.you = t(words.won ? "play.you_won" : "play.you_lost");
  }
  return words;
}

// ---- the end screen of every game: result, reason, "new game", "rematch", and the
// analysis when the game has one.  A board script may word the end its own way with
// ``endScreen(msg, api) -> {reason, detail}`` (the duel: the final score and how the
// last round ended); otherwise the reason is the last move's explanation.
function showEnd(msg, game, renderer) {
  const box = $("end");
  const shown = msg.type === "table" && msg.finished && msg.mode !== "replay";
  box.hidden = !shown;
  if (!shown) { App.endShown = null; return; }
  const words = resultWords(msg);
  const own = renderer && renderer.endScreen ? renderer.endScreen(msg, api()) || {} : {};
  const last = msg.moves[msg.moves.length - 1];
  const title = $("end-title");
  title.textContent = words.you || words.winner || words.reason;
  title.className = words.won === null ? "" : words.won ? "won" : "lost";
  const reason = words.you || words.winner ? words.reason : "";
  const byRules = last && !msg.ended_by ? t("end.last", { move: t(last.explanation.key, last.explanation.args) }) : "";
  // the title says the result in one sentence; the winner's name beside "Du hast
  // gewonnen!" would say it again (a game's own detail, the pyramids' points, names all)
  $("end-reason").textContent = [reason, own.reason || byRules].filter((p) => p).join(" ");
  $("end-detail").textContent = own.detail || "";
  $("end-rematch").hidden = msg.mode === "daily" || !App.started || App.started.game !== msg.game;
  $("analyse").hidden = !game.analysis || !msg.moves.length;
  if (App.endShown !== msg.table) {  // once per game: the screen reader hears the result
    App.endShown = msg.table;
    title.focus();
  }
}

function leaveTable() {
  $("play").hidden = true; $("menu").hidden = false; App.msg = null; App.replay = null;
  hideReplayButtons();
  renderMenu();
}

// ---- the analysis' turning point: the position before it as its mover saw it (a game
// with hidden hands names the seat: ``turning.seat``), the better move as the board's
// hint; the message carries the turning point (``turning``) for a board that lights its
// parts (``turning.better_action``: the cards and fields of the better action)
function showTurningPoint() {
  const turning = App.analysis.turning;
  const renderer = window.FechtbuchGames[App.msg.game];
  const seat = turning.seat !== undefined ? turning.seat : turning.view.aids.seat;
  const shown = { ...App.msg, view: turning.view, legal: [], last: null, seat, mode: "replay", finished: true, turning };
  const board = $("board");
  board.textContent = "";
  const view = api();
  view.hint = turning.better;
  renderer.render(board, shown, view);
  $("actions").textContent = "";
  $("explanation").textContent = turningText(turning);
}

// the turning point in words: a missed sure win of the round names the action played
// and the better one in the game's words (the notation beside); otherwise the
// evaluation before and after the move
function turningText(turning) {
  if (turning.better_words) {
    const words = (w) => ({ key: w.label_key, args: w.args });
    return t("play.turning.missed", {
      number: turning.number, move: words(turning.move_words), played: turning.move,
      better: words(turning.better_words), key: turning.better,
    });
  }
  const number = (x) => x.toLocaleString(I18n.lang, { signDisplay: "always", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return t("play.turning.text", { number: turning.number, move: turning.move, mark: turning.mark || "", before: number(turning.before), after: number(turning.after), better: turning.better || "–" });
}

// the replay's "Wendepunkt" (the rulebook's button when replaying): the saved game is
// analysed once, then the replay turns to the position before the move where the game
// tipped, with the better move as the board's hint
function askReplayTurning() {
  const replay = App.replay;
  if (!replay) return;
  if (App.replayAnalysis && App.replayAnalysis.replay === replay.id) { showReplayTurning(); return; }
  $("status").textContent = t("play.analysing");
  send({ type: "analyse-replay", game: replay.game, id: replay.id });
}

function showReplayTurning() {
  const analysis = App.replayAnalysis;
  if (!App.replay || analysis.replay !== App.replay.id) return;  // the player has moved on
  const turning = analysis.turning;
  if (!turning) { $("status").textContent = t("replay.no_turning"); return; }
  App.ply = turning.number - 1;
  showReplay(turning);
  $("explanation").textContent = turningText(turning);
}

// ---- time: the server keeps it; the page counts down and asks when it hits zero --
function clockText(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function startClock() {
  clearInterval(App.clockTimer);
  const msg = App.msg;
  const box = $("clock");
  box.textContent = "";
  if (!msg || msg.type !== "table" || msg.finished || !msg.time) return;
  const received = Date.now();
  let flagged = false;
  const tick = () => {
    const spent = (Date.now() - received) / 1000;
    const time = msg.time;
    let zero = false;
    if (time.clock) {
      box.textContent = time.clock.map((left, seat) => {
        const now = seat === time.seat && msg.people.includes(seat) ? left - spent : left;
        if (now <= 0 && seat === time.seat) zero = true;
        return `${msg.names[seat]} ${clockText(now)}`;
      }).join(" · ");
    } else if (time.move_left !== null) {
      const left = time.move_left - spent;
      box.textContent = left <= 60 ? t("play.last_minute", { name: msg.names[time.seat], left: clockText(left) }) : "";
      zero = left <= 0;
    }
    if (zero && !flagged) { flagged = true; tableCommand("flag"); }
  };
  tick();
  App.clockTimer = setInterval(tick, 1000);
}

// ---- controls ----------------------------------------------------------------
function tableCommand(type) { if (App.msg) send({ type, table: App.msg.table }); }
$("undo").onclick = () => tableCommand("undo");
$("hint").onclick = () => tableCommand("hint");
$("solution").onclick = () => tableCommand("hint");
$("resign").onclick = () => tableCommand("resign");
$("abort").onclick = () => tableCommand("abort");
$("analyse").onclick = () => { $("status").textContent = t("play.analysing"); tableCommand("analyse"); };
$("turning").onclick = () => showTurningPoint();
$("reveal").onclick = () => tableCommand("reveal");
$("replay-back").onclick = () => { if (App.replay && App.ply > 0) { App.ply -= 1; showReplay(); } };
$("replay-next").onclick = () => { if (App.replay && App.ply < App.replay.plies.length) { App.ply += 1; showReplay(); } };
$("replay-turning").onclick = askReplayTurning;
$("menu-button").onclick = leaveTable;
// on a phone the view settings fold behind "Einstellungen" (app.css); Escape closes them
function showSettings(open) {
  $("view-settings").classList.toggle("open", open);
  $("settings-button").setAttribute("aria-expanded", String(open));
}
$("settings-button").onclick = () => showSettings(!$("view-settings").classList.contains("open"));
$("view-settings").addEventListener("keydown", (event) => {
  if (event.key === "Escape" && $("view-settings").classList.contains("open")) { showSettings(false); $("settings-button").focus(); }
});
$("end-new").onclick = () => {
  const slug = App.msg && App.msg.game;
  leaveTable();
  const card = slug && $(`game-${slug}`);
  if (card) { card.scrollIntoView({ block: "center" }); (card.querySelector("select, button") || card).focus(); }
};
$("end-rematch").onclick = () => { if (App.started) startGame(App.started); };
for (const id of ["aids", "coords", "rotate"]) $(id).onchange = () => { if (App.msg) showPlay(true); };
$("lang").onchange = async () => { await loadTexts($("lang").value); if (App.catalogue) renderMenu(); if (App.msg) { $("menu").hidden = true; showPlay(true); } };
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
  if ((event.key === "r" || event.key === "R") && App.msg && App.msg.type === "table" && !App.msg.finished) tableCommand("hint");
});

loadTexts("de").then(connect);
