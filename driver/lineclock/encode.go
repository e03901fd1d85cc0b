package lineclock

import (
	"fmt"
	"strconv"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

// AppendLine appends m as one protocol line, checksum and LF included —
// what a lineclock device sends. Values the protocol cannot carry (a
// negative or too large time, a sequence number out of range, a name with
// other characters) are an error.
func AppendLine(dst []byte, m Message) ([]byte, error) {
	start := len(dst)
	var err error
	switch m := m.(type) {
	case Hello:
		if m.Version < 0 || m.Version > 99 {
			return dst, fmt.Errorf("lineclock: encode: protocol version %d out of range", m.Version)
		}
		if !isWord(m.Model) || !isWord(m.Serial) {
			return dst, fmt.Errorf("lineclock: encode: model %q or serial %q is empty or holds other characters than letters, digits, '-', '_', '.'", m.Model, m.Serial)
		}
		dst = append(dst, "HELLO lineclock "...)
		dst = strconv.AppendInt(dst, int64(m.Version), 10)
		dst = append(append(append(append(dst, ' '), m.Model...), ' '), m.Serial...)
	case Status:
		dst = append(dst, "STATUS"...)
		if dst, err = appendSeq(dst, m.Seq); err != nil {
			return dst[:start], err
		}
		if dst, err = appendTimes(dst, m.Left, m.Right); err != nil {
			return dst[:start], err
		}
		switch m.Turn {
		case TurnLeft:
			dst = append(dst, " L"...)
		case TurnRight:
			dst = append(dst, " R"...)
		case TurnNone:
			if m.Running {
				return dst[:start], fmt.Errorf("lineclock: encode: a running clock needs a turn")
			}
			dst = append(dst, " -"...)
		default:
			return dst[:start], fmt.Errorf("lineclock: encode: turn %d out of range", m.Turn)
		}
		if m.Running {
			dst = append(dst, " R"...)
		} else {
			dst = append(dst, " S"...)
		}
		dst = appendFlags(dst, m.LeftFlags)
		dst = appendFlags(dst, m.RightFlags)
		if m.BatteryLow {
			dst = append(dst, " B"...)
		} else {
			dst = append(dst, " -"...)
		}
	case Press:
		dst = append(dst, "PRESS"...)
		if dst, err = appendEvent(dst, m.Seq, m.Face, m.Left, m.Right); err != nil {
			return dst[:start], err
		}
	case Flag:
		dst = append(dst, "FLAG"...)
		if dst, err = appendEvent(dst, m.Seq, m.Face, m.Left, m.Right); err != nil {
			return dst[:start], err
		}
	default:
		return dst, fmt.Errorf("lineclock: encode: unknown message %T", m)
	}
	sum := checksum(dst[start:])
	const hexdigits = "0123456789ABCDEF"
	return append(dst, '*', hexdigits[sum>>4], hexdigits[sum&15], '\n'), nil
}

// Encode returns m as one protocol line (see AppendLine).
func Encode(m Message) ([]byte, error) { return AppendLine(nil, m) }

func isWord(s string) bool {
	if s == "" || len(s) > maxWord {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

func appendSeq(dst []byte, seq int) ([]byte, error) {
	if seq < 0 || seq > MaxSeq {
		return dst, fmt.Errorf("lineclock: encode: sequence number %d out of range 0..%d", seq, MaxSeq)
	}
	return strconv.AppendInt(append(dst, ' '), int64(seq), 10), nil
}

func appendTimes(dst []byte, l, r time.Duration) ([]byte, error) {
	for _, d := range [2]time.Duration{l, r} {
		if d < 0 || d > MaxTime {
			return dst, fmt.Errorf("lineclock: encode: time %v out of range 0..%v", d, MaxTime)
		}
		dst = strconv.AppendInt(append(dst, ' '), int64(d/time.Millisecond), 10)
	}
	return dst, nil
}

func appendFlags(dst []byte, f FaceFlags) []byte {
	dst = append(dst, ' ')
	n := len(dst)
	if f.Fallen {
		dst = append(dst, 'F')
	}
	if f.Shown {
		dst = append(dst, 'S')
	}
	if f.PerMove {
		dst = append(dst, 'I')
	}
	if len(dst) == n {
		dst = append(dst, '-')
	}
	return dst
}

func appendEvent(dst []byte, seq int, f clockd.Face, l, r time.Duration) ([]byte, error) {
	dst, err := appendSeq(dst, seq)
	if err != nil {
		return dst, err
	}
	switch f {
	case clockd.Left:
		dst = append(dst, " L"...)
	case clockd.Right:
		dst = append(dst, " R"...)
	default:
		return dst, fmt.Errorf("lineclock: encode: face %d out of range", f)
	}
	return appendTimes(dst, l, r)
}
