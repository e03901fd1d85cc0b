package drivertest

import (
	"fmt"
	"io"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// StepsFromCapture turns the traffic of one port in a capture into
// playback steps: each write the host made becomes an expected write, and
// the bytes the device sent after it become that step's reads. So a
// capture from a real board (or from a bug report) replays to a driver in
// a test, and the test fails if the driver writes something else.
func StepsFromCapture(r io.Reader, port string) ([]Step, error) {
	cr := capture.NewReader(r)
	var steps []Step
	found := false
	err := cr.Each(func(rec capture.Record) error {
		if rec.Kind == capture.KindPort && rec.Port == port {
			found = true
		}
		if rec.Kind != capture.KindData || rec.Port != port {
			return nil
		}
		switch {
		case rec.Dir == capture.Write:
			steps = append(steps, Step{Write: append([]byte(nil), rec.Data...)})
		case len(steps) == 0:
			steps = append(steps, Step{Read: append([]byte(nil), rec.Data...)})
		default:
			last := &steps[len(steps)-1]
			last.Read = append(last.Read, rec.Data...)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("drivertest: the capture declares no port %q", port)
	}
	return steps, nil
}
