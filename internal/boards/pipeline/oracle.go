package pipeline

import (
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
	return reconcile.UnwinnableOracle{Options: unwinnable.Options{Mode: unwinnable.Quick, LineBudget: unwinnable.QuickLineBudget}, Retry: DefaultRetryBudget}
}
