package scaleout

import (
	"hash/maphash"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// The hall's files are written off the consumers' path. A consumer decides
// what a message means under the hall's lock (its place in the board's
// game, the hub, the alerts) and hands the bytes to a writer; the writer
// appends them to the file and only then acknowledges the message, so a
// message is never acknowledged before it is written, as before. A
// board's file always goes to the same writer, in order. Writes were the
// consumers' main wait: at 2,000 boards, with the venues syncing their
// captures on the same disk, an append took 80 µs on average, and one
// consumer wrote about 115,000 of them in a row.

// hallFile names a hall file for the alert when a write to it fails:
// "board 7 of venue north: its events" (or its capture).
type hallFile struct {
	board, venue string
	capture      bool
}

// writeJob is one append to a hall file.
type writeJob struct {
	f    *os.File
	data []byte
	msg  jetstream.Msg // acknowledged once written (nil: nothing to acknowledge)
	what hallFile      // for the alert when the write fails
	done chan struct{} // a barrier (syncWrites): closed when reached, no write
}

// hallWriters is the hall's writers.
type hallWriters struct {
	seed maphash.Seed
	ch   []chan writeJob
	wg   sync.WaitGroup
	once sync.Once
	fail func(what hallFile, err error) // reports a failed write (the writer tries again)
	// closing is set by close: a write that keeps failing is then given
	// up, its message not acknowledged (JetStream delivers it again to
	// the next hall), so that stopping never waits on a full disk.
	closing atomic.Bool
}

// writerCount is how many writers the hall runs.
const writerCount = 8

func newHallWriters(fail func(hallFile, error)) *hallWriters {
	w := &hallWriters{seed: maphash.MakeSeed(), fail: fail}
	for range writerCount {
		ch := make(chan writeJob, 4096)
		w.ch = append(w.ch, ch)
		w.wg.Go(func() { w.run(ch) })
	}
	return w
}

// write queues an append to f (the writer for f's path keeps f's order).
func (w *hallWriters) write(f *os.File, data []byte, msg jetstream.Msg, what hallFile) {
	w.ch[maphash.String(w.seed, f.Name())%uint64(len(w.ch))] <- writeJob{f: f, data: data, msg: msg, what: what}
}

// sync waits until every write queued before it is done.
func (w *hallWriters) sync() {
	var dones []chan struct{}
	for _, ch := range w.ch {
		d := make(chan struct{})
		ch <- writeJob{done: d}
		dones = append(dones, d)
	}
	for _, d := range dones {
		<-d
	}
}

// close writes what is queued and stops the writers; a write that fails
// then is given up rather than tried again.
func (w *hallWriters) close() {
	w.once.Do(func() {
		w.closing.Store(true)
		for _, ch := range w.ch {
			close(ch)
		}
		w.wg.Wait()
	})
}

// heldMsg is a message a consumer hands to its handler: a handler that
// queues the message's write marks it queued, and the writer, not the
// consumer, acknowledges it.
type heldMsg struct {
	jetstream.Msg
	queued bool
}

// queue hands data for f to a writer with the message it comes from (nil:
// none), which is acknowledged once written.
func (h *Hall) queue(f *os.File, data []byte, m jetstream.Msg, what hallFile) {
	if hm, ok := m.(*heldMsg); ok {
		hm.queued = true
		m = hm.Msg
	}
	h.w.write(f, data, m, what)
}

func (w *hallWriters) run(ch chan writeJob) {
	for j := range ch {
		if j.done != nil {
			close(j.done)
			continue
		}
		data := j.data
		for warned := false; ; {
			n, err := j.f.Write(data)
			if err == nil {
				break
			}
			// A full disk, most likely: the rest of this append is tried
			// again (never the part written), the message not acknowledged
			// meanwhile; the boards of the other writers go on.
			data = data[n:]
			if !warned {
				warned = true
				go w.fail(j.what, err) // the hall's lock may be held by a consumer waiting for this writer
			}
			if w.closing.Load() {
				j.msg = nil // not written: left for the next hall
				break
			}
			time.Sleep(time.Second)
		}
		if j.msg != nil {
			j.msg.Ack()
		}
	}
}

// writeFailed is the writers' report of a failed write.
func (h *Hall) writeFailed(what hallFile, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	code := "hall.alert.write-failed.events"
	if what.capture {
		code = "hall.alert.write-failed.capture"
	}
	h.hallAlert("", "hall-journal", say(code, what.board, what.venue, err.Error()))
}

// syncWrites waits until every write the hall has queued is done (tests).
func (h *Hall) syncWrites() { h.w.sync() }
