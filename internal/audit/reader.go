package audit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arbiterd/arbiterd/internal/i18n"
)

// Unknown marks a clock value a ply does not carry.
const Unknown time.Duration = -1

// Limits that keep the reader's memory bounded whatever the input.
const (
	maxLine    = 1 << 20 // bytes in one line
	maxPlies   = 20000   // plies in one game (the 75-move rule ends any game far sooner)
	maxTags    = 1000    // tags in one game
	maxComment = 4096    // bytes of a comment kept to look for [%clk] and [%emt]
)

// Ply is one half-move of a game's main line, with the clock comments that
// follow it.
type Ply struct {
	SAN  string
	Clk  time.Duration // [%clk]: the mover's clock after the move; Unknown when absent
	EMT  time.Duration // [%emt]: the time the move took; Unknown when absent
	Line int           // the line the move is on
}

// Tag is one PGN tag pair.
type Tag struct{ Name, Value string }

// Game is one game as read from a PGN file: its tags and its main line.
// Variations, NAGs and comments other than clock comments are skipped.
type Game struct {
	File   string
	Line   int // the line the game starts on
	Tags   []Tag
	Plies  []Ply
	Result string // the game termination marker ("1-0", "0-1", "1/2-1/2", "*"); "" when missing
}

// Tag returns the value of the named tag, or "".
func (g *Game) Tag(name string) string {
	for _, t := range g.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// ParseError is a problem in the input, with the file and line it is on.
type ParseError struct {
	File string
	Line int
	Msg  string // in English

	msg i18n.Message // Msg as a message of the catalogs
}

func (e *ParseError) Error() string { return e.In(i18n.English) }

// In is the error in p's language.
func (e *ParseError) In(p *i18n.Printer) string {
	msg := e.Msg
	if !e.msg.IsZero() {
		msg = p.Text(e.msg)
	}
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
	}
	return fmt.Sprintf("%s: %s", e.File, msg)
}

// Reader reads games one at a time from a PGN stream; memory stays bounded
// by one game, whatever the size of the stream.
//
// Next returns each game in turn and io.EOF at the end. A *ParseError names
// a problem in the input with its line: the reader then skips to the next
// game's tags and carries on, so the caller simply calls Next again. A game
// that ends without its termination marker (a truncated file) is returned
// together with a *ParseError saying so. Any other error (a read or
// decompression failure) ends the stream.
type Reader struct {
	name    string
	br      *bufio.Reader
	line    int
	long    []byte // a line longer than the bufio buffer
	pending []byte // a tag line read ahead, the start of the next game
	pendAt  int
	hasPend bool
	skip    bool  // after an error: skip to the next tag line
	fatal   error // sticky read error
}

// NewReader returns a Reader of r; name is used in errors.
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{name: name, br: bufio.NewReaderSize(r, 64<<10)}
}

var errLineTooLong = errors.New("line too long")

// readLine returns the next line without its end of line, valid until the
// next call. A line longer than maxLine is skipped and reported.
func (r *Reader) readLine() ([]byte, error) {
	if r.fatal != nil {
		return nil, r.fatal
	}
	r.line++
	b, err := r.br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		r.long = append(r.long[:0], b...)
		for err == bufio.ErrBufferFull {
			b, err = r.br.ReadSlice('\n')
			if len(r.long) <= maxLine {
				r.long = append(r.long, b...)
			}
		}
		if len(r.long) > maxLine {
			r.long = r.long[:0]
			if err != nil && err != io.EOF {
				r.fatal = err
			}
			return nil, errLineTooLong
		}
		b = r.long
	}
	if err != nil {
		if err != io.EOF {
			r.fatal = err
			return nil, err
		}
		if len(b) == 0 {
			r.line--
			r.fatal = io.EOF
			return nil, io.EOF
		}
	}
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	return b, nil
}

func (r *Reader) errAt(line int, code string, args ...any) *ParseError {
	msg := i18n.M(code, args...)
	return &ParseError{File: r.name, Line: line, Msg: msg.String(), msg: msg}
}

