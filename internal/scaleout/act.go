package scaleout

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/web"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// The arbiter's acts made at the hall — a player's draw claim, the
// decision on it, acknowledgements — are the venue's to record: a claim
// and a decision go into the board's capture at the venue (as when made
// on the venue's own dashboard) and come back to the hall in the board's
// events. The hall asks the venue over core NATS (request and reply, on
// ActSubject); a venue it does not hear cannot take them, and the hall
// says so rather than keep an act the venue never recorded.

// ActSubject is where a venue takes the acts made at the hall.
func ActSubject(venue string) string { return "arbiterd.act." + Token(venue) }

// actRequest is an act the hall hands to a venue.
type actRequest struct {
	Op       string     `json:"op"` // "claim", "decide" or "ack"
	Round    string     `json:"round,omitempty"`
	Board    string     `json:"board,omitempty"`
	Side     string     `json:"side,omitempty"`     // claim: "white" or "black"
	Claim    int        `json:"claim,omitempty"`    // decide: the claim event's seq
	Decision string     `json:"decision,omitempty"` // decide
	Arbiter  string     `json:"arbiter,omitempty"`  // claim, decide: the arbiter logged in at the hall, when known
	Acks     []AlertRef `json:"acks,omitempty"`     // ack: the alerts acknowledged at the hall
}

// actReply is the venue's answer: an HTTP status (202 recorded, 400, 404,
// 409) and what was wrong.
type actReply struct {
	Status  int        `json:"status"`
	Error   string     `json:"error,omitempty"`
	Unknown []AlertRef `json:"unknown,omitempty"` // ack: alerts the venue does not have
}

// actTimeout is how long the hall waits for a venue's answer.
const actTimeout = 5 * time.Second

// Claim hands side's draw claim on board to the board's venue, with the
// name of the arbiter who recorded it at the hall (web.Arbiter).
func (h *Hall) Claim(board string, side clockd.Side, arbiter string) error {
	return h.act(board, actRequest{Op: "claim", Side: side.String(), Arbiter: arbiter}, reconcile.TypeClaim)
}

// Decide hands arbiter's decision on a claim to the board's venue
// (web.Arbiter).
func (h *Hall) Decide(board string, claim int, decision, arbiter string) error {
	return h.act(board, actRequest{Op: "decide", Claim: claim, Decision: decision, Arbiter: arbiter}, reconcile.TypeDecision)
}

// Ack acknowledges a board's alert on the hall's dashboard (web.Acker):
// the acknowledgement is kept and handed to the board's venue, with the
// name of arbiter, who is logged in at the hall, for the venue's capture.
func (h *Hall) Ack(board string, alert int, arbiter string) error {
	if err := h.hub.Ack(board, alert); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	b, err := h.hub.Board(board)
	venue, ok := h.owners[board]
	if err != nil || !ok {
		return nil
	}
	if arbiter != "" {
		for _, a := range b.Alerts {
			if a.ID == alert {
				if h.ackBy == nil {
					h.ackBy = map[ackKey]string{}
				}
				h.ackBy[ackKey{venue, Token(b.Round), Token(b.ID), a.Seq, a.Kind}] = arbiter
			}
		}
	}
	h.noteAcks(b)
	return nil
}

var (
	_ web.Arbiter = (*Hall)(nil)
	_ web.Acker   = (*Hall)(nil)
)

// act asks the board's venue to record an act and waits (at most
// actTimeout more) for the event that records it to reach the hall.
func (h *Hall) act(board string, req actRequest, want reconcile.Type) error {
	h.mu.Lock()
	venue, ok := h.owners[board]
	var link *web.Link
	if ok {
		link = h.linkLocked(venue)
	}
	b, _ := h.hub.Board(board)
	h.mu.Unlock()
	switch {
	case !ok:
		return fmt.Errorf("no venue shows board %s at the hall", board)
	case link.State != "connected":
		return fmt.Errorf("%w: the hall does not hear venue %s now (%s): record it at the venue", web.ErrBoardIdle, venue, link.State)
	}
	req.Board, req.Round = board, b.Round
	data, _ := json.Marshal(req)
	msg, err := h.nc.Request(ActSubject(venue), data, actTimeout)
	if err != nil {
		return fmt.Errorf("%w: venue %s did not answer (%v): record it at the venue", web.ErrBoardIdle, venue, err)
	}
	var r actReply
	if err := json.Unmarshal(msg.Data, &r); err != nil {
		return fmt.Errorf("venue %s answered what is not an answer: %v", venue, err)
	}
	switch r.Status {
	case http.StatusAccepted:
	case http.StatusConflict:
		return fmt.Errorf("%w: venue %s: %s", web.ErrBoardIdle, venue, r.Error)
	default:
		return fmt.Errorf("venue %s: %s", venue, r.Error)
	}
	// Recorded at the venue: its event comes in the board's stream.
	for deadline := time.Now().Add(actTimeout); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		evs, err := h.hub.Events(board, b.Seq)
		if err != nil {
			break
		}
		for _, e := range evs {
			if e.Type == want {
				return nil
			}
		}
	}
	return nil
}

