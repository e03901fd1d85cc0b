package bitboard

import "github.com/arbiterd/arbiterd/rules/sentence"

// Text is a sentence of the package's as a code and its arguments, so that
// a program may say it in its reader's language (SentenceCode and
// SentenceArgs are what it reads). An argument is an int, a string or a
// byte shown as it is (a FEN, a square, a letter), or a nested Text.
// String (and Error: a Text is the error of a check that fails) is the
// English, the sentence of the package's errors.
type Text struct {
	Code string
	Args []any
}

// String is t in English ("" for a code the package does not know).
func (t Text) String() string { return englishFormats.Render(t.Code, t.Args) }

func (t Text) Error() string { return t.String() }

// SentenceCode is t's code.
func (t Text) SentenceCode() string { return t.Code }

// SentenceArgs are t's arguments.
func (t Text) SentenceArgs() []any { return t.Args }

// EnglishFormat is the English format of code (a format of package fmt,
// its arguments the Text's), and whether the package has the code.
func EnglishFormat(code string) (string, bool) { return englishFormats.Format(code) }

// TextCodes lists the codes of the package's sentences.
func TextCodes() []string { return englishFormats.Codes() }

func say(code string, args ...any) Text { return Text{Code: code, Args: args} }

// fieldCodes are the codes of the names of a FEN's fields (FENError.Field).
var fieldCodes = map[string]string{
	"fields":          "bitboard.fen.field.fields",
	"placement":       "bitboard.fen.field.placement",
	"side to move":    "bitboard.fen.field.side",
	"castling":        "bitboard.fen.field.castling",
	"en passant":      "bitboard.fen.field.en-passant",
	"halfmove clock":  "bitboard.fen.field.halfmove",
	"fullmove number": "bitboard.fen.field.fullmove",
}

// colour is the word of c as the sentence of code needs it ("white").
func colour(code string, c Color) Text { return say(code + "." + c.String()) }

// englishFormats are the English of the package's sentences: a FEN's
// errors (FENError) and the words they name.
var englishFormats = sentence.Formats{
	"bitboard.fen":                  "bad FEN %q: %s: %s",
	"bitboard.fen.field.fields":     "fields",
	"bitboard.fen.field.placement":  "placement",
	"bitboard.fen.field.side":       "side to move",
	"bitboard.fen.field.castling":   "castling",
	"bitboard.fen.field.en-passant": "en passant",
	"bitboard.fen.field.halfmove":   "halfmove clock",
	"bitboard.fen.field.fullmove":   "fullmove number",
	"bitboard.fen.fields":           "want 2 to 6 space-separated fields (placement, side[, castling, en passant, clocks]), got %d",
	"bitboard.fen.ranks":            "want 8 ranks separated by '/', got %d",
	"bitboard.fen.letter":           "rank %d: unknown piece letter %q",
	"bitboard.fen.files":            "rank %d (%q) covers %d files, want 8",
	"bitboard.fen.pawn":             "a pawn on rank %d",
	"bitboard.fen.kings":            "%d %s kings, want exactly 1",
	"bitboard.fen.kings.white":      "white",
	"bitboard.fen.kings.black":      "black",
	"bitboard.fen.side":             "want \"w\" or \"b\", got %q",
	"bitboard.fen.check":            "%s is to move but %s is in check",
	"bitboard.fen.check.white":      "White",
	"bitboard.fen.check.black":      "Black",
	"bitboard.fen.castling":         "want a combination of KQkq or \"-\", got %q",
	"bitboard.fen.castling.twice":   "right %q repeated in %q",
	"bitboard.fen.castling.needs":   "right %q needs the %s king on %s and a rook on %s",
	"bitboard.fen.piece.white":      "white",
	"bitboard.fen.piece.black":      "black",
	"bitboard.fen.ep":               "want a square or \"-\", got %q",
	"bitboard.fen.ep.rank":          "%s is not a square on rank %d",
	"bitboard.fen.ep.pawn":          "%s: no %s pawn can just have pushed two squares past it",
	"bitboard.fen.halfmove":         "want a non-negative integer, got %q",
	"bitboard.fen.fullmove":         "want a positive integer, got %q",
}
