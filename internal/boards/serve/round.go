package serve

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiterd/arbiterd/internal/config"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/internal/output/pgn"
	"github.com/arbiterd/arbiterd/internal/output/web"
	"github.com/arbiterd/arbiterd/internal/pairings"
)

// A round's pairs come from the configuration's pairings file: each board
// plays the pair of its number. The next round is loaded while the daemon
// runs (NextRound): every board is stopped, its capture closed, and
// opened again in the new round's folder with the new pair, its port read
// again; the HTTP server and the feeds go on. One board's pair can be
// corrected during its game (SetPairing): meta lines in its capture, which
// the PGN's tags follow.

// roundSwitch asks the boards' loop (runBoards) to go over to a round.
type roundSwitch struct {
	cfg  *config.Config
	done chan error
}

// players is what a board's capture, PGN and hub say of its players.
type players struct {
	white, black   string
	wp, bp         pgn.Player
	whiteH, blackH hub.Player
}

// playersOf are the players of board bc: its pair in the round's
// pairings, or the names the configuration gives.
func playersOf(c *config.Config, bc config.Board) players {
	p, ok := c.Pair(bc.Number)
	if !ok {
		return players{white: bc.White, black: bc.Black}
	}
	return pairPlayers(p.White, p.Black)
}

func pairPlayers(w, b pairings.Player) players {
	conv := func(p pairings.Player) pgn.Player {
		out := pgn.Player{FideID: p.FideID, Title: p.Title, Federation: p.Federation, Team: p.Team}
		if p.Rating > 0 {
			out.Elo = strconv.Itoa(p.Rating)
		}
		return out
	}
	out := players{white: w.Name, black: b.Name, wp: conv(w), bp: conv(b)}
	out.whiteH, out.blackH = hub.Player(out.wp), hub.Player(out.bp)
	return out
}

// meta is what the capture's meta says of the players.
func (p players) meta() map[string]string {
	return map[string]string{
		capture.MetaWhite: p.white, capture.MetaBlack: p.black,
		capture.MetaWhiteFideID: p.wp.FideID, capture.MetaWhiteElo: p.wp.Elo, capture.MetaWhiteTitle: p.wp.Title,
		capture.MetaWhiteFederation: p.wp.Federation, capture.MetaWhiteTeam: p.wp.Team,
		capture.MetaBlackFideID: p.bp.FideID, capture.MetaBlackElo: p.bp.Elo, capture.MetaBlackTitle: p.bp.Title,
		capture.MetaBlackFederation: p.bp.Federation, capture.MetaBlackTeam: p.bp.Team,
	}
}

// refused is NextRound's refusal for the daemon's state, not the
// request's fault: web answers 409 (it is web.ErrBoardIdle), the text is
// the error's own.
type refused struct{ error }

func (refused) Is(target error) bool { return target == web.ErrBoardIdle }

func refuse(format string, a ...any) error { return refused{fmt.Errorf(format, a...)} }

// ended tells whether a board's game has ended (a result, or a flag
// verdict that is one).
func ended(b hub.Board) bool {
	return b.Result != "" || (b.Flag != nil && gameOver(*b.Flag))
}

// NextRound loads the pairings file's next round onto the boards (web.Rounds):
// every board's game must have ended, or be confirmed (confirm names the
// board; the game stays as it was, open). The boards go over to the new
// round's folder, each with its new pair, without a restart. It returns
// the new round.
func (d *Daemon) NextRound(confirm func(board string) bool, arbiter string) (string, error) {
	d.roundMu.Lock()
	defer d.roundMu.Unlock()
	d.mu.Lock()
	c, boards := d.cfg, d.boards
	d.mu.Unlock()
	if d.o.FixedRound != "" {
		return "", refuse("%s", d.o.FixedRound)
	}
	if c.Pairings == "" {
		return "", refuse("no pairings file in the configuration (pairings: FILE): a new round is then a restart with its round")
	}
	cur, err := strconv.Atoi(c.Round)
	if err != nil {
		return "", refuse("round %q is not a number", c.Round)
	}
	var open, confirmed []string
	for _, b := range boards {
		if hb, err := d.hub.Board(b.id); err == nil && !ended(hb) {
			if confirm(b.id) {
				confirmed = append(confirmed, b.id)
			} else {
				open = append(open, b.id)
			}
		}
	}
	if len(open) > 0 {
		which := "the game of board " + open[0] + " has"
		if len(open) > 1 {
			which = "the games of boards " + strings.Join(open, ", ") + " have"
		}
		return "", refuse("round %d: %s not ended; confirm to stop them as they stand and load round %d anyway (confirm: %s)",
			cur, which, cur+1, strings.Join(open, ","))
	}
	r, err := pairings.ReadFile(c.Pairings, cur+1)
	if err != nil {
		return "", refuse("round %d: %v", cur+1, err)
	}
	next := c.WithRound(r)
	if err := next.Validate(); err != nil {
		return "", refuse("round %d: %v", cur+1, err)
	}
	req := roundSwitch{cfg: next, done: make(chan error, 1)}
	select {
	case d.switches <- req:
	case <-d.stopped:
		return "", refuse("the daemon is stopping")
	}
	if err := <-req.done; err != nil {
		return "", err
	}
	d.log.Info(fmt.Sprintf("round %s loaded from %s", next.Round, c.Pairings), "arbiter", arbiter, "stopped_unfinished", strings.Join(confirmed, ","), "journal", d.Dir())
	d.warnUnseated(next)
	return next.Round, nil
}