// isTagLine reports whether the line is a PGN tag pair: '[' then a name.
func isTagLine(b []byte) bool {
	b = bytes.TrimLeft(b, " \t")
	if len(b) < 2 || b[0] != '[' {
		return false
	}
	c := b[1]
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'
}

// game is the parse state of the game being read.
type game struct {
	g         *Game
	movetext  bool // movetext has started
	inComment bool
	comment   []byte
	depth     int // variation depth
	done      bool
	number    int // the move number last written
}

// Next returns the next game.
func (r *Reader) Next() (*Game, error) {
	var st *game
	for {
		line, at, err := r.nextLine()
		if err == errLineTooLong {
			r.skip = true
			return nil, r.errAt(at, "audit.err.long-line", maxLine)
		}
		if err != nil {
			if err == io.EOF && st != nil && !r.skip {
				return r.finish(st, at)
			}
			return nil, err
		}
		if bytes.IndexByte(line, 0) >= 0 {
			wasSkipping := r.skip
			r.skip = true
			if wasSkipping {
				continue
			}
			return nil, r.errAt(at, "audit.err.nul")
		}
		if r.skip {
			if !isTagLine(line) {
				continue
			}
			r.skip = false
		}
		if st != nil && !st.inComment && isTagLine(line) && (st.movetext || st.done) {
			// The next game's tags: this one is over.
			r.pending, r.pendAt, r.hasPend = append(r.pending[:0], line...), at, true
			return r.finish(st, at-1)
		}
		if st == nil {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			st = &game{g: &Game{File: r.name, Line: at, Result: ""}}
		}
		if !st.movetext && !st.inComment && isTagLine(line) {
			if err := r.tags(st, line, at); err != nil {
				r.skip = true
				return nil, err
			}
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			if st.done {
				return st.g, nil
			}
			continue
		}
		if err := r.movetext(st, line, at); err != nil {
			r.skip = true
			return nil, err
		}
		if st.done && !st.inComment {
			// Most files put a blank line after the result; do not wait
			// for it.
			return st.g, nil
		}
	}
}

// nextLine is the next line to read and its number: the line held back
// (the next game's first tag) when there is one, else the input's next.
func (r *Reader) nextLine() ([]byte, int, error) {
	if r.hasPend {
		r.hasPend = false
		return r.pending, r.pendAt, nil
	}
	line, err := r.readLine()
	return line, r.line, err
}

// finish ends a game at the end of the input or at the next game's tags.
func (r *Reader) finish(st *game, last int) (*Game, error) {
	switch {
	case st.inComment:
		return nil, r.errAt(last, "audit.err.open-comment", st.g.Line)
	case st.done:
		return st.g, nil
	case len(st.g.Plies) == 0 && !st.movetext:
		return nil, r.errAt(st.g.Line, "audit.err.tags-only")
	}
	return st.g, r.errAt(last, "audit.err.no-result", st.g.Line)
}

// tags reads one or more tag pairs from a line.
func (r *Reader) tags(st *game, line []byte, at int) error {
	s := bytes.TrimSpace(line)
	for len(s) > 0 {
		if s[0] != '[' {
			return r.errAt(at, "audit.err.after-tag", clip(s))
		}
		i := 1
		for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '"' && s[i] != ']' {
			i++
		}
		name := string(s[1:i])
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) || s[i] != '"' {
			return r.errAt(at, "audit.err.tag-no-value", name)
		}
		i++
		var v []byte
		closed := false
		for i < len(s) {
			c := s[i]
			if c == '\\' && i+1 < len(s) {
				v = append(v, s[i+1])
				i += 2
				continue
			}
			if c == '"' {
				closed = true
				i++
				break
			}
			v = append(v, c)
			i++
		}
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if !closed || i >= len(s) || s[i] != ']' {
			return r.errAt(at, "audit.err.tag-open", name)
		}
		if len(st.g.Tags) >= maxTags {
			return r.errAt(at, "audit.err.many-tags", maxTags)
		}
		st.g.Tags = append(st.g.Tags, Tag{Name: name, Value: string(v)})
		s = bytes.TrimLeft(s[i+1:], " \t")
	}
	return nil
}

func clip(b []byte) string {
	if len(b) > 20 {
		return string(b[:20]) + "…"
	}
	return string(b)
}

