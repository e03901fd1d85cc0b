package scaleout

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// AlertsBucket is the hall's key-value bucket (JetStream, in the hall's
// domain, replicated as its streams are): the alerts the hall raised
// (its own, a venue's, a board's) and the acknowledgements of the boards'
// alerts, so that a hall started again shows them as they were. Keys
// start with the hall's consumer name, each hall process on a cluster
// keeping its own:
//
//	<consumer>.alert.<id>                               an alert the hall raised (JSON)
//	<consumer>.ack.<venue>.<round>.<board>.<seq>.<kind>  a board's alert acknowledged
const AlertsBucket = "ARBITERD_HALL_ALERTS"

// storedAlert is an alert the hall raised, as the bucket keeps it.
type storedAlert struct {
	HallAlert
	Round string `json:"round,omitempty"`
	Board string `json:"board,omitempty"` // "": the hall's own or a venue's (shown on /hall)
	// Say is Text as a sentence of the catalogs, for /hall in its reader's
	// language (none in the alerts of an earlier hall).
	Say   *saying `json:"say,omitempty"`
	hubID int     // a board's alert: its id on the hub (0: not there)
}

// ackKey names a board's alert raised by an event of the venue's stream:
// the event's seq and the alert's kind, the same at the venue and at the
// hall (the alerts' ids are each hub's own).
type ackKey struct {
	venue, round, board string
	seq                 int
	kind                string
}

func (k ackKey) String() string {
	return k.venue + "." + k.round + "." + k.board + "." + strconv.Itoa(k.seq) + "." + k.kind
}

// AlertRef names a board's alert across the venue and the hall: the seq of
// the event that raised it and its kind.
type AlertRef struct {
	Board string `json:"board"`
	Seq   int    `json:"seq"`
	Kind  string `json:"kind"`
	// By is the arbiter who acknowledged the alert at the hall, when
	// known (a venue's capture records it).
	By string `json:"by,omitempty"`
}

// kvKey is a bucket key of this hall process.
func (h *Hall) kvKey(parts ...string) string {
	return Token(h.o.Consumer) + "." + strings.Join(parts, ".")
}

// newAlert records an alert the hall raises, kept in the bucket: its
// text in English and as a sentence of the catalogs. h.mu is held.
func (h *Hall) newAlert(venue, round, board, kind string, text saying) *storedAlert {
	h.lastAlert++
	a := &storedAlert{HallAlert: HallAlert{ID: h.lastAlert, Time: h.o.Now().UTC(), Venue: venue, Kind: kind, Text: text.String()},
		Round: round, Board: board, Say: &text}
	h.stored[a.ID] = a
	h.persistAlert(a)
	return a
}

// hallAlert raises an alert that belongs to no board: the hall's own, or a
// venue's (/hall shows it, the dashboard its venue's boards' link). h.mu is
// held.
func (h *Hall) hallAlert(venue, kind string, text saying) {
	h.log.Error(text.String(), "venue", venue, "kind", kind)
	h.newAlert(venue, "", "", kind, text)
	h.m.alerts.WithLabelValues(kind).Inc()
}

// boardAlert raises an alert on a board the hall shows. h.mu is held.
func (h *Hall) boardAlert(k gameKey, kind string, text saying) {
	h.log.Error(text.String(), "board", k.board, "venue", k.venue)
	h.m.alerts.WithLabelValues(kind).Inc()
	h.showAlert(h.newAlert(k.venue, k.round, k.board, kind, text))
}

// showAlert puts a board's alert on the hub (acknowledged if it was).
// h.mu is held.
func (h *Hall) showAlert(a *storedAlert) {
	if _, shown := h.owners[a.Board]; a.Board == "" || a.hubID != 0 || !shown {
		return // (a clash is another venue's alert on the board)
	}
	var m *i18n.Message // the sentence, for the dashboard to say in its reader's language
	if a.Say != nil {
		msg := a.Say.message()
		m = &msg
	}
	if h.hub.RaiseSaying(a.Board, hub.Amber, a.Kind, "", a.Text, m) != nil {
		return
	}
	b, err := h.hub.Board(a.Board)
	if err != nil || len(b.Alerts) == 0 {
		return
	}
	a.hubID = b.Alerts[len(b.Alerts)-1].ID
	if h.raised[a.Board] == nil {
		h.raised[a.Board] = map[int]*storedAlert{}
	}
	h.raised[a.Board][a.hubID] = a
	if a.Acked {
		h.hub.Ack(a.Board, a.hubID)
	}
}

// persistAlert queues an alert's record for the bucket. h.mu is held.
func (h *Hall) persistAlert(a *storedAlert) {
	data, _ := json.Marshal(a)
	h.queuePut(h.kvKey("alert", strconv.Itoa(a.ID)), data)
}

