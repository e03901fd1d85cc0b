package dgt_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
)

func TestClockCommands(t *testing.T) {
	mustB := func(b []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name string
		got  []byte
		want []byte
	}{
		{"version", dgt.ClockVersionCommand(), []byte{0x2b, 0x03, 0x03, 0x09, 0x00}},
		{"end display", dgt.EndDisplay(), []byte{0x2b, 0x03, 0x03, 0x03, 0x00}},
		{"beep 1s", mustB(dgt.Beep(time.Second)), []byte{0x2b, 0x04, 0x03, 0x0b, 0x10, 0x00}},
		{"set and run", mustB(dgt.SetAndRun(90*time.Minute+5*time.Second, 2*time.Hour+59*time.Minute, dgt.RunRight)),
			[]byte{0x2b, 0x0a, 0x03, 0x0a, 1, 30, 5, 2, 59, 0, 0x02, 0x00}},
		{"text", mustB(dgt.DisplayText("e4", 0)),
			[]byte{0x2b, 0x0c, 0x03, 0x0c, 'e', '4', ' ', ' ', ' ', ' ', ' ', ' ', 0, 0x00}},
		{"raw", mustB(dgt.ClockCommand(dgt.ClockIcons, 1, 2, 3)), []byte{0x2b, 0x06, 0x03, 0x02, 1, 2, 3, 0x00}},
	}
	for _, tt := range tests {
		if !bytes.Equal(tt.got, tt.want) {
			t.Errorf("%s: % x, want % x", tt.name, tt.got, tt.want)
		}
		if int(tt.got[1]) != len(tt.got)-2 {
			t.Errorf("%s: size byte %d does not count the %d bytes after it", tt.name, tt.got[1], len(tt.got)-2)
		}
	}
}

func TestClockCommandErrors(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"bit 7 command", second(dgt.ClockCommand(0x80)), "bit 7"},
		{"bit 7 payload", second(dgt.ClockCommand(dgt.ClockIcons, 1, 0x90)), "payload byte 1"},
		{"long payload", second(dgt.ClockCommand(dgt.ClockIcons, make([]byte, 200)...)), "too long"},
		{"10 hours", second(dgt.SetAndRun(10*time.Hour, 0, dgt.RunLeft)), "left face"},
		{"negative", second(dgt.SetAndRun(0, -time.Second, dgt.RunLeft)), "right face"},
		{"bad side", second(dgt.SetAndRun(0, 0, 7)), "running side"},
		{"long text", second(dgt.DisplayText("123456789", 0)), "longer than 8"},
		{"unprintable", second(dgt.DisplayText("a\tb", 0)), "not printable"},
		{"long beep", second(dgt.DisplayText("x", 49)), "beep"},
		{"beep 4s", second(dgt.Beep(4 * time.Second)), "outside"},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tt.name, tt.err, tt.want)
		}
	}
}

func second(_ []byte, err error) error { return err }
