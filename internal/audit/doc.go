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
// # The model
//
// A game whose readings are the other side's clock's (a clock standing
// the other way round from the board's setting) is found by the %emt,
// each side's readings moving with the other's, and its readings are put
// back on their sides first (swap.go).
//
// Each side's readings are explained under a control and a clock mode
// (model.go): a clock that counts presses (and may miscount), one that
// adds the next period at the player's flag, one that adds it to both
// players at the first flag. An explanation says which readings are wrong
// (glitches, stale readings, the last move's), and between the readings it
// keeps what happened: time used, a period that came, a clock standing at
// 0:00, time from nowhere. Each part has a cost; decodeSide finds the
// cheapest explanation by dynamic programming, explainGame the cheapest
// mode (explain.go); on a clock that gives both players the period, each
// period comes with whichever flag fell first (bothModes).
//
// # The control
//
// A round's games share a control (control.go): it is chosen once, among
// FIDE's controls, the round's TimeControl tags (the notation of
// docs/timecontrol.md, FIDE's short forms and free text, ParseTimeControl)
// and a control fitted to the clocks, by the total cost of the games'
// explanations under each. A tag starts ahead; a game gets a control of
// its own only when its clocks contradict the round's (a tiebreak, an
// Armageddon game). The --timecontrol option overrides all of it.
//
// # Conclusions
//
// judge.go turns the chosen explanation into period additions and
// findings. A flag before the control is reported only when the cheapest
// explanation without it costs clearly more, the period's time stays in
// the readings after it and the reading fits a player who ran out;
// otherwise it is a possible-flag without a verdict, or nothing. Where
// the readings leave its move open (a reading missing, set aside or sent
// again), the finding names the moves it may have fallen in, up to
// three, all before the control (flagMoves). Its verdict, and that of
// results decided on time, comes from the 6.9 analyzer (rules/unwinnable)
// on the position at that moment, the same after each of those moves.
//
// # Output
//
// Report is one game's audit; TableSink, JSONSink and HTMLSink print
// reports as a table per round, JSON lines, or a self-contained HTML page
// with an SVG clock chart per game.
package audit
