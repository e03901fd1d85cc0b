package serialport

import (
	"fmt"
	"sort"
	"strings"

	"go.bug.st/serial/enumerator"
)

// Info describes one serial port.
type Info struct {
	Path         string `json:"path"`
	USB          bool   `json:"usb"`
	VID          string `json:"vid,omitempty"` // USB vendor id, lower-case hex
	PID          string `json:"pid,omitempty"` // USB product id, lower-case hex
	SerialNumber string `json:"serial_number,omitempty"`
	Product      string `json:"product,omitempty"`
	// Likely names the kind of board the USB ids suggest ("" if none).
	Likely string `json:"likely,omitempty"`
}

// Likely returns what kind of board a port's USB details suggest, or "".
// A USB-serial bridge is generic, so a match means "likely", not
// "certainly":
//   - 0403:6001 is the FTDI FT232R, the bridge inside USB DGT boards (and
//     the DGT serial-to-USB cable); many other gadgets use it too.
//   - a product string naming DGT is the board's own word.
func Likely(vid, pid, product string) string {
	vid, pid = strings.ToLower(vid), strings.ToLower(pid)
	switch {
	case strings.Contains(strings.ToUpper(product), "DGT"):
		return "DGT board (product " + strconvQuote(product) + ")"
	case vid == "0403" && pid == "6001":
		return "DGT board? (FTDI FT232R, the bridge in USB DGT boards)"
	}
	return ""
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

// List returns the serial ports of this machine, sorted by path, with USB
// details where the system has them. No ports is an empty list, not an
// error.
func List() ([]Info, error) {
	ports, err := enumerator.GetDetailedPortsList()
	if err != nil {
		return nil, fmt.Errorf("serialport: listing ports: %w", err)
	}
	out := make([]Info, 0, len(ports))
	for _, p := range ports {
		in := Info{Path: p.Name, USB: p.IsUSB, SerialNumber: p.SerialNumber, Product: p.Product}
		if p.IsUSB {
			in.VID, in.PID = strings.ToLower(p.VID), strings.ToLower(p.PID)
			in.Likely = Likely(in.VID, in.PID, in.Product)
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}
