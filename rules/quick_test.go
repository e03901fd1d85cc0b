package rules

import "testing"

func TestQuickForward(t *testing.T) {
	g, err := NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := NewGame("")
	for _, m := range []string{"e2e4", "e7e5"} {
		if err := h.MoveUCI(m); err != nil {
			t.Fatal(err)
		}
	}
	r := Reconstruct(g, SnapshotOf(h.Position()), Options{})
	if r.Kind != Forward || len(r.Moves) != 2 || r.Moves[0].String() != "e2e4" {
		t.Fatalf("got %+v", r)
	}
}
