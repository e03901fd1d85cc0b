package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/boards/live"
	"github.com/arbiterd/arbiterd/internal/boards/pipeline"
	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/device/serialport"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// PortName is the board port's name in every capture the daemon writes.
const PortName = "board"

// ClockPortName is the name of a board's separate clock port (a lineclock,
// config `clock:`) in its capture.
const ClockPortName = live.DefaultClockPort

// KindJournal is the anomaly kind the daemon raises on a board whose
// journal, the capture, cannot be written (the events file and the PGN,
// views of it, raise KindFiles).
const KindJournal = "journal-write-failed"

// Paths of a board's journal files in the round's directory.
func capturePath(dir, id string) string { return filepath.Join(dir, "board-"+id+".capture") }
func eventsPath(dir, id string) string  { return filepath.Join(dir, "board-"+id+".events.jsonl") }
func pgnPath(dir, id string) string     { return filepath.Join(dir, "board-"+id+".pgn") }

// gameOver tells whether e ends the game: an end event, or a flag whose
// verdict is a result (6.9: the flag loses, or draws when no mate is
// possible).
func gameOver(e reconcile.Event) bool {
	return e.Type == reconcile.TypeEnd || (e.Type == reconcile.TypeFlag && e.Verdict != reconcile.VerdictNone)
}

// board is one board's game: its capture, pipeline, event and PGN files.
// Everything but the metrics and the decoder statistics is used from the
// board's runner goroutine only (and from New before it starts).
type board struct {
	d   *Daemon
	cfg config.Board
	id  string
	dir string // the round's directory, where its files are
	log *slog.Logger

	p        *pipeline.Pipeline
	cw       *capture.Writer // nil once the game is finished
	files    *viewFiles      // the events file and the PGN
	game     *pgn.Game       // under gameMu (a pairing corrected from the API)
	gameMu   sync.Mutex
	now      func() time.Duration
	finished bool
	watching bool       // the board is read live: its squares go to the hub (the runner's)
	failing  bool       // the capture failed and was reported (a capture's failure lasts: its writer keeps the error)
	line     lineState  // what was said about the board's line (the runner's)
	hand     live.Hand  // the arbiter's acts while the line is up (claims, decisions, acknowledgements)
	ackMu    sync.Mutex // one acknowledgement recorded at a time (recordAck)
	cwMu     sync.Mutex // cw's closing, against an acknowledgement written while the line is down

	mu       sync.Mutex
	sess     *dgt.Session // the current line's session (decoder statistics)
	decoded  int64        // decode errors of the sessions before it
	reported int64        // decode errors already counted in the metric
}

// ports are the ports a board's capture declares: the board, and its
// separate clock when it has one.
func ports(bc config.Board) []live.PortDecl {
	ps := []live.PortDecl{{Name: PortName, Driver: "dgt"}}
	if bc.Clock != nil {
		ps = append(ps, live.PortDecl{Name: ClockPortName, Driver: bc.Clock.Driver})
	}
	return ps
}

