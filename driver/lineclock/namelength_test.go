package lineclock

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestNameLength is the regression test for a fuzz finding: the decoder
// accepted a serial of 33 characters, which the protocol (1–32) and the
// encoder refuse, so a decoded HELLO could not be encoded back.
func TestNameLength(t *testing.T) {
	for _, tc := range []struct {
		serial string
		ok     bool
	}{
		{strings.Repeat("C", 32), true},
		{strings.Repeat("C", 33), false},
		{"C33333333333333333333333333333317", false},
	} {
		body := "HELLO lineclock 1 DGT-L20 " + tc.serial
		line := fmt.Sprintf("%s*%02X", body, checksum([]byte(body)))
		m, err := Decode([]byte(line))
		if tc.ok {
			if err != nil {
				t.Errorf("%q: %v", line, err)
				continue
			}
			if _, err := Encode(m); err != nil {
				t.Errorf("%q decoded but does not encode: %v", line, err)
			}
			continue
		}
		if !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), "at most 32") {
			t.Errorf("%q: error %v, want a syntax error saying at most 32 characters", line, err)
		}
	}
}
