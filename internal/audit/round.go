package audit

// maxBatch is how many games are held before they are judged: the games
// of each round among them are judged together. Broadcast files often
// interleave rounds (a match's game 1 and game 2 boards alternate), so
// the games are held across rounds, and reported in the order read.
const maxBatch = 1000

// batch collects games as they are read and audits them a round at a
// time when the batch is full or the input ends.
type batch struct {
	a     *Auditor
	sink  Sink
	st    *Stats
	games []*Game
}

// roundKey is what makes games one round: the event and the round (the
// Round tag's part before the dot).
func roundKey(g *Game) string {
	round, _ := roundBoard(g)
	return g.Tag("Event") + "\x00" + round
}

func (b *batch) add(g *Game) error {
	b.games = append(b.games, g)
	if len(b.games) >= maxBatch {
		return b.flush()
	}
	return nil
}

func (b *batch) flush() error {
	if len(b.games) == 0 {
		return nil
	}
	reps := b.a.rounds(b.games)
	b.games = b.games[:0]
	for _, rep := range reps {
		b.st.Games++
		for _, f := range rep.Findings {
			b.st.Findings[f.Kind]++
		}
		if err := b.sink.Report(rep); err != nil {
			return err
		}
	}
	return nil
}

// rounds audits games of any rounds: each round's games together, the
// reports in the games' order. A round already judged in an earlier batch
// offers the control it was judged by, with a head start.
func (a *Auditor) rounds(games []*Game) []*Report {
	byKey := map[string][]int{}
	var keys []string
	for i, g := range games {
		k := roundKey(g)
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	out := make([]*Report, len(games))
	for _, k := range keys {
		idx := byKey[k]
		gs := make([]*Game, len(idx))
		for i, x := range idx {
			gs[i] = games[x]
		}
		for i, r := range a.round(k, gs) {
			out[idx[i]] = r
		}
	}
	return out
}

// round audits the games of one round (key: roundKey).
func (a *Auditor) round(key string, games []*Game) []*Report {
	rgs := make([]*roundGame, len(games))
	for i, g := range games {
		s := split(g)
		sd := sidesData(s)
		swapped := false
		if sd[0].emt == emtPoor || sd[1].emt == emtPoor {
			// Readings that agree with their own %emt are no swap.
			if u, ok := unswap(s); ok {
				s, sd, swapped = u, sidesData(u), true
			}
		}
		rgs[i] = &roundGame{g: g, s: s, sd: sd, swapped: swapped, tag: parseTagCached(a.tcs, g.Tag("TimeControl"))}
	}
	var known []candidate
	if c, ok := a.known[key]; ok {
		known = append(known, c)
	}
	if c, ok := judgeRound(rgs, a.opt.TimeControl, known); ok && key != "" {
		if len(a.known) > 1024 {
			clear(a.known)
		}
		a.known[key] = candidate{tc: c, source: SourceClocks, bonus: tagHeadStart}
	}
	out := make([]*Report, len(rgs))
	for i, rg := range rgs {
		out[i] = a.report(rg)
	}
	return out
}
