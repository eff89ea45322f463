//! The story's sentences for the causes the engine named: where a TTL came from, which
//! limit a message hit, why it was dropped, and the chain of heads a late message waited
//! behind (read back one `Expired` at a time).

use super::*;

impl Teller<'_> {
    /// Where an enqueued copy's TTL came from, and when it expires.
    pub(super) fn ttl(
        &self,
        cause: &delaylab_engine::cause::Admission,
        t_ms: u64,
        expires_at_ms: Option<u64>,
    ) -> String {
        let Some(at) = expires_at_ms else {
            return self.say("why_ttl_none", &[]);
        };
        let ttl = span(at.saturating_sub(t_ms));
        let at = clock(at);
        let v = [("ttl", ttl.as_str()), ("at", at.as_str())];
        match cause.ttl {
            TtlFrom::Queue => self.say("why_ttl_queue", &v),
            TtlFrom::Both => {
                let (q, m) = cause.more.as_ref().and_then(|m| m.ttls).unwrap_or((0, 0));
                let (q, m) = (span(q), span(m));
                self.say(
                    "why_ttl_both",
                    &[
                        v[0],
                        v[1],
                        ("queue_ttl", q.as_str()),
                        ("msg_ttl", m.as_str()),
                    ],
                )
            }
            _ => self.say("why_ttl_message", &v),
        }
    }

    /// Where a return to a quorum queue leaves the count its delivery limit compares:
    /// counted, or (4.3: a nack, a timeout) not, as the engine decided it.
    pub(super) fn return_count(&self, c: &delaylab_engine::cause::ReturnCount) -> String {
        let (count, limit) = (c.count.to_string(), c.limit.to_string());
        let v = [("count", count.as_str()), ("limit", limit.as_str())];
        let key = match (c.counted, c.failed_only) {
            (true, false) => "why_count_return",
            (true, true) => "why_count_failed",
            (false, _) => "why_count_not",
        };
        self.say(key, &v)
    }

    pub(super) fn limit(&self, l: &LimitHit) -> Vec<String> {
        match *l {
            LimitHit::Length {
                max,
                bytes,
                overflow,
                by,
            } => {
                let by = by.map_or(String::new(), |m| label(self.track, m.0));
                let v = [
                    ("max", max.to_string()),
                    ("overflow", overflow.as_str().to_string()),
                    ("by", by),
                ];
                let v: Vec<(&str, &str)> = v.iter().map(|(k, x)| (*k, x.as_str())).collect();
                vec![self.say(
                    if bytes {
                        "why_limit_bytes"
                    } else {
                        "why_limit_len"
                    },
                    &v,
                )]
            }
            LimitHit::Delivery {
                count,
                limit,
                failed_only,
            } => {
                let (count, limit) = (count.to_string(), limit.to_string());
                let mut out = vec![self.say(
                    "why_limit_delivery",
                    &[("count", &count), ("limit", &limit)],
                )];
                if failed_only {
                    out.push(self.say("why_limit_failed_only", &[]));
                }
                out
            }
        }
    }

    pub(super) fn drop_cause(
        &self,
        cause: &DropCause,
        reason: DropReason,
        queue: Option<Sym>,
    ) -> Vec<String> {
        let q = queue.map(|q| self.s(q)).unwrap_or_default();
        match cause {
            DropCause::Plain => match reason {
                DropReason::Purged => vec![self.say("why_d_purged", &[])],
                DropReason::QueueDeleted => vec![self.say("why_d_deleted", &[])],
                DropReason::NodeLost => vec![self.say("why_d_node_lost", &[])],
                DropReason::LostInStore => vec![self.say("why_d_lost_in_store", &[])],
                DropReason::PluginRemoved => vec![self.say("why_d_plugin_removed", &[])],
                _ => Vec::new(),
            },
            DropCause::NoDlx => vec![self.say("why_d_no_dlx", &[])],
            DropCause::DlxMissing { dlx } => {
                vec![self.say("why_d_dlx_missing", &[("dlx", &self.x(*dlx))])]
            }
            DropCause::Cycle { earlier } => vec![self.say(
                "why_d_cycle",
                &[("queue", &q), ("earlier", earlier.as_str())],
            )],
            DropCause::NoRoute { exchange } => vec![self.say(
                "why_d_no_route",
                &[("exchange", &self.x(*exchange)), ("keys", &self.keys)],
            )],
            DropCause::Limit(l) => match **l {
                LimitHit::Length {
                    max,
                    bytes,
                    overflow: overflow @ (Overflow::RejectPublish | Overflow::RejectPublishDlx),
                    ..
                } => {
                    let limit = if bytes {
                        "x-max-length-bytes"
                    } else {
                        "x-max-length"
                    };
                    vec![self.say(
                        "why_limit_refused",
                        &[
                            ("limit", limit),
                            ("max", &max.to_string()),
                            ("overflow", overflow.as_str()),
                        ],
                    )]
                }
                _ => {
                    let mut out = self.limit(l);
                    out.push(self.say("why_d_no_dlx", &[]));
                    out
                }
            },
        }
    }
}

/// The heads a copy waited behind, oldest first, from `last` (the head it left behind)
/// back to the one that held the head when its TTL passed at `ttl_at_ms`, each found in
/// that head's own `Expired`. True when earlier heads are not named: the chain is longer
/// than [`MAX_HEADS`], or a head left otherwise than by expiring (delivered, dropped),
/// or its events were not kept.
pub(super) fn heads_behind(
    track: &Track,
    queue: Sym,
    last: HeadSpan,
    ttl_at_ms: u64,
) -> (Vec<HeadSpan>, bool) {
    let mut heads = vec![last];
    let mut earlier = false;
    let mut cur = last;
    while cur.from_ms > ttl_at_ms {
        let before = track.msgs.get(&cur.msg.0).and_then(|steps| {
            steps.iter().find_map(|s| match &s.ev.kind {
                EventKind::Expired {
                    queue: q, after, ..
                } if *q == queue && s.ev.t_ms == cur.to_ms => *after,
                _ => None,
            })
        });
        match before {
            Some(b) if heads.len() < MAX_HEADS => {
                heads.push(b);
                cur = b;
            }
            _ => {
                earlier = true;
                break;
            }
        }
    }
    heads.reverse();
    (heads, earlier)
}
