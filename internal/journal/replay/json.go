package replay

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/lineclock"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// rawT is a number written with exactly six decimals.
type rawT time.Duration

func (t rawT) MarshalJSON() ([]byte, error) {
	return []byte(capture.FormatSeconds(time.Duration(t))), nil
}

type faceJSON struct {
	Seconds   float64 `json:"seconds"`
	Flag      bool    `json:"flag"`
	FlagShown bool    `json:"flag_shown"`
	PerMove   bool    `json:"per_move"`
}

func faceOf(f dgt.FaceTime) faceJSON {
	return faceJSON{Seconds: f.Time.Seconds(), Flag: f.Flag, FlagShown: f.FlagShown, PerMove: f.PerMove}
}

// JSON renders m as one JSON object (no newline): t (seconds, six
// decimals), port, type and the decoded fields.
func JSON(m Message) ([]byte, error) {
	h := head{T: rawT(m.At), Port: m.Port}
	var v any
	switch x := m.Msg.(type) {
	case dgt.BoardDump:
		h.Type = "board"
		v = struct {
			head
			Position string  `json:"position"`
			Fields   [64]int `json:"fields"`
		}{h, x.String(), ints(x.Fields)}
	case dgt.FieldUpdate:
		h.Type = "field"
		v = struct {
			head
			Field  int    `json:"field"`
			Square string `json:"square"`
			Piece  int    `json:"piece"`
			Char   string `json:"char"`
		}{h, int(x.Field), dgt.FieldName(x.Field), int(x.Piece), dgt.PieceChar(x.Piece)}
	case dgt.ClockTime:
		h.Type = "clock"
		v = struct {
			head
			Left           faceJSON `json:"left"`
			Right          faceJSON `json:"right"`
			Running        bool     `json:"running"`
			LeverRightHigh bool     `json:"lever_right_high"`
			BatteryLow     bool     `json:"battery_low"`
			TurnD3         bool     `json:"turn_d3"`
			TurnD4         bool     `json:"turn_d4"`
			NoClock        bool     `json:"no_clock"`
		}{h, faceOf(x.Left), faceOf(x.Right), x.Running, x.LeverRightHigh, x.BatteryLow, x.TurnD3, x.TurnD4, x.NoClock}
	case dgt.ClockAck:
		h.Type = "clock-ack"
		btn, _ := x.Button()
		v = struct {
			head
			Ack        [4]int `json:"ack"`
			Unprompted bool   `json:"unprompted"`
			Button     int    `json:"button,omitempty"`
		}{h, [4]int{int(x.Ack[0]), int(x.Ack[1]), int(x.Ack[2]), int(x.Ack[3])}, x.Unprompted(), btn}
	case dgt.Serial:
		h.Type = "serial"
		v = struct {
			head
			Serial string `json:"serial"`
		}{h, x.Number}
	case dgt.LongSerial:
		h.Type = "long-serial"
		v = struct {
			head
			Serial string `json:"serial"`
		}{h, x.Number}
	case dgt.Version:
		h.Type = "version"
		v = struct {
			head
			Version string `json:"version"`
		}{h, fmt.Sprintf("%d.%d", x.Major, x.Minor)}
	case dgt.Trademark:
		h.Type = "trademark"
		v = struct {
			head
			Text string `json:"text"`
		}{h, x.Text}
	case dgt.BusAddress:
		h.Type = "bus-address"
		v = struct {
			head
			Address int `json:"address"`
		}{h, int(x.Address)}
	case dgt.Battery:
		h.Type = "battery"
		v = struct {
			head
			Data []int `json:"data"`
		}{h, bytesInts(x.Data)}
	case dgt.EEPROMMoves:
		h.Type = "eeprom-moves"
		v = struct {
			head
			Length int `json:"length"`
		}{h, len(x.Data)}
	case lineclock.Hello:
		h.Type = "hello"
		v = struct {
			head
			Version int    `json:"version"`
			Model   string `json:"model"`
			Serial  string `json:"serial"`
		}{h, x.Version, x.Model, x.Serial}
	case lineclock.Status:
		h.Type = "status"
		turn := ""
		switch x.Turn {
		case lineclock.TurnLeft:
			turn = "left"
		case lineclock.TurnRight:
			turn = "right"
		}
		v = struct {
			head
			Seq        int      `json:"seq"`
			Left       faceJSON `json:"left"`
			Right      faceJSON `json:"right"`
			Turn       string   `json:"turn"` // "left", "right", "" before the start
			Running    bool     `json:"running"`
			BatteryLow bool     `json:"battery_low"`
		}{h, x.Seq, lineFaceOf(x.Left, x.LeftFlags), lineFaceOf(x.Right, x.RightFlags), turn, x.Running, x.BatteryLow}
	case lineclock.Press:
		h.Type = "press"
		v = lineEvent{h, x.Seq, x.Face.String(), x.Left.Seconds(), x.Right.Seconds()}
	case lineclock.Flag:
		h.Type = "flag"
		v = lineEvent{h, x.Seq, x.Face.String(), x.Left.Seconds(), x.Right.Seconds()}
	default:
		return nil, fmt.Errorf("replay: no JSON form for %T", m.Msg)
	}
	return json.Marshal(v)
}

// head starts every message's JSON object.
type head struct {
	T    rawT   `json:"t"`
	Port string `json:"port"`
	Type string `json:"type"`
}

// lineFaceOf is one face of a lineclock STATUS line, in the form of a DGT
// clock face.
func lineFaceOf(t time.Duration, f lineclock.FaceFlags) faceJSON {
	return faceJSON{Seconds: t.Seconds(), Flag: f.Fallen, FlagShown: f.Shown, PerMove: f.PerMove}
}

// lineEvent is a lineclock PRESS or FLAG: the face (the lever pressed, or
// the face whose time ran out) and both displayed times.
type lineEvent struct {
	head
	Seq   int     `json:"seq"`
	Face  string  `json:"face"`
	Left  float64 `json:"left"`
	Right float64 `json:"right"`
}

func ints(f [64]byte) [64]int {
	var out [64]int
	for i, b := range f {
		out[i] = int(b)
	}
	return out
}

func bytesInts(b []byte) []int {
	out := make([]int, len(b))
	for i, c := range b {
		out[i] = int(c)
	}
	return out
}
