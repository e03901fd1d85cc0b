package faults

import (
	"path/filepath"
	"testing"

	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// TestSideToMoveAfterAnAbsence replays the captures of trials in which the
// side to move after an absence was decided wrong (docs/RELIABILITY.md, the
// side to move after an absence): the first clock reading after the gap,
// or the presses merged into it, say whose turn it is; a word of the clock
// from before a change of the board does not. Each must give the game's
// moves, numbered as the game or lower after the unverified-moves report,
// with no penalty invented and no clock reading distrusted for the gap.
func TestSideToMoveAfterAnAbsence(t *testing.T) {
	chunks, _ := pliesBegin(t)
	base := replayChunks(t, chunks)
	for _, tc := range []struct {
		file, what string
		exact      bool // no anomaly at all: nothing was unseen
	}{
		{"restart-wrong-parity.capture", "SIGKILL trial 1000766: nine plies unseen, the shortest sequence eight; ply numbers two high", false},
		{"unplug-wrong-parity.capture", "unplug trial 1000021: the presses of the absence read merged after it; twelve illegal-move alarms", false},
		{"garbage-transient.capture", "garbage trial 1000045: a press read before the rook was lifted off g1 for Bxg1; 'Bg1' at ply 40", false},
		{"restart-before-the-board-was-read.capture", "SIGKILL trial 7000812: killed before the first board reading, restarted after 1.e4 e5; the start never seen, every press a press without a move", false},
		{"unplug-flaky-wrong-parity.capture", "unplug trial 8000105: five disconnections in 30 s; five plies laid unverified with the wrong side to move, then 16.Nc3 Bc5 completed as 15...Bc5 16.Nc3", false},
		{"restart-press-pending-before-the-kill.capture", "SIGKILL trial 7000763: killed with 13.h5 pressed but not yet judged and the queen on e2 on its way to f3; h5 completed by the next move, the press given to Qe2; two clock-reading alerts at the restart", false},
		{"restart-updates-before-the-dump.capture", "SIGKILL trial 8000765: the restarted daemon read field updates before the board's first dump and laid them on the image of before the crash; Black's press of the absence judged a press without a move", false},
		{"stall-press-before-the-reply.capture", "SIGKILL trial 7000768, before the kill: the daemon read 5 s of the line at once (one stamp): White's press for 13.h5, 13...Qg5 and its press, then the queen lifted for 14.Qf3 and seen on e2; the press completed Qe2 and h5 by the next move", false},
		{"unplug-search-budget.capture", "unplug trial 8000075: back eight plies on; the deeper search ran out of nodes before eight plies, the record was rebuilt as if nine had been made and numbered two high", false},
		{"restart-read-before-connected.capture", "SIGKILL trial 12000824: the restarted daemon's board answered before the session said connected: 7.d3 taken as the next move, a pawn lifted on the old image explained as 7...Qxh2 8.Nbd2 Qh6 9.Nb1, and 6...Qh6 'corrected' to Qxh2", false},
		{"restart-slide-laid-before-the-kill.capture", "SIGKILL trial 17000785: killed with the queen seen on e2 on its way to f3 (laid, never pressed), back ten plies on; the deeper search tried the plies without Qe2 too, yet the rebuild added Qe2 to its count: numbered two high, Bxg1 completed as ply 38", false},
		{"restart-capture-lifted-at-the-return.capture", "SIGKILL trial 19000827: back eleven plies on, Black lifted the bishop off b5 to take it (11...cxb5); that position stood a scan lag and was laid as nine unverified plies explaining the bishop away (8...Qxb5), the record then numbered six high", false},
		{"stalled-host-capture-lifted.capture", "drop-clock trial 18000066 on a host at load 15: eight absences in 90 s; the b-pawn lifted for 5.Bxb5 was read 8 s before the next byte and rebuilt from; a press without a move and two illegal moves (White lost) followed", false},
		{"restart-repeated-move-after-the-return.capture", "SIGKILL trial 7000728: the daemon down 42 s, back twenty plies on and rebuilt at least nine on; its first completion, 10...Nf6, is a move the game also played as 5...Nf6 (the check of the numbering must use every completion)", false},
		{"stalled-host-slide-with-a-running-reading.capture", "drop-field trial 7000063 on a stalled host: 7.5 s read at once, then White's pawn seen on h3 on its way to h4 and a reading after the gap naming White's clock running; taken as White having pressed after the board showed h3, the record was rebuilt two plies high", false},
		{"restart-pressed-at-the-kill.capture", "SIGKILL trial 16000832: killed right after Black pressed for 13...Qg5, the press the last record before the disconnection (both at one stamp); the press was taken as read after the absence, Qg5 as a piece on its way, and the return laid as four plies from before it with the wrong side to move; 13 illegal-move alarms", false},
		{"restart-next-move-read-with-the-clock.capture", "SIGKILL trial 4000741: killed with 13.h5 seen, not pressed; back six plies on, and in the first burst read the clock named White running, White played 16.Nc3 and pressed; the shortest sequence to the position read (five plies, the queen g6-f6 at once) was checked against the clock's word about the board after Nc3 and laid with Black to move; 13 illegal-move and two-moves alarms", false},
		{"restart-clock-read-before-the-dump.capture", "SIGKILL trial 7000786: back at once, the restarted daemon read the queen set down on g5 (laid on the image of before the kill), then the clock naming White's clock running, then the board's first dump: the clock's word was tied to the stale image, went stale at the dump, and the four plies of the shortest sequence were laid with the wrong side to move; a later rebuild numbered every ply twelve high (Qg6 as ply 36, where the game's is Bxg1)", false},
		{"restart-first-read-deep-in-play.capture", "SIGKILL trial 11000734: killed 0.5 s in, before the board or the clock was read, back eleven plies on: the clock's first reading taken for the game's start (the right face running against White's face as set, times beyond what no presses give: three clock-reading alerts), the board deeper than the search from the start; the game never followed, no move completed", false},
		{"restart-updates-before-the-dump-end-the-absence.capture", "SIGKILL trial 11000792: killed with the queen seen on h5 on its way to h6 (laid, not pressed), back nine plies on; a field update read before the board's first dump matched the stale image and ended the absence, so the dump opened a new one starting after the gap's clock reading: its presses were judged on the stale record, Qh5 completed as the game's ply 12 (it played Qh6) and five presses without a move", false},
		{"restart-start-up-updates-settled-before-the-dump.capture", "SIGKILL trial 13000748: back with the board answering the start-up: field updates of 16.Nc3 laid on the stale image were settled a scan lag later, just before the start-up dump arrived, and the gap's presses completed Nc3 as ply 29 (the game's is Bxf4), with a press without a move", false},
		{"drop-field-capture-in-hand.capture", "drop-field trial 1000076: the updates of 18...Bxg1 lost, a dump showing the rook lifted, Black's press before the next dump; rebuilt from it, 12 alarms", true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := replayCapture(filepath.Join("testdata", tc.file))
			if got.RunErr != nil {
				t.Fatal(got.RunErr)
			}
			if _, err := verdict(base, got); err != nil {
				t.Fatalf("%s: %v\n%s", tc.what, err, summary(got))
			}
			if p := penalties(got); len(p) > 0 {
				t.Fatalf("%s: %d invented penalties\n%s", tc.what, len(p), summary(got))
			}
			for _, e := range got.Events {
				if tc.exact && e.Type == reconcile.TypeAnomaly {
					t.Errorf("%s: %s anomaly: %s", tc.what, e.Kind, e.Detail)
				}
				if e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindClockReading {
					t.Errorf("%s: the clock read again after the gap was distrusted: %s", tc.what, e.Detail)
				}
			}
		})
	}
}
