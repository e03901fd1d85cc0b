package scaleout

import (
	"math"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// hallMetrics are the hall's Prometheus metrics (/metrics), on the hall's
// own registry (nothing is registered globally).
type hallMetrics struct {
	reg    *prometheus.Registry
	delay  prometheus.Histogram
	alerts *prometheus.CounterVec
}

var (
	descUp = prometheus.NewDesc("arbiterd_hall_venue_up",
		"1 while the hall hears the venue's heartbeat, else 0 (cut off, or not heard yet).", []string{"venue"}, nil)
	descHeard = prometheus.NewDesc("arbiterd_hall_venue_last_heard_seconds",
		"Seconds since the venue's last heartbeat (since the hall started when it was never heard).", []string{"venue"}, nil)
	descBehind = prometheus.NewDesc("arbiterd_hall_venue_events_behind",
		"Events the venue's stream holds that the hall has not written, as of its last heartbeat; NaN while the venue is not heard (unknown).",
		[]string{"venue"}, nil)
	descEvents = prometheus.NewDesc("arbiterd_hall_events_total",
		"Events of the venue's boards written to the hall's files and shown, since the hall started.", []string{"venue"}, nil)
	descCapture = prometheus.NewDesc("arbiterd_hall_capture_bytes_total",
		"Capture bytes of the venue's boards written to the hall's files, since the hall started.", []string{"venue"}, nil)
	descBoards = prometheus.NewDesc("arbiterd_hall_boards",
		"Boards the hall shows, by the venue that plays them.", []string{"venue"}, nil)
	descOpen = prometheus.NewDesc("arbiterd_hall_alerts_open",
		"Alerts the hall raised (its own, the venues', the boards') not acknowledged yet.", nil, nil)
)

func newHallMetrics(h *Hall) *hallMetrics {
	m := &hallMetrics{
		reg: prometheus.NewRegistry(),
		delay: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "arbiterd_hall_event_delay_seconds",
			Help:    "From the venue handing an event to NATS to the hall having written it and shown it (the venue's and the hall's clocks).",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2, 5, 10, 30, 60}}),
		alerts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "arbiterd_hall_alerts_total",
			Help: "Alerts the hall raised since it started, by kind."}, []string{"kind"}),
	}
	m.reg.MustRegister(m.delay, m.alerts, hallCollector{h},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// hallCollector reads the venues' states when /metrics is read.
type hallCollector struct{ h *Hall }

func (c hallCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descUp, descHeard, descBehind, descEvents, descCapture, descBoards, descOpen} {
		ch <- d
	}
}

func (c hallCollector) Collect(ch chan<- prometheus.Metric) {
	h := c.h
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.o.Now()
	boards := map[string]int{}
	for _, v := range h.owners {
		boards[v]++
	}
	for _, r := range h.o.Venues {
		vs := h.venues[r.Name]
		state, _ := h.stateLocked(vs)
		up, behind := 0.0, math.NaN()
		if state == "connected" {
			up, behind = 1, float64(h.behindLocked(vs))
		}
		heard := vs.lastHB
		if heard.IsZero() {
			heard = h.started
		}
		silent := 0.0
		if !heard.IsZero() {
			silent = now.Sub(heard).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(descUp, prometheus.GaugeValue, up, r.Name)
		ch <- prometheus.MustNewConstMetric(descHeard, prometheus.GaugeValue, silent, r.Name)
		ch <- prometheus.MustNewConstMetric(descBehind, prometheus.GaugeValue, behind, r.Name)
		ch <- prometheus.MustNewConstMetric(descEvents, prometheus.CounterValue, float64(vs.events), r.Name)
		ch <- prometheus.MustNewConstMetric(descCapture, prometheus.CounterValue, float64(vs.capBytes), r.Name)
		ch <- prometheus.MustNewConstMetric(descBoards, prometheus.GaugeValue, float64(boards[r.Name]), r.Name)
	}
	open := 0
	for _, a := range h.stored {
		if !a.Acked {
			open++
		}
	}
	ch <- prometheus.MustNewConstMetric(descOpen, prometheus.GaugeValue, float64(open))
}

// MetricsHandler serves the hall's metrics (Prometheus text format).
func (h *Hall) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(h.m.reg, promhttp.HandlerOpts{})
}
