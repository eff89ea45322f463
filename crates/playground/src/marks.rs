//! The moments that teach, for the clock's timeline and for Step: a TTL passing behind
//! a head, a dead-lettering, a limit reached, a drop, a return, a refusal, a node lost or
//! back, an upgrade, a consumer timed out, the delayed exchange releasing a message (on
//! time or late), a message a quorum queue held aside released (4.3 delayed retry, 4.4
//! `x-opt-delivery-time`), a run stopped by a limit.
//!
//! How they are found: a **scout**, a second simulation of the same scenario (the
//! engine is deterministic, so it sees what the page's run will see), run ahead of the
//! page's clock in slices a frame can afford ([`Marks::scout`], bounded by the caller's
//! clock), never the whole run in advance: the timeline shows the marks found so far and
//! how far the scout has looked ([`Marks::known_to`]). It stops at the scenario's
//! `until`, when nothing is left to happen, or after [`MAX_SCOUT_EVENTS`] events (a long
//! run: the timeline says so). Each mark comes from an engine event and its cause
//! (`delaylab_engine::cause`), with one exception read from the engine's own data, not a
//! rule: a TTL passing behind a head is an event that does not happen. The scout keeps
//! the expiry times the engine gave each ready copy (`Enqueued::expires_at_ms`); when
//! its clock passes one and the engine has neither expired, delivered nor dropped the
//! copy, the copy is overdue from that instant on (the engine's `Expired` later names
//! the head it waited behind, `LateCause::BehindHead`). So every mark at or before
//! `known_to` is known.
//!
//! ```text
//! head-of-line-blocking: A (30 min) at 0:00, B (5 min) at 1:00, one wait queue
//!   scout 0:00 → 1:00   B enqueued, expires at 6:00 (A is the head)
//!   scout 1:00 → 30:00  no timer before 30:00: B's 6:00 passed, B still there → mark 6:00
//!   scout 30:00         A expired and dead-lettered, then B (late 24:00, behind A) → mark 30:00
//!   Step from 0:00 → 6:00 → 30:00
//! ```
//!
//! Bounds: at most [`PER_KEY`] marks of one kind at one place (a burst of 200,000
//! dead-letterings is one place's first few), at most [`MAX_MARKS`] in all (the rest are
//! counted, [`Marks::left_out`]).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

use delaylab_engine::body::Body;
use delaylab_engine::cause::HeldBy;
use delaylab_engine::scenario::Scenario;
use delaylab_engine::{Progress, Sim};

mod observe;

/// Marks kept in all.
pub const MAX_MARKS: usize = 200;
/// Marks of one kind at one place (the first ones: what a reader steps through).
pub const PER_KEY: u32 = 8;
/// Moments of one kind at one place less than this apart are one episode, one mark
/// that counts the rest (a burst's 50,000 TTLs passing every 12 ms is one mark).
pub const EPISODE_GAP_MS: u64 = 1_000;
/// Events the scout runs at most: past this (a long run) it stops looking ahead.
pub const MAX_SCOUT_EVENTS: u64 = 3_000_000;
/// Instants the scout runs between two looks at the caller's clock.
const INSTANTS_PER_CLOCK_LOOK: u32 = 32;
/// Overdue copies marked between two looks at the caller's clock.
const OVERDUE_PER_CLOCK_LOOK: u32 = 4_096;

/// What happened at a mark.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A copy's TTL passed while it waited behind the head: it is overdue from here.
    Overdue,
    /// Dead-lettered for this reason (`expired`, `rejected`, ...).
    DeadLettered(&'static str),
    /// A queue's length limit (`x-max-length`) or a quorum delivery limit was hit.
    LengthLimit,
    DeliveryLimit,
    /// Dropped for this reason (`unroutable`, `maxlen`, `node_lost`...).
    Dropped(&'static str),
    /// Came back to its publisher with this reply code (312 NO_ROUTE).
    Returned(u16),
    /// The broker refused something with this code (406, 404, 541...).
    Refused(u16),
    NodeLost,
    NodeDown,
    NodeUp,
    Upgraded,
    ConsumerTimeout,
    /// The delayed-message exchange released a message at its time (its x-delay is
    /// over): the plugin's counterpart of a wait queue's dead-lettering.
    DelayReleased,
    /// The delayed-message exchange released a message after its time.
    LateRelease,
    /// A quorum queue released a message it held aside (4.3 delayed retry, 4.4
    /// `x-opt-delivery-time`): it is ready from here.
    Released(HeldBy),
    /// A limit of the simulation stopped the run.
    Stopped,
}

/// One thing that happened at a mark: what, where, to which message.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    pub kind: Kind,
    /// The queue, exchange or consumer it happened at (empty: the node).
    pub place: String,
    /// The message: its id and body.
    pub msg: Option<(u32, String)>,
    /// For `Overdue`: the head it waits behind, once the engine has said (id, body).
    pub behind: Option<(u32, String)>,
    /// More of the same kind at the same place in this episode ([`EPISODE_GAP_MS`]),
    /// and the times of the first and the last of them.
    pub more: u32,
    pub at_ms: u64,
    pub last_ms: u64,
}

