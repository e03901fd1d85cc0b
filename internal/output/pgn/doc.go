// Package pgn renders a game's event stream (docs/events.md) as PGN:
// the completed moves (FIDE Law 6.2.1) with the clock after each move
// ([%clk]) and the time spent on it ([%emt]), the TimeControl, WhiteClock and
// BlackClock tags, the result and the termination. The round tag is "N.B"
// (the round, then the board), and the players' FIDE ids, ratings, titles,
// federations and teams are tags of their own (WhiteFideId, BlackElo …),
// as broadcast tools and pairing programs read them.
//
// PGN is a view of the stream, never a source: a Game is fed the events in
// order and can be rendered at any moment, so the live daemon keeps a current
// PGN for broadcasts and `arbiterd replay --pgn` writes the same text from a
// capture.
package pgn
