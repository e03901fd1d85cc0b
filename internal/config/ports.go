package config

import (
	"net"
	"regexp"
	"strconv"
	"strings"

	"github.com/arbiterd/arbiterd/internal/i18n"
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
func portProblem(goos, port string) error {
	if rest, ok := strings.CutPrefix(port, NetPrefix); ok {
		host, p, err := net.SplitHostPort(rest)
		if err != nil || host == "" {
			return i18n.Errorf("config.port.tcp", port)
		}
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return i18n.Errorf("config.port.tcp-port", port, p)
		}
		return nil
	}
	if strings.Contains(port, "://") {
		return i18n.Errorf("config.port.scheme", port)
	}
	if goos == "windows" {
		switch {
		case strings.HasPrefix(port, "/"):
			return i18n.Errorf("config.port.unix-on-windows", port)
		case !windowsDevice.MatchString(port):
			return i18n.Errorf("config.port.not-windows", port)
		}
		return nil
	}
	if comPort.MatchString(port) {
		return i18n.Errorf("config.port.windows-name", port)
	}
	return nil
}
