// arbiterd dashboard: one tile per board, kept current from the
// Server-Sent Events stream at /api/stream. No dependencies, no build step.
"use strict";
(function () {
  const root = document.getElementById("boards");
  const empty = document.getElementById("empty");
  const conn = document.getElementById("conn");
  const summary = document.getElementById("summary");
  const boards = new Map(); // id -> {state, el}
  let skew = 0; // server wall clock minus the browser's, in ms

  // ---- the diagram ------------------------------------------------------

  // Pieces are drawn with the chess symbols of the page's font: a white
  // piece is the solid glyph filled white under the outline glyph; a black
  // piece is the solid glyph in black. U+FE0E asks for text, not emoji.
  const SOLID = { k: "\u265A", q: "\u265B", r: "\u265C", b: "\u265D", n: "\u265E", p: "\u265F" };
  const OUTLINE = { k: "\u2654", q: "\u2655", r: "\u2656", b: "\u2657", n: "\u2658", p: "\u2659" };
  const VS = "\uFE0E";
  const LIGHT = "#eed9b5", DARK = "#b58863", LAST = "rgba(255, 214, 10, 0.5)";

  // squares returns the 64 squares of a FEN's placement, a8 first
  // ("" for empty), or null when the placement is malformed.
  function squares(fen) {
    const ranks = String(fen || "").split(" ")[0].split("/");
    if (ranks.length !== 8) return null;
    const out = [];
    for (const rank of ranks) {
      let n = 0;
      for (const c of rank) {
        if (c >= "1" && c <= "8") {
          for (let i = 0; i < +c; i++) out.push("");
          n += +c;
        } else if ("kqrbnpKQRBNP".includes(c)) {
          out.push(c);
          n++;
        } else {
          return null;
        }
      }
      if (n !== 8) return null;
    }
    return out;
  }

  // sqIndex turns "e4" into its index a8-first, or -1.
  function sqIndex(s) {
    if (!s || s.length < 2) return -1;
    const f = s.charCodeAt(0) - 97, r = s.charCodeAt(1) - 49;
    if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
    return (7 - r) * 8 + f;
  }

  // diagram draws the position with White at the bottom.
  function diagram(fen, lastMove) {
    const sq = squares(fen);
    const hi = new Set();
    if (lastMove && lastMove.length >= 4) {
      hi.add(sqIndex(lastMove.slice(0, 2)));
      hi.add(sqIndex(lastMove.slice(2, 4)));
    }
    let s = '<svg class="diagram" viewBox="0 0 8 8" role="img" aria-label="' + esc(sq ? fen : "unreadable position") + '">';
    for (let i = 0; i < 64; i++) {
      const x = i % 8, y = (i / 8) | 0;
      s += '<rect x="' + x + '" y="' + y + '" width="1" height="1" fill="' + ((x + y) % 2 === 0 ? LIGHT : DARK) + '"/>';
      if (hi.has(i)) s += '<rect x="' + x + '" y="' + y + '" width="1" height="1" fill="' + LAST + '"/>';
    }
    if (!sq) {
      s += '<text x="4" y="4" font-size="0.7" text-anchor="middle" fill="#900">bad FEN</text></svg>';
      return s;
    }
    s += '<g font-size="0.86" text-anchor="middle" dominant-baseline="central" font-family="DejaVu Sans, Noto Sans Symbols2, Segoe UI Symbol, sans-serif">';
    for (let i = 0; i < 64; i++) {
      const p = sq[i];
      if (!p) continue;
      const x = (i % 8) + 0.5, y = ((i / 8) | 0) + 0.53;
      const k = p.toLowerCase();
      const at = ' x="' + x + '" y="' + y + '"';
      if (p !== k) {
        s += '<text' + at + ' fill="#fff">' + SOLID[k] + VS + '</text>';
        s += '<text' + at + ' fill="#000">' + OUTLINE[k] + VS + '</text>';
      } else {
        s += '<text' + at + ' fill="#000">' + SOLID[k] + VS + '</text>';
      }
    }
    return s + "</g></svg>";
  }

  // ---- clocks -----------------------------------------------------------

  // running: the side's clock counts down in the page while arbiterd
  // knows it runs and the game is on (no result, no final flag verdict).
  function running(b, side) {
    return b.running === side && b.connection === "connected" && !b.result &&
      b.verdict !== "loss" && b.verdict !== "draw" &&
      known(b);
  }

  // secondsLeft is what the side's clock shows now: the last reading,
  // less the time since it was received when that clock is running.
  function secondsLeft(b, side) {
    let s = (b.clock && b.clock[side]) || 0;
    if (running(b, side)) s -= (Date.now() + skew - Date.parse(b.clock_at)) / 1000;
    return Math.max(0, s);
  }

  // known: the clocks have been read at least once.
  function known(b) {
    return Date.parse(b.clock_at) > 946684800000;
  }

  function fmtClock(s) {
    s = Math.floor(s);
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    const pad = (n) => (n < 10 ? "0" : "") + n;
    return h > 0 ? h + ":" + pad(m) + ":" + pad(sec) : m + ":" + pad(sec);
  }

  function tickClocks() {
    for (const { state, el } of boards.values()) {
      for (const side of ["white", "black"]) {
        const c = el.querySelector(".player." + side + " .clock");
        if (!c || !known(state)) continue;
        const s = secondsLeft(state, side);
        c.textContent = fmtClock(s);
        c.classList.toggle("low", s < 60);
      }
    }
  }

  // ---- a tile -----------------------------------------------------------

  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, (c) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  }

  function count(letter, done, req) {
    return letter + " " + done + (req > 0 ? "/" + req : "");
  }

  function alertTitle(b, a) {
    const who = a.side ? " · " + a.side : "";
    if (a.kind === "flag") {
      let verdict = "FLAG";
      if (b.flag && b.flag.seq === a.seq && b.flag.verdict) verdict = b.flag.verdict === "none" ? "FLAG, PLAY ON" : b.flag.verdict.toUpperCase();
      return verdict + " — " + (a.article || "–") + who;
    }
    return a.kind + " — " + (a.article || "–") + who;
  }

  function alertItem(b, a, older) {
    const cls = "alert " + a.level + (a.acked ? " acked" : "") + (older ? " older" : "");
    const act = a.acked
      ? '<span class="done">acknowledged</span>'
      : '<button class="ack" data-board="' + esc(b.id) + '" data-alert="' + a.id + '">Acknowledge</button>';
    return '<li class="' + cls + '" data-alert="' + a.id + '"><span class="what"><span class="title">' +
      esc(alertTitle(b, a)) + '</span> <span class="text" title="' + esc(a.text) + '">' + esc(a.text) + "</span></span>" + act + "</li>";
  }

  // alertList: open alerts first (red before amber, newest first), then the
  // two latest acknowledged ones; older acknowledged ones are counted.
  function alertList(b) {
    const all = (b.alerts || []).slice().reverse();
    const open = all.filter((a) => !a.acked).sort((x, y) => (x.level === y.level ? 0 : x.level === "red" ? -1 : 1));
    const done = all.filter((a) => a.acked);
    let s = '<ul class="alerts">';
    for (const a of open) s += alertItem(b, a, false);
    done.forEach((a, i) => { s += alertItem(b, a, i >= 2); });
    s += "</ul>";
    if (done.length > 2) s += '<div class="more">+' + (done.length - 2) + " earlier acknowledged</div>";
    return s;
  }

  function lastMove(b) {
    const n = (b.san || []).length;
    if (!n) return "";
    const num = Math.ceil(n / 2);
    return "last " + num + (n % 2 ? ". " : "… ") + b.san[n - 1];
  }

  function render(b) {
    const open = (b.alerts || []).filter((a) => !a.acked);
    const cls = "tile" + (open.some((a) => a.level === "red") ? " has-red" : open.length ? " has-amber" : "");
    const player = (side, name) =>
      '<div class="player ' + side + (running(b, side) ? " running" : "") + '"><span class="dot"></span><span class="name">' +
      esc(name || (side === "white" ? "White" : "Black")) + '</span>' +
      (known(b) ? '<span class="clock">' + fmtClock(secondsLeft(b, side)) + "</span>" : '<span class="clock unknown">–:––</span>') + "</div>";
    const status = b.result
      ? '<span class="result" title="' + esc(b.connection) + '">' + esc(b.result) + (b.end_reason ? " " + esc(b.end_reason) : "") + "</span>"
      : '<span class="state ' + esc(b.connection) + '">' + esc(b.connection) + "</span>" +
        (b.clock_connection === "disconnected" ? '<span class="state disconnected clockport">clock disconnected</span>' : "");
    return {
      cls,
      html:
        '<div class="head"><span class="num">Board ' + esc(b.id) + "</span>" +
        (b.round ? '<span class="round">round ' + esc(b.round) + "</span>" : "") + status + "</div>" +
        '<div class="body">' + diagram(b.fen, b.last_move) +
        '<div class="side">' + player("black", b.black) + player("white", b.white) +
        '<div class="counts" title="' + esc(b.timecontrol ? "time control " + b.timecontrol : "time control unknown") + '"><span class="w">' + count("W", b.moves.white, b.required.white) +
        '</span><span class="b">' + count("B", b.moves.black, b.required.black) + "</span></div>" +
        '<div class="meta">' + esc(lastMove(b)) + "</div></div></div>" + alertList(b),
    };
  }

  function numericLess(a, b) {
    const x = parseInt(a, 10), y = parseInt(b, 10);
    if (!isNaN(x) && !isNaN(y) && x !== y && String(x) === a && String(y) === b) return x < y;
    return a < b;
  }

  function apply(b, now) {
    if (!b || typeof b.id !== "string") return;
    if (now) skew = Date.parse(now) - Date.now();
    let entry = boards.get(b.id);
    if (!entry) {
      const el = document.createElement("section");
      el.id = "board-" + b.id;
      el.dataset.board = b.id;
      entry = { state: b, el };
      boards.set(b.id, entry);
      let before = null;
      for (const other of root.children) {
        if (numericLess(b.id, other.dataset.board)) { before = other; break; }
      }
      root.insertBefore(el, before);
    }
    entry.state = b;
    const { cls, html } = render(b);
    entry.el.className = cls;
    entry.el.innerHTML = html;
    empty.hidden = boards.size > 0;
    updateSummary();
  }

  function updateSummary() {
    let red = 0, amber = 0;
    for (const { state } of boards.values()) {
      for (const a of state.alerts || []) {
        if (a.acked) continue;
        if (a.level === "red") red++; else amber++;
      }
    }
    const open = [];
    if (red) open.push('<span class="n-red">' + red + " flag" + (red > 1 ? "s" : "") + "</span>");
    if (amber) open.push('<span class="n-amber">' + amber + (amber > 1 ? " anomalies" : " anomaly") + "</span>");
    summary.innerHTML = boards.size + (boards.size === 1 ? " board" : " boards") +
      (open.length ? " · to acknowledge: " + open.join(", ") : " · nothing to acknowledge");
  }

  // ---- acknowledging ----------------------------------------------------

  root.addEventListener("click", async (ev) => {
    const btn = ev.target.closest("button.ack");
    if (!btn) return;
    btn.disabled = true;
    const url = "/api/boards/" + encodeURIComponent(btn.dataset.board) + "/alerts/" + btn.dataset.alert + "/ack";
    try {
      const r = await fetch(url, { method: "POST" });
      const body = await r.json();
      if (!r.ok) throw new Error(body.error || r.statusText);
      apply(body);
    } catch (e) {
      btn.disabled = false;
      btn.title = "not acknowledged: " + e.message;
      btn.textContent = "Retry";
    }
  });

  // ---- the stream -------------------------------------------------------

  function setConn(cls, text) {
    conn.className = "conn " + cls;
    conn.textContent = text;
  }

  const es = new EventSource("/api/stream");
  es.onopen = () => setConn("live", "live");
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) setConn("lost", "disconnected — reload the page");
    else setConn("connecting", "reconnecting…");
  };
  const onMessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    setConn("live", "live");
    apply(m.state, m.now);
  };
  es.addEventListener("state", onMessage);
  es.addEventListener("update", onMessage);

  setInterval(tickClocks, 250);
})();
