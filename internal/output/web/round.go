package web

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// Rounds is an Arbiter that also changes rounds: it loads the next
// round's pairings onto the boards, and corrects one board's pair. Each
// names the arbiter who asked. An error wrapping ErrBoardIdle is the
// server's state (409); hub.ErrNoBoard, an unknown board (404); any other,
// the request's (400).
type Rounds interface {
	// NextRound loads the next round once every board's game has ended;
	// confirm names the boards whose games have not ended that the
	// arbiter lets go. It returns the new round.
	NextRound(confirm func(board string) bool, arbiter string) (string, error)
	// SetPairing names the players of one board anew.
	SetPairing(board, white, black, arbiter string) error
}

// RoundAnswer is POST /api/round's answer: the round now played and the
// boards' states.
type RoundAnswer struct {
	Round  string `json:"round"`
	Boards []View `json:"boards"`
}

func (s *Server) rounds(w http.ResponseWriter) (Rounds, bool) {
	r, ok := s.opt.Arbiter.(Rounds)
	if !ok {
		writeError(w, http.StatusNotImplemented, "this server loads no rounds (a replay, or a hall: load the round at the venue)")
	}
	return r, ok
}

// nextRound handles POST /api/round, with the body {} or
// {"confirm":"3,7"} (the boards not ended that the arbiter lets go, or
// "all").
func (s *Server) nextRound(w http.ResponseWriter, r *http.Request) {
	rs, ok := s.rounds(w)
	if !ok {
		return
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(b) > maxBody {
		writeError(w, http.StatusBadRequest, "request body: want {} or {\"confirm\": \"3,7\"}")
		return
	}
	var body struct{ Confirm string }
	if t := bytes.TrimSpace(b); len(t) > 0 && !bytes.Equal(bytes.Join(bytes.Fields(t), nil), []byte("{}")) {
		if err := parseBody(b, map[string]*string{"confirm": &body.Confirm}); err != nil {
			writeError(w, http.StatusBadRequest, "request body: %v (or {})", err)
			return
		}
	}
	confirm := map[string]bool{}
	all := false
	for _, f := range strings.FieldsFunc(body.Confirm, func(r rune) bool { return r == ',' || r == ' ' }) {
		if strings.EqualFold(f, "all") {
			all = true
			continue
		}
		if _, err := s.hub.Board(f); err != nil {
			writeError(w, http.StatusBadRequest, "confirm: %q is not a board", f)
			return
		}
		confirm[f] = true
	}
	round, err := rs.NextRound(func(board string) bool { return all || confirm[board] }, ArbiterName(r))
	if err != nil {
		status := http.StatusBadRequest
		if errors.Is(err, ErrBoardIdle) {
			status = http.StatusConflict
		}
		writeError(w, status, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, RoundAnswer{Round: round, Boards: s.views(s.hub.Boards(), s.printer(r))})
}

// setPairing handles POST /api/boards/{id}/pairing
// {"white":"…","black":"…"}.
func (s *Server) setPairing(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.lookup(w, r); !ok {
		return
	}
	rs, ok := s.rounds(w)
	if !ok {
		return
	}
	var body struct{ White, Black string }
	if !readBody(w, r, map[string]*string{"white": &body.White, "black": &body.Black}) {
		return
	}
	id := r.PathValue("id")
	if err := rs.SetPairing(id, body.White, body.Black, ArbiterName(r)); err != nil {
		status := http.StatusBadRequest
		switch {
		case errors.Is(err, hub.ErrNoBoard):
			status = http.StatusNotFound
		case errors.Is(err, ErrBoardIdle):
			status = http.StatusConflict
		}
		writeError(w, status, "board %s: %v", id, err)
		return
	}
	if b, ok := s.lookup(w, r); ok {
		writeJSON(w, http.StatusOK, s.view(b, s.printer(r)))
	}
}
