package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const goodYAML = `data: /var/lib/arbiterd
listen: 127.0.0.1:9090
event: Club Championship
round: "3"
log_format: json
boards:
  - number: 1
    port: /dev/serial/by-id/usb-DGT_board_1
    white: Carlsen, Magnus
    black: Nepomniachtchi, Ian
    timecontrol: 40/5400+30:1800+30
    clock_white: left
  - number: 2
    port: /dev/ttyUSB1
    clock:
      port: /dev/ttyACM0
      driver: lineclock
    timecontrol: 900+10
    start_fen: 4k3/8/8/8/8/8/8/4K2R w K - 0 1
`

const goodTOML = `data = "/var/lib/arbiterd"
round = "3"

[[boards]]
number = 1
port = "/dev/ttyUSB0"
timecontrol = "90+30"

[[boards]]
number = 2
port = "/dev/ttyUSB1"
timecontrol = "900+10"
clock_white = "right"
[boards.clock]
port = "/dev/ttyACM0"
driver = "lineclock"
`

func TestParseGood(t *testing.T) {
	c, err := Parse("event.yaml", []byte(goodYAML))
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "127.0.0.1:9090" || c.Round != "3" || c.LogFormat != "json" || c.LogLevel != "info" || len(c.Boards) != 2 {
		t.Fatalf("config %+v", c)
	}
	b := c.Boards[1]
	if b.Driver != "dgt" || b.ClockWhite != "auto" || b.Clock == nil || b.Clock.Port != "/dev/ttyACM0" || b.ID() != "2" {
		t.Errorf("board 2 %+v", b)
	}
	tc, err := Parse("event.toml", []byte(goodTOML))
	if err != nil {
		t.Fatal(err)
	}
	if tc.Listen != DefaultListen || len(tc.Boards) != 2 || tc.Boards[1].Clock == nil || tc.Boards[1].ClockWhite != "right" {
		t.Fatalf("toml config %+v", tc)
	}
}

func TestLoadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "arbiterd.yml")
	if err := os.WriteFile(p, []byte(goodYAML), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
}

