package rules

import "testing"

func TestQuickForward(t *testing.T) {
	g, err := NewGame("")
	if err != nil {
		t.Fatal(err)
	}
	h, _ := NewGame("")
	for _, m := range []string{"e2e4", "e7e5", "g1f3", "b8c6"} {
		if err := h.MoveUCI(m); err != nil {
			t.Fatal(err)
		}
	}
	r := Reconstruct(g, SnapshotOf(h.Position()), Options{})
	if r.Kind != Ambiguous || len(r.Candidates) != 4 {
		t.Fatalf("got %+v", r)
	}
	if h.FEN() != h.Position().String() {
		t.Fatalf("%s vs %s", h.FEN(), h.Position().String())
	}
	for i := 1; i <= 4; i++ {
		t.Log(h.SAN(i))
	}
}
