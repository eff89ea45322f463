//! The rules that differ between version profiles, one named field each, with the row of
//! `shared/docs/rabbitmq-versions.md` (D1..D33) and the source in its doc comment.
//!
//! `sim/*` asks these fields; it never compares versions. 3.10's values are what the
//! engine always did (the live-checked baseline), so a scenario without `broker` runs as
//! before, byte for byte.

use super::BrokerVersion;

/// What a client-supplied `x-death` header means when the message is published (D1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientXDeath {
    /// Parsed and merged: the next dead-lettering continues its counts.
    /// `S@v3.10.8 rabbit_dead_letter.erl update_x_death_header/2`; 3.13.3+
    /// `mc_amqpl:headers_to_deaths/2` (commit `76c7910b8c`, RN 3.13.3).
    Merge,
    /// Passed through untouched, replaced by the broker's own history at the next
    /// dead-lettering (RN 4.0.1: "RabbitMQ 4.x will not interpret this x-death header
    /// anymore"; test `dead_letter_headers_should_not_be_appended_for_republish`).
    Ignore,
}

/// How the quorum delivery limit counts returns (D9) and what the consumer sees (D11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReturnCounting {
    /// 3.x: `delivery_count` +1 on every return, shown as `x-delivery-count` when > 0
    /// (`S@v3.10.8 rabbit_fifo.erl return_one`, `rabbit_fifo_client add_delivery_count_header`).
    EveryReturn,
    /// 4.0-4.2: `acquired_count` +1 on every return, compared with the limit and shown as
    /// `x-delivery-count` (`S@v4.0.9 rabbit_fifo.erl return_one`).
    Acquired,
    /// 4.3: the limit compares `delivery_count`, raised only by failed deliveries
    /// (basic.reject requeue=true, channel or connection loss; not basic.nack, not a
    /// consumer timeout). Consumers see `x-delivery-count` = failed count and
    /// `x-acquired-count` = every return, each only once set
    /// (`S@v4.3.5 rabbit_channel.erl`, commit `84432522bf` #15387).
    FailedOnly,
}

/// Where an explicit quorum return (nack/reject requeue=true) goes (D12).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuorumRequeue {
    /// 3.x-4.2: the back without a delivery limit (aux `#requeue`), served first with
    /// one (`S@v3.10.8 rabbit_fifo.erl handle_aux … make_requeue` [verified 3.10.8];
    /// `S@v4.2.9 rabbit_fifo_client.erl`). From 4.0 the default limit 20 makes "limited"
    /// the usual case, and `-1` (unlimited) goes to the back.
    FrontIfLimited,
    /// 4.3: always served first (or set aside by delayed retry), `-1` too [code]
    /// (`S@v4.3.5 rabbit_fifo_client.erl send_command/5`, commit `d56a4e676d`).
    AlwaysFront,
}

/// What `x-delivery-limit` below 0 means on a quorum queue (D10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NegativeLimit {
    /// 3.x compares `count > -1`: dead-lettered at the first return [code,
    /// `S@v3.10.8 rabbit_fifo.erl return_one`].
    DeadLetterAtFirstReturn,
    /// 4.0+: `rabbit_fifo:update_config/2` maps a negative value to unlimited.
    Unlimited,
}

/// How an `exchange.declare` of a type the broker does not know is refused (D7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownExchangeType {
    /// 3.10-3.13.2: `command_invalid`: 503, connection closed [verified 3.10.8].
    ConnectionClose503,
    /// 3.13.3+: `precondition_failed`: 406, channel closed (commit `312b3e0054`,
    /// RN 3.13.3 #11215).
    ChannelClose406,
}

/// Which heads of a quorum queue expire (D15). Without priorities (not simulated) the
/// only difference is whether an expired first ready message waits behind a live return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuorumExpiry {
    /// 3.10-4.2: only the next message to deliver (head of the returns, else of the
    /// queue). `S@v4.2.9 rabbit_fifo.erl expire_msgs/4`.
    NextOnly,
    /// 4.3: the head of the returns and the head of every priority, in one batch,
    /// returns first (`S@v4.3.5 rabbit_fifo.erl expire_batch/3`, PR #15846).
    EveryHead,
}

