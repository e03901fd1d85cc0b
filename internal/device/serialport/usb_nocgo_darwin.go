//go:build darwin && !cgo

package serialport

// usbDetails cannot read USB details: on macOS go.bug.st/serial reads them
// from IOKit through cgo, and this build has none.
func usbDetails() (map[string]usbPort, error) { return nil, ErrNoDetails }