// queuePut queues a write of the bucket; the persister writes it (and
// tries again until it is written). h.mu is held.
func (h *Hall) queuePut(key string, value []byte) {
	h.pending[key] = value
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

// openAlerts creates (or opens) the bucket.
func (h *Hall) openAlerts(ctx context.Context) error {
	kv, err := h.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: AlertsBucket, Storage: jetstream.FileStorage,
		Replicas: h.o.Replicas, History: 1, Description: "arbiterd hall: alerts raised and acknowledged"})
	if err != nil {
		return fmt.Errorf("scaleout: hall alerts bucket: %w", err)
	}
	h.mu.Lock()
	h.kv = kv
	h.mu.Unlock()
	return nil
}

// restoreAlerts reads what the bucket holds of this hall process: its
// alerts (on /hall and on their boards, acknowledged or not) and the
// acknowledgements of the boards' alerts, applied to the boards loaded
// from the hall's files.
func (h *Hall) restoreAlerts(ctx context.Context) error {
	w, err := h.kv.Watch(ctx, h.kvKey(">"), jetstream.IgnoreDeletes())
	if err != nil {
		return fmt.Errorf("scaleout: hall alerts bucket: %w", err)
	}
	defer w.Stop()
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		var e jetstream.KeyValueEntry
		select {
		case e = <-w.Updates():
		case <-ctx.Done():
			return fmt.Errorf("scaleout: hall alerts bucket: %w", ctx.Err())
		}
		if e == nil {
			break // everything the bucket held
		}
		parts := strings.Split(e.Key(), ".")
		switch {
		case len(parts) == 3 && parts[1] == "alert":
			var a storedAlert
			if err := json.Unmarshal(e.Value(), &a); err != nil || a.ID == 0 {
				h.log.Warn("an alert in the hall's bucket that cannot be read; skipped", "key", e.Key(), "err", err)
				continue
			}
			h.stored[a.ID] = &a
			h.lastAlert = max(h.lastAlert, a.ID)
		case len(parts) == 7 && parts[1] == "ack":
			seq, err := strconv.Atoi(parts[5])
			if err != nil {
				continue
			}
			h.addAck(ackKey{parts[2], parts[3], parts[4], seq, parts[6]}, false)
		}
	}
	ids := make([]int, 0, len(h.stored))
	for id := range h.stored {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		h.showAlert(h.stored[id])
	}
	for board := range h.owners {
		h.applyAcks(board)
	}
	return nil
}

// addAck records a board's alert as acknowledged (persisted when new and
// persist is set). h.mu is held. It tells whether it was new.
func (h *Hall) addAck(k ackKey, persist bool) bool {
	if h.acks[k] {
		return false
	}
	h.acks[k] = true
	g := gameKey{k.venue, k.round, k.board}
	if h.ackSeqs[g] == nil {
		h.ackSeqs[g] = map[int]bool{}
	}
	h.ackSeqs[g][k.seq] = true
	if persist {
		h.queuePut(h.kvKey("ack", k.String()), []byte("1"))
	}
	return true
}

// applyAcks acknowledges on the hub the board's alerts known to be
// acknowledged (at the hall before, or at the venue). h.mu is held.
func (h *Hall) applyAcks(board string) {
	venue, ok := h.owners[board]
	if !ok {
		return
	}
	b, err := h.hub.Board(board)
	if err != nil {
		return
	}
	for _, a := range b.Alerts {
		if !a.Acked && h.acks[ackKey{venue, Token(b.Round), Token(board), a.Seq, a.Kind}] {
			h.hub.Ack(board, a.ID)
		}
	}
}

// persister writes the bucket's queued records until ctx ends, trying a
// failed write again every 2 s; at the end it writes what is queued, for
// at most 5 s.
func (h *Hall) persister(ctx context.Context) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-h.kick:
		case <-t.C:
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			h.flushAlerts(fctx)
			cancel()
			return
		}
		h.flushAlerts(ctx)
	}
}

// flushAlerts writes the queued records; those that fail stay queued.
func (h *Hall) flushAlerts(ctx context.Context) {
	h.mu.Lock()
	kv, batch := h.kv, h.pending
	if kv == nil || len(batch) == 0 {
		h.mu.Unlock()
		return
	}
	h.pending = map[string][]byte{}
	h.mu.Unlock()
	var failed error
	for key, value := range batch {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := kv.Put(pctx, key, value)
		cancel()
		if err != nil {
			failed = err
			h.mu.Lock()
			if _, newer := h.pending[key]; !newer {
				h.pending[key] = value
			}
			h.mu.Unlock()
		}
	}
	if failed != nil && ctx.Err() == nil {
		h.log.Warn("keeping the hall's alerts in JetStream; trying again", "err", failed)
	}
}

