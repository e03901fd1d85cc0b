package dgt

import (
	"fmt"
	"time"
)

// Message ids sent by the board (the first header byte, bit 7 set).
const (
	MsgBoardDump   byte = 0x86 // the 64 squares
	MsgBWTime      byte = 0x8d // clock times and status, or a clock acknowledgement
	MsgFieldUpdate byte = 0x8e // one square changed
	MsgEEPROMMoves byte = 0x8f // the board's stored move log
	MsgBusAddress  byte = 0x90 // bus address
	MsgSerialNr    byte = 0x91 // five-character serial number
	MsgTrademark   byte = 0x92 // manufacturer text
	MsgVersion     byte = 0x93 // firmware version
	MsgBattery     byte = 0xa0 // battery status (wireless boards)
	MsgLongSerial  byte = 0xa2 // ten-character serial number
)

// Piece codes as the board reports them.
const (
	PieceEmpty       byte = 0
	PieceWhitePawn   byte = 1
	PieceWhiteRook   byte = 2
	PieceWhiteKnight byte = 3
	PieceWhiteBishop byte = 4
	PieceWhiteKing   byte = 5
	PieceWhiteQueen  byte = 6
	PieceBlackPawn   byte = 7
	PieceBlackRook   byte = 8
	PieceBlackKnight byte = 9
	PieceBlackBishop byte = 10
	PieceBlackKing   byte = 11
	PieceBlackQueen  byte = 12
	// The three "magic" pieces some boards use to signal a result.
	PieceMagic1 byte = 13
	PieceMagic2 byte = 14
	PieceMagic3 byte = 15
	// MaxPiece is the largest valid piece code.
	MaxPiece byte = 15
)

// Message is one decoded board message.
type Message interface {
	// ID is the message id byte (bit 7 set), e.g. MsgFieldUpdate.
	ID() byte
}

// BoardDump is the state of all 64 squares in DGT field order (index 0 is
// a8, 7 is h8, 63 is h1) with raw piece codes.
type BoardDump struct {
	Fields [64]byte
}

// FieldUpdate reports that square Field (0 = a8 … 63 = h1) now holds Piece
// (PieceEmpty when a piece was lifted).
type FieldUpdate struct {
	Field byte
	Piece byte
}

// FaceTime is what one face of the clock shows.
type FaceTime struct {
	// Time is the time displayed (hours, minutes, seconds).
	Time time.Duration
	// Flag: the flag fell and the face is blocked at zero.
	Flag bool
	// FlagShown: the flag fell and is shown while the clock may run on
	// (a next period's time was added).
	FlagShown bool
	// PerMove: the per-move indicator (increment or delay) is on.
	PerMove bool
}

// ClockTime is a BWTIME clock reading: both faces as seen from the clock's
// front, and the status byte.
type ClockTime struct {
	Left, Right FaceTime
	// Running: the clock is running (not paused or stopped).
	Running bool
	// LeverRightHigh: the lever is up on the right side. A press pushes
	// the presser's side down, so the left player pressed last and the
	// right clock runs.
	LeverRightHigh bool
	BatteryLow     bool
	// TurnD3, TurnD4: bits 3 and 4 of the status byte, the turn bits.
	// Revisions of the protocol header disagree about them: before 2015
	// D3 is the left player's turn and D4 the right's, and real boards
	// send that; the 2015 revision swaps them. The driver reports the bits
	// as they are; clockd learns what they mean from the displays
	// (docs/dgt.md).
	TurnD3, TurnD4 bool
	// NoClock: no clock is connected to the board.
	NoClock bool
}

// ClockAck is a clock acknowledgement carried in a BWTIME message: either
// the answer to a clock command (Ack[1] is the command acknowledged) or an
// unprompted report such as a button press.
type ClockAck struct {
	Ack [4]byte
}

// Clock buttons reported by an unprompted ClockAck (Button).
const (
	ButtonBack    = 1
	ButtonMinus   = 2
	ButtonPlay    = 3
	ButtonPlus    = 4
	ButtonForward = 5
)

// Unprompted reports whether the clock sent this on its own (bit 7 of
// Ack[1]) rather than in answer to a command.
func (a ClockAck) Unprompted() bool { return a.Ack[1]&0x80 != 0 }

// Button reports which clock button (ButtonBack … ButtonForward) an
// unprompted button acknowledgement names.
func (a ClockAck) Button() (button int, ok bool) {
	if a.Ack[1] != 0x88 || a.Ack[3] < 0x31 || a.Ack[3] > 0x35 {
		return 0, false
	}
	return int(a.Ack[3] - 0x30), true
}

// Acks reports whether this is the clock's answer to clock command cmd
// (one of the Clock* sub-commands).
func (a ClockAck) Acks(cmd byte) bool { return !a.Unprompted() && a.Ack[1] == cmd }

// Serial is the board's five-character serial number.
type Serial struct{ Number string }

// LongSerial is the board's ten-character serial number.
type LongSerial struct{ Number string }

// Version is the board's firmware version.
type Version struct{ Major, Minor byte }

// Trademark is the manufacturer text the board sends.
type Trademark struct{ Text string }

// BusAddress is the board's bus address (two 7-bit bytes).
type BusAddress struct{ Address uint16 }

// Battery is a battery status report; its layout varies by board, so the
// data bytes are kept as they came.
type Battery struct{ Data []byte }

// EEPROMMoves is the board's stored move log. Boards may send it without
// being asked; arbiterd does not interpret it (the capture keeps the bytes).
type EEPROMMoves struct{ Data []byte }

func (BoardDump) ID() byte   { return MsgBoardDump }
func (FieldUpdate) ID() byte { return MsgFieldUpdate }
func (ClockTime) ID() byte   { return MsgBWTime }
func (ClockAck) ID() byte    { return MsgBWTime }
func (Serial) ID() byte      { return MsgSerialNr }
func (LongSerial) ID() byte  { return MsgLongSerial }
func (Version) ID() byte     { return MsgVersion }
func (Trademark) ID() byte   { return MsgTrademark }
func (BusAddress) ID() byte  { return MsgBusAddress }
func (Battery) ID() byte     { return MsgBattery }
func (EEPROMMoves) ID() byte { return MsgEEPROMMoves }

// FieldName returns the algebraic name of DGT field f ("a8" for 0, "h1"
// for 63), or "" when f is not a field.
func FieldName(f byte) string {
	if f > 63 {
		return ""
	}
	return string([]byte{'a' + f%8, '8' - f/8})
}

// PieceChar returns the FEN letter for a piece code ("P" … "q"), "." for an
// empty square, "1" … "3" for the magic pieces and "?" for an invalid code.
func PieceChar(p byte) string {
	const s = ".PRNBKQprnbkq123"
	if p > MaxPiece {
		return "?"
	}
	return s[p : p+1]
}

// String draws the board dump as eight ranks, a8 first, one character per
// square (see PieceChar), ranks separated by '/'.
func (b BoardDump) String() string {
	out := make([]byte, 0, 71)
	for i, p := range b.Fields {
		if i > 0 && i%8 == 0 {
			out = append(out, '/')
		}
		out = append(out, PieceChar(p)...)
	}
	return string(out)
}

func (f FieldUpdate) String() string {
	return fmt.Sprintf("%s=%s", FieldName(f.Field), PieceChar(f.Piece))
}
