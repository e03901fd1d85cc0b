// Package packaging_test checks the files the release packages install:
// the systemd unit and the udev rules are the ones docs/operations.md
// shows, the packaged configuration is valid, and every file the release
// configuration (.goreleaser.yaml) names exists.
package packaging_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/config"
)

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The operations guide shows the unit and the rules as they are packaged.
func TestDocsShowThePackagedFiles(t *testing.T) {
	ops := read(t, filepath.Join("..", "docs", "operations.md"))
	for _, f := range []string{"arbiterd.service", "99-arbiterd.rules"} {
		if !strings.Contains(ops, "\n"+read(t, f)+"```\n") {
			t.Errorf("docs/operations.md does not show packaging/%s as it is", f)
		}
	}
}

func TestPackagedConfig(t *testing.T) {
	c, err := config.Load("arbiterd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	unit := read(t, "arbiterd.service")
	if !strings.Contains(unit, "ReadWritePaths="+c.Data+"\n") || !strings.Contains(unit, "--config /etc/arbiterd/arbiterd.yaml") {
		t.Errorf("the unit does not let the service write its data directory %s, or reads another configuration", c.Data)
	}
}

// Every src the release configuration names exists, and the version goes
// where the binary reads it.
func TestReleaseConfigFiles(t *testing.T) {
	gr := read(t, filepath.Join("..", ".goreleaser.yaml"))
	srcs := regexp.MustCompile(`(?m)^\s+(?:- )?src: (\S+)$`).FindAllStringSubmatch(gr, -1)
	scripts := regexp.MustCompile(`(?m)^\s+(?:postinstall|preremove): (\S+)$`).FindAllStringSubmatch(gr, -1)
	if len(srcs) < 4 || len(scripts) != 2 {
		t.Fatalf("found %d src and %d scripts in .goreleaser.yaml", len(srcs), len(scripts))
	}
	for _, m := range append(srcs, scripts...) {
		if _, err := os.Stat(filepath.Join("..", m[1])); err != nil {
			t.Errorf(".goreleaser.yaml names %s: %v", m[1], err)
		}
	}
	if !strings.Contains(gr, "-X github.com/arbiterd/arbiterd/internal/buildinfo.version={{ .Version }}") || !strings.Contains(gr, "-buildvcs=true") {
		t.Error("the release build does not set the version and the VCS revision arbiterd version prints")
	}
}

// The scripts are valid sh, and systemd reads the unit without a
// complaint but for the binary it cannot find here.
func TestScriptsAndUnit(t *testing.T) {
	for _, s := range []string{"postinstall.sh", "preremove.sh"} {
		if out, err := exec.Command("sh", "-n", s).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", s, err, out)
		}
	}
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("no systemd-analyze")
	}
	unit := filepath.Join(t.TempDir(), "arbiterd.service")
	bin, _ := exec.LookPath("sh")
	os.WriteFile(unit, []byte(strings.Replace(read(t, "arbiterd.service"), "/usr/bin/arbiterd", bin, 1)), 0o644)
	out, err := exec.Command(sa, "verify", unit).CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}
