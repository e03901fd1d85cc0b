package rules

import "github.com/arbiterd/arbiterd/rules/sentence"

// Text is a sentence of the package's as a code and its arguments, so that
// a program may say it in its reader's language (SentenceCode and
// SentenceArgs are what it reads). An argument is an int or a string shown
// as it is (a FEN), a nested Text, or a sentence of package bitboard
// (bitboard.Text, a *bitboard.FENError). String is the English.
type Text struct {
	Code string
	Args []any
}

// String is t in English ("" for a code the package does not know).
func (t Text) String() string { return englishFormats.Render(t.Code, t.Args) }

// SentenceCode is t's code.
func (t Text) SentenceCode() string { return t.Code }

// SentenceArgs are t's arguments.
func (t Text) SentenceArgs() []any { return t.Args }

// EnglishFormat is the English format of code (a format of package fmt,
// its arguments the Text's), and whether the package has the code.
func EnglishFormat(code string) (string, bool) { return englishFormats.Format(code) }

// TextCodes lists the codes of the package's sentences.
func TextCodes() []string { return englishFormats.Codes() }

// FENError reports a FEN record the package cannot read (NewGame's start
// position): its sentence, and beneath it the codec's error when the
// sentence does not already say what the codec found.
type FENError struct {
	Why Text
	Err error
}

func (e *FENError) Error() string { return e.Why.String() }

// Unwrap is the codec's error, if any.
func (e *FENError) Unwrap() error { return e.Err }

// SentenceCode is the error's code (Why).
func (e *FENError) SentenceCode() string { return e.Why.Code }

// SentenceArgs are the error's arguments (Why's).
func (e *FENError) SentenceArgs() []any { return e.Why.Args }

// englishFormats are the English of the package's sentences: a FEN's
// errors (FENError) and the names of a FEN's fields.
var englishFormats = sentence.Formats{
	"rules.fen.count":           "rules: FEN %q has %d fields, want 6 (placement, side to move, castling, en passant, halfmove clock, fullmove number)",
	"rules.fen.field":           "rules: FEN %q %s: %s",
	"rules.fen":                 "rules: FEN %q: %v",
	"rules.fen.field.placement": "field 1 (piece placement)",
	"rules.fen.field.side":      "field 2 (side to move)",
	"rules.fen.field.castling":  "field 3 (castling)",
	"rules.fen.field.ep":        "field 4 (en passant)",
	"rules.fen.field.halfmove":  "field 5 (halfmove clock)",
	"rules.fen.field.fullmove":  "field 6 (fullmove number)",
}
