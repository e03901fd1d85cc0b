package scaleout

import (
	"testing"
	"time"

	"github.com/nats-io/nkeys"

	"github.com/arbiterd/arbiterd/internal/config"
)

// A venue that accepts only the hall's NKey: the hall signing with the
// seed from its environment gets every board; a hall with another key
// gets no connection at all.
func TestLeafNKeyAuth(t *testing.T) {
	if testing.Short() {
		t.Skip("NATS servers and venue processes (tens of seconds on two cores): not in -short")
	}
	user := func() (seed, pub string) {
		kp, err := nkeys.CreateUser()
		if err != nil {
			t.Fatal(err)
		}
		s, _ := kp.Seed()
		p, _ := kp.PublicKey()
		return string(s), p
	}
	seed, pub := user()
	other, _ := user()
	v := newVenueWith(t, "north", []int{101}, func(c *config.NATS) { c.LeafNKey = pub })

	t.Setenv("ARBITERD_TEST_WRONG_SEED", other)
	bad := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	bad.opts = HallOptions{Data: bad.data, Venues: []VenueRef{{Name: "north"}},
		Server: ServerOptions{Remotes: [][]string{{"nats-leaf://" + v.proxy.addr()}}, Auth: Auth{NKeySeedEnv: "ARBITERD_TEST_WRONG_SEED"}}}
	bad.start()
	time.Sleep(3 * time.Second)
	if n := bad.hall.Server().NumLeafNodes(); n != 0 || bad.hall.Status().Applied != 0 {
		t.Errorf("a hall with the wrong key: %d leaf connections, %d events", n, bad.hall.Status().Applied)
	}
	bad.stop()

	t.Setenv("ARBITERD_TEST_SEED", seed)
	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	h.opts = HallOptions{Data: h.data, Venues: []VenueRef{{Name: "north"}}, OnEvent: h.onEvent,
		Server: ServerOptions{Remotes: [][]string{{"nats-leaf://" + v.proxy.addr()}}, Auth: Auth{NKeySeedEnv: "ARBITERD_TEST_SEED"}}}
	h.start()
	t.Cleanup(h.stop)
	waitShown(t, h, []*tVenue{v})
}
