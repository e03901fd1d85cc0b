package emulator

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// ActionKind names a scripted fault or special action.
type ActionKind string

// The scripted actions. Each happens at a ply of the game (1-based: ply 1
// is the first move of the move list).
const (
	// Garbage writes N random bytes (default 8) on the line as the ply begins.
	Garbage ActionKind = "garbage"
	// DropField loses the first N field updates (default 1) the board
	// sends from the start of the ply.
	DropField ActionKind = "drop-field"
	// DropClock loses N clock frames (default 1) starting with the one that
	// reports the ply's press.
	DropClock ActionKind = "drop-clock"
	// PressNoMove: the player to move presses the clock without moving; the
	// opponent presses back a moment later; then the ply is played (7.5.3).
	PressNoMove ActionKind = "press-nomove"
	// NoPress: the ply is made but the player forgets to press; the
	// opponent replies (its lever is already down, so it cannot press
	// either) and the player's next move is pressed as usual (6.2.1). On
	// the last ply the game simply ends with the move unpressed.
	NoPress ActionKind = "no-press"
	// MergedPress: the ply is pressed and the opponent moves and presses
	// within one clock-report interval: no clock frame shows the state in
	// between.
	MergedPress ActionKind = "merged-press"
	// SlideWrong: the piece is put on a wrong square, left there a moment
	// and then moved to the right square before the press (not for
	// castling or en passant, which are played normally).
	SlideWrong ActionKind = "slide-wrong"
	// TwoPlies: the ply and the next one land between two board scans, so
	// one scan reports both.
	TwoPlies ActionKind = "two-plies"
	// EarlyPeriod: at the ply's press the clock begins the presser's next
	// period one press early (its press counter off by one).
	EarlyPeriod ActionKind = "early-period"
	// ExtraPress: after the ply's press the opponent taps its lever by
	// mistake and the player presses back: two presses without a move.
	ExtraPress ActionKind = "extra-press"
	// Flag: the player to move thinks longer than its clock has.
	Flag ActionKind = "flag"
	// Unplug: the board stops answering as the ply begins. With For > 0 it
	// comes back after that much emulated time, reset to idle mode like a
	// board that was powered again; without it Run returns ErrUnplugged.
	Unplug ActionKind = "unplug"
	// ClockOff: the clock's cable comes out as the ply begins: the board
	// reports "no clock" once and then no clock frames; the clock itself
	// runs on. With For > 0 it is plugged back after that much emulated time
	// and reports its display again.
	ClockOff ActionKind = "clock-off"
	// Kings: instead of the ply the players put both kings on the centre
	// squares to signal Result; the clock is stopped and the game ends.
	Kings ActionKind = "kings"
	// Takeback: the player first makes another legal move, takes it back,
	// then plays the game's move and presses.
	Takeback ActionKind = "takeback"
	// Arbiter: as the ply begins the arbiter stops the clock (6.11),
	// changes Side's time by By when By is set (6.10, 7.5.5), and starts
	// the clock again after For (default 20 s). Several at one ply share
	// one stop.
	Arbiter ActionKind = "arbiter"
)

var actionKinds = []ActionKind{Garbage, DropField, DropClock, PressNoMove, NoPress, MergedPress,
	SlideWrong, TwoPlies, EarlyPeriod, ExtraPress, Flag, Unplug, ClockOff, Kings, Takeback, Arbiter}

// Action is one scripted fault or special action: plain data, so tests and
// the command line (ParseAction) express them the same way.
type Action struct {
	Kind   ActionKind
	Ply    int           // 1-based ply of the game; len(moves)+1 means after the last move
	N      int           // count for garbage, drop-field, drop-clock (0: the default)
	For    time.Duration // unplug, clock-off: emulated time until it is back (0: never); arbiter: how long the clock stands
	Result string        // kings: "1-0", "0-1" or "1/2-1/2"
	Side   Player        // arbiter: whose time changes (with By)
	By     time.Duration // arbiter: the change of Side's time (0: a pause only)
}

// String renders the action in the syntax ParseAction reads.
func (a Action) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s@ply=%d", a.Kind, a.Ply)
	if a.N != 0 {
		fmt.Fprintf(&b, ",n=%d", a.N)
	}
	if a.For != 0 {
		fmt.Fprintf(&b, ",for=%s", a.For)
	}
	if a.Result != "" {
		fmt.Fprintf(&b, ",result=%s", a.Result)
	}
	if a.By != 0 {
		fmt.Fprintf(&b, ",side=%s,by=%s", a.Side, a.By)
	}
	return b.String()
}

