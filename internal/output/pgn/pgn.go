package pgn

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/i18n/evtext"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// Tags are the game's header values taken from the capture's meta keys.
type Tags struct {
	Event, Site, Date, Round, White, Black string
	Board                                  string // board number; with Round it makes the broadcast round tag "r.b"
	TimeControl                            clockd.TimeControl
	StartFEN                               string
	// The players as a pairing program and lichess's broadcasts name them
	// (WhiteFideId, WhiteElo, WhiteTitle, WhiteFederation, WhiteTeam and
	// Black's); a tag is left out when its value is unknown.
	WhitePlayer, BlackPlayer Player
}

// Player is what the PGN says of a player besides the name. Values are
// written as given: a FIDE id and a rating as digits, a title as FIDE
// abbreviates it (GM, IM, WGM …), a federation as its three-letter code.
type Player struct {
	FideID, Elo, Title, Federation, Team string
}

// SetPlayers names the players anew (a pairing corrected during the game).
func (g *Game) SetPlayers(white, black string, wp, bp Player) {
	g.tags.White, g.tags.Black, g.tags.WhitePlayer, g.tags.BlackPlayer = white, black, wp, bp
}

// Move is one completed move of the record.
type Move struct {
	Ply   int
	Side  clockd.Side
	SAN   string
	Clock time.Duration // the mover's clock after the move, as displayed (%clk)
	EMT   time.Duration // time the mover spent on it (%emt); negative when unknown
	By    reconcile.By  // how it was completed (6.2.1): press, game-end, next-move
	Notes []string      // what happened after it that the record keeps (the arbiter's changes of the clock)
}

// Game is the PGN view of one game's event stream. Feed it every event in
// order with Add; Write renders the game as it stands (a live PGN for
// broadcasts, or the final record once the game ended).
type Game struct {
	tags    Tags
	moves   []Move       // completed moves, in the order of their plies
	made    []string     // made[i]: the SAN of ply i+1 as made on the board ("" when not seen)
	clock   clockd.Times // last displayed clocks
	known   [2]bool      // whether clock[side] is known from an event
	lastAt  [2]time.Duration
	added   [2]time.Duration // period time added to a side since its last completed move
	result  string
	term    string
	comment string   // final comment: the flag verdict or end reason in words
	early   []string // notes before the first completed move
	p       *i18n.Printer
}

// New returns an empty game with the given tags.
func New(t Tags) *Game {
	g := &Game{tags: t, result: "*", p: i18n.English}
	if len(t.TimeControl.Periods) > 0 {
		p := t.TimeControl.Periods[0]
		start := p.Time
		if p.Mode == clockd.Fischer {
			start += p.Increment // the increment is credited before the first move
		}
		g.clock = clockd.Times{White: start, Black: start}
		g.known = [2]bool{true, true}
	}
	for i := range g.lastAt {
		g.lastAt[i] = -1
	}
	return g
}

// In sets the language of the comments arbiterd writes into the record
// (the flag verdict, the arbiter's changes of the clock, claims), for the
// events added from then on; nil is English. It returns g.
func (g *Game) In(p *i18n.Printer) *Game {
	if p == nil {
		p = i18n.English
	}
	g.p = p
	return g
}

func idx(s clockd.Side) int {
	if s == clockd.Black {
		return 1
	}
	return 0
}

func (g *Game) clockOf(s clockd.Side) time.Duration {
	if s == clockd.Black {
		return g.clock.Black
	}
	return g.clock.White
}

