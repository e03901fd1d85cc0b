// Package serialport is arbiterd's one door to serial devices and the only
// importer of go.bug.st/serial. It covers that library's gaps once:
//
//   - Open takes a path, including the stable /dev/serial/by-id/… symlinks
//     (on Windows a COM name: COM3, \\.\COM12, a Bluetooth board's port
//     too), and configures 9600 baud 8N1 without flow control (the DGT
//     line). A path tcp://HOST:PORT is a network port (net.go): a raw TCP
//     byte stream from a serial server, ser2net or an ESP32 bridge, with
//     the same errors (nothing answering is ErrNotFound, a connection lost
//     ErrDisconnected), timeouts and context handling, so Backoff.Retry
//     reopens it as it does an unplugged board.
//   - Errors are typed (*Error, with Unwrap) and name the port: a missing
//     port, a port another program holds, a permission problem or a
//     device that is not a serial port each read as such.
//   - Read never returns (0, nil): go.bug.st/serial does on a read timeout
//     (and bufio gives up after 100 such reads); here a timeout is
//     ErrTimeout, a vanished device ErrDisconnected and a closed port
//     ErrClosed.
//   - A Port closes itself when its context is cancelled, which unblocks a
//     pending Read.
//   - Backoff.Retry is arbiterd's one reopen-with-back-off: the daemon
//     keeps each board's line open with it, and a board's runner its
//     separate clock's.
//
// A Port records nothing: the journal is kept by the board's runner
// (internal/boards/live), which writes every byte read or written into the
// game's capture before the pipeline acts on it, on a serial port and on an
// in-process line alike.
//
// List enumerates ports with their USB ids, marking the ones that look like
// DGT boards. What differs by system is split by build tags, as in
// go.bug.st/serial: the device check and the opening errors (device.go,
// device_windows.go), the advisory lock (lock_unix.go), and the USB
// details, which macOS reads through cgo: a macOS build without cgo lists
// the ports by name only (ErrNoDetails).
package serialport
