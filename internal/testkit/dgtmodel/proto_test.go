package dgtmodel_test

import (
	"bufio"
	"encoding/hex"
	"github.com/arbiterd/arbiterd/internal/testkit/shareddata"
	"os"
	"strings"
	"testing"

	"github.com/notnil/chess"
)

// The board's messages, as docs/dgt.md describes them: an id with bit 7
// set, the total length (header included) as two 7-bit bytes, most
// significant first, then data bytes with bit 7 clear.
const (
	idBoardDump   = 0x86
	idBWTime      = 0x8d
	idFieldUpdate = 0x8e
)

// Host → board commands the model's captures record as written.
const (
	cmdSendBoard  = 0x42
	cmdUpdateNice = 0x4b
)

func frame(id byte, data ...byte) []byte {
	n := 3 + len(data)
	out := make([]byte, 0, n)
	out = append(out, id, byte(n>>7)&0x7f, byte(n)&0x7f)
	return append(out, data...)
}

// Piece codes: 0 empty, 1–6 White P R N B K Q, 7–12 Black p r n b k q.
func pieceCode(p chess.Piece) byte {
	if p == chess.NoPiece {
		return 0
	}
	var c byte
	switch p.Type() {
	case chess.Pawn:
		c = 1
	case chess.Rook:
		c = 2
	case chess.Knight:
		c = 3
	case chess.Bishop:
		c = 4
	case chess.King:
		c = 5
	case chess.Queen:
		c = 6
	}
	if p.Color() == chess.Black {
		c += 6
	}
	return c
}

// fieldOf is the board's own field number of a square: field 0 is the
// square in the corner at the board's far left as it is built (a8 when
// White sits at the board's first ranks), 63 the near right. A rotated
// board (Black's pieces on the board's first ranks) has h1 at field 0.
func fieldOf(sq chess.Square, rotated bool) int {
	f := (7-int(sq.Rank()))*8 + int(sq.File())
	if rotated {
		f = 63 - f
	}
	return f
}

// boardDump is message 0x86: the 64 piece codes in field order.
func boardDump(fields [64]byte) []byte { return frame(idBoardDump, fields[:]...) }

// fieldUpdate is message 0x8e: one field and the piece now on it.
func fieldUpdate(field int, code byte) []byte { return frame(idFieldUpdate, byte(field), code) }

// faceShow is what one clock face displays, in the terms of BWTIME bytes
// 3–5 (right face) and 6–8 (left face).
type faceShow struct {
	secs    int  // h:mm:ss as seconds, 0 ≤ secs < 10 h
	blocked bool // D4 of byte 3/6: flag fallen, time blocked at zero
	perMove bool // D5: per-move (increment/delay) indicator
	shown   bool // D6: flag fallen and shown while the clock runs on
}

func bcd(v int) byte { return byte(v/10)<<4 | byte(v%10) }

func (f faceShow) bytes() [3]byte {
	h := byte(f.secs/3600) & 0x0f
	if f.blocked {
		h |= 0x10
	}
	if f.perMove {
		h |= 0x20
	}
	if f.shown {
		h |= 0x40
	}
	return [3]byte{h, bcd(f.secs / 60 % 60), bcd(f.secs % 60)}
}

// Byte 9 of BWTIME, the clock's status.
const (
	stRunning    = 0x01 // D0 the clock runs
	stLeverRight = 0x02 // D1 the lever is high on the right (the high side runs)
	stBattery    = 0x04 // D2 battery low
	stD3         = 0x08 // D3 one player's turn: the left's in the pre-2015 text and on real boards
	stD4         = 0x10 // D4 the other's
	stNoClock    = 0x20 // D5 no clock connected
)

// bwtime is message 0x8d: right face, left face, status.
func bwtime(right, left faceShow, status byte) []byte {
	r, l := right.bytes(), left.bytes()
	return frame(idBWTime, r[0], r[1], r[2], l[0], l[1], l[2], status)
}