/// Where one kind at one place stands: marks kept, and its current episode.
#[derive(Clone, Copy, Debug)]
struct KeyState {
    kept: u32,
    last_ms: u64,
    /// The episode's moment: its mark's time and its index there.
    at_ms: u64,
    index: usize,
}

/// A time on the timeline and what happened then.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub at_ms: u64,
    pub moments: Vec<Moment>,
}

/// The scout and the marks it found (see the module docs).
pub struct Marks {
    sim: Sim,
    until_ms: Option<u64>,
    marks: Vec<Mark>,
    per_key: HashMap<(Kind, String), KeyState>,
    left_out: u64,
    bodies: Vec<Body>,
    /// Ready copies with a TTL: (expires at, copy id), soonest first, and each copy's
    /// (expiry, msg, queue). A copy that leaves `copies` (or comes back with another
    /// expiry) leaves its entry here behind: an entry counts only while `copies` has its
    /// copy with that expiry ([`Marks::settle`] drops the others from the top; a heap
    /// rather than a BTreeSet: the B-tree's code was start-up code for this alone).
    expiring: BinaryHeap<Reverse<(u64, u64)>>,
    copies: HashMap<u64, (u64, u32, String)>,
    /// Copies with a TTL a consumer holds (no TTL applies while unacked) or their quorum
    /// queue holds aside (none is checked while held, D37): back to `expiring` if
    /// requeued or released before their TTL passed.
    held: HashMap<u64, (u64, u32, String)>,
    /// Copies already marked overdue (their late `Expired` must not mark them again):
    /// the place of their own moment, `None` when counted in an episode or left out.
    overdue: HashMap<u64, Option<(u64, usize)>>,
    done: bool,
    /// Bumped when a mark or a moment is added, a head named, or the scout is done (a
    /// view redraws on it; an episode's count alone does not bump it).
    pub rev: u64,
}

impl Marks {
    pub fn new(scenario: &Scenario) -> Marks {
        Marks {
            sim: Sim::new(scenario),
            until_ms: scenario.until_ms,
            marks: Vec::new(),
            per_key: HashMap::new(),
            left_out: 0,
            bodies: Vec::new(),
            expiring: BinaryHeap::new(),
            copies: HashMap::new(),
            held: HashMap::new(),
            overdue: HashMap::new(),
            done: false,
            rev: 0,
        }
    }

    /// The marks found so far, in time order.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// Every mark at or before this time is known.
    pub fn known_to(&self) -> u64 {
        let now = self.sim.now_ms();
        // Copies overdue by now that a slice left unmarked: their time is not known yet.
        match self.expiring.peek() {
            Some(&Reverse((at, _))) if at <= now => at.saturating_sub(1),
            _ => now,
        }
    }

    /// True when the scout has nothing more to look at (the end, `until`, its bound).
    pub fn done(&self) -> bool {
        self.done
    }

    /// True when the scout stopped at [`MAX_SCOUT_EVENTS`] before the run's end.
    pub fn cut_short(&self) -> bool {
        self.done && self.sim.events_so_far() >= MAX_SCOUT_EVENTS
    }

    /// Marks not kept ([`PER_KEY`], [`MAX_MARKS`]).
    pub fn left_out(&self) -> u64 {
        self.left_out
    }

    /// The first mark after `t_ms`, if one is known.
    pub fn next_after(&self, t_ms: u64) -> Option<u64> {
        self.marks.iter().map(|m| m.at_ms).find(|&at| at > t_ms)
    }

