package broadcastsim

import (
	"math"
	"math/rand/v2"
	"strings"

	"github.com/arbiterd/arbiterd/clockd"
)

// Noise is what a broadcast does to the readings, per event. The
// probabilities are per published ply unless said otherwise.
type Noise struct {
	Round        bool    // round to the second (else truncate)
	Missing      float64 // a single [%clk] missing
	MissingRun   float64 // a run of 2 to 8 plies without [%clk] starts
	Glitch       float64 // a reading off by 3 s to 40 min
	OtherBoard   float64 // a reading from another board's clock
	Stale        float64 // the player's previous reading again
	Late         float64 // a reading a few seconds off
	PreIncrement float64 // read before the increment was credited
	Garbled      float64 // a run of 2 to 5 garbled readings starts
	NextGameLast float64 // per game: the last move read from the next game's fresh clock
	CutOff       float64 // per game: cut off, result *
	EMT          string  // "all", "some", "none"
	EMTSome      float64 // with "some": the chance a ply has one
	EMTBoard     bool    // [%emt] timed from the board (press delays show)
	EMTGlitch    float64 // an [%emt] off by anything
	FirstEMTLive float64 // per game: the first [%emt] is the time since the board went live
}

// Profiles are the noise profiles' names.
var Profiles = []string{"clean", "light", "noisy", "very-noisy"}

func pickProfile(rng *rand.Rand) string {
	switch x := rng.Float64(); {
	case x < 0.2:
		return "clean"
	case x < 0.55:
		return "light"
	case x < 0.85:
		return "noisy"
	}
	return "very-noisy"
}

// profile returns a profile's noise, jittered by rng (clean is exact).
func profile(name string, rng *rand.Rand) (Noise, bool) {
	j := func(p float64) float64 { return p * uniform(rng, 0.5, 1.5) }
	emt := func() (string, float64) {
		switch x := rng.Float64(); {
		case x < 0.55:
			return "all", 1
		case x < 0.8:
			return "some", uniform(rng, 0.3, 0.95)
		}
		return "none", 0
	}
	var n Noise
	switch name {
	case "clean":
		n.EMT, n.EMTSome = "all", 1
		return n, true
	case "light":
		n = Noise{Round: rng.IntN(3) == 0, Missing: j(0.005), Stale: j(0.002), Glitch: j(0.001),
			NextGameLast: j(0.1), CutOff: j(0.03), FirstEMTLive: 0.6}
	case "noisy":
		n = Noise{Round: rng.IntN(3) == 0, Missing: j(0.02), MissingRun: j(0.003), Glitch: j(0.004),
			OtherBoard: j(0.002), Stale: j(0.008), Late: j(0.008), PreIncrement: j(0.008), Garbled: j(0.001),
			NextGameLast: j(0.25), CutOff: j(0.06), EMTBoard: true, EMTGlitch: j(0.003), FirstEMTLive: 0.8}
	case "very-noisy":
		n = Noise{Round: rng.IntN(2) == 0, Missing: j(0.06), MissingRun: j(0.01), Glitch: j(0.012),
			OtherBoard: j(0.006), Stale: j(0.025), Late: j(0.025), PreIncrement: j(0.02), Garbled: j(0.004),
			NextGameLast: j(0.4), CutOff: j(0.1), EMTBoard: true, EMTGlitch: j(0.01), FirstEMTLive: 0.9}
	default:
		return n, false
	}
	n.EMT, n.EMTSome = emt()
	return n, true
}

// pickTag chooses the round's TimeControl tag.
func pickTag(rng *rand.Rand, tc clockd.TimeControl) (kind, tag string) {
	switch x := rng.Float64(); {
	case x < 0.35:
		return "notation", tc.String()
	case x < 0.5:
		if t := freeText(tc.String(), rng); t != "" {
			return "text", t
		}
		return "notation", tc.String()
	case x < 0.75:
		return "absent", ""
	}
	// wrong: the classical tag on a tiebreak, another event's control
	var wrong []string
	switch tc.String() {
	case "40/5400+30:1800+30":
		wrong = []string{"40/7200:1800+30", "900+10", "40/6000+30:20/3000+30:900+30"}
	case "40/6000+30:20/3000+30:900+30", "40/7200:1800+30", "40/7200:20/3600:900+30":
		wrong = []string{"40/5400+30:1800+30", "900+10"}
	default:
		wrong = []string{"40/5400+30:1800+30", "40/5400+30:1800+30", "5400+30", "1500+10"}
		if tc.String() == "1500+10" {
			wrong[3] = "900+10"
		}
	}
	w := wrong[rng.IntN(len(wrong))]
	if t := freeText(w, rng); t != "" && rng.IntN(2) == 0 {
		return "wrong", t
	}
	return "wrong", w
}

// freeText writes a control as regulations and broadcasts do.
func freeText(tc string, rng *rand.Rand) string {
	var opts []string
	switch tc {
	case "40/5400+30:1800+30":
		opts = []string{
			"90 minutes for the first 40 moves, followed by 30 minutes for the rest of the game with an increment of 30 seconds per move starting from move 1",
			"90 min/40 moves + 30 min + 30 sec/move from move 1",
		}
	case "40/6000+30:20/3000+30:900+30":
		opts = []string{"100 minutes for the first 40 moves, followed by 50 minutes for the next 20 moves, then 15 minutes for the rest of the game with an increment of 30 seconds per move starting from move 1"}
	case "40/7200:1800+30":
		opts = []string{"120 minutes for the first 40 moves, followed by 30 minutes for the rest of the game with an increment of 30 seconds per move starting from move 41"}
	case "40/7200:20/3600:900+30":
		opts = []string{"120 minutes for the first 40 moves, followed by 60 minutes for the next 20 moves, then 15 minutes for the rest of the game with an increment of 30 seconds per move starting from move 61"}
	case "900+10":
		opts = []string{"15 min + 10 sec", "15 minutes with an increment of 10 seconds per move"}
	case "600+5":
		opts = []string{"10 min + 5 sec"}
	case "1500+10":
		opts = []string{"25 min + 10 sec"}
	case "300+3":
		opts = []string{"5 min + 3 sec"}
	case "180+2":
		opts = []string{"3 min + 2 sec"}
	case "5400+30":
		opts = []string{"90 minutes for the game with an increment of 30 seconds per move starting from move 1"}
	}
	if len(opts) == 0 {
		return ""
	}
	return opts[rng.IntN(len(opts))]
}

