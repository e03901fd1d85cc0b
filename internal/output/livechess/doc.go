// Package livechess serves a local API shaped like DGT LiveChess 2.x, so
// that tools written for LiveChess (broadcast relays, overlays, lichess's
// DGT board page, livechess-go) can read the boards arbiterd serves without
// change.
//
// Two doors, both under /api/v1.0:
//
//   - REST: GET /api/v1.0/eboards answers a JSON array with one object per
//     board: serialnr, source, state (ACTIVE, INACTIVE, NOTRESPONDING),
//     battery, comment, board (the piece placement field of a FEN),
//     flipped, and clock {white, black, run, time}.
//   - WebSocket at /api/v1.0: requests {"id":N,"call":…,"param":…}. The call
//     "eboards" answers {"response":"call","id":N,"param":[…boards…]};
//     "sources" and "tournaments" are answered too; "subscribe" with
//     {"feed":"eboardevent","id":F,"param":{"serialnr":S}} answers
//     {"response":"call","id":N,"param":null} and then sends
//     {"response":"feed","id":F,"param":{serialnr, flipped, board, clock,
//     start, san, match}} now and each time the board, the clock or the
//     moves change; "unsubscribe" with {"id":F} stops a feed; "call" with
//     {"id":F,"method":"setup","param":{"fen":…}} makes feed F count its
//     moves from that position. A request the API cannot serve is answered
//     {"response":"error","id":N,"param":{"message":"what is wrong"}}.
//     Every message sent carries LiveChess's "time", when it was sent (Unix
//     milliseconds).
//
// Values follow LiveChess: clock times are whole seconds as the clock
// displayed them at "time" (a Unix time in milliseconds), "run" is true while
// White's clock runs, false while Black's runs and null while it stands.
//
// What "san" lists is the API's choice (Options.Moves). With Completed,
// arbiterd's meaning, it is the moves completed under FIDE Law 6.2.1 (made
// and pressed), in the order they were played, and "match" is false while a
// move has been made on the board but not yet completed by a press: the
// daemon serves this beside its dashboard. With Made, LiveChess's meaning, it
// is every move the board shows once the board has stood still with it
// (Options.Settle: counted from the last change of the board's squares,
// hub.PublishSquares, a piece lifted included, and not started while the
// squares do not show it), rewritten when a move is taken back, and a feed's first
// message carries no san: the daemon serves this on a listener of its own
// for clients that play from the board. In both, "start" is the FEN san
// counts from and "match" is true exactly when board is the position after
// san. docs/feeds.md lists exactly what is implemented.
//
// Browser pages are let in only from the API's own origin and the origins
// in Options.Origins; Options.Hosts refuses requests addressed by a name
// that is not this machine's (DNS rebinding).
//
// The API only reads the hub (internal/output/hub): a feed folds the board's
// events into the game as the board shows it (line.go). A WebSocket client
// that does not keep up is dropped: its messages queue up to a bound, and a
// client whose queue is full or whose write does not finish in time is
// disconnected, never allowed to hold up the boards or the other clients.
package livechess