// movetext reads one line of movetext.
func (r *Reader) movetext(st *game, line []byte, at int) error {
	if !st.inComment && len(line) > 0 && line[0] == '%' {
		return nil // escape line
	}
	st.movetext = true
	i := 0
	for i < len(line) {
		if st.inComment {
			end, closed := st.readComment(line[i:])
			if !closed {
				return nil
			}
			i += end + 1
			continue
		}
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '{':
			st.inComment, st.comment = true, st.comment[:0]
			i++
			continue
		case c == ';':
			return nil
		case c == '(':
			st.depth++
			i++
			continue
		case c == ')':
			if st.depth == 0 {
				return r.errAt(at, "audit.err.paren")
			}
			st.depth--
			i++
			continue
		case c == '$':
			i++
			for i < len(line) && line[i] >= '0' && line[i] <= '9' {
				i++
			}
			continue
		}
		j := i
		for j < len(line) && !isDelim(line[j]) {
			j++
		}
		if j == i {
			return r.errAt(at, "audit.err.in-moves", string(line[i]))
		}
		tok := line[i:j]
		i = j
		if st.depth > 0 {
			continue
		}
		if st.done {
			return r.errAt(at, "audit.err.after-result", clip(tok))
		}
		if err := st.token(r, tok, at); err != nil {
			return err
		}
	}
	return nil
}

// readComment keeps the text of an open comment from rest (a main-line
// comment, up to maxComment bytes); closed says the comment's '}' is in
// rest, at end.
func (st *game) readComment(rest []byte) (end int, closed bool) {
	j := bytes.IndexByte(rest, '}')
	end = len(rest)
	if j >= 0 {
		end = j
	}
	if st.depth == 0 && len(st.comment) < maxComment {
		st.comment = append(st.comment, rest[:min(end, maxComment-len(st.comment))]...)
		st.comment = append(st.comment, ' ')
	}
	if j < 0 {
		return end, false
	}
	st.inComment = false
	if st.depth == 0 {
		st.clockComment()
	}
	return end, true
}

func isDelim(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\f', '\v', '{', '}', '(', ')', ';', '$':
		return true
	}
	return false
}

// token takes one main-line token: a move number, a move or a result.
func (st *game) token(r *Reader, tok []byte, at int) error {
	switch string(tok) {
	case "1-0", "0-1", "1/2-1/2", "*", "½-½":
		st.g.Result = string(tok)
		if st.g.Result == "½-½" {
			st.g.Result = "1/2-1/2"
		}
		st.done = true
		return nil
	}
	if tok[0] >= '0' && tok[0] <= '9' {
		n, k := 0, 0
		for k < len(tok) && tok[k] >= '0' && tok[k] <= '9' {
			if n < 1e6 {
				n = n*10 + int(tok[k]-'0')
			}
			k++
		}
		if k < len(tok) && tok[k] == '.' {
			for k < len(tok) && tok[k] == '.' {
				k++
			}
			st.number = n
			if k == len(tok) {
				return nil
			}
			tok = tok[k:] // "12.e4"
		} else if k == len(tok) {
			return nil // a bare number: old exports write move numbers without dots
		} else if !bytes.HasPrefix(tok, []byte("0-0")) {
			return r.errAt(at, "audit.err.in-moves", clip(tok))
		}
	}
	san := bytes.TrimRight(tok, "!?")
	if !isSAN(san) {
		return r.errAt(at, "audit.err.not-move", clip(tok))
	}
	if len(st.g.Plies) >= maxPlies {
		return r.errAt(at, "audit.err.many-plies", maxPlies)
	}
	st.g.Plies = append(st.g.Plies, Ply{SAN: string(san), Clk: Unknown, EMT: Unknown, Line: at})
	return nil
}

