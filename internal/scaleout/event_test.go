package scaleout

import (
	"errors"
	"testing"
)

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
