//go:build race

package daemon

// raceDetector: the tests run under the race detector (go test -race).
const raceDetector = true
