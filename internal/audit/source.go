package audit

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/textin"
)

// Magic numbers of compressed data.
var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicZstd  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicBzip2 = []byte("BZh")
	magicXz    = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
	magicZip   = []byte("PK\x03\x04")
	magic7z    = []byte{'7', 'z', 0xbc, 0xaf, 0x27, 0x1c}
	magicLz4   = []byte{0x04, 0x22, 0x4d, 0x18}
)

// Decompress returns a reader of the PGN text in r: plain, gzip or
// zstandard, recognised by the data itself (a name ending in .gz or .zst
// that holds something else is an error). Other compressions are errors
// that name them. close releases the decompressor.
func Decompress(r io.Reader, name string) (pgn io.Reader, close func(), err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(6)
	ext := strings.ToLower(filepath.Ext(name))
	switch {
	case bytes.HasPrefix(head, magicGzip):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		return zr, func() { zr.Close() }, nil
	case bytes.HasPrefix(head, magicZstd):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(1<<30), zstd.WithDecoderLowmem(true))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: zstd: %w", name, err)
		}
		return zr, zr.Close, nil
	case bytes.HasPrefix(head, magicBzip2):
		return nil, nil, i18n.Errorf("audit.err.bzip2", name)
	case bytes.HasPrefix(head, magicXz):
		return nil, nil, i18n.Errorf("audit.err.xz", name)
	case bytes.HasPrefix(head, magicZip):
		return nil, nil, i18n.Errorf("audit.err.zip", name)
	case bytes.HasPrefix(head, magic7z):
		return nil, nil, i18n.Errorf("audit.err.7z", name)
	case bytes.HasPrefix(head, magicLz4):
		return nil, nil, i18n.Errorf("audit.err.lz4", name)
	case ext == ".gz" || ext == ".zst" || ext == ".zstd":
		return nil, nil, i18n.Errorf("audit.err.misnamed", name, ext, map[string]string{".gz": "gzip", ".zst": "zstd", ".zstd": "zstd"}[ext])
	case ext == ".bz2" || ext == ".xz" || ext == ".zip" || ext == ".7z" || ext == ".lz4" || ext == ".br":
		return nil, nil, i18n.Errorf("audit.err.compression", name, ext)
	}
	return br, func() {}, nil
}

// IsPGNName reports whether a file found in a directory is audited: .pgn,
// optionally compressed (.pgn.gz, .pgn.zst).
func IsPGNName(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{".gz", ".zst", ".zstd"} {
		n = strings.TrimSuffix(n, s)
	}
	return strings.HasSuffix(n, ".pgn")
}

// Expand turns the arguments into the files to read: a directory stands
// for the PGN files under it (IsPGNName), in lexical order; "-" is
// standard input.
func Expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			out = append(out, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsPGNName(d.Name()) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, i18n.Errorf("audit.err.no-pgn", a)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// Sink receives the audit's output: each game's report, and the errors
// met on the way (which do not stop the audit).
type Sink interface {
	Report(*Report) error
	Error(error)
}

// Stats counts what an audit read.
type Stats struct {
	Files, Games, Errors int
	Findings             map[string]int
}

// Run audits every game of the files (see Expand) and gives each report
// to the sink, in the order read. A problem in a file is given to the
// sink's Error and the audit goes on (with the rest of the file when the
// reader can resynchronise, else with the next file). Run returns the
// sink's first Report error, which stops it.
func (a *Auditor) Run(files []string, stdin io.Reader, sink Sink) (Stats, error) {
	st := Stats{Findings: map[string]int{}}
	for _, name := range files {
		st.Files++
		var r io.Reader
		var closeFile func()
		if name == "-" {
			r, name, closeFile = stdin, "stdin", func() {}
		} else {
			f, err := os.Open(name)
			if err != nil {
				st.Errors++
				sink.Error(err)
				continue
			}
			r, closeFile = f, func() { f.Close() }
		}
		err := a.runOne(r, name, sink, &st)
		closeFile()
		if err != nil {
			return st, err
		}
	}
	return st, nil
}

func (a *Auditor) runOne(r io.Reader, name string, sink Sink, st *Stats) error {
	pgn, closeZ, err := Decompress(r, name)
	if err != nil {
		st.Errors++
		sink.Error(err)
		return nil
	}
	defer closeZ()
	// Text as Windows programs save it (a byte-order mark, UTF-16,
	// Windows-1252) is read as UTF-8.
	rd := NewReader(textin.NewReader(pgn), name)
	b := &batch{a: a, sink: sink, st: st}
	for {
		g, err := rd.Next()
		if err == io.EOF {
			return b.flush()
		}
		if err != nil {
			st.Errors++
			var pe *ParseError
			if !errors.As(err, &pe) {
				sink.Error(i18n.Errorf("audit.err.stopped", name, rd.line, err))
				return b.flush()
			}
			sink.Error(err)
		}
		if g == nil {
			continue
		}
		if err := b.add(g); err != nil {
			return err
		}
	}
}
