// Package broadcast keeps the round folders that broadcast tools read, live,
// from the hub's event streams.
//
// Per round the folder holds one PGN file per board and one with every game
// of the round, plus JSON indexes:
//
//	DIR/tournament.json          the event name and its rounds
//	DIR/round-N/index.json       the round's games: board, players, result,
//	                             PGN file names, completed moves, update time
//	DIR/round-N/game-M.pgn       board M's game
//	DIR/round-N/games.pgn        every game of round N, in board order
//
// The PGN is internal/output/pgn's view of each board's event stream: completed
// moves only (FIDE Law 6.2.1: a move counts once the player pressed the
// clock), each with [%clk] and [%emt], the WhiteClock and BlackClock tags and
// the broadcast round tag Round "r.b". Tags are always the same set in the
// same order, and a file is only rewritten when its content changed, so a
// tool polling the folder sees a change exactly when the game changed.
//
// Every file is replaced atomically (written to a temporary file in the same
// directory, synced, then renamed over the old one): a reader never sees half
// a file, even when the power goes mid-write.
//
// Games is the part that turns hub updates into PGN per board; the lichess
// push (internal/output/lichess) uses it too.
package broadcast
