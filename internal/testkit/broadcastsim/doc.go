// Package broadcastsim generates synthetic broadcast rounds: the PGN a
// broadcast of an event's round would publish, with [%clk] and [%emt]
// comments, together with the ground truth of what happened to every
// clock. It is a test model for the audit, and shares none of the audit's
// reasoning: it simulates the physical world forward (players think,
// clocks run and add periods, a broadcast reads them badly) and only
// then asks what the published readings show.
//
// # The world
//
// A round is N boards sharing one control (Controls) and, usually, one
// clock mode. The clock is a DGT-like Fischer clock: before move 1 it shows
// the first period's time plus one increment; each press adds the
// increment of the period in force after the press. Three modes add the
// next period:
//
//   - Counting: at the press that completes the period's moves, counted by
//     presses (so a press without a move shifts it); the period's time and
//     its increment are added at that press. A miscounting clock does it 1
//     or 2 presses early or late for one side (Game.Offset). A player whose
//     time runs out before the count stands at 0:00, earning no increment,
//     until the count.
//   - AtFlag: when a player's time runs out the next period is added to
//     that player at that moment; the time runs on and the press earns the
//     increment.
//   - AtFlagBoth: at the first flag of a period both players get the next
//     period.
//
// In the last period a flag leaves the clock at 0:00 and ends the game.
//
// Players open fast (1–10 s a move in classical), think from half a minute
// to twenty minutes in the middlegame with the odd 25–45 minute think,
// play on the increment in time trouble, and keep clear of a flag that
// would matter unless one is injected. Injected: a flag before the control
// (the player's think, at most 45 minutes, overruns the time left by 0.1 s
// to 40 minutes, never the whole next period; nobody claims, and the game goes on for 0 to 50 more
// moves), time added by hand (2 minutes, 1 in rapid and blitz), a press
// without a move (one extra increment and one extra press counted), and
// a counting clock's miscount. Every flag that falls is recorded, injected
// or not, with the moves completed and the clock's period: a flag before
// the control is a flag during move m with m-1 completed moves fewer than
// those of all the periods the clock had given (6.3.1).
//
// The broadcast then rounds or truncates each reading to the second and,
// per event profile (Profiles), drops readings singly or in runs, glitches
// single readings by seconds to tens of minutes, puts in another board's
// clock, repeats the player's previous reading, reads a few seconds off or
// before the increment, garbles a run of 2–5 readings, reads the last move
// from the next game's fresh clock, cuts games off with "*", writes
// [%emt] for all, some or no moves (timed from the board, so press delays
// show, and sometimes wrong; the first move's being the time since the
// board went live), and writes the TimeControl tag correctly, as free
// text, not at all, or wrongly (the classical tag on a tiebreak).
//
// # What counts as evidence
//
// A reading is undamaged when it is published and within a second of the
// true clock. The generator's own criterion for a flag before the control
// during move m of a player being sufficiently evidenced by the published
// readings (Incident.Evidence) is all of:
//
//  1. The player's readings of moves m-1 and m are undamaged, m is not the
//     game's last published move, and the reading of m-1 shows at least 3
//     s (so the time ran out during move m, not before).
//  2. The overstep shows beyond the broadcasts' few seconds of slack: on
//     an at-flag clock it is at least 5 s (the reading after the flag is
//     below the fresh period plus increment by 5 s or more), and either the
//     reading rose by the increment plus a minute or the move's [%emt] is
//     undamaged (an overstep close to the whole next period leaves no
//     gain); on a counting clock the reading of 0:00 is below the increment
//     of at least 2 s the player would have earned, or else an undamaged
//     [%emt] shows an overstep of 5 s or more. Where the count itself comes
//     at the flag move the reading is the fresh period whether the time ran
//     out or not, so only an undamaged [%emt] can show it.
//  3. The flag's addition is a single period (an overstep beyond the next
//     period is not judged).
//  4. At least 3 undamaged readings of that player follow among the
//     player's next 6 moves, the game's last move not counted; or, on an
//     at-flag-both clock, 2 of them plus the opponent's undamaged readings
//     on either side of the flag, the later showing the period given at
//     the same moment.
//  5. No other incident of the player's clock (time added, an extra press,
//     a period shift, another flag) within moves m-1 to m+3.
//  6. For a flag the display never showed because the opponent's flag on
//     an at-flag-both clock had already given the period: that opponent's
//     flag shows too, evident by these rules where it fell before the
//     opponent's control, its readings around the period undamaged where
//     it fell after. The hidden flag exists only if the period came that
//     early, and only the opponent's readings date it.
//
// Why these: without the readings around the flag a glitch or a gap can
// move it; without 3 s left before the move a reading of 0:00 truncated
// can belong to the move before; under 5 s an overstep is within what a
// reading taken a little late or rounded shows; and without readings after
// the jump a single glitch looks exactly like a period. A flag that fails
// the criterion is not thereby undecidable: the audit may report it at the
// right move, as a possible flag, or not at all, but never at another move.
//
// A period shift (period-early, period-late) is visible when the player's
// readings of the move before, the move and the move after are undamaged
// and not the last, the player had at least 3 s left when it came, no
// other incident is next to it, and, for a late one, the opponent's
// counting clock shows the count exactly at the control.
//
// A round's control can be told from its clocks (Round.Identifiable) when
// at least 4 games have clocks (3 undamaged readings a side), some game
// shows each later period arriving (the readings of the move before, the
// move that shows it and the two after undamaged), and each period's move
// count other than the first period's 40 — the convention a tool must
// assume — is shown by a counting clock that added the next period exactly
// at it.
package broadcastsim
