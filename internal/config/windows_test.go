package config

import (
	"strings"
	"testing"
)

// A Windows path in double quotes is an error naming the line and the fix,
// whether the escape it starts is invalid (\U, \a) or silently a control
// character (\n); single quotes, forward slashes, doubled backslashes and
// Unicode escapes read as written.
func TestBackslashPaths(t *testing.T) {
	board := "\nboards:\n  - number: 1\n    port: COM3\n    timecontrol: 90+30\n"
	for _, c := range []struct{ name, file, want string }{
		{"c.yaml", "event: Open\ndata: \"C:\\Users\\arbiter\\data\"" + board, `c.yaml:2: YAML: in double quotes a backslash starts an escape (\U here), so "C:\Users\arbiter\data" is not read as written: put it in single quotes ('C:\Users\arbiter\data'), which take a backslash as it is, or write it with forward slashes ("C:/Users/arbiter/data")`},
		{"c.yaml", "data: \"C:\\new folder\\arbiterd\"  # a line break and a bell" + board, `c.yaml:1: YAML: in double quotes a backslash starts an escape (\n here)`},
		{"c.yaml", "data: 'C:\\arbiterd'\nbroadcast: \"D:\\Broadcast\\Open\"" + board, `c.yaml:2: YAML: `},
		{"c.toml", "event = \"Open\"\n\ndata = \"C:\\arbiterd\\data\"\n[[boards]]\nnumber = 1\nport = 'COM3'\ntimecontrol = \"90+30\"\n", `c.toml:3: TOML: in double quotes a backslash starts an escape (\a here), so "C:\arbiterd\data" is not read as written: put it in single quotes ('C:\arbiterd\data')`},
	} {
		_, err := parse(c.name, []byte(c.file), "windows")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.file, err, c.want)
		}
	}
	for _, file := range []string{
		"data: 'C:\\arbiterd\\data'\nevent: \"Open \\\"de\\\" Gen\\u00e8ve\"" + board,
		"data: \"C:/arbiterd/data\"" + board,
		"data: \"C:\\\\arbiterd\\\\data\"  # \"C:\\not read\"" + board,
		"data: C:\\arbiterd\\data" + board, // plain scalars have no escapes
		// a block scalar's text is literal: quotes and backslashes as written
		"data: C:/arbiterd\nevent: >-\n  Open \"C:\\Events\\2026\"\n  second line\nsite: >-\n    \"D:\\x\"" + board,
	} {
		c, err := parse("ok.yaml", []byte(file), "windows")
		if err != nil {
			t.Errorf("%q: %v", file, err)
			continue
		}
		if !strings.HasPrefix(c.Data, "C:") || strings.ContainsAny(c.Data, "\n\a") {
			t.Errorf("%q: data %q", file, c.Data)
		}
	}
}

// A port that cannot be a port on the system is a configuration error
// naming the setting and line: a Unix device path or a file path on
// Windows, a COM name elsewhere, a malformed tcp:// address anywhere.
func TestPortsForTheSystem(t *testing.T) {
	cases := []struct{ goos, port, want string }{
		{"windows", "/dev/ttyUSB0", "is a Unix device path: on Windows a serial port is a COM port"},
		{"windows", `C:\arbiterd\board.txt`, "is not a port: on Windows a serial port is a COM port"},
		{"linux", "COM3", "is a Windows port name: on this system a serial port is a device path"},
		{"darwin", `\\.\COM12`, "is a Windows port name"},
		{"linux", "tcp://192.168.1.20", "a network port is tcp://HOST:PORT"},
		{"windows", "tcp://:4001", "a network port is tcp://HOST:PORT"},
		{"linux", "tcp://pi.local:70000", "is not a number from 1 to 65535"},
		{"linux", "udp://pi.local:4001", "the only network ports are tcp://HOST:PORT"},
	}
	for _, c := range cases {
		file := "boards:\n  - number: 1\n    timecontrol: 90+30\n    port: '" + c.port + "'\n"
		_, err := parse("c.yaml", []byte(file), c.goos)
		if err == nil || !strings.Contains(err.Error(), "c.yaml:4: boards[0].port: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s, %s: %v", c.goos, c.port, err)
		}
	}
	clock := "boards:\n  - number: 1\n    timecontrol: 90+30\n    port: COM3\n    clock:\n      port: /dev/ttyACM0\n      driver: lineclock\n"
	if _, err := parse("c.yaml", []byte(clock), "windows"); err == nil || !strings.Contains(err.Error(), "c.yaml:6: boards[0].clock.port: ") {
		t.Errorf("a Unix clock port on Windows: %v", err)
	}
	for _, goos := range []string{"windows", "linux", "darwin"} {
		for _, port := range []string{"tcp://192.168.1.20:4001", "tcp://[fe80::1]:4001", "tcp://pi.local:2000"} {
			if p := portProblem(goos, port); p != nil {
				t.Errorf("%s, %s: %s", goos, port, p)
			}
		}
	}
	for _, port := range []string{"COM3", `\\.\COM12`, `\\.\CNCA0`} {
		if p := portProblem("windows", port); p != nil {
			t.Errorf("windows, %s: %s", port, p)
		}
	}
	for _, port := range []string{"/dev/ttyUSB0", "/dev/serial/by-id/usb-DGT_board_1", "/tmp/arbiterd-board-1", "board-link"} {
		if p := portProblem("linux", port); p != nil {
			t.Errorf("linux, %s: %s", port, p)
		}
	}
}

// A configuration saved by a Windows editor — with a byte-order mark, as
// UTF-16 or in Windows-1252 — reads as the same settings.
func TestConfigEncodings(t *testing.T) {
	const file = "event: Open de Genève\nboards:\n  - number: 1\n    port: /dev/ttyUSB0\n    white: \"Réti, Richard\"\n    timecontrol: 90+30\n"
	le := []byte{0xFF, 0xFE}
	for _, r := range file {
		le = append(le, byte(r), byte(r>>8))
	}
	for name, data := range map[string][]byte{
		"bom": append([]byte{0xEF, 0xBB, 0xBF}, file...), "utf-16": le,
		"windows-1252": []byte(strings.NewReplacer("è", "\xe8", "é", "\xe9").Replace(file)),
	} {
		c, err := parse("c.yaml", data, "linux")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if c.Event != "Open de Genève" || c.Boards[0].White != "Réti, Richard" {
			t.Errorf("%s: event %q, white %q", name, c.Event, c.Boards[0].White)
		}
	}
}
