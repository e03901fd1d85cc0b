package decode_test

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/lineclock"
	"github.com/arbiterd/arbiterd/internal/journal/decode"
)

// A capture with a board and a separate lineclock clock: both ports are
// decoded, each with its own decoder and counters; a clock line cut by the
// end of the capture is not decoded, as the event stream never acts on it
// (the clock never finished sending it).
func TestReplayLineclockPort(t *testing.T) {
	enc := func(m lineclock.Message) string {
		b, err := lineclock.Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		return hex.EncodeToString(b)
	}
	hello := enc(lineclock.Hello{Version: 1, Model: "LC-2", Serial: "00A17"})
	status := enc(lineclock.Status{Seq: 0, Left: 5400 * time.Second, Right: 5400 * time.Second})
	press := enc(lineclock.Press{Seq: 1, Face: clockd.Left, Left: 5421 * time.Second, Right: 5400 * time.Second})
	flag := enc(lineclock.Flag{Seq: 3, Face: clockd.Right, Right: 0, Left: 5000 * time.Second}) // seq 2 lost
	late := enc(lineclock.Status{Seq: 4, Left: 5000 * time.Second})
	cut := late[:len(late)-2] // no newline: the capture ends mid-line
	capt := strings.Join([]string{
		"#capture v1",
		"#port board dgt",
		"#port clock lineclock",
		"0.100000 clock r " + hello,
		"0.200000 clock r " + status[:10], // a line split over two reads
		"0.210000 clock r " + status[10:],
		"1.000000 board r 8e00051c01",
		"1.500000 clock r " + press + "ff", // one garbage byte starts the next line
		"2.000000 clock r 0a",              // ...which then ends as a bad line
		"9.000000 clock r " + flag,
		"9.500000 clock r " + cut,
		"",
	}, "\n")
	var types, lines []string
	st, err := decode.Run(strings.NewReader(capt), decode.Options{}, func(m decode.Message) error {
		b, err := decode.JSON(m)
		if err != nil {
			return err
		}
		lines = append(lines, string(b))
		types = append(types, fmt.Sprintf("%s/%s", m.Port, strings.SplitN(strings.SplitN(string(b), `"type":"`, 2)[1], `"`, 2)[0]))
		if _, ok := m.Msg.(dgt.Message); ok != (m.Port == "board") {
			t.Errorf("port %s decoded %T", m.Port, m.Msg)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "clock/hello clock/status board/field clock/press clock/flag"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("messages %s, want %s", got, want)
	}
	if len(lines) == 5 {
		for i, want := range map[int]string{
			1: `{"t":0.210000,"port":"clock","type":"status","seq":0,"left":{"seconds":5400,"flag":false,"flag_shown":false,"per_move":false},"right":{"seconds":5400,"flag":false,"flag_shown":false,"per_move":false},"turn":"","running":false,"battery_low":false}`,
			3: `{"t":1.500000,"port":"clock","type":"press","seq":1,"face":"left","left":5421,"right":5400}`,
			4: `{"t":9.000000,"port":"clock","type":"flag","seq":3,"face":"right","left":5000,"right":0}`,
		} {
			if lines[i] != want {
				t.Errorf("message %d:\n got %s\nwant %s", i, lines[i], want)
			}
		}
	}
	lc := st.LinePorts["clock"]
	if lc.Messages != 4 || lc.Bad != 1 || lc.Gaps != 1 || st.Ports["board"].Messages != 1 || st.Messages != 5 {
		t.Errorf("stats: clock %+v, board %+v, total %d", lc, st.Ports["board"], st.Messages)
	}
	if _, ok := st.Ports["clock"]; ok {
		t.Error("the lineclock port has DGT counters")
	}
}

// A port's driver is its decoder: a port declared again with another
// driver (a corrupt or hand-edited capture) is an error naming the line,
// as it is for the event stream; an unknown driver too.
func TestReplayPortDrivers(t *testing.T) {
	for capt, want := range map[string]string{
		"#capture v1\n#port board dgt\n#port board lineclock\n":                `line 3: #port board: declared again with driver lineclock (was dgt)`,
		"#capture v1\n#port board dgt\n#port clock chessup\n":                  `line 3: port clock: no decoder for driver "chessup"`,
		"#capture v1\n#port board dgt\n#port board dgt\n0.500000 board r 01\n": "",
	} {
		_, err := decode.Run(strings.NewReader(capt), decode.Options{}, func(decode.Message) error { return nil })
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", capt, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: error %v, want one containing %s", capt, err, want)
		}
	}
}
