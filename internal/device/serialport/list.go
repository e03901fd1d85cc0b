package serialport

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"go.bug.st/serial"
)

// Info describes one serial port.
type Info struct {
	Path         string `json:"path"`
	ByID         string `json:"by_id,omitempty"` // stable /dev/serial/by-id name, if any
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

// LikelyByName returns what kind of board a port's name suggests, or "":
// a name saying DGT, as a DGT board's Bluetooth port is named on macOS
// (/dev/cu.DGT_BT_…) or its stable name on Linux
// (/dev/serial/by-id/usb-DGT_…). It is the hint left when the USB details
// are not known.
func LikelyByName(names ...string) string {
	for _, n := range names {
		if n != "" && strings.Contains(strings.ToUpper(filepath.Base(n)), "DGT") {
			return "DGT board? (named " + strconvQuote(filepath.Base(n)) + ")"
		}
	}
	return ""
}

// ByIDDir is where udev keeps stable names for USB serial devices (Linux).
const ByIDDir = "/dev/serial/by-id"

// ErrNoDetails says that this build of arbiterd cannot read USB details:
// on macOS they come through cgo (IOKit), and a build without cgo lists
// the ports by name only.
var ErrNoDetails = errors.New("USB details are not available in this build (macOS without cgo): ports are listed by name only")

// usbPort is what the system tells of a USB serial port.
type usbPort struct {
	VID, PID, SerialNumber, Product string
}

// List returns the serial ports of this machine, sorted by path, with USB
// details and the stable /dev/serial/by-id name where the system has them
// (the paths are COM names on Windows). No ports is an empty list, not an
// error. When the port names were found but their USB details could not be
// read (ErrNoDetails where the build cannot read them), List returns the
// ports without details together with an error saying why; the ports whose
// names say DGT are still marked.
func List() ([]Info, error) {
	names, err := serial.GetPortsList()
	if err != nil {
		return nil, fmt.Errorf("serialport: listing ports: %w", err)
	}
	usb, derr := usbDetails()
	links := byIDLinks(ByIDDir)
	out := make([]Info, 0, len(names))
	for _, name := range names {
		in := Info{Path: name, ByID: links[name]}
		if d, ok := usb[name]; ok {
			in.USB = true
			in.VID, in.PID = strings.ToLower(d.VID), strings.ToLower(d.PID)
			in.SerialNumber, in.Product = d.SerialNumber, d.Product
			in.Likely = Likely(in.VID, in.PID, in.Product)
		}
		if in.Likely == "" {
			in.Likely = LikelyByName(in.Path, in.ByID)
		}
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	if errors.Is(derr, ErrNoDetails) {
		return out, fmt.Errorf("serialport: %w", derr)
	}
	if derr != nil {
		return out, fmt.Errorf("serialport: reading USB details: %w", derr)
	}
	return out, nil
}

// byIDLinks maps device paths to their stable names in dir (missing dir:
// no names).
func byIDLinks(dir string) map[string]string {
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		link := filepath.Join(dir, e.Name())
		target, err := filepath.EvalSymlinks(link)
		if err == nil {
			out[target] = link
		}
	}
	return out
}
