package config

import (
	"strings"
	"testing"
)

// TestErrorsInWords: the mistakes a person makes in a first configuration,
// in either format, each reported with the file, the line, the setting's
// path and what to write instead, all at once.
func TestErrorsInWords(t *testing.T) {
	yamlFile := `data: /tmp/x
listen: 127.0.0.1:8080
boards:
  - number: 1.5
    port: 42
    time_control: 90+30
  - number: "2"
    port: /dev/ttyUSB1
    timecontrol: 90+30
    clock: /dev/ttyACM0
lichess: [x]
colour: white
`
	tomlFile := `data = "/tmp/x"

[[boards]]
number = 1.5
port = 42
time_control = "90+30"

[[boards]]
number = 2
port = "/dev/ttyUSB1"
timecontrol = "90+30"
[boards.clock]
prot = "/dev/ttyACM0"
`
	tests := []struct {
		file, src string
		want      []string
	}{
		{"a.yaml", yamlFile, []string{
			"a.yaml:4: boards[0].number: 1.5 is not a whole number",
			"a.yaml:5: boards[0].port: the number 42 is not a serial port: write the device's name",
			`a.yaml:6: boards[0].time_control: unknown setting: did you mean "timecontrol"?`,
			`a.yaml:7: boards[1].number: "2" is text: write the number without quotes`,
			`a.yaml:10: boards[1].clock: the text "/dev/ttyACM0" where settings (key: value) belong`,
			"a.yaml:11: lichess: a list where settings (key: value) belong",
			"a.yaml:12: colour: unknown setting (the settings here are data, listen, event",
		}},
		{"a.toml", tomlFile, []string{
			"a.toml:4: boards[0].number: 1.5 is not a whole number",
			"a.toml:5: boards[0].port: the number 42 is not a serial port",
			`a.toml:6: boards[0].time_control: unknown setting: did you mean "timecontrol"?`,
			`a.toml:13: boards[1].clock.prot: unknown setting: did you mean "port"?`,
		}},
		// Syntax errors carry their line in both formats.
		{"b.toml", "data = \"x\"\n[[boards]]\nnumber = 1\nport = /dev/x\n", []string{"b.toml:4: TOML: expected value"}},
		{"b.yaml", "data: x\nboards:\n  - number: 1\n    port: [x\n", []string{"b.yaml:", "YAML:"}},
		// Validation errors of a TOML file name their line too.
		{"c.toml", "[[boards]]\nnumber = 1\nport = \"/dev/x\"\n\n[[boards]]\nnumber = 1\nport = \"/dev/y\"\ntimecontrol = \"90+x\"\n",
			[]string{"c.toml:1: boards[0].timecontrol: missing", "c.toml:6: boards[1].number: board 1 is already boards[0]", "c.toml:8: boards[1].timecontrol:"}},
	}
	for _, tt := range tests {
		_, err := Parse(tt.file, []byte(tt.src))
		if err == nil {
			t.Errorf("%s: no error", tt.file)
			continue
		}
		got := err.Error()
		if strings.Contains(got, "config.Board") || strings.Contains(got, "!!") || strings.Contains(got, "unmarshal") {
			t.Errorf("%s: the error speaks Go, not configuration: %s", tt.file, got)
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: error\n%s\ndoes not contain\n%s", tt.file, got, w)
			}
		}
	}
}

// A quoted number is a port name like any other, and a round may be a
// number: the checks refuse numbers only where no number belongs.
func TestNumbersWhereTextIsMeant(t *testing.T) {
	src := "round: 3\nevent: 2026\nboards:\n  - number: 1\n    port: \"42\"\n    timecontrol: 5400+30\n    white: 1\n"
	c, err := Parse("r.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.Round != "3" || c.Event != "2026" || c.Boards[0].Port != "42" || c.Boards[0].White != "1" {
		t.Errorf("config %+v", c)
	}
}

func TestTOMLLines(t *testing.T) {
	src := `data = "x" # a comment
note = """
[[boards]]
number = 7
"""
[lichess]
round_id = "abc"

[[boards]]
number = 1
clock.port = "/dev/a"

[[boards]]
  number = 2
  [boards.clock]
  port = "/dev/b"
`
	lines := tomlLines(src)
	for field, want := range map[string]int{
		"data": 1, "lichess": 6, "lichess.round_id": 7, "boards": 9, "boards[0]": 9, "boards[0].number": 10,
		"boards[0].clock.port": 11, "boards[1].number": 14, "boards[1].clock": 15, "boards[1].clock.port": 16,
	} {
		if got := tomlLine(lines, field); got != want {
			t.Errorf("%s: line %d, want %d", field, got, want)
		}
	}
	if got := tomlLine(lines, "boards[1].white"); got != 13 {
		t.Errorf("a setting not in the file: line %d, want its board's (13)", got)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"number", "port", "timecontrol", "clock_white", "start_fen"}
	for key, want := range map[string]string{"time_control": "timecontrol", "TimeControl": "timecontrol", "prot": "port",
		"clock-white": "clock_white", "startfen": "start_fen", "colour": "", "nmber": "number"} {
		if got := closest(key, names); got != want {
			t.Errorf("closest(%q) = %q, want %q", key, got, want)
		}
	}
}
