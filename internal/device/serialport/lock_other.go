//go:build !unix

package serialport

import "os"

func lockPort(string) (*os.File, error) { return nil, nil }

func unlockPort(*os.File) {}
