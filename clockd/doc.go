// Package clockd models chess clocks for arbiterd: time controls, an exact
// reference clock, and the interpretation of what real clocks report.
//
// Despite its name it is a clock model, not a daemon: it runs no process
// or goroutine of its own but Runner's one timer, and arbiterd serve lives
// in internal/boards/serve. The name is kept because the callers and the
// documents already know the package by it.
//
// # Time controls
//
// TimeControl is a list of periods in the notation of
// docs/timecontrol.md ("40/5400+30:1800+30"); ParseTimeControl also
// accepts FIDE-style text ("90/40+30+30s", "90'/40 + 30' + 30\""). Class
// sorts a control into standard, rapid or blitz by FIDE Appendices A and B
// (first period's time plus 60 times its increment).
//
// # The reference clock
//
// Clock is a pure state machine, exact to the millisecond, driven by the
// caller with offsets since the session start (`at`). It implements the
// three modes of the Laws: Fischer (increment before the first move and
// after every completed move), Bronstein (the time used in a move is given
// back, at most the delay), and simple delay (the main time runs only after
// the delay). A period's time is added when the player has completed the
// period's moves (Law 6.2.1 counts completed moves, not presses), and time
// left over carries forward (6.3.2). Flags (6.1) come out as events with
// the period they fell in. Runner owns the one timer needed to fire a flag
// on time for clocks that report only presses.
//
// # Hardware readings
//
// Interpreter turns a stream of Readings (displayed times, turn and flag
// bits, as any clock reports them) into ClockEvents: start, presses,
// flags, period additions, stops and resumptions, and Impossible readings
// that are reported and not trusted. Everything is derived from the
// readings themselves; Reading.At orders and timestamps events but is
// never compared with displayed times, so an emulator running faster than
// real time is read correctly. Displayed times are assumed to have a
// granularity of up to one second (a DGT 3000 reports h:mm:ss).
//
// What readings cannot show, the interpreter cannot know: in simple-delay
// mode, or with no increment, two presses whose second move is shorter
// than the delay (or than the display's one-second step) leave every
// displayed time as it was and stay invisible; the times reported for
// merged presses other than the last of a group are estimates (marked
// Inferred). An Interpreter follows one game: the first running reading
// is its start (with WhiteAuto, joining a game in progress takes the face
// running then as White's), and a new game needs a new Interpreter.
//
// The package imports no I/O: drivers decode bytes into Readings
// elsewhere.
package clockd
