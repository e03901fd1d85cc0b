// Package lineclock speaks the line protocol of a standalone USB-serial
// chess clock ("lineclock", version 1), specified in docs/lineclock.md.
//
// The clock sends ASCII lines, each ending in LF (a CR before it is
// ignored). A line is a body and an NMEA-style checksum:
//
//	STATUS 17 5391000 5400000 L R - I -*4A
//
// the two hex digits after '*' being the XOR of every byte of the body.
// The body is a keyword and fields separated by single spaces: HELLO
// (protocol version, model, serial number), STATUS (both displayed times
// in milliseconds, whose turn, running or stopped, per-face flags), PRESS
// (a lever press, with both times right after it) and FLAG (a flag fell).
// Every line but HELLO carries a sequence number so the host sees lost
// lines.
//
// Split is the framing as a pure bufio.SplitFunc; Decode checks and parses
// one line into a typed Message, or returns a *LineError naming the column
// and what is wrong; Decoder does both over arbitrary read chunks, counts
// bad lines and sequence gaps, and never fails. Reader does the same over
// an io.Reader. Encode/AppendLine are the device side, for emulators and
// tests. Tracker turns messages into clockd.Readings, so the clock feeds
// the same clockd.Interpreter as any other: a PRESS line becomes a reading
// right after the press, so two quick presses are never merged.
package lineclock
