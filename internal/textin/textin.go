// Package textin reads the text files people give arbiterd — PGN files,
// lists of FENs, configurations — as whatever program wrote them, and
// hands them on as UTF-8:
//
//   - UTF-8, with or without a byte-order mark (Notepad writes one); the
//     mark is dropped.
//   - UTF-16, little- or big-endian, with its byte-order mark (Windows
//     PowerShell 5.1's > and Out-File, Notepad's "Unicode"), or without one
//     when the text starts with an ASCII character (every PGN, FEN and
//     configuration does), which then shows as a zero byte beside it.
//   - Windows-1252 (the Western European code page of older Windows
//     programs, in which many PGN files with accented names were saved),
//     when the text is not valid UTF-8.
//
// The decoding is golang.org/x/text's. Bytes decodes a whole file, so
// "not valid UTF-8" is decided on all of it; Reader decides it on the
// first 64 KiB (PeekSize) and, past them, reads any byte that is not part
// of valid UTF-8 as Windows-1252, so that a stream too large to hold is
// still read in one pass.
package textin

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Encoding is the encoding a text was found in.
type Encoding int

// The encodings read.
const (
	UTF8 Encoding = iota
	UTF8BOM
	UTF16LE
	UTF16BE
	Windows1252
)

func (e Encoding) String() string {
	switch e {
	case UTF8BOM:
		return "UTF-8 with a byte-order mark"
	case UTF16LE:
		return "UTF-16 little-endian"
	case UTF16BE:
		return "UTF-16 big-endian"
	case Windows1252:
		return "Windows-1252"
	}
	return "UTF-8"
}

// PeekSize is how much of a stream Reader looks at to tell its encoding.
const PeekSize = 64 << 10

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// detect tells the encoding of a text from its start (all of it when
// whole).
func detect(head []byte, whole bool) Encoding {
	switch {
	case bytes.HasPrefix(head, bomUTF8):
		return UTF8BOM
	case bytes.HasPrefix(head, bomUTF16LE):
		return UTF16LE
	case bytes.HasPrefix(head, bomUTF16BE):
		return UTF16BE
	case len(head) >= 2 && head[0] != 0 && head[0] < 0x80 && head[1] == 0:
		return UTF16LE // "[\x00E\x00…": ASCII in UTF-16 without a mark
	case len(head) >= 2 && head[0] == 0 && head[1] != 0 && head[1] < 0x80:
		return UTF16BE
	}
	if !whole && len(head) > 0 {
		// A rune cut at the end of what was looked at is no fault.
		if i := lastRuneStart(head); !utf8.FullRune(head[i:]) {
			head = head[:i]
		}
	}
	if utf8.Valid(head) {
		return UTF8
	}
	return Windows1252
}

// lastRuneStart is the index of the start of head's last (maybe partial)
// rune.
func lastRuneStart(head []byte) int {
	for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
		if utf8.RuneStart(head[i]) {
			return i
		}
	}
	return max(len(head)-1, 0)
}

// decoder is the transformer of an encoding (nil: none is needed).
func decoder(e Encoding) transform.Transformer {
	switch e {
	case UTF8BOM:
		return unicode.UTF8BOM.NewDecoder()
	case UTF16LE:
		return unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
	case UTF16BE:
		return unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewDecoder()
	case Windows1252:
		return charmap.Windows1252.NewDecoder()
	}
	return nil
}

// Bytes returns data as UTF-8, and the encoding it was in.
func Bytes(data []byte) ([]byte, Encoding, error) {
	enc := detect(data, true)
	t := decoder(enc)
	if t == nil {
		return data, enc, nil
	}
	out, _, err := transform.Bytes(t, data)
	if err != nil {
		return nil, enc, decodeError(enc, err)
	}
	return out, enc, nil
}

// String is Bytes for text wanted as a string; it drops the encoding.
func String(data []byte) (string, error) {
	b, _, err := Bytes(data)
	return string(b), err
}

// Reader reads a text as UTF-8.
type Reader struct {
	r   io.Reader
	enc Encoding
}

// NewReader returns a Reader of r's text. It reads up to PeekSize bytes
// of r to tell the encoding; an error doing so is returned by the first
// Read.
func NewReader(r io.Reader) *Reader {
	br := bufio.NewReaderSize(r, PeekSize)
	head, err := br.Peek(PeekSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return &Reader{r: &errReader{head: head, err: err}}
	}
	enc := detect(head, errors.Is(err, io.EOF))
	var in io.Reader = br
	switch t := decoder(enc); {
	case enc == UTF8:
		// Valid so far: a stray byte further on is read as Windows-1252.
		in = transform.NewReader(br, lenient{})
	case t != nil:
		in = transform.NewReader(br, t)
	}
	return &Reader{r: in, enc: enc}
}

// Encoding is the encoding the text was found in.
func (r *Reader) Encoding() Encoding { return r.enc }

func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		var de *DecodeError
		if !errors.As(err, &de) && isDecodeFailure(err) {
			err = decodeError(r.enc, err)
		}
	}
	return n, err
}

// errReader gives what was read, then the error that stopped it.
type errReader struct {
	head []byte
	err  error
}

func (e *errReader) Read(p []byte) (int, error) {
	if len(e.head) > 0 {
		n := copy(p, e.head)
		e.head = e.head[n:]
		return n, nil
	}
	return 0, e.err
}

// DecodeError is a text that does not decode in the encoding it was
// found in (an odd number of bytes of UTF-16).
type DecodeError struct {
	Encoding Encoding
	Err      error
}

func (e *DecodeError) Error() string {
	return "the text reads as " + e.Encoding.String() + " but does not decode as such: " + e.Err.Error()
}

func (e *DecodeError) Unwrap() error { return e.Err }

func decodeError(enc Encoding, err error) error { return &DecodeError{Encoding: enc, Err: err} }

func isDecodeFailure(err error) bool {
	return errors.Is(err, transform.ErrShortSrc) || errors.Is(err, encoding.ErrInvalidUTF8)
}

// lenient passes valid UTF-8 through and reads each byte that is not part
// of valid UTF-8 as Windows-1252.
type lenient struct{ transform.NopResetter }

func (lenient) Transform(dst, src []byte, atEOF bool) (nDst, nSrc int, err error) {
	for nSrc < len(src) {
		// Valid UTF-8 is copied a run at a time, cut at a rune boundary
		// when dst is short.
		if run := validPrefix(src[nSrc:]); run > 0 {
			if avail := len(dst) - nDst; run > avail {
				run = avail
				for run > 0 && !utf8.RuneStart(src[nSrc+run]) {
					run--
				}
				if run == 0 {
					return nDst, nSrc, transform.ErrShortDst
				}
			}
			nDst += copy(dst[nDst:], src[nSrc:nSrc+run])
			nSrc += run
			continue
		}
		// src[nSrc] starts no valid rune: a rune cut at the end of src,
		// or a byte of Windows-1252.
		if !atEOF && !utf8.FullRune(src[nSrc:]) {
			return nDst, nSrc, transform.ErrShortSrc // the rest of the rune may follow
		}
		r := charmap.Windows1252.DecodeByte(src[nSrc])
		if nDst+utf8.RuneLen(r) > len(dst) {
			return nDst, nSrc, transform.ErrShortDst
		}
		nDst += utf8.EncodeRune(dst[nDst:], r)
		nSrc++
	}
	return nDst, nSrc, nil
}

// validPrefix is the length of b's longest prefix of whole valid runes.
func validPrefix(b []byte) int {
	if utf8.Valid(b) {
		return len(b)
	}
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return i
}
