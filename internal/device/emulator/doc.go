// Package emulator is a DGT electronic board with a DGT 3000 clock
// attached, emulated on the device end of a serial line: it answers the
// host's commands and plays a game the way people and hardware do, so the
// rest of arbiterd can be tested end to end without a board.
//
// # Protocol (device side)
//
// The line runs at 9600 baud 8N1. The host sends single command bytes
// (0x40 reset, 0x41 clock, 0x42 board, 0x43/0x44/0x4b update modes, 0x45
// serial, 0x46 bus address, 0x47 trademark, 0x49 EEPROM moves, 0x4c
// battery, 0x4d version, 0x55 long serial) and clock commands wrapped as
//
//	2b SIZE 03 CMD DATA… 00
//
// where SIZE counts the bytes after itself (03, CMD, DATA and the closing
// 00). The emulated clock acknowledges display, icons, end, beep, text,
// button, version (0x09: ack2/ack3 the clock's version) and SetNRun (0x0a,
// data lh lm ls rh rm rs side, binary; side bit 0 runs the left clock, bit
// 1 the right one). Malformed clock frames get no acknowledgement.
//
// Every board message starts with an id with bit 7 set and the total length
// (header included) as two 7-bit bytes; the data bytes have bit 7 clear.
// Fields count from a8 (0) to h1 (63) in the board's own frame, so a board
// set up with Black at the bottom reports everything turned round. The
// clock's BWTIME message (0x8d) carries the right face, the left face and a
// status byte; an acknowledgement is a BWTIME whose hour nibbles are 0x0a,
// with the high bits of its four bytes folded into bits 4 and 5 of the
// hour bytes.
//
// # The game
//
// The sensors are swept every 225 ms of emulated time; whatever changed
// between two sweeps is reported together, in a random order. A player's
// hand lifts and places pieces with human gaps: sliders and pawns may slide
// across the squares in between (and be seen on two squares at once),
// captures go either way round or straight onto the captured piece,
// castling king or rook first, promotions with the pawn put down and
// swapped or the new piece put down at once. After the move the player
// presses: the lever goes down on its side, its clock stops and the other
// runs; the clock reports on the press and at every change of the
// displayed seconds.
//
// The clock model (Fischer, Bronstein, simple delay; periods added at the
// first flag to both sides or after N presses of a side) is the truth of
// the emulation: a flag falls when a player's think time exceeds what its
// clock shows, at the clock's own scaled time. In the last period the time
// is blocked at zero, the clock stops and the game stops being played.
//
// Faults and special actions (garbage, lost frames, presses without moves,
// moves without presses, merged presses, wrong squares, two plies in one
// scan, an early period, an extra press, a flag, an unplug, the kings'
// result signal, a take-back) are data: see Action and ParseAction.
//
// # Using it
//
// New checks a Config (the game as SAN/UCI moves or PGN, the clock's
// periods and how it adds them, orientation, speed, seed, think times, the
// script). Run plays on any io.ReadWriter, usually the master of OpenPTY,
// whose slave path a host opens as its serial port (Linux and macOS), or the
// device end of OpenLine, an in-process line whose other end the host reads
// and writes like a port (many boards in one process), or a NetLine
// (ListenLine), which offers the board on a TCP listener as a serial server
// does, on every system (arbiterd emulate --listen; a host connects to
// tcp://HOST:PORT, may go and come back, and the game goes on meanwhile);
// Play computes the whole byte stream at once, with
// emulated times, for captures and fast tests.
// Observe reports moves, presses, periods and flags as they happen;
// StopSignal and AfterStop end a host's session a settling time after the
// players stop the clock.
//
// # A clock on its own line
//
// With Config.NoClock the board has no clock attached (it answers a clock
// request with "no clock" and sends no clock frames) and the game's clock
// is a separate USB clock speaking the lineclock protocol
// (driver/lineclock): LineClock, driven by the emulation's notes, on a
// second pty. Its Take gives the lines with emulated times, like Play; its
// Run writes them in real time beside the board's Run.
//
// Everything random follows from Config.Seed and everything timed from
// emulated time, so the same Config driven the same way gives the same
// bytes. Only Run owns a timer.
package emulator
