package scaleout

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/text/language"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/web"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// HeaderTime carries the venue's wall-clock time when it handed the event
// to NATS (RFC 3339, nanoseconds): the hall measures the delay from it.
const HeaderTime = "Arbiterd-Time"

// KindPublish is the alert kind a venue raises on a board whose events
// cannot be published as they are (the stream holds another game's).
const KindPublish = "nats-publish"

// VenueOptions configure a venue's publisher.
type VenueOptions struct {
	Venue  string   // the venue's name: its JetStream domain and message ids
	Event  string   // the event's name (a subject token is made of it)
	Round  string   // the round
	Dir    string   // the round's journal directory (DATA/round-R): the captures
	Boards []string // the board ids, in the configuration's order

	// Server starts an embedded server (Domain and StoreDir default to the
	// venue's name and DATA/nats); ignored when URL is set.
	Server ServerOptions
	URL    string      // join this server instead of embedding one
	Auth   Auth        // for URL
	TLS    *tls.Config // for URL

	Logger *slog.Logger
	// Heartbeat is the interval of the venue's heartbeat (default 1 s).
	Heartbeat time.Duration
	// Poll is how often the captures are read for new lines (default
	// 5 s: the hall's copy of a capture is for appeals and replay, its
	// live view comes from the events, published at once; a shorter poll
	// multiplies the capture messages the venue and the hall handle — at
	// 2,000 boards, polled every second, they were almost as many as the
	// events, and the hall fell behind with both).
	Poll time.Duration
	// MaxBytes bounds each local stream (default: no bound: the venue
	// keeps everything while the hall is away).
	MaxBytes int64
	// Lang is the language of /venue when the configuration fixes one
	// (language.Und: each browser's, as the dashboard's).
	Lang language.Tag
}

// VenueOptionsFrom maps the daemon's configuration (with its nats
// section) to a venue's options.
func VenueOptionsFrom(c *config.Config, log *slog.Logger) (VenueOptions, error) {
	n := c.NATS
	if n == nil {
		return VenueOptions{}, errors.New("scaleout: the configuration has no nats section")
	}
	o := VenueOptions{Venue: n.Venue, Event: c.Event, Round: c.Round, Dir: filepath.Join(c.Data, "round-"+c.Round),
		URL: n.URL, Auth: Auth{Credentials: n.Credentials, NKeySeedFile: n.NKeySeedFile, NKeySeedEnv: n.NKeySeedEnv},
		Logger: log}
	if c.Lang != "" {
		o.Lang, _ = i18n.Parse("lang:", c.Lang) // checked when the configuration was read
	}
	for _, b := range c.Boards {
		o.Boards = append(o.Boards, b.ID())
	}
	if t := n.TLS; t != nil {
		tc, err := TLSConfig(t.Cert, t.Key, t.CA)
		if err != nil {
			return o, err
		}
		o.TLS = tc
	}
	store := n.Store
	if store == "" {
		store = filepath.Join(c.Data, "nats")
	}
	o.Server = ServerOptions{Name: "arbiterd-" + n.Venue, Domain: n.Venue, StoreDir: store, Listen: n.Listen,
		LeafListen: n.LeafListen, LeafNKey: n.LeafNKey, Auth: o.Auth, TLS: o.TLS}
	if len(n.Hall) > 0 {
		o.Server.Remotes = [][]string{n.Hall}
	}
	return o, nil
}

// Venue publishes one venue's boards to its JetStream streams.
type Venue struct {
	o   VenueOptions
	log *slog.Logger
	srv *Server // nil when joined by URL
	nc  *nats.Conn
	js  jetstream.JetStream

	mu      sync.Mutex
	boards  map[string]*publisher
	order   []*publisher
	hub     *hub.Hub    // raises alerts once serving
	arbiter web.Arbiter // records the acts the hall hands on (SetArbiter)
	link    hallLink    // what the venue hears of the hall
}

// publisher is one board's ordered queue of events to publish.
type publisher struct {
	v    *Venue
	key  Key
	id   string
	mu   sync.Mutex
	q    [][]byte // marshalled events, in order
	seqs []int
	wake chan struct{}
	last int // the last sequence number the stream holds (-1: not asked yet)

	published int   // for the heartbeat: what the stream holds
	tail      *tail // the capture reader (used by tailCaptures only)
}