// Add takes the next event of the stream.
func (g *Game) Add(e reconcile.Event) {
	switch e.Type {
	case reconcile.TypePress:
		g.lastAt[idx(e.Side.Other())] = e.At
	case reconcile.TypePeriod:
		g.added[idx(e.Side)] += e.Added
	case reconcile.TypeMove:
		g.made = madePly(g.made, e)
	case reconcile.TypeAnomaly:
		if e.Kind == reconcile.KindUnverified && e.FEN != "" && len(g.made) > e.Ply {
			// A ply the board showed before an absence and nobody
			// completed is among the plies that could not be verified
			// (after verified_ply): it is no move of the record.
			g.made = g.made[:e.Ply]
		}
	case reconcile.TypeComplete:
		g.complete(e)
	case reconcile.TypeRetract:
		g.retract(e)
	case reconcile.TypeFlag:
		g.flag(e)
	case reconcile.TypeEnd:
		g.result = e.Result
		g.term = termination(string(e.Reason))
		if g.comment == "" || e.Reason != "flag" {
			g.comment = fmt.Sprintf("%s (%s)", g.p.Word("event.end."+string(e.Reason), string(e.Reason)), e.Article)
		}
	case reconcile.TypeAdjust:
		// The arbiter changed a clock (6.10, 7.5.5): the record says so
		// where it happened, and the next move's time used counts from
		// the time set.
		g.clock = e.Clock
		g.known = [2]bool{true, true}
		g.note(g.p.Sprintf("pgn.adjust", possessive(e.Side), reconcile.FormatChange(e.Delta), Clock(e.To), e.Article))
	case reconcile.TypeClaim:
		g.note(g.p.Sprintf("pgn.claim", i18n.M("side."+e.Side.String()+".lower"), e.Article))
	case reconcile.TypeDecision:
		if code := "pgn.decision." + e.Decision; i18n.Known(code) {
			g.note(g.p.Sprintf(code, possessive(e.Side), e.Article))
		} else {
			g.note(g.p.Sprintf("pgn.decision", e.Decision, possessive(e.Side), e.Article))
		}
	case reconcile.TypePosition:
		if e.FEN != "" && g.tags.StartFEN == "" && len(g.moves) == 0 && !isStandard(e.FEN) {
			g.tags.StartFEN = e.FEN
		}
	}
}

// madePly keeps the SAN of a ply made on the board in made, in its place:
// made[i] is ply i+1, "" for plies arbiterd could not verify.
func madePly(made []string, e reconcile.Event) []string {
	if e.Ply < 1 {
		return made
	}
	if len(made) >= e.Ply {
		made = made[:e.Ply-1]
	}
	for len(made) < e.Ply-1 {
		made = append(made, "") // plies arbiterd could not verify
	}
	return append(made, e.SAN)
}

// retract takes a ply back. A retraction that reaches completed moves is
// a take-back (7.1): the record loses those moves.
func (g *Game) retract(e reconcile.Event) {
	n := 0
	for _, m := range g.moves {
		if m.Ply < e.Ply {
			g.moves[n] = m
			n++
		}
	}
	g.moves = g.moves[:n]
	if e.Ply >= 1 && len(g.made) >= e.Ply {
		g.made = g.made[:e.Ply-1]
	}
}

// flag takes a flag's verdict: a loss or a draw ends the game on time.
func (g *Game) flag(e reconcile.Event) {
	if e.Verdict != reconcile.VerdictNone {
		// The game ends: the clocks as the flag fell are the last.
		// After a flag that ends nothing, the clock before the next
		// move is still the one its last press left (the time to the
		// flag is part of that move's time, %emt).
		g.clock = e.Clock
		g.known = [2]bool{true, true}
	}
	switch e.Verdict {
	case reconcile.VerdictLoss:
		g.result = winner(e.Side.Other())
		g.term = "time forfeit"
	case reconcile.VerdictDraw:
		g.result = "1/2-1/2"
		g.term = "time forfeit"
	}
	if e.Verdict != reconcile.VerdictNone {
		g.comment = evtext.Sentence(g.p, e)
	}
}

func (g *Game) complete(e reconcile.Event) {
	i := idx(e.Side)
	after := e.Clock.White
	if e.Side == clockd.Black {
		after = e.Clock.Black
	}
	m := Move{Ply: e.Ply, Side: e.Side, SAN: e.SAN, Clock: after, EMT: -1, By: e.By}
	if e.By == reconcile.ByPress && g.known[i] {
		// Time used = clock before − (clock after − what was credited):
		// exact for Fischer and for controls without increment, to the
		// display's resolution. Delay modes do not reveal the time used
		// from the display alone; there the elapsed time between the
		// opponent's press and this one is the best evidence.
		p, ok := g.period(e)
		switch {
		case ok && (p.Mode == clockd.Fischer || p.Increment == 0):
			m.EMT = g.clockOf(e.Side) - (after - p.Increment - g.added[i])
		case g.lastAt[i] >= 0:
			m.EMT = e.At - g.lastAt[i]
		}
		if m.EMT < 0 {
			m.EMT = 0
		}
	}
	g.added[i] = 0
	g.clock = e.Clock
	g.known = [2]bool{true, true}
	// Presses may complete plies out of the board's order (a forgotten
	// press: the opponent's reply is completed by its press before the
	// move it answers is completed by its side's next move, 6.2.1); the
	// record keeps the order in which the plies were played.
	k := len(g.moves)
	for k > 0 && g.moves[k-1].Ply >= m.Ply {
		k--
	}
	if k < len(g.moves) && g.moves[k].Ply == m.Ply {
		g.moves[k] = m
		return
	}
	g.moves = append(g.moves, Move{})
	copy(g.moves[k+1:], g.moves[k:])
	g.moves[k] = m
}

