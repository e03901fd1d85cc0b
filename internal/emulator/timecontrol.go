package emulator

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseTimeControl reads the simple forms of the time-control notation
// (shared/spec/timecontrol.md): periods separated by ':', each
// [MOVES/]SECONDS[MODE] with MODE '+N' (Fischer), 'dN' (simple delay) or
// 'bN' (Bronstein), N in seconds; only the last period has no MOVES.
// Examples: "40/5400+30:1800+30", "300d5", "300b5", "40/7200:3600".
// Errors name the offending character's position (1-based).
func ParseTimeControl(text string) ([]Period, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("emulator: time control is empty")
	}
	var out []Period
	pos := 0
	for i, part := range strings.Split(text, ":") {
		p, err := parsePeriod(part, pos)
		if err != nil {
			return nil, fmt.Errorf("emulator: time control %q: %w", text, err)
		}
		out = append(out, p)
		pos += len(part) + 1
		_ = i
	}
	for i, p := range out {
		last := i == len(out)-1
		if last && p.Moves != 0 {
			return nil, fmt.Errorf("emulator: time control %q: the last period must not have a move count (it lasts to the end of the game)", text)
		}
		if !last && p.Moves == 0 {
			return nil, fmt.Errorf("emulator: time control %q: period %d needs MOVES/ (only the last period lasts to the end)", text, i+1)
		}
	}
	if err := checkPeriods(out); err != nil {
		return nil, err
	}
	return out, nil
}

func parsePeriod(s string, off int) (Period, error) {
	var p Period
	i := 0
	num := func(what string) (int, error) {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			if i < len(s) {
				return 0, fmt.Errorf("character %d %q: expected %s (digits)", off+i+1, s[i], what)
			}
			return 0, fmt.Errorf("character %d: expected %s (digits) but the period ends", off+i+1, what)
		}
		n, err := strconv.Atoi(s[i:j])
		if err != nil || n > 1_000_000 {
			return 0, fmt.Errorf("character %d: %s %q is too large", off+i+1, what, s[i:j])
		}
		i = j
		return n, nil
	}
	n, err := num("moves or seconds")
	if err != nil {
		return p, err
	}
	if i < len(s) && s[i] == '/' {
		if n == 0 {
			return p, fmt.Errorf("character %d: a period of 0 moves", off+1)
		}
		p.Moves = n
		i++
		if n, err = num("seconds"); err != nil {
			return p, err
		}
	}
	if n == 0 {
		return p, fmt.Errorf("character %d: a period of 0 seconds", off+1)
	}
	p.Time = time.Duration(n) * time.Second
	if i == len(s) {
		return p, nil
	}
	switch s[i] {
	case '+':
		p.Mode = Fischer
	case 'd':
		p.Mode = Delay
	case 'b':
		p.Mode = Bronstein
	default:
		return p, fmt.Errorf("character %d %q: expected '+', 'd', 'b' or ':'", off+i+1, s[i])
	}
	i++
	if n, err = num("increment seconds"); err != nil {
		return p, err
	}
	p.Increment = time.Duration(n) * time.Second
	if i != len(s) {
		return p, fmt.Errorf("character %d %q: unexpected after the increment", off+i+1, s[i])
	}
	return p, nil
}