/// What the broker does about a manual-ack delivery held unacked longer than the
/// consumer timeout (D21; the timeout itself is a broker setting, default
/// [`DEFAULT_CONSUMER_TIMEOUT_MS`], see `scenario::ConsumerTimeoutSetting`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConsumerTimeout {
    /// 3.10-4.2, every queue type: the channel's tick (every [`CHANNEL_TICK_INTERVAL_MS`])
    /// looks at its oldest unacked delivery and, if it was delivered more than the timeout
    /// ago (`Time < Now - Timeout`), closes the channel with 406 PRECONDITION_FAILED
    /// ([`consumer_timeout_text`]); its unacked messages return as at any channel close
    /// (`S@v3.10.8` / `S@v4.2.9 rabbit_channel.erl evaluate_consumer_timeout/1`,
    /// `handle_info(tick, ...)`; docs consumers #acknowledgement-timeout).
    ChannelTick,
    /// 4.3: quorum queues only, a deadline per message at checkout + timeout, exact: only
    /// the timed-out message returns (a return, not a failed delivery) and the consumer
    /// is cancelled with `basic.cancel` (clients with `consumer_cancel_notify`, which
    /// delaylab's are); classic queues never time out (RN 4.3.0 "Consumer Timeouts are
    /// No Longer Evaluated for Classic Queues and Streams"; `S@v4.3.5
    /// rabbit_queue_type.erl get_consumer_timeout/2`, `rabbit_channel.erl
    /// handle_queue_actions/2`) [code for the cancel].
    QuorumPerMessage,
}

/// `channel_tick_interval` (`deps/rabbit/Makefile`, 3.10-4.2): how often a channel
/// checks its oldest unacked delivery against the consumer timeout.
pub const CHANNEL_TICK_INTERVAL_MS: u64 = 60_000;

/// The reply text of the 406 channel close (`rabbit_channel.erl
/// evaluate_consumer_timeout/1` through `rabbit_binary_generator:map_exception/3`).
pub fn consumer_timeout_text(channel: u16, timeout_ms: u64) -> String {
    format!(
        "PRECONDITION_FAILED - delivery acknowledgement on channel {channel} timed out. \
         Timeout value used: {timeout_ms} ms. This timeout value can be configured, see \
         consumers doc guide to learn more"
    )
}

