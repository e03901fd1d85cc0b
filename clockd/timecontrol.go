package clockd

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Period is one stage of a time control.
type Period struct {
	Moves     int           // moves this period requires (0 = the rest of the game; only the last period)
	Time      time.Duration // time added when the period starts
	Mode      Mode          // how Increment is credited
	Increment time.Duration // Fischer increment or delay; 0 = none
}

// TimeControl is a sequence of periods; the last one lasts to the end of
// the game. The zero value has no periods and is not a valid control.
type TimeControl struct{ Periods []Period }

// String returns the canonical notation of docs/timecontrol.md,
// e.g. "40/5400+30:1800+30". Times are printed in whole seconds; a
// fraction of a second is printed with a decimal point (never produced by
// ParseTimeControl).
func (tc TimeControl) String() string {
	var b strings.Builder
	for i, p := range tc.Periods {
		if i > 0 {
			b.WriteByte(':')
		}
		if p.Moves > 0 {
			b.WriteString(strconv.Itoa(p.Moves))
			b.WriteByte('/')
		}
		b.WriteString(seconds(p.Time))
		if p.Increment > 0 {
			switch p.Mode {
			case Delay:
				b.WriteByte('d')
			case Bronstein:
				b.WriteByte('b')
			default:
				b.WriteByte('+')
			}
			b.WriteString(seconds(p.Increment))
		}
	}
	return b.String()
}

func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// Class classifies the control by FIDE Appendices A and B: the first
// period's time plus 60 times its increment (or delay). Ten minutes or less
// is blitz; more than ten and less than sixty is rapid; sixty or more is
// standard.
func (tc TimeControl) Class() Class {
	if len(tc.Periods) == 0 {
		return Standard
	}
	p := tc.Periods[0]
	total := p.Time + 60*p.Increment
	switch {
	case total <= 10*time.Minute:
		return Blitz
	case total < 60*time.Minute:
		return Rapid
	}
	return Standard
}

// PeriodOf returns the 1-based period a side is in after completing
// `completed` moves: a period is left once its cumulative move count is
// reached. Negative counts are treated as zero.
func (tc TimeControl) PeriodOf(completed int) int {
	cum := 0
	for i, p := range tc.Periods {
		if p.Moves <= 0 || i == len(tc.Periods)-1 {
			return i + 1
		}
		cum += p.Moves
		if completed < cum {
			return i + 1
		}
	}
	if len(tc.Periods) == 0 {
		return 1
	}
	return len(tc.Periods)
}

// Required returns the cumulative number of moves a side must have
// completed by the end of the 1-based period, or 0 when the period has no
// move count (the last period) or does not exist.
func (tc TimeControl) Required(period int) int {
	if period < 1 || period > len(tc.Periods) {
		return 0
	}
	if tc.Periods[period-1].Moves <= 0 || period == len(tc.Periods) {
		return 0
	}
	cum := 0
	for _, p := range tc.Periods[:period] {
		cum += p.Moves
	}
	return cum
}

// period returns the 1-based period p, clamped to the control's range.
func (tc TimeControl) period(p int) Period {
	if len(tc.Periods) == 0 {
		return Period{}
	}
	if p < 1 {
		p = 1
	}
	if p > len(tc.Periods) {
		p = len(tc.Periods)
	}
	return tc.Periods[p-1]
}

// maxIncrement is the largest per-move increment or delay of any period.
func (tc TimeControl) maxIncrement() time.Duration {
	var m time.Duration
	for _, p := range tc.Periods {
		m = max(m, p.Increment)
	}
	return m
}

// totalTime is the sum of all periods' times.
func (tc TimeControl) totalTime() time.Duration {
	var t time.Duration
	for _, p := range tc.Periods {
		t += p.Time
	}
	return t
}

// Validate checks a control built by hand against the rules
// ParseTimeControl enforces: at least one period; every period but the
// last has a positive move count and the last has none; every period has
// a positive time; increments are not negative; modes are known.
func (tc TimeControl) Validate() error {
	if len(tc.Periods) == 0 {
		return fmt.Errorf("clockd: time control has no periods")
	}
	for i, p := range tc.Periods {
		last := i == len(tc.Periods)-1
		switch {
		case last && p.Moves != 0:
			return fmt.Errorf("clockd: time control %s: the last period (%d) lasts to the end of the game and takes no move count", tc, i+1)
		case !last && p.Moves <= 0:
			return fmt.Errorf("clockd: time control %s: period %d needs a positive move count", tc, i+1)
		case p.Time <= 0:
			return fmt.Errorf("clockd: time control %s: period %d needs a positive time", tc, i+1)
		case p.Increment < 0:
			return fmt.Errorf("clockd: time control %s: period %d has a negative increment", tc, i+1)
		case p.Mode < Fischer || p.Mode > Bronstein:
			return fmt.Errorf("clockd: time control %s: period %d has an unknown mode %v", tc, i+1, p.Mode)
		}
	}
	return nil
}

// Judgement is what the Laws make of a flag, given the period whose time
// ran out and the moves the side had completed (6.3.1, 6.4).
type Judgement struct {
	// Period is the period judged: the first whose control the side had
	// not reached, up to the one whose time ran out. Time a clock added
	// before the side completed the moves does not move the control
	// (6.3.1), so a flag in a later period of the clock can still be a
	// flag before the first control.
	Period int
	// Required is the cumulative number of moves Period requires; 0 when
	// Period is the last (all remaining moves).
	Required int
	// Last: Period is the last period; a flag in it ends the game (6.4).
	Last bool
	// Reached: the side completed Required moves, so the flag fell after
	// the control and play goes on (6.3.1).
	Reached bool
	// Early: the period whose time ran out is later than Period: the
	// clock had added time the side's moves had not earned.
	Early bool
}

// Judge judges a flag that fell in period (1-based: the period whose time
// ran out) after the side completed `completed` moves. A period beyond
// the control's last is judged as the last. It is an error to judge a
// control with no periods or a period below 1.
func (tc TimeControl) Judge(period, completed int) (Judgement, error) {
	if len(tc.Periods) == 0 {
		return Judgement{}, fmt.Errorf("clockd: no time control to judge a flag by")
	}
	if period < 1 {
		return Judgement{}, fmt.Errorf("clockd: flag in period %d: periods are numbered from 1", period)
	}
	period = min(period, len(tc.Periods))
	j := Judgement{Period: period}
	cum := 0
	for p := 1; p <= period; p++ {
		if p == len(tc.Periods) || tc.Periods[p-1].Moves <= 0 {
			j.Period, j.Last = p, true
			break
		}
		cum += tc.Periods[p-1].Moves
		if completed < cum || p == period {
			j.Period, j.Required, j.Reached = p, cum, completed >= cum
			break
		}
	}
	j.Early = j.Period < period
	return j, nil
}
