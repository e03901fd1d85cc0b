package textin

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

func utf16le(s string, bom bool) []byte {
	var b []byte
	if bom {
		b = append(b, 0xFF, 0xFE)
	}
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			hi, lo := 0xD800+(r>>10), 0xDC00+(r&0x3FF)
			b = append(b, byte(hi), byte(hi>>8), byte(lo), byte(lo>>8))
			continue
		}
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}

func utf16be(s string, bom bool) []byte {
	le := utf16le(s, false)
	var b []byte
	if bom {
		b = append(b, 0xFE, 0xFF)
	}
	for i := 0; i+1 < len(le); i += 2 {
		b = append(b, le[i+1], le[i])
	}
	return b
}

const pgn = "[Event \"Open de Genève\"]\n[White \"Réti, Richard\"]\n[Black \"Nimzowitsch, Aron\"]\n\n1. e4 e5 *\n"

var cases = []struct {
	name string
	in   []byte
	want string
	enc  Encoding
}{
	{"UTF-8", []byte(pgn), pgn, UTF8},
	{"UTF-8 with a byte-order mark", append([]byte{0xEF, 0xBB, 0xBF}, pgn...), pgn, UTF8BOM},
	{"UTF-16 LE with a byte-order mark", utf16le(pgn, true), pgn, UTF16LE},
	{"UTF-16 BE with a byte-order mark", utf16be(pgn, true), pgn, UTF16BE},
	{"UTF-16 LE without a mark", utf16le(pgn, false), pgn, UTF16LE},
	{"UTF-16 BE without a mark", utf16be(pgn, false), pgn, UTF16BE},
	{"UTF-16 with a surrogate pair", utf16le("8/8 ♔ 𝄞\n", true), "8/8 ♔ 𝄞\n", UTF16LE},
	{"Windows-1252", []byte("[White \"R\xe9ti, Richard\"]\n[Black \"\x8cdipe, \xc6lfred\"] {\x93quoted\x94}\n"),
		"[White \"Réti, Richard\"]\n[Black \"Œdipe, Ælfred\"] {“quoted”}\n", Windows1252},
	{"empty", nil, "", UTF8},
	{"only a byte-order mark", []byte{0xEF, 0xBB, 0xBF}, "", UTF8BOM},
	{"a FEN line", []byte("8/8/8/4k3/8/8/8/K6N b\n"), "8/8/8/4k3/8/8/8/K6N b\n", UTF8},
}

func TestBytes(t *testing.T) {
	for _, c := range cases {
		got, enc, err := Bytes(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if string(got) != c.want || enc != c.enc {
			t.Errorf("%s: %q as %v, want %q as %v", c.name, got, enc, c.want, c.enc)
		}
	}
}

// The Reader gives what Bytes gives, however the input is split.
func TestReader(t *testing.T) {
	for _, c := range cases {
		for _, split := range []struct {
			name string
			wrap func(io.Reader) io.Reader
		}{{"whole", func(r io.Reader) io.Reader { return r }}, {"one byte", iotest.OneByteReader}, {"half", iotest.HalfReader}} {
			r := NewReader(split.wrap(bytes.NewReader(c.in)))
			got, err := io.ReadAll(iotest.OneByteReader(r))
			if err != nil {
				t.Errorf("%s, %s reads: %v", c.name, split.name, err)
				continue
			}
			if string(got) != c.want || r.Encoding() != c.enc {
				t.Errorf("%s, %s reads: %q as %v, want %q as %v", c.name, split.name, got, r.Encoding(), c.want, c.enc)
			}
		}
	}
}

// Past what the Reader looks at, a byte that is not UTF-8 is read as
// Windows-1252; UTF-8 cut at the end of the look stays UTF-8.
func TestReaderLongStream(t *testing.T) {
	head := strings.Repeat("1. e4 e5 2. Nf3 Nc6 ", PeekSize/20) + "é" // é's two bytes across the peek's end
	in := head + strings.Repeat("x", 100) + "[White \"R\xe9ti\"]\n"
	r := NewReader(strings.NewReader(in))
	got, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if r.Encoding() != UTF8 {
		t.Errorf("encoding %v", r.Encoding())
	}
	if want := head + strings.Repeat("x", 100) + "[White \"Réti\"]\n"; string(got) != want {
		t.Errorf("tail %q", got[len(got)-30:])
	}
}

// A read error is passed on, after what was read.
func TestReaderError(t *testing.T) {
	boom := errors.New("disk gone")
	r := NewReader(io.MultiReader(strings.NewReader("8/8/8"), iotest.ErrReader(boom)))
	got, err := io.ReadAll(r)
	if !errors.Is(err, boom) || string(got) != "8/8/8" {
		t.Errorf("read %q, %v", got, err)
	}
}

// An odd number of bytes of UTF-16 is not an error to stop on: the last
// byte reads as a replacement character.
func TestOddUTF16(t *testing.T) {
	in := append(utf16le("8/8", true), 'x')
	got, _, err := Bytes(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(got), "8/8") || !utf8.Valid(got) {
		t.Errorf("%q", got)
	}
	got2, err := io.ReadAll(NewReader(bytes.NewReader(in)))
	if err != nil || string(got2) != string(got) {
		t.Errorf("reader: %q, %v; bytes: %q", got2, err, got)
	}
}

func FuzzDecode(f *testing.F) {
	for _, c := range cases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, enc, err := Bytes(in)
		if err != nil {
			return
		}
		if !utf8.Valid(got) {
			t.Fatalf("%v gave invalid UTF-8 %q", enc, got)
		}
		if enc == UTF8 && !bytes.Equal(got, in) {
			t.Fatalf("valid UTF-8 changed: %q to %q", in, got)
		}
		r := NewReader(bytes.NewReader(in))
		streamed, err := io.ReadAll(r)
		if err != nil {
			t.Fatalf("reader: %v", err)
		}
		if r.Encoding() == enc && !bytes.Equal(streamed, got) {
			t.Fatalf("reader %q, bytes %q", streamed, got)
		}
	})
}
