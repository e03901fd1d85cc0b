package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/device/emulator"
	"github.com/arbiterd/arbiterd/internal/output/hub"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// benchHall is a hub of n boards, each holding the Immortal Game's whole
// event stream (emulated, replayed from its capture).
func benchHall(b *testing.B, n int) (*hub.Hub, []reconcile.Event) {
	evs := eventsOf(b, room{info: hub.Info{ID: "1", TimeControl: "40/5400+30:1800+30"}, pgn: emulator.DefaultPGN, seed: 1})
	h := hub.New(hub.Options{})
	for i := 1; i <= n; i++ {
		id := fmt.Sprint(i)
		h.AddBoard(hub.Info{ID: id, White: "White, W", Black: "Black, B", TimeControl: "40/5400+30:1800+30"})
		for _, e := range evs {
			h.Publish(id, e)
		}
	}
	return h, evs
}

// BenchmarkBoardsAPI: GET /api/boards for a hall of 50 boards.
func BenchmarkBoardsAPI(b *testing.B) {
	h, _ := benchHall(b, 50)
	hnd := New(h, Options{}).Handler()
	req := httptest.NewRequest("GET", "/api/boards", nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		hnd.ServeHTTP(rec, req)
		b.SetBytes(int64(rec.Body.Len()))
	}
}

// BenchmarkEventsAPI: a whole game's events as JSONL.
func BenchmarkEventsAPI(b *testing.B) {
	h, evs := benchHall(b, 1)
	hnd := New(h, Options{}).Handler()
	req := httptest.NewRequest("GET", "/api/boards/1/events?since=0", nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		hnd.ServeHTTP(rec, req)
		if strings.Count(rec.Body.String(), "\n") != len(evs) {
			b.Fatal("short answer")
		}
	}
	b.ReportMetric(float64(len(evs)), "events/op")
}

// BenchmarkStreamUpdate: one event published into a hub and delivered to
// an SSE client over a real TCP connection (the latency a dashboard sees,
// server side, minus the browser).
func BenchmarkStreamUpdate(b *testing.B) {
	h, evs := benchHall(b, 1)
	srv := httptest.NewServer(New(h, Options{}).Handler())
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/stream?board=1", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	r := &sseCounter{r: resp.Body}
	r.waitMessages(b, 2) // retry, state
	e := evs[len(evs)/2]
	seq := len(evs)
	b.ReportAllocs()
	for b.Loop() {
		seq++
		e.Seq = seq
		h.Publish("1", e)
		r.waitMessages(b, 1)
	}
}

// sseCounter counts messages (blank-line-terminated blocks) on a stream.
type sseCounter struct {
	r       io.Reader
	buf     [64 << 10]byte
	pending int
	prevNL  bool
}

func (c *sseCounter) waitMessages(b *testing.B, n int) {
	for c.pending < n {
		k, err := c.r.Read(c.buf[:])
		if err != nil {
			b.Fatal(err)
		}
		for _, ch := range c.buf[:k] {
			if ch == '\n' {
				if c.prevNL {
					c.pending++
				}
				c.prevNL = true
			} else {
				c.prevNL = false
			}
		}
	}
	c.pending -= n
}
