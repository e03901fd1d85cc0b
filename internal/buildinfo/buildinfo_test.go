package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

func TestFromBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/arbiterd/arbiterd", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-12-01T17:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, tt := range []struct {
		ld   string
		bi   *debug.BuildInfo
		want Info
	}{
		{"1.2.3", bi, Info{Version: "1.2.3", Revision: "0123456789abcdef0123456789abcdef01234567", Time: "2026-12-01T17:00:00Z", Modified: true}},
		{"", bi, Info{Version: "devel", Revision: "0123456789abcdef0123456789abcdef01234567", Time: "2026-12-01T17:00:00Z", Modified: true}},
		{"", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, Info{Version: "v1.4.0", Revision: Unknown}},
		{"", nil, Info{Version: "devel", Revision: Unknown}},
	} {
		got := fromBuildInfo(tt.ld, tt.bi)
		got.Go, got.Platform = "", ""
		if got != tt.want {
			t.Errorf("%q %v: %+v, want %+v", tt.ld, tt.bi != nil, got, tt.want)
		}
	}
	i := fromBuildInfo("1.2.3", bi)
	if s := i.String(); !strings.HasPrefix(s, "arbiterd 1.2.3 (revision 0123456789abcdef0123456789abcdef01234567+modified, 2026-12-01T17:00:00Z; go1.26.0 ") {
		t.Errorf("String() = %q", s)
	}
}

func TestMeta(t *testing.T) {
	i := Info{Version: "1.2.3", Revision: "abc", Modified: true}
	start := time.Date(2026, 12, 1, 18, 30, 19, 512e6, time.FixedZone("CET", 3600))
	m := i.Meta(start)
	want := map[string]string{capture.MetaArbiterdVersion: "1.2.3", capture.MetaArbiterdRevision: "abc+modified",
		capture.MetaStarted: "2026-12-01T18:30:19+01:00"}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	if len(m) != len(want) {
		t.Errorf("meta %v", m)
	}
}