// OpenVenue starts the embedded NATS server (or connects to URL) and
// creates the venue's streams. Events handed to OnEvent are queued from
// now on and published once Serve runs.
func OpenVenue(o VenueOptions) (*Venue, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = time.Second
	}
	if o.Poll <= 0 {
		o.Poll = 5 * time.Second
	}
	v := &Venue{o: o, log: o.Logger.With("venue", o.Venue), boards: map[string]*publisher{}}
	var err error
	if o.URL == "" {
		so := o.Server
		if so.Domain == "" {
			so.Domain = o.Venue
		}
		if so.Name == "" {
			so.Name = "arbiterd-" + o.Venue
		}
		if v.srv, err = StartServer(so); err != nil {
			return nil, err
		}
	}
	if v.nc, err = connect("arbiterd venue "+o.Venue, v.srv, o.URL, o.Auth, o.TLS); err != nil {
		v.Close()
		return nil, err
	}
	// Every board's publisher may have maxInFlight events out at once;
	// beyond this many in all, a publisher waits for acknowledgements; one
	// not acknowledged in 10 s is sent again.
	if v.js, err = jetstream.New(v.nc, jetstream.WithPublishAsyncMaxPending(16384), jetstream.WithPublishAsyncTimeout(10*time.Second)); err != nil {
		v.Close()
		return nil, fmt.Errorf("scaleout: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, s := range []jetstream.StreamConfig{
		{Name: EventsStream, Subjects: []string{EventsSubjects}, Description: "arbiterd: every board's events (venue " + o.Venue + ")"},
		{Name: CaptureStream, Subjects: []string{CaptureSubjects}, Description: "arbiterd: every board's capture (venue " + o.Venue + ")"},
	} {
		s.Storage, s.MaxBytes, s.Duplicates = jetstream.FileStorage, o.MaxBytes, 10*time.Minute
		if s.MaxBytes == 0 {
			s.MaxBytes = -1
		}
		if _, err := v.js.CreateOrUpdateStream(ctx, s); err != nil {
			v.Close()
			return nil, fmt.Errorf("scaleout: stream %s: %w", s.Name, err)
		}
	}
	for _, id := range o.Boards {
		v.board(id)
	}
	return v, nil
}

// Server returns the embedded NATS server (nil when joined by URL).
func (v *Venue) Server() *Server { return v.srv }

func (v *Venue) key(board string) Key {
	return Key{Event: Token(v.o.Event), Round: Token(v.o.Round), Board: Token(board), Venue: v.o.Venue}
}

func (v *Venue) board(id string) *publisher {
	v.mu.Lock()
	defer v.mu.Unlock()
	p := v.boards[id]
	if p == nil {
		p = &publisher{v: v, key: v.key(id), id: id, wake: make(chan struct{}, 1), last: -1}
		v.boards[id] = p
		v.order = append(v.order, p)
	}
	return p
}

