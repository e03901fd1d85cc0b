package decode

import (
	"fmt"
	"io"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/driver/lineclock"
	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// Message is one decoded device message.
type Message struct {
	At   time.Duration // time of the read that completed the message
	Line int           // capture line of that read
	Port string
	// Msg is a dgt.Message for a "dgt" port, a lineclock.Message for a
	// "lineclock" port.
	Msg any
}

// Stats summarises a replay.
type Stats struct {
	Lines     int                        // lines read
	Reads     int                        // data lines read from devices
	Writes    int                        // data lines written to devices
	Messages  int                        // messages decoded
	Ports     map[string]dgt.Stats       // decoder counters per dgt port
	LinePorts map[string]lineclock.Stats // decoder counters per lineclock port
	Meta      map[string]string          // meta values in force at the end
	End       time.Duration              // time of the last data line
}

// knownDrivers names the drivers Run decodes.
const knownDrivers = "dgt, lineclock"

// decoder is one port's decoder, whatever its driver: feed decodes the
// bytes of one read, calling emit per message.
type decoder interface {
	feed(p []byte, emit func(any))
}

type dgtDecoder struct{ *dgt.Decoder }

func (d dgtDecoder) feed(p []byte, emit func(any)) {
	d.FeedFunc(p, func(m dgt.Message) { emit(m) })
}

type lineDecoder struct{ *lineclock.Decoder }

func (d lineDecoder) feed(p []byte, emit func(any)) {
	for _, m := range d.Feed(p) {
		emit(m)
	}
}

// Handler receives each decoded message; a non-nil error stops the replay
// and is returned by Run.
type Handler func(Message) error

// RecordHandler, if set in Options, sees every capture record before its
// bytes are decoded (meta changes, comments, writes).
type RecordHandler func(capture.Record) error

// Options tune Run.
type Options struct {
	// OnRecord sees every record (nil: ignore).
	OnRecord RecordHandler
}

// Run reads the capture in r and calls fn for every message decoded from
// the bytes read on its ports ("dgt" and "lineclock" ports). A capture
// error (a *capture.LineError) or a port whose driver has no decoder stops
// it with an error naming the line (the capture reader refuses a port
// declared again with another driver). Bytes left at the end of the
// capture (an unfinished DGT frame or clock line) are not decoded: the
// event stream never acts on them either.
func Run(r io.Reader, opts Options, fn Handler) (st Stats, err error) {
	cr := capture.NewReader(r)
	st = Stats{Ports: map[string]dgt.Stats{}, LinePorts: map[string]lineclock.Stats{}}
	decs := map[string]decoder{}
	defer func() {
		for name, d := range decs {
			switch d := d.(type) {
			case dgtDecoder:
				st.Ports[name] = d.Stats()
			case lineDecoder:
				st.LinePorts[name] = d.Stats()
			}
		}
		st.Meta = cr.Meta()
		st.Lines = cr.Line()
	}()
	err = cr.Each(func(rec capture.Record) error {
		if opts.OnRecord != nil {
			if err := opts.OnRecord(rec); err != nil {
				return err
			}
		}
		switch rec.Kind {
		case capture.KindPort:
			if decs[rec.Port] != nil {
				return nil // a repeated declaration keeps the decoder
			}
			switch rec.Driver {
			case "dgt":
				decs[rec.Port] = dgtDecoder{dgt.NewDecoder()}
			case "lineclock":
				decs[rec.Port] = lineDecoder{lineclock.NewDecoder()}
			default:
				return &capture.LineError{Line: rec.Line, Err: fmt.Errorf("port %s: no decoder for driver %q (this build knows %s)", rec.Port, rec.Driver, knownDrivers)}
			}
		case capture.KindData:
			st.End = rec.At
			if rec.Dir == capture.Write {
				st.Writes++
				return nil
			}
			st.Reads++
			var herr error
			decs[rec.Port].feed(rec.Data, func(m any) {
				if herr != nil {
					return
				}
				st.Messages++
				herr = fn(Message{At: rec.At, Line: rec.Line, Port: rec.Port, Msg: m})
			})
			return herr
		}
		return nil
	})
	return st, err
}
