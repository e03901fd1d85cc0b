package faults

import (
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The verdict's own test: after an unverified-moves report the plies may
// be numbered low by one even constant, found from all the completions up
// to the next report, so that a move the game plays twice (5...Nf6 and
// 10...Nf6) does not fix the wrong one; a move the game does not have at
// any such shift is still a failure.
func TestVerdictShiftAfterAReport(t *testing.T) {
	complete := func(ply int, san string) reconcile.Event {
		return reconcile.Event{Type: reconcile.TypeComplete, Ply: ply, SAN: san}
	}
	report := reconcile.Event{Type: reconcile.TypeAnomaly, Kind: reconcile.KindUnverified, NoSide: true}
	var game []reconcile.Event
	for i, san := range []string{"e4", "Nf6", "d4", "e6", "c4", "Nf6", "Nc3"} {
		game = append(game, complete(i+1, san))
	}
	base := outcome{Events: game, Completed: reconcile.Moves{White: 4, Black: 3}}
	for _, tc := range []struct {
		name   string
		events []reconcile.Event
		fail   string
	}{
		{"the repeated move numbered four low", []reconcile.Event{complete(1, "e4"), report, complete(2, "Nf6"), complete(3, "Nc3")}, ""},
		{"a move the game does not have", []reconcile.Event{complete(1, "e4"), report, complete(2, "Nf6"), complete(3, "Bb5")}, "completed as Bb5"},
		{"a move numbered too high", []reconcile.Event{complete(1, "e4"), report, complete(6, "e6")}, "completed as e6"},
	} {
		got := outcome{Events: tc.events, Completed: reconcile.Moves{White: 2, Black: 1}, Result: "x"}
		_, err := verdict(base, got)
		switch {
		case tc.fail == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.fail != "" && (err == nil || !strings.Contains(err.Error(), tc.fail)):
			t.Errorf("%s: verdict error %v, want one saying %q", tc.name, err, tc.fail)
		}
	}
}
