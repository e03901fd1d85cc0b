// Package rules is arbiterd's chess core: the game record and the
// reconstruction of moves from what an electronic board reports.
//
// # The game record
//
// Game keeps the positions of a game from its start (the standard position or
// any FEN) and the moves between them, and derives what the Laws of Chess say
// about the current position:
//
//   - the game ends at once on checkmate (Law 5.1.1), stalemate (5.2.1), a
//     dead position that simple material makes certain (5.2.2: king against
//     king, king and one minor piece against king, bishops all on squares of
//     one colour), the fifth occurrence of a position (9.6.1), or 75 moves by
//     each player without a pawn move or capture (9.6.2; a mate on that last
//     move still wins). After that Move returns ErrGameOver;
//   - threefold repetition (9.2) and fifty moves (9.3) are only claimable:
//     Status lists them and the game goes on;
//   - positions are the same (9.2.3) when the same side is to move, the same
//     pieces stand on the same squares, the castling rights are the same and
//     an en-passant capture is possible in both or in neither. The square a
//     pawn skipped counts only when a legal capture onto it exists.
//
// The record's positions, legal moves, check, mate and stalemate come from
// rules/bitboard, the perft-exact position and generator that the 6.9
// analyzer uses too, so that playing a move, detecting repetitions (a
// position-count map, not a scan of the history) and the game-end checks are
// cheap. Positions and moves of github.com/notnil/chess are produced on demand
// and agree with it exactly (a differential test plays random games through
// both).
//
// # Reconstruction
//
// A board reports a Snapshot: a piece per square (or only occupancy), with
// squares it could not identify marked Unknown. Reconstruct explains a
// snapshot against the record: no change, one legal sequence of plies from
// the current position (Forward), several (Ambiguous), an earlier position
// (TakeBack, Law 7.1), a different continuation from a not yet completed ply
// (Correction: a piece slid on after the board saw it stop), the DGT
// convention of both kings placed on the centre squares (ResultSignal), or
// nothing (Unexplained). Which of these counts as "the" explanation follows
// the number of plies of the record it changes; see Reconstruct.
//
// The search enumerates legal sequences but prunes by what the snapshot
// still needs: the squares where each side must still put a piece can only be
// filled by that side's own moves, so a branch whose side has fewer moves left
// than squares to fill dies at once, and when a side has no move to spare
// only moves onto those squares are tried. Squares that must be emptied
// bound the plies the same way (one origin per ply, castling and en passant
// aside). On the last ply only moves from and to the differing squares are
// tried. A test compares the pruned search with plain enumeration.
//
// The notnil moves the record and Reconstruct return carry the tags notnil's
// own generator gives (Capture, EnPassant, KingSideCastle, QueenSideCastle,
// Check; an en-passant capture is tagged EnPassant only), so they can be fed
// to notnil's Position.Update.
//
// DetectOrientation recognises the start position either way round; the
// caller turns later snapshots with Rotated.
//
// rules does no I/O; a test lists its imports to keep it so.
package rules
