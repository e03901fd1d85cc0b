package dgt

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors of Decode; a *FrameError wraps them.
var (
	// ErrNoise: an all-zero clock message, which boards send when no clock
	// is attached or while it wakes up. It carries nothing; skip it.
	ErrNoise = errors.New("all-zero clock message (noise)")
	// ErrUnknownID: a well-formed frame with an id arbiterd does not know.
	ErrUnknownID = errors.New("unknown message id")
	// ErrFraming: the bytes are not one well-formed frame.
	ErrFraming = errors.New("malformed frame")
	// ErrCorrupt: a well-formed frame whose contents are impossible.
	ErrCorrupt = errors.New("corrupt message")
)

// FrameError describes a frame Decode could not turn into a Message.
type FrameError struct {
	ID     byte   // the frame's id byte (0 when there was none)
	Offset int    // offset of the offending byte within the frame
	Err    error  // ErrNoise, ErrUnknownID, ErrFraming or ErrCorrupt
	Detail string // what is wrong, in words
}

func (e *FrameError) Error() string {
	if e.Detail == "" {
		return fmt.Sprintf("dgt: message 0x%02x: %v", e.ID, e.Err)
	}
	return fmt.Sprintf("dgt: message 0x%02x: %v: %s (byte %d)", e.ID, e.Err, e.Detail, e.Offset)
}

func (e *FrameError) Unwrap() error { return e.Err }

func frameErr(frame []byte, off int, err error, format string, args ...any) *FrameError {
	var id byte
	if len(frame) > 0 {
		id = frame[0]
	}
	return &FrameError{ID: id, Offset: off, Err: err, Detail: fmt.Sprintf(format, args...)}
}

// Decode turns one frame (header included, as Split returns it) into a
// Message. It returns a *FrameError wrapping ErrNoise for the all-zero clock
// message, ErrUnknownID for an id it does not know, ErrFraming when frame is
// not exactly one well-formed frame and ErrCorrupt for impossible contents
// (a piece code above 15, minutes or seconds above 59…). The returned
// Message does not alias frame.
func Decode(frame []byte) (Message, error) {
	if res, n := scan(frame, true); res != scanFrame || n != len(frame) {
		if len(frame) == 0 {
			return nil, &FrameError{Err: ErrFraming, Detail: "empty frame"}
		}
		return nil, frameErr(frame, n, ErrFraming, "not one complete frame of %d bytes", len(frame))
	}
	data := frame[HeaderLen:]
	switch frame[0] {
	case MsgBoardDump:
		var b BoardDump
		for i, p := range data {
			if p > MaxPiece {
				return nil, frameErr(frame, HeaderLen+i, ErrCorrupt, "piece code %d on %s", p, FieldName(byte(i)))
			}
			b.Fields[i] = p
		}
		return b, nil
	case MsgFieldUpdate:
		if data[0] > 63 {
			return nil, frameErr(frame, HeaderLen, ErrCorrupt, "field %d is not a square", data[0])
		}
		if data[1] > MaxPiece {
			return nil, frameErr(frame, HeaderLen+1, ErrCorrupt, "piece code %d", data[1])
		}
		return FieldUpdate{Field: data[0], Piece: data[1]}, nil
	case MsgBWTime:
		return decodeBWTime(frame)
	case MsgSerialNr, MsgLongSerial, MsgTrademark:
		return decodeText(frame)
	case MsgVersion:
		return Version{Major: data[0], Minor: data[1]}, nil
	case MsgBusAddress:
		return BusAddress{Address: uint16(data[0])<<7 | uint16(data[1])}, nil
	case MsgBattery:
		return Battery{Data: append([]byte(nil), data...)}, nil
	case MsgEEPROMMoves:
		return EEPROMMoves{Data: append([]byte(nil), data...)}, nil
	}
	return nil, frameErr(frame, 0, ErrUnknownID, "%d bytes", len(frame))
}

// decodeText decodes the messages that carry nothing but text: the two
// serial numbers and the trademark.
func decodeText(frame []byte) (Message, error) {
	s, err := text(frame)
	if err != nil {
		return nil, err
	}
	switch frame[0] {
	case MsgSerialNr:
		return Serial{Number: s}, nil
	case MsgLongSerial:
		return LongSerial{Number: s}, nil
	}
	return Trademark{Text: s}, nil
}

// text decodes the data bytes of a frame as printable ASCII; a trailing NUL
// padding is dropped. Line breaks and tabs are text too: a board's
// trademark message spans several lines (CR LF between them).
func text(frame []byte) (string, error) {
	data := frame[HeaderLen:]
	end := len(data)
	for end > 0 && data[end-1] == 0 {
		end--
	}
	for i, c := range data[:end] {
		if (c < 0x20 && c != '\r' && c != '\n' && c != '\t') || c > 0x7e {
			return "", frameErr(frame, HeaderLen+i, ErrCorrupt, "byte 0x%02x is not printable text", c)
		}
	}
	return string(data[:end]), nil
}

// decodeBWTime decodes a BWTIME frame: a clock reading or a clock ack.
func decodeBWTime(frame []byte) (Message, error) {
	b := frame // b[3..9] as the protocol numbers them
	zero := true
	for _, c := range b[HeaderLen:] {
		if c != 0 {
			zero = false
			break
		}
	}
	if zero {
		return nil, frameErr(frame, 0, ErrNoise, "")
	}
	if b[3]&0x0f == 0x0a || b[6]&0x0f == 0x0a {
		return ClockAck{Ack: [4]byte{
			b[4]&0x7f | (b[6]<<3)&0x80,
			b[5]&0x7f | (b[6]<<2)&0x80,
			b[7]&0x7f | (b[3]<<3)&0x80,
			b[8]&0x7f | (b[3]<<2)&0x80,
		}}, nil
	}
	right, err := face(frame, 3)
	if err != nil {
		return nil, err
	}
	left, err := face(frame, 6)
	if err != nil {
		return nil, err
	}
	st := b[9]
	return ClockTime{
		Left:           left,
		Right:          right,
		Running:        st&0x01 != 0,
		LeverRightHigh: st&0x02 != 0,
		BatteryLow:     st&0x04 != 0,
		TurnD3:         st&0x08 != 0,
		TurnD4:         st&0x10 != 0,
		NoClock:        st&0x20 != 0,
	}, nil
}

// face decodes the three bytes of one clock face starting at frame[i].
func face(frame []byte, i int) (FaceTime, error) {
	h := frame[i] & 0x0f
	if h > 9 {
		return FaceTime{}, frameErr(frame, i, ErrCorrupt, "hours %d", h)
	}
	m, ok := bcd(frame[i+1])
	if !ok || m > 59 {
		return FaceTime{}, frameErr(frame, i+1, ErrCorrupt, "minutes 0x%02x are not 00-59", frame[i+1])
	}
	s, ok := bcd(frame[i+2])
	if !ok || s > 59 {
		return FaceTime{}, frameErr(frame, i+2, ErrCorrupt, "seconds 0x%02x are not 00-59", frame[i+2])
	}
	return FaceTime{
		Time:      time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second,
		Flag:      frame[i]&0x10 != 0,
		PerMove:   frame[i]&0x20 != 0,
		FlagShown: frame[i]&0x40 != 0,
	}, nil
}

func bcd(c byte) (int, bool) {
	hi, lo := c>>4, c&0x0f
	if hi > 9 || lo > 9 {
		return 0, false
	}
	return int(hi)*10 + int(lo), true
}
