package pipeline

import (
	"github.com/arbiterd/arbiterd/rules/reconcile"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// DefaultRetryBudget bounds the second try of the 6.9 analysis after an
// undetermined quick one: a few milliseconds of search.
const DefaultRetryBudget = 200_000

// DefaultOracle answers the 6.9 question for flag verdicts: the
// rules/unwinnable analyzer in quick mode, then once more with
// DefaultRetryBudget nodes when that is not conclusive.
func DefaultOracle() reconcile.MateOracle {
	return reconcile.UnwinnableOracle{Options: unwinnable.Options{Mode: unwinnable.Quick, LineBudget: unwinnable.QuickLineBudget}, Retry: DefaultRetryBudget}
}
