package reconcile

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/clockd"
)

func TestNewErrors(t *testing.T) {
	cases := []struct {
		cfg  Config
		want string
	}{
		{Config{StartFEN: "rnbqkbnr/pppppppp/8/8 w - - 0 1"}, "start position"},
		{Config{ScanLag: -time.Second}, "ScanLag"},
		{Config{MaxPlies: 99}, "MaxPlies"},
		{Config{MaxPlies: -1}, "MaxPlies"},
		{Config{UnexplainedAfter: -1}, "UnexplainedAfter"},
		{Config{TimeControl: clockd.TimeControl{Periods: []clockd.Period{{Moves: -1, Time: time.Minute}}}}, "period 1"},
	}
	for _, c := range cases {
		_, err := New(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New(%+v) = %v, want an error naming %q", c.cfg, err, c.want)
		}
	}
}

// TestNoIO keeps the package free of I/O (STYLE.md practice 1): its own
// imports come from a short list, and nothing it depends on is a device,
// network, process or arbiterd I/O package (fmt brings os along; that is
// allowed, using it is not).
func TestNoIO(t *testing.T) {
	const pkg = "github.com/arbiterd/arbiterd/rules/reconcile"
	direct, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, pkg).CombinedOutput()
	if err != nil {
		t.Skipf("go list unavailable: %v\n%s", err, direct)
	}
	allowed := map[string]bool{"bytes": true, "encoding/json": true, "errors": true, "fmt": true, "math/bits": true, "slices": true, "strconv": true, "strings": true, "time": true,
		"unicode/utf8": true, "github.com/notnil/chess": true, "github.com/arbiterd/arbiterd/clockd": true,
		"github.com/arbiterd/arbiterd/rules": true, "github.com/arbiterd/arbiterd/rules/bitboard": true,
		"github.com/arbiterd/arbiterd/rules/sentence": true}
	for _, imp := range strings.Fields(string(direct)) {
		if !allowed[imp] {
			t.Errorf("rules/reconcile imports %s directly", imp)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, deps)
	}
	for _, dep := range strings.Fields(string(deps)) {
		switch {
		case dep == "net", strings.HasPrefix(dep, "net/"), dep == "os/exec", dep == "os/signal",
			strings.HasPrefix(dep, "go.bug.st/"), strings.HasPrefix(dep, "github.com/creack/"),
			strings.HasPrefix(dep, "github.com/arbiterd/arbiterd/driver"),
			strings.HasPrefix(dep, "github.com/arbiterd/arbiterd/internal"):
			t.Errorf("rules/reconcile depends on %s: the domain must not do I/O", dep)
		}
	}
}
