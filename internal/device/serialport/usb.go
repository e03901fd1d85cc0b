//go:build !darwin || cgo

package serialport

import "go.bug.st/serial/enumerator"

// usbDetails returns the USB details of the USB serial ports, by port name
// (sysfs on Linux, the setup API on Windows, IOKit through cgo on macOS).
func usbDetails() (map[string]usbPort, error) {
	details, err := enumerator.GetDetailedPortsList()
	out := map[string]usbPort{}
	for _, d := range details {
		if d != nil && d.Name != "" && d.IsUSB {
			out[d.Name] = usbPort{VID: d.VID, PID: d.PID, SerialNumber: d.SerialNumber, Product: d.Product}
		}
	}
	return out, err
}
