// Package bitboard is a compact chess position for fast search: twelve
// 64-bit piece sets plus a mailbox, make/unmake of moves, and a strictly
// legal move generator following the FIDE Laws of Chess, Articles 3.1–3.10
// (piece movement, castling, en passant, promotion) and 3.9 (check).
//
// It is arbiterd's one move generator: the game record and the
// reconstruction of moves from board snapshots (package rules) play on it,
// and the FIDE 6.9 analyzer in rules/unwinnable visits millions of its
// positions per query in full mode, far more than github.com/notnil/chess
// (which arbiterd keeps for the outside formats: SAN, FEN, notnil moves)
// could afford. The two are kept equal by perft counts on the standard
// perft positions and by a differential test over seeded random games
// that compares legal move sets, check, mate and stalemate.
//
// Squares are numbered a1=0, b1=1, …, h8=63. Attack tables (knight, king,
// pawn captures, sliding rays, between/line masks) and the Zobrist keys
// used by Position.Hash are computed once at package initialisation into
// immutable tables; a bishop's attacks are looked up by magic bitboards
// whose multipliers were found by a search from fixed seeds (knownMagics;
// the search runs at initialisation only for a square whose known one
// fails), a rook's are computed from its file and rank (RookAttacks; the
// rook's magic table, 800 KB, is kept as a reference).
//
// The position ignores the move counters for legality; it keeps them only
// to round-trip FEN. Threefold repetition and the 50/75-move rules are not
// modelled: they are the game record's business, not the move generator's.
package bitboard