// meta is a new game's capture meta: the game's settings, and the
// capture's provenance (this build, the wall-clock time it starts).
func (d *Daemon) meta(bc config.Board) map[string]string {
	m := d.o.Build.Meta(d.o.Now())
	for k, v := range map[string]string{
		capture.MetaBoard: bc.ID(), capture.MetaRound: d.cfg.Round,
		capture.MetaTimeControl: bc.TimeControl, capture.MetaClockWhite: bc.ClockWhite,
	} {
		m[k] = v
	}
	if dt, err := d.cfg.DefaultTimeDuration(); err == nil && dt > 0 {
		m[capture.MetaDefaultTime] = strconv.Itoa(int(dt / time.Second)) // validated with the configuration
	}
	for k, v := range map[string]string{capture.MetaEvent: d.cfg.Event, capture.MetaSite: d.cfg.Site, capture.MetaStartFEN: bc.StartFEN} {
		if v != "" {
			m[k] = v
		}
	}
	for k, v := range playersOf(d.cfg, bc).meta() {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

// openBoard creates a new game's capture, or recovers the game from the
// capture already in the journal.
func (d *Daemon) openBoard(bc config.Board) (*board, error) {
	id := bc.ID()
	b := &board{d: d, cfg: bc, id: id, dir: d.dir, log: d.log.With("board", id)}
	b.files = &viewFiles{fsys: d.o.Files, evPath: eventsPath(d.dir, id), pgnPath: pgnPath(d.dir, id),
		failed: b.filesFailed, caughtUp: b.filesCaughtUp}
	b.p = pipeline.New(pipeline.Options{Oracle: d.o.Oracle, OnSquares: b.squares, OnSerial: b.serial})
	d.hub.AddBoard(hubInfo(d.cfg, bc))

	path := capturePath(d.dir, id)
	var o opening
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		err = b.recoverGame(path, fi.ModTime(), &o)
	case errors.Is(err, fs.ErrNotExist):
		err = b.newGame(path, &o)
	default:
		err = fmt.Errorf("board %s: %w", id, err)
	}
	if err != nil {
		return nil, err
	}

	tc, _ := clockd.ParseTimeControl(bc.TimeControl) // validated
	ps := playersOf(d.cfg, bc)
	if t := b.p.Tags(); t.Board != "" {
		// A game recovered: its players as its capture names them (a
		// pairing corrected during the game included).
		ps = players{white: t.White, black: t.Black, wp: pgn.Player(t.WhitePlayer), bp: pgn.Player(t.BlackPlayer)}
		ps.whiteH, ps.blackH = hub.Player(ps.wp), hub.Player(ps.bp)
	}
	in := hubInfo(d.cfg, bc)
	in.White, in.Black, in.WhitePlayer, in.BlackPlayer = ps.white, ps.black, ps.whiteH, ps.blackH
	if o.started != "" {
		in.Date = capture.Date(o.started)
	}
	d.hub.AddBoard(in)
	b.game = pgn.New(pgn.Tags{Event: d.cfg.Event, Site: d.cfg.Site, Date: capture.Date(o.started), Round: d.cfg.Round,
		Board: id, White: ps.white, Black: ps.black, TimeControl: tc, StartFEN: bc.StartFEN, WhitePlayer: ps.wp, BlackPlayer: ps.bp}).In(pgnPrinter(d.cfg.Lang))

	// The events file is rewritten from the capture: it is a view of it.
	var buf bytes.Buffer
	for _, e := range o.hist {
		buf.Write(reconcile.Marshal(e))
		buf.WriteByte('\n')
	}
	// A file that cannot be written now (another program holds it open)
	// does not stop the board: it is written as soon as it can be.
	b.files.rewriteEvents(buf.Bytes())
	for _, e := range o.hist {
		b.game.Add(e)
		d.hub.Publish(id, e)
		b.count(e)
		if d.o.OnEvent != nil {
			d.o.OnEvent(id, e)
		}
	}
	if err := b.writePGN(); err != nil {
		b.close()
		return nil, fmt.Errorf("board %s: %w", id, err)
	}
	base, t0 := o.base, time.Now()
	b.now = func() time.Duration { return base + d.scale(time.Since(t0)) }
	return b, nil
}

// opening is what opening a board's capture gives openBoard.
type opening struct {
	hist    []reconcile.Event // the game's events so far
	started string            // the capture's start (meta started): the PGN Date
	base    time.Duration     // the game time the board goes on from
}

// collect adds one event to the game's history.
func (o *opening) collect(e reconcile.Event) error { o.hist = append(o.hist, e); return nil }

// emit adds a batch of events to the game's history and passes its error on.
func (o *opening) emit(evs []reconcile.Event, err error) error {
	o.hist = append(o.hist, evs...)
	return err
}

// recoverGame recovers the game from the capture at path, last written at
// modified: it cuts a torn last line, replays all the capture holds, and
// goes on from its last time plus the time the daemon was down.
func (b *board) recoverGame(path string, modified time.Time, o *opening) error {
	d, id := b.d, b.id
	cw, err := d.o.OpenCapture(path, true)
	if err != nil {
		return fmt.Errorf("board %s: recover %s: %w", id, path, err)
	}
	if err := cw.Sync(); err != nil {
		cw.Close()
		return fmt.Errorf("board %s: recover %s: %w", id, path, err)
	}
	declared, meta, err := replayInto(path, b.p, o.collect)
	if err != nil {
		cw.Close()
		return fmt.Errorf("board %s: recover %s: %w", id, path, err)
	}
	o.started = meta[capture.MetaStarted]
	if b.cfg.Clock == nil && declared[ClockPortName] != "" {
		// A clock the configuration no longer names is still the
		// game's so far (recoverClock says so).
		in := hubInfo(d.cfg, b.cfg)
		in.ClockPort = ClockPortName
		d.hub.AddBoard(in)
	}
	for _, e := range o.hist {
		b.finished = b.finished || gameOver(e)
	}
	down := max(time.Since(modified), 0)
	o.base = cw.Last() + d.scale(down)
	if b.finished {
		cw.Close()
		if err := b.p.End(o.collect); err != nil {
			return fmt.Errorf("board %s: %s: %w", id, path, err)
		}
	} else {
		if declared[PortName] == "" {
			// Cut short before its declarations: a new game.
			err = b.declareGame(cw, o)
		} else {
			err = b.resumeAfterAbsence(cw, declared, meta, o)
		}
		if err != nil {
			cw.Close()
			return fmt.Errorf("board %s: %s: %w", id, path, err)
		}
		b.cw = cw
	}
	b.log.Info("recovered game from the journal", "capture", path, "events", len(o.hist),
		"finished", b.finished, "resume_at", capture.FormatSeconds(o.base))
	if b.finished {
		b.log.Warn(fmt.Sprintf("the game in %s is over: the board is shown as it ended and its port is not read. "+
			"For a new game, start the next round (with a pairings file: the dashboard's next round, or POST /api/round; otherwise round in the configuration, or --round %s); every round keeps its own journal", path, nextRound(d.cfg.Round)),
			"capture", path)
	}
	return nil
}

// resumeAfterAbsence writes into a recovered game's capture what happened
// while the daemon was away. Nobody watched the board: to the game that is
// a disconnection, and the start-up dump on the reopened port resyncs it
// (moves made meanwhile are reconstructed, presses wait for the board).
// A separate clock was not read either. A clock added to the configuration
// since is declared now (the game's clock from here on); one removed is
// reported.
func (b *board) resumeAfterAbsence(cw *capture.Writer, declared, meta map[string]string, o *opening) error {
	// The absence began when the last record was written, not now:
	// nothing was read in between, so no deadline of the game (a
	// position unexplained for so long, a clock that has not moved) may
	// fall due in that time as if it had been watched.
	gone := cw.Last()
	if err := b.recoverClock(cw, declared, gone, o.collect); err != nil {
		return err
	}
	if err := b.recordBuild(cw, meta, o.collect); err != nil {
		return err
	}
	rec := capture.Session(gone, PortName, string(reconcile.StateDisconnected))
	if err := cw.Marker(rec); err != nil {
		return err
	}
	return b.p.Record(rec, o.collect)
}

// newGame creates a new game's capture at path and declares the game in
// it.
func (b *board) newGame(path string, o *opening) error {
	d, id := b.d, b.id
	cw, err := d.o.OpenCapture(path, false)
	if err != nil {
		return fmt.Errorf("board %s: %w", id, err)
	}
	if d.o.Speed != 1 {
		if err := cw.Comment(fmt.Sprintf(" emulated board; times are game time, played at %g× real time", d.o.Speed)); err != nil {
			cw.Close()
			return fmt.Errorf("board %s: %w", id, err)
		}
	}
	if err := b.declareGame(cw, o); err != nil {
		cw.Close()
		return fmt.Errorf("board %s: %w", id, err)
	}
	if err := cw.Sync(); err != nil {
		cw.Close()
		return fmt.Errorf("board %s: %w", id, err)
	}
	b.cw = cw
	b.log.Info("new game", "capture", path)
	return nil
}

// declareGame writes a new game's ports and meta into cw and the pipeline.
func (b *board) declareGame(cw *capture.Writer, o *opening) error {
	m := b.d.meta(b.cfg)
	o.started = m[capture.MetaStarted]
	return live.DeclarePorts(cw, b.p, ports(b.cfg), m, o.emit)
}

// recoverClock brings a recovered game's separate clock up to date: the
// clock port is marked disconnected for the time the daemon was away, or
// declared when the configuration added a clock since the capture began.
func (b *board) recoverClock(cw *capture.Writer, declared map[string]string, at time.Duration, fn func(reconcile.Event) error) error {
	had := declared[ClockPortName] != ""
	switch {
	case b.cfg.Clock == nil && had:
		b.log.Warn("the capture has a separate clock the configuration no longer names; the game's clock is not read",
			"clock_port", ClockPortName)
		return nil
	case b.cfg.Clock == nil:
		return nil
	case !had:
		if err := cw.Port(ClockPortName, b.cfg.Clock.Driver); err != nil {
			return err
		}
		return b.p.Record(capture.Record{Kind: capture.KindPort, Port: ClockPortName, Driver: b.cfg.Clock.Driver}, fn)
	}
	rec := capture.Session(at, ClockPortName, string(reconcile.StateDisconnected))
	if err := cw.Marker(rec); err != nil {
		return err
	}
	return b.p.Record(rec, fn)
}

func (d *Daemon) scale(real time.Duration) time.Duration {
	if d.o.Speed == 1 {
		return real
	}
	return time.Duration(float64(real) * d.o.Speed)
}

// recordBuild notes in a recovered game's capture which arbiterd goes on
// with it, when that is another build than the one that recorded it so
// far (a later meta value holds from its line on).
func (b *board) recordBuild(cw *capture.Writer, meta map[string]string, fn func(reconcile.Event) error) error {
	bi := b.d.o.Build
	for _, kv := range [][2]string{{capture.MetaArbiterdVersion, bi.Version}, {capture.MetaArbiterdRevision, bi.RevisionText()}} {
		if meta[kv[0]] == kv[1] {
			continue
		}
		if err := cw.Meta(kv[0], kv[1]); err != nil {
			return err
		}
		if err := b.p.Record(capture.Record{Kind: capture.KindMeta, Key: kv[0], Value: kv[1]}, fn); err != nil {
			return err
		}
	}
	return nil
}

// replayInto feeds every record of the capture at path to p, and returns
// the ports the capture declares and its meta values.
func replayInto(path string, p *pipeline.Pipeline, fn func(reconcile.Event) error) (map[string]string, map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	cr := capture.NewReader(f)
	if err := p.Feed(cr, fn); err != nil {
		return nil, nil, err
	}
	return cr.Ports(), cr.Meta(), nil
}

// writePGN hands the game's PGN to the view files, which replace the
// file atomically and durably (a reader never sees half a file, a crash
// leaves the old one or the new one), now or as soon as they can.
func (b *board) writePGN() error {
	var buf bytes.Buffer
	b.gameMu.Lock()
	err := b.game.Write(&buf)
	b.gameMu.Unlock()
	if err != nil {
		return err
	}
	b.files.setPGN(buf.Bytes())
	return nil
}

// run is the board's supervisor: the live runner under reopen with
// back-off, and the capture's periodic sync, until ctx is done or the game
// is over. The capture is synced and closed on the way out.
func (b *board) run(ctx context.Context) {
	defer b.closeCapture()
	if b.finished {
		return
	}
	b.watching = true
	syncCtx, stopSync := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stopSync()
	wg.Go(func() {
		if err := b.cw.RunSync(syncCtx, b.d.o.SyncInterval); err != nil && syncCtx.Err() == nil {
			b.journalFailed(fmt.Errorf("sync capture: %w", err))
		}
	})

	b.d.o.Backoff.Retry(ctx, func() serialport.Attempt {
		started := time.Now()
		lc := live.Config{
			Path: b.cfg.Port, Port: PortName, Capture: b.cw, Now: b.now, Oracle: b.d.o.Oracle,
			Pipeline: b.p, OnEvent: b.onEvent, OnJournalError: b.journalFailed, OnSession: b.setSession,
			Hand: &b.hand,
		}
		if b.cfg.Clock != nil {
			lc.ClockPath, lc.ClockPort, lc.ClockBackoff = b.cfg.Clock.Port, ClockPortName, b.d.o.Backoff
		}
		err := live.Run(ctx, lc)
		b.setSession(nil)
		b.d.m.connected.WithLabelValues(b.id).Set(0)
		if errors.Is(err, live.ErrStopped) {
			b.end()
			return serialport.Attempt{Done: true}
		}
		return serialport.Attempt{UpFor: time.Since(started), Err: err}
	}, func(attempt int, err error, wait time.Duration) {
		b.lineFailed(err, attempt, wait)
		b.d.m.reconnects.WithLabelValues(b.id).Inc()
	})
}

// squares is the pipeline's OnSquares: the board's squares as it reports
// them live go to the hub, for the feeds that list a position only once
// the board stands still (the LiveChess listener). A recovered game's
// squares, replayed from the capture, are not news.
func (b *board) squares(at time.Duration, port string, s rules.Snapshot) {
	if b.watching && port == PortName {
		b.d.hub.PublishSquares(b.id, at, s)
	}
}

// serial is the pipeline's OnSerial: the board's serial number goes to the
// hub (LiveChess's serialnr).
func (b *board) serial(port, serial string) {
	if port == PortName {
		b.d.hub.SetSerial(b.id, serial)
	}
}

// end closes a finished game's session (the session end events replay
// gives at the end of the capture).
func (b *board) end() {
	b.finished = true
	if err := b.p.End(func(e reconcile.Event) error { b.publish(e); return nil }); err != nil {
		b.log.Error("ending the game", "err", err)
	}
	b.log.Info("game over; capture closed", "capture", capturePath(b.dir, b.id))
}

// onEvent is live.Run's OnEvent: it publishes and stops the runner once
// the game is over.
func (b *board) onEvent(e reconcile.Event) bool {
	b.publish(e)
	return !gameOver(e)
}

func (b *board) publish(e reconcile.Event) {
	if e.Type == reconcile.TypeSession && e.Port == PortName {
		switch e.State {
		case reconcile.StateConnected:
			b.lineUp()
		case reconcile.StateDisconnected:
			b.lineDown()
		}
	}
	b.files.appendEvent(append(reconcile.Marshal(e), '\n'))
	b.gameMu.Lock()
	b.game.Add(e)
	b.gameMu.Unlock()
	b.d.hub.Publish(b.id, e)
	b.count(e)
	switch e.Type {
	case reconcile.TypeComplete:
		if e.By == reconcile.ByPress {
			b.d.m.latency.Observe(b.unscale(b.now() - e.At).Seconds())
		}
		fallthrough
	case reconcile.TypeFlag, reconcile.TypeEnd, reconcile.TypeRetract:
		if err := b.writePGN(); err != nil {
			b.log.Error("making the PGN", "err", err)
		}
	}
	if b.d.o.OnEvent != nil {
		b.d.o.OnEvent(b.id, e)
	}
}

func (b *board) unscale(d time.Duration) time.Duration {
	if b.d.o.Speed == 1 {
		return d
	}
	return time.Duration(float64(d) / b.d.o.Speed)
}

// count updates the metrics for one event.
func (b *board) count(e reconcile.Event) {
	m := b.d.m
	m.events.WithLabelValues(string(e.Type)).Inc()
	switch e.Type {
	case reconcile.TypeAnomaly:
		m.anomalies.WithLabelValues(string(e.Kind)).Inc()
	case reconcile.TypeSession:
		if e.Port == PortName {
			switch e.State {
			case reconcile.StateConnected, reconcile.StateResync:
				m.connected.WithLabelValues(b.id).Set(1)
			case reconcile.StateDisconnected, reconcile.StateEnd:
				m.connected.WithLabelValues(b.id).Set(0)
			}
		}
	}
	var clockBad int64
	if st, ok := b.p.ClockStats(); ok {
		clockBad = int64(st.Bad) // the pipeline's decoder lives as long as the game
	}
	b.mu.Lock()
	n := b.decoded + clockBad
	if b.sess != nil {
		n += decodeErrors(b.sess.Stats())
	}
	if n > b.reported {
		m.decodeErrors.WithLabelValues(b.id).Add(float64(n - b.reported))
		b.reported = n
	}
	b.mu.Unlock()
}

func decodeErrors(s dgt.Stats) int64 { return s.Corrupt + s.Unknown }

// setSession keeps the current line's session for its decoder statistics.
func (b *board) setSession(s *dgt.Session) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sess != nil {
		b.decoded += decodeErrors(b.sess.Stats())
	}
	b.sess = s
}