// OnEvent queues a board's event for publishing; it never blocks (the
// daemon's OnEvent).
func (v *Venue) OnEvent(board string, e reconcile.Event) {
	p := v.board(board)
	p.mu.Lock()
	p.q = append(p.q, reconcile.Marshal(e))
	p.seqs = append(p.seqs, e.Seq)
	p.mu.Unlock()
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Serve publishes until run returns (the daemon's Run, given ctx), then
// drains what is queued (for at most 5 s) and closes the connection and
// the embedded server. h receives the venue's alerts.
func (v *Venue) Serve(ctx context.Context, h *hub.Hub, run func(context.Context) error) error {
	v.mu.Lock()
	v.hub = h
	v.mu.Unlock()
	pctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	v.mu.Lock()
	for _, p := range v.order {
		wg.Go(func() { p.run(pctx) })
	}
	v.mu.Unlock()
	wg.Go(func() { v.heartbeat(pctx) })
	wg.Go(func() { v.tailCaptures(pctx) })
	var subs []*nats.Subscription
	for subj, fn := range map[string]nats.MsgHandler{ActSubject(v.o.Venue): v.onAct, HallHeartbeatSubject(v.o.Venue): v.onHallHeartbeat} {
		sub, err := v.nc.Subscribe(subj, fn)
		if err != nil {
			stop()
			wg.Wait()
			v.Close()
			return fmt.Errorf("scaleout: %s: %w", subj, err)
		}
		subs = append(subs, sub)
	}
	err := run(ctx)
	for _, sub := range subs {
		sub.Unsubscribe()
	}
	// Drain: the queues empty, then the publishers stop.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && v.pending() > 0 && v.nc.IsConnected() {
		time.Sleep(20 * time.Millisecond)
	}
	stop()
	wg.Wait()
	v.Close()
	return err
}

// pending counts the events queued and not yet published.
func (v *Venue) pending() int {
	v.mu.Lock()
	ps := append([]*publisher(nil), v.order...)
	v.mu.Unlock()
	n := 0
	for _, p := range ps {
		p.mu.Lock()
		n += len(p.q)
		p.mu.Unlock()
	}
	return n
}

// Close closes the connection and shuts the embedded server down.
func (v *Venue) Close() {
	if v.nc != nil {
		v.nc.Drain()
		v.nc.Close()
	}
	if v.srv != nil {
		v.srv.Shutdown()
		v.srv.WaitForShutdown()
	}
}

func (v *Venue) alert(board, text string) {
	v.log.Error(text, "board", board)
	v.mu.Lock()
	h := v.hub
	v.mu.Unlock()
	if h != nil {
		h.Raise(board, hub.Amber, KindPublish, "", text)
	}
}

// retry calls f until it succeeds or ctx is done, backing off from 100 ms
// to 2 s.
func retry(ctx context.Context, f func(context.Context) error) error {
	wait := 100 * time.Millisecond
	for {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := f(actx)
		cancel()
		if err == nil || ctx.Err() != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// lastOnSubject returns the stream's last message on subj (nil: none).
func lastOnSubject(ctx context.Context, js jetstream.JetStream, stream, subj string) (*jetstream.RawStreamMsg, error) {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return nil, err
	}
	m, err := s.GetLastMsgForSubject(ctx, subj)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	return m, err
}

// run publishes the board's queue in order. The first time, it asks the
// stream for the board's last event: a recovered game's events up to it
// are already there and are not published again.
//
// What is queued goes out at once, without waiting for each message's
// acknowledgement before sending the next (the server stores one
// connection's messages in the order sent); then the acknowledgements are
// awaited. The queue moves past the messages acknowledged in order; from
// the first that failed, the rest is sent again (a message stored after
// all is dropped by its id).
func (p *publisher) run(ctx context.Context) {
	subj := p.key.EventsSubject()
	var lastData []byte
	warned := false
	wait := 100 * time.Millisecond
	for {
		p.mu.Lock()
		empty := len(p.q) == 0
		p.mu.Unlock()
		if empty {
			select {
			case <-ctx.Done():
				return
			case <-p.wake:
				continue
			}
		}
		if p.last < 0 {
			err := retry(ctx, func(ctx context.Context) error {
				m, err := lastOnSubject(ctx, p.v.js, EventsStream, subj)
				if err != nil {
					return err
				}
				p.last, lastData = 0, nil
				if m != nil {
					e, err := parseLoose(m.Data)
					if err != nil {
						// Not ours: publish the game from its start; the
						// hall skips what it already has by sequence number.
						p.v.alert(p.id, fmt.Sprintf("the last message of board %s in the venue's stream is not an event "+
							"(%v); the board's events are published again from the first", p.id, err))
						return nil
					}
					p.last, lastData = e.Seq, m.Data
				}
				return nil
			})
			if err != nil {
				return
			}
			p.setPublished(p.last)
		}
		p.mu.Lock()
		n := min(len(p.q), maxInFlight)
		batch, seqs := append([][]byte(nil), p.q[:n]...), append([]int(nil), p.seqs[:n]...)
		p.mu.Unlock()
		type sent struct {
			seq int
			ack jetstream.PubAckFuture
		}
		var out []sent
		done := 0 // of the batch: published (acknowledged) or skipped, in order
		for i, data := range batch {
			seq := seqs[i]
			if seq <= p.last && len(out) == 0 {
				if seq == p.last && lastData != nil && !bytes.Equal(data, lastData) && !warned {
					warned = true
					p.v.alert(p.id, fmt.Sprintf("the venue's stream already holds another game for board %s of round %s "+
						"(event %d differs); this game's events are not published: start it in a new round", p.id, p.v.o.Round, seq))
				}
				done = i + 1
				continue
			}
			msg := &nats.Msg{Subject: subj, Data: data, Header: nats.Header{}}
			msg.Header.Set(HeaderVenue, p.v.o.Venue)
			msg.Header.Set(HeaderTime, time.Now().UTC().Format(time.RFC3339Nano))
			f, err := p.v.js.PublishMsgAsync(msg, jetstream.WithMsgID(p.key.EventID(seq)))
			if err != nil {
				break // too many in flight: the rest goes with the next round
			}
			out = append(out, sent{seq, f})
		}
		failed := false
		for _, o := range out {
			select {
			case <-o.ack.Ok():
				if !failed {
					p.last = o.seq
					p.setPublished(o.seq)
					done++
				}
			case <-o.ack.Err():
				failed = true
			case <-ctx.Done():
				return
			}
		}
		p.mu.Lock()
		p.q, p.seqs = p.q[done:], p.seqs[done:]
		p.mu.Unlock()
		if failed || done == 0 && len(batch) > 0 {
			// The stream did not take them (the server busy, or down):
			// again, after a pause growing to 2 s.
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, 2*time.Second)
			continue
		}
		wait = 100 * time.Millisecond
	}
}

// maxInFlight bounds the events of one board sent before their
// acknowledgements come.
const maxInFlight = 64

func (p *publisher) setPublished(seq int) {
	p.mu.Lock()
	p.published = seq
	p.mu.Unlock()
}

// Heartbeat is what a venue says every second (core NATS, JSON).
type Heartbeat struct {
	Venue string         `json:"venue"`
	Event string         `json:"event"`
	Round string         `json:"round"`
	Time  time.Time      `json:"time"`
	Seqs  map[string]int `json:"seqs"` // per board: the last event the venue's stream holds
	// Acked lists the boards' alerts acknowledged at the venue (the hall
	// acknowledges them too).
	Acked []AlertRef `json:"acked,omitempty"`
}

func (v *Venue) heartbeat(ctx context.Context) {
	t := time.NewTicker(v.o.Heartbeat)
	defer t.Stop()
	for {
		hb := Heartbeat{Venue: v.o.Venue, Event: v.o.Event, Round: v.o.Round, Time: time.Now().UTC(), Seqs: map[string]int{}}
		v.mu.Lock()
		ids := make([]string, 0, len(v.order))
		for _, p := range v.order {
			p.mu.Lock()
			hb.Seqs[p.id] = p.published
			p.mu.Unlock()
			ids = append(ids, p.id)
		}
		h := v.hub
		v.mu.Unlock()
		hb.Acked = v.ackedAlerts(h, ids)
		v.checkLink()
		data, _ := json.Marshal(hb)
		v.nc.Publish(HeartbeatSubject(v.o.Venue), data) // best effort: the next one follows
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// maxChunk bounds a capture chunk (NATS's default payload limit is 1 MiB).
const maxChunk = 256 << 10

// tail is one board's capture reader.
type tail struct {
	id     string
	key    Key
	path   string
	off    int64 // bytes of the capture the stream holds (-1: not asked yet)
	warned bool
}

func (v *Venue) tailCaptures(ctx context.Context) {
	t := time.NewTicker(v.o.Poll)
	defer t.Stop()
	for {
		v.tailOnce(ctx)
		select {
		case <-ctx.Done():
			// The captures' last lines.
			fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			v.tailOnce(fctx)
			return
		case <-t.C:
		}
	}
}

func (v *Venue) tails() []*tail {
	v.mu.Lock()
	defer v.mu.Unlock()
	var ts []*tail
	for _, p := range v.order {
		if p.tail == nil {
			p.tail = &tail{id: p.id, key: p.key, path: filepath.Join(v.o.Dir, "board-"+p.id+".capture"), off: -1}
		}
		ts = append(ts, p.tail)
	}
	return ts
}

// tailOnce publishes every capture's new whole lines.
func (v *Venue) tailOnce(ctx context.Context) {
	for _, t := range v.tails() {
		if ctx.Err() != nil {
			return
		}
		if err := v.tailBoard(ctx, t); err != nil && ctx.Err() == nil {
			v.log.Warn("publishing the capture", "board", t.id, "err", err)
		}
	}
}

func (v *Venue) tailBoard(ctx context.Context, t *tail) error {
	fi, err := os.Stat(t.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if t.off < 0 {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		m, err := lastOnSubject(actx, v.js, CaptureStream, t.key.CaptureSubject())
		cancel()
		if err != nil {
			return err
		}
		t.off = 0
		if m != nil {
			off, err := strconv.ParseInt(m.Header.Get(HeaderOffset), 10, 64)
			if err != nil {
				return fmt.Errorf("the stream's last capture chunk has no offset: %w", err)
			}
			t.off = off + int64(len(m.Data))
		}
	}
	if fi.Size() < t.off {
		if !t.warned {
			t.warned = true
			v.alert(t.id, fmt.Sprintf("the capture of board %s is shorter (%d bytes) than what the venue's stream already "+
				"holds of it (%d bytes): another game in the same round? it is not published", t.id, fi.Size(), t.off))
		}
		return nil
	}
	if fi.Size() == t.off {
		return nil
	}
	f, err := os.Open(t.path)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, min(fi.Size()-t.off, 8*maxChunk))
	n, err := f.ReadAt(buf, t.off)
	if err != nil && err != io.EOF {
		return err
	}
	buf = buf[:n]
	for len(buf) > 0 {
		chunk := buf[:min(len(buf), maxChunk)]
		end := bytes.LastIndexByte(chunk, '\n')
		if end < 0 {
			if len(chunk) == maxChunk {
				return fmt.Errorf("a capture line longer than %d bytes at offset %d", maxChunk, t.off)
			}
			return nil // a line still being written
		}
		chunk = chunk[:end+1]
		msg := &nats.Msg{Subject: t.key.CaptureSubject(), Data: chunk, Header: nats.Header{}}
		msg.Header.Set(HeaderVenue, v.o.Venue)
		msg.Header.Set(HeaderOffset, strconv.FormatInt(t.off, 10))
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := v.js.PublishMsg(actx, msg, jetstream.WithMsgID(t.key.CaptureID(t.off)))
		cancel()
		if err != nil {
			return err
		}
		t.off += int64(len(chunk))
		buf = buf[len(chunk):]
	}
	return nil
}
