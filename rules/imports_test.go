package rules

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoIO keeps rules (and its sub-packages) free of I/O: no direct import
// of the operating system, files or network, and no dependency at any depth
// on networking, process execution, serial ports or arbiterd's drivers and
// daemon. (fmt and notnil/chess pull in os internally; rules itself must not
// use it.)
func TestNoIO(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go tool not on PATH")
	}
	out, err := exec.Command(goTool, "list", "-e",
		"-f", "{{.ImportPath}}|{{join .Imports \",\"}}|{{join .Deps \",\"}}",
		"github.com/arbiterd/arbiterd/rules/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	directBanned := func(p string) bool {
		switch p {
		case "os", "os/exec", "os/signal", "os/user", "io/fs", "io/ioutil", "path/filepath", "syscall", "net", "log":
			return true
		}
		return anyBanned(p)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 {
			t.Fatalf("unexpected go list line %q", line)
		}
		pkg := parts[0]
		checked++
		for _, imp := range strings.Split(parts[1], ",") {
			if imp != "" && directBanned(imp) {
				t.Errorf("%s imports %s", pkg, imp)
			}
		}
		for _, dep := range strings.Split(parts[2], ",") {
			if dep != "" && anyBanned(dep) {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
	if checked == 0 {
		t.Fatal("go list returned no packages")
	}
}

// anyBanned reports packages that may not appear at any depth.
func anyBanned(p string) bool {
	for _, prefix := range []string{
		"net/", "os/exec", "go.bug.st/serial", "github.com/creack/pty",
		"github.com/arbiterd/arbiterd/driver", "github.com/arbiterd/arbiterd/internal",
		"github.com/arbiterd/arbiterd/cmd",
	} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return p == "net"
}
