package emulator

import (
	"fmt"
	"time"
)

// Host command bytes (host → board). Each is a single byte; clock commands
// are the exception and arrive wrapped in a clock frame (see clockCommand).
const (
	cmdReset        = 0x40
	cmdSendClock    = 0x41
	cmdSendBoard    = 0x42
	cmdUpdate       = 0x43
	cmdUpdateBoard  = 0x44
	cmdSerial       = 0x45
	cmdBusAddress   = 0x46
	cmdTrademark    = 0x47
	cmdEEMoves      = 0x49
	cmdUpdateNice   = 0x4b
	cmdBattery      = 0x4c
	cmdVersion      = 0x4d
	cmdLongSerial   = 0x55
	cmdClockMessage = 0x2b
)

// Message ids (board → host). Bit 7 is set on every id and on no other byte.
const (
	msgBoardDump   = 0x86
	msgBWTime      = 0x8d
	msgFieldUpdate = 0x8e
	msgEEMoves     = 0x8f
	msgBusAddress  = 0x90
	msgSerial      = 0x91
	msgTrademark   = 0x92
	msgVersion     = 0x93
	msgBattery     = 0xa0
	msgLongSerial  = 0xa2
)

// Clock sub-commands carried inside a clock frame (2b SIZE 03 CMD ... 00).
const (
	clockStartMessage = 0x03
	clockEndMessage   = 0x00

	clockCmdDisplay = 0x01 // segment display
	clockCmdIcons   = 0x02 // icons
	clockCmdEnd     = 0x03 // end display: back to showing the times
	clockCmdButton  = 0x08 // query the buttons
	clockCmdVersion = 0x09 // query the clock version
	clockCmdSetNRun = 0x0a // set both times and which side runs
	clockCmdBeep    = 0x0b // beep
	clockCmdASCII   = 0x0c // show text
)

// clockAckMarker is ack0 of every acknowledgement the emulated clock sends;
// ack1 is the command acknowledged.
const clockAckMarker = 0x10

// Identity the emulated board reports.
const (
	emuSerial      = "20260"
	emuLongSerial  = "A620260001"
	emuVersionMaj  = 3
	emuVersionMin  = 2
	emuClockMajor  = 1
	emuClockMinor  = 4
	emuBattery     = 87
	emuTrademarkTx = "Digital Game Technology\r\nemulated by arbiterd\r\n"
)

// message builds a device message: the id, the total length (header
// included) as two 7-bit bytes, then the data bytes, which must have bit 7
// clear.
func message(id byte, data ...byte) []byte {
	n := 3 + len(data)
	out := make([]byte, 0, n)
	out = append(out, id, byte(n>>7)&0x7f, byte(n)&0x7f)
	for _, b := range data {
		out = append(out, b&0x7f)
	}
	return out
}

// fieldUpdate is the 0x8e message: one square (board frame, 0 = a8) now
// holds piece (0 = empty).
func fieldUpdate(field int, piece byte) []byte {
	return message(msgFieldUpdate, byte(field), piece)
}

// boardDump is the 0x86 message: 64 piece codes in field order.
func boardDump(fields *[64]byte) []byte {
	return message(msgBoardDump, fields[:]...)
}

// Flag and status bits of a BWTIME message.
const (
	faceFlagBlocked = 0x10 // b3/b6 bit 4: flag fell, time blocked at zero
	facePerMove     = 0x20 // b3/b6 bit 5: increment or delay in force
	faceFlagShown   = 0x40 // b3/b6 bit 6: flag fell, next period added, runs on

	statusRunning     = 0x01
	statusRightHigh   = 0x02
	statusBatteryLow  = 0x04
	statusTurnD3      = 0x08 // the left face runs (the right one under TurnBits2015)
	statusTurnD4      = 0x10 // the right face runs (the left one under TurnBits2015)
	statusNoClockConn = 0x20
)

// Face is what one side of the clock shows: the time (whole seconds, at
// most 9:59:59) and the indicator bits.
type Face struct {
	Time        time.Duration // displayed time, a whole number of seconds
	FlagBlocked bool          // flag fell in the last period: time blocked at zero
	FlagShown   bool          // flag fell, the next period was added, the clock runs on
	PerMove     bool          // an increment or delay is in force for this side
}

