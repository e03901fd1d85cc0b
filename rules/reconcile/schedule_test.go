package reconcile

import (
	"strings"
	"testing"
)

// Every deadline kind has a name of its own.
func TestDeadlineKindNames(t *testing.T) {
	seen := map[string]bool{}
	for k := deadlineKind(0); k <= dueNothing; k++ {
		n := k.String()
		if n == "" || strings.HasPrefix(n, "deadlineKind(") || seen[n] {
			t.Errorf("deadline kind %d is named %q", int(k), n)
		}
		seen[n] = true
	}
	if got := (dueNothing + 1).String(); got != "deadlineKind(13)" {
		t.Errorf("an unknown kind is named %q", got)
	}
}
