package scaleout

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/arbiterd/arbiterd/internal/journal/atomicfile"
	"github.com/arbiterd/arbiterd/internal/output/broadcast"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/web"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Alert kinds the hall raises on a board.
const (
	KindBadMessage = "hall-bad-message" // a message on a board's subject that is not an event
	KindClash      = "hall-board-clash" // two venues publish the same board number
	KindGap        = "hall-missing-events"
	KindVenueCut   = "venue-cut-off" // the venue's heartbeat stopped: its boards may be behind
	KindVenueBack  = "venue-back"
)

// VenueRef is a venue the hall gathers.
type VenueRef struct {
	Name string // the venue's name (its JetStream domain)
	// Boards lists the board ids the venue serves; an event for another
	// board is refused with an alert. Empty: any board.
	Boards []string
}

// HallOptions configure a hall.
type HallOptions struct {
	Data   string // the hall's data directory: DATA/venues/<venue>/round-R/board-B.{events.jsonl,capture}
	Venues []VenueRef
	// Round, when set, is the only round the hall shows.
	Round string

	// Server starts the hall's embedded server (Domain HallDomain, StoreDir
	// DATA/nats by default); ignored when URL is set.
	Server ServerOptions
	URL    string      // join this server or cluster (comma-separated URLs) instead
	Auth   Auth        // for URL
	TLS    *tls.Config // for URL
	// Replicas of the hall's streams (1; 3 on a three-node cluster).
	Replicas int
	// Consumer names the hall's durable consumers (default "hall"); each
	// hall process on one cluster has its own.
	Consumer string

	Hub    *hub.Hub // nil: a new one
	Logger *slog.Logger
	// Stale is how long a venue's heartbeat may be silent before the venue
	// counts as cut off (default 3 s).
	Stale time.Duration
	Now   func() time.Time
	// OnEvent, when set, sees every event the hall applies, after its
	// file's write is queued and the hub, with the venue's publish time
	// (tests, load figures).
	OnEvent func(venue string, e reconcile.Event, raw []byte, published time.Time)
}

// Hall gathers every venue's boards.
type Hall struct {
	o   HallOptions
	log *slog.Logger
	hub *hub.Hub
	srv *Server
	nc  *nats.Conn
	js  jetstream.JetStream

	kv jetstream.KeyValue // AlertsBucket
	m  *hallMetrics
	w  *hallWriters // the files' writers (hallwriter.go)

	mu      sync.Mutex
	started time.Time // when Run began listening for heartbeats
	venues  map[string]*venueState
	games   map[gameKey]*game
	owners  map[string]string // hub board id → venue
	// ownersDirty: owners changed since owners.json was written (saveOwners).
	ownersDirty bool
	saveMu      sync.Mutex // one owners.json write at a time
	applied     int64

	// The alerts the hall raised, by id (hallalerts.go), and the boards'
	// on the hub: board → hub alert id → alert.
	stored    map[int]*storedAlert
	lastAlert int
	raised    map[string]map[int]*storedAlert
	// acks are the boards' alerts known to be acknowledged (at the hall
	// or at their venue), ackSeqs the same by game and event, ackSent when
	// each was last handed to its venue.
	acks    map[ackKey]bool
	ackBy   map[ackKey]string // who acknowledged at the hall (Ack), handed to the venue; not kept across a restart
	ackSeqs map[gameKey]map[int]bool
	ackSent map[ackKey]time.Time
	pending map[string][]byte // bucket writes not done yet
	kick    chan struct{}
	ticks   int // of the watch loop
}

type gameKey struct{ venue, round, board string }

// game is one venue's board in one round, as the hall has it on disk.
type game struct {
	last    int   // the last event written
	capSize int64 // the capture's bytes written
	ev, cap *os.File
	gapWarn bool
	capWarn bool
	// evGap and capGap are when a message first came before the one it
	// follows and the hall's stream did not hold that one either (zero:
	// none waiting); it is handed back until the earlier one comes, or
	// until gapWait passes and the gap is taken as lost.
	evGap, capGap time.Time
	// evSeq and capSeq are the hall stream's sequence numbers of the last
	// event and chunk written (0: not known, after a restart): where a
	// look-up of a late message starts.
	evSeq, capSeq uint64
	clashed       bool
	info          hub.Info
}

type venueState struct {
	ref      VenueRef
	boards   map[string]bool
	lastHB   time.Time
	hb       Heartbeat
	cut      bool
	cutSince time.Time
	warned   map[string]bool // boards refused, each reported once
	events   int64           // events written since the start (metrics)
	capBytes int64           // capture bytes written since the start (metrics)
	shown    string          // the state the venue's boards show (Link)
}

// HallAlert is an alert the hall raised. Those on /hall belong to no
// board: a venue cut off and back, a venue the hall does not know, a board
// a venue does not serve. The arbiter acknowledges them there.
type HallAlert struct {
	ID    int       `json:"id"`
	Time  time.Time `json:"time"`
	Venue string    `json:"venue,omitempty"`
	Kind  string    `json:"kind"`
	Text  string    `json:"text"` // in English
	Acked bool      `json:"acked"`
	say   *saying   // Text as a sentence of the catalogs (nil: an alert of an earlier hall)
}