// TestErrors changes one thing in a good configuration and checks that
// the error names the setting (and, for YAML, the line).
func TestErrors(t *testing.T) {
	tests := []struct {
		name, file, from, to string
		want                 []string // all must appear in the error
	}{
		{"bad timecontrol", "c.yaml", "900+10", "900+x", []string{"c.yaml:18: boards[1].timecontrol:"}},
		{"missing timecontrol", "c.yaml", "    timecontrol: 900+10\n", "", []string{"boards[1].timecontrol: missing"}},
		{"bad clock side", "c.yaml", "clock_white: left", "clock_white: middle", []string{"c.yaml:12: boards[0].clock_white:"}},
		{"bad fen", "c.yaml", "4k3/8/8/8/8/8/8/4K2R w K - 0 1", "4k3/8/8/8/8/8/8/4K2R w K - 0 x", []string{"c.yaml:19: boards[1].start_fen:"}},
		{"board number zero", "c.yaml", "number: 2", "number: 0", []string{"c.yaml:13: boards[1].number:"}},
		{"duplicate number", "c.yaml", "number: 2", "number: 1", []string{"boards[1].number: board 1 is already boards[0]"}},
		{"duplicate port", "c.yaml", "/dev/ttyUSB1", "/dev/serial/by-id/usb-DGT_board_1", []string{"boards[1].port: port /dev/serial/by-id/usb-DGT_board_1 is already boards[0].port"}},
		{"missing port", "c.yaml", "    port: /dev/ttyUSB1\n", "", []string{"boards[1].port: missing"}},
		{"bad driver", "c.yaml", "    port: /dev/ttyUSB1\n", "    port: /dev/ttyUSB1\n    driver: chessup\n", []string{"boards[1].driver:", "chessup"}},
		{"bad clock driver", "c.yaml", "driver: lineclock", "driver: dgt3000", []string{"c.yaml:17: boards[1].clock.driver:"}},
		{"missing clock port", "c.yaml", "      port: /dev/ttyACM0\n", "", []string{"boards[1].clock.port: missing"}},
		{"bad listen", "c.yaml", "127.0.0.1:9090", "localhost", []string{"c.yaml:2: listen:"}},
		{"bad listen port", "c.yaml", "127.0.0.1:9090", "127.0.0.1:http99", []string{"listen: port"}},
		{"bad round", "c.yaml", `round: "3"`, `round: "../3"`, []string{"c.yaml:4: round:"}},
		{"bad log format", "c.yaml", "log_format: json", "log_format: xml", []string{"c.yaml:5: log_format:"}},
		{"bad default time", "c.yaml", `round: "3"`, "round: \"3\"\ndefault_time: half an hour", []string{"default_time:", "half an hour", "30m"}},
		{"negative default time", "c.yaml", `round: "3"`, "round: \"3\"\ndefault_time: -30m", []string{"default_time:"}},
		{"unknown key", "c.yaml", "    white: Carlsen", "    whte: Carlsen", []string{"c.yaml:9: boards[0].whte: unknown setting: did you mean \"white\"?"}},
		{"unknown top key", "c.yaml", "event:", "evnt:", []string{"evnt"}},
		{"no boards", "c.yaml", goodYAML[strings.Index(goodYAML, "boards:"):], "", []string{"boards: no boards"}},
		{"not yaml", "c.yaml", "boards:\n", "boards: [\n", []string{"c.yaml", "YAML"}},
		{"wrong type", "c.yaml", "number: 2", "number: two", []string{`c.yaml:13: boards[1].number: "two" where a whole number belongs`}},
		{"unknown format", "c.json", "", "", []string{"c.json", "unknown configuration format"}},
		{"toml bad timecontrol", "c.toml", `"90+30"`, `"90+"`, []string{"c.toml:7: boards[0].timecontrol:"}},
		{"toml unknown key", "c.toml", "clock_white", "clok_white", []string{"c.toml:13: boards[1].clok_white: unknown setting"}},
		{"toml syntax", "c.toml", `round = "3"`, `round = "3`, []string{"c.toml:2:", "TOML"}},
		{"two errors at once", "c.yaml", "clock_white: left", "clock_white: middle\n    start_fen: nonsense", []string{"boards[0].clock_white", "boards[0].start_fen"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := goodYAML
			if strings.HasSuffix(tt.file, ".toml") {
				src = goodTOML
			}
			if tt.from != "" && !strings.Contains(src, tt.from) {
				t.Fatalf("test setup: %q not in the good file", tt.from)
			}
			bad := strings.Replace(src, tt.from, tt.to, 1)
			_, err := Parse(tt.file, []byte(bad))
			if err == nil {
				t.Fatalf("no error for\n%s", bad)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// FuzzParse: whatever the file holds, Parse returns a config or an error,
// never panics, and a config it returns validates.
func FuzzParse(f *testing.F) {
	f.Add("c.yaml", goodYAML)
	f.Add("c.toml", goodTOML)
	f.Add("c.yaml", "boards: [{number: 1}]")
	f.Add("c.yaml", "boards:\n  - number: 1.5\n    port: 42\n    time_control: 90+30\n    clock: /dev/x\nlichess: [x]\n<<: {a: 1}\n")
	f.Add("c.toml", "[[boards]]\nnumber = \"2\"\nport = 42\n[boards.clock]\nprot = 1\nnote = \"\"\"\n[x]\n\"\"\"\n")
	f.Fuzz(func(t *testing.T, name, data string) {
		c, err := Parse(name, []byte(data))
		if err == nil {
			if verr := c.Validate(); verr != nil {
				t.Fatalf("Parse accepted what Validate rejects: %v", verr)
			}
		}
	})
}

// TestExamples: the example configurations in docs/examples are valid.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "docs", "examples", "*"))
	if err != nil || len(files) == 0 {
		t.Skip("docs/examples not found")
	}
	for _, f := range files {
		// Each example is for the system its ports are written for.
		goos := "linux"
		if strings.Contains(filepath.Base(f), "windows") {
			goos = "windows"
		}
		if _, err := LoadFile(f, func(name string, data []byte) (*Config, error) { return parse(name, data, goos) }); err != nil {
			t.Errorf("%v", err)
		}
	}
}

// On Windows serial ports are COM ports (a Bluetooth board's too): COM
// names are accepted, and the same port written another way (com3, or
// with the \\.\ prefix) is refused as a duplicate.
func TestCOMPorts(t *testing.T) {
	win := strings.NewReplacer("/dev/serial/by-id/usb-DGT_board_1", "COM3", "/dev/ttyUSB1", `\\.\COM12`, "/dev/ttyACM0", "COM4").Replace(goodYAML)
	c, err := parse("c.yaml", []byte(win), "windows")
	if err != nil {
		t.Fatal(err)
	}
	if c.Boards[0].Port != "COM3" || c.Boards[1].Port != `\\.\COM12` || c.Boards[1].Clock.Port != "COM4" {
		t.Errorf("ports %q %q %q", c.Boards[0].Port, c.Boards[1].Port, c.Boards[1].Clock.Port)
	}
	toml := strings.NewReplacer(`"/dev/ttyUSB0"`, `'COM3'`, `"/dev/ttyUSB1"`, `'\\.\COM12'`, `"/dev/ttyACM0"`, `"COM4"`).Replace(goodTOML)
	if c, err := parse("c.toml", []byte(toml), "windows"); err != nil || c.Boards[1].Port != `\\.\COM12` {
		t.Errorf("TOML: %v", err)
	}
	for _, dup := range []string{"com3", `\\.\COM3`, "COM3"} {
		_, err := parse("c.yaml", []byte(strings.Replace(win, `\\.\COM12`, dup, 1)), "windows")
		if err == nil || !strings.Contains(err.Error(), "boards[1].port: port "+dup+" is already boards[0].port") {
			t.Errorf("%s beside COM3: %v", dup, err)
		}
	}
	for port, key := range map[string]string{"COM3": "COM3", "com10": "COM10", `\\.\com12`: "COM12", "/dev/ttyUSB0": "/dev/ttyUSB0", "COM": "COM", "COM3x": "COM3x"} {
		if got := portKey(port); got != key {
			t.Errorf("portKey(%q) = %q, want %q", port, got, key)
		}
	}
}

// The round's default time (6.7.1) reads as a duration; absent or 0 is
// not checked.
func TestDefaultTime(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "0": 0, "30m": 30 * time.Minute, "1h": time.Hour} {
		c := Config{DefaultTime: in}
		if got, err := c.DefaultTimeDuration(); err != nil || got != want {
			t.Errorf("default_time %q: %v, %v; want %v", in, got, err, want)
		}
	}
}