    /// The last mark before `t_ms`.
    pub fn prev_before(&self, t_ms: u64) -> Option<u64> {
        self.marks
            .iter()
            .rev()
            .map(|m| m.at_ms)
            .find(|&at| at < t_ms)
    }

    /// The mark at exactly `t_ms`.
    pub fn at(&self, t_ms: u64) -> Option<&Mark> {
        self.marks.iter().find(|m| m.at_ms == t_ms)
    }

    /// Looks ahead until `out_of_time()` says stop, or the scout is done. True when done.
    pub fn scout(&mut self, out_of_time: impl FnMut() -> bool) -> bool {
        self.scout_until(|_| false, out_of_time)
    }

    /// Looks ahead until the first mark after `t_ms` is known for sure (the scout is past
    /// it), or it is done, or out of time. The mark, if found.
    pub fn scout_next_after(
        &mut self,
        t_ms: u64,
        out_of_time: impl FnMut() -> bool,
    ) -> Option<u64> {
        self.scout_until(
            |m: &Marks| m.next_after(t_ms).is_some_and(|at| at <= m.known_to()),
            out_of_time,
        );
        self.next_after(t_ms)
    }

    fn scout_until(
        &mut self,
        enough: impl Fn(&Marks) -> bool,
        mut out_of_time: impl FnMut() -> bool,
    ) -> bool {
        let mut instants = 0u32;
        while !self.done && !enough(self) {
            let Some(next) = self.next_instant() else {
                self.finish();
                break;
            };
            // Nothing happens before `next`: a TTL due before it passes behind a head. A
            // burst's TTLs passing at once (150,000 in the 200,000-order preset) are
            // marked in slices too: what is left is marked first when the scout resumes,
            // and `known_to` stays before it meanwhile.
            if !self.mark_overdue(next.saturating_sub(1), &mut out_of_time) {
                break;
            }
            while self.sim.advance(next) == Progress::More {
                self.drain();
            }
            self.drain();
            let marked = self.mark_overdue(next, &mut out_of_time);
            if self.sim.halted() || self.sim.events_so_far() >= MAX_SCOUT_EVENTS {
                self.mark_overdue(next, &mut || false);
                self.finish();
                break;
            }
            instants += 1;
            if !marked || (instants.is_multiple_of(INSTANTS_PER_CLOCK_LOOK) && out_of_time()) {
                break;
            }
        }
        self.done
    }

    /// The next instant to run: the next timer, never past `until`.
    fn next_instant(&self) -> Option<u64> {
        if self.sim.halted() {
            return None;
        }
        let next = self.sim.next_timer_ms()?;
        match self.until_ms {
            Some(u) if next > u => None,
            _ => Some(next),
        }
    }

    fn finish(&mut self) {
        let ended = !self.sim.halted() && self.sim.events_so_far() < MAX_SCOUT_EVENTS;
        match self.until_ms {
            Some(u) if ended && self.sim.now_ms() < u => {
                while self.sim.advance(u) == Progress::More {
                    self.drain();
                }
                self.drain();
                self.mark_overdue(u, &mut || false);
            }
            // Nothing is left to happen: a TTL still ahead passes behind a head that
            // never goes (a head without a TTL), at its time.
            None if ended && self.sim.next_timer_ms().is_none() => {
                self.mark_overdue(u64::MAX, &mut || false);
            }
            _ => {}
        }
        self.done = true;
        self.rev += 1;
    }

    /// Copies whose TTL passed at or before `t_ms` and that the engine still holds ready.
    /// False when `out_of_time` stopped it (looked at every [`OVERDUE_PER_CLOCK_LOOK`]
    /// copies) with some left to mark.
    fn mark_overdue(&mut self, t_ms: u64, out_of_time: &mut impl FnMut() -> bool) -> bool {
        let mut looked = 0u32;
        self.settle();
        while let Some(&Reverse((at, copy))) = self.expiring.peek() {
            if at > t_ms {
                break;
            }
            looked += 1;
            if looked.is_multiple_of(OVERDUE_PER_CLOCK_LOOK) && out_of_time() {
                return false;
            }
            self.expiring.pop();
            let Some((_, msg, queue)) = self.copies.remove(&copy) else {
                self.settle();
                continue;
            };
            let key = (Kind::Overdue, queue);
            // Most of a burst joins its episode: counted without building a moment.
            let place = if self.merge(&key, at) {
                None
            } else {
                let moment = self.moment(key.0, key.1, Some(msg));
                self.add(at, moment)
            };
            self.overdue.insert(copy, place);
            self.settle();
        }
        true
    }