// OpenHall starts the hall's NATS server (or connects), creates the
// hall's streams sourcing every venue, and loads what the hall already
// has on disk into the hub.
func OpenHall(o HallOptions) (*Hall, error) {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Hub == nil {
		o.Hub = hub.New(hub.Options{})
	}
	if o.Stale <= 0 {
		o.Stale = 3 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Consumer == "" {
		o.Consumer = "hall"
	}
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
	h := &Hall{o: o, log: o.Logger, hub: o.Hub, venues: map[string]*venueState{}, games: map[gameKey]*game{},
		owners: map[string]string{}, stored: map[int]*storedAlert{}, raised: map[string]map[int]*storedAlert{},
		acks: map[ackKey]bool{}, ackSeqs: map[gameKey]map[int]bool{}, ackSent: map[ackKey]time.Time{},
		pending: map[string][]byte{}, kick: make(chan struct{}, 1)}
	h.m = newHallMetrics(h)
	h.w = newHallWriters(h.writeFailed)
	for _, r := range o.Venues {
		vs := &venueState{ref: r, warned: map[string]bool{}}
		if len(r.Boards) > 0 {
			vs.boards = map[string]bool{}
			for _, b := range r.Boards {
				vs.boards[b] = true
			}
		}
		h.venues[r.Name] = vs
	}
	if err := h.load(); err != nil {
		h.w.close()
		return nil, err
	}
	var err error
	if o.URL == "" {
		so := o.Server
		so.Domain = HallDomain
		if so.Name == "" {
			so.Name = "arbiterd-hall"
		}
		if so.StoreDir == "" {
			so.StoreDir = filepath.Join(o.Data, "nats")
		}
		if h.srv, err = StartServer(so); err != nil {
			h.w.close()
			h.closeFiles()
			return nil, err
		}
		// JetStream asks a venue for its stream once the hall's stream is
		// created, and after a lost request waits long before asking again:
		// give the leaf connections a moment to come up first.
		for deadline := time.Now().Add(10 * time.Second); h.srv.NumLeafNodes() < len(so.Remotes) && time.Now().Before(deadline); {
			time.Sleep(20 * time.Millisecond)
		}
	}
	if h.nc, err = connect("arbiterd hall", h.srv, o.URL, o.Auth, o.TLS); err != nil {
		h.Close()
		return nil, err
	}
	if h.js, err = jetstream.NewWithDomain(h.nc, HallDomain); err != nil {
		h.Close()
		return nil, fmt.Errorf("scaleout: %w", err)
	}
	if err := retry(context.Background(), func(ctx context.Context) error { return h.streams(ctx) }); err != nil {
		h.Close()
		return nil, err
	}
	// The alerts of before a restart, as they were.
	if err := retry(context.Background(), func(ctx context.Context) error {
		if err := h.openAlerts(ctx); err != nil {
			return err
		}
		return h.restoreAlerts(ctx)
	}); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// Hub returns the hall's live view of every board.
func (h *Hall) Hub() *hub.Hub { return h.hub }

// Server returns the hall's embedded NATS server (nil when joined by URL).
func (h *Hall) Server() *Server { return h.srv }

// streams creates or updates the hall's streams and consumers.
//
// Each venue's messages come into the hall's streams under subjects of
// their own (arbiterd.<venue>.<event>.<round>.<board>.<kind>: the
// source's subject transform puts the venue in), and each venue has its
// own durable consumer of each stream: the venues are read side by side,
// one venue's backlog does not hold the others up, and the server
// delivers to several consumers at once (one consumer for every venue
// fell tens of seconds behind at 2,000 boards). A hall of an earlier
// version read the venues through one consumer per stream; it is removed.
func (h *Hall) streams(ctx context.Context) error {
	for _, s := range []struct{ name, src, kind string }{
		{HallEventsStream, EventsStream, "events"}, {HallCaptureStream, CaptureStream, "capture"},
	} {
		cfg := jetstream.StreamConfig{Name: s.name, Storage: jetstream.FileStorage, Replicas: h.o.Replicas,
			Description: "arbiterd hall: every venue's " + s.kind, Duplicates: 10 * time.Minute}
		for _, v := range h.o.Venues {
			cfg.Sources = append(cfg.Sources, &jetstream.StreamSource{Name: s.src,
				External:          &jetstream.ExternalStream{APIPrefix: "$JS." + v.Name + ".API"},
				SubjectTransforms: []jetstream.SubjectTransformConfig{{Source: "arbiterd.>", Destination: "arbiterd." + v.Name + ".>"}}})
		}
		if _, err := h.js.CreateOrUpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("scaleout: hall stream %s: %w", s.name, err)
		}
		for _, v := range h.o.Venues {
			cc := jetstream.ConsumerConfig{Durable: h.consumerName(s.kind, v.Name), AckPolicy: jetstream.AckExplicitPolicy,
				DeliverPolicy: jetstream.DeliverAllPolicy, AckWait: ackWait, MaxAckPending: 4096, Replicas: h.o.Replicas,
				FilterSubject: "arbiterd." + v.Name + ".*.*.*." + s.kind}
			if h.o.Round != "" {
				cc.FilterSubject = "arbiterd." + v.Name + ".*." + Token(h.o.Round) + ".*." + s.kind
			}
			if _, err := h.js.CreateOrUpdateConsumer(ctx, s.name, cc); err != nil {
				return fmt.Errorf("scaleout: hall consumer %s: %w", cc.Durable, err)
			}
		}
		// The one consumer of every venue of an earlier hall, if any.
		if err := h.js.DeleteConsumer(ctx, s.name, h.o.Consumer+"-"+s.kind); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			h.log.Debug("removing the hall's earlier consumer", "stream", s.name, "err", err)
		}
	}
	return nil
}

