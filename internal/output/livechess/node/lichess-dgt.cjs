// A LiveChess client that follows a board the way lichess's "DGT board"
// page does, for arbiterd's tests (internal/boards/serve/livechess_node_test.go).
// It is written from the LiveChess protocol and the page's behaviour; it is
// not lichess's code.
//
// The page, connected to ws://localhost:1982/api/v1.0 from https://lichess.org:
//   1. sends {"id":1,"call":"eboards"} and picks a board (here: the serialnr
//      given, else the first ACTIVE one), warning when it is not ACTIVE;
//   2. subscribes to its eboardevent feed (id 2, feed id 1);
//   3. sends its game's position with the call "setup" (id 3), so that san
//      counts from there;
//   4. for every feed message with a san it has not seen, takes the last
//      move (or the last two) and, unless it is the move its game has last,
//      plays it in its game if it is legal there: that is the move it sends
//      to lichess.
//
// Here the page's game is the board's: the client finds the position the
// first feed message shows in the game it is given, and that is its game
// from then on. It prints one JSON line: the moves it would have sent, and
// what went wrong.
//
// Usage: node lichess-dgt.cjs '{"url":…, "origin":…, "serialnr":…,
//   "start": FEN, "game": [SAN…], "timeoutMs": N}'

'use strict';

const WebSocket = require('ws');
const { Chess } = require('chess.js');

const cfg = JSON.parse(process.argv[2]);
const game = cfg.game;
const startFEN = cfg.start || 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// The game's positions: placement after the first k moves.
const fens = [];
{
  const c = new Chess(startFEN);
  fens.push(c.fen());
  for (const san of game) {
    c.move(san);
    fens.push(c.fen());
  }
}
const placement = (fen) => fen.split(' ')[0];

const result = {
  ok: false,
  serialnr: null,
  state: null,
  joined: -1, // moves of the game before the page's position
  setup: null,
  sent: [],
  rejected: [], // san moves the page found illegal in its game
  errors: [], // error answers and failures
  warnings: [],
  messages: 0,
  withClock: 0,
  firstHadSan: null,
};

let lichess = null; // the page's game (chess.js)
let lastSan = null; // the last san list acted on, to skip repeats

function finish(ok) {
  result.ok = ok;
  process.stdout.write(JSON.stringify(result) + '\n');
  try {
    ws.terminate();
  } catch (e) {
    // already closed
  }
  process.exit(ok ? 0 : 1);
}

const timer = setTimeout(() => {
  result.errors.push('timed out');
  finish(false);
}, cfg.timeoutMs || 60000);

const ws = new WebSocket(cfg.url, { origin: cfg.origin });

ws.on('unexpected-response', (req, res) => {
  let body = '';
  res.on('data', (d) => (body += d));
  res.on('end', () => {
    result.errors.push(`refused: ${res.statusCode} ${body.trim()}`);
    finish(false);
  });
});
ws.on('error', (e) => {
  result.errors.push('Websocket ERROR: ' + e.message);
  finish(false);
});
ws.on('close', () => {
  if (!result.ok) {
    result.errors.push('connection closed');
    finish(false);
  }
});

ws.on('open', () => ws.send(JSON.stringify({ id: 1, call: 'eboards' })));

// play plays moves in the page's game, all or none, and sends them.
function play(...moves) {
  const c = new Chess(lichess.fen());
  try {
    const sans = moves.map((s) => c.move(s).san);
    lichess = c;
    result.sent.push(...sans);
    return true;
  } catch (e) {
    return false;
  }
}

ws.on('message', (data) => {
  const m = JSON.parse(data);
  if (m.response === 'error') {
    result.errors.push(`error for ${m.id}: ${m.param && m.param.message}`);
    return;
  }
  if (m.response === 'call' && m.id == 1) {
    const boards = m.param;
    const board = cfg.serialnr
      ? boards.find((b) => b.serialnr === cfg.serialnr)
      : boards.find((b) => b.state === 'ACTIVE');
    if (!board) {
      result.errors.push('no board: ' + JSON.stringify(boards));
      finish(false);
      return;
    }
    result.serialnr = board.serialnr;
    result.state = board.state;
    if (board.state !== 'ACTIVE') result.warnings.push(`board ${board.serialnr} is ${board.state}`);
    ws.send(JSON.stringify({ id: 2, call: 'subscribe', param: { feed: 'eboardevent', id: 1, param: { serialnr: board.serialnr } } }));
    return;
  }
  if (m.response === 'call') return; // subscribe and setup answered
  if (m.response !== 'feed') return;

  const p = m.param;
  result.messages++;
  if (p.clock) result.withClock++;
  if (result.firstHadSan === null) result.firstHadSan = 'san' in p;
  if (!lichess) {
    // The page's game is the one on the board: find where the board is.
    const k = fens.findIndex((f) => placement(f) === p.board);
    if (k < 0) return; // a position between moves: wait for the next
    result.joined = k;
    lichess = new Chess(fens[k]);
    result.setup = fens[k];
    ws.send(JSON.stringify({ id: 3, call: 'call', param: { id: 1, method: 'setup', param: { fen: fens[k] } } }));
    process.stderr.write(`joined ${k}\n`);
    if (k === game.length) finish(true);
    return;
  }
  if (!p.san || p.san.length === 0) return;
  const key = JSON.stringify(p.san);
  if (key === lastSan) return; // nothing new (a clock update)
  lastSan = key;
  const last = p.san[p.san.length - 1];
  // the move the page has last is no new move (a message before the setup
  // took effect lists the moves from the game's start)
  const had = result.sent.length > 0 ? result.sent[result.sent.length - 1] : game[result.joined - 1];
  if (last === had) return;
  // the last move; else the last two at once (the opponent's and the player's)
  if (!play(last) && !(p.san.length >= 2 && play(p.san[p.san.length - 2], last))) {
    result.rejected.push(last);
  }
  if (result.joined + result.sent.length >= game.length) {
    clearTimeout(timer);
    finish(true);
  }
});
