package capture_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// Markers are records of their own kinds; a capture written before they
// were (the same lines, read as comments then) reads the same records.
func TestMarkersAreRecords(t *testing.T) {
	const in = "#capture v1\n#port board dgt\n#port clock lineclock\n" +
		"1.000000 board r 4b\n" +
		"#session 2.023526 board disconnected\n" +
		"#  session 3.000000 clock start\n" + // spaces after '#': a marker, as always
		"#session 4.000000 board someday\n" + // a state the game reports as bad input
		"#arbiter 5900.000000 claim black\n" +
		"#arbiter 5930.000000 decide 133 postponed\n" +
		"#sessions are long\n" + // another first word: a comment
		"#session\n" // no space after the word: a comment
	recs, err := capture.ReadAll(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	sec := func(s float64) time.Duration { return time.Duration(s * 1e6 * float64(time.Microsecond)) }
	want := []capture.Record{
		{Line: 5, Kind: capture.KindSession, At: sec(2.023526), Port: "board", State: "disconnected"},
		{Line: 6, Kind: capture.KindSession, At: sec(3), Port: "clock", State: "start"},
		{Line: 7, Kind: capture.KindSession, At: sec(4), Port: "board", State: "someday"},
		{Line: 8, Kind: capture.KindArbiter, At: sec(5900), Act: capture.ActClaim, Side: "black"},
		{Line: 9, Kind: capture.KindArbiter, At: sec(5930), Act: capture.ActDecide, Claim: 133, Decision: capture.DecisionPostponed},
		{Line: 10, Kind: capture.KindComment, Text: "sessions are long"},
		{Line: 11, Kind: capture.KindComment, Text: "session"},
	}
	got := recs[len(recs)-len(want):]
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("record %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestBadMarkers(t *testing.T) {
	for _, m := range []string{
		"#session 1.000000 board", "#session 1.0 board connected", "#session 1.000000 nowhere connected",
		"#arbiter 1.000000 claim grey", "#arbiter x claim white", "#arbiter 1.000000 decide 0 accepted",
		"#arbiter 1.000000 decide 5 maybe", "#arbiter 1.000000 resign white",
		"#arbiter 1.000000 claim white by", "#arbiter 1.000000 claim white by Anna%2", "#arbiter 1.000000 claim white by %FF",
		"#arbiter 1.000000 claim white Anna", "#arbiter 1.000000 ack 3", "#arbiter 1.000000 ack -1 flag",
		"#arbiter 1.000000 ack 3 flag by", "#arbiter 1.000000 decide 5 accepted by Anna Novak",
	} {
		_, err := capture.ReadAll(strings.NewReader("#capture v1\n#port board dgt\n" + m + "\n"))
		if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "marker") {
			t.Errorf("%q: error %v, want one naming line 3 and the marker", m, err)
		}
	}
}

// What the writer writes reads back as the very records it was given, the
// times cut to the capture's microseconds.
func TestMarkerRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Port("board", "dgt"); err != nil {
		t.Fatal(err)
	}
	at := 2*time.Second + 23526*time.Microsecond + 789*time.Nanosecond
	recs := []capture.Record{
		capture.Session(at, "board", "disconnected"),
		capture.Claim(at, "white", ""),
		capture.Decide(at, 7, capture.DecisionAccepted, ""),
	}
	for _, r := range recs {
		if err := w.Marker(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Marker(capture.Session(at, "clock", "start")); err == nil {
		t.Error("a session marker for an undeclared port was written")
	}
	if err := w.Marker(capture.Session(at, "board", "two words")); err == nil {
		t.Error("a session marker with a state of two words was written")
	}
	if !strings.Contains(buf.String(), "\n#session 2.023526 board disconnected\n#arbiter 2.023526 claim white\n#arbiter 2.023526 decide 7 accepted\n") {
		t.Errorf("capture:\n%s", buf.String())
	}
	got, err := capture.ReadAll(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	got = got[1:]
	for i := range recs {
		got[i].Line = 0
		if !reflect.DeepEqual(got[i], recs[i]) {
			t.Errorf("read back %+v, wrote %+v", got[i], recs[i])
		}
	}
}

// The arbiter's acts name their arbiter with a last "by NAME", the name's
// spaces and percent signs escaped; acknowledgements are markers too. The
// forms without a name read as they always did.
func TestMarkersNameTheArbiter(t *testing.T) {
	var buf bytes.Buffer
	w, err := capture.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	at := 61 * time.Second
	recs := []capture.Record{
		capture.Claim(at, "black", "Anna Nováková"),
		capture.Decide(at, 7, capture.DecisionRejected, "50% Jones"),
		capture.Ack(at, 12, "flag", "Anna Nováková"),
		capture.Ack(at, 0, "journal-write-failed", ""),
	}
	for _, r := range recs {
		if err := w.Marker(r); err != nil {
			t.Fatal(err)
		}
	}
	want := "#arbiter 61.000000 claim black by Anna%20Nováková\n" +
		"#arbiter 61.000000 decide 7 rejected by 50%25%20Jones\n" +
		"#arbiter 61.000000 ack 12 flag by Anna%20Nováková\n" +
		"#arbiter 61.000000 ack 0 journal-write-failed\n"
	if !strings.HasSuffix(buf.String(), want) {
		t.Errorf("capture:\n%s\nwant it to end with\n%s", buf.String(), want)
	}
	got, err := capture.ReadAll(strings.NewReader(buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	got = got[len(got)-len(recs):]
	for i := range recs {
		got[i].Line = 0
		if !reflect.DeepEqual(got[i], recs[i]) {
			t.Errorf("read back %+v, wrote %+v", got[i], recs[i])
		}
	}
	if err := w.Marker(capture.Claim(at, "white", "tab\there")); err != nil {
		t.Errorf("a name with a tab: %v", err)
	} else if !strings.HasSuffix(buf.String(), "by tab%09here\n") {
		t.Errorf("a tab escaped as %q", buf.String()[strings.LastIndex(buf.String(), " by "):])
	}
}