// consumerName is the durable consumer of a venue's messages of kind
// ("events" or "capture").
func (h *Hall) consumerName(kind, venue string) string {
	return h.o.Consumer + "-" + kind + "-" + venue
}

// Close writes what is queued, stops the connection and the embedded
// server and closes the files.
func (h *Hall) Close() {
	h.w.close()
	if h.nc != nil {
		h.nc.Close()
	}
	if h.srv != nil {
		h.srv.Shutdown()
		h.srv.WaitForShutdown()
	}
	h.closeFiles()
}

func (h *Hall) closeFiles() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, g := range h.games {
		if g.ev != nil {
			g.ev.Close()
			g.ev = nil
		}
		if g.cap != nil {
			g.cap.Close()
			g.cap = nil
		}
	}
}

// Run reads the hall's streams and the venues' heartbeats until ctx is
// done.
func (h *Hall) Run(ctx context.Context) error {
	sub, err := h.nc.Subscribe("arbiterd.heartbeat.*", h.onHeartbeat)
	if err != nil {
		return fmt.Errorf("scaleout: heartbeat: %w", err)
	}
	h.mu.Lock()
	h.started = h.o.Now()
	h.mu.Unlock()
	defer sub.Unsubscribe()
	var wg sync.WaitGroup
	for _, v := range h.o.Venues {
		wg.Go(func() { h.consume(ctx, HallEventsStream, h.consumerName("events", v.Name), h.onEvent) })
		wg.Go(func() { h.consume(ctx, HallCaptureStream, h.consumerName("capture", v.Name), h.onCapture) })
	}
	wg.Go(func() { h.watch(ctx) })
	wg.Go(func() { h.persister(ctx) })
	wg.Wait()
	return nil
}