// isSAN reports whether a token has the shape of a move in Standard
// Algebraic Notation (legality is not checked): a pawn move or capture
// with an optional promotion, a piece move with optional disambiguation,
// castling, or a null move; a check or mate sign may follow.
func isSAN(b []byte) bool {
	for len(b) > 0 && (b[len(b)-1] == '+' || b[len(b)-1] == '#') {
		b = b[:len(b)-1]
	}
	switch string(b) {
	case "O-O", "O-O-O", "0-0", "0-0-0", "--", "Z0":
		return true
	case "":
		return false
	}
	file := func(c byte) bool { return c >= 'a' && c <= 'h' }
	rank := func(c byte) bool { return c >= '1' && c <= '8' }
	i := 0
	switch b[0] {
	case 'K', 'Q', 'R', 'B', 'N':
		// Piece: [file][rank][x]square, the target square last.
		if len(b) < 3 || len(b) > 6 || !file(b[len(b)-2]) || !rank(b[len(b)-1]) {
			return false
		}
		for _, c := range b[1 : len(b)-2] {
			if !file(c) && !rank(c) && c != 'x' && c != ':' {
				return false
			}
		}
		return true
	case 'P':
		i = 1
	}
	b = b[i:]
	// Pawn: file [x file] rank [=piece].
	if len(b) < 2 || !file(b[0]) {
		return false
	}
	j := 1
	if b[j] == 'x' || b[j] == ':' {
		if len(b) < 4 || !file(b[2]) {
			return false
		}
		j = 3
	}
	if j >= len(b) || !rank(b[j]) {
		return false
	}
	j++
	if j < len(b) && b[j] == '=' {
		j++
	}
	if j < len(b) && strings.IndexByte("QRBN", b[j]) >= 0 {
		j++
	}
	if j+4 == len(b) && string(b[j:]) == "e.p." {
		return true
	}
	return j == len(b)
}

// clockComment takes [%clk] and [%emt] from the comment just closed and
// gives them to the last ply (the first of each wins).
func (st *game) clockComment() {
	if len(st.g.Plies) == 0 || len(st.comment) == 0 {
		return
	}
	p := &st.g.Plies[len(st.g.Plies)-1]
	if p.Clk == Unknown {
		if d, ok := command(st.comment, "%clk"); ok {
			p.Clk = d
		}
	}
	if p.EMT == Unknown {
		if d, ok := command(st.comment, "%emt"); ok {
			p.EMT = d
		}
	}
}

// command finds "[%name H:MM:SS]" in a comment and returns the duration.
func command(c []byte, name string) (time.Duration, bool) {
	for {
		i := bytes.Index(c, []byte(name))
		if i < 0 {
			return 0, false
		}
		c = c[i+len(name):]
		if len(c) == 0 || (c[0] != ' ' && c[0] != '\t') {
			continue
		}
		v := bytes.TrimLeft(c, " \t")
		end := bytes.IndexAny(v, "] \t")
		if end < 0 {
			end = len(v)
		}
		return parseClockBytes(v[:end])
	}
}

// parseClock reads H:MM:SS, MM:SS or SS, with an optional decimal
// fraction of a second.
func parseClock(s string) (time.Duration, bool) { return parseClockBytes([]byte(s)) }

func parseClockBytes(s []byte) (time.Duration, bool) {
	if len(s) == 0 || len(s) > 20 {
		return 0, false
	}
	var d time.Duration
	fields := 0
	for len(s) > 0 {
		fields++
		if fields > 3 {
			return 0, false
		}
		j := bytes.IndexByte(s, ':')
		part := s
		if j >= 0 {
			part, s = s[:j], s[j+1:]
			if len(s) == 0 {
				return 0, false
			}
		} else {
			s = nil
		}
		whole, frac := part, []byte(nil)
		if k := bytes.IndexByte(part, '.'); k >= 0 {
			if j >= 0 {
				return 0, false // a fraction only on the seconds
			}
			whole, frac = part[:k], part[k+1:]
			if len(frac) == 0 || len(frac) > 9 {
				return 0, false
			}
		}
		if len(whole) == 0 {
			return 0, false
		}
		n := 0
		for _, c := range whole {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
			if n > 1e6 {
				return 0, false
			}
		}
		if fields > 1 && n >= 60 {
			return 0, false
		}
		d = d*60 + time.Duration(n)*time.Second
		scale := time.Second
		for _, c := range frac {
			if c < '0' || c > '9' {
				return 0, false
			}
			scale /= 10
			d += time.Duration(c-'0') * scale
		}
	}
	return d, true
}
