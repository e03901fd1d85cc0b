package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// alertsOf counts a board's alerts of a kind, by level.
func alertsOf(t *testing.T, d *Daemon, id, kind string) map[string]int {
	t.Helper()
	b, err := d.Hub().Board(id)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, a := range b.Alerts {
		if a.Kind == kind {
			n[a.Level]++
		}
	}
	return n
}

// waitFile waits until the file at path satisfies ok.
func waitFile(t *testing.T, what, path string, timeout time.Duration, ok func(string) bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		b, _ := os.ReadFile(path)
		if ok(string(b)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s; %s holds:\n%.2000s", what, path, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHeldFiles plays a game while another program holds the board's
// files open, as a broadcast tool or a virus scanner does on Windows
// (simulated on every system by atomicfile.Holder): the PGN, the events
// file and the broadcast game file are held from before the start, the
// PGN again in the middle of the game, and the broadcast file past the
// game's end. The daemon starts, raises its own alert (never the
// journal's), says it again after a spell that ended, and every file
// catches up once let go. A restart with the files held, let go during
// the shutdown, writes them at the shutdown.
func TestHeldFiles(t *testing.T) {
	sans := immortal(t)
	const speed = testSpeed
	em := startEmu(t, emulator.Config{Game: sans, Seed: 5, Speed: speed, Script: []emulator.Action{{Kind: emulator.Flag, Ply: 38}}})
	data := t.TempDir()
	c := testConfig(data, em.path)
	round := filepath.Join(data, "round-1")
	pgnFile, evFile := pgnPath(round, "1"), eventsPath(round, "1")
	castFile := filepath.Join(data, "broadcast", "round-1", "game-1.pgn")

	var fsys atomicfile.Holder
	releasePGN, releaseEv, releaseCast := fsys.Hold(pgnFile), fsys.Hold(evFile), fsys.Hold(castFile)
	defer releaseCast()
	w := newWatcher()
	d, stop, logs := runDaemonWith(t, Options{Config: c, Speed: speed, Files: &fsys, FileRetry: 50 * time.Millisecond}, w)

	// Started all the same, with the files' alert and not the journal's.
	if n := alertsOf(t, d, "1", KindFiles); n[hub.Amber] != 1 {
		t.Errorf("file alerts at start %v, want one amber", n)
	}
	for _, p := range []string{pgnFile, evFile} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s written while held", p)
		}
	}
	w.waitFor(t, "6 moves completed", 60*time.Second, func() bool { m := completed(w.stream("1")); return m.White+m.Black >= 6 })

	// Let go: both catch up without waiting for the next move.
	releasePGN()
	releaseEv()
	waitFile(t, "the PGN to catch up", pgnFile, 10*time.Second, func(s string) bool { return strings.Contains(s, "3. ") })
	waitFile(t, "the events file to catch up", evFile, 10*time.Second, func(s string) bool {
		return strings.Count(s, `"type":"complete"`) >= 6
	})
	if n := alertsOf(t, d, "1", KindFiles); n[hub.Note] != 1 {
		t.Errorf("file alerts after catching up %v, want a note", n)
	}

	// Held again mid-game: a second spell, said again.
	at := completed(w.stream("1"))
	releasePGN = fsys.Hold(pgnFile)
	w.waitFor(t, "2 more moves completed", 60*time.Second, func() bool {
		m := completed(w.stream("1"))
		return m.White+m.Black >= at.White+at.Black+2
	})
	if n := alertsOf(t, d, "1", KindFiles); n[hub.Amber] != 2 {
		t.Errorf("file alerts after a second hold %v, want two amber", n)
	}
	releasePGN()

	w.waitFor(t, "the game to end", 90*time.Second, func() bool { return has(w.stream("1"), isOver) })
	waitFile(t, "the PGN's result", pgnFile, 10*time.Second, func(s string) bool {
		return strings.Contains(s, `[Result "0-1"]`) || strings.Contains(s, `[Result "1-0"]`)
	})
	if b, _ := os.ReadFile(castFile); strings.Contains(string(b), "[Result \"1-0\"]") || strings.Contains(string(b), "[Result \"0-1\"]") {
		t.Errorf("the held broadcast file was replaced")
	}
	releaseCast()
	waitFile(t, "the broadcast game file to catch up after the game", castFile, 10*time.Second, func(s string) bool {
		return strings.Contains(s, `[Result "1-0"]`) || strings.Contains(s, `[Result "0-1"]`)
	})
	checkFlagGame(t, w.stream("1"), sans)
	if n := alertsOf(t, d, "1", KindJournal); len(n) != 0 {
		t.Errorf("a journal alert for files held open: %v", n)
	}
	if n := counter(t, d, "arbiterd_journal_errors_total"); n != 0 {
		t.Errorf("%v journal errors counted", n)
	}
	if n := counter(t, d, "arbiterd_file_errors_total"); n != 2 {
		t.Errorf("%v file error spells counted, want 2", n)
	}
	stop()
	if l := logs(); strings.Contains(l, "JOURNAL WRITE FAILED") || !strings.Contains(l, "another program holds it open") {
		t.Errorf("the log:\n%s", l)
	}
	sameStream(t, round, "1", true)
	want, err := os.ReadFile(pgnFile)
	if err != nil {
		t.Fatal(err)
	}

	// A restart with the PGN and events file stale and held; they are let
	// go while the daemon shuts down, which writes them.
	for _, p := range []string{pgnFile, evFile} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	releasePGN, releaseEv = fsys.Hold(pgnFile), fsys.Hold(evFile)
	w2 := newWatcher()
	d2, stop2, logs2 := runDaemonWith(t, Options{Config: c, Speed: speed, Files: &fsys, FileRetry: time.Hour}, w2)
	if n := alertsOf(t, d2, "1", KindFiles); n[hub.Amber] != 1 {
		t.Errorf("file alerts at the restart %v, want one amber", n)
	}
	time.AfterFunc(300*time.Millisecond, func() { releasePGN(); releaseEv() })
	stop2()
	if got, _ := os.ReadFile(pgnFile); string(got) != string(want) {
		t.Errorf("the PGN after a shutdown that could write it:\n%s\nwant\n%s\nlog:\n%s", got, want, logs2())
	}
	sameStream(t, round, "1", true)
}