// consume reads one stream with the hall's durable consumer, in order,
// handing each message to fn; fn's message is acknowledged when fn
// returns true. Broken connections are retried.
func (h *Hall) consume(ctx context.Context, stream, name string, fn func(jetstream.Msg) bool) {
	for ctx.Err() == nil {
		var it jetstream.MessagesContext
		err := retry(ctx, func(ctx context.Context) error {
			c, err := h.js.Consumer(ctx, stream, name)
			if errors.Is(err, jetstream.ErrConsumerNotFound) || errors.Is(err, jetstream.ErrStreamNotFound) {
				if err := h.streams(ctx); err != nil {
					return err
				}
				c, err = h.js.Consumer(ctx, stream, name)
			}
			if err != nil {
				return err
			}
			it, err = c.Messages(jetstream.PullMaxMessages(512), jetstream.PullHeartbeat(5*time.Second))
			return err
		})
		if err != nil {
			return
		}
		stop := context.AfterFunc(ctx, it.Stop)
		for {
			m, err := it.Next()
			if err != nil {
				if ctx.Err() == nil {
					h.log.Debug("hall consumer interrupted; resuming", "consumer", name, "err", err)
				}
				break
			}
			hm := &heldMsg{Msg: m}
			if fn(hm) {
				if !hm.queued {
					m.Ack()
				}
			} else {
				m.NakWithDelay(200 * time.Millisecond)
			}
		}
		stop()
		it.Stop()
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// route checks a message's subject and venue: it returns the game it
// belongs to (nil: refused, with an alert) and the board's hub id.
func (h *Hall) route(m jetstream.Msg, wantKind string) (*game, gameKey, bool) {
	subj := m.Subject()
	venue := m.Headers().Get(HeaderVenue)
	_, round, board, kind, ok := parseSubject(subj)
	if !ok || kind != wantKind {
		h.hallAlert(venue, KindBadMessage, say("hall.alert.bad-subject", subj))
		return nil, gameKey{}, false
	}
	vs := h.venues[venue]
	if vs == nil {
		h.hallAlert(venue, KindBadMessage, say("hall.alert.unknown-venue", subj, venue))
		return nil, gameKey{}, false
	}
	if vs.boards != nil && !vs.boards[board] {
		if !vs.warned[round+"/"+board] {
			vs.warned[round+"/"+board] = true
			h.hallAlert(venue, "hall-unknown-board", say("hall.alert.unknown-board", venue, board, round))
		}
		return nil, gameKey{}, false
	}
	k := gameKey{venue, round, board}
	g, err := h.game(k)
	if err != nil {
		h.hallAlert(venue, "hall-journal", say("hall.alert.journal", board, venue, err.Error()))
		return nil, k, false
	}
	return g, k, true
}

// routed hands m, under the hall's lock, to fn with the game it belongs
// to; a message that route refuses is acknowledged and dropped.
func (h *Hall) routed(m jetstream.Msg, kind string, fn func(m jetstream.Msg, g *game, k gameKey) bool) bool {
	h.prepare(m)
	h.mu.Lock()
	defer h.mu.Unlock()
	g, k, ok := h.route(m, kind)
	if !ok {
		return true
	}
	return fn(m, g, k)
}

func (h *Hall) dir(k gameKey) string {
	return filepath.Join(h.o.Data, "venues", k.venue, "round-"+k.round)
}

// game returns the game of k, opening its files (prepare has opened them
// already, but when it failed).
func (h *Hall) game(k gameKey) (*game, error) {
	if g := h.games[k]; g != nil && g.ev != nil {
		return g, nil
	}
	g := h.games[k]
	if g == nil {
		g = &game{info: hub.Info{ID: k.board, Round: k.round}}
		h.games[k] = g
	}
	var err error
	g.ev, g.cap, err = h.openFiles(k)
	return g, err
}

// openFiles opens (creating) a game's events file and capture.
func (h *Hall) openFiles(k gameKey) (ev, cp *os.File, err error) {
	if err := os.MkdirAll(h.dir(k), 0o755); err != nil {
		return nil, nil, err
	}
	base := filepath.Join(h.dir(k), "board-"+k.board)
	if ev, err = os.OpenFile(base+".events.jsonl", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		return nil, nil, err
	}
	if cp, err = os.OpenFile(base+".capture", os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err != nil {
		ev.Close()
		return nil, nil, err
	}
	return ev, cp, nil
}

// prepare opens the files of a game the hall has not opened yet, before
// the message is routed under the hall's lock: creating files can wait
// long on a busy disk (the venues syncing their captures on it), and at
// the start of a round every board's files are new; under the lock, each
// creation held every consumer up. A message route would refuse is left
// to it.
func (h *Hall) prepare(m jetstream.Msg) {
	_, round, board, _, ok := parseSubject(m.Subject())
	venue := m.Headers().Get(HeaderVenue)
	if !ok {
		return
	}
	k := gameKey{venue, round, board}
	h.mu.Lock()
	g, vs := h.games[k], h.venues[venue]
	skip := g != nil && g.ev != nil || vs == nil || vs.boards != nil && !vs.boards[board]
	h.mu.Unlock()
	if skip {
		return
	}
	ev, cp, err := h.openFiles(k)
	if err != nil {
		return // route tries again, and says what is wrong
	}
	h.mu.Lock()
	if g = h.games[k]; g == nil {
		g = &game{info: hub.Info{ID: k.board, Round: k.round}}
		h.games[k] = g
	}
	if g.ev == nil {
		g.ev, g.cap, ev, cp = ev, cp, nil, nil
	}
	h.mu.Unlock()
	if ev != nil {
		ev.Close()
		cp.Close()
	}
}

// owner tells whether venue shows board id on the hub, claiming it when
// nobody has; it raises the clash alert once per game.
func (h *Hall) owner(k gameKey, g *game) bool {
	prev, ok := h.owners[k.board]
	if !ok {
		h.owners[k.board] = k.venue
		h.ownersDirty = true // saved by the watch loop, off the consumers' path
		h.hub.AddBoard(g.info)
		return true
	}
	if prev == k.venue {
		return true
	}
	if !g.clashed {
		g.clashed = true
		h.boardAlert(k, KindClash, say("hall.alert.clash", k.venue, k.board, k.round, prev, h.dir(k)))
	}
	return false
}

func (h *Hall) ownersPath() string { return filepath.Join(h.o.Data, "owners.json") }

// saveOwners writes owners.json when a board got its venue since the last
// save. It is called from the watch loop, not for each new board: the file
// is replaced with a sync, and two thousand boards appearing at the start
// of a round would otherwise hold every consumer up for as many syncs. A
// board whose owner was not saved yet when the hall stopped is given to
// the venue whose files hold it when the hall starts again (load).
func (h *Hall) saveOwners() {
	h.mu.Lock()
	if !h.ownersDirty {
		h.mu.Unlock()
		return
	}
	h.ownersDirty = false
	data, _ := json.MarshalIndent(h.owners, "", "  ")
	h.mu.Unlock()
	h.saveMu.Lock()
	defer h.saveMu.Unlock()
	if err := atomicfile.Write(h.ownersPath(), data, 0o644); err != nil {
		h.log.Error("saving the board owners", "err", err)
		h.mu.Lock()
		h.ownersDirty = true
		h.mu.Unlock()
	}
}

// onEvent applies one event message: written to the venue's events file,
// then shown. It returns false when the message must come again.
func (h *Hall) onEvent(m jetstream.Msg) bool {
	e, err := parseLoose(m.Data()) // before the hall's lock: it needs none
	return h.routed(m, "events", func(m jetstream.Msg, g *game, k gameKey) bool { return h.applyEvent(m, g, k, e, err) })
}

// applyEvent is onEvent for a routed message and its event as parsed
// (err: not an event), under h.mu.
func (h *Hall) applyEvent(m jetstream.Msg, g *game, k gameKey, e reconcile.Event, err error) bool {
	data := m.Data()
	if err == nil && e.Board != k.board {
		err = fmt.Errorf("%w: its board %q is not the subject's %s", ErrNotEvent, e.Board, k.board)
	}
	if err != nil {
		text := say("hall.alert.not-event", k.venue, k.board, err.Error())
		if _, ok := h.owners[k.board]; ok {
			h.boardAlert(k, KindBadMessage, text)
		} else {
			h.hallAlert(k.venue, KindBadMessage, text)
		}
		return true
	}
	if e.Seq <= g.last {
		return true // already written: a redelivery
	}
	if e.Seq != g.last+1 && !h.fillEvents(k, g, m.Subject(), e.Seq) {
		// An earlier event is late (delivered again after the ack wait,
		// behind the backlog), and the hall's stream, which holds it
		// already, could not be read (a hall node failing over): no
		// evidence of a loss, and no start of the wait for one.
		return false
	}
	if e.Seq != g.last+1 {
		// Not in the hall's stream: not sourced yet, or lost at the venue.
		if !h.gapExpired(&g.evGap) {
			return false
		}
		if !g.gapWarn {
			g.gapWarn = true
			text := say("hall.alert.events-gap", strconv.Itoa(g.last+1), strconv.Itoa(e.Seq-1), k.board, k.venue)
			h.owner(k, g)
			h.boardAlert(k, KindGap, text)
		}
	}
	g.evGap = time.Time{}
	return h.writeEvent(k, g, e, data, m.Headers().Get(HeaderTime), streamSeq(m), m)
}

// writeEvent writes the board's next event to its file (queued: the
// writer acknowledges m, when given, once it is written) and shows it.
func (h *Hall) writeEvent(k gameKey, g *game, e reconcile.Event, data []byte, published string, seq uint64, m jetstream.Msg) bool {
	h.queue(g.ev, append(data[:len(data):len(data)], '\n'), m, hallFile{k.board, k.venue, false})
	g.last, g.evSeq = e.Seq, seq
	h.applied++
	if vs := h.venues[k.venue]; vs != nil {
		vs.events++
	}
	if h.owner(k, g) {
		h.hub.Publish(k.board, e)
		if h.ackSeqs[k][e.Seq] {
			h.applyAcks(k.board) // acknowledged before (at the venue, or before a restart)
		}
	}
	t, _ := time.Parse(time.RFC3339Nano, published)
	if !t.IsZero() {
		h.m.delay.Observe(h.o.Now().Sub(t).Seconds())
	}
	if h.o.OnEvent != nil {
		h.o.OnEvent(k.venue, e, data, t)
	}
	return true
}

// streamSeq is a message's sequence number in the hall's stream (0: not
// known).
func streamSeq(m jetstream.Msg) uint64 {
	if md, err := m.Metadata(); err == nil {
		return md.Sequence.Stream
	}
	return 0
}

// fillEvents writes the board's events before event upTo that the hall
// has not had yet, read straight from the hall's stream. The hall's
// consumer delivers in the stream's order, but a message delivered and
// not acknowledged within the ack wait (the hall behind under load, a
// consumer restarted) comes again after the ones that follow it, and
// may come long after; the stream holds the venue's messages in the
// venue's order, so an earlier event is there before the later one that
// came, and need not be waited for.
//
// It tells whether the stream was read (false: the look-up failed).
func (h *Hall) fillEvents(k gameKey, g *game, subj string, upTo int) bool {
	return h.scanStream(HallEventsStream, subj, k.venue, g.evSeq, func(raw *jetstream.RawStreamMsg) bool {
		e, err := parseLoose(raw.Data)
		switch {
		case err != nil || e.Board != k.board || e.Seq <= g.last:
			return true // not an event (reported when delivered), or written already
		case e.Seq != g.last+1 || e.Seq >= upTo:
			return false
		}
		return h.writeEvent(k, g, e, raw.Data, raw.Header.Get(HeaderTime), raw.Sequence, nil)
	})
}

// scanStream hands fn the venue's messages on subj in the hall's stream,
// in order, from after stream sequence after, until fn returns false or
// there are no more. A failed look-up is logged and reported (false): the
// message that started it comes again. It runs under the hall's lock, as
// the writes do: a few requests to the hall's server, only when a message
// came out of order.
func (h *Hall) scanStream(stream, subj, venue string, after uint64, fn func(*jetstream.RawStreamMsg) bool) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s, err := h.js.Stream(ctx, stream)
	if err != nil {
		h.log.Warn("looking up a late message in the hall's stream", "stream", stream, "err", err)
		return false
	}
	for seq := after + 1; ; {
		raw, err := s.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subj))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return true
		} else if err != nil {
			h.log.Warn("looking up a late message in the hall's stream", "stream", stream, "err", err)
			return false
		}
		seq = raw.Sequence + 1
		if raw.Header.Get(HeaderVenue) != venue {
			continue
		}
		if !fn(raw) {
			return true
		}
	}
}

