package reconcile

import (
	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// UnwinnableOracle answers the 6.9 question with the analyzer of
// rules/unwinnable (sound: "no" only when proved, "yes" only with a line
// ending in mate). The zero value uses its quick mode, fit for the live
// daemon, with the mate line as found (Options.LineBudget shortens it for
// the arbiter, as internal/boards/pipeline.DefaultOracle does); set Options.Mode
// to unwinnable.Full for an arbiter's ruling.
//
// When the first analysis is undetermined and Retry is positive, it asks
// once more with Retry nodes. Budgets count positions, not time, so the
// answer — and the event stream — is the same on every machine and in
// every replay.
type UnwinnableOracle struct {
	Options unwinnable.Options
	Retry   int64
}

// CanMate implements MateOracle.
func (o UnwinnableOracle) CanMate(fen string, side clockd.Side) (string, []string) {
	c := bitboard.White
	if side == clockd.Black {
		c = bitboard.Black
	}
	r, err := unwinnable.CanMate(fen, c, o.Options)
	if err == nil && r.Verdict == unwinnable.Undetermined && o.Retry > 0 {
		r, err = unwinnable.CanMate(fen, c, unwinnable.Options{Mode: unwinnable.Full, NodeBudget: o.Retry})
	}
	if err != nil {
		return "unknown", nil
	}
	switch r.Verdict {
	case unwinnable.Winnable:
		if len(r.Line) == 0 {
			return "unknown", nil
		}
		return "yes", r.Line
	case unwinnable.Unwinnable:
		return "no", nil
	}
	return "unknown", nil
}