    fn body(&self, msg: u32) -> String {
        self.bodies
            .get(msg as usize - 1)
            .map(|b| b.to_string())
            .unwrap_or_default()
    }

    fn moment(&self, kind: Kind, place: String, msg: Option<u32>) -> Moment {
        Moment {
            kind,
            place,
            msg: msg.map(|m| (m, self.body(m))),
            behind: None,
            more: 0,
            at_ms: 0,
            last_ms: 0,
        }
    }

    /// Adds a moment at `at_ms` (within the bounds, or into its episode); its mark's
    /// time and its index there, when it is a mark's own moment.
    fn add(&mut self, at_ms: u64, mut moment: Moment) -> Option<(u64, usize)> {
        let key = (moment.kind.clone(), moment.place.clone());
        if self.merge(&key, at_ms) {
            return None;
        }
        let kept = self.per_key.get(&key).map_or(0, |st| st.kept);
        let pos = self.marks.partition_point(|m| m.at_ms < at_ms);
        let same = self.marks.get(pos).is_some_and(|m| m.at_ms == at_ms);
        if kept >= PER_KEY || (!same && self.marks.len() >= MAX_MARKS) {
            self.left_out += 1;
            return None;
        }
        moment.at_ms = at_ms;
        moment.last_ms = at_ms;
        self.rev += 1;
        let index = if same {
            let m = &mut self.marks[pos];
            m.moments.push(moment);
            m.moments.len() - 1
        } else {
            self.marks.insert(
                pos,
                Mark {
                    at_ms,
                    moments: vec![moment],
                },
            );
            0
        };
        self.per_key.insert(
            key,
            KeyState {
                kept: kept + 1,
                last_ms: at_ms,
                at_ms,
                index,
            },
        );
        Some((at_ms, index))
    }

    /// A moment of `key` at `at_ms` joins its episode when one is under way (less than
    /// [`EPISODE_GAP_MS`] from its last): counted, true. Counted without bumping `rev`: a
    /// burst merges a moment every few milliseconds, and a view redrawn for each would
    /// redraw every frame. The count shows at the next new mark, or when the scout is done.
    fn merge(&mut self, key: &(Kind, String), at_ms: u64) -> bool {
        let Some(st) = self.per_key.get_mut(key) else {
            return false;
        };
        if st.last_ms.abs_diff(at_ms) >= EPISODE_GAP_MS {
            return false;
        }
        st.last_ms = st.last_ms.max(at_ms);
        let (mark_ms, index) = (st.at_ms, st.index);
        if let Some(m) = self.moment_mut(mark_ms, index) {
            m.more += 1;
            m.last_ms = m.last_ms.max(at_ms);
        }
        true
    }

    fn moment_mut(&mut self, at_ms: u64, index: usize) -> Option<&mut Moment> {
        let pos = self.marks.partition_point(|m| m.at_ms < at_ms);
        self.marks
            .get_mut(pos)
            .filter(|m| m.at_ms == at_ms)
            .and_then(|m| m.moments.get_mut(index))
    }

    fn name(&self, sym: delaylab_engine::sym::Sym) -> String {
        self.sim.symbols().str(sym).to_string()
    }

    fn drain(&mut self) {
        while let Some(ev) = self.sim.poll_event() {
            self.observe(ev);
        }
        self.settle();
    }

