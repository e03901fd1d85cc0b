package emulator

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// TestErrorsInSpanish says each error of --fault, --pgn and the clock's
// periods in English, as the emulator wrote it before it had catalogs, and
// in Spanish.
func TestErrorsInSpanish(t *testing.T) {
	var errs []error
	add := func(err error) {
		if err == nil {
			t.Fatalf("no error (after %d)", len(errs))
		}
		errs = append(errs, err)
	}
	for _, s := range []string{"garbage", "nope@1", "garbage@1,x", "garbage@n=3", "arbiter@1,side=white",
		"garbage@ply=0", "garbage@1,n=0", "unplug@1,for=x", "kings@1,result=2-0", "arbiter@1,side=red,by=2m",
		"arbiter@1,side=white,by=0s", "garbage@1,zz=1", "flag@1,n=2", "garbage@1,for=10s",
		"flag@1,side=white,by=1m", "kings@1", "flag@1,result=1-0"} {
		_, err := ParseAction(s)
		add(err)
	}
	for _, a := range []Action{{Kind: "nope", Ply: 1}, {Kind: Flag}, {Kind: Garbage, Ply: 1, N: -1},
		{Kind: Arbiter, Ply: 1, By: time.Minute, Side: 7}, {Kind: Unplug, Ply: 1, For: -time.Second}} {
		add(checkScript([]Action{a}, false, 10))
	}
	add(checkScript([]Action{{Kind: ClockOff, Ply: 1}}, true, 10))
	add(checkScript([]Action{{Kind: Flag, Ply: 99}}, false, 10))
	add(checkScript([]Action{{Kind: TwoPlies, Ply: 10}}, false, 10))
	for _, pgn := range []string{"[Event \"x\"", "1. e4 {c", "1. e4 )", "1. e4 }", "1. e4 (e5"} {
		_, _, err := pgnMoves(pgn)
		add(err)
	}
	for _, moves := range [][]string{{"e4", "!"}, {"e5"}} {
		_, _, err := parseGame("", moves)
		add(err)
	}
	_, _, err := parseGame("x", nil)
	add(err)
	for _, ps := range [][]Period{{{Moves: 40, Time: time.Hour}}, {{Time: time.Hour}, {Time: time.Hour}},
		{{Time: -time.Second}}, {{Time: 10 * time.Hour}}, {{Time: time.Hour, Increment: -time.Second}},
		{{Time: time.Hour, Mode: 9}}} {
		add(checkPeriods(ps))
	}
	en := []string{
		`emulator: action "garbage": missing '@': expected KIND@ply=N`,
		`emulator: action "nope@1": unknown kind "nope" (known: ` + kindList() + `)`,
		`emulator: action "garbage@1,x": "x" is not key=value`,
		`emulator: action "garbage@n=3": missing ply=N`,
		`emulator: action "arbiter@1,side=white": side and by go together (the time of one side changed by an amount)`,
		`emulator: action "garbage@ply=0": ply "0" is not a whole number from 1`,
		`emulator: action "garbage@1,n=0": n "0" is not a whole number from 1 to 4096`,
		`emulator: action "unplug@1,for=x": for "x" is not a positive duration such as 10s`,
		`emulator: action "kings@1,result=2-0": result "2-0" is not 1-0, 0-1 or 1/2-1/2`,
		`emulator: action "arbiter@1,side=red,by=2m": side "red" is not white or black`,
		`emulator: action "arbiter@1,side=white,by=0s": by "0s" is not a non-zero duration such as 2m or -30s`,
		`emulator: action "garbage@1,zz=1": unknown key "zz" (known: ply, n, for, result, side, by)`,
		`emulator: action "flag@1,n=2": n applies only to garbage, drop-field and drop-clock`,
		`emulator: action "garbage@1,for=10s": for applies only to unplug, clock-off and arbiter`,
		`emulator: action "flag@1,side=white,by=1m": side and by apply only to arbiter`,
		`emulator: action "kings@1": kings needs result=1-0, 0-1 or 1/2-1/2`,
		`emulator: action "flag@1,result=1-0": result applies only to kings`,
		`emulator: action nope@ply=1: unknown kind "nope"`,
		`emulator: action flag@ply=0: ply 0: plies count from 1`,
		`emulator: action garbage@ply=1,n=-1: n -1 is negative`,
		`emulator: action ` + Action{Kind: Arbiter, Ply: 1, By: time.Minute, Side: 7}.String() + `: by needs side white or black`,
		`emulator: action unplug@ply=1,for=-1s: for -1s is negative`,
		`emulator: action clock-off@ply=1: no clock is attached to the board (NoClock)`,
		`emulator: action flag@ply=99: the game has 10 plies`,
		`emulator: action two-plies@ply=10 needs a ply after it; the game has 10 plies`,
		`emulator: PGN line 1: unterminated tag pair`,
		`emulator: PGN line 1: unterminated comment`,
		`emulator: PGN line 1: ')' without '('`,
		`emulator: PGN line 1: unexpected '}'`,
		`emulator: PGN: unterminated variation`,
		`emulator: ply 2 (!): empty move`,
		`emulator: ply 1 (e5): not a legal move in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`,
		"",
		`emulator: period 1 is the last one and must have Moves 0, not 40`,
		`emulator: period 1 needs a move count (only the last period has Moves 0)`,
		`emulator: period 1 time -1s: must be positive`,
		`emulator: period 1 time 10h0m0s: the clock shows at most 9:59:59`,
		`emulator: period 1 increment -1s is negative`,
		`emulator: period 1: unknown mode 9`,
	}
	if len(en) != len(errs) {
		t.Fatalf("%d errors, %d English texts", len(errs), len(en))
	}
	for i, err := range errs {
		if en[i] != "" && err.Error() != en[i] {
			t.Errorf("English\n%s\nwant\n%s", err, en[i])
		}
		var l i18n.Localizer
		if !errors.As(err, &l) {
			t.Errorf("%v: not said in a language", err)
			continue
		}
		es := i18n.Spanish.Err(err).Error()
		if es == err.Error() || strings.Contains(es, "%!") || !strings.HasPrefix(es, "emulator: ") {
			t.Errorf("Spanish %q (English %q)", es, err)
		}
	}
	_, err = ParseAction("arbiter@1,side=white,by=2m,n=3")
	if got, want := i18n.Spanish.Err(err).Error(), `emulator: acción "arbiter@1,side=white,by=2m,n=3": n solo se aplica a garbage, drop-field y drop-clock`; got != want {
		t.Errorf("Spanish\n%s\nwant\n%s", got, want)
	}
	if got, want := i18n.Spanish.Err(errs[len(errs)-3]).Error(), "emulator: periodo 1, tiempo 10h0m0s: el reloj muestra como máximo 9:59:59"; got != want {
		t.Errorf("Spanish\n%s\nwant\n%s", got, want)
	}
}