// noteAllAcks records the acknowledgements of every board the hall
// shows that it has not recorded yet: a backstop every few seconds behind
// noteBoardAcks, which the dashboard's acknowledgements go through. h.mu
// is held.
func (h *Hall) noteAllAcks() {
	for board := range h.owners {
		if b, err := h.hub.Board(board); err == nil {
			h.noteAcks(b)
		}
	}
}

// noteBoardAcks records a board's acknowledgements just made on the
// dashboard: kept in the bucket, and handed to the venue within a second.
func (h *Hall) noteBoardAcks(board string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if b, err := h.hub.Board(board); err == nil {
		h.noteAcks(b)
	}
}

// noteAcks records the acknowledged alerts of a board's state that the
// hall has not recorded yet. h.mu is held.
func (h *Hall) noteAcks(b hub.Board) {
	venue, ok := h.owners[b.ID]
	if !ok {
		return
	}
	for _, a := range b.Alerts {
		if !a.Acked || a.ClosedBy != 0 || a.Level == hub.Note {
			continue // settled by an event, or a note: the same at the venue
		}
		if sa := h.raised[b.ID][a.ID]; sa != nil {
			if !sa.Acked {
				sa.Acked = true
				h.persistAlert(sa)
			}
			continue
		}
		h.addAck(ackKey{venue, Token(b.Round), Token(b.ID), a.Seq, a.Kind}, true)
	}
}

// AckAlert acknowledges an alert of the hall's own or of a venue (/hall).
func (h *Hall) AckAlert(id int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	a := h.stored[id]
	if a == nil || a.Board != "" {
		return fmt.Errorf("%w: the hall has no alert %d of its own (a board's alert is acknowledged on the board)", errNoAlert, id)
	}
	if !a.Acked {
		a.Acked = true
		h.persistAlert(a)
	}
	return nil
}

var errNoAlert = errors.New("no such alert")

// syncAcks exchanges acknowledgements with the venues that are heard: the
// alerts a venue's heartbeat lists as acknowledged there are acknowledged
// here, and those acknowledged here that the venue does not list are sent
// to it (again after ackResend, until it lists them). h.mu is held; the
// sending is done by send, without it.
func (h *Hall) syncAcks(now time.Time) (send map[string][]AlertRef) {
	for _, vs := range h.venues {
		if vs.lastHB.IsZero() || now.Sub(vs.lastHB) > h.o.Stale {
			continue
		}
		round := Token(vs.hb.Round)
		atVenue := map[ackKey]bool{}
		touched := map[string]bool{}
		for _, r := range vs.hb.Acked {
			k := ackKey{vs.ref.Name, round, Token(r.Board), r.Seq, r.Kind}
			atVenue[k] = true
			if h.addAck(k, true) {
				touched[r.Board] = true
			}
		}
		for b := range touched {
			if h.owners[b] == vs.ref.Name {
				h.applyAcks(b)
			}
		}
		for k := range h.acks {
			if k.venue != vs.ref.Name || k.round != round || atVenue[k] || now.Sub(h.ackSent[k]) < ackResend {
				continue
			}
			h.ackSent[k] = now
			if send == nil {
				send = map[string][]AlertRef{}
			}
			send[k.venue] = append(send[k.venue], AlertRef{Board: k.board, Seq: k.seq, Kind: k.kind, By: h.ackBy[k]})
		}
	}
	return send
}

// ackResend is how long the hall waits for a venue to list an
// acknowledgement it was sent before sending it again.
const ackResend = 3 * time.Second

// sendAcks hands acknowledgements made at the hall to their venues.
func (h *Hall) sendAcks(send map[string][]AlertRef) {
	for venue, refs := range send {
		data, _ := json.Marshal(actRequest{Op: "ack", Acks: refs})
		msg, err := h.nc.Request(ActSubject(venue), data, 2*time.Second)
		if err != nil {
			h.log.Debug("acknowledgements not handed to the venue yet", "venue", venue, "n", len(refs), "err", err)
			continue
		}
		var r actReply
		if json.Unmarshal(msg.Data, &r) != nil || len(r.Unknown) == 0 {
			continue
		}
		// Alerts the venue does not have (a venue's board of another game):
		// not sent again.
		h.mu.Lock()
		for _, u := range r.Unknown {
			for k := range h.acks {
				if k.venue == venue && k.board == Token(u.Board) && k.seq == u.Seq && k.kind == u.Kind {
					h.ackSent[k] = h.o.Now().Add(24 * time.Hour)
				}
			}
		}
		h.mu.Unlock()
	}
}