// The model's encoders reproduce bytes a real board sent
// (shared/data/real-dgt): the start position's dump, field updates, and
// clock messages under the pre-2015 turn-bit meaning (D3 left, D4 right).
func TestEncodersMatchRealBytes(t *testing.T) {
	start := chess.NewGame().Position().Board()
	var fields [64]byte
	for sq := chess.A1; sq <= chess.H8; sq++ {
		fields[fieldOf(sq, false)] = pieceCode(start.Piece(sq))
	}
	p := func(secs int) faceShow { return faceShow{secs: secs, perMove: true} }
	left, right := 0, 1
	status := func(running bool, runs int) byte {
		s := byte(0)
		if running {
			s |= stRunning
		}
		if runs == right {
			s |= stLeverRight
		}
		return s | convOld.turnBit(runs)
	}
	cases := []struct {
		name string
		got  []byte
		want string
	}{
		{"start dump", boardDump(fields), "86004308090a0c0b0a09080707070707070707000000000000000000000000000000000000000000000000000000000000000001010101010101010203040605040302"},
		{"e2 lifted", fieldUpdate(fieldOf(chess.E2, false), 0), "8e00053400"},
		{"e4 placed", fieldUpdate(fieldOf(chess.E4, false), pieceCode(chess.WhitePawn)), "8e00052401"},
		{"b8 lifted", fieldUpdate(fieldOf(chess.B8, false), 0), "8e00050100"},
		{"knight on c6", fieldUpdate(fieldOf(chess.C6, false), pieceCode(chess.BlackKnight)), "8e00051209"},
		{"stopped, left to run", bwtime(p(182), p(182), status(false, left)), "8d000a20030220030208"},
		{"left runs", bwtime(p(182), p(181), status(true, left)), "8d000a20030220030109"},
		{"right runs", bwtime(p(182), p(181), status(true, right)), "8d000a20030220030113"},
	}
	for _, c := range cases {
		if h := hex.EncodeToString(c.got); h != c.want {
			t.Errorf("%s: encoded %s, the real board sent %s", c.name, h, c.want)
		}
	}
	// Every encoded case appears in the real capture.
	f, err := os.Open(shareddata.Require(t, "real-dgt", "game-1.capture"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if fs := strings.Fields(sc.Text()); len(fs) == 4 && fs[2] == "r" {
			seen[fs[3]] = true
		}
	}
	for _, c := range cases {
		if !seen[c.want] {
			t.Errorf("%s: %s is not in game-1.capture", c.name, c.want)
		}
	}
}

// In the real bytes, the turn bit follows the face that counts down: D3
// while the left display falls, D4 while the right one does; and D1 is set
// exactly while the right one does.
func TestRealBytesTurnBits(t *testing.T) {
	f, err := os.Open(shareddata.Require(t, "real-dgt", "game-1.capture"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	type reading struct {
		left, right int
		status      byte
	}
	secs := func(b []byte) int {
		d := func(x byte) int { return int(x>>4)*10 + int(x&0x0f) }
		return int(b[0]&0x0f)*3600 + d(b[1])*60 + d(b[2])
	}
	var prev *reading
	checked := 0
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 4 || !strings.HasPrefix(fs[3], "8d000a") {
			continue
		}
		b, err := hex.DecodeString(fs[3])
		if err != nil || len(b) != 10 {
			t.Fatalf("bad line %q", sc.Text())
		}
		r := reading{right: secs(b[3:6]), left: secs(b[6:9]), status: b[9]}
		if prev != nil && r.status&stRunning != 0 && prev.status == r.status {
			switch {
			case r.left < prev.left && r.right == prev.right:
				checked++
				if r.status&(stD3|stD4|stLeverRight) != stD3 {
					t.Errorf("%s: left falls, status %#02x", fs[0], r.status)
				}
			case r.right < prev.right && r.left == prev.left:
				checked++
				if r.status&(stD3|stD4|stLeverRight) != stD4|stLeverRight {
					t.Errorf("%s: right falls, status %#02x", fs[0], r.status)
				}
			}
		}
		prev = &r
	}
	if checked < 50 {
		t.Fatalf("only %d readings checked", checked)
	}
}