// journalFailed reports a capture write failure: every failure counts in
// the metric; the first of the game is also an error in the log and an
// alert on the board, which stays until the arbiter acknowledges it. A
// capture that failed stays failed (its writer keeps the error), so there
// is nothing to re-arm. The game goes on in memory. The events file and
// the PGN are not the journal: their failures are filesFailed's.
func (b *board) journalFailed(err error) {
	b.d.m.journalErrs.WithLabelValues(b.id).Inc()
	b.mu.Lock()
	first := !b.failing
	b.failing = true
	b.mu.Unlock()
	if !first {
		return
	}
	b.log.Error("JOURNAL WRITE FAILED: the game goes on in memory but is not being recorded", "err", err,
		"capture", capturePath(b.dir, b.id))
	if err := b.d.hub.Raise(b.id, hub.Amber, KindJournal, "",
		"the journal cannot be written ("+err.Error()+"); the game is kept in memory only"); err != nil {
		b.log.Error("raising the journal alert", "err", err)
	}
}

// closeCapture syncs and closes the capture.
func (b *board) closeCapture() {
	b.cwMu.Lock()
	defer b.cwMu.Unlock()
	if b.cw != nil {
		if err := b.cw.Close(); err != nil {
			b.log.Error("closing the capture", "err", err)
		}
		b.cw = nil
	}
}

// close syncs and closes the capture and closes the view files (writing
// what they still have pending).
func (b *board) close() {
	b.closeCapture()
	if err := b.files.close(); err != nil {
		b.log.Error("closing the board's files", "err", err)
	}
}

// pgnPrinter is the language of the comments arbiterd writes into a
// board's PGN: the configuration's lang: (checked when it was read), else
// English.
func pgnPrinter(lang string) *i18n.Printer {
	if lang == "" {
		return i18n.English
	}
	t, err := i18n.Parse("lang:", lang)
	if err != nil {
		return i18n.English
	}
	return i18n.NewPrinter(t)
}
