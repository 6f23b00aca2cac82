"use strict";
// The Wartesaal's page: log in, the room (challenges, running and finished games, who
// is online, the ranking), the table (board, clocks, offers, result), spectating and
// replays.  The server decides everything: the page shows the table messages it gets
// (each already holding only what this person may see) and sends the notation of the
// action chosen among the legal ones sent.  Boards are drawn by the same scripts as
// the single-player page (window.FechtbuchGames[slug]: render(root, msg, api), and
// optionally boardPlay and seatLabel(seat, api)); the room adds their drawing to every
// table message (web/wartesaal_page.py).  This script names no game.
window.FechtbuchGames = window.FechtbuchGames || {};
const Saal = {
  ws: null, me: null, account: null, games: [], boards: {},
  table: null, mode: null, moves: [], replay: null, ply: 0, refs: 0, pending: {},
  clockTimer: null, challenges: [],
};
const $ = (id) => document.getElementById(id);
const SESSION_KEY = "wartesaal-session";
const REASONS = ["game over", "abort by consent", "time", "move limit", "left", "resigned"];

// ---- the socket: requests carry a ref, answers resolve it; pushes are handled ----
function connect() {
  return new Promise((resolve) => {
    const base = location.pathname.replace(/\/$/, "");
    Saal.ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${base}/ws`);
    Saal.ws.onopen = () => { Saal.retry = 500; resolve(); };
    Saal.ws.onmessage = (event) => receive(JSON.parse(event.data));
    Saal.ws.onclose = () => { showError(t("saal.reconnecting")); setTimeout(reconnect, Saal.retry); };
  });
}

// A dropped connection is taken up again, with the same session, before the room's
// reconnect grace runs out: the seat is back, and the table or room shown is read anew.
async function reconnect() {
  for (const waiting of Object.values(Saal.pending)) waiting.reject(new Error("closed"));
  Saal.pending = {};
  Saal.retry = Math.min(2 * (Saal.retry || 500), 8000);
  await connect();
  const session = sessionStorage.getItem(SESSION_KEY);
  if (!session || !Saal.me) return;
  try { await ask("hello", { session }); } catch (err) { sessionStorage.removeItem(SESSION_KEY); location.reload(); return; }
  $("error").hidden = true;
  Saal.reconnects = (Saal.reconnects || 0) + 1;
  if (Saal.mode === "play" || Saal.mode === "watch") { const id = Saal.table.id; Saal.table = null; watch(id); }
  else if (Saal.mode === "room") refreshRoom();
}

function ask(type, fields) {
  const ref = ++Saal.refs;
  Saal.ws.send(JSON.stringify({ type, ref, ...(fields || {}) }));
  return new Promise((resolve, reject) => { Saal.pending[ref] = { resolve, reject }; });
}

function receive(msg) {
  const waiting = msg.ref !== undefined && msg.ref !== null ? Saal.pending[msg.ref] : null;
  if (waiting) {
    delete Saal.pending[msg.ref];
    if (msg.type === "error") { showError(errorText(msg.error)); waiting.reject(new Error(msg.error)); }
    else waiting.resolve(msg);
    return;
  }
  if (msg.type === "table") onTable(msg);
  else if (msg.type === "challenges") { Saal.challenges = msg.challenges; renderChallenges(); }
  else if (msg.type === "tables") renderTableLists(msg.running, msg.finished);
  else if (msg.type === "online") renderOnline(msg.online, msg.count);
  else if (msg.type === "ranking") renderRanking(msg.ranking);
  else if (msg.type === "logout") { sessionStorage.removeItem(SESSION_KEY); Saal.ws.onclose = null; location.reload(); }
  else if (msg.type === "error") showError(errorText(msg.error));
}

// A refusal of the room in the page's language: its line starts with the field it
// refuses ("stake: ...", "seq: ..."), and the catalogue words each field a person can
// meet (``saal.error.<field>``); the English line stays out of sight, for bug reports.
function errorText(error) {
  $("error").dataset.detail = error;
  const key = "saal.error." + String(error).split(":")[0];
  return t(key) === key ? t("error.other") : t(key);
}

function showError(text) {
  const box = $("error");
  box.textContent = t("error.prefix") + " " + text;
  box.hidden = false;
  clearTimeout(Saal.errorTimer);
  Saal.errorTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---- logging in --------------------------------------------------------------
async function welcome(answer) {
  Saal.me = { name: answer.name, guest: answer.guest };
  sessionStorage.setItem(SESSION_KEY, answer.session);
  $("login").hidden = true;
  $("me").hidden = false;
  $("me-name").textContent = answer.guest ? t("saal.guest.name", { name: answer.name }) : answer.name;
  $("new-rated").disabled = answer.guest;
  $("new-stake").disabled = answer.guest;
  await refreshAccount();
  showRoom();
}

async function logIn(type) {
  const name = $("login-name").value.trim();
  const password = $("login-password").value;
  try { await welcome(await ask(type, type === "guest" ? {} : { name, password })); } catch (err) { /* shown */ }
}

$("login-form").onsubmit = (event) => { event.preventDefault(); logIn("login"); };
$("register-button").onclick = () => { if ($("login-form").reportValidity()) logIn("register"); };
$("guest-button").onclick = () => logIn("guest");
// logging out ends the session on the server too: its token is refused from now on
$("logout").onclick = async () => {
  try { await ask("logout"); } catch (err) { /* an old session: forget it here at least */ }
  sessionStorage.removeItem(SESSION_KEY);
  Saal.me = null;
  Saal.ws.onclose = null;
  Saal.ws.close();
  location.reload();
};

async function refreshAccount() {
  if (!Saal.me || Saal.me.guest) { $("me-rating").textContent = ""; return; }
  const answer = await ask("account");
  Saal.account = answer.account;
  const a = answer.account;
  $("me-rating").textContent = t("saal.me", { elo: Math.round(a.elo), points: a.points, taler: a.taler, games: a.games });
}

// ---- the room ------------------------------------------------------------------
// a game's name in the page's language (``game.<slug>``, as on the game page), else
// the title the room gave
function gameTitle(slug) {
  const game = Saal.games.find((g) => g.game === slug);
  const key = "game." + slug;
  return t(key) !== key ? t(key) : game ? game.title : slug;
}

function variantText(slug, variant) {
  const key = `saal.variant.${slug}.${variant}`;
  return t(key) === key ? variant : t(key);
}

function clockText(minutes) {
  return minutes === null || minutes === undefined ? t("saal.clock.none.short") : `${minutes} min`;
}

function showRoom() {
  stopTable();
  Saal.mode = "room";
  $("room").hidden = false;
  $("table").hidden = true;
  refreshRoom();  // once: the server pushes every list when it changes
}

async function refreshRoom() {
  if (Saal.mode !== "room") return;
  const [challenges, running, finished, online, ranking] = await Promise.all([
    ask("challenges"), ask("tables"), ask("tables", { status: "finished" }), ask("online"), ask("ranking"),
  ]);
  Saal.challenges = challenges.challenges;
  renderChallenges();
  renderTableLists(running.tables, finished.tables);
  renderOnline(online.online, online.count);
  renderRanking(ranking.ranking);
}

function renderTableLists(running, finished) {
  renderTables($("running"), running, "saal.watch", (table) => watch(table.id));
  renderTables($("finished"), finished, "saal.replay", (table) => openReplay(table.id));
}

// the server sends at most a few dozen names (members first) and the count of all
function renderOnline(names, count) {
  const list = $("online");
  list.textContent = "";
  for (const name of names) {
    const item = document.createElement("li");
    item.textContent = name + (Saal.me && name === Saal.me.name ? " " + t("saal.you") : "");
    list.append(item);
  }
  if (count > names.length) {
    const more = document.createElement("li");
    more.textContent = t("saal.online.more", { count: count - names.length });
    list.append(more);
  }
}

function renderRanking(rows) {
  const rank = $("ranking");
  rank.textContent = "";
  for (const row of rows) {
    const item = document.createElement("li");
    item.textContent = t("saal.ranking.row", { name: row.name, elo: Math.round(row.elo), points: row.points });
    rank.append(item);
  }
}

function renderChallenges() {
  // Rows are updated in place, keyed by challenge: a list rebuilt on every update
  // dropped a click that landed while it was rebuilt (someone else's accept).
  const body = document.querySelector("#challenges tbody");
  $("no-challenges").hidden = Saal.challenges.length > 0;
  const rows = new Map([...body.children].map((row) => [row.dataset.challenge, row]));
  let previous = null;
  for (const c of Saal.challenges) {
    let row = rows.get(c.id);
    rows.delete(c.id);
    if (!row) {
      row = document.createElement("tr");
      row.dataset.challenge = c.id;
      for (let i = 0; i < 5; i++) row.append(document.createElement("td"));
      const cell = document.createElement("td");
      cell.append(document.createElement("button"));
      row.append(cell);
    }
    const mode = c.rated ? t("saal.rated") + (c.stake ? " · " + t("saal.stake.n", { n: c.stake }) : "") : t("saal.friendly");
    const texts = [c.creator, `${gameTitle(c.game)} · ${variantText(c.game, c.variant)}`, clockText(c.clock_minutes), mode, `${c.joined.length}/${c.seats}`];
    texts.forEach((text, i) => {
      if (row.children[i].textContent !== text) row.children[i].textContent = text;
    });
    const button = row.querySelector("button");
    const mine = Saal.me && c.joined.includes(Saal.me.name);
    const label = t(mine ? "saal.withdraw" : "saal.accept");
    button.className = mine ? "withdraw" : "accept primary";
    if (button.textContent !== label) button.textContent = label;
    button.onclick = () => (mine ? ask("withdraw", { challenge: c.id }) : acceptChallenge(c.id)).catch(() => {});
    const place = previous ? previous.nextSibling : body.firstChild;
    if (place !== row) body.insertBefore(row, place);
    previous = row;
  }
  for (const gone of rows.values()) gone.remove();
}

async function acceptChallenge(id) {
  const answer = await ask("accept", { challenge: id });
  if (answer.table) await watch(answer.table);
}

function renderTables(list, tables, label, open) {
  list.textContent = "";
  if (!tables.length) {
    const none = document.createElement("li");
    none.className = "hint";
    none.textContent = t("saal.none");
    list.append(none);
  }
  for (const table of tables) {
    const item = document.createElement("li");
    item.dataset.table = table.id;
    const text = document.createElement("span");
    text.textContent = `${gameTitle(table.game)} · ${variantText(table.game, table.variant)}: ${table.seats.join(" – ")}`
      + (table.result ? " · " + resultWords(table) : "");
    const button = document.createElement("button");
    button.textContent = t(label);
    button.onclick = () => open(table);
    item.append(text, button);
    list.append(item);
  }
}

function renderNewChallenge() {
  for (const option of $("new-clock").options) if (option.value) option.textContent = t("saal.minutes", { n: option.value });
  const game = $("new-game");
  game.textContent = "";
  for (const g of Saal.games) {
    const option = document.createElement("option");
    option.value = g.game;
    option.textContent = gameTitle(g.game);
    game.append(option);
  }
  game.onchange = renderVariants;
  renderVariants();
}

function renderVariants() {
  const game = Saal.games.find((g) => g.game === $("new-game").value);
  const select = $("new-variant");
  select.textContent = "";
  for (const [name, description] of Object.entries(game.variants)) {
    const option = document.createElement("option");
    option.value = name;
    const key = `saal.variant.${game.game}.${name}`;
    option.textContent = t(key) === key ? `${name} (${description})` : t(key);
    if (name === game.default) option.selected = true;
    select.append(option);
  }
  $("new-variant-label").textContent = t(`saal.variant.label.${game.game}`);
}

$("challenge-form").onsubmit = async (event) => {
  event.preventDefault();
  const clock = $("new-clock").value;
  const rated = $("new-rated").checked && !$("new-rated").disabled;
  try {
    await ask("challenge", {
      game: $("new-game").value, variant: $("new-variant").value,
      clock_minutes: clock === "" ? null : Number(clock), rated, stake: rated ? Number($("new-stake").value) : 0,
    });
    refreshRoom();
  } catch (err) { /* shown */ }
};

// ---- a table: playing or watching ---------------------------------------------------
async function watch(tableId) {
  try {
    const answer = await ask("watch", { table: tableId });
    openTable(answer.table);
  } catch (err) { /* shown */ }
}

function openTable(msg) {
  if (Saal.table && Saal.table.id !== msg.id && Saal.mode === "watch") ask("unwatch", { table: Saal.table.id }).catch(() => {});
  Saal.mode = msg.you === null ? "watch" : "play";
  Saal.table = null;
  Saal.moves = [];
  Saal.replay = null;
  onTable(msg);
}

function onTable(msg) {
  const current = Saal.table;
  if (current && msg.id === current.id) {
    if (msg.version < current.version) return;
  } else if (msg.you !== null && msg.status === "running" && (Saal.mode === "room" || (current && current.status !== "running"))) {
    // a game of mine began (a challenge accepted, a rematch agreed): go to its table
    Saal.mode = "play";
    Saal.moves = [];
    Saal.replay = null;
  } else if (!(Saal.mode === "play" || Saal.mode === "watch") || (current && msg.id !== current.id)) {
    return;
  }
  const before = Saal.table;
  Saal.table = msg;
  syncMoves(msg);
  showTable();
  if (msg.status !== "running" && before && before.status === "running") refreshAccount();
  if (msg.rematch && Saal.mode === "play" && msg.you !== null) watch(msg.rematch);
}

// The move list: each message holds the latest action and the number of actions; a
// takeback shortens the list, and when an action was missed the public list is read.
function syncMoves(msg) {
  const last = msg.last_action;
  const known = Saal.moves.length;
  if (msg.actions === known) return;
  if (msg.actions < known) { Saal.moves = Saal.moves.slice(0, msg.actions); return; }  // taken back
  if (last && msg.actions === known + 1 && (!known || Saal.moves[known - 1].number < last.number)) {
    Saal.moves.push({ number: last.number, seat: last.seat, action: last.action });
    return;
  }
  ask("replay", { table: msg.id }).then((answer) => {
    if (!Saal.table || Saal.table.id !== msg.id) return;
    Saal.moves = answer.replay.actions.map((a) => ({ number: a.number, seat: a.seat, action: a.action }));
    renderMoves();
  }).catch(() => {});
}

function seatName(msg, seat) {
  const school = schoolName(msg, seat);
  return school ? `${msg.seats[seat]} (${school})` : msg.seats[seat];
}

// what the game calls a seat (a school, a fencer): its board script's seatLabel, if any
function schoolName(msg, seat) {
  const board = window.FechtbuchGames[msg.game];
  return board && board.seatLabel ? board.seatLabel(seat, { t }) : null;
}

function boardApi() {
  return {
    t, act: (text) => act(text), aids: $("aids").checked && Saal.mode === "play", coords: true, rotate: false,
    speed: 300, hint: null, console: (text) => { $("console").textContent = text; },
    warn: (text) => { $("warning").textContent = text || ""; $("warning").hidden = !text; },
    bell: () => beep(880, 250, 0.06),
  };
}

function act(text) {
  const msg = Saal.table;
  if (!msg || msg.status !== "running" || msg.to_act !== msg.you) return;
  // a board acts by the notation of one of the legal actions it was given
  const known = msg.legal_views.find((a) => a.text === text);
  if (!known) return;
  ask("act", { table: msg.id, seq: msg.version, action: known.text }).catch(() => {});
}

// the seat the board is seen from: this person's, or in a replay of their own game the
// seat they played; a spectator sees it from the first seat
function perspective(msg) {
  if (msg.you !== null && msg.you !== undefined) return msg.you;
  return msg.played !== undefined && msg.played >= 0 ? msg.played : 0;
}

function shownMessage(msg, board, legal, last, moves, finished) {
  const seat = perspective(msg);
  return {
    type: "table", table: msg.id, game: msg.game, mode: msg.you === null ? "watch" : "online",
    seat, names: msg.seats.map((_, s) => seatName(msg, s)), people: msg.you === null ? [] : [msg.you],
    to_act: msg.to_act, legal, last, finished,
    moves: moves.map((m) => ({ text: m.action, seat: m.seat, explanation: { key: null, args: {} } })),
    ...board,
  };
}

function showTable() {
  const msg = Saal.table;
  $("room").hidden = true;
  $("table").hidden = false;
  const running = msg.status === "running";
  const mine = msg.you !== null;
  $("table-title").textContent = `${gameTitle(msg.game)} · ${variantText(msg.game, msg.variant)}`;
  const facts = [msg.rated ? t("saal.rated") : t("saal.friendly"), msg.clocks ? t("saal.clock.on") : t("saal.clock.none.short")];
  if (msg.stake) facts.push(t("saal.stake.n", { n: msg.stake }));
  if (!mine) facts.push(t("saal.spectating"));
  $("table-facts").textContent = facts.join(" · ");
  const board = msg.board || {};
  const legal = running && mine && msg.to_act === msg.you ? msg.legal_views || [] : [];
  const shown = shownMessage(msg, board, legal, msg.last_view, Saal.moves, !running);
  const renderer = window.FechtbuchGames[msg.game];
  const area = $("board");
  const place = focusPlace();
  area.textContent = "";
  boardApi().warn("");
  if (renderer && (board.view || board.prelude)) renderer.render(area, shown, boardApi());
  else { const pre = document.createElement("pre"); pre.className = "textboard"; pre.textContent = msg.view; area.append(pre); }
  renderActions(msg, legal, renderer);
  keepFocus(place);
  renderSeats(msg);
  renderTurn(msg);
  renderOffer(msg);
  renderResult(msg);
  renderMoves();
  const friendly = !msg.rated;
  const lastMine = msg.last_action && msg.last_action.seat === msg.you;
  $("takeback").hidden = !(running && mine && friendly && lastMine);
  $("abort").hidden = !(running && mine);
  $("resign").hidden = !(running && mine);
  $("rematch").hidden = !(!running && mine && !msg.rematch && msg.status !== "aborted");
  $("rematch").disabled = Boolean(msg.offers.rematch && msg.offers.rematch.includes(msg.you));
  for (const id of ["replay-first", "replay-back", "replay-next", "replay-last"]) $(id).hidden = true;
  $("leave").textContent = t(running && mine ? "saal.to_room" : "saal.leave");
  startClocks();
  if (running && mine && msg.to_act === msg.you && Saal.lastToAct !== msg.to_act) beep(520, 100, 0.06);
  Saal.lastToAct = msg.to_act;
}

// A redraw (an update of the table, a step of a replay) replaces the board's squares,
// fields and cards and the list of actions: the keyboard keeps its place on the same
// one (the board scripts mark them with data-*: square, field, index, card; an action
// by its notation), else on the board's tab stop or its first button, as on the game page.
function focusPlace() {
  const now = document.activeElement;
  const area = ["board", "actions"].find((id) => now && $(id).contains(now));
  if (!area) return null;
  const key = ["square", "field", "index", "card", "action"].find((k) => now.dataset[k] !== undefined);
  return { area, selector: key ? `[data-${key}="${CSS.escape(now.dataset[key])}"]` : null };
}

function keepFocus(place) {
  if (!place || (document.activeElement && document.activeElement !== document.body)) return;
  const board = $("board");
  const candidates = [
    place.selector && $(place.area).querySelector(place.selector),
    board.querySelector("[role=grid] [tabindex='0']"),
    ...board.querySelectorAll("button:not(:disabled), [tabindex='0']"),
  ];
  for (const candidate of candidates) {
    if (!candidate) continue;
    candidate.focus();
    if (document.activeElement === candidate) return;
  }
}

function renderActions(msg, legal, renderer) {
  const box = $("actions");
  box.textContent = "";
  // a board that offers every action itself (actionList false: the Touché games) gets
  // no list of notations, as on the game page
  if (!legal.length || (msg.board && msg.board.prelude) || (renderer && renderer.actionList === false)) return;
  const holder = renderer && renderer.boardPlay ? document.createElement("details") : box;
  if (holder !== box) {
    const summary = document.createElement("summary");
    summary.textContent = t("play.all");
    holder.append(summary);
    box.append(holder);
  }
  for (const action of legal) {
    const button = document.createElement("button");
    const words = action.label_key ? t(action.label_key, action.args) + " " : "";
    button.textContent = words + (action.label_key ? `(${action.text})` : action.label || action.text);
    button.dataset.action = action.text;
    button.onclick = () => act(action.text);
    holder.append(button);
  }
}

// seats: the others above the board, this person below (a spectator: seat 0 below)
function renderSeats(msg) {
  const me = perspective(msg);
  const top = $("seats-top");
  const bottom = $("seats-bottom");
  top.textContent = "";
  bottom.textContent = "";
  msg.seats.forEach((name, seat) => {
    const card = document.createElement("div");
    card.className = "seat" + (msg.status === "running" && msg.to_act === seat ? " to-act" : "") + (seat === msg.you ? " you" : "");
    card.dataset.seat = seat;
    const label = document.createElement("span");
    label.className = "seat-name";
    label.textContent = seatName(msg, seat) + (seat === msg.you ? " " + t("saal.you") : "");
    card.append(label);
    if (msg.away.includes(seat)) {
      const away = document.createElement("span");
      away.className = "away";
      away.textContent = t("saal.away");
      card.append(away);
    }
    if (msg.clocks) {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.id = `clock-${seat}`;
      card.append(clock);
    }
    (seat === me ? bottom : top).append(card);
  });
}

function renderTurn(msg) {
  const turn = $("turn");
  if (msg.status !== "running") { turn.textContent = ""; return; }
  turn.textContent = msg.to_act === msg.you ? t("saal.your_turn") : t("play.to_act", { name: seatName(msg, msg.to_act) });
  turn.className = "turn" + (msg.to_act === msg.you ? " mine" : "");
}

function offerOpen(msg) {
  if (msg.status === "running") {
    for (const kind of ["takeback", "abort"]) if (msg.offers[kind]) return kind;
    return null;
  }
  return msg.offers.rematch ? "rematch" : null;
}

function renderOffer(msg) {
  const box = $("offer");
  const kind = offerOpen(msg);
  if (!kind || msg.you === null) {
    box.hidden = !(kind && msg.you === null);
    if (kind) { $("offer-text").textContent = t(`saal.offer.${kind}.watch`); $("offer-yes").hidden = true; $("offer-no").hidden = true; }
    return;
  }
  box.hidden = false;
  const agreed = msg.offers[kind];
  const mineAgreed = agreed.includes(msg.you);
  const asking = agreed.length ? seatName(msg, agreed[0]) : "";
  let text;
  if (kind === "abort" && msg.repetition && !agreed.length) text = t("saal.offer.repetition");
  else if (mineAgreed) text = t(`saal.offer.${kind}.waiting`);
  else text = t(`saal.offer.${kind}`, { name: asking });
  $("offer-text").textContent = text;
  $("offer-yes").hidden = mineAgreed;
  $("offer-no").hidden = false;
  $("offer-no").textContent = t(mineAgreed ? "saal.offer.withdraw" : "saal.offer.no");
  $("offer-yes").onclick = () => ask("offer", { table: msg.id, offer: kind }).catch(() => {});
  $("offer-no").onclick = () => ask("decline", { table: msg.id, offer: kind }).catch(() => {});
}

function resultWords(msg) {
  if (msg.status === "aborted") return t("saal.result.aborted");
  if (!msg.result) return "";
  const best = Math.max(...msg.result);
  const winners = msg.result.map((r, seat) => (r === best ? seat : null)).filter((s) => s !== null);
  const names = winners.map((s) => (msg.you !== undefined ? seatName(msg, s) : msg.seats[s]));
  const reason = REASONS.includes(msg.reason) ? t(`saal.reason.${msg.reason.replace(/ /g, "_")}`) : msg.reason;
  const who = winners.length === msg.result.length ? t("play.draw") : t("play.won", { name: names.join(", ") });
  return `${who} (${reason})`;
}

function renderResult(msg) {
  const box = $("result");
  if (msg.status === "running") { box.hidden = true; return; }
  box.hidden = false;
  box.textContent = "";
  const head = document.createElement("strong");
  head.id = "result-text";
  if (msg.you !== null && msg.status === "finished" && msg.result) {
    const best = Math.max(...msg.result);
    const won = msg.result[msg.you] === best && msg.result.some((r) => r !== best);
    head.textContent = (won ? t("play.you_won") : msg.result.every((r) => r === best) ? t("play.draw") : t("play.you_lost")) + " ";
  }
  head.textContent += resultWords(msg);
  box.append(head);
  box.className = "result" + (msg.you !== null && msg.result && msg.result[msg.you] === Math.max(...msg.result) ? " won" : "");
  const settlement = msg.settlement || {};
  for (const [name, change] of Object.entries(settlement)) {
    const line = document.createElement("div");
    line.className = "settlement";
    line.dataset.name = name;
    const sign = (x, digits) => (x > 0 ? "+" : x < 0 ? "−" : "±") + Math.abs(x).toFixed(digits);
    line.textContent = t("saal.settlement", { name, elo: sign(change.elo, 1), points: sign(change.points, 0), taler: sign(change.taler, 0) });
    box.append(line);
  }
  if (!Object.keys(settlement).length && msg.status === "finished") {
    const line = document.createElement("div");
    line.textContent = t("saal.settlement.none");
    box.append(line);
  }
}

function renderMoves() {
  const list = $("moves");
  const msg = Saal.table;
  list.textContent = "";
  const moves = Saal.replay ? Saal.replay.actions : Saal.moves;
  moves.forEach((move, index) => {
    const item = document.createElement("li");
    item.textContent = `${msg.seats[move.seat]}: ${move.action}`;
    if (Saal.replay && index === Saal.ply - 1) item.className = "current";
    list.append(item);
  });
  list.scrollTop = list.scrollHeight;
}

// ---- time: the server keeps it; the page counts down from the last message ------------
function clockFormat(seconds) {
  const whole = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

function startClocks() {
  clearInterval(Saal.clockTimer);
  const msg = Saal.table;
  const received = Date.now();
  const box = $("last-minute");
  const tick = () => {
    const spent = (Date.now() - received) / 1000;
    const running = msg.status === "running";
    if (msg.clocks) {
      msg.clocks.forEach((left, seat) => {
        const el = $(`clock-${seat}`);
        if (!el) return;
        const now = running && seat === msg.to_act ? left - spent : left;
        el.textContent = clockFormat(now);
        el.classList.toggle("low", now < 20);
        el.classList.toggle("ticking", running && seat === msg.to_act);
      });
    }
    // without a clock: the last minute of the ten for one action, shown to everyone
    if (running && msg.move_deadline !== null && msg.move_deadline !== undefined) {
      const left = msg.move_deadline - msg.now - spent;
      box.hidden = left > 60;
      box.textContent = t("play.last_minute", { name: seatName(msg, msg.to_act), left: clockFormat(left) });
    } else box.hidden = true;
  };
  tick();
  Saal.clockTimer = setInterval(tick, 250);
}

function stopTable() {
  clearInterval(Saal.clockTimer);
  if (Saal.table && Saal.mode === "watch") ask("unwatch", { table: Saal.table.id }).catch(() => {});
  Saal.table = null;
  Saal.replay = null;
  Saal.moves = [];
}

// ---- replays: the public view after each action, step by step -------------------------
async function openReplay(tableId) {
  let answer;
  try { answer = await ask("replay", { table: tableId }); } catch (err) { return; }
  Saal.mode = "replay";
  Saal.replay = answer.replay;
  Saal.ply = answer.replay.actions.length;
  showReplay();
}

function showReplay() {
  const replay = Saal.replay;
  const ply = Saal.ply;
  const msg = {
    id: replay.id, game: replay.game, variant: replay.variant, seats: replay.seats, you: null,
    status: replay.status, result: replay.result, reason: replay.reason, to_act: null,
    away: [], offers: {}, clocks: null, played: Saal.me ? replay.seats.indexOf(Saal.me.name) : -1,
  };
  Saal.table = msg;
  $("room").hidden = true;
  $("table").hidden = false;
  $("table-title").textContent = `${gameTitle(replay.game)} · ${variantText(replay.game, replay.variant)}`;
  $("table-facts").textContent = t("saal.replay.ply", { ply, plies: replay.actions.length });
  const entry = ply > 0 ? replay.actions[ply - 1] : null;
  const board = entry ? entry.board : replay.start_board;
  const shown = shownMessage(msg, board, [], entry ? entry.drawn : null, replay.actions.slice(0, ply), true);
  const area = $("board");
  const place = focusPlace();
  area.textContent = "";
  window.FechtbuchGames[replay.game].render(area, shown, { ...boardApi(), aids: false, speed: 0 });
  $("actions").textContent = "";
  keepFocus(place);
  renderSeats(msg);
  $("turn").textContent = entry ? t("saal.replay.action", { name: seatName(msg, entry.seat), action: entry.action }) : t("saal.replay.start");
  $("last-minute").hidden = true;
  $("offer").hidden = true;
  renderResult(msg);
  $("result").hidden = ply !== replay.actions.length || replay.status === "running";
  renderMoves();
  for (const id of ["takeback", "abort", "resign", "rematch"]) $(id).hidden = true;
  for (const id of ["replay-first", "replay-back", "replay-next", "replay-last"]) $(id).hidden = false;
  $("replay-first").disabled = $("replay-back").disabled = ply === 0;
  $("replay-next").disabled = $("replay-last").disabled = ply === replay.actions.length;
  $("leave").textContent = t("saal.leave");
}

function step(to) {
  if (!Saal.replay) return;
  Saal.ply = Math.max(0, Math.min(Saal.replay.actions.length, to));
  showReplay();
}

$("replay-first").onclick = () => step(0);
$("replay-back").onclick = () => step(Saal.ply - 1);
$("replay-next").onclick = () => step(Saal.ply + 1);
$("replay-last").onclick = () => step(Infinity);

// ---- the table's buttons -------------------------------------------------------------
function tableRequest(type, fields) {
  if (Saal.table) ask(type, { table: Saal.table.id, ...(fields || {}) }).catch(() => {});
}
$("takeback").onclick = () => tableRequest("offer", { offer: "takeback" });
$("abort").onclick = () => tableRequest("offer", { offer: "abort" });
$("resign").onclick = () => { if (confirm(t("saal.resign.confirm"))) tableRequest("resign"); };
$("rematch").onclick = () => tableRequest("offer", { offer: "rematch" });
$("leave").onclick = () => showRoom();
$("aids").onchange = () => { if (Saal.table && Saal.mode !== "replay") showTable(); };
$("lang").onchange = async () => {
  await loadTexts($("lang").value);
  if (Saal.me) { $("me-name").textContent = Saal.me.guest ? t("saal.guest.name", { name: Saal.me.name }) : Saal.me.name; refreshAccount(); }
  renderNewChallenge();
  if (Saal.mode === "room") refreshRoom();
  else if (Saal.mode === "replay") showReplay();
  else if (Saal.table) showTable();
};
document.addEventListener("keydown", (event) => {
  if (Saal.mode !== "replay" || ["INPUT", "SELECT"].includes(event.target.tagName)) return;
  if (event.key === "ArrowLeft") step(Saal.ply - 1);
  if (event.key === "ArrowRight") step(Saal.ply + 1);
});

// ---- start: the texts, the boards' scripts and styles, the games, and a session kept in this tab ---
function loadBoards(boards) {
  return Promise.all(Object.values(boards).map((src) => new Promise((resolve) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = resolve;
    document.head.appendChild(script);
  })));
}

async function start() {
  const base = location.pathname.replace(/\/$/, "");
  await loadTexts(navigator.language && navigator.language.startsWith("en") ? "en" : "de");
  $("lang").value = I18n.lang;
  const boards = await (await fetch(`${base}/boards`)).json();
  const styles = await (await fetch(`${base}/styles`)).json();
  for (const href of Object.values(styles)) document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href }));
  await loadBoards(boards);
  await connect();
  Saal.games = (await ask("games")).games;
  renderNewChallenge();
  const session = sessionStorage.getItem(SESSION_KEY);
  if (session) {
    try { await welcome(await ask("hello", { session })); return; } catch (err) { sessionStorage.removeItem(SESSION_KEY); }
  }
  $("login-name").focus();
  document.body.dataset.ready = "1";
}

start().then(() => { document.body.dataset.ready = "1"; });
