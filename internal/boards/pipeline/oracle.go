package pipeline

import (
	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/reconcile"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// DefaultRetryBudget bounds the second try of the 6.9 analysis after an
// undetermined quick one (about 1 % of flag-fall positions): at most a few
// tenths of a second of search, which settles nearly every endgame that
// quick mode leaves open (of 6,000 queries on random endgames of up to six
// men, 6 were still open after 200,000 nodes, 1 after 1,000,000). An
// arbiter told "unknown" must work the position out alone.
const DefaultRetryBudget = 1_000_000

// DefaultOracle answers the 6.9 question for flag verdicts: the
// rules/unwinnable analyzer in quick mode, then once more with
// DefaultRetryBudget nodes when that is not conclusive.
func DefaultOracle() reconcile.MateOracle {
	return UnwinnableOracle{Options: unwinnable.Options{Mode: unwinnable.Quick, LineBudget: unwinnable.QuickLineBudget}, Retry: DefaultRetryBudget}
}

// UnwinnableOracle answers the 6.9 question with the analyzer of
// rules/unwinnable (sound: "no" only when proved, "yes" only with a line
// ending in mate). The zero value uses its quick mode with the mate line as
// found (Options.LineBudget shortens it for the arbiter, as DefaultOracle
// does); set Options.Mode to unwinnable.Full for an arbiter's ruling.
//
// When the first analysis is undetermined and Retry is positive, it asks
// once more with Retry nodes. Budgets count positions, not time, so the
// answer — and the event stream — is the same on every machine and in
// every replay.
type UnwinnableOracle struct {
	Options unwinnable.Options
	Retry   int64
}

// CanMate implements reconcile.MateOracle.
func (o UnwinnableOracle) CanMate(fen string, side clockd.Side) (reconcile.Mate, []string) {
	c := bitboard.White
	if side == clockd.Black {
		c = bitboard.Black
	}
	r, err := unwinnable.CanMate(fen, c, o.Options)
	if err == nil && r.Verdict == unwinnable.Undetermined && o.Retry > 0 {
		r, err = unwinnable.CanMate(fen, c, unwinnable.Options{Mode: unwinnable.Full, NodeBudget: o.Retry})
	}
	if err != nil {
		return reconcile.MateUnknown, nil
	}
	switch r.Verdict {
	case unwinnable.Winnable:
		if len(r.Line) == 0 {
			return reconcile.MateUnknown, nil
		}
		return reconcile.MateYes, r.Line
	case unwinnable.Unwinnable:
		return reconcile.MateNo, nil
	}
	return reconcile.MateUnknown, nil
}
