//! Which moves fly as chips: one chip on an edge at a time. At high rates every frame
//! brings moves on the same edges; one chip each piled up at the edges' ends, over the
//! routing-key labels and the boxes' names (the 200,000-order burst at 1000x: a dozen
//! chips on publisher → order.delay.exchange). A move on an edge whose chip is still in
//! flight waits, and its count joins the edge's next chip, which starts when the edge is
//! free: every message is counted in some chip, and at most one chip is on an edge.
//!
//! ```text
//! wall 0     publish ×1216 → chip "+1216" starts
//! wall 16    publish ×1216 → waits (edge busy), pending 1216
//! ...        ...           → pending grows
//! wall 900   (flight over) → chip "+N" with every pending move's count
//! ```

use crate::refresh::FLIGHT_MS;
use crate::track::{Move, MoveKind};

type Edge = (MoveKind, String, String);

/// The chips' gate (see the module docs). Its lists are kept in the edges' order (a
/// sorted list, not a BTreeMap: its B-tree code was start-up code for these alone; an
/// edge of the topology's few is found by a binary search).
#[derive(Default)]
pub struct ChipGate {
    /// When the chip now on each edge started.
    flying: Vec<(Edge, f64)>,
    /// Moves waiting for their edge: the latest, with the count of all of them.
    pending: Vec<(Edge, Move)>,
}

/// Where `edge` is in `list` (Ok) or would go (Err).
fn find<V>(list: &[(Edge, V)], edge: &Edge) -> Result<usize, usize> {
    list.binary_search_by(|(e, _)| e.cmp(edge))
}

impl ChipGate {
    /// The moves to fly now, of `moves` (this frame's) and of those that waited.
    pub fn admit(&mut self, moves: Vec<Move>, wall: f64) -> Vec<Move> {
        for mv in moves {
            let edge = (mv.kind, mv.from.clone(), mv.to.clone());
            match find(&self.pending, &edge) {
                Ok(i) => {
                    let p = &mut self.pending[i].1;
                    p.count += mv.count;
                    p.at_ms = p.at_ms.max(mv.at_ms);
                }
                Err(i) => self.pending.insert(i, (edge, mv)),
            }
        }
        let flying = &mut self.flying;
        flying.retain(|(_, started)| wall - *started < FLIGHT_MS);
        let mut out = Vec::new();
        let mut waiting = Vec::with_capacity(self.pending.len());
        for (edge, mv) in self.pending.drain(..) {
            match find(flying, &edge) {
                Ok(_) => waiting.push((edge, mv)),
                Err(i) => {
                    flying.insert(i, (edge, wall));
                    out.push(mv);
                }
            }
        }
        self.pending = waiting;
        out
    }

    /// Forgets what flies and waits (a restart, a load, a seek: the chips start over).
    pub fn clear(&mut self) {
        self.flying.clear();
        self.pending.clear();
    }

    /// True when moves wait for their edge.
    pub fn waiting(&self) -> bool {
        !self.pending.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: &str, to: &str, count: u32, at_ms: u64) -> Move {
        Move {
            from: from.into(),
            to: to.into(),
            kind: MoveKind::Publish,
            count,
            msg: 1,
            body: "b".into(),
            at_ms,
        }
    }

    #[test]
    fn one_chip_an_edge_and_every_count_in_one() {
        let mut g = ChipGate::default();
        let first = g.admit(vec![mv("p", "x", 1216, 10), mv("x", "q", 3, 10)], 0.0);
        assert_eq!(first.len(), 2, "two edges, a chip each");
        // The next frames: the edges are busy, the counts wait.
        assert!(g.admit(vec![mv("p", "x", 1216, 26)], 16.0).is_empty());
        assert!(g.admit(vec![mv("p", "x", 100, 42)], 32.0).is_empty());
        assert!(g.waiting());
        assert!(g.admit(vec![], FLIGHT_MS - 1.0).is_empty());
        // The chip landed: the next one carries both frames' counts.
        let next = g.admit(vec![], FLIGHT_MS);
        assert_eq!(next.len(), 1);
        assert_eq!((next[0].count, next[0].at_ms), (1316, 42));
        assert!(!g.waiting());
    }

    #[test]
    fn a_cleared_gate_flies_at_once() {
        let mut g = ChipGate::default();
        g.admit(vec![mv("p", "x", 1, 0)], 0.0);
        g.admit(vec![mv("p", "x", 1, 1)], 1.0);
        g.clear();
        assert_eq!(g.admit(vec![mv("p", "x", 5, 2)], 2.0)[0].count, 5);
    }
}
