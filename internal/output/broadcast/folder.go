package broadcast

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// Options tune the round folders.
type Options struct {
	Meta // Event, Site and Date tags of every game, the default round

	// Interval is the shortest time between two rewrites of one board's
	// files (default 1s): changes that come faster are coalesced.
	Interval time.Duration
	// Buffer is the hub subscription's buffer (default 1024 updates).
	Buffer int
	// Now gives the wall-clock time for the "updated" fields and the
	// coalescing (default time.Now).
	Now func() time.Time
	// OnError hears about problems that do not stop the feed: a board's
	// time control that does not parse, a file that could not be written
	// (said once until it is written again; it is tried again every
	// Interval and at shutdown, whether its game changes or not). Nil:
	// ignored.
	OnError func(error)
	// OnCaughtUp, when set, hears of a file written after it could not be
	// (its path).
	OnCaughtUp func(path string)
	// FS is the file system the files are replaced through (nil:
	// atomicfile.OS); tests hold files open through it as another
	// program does on Windows (atomicfile.Holder).
	FS atomicfile.FS
}

// Folder keeps the round folders under one directory current.
type Folder struct {
	dir   string
	h     *hub.Hub
	o     Options
	games *Games

	changed map[string]time.Time // board → wall time its game last changed
	wrote   map[string]time.Time // board → when its files were last written
	due     map[string]time.Time // board → when its pending change must be written
	sums    map[string][32]byte  // path → checksum of what is on disk

	pending map[string][]byte // path → contents that could not be written yet
	retryAt time.Time         // when the pending files are tried again
}

// New returns the round folders of the hub's boards under dir.
func New(dir string, h *hub.Hub, o Options) *Folder {
	if o.Interval <= 0 {
		o.Interval = time.Second
	}
	if o.DefaultRound == "" {
		o.DefaultRound = "1"
	}
	if o.Buffer <= 0 {
		o.Buffer = 1024
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.OnError == nil {
		o.OnError = func(error) {}
	}
	if o.Date == "" {
		o.Date = o.Now().UTC().Format("2006.01.02")
	}
	return &Folder{dir: dir, h: h, o: o, games: NewGames(h, o.Meta),
		changed: map[string]time.Time{}, wrote: map[string]time.Time{}, due: map[string]time.Time{},
		sums: map[string][32]byte{}, pending: map[string][]byte{}}
}

// Run keeps the folders current until ctx is done, then writes any change
// still pending. It returns an error only when the directory cannot be
// made; failures to write a file go to Options.OnError, and the file is
// tried again every Interval until it is written (a file another program
// holds open on Windows catches up once it is let go) and at shutdown.
func (f *Folder) Run(ctx context.Context) error {
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return fmt.Errorf("broadcast: %w", err)
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		sctx, cancel := context.WithCancel(ctx)
		ch := f.h.Subscribe(sctx, "", f.o.Buffer)
		f.prime()
		dropped := false
		for !dropped {
			f.flush(false)
			f.arm(timer)
			select {
			case <-ctx.Done():
				cancel()
				f.flush(true)
				return nil
			case u, ok := <-ch:
				if !ok {
					dropped = true // fell behind: read everything again
					break
				}
				f.apply(u)
			case <-timer.C:
			}
		}
		cancel()
	}
}

// prime (re)loads every board the hub knows.
func (f *Folder) prime() {
	for _, b := range f.h.Boards() {
		changed, err := f.games.Load(b.ID)
		if err != nil {
			f.o.OnError(err)
		}
		if changed || f.wrote[b.ID].IsZero() {
			f.mark(b.ID)
			if f.wrote[b.ID].IsZero() {
				f.keepUpdated(b.ID)
			}
		}
	}
}

// keepUpdated takes a board's "updated" time from the index an earlier run
// left, when the game file on disk is the game as it stands: a restart
// does not make unchanged games look new.
func (f *Folder) keepUpdated(id string) {
	g, ok := f.games.Game(id)
	if !ok {
		return
	}
	dir := filepath.Join(f.dir, RoundDir(g.Round))
	disk, err := os.ReadFile(filepath.Join(dir, GameFile(id)))
	if err != nil || !bytes.Equal(disk, g.PGN) {
		return
	}
	var old Index
	b, err := os.ReadFile(filepath.Join(dir, "index.json"))
	if err != nil || json.Unmarshal(b, &old) != nil {
		return
	}
	for _, og := range old.Games {
		if t, err := time.Parse(time.RFC3339, og.Updated); og.Board == id && err == nil {
			f.changed[id] = t
		}
	}
}