// publish turns each game's true clocks into what the broadcast shows.
func (r *Round) publish(rng *rand.Rand) {
	nz := r.Noise
	p1 := r.Control.Periods[0]
	fresh := secs(p1.Time + p1.Increment)
	disp := func(x float64) float64 {
		if x < 0 {
			x = 0
		}
		if nz.Round {
			return math.Round(x)
		}
		return math.Floor(x + 1e-9)
	}
	for gi, g := range r.Games {
		if len(g.Plies) > 6 && rng.Float64() < nz.CutOff {
			g.CutOff = true
			n := len(g.Plies)/3 + rng.IntN(len(g.Plies)-len(g.Plies)/3-1)
			g.Plies = g.Plies[:n]
			g.Result = "*"
			kept := g.Incidents[:0]
			for _, in := range g.Incidents {
				if in.Ply < n {
					kept = append(kept, in)
				}
			}
			g.Incidents = kept
			ka := g.Additions[:0]
			for _, a := range g.Additions {
				if a.Ply < n {
					ka = append(ka, a)
				}
			}
			g.Additions = ka
		}
		n := len(g.Plies)
		runMissing, runGarbled := 0, 0
		prev := [2]float64{-1, -1}
		for i := range g.Plies {
			p := &g.Plies[i]
			v := disp(p.Clock)
			inc := secs(r.Control.Periods[p.Period-1].Increment)
			switch {
			case runMissing > 0:
				runMissing--
				v = -1
			case rng.Float64() < nz.MissingRun:
				runMissing = 1 + rng.IntN(7)
				v = -1
			case rng.Float64() < nz.Missing:
				v = -1
			case runGarbled > 0:
				runGarbled--
				v = math.Floor(rng.Float64() * fresh)
			case rng.Float64() < nz.Garbled:
				runGarbled = 1 + rng.IntN(4)
				v = math.Floor(rng.Float64() * fresh)
			case rng.Float64() < nz.Glitch:
				d := uniform(rng, 3, 60)
				if rng.IntN(2) == 0 {
					d = uniform(rng, 60, 2400)
				}
				if rng.IntN(2) == 0 {
					d = -d
				}
				v = disp(p.Clock + d)
			case rng.Float64() < nz.OtherBoard && len(r.Games) > 1:
				o := r.Games[(gi+1+rng.IntN(len(r.Games)-1))%len(r.Games)]
				if len(o.Plies) > 0 {
					v = disp(o.Plies[min(i, len(o.Plies)-1)].Clock)
				}
			case rng.Float64() < nz.Stale && prev[p.Side] >= 0:
				v = prev[p.Side]
			case rng.Float64() < nz.Late:
				d := uniform(rng, 1, 5)
				if rng.IntN(3) == 0 {
					d = -d
				}
				v = disp(p.Clock - d)
			case inc > 0 && rng.Float64() < nz.PreIncrement:
				v = disp(p.Clock - inc)
			}
			if i == n-1 && rng.Float64() < nz.NextGameLast {
				v = math.Floor(fresh - uniform(rng, 0, 4))
			}
			p.Clk = v
			p.ClkOK = v >= 0 && math.Abs(v-p.Clock) < 1
			if v >= 0 {
				prev[p.Side] = v
			}
		}
		// [%emt]
		live := rng.Float64() < nz.FirstEMTLive
		shown := map[int]bool{}
		for _, in := range g.Incidents {
			if in.Kind == TimeAdded {
				shown[in.Ply] = true
			}
		}
		delay := 0.0
		for i := range g.Plies {
			p := &g.Plies[i]
			d := 0.0
			if nz.EMTBoard {
				d = uniform(rng, 0, 1.2)
				if rng.IntN(20) == 0 {
					d = uniform(rng, 2, 8)
				}
			}
			present := nz.EMT == "all" || (nz.EMT == "some" && (rng.Float64() < nz.EMTSome || shown[i]))
			if !present {
				p.EMT, delay = -1, d
				continue
			}
			e := p.Think - d + delay
			delay = d
			switch {
			case i == 0 && live:
				e = uniform(rng, 120, 4000)
			case rng.Float64() < nz.EMTGlitch:
				e = uniform(rng, 0, 1800)
			}
			p.EMT = math.Floor(max(0, e) + 1e-9)
			p.EMTOK = math.Abs(p.EMT-p.Think) < 1
		}
	}
}

// clockText writes seconds as H:MM:SS (hh: two-digit hours).
func clockText(v float64, hh bool) string {
	s := int64(v)
	h, m, sec := s/3600, s/60%60, s%60
	var b strings.Builder
	if hh && h < 10 {
		b.WriteByte('0')
	}
	b.WriteString(itoa(h))
	b.WriteByte(':')
	b.WriteString(two(m))
	b.WriteByte(':')
	b.WriteString(two(sec))
	return b.String()
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

func two(n int64) string {
	if n < 10 {
		return "0" + itoa(n)
	}
	return itoa(n)
}