// period returns the period in force for the move just completed.
func (g *Game) period(e reconcile.Event) (clockd.Period, bool) {
	tc := g.tags.TimeControl
	if len(tc.Periods) == 0 {
		return clockd.Period{}, false
	}
	done := e.Moves.White
	if e.Side == clockd.Black {
		done = e.Moves.Black
	}
	p := tc.PeriodOf(done-1) - 1 // the period the move was played in
	if p < 0 {
		p = 0
	}
	if p >= len(tc.Periods) {
		p = len(tc.Periods) - 1
	}
	return tc.Periods[p], true
}

// Moves returns the completed moves of the record, in the order of their
// plies.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// Result returns the result tag value ("*" while the game goes on).
func (g *Game) Result() string { return g.result }

func winner(s clockd.Side) string {
	if s == clockd.Black {
		return "0-1"
	}
	return "1-0"
}

func termination(reason string) string {
	switch reason {
	case "flag":
		return "time forfeit"
	case "illegal-move":
		return "rules infraction"
	}
	return "normal"
}

const standardFEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

func isStandard(fen string) bool {
	f := strings.Fields(fen)
	return len(f) >= 2 && f[0] == strings.Fields(standardFEN)[0] && f[1] == "w"
}

// Clock formats a clock value as PGN clock comments want it: H:MM:SS,
// truncated to the second as clocks display it.
func Clock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

