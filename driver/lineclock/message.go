package lineclock

import (
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// Version is the protocol version this package speaks.
const Version = 1

// MaxLine is the longest line (without its terminator) a device may send.
const MaxLine = 120

// MaxTime is the largest time a line may carry: 99:59:59.999.
const MaxTime = 100*time.Hour - time.Millisecond

// Message is one decoded line: Hello, Status, Press or Flag.
type Message interface{ isMessage() }

// Hello is the first line after the clock powers up or the port opens.
type Hello struct {
	Version int    // protocol version, 1
	Model   string // device model: letters, digits, '-', '_', '.'
	Serial  string // device serial number, same characters
}

// Turn is whose clock runs (or would run when stopped).
type Turn int

const (
	TurnNone  Turn = iota // before the start
	TurnLeft              // the left clock runs
	TurnRight             // the right clock runs
)

// FaceFlags are the indicators shown on one face.
type FaceFlags struct {
	Fallen  bool // F: flag fallen, time blocked at zero
	Shown   bool // S: flag fallen and shown while the next period runs
	PerMove bool // I: increment or delay indicator
}

// Status is the clock's periodic report (at least every 500 ms while
// running, and at every change).
type Status struct {
	Seq         int
	Left, Right time.Duration // displayed times
	Turn        Turn
	Running     bool
	LeftFlags   FaceFlags
	RightFlags  FaceFlags
	BatteryLow  bool
}

// Press is a lever press: Face's clock stopped, the other started. The
// times are those displayed right after the press (increment or period
// included).
type Press struct {
	Seq         int
	Face        clockd.Face
	Left, Right time.Duration
}

// Flag reports that Face's time reached zero.
type Flag struct {
	Seq         int
	Face        clockd.Face
	Left, Right time.Duration
}

func (Hello) isMessage()  {}
func (Status) isMessage() {}
func (Press) isMessage()  {}
func (Flag) isMessage()   {}

// seqOf returns a message's sequence number, -1 for Hello.
func seqOf(m Message) int {
	switch m := m.(type) {
	case Status:
		return m.Seq
	case Press:
		return m.Seq
	case Flag:
		return m.Seq
	}
	return -1
}

// MaxSeq is the largest sequence number; after it comes 0.
const MaxSeq = 9999
