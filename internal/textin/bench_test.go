package textin

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// The cost of reading a large PGN through the Reader, by encoding (the
// audit reads every file through it).
func BenchmarkReader(b *testing.B) {
	game := strings.Repeat("1. e4 {[%clk 1:30:56]} e5 {[%clk 1:30:50]} 2. Nf3 {[%clk 1:31:20]} Nc6 {[%clk 1:31:15]} ", 8)
	utf8Text := []byte(strings.Repeat("[Event \"Open de Genève\"]\n[White \"Réti, Richard\"]\n\n"+game+"1-0\n\n", 4000))
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"UTF-8", utf8Text},
		{"UTF-16", utf16le(string(utf8Text), true)},
		{"Windows-1252", bytes.ReplaceAll(utf8Text, []byte("é"), []byte{0xe9})},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			for b.Loop() {
				if _, err := io.Copy(io.Discard, NewReader(bytes.NewReader(c.data))); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("plain copy", func(b *testing.B) {
		b.SetBytes(int64(len(utf8Text)))
		for b.Loop() {
			io.Copy(io.Discard, bytes.NewReader(utf8Text))
		}
	})
}