/// The profile: every rule that differs between versions, for one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    pub version: BrokerVersion,
    /// D1 (see [`ClientXDeath`]).
    pub client_x_death: ClientXDeath,
    /// D2: `x-last-death-reason/-queue/-exchange`, set on every dead-lettering
    /// (3.13+: `S@v3.13.0 mc.erl record_death/3`, `mc_amqpl.erl deaths_to_headers/2`).
    pub last_death_headers: bool,
    /// D4: x-death `routing-keys` are the recorded routing keys minus BCC (3.13.3+,
    /// `mc.erl record_death`, commit `f8ddfe6015`); false: the first key plus the CC
    /// header (3.10). BCC never appears in either (stripped at publish).
    pub death_keys_recorded: bool,
    /// D5: the `CC` header is removed from the dead-lettered copy when a DLRK is set
    /// (3.10-3.12 `rabbit_dead_letter.erl` `lists:keydelete(<<"CC">>…)`); 3.13+ keep it
    /// (test `dead_letter_headers_CC_with_routing_key`, `S@v3.13.0`).
    pub dlrk_removes_cc: bool,
    /// D6 [code]: `expiration` is parsed once and re-rendered as an integer for
    /// consumers and `original-expiration` (`"+5"` -> `"5"`), 3.13+ (`mc_amqpl:protocol_state/2`).
    pub expiration_rerendered: bool,
    /// D7 (see [`UnknownExchangeType`]).
    pub unknown_exchange_type: UnknownExchangeType,
    /// D27: the delayed-message plugin runs (3.10.2 .. v4.2.0). 4.3 cannot run it
    /// (Mnesia removed, RN 4.3.0; `P@v4.2.0 Makefile broker_version_requirements
    /// ["4.2.0"]`): `x-delayed-message` is an unknown exchange type.
    pub delayed_plugin: bool,
    /// D8: the delivery limit of a quorum queue declared without one (4.0+:
    /// `?DEFAULT_DELIVERY_LIMIT 20`, `S@v4.0.9 rabbit_quorum_queue.erl`, RN 4.0.1).
    pub quorum_default_delivery_limit: Option<i64>,
    /// D9, D11 (see [`ReturnCounting`]).
    pub return_counting: ReturnCounting,
    /// D10 (see [`NegativeLimit`]).
    pub negative_delivery_limit: NegativeLimit,
    /// D12 (see [`QuorumRequeue`]).
    pub quorum_requeue: QuorumRequeue,
    /// D15 (see [`QuorumExpiry`]).
    pub quorum_expiry: QuorumExpiry,
    /// D16: quorum delayed retry (`x-delayed-retry-type/-min/-max`), 4.3 and later
    /// (`S@v4.3.5 rabbit_fifo.erl return_one/8`, `calculate_ready_at/4`).
    pub delayed_retry: bool,
    /// D21 (see [`ConsumerTimeout`]; `sim/ack_timeout.rs`).
    pub consumer_timeout: ConsumerTimeout,
    /// D23: `x-queue-version` 1 refused with 406 (4.3, commit `a67de22527`).
    pub queue_version_1_refused: bool,
    /// D25: `basic.qos global=true` is honoured as a limit for the whole channel, and a
    /// quorum queue refuses a consumer on such a channel (`basic.consume` ->
    /// connection.close 540 `NOT_IMPLEMENTED - queue 'q' in vhost '/' does not support
    /// global qos`, `rabbit_quorum_queue:consume/3` `global_qos_not_supported_for_queue_type`;
    /// live 3.10.8 and 4.0.5). False: 4.3 re-dispatches it as `global=false` (deprecated
    /// feature `global_qos` `denied_by_default`, commit `c916eeb893`; live 4.3.6: the quorum
    /// consumer is accepted and two consumers on one channel get the prefetch each).
    pub global_qos_honoured: bool,
    /// D26: at most this many `#` words in a topic binding key (4.3.5, commit
    /// `c5ed7c4e97`, RN 4.3.5 #17039).
    pub topic_hash_cap: Option<usize>,
    /// D28 [code]: `x-delay` read from AMQP 1.0 tags (3.13+ plugin): a signed byte means
    /// no delay; a decimal or void value crashes the channel (541).
    pub x_delay_mc_types: bool,
    /// D31 [code]: a classic queue refuses the 4.3 quorum-only arguments
    /// (`x-consumer-timeout`, `x-consumer-disconnected-timeout`, `x-delayed-retry-*`)
    /// with 406 (`check_arguments_key/4`, `S@v4.3.5`).
    pub classic_refuses_quorum_args: bool,
    /// D32: a headers exchange compares values with `=:=` (1 no longer matches 1.0),
    /// 3.13+ (`S@v3.13.0 rabbit_exchange_type_headers.erl`).
    pub headers_exact_match: bool,
    /// D34 (4.4, [code], [run] on the branch's state machine): a quorum queue holds a
    /// message published with `x-opt-delivery-time` (Unix ms; virtual time 0 is the
    /// epoch) later than now until that time: enqueued (confirmed, counted toward the
    /// length limits, its TTL running from publish) but not ready, then released to the
    /// back of the returns, ahead of the ready backlog, by an exact timer; held messages
    /// go in order of (their own time, arrival), no head-of-line blocking between them
    /// (`qq-vNext c6ab3c91aec6 rabbit_quorum_queue.erl deliver/3,
    /// annotate_delivery_time/1`; `rabbit_fifo.erl maybe_enqueue/8, get_delivery_time/2,
    /// delayed_in/5, expire_shallow/2`; rabbitmq-versions.md §5.4). False: the header is
    /// an ordinary one, delivered unchanged (4.3's state machine v8 reads it only in an
    /// AMQP 1.0 `modified` outcome; classic queues never read it). Rules in
    /// `amqp/delivery_time.rs` (the header's types) and `sim/hold.rs`.
    ///
    /// ```text
    /// 4.4, quorum queue q, consumer c: publish at 0:00 with x-opt-delivery-time
    ///   1800000 (30:00), 300000 (5:00), 10000 (0:10)
    ///   -> 0:00 enqueued, held (ready 0); 0:10, 5:00, 30:00 released and delivered
    /// 4.3, or a classic queue: all three delivered at 0:00
    /// ```
    pub quorum_delivery_time: bool,
}

/// The consumer timeout RabbitMQ uses by default (`deps/rabbit/Makefile`).
pub const DEFAULT_CONSUMER_TIMEOUT_MS: u64 = 1_800_000;
/// `?DEFAULT_DELIVERY_LIMIT` of 4.0+ quorum queues.
pub const DEFAULT_QUORUM_DELIVERY_LIMIT: i64 = 20;
/// `?MAX_HASH_WILDCARDS` of 4.3.5's topic exchange.
pub const MAX_TOPIC_HASH_WILDCARDS: usize = 2;