// gapWait is how long a message that came before its predecessor, when
// the hall's stream does not hold the predecessor either, is handed back
// before the gap is taken as a loss (the venue's stream lost it) and the
// board goes on: the stream keeps a venue's messages in order, so this is
// a margin, not a wait for a late delivery (fillEvents).
const gapWait = 3 * ackWait

// ackWait is the hall consumers' ack wait.
const ackWait = 5 * time.Second

// gapExpired tells whether a gap first seen at *since has lasted gapWait,
// starting the wait when it is new.
func (h *Hall) gapExpired(since *time.Time) bool {
	now := h.o.Now()
	if since.IsZero() {
		*since = now
	}
	return now.Sub(*since) > gapWait
}

// onCapture writes one capture chunk at its offset.
func (h *Hall) onCapture(m jetstream.Msg) bool { return h.routed(m, "capture", h.writeCapture) }

// writeCapture is onCapture for a routed message, under h.mu.
func (h *Hall) writeCapture(m jetstream.Msg, g *game, k gameKey) bool {
	off, err := strconv.ParseInt(m.Headers().Get(HeaderOffset), 10, 64)
	if err != nil {
		h.hallAlert(k.venue, KindBadMessage, say("hall.alert.no-offset", k.board, k.venue))
		return true
	}
	data := m.Data()
	if off+int64(len(data)) <= g.capSize {
		return true // a redelivery
	}
	if off > g.capSize && !h.fillCapture(k, g, m.Subject(), off) {
		// An earlier chunk is late, and the hall's stream, which holds it
		// already, could not be read (see applyEvent).
		return false
	}
	if off > g.capSize {
		// Not in the hall's stream: not sourced yet, or lost at the venue.
		if !h.gapExpired(&g.capGap) {
			return false
		}
		if !g.capWarn {
			g.capWarn = true
			h.hallAlert(k.venue, KindGap, say("hall.alert.capture-gap", k.board, k.venue,
				strconv.FormatInt(g.capSize, 10), strconv.FormatInt(off, 10)))
		}
		return true
	}
	g.capGap = time.Time{}
	return h.writeChunk(k, g, off, data, streamSeq(m), m)
}

