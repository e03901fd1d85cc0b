package dgt

import (
	"fmt"
	"time"
)

// Board commands: single bytes sent by the host.
const (
	CmdReset       byte = 0x40 // stop sending updates, back to idle
	CmdSendClock   byte = 0x41 // send one BWTIME message
	CmdSendBoard   byte = 0x42 // send a BoardDump
	CmdUpdate      byte = 0x43 // send field updates and clock times
	CmdUpdateBoard byte = 0x44 // send field updates only
	CmdSerialNr    byte = 0x45 // send the serial number
	CmdBusAddress  byte = 0x46 // send the bus address
	CmdTrademark   byte = 0x47 // send the trademark text
	CmdEEPROMMoves byte = 0x49 // send the stored move log
	CmdUpdateNice  byte = 0x4b // field updates, and clock times only when they change
	CmdBattery     byte = 0x4c // send the battery status
	CmdVersion     byte = 0x4d // send the firmware version
	CmdLongSerial  byte = 0x55 // send the long serial number
	CmdClock       byte = 0x2b // prefix of a wrapped clock command
)

// Clock sub-commands, wrapped by ClockCommand. The clock answers each with
// a ClockAck whose Ack[1] is the sub-command.
const (
	ClockDisplay   byte = 0x01 // show a display pattern
	ClockIcons     byte = 0x02 // set the display icons
	ClockEnd       byte = 0x03 // end a display: back to the times
	ClockButton    byte = 0x08 // ask for the button state
	ClockVersion   byte = 0x09 // ask for the clock's version
	ClockSetAndRun byte = 0x0a // set both times and the running side
	ClockBeep      byte = 0x0b // beep
	ClockASCII     byte = 0x0c // show eight characters of text
)

const (
	clockStart byte = 0x03 // first byte after the size
	clockStop  byte = 0x00 // last byte of a wrapped clock command
)

// Running sides for SetAndRun (the mode byte).
const (
	RunNone  byte = 0x00 // both faces stopped
	RunLeft  byte = 0x01 // the left face counts down
	RunRight byte = 0x02 // the right face counts down
)

// ClockCommand wraps a clock sub-command with its payload as the board
// forwards it to the clock: 2b SIZE 03 CMD PAYLOAD… 00, where SIZE counts
// the bytes after itself. The payload must keep bit 7 clear; ClockCommand
// reports an error for a payload byte with bit 7 set or one too long to
// wrap.
func ClockCommand(cmd byte, payload ...byte) ([]byte, error) {
	if cmd&0x80 != 0 {
		return nil, fmt.Errorf("dgt: clock command 0x%02x has bit 7 set", cmd)
	}
	if len(payload) > 0x7f-3 {
		return nil, fmt.Errorf("dgt: clock command 0x%02x: payload of %d bytes is too long", cmd, len(payload))
	}
	for i, c := range payload {
		if c&0x80 != 0 {
			return nil, fmt.Errorf("dgt: clock command 0x%02x: payload byte %d (0x%02x) has bit 7 set", cmd, i, c)
		}
	}
	out := make([]byte, 0, len(payload)+5)
	out = append(out, CmdClock, byte(len(payload)+3), clockStart, cmd)
	out = append(out, payload...)
	return append(out, clockStop), nil
}

// SetAndRun encodes the clock command that sets both faces (left and right
// as seen from the clock's front, each below 10 hours) and which side runs
// (RunNone, RunLeft or RunRight).
func SetAndRun(left, right time.Duration, run byte) ([]byte, error) {
	lh, lm, ls, err := hms(left)
	if err != nil {
		return nil, fmt.Errorf("dgt: set-and-run left face: %w", err)
	}
	rh, rm, rs, err := hms(right)
	if err != nil {
		return nil, fmt.Errorf("dgt: set-and-run right face: %w", err)
	}
	if run > RunRight {
		return nil, fmt.Errorf("dgt: set-and-run: running side 0x%02x is not RunNone, RunLeft or RunRight", run)
	}
	return ClockCommand(ClockSetAndRun, lh, lm, ls, rh, rm, rs, run)
}

func hms(d time.Duration) (h, m, s byte, err error) {
	if d < 0 || d >= 10*time.Hour {
		return 0, 0, 0, fmt.Errorf("time %v is outside 0 to 9:59:59", d)
	}
	sec := int(d / time.Second)
	return byte(sec / 3600), byte(sec / 60 % 60), byte(sec % 60), nil
}

// DisplayText encodes the clock command that shows up to eight characters
// of ASCII text (shorter text is padded with spaces), beeping for beep
// (in units of 1/16 s, at most 48; 0 for silence).
func DisplayText(text string, beep byte) ([]byte, error) {
	if len(text) > 8 {
		return nil, fmt.Errorf("dgt: clock text %q is longer than 8 characters", text)
	}
	if beep > 48 {
		return nil, fmt.Errorf("dgt: clock beep %d is longer than 48/16 s", beep)
	}
	p := []byte("        ")
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c < 0x20 || c > 0x7e {
			return nil, fmt.Errorf("dgt: clock text %q: byte %d (0x%02x) is not printable ASCII", text, i, c)
		}
		p[i] = c
	}
	return ClockCommand(ClockASCII, append(p, beep)...)
}

// Beep encodes the clock command that beeps for d (rounded down to 1/16 s,
// at most 3 s).
func Beep(d time.Duration) ([]byte, error) {
	n := d * 16 / time.Second
	if n < 0 || n > 48 {
		return nil, fmt.Errorf("dgt: beep of %v is outside 0 to 3s", d)
	}
	return ClockCommand(ClockBeep, byte(n))
}

// EndDisplay encodes the clock command that ends a text display and shows
// the times again.
func EndDisplay() []byte { b, _ := ClockCommand(ClockEnd); return b }

// ClockVersionCommand encodes the clock command that asks for the clock's
// version (the answer is a ClockAck).
func ClockVersionCommand() []byte { b, _ := ClockCommand(ClockVersion); return b }
