// Package audit checks finished games after the fact, from the clock
// comments broadcast PGN carries after every move ([%clk]: the mover's
// clock after the move; [%emt]: the time the move took), for the incidents
// FIDE Laws 6.3.1, 6.4, 6.9 and 6.10 are about. It is `arbiterd audit`
// (docs/audit.md).
//
// # Reading
//
// Reader reads PGN game by game from any io.Reader, with memory bounded by
// one game: tags, the main line paired with its clock comments by parsing
// the movetext (move numbers, comments, variations, NAGs, escapes), never
// by counting comments. Problems come out as *ParseError with the file and
// line, and the reader resynchronises at the next game's tags. Decompress
// recognises gzip and zstandard from the data and refuses other
// compressions by name.
//
// # The control
//
// A game is judged by the control given to the Auditor, else by its
// TimeControl tag — the notation of docs/timecontrol.md and FIDE's
// short forms through clockd.ParseTimeControl, free text ("90 minutes for
// the first 40 moves, followed by …") through this package's own reader —
// when the clocks agree with it, else by what the clocks show (the first
// readings give the first period's time, consecutive ones the increment).
//
// # The replay
//
// Each side's readings are replayed against the control: from one reading
// to the next a clock loses the time used and gains the increments, and
// any more than that is a period's time (added at the player's flag, at
// the opponent's flag on clocks that give both players the period then, or
// at a counted press), an extra increment, or a data fault. A period
// added when the player's time ran out before the period's moves were
// completed is a flag before the control; its verdict, and that of results
// decided on time, comes from the 6.9 analyzer (rules/unwinnable) on the
// position at that moment. Broadcast clocks are rounded, sometimes stale,
// sometimes read from the next game: the tolerances and exclusions that
// keep the audit from crying wolf on them are in clocks.go and
// docs/audit.md.
//
// # Output
//
// Report is one game's audit; TableSink, JSONSink and HTMLSink print
// reports as a table per round, JSON lines, or a self-contained HTML page
// with an SVG clock chart per game.
package audit