impl Profile {
    pub fn of(version: BrokerVersion) -> Profile {
        use BrokerVersion::*;
        let v313 = version >= V3_13;
        let v4 = version >= V4_0;
        // Newer profiles inherit: 4.4 does everything 4.3 does unless a field says not.
        let v43 = version >= V4_3;
        let v44 = version >= V4_4;
        Profile {
            version,
            client_x_death: if v4 {
                ClientXDeath::Ignore
            } else {
                ClientXDeath::Merge
            },
            last_death_headers: v313,
            death_keys_recorded: v313,
            dlrk_removes_cc: !v313,
            expiration_rerendered: v313,
            unknown_exchange_type: if v313 {
                UnknownExchangeType::ChannelClose406
            } else {
                UnknownExchangeType::ConnectionClose503
            },
            delayed_plugin: !v43,
            quorum_default_delivery_limit: v4.then_some(DEFAULT_QUORUM_DELIVERY_LIMIT),
            return_counting: if v43 {
                ReturnCounting::FailedOnly
            } else if v4 {
                ReturnCounting::Acquired
            } else {
                ReturnCounting::EveryReturn
            },
            negative_delivery_limit: if v4 {
                NegativeLimit::Unlimited
            } else {
                NegativeLimit::DeadLetterAtFirstReturn
            },
            quorum_requeue: if v43 {
                QuorumRequeue::AlwaysFront
            } else {
                QuorumRequeue::FrontIfLimited
            },
            quorum_expiry: if v43 {
                QuorumExpiry::EveryHead
            } else {
                QuorumExpiry::NextOnly
            },
            delayed_retry: v43,
            consumer_timeout: if v43 {
                ConsumerTimeout::QuorumPerMessage
            } else {
                ConsumerTimeout::ChannelTick
            },
            queue_version_1_refused: v43,
            global_qos_honoured: !v43,
            topic_hash_cap: v43.then_some(MAX_TOPIC_HASH_WILDCARDS),
            x_delay_mc_types: v313,
            classic_refuses_quorum_args: v43,
            headers_exact_match: v313,
            quorum_delivery_time: v44,
        }
    }

    /// The delivery limit a quorum queue applies, from its `x-delivery-limit` (D8, D10):
    /// `None` is unlimited.
    pub fn effective_delivery_limit(&self, declared: Option<i64>) -> Option<i64> {
        match declared {
            None => self.quorum_default_delivery_limit,
            Some(n) if n < 0 && self.negative_delivery_limit == NegativeLimit::Unlimited => None,
            Some(n) => Some(n),
        }
    }
}

impl Default for Profile {
    fn default() -> Profile {
        Profile::of(BrokerVersion::V3_10)
    }
}

impl Profile {
    /// When a manual-ack delivery still unacked is timed out (D21), or `None`: never on
    /// this version and queue type, or no timeout (`timeout_ms` `None`).
    /// `tick_origin_ms` is when the channel's tick started (see `sim/ack_timeout.rs`).
    pub fn ack_deadline_ms(
        &self,
        quorum: bool,
        delivered_at_ms: u64,
        tick_origin_ms: u64,
        timeout_ms: Option<u64>,
    ) -> Option<u64> {
        let timeout_ms = timeout_ms?;
        let late_after_ms = delivered_at_ms.saturating_add(timeout_ms);
        match self.consumer_timeout {
            ConsumerTimeout::QuorumPerMessage if quorum => Some(late_after_ms),
            ConsumerTimeout::QuorumPerMessage => None,
            ConsumerTimeout::ChannelTick => {
                debug_assert!(tick_origin_ms <= delivered_at_ms, "the tick runs already");
                // The first tick strictly after the timeout passed: ticks fall at
                // origin + k x interval, k >= 1, and `Time < Now - Timeout` is strict.
                let ticks = (late_after_ms - tick_origin_ms) / CHANNEL_TICK_INTERVAL_MS + 1;
                Some(tick_origin_ms.saturating_add(ticks.saturating_mul(CHANNEL_TICK_INTERVAL_MS)))
            }
        }
    }
}

/// 4.3 delayed retry's type (`x-delayed-retry-type`, D16).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayedRetryKind {
    /// Every return that is not over the limit.
    All,
    /// Only returns that raised the delivery count (reject requeue, channel loss).
    Failed,
    /// Only returns that did not (nack requeue, consumer timeout).
    Returned,
}