// writeChunk writes what the hall does not have yet of a capture chunk
// at offset off (off is at most the capture's size; queued: the writer
// acknowledges m, when given, once it is written).
func (h *Hall) writeChunk(k gameKey, g *game, off int64, data []byte, seq uint64, m jetstream.Msg) bool {
	data = data[g.capSize-off:] // the part not yet written (all of it, but after a torn write)
	h.queue(g.cap, data, m, hallFile{k.board, k.venue, true})
	g.capSize += int64(len(data))
	g.capSeq = seq
	if vs := h.venues[k.venue]; vs != nil {
		vs.capBytes += int64(len(data))
	}
	if h.meta(g, data) && h.owners[k.board] == k.venue {
		h.hub.AddBoard(g.info)
	}
	return true
}

// fillCapture writes the board's capture chunks before offset upTo that
// the hall has not had yet, read straight from the hall's stream (see
// fillEvents).
func (h *Hall) fillCapture(k gameKey, g *game, subj string, upTo int64) bool {
	return h.scanStream(HallCaptureStream, subj, k.venue, g.capSeq, func(raw *jetstream.RawStreamMsg) bool {
		off, err := strconv.ParseInt(raw.Header.Get(HeaderOffset), 10, 64)
		switch {
		case err != nil || off+int64(len(raw.Data)) <= g.capSize:
			return true // no offset (reported when delivered), or written already
		case off > g.capSize || off >= upTo:
			return false
		}
		return h.writeChunk(k, g, off, raw.Data, raw.Sequence, nil)
	})
}

// meta reads the players, the time control and the separate clock's port
// (the port declared with the lineclock driver) from capture lines; it
// tells whether they changed.
func (h *Hall) meta(g *game, data []byte) bool {
	changed := false
	for line := range bytes.Lines(data) {
		line = bytes.TrimRight(line, "\r\n")
		if decl, ok := bytes.CutPrefix(line, []byte("#port ")); ok {
			if name, driver, _ := strings.Cut(string(decl), " "); driver == "lineclock" && g.info.ClockPort != name {
				g.info.ClockPort, changed = name, true
			}
			continue
		}
		kv, ok := bytes.CutPrefix(line, []byte("#meta "))
		if !ok {
			continue
		}
		key, val, _ := strings.Cut(string(kv), "=")
		switch key {
		case "white":
			g.info.White, changed = val, true
		case "black":
			g.info.Black, changed = val, true
		case "timecontrol":
			g.info.TimeControl, changed = val, true
		}
	}
	return changed
}

