// Package config reads and checks the configuration of `arbiterd serve`:
// the data directory where every game is journalled, the address the HTTP
// server listens on, the event and round, the log format, and the boards
// the daemon serves — each a DGT board's serial port (a path or a stable
// /dev/serial/by-id/… name; a COM name such as COM3 on Windows, the same
// port whatever its case; tcp://HOST:PORT for a board on the network; a
// port that cannot be one on the system running is an error), an optional
// separate clock port, the board
// number, the players, the time control (FIDE Law 6.7 and the control of
// Law 6.3: what a flag fall is judged against), which face of the clock is
// White's, and the start position.
//
// A file is YAML (.yaml, .yml) or TOML (.toml), chosen by its extension.
// Keys are checked strictly: an unknown key is an error, so a typo never
// silently leaves a setting at its default. Every value is validated before
// the daemon starts; each error names the setting as a path
// (`boards[2].timecontrol`) and the file line it is on, in either format.
// Before decoding, the file is checked against the settings it may hold
// (check.go): an unknown key is named with its place and the setting it
// probably meant, a value of the wrong kind with what belongs there (a
// board number is a whole number, a port is a device's name, never a
// bare number). TimeControlWords says what a control gives the players,
// and MinutesMeant catches one written in minutes where the notation
// counts seconds.
//
// Files are read as Windows editors save them too (internal/textin: a
// byte-order mark, UTF-16, Windows-1252), and a Windows path in double
// quotes, where a backslash starts an escape, is an error naming the line
// and the fix (single quotes, or forward slashes).
package config