func (f *Folder) apply(u hub.Update) {
	changed, err := f.games.Apply(u)
	if err != nil {
		f.o.OnError(err)
	}
	if changed {
		f.mark(u.Board)
	}
}

// mark notes a board's change and when it may be written: now, or one
// interval after its last write.
func (f *Folder) mark(id string) {
	now := f.o.Now()
	f.changed[id] = now
	if _, pending := f.due[id]; pending {
		return
	}
	at := now
	if w := f.wrote[id]; !w.IsZero() && now.Sub(w) < f.o.Interval {
		at = w.Add(f.o.Interval)
	}
	f.due[id] = at
}

func (f *Folder) arm(t *time.Timer) {
	var next time.Time
	for _, at := range f.due {
		if next.IsZero() || at.Before(next) {
			next = at
		}
	}
	if len(f.pending) > 0 && (next.IsZero() || f.retryAt.Before(next)) {
		next = f.retryAt
	}
	if !t.Stop() {
		select {
		case <-t.C:
		default:
		}
	}
	if next.IsZero() {
		t.Reset(time.Hour)
		return
	}
	t.Reset(max(next.Sub(f.o.Now()), 0))
}

// flush writes the boards whose change is due (all pending ones when all
// is set), then their rounds' files and the tournament file.
func (f *Folder) flush(all bool) {
	now := f.o.Now()
	if len(f.pending) > 0 && (all || !now.Before(f.retryAt)) {
		f.retry(now, all)
	}
	rounds := map[string]bool{}
	for id, at := range f.due {
		if !all && at.After(now) {
			continue
		}
		delete(f.due, id)
		g, ok := f.games.Game(id)
		if !ok {
			continue
		}
		r := f.round(g)
		rounds[r] = true
		// A file that cannot be written now is pending: it is in the
		// round's files all the same, and catches up when it can.
		f.write(filepath.Join(RoundDir(r), GameFile(id)), g.PGN)
		f.wrote[id] = now
	}
	if len(rounds) > 0 {
		for r := range rounds {
			if err := f.writeRound(r); err != nil {
				f.o.OnError(err)
			}
		}
		if err := f.writeTournament(); err != nil {
			f.o.OnError(err)
		}
	}
	if all {
		for _, rel := range f.pendingPaths() {
			f.o.OnError(fmt.Errorf("broadcast: %s could not be written before stopping; it is written at the next start", filepath.Join(f.dir, rel)))
		}
	}
}

// retry writes the files that could not be written, with their latest
// contents: each is tried once, or at the last (shutdown) with the
// patience of a first write.
func (f *Folder) retry(now time.Time, last bool) {
	patience := time.Duration(-1)
	if last {
		patience = 0
	}
	for _, rel := range f.pendingPaths() {
		data := f.pending[rel]
		if err := f.replace(rel, data, patience); err != nil {
			continue
		}
		delete(f.pending, rel)
		if f.o.OnCaughtUp != nil {
			f.o.OnCaughtUp(filepath.Join(f.dir, rel))
		}
	}
	f.retryAt = now.Add(f.o.Interval)
}

func (f *Folder) pendingPaths() []string {
	var rels []string
	for rel := range f.pending {
		rels = append(rels, rel)
	}
	sort.Strings(rels)
	return rels
}

func (f *Folder) round(g Game) string { return g.Round }

// RoundDir is the folder of a round, relative to the broadcast directory.
func RoundDir(round string) string { return "round-" + safeName(round) }

// GameFile is the PGN file of a board within its round folder.
func GameFile(board string) string { return "game-" + safeName(board) + ".pgn" }

// safeName keeps a round or board id usable as part of a file name.
func safeName(s string) string {
	if s == "" {
		return "_"
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, s)
}

// IndexGame is one game in a round's index.json.
type IndexGame struct {
	Board       string `json:"board"`
	White       string `json:"white"`
	Black       string `json:"black"`
	TimeControl string `json:"timecontrol,omitempty"`
	Result      string `json:"result"`
	Plies       int    `json:"plies"` // completed moves (plies) in the PGN
	PGN         string `json:"pgn"`   // the game's file, relative to the round folder
	Updated     string `json:"updated"`
}

// Index is a round's index.json.
type Index struct {
	Event   string      `json:"event"`
	Round   string      `json:"round"`
	PGN     string      `json:"pgn"` // every game of the round, relative to the round folder
	Updated string      `json:"updated"`
	Games   []IndexGame `json:"games"`
}

