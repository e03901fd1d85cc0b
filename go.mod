module github.com/arbiterd/arbiterd

go 1.26.0

require github.com/spf13/cobra v1.10.2

require (
	github.com/coder/websocket v1.8.15
	github.com/creack/pty v1.1.24 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/notnil/chess v1.10.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	go.bug.st/serial v1.8.0 // indirect
	golang.org/x/sync v0.25.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
)
