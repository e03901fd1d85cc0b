// Package decode feeds a capture (internal/journal/capture) through the same
// decoders the live daemon uses (driver/dgt for a "dgt" port,
// driver/lineclock for a "lineclock" port) and hands each decoded message, with the
// time and port of the read that completed it, to a callback. The bytes
// read from each port go to that port's decoder exactly as they were read,
// chunk by chunk; written bytes are kept for the record only. The result is
// a deterministic function of the capture.
//
// JSON renders a decoded message as one JSONL object for `arbiterd replay`.
package decode
