package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/arbiterd/arbiterd/internal/device/serialport"
)

func TestPrintPorts(t *testing.T) {
	ports := []serialport.Info{
		{Path: "/dev/ttyS0"},
		{Path: "/dev/ttyUSB0", USB: true, VID: "0403", PID: "6001", SerialNumber: "A9XYZ", Likely: serialport.Likely("0403", "6001", "")},
	}
	var table bytes.Buffer
	if err := printPorts(&table, ports, portsOptions{}); err != nil {
		t.Fatal(err)
	}
	out := table.String()
	for _, want := range []string{"PORT", "/dev/ttyS0", "/dev/ttyUSB0", "0403:6001", "A9XYZ", "DGT board?"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}

	var js bytes.Buffer
	if err := printPorts(&js, ports, portsOptions{json: true}); err != nil {
		t.Fatal(err)
	}
	var back []serialport.Info
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || len(back) != 2 || back[1].VID != "0403" || back[1].Likely == "" {
		t.Fatalf("JSON %s: %v", js.String(), err)
	}
}

func TestPrintNoPorts(t *testing.T) {
	var table, js bytes.Buffer
	printPorts(&table, nil, portsOptions{})
	if !strings.Contains(table.String(), "no serial ports") {
		t.Errorf("no-port note: %q", table.String())
	}
	printPorts(&js, nil, portsOptions{json: true})
	if strings.TrimSpace(js.String()) != "[]" {
		t.Errorf("no ports as JSON: %q", js.String())
	}
}

func TestLikely(t *testing.T) {
	for _, tt := range []struct {
		vid, pid, product string
		likely            bool
	}{
		{"0403", "6001", "", true},
		{"0403", "6001", "FT232R USB UART", true},
		{"1a86", "7523", "USB Serial", false},
		{"2341", "0043", "DGT e-Board", true},
		{"", "", "", false},
	} {
		if got := serialport.Likely(tt.vid, tt.pid, tt.product) != ""; got != tt.likely {
			t.Errorf("Likely(%s, %s, %q) = %v", tt.vid, tt.pid, tt.product, got)
		}
	}
}

func TestPortsCommandRuns(t *testing.T) {
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"ports", "--json"})
	if err := root.Execute(); err != nil {
		t.Fatalf("ports --json: %v", err)
	}
	var list []serialport.Info
	if err := json.Unmarshal(out.Bytes(), &list); err != nil {
		t.Fatalf("ports --json printed %q: %v", out.String(), err)
	}
}

// A macOS build without cgo lists ports by name only: the table is
// printed, a port named DGT still marked, and a note says why the USB
// columns are empty.
func TestPortsWithoutDetails(t *testing.T) {
	list := func() ([]serialport.Info, error) {
		return []serialport.Info{
			{Path: "/dev/cu.DGT_BT_22A7-SPPDev", Likely: serialport.LikelyByName("/dev/cu.DGT_BT_22A7-SPPDev")},
			{Path: "/dev/cu.usbserial-A9XYZ"},
		}, fmt.Errorf("serialport: %w", serialport.ErrNoDetails)
	}
	var out, errOut bytes.Buffer
	if err := runPorts(&out, &errOut, list, portsOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "/dev/cu.usbserial-A9XYZ") || !strings.Contains(out.String(), "DGT board?") {
		t.Errorf("table:\n%s", out.String())
	}
	if note := errOut.String(); !strings.Contains(note, "not available") || !strings.Contains(note, "cgo") || strings.Contains(note, "warning") {
		t.Errorf("note: %q", note)
	}
	// Listing failed altogether: an error, no table.
	failing := func() ([]serialport.Info, error) { return nil, errors.New("no access") }
	if err := runPorts(&out, &errOut, failing, portsOptions{}); err == nil {
		t.Error("a failed listing gave no error")
	}
}

func TestPortsHint(t *testing.T) {
	for goos, want := range map[string]string{"windows": "COM3", "darwin": "/dev/cu.", "linux": "/dev/ttyUSB"} {
		if got := portsHint(goos); !strings.Contains(got, want) {
			t.Errorf("portsHint(%s) = %q, want %q in it", goos, got, want)
		}
	}
}
