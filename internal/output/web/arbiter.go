package web

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Arbiter takes the arbiter's acts for a board: a player's draw claim
// (10.2) and the decision on it. The daemon journals them in the board's
// capture, so the claim and decision events replay exactly.
type Arbiter interface {
	Claim(board string, side clockd.Side) error
	Decide(board string, claim int, decision string) error
}

// ErrBoardIdle is what an Arbiter returns (wrapped) when the board cannot
// take an act now (its line is down, or its game is over): the API
// answers 409.
var ErrBoardIdle = errors.New("the board cannot take it now")

// claim handles POST /api/boards/{id}/claims {"side":"white"|"black"}.
func (s *Server) claim(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.lookup(w, r); !ok {
		return
	}
	var body struct {
		Side string `json:"side"`
	}
	if !readBody(w, r, &body) {
		return
	}
	var side clockd.Side
	switch body.Side {
	case "white":
		side = clockd.White
	case "black":
		side = clockd.Black
	default:
		writeError(w, http.StatusBadRequest, "side %q: want \"white\" or \"black\" (the player who claims)", body.Side)
		return
	}
	s.act(w, r, func(id string) error { return s.opt.Arbiter.Claim(id, side) })
}

// decide handles POST /api/boards/{id}/claims/{claim}/decision
// {"decision":"accepted"|"rejected"|"postponed"}.
func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.lookup(w, r); !ok {
		return
	}
	raw := r.PathValue("claim")
	claim, err := strconv.Atoi(raw)
	if err != nil || claim <= 0 {
		writeError(w, http.StatusBadRequest, "bad claim %q: want the claim event's seq, a positive integer", raw)
		return
	}
	var body struct {
		Decision string `json:"decision"`
	}
	if !readBody(w, r, &body) {
		return
	}
	switch body.Decision {
	case reconcile.DecisionAccepted, reconcile.DecisionRejected, reconcile.DecisionPostponed:
	default:
		writeError(w, http.StatusBadRequest, "decision %q: want \"accepted\", \"rejected\" or \"postponed\"", body.Decision)
		return
	}
	s.act(w, r, func(id string) error { return s.opt.Arbiter.Decide(id, claim, body.Decision) })
}

// act hands an act to the Arbiter and answers with the board's state.
func (s *Server) act(w http.ResponseWriter, r *http.Request, do func(id string) error) {
	id := r.PathValue("id")
	if s.opt.Arbiter == nil {
		writeError(w, http.StatusNotImplemented, "this server takes no arbiter's acts (a replay, or a hall)")
		return
	}
	if err := do(id); err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, ErrBoardIdle) {
			status = http.StatusConflict
		}
		writeError(w, status, "board %s: %v", id, err)
		return
	}
	if b, ok := s.lookup(w, r); ok {
		writeJSON(w, http.StatusAccepted, s.view(b))
	}
}

// readBody decodes a small JSON body, answering 400 when it is not one.
func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(io.LimitReader(r.Body, 4096))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, "request body: %v", err)
		return false
	}
	return true
}
