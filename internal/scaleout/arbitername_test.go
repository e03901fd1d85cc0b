package scaleout

import (
	"bytes"
	"testing"

	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// A claim and a decision that name their arbiter reach the hall with the
// name, byte for byte.
func TestParseEventKeepsTheArbiter(t *testing.T) {
	for _, line := range []string{
		`{"type":"decision","board":"4","t":13.000000,"seq":6,"side":"white","claim":5,"decision":"postponed","article":"10.2","reason":"Postponed.","arbiter":"Anna Novak"}`,
		`{"type":"decision","board":"4","t":13.000000,"seq":6,"side":"white","claim":5,"decision":"postponed","article":"10.2","reason":"Postponed."}`,
	} {
		e, err := ParseEvent([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got := reconcile.Marshal(e); !bytes.Equal(got, []byte(line)) {
			t.Errorf("read back as\n%s\nwant\n%s", got, line)
		}
	}
}
