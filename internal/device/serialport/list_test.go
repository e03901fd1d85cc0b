package serialport

import "testing"

func TestLikelyByName(t *testing.T) {
	for _, tt := range []struct {
		names  []string
		likely bool
	}{
		{[]string{"/dev/cu.DGT_BT_22A7-SPPDev"}, true},
		{[]string{"/dev/ttyUSB0", "/dev/serial/by-id/usb-DGT_Projects_DGT_e-Board-if00-port0"}, true},
		{[]string{"/dev/cu.usbserial-A9XYZ"}, false},
		{[]string{"COM3"}, false},
		{[]string{"/dev/ttyS0", ""}, false},
		{nil, false},
	} {
		if got := LikelyByName(tt.names...) != ""; got != tt.likely {
			t.Errorf("LikelyByName(%q) = %q", tt.names, LikelyByName(tt.names...))
		}
	}
}