// onHeartbeat records a venue's heartbeat.
func (h *Hall) onHeartbeat(msg *nats.Msg) {
	var hb Heartbeat
	if err := json.Unmarshal(msg.Data, &hb); err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if vs := h.venues[hb.Venue]; vs != nil {
		vs.lastHB, vs.hb = h.o.Now(), hb
	}
}

// watch marks the venues whose heartbeat stopped, and those that came
// back, four times a second until ctx ends; every second it tells each
// venue that it hears it and exchanges acknowledgements with the venues.
func (h *Hall) watch(ctx context.Context) {
	t := time.NewTicker(250 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			h.checkVenues()
			h.saveOwners()
			h.ticks++
			if h.ticks%4 == 0 {
				h.tellVenues()
			}
			if h.ticks%20 == 0 {
				h.mu.Lock()
				h.noteAllAcks()
				h.mu.Unlock()
			}
		case <-ctx.Done():
			h.saveOwners()
			return
		}
	}
}

// checkVenues raises venue-cut on a venue silent for longer than Stale,
// and venue-back once it is heard again and the hall has caught up: one
// alert for the venue, on /hall; its boards show the venue cut off (Link)
// while it is.
func (h *Hall) checkVenues() {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.o.Now()
	for _, vs := range h.venues {
		heard := vs.lastHB
		if heard.IsZero() {
			heard = h.started // never heard: as if heard when the hall started
		}
		silent := now.Sub(heard)
		switch {
		case !vs.cut && silent > h.o.Stale:
			vs.cut, vs.cutSince = true, heard
			text := say("hall.alert.cut-off", vs.ref.Name, heard.UTC().Format("15:04:05"))
			if vs.lastHB.IsZero() {
				text = say("hall.alert.never-heard", vs.ref.Name, heard.UTC().Format("15:04:05"))
			}
			h.venueAlert(vs, KindVenueCut, text)
		case vs.cut && silent <= h.o.Stale && h.behindLocked(vs) == 0:
			vs.cut = false
			h.venueAlert(vs, KindVenueBack, say("hall.alert.back", vs.ref.Name, now.Sub(vs.cutSince).Round(time.Second).String()))
		}
		if st, _ := h.stateLocked(vs); st != vs.shown {
			// The venue's boards show their link: the dashboard is told.
			vs.shown = st
			for b, v := range h.owners {
				if v == vs.ref.Name {
					h.hub.Touch(b)
				}
			}
		}
	}
}

// venueAlert raises one alert for the venue (on /hall). h.mu is held.
func (h *Hall) venueAlert(vs *venueState, kind string, text saying) {
	h.log.Warn(text.String(), "venue", vs.ref.Name)
	h.newAlert(vs.ref.Name, "", "", kind, text)
	h.m.alerts.WithLabelValues(kind).Inc()
}

// tellVenues sends each venue the hall's heartbeat (HallHeartbeat: the
// hall hears it, and how far it has written its boards) and exchanges
// acknowledgements with the venues it hears.
func (h *Hall) tellVenues() {
	h.mu.Lock()
	now := h.o.Now()
	beats := map[string]*HallHeartbeat{}
	for name, vs := range h.venues {
		beats[name] = &HallHeartbeat{Hall: cmp.Or(h.o.Server.Name, "arbiterd-hall"), Time: now.UTC(), Round: vs.hb.Round, Seqs: map[string]int{}}
	}
	for k, g := range h.games {
		if hb := beats[k.venue]; hb != nil && k.round == Token(hb.Round) {
			hb.Seqs[k.board] = g.last
		}
	}
	send := h.syncAcks(now)
	h.mu.Unlock()
	for name, hb := range beats {
		data, _ := json.Marshal(hb)
		h.nc.Publish(HallHeartbeatSubject(name), data) // best effort: the next one follows
	}
	if len(send) > 0 {
		go h.sendAcks(send)
	}
}

// behindLocked counts the events the venue says it holds and the hall
// has not written yet.
func (h *Hall) behindLocked(vs *venueState) int {
	n := 0
	for b, seq := range vs.hb.Seqs {
		g := h.games[gameKey{vs.ref.Name, Token(vs.hb.Round), Token(b)}]
		last := 0
		if g != nil {
			last = g.last
		}
		if seq > last {
			n += seq - last
		}
	}
	return n
}

// stateLocked is the venue's state: "waiting" (not heard yet, just after
// the start), "connected" or "cut-off" (not heard for the Stale time), and
// since when it is cut off.
func (h *Hall) stateLocked(vs *venueState) (string, time.Time) {
	heard := vs.lastHB
	if heard.IsZero() {
		heard = h.started
	}
	switch {
	case heard.IsZero() || vs.lastHB.IsZero() && h.o.Now().Sub(heard) <= h.o.Stale:
		return "waiting", time.Time{}
	case h.o.Now().Sub(heard) > h.o.Stale:
		return "cut-off", heard
	}
	return "connected", time.Time{}
}