// warnUnseated says which pairs of the round have no board in the
// configuration: their games are not followed.
func (d *Daemon) warnUnseated(c *config.Config) {
	r := c.Pairs()
	if r == nil {
		return
	}
	var none []string
	for _, p := range r.Boards {
		if !slices.ContainsFunc(c.Boards, func(b config.Board) bool { return b.Number == p.Number }) {
			none = append(none, strconv.Itoa(p.Number))
		}
	}
	if len(none) > 0 {
		d.log.Warn("pairs of the round without a board in the configuration: their games are not followed", "round", c.Round, "boards", strings.Join(none, ", "))
	}
	for _, b := range c.Boards {
		if _, ok := r.Board(b.Number); !ok {
			d.log.Warn("a board without a pair in the round: it is read, its players unnamed", "round", c.Round, "board", b.Number)
		}
	}
}

// switchRound goes over to the round of c: run by runBoards with every
// board stopped. The old round's boards are closed (their captures are
// closed by then); the new round's are opened in its folder. If a board
// of the new round cannot be opened, the old round's boards are opened
// again (their games recovered from their captures) and the error is
// returned.
func (d *Daemon) switchRound(c *config.Config) error {
	d.mu.Lock()
	old, oldCfg, oldDir := d.boards, d.cfg, d.dir
	d.mu.Unlock()
	for _, b := range old {
		b.close()
	}
	open := func(c *config.Config) ([]*board, error) {
		dir := filepath.Join(c.Data, "round-"+c.Round)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("daemon: round %s: %w", c.Round, err)
		}
		d.mu.Lock()
		d.cfg, d.dir = c, dir
		d.mu.Unlock()
		var bs []*board
		for _, bc := range c.Boards {
			d.hub.Reset(bc.ID())
			b, err := d.openBoard(bc)
			if err != nil {
				for _, ob := range bs {
					ob.close()
				}
				return nil, err
			}
			bs = append(bs, b)
			d.hub.Touch(bc.ID())
		}
		return bs, nil
	}
	bs, err := open(c)
	if err != nil {
		d.log.Error("the new round could not be opened: the boards go on with the round they had", "round", c.Round, "err", err)
		back, berr := open(oldCfg)
		if berr != nil {
			return fmt.Errorf("%v; and round %s could not be opened again in %s: %v", err, oldCfg.Round, oldDir, berr)
		}
		bs = back
	}
	d.mu.Lock()
	d.boards = bs
	d.mu.Unlock()
	return err
}

// SetPairing corrects the pair of one board during its game (web.Rounds):
// the players are named anew in its capture (meta lines, which the PGN's
// tags follow; the events do not change), its PGN and on the dashboard.
// A player named as in the round's pairings takes the pairings' details
// (FIDE id, rating, title, federation); the other boards are not touched.
func (d *Daemon) SetPairing(id, white, black, arbiter string) error {
	b, err := d.boardByID(id)
	if err != nil {
		return fmt.Errorf("%w %q", hub.ErrNoBoard, id)
	}
	white, black = strings.TrimSpace(white), strings.TrimSpace(black)
	if white == "" || black == "" || strings.ContainsAny(white+black, "\r\n") {
		return fmt.Errorf("a pair is two names, each on one line: white %q, black %q", white, black)
	}
	d.mu.Lock()
	c := d.cfg
	d.mu.Unlock()
	find := func(name string) pairings.Player {
		if r := c.Pairs(); r != nil {
			for _, p := range r.Boards {
				for _, pl := range []pairings.Player{p.White, p.Black} {
					if pairings.SameName(pl.Name, name) {
						return pl
					}
				}
			}
		}
		return pairings.Player{Name: name}
	}
	wp, bp := find(white), find(black)
	wp.Name, bp.Name = white, black
	ps := pairPlayers(wp, bp)
	if err := b.setPlayers(ps); err != nil {
		return err
	}
	in := hubInfo(c, b.cfg)
	in.White, in.Black, in.WhitePlayer, in.BlackPlayer = ps.white, ps.black, ps.whiteH, ps.blackH
	d.hub.AddBoard(in)
	d.hub.Touch(id)
	d.log.Info("pairing corrected", "board", id, "white", white, "black", black, "arbiter", arbiter)
	return nil
}

// setPlayers records a board's corrected players: meta lines in its
// capture (open, or reopened when the game is over) and its PGN.
func (b *board) setPlayers(ps players) error {
	b.ackMu.Lock()
	defer b.ackMu.Unlock()
	b.cwMu.Lock()
	cw := b.cw
	if cw == nil {
		var err error
		if cw, err = b.d.o.OpenCapture(capturePath(b.dir, b.id), true); err != nil {
			b.cwMu.Unlock()
			return fmt.Errorf("the capture: %w", err)
		}
		defer cw.Close()
	}
	m := ps.meta()
	var err error
	for _, k := range capture.PlayerKeys {
		if err = cw.Meta(k, m[k]); err != nil {
			break
		}
	}
	if err == nil {
		err = cw.Sync()
	}
	b.cwMu.Unlock()
	if err != nil {
		b.journalFailed(fmt.Errorf("recording a corrected pairing: %w", err))
		return fmt.Errorf("the capture: %w", err)
	}
	b.gameMu.Lock()
	b.game.SetPlayers(ps.white, ps.black, ps.wp, ps.bp)
	b.gameMu.Unlock()
	if err := b.writePGN(); err != nil {
		b.log.Error("making the PGN", "err", err)
	}
	return nil
}
