package broadcastsim

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// write renders the round as PGN, in one of the shapes broadcasts use:
// clocks with one or two hour digits, [%clk] and [%emt] in one comment or
// two, comments with or without inner spaces.
func (r *Round) write(rng *rand.Rand) {
	hh := rng.IntN(2) == 0
	combined := rng.IntN(3) == 0
	pad := rng.IntN(3) == 0
	date := fmt.Sprintf("2026.%02d.%02d", 1+rng.IntN(12), 1+rng.IntN(28))
	var all strings.Builder
	for _, g := range r.Games {
		var b strings.Builder
		fmt.Fprintf(&b, "[Event %q]\n[Site \"Simulated\"]\n[Date %q]\n[Round \"%d.%d\"]\n", r.Event, date, r.Number, g.Board)
		fmt.Fprintf(&b, "[White %q]\n[Black %q]\n[Result %q]\n", g.White, g.Black, g.Result)
		if r.Tag != "" {
			fmt.Fprintf(&b, "[TimeControl %q]\n", r.Tag)
		}
		b.WriteString("\n")
		col := 0
		put := func(s string) {
			if col > 0 && col+1+len(s) > 79 {
				b.WriteString("\n")
				col = 0
			} else if col > 0 {
				b.WriteString(" ")
				col++
			}
			b.WriteString(s)
			col += len(s)
		}
		comment := func(body string) string {
			if pad {
				return "{ " + body + " }"
			}
			return "{" + body + "}"
		}
		afterComment := false
		for i, p := range g.Plies {
			switch {
			case p.Side == 0:
				put(fmt.Sprintf("%d.", (i/2)+1))
			case afterComment || i == 0:
				put(fmt.Sprintf("%d...", (i/2)+1))
			}
			put(p.SAN)
			afterComment = false
			var parts []string
			if p.Clk >= 0 {
				parts = append(parts, "[%clk "+clockText(p.Clk, hh)+"]")
			}
			if p.EMT >= 0 {
				parts = append(parts, "[%emt "+clockText(p.EMT, hh)+"]")
			}
			if len(parts) == 0 {
				continue
			}
			afterComment = true
			if combined {
				put(comment(strings.Join(parts, " ")))
			} else {
				for _, s := range parts {
					put(comment(s))
				}
			}
		}
		put(g.Result)
		b.WriteString("\n\n")
		g.PGN = b.String()
		all.WriteString(g.PGN)
	}
	r.PGN = all.String()
}