// linkLocked is a venue's link as a board of it shows it. h.mu is held.
func (h *Hall) linkLocked(venue string) *web.Link {
	vs := h.venues[venue]
	if vs == nil {
		return &web.Link{Venue: venue, State: "cut-off"}
	}
	state, since := h.stateLocked(vs)
	return &web.Link{Venue: venue, State: state, Since: since}
}

// Link is a board's link to the venue that plays it (web.Options.Link).
func (h *Hall) Link(board string) *web.Link {
	h.mu.Lock()
	defer h.mu.Unlock()
	venue, ok := h.owners[board]
	if !ok {
		return nil
	}
	return h.linkLocked(venue)
}

// VenueStatus is a venue as the hall sees it.
type VenueStatus struct {
	Name string `json:"name"`
	// State is "waiting" (not heard yet, just after the start),
	// "connected" or "cut-off" (not heard for the Stale time).
	State    string    `json:"state"`
	LastSeen time.Time `json:"last_seen,omitzero"`
	// Behind counts the events the venue holds that the hall has not yet
	// (as of the venue's last heartbeat); null while the venue is not
	// heard: the hall cannot know what it holds then.
	Behind *int     `json:"behind"`
	Boards []string `json:"boards"` // the boards it shows
}

// Status is the hall's view of its venues and the alerts that belong to
// no board.
type Status struct {
	Venues  []VenueStatus `json:"venues"`
	Alerts  []HallAlert   `json:"alerts"`
	Applied int64         `json:"applied"` // events applied since the start
}

// Status returns the venues' states and the hall's own alerts.
func (h *Hall) Status() Status {
	h.mu.Lock()
	defer h.mu.Unlock()
	st := Status{Alerts: []HallAlert{}, Applied: h.applied}
	for _, a := range h.stored {
		if a.Board == "" {
			ha := a.HallAlert
			ha.say = a.Say
			st.Alerts = append(st.Alerts, ha)
		}
	}
	sort.Slice(st.Alerts, func(i, j int) bool { return st.Alerts[i].ID < st.Alerts[j].ID })
	for _, r := range h.o.Venues {
		vs := h.venues[r.Name]
		s := VenueStatus{Name: r.Name, LastSeen: vs.lastHB, Boards: []string{}}
		s.State, _ = h.stateLocked(vs)
		if s.State == "connected" {
			n := h.behindLocked(vs)
			s.Behind = &n
		}
		for b, v := range h.owners {
			if v == r.Name {
				s.Boards = append(s.Boards, b)
			}
		}
		sort.Slice(s.Boards, func(i, j int) bool { return broadcast.LessBoard(s.Boards[i], s.Boards[j]) })
		st.Venues = append(st.Venues, s)
	}
	return st
}

// load reads what the hall has written before (after a restart): each
// game's events into the hub, and where each file ends.
func (h *Hall) load() error {
	if data, err := os.ReadFile(h.ownersPath()); err == nil {
		if err := json.Unmarshal(data, &h.owners); err != nil {
			return fmt.Errorf("scaleout: %s: %w", h.ownersPath(), err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("scaleout: %w", err)
	}
	files, err := filepath.Glob(filepath.Join(h.o.Data, "venues", "*", "round-*", "board-*.events.jsonl"))
	if err != nil {
		return err
	}
	for _, f := range files {
		rel, _ := filepath.Rel(filepath.Join(h.o.Data, "venues"), f)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		k := gameKey{parts[0], strings.TrimPrefix(parts[1], "round-"),
			strings.TrimSuffix(strings.TrimPrefix(parts[2], "board-"), ".events.jsonl")}
		if h.o.Round != "" && k.round != Token(h.o.Round) {
			continue
		}
		g := &game{info: hub.Info{ID: k.board, Round: k.round}}
		h.games[k] = g
		capPath := strings.TrimSuffix(f, ".events.jsonl") + ".capture"
		if capData, err := os.ReadFile(capPath); err == nil {
			g.capSize = int64(len(capData))
			h.meta(g, capData)
		}
		if _, ok := h.owners[k.board]; !ok {
			// Written before the hall stopped, its owner not saved yet.
			h.owners[k.board], h.ownersDirty = k.venue, true
		}
		show := h.owners[k.board] == k.venue
		if show {
			h.hub.AddBoard(g.info)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("scaleout: %w", err)
		}
		// A torn last line (the hall stopped while writing it) is cut:
		// the message was not acknowledged and comes again.
		if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
			if err := os.Truncate(f, int64(i+1)); err != nil {
				return fmt.Errorf("scaleout: %w", err)
			}
			data = data[:i+1]
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			e, err := parseLoose(sc.Bytes())
			if err != nil {
				return fmt.Errorf("scaleout: %s: %w", f, err)
			}
			g.last = e.Seq
			if show {
				h.hub.Publish(k.board, e)
			}
		}
	}
	return nil
}