// Write renders the game as PGN: the seven-tag roster, then arbiterd's
// tags in a fixed order, then the movetext with [%clk] and [%emt] per move.
func (g *Game) Write(w io.Writer) error {
	var b strings.Builder
	g.writeTags(&b)
	b.WriteByte('\n')
	wrap(&b, g.movetext())
	b.WriteString("\n\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTags writes the seven-tag roster and arbiterd's tags, one a line.
func (g *Game) writeTags(b *strings.Builder) {
	round := g.tags.Round
	if round == "" {
		round = "?"
	}
	if g.tags.Board != "" && g.tags.Round != "" {
		round = g.tags.Round + "." + g.tags.Board
	}
	tag := func(k, v string) {
		fmt.Fprintf(b, "[%s \"%s\"]\n", k, escape(v))
	}
	tag("Event", orQ(g.tags.Event))
	tag("Site", orQ(g.tags.Site))
	tag("Date", orDate(g.tags.Date))
	tag("Round", round)
	tag("White", orQ(g.tags.White))
	tag("Black", orQ(g.tags.Black))
	tag("Result", g.result)
	if g.tags.Board != "" {
		tag("Board", g.tags.Board)
	}
	w, bl := g.tags.WhitePlayer, g.tags.BlackPlayer
	for _, t := range []struct{ name, white, black string }{
		{"FideId", w.FideID, bl.FideID}, {"Elo", w.Elo, bl.Elo}, {"Title", w.Title, bl.Title},
		{"Federation", w.Federation, bl.Federation}, {"Team", w.Team, bl.Team},
	} {
		if t.white != "" {
			tag("White"+t.name, t.white)
		}
		if t.black != "" {
			tag("Black"+t.name, t.black)
		}
	}
	if len(g.tags.TimeControl.Periods) > 0 {
		tag("TimeControl", g.tags.TimeControl.String())
	}
	if g.known[0] {
		tag("WhiteClock", Clock(g.clock.White))
	}
	if g.known[1] {
		tag("BlackClock", Clock(g.clock.Black))
	}
	if g.term != "" {
		tag("Termination", g.term)
	}
	if g.tags.StartFEN != "" {
		tag("SetUp", "1")
		tag("FEN", g.tags.StartFEN)
	}
}

// movetext is the game's movetext as tokens: moves with their numbers,
// clock comments, notes and the result.
func (g *Game) movetext() []string {
	t := moveTokens{startMove: 1, numbered: true, p: g.p}
	if g.tags.StartFEN != "" {
		f := strings.Fields(g.tags.StartFEN)
		if len(f) >= 6 {
			fmt.Sscan(f[5], &t.startMove)
		}
		t.blackFirst = len(f) >= 2 && f[1] == "b"
	}
	for _, n := range g.early {
		t.comment(n)
	}
	prev := 0 // the last ply written
	for _, m := range g.moves {
		ply := m.Ply
		for p := prev + 1; p < ply; p++ {
			if p <= len(g.made) && g.made[p-1] != "" {
				// A ply made on the board and answered, whose own side
				// has not completed it yet (a forgotten press: it is
				// completed by that side's next move, 6.2.1). The plies
				// after it follow from it, so it stands in the record,
				// without a clock.
				t.move(p, sideOfPly(p, t.blackFirst), g.made[p-1])
				continue
			}
			p = t.unverified(p, ply, g.made)
		}
		prev = ply
		t.move(ply, m.Side, m.SAN)
		c := fmt.Sprintf("{[%%clk %s]", Clock(m.Clock))
		if m.EMT >= 0 {
			c += fmt.Sprintf(" [%%emt %s]", Clock(m.EMT))
		}
		t.tokens = append(t.tokens, c+"}")
		for _, n := range m.Notes {
			t.comment(n)
		}
		t.numbered = true
	}
	if g.comment != "" {
		t.comment(g.comment)
	}
	return append(t.tokens, g.result)
}

// moveTokens builds the tokens of a movetext.
type moveTokens struct {
	tokens     []string
	startMove  int           // the number of the record's first move
	blackFirst bool          // the record starts with Black's move
	numbered   bool          // the next Black move needs its "N..." (at the start, after a comment)
	p          *i18n.Printer // the language of its comments
}

// move adds a ply's SAN, after its move number where one is due; the
// number is the ply's, since the record may start with Black.
func (t *moveTokens) move(ply int, side clockd.Side, san string) {
	plyIdx := ply - 1
	if t.blackFirst {
		plyIdx++
	}
	num := t.startMove + plyIdx/2
	switch {
	case side == clockd.White:
		t.tokens = append(t.tokens, fmt.Sprintf("%d.", num))
	case t.numbered:
		t.tokens = append(t.tokens, fmt.Sprintf("%d...", num))
	}
	t.tokens = append(t.tokens, san)
	t.numbered = false
}

// comment adds a comment; a '}' in its text becomes ')'.
func (t *moveTokens) comment(text string) {
	t.tokens = append(t.tokens, "{"+strings.ReplaceAll(text, "}", ")")+"}")
}

// unverified adds a comment for the plies from p on, before ply next, that
// were made while the board was not read: arbiterd could not verify them
// (its unverified-moves anomaly), so the movetext says where they belong
// instead of inventing them. It returns the last of them.
func (t *moveTokens) unverified(p, next int, made []string) int {
	q := p
	for q+1 < next && (q+1 > len(made) || made[q] == "") {
		q++
	}
	what := t.p.Sprintf("pgn.unverified.ply", p)
	if q > p {
		what = t.p.Sprintf("pgn.unverified.plies", p, q)
	}
	t.tokens = append(t.tokens, "{"+what+"}")
	t.numbered = true
	return q
}

// wrap writes tokens separated by spaces, in lines of at most 79
// characters (a longer token stands on a line of its own).
func wrap(b *strings.Builder, tokens []string) {
	line := 0
	for i, t := range tokens {
		if i > 0 {
			if line+1+len(t) > 79 {
				b.WriteByte('\n')
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(t)
		line += len(t)
	}
}

// sideOfPly is the side that made ply (1-based) of a record whose first
// ply is White's, or Black's when blackFirst.
func sideOfPly(ply int, blackFirst bool) clockd.Side {
	if (ply%2 == 0) != blackFirst {
		return clockd.Black
	}
	return clockd.White
}

// note keeps a comment after the latest completed move.
func (g *Game) note(text string) {
	if n := len(g.moves); n > 0 {
		g.moves[n-1].Notes = append(g.moves[n-1].Notes, text)
	} else {
		g.early = append(g.early, text)
	}
}

// possessive is a side's possessive, a word of the event stream's
// ("White's", "de las blancas").
func possessive(s clockd.Side) i18n.Message {
	if s == clockd.Black {
		return i18n.M(reconcile.TextBlackPossessive)
	}
	return i18n.M(reconcile.TextWhitePossessive)
}

func orQ(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func orDate(s string) string {
	if s == "" {
		return "????.??.??"
	}
	return s
}

func escape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return strings.ReplaceAll(s, `"`, `\"`)
}
