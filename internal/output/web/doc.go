// Package web is arbiterd's HTTP face for the arbiter: a JSON API over the
// hub's boards, a Server-Sent Events stream of every update, and the
// dashboard page that shows every board at a glance.
//
// # The dashboard
//
// One tile per board: the board number, round and players; the position
// as an SVG diagram drawn from the FEN in the browser (White at the
// bottom); both clocks, the running one counting down live between
// readings; the moves each side has completed against what the current
// period requires ("W 38/40" — a move counts once the player has pressed
// the clock, Law 6.2.1); and the alerts. A flag that falls before the time
// control is red, with the verdict and the Law it rests on (a loss under
// 6.9 when the opponent could still mate, a draw under 6.9 when it could
// not); anomalies (a press without a move, 7.5.3; an illegal move, 7.5.1;
// a clock stopped, 6.11; …) are amber. The arbiter acknowledges each alert
// with a button, and acknowledged alerts grey out. The page is plain HTML,
// CSS and JavaScript embedded in the binary; it updates from the SSE
// stream and never reloads.
//
// From 13 boards on the page shows the compact hall view: 40 boards on a
// 1920×1080 screen, each with its players, clocks, moves completed and
// one line per open alert; a tap on a board shows it in full (nothing is
// left to a hover: arbiters use tablets). The header names the boards
// that need attention — an open flag verdict, a board or clock
// disconnected, an open anomaly, in that order — and the boards can be
// put in that order or filtered to those. docs/operations.md shows it.
//
// # The alerts in the arbiter's words
//
// The event stream's texts are made where the events are made. The
// dashboard words each alert again from the stream (words.go): the move
// number and the clock times rather than seconds of capture time, the
// mate line of a 6.9 verdict in SAN with move numbers (SANLine), and a
// press that only gave the turn back after the opponent's press without a
// move called a press back, not an illegal move. The API carries these
// words beside the stream's own text (View, Alert).
//
// # Languages
//
// The page and the words above speak the languages of internal/i18n
// (lang.go): a request's language is the page's switch (a cookie), else
// Options.Lang (the configuration's lang:), else Accept-Language. The page
// gets its words from /words.js; the labels and the sentences words.go
// writes come in the request's language through the API and the stream.
// The events' own sentences stay English.
//
// # The API
//
// docs/api.md is the reference. In short:
//
//	GET  /api/boards                          every board's state (hub.Board JSON), ordered by id
//	GET  /api/boards/{id}                     one board's state
//	GET  /api/boards/{id}/events?since=N      the board's events with seq > N, one JSON object
//	                                          per line (JSONL); ?format=array for a JSON array
//	POST /api/boards/{id}/alerts/{alert}/ack  the arbiter acknowledges an alert
//	GET  /api/stream[?board=ID]               Server-Sent Events: "state" and "update" messages
//
// Errors are JSON objects {"error": "..."} naming what is wrong.
//
// # The stream
//
// A client connecting to /api/stream first receives one "state" message
// per board (the board's state now), then an "update" message for every
// event a board publishes afterwards ({"board", "event", "state", "now"}),
// and a "state" message when an alert is acknowledged. Comments keep the
// connection alive. Every update carries an id listing the last sequence
// number sent for each board ("1=45&2=33"); a client that reconnects with
// Last-Event-ID receives the events it missed before the live ones. A
// client that falls too far behind is disconnected; EventSource reconnects
// on its own and resumes.
package web
