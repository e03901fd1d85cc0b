// Package pairings reads a round's pairings from the files pairing
// programs write, and writes the round's results back.
//
// Three formats are read, each into the same Round: the boards with their
// players (White and Black, with FIDE id, rating, title, federation and
// starting rank where the file gives them), and the players who are not on
// a board (byes, players left unpaired, forfeits without a game).
//
//   - A pairing PGN: one game per board, tags and no moves. The board is
//     the Board tag, or the part after the point of a Round tag "N.B".
//   - A FIDE Tournament Report File (TRF-16; docs/trf.md): a round's pairs
//     are the player lines' entries for that round. TRF has no board
//     numbers; boards are numbered as pairing programs number them (by the
//     higher score of the pair, then the sum of both scores, then the
//     better starting rank: docs/pairings.md).
//   - A CSV pairing list, its columns found by their header names, with
//     ',', ';' or tab between fields, in UTF-8 or Windows-1252.
//
// Input that does not fit its format is an *Error naming the file, the line
// and the column. Results go the other way: ReadResults reads the results of
// a round from the daemon's data folder (the end events of each board's
// event stream), and WriteTRFResults writes them into a copy of the TRF,
// changing nothing but that round's result columns and the points.
package pairings
