package serialport

import (
	"errors"
	"strings"
	"syscall"
)

// checkDevice refuses a Unix device path: on Windows a serial port is a
// COM name (COM3, or \\.\COM12), whether the board hangs on USB or on
// Bluetooth. A COM port is no file to look at beforehand (opening it is
// the only test), so the serial library's answer says the rest.
func checkDevice(path string) error {
	if strings.HasPrefix(path, "/") {
		return &Error{Port: path, Op: "open", Err: ErrNotSerial,
			Cause: errors.New("a Unix device path: on Windows serial ports are COM ports, such as COM3 (arbiterd ports lists them)")}
	}
	return nil
}

// Windows errors of opening a port whose device cannot be reached now: a
// Bluetooth board switched off or out of range (the open waits, then
// ERROR_SEM_TIMEOUT), a USB adapter being unplugged.
const (
	errorPathNotFound       = syscall.Errno(3)
	errorGenFailure         = syscall.Errno(31)
	errorSemTimeout         = syscall.Errno(121)
	errorDeviceNotConnected = syscall.Errno(1167)
)

// systemOpenError classifies an opening failure the serial library left
// unclassified: an unreachable device is missing for now (retried), the
// rest is not a serial port.
func systemOpenError(err error) error {
	for _, e := range []syscall.Errno{errorPathNotFound, errorGenFailure, errorSemTimeout, errorDeviceNotConnected} {
		if errors.Is(err, e) {
			return ErrNotFound
		}
	}
	return ErrNotSerial
}
