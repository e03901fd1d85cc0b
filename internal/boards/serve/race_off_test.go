//go:build !race

package serve

// raceDetector: the tests run under the race detector (go test -race).
const raceDetector = false
