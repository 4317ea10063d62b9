"use strict";
// goref's page: a spectator of the mirror's wire over a WebSocket. It says
// hello, pings and says bye, nothing else; it folds the snapshots and events
// it is sent into the views it draws: one game, or an event's hall of games.
(() => {
  const params = new URLSearchParams(location.search);
  const projector = params.has("projector");
  const token = params.get("token");
  const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  const TRACE_KEPT = 200;
  const MOVES_KEPT = 500;
  const CYCLE_MS = Number(params.get("every") || 15) * 1000;
  const $ = (id) => document.getElementById(id);

  let game = null;
  let hall = null;
  let opened = params.has("board") ? Number(params.get("board")) : null;
  let cycled = performance.now();
  let status = "connecting…";
  // Told not to come back (a wrong token, another version): no reconnect.
  let finished = false;
  let trouble = true;
  let lastHeard = performance.now();

  const side = (c) => (c === "B" ? 0 : 1);
  const other = (c) => (c === "B" ? "W" : "B");
  const arrow = (d) => (d === "sent" || d === "out" ? "→" : d === "received" || d === "in" ? "←" : "!");
  const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

  function emptyView(size) {
    return {
      size, board: new Array(size * size).fill(null), players: [null, null], moves: [],
      lastMove: null, clocks: [null, null], clockAt: [0, 0], toMove: null, phase: "setup",
      result: null, trace: [], agreement: null, lastSeq: 0, absent: [false, false],
      analysis: [null, null],
    };
  }

  function fromSnapshot(snapshot) {
    const v = snapshot.view;
    const view = emptyView(v.size);
    view.board = v.board.slice();
    view.players = v.players || [null, null];
    view.time = v.time;
    view.moves = (v.moves || []).map((m) => ({ n: m.n, color: m.color, vertex: m.vertex, ms: m.ms, bw: m.black_winrate }));
    view.analysis = v.analysis || [null, null];
    view.lastMove = v.last_move;
    view.clocks = v.clocks || [null, null];
    view.clockAt = [performance.now(), performance.now()];
    view.toMove = v.to_move;
    view.phase = v.phase;
    view.result = v.result ? { result: v.result.result, reason: v.result.reason, score: v.result.score } : null;
    view.trace = (v.trace || []).map((t) => `${t.color} ${arrow(t.direction)} ${t.line}`);
    view.agreement = v.agreement;
    view.absent = v.seat_absent || [false, false];
    view.lastSeq = snapshot.seq;
    return view;
  }

  function index(view, vertex) {
    const col = LETTERS.indexOf(String(vertex)[0].toUpperCase());
    const row = parseInt(String(vertex).slice(1), 10) - 1;
    if (col < 0 || col >= view.size || !(row >= 0) || row >= view.size) return -1;
    return row * view.size + col;
  }

  function pushTrace(view, line) {
    view.trace.push(line);
    if (view.trace.length > TRACE_KEPT) view.trace.shift();
  }

  function setClock(view, color, reading) {
    if (!reading) return;
    view.clocks[side(color)] = reading;
    view.clockAt[side(color)] = performance.now();
  }

  function agreement(view) {
    view.agreement = view.agreement || { claims: [null, null], agreed: null, black_only: [], white_only: [], marked: [] };
    return view.agreement;
  }

  // One event of the stream, as `goref play --json` prints it.
  function apply(view, e) {
    if (e.seq <= view.lastSeq) return;
    view.lastSeq = e.seq;
    switch (e.type) {
      case "game_start": {
        const fresh = emptyView(e.size);
        fresh.players = [e.black, e.white];
        fresh.time = e.time;
        fresh.toMove = e.first_to_move;
        fresh.phase = "play";
        fresh.lastSeq = e.seq;
        fresh.absent = view.absent || [false, false];
        for (const v of e.handicap || []) {
          const i = index(fresh, v);
          if (i >= 0) fresh.board[i] = "B";
        }
        Object.assign(view, fresh);
        break;
      }
      case "player": view.players[side(e.color)] = e.info; break;
      case "move": {
        const v = String(e.vertex);
        const i = index(view, v);
        if (i >= 0 && !/^(pass|resign)$/i.test(v)) view.board[i] = e.color;
        for (const c of e.captures || []) {
          const j = index(view, c);
          if (j >= 0) view.board[j] = null;
        }
        const line = { n: e.n, color: e.color, vertex: v, ms: e.ms };
        view.moves.push(line);
        if (view.moves.length > MOVES_KEPT) view.moves.shift();
        view.lastMove = line;
        view.toMove = other(e.color);
        setClock(view, e.color, e.clock);
        break;
      }
      case "analysis": {
        const fraction = (x) => typeof x === "number" && x >= 0 && x <= 1;
        if (!fraction(e.winrate) || !fraction(e.black_winrate)) break;
        const line = view.moves.slice(-2).find((m) => m.n === e.n);
        if (line) line.bw = e.black_winrate;
        view.analysis[side(e.color)] = { n: e.n, winrate: e.winrate, score_lead: e.score_lead, visits: e.visits, pv: e.pv || [] };
        break;
      }
      case "clock": setClock(view, e.color, e.clock); break;
      case "phase":
        view.phase = e.phase;
        if (e.phase !== "play" && e.phase !== "cleanup") view.toMove = null;
        break;
      case "result": view.result = { result: e.result, reason: e.reason, score: e.score }; view.toMove = null; break;
      case "gtp": case "usenix": pushTrace(view, `${e.color} ${arrow(e.direction)} ${e.line}`); break;
      case "packet": pushTrace(view, `${e.color} ${arrow(e.direction)} ${e.hex}  ${e.meaning || ""}`); break;
      case "error": case "notice": pushTrace(view, `! ${e.message}`); break;
      case "session": {
        pushTrace(view, `! ${e.message}`);
        if (e.color) {
          const gone = ["seat_absent", "seat_lost", "venue_away"].includes(e.what);
          const back = ["seat_in", "seat_back"].includes(e.what);
          if (gone || back) view.absent[side(e.color)] = gone;
        }
        break;
      }
      case "agreement": {
        const a = agreement(view);
        if (e.kind === "claim") a.claims[side(e.color)] = e.stones;
        else if (e.kind === "agreed") a.agreed = e.stones;
        else if (e.kind === "disputed") { a.black_only = e.black_only; a.white_only = e.white_only; }
        else if (e.kind === "marked") a.marked = e.stones;
        break;
      }
    }
  }

  // One line of the mirror's wire.
  function receive(text) {
    let m;
    try { m = JSON.parse(text); } catch { return; }
    lastHeard = performance.now();
    switch (m.type) {
      case "welcome":
        if (m.hall) hall = hall || { picture: null, games: new Map() };
        status = "live"; trouble = false;
        break;
      case "hall":
        hall = hall || { picture: null, games: new Map() };
        if (hall.picture && hall.picture.round !== m.picture.round) hall.games.clear();
        hall.picture = m.picture;
        break;
      case "snapshot":
        if (m.board !== undefined && m.board !== null) hall.games.set(m.board, fromSnapshot(m));
        else game = fromSnapshot(m);
        break;
      case "event": {
        if (m.board !== undefined && m.board !== null) {
          if (!hall) return;
          const view = hall.games.get(m.board);
          if (view) apply(view, m.event);
        } else {
          game = game || emptyView(19);
          apply(game, m.event);
        }
        break;
      }
      case "bye":
        status = `the referee closed: ${m.reason}`;
        if (m.retry === false) {
          finished = true;
          if (/needs a token/.test(m.reason)) status = "this game needs a token: open this page as /?token=…";
          else if (/wrong token/.test(m.reason)) status = "wrong token: open this page as /?token= with the referee's token";
        }
        trouble = true;
        break;
    }
    schedule();
  }

  function connect() {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const socket = new WebSocket(url);
    let pinger = null;
    socket.onopen = () => {
      const hello = { type: "hello", version: 1 };
      if (token) hello.token = token;
      socket.send(JSON.stringify(hello));
      pinger = setInterval(() => socket.send(JSON.stringify({ type: "ping", t_ms: Math.round(performance.now()) })), 5000);
    };
    socket.onmessage = (message) => {
      for (const line of String(message.data).split("\n")) if (line) receive(line);
    };
    socket.onclose = () => {
      clearInterval(pinger);
      if (finished) return;
      if (!trouble) status = "reconnecting…";
      trouble = true;
      schedule();
      setTimeout(connect, 2000);
    };
    current = socket;
  }
  // The socket of the moment; says bye when the page goes.
  let current = null;
  window.addEventListener("beforeunload", () => {
    if (current && current.readyState === WebSocket.OPEN) current.send(JSON.stringify({ type: "bye" }));
  });

  function stars(size) {
    const edge = size >= 13 ? 3 : 2;
    if (size < 7) return [];
    const points = [edge, size - 1 - edge];
    if (size % 2 === 1) points.splice(1, 0, (size - 1) / 2);
    return points.flatMap((x) => points.map((y) => [x, y]));
  }

  function boardSvg(view, coordinates) {
    const n = view.size;
    const pad = coordinates ? 1.2 : 0.5;
    const span = n - 1 + 2 * pad;
    const at = (k) => pad + k;
    let s = `<svg viewBox="0 0 ${span} ${span}" data-size="${n}"><rect width="${span}" height="${span}" fill="var(--wood)"/>`;
    for (let k = 0; k < n; k++) {
      s += `<line x1="${at(0)}" y1="${at(k)}" x2="${at(n - 1)}" y2="${at(k)}" stroke="var(--line)" stroke-width="0.04"/>`;
      s += `<line x1="${at(k)}" y1="${at(0)}" x2="${at(k)}" y2="${at(n - 1)}" stroke="var(--line)" stroke-width="0.04"/>`;
    }
    for (const [x, y] of stars(n)) s += `<circle cx="${at(x)}" cy="${at(y)}" r="0.1" fill="var(--line)"/>`;
    if (coordinates) {
      for (let k = 0; k < n; k++) {
        const letter = LETTERS[k];
        const number = n - k;
        for (const y of [0.55, span - 0.3]) s += `<text x="${at(k)}" y="${y}" font-size="0.45" text-anchor="middle">${letter}</text>`;
        for (const x of [0.45, span - 0.45]) s += `<text x="${x}" y="${at(k) + 0.16}" font-size="0.45" text-anchor="middle">${number}</text>`;
      }
    }
    const last = view.lastMove ? index(view, view.lastMove.vertex) : -1;
    const dead = deadStones(view);
    const point = (i) => [at(i % n), at(n - 1 - Math.floor(i / n))];
    const score = view.result?.score;
    for (const [list, owner] of [[score?.black_territory, "B"], [score?.white_territory, "W"]]) {
      for (const v of list || []) {
        const i = index(view, v);
        if (i < 0 || (view.board[i] && !dead.has(i))) continue;
        const [x, y] = point(i);
        s += `<rect class="territory" data-owner="${owner}" x="${x - 0.15}" y="${y - 0.15}" width="0.3" height="0.3" fill="${owner === "B" ? "#111" : "#f8f8f8"}" stroke="#111" stroke-width="0.02"/>`;
      }
    }
    view.board.forEach((stone, i) => {
      if (!stone) return;
      const [x, y] = point(i);
      const vertex = `${LETTERS[i % n]}${Math.floor(i / n) + 1}`;
      const fill = stone === "B" ? "#111" : "#f8f8f8";
      const ink = stone === "B" ? "#fff" : "#111";
      if (dead.has(i)) {
        s += `<circle class="stone dead" data-vertex="${vertex}" data-color="${stone}" data-dead="1" cx="${x}" cy="${y}" r="0.47" fill="${fill}" fill-opacity="0.45" stroke="#111" stroke-width="0.03"/>`;
        s += `<path d="M${x - 0.2} ${y - 0.2}L${x + 0.2} ${y + 0.2}M${x + 0.2} ${y - 0.2}L${x - 0.2} ${y + 0.2}" stroke="${ink}" stroke-width="0.07"/>`;
        return;
      }
      s += `<circle class="stone" data-vertex="${vertex}" data-color="${stone}" cx="${x}" cy="${y}" r="0.47" fill="${fill}" stroke="#111" stroke-width="0.03"/>`;
      if (i === last && dead.size === 0) s += `<circle class="last" cx="${x}" cy="${y}" r="0.18" fill="none" stroke="${ink}" stroke-width="0.06"/>`;
    });
    return s + "</svg>";
  }

  // Counted dead: agreed by both sides, marked by the operator, or removed
  // by the score: the terminal's `x` and `o`.
  function deadStones(view) {
    const dead = new Set();
    const a = view.agreement;
    for (const v of [...(view.result?.score?.dead || []), ...(a?.agreed || []), ...(a?.marked || [])]) {
      const i = index(view, v);
      if (i >= 0) dead.add(i);
    }
    return dead;
  }

  // m:ss, or h:mm:ss from an hour, rounded down as the terminal's clocks are.
  function minutes(ms) {
    const s = Math.floor(ms / 1000);
    const pad = (x) => String(x).padStart(2, "0");
    return s >= 3600 ? `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${Math.floor(s / 60)}:${pad(s % 60)}`;
  }

  // A clock as the terminal shows it compact: `12:34 main`, `0:25 byo 3x`,
  // `0:40 5 st`, `FLAG`, `3:02 used`; ticking while it runs.
  function clockText(view, k) {
    const reading = view.clocks[k];
    if (!reading) return "--:--";
    if (reading.flagged) return "FLAG";
    const running = reading.running && view.result === null;
    const elapsed = running ? performance.now() - view.clockAt[k] : 0;
    if (view.time === "none") return `${minutes(reading.used_ms + elapsed)} used`;
    const overtime = reading.in_overtime && reading.period_left_ms != null;
    const left = Math.max(0, (overtime ? reading.period_left_ms : reading.main_left_ms) - elapsed);
    const phase = !overtime ? "main"
      : reading.periods_left != null ? `byo ${reading.periods_left}x`
      : reading.stones_left != null ? `${reading.stones_left} st` : "overtime";
    return `${minutes(left)} ${phase}`;
  }

  function absentMark(view, k) {
    return view.absent && view.absent[k] && !view.result ? ` <span class="absent">absent</span>` : "";
  }

  function playerName(view, k) {
    const p = view.players[k];
    return p ? `${p.name} ${p.version}`.trim() : k === 0 ? "Black" : "White";
  }

  // Whether each program's newest analysis says it is the one winning.
  const disagree = (view) => view.analysis.every((a) => a && a.winrate > 0.5);

  // What a program last thought its chance to win, beside its clock.
  function thinks(view, k) {
    const a = view.analysis[k];
    if (!a) return "";
    const mark = disagree(view) ? ` <span class="disagree" title="each program thinks it is winning">≠</span>` : "";
    return ` <span class="winrate">${Math.round(a.winrate * 100)}%</span>${mark}`;
  }

  // Black's chance over the game as each program saw it when it moved: one
  // point a move, Black's program ● and White's ○, 50% dashed.
  function winrateSvg(view) {
    const points = view.moves.filter((m) => typeof m.bw === "number");
    if (!points.length) return "";
    const w = 300, h = 80, n = Math.max(points.length - 1, 1);
    const x = (i) => (i * w) / n, y = (bw) => (1 - bw) * h;
    const path = (color) => points.map((m, i) => [i, m]).filter(([, m]) => m.color === color)
      .map(([i, m], j) => `${j ? "L" : "M"}${x(i).toFixed(1)},${y(m.bw).toFixed(1)}`).join("");
    const summary = [0, 1].filter((k) => view.analysis[k]).map((k) => {
      const a = view.analysis[k];
      const lead = typeof a.score_lead === "number" ? ` ${a.score_lead >= 0 ? "+" : ""}${a.score_lead.toFixed(1)}` : "";
      return `${k === 0 ? "B" : "W"} ${Math.round(a.winrate * 100)}%${lead}, ${a.visits} visits`;
    }).join(" · ") + (disagree(view) ? " · each thinks it wins" : "");
    return `<div class="winrate-summary">${esc(summary)}</div><svg viewBox="-2 -2 ${w + 4} ${h + 4}" data-points="${points.length}">` +
      `<line x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}" stroke="var(--muted)" stroke-dasharray="4 3"/>` +
      `<path d="${path("B")}" fill="none" stroke="var(--ink)" stroke-width="2"/>` +
      `<path d="${path("W")}" fill="none" stroke="var(--muted)" stroke-width="2"/></svg>`;
  }

  // Black's newest chance as a small bar for a hall tile.
  function winrateBar(view) {
    const last = [...view.moves].reverse().find((m) => typeof m.bw === "number");
    if (!last) return "";
    const pct = Math.round(last.bw * 100);
    return `<div class="bar" title="Black's chance, as the programs see it" data-black="${pct}"><span style="width:${pct}%"></span></div>`;
  }

  function drawGame(view) {
    $("board").innerHTML = boardSvg(view, true);
    if (!document.body.dataset.firstBoardMs) {
      document.body.dataset.firstBoardMs = Math.round(performance.now());
    }
    $("clocks").innerHTML = [0, 1].map((k) => {
      const color = k === 0 ? "B" : "W";
      const moving = view.toMove === color ? " to-move" : "";
      const absent = absentMark(view, k);
      return `<div class="clock${moving}" data-color="${color}"><span>${color === "B" ? "●" : "○"} ${esc(playerName(view, k))}${absent}</span><span class="time">${clockText(view, k)}${thinks(view, k)}</span></div>`;
    }).join("");
    $("winrate").innerHTML = winrateSvg(view);
    $("result").textContent = view.result ? `${view.result.result}: ${view.result.reason}` : view.phase === "play" ? "" : view.phase;
    const a = view.agreement;
    const stones = (list) => (list && list.length ? list.join(" ") : "none");
    $("agreement").textContent = a && (a.claims?.[0] || a.claims?.[1] || a.agreed)
      ? `dead stones: Black claims ${stones(a.claims[0])}; White claims ${stones(a.claims[1])}` + (a.agreed ? `; agreed ${stones(a.agreed)}` : "")
      : "";
    $("moves").innerHTML = view.moves.map((m) => `<li value="${m.n}">${m.color} ${esc(m.vertex)}</li>`).join("");
    $("moves").scrollTop = $("moves").scrollHeight;
    $("trace").textContent = view.trace.slice(-60).join("\n");
    $("trace").scrollTop = $("trace").scrollHeight;
  }

  function drawHall() {
    const picture = hall.picture;
    if (!picture) return;
    $("hall-title").textContent = `${picture.name}: round ${picture.round} of ${picture.rounds}`;
    $("boards").innerHTML = picture.boards.map((b) => {
      const view = hall.games.get(b.board);
      const moves = view ? view.moves.length : 0;
      const last = view?.lastMove;
      const state = b.result ? `${b.result}${b.reason ? `: ${b.reason}` : ""}`
        : b.playing ? (last ? `move ${last.n}: ${last.color} ${last.vertex}` : `playing, move ${moves}`) : "waiting";
      const clocks = view ? [0, 1].map((k) => {
        const color = k === 0 ? "B" : "W";
        const moving = view.toMove === color ? " to-move" : "";
        return `<span class="clock${moving}" data-color="${color}">${color === "B" ? "●" : "○"} ${clockText(view, k)}${absentMark(view, k)}</span>`;
      }).join("") : "";
      return `<div class="tile" data-board="${b.board}"><div class="names">${b.board}. ● ${esc(b.black)} – ○ ${esc(b.white)}</div><div class="clocks">${clocks}</div><div class="state">${esc(state)}</div>${view ? winrateBar(view) : ""}${view ? boardSvg(view, false) : ""}</div>`;
    }).join("");
    const tables = picture.standings || [];
    $("standings").innerHTML = tables.map(([division, table]) => standingsHtml(division, table)).join("");
  }

  const HEADINGS = { Wins: "wins", Sos: "SOS", Sosos: "SOSOS", Sodos: "SODOS", TrimmedSodos: "tSODOS" };
  // Half points as the terminal writes them: 2, 2½, ½.
  const halves = (h) => (h === 1 ? "½" : h % 2 ? `${Math.floor(h / 2)}½` : String(h / 2));

  // One division's standings as the terminal's crosstable ranks them: `3=`
  // shared, `3*` placed by pairing number, an h2h column when head-to-head
  // decided a tie, `wd` for a withdrawn entrant.
  function standingsHtml(division, table) {
    const columns = table.rows[0]?.values.map(([t]) => t) || [];
    const h2h = table.tie_breaks.includes("HeadToHead") && table.rows.some((r) => r.head_to_head != null);
    const head = `<tr><th>#</th><th>${esc(division || "")}</th><th>pts</th>${columns.map((t) => `<th>${esc(HEADINGS[t] || t)}</th>`).join("")}${h2h ? "<th>h2h</th>" : ""}</tr>`;
    const rows = table.rows.map((r) => {
      const rank = r.tied ? `${r.rank}=` : r.decided_by === "PairingNumber" ? `${r.rank}*` : `${r.rank}`;
      const name = r.withdrawn_from != null ? `${esc(r.name)} <span class="withdrawn">(withdrawn from round ${r.withdrawn_from})</span>` : esc(r.name);
      const values = r.values.map(([, v]) => `<td>${halves(v)}</td>`).join("");
      return `<tr><td class="rank">${rank}</td><td>${name}</td><td>${halves(r.score)}</td>${values}${h2h ? `<td>${r.head_to_head != null ? halves(r.head_to_head) : ""}</td>` : ""}</tr>`;
    }).join("");
    return head + rows;
  }

  function draw() {
    const now = performance.now();
    const stale = now - lastHeard > 12000 && !trouble;
    $("status").textContent = stale ? "stale: nothing heard for a while" : status;
    $("status").className = trouble || stale ? "status trouble" : "status";
    if (hall) {
      const boards = hall.picture ? hall.picture.boards.map((b) => b.board) : [];
      if (projector && boards.length && now - cycled > CYCLE_MS) {
        const at = boards.indexOf(opened);
        opened = boards[(at + 1) % boards.length];
        cycled = now;
      }
      if (projector && opened === null && boards.length) opened = boards[0];
      const view = opened !== null ? hall.games.get(opened) : null;
      $("hall").hidden = view != null;
      $("game").hidden = view == null;
      $("back").hidden = view == null;
      if (view) {
        const b = hall.picture?.boards.find((p) => p.board === opened);
        $("title").textContent = b ? `${hall.picture.name}, board ${b.board}: ${b.black} – ${b.white}` : "goref";
        drawGame(view);
      } else {
        $("title").textContent = hall.picture ? hall.picture.name : "goref";
        drawHall();
      }
    } else if (game) {
      $("title").textContent = `${playerName(game, 0)} – ${playerName(game, 1)}`;
      drawGame(game);
    }
  }

  let pending = false;
  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      draw();
    });
  }

  document.addEventListener("click", (event) => {
    const tile = event.target.closest?.(".tile");
    if (tile) { opened = Number(tile.dataset.board); schedule(); }
    if (event.target.id === "back") { event.preventDefault(); opened = null; schedule(); }
  });
  if (projector) document.body.classList.add("projector");
  setInterval(schedule, 250);
  connect();
  schedule();
})();
