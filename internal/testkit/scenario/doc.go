// Package scenario holds arbiterd's end-to-end scenarios: games played by
// the board emulator with the situations arbiters meet (flags before and
// after the control, presses without moves, slides, merged presses, a clock
// that adds a period after move 39, checkmate without a press, every clock
// mode), each run through a capture and replay against a golden event file,
// and through a real pseudo-terminal and the live path, whose capture must
// replay to exactly the live events. The package has only tests.
package scenario
