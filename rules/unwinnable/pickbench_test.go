package unwinnable

import (
	"testing"

	bb "github.com/arbiterd/arbiterd/rules/bitboard"
)

// pickNode is a position on a first look's mate line, with its query.
type pickNode struct {
	query int
	pos   bb.Position
}

// firstLookNodes returns the positions of the mate lines quick mode's
// first look finds on every fourth position of lichess-65k (both sides),
// each before its move, and the queries they belong to.
func firstLookNodes(b *testing.B) ([]benchQuery, []pickNode) {
	var qs []benchQuery
	var nodes []pickNode
	var s searcher
	s.byClass = &quickWeights
	for i, q := range readLabelled(b, "lichess-65k.txt") {
		if i%4 != 0 {
			continue
		}
		pos, err := bb.ParseFEN(q.fen)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range [2]bb.Color{bb.White, bb.Black} {
			if insufficient(&pos, side) != "" {
				continue
			}
			s.reset(&pos, side)
			s.plainRepairs = quickRepairs
			s.limit, s.abort = firstLook, false
			found, n := s.plainFind(0, plainDepth, 0)
			if !found {
				continue
			}
			qs = append(qs, benchQuery{pos, side})
			p := pos
			for _, m := range s.path[:n] {
				nodes = append(nodes, pickNode{len(qs) - 1, p})
				p.Make(m)
			}
		}
	}
	return qs, nodes
}

// benchPicks times pickPlain alone at the nodes of firstLookNodes where
// the winner (winner true) or the loser is to move, as plainFind calls
// it, and reports the time a pick, the picks a pass and the queries.
func benchPicks(b *testing.B, winner bool) {
	qs, nodes := firstLookNodes(b)
	var s searcher
	var ml bb.MoveList
	picks := 0
	for b.Loop() {
		last := -1
		for i := range nodes {
			nd := &nodes[i]
			if nd.query != last {
				// What the picks read of the query: its winner, its
				// weights and the corners the loser's king is driven
				// to.
				s.pos, s.winner = qs[nd.query].pos, qs[nd.query].side
				s.w = quickWeights[weightClassOf(&s.pos, s.winner)]
				s.setCorners()
				last = nd.query
			}
			if (nd.pos.Side() == s.winner) != winner {
				continue
			}
			s.pos = nd.pos
			lk := s.pos.KingSquare(s.winner.Other())
			var cip *bb.CheckInfo
			if winner {
				ci := s.pos.CheckInfo()
				cip = &ci
			}
			s.pickPlain(lk, cip, true, &ml)
			picks++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(picks), "ns/pick")
	b.ReportMetric(float64(picks)/float64(b.N), "picks")
	b.ReportMetric(float64(len(qs)), "queries")
	b.ReportMetric(0, "ns/op")
}

// The plain picks of the winner's and of the loser's nodes, on their own
// (with, for the winner, the node's CheckInfo, which plainFind computes
// for it).
func BenchmarkPicksWinner(b *testing.B) { benchPicks(b, true) }
func BenchmarkPicksLoser(b *testing.B)  { benchPicks(b, false) }