/// A quorum queue's delayed retry (`S@v4.3.5 rabbit_quorum_queue.erl
/// get_delayed_retry_config/1`; delaylab has no policies, so the arguments decide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelayedRetry {
    pub kind: DelayedRetryKind,
    pub min_ms: u64,
    pub max_ms: u64,
}

impl DelayedRetry {
    /// `min(min × max(1, delivery_count), max)` (`calculate_ready_at/4`), with the
    /// already-raised count.
    pub fn delay_ms(&self, delivery_count: u32) -> u64 {
        self.min_ms
            .saturating_mul(u64::from(delivery_count.max(1)))
            .min(self.max_ms)
    }
}

impl Profile {
    /// The delayed retry a quorum queue's arguments configure on this version. Not
    /// validated at declare (not in `declare_args/0`): a missing, non-positive or
    /// non-integer `-min` disables it, a missing or bad `-max` is `-min` [code].
    pub fn delayed_retry_config(&self, args: &crate::value::Table) -> Option<DelayedRetry> {
        if !self.delayed_retry {
            return None;
        }
        let kind = match args.get("x-delayed-retry-type").and_then(|v| v.as_str()) {
            Some("all") => DelayedRetryKind::All,
            Some("failed") => DelayedRetryKind::Failed,
            Some("returned") => DelayedRetryKind::Returned,
            _ => return None, // "disabled", absent or anything else
        };
        let positive = |k: &str| {
            args.get(k)
                .and_then(|v| v.as_int())
                .filter(|n| *n > 0)
                .map(|n| n as u64)
        };
        let min_ms = positive("x-delayed-retry-min")?;
        let max_ms = positive("x-delayed-retry-max").unwrap_or(min_ms);
        Some(DelayedRetry {
            kind,
            min_ms,
            max_ms,
        })
    }

    /// The (`x-delivery-count`, `x-acquired-count`) a redelivery shows, 0 meaning the
    /// header is absent (D11), from the acquired and failed counts.
    pub fn delivery_headers(&self, returns: u32, failed: u32) -> (u32, u32) {
        match self.return_counting {
            ReturnCounting::EveryReturn | ReturnCounting::Acquired => (returns, 0),
            ReturnCounting::FailedOnly => (failed, returns),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use BrokerVersion::*;

    const TIMEOUT_MS: Option<u64> = Some(DEFAULT_CONSUMER_TIMEOUT_MS);

    #[test]
    fn ack_deadline_is_the_first_tick_after_the_timeout_up_to_4_2() {
        let p = Profile::of(V4_2);
        // Delivered when the tick started: the tick at 30:00 sees exactly 30 minutes
        // (not more), the one at 31:00 closes.
        assert_eq!(p.ack_deadline_ms(false, 0, 0, TIMEOUT_MS), Some(1_860_000));
        assert_eq!(p.ack_deadline_ms(true, 0, 0, TIMEOUT_MS), Some(1_860_000));
        // Delivered 5 s into the tick: the same tick at 31:00 (30:05 has passed).
        assert_eq!(
            p.ack_deadline_ms(false, 5_000, 0, TIMEOUT_MS),
            Some(1_860_000)
        );
        // A one-minute timeout: the tick at 1:00 sees exactly 1 minute, 2:00 fires.
        assert_eq!(p.ack_deadline_ms(false, 0, 0, Some(60_000)), Some(120_000));
        assert_eq!(p.ack_deadline_ms(false, 0, 0, None), None, "timeout off");
        assert_eq!(
            Profile::of(V3_10).consumer_timeout,
            ConsumerTimeout::ChannelTick
        );
    }

    #[test]
    fn ack_deadline_on_4_3_is_exact_and_quorum_only() {
        let p = Profile::of(V4_3);
        assert_eq!(p.ack_deadline_ms(true, 7, 0, TIMEOUT_MS), Some(1_800_007));
        assert_eq!(p.ack_deadline_ms(false, 7, 0, TIMEOUT_MS), None);
        assert_eq!(p.ack_deadline_ms(true, 7, 0, None), None);
    }

    #[test]
    fn consumer_timeout_text_is_rabbitmqs() {
        assert_eq!(
            consumer_timeout_text(1, DEFAULT_CONSUMER_TIMEOUT_MS),
            "PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. Timeout value used: \
             1800000 ms. This timeout value can be configured, see consumers doc guide to learn more"
        );
    }
}
