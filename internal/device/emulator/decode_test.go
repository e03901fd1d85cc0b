package emulator

import (
	"context"
	"errors"
	"github.com/arbiterd/arbiterd/driver/drivertest"
	"io"
	"net"
	"testing"
	"time"

	"github.com/notnil/chess"
)

// A tiny, test-only decoder of the device side, written from the protocol
// description and independent of frame.go.

type tframe struct {
	id   byte
	data []byte
}

// splitFrames cuts a byte stream into messages. Bytes that cannot start a
// valid message are counted as skipped (garbage).
func splitFrames(b []byte) (frames []tframe, skipped int) {
	for i := 0; i < len(b); {
		if b[i]&0x80 == 0 || i+3 > len(b) {
			skipped++
			i++
			continue
		}
		n := int(b[i+1])<<7 | int(b[i+2])
		if b[i+1]&0x80 != 0 || b[i+2]&0x80 != 0 || n < 3 || i+n > len(b) {
			skipped++
			i++
			continue
		}
		ok := true
		for _, c := range b[i+3 : i+n] {
			if c&0x80 != 0 {
				ok = false
			}
		}
		if !ok {
			skipped++
			i++
			continue
		}
		frames = append(frames, tframe{id: b[i], data: append([]byte(nil), b[i+3:i+n]...)})
		i += n
	}
	return frames, skipped
}

type tclock struct {
	rightSecs, leftSecs int
	rightFlags, leftFl  byte // bits 4-6 of the hour byte
	status              byte
	ack                 bool
	acks                [4]byte
}

func unbcd(b byte) int { return int(b>>4)*10 + int(b&0x0f) }

func decodeClock(d []byte) tclock {
	var c tclock
	c.status = d[6]
	if d[0]&0x0f == 0x0a && d[3]&0x0f == 0x0a {
		c.ack = true
		c.acks[0] = d[1] | (d[3]<<3)&0x80
		c.acks[1] = d[2] | (d[3]<<2)&0x80
		c.acks[2] = d[4] | (d[0]<<3)&0x80
		c.acks[3] = d[5] | (d[0]<<2)&0x80
		return c
	}
	c.rightSecs = int(d[0]&0x0f)*3600 + unbcd(d[1])*60 + unbcd(d[2])
	c.leftSecs = int(d[3]&0x0f)*3600 + unbcd(d[4])*60 + unbcd(d[5])
	c.rightFlags = d[0] & 0x70
	c.leftFl = d[3] & 0x70
	return c
}

// fenFields is the board of a FEN in field order (a8 … h1).
func fenFields(t testing.TB, fen string) [64]byte {
	t.Helper()
	f, err := drivertest.DGTFields(fen)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func reverseFields(b [64]byte) [64]byte {
	var r [64]byte
	for i := range b {
		r[63-i] = b[i]
	}
	return r
}

// gameFENs replays the moves and lists the FEN after each ply (index 0 is
// the start).
func gameFENs(t testing.TB, startFEN string, moves []string) []string {
	t.Helper()
	pos := chess.StartingPosition()
	if startFEN != "" {
		opt, err := chess.FEN(startFEN)
		if err != nil {
			t.Fatal(err)
		}
		pos = chess.NewGame(opt).Position()
	}
	fens := []string{pos.String()}
	for _, s := range moves {
		m, err := chess.AlgebraicNotation{}.Decode(pos, s)
		if err != nil {
			if m, err = (chess.UCINotation{}).Decode(pos, s); err != nil {
				t.Fatalf("move %s: %v", s, err)
			}
		}
		pos = pos.Update(m)
		fens = append(fens, pos.String())
	}
	return fens
}

// run plays cfg over a net.Pipe, calling drive with the host end (which
// may write commands) while everything the board sends is collected. It
// returns the bytes and Run's error.
func run(t testing.TB, cfg Config, timeout time.Duration, drive func(host net.Conn)) ([]byte, error) {
	t.Helper()
	em, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	dev, host := net.Pipe()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(host)
		got <- b
	}()
	if drive != nil {
		go drive(host)
	}
	runErr := em.Run(ctx, dev)
	dev.Close()
	b := <-got
	host.Close()
	return b, runErr
}

// replayBoard applies the field updates of frames to the start board and
// returns how many of the positions fens[1:] were reached in order.
func replayBoard(t testing.TB, frames []tframe, fens []string, reversed bool) (reached int, board [64]byte) {
	t.Helper()
	conv := func(f string) [64]byte {
		b := fenFields(t, f)
		if reversed {
			b = reverseFields(b)
		}
		return b
	}
	board = conv(fens[0])
	for _, fr := range frames {
		if fr.id != 0x8e {
			continue
		}
		if len(fr.data) != 2 || fr.data[0] > 63 || fr.data[1] > 15 {
			t.Fatalf("bad field update % x", fr.data)
		}
		board[fr.data[0]] = fr.data[1]
		if reached+1 < len(fens) && board == conv(fens[reached+1]) {
			reached++
		}
	}
	return reached, board
}

func isCtxErr(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

func pipePair() (net.Conn, net.Conn) { return net.Pipe() }

func drain(r io.Reader) { _, _ = io.Copy(io.Discard, r) }