    /// Drops the entries of `expiring` that no longer count from its top (the copy left
    /// `copies`, or is there with another expiry), so its top is the soonest ready copy;
    /// all of them when they outnumber the copies by far.
    fn settle(&mut self) {
        let copies = &self.copies;
        let counts = |&Reverse((at, copy)): &Reverse<(u64, u64)>| {
            copies.get(&copy).is_some_and(|e| e.0 == at)
        };
        if self.expiring.len() > 2 * copies.len() + 1024 {
            self.expiring.retain(counts);
        }
        while self.expiring.peek().is_some_and(|e| !counts(e)) {
            self.expiring.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{Batch, Runner};
    use delaylab_engine::scenario::load::load_str;

    const HEAD_OF_LINE: &str = include_str!("../../../scenarios/head-of-line-blocking.json");
    const MAX_LENGTH: &str = include_str!("../../../scenarios/max-length-drop-head-dlq.json");
    const NODE_LOST: &str = include_str!("../../../scenarios/plugin-node-lost.json");
    const RETRY: &str = include_str!("../../../scenarios/retry-backoff-4-3.json");
    const QUEUE_TTL: &str = include_str!("../../../scenarios/order-timeout-queue-ttl.json");
    const BURST: &str = include_str!("../../../scenarios/promotion-burst-200k.json");

    fn scouted(text: &str) -> Marks {
        let mut m = Marks::new(&load_str(text).expect("loads"));
        assert!(m.scout(|| false), "small scenarios are scouted whole");
        m
    }

    fn kinds(m: &Mark) -> Vec<Kind> {
        m.moments.iter().map(|x| x.kind.clone()).collect()
    }

    #[test]
    fn head_of_line_marks_the_ttl_passing_behind_a_and_the_dead_lettering() {
        let m = scouted(HEAD_OF_LINE);
        let at: Vec<u64> = m.marks().iter().map(|x| x.at_ms).collect();
        assert_eq!(at, vec![360_000, 1_800_000], "{:?}", m.marks());
        let six = &m.marks()[0].moments[0];
        assert_eq!(six.kind, Kind::Overdue);
        assert_eq!(six.place, "order.delay.queue");
        assert_eq!(six.msg.as_ref().map(|x| x.1.as_str()), Some("B"));
        assert_eq!(
            six.behind.as_ref().map(|x| x.1.as_str()),
            Some("A"),
            "the engine named the head"
        );
        let thirty = kinds(&m.marks()[1]);
        assert_eq!(thirty, vec![Kind::DeadLettered("expired")]);
        let a = &m.marks()[1].moments[0];
        assert_eq!(a.msg.as_ref().map(|x| x.1.as_str()), Some("A"));
        assert_eq!((a.more, a.last_ms), (1, 1_800_000), "B in the same episode");
        // Step: 0:00 → 6:00 → 30:00, then none.
        assert_eq!(m.next_after(0), Some(360_000));
        assert_eq!(m.next_after(360_000), Some(1_800_000));
        assert_eq!(m.next_after(1_800_000), None);
        assert_eq!(m.prev_before(1_800_000), Some(360_000));
        assert!(m.done() && !m.cut_short() && m.left_out() == 0);
    }

    #[test]
    fn step_looks_only_as_far_as_the_next_mark() {
        let mut m = Marks::new(&load_str(HEAD_OF_LINE).unwrap());
        assert_eq!(m.scout_next_after(0, || false), Some(360_000));
        assert!(!m.done(), "it stopped once 6:00 was certain");
        assert!(m.known_to() >= 360_000);
        assert_eq!(m.scout_next_after(360_000, || false), Some(1_800_000));
    }

    #[test]
    fn slices_find_what_one_go_finds() {
        for text in [HEAD_OF_LINE, MAX_LENGTH, NODE_LOST, RETRY] {
            let whole = scouted(text);
            let mut sliced = Marks::new(&load_str(text).unwrap());
            let mut slices = 0;
            while !sliced.scout(|| true) {
                slices += 1;
                assert!(slices < 100_000);
            }
            assert_eq!(sliced.marks(), whole.marks());
        }
    }

    #[test]
    fn the_scout_sees_what_the_pages_run_sees() {
        // Marks at the times the page's own run has the events they come from.
        let m = scouted(MAX_LENGTH);
        let mut r = Runner::new(load_str(MAX_LENGTH).unwrap());
        let mut b = Batch::default();
        assert!(r.advance_to(m.known_to(), &mut b, || false));
        let times: std::collections::BTreeSet<u64> =
            r.track.log.iter().map(|e| e.ev.t_ms).collect();
        assert!(!m.marks().is_empty());
        for mark in m.marks() {
            assert!(times.contains(&mark.at_ms), "{mark:?}");
        }
        assert!(
            m.marks()
                .iter()
                .any(|x| kinds(x).contains(&Kind::LengthLimit)),
            "{:?}",
            m.marks()
        );
    }

    #[test]
    fn a_node_lost_and_a_retry_ladder_are_marked() {
        let lost = scouted(NODE_LOST);
        assert!(lost
            .marks()
            .iter()
            .any(|x| kinds(x).contains(&Kind::NodeLost)));
        let retry = scouted(RETRY);
        let dead: usize = retry
            .marks()
            .iter()
            .map(|x| {
                kinds(x)
                    .iter()
                    .filter(|k| matches!(k, Kind::DeadLettered(_)))
                    .count()
            })
            .sum();
        assert!(
            dead >= 2,
            "each retry's dead-lettering: {:?}",
            retry.marks()
        );
    }

    #[test]
    fn a_copy_delivered_before_its_ttl_is_never_overdue() {
        let m = scouted(QUEUE_TTL);
        assert!(
            m.marks().iter().all(|x| !kinds(x).contains(&Kind::Overdue)),
            "{:?}",
            m.marks()
        );
    }

    #[test]
    fn a_head_without_a_ttl_leaves_the_copies_behind_it_overdue_for_ever() {
        let text = r#"{"version":1,"name":"stuck",
          "topology":{"queues":[{"name":"q","arguments":{"x-dead-letter-exchange":"dlx"}}],
                      "exchanges":[{"name":"dlx","type":"fanout"}]},
          "actions":[{"at":"0s","publish":{"exchange":"","routing_key":"q","body":"head"}},
                     {"at":"1s","publish":{"exchange":"","routing_key":"q","body":"B",
                       "properties":{"expiration":"5000"}}}]}"#;
        let m = scouted(text);
        assert_eq!(m.marks().len(), 1, "{:?}", m.marks());
        assert_eq!(m.marks()[0].at_ms, 6_000);
        assert_eq!(m.marks()[0].moments[0].kind, Kind::Overdue);
    }

    #[test]
    fn a_burst_of_ttls_passing_at_once_is_marked_in_slices_the_same() {
        // 10,000 copies whose TTL passes at 0:06 behind a head without one: marked in
        // slices of OVERDUE_PER_CLOCK_LOOK, `known_to` held before 0:06 until all are.
        let text = r#"{"version":1,"name":"stuck burst",
          "topology":{"queues":[{"name":"q"}]},
          "actions":[{"at":"0s","publish":{"exchange":"","routing_key":"q","body":"head"}},
                     {"at":"1s","publish":{"exchange":"","routing_key":"q","body":"b",
                       "properties":{"expiration":"5000"}},
                      "repeat":{"count":10000,"every":"0ms"}},
                     {"at":"10s","publish":{"exchange":"","routing_key":"q","body":"c"}}]}"#;
        let whole = scouted(text);
        let mut sliced = Marks::new(&load_str(text).unwrap());
        let mut slices = 0;
        let mut known = 0;
        while !sliced.scout(|| true) {
            slices += 1;
            assert!(sliced.known_to() >= known, "known_to never goes back");
            known = sliced.known_to();
            if known >= 6_000 {
                assert_eq!(
                    sliced.marks().first().map(|m| m.moments[0].more),
                    Some(9_999)
                );
            }
            assert!(slices < 1_000, "the scout ends");
        }
        assert!(slices >= 2, "the 10,000 were marked in slices: {slices}");
        assert_eq!(sliced.marks(), whole.marks());
        assert_eq!(whole.marks()[0].at_ms, 6_000);
        assert_eq!(
            whole.marks()[0].moments[0].more,
            9_999,
            "{:?}",
            whole.marks()
        );
    }

