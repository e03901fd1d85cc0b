// Package livechess serves a local API shaped like DGT LiveChess 2.x, so
// that tools written for LiveChess (broadcast relays, overlays, pairing
// displays) can read the boards arbiterd serves without change.
//
// Two doors, both under /api/v1.0:
//
//   - REST: GET /api/v1.0/eboards answers a JSON array with one object per
//     board: serialnr, source, state, battery, comment, board (the piece
//     placement field of a FEN), flipped, and clock {white, black, run, time}.
//   - WebSocket at /api/v1.0: requests {"id":N,"call":…,"param":…}. The call
//     "eboards" answers {"response":"call","id":N,"param":[…boards…]}; the
//     call "subscribe" with {"feed":"eboardevent","id":F,"param":{"serialnr":S}}
//     answers {"response":"call","id":N,"param":null} and then sends
//     {"response":"feed","id":F,"param":{serialnr, flipped, board, clock, san,
//     match}} now and each time the board, the clock or the moves change;
//     "unsubscribe" with {"id":F} stops a feed. A request the API cannot
//     serve is answered {"response":"error","id":N,"param":"what is wrong"}.
//
// Values follow LiveChess: clock times are whole seconds as the clock
// displayed them at "time" (a Unix time in milliseconds), "run" is true while
// White's clock runs, false while Black's runs and null while it stands.
// Where arbiterd knows more than LiveChess says, the LiveChess field keeps
// its meaning and arbiterd's view shows through it: "san" lists the moves
// completed under FIDE Law 6.2.1 (made and pressed), in the order they were
// played (a move answered by a completed reply before its own side completed
// it stands in its place), and "match" is false while a move has been made
// on the board but not yet completed by a press, so the board field is one
// ply ahead of "san". docs/feeds.md lists exactly what is implemented.
//
// The API only reads the hub (internal/hub). A WebSocket client that does not
// keep up is dropped: its messages queue up to a bound, and a client whose
// queue is full or whose write does not finish in time is disconnected,
// never allowed to hold up the boards or the other clients.
package livechess
