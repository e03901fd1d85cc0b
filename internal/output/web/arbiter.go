package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Arbiter takes the arbiter's acts for a board: a player's draw claim
// (10.2) and the decision on it, each with the name of the arbiter who
// records it ("" when the server has no logins). The daemon journals them
// in the board's capture, so the claim and decision events replay exactly
// and name their arbiter.
type Arbiter interface {
	Claim(board string, side clockd.Side, arbiter string) error
	Decide(board string, claim int, decision, arbiter string) error
}

// Acker is an Arbiter that also records acknowledgements: the alert (the
// hub's id on the board) acknowledged by arbiter. It acknowledges the alert
// on the hub itself. Without one the server acknowledges on the hub only.
type Acker interface {
	Ack(board string, alert int, arbiter string) error
}

// ErrBoardIdle is what an Arbiter returns (wrapped) when the board cannot
// take an act now (its line is down, or its game is over): the API
// answers 409.
var ErrBoardIdle = errors.New("the board cannot take it now")

// claim handles POST /api/boards/{id}/claims {"side":"white"|"black"}.
func (s *Server) claim(w http.ResponseWriter, r *http.Request) {
	b, ok := s.lookup(w, r)
	if !ok || !s.takesActs(w) {
		return
	}
	var body struct{ Side string }
	if !readBody(w, r, map[string]*string{"side": &body.Side}) {
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
	if b.Result != "" {
		writeError(w, http.StatusConflict, "board %s: the game is over (%s): there is nothing to claim", b.ID, b.Result)
		return
	}
	s.act(w, r, func(id string) error { return s.opt.Arbiter.Claim(id, side, ArbiterName(r)) })
}

// decide handles POST /api/boards/{id}/claims/{claim}/decision
// {"decision":"accepted"|"rejected"|"postponed"}.
func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	b, ok := s.lookup(w, r)
	if !ok || !s.takesActs(w) {
		return
	}
	raw := r.PathValue("claim")
	claim, err := strconv.Atoi(raw)
	if err != nil || claim <= 0 || strconv.Itoa(claim) != raw {
		writeError(w, http.StatusBadRequest, "bad claim %q: want the claim event's seq, a positive integer", raw)
		return
	}
	var body struct{ Decision string }
	if !readBody(w, r, map[string]*string{"decision": &body.Decision}) {
		return
	}
	switch body.Decision {
	case reconcile.DecisionAccepted, reconcile.DecisionRejected, reconcile.DecisionPostponed:
	default:
		writeError(w, http.StatusBadRequest, "decision %q: want \"accepted\", \"rejected\" or \"postponed\"", body.Decision)
		return
	}
	// Only an open claim of the board can be decided: the claim's alert
	// stays open until a decision accepts or rejects it.
	i := slices.IndexFunc(b.Alerts, func(a hub.Alert) bool { return a.Kind == "claim" && a.Seq == claim })
	switch {
	case i < 0:
		writeError(w, http.StatusNotFound, "board %s has no claim %d (a claim is named by its claim event's seq%s)", b.ID, claim, openClaims(b))
		return
	case b.Alerts[i].ClosedBy != 0:
		writeError(w, http.StatusConflict, "board %s: claim %d was decided already (decision event %d)", b.ID, claim, b.Alerts[i].ClosedBy)
		return
	}
	s.act(w, r, func(id string) error { return s.opt.Arbiter.Decide(id, claim, body.Decision, ArbiterName(r)) })
}

// openClaims lists a board's open claims for an error message.
func openClaims(b hub.Board) string {
	var open []string
	for _, a := range b.Alerts {
		if a.Kind == "claim" && a.ClosedBy == 0 {
			open = append(open, strconv.Itoa(a.Seq))
		}
	}
	if len(open) == 0 {
		return "; it has no open claim"
	}
	return "; its open claims: " + strings.Join(open, ", ")
}

// takesActs answers 501 when the server takes no arbiter's acts.
func (s *Server) takesActs(w http.ResponseWriter) bool {
	if s.opt.Arbiter == nil {
		writeError(w, http.StatusNotImplemented, "this server takes no arbiter's acts (a replay, or a hall)")
		return false
	}
	return true
}

// act hands an act to the Arbiter and answers with the board's state.
func (s *Server) act(w http.ResponseWriter, r *http.Request, do func(id string) error) {
	id := r.PathValue("id")
	if !s.takesActs(w) {
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
		writeJSON(w, http.StatusAccepted, s.view(b, s.printer(r)))
	}
}

// maxBody is the largest body a write takes.
const maxBody = 4096

// readBody reads a write's body: exactly one JSON object whose members are
// exactly fields, each named exactly (JSON's names are case-sensitive),
// once, with a string value, and nothing after it. Anything else is
// answered 400 (413 when too large), naming what is wrong, and nothing of
// it is acted on.
func readBody(w http.ResponseWriter, r *http.Request, fields map[string]*string) bool {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeError(w, http.StatusBadRequest, "request body: %v", err)
		return false
	}
	if len(b) > maxBody {
		writeError(w, http.StatusRequestEntityTooLarge, "request body: larger than %d bytes", maxBody)
		return false
	}
	if err := parseBody(b, fields); err != nil {
		writeError(w, http.StatusBadRequest, "request body: %v", err)
		return false
	}
	return true
}

// parseBody is readBody's check of b.
func parseBody(b []byte, fields map[string]*string) error {
	names := slices.Sorted(maps.Keys(fields))
	want := "{}"
	if len(names) > 0 {
		want = `{"` + strings.Join(names, `": …, "`) + `": …}`
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("empty, want %s", want)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return fmt.Errorf("not a JSON object, want %s", want)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("not a JSON object: %v", err)
		}
		name, _ := tok.(string)
		target, ok := fields[name]
		switch {
		case !ok:
			return fmt.Errorf("unknown member %q, want %s", name, want)
		case seen[name]:
			return fmt.Errorf("member %q given twice", name)
		}
		seen[name] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("member %q: %v", name, err)
		}
		if raw[0] != '"' || json.Unmarshal(raw, target) != nil {
			return fmt.Errorf("member %q: %s is not a string", name, raw)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("data after the JSON object, want only %s", want)
	}
	for _, n := range names {
		if !seen[n] {
			return fmt.Errorf("member %q is missing, want %s", n, want)
		}
	}
	return nil
}
