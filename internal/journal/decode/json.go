package decode

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
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

// lineFaceOf is one face of a lineclock STATUS line, in the form of a DGT
// clock face.
func lineFaceOf(t time.Duration, f lineclock.FaceFlags) faceJSON {
	return faceJSON{Seconds: t.Seconds(), Flag: f.Fallen, FlagShown: f.Shown, PerMove: f.PerMove}
}

// head starts every message's JSON object.
type head struct {
	T    rawT   `json:"t"`
	Port string `json:"port"`
	Type string `json:"type"`
}

// field is one member of a message's JSON object after the head: its name
// and the value encoding/json writes for it.
type field struct {
	name  string
	value any
}

// JSON renders m as one JSON object (no newline): t (seconds, six
// decimals), port, type and the decoded fields, in that order.
func JSON(m Message) ([]byte, error) {
	typ, fields := decodedFields(m.Msg)
	if typ == "" {
		return nil, fmt.Errorf("replay: no JSON form for %T", m.Msg)
	}
	b, err := json.Marshal(head{T: rawT(m.At), Port: m.Port, Type: typ})
	if err != nil {
		return nil, err
	}
	b = b[:len(b)-1] // the head's closing brace; the fields follow
	for _, f := range fields {
		name, _ := json.Marshal(f.name)
		value, err := json.Marshal(f.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(append(b, ','), name...), ':'), value...)
	}
	return append(b, '}'), nil
}

// decodedFields is a message's type and its fields in the order they are
// written; the type is "" for a message with no JSON form.
func decodedFields(msg any) (string, []field) {
	switch x := msg.(type) {
	case dgt.BoardDump:
		return "board", []field{{"position", x.String()}, {"fields", ints(x.Fields[:])}}
	case dgt.FieldUpdate:
		return "field", []field{{"field", int(x.Field)}, {"square", dgt.FieldName(x.Field)},
			{"piece", int(x.Piece)}, {"char", dgt.PieceChar(x.Piece)}}
	case dgt.ClockTime:
		return "clock", []field{{"left", faceOf(x.Left)}, {"right", faceOf(x.Right)},
			{"running", x.Running}, {"lever_right_high", x.LeverRightHigh}, {"battery_low", x.BatteryLow},
			{"turn_d3", x.TurnD3}, {"turn_d4", x.TurnD4}, {"no_clock", x.NoClock}}
	case dgt.ClockAck:
		return "clock-ack", clockAckFields(x)
	case dgt.Serial:
		return "serial", []field{{"serial", x.Number}}
	case dgt.LongSerial:
		return "long-serial", []field{{"serial", x.Number}}
	case dgt.Version:
		return "version", []field{{"version", fmt.Sprintf("%d.%d", x.Major, x.Minor)}}
	case dgt.Trademark:
		return "trademark", []field{{"text", x.Text}}
	case dgt.BusAddress:
		return "bus-address", []field{{"address", int(x.Address)}}
	case dgt.Battery:
		return "battery", []field{{"data", ints(x.Data)}}
	case dgt.EEPROMMoves:
		return "eeprom-moves", []field{{"length", len(x.Data)}}
	case lineclock.Hello:
		return "hello", []field{{"version", x.Version}, {"model", x.Model}, {"serial", x.Serial}}
	case lineclock.Status:
		return "status", []field{{"seq", x.Seq},
			{"left", lineFaceOf(x.Left, x.LeftFlags)}, {"right", lineFaceOf(x.Right, x.RightFlags)},
			{"turn", turnName(x.Turn)}, {"running", x.Running}, {"battery_low", x.BatteryLow}}
	case lineclock.Press:
		return "press", lineEventFields(x.Seq, x.Face, x.Left, x.Right)
	case lineclock.Flag:
		return "flag", lineEventFields(x.Seq, x.Face, x.Left, x.Right)
	}
	return "", nil
}

// clockAckFields is a clock's acknowledgement: its four bytes, whether the
// clock sent it unprompted and the button it reports (left out when none).
func clockAckFields(x dgt.ClockAck) []field {
	fields := []field{{"ack", ints(x.Ack[:])}, {"unprompted", x.Unprompted()}}
	if btn, _ := x.Button(); btn != 0 {
		fields = append(fields, field{"button", btn})
	}
	return fields
}

// turnName is the side a lineclock STATUS line says is to move: "left",
// "right", or "" before the start.
func turnName(t lineclock.Turn) string {
	switch t {
	case lineclock.TurnLeft:
		return "left"
	case lineclock.TurnRight:
		return "right"
	}
	return ""
}

// lineEventFields is a lineclock PRESS or FLAG: the face (the lever
// pressed, or the face whose time ran out) and both displayed times.
func lineEventFields(seq int, face clockd.Face, left, right time.Duration) []field {
	return []field{{"seq", seq}, {"face", face.String()}, {"left", left.Seconds()}, {"right", right.Seconds()}}
}

// ints widens bytes to numbers, so that encoding/json writes an array and
// not base64.
func ints(b []byte) []int {
	out := make([]int, len(b))
	for i, c := range b {
		out[i] = int(c)
	}
	return out
}
