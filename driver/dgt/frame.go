package dgt

// HeaderLen is the length of a message header: id, length high, length low.
const HeaderLen = 3

// MaxFrameLen bounds a message: the largest total length the two 7-bit
// length bytes can express. Only the EEPROM move log comes near it; a
// header claiming more than the bytes that follow before the next header
// is cut short there (see Split).
const MaxFrameLen = 1<<14 - 1

// fixedDataLen is the number of data bytes of each fixed-size message, by
// id; 0 for the messages whose length varies.
var fixedDataLen = [256]byte{
	MsgBoardDump:   64,
	MsgBWTime:      7,
	MsgFieldUpdate: 2,
	MsgBusAddress:  2,
	MsgSerialNr:    5,
	MsgVersion:     2,
	MsgLongSerial:  10,
}

// frameLen gives the only valid total length of the fixed-size messages.
func frameLen(id byte) (n int, fixed bool) {
	if d := fixedDataLen[id]; d != 0 {
		return HeaderLen + int(d), true
	}
	return 0, false
}

// scanResult says what the start of a byte stream holds.
type scanResult int

const (
	scanMore    scanResult = iota // not enough bytes to decide
	scanFrame                     // data[:n] is a well-formed frame
	scanGarbage                   // data[:n] are bytes outside any frame (bit 7 clear)
	scanBroken                    // data[:n] is a broken frame start; resume after it
)

// scan looks at the start of data and says what is there. Its answer for a
// prefix never changes when more bytes are appended (except scanMore), which
// is what makes incremental decoding independent of read boundaries.
func scan(data []byte, atEOF bool) (scanResult, int) {
	if len(data) == 0 {
		return scanMore, 0
	}
	if data[0]&0x80 == 0 {
		n, _ := nextHigh(data, 1, len(data))
		return scanGarbage, n
	}
	// A header: the two length bytes must have bit 7 clear.
	if i, found := nextHigh(data, 1, min(HeaderLen, len(data))); found {
		return scanBroken, i
	}
	if len(data) < HeaderLen {
		return cutShort(data, atEOF)
	}
	size := int(data[1])<<7 | int(data[2])
	if want, fixed := frameLen(data[0]); (fixed && size != want) || size < HeaderLen {
		return scanBroken, 1
	}
	// Data bytes must have bit 7 clear; a set bit 7 starts the next message,
	// which means this one was cut short.
	if i, found := nextHigh(data, HeaderLen, min(size, len(data))); found {
		return scanBroken, i
	}
	if len(data) < size {
		return cutShort(data, atEOF)
	}
	return scanFrame, size
}

// nextHigh finds the first byte of data[from:to] with bit 7 set (a message
// id); it is to, not found, when there is none.
func nextHigh(data []byte, from, to int) (i int, found bool) {
	for i = from; i < to; i++ {
		if data[i]&0x80 != 0 {
			return i, true
		}
	}
	return to, false
}

// cutShort is scan's answer for a frame whose bytes have not all arrived:
// broken at the end of the input, else wait for more.
func cutShort(data []byte, atEOF bool) (scanResult, int) {
	if atEOF {
		return scanBroken, len(data)
	}
	return scanMore, 0
}

// Split is a bufio.SplitFunc that returns one well-formed DGT frame (header
// included) per token. Bytes outside frames and broken frames (bad header,
// a length that does not fit the id, a frame cut short by the next header)
// are skipped silently; use Decoder to count them. Split never returns an
// error, and its tokens do not depend on how the input was chunked.
func Split(data []byte, atEOF bool) (advance int, token []byte, err error) {
	for advance < len(data) {
		res, n := scan(data[advance:], atEOF)
		switch res {
		case scanMore:
			return advance, nil, nil
		case scanFrame:
			return advance + n, data[advance : advance+n], nil
		default:
			advance += n
		}
	}
	return advance, nil, nil
}
