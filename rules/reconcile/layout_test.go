package reconcile

import "testing"

// Every member has a writer and every event type a layout: a member
// added to the list but not to the table would stop Marshal at run time.
func TestEventLayouts(t *testing.T) {
	for m := member(0); m < memberCount; m++ {
		if members[m] == nil {
			t.Errorf("member %d has no writer", m)
		}
	}
	types := []Type{TypeSession, TypePosition, TypeMove, TypeRetract, TypePress, TypeComplete,
		TypeAnomaly, TypePeriod, TypeFlag, TypeEnd, TypeAdjust, TypePause, TypeClaim, TypeDecision}
	for _, ty := range types {
		if len(layouts[ty]) == 0 {
			t.Errorf("type %s has no layout", ty)
		}
	}
	if len(layouts) != len(types) {
		t.Errorf("%d layouts for %d types", len(layouts), len(types))
	}
}
