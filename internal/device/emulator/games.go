package emulator

import _ "embed"

// DefaultPGN is the game `arbiterd emulate` plays when given none: the
// "Immortal Game", Anderssen–Kieseritzky, London 1851 (public domain).
//
//go:embed games/immortal.pgn
var DefaultPGN string
