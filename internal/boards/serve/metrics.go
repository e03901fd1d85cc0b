package serve

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the daemon's Prometheus metrics, on the daemon's own
// registry (nothing is registered globally).
type metrics struct {
	reg          *prometheus.Registry
	boards       prometheus.Gauge
	connected    *prometheus.GaugeVec
	events       *prometheus.CounterVec
	anomalies    *prometheus.CounterVec
	decodeErrors *prometheus.CounterVec
	latency      prometheus.Histogram
	journalErrs  *prometheus.CounterVec
	fileErrs     *prometheus.CounterVec
	reconnects   *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		boards: prometheus.NewGauge(prometheus.GaugeOpts{Name: "arbiterd_boards",
			Help: "Boards the daemon serves."}),
		connected: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "arbiterd_board_connected",
			Help: "1 while the board's line is up and the board answers, else 0; sum it for the boards connected."}, []string{"board"}),
		events: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiterd_events_total",
			Help: "Events of the boards' event streams, by type."}, []string{"type"}),
		anomalies: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiterd_anomalies_total",
			Help: "Anomaly events, by kind."}, []string{"kind"}),
		decodeErrors: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiterd_decode_errors_total",
			Help: "Broken or unknown frames the boards (and their separate clocks) sent, skipped by the decoders."}, []string{"board"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "arbiterd_press_complete_latency_seconds",
			Help:    "Real time from recording the bytes whose reading completed a move by a press to the complete event being published, journal sync included (the reconciler's wait for the press to be confirmed is in capture time, not here).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}}),
		journalErrs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiterd_journal_errors_total",
			Help: "Capture writes that failed (e.g. a full disk); the game goes on in memory."}, []string{"board"}),
		fileErrs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiterd_file_errors_total",
			Help: "Spells of a board's events file or PGN failing to be written (another program holding it open, most often on Windows); they are written once they can be."}, []string{"board"}),
		reconnects: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiterd_board_reopens_total",
			Help: "Times a board's port was reopened after its line failed."}, []string{"board"}),
	}
	m.reg.MustRegister(m.boards, m.connected, m.events, m.anomalies, m.decodeErrors, m.latency, m.journalErrs, m.fileErrs, m.reconnects,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}
