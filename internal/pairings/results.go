package pairings

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// BoardResult is one board's result as the daemon's data folder has it.
type BoardResult struct {
	Board  int    // the board number (the capture's board)
	White  string // the players the capture names ("" when it names none)
	Black  string
	Result string // "1-0", "0-1", "1/2-1/2"; "" while open
	Reason string // how the game ended (the end event's reason: checkmate, flag, claim …)
	// Open says why a game has no result yet: it has not ended, or it
	// ended on a verdict the arbiter has not confirmed. "" when it has a
	// result.
	Open string
}

// Verdicts are game ends arbiterd decided on the Laws that the arbiter
// confirms before the result counts: a flag's loss or 6.9 draw, and the
// draw when both flags fell (III.3.1). Every other end is a fact of the
// board (mate, stalemate, a dead position, repetition, the 75-move rule),
// the players' signal, or the arbiter's own decision on a claim.
var verdicts = []string{"flag", "both-flags"}

// NeedsConfirmation reports whether an end reason is a verdict the arbiter
// confirms.
func NeedsConfirmation(reason string) bool { return slices.Contains(verdicts, reason) }

// ReadResults reads the results of the round whose folder is dir
// (DATA/round-R): each board's capture names the board and its players,
// and its event stream (board-B.events.jsonl) the game's end. The first
// end of a board's stream is its game's result; a verdict counts only when
// confirmed(board) says the arbiter confirmed it.
func ReadResults(dir string, confirmed func(board int) bool) ([]BoardResult, error) {
	caps, err := filepath.Glob(filepath.Join(dir, "board-*.capture"))
	if err != nil {
		return nil, fmt.Errorf("pairings: %w", err)
	}
	if len(caps) == 0 {
		if _, err := os.Stat(dir); err != nil {
			return nil, fmt.Errorf("pairings: %w", err)
		}
		return nil, fmt.Errorf("pairings: %s has no board captures (board-B.capture): not a round folder of arbiterd's data", dir)
	}
	var out []BoardResult
	for _, c := range caps {
		id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(c), "board-"), ".capture")
		r, err := readBoard(dir, id, c)
		if err != nil {
			return nil, err
		}
		if r.Open == "" && NeedsConfirmation(r.Reason) && (confirmed == nil || !confirmed(r.Board)) {
			r.Open = fmt.Sprintf("the %s verdict %s is not confirmed by the arbiter", r.Reason, r.Result)
			r.Result = ""
		}
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b BoardResult) int { return a.Board - b.Board })
	return out, nil
}

func readBoard(dir, id, path string) (BoardResult, error) {
	r := BoardResult{}
	meta, err := captureMeta(path)
	if err != nil {
		return r, err
	}
	board := meta[capture.MetaBoard]
	if board == "" {
		board = id
	}
	if r.Board, err = strconv.Atoi(board); err != nil || r.Board < 1 {
		return r, fmt.Errorf("pairings: %s: board %q is not a board number", path, board)
	}
	r.White, r.Black = meta[capture.MetaWhite], meta[capture.MetaBlack]
	events := filepath.Join(dir, "board-"+id+".events.jsonl")
	f, err := os.Open(events)
	if errors.Is(err, fs.ErrNotExist) {
		r.Open = "no events yet"
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("pairings: %w", err)
	}
	defer f.Close()
	end, err := firstEnd(f, events)
	if err != nil {
		return r, err
	}
	if end == nil {
		r.Open = "the game has not ended"
		return r, nil
	}
	r.Result, r.Reason = end.Result, end.Reason
	switch r.Result {
	case "1-0", "0-1", "1/2-1/2":
	default:
		return r, fmt.Errorf("pairings: %s: end event with result %q", events, r.Result)
	}
	return r, nil
}

// captureMeta reads a capture's meta values up to its first data line or
// marker: the settings the game was played under.
func captureMeta(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("pairings: %w", err)
	}
	defer f.Close()
	meta := map[string]string{}
	cr := capture.NewReader(bufio.NewReader(f))
	for {
		rec, err := cr.Next()
		if err == io.EOF {
			return meta, nil
		}
		if err != nil {
			return nil, fmt.Errorf("pairings: %s: %w", path, err)
		}
		switch rec.Kind {
		case capture.KindMeta:
			meta[rec.Key] = rec.Value
		case capture.KindPort, capture.KindComment:
		default:
			return meta, nil
		}
	}
}

type endEvent struct {
	Type   string `json:"type"`
	Result string `json:"result"`
	Reason string `json:"reason"`
}

// firstEnd returns the stream's first end event (nil when there is none).
// A partial last line, which a crash can leave, is not an error.
func firstEnd(r io.Reader, name string) (*endEvent, error) {
	br := bufio.NewReader(r)
	for no := 1; ; no++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 && (err == nil || json.Valid(line)) {
			var e endEvent
			if jerr := json.Unmarshal(line, &e); jerr != nil {
				return nil, fmt.Errorf("pairings: %s:%d: %w", name, no, jerr)
			}
			if e.Type == "end" {
				return &e, nil
			}
		}
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("pairings: %s: %w", name, err)
		}
	}
}

// Matched is a board's result with the TRF pair it belongs to.
type Matched struct {
	BoardResult
	Pair Board // the TRF's pair (starting ranks in its players)
}

// Match finds each board's pair in round: by the players' names when the
// capture names them (a board whose names are not a pair of the round is
// an error), by the board number otherwise.
func Match(round *Round, results []BoardResult) ([]Matched, error) {
	var out []Matched
	used := map[int]int{}
	for _, r := range results {
		var (
			pair Board
			ok   bool
		)
		if r.White != "" && r.Black != "" {
			for _, b := range round.Boards {
				if SameName(b.White.Name, r.White) && SameName(b.Black.Name, r.Black) {
					pair, ok = b, true
					break
				}
				if SameName(b.White.Name, r.Black) && SameName(b.Black.Name, r.White) {
					return nil, fmt.Errorf("board %d: %s – %s play with the other colours in round %d of the pairings (board %d: %s – %s)",
						r.Board, r.White, r.Black, round.Number, b.Number, b.White.Name, b.Black.Name)
				}
			}
			if !ok {
				return nil, fmt.Errorf("board %d: %s – %s is no pair of round %d of the pairings", r.Board, r.White, r.Black, round.Number)
			}
		} else if pair, ok = round.Board(r.Board); !ok {
			return nil, fmt.Errorf("board %d: round %d of the pairings has no board %d", r.Board, round.Number, r.Board)
		}
		if b, dup := used[pair.Number]; dup {
			return nil, fmt.Errorf("boards %d and %d are both the pair on board %d (%s – %s)", b, r.Board, pair.Number, pair.White.Name, pair.Black.Name)
		}
		used[pair.Number] = r.Board
		out = append(out, Matched{BoardResult: r, Pair: pair})
	}
	return out, nil
}
