package bitboard

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFENErrors(t *testing.T) {
	cases := []struct {
		fen, field string
	}{
		{"", "fields"},
		{"8/8/8/8/8/8/8/K6k", "fields"},
		{"8/8/8/8/8/8/K6k w - - 0 1", "placement"},
		{"8/8/8/8/8/8/8/K6x w - - 0 1", "placement"},
		{"8/8/8/8/8/8/8/K7k w - - 0 1", "placement"},
		{"8/8/8/8/8/8/8/K5k w - - 0 1", "placement"},
		{"8/8/8/8/8/8/8/7k w - - 0 1", "placement"},
		{"8/8/8/8/8/8/8/KK5k w - - 0 1", "placement"},
		{"P7/8/8/8/8/8/8/K6k w - - 0 1", "placement"},
		{"8/8/8/8/8/8/8/K6k x - - 0 1", "side to move"},
		{"8/8/8/8/8/8/8/K6k w X - 0 1", "castling"},
		{"8/8/8/8/8/8/8/K6k w K - 0 1", "castling"},
		{"8/8/8/8/8/8/8/K6k w - e9 0 1", "en passant"},
		{"8/8/8/8/8/8/8/K6k w - e6 0 1", "en passant"},
		{"8/8/8/8/8/8/8/K6k w - - x 1", "halfmove clock"},
		{"8/8/8/8/8/8/8/K6k w - - 0 0", "fullmove number"},
		{"8/8/8/8/8/8/8/K5rk b - - 0 1", "side to move"},
	}
	for _, tc := range cases {
		_, err := ParseFEN(tc.fen)
		var fe *FENError
		if !errors.As(err, &fe) {
			t.Errorf("ParseFEN(%q) = %v, want a *FENError", tc.fen, err)
			continue
		}
		if fe.Field != tc.field {
			t.Errorf("ParseFEN(%q) blamed %q (%v), want %q", tc.fen, fe.Field, err, tc.field)
		}
		if !strings.Contains(err.Error(), tc.field) {
			t.Errorf("error %q does not name the field %q", err, tc.field)
		}
	}
}

func TestFENRoundTrip(t *testing.T) {
	for _, tc := range perftCases {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.FEN(); got != tc.fen {
			t.Errorf("FEN() = %q, want %q", got, tc.fen)
		}
	}
}

func TestMateAndStalemate(t *testing.T) {
	cases := []struct {
		fen         string
		mate, stale bool
	}{
		{"8/8/8/8/8/1N6/r7/k1K5 b - - 0 1", true, false}, // the lone knight mates king and rook
		{"k7/8/1Q6/8/8/8/8/7K b - - 0 1", false, true},
		{"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true, false},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, false},
	}
	for _, tc := range cases {
		p, err := ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if p.IsCheckmate() != tc.mate || p.IsStalemate() != tc.stale {
			t.Errorf("%s: mate %v stalemate %v, want %v %v", tc.fen, p.IsCheckmate(), p.IsStalemate(), tc.mate, tc.stale)
		}
	}
}

// FuzzParseFEN checks that no input makes ParseFEN panic, and that every
// accepted position round-trips through FEN and generates moves that
// Make/Unmake restore exactly.
func FuzzParseFEN(f *testing.F) {
	for _, tc := range perftCases {
		f.Add(tc.fen)
	}
	f.Add("8/8/8/8/8/8/8/K6k w - - 0 1")
	f.Add("8/8/8/8/8/8/8/K6k w KQkq e3 0 1")
	f.Fuzz(func(t *testing.T, fen string) {
		p, err := ParseFEN(fen)
		if err != nil {
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil || q != p {
			t.Fatalf("round trip of %q via %q failed: %v", fen, p.FEN(), err)
		}
		var ml MoveList
		p.LegalMoves(&ml)
		for _, m := range ml.Slice() {
			before := p
			u := p.Make(m)
			p.Unmake(m, u)
			if p != before {
				t.Fatalf("%q: Make/Unmake %s changed the position", fen, m)
			}
		}
	})
}

// An en-passant square counts only when the capture is legal: not when it
// would leave the king on an open rank (both pawns leave it at once).
func TestEnPassantLegal(t *testing.T) {
	for fen, want := range map[string]bool{
		"8/8/8/KPp4r/8/8/8/7k w - c6 0 1":  false, // the rook would see the king
		"8/8/8/1Pp4r/K7/8/8/7k w - c6 0 1": true,
		"8/8/8/2p4r/K7/8/8/7k w - c6 0 1":  false, // no pawn to take
		"8/8/8/KPp4r/8/8/8/7k w - - 0 1":   false,
	} {
		pos, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := pos.EnPassantLegal(); got != want {
			t.Errorf("%s: EnPassantLegal = %v, want %v", fen, got, want)
		}
	}
}
