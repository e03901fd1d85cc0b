package serve

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// KindFiles is the anomaly kind the daemon raises on a board whose events
// file or PGN cannot be written. Both are views of the capture, rebuilt
// from it at every start (and by arbiterd replay): the game is still
// recorded, so this is not KindJournal.
const KindFiles = "file-write-failed"

// finalPatience is how long the last write of a view at shutdown waits
// for a file another program holds.
const finalPatience = 2 * time.Second

// viewFiles keeps a board's events file and PGN on disk. A write that
// fails — on Windows most often because another program holds the file
// open (a broadcast tool, an editor, a virus scanner), which Windows does
// not let a file be replaced under — is not lost: the file's new contents
// stay pending and are written at the next change, at the daemon's
// periodic retry (Daemon.keepFiles) and at shutdown. The first failure of
// a spell is reported (failed), and the end of the spell too (caughtUp),
// so that a later failure is reported again.
//
// The events file is rewritten whole at start and appended to after; the
// PGN is rewritten at each change. Methods may be called from any
// goroutine.
type viewFiles struct {
	fsys     atomicfile.FS
	evPath   string
	pgnPath  string
	failed   func(what string, err error) // the first failure of a spell
	caughtUp func()                       // every file written again after a failure

	mu       sync.Mutex
	ev       *os.File // the events file, open for appending
	evWhole  bool     // the events file is to be rewritten whole from evBuf
	evBuf    []byte   // events not on disk yet (every event when evWhole)
	pgn      []byte   // the PGN to write when pgnDirty
	pgnDirty bool
	failing  bool
	closed   bool
}

// rewriteEvents replaces the events file with data (at start).
func (v *viewFiles) rewriteEvents(data []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.ev != nil {
		v.ev.Close()
		v.ev = nil
	}
	v.evWhole, v.evBuf = true, append([]byte(nil), data...)
	v.flush(v.patience())
}

// appendEvent adds one line to the events file.
func (v *viewFiles) appendEvent(line []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return
	}
	v.evBuf = append(v.evBuf, line...)
	v.flush(v.patience())
}

// setPGN replaces the PGN with data.
func (v *viewFiles) setPGN(data []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return
	}
	v.pgn, v.pgnDirty = data, true
	v.flush(v.patience())
}

// retry writes what is pending, if anything.
func (v *viewFiles) retry() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed || !v.pending() {
		return
	}
	v.flush(-1)
}

// close writes what is pending, waiting up to finalPatience for a held
// file, closes the events file and returns what could still not be
// written (nil: nothing). Closing twice is harmless.
func (v *viewFiles) close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return nil
	}
	var err error
	if v.pending() {
		err = v.flush(finalPatience)
	}
	if v.ev != nil {
		if cerr := v.ev.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("events file: %w", cerr)
		}
		v.ev = nil
	}
	v.closed = true
	return err
}

// pending tells whether some file is behind.
func (v *viewFiles) pending() bool { return v.pgnDirty || v.evWhole || len(v.evBuf) > 0 }

// patience is how long a write from the board's runner waits for a held
// file: a while the first time, once only while the files are failing
// (the retries wait for the holder, not the board).
func (v *viewFiles) patience() time.Duration {
	if v.failing {
		return -1
	}
	return atomicfile.DefaultPatience
}

// flush writes what is pending and reports a change of state; it returns
// the first failure.
func (v *viewFiles) flush(patience time.Duration) error {
	r := atomicfile.Replacer{FS: v.fsys, Patience: patience}
	var what string
	var first error
	fail := func(w string, err error) {
		if first == nil {
			what, first = w, err
		}
	}
	if err := v.flushEvents(r); err != nil {
		fail("the events file", err)
	}
	if v.pgnDirty {
		if err := r.Write(v.pgnPath, v.pgn, 0o644); err != nil {
			fail("the PGN", err)
		} else {
			v.pgn, v.pgnDirty = nil, false
		}
	}
	switch {
	case first != nil && !v.failing:
		v.failing = true
		if v.failed != nil {
			v.failed(what, first)
		}
	case first == nil && v.failing:
		v.failing = false
		if v.caughtUp != nil {
			v.caughtUp()
		}
	}
	return first
}

// flushEvents writes the events not on disk yet: the whole file, or the
// lines after what the file holds.
func (v *viewFiles) flushEvents(r atomicfile.Replacer) error {
	if v.evWhole {
		if err := r.Write(v.evPath, v.evBuf, 0o644); err != nil {
			return err
		}
		v.evWhole, v.evBuf = false, nil
		return nil
	}
	if len(v.evBuf) == 0 {
		return nil
	}
	if v.ev == nil {
		f, err := v.fsys.OpenFile(v.evPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		v.ev = f
	}
	n, err := v.ev.Write(v.evBuf)
	v.evBuf = v.evBuf[n:]
	if len(v.evBuf) == 0 {
		v.evBuf = nil
	}
	if err != nil {
		// A file that failed is opened afresh at the next try.
		v.ev.Close()
		v.ev = nil
	}
	return err
}

// filesFailed reports a board's view files failing: a warning in the log
// and an alert on the board.
func (b *board) filesFailed(what string, err error) {
	b.d.m.fileErrs.WithLabelValues(b.id).Inc()
	why := fmt.Sprintf("%s of board %s could not be written (%v)", what, b.id, err)
	if atomicfile.Held(err) {
		why = fmt.Sprintf("%s of board %s could not be written: another program holds it open (a broadcast tool, an editor, a virus scanner?)", what, b.id)
	}
	b.log.Warn(why+"; arbiterd writes it as soon as it can. The capture, the game's journal, is written as always", "err", err)
	if err := b.d.hub.Raise(b.id, hub.Amber, KindFiles, "",
		why+"; arbiterd writes it as soon as it can. The game is still recorded in its capture"); err != nil {
		b.log.Error("raising the file alert", "err", err)
	}
}

// filesCaughtUp reports a board's view files written again.
func (b *board) filesCaughtUp() {
	b.log.Info("the events file and the PGN of board " + b.id + " are written again")
	if err := b.d.hub.Raise(b.id, hub.Note, KindFiles, "",
		"the events file and the PGN of board "+b.id+" are up to date again"); err != nil {
		b.log.Error("raising the file alert", "err", err)
	}
}

// keepFiles writes the view files left pending, every FileRetry, until
// ctx is done.
func (d *Daemon) keepFiles(ctx context.Context) {
	t := time.NewTicker(d.o.FileRetry)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			for _, b := range d.current() {
				b.files.retry()
			}
		}
	}
}

// closeFiles writes what is still pending of every board's view files
// and closes them; what cannot be written is said in the log, with how
// to get it back.
func (d *Daemon) closeFiles() {
	for _, b := range d.current() {
		if err := b.files.close(); err != nil {
			b.log.Error(fmt.Sprintf("board %s: a file could not be written before stopping: %v. It is made again from the capture at the next start, or by arbiterd replay", b.id, err),
				"capture", capturePath(b.dir, b.id))
		}
	}
}
