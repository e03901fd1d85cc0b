// Package unwinnable answers the question of FIDE Article 6.9 (and 5.2.2,
// 7.5.5): can this side still checkmate its opponent by any series of
// legal moves? When a player's flag falls the opponent wins — unless the
// opponent cannot mate even with the flagging player's cooperation, in
// which case the game is drawn. The same question, asked for both sides,
// decides a dead position (5.2.2).
//
// The answer is a helpmate question, not a material count: a lone knight
// can mate a king and rook, but never a king and queen; a locked pawn wall
// can make a board full of pieces dead; a forced capture can leave a bare
// king. CanMate follows the approach of M. Ambrona, "A Practical
// Algorithm for Chess Unwinnability" (FUN 2022), in its own
// implementation:
//
//  1. material rules that are proofs (a lone king never mates; a lone
//     minor piece never mates a bare king; bishops on one colour never
//     mate a king whose own men all stand on that colour; a knight never
//     mates a king whose men are all queens, one of which can always take
//     it; bishops on one colour never mate a king whose men are rooks,
//     queens and bishops of that colour: without pawns two bishops never
//     give double check, and against a single check a rook or queen on
//     one of the two squares that must be blocked takes or blocks);
//  2. a semi-static proof for locked pawn structures: pawns that can never
//     move again (blocked by pawns that can never move) and pawns that can
//     only walk into that wall fix the structure, provided no capture can
//     ever change it; the squares every king and piece can ever reach are
//     then computed by flood fill, and if no man of the mating side can
//     ever attack a square the other king can reach, mate is impossible;
//     nor is it when, wherever the king could be checked, its neighbours
//     that the mating side can never attack nor occupy outnumber the
//     king's own men that could stand on them (a matching decides);
//  3. a confinement proof (confine.go) that classifies every man: fixed
//     (never moves nor is taken: pawns blocked by fixed men, kings whose
//     neighbours are their own fixed men or attacked for good, pieces
//     whose every first square holds their own fixed men), bounded (a
//     pawn walking its file towards an opposing bounded pawn it can never
//     pass, never capturing nor taken), stuck (never moves but may be
//     taken, also a piece jammed in a group of its own pieces and king
//     that can only move onto each other's squares) or free (its squares
//     found by flood fill around the fixed men; free pawns push, capture
//     onto squares enemy men can reach, and promote into any piece). The
//     classes are the greatest consistent ones, by iteration; a king
//     taking a fixed man only when that stalemates its owner, who has no
//     other man to move, is no threat to them. Pieces of one type that
//     share a region no other man can ever enter (closed by fixed men)
//     never leave it nor are taken: a square they attack in every
//     arrangement of their number on its squares is attacked for good.
//     Mate then needs a check on a square the other king can reach, with
//     every neighbour attacked or filled by a distinct man able to stand
//     there (a matching), the mating king covering only the neighbours
//     next to one square it can reach, never next to the other king; and
//     when the mated side can only ever move its king, its last move came
//     from a neighbour the mate must cover, which only a moving mating
//     king could do with a discovered check. Moves after which the side
//     can never mate are left out (confine_end.go): a move of the other
//     side that mates the side's walled-in king (so a piece whose every
//     move does never moves), a capture of the side's only man (a bare
//     king remains), and that man's capture of a wall man next to the
//     other king with a check every reply to which takes it back. A king
//     in check from the side's fixed men steps away for good: it is never
//     mated where it stands;
//  4. a probe for the shortest helpmates (the mating side moves at most
//     twice), most flag-fall positions having one: the discrepancy search
//     below, capped at three or four plies, once with its plain score and
//     once aimed at a mate where the other king stands, on 120 nodes
//     (skipped when only the verdict is wanted: quick mode without a line
//     budget);
//  5. a heuristic helpmate search, a limited discrepancy search: it
//     follows the best move of a mate-seeking score (full mode's weights:
//     the other king to a corner and hemmed in by its own men, the mating
//     side's men close, promotions; when only bishops of one colour can
//     ever check it, because the mating side has no other piece and its
//     pawns are locked where its king cannot free them, the corners of
//     their colour; quick mode's, one set for each class of the mating
//     side's material, by its strongest piece: against a queen the other
//     king walks out towards the mating side's pieces, otherwise it is
//     kept among its own men and away from the mating side's king and
//     pieces, which follow it to an edge; the mating side's captures and
//     pawn pushes first) and
//     allows a few deviations along a line, probing every
//     check of the mating side for mate in one; a line it finds is
//     returned as proof. Quick mode, whose weights follow shorter lines on
//     most positions, spends the second half of this search's share with
//     full mode's weights, which find mates quick mode's miss (a lone
//     minor piece against men that must box their own king in), unless
//     the first half searched every allowance to the end;
//  6. a full-width iterative-deepening helpmate search with forced-move
//     extensions and a transposition table, which also proves a position
//     dead when every line ends (mate of the other side, stalemate, or
//     material that cannot mate) before the depth runs out;
//  7. a goal-directed helpmate search: the squares the
//     other king can reach are ranked as targets (few flight squares, a
//     short walk, a colour the mating side can check on: bishops of one
//     colour mate only on it), and for each of the best dozen the
//     discrepancy search follows a score built on distances computed
//     around the actual pawns: the king walks to the target by the
//     shortest route its pawns and the enemy's pawn attacks allow, its
//     men walk to the target's flight squares (bishops to those of their
//     colour round the pawns, knights by knight moves, pawns forward to
//     promote), the mating side's men keep off the target and the king's
//     way while it walks and then
//     cover the flight squares left open, spare men of the mating side
//     may be given up. The targets and the plain heuristic share the
//     budget fairly, round by round with a doubling allowance (2,000
//     nodes each in the first round in full mode, 300 in quick mode,
//     where the search has half the budget), each going up one deviation
//     at a time. When the mating side's pawns
//     are all blocked, one more search offers a man where a pawn of the
//     other side takes it and a pawn of the mating side takes back, free
//     to walk on and promote. In quick mode, when the mating side's only
//     man is a knight or a bishop, this search comes before steps 5 and 6
//     and before the first look below, on its targets alone: such a piece
//     mates only a king its own men box in, which the targets find where
//     the heuristic rarely does;
//  8. an exhaustive walk of every position reachable from the query,
//     closing any node the rules above prove dead: if the walk ends with
//     no mate, the side cannot mate. At each node it tries the plain
//     heuristic's best move first, so that it meets a mate, where there
//     is one, long before it has seen the whole region. Its frames are
//     small (a node's moves are generated again when the walk returns to
//     it), so it can go millions of plies deep. In full mode it takes all
//     the budget the searches before it left but a tenth, kept for the
//     goal-directed and full-width searches after it.
//
// A mate line found by any of these, if longer than twelve plies, is then
// shortened on a node budget of its own (Options.LineBudget: by default
// none in quick mode, whose answer is the verdict, and up to 20,000 nodes
// in full mode, where a line still longer than 30 plies gets a second,
// larger budget; the live daemon gives its quick answers
// QuickLineBudget): detours are cut, a
// full-width search looks for a short mate, the heuristic search is rerun
// with a depth cap below the line's length, lowering the cap with every
// shorter line found, and a line still over 60 plies (the walk's) gets
// two-ply shortcuts. The line shown to the arbiter is then a dozen plies
// or so rather than a hundred. Budgets are node counts, never wall time:
// a query always gets the same answer and the same line, whether the
// Analyzer is fresh or reused.
//
// Every answer is sound: Unwinnable only with a proof, Winnable only with
// a legal line ending in mate by the side asked about, Undetermined when
// the node budget runs out first. Quick mode (QuickBudget nodes, mostly
// spent on the heuristic search) is meant for the live daemon; Full mode
// (FullBudget nodes, spent on the heuristic, goal-directed and exhaustive
// searches) for rulings. When only the verdict is wanted, quick mode
// gives the heuristic search a first look of up to 300 nodes, its best
// move everywhere and no discrepancy, before steps 2 and 3 (but for a
// lone knight or bishop, step 7's case): nearly every
// flag-fall position has a mate it finds at once, and the structure
// proofs cost as much as that look while they almost never apply to such
// positions (the material rules still come first). In quick mode that
// single line mends its dead ends: when it comes back to a position it
// passed, stalemates the loser, gets the winner mated or leaves it
// without the men to mate, the move that led there is set aside and the
// node before picks its next best, up to 32 times a line; a line that
// still finds nothing is followed again with full mode's weights before
// the discrepancies begin. The heuristic searches of a query never
// repeat an allowance of discrepancies an earlier one searched to the
// end.
//
// A query allocates nothing per node: the move lists, scores, tables
// and the scratch space of the proofs and the walk belong to the
// Analyzer and are reused; a mate line as found is two allocations,
// none with Options.Moves (the line as moves, for a batch). A
// node of the heuristic search with no discrepancy left (the first look
// is nothing else) builds no move list at all: it walks the legal moves
// piece by piece and ranks a piece's quiet moves by the nearest ring
// around the other king it reaches (pickPlain), finding the move the
// sorted list would put first; only a node that mends a dead end builds
// the list (pickAvoiding).
//
// Proofs by the walk and the transposition table identify positions by a
// 64-bit Zobrist hash, so they hold up to the (negligible) chance of a
// hash collision.
//
// The analysis ignores the 50- and 75-move rules and repetition, as
// Article 6.9 does ("any series of legal moves").
package unwinnable