// ActionSyntax documents what ParseAction accepts.
const ActionSyntax = `KIND@ply=N[,n=COUNT][,for=DURATION][,result=RESULT][,side=SIDE,by=CHANGE]   (also KIND@N)
  garbage        random bytes on the line as ply N begins (n: how many, default 8)
  drop-field     the first n field updates from ply N are lost (default 1)
  drop-clock     n clock frames lost, starting with ply N's press (default 1)
  press-nomove   the player to move presses without moving; the opponent presses back
  no-press       ply N is made but not pressed; the opponent replies; play goes on
  merged-press   ply N's press and the reply with its press fall in one clock report
  slide-wrong    the piece stops on a wrong square and is corrected before the press
  two-plies      ply N and N+1 land between two board scans
  early-period   the clock adds the next period at ply N's press (counter off by one)
  extra-press    after ply N's press the opponent taps its lever and the player presses back
  flag           the player to move at ply N thinks longer than its clock has
  unplug         the board goes silent at ply N (for: comes back after that emulated time)
  clock-off      the clock is disconnected from the board at ply N (for: plugged back after)
  kings          kings put on the centre squares at ply N (result: 1-0, 0-1 or 1/2-1/2)
  arbiter        the arbiter stops the clock as ply N begins, changes SIDE's time by CHANGE
                 (side: white or black; by: e.g. 2m or -30s; none: a pause only) and starts
                 it again after for (default 20s)
  takeback       another move is made and taken back before ply N is played
Ply N counts the moves of the game from 1; N = moves+1 means after the last move.`

// ParseAction reads one action, e.g. "garbage@ply=20", "drop-clock@ply=7,n=3",
// "unplug@ply=30,for=10s", "kings@ply=41,result=1/2-1/2".
func ParseAction(s string) (Action, error) {
	bad := func(why any) (Action, error) {
		return Action{}, i18n.Errorf("emulator.action", s, why)
	}
	kind, rest, ok := strings.Cut(strings.TrimSpace(s), "@")
	if !ok {
		return bad(i18n.M("emulator.action.at"))
	}
	a := Action{Kind: ActionKind(kind)}
	if !a.Kind.valid() {
		return bad(i18n.M("emulator.action.kind", kind, kindList()))
	}
	plySeen, sideSeen := false, false
	for i, part := range strings.Split(rest, ",") {
		key, val, hasEq := strings.Cut(part, "=")
		if !hasEq {
			if i == 0 {
				key, val = "ply", part
			} else {
				return bad(i18n.M("emulator.action.key-value", part))
			}
		}
		if problem := a.set(key, val); !problem.IsZero() {
			return bad(problem)
		}
		plySeen = plySeen || key == "ply"
		sideSeen = sideSeen || key == "side"
	}
	if !plySeen {
		return bad(i18n.M("emulator.action.no-ply"))
	}
	if sideSeen != (a.By != 0) {
		return bad(i18n.M("emulator.action.side-by"))
	}
	if err := a.check(); err != nil {
		return bad(err)
	}
	return a, nil
}

// set sets the action's setting key to val; problem says what is wrong
// with them (zero when nothing is).
func (a *Action) set(key, val string) (problem i18n.Message) {
	switch key {
	case "ply":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 {
			return i18n.M("emulator.action.ply", val)
		}
		a.Ply = n
	case "n":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 || n > 4096 {
			return i18n.M("emulator.action.n", val)
		}
		a.N = n
	case "for":
		d, err := time.ParseDuration(val)
		if err != nil || d <= 0 {
			return i18n.M("emulator.action.for", val)
		}
		a.For = d
	case "result":
		if val != "1-0" && val != "0-1" && val != "1/2-1/2" {
			return i18n.M("emulator.action.result", val)
		}
		a.Result = val
	case "side":
		switch val {
		case "white":
			a.Side = White
		case "black":
			a.Side = Black
		default:
			return i18n.M("emulator.action.side", val)
		}
	case "by":
		d, err := time.ParseDuration(val)
		if err != nil || d == 0 {
			return i18n.M("emulator.action.by", val)
		}
		a.By = d
	default:
		return i18n.M("emulator.action.key", key)
	}
	return i18n.Message{}
}

func (k ActionKind) valid() bool {
	for _, x := range actionKinds {
		if k == x {
			return true
		}
	}
	return false
}

func kindList() string {
	names := make([]string, len(actionKinds))
	for i, k := range actionKinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// check validates the fields that do not depend on the game.
func (a Action) check() error {
	if !a.Kind.valid() {
		return i18n.Errorf("emulator.check.kind", string(a.Kind))
	}
	if a.Ply < 1 {
		return i18n.Errorf("emulator.check.ply", a.Ply)
	}
	if a.N != 0 && a.Kind != Garbage && a.Kind != DropField && a.Kind != DropClock {
		return i18n.Errorf("emulator.check.n")
	}
	if a.N < 0 {
		return i18n.Errorf("emulator.check.n-negative", a.N)
	}
	if a.For != 0 && a.Kind != Unplug && a.Kind != ClockOff && a.Kind != Arbiter {
		return i18n.Errorf("emulator.check.for")
	}
	if a.By != 0 && a.Kind != Arbiter {
		return i18n.Errorf("emulator.check.by")
	}
	if a.By != 0 && a.Side != White && a.Side != Black {
		return i18n.Errorf("emulator.check.by-side")
	}
	if a.For < 0 {
		return i18n.Errorf("emulator.check.for-negative", a.For.String())
	}
	if a.Kind == Kings {
		if a.Result != "1-0" && a.Result != "0-1" && a.Result != "1/2-1/2" {
			return i18n.Errorf("emulator.check.kings")
		}
	} else if a.Result != "" {
		return i18n.Errorf("emulator.check.result")
	}
	return nil
}

// afterLastAllowed says whether the action may sit at ply moves+1 (after
// the last move of the game).
func (k ActionKind) afterLastAllowed() bool {
	switch k {
	case Garbage, DropField, DropClock, PressNoMove, Flag, Unplug, ClockOff, Kings:
		return true
	}
	return false
}
