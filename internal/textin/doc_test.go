package textin_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/arbiterd/arbiterd/internal/textin"
)

// A FEN list saved by Notepad with a byte-order mark reads as plain
// UTF-8.
func ExampleNewReader() {
	r := textin.NewReader(strings.NewReader("\ufeff8/8/8/4k3/8/8/8/K6N b\n"))
	b, _ := io.ReadAll(r)
	fmt.Printf("%q (%v)\n", b, r.Encoding())
	// Output: "8/8/8/4k3/8/8/8/K6N b\n" (UTF-8 with a byte-order mark)
}
