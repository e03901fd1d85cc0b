package i18n

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/rules"
	"github.com/arbiterd/arbiterd/rules/bitboard"
	"github.com/arbiterd/arbiterd/rules/unwinnable"
)

// TestFENIsTheCatalog keeps the English catalog's messages for a FEN's
// errors the formats rules, rules/bitboard and rules/unwinnable write them
// with.
func TestFENIsTheCatalog(t *testing.T) {
	check := func(code, f string) {
		if got, ok := catalogEN[code]; !ok || got != f {
			t.Errorf("%s: English catalog %q, the package's %q", code, got, f)
		}
	}
	for _, code := range bitboard.TextCodes() {
		f, _ := bitboard.EnglishFormat(code)
		check(code, f)
	}
	for _, code := range rules.TextCodes() {
		f, _ := rules.EnglishFormat(code)
		check(code, f)
	}
	check(unwinnable.LabelCode, unwinnable.LabelFormat)
}

// badFENs give every error of a FEN.
var badFENs = []string{
	"", "8/8/8/8/8/8/8/K6k", "8/8/8/8/8/8/K6k w - - 0 1", "8/8/8/8/8/8/8/K6x w - - 0 1",
	"8/8/8/8/8/8/8/K7k w - - 0 1", "8/8/8/8/8/8/8/K5k w - - 0 1", "8/8/8/8/8/8/8/7k w - - 0 1",
	"8/8/8/8/8/8/8/KK5k w - - 0 1", "P7/8/8/8/8/8/8/K6k w - - 0 1", "8/8/8/8/8/8/8/K6k x - - 0 1",
	"8/8/8/8/8/8/8/K6k w X - 0 1", "8/8/8/8/8/8/8/K6k w K - 0 1", "8/8/8/8/8/8/8/K6k w KK - 0 1",
	"8/8/8/8/8/8/8/K6k w - e9 0 1", "8/8/8/8/8/8/8/K6k w - e6 0 1", "8/8/8/8/8/8/8/K6k w - e3 0 1",
	"8/8/8/8/8/8/8/K6k w - - x 1", "8/8/8/8/8/8/8/K6k w - - 0 0", "8/8/8/8/8/8/8/K5rk b - - 0 1",
	"8/8/8/8/8/8/8/K6k w - - 0 1 x y", "8/8/8/8/8/8/8/K7 w - - 0 1",
}

// TestFENErrors says each error of a FEN, the codec's and rules', in
// English (the error's own text, byte for byte) and in Spanish.
func TestFENErrors(t *testing.T) {
	seen := map[string]bool{}
	mark := func(m Message) { markCodes(seen, m) }
	say := func(fen string, err error, prefix string) {
		var s Sentence
		if !errors.As(err, &s) || !KnownSentence(s) {
			t.Errorf("%q: %v: not a sentence of the catalogs", fen, err)
			return
		}
		mark(MessageOf(s))
		if got := English.Text(MessageOf(s)); got != err.Error() {
			t.Errorf("%q: English %q, want the error's %q", fen, got, err.Error())
		}
		es := Spanish.Err(err).Error()
		if !strings.HasPrefix(es, prefix) || es == err.Error() {
			t.Errorf("%q: Spanish %q", fen, es)
		}
		if got := Spanish.Err(fmt.Errorf("x: %w", err)).Error(); got != "x: "+es {
			t.Errorf("%q: wrapped in Spanish %q", fen, got)
		}
	}
	for _, fen := range badFENs {
		if _, err := bitboard.ParseFEN(fen); err != nil {
			say(fen, err, "posición FEN no válida ")
		} else {
			t.Errorf("%q: bitboard read it", fen)
		}
		if _, err := rules.NewGame(fen); err != nil {
			say(fen, err, "rules: ")
		} else if fen != "" {
			t.Errorf("%q: rules read it", fen)
		}
	}
	// The codec's error as rules passes it on, when it names no field.
	_, cerr := bitboard.ParseFEN("")
	say("", &rules.FENError{Why: rules.Text{Code: "rules.fen", Args: []any{"", cerr}}, Err: cerr}, "rules: posición FEN \"\": posición FEN no válida")
	_, err := unwinnable.ParseLabelled("XX 8/8/8/8/8/8/8/K6k w - - 0 1")
	say("XX", err, "se esperaba una etiqueta")
	for _, codes := range [][]string{bitboard.TextCodes(), rules.TextCodes()} {
		for _, code := range codes {
			if !seen[code] {
				t.Errorf("%s: no FEN in the test gives it", code)
			}
		}
	}
	for _, tt := range []struct{ fen, en, es string }{
		{"8/8/8/8/8/8/8/K5rk b - - 0 1",
			`rules: FEN "8/8/8/8/8/8/8/K5rk b - - 0 1" field 2 (side to move): Black is to move but White is in check`,
			`rules: posición FEN "8/8/8/8/8/8/8/K5rk b - - 0 1", campo 2 (turno): juegan las negras, pero las blancas están en jaque`},
		{"8/8/8/8/8/8/8/K6k w K - 0 1",
			`rules: FEN "8/8/8/8/8/8/8/K6k w K - 0 1" field 3 (castling): right 'K' needs the white king on e1 and a rook on h1`,
			`rules: posición FEN "8/8/8/8/8/8/8/K6k w K - 0 1", campo 3 (enroque): el derecho 'K' requiere el rey blanco en e1 y una torre en h1`},
		{"8/8/8/8/8/8/8/K6k w -",
			`rules: FEN "8/8/8/8/8/8/8/K6k w -" has 3 fields, want 6 (placement, side to move, castling, en passant, halfmove clock, fullmove number)`,
			`rules: la posición FEN "8/8/8/8/8/8/8/K6k w -" tiene 3 campos; deben ser 6 (colocación, turno, enroque, al paso, contador de medias jugadas, número de jugada)`},
	} {
		_, err := rules.NewGame(tt.fen)
		if err == nil || err.Error() != tt.en {
			t.Errorf("%q: English %v, want %s", tt.fen, err, tt.en)
		}
		if got := Spanish.Err(err).Error(); got != tt.es {
			t.Errorf("%q: Spanish\n%s\nwant\n%s", tt.fen, got, tt.es)
		}
	}
	_, err = bitboard.ParseFEN("8/8/8/8/8/8/8/K6k w - e6 0 1")
	if want := `posición FEN no válida "8/8/8/8/8/8/8/K6k w - e6 0 1": al paso: e6: ningún peón negro puede acabar de avanzar dos casillas pasando por ella`; Spanish.Err(err).Error() != want {
		t.Errorf("Spanish\n%s\nwant\n%s", Spanish.Err(err), want)
	}
}
