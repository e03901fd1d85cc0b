package scaleout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// ErrNotEvent is the error for a message that is not an event of the
// stream (docs/events.md) exactly as arbiterd writes it.
var ErrNotEvent = errors.New("not an event of the stream")

// wireEvent is an event line as JSON; numbers are kept as written so
// that times convert without rounding.
type wireEvent struct {
	Type            string      `json:"type"`
	Board           string      `json:"board"`
	T               json.Number `json:"t"`
	Seq             int         `json:"seq"`
	State           string      `json:"state"`
	Port            string      `json:"port"`
	FEN             string      `json:"fen"`
	Orientation     string      `json:"orientation"`
	Ply             int         `json:"ply"`
	SAN             string      `json:"san"`
	UCI             string      `json:"uci"`
	Side            *string     `json:"side"`
	Clock           *wireClock  `json:"clock"`
	Inferred        bool        `json:"inferred"`
	Reason          string      `json:"reason"`
	By              string      `json:"by"`
	Moves           *wireMoves  `json:"moves"`
	Kind            string      `json:"kind"`
	Article         string      `json:"article"`
	Detail          string      `json:"detail"`
	Period          int         `json:"period"`
	Added           json.Number `json:"added"`
	MovesCompleted  int         `json:"moves_completed"`
	MovesRequired   *int        `json:"moves_required"`
	ControlReached  bool        `json:"control_reached"`
	OpponentCanMate string      `json:"opponent_can_mate"`
	MateLine        []string    `json:"mate_line"`
	Verdict         string      `json:"verdict"`
	Result          string      `json:"result"`
	// adjust
	From       json.Number `json:"from"`
	To         json.Number `json:"to"`
	Delta      json.Number `json:"delta"`
	SideUnsure bool        `json:"side_unsure"`
	Closes     []int       `json:"closes"`
	// claim, decision
	Quiet    int      `json:"quiet_plies"`
	Recent   []string `json:"recent"`
	Claim    int      `json:"claim"`
	Decision string   `json:"decision"`
	Arbiter  string   `json:"arbiter"`
	// anomaly unverified-moves
	VerifiedPly int      `json:"verified_ply"`
	Made        int      `json:"made"`
	Plies       []string `json:"plies"`
}

type wireClock struct {
	White json.Number `json:"white"`
	Black json.Number `json:"black"`
}

type wireMoves struct{ White, Black int }

// ParseEvent reads one event line as arbiterd writes it, every type of
// rules/reconcile/event.go (the extensions adjust, pause, claim and
// decision included), into the event the venue's hub was given. The line
// must be exactly what reconcile.Marshal gives for the event it decodes
// to, so the hall never shows an event that differs from the venue's by a
// byte.
func ParseEvent(line []byte) (reconcile.Event, error) {
	var w wireEvent
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	if err := dec.Decode(&w); err != nil {
		return reconcile.Event{}, fmt.Errorf("%w: %v", ErrNotEvent, err)
	}
	e := reconcile.Event{Type: reconcile.Type(w.Type), Board: w.Board, Seq: w.Seq, State: reconcile.State(w.State), Port: w.Port,
		FEN: w.FEN, Orientation: w.Orientation, Ply: w.Ply, SAN: w.SAN, UCI: w.UCI, Inferred: w.Inferred,
		Reason: w.Reason, By: w.By, Kind: reconcile.Kind(w.Kind), Article: w.Article, Detail: w.Detail, Period: w.Period,
		MovesCompleted: w.MovesCompleted, ControlReached: w.ControlReached, OpponentCanMate: reconcile.Mate(w.OpponentCanMate),
		MateLine: w.MateLine, Verdict: reconcile.Verdict(w.Verdict), Result: w.Result, Closes: w.Closes, Quiet: w.Quiet, Recent: w.Recent,
		Claim: w.Claim, Decision: w.Decision, Arbiter: w.Arbiter}
	if w.SideUnsure {
		e.Inferred = true // adjust writes Inferred as side_unsure
	}
	if e.Type == reconcile.TypeAnomaly && e.Kind == reconcile.KindUnverified {
		e.Ply, e.Made, e.Plies = w.VerifiedPly, w.Made, w.Plies
	}
	var err error
	if e.At, err = seconds(w.T, 6); err != nil {
		return e, fmt.Errorf("%w: t: %v", ErrNotEvent, err)
	}
	if w.Side == nil {
		e.NoSide = true
	} else if *w.Side == "black" {
		e.Side = clockd.Black
	}
	if w.Clock != nil {
		if e.Clock.White, err = seconds(w.Clock.White, 3); err == nil {
			e.Clock.Black, err = seconds(w.Clock.Black, 3)
		}
		if err != nil {
			return e, fmt.Errorf("%w: clock: %v", ErrNotEvent, err)
		}
	}
	if w.Moves != nil {
		e.Moves = reconcile.Moves{White: w.Moves.White, Black: w.Moves.Black}
	}
	if w.Added != "" {
		if e.Added, err = seconds(w.Added, 3); err != nil {
			return e, fmt.Errorf("%w: added: %v", ErrNotEvent, err)
		}
	}
	if w.Delta != "" {
		if e.Added, err = seconds(w.Delta, 3); err != nil { // adjust writes Added as delta
			return e, fmt.Errorf("%w: delta: %v", ErrNotEvent, err)
		}
	}
	for _, f := range []struct {
		name string
		n    json.Number
		d    *time.Duration
	}{{"from", w.From, &e.From}, {"to", w.To, &e.To}} {
		if f.n != "" {
			if *f.d, err = seconds(f.n, 3); err != nil {
				return e, fmt.Errorf("%w: %s: %v", ErrNotEvent, f.name, err)
			}
		}
	}
	if w.MovesRequired != nil {
		e.MovesRequired = *w.MovesRequired
	}
	if !bytes.Equal(reconcile.Marshal(e), line) {
		return e, fmt.Errorf("%w: the line is not written as arbiterd writes events (type %q)", ErrNotEvent, w.Type)
	}
	return e, nil
}

// parseLoose reads an event line as ParseEvent does, but takes a line that
// ParseEvent would not write back byte for byte (an event type or field
// newer than this hall: a venue upgraded before the hall) as long as it is
// a JSON object with a type, a board and a sequence number: the hall keeps
// the line as it came and shows what it understands of it. Every type this
// hall's rules/reconcile writes is read in full by ParseEvent
// (TestParseEventEveryType).
func parseLoose(line []byte) (reconcile.Event, error) {
	e, err := ParseEvent(line)
	if err == nil {
		return e, nil
	}
	var head struct {
		Type  string `json:"type"`
		Board string `json:"board"`
		Seq   int    `json:"seq"`
	}
	if json.Unmarshal(line, &head) != nil || head.Type == "" || head.Board == "" || head.Seq < 1 {
		return e, err
	}
	e.Type, e.Board, e.Seq = reconcile.Type(head.Type), head.Board, head.Seq
	return e, nil
}

// seconds reads a decimal number of seconds with at most digits decimals
// exactly (no floating point).
func seconds(n json.Number, digits int) (time.Duration, error) {
	s := string(n)
	if s == "" {
		return 0, errors.New("missing")
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	whole, frac, _ := strings.Cut(s, ".")
	if len(frac) > digits {
		return 0, fmt.Errorf("%q: more than %d decimals", n, digits)
	}
	frac += strings.Repeat("0", digits-len(frac))
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %v", n, err)
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %v", n, err)
	}
	unit := time.Second
	for range digits {
		unit /= 10
	}
	d := time.Duration(w)*time.Second + time.Duration(f)*unit
	if neg {
		d = -d
	}
	return d, nil
}
