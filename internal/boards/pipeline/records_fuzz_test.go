package pipeline_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// fuzzOracle answers the 6.9 question without searching, so fuzzing spends
// its time on the pipeline.
type fuzzOracle struct{}

func (fuzzOracle) CanMate(string, clockd.Side) (reconcile.Mate, []string) {
	return reconcile.MateUnknown, nil
}

// The vocabulary the record fuzzer draws from: real names and values next
// to wrong ones, so both the accepted and the rejected paths are reached.
var (
	fuzzPorts   = []string{"board", "clock", "x"}
	fuzzDrivers = []string{"dgt", "lineclock", "nope"}
	fuzzMeta    = [][2]string{
		{"timecontrol", "40/5400+30:1800+30"}, {"timecontrol", "300+3"}, {"timecontrol", "nonsense"},
		{"clock-white", "left"}, {"clock-white", "right"}, {"clock-white", "auto"}, {"clock-white", "up"},
		{"start-fen", "8/8/8/4k3/8/8/8/4K2R w - - 0 1"}, {"start-fen", "8/8/8 w"},
		{"rules", "standard"}, {"rules", "chess960"}, {"board", "7"}, {"white", "Anderssen"},
	}
	fuzzStates = []string{"start", "connected", "disconnected", "resync", "end", "bogus"}
)

// fuzzRecords turns arbitrary bytes into a sequence of capture records: the
// first byte of each step picks the kind, the next ones its content.
func fuzzRecords(b []byte) []capture.Record {
	var recs []capture.Record
	var at time.Duration
	line := 1
	next := func() byte {
		if len(b) == 0 {
			return 0
		}
		c := b[0]
		b = b[1:]
		return c
	}
	for len(b) > 0 {
		line++
		switch op := next() % 6; op {
		case 0:
			recs = append(recs, capture.Record{Line: line, Kind: capture.KindPort,
				Port: fuzzPorts[int(next())%len(fuzzPorts)], Driver: fuzzDrivers[int(next())%len(fuzzDrivers)]})
		case 1:
			kv := fuzzMeta[int(next())%len(fuzzMeta)]
			recs = append(recs, capture.Record{Line: line, Kind: capture.KindMeta, Key: kv[0], Value: kv[1]})
		case 2:
			rec := capture.Session(at, fuzzPorts[int(next())%len(fuzzPorts)], fuzzStates[int(next())%len(fuzzStates)])
			rec.Line = line
			recs = append(recs, rec)
		case 3, 4:
			n := int(next())%48 + 1
			if n > len(b) {
				n = len(b)
			}
			if n == 0 {
				continue
			}
			dir := capture.Read
			if op == 4 {
				dir = capture.Write
			}
			recs = append(recs, capture.Record{Line: line, Kind: capture.KindData, Port: "board", At: at, Dir: dir,
				Data: append([]byte(nil), b[:n]...)})
			b = b[n:]
		case 5:
			at += time.Duration(next()) * 50 * time.Millisecond
		}
	}
	return recs
}

// emulatedSeed is the fuzz encoding of an emulated game with its port and
// meta declarations: a realistic start the fuzzer mutates.
func emulatedSeed(tb testing.TB, script ...emulator.Action) []byte {
	tb.Helper()
	e, err := emulator.New(emulator.Config{Game: []string{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"},
		Periods: []emulator.Period{{Time: 5 * time.Minute, Increment: 3 * time.Second}}, Seed: 1, Script: script,
		MeanThink: 2 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	seed := []byte{0, 0, 0, 1, 1, 1, 3}
	// A host asks for a board dump when it connects; Play has no host.
	for d := drivertest.DGTBoardDump(drivertest.DGTStartPosition()); len(d) > 0; {
		n := min(len(d), 48)
		seed = append(seed, 3, byte(n-1))
		seed = append(seed, d[:n]...)
		d = d[n:]
	}
	var last time.Duration
	for _, c := range e.Play() {
		seed = append(seed, 5, byte(min((c.At-last)/(50*time.Millisecond), 255)))
		last = c.At
		for d := c.Data; len(d) > 0; {
			n := min(len(d), 48)
			seed = append(seed, 3, byte(n-1))
			seed = append(seed, d[:n]...)
			d = d[n:]
		}
	}
	return seed
}

// FuzzRecords feeds the pipeline arbitrary capture records (declarations,
// meta values, session markers, device bytes): it must never panic, a
// record it rejects is reported as a *capture.LineError naming that
// record's line, and the events it emits are numbered 1, 2, 3 … .
func FuzzRecords(f *testing.F) {
	f.Add(emulatedSeed(f))
	f.Add(emulatedSeed(f, emulator.Action{Kind: emulator.Garbage, Ply: 3, N: 20}, emulator.Action{Kind: emulator.DropClock, Ply: 5}))
	f.Add([]byte{0, 0, 0, 2, 0, 2, 3, 3, 0x86, 0, 0x43})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		p := pipeline.New(pipeline.Options{Oracle: fuzzOracle{}})
		seq := 0
		fn := func(e reconcile.Event) error {
			seq++
			if e.Seq != seq {
				return fmt.Errorf("event %d has seq %d: %s", seq, e.Seq, reconcile.Marshal(e))
			}
			return nil
		}
		for _, rec := range fuzzRecords(b) {
			err := p.Record(rec, fn)
			if err == nil {
				continue
			}
			var le *capture.LineError
			if !errors.As(err, &le) {
				t.Fatalf("record %+v: error %v does not name the line", rec, err)
			}
			if le.Line != rec.Line {
				t.Fatalf("record at line %d: error names line %d: %v", rec.Line, le.Line, err)
			}
			return
		}
		if err := p.End(fn); err != nil {
			t.Fatalf("End: %v", err)
		}
	})
}

// FuzzReplay replays arbitrary capture text: never a panic, and a bad
// capture is a *capture.LineError naming a line the text has.
func FuzzReplay(f *testing.F) {
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		f.Fatal(err)
	}
	w.Port("board", "dgt")
	w.Meta("timecontrol", "300+3")
	e, err := emulator.New(emulator.Config{Game: []string{"e4", "e5", "Nf3"}, Seed: 2, MeanThink: time.Second})
	if err != nil {
		f.Fatal(err)
	}
	w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(drivertest.DGTStartPosition()))
	for _, c := range e.Play() {
		w.Data(c.At, "board", capture.Read, c.Data)
	}
	w.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("#capture v1\n#port board dgt\n#session 1.000000 board disconnected\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 1<<16 {
			return
		}
		_, err := pipeline.Replay(bytes.NewReader(b), pipeline.Options{Oracle: fuzzOracle{}}, func(reconcile.Event) error { return nil })
		if err == nil {
			return
		}
		var le *capture.LineError
		if !errors.As(err, &le) {
			t.Fatalf("error %v does not name the line", err)
		}
		if lines := bytes.Count(b, []byte("\n")) + 1; le.Line < 1 || le.Line > lines {
			t.Fatalf("error names line %d of %d: %v", le.Line, lines, err)
		}
	})
}

// TestFuzzRecordsSeed checks the fuzzer's main seed is a real game: fed
// through fuzzRecords it completes the moves the emulator played.
func TestFuzzRecordsSeed(t *testing.T) {
	p := pipeline.New(pipeline.Options{Oracle: fuzzOracle{}})
	completed := 0
	for _, rec := range fuzzRecords(emulatedSeed(t)) {
		if err := p.Record(rec, func(e reconcile.Event) error {
			if e.Type == reconcile.TypeComplete {
				completed++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if completed < 9 {
		t.Fatalf("the seed game completes %d moves, want at least 9 of 10", completed)
	}
}
