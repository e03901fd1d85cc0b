package dgtmodel_test

import (
	"github.com/arbiterd/arbiterd/internal/i18n"
	"github.com/arbiterd/arbiterd/internal/i18n/evtext"
	"github.com/arbiterd/arbiterd/rules/reconcile"
)

// checkTexts checks every sentence of the stream against its text: each
// anomaly, flag, adjust, pause, claim and decision carries one, and its
// English, rendered through the catalogs, is the detail or the reason
// byte for byte.
func checkTexts(o *outcome) {
	for _, e := range o.events {
		switch e.Type {
		case reconcile.TypeAnomaly, reconcile.TypeFlag, reconcile.TypeAdjust, reconcile.TypePause,
			reconcile.TypeClaim, reconcile.TypeDecision:
		default:
			continue
		}
		want := string(e.Reason)
		if e.Type == reconcile.TypeAnomaly {
			want = e.Detail
		}
		switch got := evtext.Render(i18n.English, e.Text); {
		case e.Text.IsZero():
			o.fail("text", "seq %d: %s without a text", e.Seq, e.Type)
		case got != want:
			o.fail("text", "seq %d: the text's English %q is not the sentence %q", e.Seq, got, want)
		}
	}
}
