package scaleout

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Every event line of the reconciliation's golden streams reads back to
// the event that writes it byte for byte.
func TestParseEventRoundTrip(t *testing.T) {
	files, err := filepath.Glob("../../rules/reconcile/testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden streams: %v", err)
	}
	types := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			e, err := ParseEvent(sc.Bytes())
			if err != nil {
				t.Fatalf("%s:%d: %v", f, n, err)
			}
			types[string(e.Type)]++
		}
	}
	for _, typ := range []string{"session", "position", "move", "press", "complete", "anomaly", "flag", "end", "retract", "period"} {
		if types[typ] == 0 {
			t.Errorf("no %s event in the golden streams: the round trip is not tested for it", typ)
		}
	}
}

func TestParseEventRejects(t *testing.T) {
	for _, line := range []string{
		``, `hello`, `{"type":"move"}`,
		`{"type":"press","board":"1","t":1.5,"seq":3,"side":"white","clock":{"white":1.0,"black":2.0}}`, // t not 6 decimals
		`{"type":"session","board":"1","t":0.000000,"seq":1,"port":"board","state":"start"}`,            // field order
		`{"type":"session","board":"1","t":0.000000,"seq":1,"state":"start","port":"board","x":1}`,      // extra field
		`{"type":"press","board":"1","t":1.000000,"seq":3,"side":"white","clock":{"white":1.0001,"black":2.0}}`,
	} {
		if _, err := ParseEvent([]byte(line)); !errors.Is(err, ErrNotEvent) {
			t.Errorf("ParseEvent(%q) = %v, want ErrNotEvent", line, err)
		}
	}
}
