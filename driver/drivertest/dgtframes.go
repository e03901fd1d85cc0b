package drivertest

import (
	"fmt"
	"strings"
	"time"
)

// DGTFrame builds a DGT message: id, the total length as two 7-bit bytes,
// then data. It panics if the length does not fit 14 bits (a test bug).
func DGTFrame(id byte, data ...byte) []byte {
	n := 3 + len(data)
	if n >= 1<<14 {
		panic(fmt.Sprintf("drivertest: DGT frame of %d bytes is too long", n))
	}
	return append([]byte{id, byte(n >> 7), byte(n & 0x7f)}, data...)
}

// DGTFieldUpdate builds a field update (0x8e): square field (0 = a8 … 63 =
// h1) now holds piece.
func DGTFieldUpdate(field, piece byte) []byte { return DGTFrame(0x8e, field, piece) }

// DGTBoardDump builds a board dump (0x86) from 64 piece codes in DGT field
// order.
func DGTBoardDump(fields [64]byte) []byte { return DGTFrame(0x86, fields[:]...) }

// DGTStartPosition returns the piece codes of the initial position with
// White at the h1 end of the board (rank 1 at fields 56–63).
func DGTStartPosition() [64]byte {
	var f [64]byte
	back := []byte{2, 3, 4, 6, 5, 4, 3, 2} // R N B Q K B N R
	for i := 0; i < 8; i++ {
		f[i] = back[i] + 6 // black pieces on rank 8
		f[8+i] = 7         // black pawns
		f[48+i] = 1        // white pawns
		f[56+i] = back[i]
	}
	return f
}

// DGTFields returns the piece codes of a position given as a FEN (or only
// its piece placement), field 0 being a8 and field 63 h1: the order of a
// board dump with White at the h1 end, which is also the order FEN lists
// the squares in.
func DGTFields(fen string) ([64]byte, error) {
	var f [64]byte
	placement, _, _ := strings.Cut(strings.TrimSpace(fen), " ")
	i := 0
	for _, c := range placement {
		switch {
		case c == '/':
			if i%8 != 0 {
				return f, fmt.Errorf("placement %q: a rank ends after %d squares", placement, i%8)
			}
		case c >= '1' && c <= '8':
			i += int(c - '0')
		default:
			code := strings.IndexRune("PRNBKQprnbkq", c)
			if code < 0 {
				return f, fmt.Errorf("placement %q: %q is no piece", placement, c)
			}
			if i >= 64 {
				return f, fmt.Errorf("placement %q: more than 64 squares", placement)
			}
			f[i] = byte(code + 1)
			i++
		}
	}
	if i != 64 {
		return f, fmt.Errorf("placement %q covers %d squares, want 64", placement, i)
	}
	return f, nil
}

// Face is one clock face for DGTClock.
type Face struct {
	Time      time.Duration // below 10 hours
	Flag      bool          // flag fallen, blocked at zero
	FlagShown bool          // flag fallen, shown while running on
	PerMove   bool          // increment/delay indicator
}

func (f Face) bytes() [3]byte {
	s := int(f.Time / time.Second)
	h, m, sec := s/3600, s/60%60, s%60
	b0 := byte(h & 0x0f)
	if f.Flag {
		b0 |= 0x10
	}
	if f.PerMove {
		b0 |= 0x20
	}
	if f.FlagShown {
		b0 |= 0x40
	}
	return [3]byte{b0, byte(m/10<<4 | m%10), byte(sec/10<<4 | sec%10)}
}

// Clock status bits for DGTClock.
const (
	ClockRunning   byte = 0x01
	ClockLeverHigh byte = 0x02 // lever up on the right
	ClockBattery   byte = 0x04
	// The turn bits D3 and D4 as real boards set them (and the protocol
	// text before 2015): D3 while the left face runs, D4 while the right
	// one does. The 2015 revision of the text swaps them.
	ClockLeftTurn  byte = 0x08
	ClockRightTurn byte = 0x10
	ClockNone      byte = 0x20
)

// DGTClock builds a BWTIME clock reading (0x8d): right face, left face,
// status byte (Clock* bits).
func DGTClock(left, right Face, status byte) []byte {
	r, l := right.bytes(), left.bytes()
	return DGTFrame(0x8d, r[0], r[1], r[2], l[0], l[1], l[2], status)
}

// DGTClockAck builds the BWTIME form that carries a clock acknowledgement
// of the four bytes ack (spreading their top bits over the marker bytes).
func DGTClockAck(ack [4]byte) []byte {
	b3 := 0x0a | (ack[2]>>7)<<4 | (ack[3]>>7)<<5
	b6 := 0x0a | (ack[0]>>7)<<4 | (ack[1]>>7)<<5
	return DGTFrame(0x8d, b3, ack[0]&0x7f, ack[1]&0x7f, b6, ack[2]&0x7f, ack[3]&0x7f, 0)
}

// DGTSerial builds a serial number message (0x91) of five characters.
func DGTSerial(s string) []byte { return DGTFrame(0x91, []byte(s)...) }

// DGTLongSerial builds a long serial number message (0xa2), ten characters.
func DGTLongSerial(s string) []byte { return DGTFrame(0xa2, []byte(s)...) }

// DGTVersion builds a version message (0x93).
func DGTVersion(major, minor byte) []byte { return DGTFrame(0x93, major, minor) }

// DGTTrademark builds a trademark message (0x92).
func DGTTrademark(s string) []byte { return DGTFrame(0x92, []byte(s)...) }
