// Package buildinfo says which arbiterd this is: the release version
// (set by the release build) and the version control revision the binary
// was built from (recorded by the Go toolchain, -buildvcs). arbiterd
// version prints it, and every capture records it at its start with the
// wall-clock time (Meta), so a verdict handed in with an appeal names the
// program that reached it.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/arbiterd/arbiterd/internal/journal/capture"
)

// version is set by the release build:
//
//	-ldflags "-X github.com/arbiterd/arbiterd/internal/buildinfo.version=1.2.3"
var version = ""

// Unknown is the revision of a binary built without version control
// information (go build -buildvcs=false, or outside a checkout).
const Unknown = "unknown"

// Info identifies a build.
type Info struct {
	Version  string // release version ("1.2.3"), the module version, or "devel"
	Revision string // the VCS revision, or Unknown
	Time     string // the revision's commit time (RFC 3339), "" when unknown
	Modified bool   // built from a checkout with uncommitted changes
	Go       string // the Go version, e.g. go1.26.0
	Platform string // GOOS/GOARCH
}

// Read returns this binary's Info.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuildInfo(version, bi)
}

func fromBuildInfo(ldVersion string, bi *debug.BuildInfo) Info {
	i := Info{Version: ldVersion, Revision: Unknown, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi == nil {
		if i.Version == "" {
			i.Version = "devel"
		}
		return i
	}
	if i.Version == "" {
		i.Version = "devel"
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			i.Version = v
		}
	}
	if bi.GoVersion != "" {
		i.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			i.Revision = s.Value
		case "vcs.time":
			i.Time = s.Value
		case "vcs.modified":
			i.Modified = s.Value == "true"
		}
	}
	return i
}

// RevisionText is the revision as recorded in captures: the commit, with
// "+modified" when the checkout had uncommitted changes.
func (i Info) RevisionText() string {
	if i.Modified && i.Revision != Unknown {
		return i.Revision + "+modified"
	}
	return i.Revision
}

// String is what arbiterd version prints.
func (i Info) String() string {
	rev := i.RevisionText()
	if i.Time != "" {
		rev += ", " + i.Time
	}
	return fmt.Sprintf("arbiterd %s (revision %s; %s %s)", i.Version, rev, i.Go, i.Platform)
}

// Meta is the provenance a capture records at its start (capture meta
// keys arbiterd-version, arbiterd-revision and started): this build and
// the wall-clock time the capture began, to the second, with its UTC
// offset.
func (i Info) Meta(start time.Time) map[string]string {
	return map[string]string{
		capture.MetaArbiterdVersion:  i.Version,
		capture.MetaArbiterdRevision: i.RevisionText(),
		capture.MetaStarted:          start.Truncate(time.Second).Format(time.RFC3339),
	}
}