// SetArbiter gives the venue the daemon that records the acts the hall
// hands to it (the daemon's Claim and Decide, as its own dashboard uses).
// Without one, the venue answers the hall that it takes no acts.
func (v *Venue) SetArbiter(a web.Arbiter) {
	v.mu.Lock()
	v.arbiter = a
	v.mu.Unlock()
}

// onAct takes an act the hall hands to the venue, and answers.
func (v *Venue) onAct(msg *nats.Msg) {
	var req actRequest
	reply := actReply{Status: http.StatusAccepted}
	if err := json.Unmarshal(msg.Data, &req); err != nil {
		reply = actReply{Status: http.StatusBadRequest, Error: "not an act: " + err.Error()}
	} else {
		reply = v.take(req)
	}
	if reply.Status != http.StatusAccepted {
		v.log.Warn("an act from the hall not taken", "op", req.Op, "board", req.Board, "status", reply.Status, "err", reply.Error)
	} else if req.Op != "ack" {
		v.log.Info("an act from the hall recorded", "op", req.Op, "board", req.Board, "arbiter", req.Arbiter)
	}
	data, _ := json.Marshal(reply)
	msg.Respond(data)
}

// take is onAct's act.
func (v *Venue) take(req actRequest) actReply {
	v.mu.Lock()
	a, h := v.arbiter, v.hub
	_, known := v.boards[req.Board]
	v.mu.Unlock()
	fail := func(status int, format string, args ...any) actReply {
		return actReply{Status: status, Error: fmt.Sprintf(format, args...)}
	}
	if req.Op == "ack" {
		return v.takeAcks(h, a, req.Acks)
	}
	if req.Round != "" && req.Round != Token(v.o.Round) {
		return fail(http.StatusConflict, "board %s: the venue plays round %s now, not %s", req.Board, v.o.Round, req.Round)
	}
	if !known {
		return fail(http.StatusNotFound, "venue %s has no board %q", v.o.Venue, req.Board)
	}
	if a == nil {
		return fail(http.StatusConflict, "venue %s takes no arbiter's acts from the hall", v.o.Venue)
	}
	var err error
	switch req.Op {
	case "claim":
		side := clockd.White
		switch req.Side {
		case "white":
		case "black":
			side = clockd.Black
		default:
			return fail(http.StatusBadRequest, "side %q: want \"white\" or \"black\"", req.Side)
		}
		err = a.Claim(req.Board, side, req.Arbiter)
	case "decide":
		err = a.Decide(req.Board, req.Claim, req.Decision, req.Arbiter)
	default:
		return fail(http.StatusBadRequest, "unknown act %q", req.Op)
	}
	switch {
	case err == nil:
		return actReply{Status: http.StatusAccepted}
	case errors.Is(err, web.ErrBoardIdle):
		return fail(http.StatusConflict, "board %s: %v", req.Board, err)
	default:
		return fail(http.StatusBadRequest, "board %s: %v", req.Board, err)
	}
}

// takeAcks acknowledges on the venue's hub the alerts acknowledged at the
// hall, through the venue's daemon when it records acknowledgements (in
// the board's capture, with the name of the arbiter logged in at the hall).
func (v *Venue) takeAcks(h *hub.Hub, arb web.Arbiter, refs []AlertRef) actReply {
	acker, _ := arb.(web.Acker)
	if h == nil {
		return actReply{Status: http.StatusConflict, Error: "the venue is not serving yet"}
	}
	var unknown []AlertRef
	for _, r := range refs {
		b, err := h.Board(r.Board)
		found := false
		if err == nil {
			for _, a := range b.Alerts {
				if a.Seq == r.Seq && a.Kind == r.Kind {
					found = true
					switch {
					case a.Acked:
					case acker != nil:
						acker.Ack(r.Board, a.ID, r.By)
					default:
						h.Ack(r.Board, a.ID)
					}
				}
			}
		}
		if !found {
			unknown = append(unknown, r)
		}
	}
	return actReply{Status: http.StatusAccepted, Unknown: unknown}
}

// ackedAlerts lists the alerts acknowledged on the venue's hub (the
// heartbeat's Acked): those an event settled, and notes, are the same at
// the hall already.
func (v *Venue) ackedAlerts(h *hub.Hub, boards []string) []AlertRef {
	if h == nil {
		return nil
	}
	var out []AlertRef
	for _, id := range boards {
		b, err := h.Board(id)
		if err != nil {
			continue
		}
		for _, a := range b.Alerts {
			if a.Acked && a.ClosedBy == 0 && a.Level != hub.Note {
				out = append(out, AlertRef{Board: id, Seq: a.Seq, Kind: a.Kind})
			}
		}
	}
	return out
}
