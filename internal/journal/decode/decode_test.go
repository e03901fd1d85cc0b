package decode_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/journal/decode"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestReplayGolden(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "game.capture"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	st, err := decode.Run(f, decode.Options{}, func(m decode.Message) error {
		b, err := decode.JSON(m)
		if err != nil {
			return err
		}
		out.Write(b)
		out.WriteByte('\n')
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "game.jsonl")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("replay output differs from %s:\n%s", golden, out.String())
	}
	ps := st.Ports["board"]
	if st.Messages != 8 || ps.Noise != 1 || ps.Skipped != 2 || st.Writes != 5 || st.Reads != 12 || st.Lines != 25 {
		t.Errorf("stats %+v, board %+v", st, ps)
	}
	if st.Meta["board"] != "12" {
		t.Errorf("meta %v", st.Meta)
	}
}

// TestReplayMatchesLiveDecoding: replay hands each read to the decoder as
// it was read, so it yields what a live Decoder fed the same reads yields.
func TestReplayMatchesLiveDecoding(t *testing.T) {
	raw, _ := os.ReadFile(filepath.Join("testdata", "game.capture"))
	recs, err := capture.ReadAll(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	live := dgt.NewDecoder()
	var want []dgt.Message
	for _, r := range recs {
		if r.Kind == capture.KindData && r.Dir == capture.Read {
			want = append(want, live.Feed(r.Data)...)
		}
	}
	var got []dgt.Message
	if _, err := decode.Run(bytes.NewReader(raw), decode.Options{}, func(m decode.Message) error {
		d, ok := m.Msg.(dgt.Message)
		if !ok {
			return fmt.Errorf("port %s: %T is not a DGT message", m.Port, m.Msg)
		}
		got = append(got, d)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || len(got) == 0 {
		t.Fatalf("replay %v\nlive %v", got, want)
	}
}

func TestReplayErrors(t *testing.T) {
	tests := []struct {
		name, input string
		line        int
	}{
		{"not a capture", "{\"t\":1}\n", 1},
		{"bad line", "#capture v1\n#port board dgt\n0.1 board r 00\n", 3},
		{"unknown driver", "#capture v1\n#port clock morse\n", 2},
	}
	for _, tt := range tests {
		_, err := decode.Run(strings.NewReader(tt.input), decode.Options{}, func(decode.Message) error { return nil })
		var le *capture.LineError
		if !errors.As(err, &le) || le.Line != tt.line {
			t.Errorf("%s: error %v, want one at line %d", tt.name, err, tt.line)
		}
	}
	stop := errors.New("stop")
	_, err := decode.Run(strings.NewReader("#capture v1\n#port b dgt\n0.000000 b r 8e00050101\n"), decode.Options{},
		func(decode.Message) error { return stop })
	if !errors.Is(err, stop) {
		t.Errorf("handler error not returned: %v", err)
	}
}
