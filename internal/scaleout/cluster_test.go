package scaleout

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/config"
)

// A hall of three NATS nodes (JetStream replicas 3); the venues dial all
// three. One node is killed in the middle of the games: the venues' leaf
// connections move to another node, the hall's streams go on with two,
// and the hall ends with every event once, in order.
func TestHallClusterNodeKilled(t *testing.T) {
	var routes, leafs []string
	var listens []string
	for range 3 {
		r, err := freePort("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		l, err := freePort("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		c, err := freePort("127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		routes, leafs, listens = append(routes, "nats-route://"+r), append(leafs, "nats-leaf://"+l), append(listens, c)
	}
	var nodes []*Server
	for i := range 3 {
		s, err := StartServer(ServerOptions{Name: fmt.Sprintf("hall-%d", i+1), Domain: HallDomain, StoreDir: t.TempDir(),
			Listen: listens[i], LeafListen: strings.TrimPrefix(leafs[i], "nats-leaf://"),
			Cluster: &ClusterOptions{Name: "hall", Listen: strings.TrimPrefix(routes[i], "nats-route://"), Routes: routes}})
		if err != nil {
			t.Fatal(err)
		}
		nodes = append(nodes, s)
		t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	}
	n := envInt("ARBITERD_SCALEOUT_FAULT_BOARDS", 1)
	var vs []*tVenue
	for i, name := range []string{"north", "south"} {
		v := newVenueWith(t, name, venueBoards(i+1, n), func(c *config.NATS) { c.LeafListen, c.Hall = "", leafs })
		vs = append(vs, v)
	}
	h := &tHall{t: t, data: t.TempDir(), events: map[string][][]byte{}}
	var urls []string
	for _, l := range listens {
		urls = append(urls, "nats://"+l)
	}
	h.opts = HallOptions{Data: h.data, Stale: 3 * time.Second, URL: strings.Join(urls, ","), Replicas: 3,
		Venues: []VenueRef{{Name: "north"}, {Name: "south"}}, OnEvent: h.onEvent}
	h.start()
	t.Cleanup(h.stop)
	waitShown(t, h, vs)
	waitApplied(t, h, 30)
	nodes[0].Shutdown() // the node the hall's client most likely talks to
	waitGames(t, h, vs, 4*time.Minute)
	checkHall(t, h, vs, false)
	// Each venue's messages reach the hall through its own streams only:
	// what the hall's stream holds of a venue is in the venue's order.
	checkOwnStreams(t, vs)
}
