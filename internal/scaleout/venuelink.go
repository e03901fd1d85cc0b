package scaleout

import (
	"encoding/json"
	"net/http"
	"sort"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/output/broadcast"
)

// HallHeartbeatSubject is where the hall tells a venue, every second,
// that it hears it and how far it has written each of its boards (core
// NATS): the venue shows its link to the hall from it.
func HallHeartbeatSubject(venue string) string { return "arbiterd.hall." + Token(venue) }

// HallHeartbeat is what the hall says to a venue every second.
type HallHeartbeat struct {
	Hall  string         `json:"hall"` // the hall node's name
	Time  time.Time      `json:"time"`
	Round string         `json:"round"` // the venue's round, as the hall heard it
	Seqs  map[string]int `json:"seqs"`  // per board of the venue: the last event the hall has written
}

// hallLink is what a venue hears of the hall.
type hallLink struct {
	heard time.Time // the hall's last heartbeat
	hb    HallHeartbeat
	state string // as last logged
}

// HallLink is a venue's link to the hall, as the venue sees it.
type HallLink struct {
	// State is "waiting" (the hall not heard since the venue started),
	// "connected" (heard within the last 3 s) or "cut-off".
	State     string    `json:"state"`
	Hall      string    `json:"hall,omitempty"` // the hall node last heard
	LastHeard time.Time `json:"last_heard,omitzero"`
	// Behind counts the events the venue's stream holds that the hall had
	// not written at its last heartbeat; null while the hall is not heard
	// (the venue cannot know).
	Behind *int `json:"behind"`
	// Boards behind: the boards with events the hall has not written yet.
	BoardsBehind []string `json:"boards_behind"`
	// LeafConnections counts the venue's embedded server's leaf
	// connections (-1 when the venue joins a server by URL).
	LeafConnections int `json:"leaf_connections"`
}

// linkStale is how long the hall may be silent before a venue counts its
// link as cut.
const linkStale = 3 * time.Second

// onHallHeartbeat records the hall's heartbeat.
func (v *Venue) onHallHeartbeat(msg *nats.Msg) {
	var hb HallHeartbeat
	if json.Unmarshal(msg.Data, &hb) != nil {
		return
	}
	v.mu.Lock()
	v.link.heard, v.link.hb = time.Now(), hb
	v.mu.Unlock()
	v.checkLink()
}

// Link returns the venue's link to the hall.
func (v *Venue) Link() HallLink {
	v.mu.Lock()
	l := v.link
	seqs := make(map[string]int, len(v.order))
	for _, p := range v.order {
		p.mu.Lock()
		seqs[p.id] = p.published
		p.mu.Unlock()
	}
	v.mu.Unlock()
	out := HallLink{State: "waiting", Hall: l.hb.Hall, LastHeard: l.heard, BoardsBehind: []string{}, LeafConnections: -1}
	if v.srv != nil {
		out.LeafConnections = v.srv.NumLeafNodes()
	}
	switch {
	case l.heard.IsZero():
		return out
	case time.Since(l.heard) > linkStale:
		out.State = "cut-off"
		return out
	}
	out.State = "connected"
	n := 0
	for id, seq := range seqs {
		if d := seq - l.hb.Seqs[id]; d > 0 {
			n += d
			out.BoardsBehind = append(out.BoardsBehind, id)
		}
	}
	sort.Slice(out.BoardsBehind, func(i, j int) bool { return broadcast.LessBoard(out.BoardsBehind[i], out.BoardsBehind[j]) })
	out.Behind = &n
	return out
}

// checkLink logs a change of the link's state.
func (v *Venue) checkLink() {
	l := v.Link()
	v.mu.Lock()
	changed := l.State != v.link.state
	v.link.state = l.State
	v.mu.Unlock()
	if !changed {
		return
	}
	switch l.State {
	case "connected":
		v.log.Info("the hall hears this venue", "hall", l.Hall)
	case "cut-off":
		v.log.Warn("the hall has not been heard for 3 s: the venue goes on recording; the hall gets what it missed when the link is back",
			"hall", l.Hall, "last_heard", l.LastHeard.UTC().Format(time.RFC3339))
	}
}

// Handler serves the venue's link to the hall: /venue (a page) and
// /api/venue (JSON, HallLink).
func (v *Venue) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/venue", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		json.NewEncoder(w).Encode(v.Link())
	})
	mux.HandleFunc("GET /venue", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Vary", "Accept-Language, Cookie")
		writeVenuePage(w, i18n.ForRequest(r, v.o.Lang), v.o.Venue, v.Link())
	})
	return mux
}
