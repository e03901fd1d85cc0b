// arbiterd dashboard: one tile per board, kept current from the
// Server-Sent Events stream at /api/stream. No dependencies, no build step.
"use strict";
(function () {
  const root = document.getElementById("boards");
  const empty = document.getElementById("empty");
  const calm = document.getElementById("calm");
  const conn = document.getElementById("conn");
  const summary = document.getElementById("summary");
  const attention = document.getElementById("attention");
  const detail = document.getElementById("detail");
  const detailBody = document.getElementById("detail-body");
  const boards = new Map(); // id -> {state, el}
  let skew = 0; // server wall clock minus the browser's, in ms
  let shown = null; // the board shown in the detail dialog

  // ---- the words ----------------------------------------------------------

  // The page's words come in its language from /words.js (the catalogs'
  // web.* formats, chosen by the server: the switch's cookie, the
  // configuration's lang:, the browser's Accept-Language). t formats one
  // as Go's fmt would: %s and %d take the next argument, %[n]s the nth.
  const W = window.arbiterdWords || { lang: "en", langs: [], words: {} };
  function t(code, ...args) {
    const f = W.words[code];
    if (f == null) return code;
    let next = 0;
    return f.replace(/%(?:\[(\d+)\])?([sdv%])/g, (m, n, verb) => {
      if (verb === "%") return "%";
      if (n) next = +n - 1;
      return String(args[next++]);
    });
  }
  // tOr is the word of code, or fallback when the catalogs lack it (a
  // value newer than the page).
  function tOr(code, fallback) {
    return code in W.words ? t(code) : fallback;
  }

  // The page's own elements, in its language: data-t names the word of an
  // element's text (its first text, around a select), data-t-title and
  // data-t-aria those of its title and aria-label.
  document.documentElement.lang = W.lang;
  for (const el of document.querySelectorAll("[data-t]")) {
    const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.nodeValue.trim());
    if (node) node.nodeValue = node.nodeValue.replace(/\S(?:[\s\S]*\S)?/, () => t(el.dataset.t));
  }
  for (const el of document.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
  for (const el of document.querySelectorAll("[data-t-aria]")) el.setAttribute("aria-label", t(el.dataset.tAria));

  // The switch (EN | ES): the choice is kept in a cookie, which the
  // server reads for the page's words and the alerts' sentences alike.
  const langBox = document.getElementById("lang");
  langBox.innerHTML = W.langs.map((l) => '<button type="button" data-lang="' + l + '" aria-pressed="' + (l === W.lang) + '"' +
    (l === W.lang ? ' class="on"' : "") + ">" + l.toUpperCase() + "</button>").join("|");
  langBox.addEventListener("click", (ev) => {
    const b = ev.target.closest("button[data-lang]");
    if (!b || b.dataset.lang === W.lang) return;
    document.cookie = "arbiterd-lang=" + b.dataset.lang + "; path=/; max-age=31536000; samesite=lax";
    location.reload();
  });

  // ---- the settings (in the address, so a hall screen can be bookmarked)

  const params = new URLSearchParams(location.search);
  const settings = {
    view: ["auto", "compact", "full"].includes(params.get("view")) ? params.get("view") : "auto",
    order: params.get("order") === "attention" ? "attention" : "board",
    only: params.get("only") === "1",
  };
  const ctlView = document.getElementById("view");
  const ctlOrder = document.getElementById("order");
  const ctlOnly = document.getElementById("only");
  ctlView.value = settings.view;
  ctlOrder.value = settings.order;
  ctlOnly.checked = settings.only;
  function saveSettings() {
    const q = new URLSearchParams(location.search);
    settings.view === "auto" ? q.delete("view") : q.set("view", settings.view);
    settings.order === "board" ? q.delete("order") : q.set("order", settings.order);
    settings.only ? q.set("only", "1") : q.delete("only");
    const qs = q.toString();
    history.replaceState(null, "", location.pathname + (qs ? "?" + qs : ""));
    layout();
  }
  ctlView.addEventListener("change", () => { settings.view = ctlView.value; saveSettings(); });
  ctlOrder.addEventListener("change", () => { settings.order = ctlOrder.value; saveSettings(); });
  ctlOnly.addEventListener("change", () => { settings.only = ctlOnly.checked; saveSettings(); });

  // compact: the hall view, many boards on one screen (more than twelve
  // boards, unless the arbiter chose).
  function compact() {
    return settings.view === "compact" || (settings.view === "auto" && boards.size > 12);
  }

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

  // inWords says a FEN's position as an arbiter would read it out:
  // "White: Kd3, Ra2. Black: Ke6. Black to move."
  function inWords(fen) {
    const sq = squares(fen);
    if (!sq) return t("web.position.unread");
    const order = "KQRBNP", side = { w: [], b: [] };
    for (let i = 0; i < 64; i++) {
      const p = sq[i];
      if (!p) continue;
      const at = String.fromCharCode(97 + (i % 8)) + (8 - ((i / 8) | 0));
      const up = p.toUpperCase();
      side[p === up ? "w" : "b"].push([order.indexOf(up), (up === "P" ? "" : up) + at]);
    }
    const list = (l) => l.sort((x, y) => x[0] - y[0]).map((x) => x[1]).join(", ") || t("web.position.none");
    const f = String(fen).split(" ");
    return t("web.position", list(side.w), list(side.b)) + (f[1] === "b" ? t("web.position.black") : f[1] === "w" ? t("web.position.white") : "");
  }

  // diagram draws the position with White at the bottom; label, when
  // given, is what a screen reader says for it (the FEN otherwise).
  function diagram(fen, lastMove, label) {
    const sq = squares(fen);
    const hi = new Set();
    if (lastMove && lastMove.length >= 4) {
      hi.add(sqIndex(lastMove.slice(0, 2)));
      hi.add(sqIndex(lastMove.slice(2, 4)));
    }
    let s = '<svg class="diagram" viewBox="0 0 8 8" role="img" aria-label="' + esc(sq ? label || fen : t("web.position.unread")) + '">';
    for (let i = 0; i < 64; i++) {
      const x = i % 8, y = (i / 8) | 0;
      s += '<rect x="' + x + '" y="' + y + '" width="1" height="1" fill="' + ((x + y) % 2 === 0 ? LIGHT : DARK) + '"/>';
      if (hi.has(i)) s += '<rect x="' + x + '" y="' + y + '" width="1" height="1" fill="' + LAST + '"/>';
    }
    if (!sq) {
      s += '<text x="4" y="4" font-size="0.7" text-anchor="middle" fill="#900">' + esc(t("web.position.bad")) + '</text></svg>';
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
    return b.running === side && b.connection === "connected" && !b.result && !cutOff(b) &&
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

  // cutOff: the board is shown by a hall that does not hear its venue:
  // what it shows may be behind, and its clocks are not run on.
  function cutOff(b) {
    return !!(b.link && b.link.state === "cut-off");
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
    const tiles = [...boards.values()];
    if (shown && boards.has(shown)) tiles.push({ state: boards.get(shown).state, el: detailBody });
    for (const { state, el } of tiles) {
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
    const who = a.side ? " · " + side(a.side) : "";
    const law = a.article && a.article !== "–" ? " — " + a.article : "";
    if (a.kind === "flag") return verdictOf(b, a) + law + who;
    return (a.label || a.kind) + law + who;
  }

  // importance ranks an alert, most important first: a flag verdict
  // (red), a flag with play going on, a draw claim or a rejected claim's
  // two minutes still to add, a journal or file arbiterd cannot write
  // (the record itself is at risk), a link lost or a player absent, any
  // other anomaly, and last a press back (it answers an alert already
  // shown). The header's chip names a board's first alert in this order.
  const RECORD = new Set(["journal-write-failed", "file-write-failed"]);
  const LINK = new Set(["board-disconnected", "clock-disconnected", "venue-cut-off", "venue-back", "nats-publish",
    "hall-missing-events", "default-time"]);
  function importance(a) {
    if (a.level === "red") return 0;
    if (a.kind === "flag") return 1;
    if (a.kind === "claim" || a.kind === "decision") return 2;
    if (RECORD.has(a.kind)) return 3;
    if (LINK.has(a.kind)) return 4;
    return a.press_back ? 6 : 5;
  }

  // byImportance orders alerts by importance, the newest first among
  // alerts of the same importance.
  function byImportance(alerts) {
    return alerts.slice().reverse().sort((x, y) => importance(x) - importance(y));
  }

  function side(s) {
    return s === "black" ? t("web.black") : s === "white" ? t("web.white") : s;
  }

  function verdictOf(b, a) {
    if (b.flag && b.flag.seq === a.seq && b.flag.verdict) return tOr("web.verdict." + b.flag.verdict, b.flag.verdict.toUpperCase());
    return t("web.flag");
  }

  // when: the move the game was at and the clocks, as the players saw them.
  function when(a) {
    const parts = [];
    if (a.move) parts.push(t("web.move", a.move));
    if (a.clock) parts.push(t("web.clocks", fmtClock(a.clock.white), fmtClock(a.clock.black)));
    return parts.join(" · ");
  }

  // decide: the arbiter's three answers to an open claim (10.2).
  function decide(b, a) {
    const btn = (d, label) => '<button class="decide" data-board="' + esc(b.id) + '" data-claim="' + a.seq + '" data-decision="' + d + '">' + label + "</button>";
    return '<span class="decisions">' + btn("accepted", esc(t("web.decide.accepted"))) + btn("rejected", esc(t("web.decide.rejected"))) + btn("postponed", esc(t("web.decide.postponed"))) + "</span>";
  }

  function alertItem(b, a, older) {
    const cls = "alert " + a.level + (a.acked ? " acked" : "") + (older ? " older" : "") + (a.press_back ? " press-back" : "");
    let act = a.acked
      ? '<span class="done">' + esc(a.closed_by ? t("web.settled") : a.level === "info" ? t("web.noted") : t("web.acknowledged")) + "</span>"
      : '<button class="ack" data-board="' + esc(b.id) + '" data-alert="' + a.id + '">' + esc(t("web.ack")) + "</button>";
    if (a.kind === "claim" && !a.closed_by && !b.result && !cutOff(b)) act = decide(b, a) + act;
    const w = when(a);
    return '<li class="' + cls + '" data-alert="' + a.id + '"><span class="what">' + act + '<span class="title">' +
      esc(alertTitle(b, a)) + "</span>" + (w ? ' <span class="when">' + esc(w) + "</span>" : "") +
      ' <span class="text">' + esc(a.say || a.text) + "</span>" +
      (a.mate ? ' <span class="mate">' + esc(t(a.side === "white" ? "web.mate.black" : "web.mate.white", a.mate)) + "</span>" : "") +
      (a.position ? ' <span class="position">' + diagram(a.position, "", inWords(a.position)) + "</span>" : "") +
      "</span></li>";
  }

  // alertList: open alerts first (by importance), then the two latest
  // acknowledged ones; older acknowledged ones are counted.
  function alertList(b) {
    const all = (b.alerts || []).slice().reverse();
    const open = byImportance((b.alerts || []).filter((a) => !a.acked));
    const done = all.filter((a) => a.acked);
    let s = '<ul class="alerts">';
    for (const a of open) s += alertItem(b, a, false);
    done.forEach((a, i) => { s += alertItem(b, a, i >= 2); });
    s += "</ul>";
    if (done.length > 2) s += '<div class="more">' + esc(t("web.earlier", done.length - 2)) + "</div>";
    return s;
  }

  // alertLines: the hall view's one line per open alert (the whole text
  // is a tap away, in the board's detail).
  function alertLines(b) {
    const open = byImportance((b.alerts || []).filter((a) => !a.acked));
    let s = '<ul class="lines">';
    open.slice(0, 2).forEach((a) => {
      const what = a.kind === "flag" ? verdictOf(b, a) + " " + (a.article || "") : (a.label || a.kind);
      s += '<li class="line ' + a.level + '">' + esc(what + (a.side ? " · " + side(a.side) : "") + (a.move ? " · " + t("web.move", a.move) : "")) + "</li>";
    });
    if (open.length > 2) s += '<li class="line more">' + esc(t("web.more", open.length - 2)) + "</li>";
    return s + "</ul>";
  }

  // lastMove: "last 12… Nc6", or bare "12… Nc6".
  function lastMove(b, bare) {
    const n = (b.san || []).length;
    if (!n) return "";
    const num = Math.ceil(n / 2);
    const m = num + (n % 2 ? ". " : "… ") + b.san[n - 1];
    return bare ? m : t("web.last", m);
  }

  // away: the board (or its separate clock) is not connected now.
  function away(b) {
    return !b.result && (b.connection === "disconnected" || b.clock_connection === "disconnected");
  }

  // rank orders by need of attention: an open flag verdict, then a board
  // or clock disconnected, then an open anomaly, then the rest.
  function rank(b) {
    const open = (b.alerts || []).filter((a) => !a.acked);
    if (open.some((a) => a.level === "red")) return 0;
    if (away(b)) return 1;
    if (open.length) return 2;
    return 3;
  }

  function render(b, compactView, inDetail) {
    const open = (b.alerts || []).filter((a) => !a.acked);
    const cls = "tile" + (open.some((a) => a.level === "red") ? " has-red" : open.length ? " has-amber" : "") +
      (away(b) ? " away" : "") + (b.connection === "disconnected" && !b.result ? " disconnected" : "") +
      (cutOff(b) && !b.result ? " cut-off" : "");
    const player = (side, name) =>
      '<div class="player ' + side + (running(b, side) ? " running" : "") + '"><span class="dot"></span><span class="name">' +
      esc(name || t(side === "white" ? "web.white" : "web.black")) + '</span>' +
      (known(b) ? '<span class="clock">' + fmtClock(secondsLeft(b, side)) + "</span>" : '<span class="clock unknown">–:––</span>') + "</div>";
    let status;
    if (b.result) {
      status = '<span class="result" title="' + esc(tOr("web.state." + b.connection, b.connection)) + '">' + esc(b.result) + (b.end_reason ? " " + esc(tOr("web.end." + b.end_reason, b.end_reason)) : "") + "</span>";
    } else if (cutOff(b)) {
      status = '<span class="state cut-off banner" title="' + esc(t("web.venue.cut-off.title", b.link.venue)) +
        '">' + esc(t("web.venue.cut-off")) + "</span>";
    } else if (b.connection === "disconnected") {
      status = '<span class="state disconnected banner">' + esc(t("web.board.disconnected")) + "</span>";
    } else if (compactView && b.clock_connection === "disconnected") {
      status = '<span class="state disconnected clockport">' + esc(t("web.clock.disconnected")) + "</span>"; // the board itself is read
    } else {
      status = '<span class="state ' + esc(b.connection) + '">' + esc(tOr("web.state." + b.connection, b.connection)) + "</span>" +
        (b.clock_connection === "disconnected" ? '<span class="state disconnected clockport">' + esc(t("web.clock.disconnected")) + "</span>" : "");
    }
    const head = '<div class="head"><span class="num">' + (compactView ? esc(b.id) : esc(t("web.board", b.id))) + "</span>" +
      (b.round && !compactView ? '<span class="round">' + esc(t("web.round", b.round)) + "</span>" : "") + status + "</div>";
    const counts = '<div class="counts" title="' + esc(b.timecontrol ? t("web.tc", b.timecontrol) : t("web.tc.unknown")) + '"><span class="w">' +
      count(t("web.white.short"), b.moves.white, b.required.white) + '</span><span class="b">' + count(t("web.black.short"), b.moves.black, b.required.black) + "</span>" +
      (compactView ? '<span class="last">' + esc(lastMove(b, true)) + "</span>" : "") + "</div>";
    if (compactView) {
      return {
        cls: cls + " compact",
        html: head + '<div class="side">' + player("black", b.black) + player("white", b.white) + counts + "</div>" + alertLines(b),
      };
    }
    // the board in full (inDetail) has its alerts beside the diagram, so
    // that a wide screen shows a large diagram and every alert at once.
    return {
      cls,
      html: head + '<div class="body">' + diagram(b.fen, b.last_move) +
        '<div class="side">' + player("black", b.black) + player("white", b.white) + counts +
        '<div class="meta">' + esc(lastMove(b)) + claimRow(b) + "</div>" +
        (inDetail ? '<div class="meta tc">' + esc(b.timecontrol ? t("web.tc", b.timecontrol) : t("web.tc.unknown")) + "</div>" + pairingButton(b) + alertList(b) : "") +
        "</div></div>" + (inDetail ? "" : alertList(b)),
    };
  }

  // claimRow: a player claims a draw near the end of a period (10.2): the
  // arbiter records it, and arbiterd freezes what the decision rests on.
  function claimRow(b) {
    if (b.result || cutOff(b)) return "";
    const btn = (s) => '<button class="claim" data-board="' + esc(b.id) + '" data-side="' + s + '" title="' + esc(t("web.claim." + s + ".title")) + '">' + esc(t("web." + s)) + "</button>";
    return '<span class="claims">' + esc(t("web.claim")) + " " + btn("white") + btn("black") + "</span>";
  }

  // pairingButton: a wrong pair corrected on this board only (not at a
  // hall, whose boards are the venues').
  function pairingButton(b) {
    if (b.link) return "";
    return '<div class="meta pairing"><button class="pairing" data-board="' + esc(b.id) + '" title="' + esc(t("web.pairing.title")) + '">' + esc(t("web.pairing")) + "</button></div>";
  }

  function numericLess(a, b) {
    const x = parseInt(a, 10), y = parseInt(b, 10);
    if (!isNaN(x) && !isNaN(y) && x !== y && String(x) === a && String(y) === b) return x < y;
    return a < b;
  }

  function paint(entry) {
    const { cls, html } = render(entry.state, compact());
    entry.el.className = cls;
    entry.el.innerHTML = html;
    entry.el.tabIndex = 0;
    if (compact()) fitNames(entry.el);
  }

  // fitNames: in the hall view a name too long for its tile is set a
  // little smaller, then shortened to the surname and initials
  // ("Kieseritzky, L."), at last to the surname: never cut inside a word.
  // The board's detail shows it in full.
  function fitNames(el) {
    for (const n of el.querySelectorAll(".player .name")) {
      const fits = () => n.scrollWidth <= n.clientWidth + 1;
      if (!n.clientWidth || fits()) continue; // not shown, or fits
      const full = n.textContent, i = full.indexOf(",");
      const tries = [[full, true]];
      if (i > 0) {
        const sur = full.slice(0, i);
        const initials = sur + ", " + full.slice(i + 1).trim().split(/[\s-]+/).map((w) => w.charAt(0) + ".").join(" ");
        tries.push([initials, false], [initials, true], [sur, true]);
      }
      for (const [text, small] of tries) {
        n.textContent = text;
        n.classList.toggle("small", small);
        n.classList.toggle("short", text !== full);
        if (fits()) break;
      }
    }
  }

  function apply(b, now) {
    if (!b || typeof b.id !== "string") return;
    if (now) skew = Date.parse(now) - Date.now();
    let entry = boards.get(b.id);
    const grew = !entry;
    if (!entry) {
      const el = document.createElement("section");
      el.id = "board-" + b.id;
      el.dataset.board = b.id;
      entry = { state: b, el };
      boards.set(b.id, entry);
      root.appendChild(el);
    }
    entry.state = b;
    if (grew && settings.view === "auto" && boards.size === 13) {
      layout(); // the hall view from the thirteenth board on
    } else {
      paint(entry);
      order();
    }
    if (shown === b.id) showDetail(b.id);
    empty.hidden = boards.size > 0;
    updateSummary();
  }

  // layout paints every tile again (the view changed) and orders them.
  function layout() {
    document.body.classList.toggle("compact", compact());
    for (const entry of boards.values()) paint(entry);
    order();
    updateSummary();
  }

  // order puts the tiles in the order chosen, and hides those that need
  // no attention when only those are wanted.
  function order() {
    const list = [...boards.values()];
    list.sort((x, y) => {
      if (settings.order === "attention") {
        const rx = rank(x.state), ry = rank(y.state);
        if (rx !== ry) return rx - ry;
      }
      const a = x.state.id, b = y.state.id;
      return a === b ? 0 : numericLess(a, b) ? -1 : 1;
    });
    let shownTiles = 0;
    list.forEach((entry, i) => {
      const hide = settings.only && rank(entry.state) > 2;
      if (root.children[i] !== entry.el) root.insertBefore(entry.el, root.children[i] || null);
      if (entry.el.hidden !== hide) {
        entry.el.hidden = hide;
        if (!hide && compact()) fitNames(entry.el); // measured now that it is shown
      }
      if (!hide) shownTiles++;
    });
    calm.hidden = !(settings.only && boards.size > 0 && shownTiles === 0);
  }

  function updateSummary() {
    let red = 0, amber = 0, gone = 0;
    const chips = [];
    const list = [...boards.values()].map((e) => e.state);
    list.sort((x, y) => rank(x) - rank(y) || (x.id === y.id ? 0 : numericLess(x.id, y.id) ? -1 : 1));
    for (const b of list) {
      const open = (b.alerts || []).filter((a) => !a.acked);
      for (const a of open) {
        if (a.level === "red") red++; else amber++;
      }
      if (away(b)) gone++;
      const r = rank(b);
      if (r > 2) continue;
      // the chip names the board's most important open alert (importance);
      // a disconnected board's chip names its disconnection unless an
      // alert that matters more is open (a claim, a journal not written).
      let what, more = open.length - 1;
      const first = byImportance(open)[0];
      if (r === 0) what = verdictOf(b, first) + " " + (first.article || "");
      else if (r === 1 && !(first && importance(first) < 4)) {
        what = b.connection === "disconnected" ? t("web.chip.disconnected") : t("web.clock.disconnected");
        more = open.filter((a) => a.kind !== "board-disconnected" && a.kind !== "clock-disconnected").length;
      } else what = first.label || first.kind;
      chips.push('<button class="chip r' + r + '" data-board="' + esc(b.id) + '">' + esc(t("web.board", b.id)) + " · " + esc(what) +
        (more > 0 ? " +" + more : "") + "</button>");
    }
    const open = [];
    if (red) open.push('<span class="n-red">' + esc(t(red > 1 ? "web.summary.flags" : "web.summary.flag", red)) + "</span>");
    if (amber) open.push('<span class="n-amber">' + esc(t(amber > 1 ? "web.summary.anomalies" : "web.summary.anomaly", amber)) + "</span>");
    if (gone) open.push('<span class="n-red">' + esc(t("web.summary.away", gone)) + "</span>");
    summary.innerHTML = esc(t(boards.size === 1 ? "web.summary.board" : "web.summary.boards", boards.size)) +
      esc(red || amber ? t("web.summary.to-ack") : t("web.summary.nothing")) + open.join(", ");
    attention.innerHTML = chips.length ? '<span class="label">' + esc(t("web.attention")) + "</span> " + chips.join(" ") : "";
    attention.hidden = !chips.length;
  }

  // ---- a board's detail: the whole tile, every alert in full ------------

  function showDetail(id) {
    const entry = boards.get(id);
    if (!entry) return;
    shown = id;
    const { cls, html } = render(entry.state, false, true);
    detailBody.className = cls;
    detailBody.dataset.board = id;
    detailBody.innerHTML = html;
    if (!detail.open) detail.showModal();
  }

  detail.addEventListener("close", () => { shown = null; });
  document.getElementById("detail-close").addEventListener("click", () => detail.close());
  detail.addEventListener("click", (ev) => { if (ev.target === detail) detail.close(); });
  attention.addEventListener("click", (ev) => {
    const chip = ev.target.closest("button.chip");
    if (chip) showDetail(chip.dataset.board);
  });
  root.addEventListener("click", (ev) => {
    if (ev.target.closest("button")) return;
    const tile = ev.target.closest("section.tile.compact");
    if (tile) showDetail(tile.dataset.board);
  });
  root.addEventListener("keydown", (ev) => {
    const tile = ev.target.closest("section.tile.compact");
    if (tile && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); showDetail(tile.dataset.board); }
  });

  // A tap on an acknowledged alert shows it in full (or in one line again).
  document.addEventListener("click", (ev) => {
    if (ev.target.closest("button")) return;
    const li = ev.target.closest("li.alert.acked");
    if (li) li.classList.toggle("open");
  });

  // ---- acknowledging ----------------------------------------------------

  document.addEventListener("click", async (ev) => {
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
      btn.title = t("web.ack.failed", e.message);
      btn.textContent = t("web.retry");
    }
  });

  // ---- claims and decisions ----------------------------------------------

  async function post(btn, url, body, failed) {
    btn.disabled = true;
    try {
      const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const reply = await r.json();
      if (!r.ok) throw new Error(reply.error || r.statusText);
      apply(reply);
    } catch (e) {
      btn.disabled = false;
      btn.title = failed + ": " + e.message;
      btn.classList.add("failed");
    }
  }

  document.addEventListener("click", (ev) => {
    const claim = ev.target.closest("button.claim");
    if (claim) {
      const who = claim.dataset.side === "black" ? "black" : "white";
      if (!window.confirm(t("web.claim." + who + ".confirm"))) return;
      post(claim, "/api/boards/" + encodeURIComponent(claim.dataset.board) + "/claims", { side: claim.dataset.side }, t("web.not-recorded"));
      return;
    }
    const pr = ev.target.closest("button.pairing");
    if (pr) {
      const b = (boards.get(pr.dataset.board) || {}).state || {};
      const white = window.prompt(t("web.pairing.white", pr.dataset.board), b.white || "");
      if (white === null || white.trim() === "") return;
      const black = window.prompt(t("web.pairing.black", pr.dataset.board), b.black || "");
      if (black === null || black.trim() === "") return;
      post(pr, "/api/boards/" + encodeURIComponent(pr.dataset.board) + "/pairing", { white: white.trim(), black: black.trim() }, t("web.not-corrected"));
      return;
    }
    const d = ev.target.closest("button.decide");
    if (d) {
      post(d, "/api/boards/" + encodeURIComponent(d.dataset.board) + "/claims/" + d.dataset.claim + "/decision", { decision: d.dataset.decision }, t("web.not-recorded"));
    }
  });

  // ---- the next round ----------------------------------------------------

  // A game has ended with a result, or with a flag verdict that is one.
  function ended(b) {
    return !!b.result || !!(b.flag && b.flag.verdict && b.flag.verdict !== "none");
  }

  const nextRound = document.getElementById("next-round");
  nextRound.addEventListener("click", async () => {
    const open = [...boards.values()].map((e) => e.state).filter((b) => !ended(b)).map((b) => b.id);
    let body = {};
    if (open.length > 0) {
      if (!window.confirm(open.length === 1 ? t("web.round.open.one", open[0]) : t("web.round.open.many", open.join(", ")))) return;
      body = { confirm: open.join(",") };
    } else if (!window.confirm(t("web.round.all-ended"))) {
      return;
    }
    nextRound.disabled = true;
    nextRound.classList.remove("failed");
    try {
      const r = await fetch("/api/round", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const reply = await r.json();
      if (!r.ok) throw new Error(reply.error || r.statusText);
      for (const b of reply.boards || []) apply(b);
      nextRound.title = t("web.round.loaded", reply.round);
    } catch (e) {
      nextRound.title = t("web.round.failed", e.message);
      nextRound.classList.add("failed");
      window.alert(t("web.round.failed.alert", e.message));
    } finally {
      nextRound.disabled = false;
    }
  });

  // ---- the stream -------------------------------------------------------

  function setConn(cls, text) {
    conn.className = "conn " + cls;
    conn.textContent = text;
  }

  const es = new EventSource("/api/stream");
  es.onopen = () => setConn("live", t("web.conn.live"));
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED) setConn("lost", t("web.conn.lost"));
    else setConn("connecting", t("web.conn.reconnecting"));
  };
  const onMessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    setConn("live", t("web.conn.live"));
    apply(m.state, m.now);
  };
  es.addEventListener("state", onMessage);
  es.addEventListener("update", onMessage);

  // A new window size fits the names again.
  let resized = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(layout, 200);
  });

  layout();
  setInterval(tickClocks, 250);
})();
