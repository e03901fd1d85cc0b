package emulator

import (
	"fmt"

	"github.com/arbiterd/arbiterd/clockd"
)

// ParseTimeControl reads a time control in arbiterd's notation
// (docs/timecontrol.md, parsed by clockd, so FIDE-style text such as
// "90/40+30+30s" works too) and returns the hardware clock's setting for
// it. Errors point at the offending character; a control the emulated
// DGT 3000 cannot show (10 hours or more) is refused.
func ParseTimeControl(text string) ([]Period, error) {
	tc, err := clockd.ParseTimeControl(text)
	if err != nil {
		return nil, fmt.Errorf("emulator: %w", err)
	}
	ps := Periods(tc)
	if err := checkPeriods(ps); err != nil {
		return nil, err
	}
	return ps, nil
}

// Periods is the hardware clock's setting for a time control.
func Periods(tc clockd.TimeControl) []Period {
	out := make([]Period, len(tc.Periods))
	for i, p := range tc.Periods {
		out[i] = Period{Moves: p.Moves, Time: p.Time, Increment: p.Increment, Mode: p.Mode}
	}
	return out
}
