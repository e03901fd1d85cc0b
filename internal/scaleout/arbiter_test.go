package scaleout

import (
	"bufio"
	"bytes"
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// eventTypes lists the event types rules/reconcile/event.go declares (its
// constants of type Type), read from the source so that a type added
// there is a type these tests must see.
func eventTypes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../../rules/reconcile/event.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Type" {
				continue
			}
			for _, val := range v.Values {
				if lit, ok := val.(*ast.BasicLit); ok {
					s, _ := strconv.Unquote(lit.Value)
					types = append(types, s)
				}
			}
		}
	}
	if len(types) < 10 {
		t.Fatalf("read %d event types from rules/reconcile/event.go: %v", len(types), types)
	}
	return types
}

// insertMarker puts a capture comment line after the last data line at or
// before at, as the live journal writes a marker between reads.
func insertMarker(capt []byte, at time.Duration, line string) []byte {
	var out bytes.Buffer
	done := false
	for _, l := range strings.SplitAfter(string(capt), "\n") {
		if !done && l != "" && l[0] != '#' {
			if f := strings.Fields(l); len(f) > 0 {
				if t, err := capture.ParseSeconds(f[0]); err == nil && t > at {
					out.WriteString(line + "\n")
					done = true
				}
			}
		}
		out.WriteString(l)
	}
	if !done {
		out.WriteString(line + "\n")
	}
	return out.Bytes()
}

