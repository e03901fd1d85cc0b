// Package dgt speaks the DGT electronic board protocol as arbiterd uses it:
// a DGT board (and a DGT 3000 clock connected to it) on a 9600 baud 8N1
// serial line with no handshake.
//
// # The wire format
//
// The host sends single-byte commands (see the Cmd constants). Clock
// commands are wrapped as
//
//	2b SIZE 03 CMD PAYLOAD… 00
//
// where SIZE counts the bytes after itself; the clock acknowledges each one
// through a clock message (ClockAck), and arbiterd sends the next clock
// command only after the previous one was acknowledged.
//
// The board answers with messages: a three-byte header, an id with bit 7
// set, then the total length (header included) as two 7-bit bytes, most
// significant first, then data bytes with bit 7 clear. Because only a
// header byte has bit 7 set, a reader that lost its place resynchronises on
// the next such byte. Split is that framing as a pure bufio.SplitFunc;
// Decode turns one frame into a typed Message; Decoder does both
// incrementally over arbitrary read chunks and counts what it had to skip
// (garbage, truncated or corrupt frames, unknown ids, the all-zero clock
// message the board sends when nothing is attached). Nothing it receives is
// fatal.
//
// Squares are DGT field numbers: 0 is a8, 7 is h8, 8 is a7 … 63 is h1, as
// the board is built, whichever way it is turned on the table (orientation
// is worked out later from the pieces). Piece codes are PieceEmpty …
// PieceBlackQueen plus three "magic" result pieces.
//
// Session runs the conversation with a board over an io.ReadWriter: it
// starts the board (reset, update-nice mode, serial number, version, board
// dump), polls the serial number about once a second to know the board is
// still there — re-asserting update-nice mode and asking for a board dump
// with each poll, so a board that lost power and came back idle is brought
// back and its position put right (PollCommands) — and serialises clock commands with acknowledgement and
// bounded resends. Session owns its timers; everything else in the package
// is a pure function of bytes.
//
// docs/dgt.md in the repository collects the protocol notes.
package dgt
