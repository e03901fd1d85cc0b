package replay

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/capture"
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
	type head struct {
		T    rawT   `json:"t"`
		Port string `json:"port"`
		Type string `json:"type"`
	}
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
			RightTurn      bool     `json:"right_turn"`
			LeftTurn       bool     `json:"left_turn"`
			NoClock        bool     `json:"no_clock"`
		}{h, faceOf(x.Left), faceOf(x.Right), x.Running, x.LeverRightHigh, x.BatteryLow, x.RightTurn, x.LeftTurn, x.NoClock}
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
	default:
		return nil, fmt.Errorf("replay: no JSON form for %T", m.Msg)
	}
	return json.Marshal(v)
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
