package audit

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// htmlReport writes the report of the synthetic games and returns its
// text and the reports.
func htmlReport(t *testing.T) (string, []*Report) {
	t.Helper()
	a := New(Options{})
	var b strings.Builder
	s := NewHTMLSink(&b, "Synthetic <games>", nil, func(err error) { t.Error(err) })
	var reps []*Report
	for _, sy := range synthGames(t) {
		for _, g := range readAll(t, sy.pgn(t)) {
			r := a.Game(g)
			reps = append(reps, r)
			if err := s.Report(r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String(), reps
}

func TestHTMLSelfContained(t *testing.T) {
	page, reps := htmlReport(t)
	if n := strings.Count(page, "<svg class=\"chart\""); n != len(reps) {
		t.Errorf("%d charts for %d games", n, len(reps))
	}
	for _, banned := range []string{"<script", "http://", "https://", "<link", "@import", "url("} {
		if strings.Contains(page, banned) {
			t.Errorf("the report contains %q: it must need nothing outside itself", banned)
		}
	}
	if !strings.Contains(page, "Synthetic &lt;games&gt;") {
		t.Error("the title is not escaped")
	}
	if !strings.Contains(page, "flag-before-control") || !strings.Contains(page, `class="period black"`) {
		t.Error("findings or period marks missing")
	}
}

// The browser tests run the report in a real headless Chromium (Debian's
// "chromium"; CI installs it). ARBITERD_CHROMIUM names another binary.
func chromiumPath() string {
	if p := os.Getenv("ARBITERD_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestHTMLInBrowser opens the report in headless Chromium: every game
// has a chart whose clock lines are drawn inside it, the control and the
// period additions are marked, and the page loads nothing from outside.
func TestHTMLInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("a real browser (about a minute on two cores): not in -short")
	}
	path := chromiumPath()
	if path == "" {
		t.Skip("no chromium binary found (apt-get install -y chromium, or set ARBITERD_CHROMIUM)")
	}
	page, reps := htmlReport(t)
	file := filepath.Join(t.TempDir(), "audit.html")
	if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(path), chromedp.Flag("headless", true), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900))
	defer acancel()
	tab, tcancel := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	defer tcancel()
	type counts struct {
		Charts, Lines, Drawn, Controls, Periods, Marks, External int
		Width                                                    float64
	}
	if err := chromedp.Do(tab, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	got, err := chromedp.Run(tab, chromedp.Evaluate[counts](`(() => {
			const charts = [...document.querySelectorAll('svg.chart')];
			const lines = [...document.querySelectorAll('svg.chart polyline')];
			const inside = l => { const b = l.getBoundingClientRect(), s = l.ownerSVGElement.getBoundingClientRect();
				return b.width > 0 && b.height >= 0 && b.left >= s.left - 1 && b.right <= s.right + 1 && b.top >= s.top - 1 && b.bottom <= s.bottom + 1; };
			return {
				Charts: charts.length,
				Lines: lines.length,
				Drawn: lines.filter(inside).length,
				Controls: document.querySelectorAll('svg.chart line.control').length,
				Periods: document.querySelectorAll('svg.chart circle.period').length,
				Marks: document.querySelectorAll('svg.chart path.finding-mark').length,
				External: performance.getEntriesByType('resource').length,
				Width: charts.length ? charts[0].getBoundingClientRect().width : 0,
			};
		})()`))
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	periods, findings, controls := 0, 0, 0
	for _, r := range reps {
		periods += len(r.Periods)
		for _, f := range r.Findings {
			if f.Move > 0 {
				findings++
			}
		}
		if r.Control > 0 {
			controls++
		}
	}
	if got.Charts != len(reps) || got.Lines != 2*len(reps) || got.Drawn != got.Lines {
		t.Errorf("charts %d, clock lines %d (%d drawn inside their chart); want %d charts, two lines each", got.Charts, got.Lines, got.Drawn, len(reps))
	}
	if got.Controls != controls || got.Periods != periods || got.Marks != findings {
		t.Errorf("marks: %d controls, %d periods, %d findings; want %d, %d, %d", got.Controls, got.Periods, got.Marks, controls, periods, findings)
	}
	if got.External != 0 {
		t.Errorf("the page loaded %d resources; it must load none", got.External)
	}
	if got.Width < 300 {
		t.Errorf("chart width %.0f px", got.Width)
	}
}
