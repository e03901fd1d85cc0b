package clockd_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoIO keeps the model free of I/O (STYLE.md practice 1): clockd's own
// imports come from a short list of pure standard packages, and nothing it
// depends on, directly or not, is a device, network or arbiterd I/O
// package. fmt brings os and io along; that is allowed, using them is not.
func TestNoIO(t *testing.T) {
	const pkg = "github.com/arbiterd/arbiterd/clockd"
	direct, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, pkg).CombinedOutput()
	if err != nil {
		t.Skipf("go list unavailable: %v\n%s", err, direct)
	}
	allowed := map[string]bool{"fmt": true, "strings": true, "strconv": true, "time": true,
		"unicode/utf8": true, "errors": true, "sync": true, "context": true, "math": true, "slices": true}
	for _, imp := range strings.Fields(string(direct)) {
		if !allowed[imp] {
			t.Errorf("clockd imports %s directly; only pure packages are allowed", imp)
		}
	}
	deps, err := exec.Command("go", "list", "-deps", pkg).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, deps)
	}
	for _, dep := range strings.Fields(string(deps)) {
		switch {
		case dep == "net" || strings.HasPrefix(dep, "net/"), dep == "os/exec", dep == "bufio",
			strings.HasPrefix(dep, "go.bug.st/"), strings.HasPrefix(dep, "github.com/creack/"),
			strings.HasPrefix(dep, "github.com/arbiterd/arbiterd/") && dep != pkg:
			t.Errorf("clockd depends on %s: the model must not do I/O", dep)
		}
	}
}