    /// Each overdue copy is counted once: a copy counted in its episode is not marked
    /// again when the engine later expires it behind the head (the 200,000-order
    /// preset counted 200,003 overdue where 150,000 are, with marks at 15:00 twice).
    #[test]
    fn an_overdue_copy_counted_in_its_episode_is_not_counted_again_when_it_expires() {
        let text = r#"{"version":1,"name":"expires behind a head later",
          "topology":{"queues":[{"name":"q","arguments":{"x-dead-letter-exchange":""}}]},
          "actions":[{"at":"0s","publish":{"exchange":"","routing_key":"q","body":"head",
                       "properties":{"expiration":"60000"}}},
                     {"at":"1s","publish":{"exchange":"","routing_key":"q","body":"b",
                       "properties":{"expiration":"5000"}},
                      "repeat":{"count":1000,"every":"1ms"}}]}"#;
        let m = scouted(text);
        let overdue: Vec<(u64, u32)> = m
            .marks()
            .iter()
            .flat_map(|x| x.moments.iter().map(move |o| (x.at_ms, o)))
            .filter(|(_, o)| o.kind == Kind::Overdue)
            .map(|(at, o)| (at, o.more))
            .collect();
        assert_eq!(overdue, vec![(6_000, 999)], "{:?}", m.marks());
        let first = &m.marks()[0].moments[0];
        assert_eq!(first.behind.as_ref().map(|h| h.1.as_str()), Some("head"));
    }

    #[test]
    fn a_burst_is_bounded_per_place_and_in_all() {
        let mut m = Marks::new(&load_str(BURST).unwrap());
        // Scout to 16:40 only: the bounds hold on the way.
        while m.known_to() < 1_000_000 {
            assert!(!m.scout(|| true));
        }
        let mut per: HashMap<(Kind, String), u32> = HashMap::new();
        for mark in m.marks() {
            for x in &mark.moments {
                *per.entry((x.kind.clone(), x.place.clone())).or_default() += 1;
            }
        }
        assert!(per.values().all(|&n| n <= PER_KEY), "{per:?}");
        assert!(m.marks().len() <= MAX_MARKS);
        assert!(
            !m.marks().is_empty(),
            "the first 15 min orders are overdue at 15:00"
        );
        let first = &m.marks()[0].moments[0];
        assert_eq!(first.kind, Kind::Overdue);
        assert!(first.more > 1_000, "one episode counts the rest: {first:?}");
    }

    /// The plugin's releases are marks as a wait queue's dead-letterings are: Step goes
    /// 0:00 → 6:00 → 30:00 in the plugin's fix as in head-of-line blocking.
    #[test]
    fn the_plugin_marks_each_release() {
        let m = scouted(include_str!("../../../scenarios/fix-delayed-plugin.json"));
        let all: Vec<(u64, Vec<Kind>)> = m.marks().iter().map(|x| (x.at_ms, kinds(x))).collect();
        assert_eq!(
            all,
            vec![
                (360_000, vec![Kind::DelayReleased]),
                (1_800_000, vec![Kind::DelayReleased])
            ]
        );
        assert_eq!(
            m.marks()[0].moments[0].msg.as_ref().map(|x| x.1.as_str()),
            Some("B")
        );
    }

    /// 4.4: a message held by `x-opt-delivery-time` whose TTL passes while it is held
    /// is not overdue behind a head (no TTL is checked while held, D37; nothing is ready
    /// ahead of it); it expires when released. Each release is a mark, so Step stops
    /// where the lesson is: 0:10, 5:00, 30:00 in the preset.
    #[test]
    fn held_messages_are_marked_when_released_and_never_overdue_while_held() {
        let held_ttl = r#"{"version": 1, "broker": "4.4", "name": "held with a TTL",
          "topology": {"queues": [{"name": "q", "arguments": {"x-queue-type": "quorum"}}]},
          "actions": [{"at": "0s", "publish": {"exchange": "", "routing_key": "q", "body": "late",
            "properties": {"expiration": "10000", "headers": {"x-opt-delivery-time": 60000}}}}]}"#;
        let m = scouted(held_ttl);
        let all: Vec<(u64, Vec<Kind>)> = m.marks().iter().map(|x| (x.at_ms, kinds(x))).collect();
        assert!(
            all.iter().all(|(_, k)| !k.contains(&Kind::Overdue)),
            "no head: {all:?}"
        );
        let released_then_expired = vec![
            Kind::Released(HeldBy::DeliveryTime),
            Kind::Dropped("expired"),
        ];
        assert_eq!(all, vec![(60_000, released_then_expired)]);
        let preset = scouted(include_str!("../../../scenarios/qq-delivery-time-4-4.json"));
        let at: Vec<u64> = preset.marks().iter().map(|x| x.at_ms).collect();
        assert_eq!(at, vec![10_000, 300_000, 1_800_000], "{:?}", preset.marks());
        let c = &preset.marks()[0].moments[0];
        assert_eq!(c.place, "order.close.qq");
        assert_eq!(c.msg.as_ref().map(|x| x.1.as_str()), Some("order-C (10 s)"));
    }
}
