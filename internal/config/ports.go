package config

import (
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
)

// NetPrefix starts a board's or clock's port that is a raw TCP byte
// stream (a serial server, ser2net, an ESP32 bridge, arbiterd emulate
// --listen): tcp://HOST:PORT.
const NetPrefix = "tcp://"

// windowsDevice is a Windows device name, with or without the device
// namespace prefix: COM3, \\.\COM12, \\.\CNCA0 (a virtual port).
var windowsDevice = regexp.MustCompile(`^(?:\\\\\.\\)?[A-Za-z][A-Za-z0-9_-]*$`)

// portProblem says why port cannot be a board's or clock's port on the
// system goos ("" when it can be): a tcp:// address must be HOST:PORT;
// on Windows a serial port is a COM name (a Unix device path, a file path
// is none); elsewhere a device path (a COM name is none).
func portProblem(goos, port string) string {
	if rest, ok := strings.CutPrefix(port, NetPrefix); ok {
		host, p, err := net.SplitHostPort(rest)
		if err != nil || host == "" {
			return fmt.Sprintf("%q: a network port is tcp://HOST:PORT, e.g. tcp://192.168.1.20:4001", port)
		}
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("%q: the TCP port %q is not a number from 1 to 65535", port, p)
		}
		return ""
	}
	if strings.Contains(port, "://") {
		return fmt.Sprintf("%q: the only network ports are tcp://HOST:PORT", port)
	}
	if goos == "windows" {
		switch {
		case strings.HasPrefix(port, "/"):
			return fmt.Sprintf("%q is a Unix device path: on Windows a serial port is a COM port, such as COM3 (arbiterd ports lists them), or tcp://HOST:PORT for a board on the network", port)
		case !windowsDevice.MatchString(port):
			return fmt.Sprintf("%q is not a port: on Windows a serial port is a COM port, such as COM3 (arbiterd ports lists them), or tcp://HOST:PORT for a board on the network", port)
		}
		return ""
	}
	if comPort.MatchString(port) {
		return fmt.Sprintf("%q is a Windows port name: on this system a serial port is a device path, such as /dev/ttyUSB0 or /dev/serial/by-id/… (arbiterd ports lists them), or tcp://HOST:PORT for a board on the network", port)
	}
	return ""
}
