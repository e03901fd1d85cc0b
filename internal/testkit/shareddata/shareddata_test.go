package shareddata

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRootHoldsTheModule(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("Root() = %s without go.mod", root)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "testkit", "shareddata")); err != nil {
		t.Fatalf("Root() = %s is not this module's root", root)
	}
}

func TestPathOfAbsentData(t *testing.T) {
	p, ok := Path("no-such-folder", "x")
	if ok {
		t.Fatalf("Path of an absent file reported present: %s", p)
	}
	if filepath.Base(p) != "x" || filepath.Base(filepath.Dir(p)) != "no-such-folder" {
		t.Fatalf("Path = %s", p)
	}
}
