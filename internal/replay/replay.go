package replay

import (
	"fmt"
	"io"
	"time"

	"github.com/arbiterd/arbiterd/driver/dgt"
	"github.com/arbiterd/arbiterd/internal/capture"
)

// Message is one decoded device message.
type Message struct {
	At   time.Duration // time of the read that completed the message
	Line int           // capture line of that read
	Port string
	Msg  dgt.Message
}

// Stats summarises a replay.
type Stats struct {
	Lines    int                  // lines read
	Reads    int                  // data lines read from devices
	Writes   int                  // data lines written to devices
	Messages int                  // messages decoded
	Ports    map[string]dgt.Stats // decoder counters per port
	Meta     map[string]string    // meta values in force at the end
	End      time.Duration        // time of the last data line
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
// the bytes read on its ports. A capture error (a *capture.LineError) or a
// port whose driver has no decoder stops it with an error naming the line.
func Run(r io.Reader, opts Options, fn Handler) (st Stats, err error) {
	cr := capture.NewReader(r)
	st = Stats{Ports: map[string]dgt.Stats{}}
	decs := map[string]*dgt.Decoder{}
	defer func() {
		for name, d := range decs {
			st.Ports[name] = d.Stats()
		}
		st.Meta = cr.Meta()
		st.Lines = cr.Line()
	}()
	for {
		rec, err := cr.Next()
		if err == io.EOF {
			return st, nil
		}
		if err != nil {
			return st, err
		}
		if opts.OnRecord != nil {
			if err := opts.OnRecord(rec); err != nil {
				return st, err
			}
		}
		switch rec.Kind {
		case capture.KindPort:
			if rec.Driver != "dgt" {
				return st, &capture.LineError{Line: rec.Line, Err: fmt.Errorf("port %s: no decoder for driver %q (this build knows dgt)", rec.Port, rec.Driver)}
			}
			if decs[rec.Port] == nil {
				decs[rec.Port] = dgt.NewDecoder()
			}
		case capture.KindData:
			st.End = rec.At
			if rec.Dir == capture.Write {
				st.Writes++
				continue
			}
			st.Reads++
			var herr error
			decs[rec.Port].FeedFunc(rec.Data, func(m dgt.Message) {
				if herr != nil {
					return
				}
				st.Messages++
				herr = fn(Message{At: rec.At, Line: rec.Line, Port: rec.Port, Msg: m})
			})
			if herr != nil {
				return st, herr
			}
		}
	}
}
