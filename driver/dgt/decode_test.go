package dgt_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	dt "github.com/arbiterd/arbiterd/driver/drivertest"
)

func hms(h, m, s int) time.Duration {
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second
}

func TestDecodeMessages(t *testing.T) {
	start := dt.DGTStartPosition()
	tests := []struct {
		name  string
		frame []byte
		want  dgt.Message
	}{
		{"board dump", dt.DGTBoardDump(start), dgt.BoardDump{Fields: start}},
		{"field lifted", dt.DGTFieldUpdate(52, 0), dgt.FieldUpdate{Field: 52, Piece: dgt.PieceEmpty}},
		{"field placed", []byte{0x8e, 0x00, 0x05, 36, 1}, dgt.FieldUpdate{Field: 36, Piece: dgt.PieceWhitePawn}},
		{"magic piece", dt.DGTFieldUpdate(63, 15), dgt.FieldUpdate{Field: 63, Piece: dgt.PieceMagic3}},
		{"clock", []byte{0x8d, 0x00, 0x0a, 0x01, 0x29, 0x59, 0x00, 0x05, 0x07, 0x09},
			dgt.ClockTime{Right: dgt.FaceTime{Time: hms(1, 29, 59)}, Left: dgt.FaceTime{Time: hms(0, 5, 7)},
				Running: true, TurnD3: true}},
		{"clock flags and indicators", []byte{0x8d, 0x00, 0x0a, 0x10, 0x00, 0x00, 0x62, 0x00, 0x30, 0x36},
			dgt.ClockTime{Right: dgt.FaceTime{Flag: true}, Left: dgt.FaceTime{Time: hms(2, 0, 30), PerMove: true, FlagShown: true},
				LeverRightHigh: true, BatteryLow: true, TurnD4: true, NoClock: true}},
		{"clock builder", dt.DGTClock(dt.Face{Time: hms(9, 59, 59)}, dt.Face{Time: hms(0, 0, 1), PerMove: true}, dt.ClockRunning|dt.ClockLeftTurn),
			dgt.ClockTime{Left: dgt.FaceTime{Time: hms(9, 59, 59)}, Right: dgt.FaceTime{Time: time.Second, PerMove: true}, Running: true, TurnD3: true}},
		{"ack set-and-run", dt.DGTClockAck([4]byte{0x10, 0x0a, 0, 0}), dgt.ClockAck{Ack: [4]byte{0x10, 0x0a, 0, 0}}},
		{"ack button", dt.DGTClockAck([4]byte{0x10, 0x88, 0, 0x33}), dgt.ClockAck{Ack: [4]byte{0x10, 0x88, 0, 0x33}}},
		{"ack high bits", dt.DGTClockAck([4]byte{0x90, 0xff, 0x81, 0xc2}), dgt.ClockAck{Ack: [4]byte{0x90, 0xff, 0x81, 0xc2}}},
		{"ack marker in left hours only", []byte{0x8d, 0x00, 0x0a, 0x00, 0x10, 0x0a, 0x0a, 0x00, 0x00, 0x00}, dgt.ClockAck{Ack: [4]byte{0x10, 0x0a, 0, 0}}},
		{"serial", dt.DGTSerial("12345"), dgt.Serial{Number: "12345"}},
		{"long serial", dt.DGTLongSerial("0123456789"), dgt.LongSerial{Number: "0123456789"}},
		{"version", dt.DGTVersion(3, 14), dgt.Version{Major: 3, Minor: 14}},
		{"trademark", dt.DGTTrademark("Digital Game Technology\x00"), dgt.Trademark{Text: "Digital Game Technology"}},
		{"trademark on several lines", dt.DGTTrademark("Digital Game Technology\r\nCopyright (c) DGT\r\n"), dgt.Trademark{Text: "Digital Game Technology\r\nCopyright (c) DGT\r\n"}},
		{"bus address", []byte{0x90, 0x00, 0x05, 0x01, 0x02}, dgt.BusAddress{Address: 130}},
		{"battery", []byte{0xa0, 0x00, 0x06, 0x40, 0x01, 0x02}, dgt.Battery{Data: []byte{0x40, 0x01, 0x02}}},
		{"eeprom", dt.DGTFrame(0x8f, make([]byte, 300)...), dgt.EEPROMMoves{Data: make([]byte, 300)}},
		{"empty eeprom", dt.DGTFrame(0x8f), dgt.EEPROMMoves{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dgt.Decode(tt.frame)
			if err != nil {
				t.Fatalf("Decode(%x): %v", tt.frame, err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Decode(%x) = %#v, want %#v", tt.frame, got, tt.want)
			}
			if got.ID() != tt.frame[0] {
				t.Errorf("ID() = %#x, want %#x", got.ID(), tt.frame[0])
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name   string
		frame  []byte
		want   error
		offset int
	}{
		{"zero clock is noise", dt.DGTFrame(0x8d, 0, 0, 0, 0, 0, 0, 0), dgt.ErrNoise, 0},
		{"unknown id", dt.DGTFrame(0xb5, 1, 2), dgt.ErrUnknownID, 0},
		{"empty", nil, dgt.ErrFraming, 0},
		{"header only of fixed message", []byte{0x8e, 0x00, 0x05}, dgt.ErrFraming, 3},
		{"wrong length for field update", []byte{0x8e, 0x00, 0x06, 1, 2, 3}, dgt.ErrFraming, 1},
		{"two frames", append(dt.DGTFieldUpdate(1, 1), dt.DGTFieldUpdate(2, 2)...), dgt.ErrFraming, 5},
		{"bit 7 in data", []byte{0x8e, 0x00, 0x05, 0x81, 0x01}, dgt.ErrFraming, 3},
		{"no header", []byte{0x0e, 0x00, 0x05, 0x01, 0x01}, dgt.ErrFraming, 5},
		{"field 64", dt.DGTFieldUpdate(64, 1), dgt.ErrCorrupt, 3},
		{"piece 16", dt.DGTFieldUpdate(3, 16), dgt.ErrCorrupt, 4},
		{"board piece 20", func() []byte { f := dt.DGTStartPosition(); f[9] = 20; return dt.DGTBoardDump(f) }(), dgt.ErrCorrupt, 12},
		{"minutes 60", []byte{0x8d, 0x00, 0x0a, 0x00, 0x60, 0x00, 0x00, 0x00, 0x00, 0x01}, dgt.ErrCorrupt, 4},
		{"seconds 5a", []byte{0x8d, 0x00, 0x0a, 0x00, 0x00, 0x5a, 0x00, 0x00, 0x00, 0x01}, dgt.ErrCorrupt, 5},
		{"left seconds 7f", []byte{0x8d, 0x00, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x7f, 0x01}, dgt.ErrCorrupt, 8},
		{"hours 12", []byte{0x8d, 0x00, 0x0a, 0x0c, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01}, dgt.ErrCorrupt, 3},
		{"serial with control byte", dt.DGTSerial("12\x0145"), dgt.ErrCorrupt, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := dgt.Decode(tt.frame)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Decode(%x) = %v, %v; want error %v", tt.frame, m, err, tt.want)
			}
			var fe *dgt.FrameError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v is not a *FrameError", err)
			}
			if fe.Offset != tt.offset {
				t.Errorf("offset = %d, want %d (%v)", fe.Offset, tt.offset, err)
			}
			if err.Error() == "" {
				t.Error("empty error text")
			}
		})
	}
}

func TestDecodeDoesNotAlias(t *testing.T) {
	f := dt.DGTFrame(0x8f, 1, 2, 3)
	m, err := dgt.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	f[3] = 9
	if got := m.(dgt.EEPROMMoves).Data[0]; got != 1 {
		t.Fatalf("message changed with the input frame: %d", got)
	}
}

func TestClockAckHelpers(t *testing.T) {
	tests := []struct {
		ack        [4]byte
		unprompted bool
		button     int
		acks       byte
	}{
		{[4]byte{0x10, 0x0a, 0, 0}, false, 0, dgt.ClockSetAndRun},
		{[4]byte{0x10, 0x0b, 0, 0}, false, 0, dgt.ClockBeep},
		{[4]byte{0x10, 0x88, 0, 0x31}, true, dgt.ButtonBack, 0},
		{[4]byte{0x10, 0x88, 0, 0x35}, true, dgt.ButtonForward, 0},
		{[4]byte{0x10, 0x88, 0, 0x36}, true, 0, 0},
		{[4]byte{0x10, 0x89, 0, 0x31}, true, 0, 0},
	}
	for _, tt := range tests {
		a := dgt.ClockAck{Ack: tt.ack}
		if a.Unprompted() != tt.unprompted {
			t.Errorf("%x: Unprompted = %v", tt.ack, a.Unprompted())
		}
		b, ok := a.Button()
		if b != tt.button || ok != (tt.button != 0) {
			t.Errorf("%x: Button = %d, %v; want %d", tt.ack, b, ok, tt.button)
		}
		for _, cmd := range []byte{dgt.ClockSetAndRun, dgt.ClockBeep, dgt.ClockASCII} {
			if got := a.Acks(cmd); got != (cmd == tt.acks) {
				t.Errorf("%x: Acks(%#x) = %v", tt.ack, cmd, got)
			}
		}
	}
}

func TestFieldNamesAndPieces(t *testing.T) {
	for f, want := range map[byte]string{0: "a8", 7: "h8", 8: "a7", 36: "e4", 56: "a1", 63: "h1", 64: ""} {
		if got := dgt.FieldName(f); got != want {
			t.Errorf("FieldName(%d) = %q, want %q", f, got, want)
		}
	}
	if got := (dgt.BoardDump{Fields: dt.DGTStartPosition()}).String(); got != "rnbqkbnr/pppppppp/......../......../......../......../PPPPPPPP/RNBQKBNR" {
		t.Errorf("start position drawn as %s", got)
	}
	if dgt.PieceChar(16) != "?" || dgt.PieceChar(0) != "." || dgt.PieceChar(13) != "1" {
		t.Error("PieceChar edge cases")
	}
}
