package livechess

import (
	"encoding/json"
	"testing"

	"github.com/arbiterd/arbiterd/internal/output/hub"
)

// FuzzRequest feeds the WebSocket request handler arbitrary messages: it
// must never panic, and everything it answers is a well-formed message
// (call, error or feed) whose id is JSON.
func FuzzRequest(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"call":"eboards","param":null}`,
		`{"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":"1"}}}`,
		`{"id":3,"call":"unsubscribe","param":{"id":1}}`,
		`{"id":"x","call":"subscribe","param":{"feed":"eboardevent","id":{"a":[1,2]},"param":{"serialnr":"SN-7"}}}`,
		`{"id":4,"call":"subscribe","param":"eboardevent"}`,
		`{"call":"eboards"}`, `[]`, `null`, `{"id":1e999}`, `not json`, ``,
		`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}}}`,
		`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}}}`,
		`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"4k3/8/8/8/8/8/8/4K3"}}}`,
		`{"id":3,"call":"call","param":{"id":1,"method":"setup","param":{"fen":7}}}`,
		`{"id":3,"call":"call","param":{"id":1,"method":"stop"}}`,
		`{"id":5,"call":"sources"}`, `{"id":6,"call":"tournaments","param":{}}`,
	} {
		f.Add([]byte(s))
	}
	h := hub.New(hub.Options{})
	h.AddBoard(hub.Info{ID: "1"})
	h.AddBoard(hub.Info{ID: "2"})
	apis := []*API{New(h), NewWithOptions(h, Options{Moves: Made})}
	f.Fuzz(func(t *testing.T, msg []byte) {
		s := &session{a: apis[len(msg)%2], out: make(chan []byte, 16), feeds: map[string]*feed{}}
		// a feed for the calls that need one ("call" setup)
		if err := s.handle([]byte(`{"id":0,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":"2"}}}`)); err != nil {
			t.Fatal(err)
		}
		for range 2 { // twice: a second subscribe on the same feed id is refused
			if err := s.handle(msg); err != nil {
				t.Fatalf("handle(%q): %v", msg, err)
			}
		}
		for len(s.out) > 0 {
			out := <-s.out
			var m struct {
				Response string          `json:"response"`
				ID       json.RawMessage `json:"id"`
			}
			if err := json.Unmarshal(out, &m); err != nil || !json.Valid(m.ID) {
				t.Fatalf("handle(%q) sent %s", msg, out)
			}
			switch m.Response {
			case "call", "error", "feed":
			default:
				t.Fatalf("handle(%q) sent %s", msg, out)
			}
		}
	})
}