func replayEvents(t *testing.T, capt []byte) []reconcile.Event {
	t.Helper()
	var evs []reconcile.Event
	if _, err := pipeline.Replay(bytes.NewReader(capt), pipeline.Options{}, func(e reconcile.Event) error {
		evs = append(evs, e)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return evs
}

// claimGame is a real event stream with the arbiter's hand in it: an
// emulated game recorded as a capture, with a claim by White that the
// arbiter rejects and a claim by Black that he accepts (the capture's
// arbiter markers, as the live daemon writes them), replayed through the
// pipeline. It returns the capture and its events.
func claimGame(t *testing.T, board string) ([]byte, []reconcile.Event) {
	t.Helper()
	periods := []emulator.Period{{Time: 300 * time.Second}}
	em, err := emulator.New(emulator.Config{Game: strings.Fields("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6"), Periods: periods,
		ThinkTime: func(int) time.Duration { return 6 * time.Second }})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	check := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	check(w.Port("board", "dgt"))
	check(w.Meta("board", board))
	check(w.Meta("white", "Claimant, W"))
	check(w.Meta("black", "Claimant, B"))
	check(w.Meta("timecontrol", "300"))
	check(w.Data(0, "board", capture.Read, drivertest.DGTBoardDump(drivertest.DGTStartPosition())))
	for _, c := range em.Play() {
		check(w.Data(c.At, "board", capture.Read, c.Data))
	}
	capt := buf.Bytes()
	lastOf := func(evs []reconcile.Event, typ reconcile.Type) reconcile.Event {
		var last reconcile.Event
		for _, e := range evs {
			if e.Type == typ {
				last = e
			}
		}
		if last.Seq == 0 {
			t.Fatalf("no %s event in the claim game", typ)
		}
		return last
	}
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	capt = insertMarker(capt, sec(20), "#"+pipeline.FormatClaimMarker(sec(20), clockd.White))
	c1 := lastOf(replayEvents(t, capt), reconcile.TypeClaim)
	capt = insertMarker(capt, sec(22), "#"+pipeline.FormatDecisionMarker(sec(22), c1.Seq, reconcile.DecisionRejected))
	capt = insertMarker(capt, sec(40), "#"+pipeline.FormatClaimMarker(sec(40), clockd.Black))
	c2 := lastOf(replayEvents(t, capt), reconcile.TypeClaim)
	capt = insertMarker(capt, sec(41), "#"+pipeline.FormatDecisionMarker(sec(41), c2.Seq, reconcile.DecisionAccepted))
	evs := replayEvents(t, capt)
	if end := lastOf(evs, reconcile.TypeEnd); end.Reason != "claim" {
		t.Fatalf("the claim game ends %s", reconcile.Marshal(end))
	}
	return capt, evs
}

// goldenStreams reads every event stream golden of the repository. The
// scenario goldens write a flag's mate line as a mark ("given", "none":
// which line the 6.9 analyzer finds is not theirs to pin); it is put back
// as a list, as arbiterd writes it.
func goldenStreams(t *testing.T) map[string][][]byte {
	t.Helper()
	var files []string
	for _, g := range []string{"../../rules/reconcile/testdata/*.jsonl", "../testkit/scenario/testdata/*.jsonl"} {
		f, err := filepath.Glob(g)
		if err != nil || len(f) == 0 {
			t.Fatalf("no golden streams %s: %v", g, err)
		}
		files = append(files, f...)
	}
	out := map[string][][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			l := bytes.Replace(sc.Bytes(), []byte(`"mate_line":"given"`), []byte(`"mate_line":["Qh5#"]`), 1)
			l = bytes.Replace(l, []byte(`"mate_line":"none"`), []byte(`"mate_line":[]`), 1)
			out[f] = append(out[f], append([]byte(nil), l...))
		}
	}
	return out
}

// Every type of the event stream that rules/reconcile declares is read in
// full (not only by its type): every line of the goldens and of a game
// with claims and decisions reads back to the event that writes it byte for
// byte, and each declared type occurs among them.
func TestParseEventEveryType(t *testing.T) {
	seen := map[string]int{}
	lines := goldenStreams(t)
	_, claims := claimGame(t, "7")
	for _, e := range claims {
		lines["claim game"] = append(lines["claim game"], reconcile.Marshal(e))
	}
	for f, ls := range lines {
		for i, l := range ls {
			e, err := ParseEvent(l)
			if err != nil {
				t.Fatalf("%s:%d: %v", f, i+1, err)
			}
			seen[string(e.Type)]++
		}
	}
	for _, typ := range eventTypes(t) {
		if seen[typ] == 0 {
			t.Errorf("no %s event in the streams: the hall's parser is not tested for it", typ)
		}
	}
}

// recordedVenue is a venue whose boards publish given event streams (and
// captures) through the venue's real publisher, as its daemon would.
type recordedVenue struct {
	name, leaf, dir string
	venue           *Venue
	cancel          context.CancelFunc
	done            chan error
}

func newRecordedVenue(t *testing.T, name string, boards []string) *recordedVenue {
	t.Helper()
	leaf, err := freePort("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rv := &recordedVenue{name: name, leaf: leaf, dir: t.TempDir()}
	rv.venue, err = OpenVenue(VenueOptions{Venue: name, Event: "arbiter test", Round: "1", Dir: rv.dir, Boards: boards,
		Server: ServerOptions{StoreDir: filepath.Join(rv.dir, "nats"), LeafListen: leaf}})
	if err != nil {
		t.Fatal(err)
	}
	rv.serve(t)
	return rv
}

// serve runs the venue's publisher until the test ends.
func (rv *recordedVenue) serve(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	rv.cancel, rv.done = cancel, make(chan error, 1)
	go func() {
		rv.done <- rv.venue.Serve(ctx, nil, func(ctx context.Context) error { <-ctx.Done(); return nil })
	}()
	t.Cleanup(func() {
		rv.cancel()
		if err := <-rv.done; err != nil {
			t.Errorf("venue %s: %v", rv.name, err)
		}
	})
}

// play hands a board's events to the venue and writes its capture.
func (rv *recordedVenue) play(t *testing.T, board string, capt []byte, evs []reconcile.Event) {
	t.Helper()
	if capt != nil {
		if err := os.WriteFile(filepath.Join(rv.dir, "board-"+board+".capture"), capt, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range evs {
		rv.venue.OnEvent(board, e)
	}
}

// viewOf is a board's state without what differs by design between
// two hubs fed the same stream: the wall-clock time a clock value came,
// and the hall's own alerts (a venue's heartbeat late on a loaded
// machine); alert ids are renumbered over what is left.
func viewOf(b hub.Board) hub.Board {
	b.ClockAt = time.Time{}
	var as []hub.Alert
	for _, a := range b.Alerts {
		if strings.HasPrefix(a.Kind, "venue-") || strings.HasPrefix(a.Kind, "hall-") {
			continue
		}
		a.ID = len(as) + 1
		as = append(as, a)
	}
	b.Alerts = as
	return b
}

// The hall shows the arbiter's hand — the clock stopped and started
// (pause), times changed (adjust) that close the alerts they settle,
// claims and the decisions on them — exactly as the venue's dashboard
// does: its hub, fed from the stream, holds the same state and alerts as
// a hub fed the venue's events directly (the venue's daemon).
func TestHallShowsArbiterEvents(t *testing.T) {
	var settle []reconcile.Event
	for _, l := range goldenStreams(t)["../testkit/scenario/testdata/arbiter-settles-press-without-move.jsonl"] {
		e, err := ParseEvent(l)
		if err != nil {
			t.Fatal(err)
		}
		settle = append(settle, e)
	}
	if len(settle) == 0 {
		t.Fatal("no golden arbiter-settles-press-without-move")
	}
	sb := settle[0].Board
	claimCapt, claims := claimGame(t, "7")
	rv := newRecordedVenue(t, "north", []string{sb, "7"})

	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	h.opts = HallOptions{Data: h.data, Venues: []VenueRef{{Name: "north"}}, OnEvent: h.onEvent,
		Server: ServerOptions{Remotes: [][]string{{"nats-leaf://" + rv.leaf}}}}
	h.start()
	t.Cleanup(h.stop)

	rv.play(t, sb, nil, settle)
	rv.play(t, "7", claimCapt, claims)
	want := hub.New(hub.Options{})
	want.AddBoard(hub.Info{ID: "7", Round: "1", White: "Claimant, W", Black: "Claimant, B", TimeControl: "300"})
	want.AddBoard(hub.Info{ID: sb, Round: "1"})
	for _, e := range settle {
		want.Publish(sb, e)
	}
	for _, e := range claims {
		want.Publish("7", e)
	}

	deadline := time.Now().Add(2 * time.Minute)
	for _, id := range []string{sb, "7"} {
		w, _ := want.Board(id)
		for {
			got, err := h.hall.Hub().Board(id)
			if err == nil && got.Seq == w.Seq && got.White == w.White {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("board %s at the hall: event %d of %d (%v)", id, got.Seq, w.Seq, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		got, _ := h.hall.Hub().Board(id)
		if g, w := viewOf(got), viewOf(w); !reflect.DeepEqual(g, w) {
			t.Errorf("board %s: the hall shows\n%+v\nthe venue\n%+v", id, g, w)
		}
		gotEvs, _ := h.hall.Hub().Events(id, 0)
		wantEvs, _ := want.Events(id, 0)
		if len(gotEvs) != len(wantEvs) {
			t.Errorf("board %s: the hall has %d events, the venue %d", id, len(gotEvs), len(wantEvs))
		}
		for i := range min(len(gotEvs), len(wantEvs)) {
			if g, w := reconcile.Marshal(gotEvs[i]), reconcile.Marshal(wantEvs[i]); !bytes.Equal(g, w) {
				t.Errorf("board %s: event %d at the hall\n%s\nat the venue\n%s", id, i+1, g, w)
				break
			}
		}
	}
	// What the test is about: the arbiter's alerts are there, and settled.
	kinds := map[string]hub.Alert{}
	for _, id := range []string{sb, "7"} {
		b, _ := h.hall.Hub().Board(id)
		for _, a := range b.Alerts {
			if a.Kind == "claim" && a.ClosedBy == 0 {
				kinds["open claim"] = a
			}
			kinds[a.Kind] = a
		}
	}
	for _, k := range []string{"adjust", "claim", "decision", string(reconcile.KindPressWithoutMove)} {
		if _, ok := kinds[k]; !ok {
			t.Errorf("no %s alert at the hall: %v", k, kinds)
		}
	}
	if a, ok := kinds[string(reconcile.KindPressWithoutMove)]; ok && a.ClosedBy == 0 {
		t.Errorf("the press without a move is not closed by the arbiter's adjustment at the hall: %+v", a)
	}
	if a, ok := kinds["open claim"]; ok {
		t.Errorf("a claim decided is open at the hall: %+v", a)
	}
	if b, _ := h.hall.Hub().Board("7"); b.Result != "1/2-1/2" || b.EndReason != "claim" {
		t.Errorf("board 7 at the hall: result %q (%s), want the draw by the accepted claim", b.Result, b.EndReason)
	}
}
