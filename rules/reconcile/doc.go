// Package reconcile is arbiterd's per-game state machine: it reads the
// board's snapshots and the clock's interpreted events together and turns
// them into the event stream of docs/events.md — moves made
// (provisional, Law 4.7), moves completed (6.2.1), anomalies for the
// arbiter, and flag-fall verdicts (6.3.1, 6.4, 6.9).
//
// The press is the commit point. Board states between presses are
// provisional: a slide shows up as a move that is later retracted and
// replaced, a move taken back before the press is simply retracted. When
// a side presses, the move of that side the board shows is completed; the
// press waits up to Config.ScanLag for the board to catch up, because the
// board reports a move some hundred milliseconds after it was made while
// the clock may be read sooner (or later). A move is also completed when
// it ends the game (5.1.1, 5.2.1, 5.2.2, 9.6.1, 9.6.2: by "game-end", once
// the board has shown it for ScanLag, so that a piece sliding over a
// mating square does not end the game) or by the same side's next move
// (by "next-move"). Completed moves are counted per side; presses are
// never counted.
//
// When a flag falls the Game compares the side's completed moves with the
// control of the period it is in (6.3.1), asks a MateOracle whether the
// opponent can still checkmate (6.9), and gives the verdict: "none" when
// the control was reached in a period that is not the last, otherwise
// "loss" or "draw". Flags in the same reading fell in an unknown order
// (Guidelines III.3.1). A period addition made by the clock at a press
// that does not match the side's completed moves is a clock-counter
// anomaly with the correction the arbiter should make (6.10).
//
// Time is an input: every method takes the offset `at` since the capture
// started and deadlines are checked only when an input arrives (Advance),
// so the same inputs always produce byte-identical events, live or in
// replay. The package does no I/O.
//
// See docs/reconciliation.md for the rules in detail.
package reconcile