// TournamentRound is one round in tournament.json.
type TournamentRound struct {
	Round   string `json:"round"`
	Path    string `json:"path"`  // the round folder
	Index   string `json:"index"` // its index.json
	PGN     string `json:"pgn"`   // its games.pgn
	Games   int    `json:"games"`
	Updated string `json:"updated"`
}

// Tournament is tournament.json.
type Tournament struct {
	Name   string            `json:"name"`
	Site   string            `json:"site,omitempty"`
	Date   string            `json:"date,omitempty"`
	Rounds []TournamentRound `json:"rounds"`
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// roundGames returns the games of a round in board order, and its latest
// change.
func (f *Folder) roundGames(round string) ([]Game, time.Time) {
	var out []Game
	var last time.Time
	for _, id := range f.games.Boards() {
		g, _ := f.games.Game(id)
		if f.round(g) != round || f.wrote[id].IsZero() {
			continue
		}
		out = append(out, g)
		if c := f.changed[id]; c.After(last) {
			last = c
		}
	}
	return out, last
}

func (f *Folder) writeRound(round string) error {
	games, last := f.roundGames(round)
	idx := Index{Event: f.o.Event, Round: round, PGN: "games.pgn", Updated: stamp(last), Games: []IndexGame{}}
	var all bytes.Buffer
	for _, g := range games {
		all.Write(g.PGN)
		idx.Games = append(idx.Games, IndexGame{Board: g.Board, White: g.White, Black: g.Black, TimeControl: g.TimeControl,
			Result: g.Result, Plies: g.Plies, PGN: GameFile(g.Board), Updated: stamp(f.changed[g.Board])})
	}
	dir := RoundDir(round)
	f.write(filepath.Join(dir, "games.pgn"), all.Bytes())
	return f.writeJSON(filepath.Join(dir, "index.json"), idx)
}

func (f *Folder) writeTournament() error {
	t := Tournament{Name: f.o.Event, Site: f.o.Site, Date: f.o.Date, Rounds: []TournamentRound{}}
	seen := map[string]bool{}
	var rounds []string
	for _, id := range f.games.Boards() {
		g, _ := f.games.Game(id)
		if r := f.round(g); !seen[r] && !f.wrote[id].IsZero() {
			seen[r] = true
			rounds = append(rounds, r)
		}
	}
	sort.Slice(rounds, func(i, j int) bool { return LessBoard(rounds[i], rounds[j]) })
	for _, r := range rounds {
		games, last := f.roundGames(r)
		dir := RoundDir(r)
		t.Rounds = append(t.Rounds, TournamentRound{Round: r, Path: dir, Index: dir + "/index.json",
			PGN: dir + "/games.pgn", Games: len(games), Updated: stamp(last)})
	}
	return f.writeJSON("tournament.json", t)
}

func (f *Folder) writeJSON(rel string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("broadcast: %s: %w", rel, err)
	}
	f.write(rel, append(b, '\n'))
	return nil
}

// write replaces a file atomically, unless it already holds data. A file
// that cannot be written is kept pending (its latest contents), said once
// to OnError, and tried again every Interval.
func (f *Folder) write(rel string, data []byte) {
	sum := sha256.Sum256(data)
	old, ok := f.sums[rel]
	if !ok {
		// First write since start: a file left by an earlier run with the
		// same content stays untouched.
		if disk, err := os.ReadFile(filepath.Join(f.dir, rel)); err == nil {
			old, ok = sha256.Sum256(disk), true
		}
	}
	if ok && old == sum {
		f.sums[rel] = sum
		delete(f.pending, rel)
		return
	}
	if _, failing := f.pending[rel]; failing {
		f.pending[rel] = data // its turn comes at the next retry
		return
	}
	if err := f.replace(rel, data, 0); err != nil {
		if len(f.pending) == 0 {
			f.retryAt = f.o.Now().Add(f.o.Interval)
		}
		f.pending[rel] = data
		f.o.OnError(fmt.Errorf("%w; it is tried again until it is written", err))
	}
}

// replace writes data to a temporary file beside the file rel, syncs it
// and renames it over the file, so readers see the old file or the new
// one; a file another program holds is tried for patience
// (atomicfile.Replacer).
func (f *Folder) replace(rel string, data []byte, patience time.Duration) error {
	path := filepath.Join(f.dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("broadcast: %w", err)
	}
	if err := (atomicfile.Replacer{FS: f.o.FS, Patience: patience}).Write(path, data, 0o644); err != nil {
		return fmt.Errorf("broadcast: %w", err)
	}
	f.sums[rel] = sha256.Sum256(data)
	return nil
}
