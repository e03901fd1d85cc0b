package audit

// maxRound is how many games of one round are judged together; a longer
// run of one round's games is judged in batches of this many.
const maxRound = 1000

// batch collects the games of one round as they are read (a broadcast
// file holds a round's games together) and audits them together when the
// round changes, the batch is full or the input ends.
type batch struct {
	a     *Auditor
	sink  Sink
	st    *Stats
	key   string
	games []*Game
}

// roundKey is what makes games one round: the event and the round (the
// Round tag's part before the dot).
func roundKey(g *Game) string {
	round, _ := roundBoard(g)
	return g.Tag("Event") + "\x00" + round
}

func (b *batch) add(g *Game) error {
	k := roundKey(g)
	if len(b.games) > 0 && (k != b.key || len(b.games) >= maxRound) {
		if err := b.flush(); err != nil {
			return err
		}
	}
	b.key = k
	b.games = append(b.games, g)
	return nil
}

func (b *batch) flush() error {
	if len(b.games) == 0 {
		return nil
	}
	reps := b.a.Round(b.games)
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