// Display is the whole clock display as the BWTIME message carries it.
type Display struct {
	Left, Right Face
	Running     bool // the clock runs (not paused, not stopped at a flag)
	RightHigh   bool // the lever is up on the right side (the left player pressed last)
	RightTurn   bool // the right clock runs
	LeftTurn    bool // the left clock runs
	// TurnBits2015 encodes the turn bits as the 2015 revision of the
	// protocol header reads them (D3 right, D4 left) instead of as real
	// boards send them (D3 left, D4 right).
	TurnBits2015 bool
	BatteryLow   bool
	NoClock      bool
}

func bcd(v int) byte { return byte(v/10)<<4 | byte(v%10) }

func faceBytes(f Face) (h, m, s byte) {
	secs := int(f.Time / time.Second)
	if secs < 0 {
		secs = 0
	}
	if secs > 9*3600+59*60+59 {
		secs = 9*3600 + 59*60 + 59
	}
	h = byte(secs/3600) | bit(f.FlagBlocked, faceFlagBlocked) | bit(f.PerMove, facePerMove) | bit(f.FlagShown, faceFlagShown)
	return h, bcd(secs / 60 % 60), bcd(secs % 60)
}

// bit is b when on holds, else 0.
func bit(on bool, b byte) byte {
	if on {
		return b
	}
	return 0
}

func (d Display) status() byte {
	left, right := byte(statusTurnD3), byte(statusTurnD4)
	if d.TurnBits2015 {
		left, right = right, left
	}
	return bit(d.Running, statusRunning) | bit(d.RightHigh, statusRightHigh) | bit(d.BatteryLow, statusBatteryLow) |
		bit(d.LeftTurn, left) | bit(d.RightTurn, right) | bit(d.NoClock, statusNoClockConn)
}

// bwtime is the 0x8d message: b3..b5 the right face (hours with flag bits,
// minutes and seconds in BCD), b6..b8 the left face, b9 the status.
func bwtime(d Display) []byte {
	rh, rm, rs := faceBytes(d.Right)
	lh, lm, ls := faceBytes(d.Left)
	return message(msgBWTime, rh, rm, rs, lh, lm, ls, d.status())
}

// clockAck is a BWTIME message whose hour nibbles are 0x0a and which carries
// four acknowledgement bytes; their bit 7 travels in bits 4 and 5 of b3/b6:
//
//	ack0 = b4 | b6 bit 4 << 3    ack1 = b5 | b6 bit 5 << 2
//	ack2 = b7 | b3 bit 4 << 3    ack3 = b8 | b3 bit 5 << 2
func clockAck(ack [4]byte, status byte) []byte {
	b3 := byte(0x0a) | (ack[2]>>7)<<4 | (ack[3]>>7)<<5
	b6 := byte(0x0a) | (ack[0]>>7)<<4 | (ack[1]>>7)<<5
	return message(msgBWTime, b3, ack[0]&0x7f, ack[1]&0x7f, b6, ack[2]&0x7f, ack[3]&0x7f, status)
}

func serialMessage() []byte     { return message(msgSerial, []byte(emuSerial)...) }
func longSerialMessage() []byte { return message(msgLongSerial, []byte(emuLongSerial)...) }
func trademarkMessage() []byte  { return message(msgTrademark, []byte(emuTrademarkTx)...) }
func versionMessage() []byte    { return message(msgVersion, emuVersionMaj, emuVersionMin) }
func eeMovesMessage() []byte    { return message(msgEEMoves) }

// busAddressMessage carries the board's bus address as two 7-bit bytes,
// derived from the serial number as DGT boards do.
func busAddressMessage() []byte {
	var n int
	if _, err := fmt.Sscanf(emuSerial, "%d", &n); err != nil {
		n = 0
	}
	n &= 0x3fff
	return message(msgBusAddress, byte(n>>7), byte(n&0x7f))
}

// batteryMessage carries nine bytes: the charge in percent, a charging flag
// (0), then seven reserved zero bytes.
func batteryMessage() []byte {
	return message(msgBattery, emuBattery, 0, 0, 0, 0, 0, 0, 0, 0)
}
