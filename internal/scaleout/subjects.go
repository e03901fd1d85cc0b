package scaleout

import (
	"fmt"
	"strings"
)

// Stream names.
const (
	EventsStream      = "ARBITERD_EVENTS"
	CaptureStream     = "ARBITERD_CAPTURE"
	HallEventsStream  = "ARBITERD_HALL_EVENTS"
	HallCaptureStream = "ARBITERD_HALL_CAPTURE"
	// HallDomain is the hall's JetStream domain.
	HallDomain = "hall"
)

// The subjects of a venue's streams (arbiterd.<event>.<round>.<board>.<kind>).
const (
	EventsSubjects  = "arbiterd.*.*.*.events"
	CaptureSubjects = "arbiterd.*.*.*.capture"
)

// Message headers the venue adds.
const (
	HeaderVenue  = "Arbiterd-Venue"  // the venue's name
	HeaderOffset = "Arbiterd-Offset" // a capture chunk's byte offset in the capture file
)

// Token makes s usable as one subject token: every character that is not
// a letter, a digit, '_' or '-' becomes '_' ("" becomes "_").
func Token(s string) string {
	if s == "" {
		return "_"
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// Key names one board's game: the event, the round and the board, as
// subject tokens, and the venue that plays it.
type Key struct {
	Event, Round, Board string // subject tokens (see Token)
	Venue               string
}

// EventsSubject is the subject of the board's events.
func (k Key) EventsSubject() string {
	return "arbiterd." + k.Event + "." + k.Round + "." + k.Board + ".events"
}

// CaptureSubject is the subject of the board's capture chunks.
func (k Key) CaptureSubject() string {
	return "arbiterd." + k.Event + "." + k.Round + "." + k.Board + ".capture"
}

// EventID is the message id of the event with sequence number seq. The
// game part is the venue's name: one venue plays one game on a board in a
// round, and two venues that claim the same board number never share ids
// (the hall sees both, and says so).
func (k Key) EventID(seq int) string {
	return fmt.Sprintf("%s/%s/%s/%s/%d", k.Event, k.Round, k.Board, k.Venue, seq)
}

// CaptureID is the message id of the capture chunk at offset.
func (k Key) CaptureID(offset int64) string {
	return fmt.Sprintf("%s/%s/%s/%s/capture@%d", k.Event, k.Round, k.Board, k.Venue, offset)
}

// parseSubject splits arbiterd.<event>.<round>.<board>.<kind>, as a venue
// publishes it, or arbiterd.<venue>.<event>.<round>.<board>.<kind>, as the
// hall's streams hold it.
func parseSubject(subj string) (event, round, board, kind string, ok bool) {
	p := strings.Split(subj, ".")
	if len(p) == 6 {
		p = append(p[:1], p[2:]...)
	}
	if len(p) != 5 || p[0] != "arbiterd" {
		return "", "", "", "", false
	}
	return p[1], p[2], p[3], p[4], true
}

// HeartbeatSubject is where a venue says it is alive (core NATS).
func HeartbeatSubject(venue string) string { return "arbiterd.heartbeat." + Token(venue) }
