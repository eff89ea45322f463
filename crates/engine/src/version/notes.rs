//! The version notes: for each version, the differences from 3.10 the simulation applies
//! (and the ones it knows of but does not simulate), each with its row of
//! `shared/docs/rabbitmq-versions.md`, its source and how it is known: seen on a live
//! broker of that version (the conformance suite, `tests/conformance/`, on 4.0.5 and
//! 4.3.6) or read in RabbitMQ's source and release notes. The playground's badge lists
//! them; tests check that every applied row has a boundary test.

use super::BrokerVersion;
use BrokerVersion::*;

/// How a note is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confidence {
    /// Seen on a live broker of this version: a conformance case (`tests/conformance/`)
    /// shows it and the simulation agrees (3.10.8, 4.0.5, 4.3.6).
    LiveChecked,
    /// Stated in RabbitMQ's release notes or docs, or by a test in its repository.
    ReleaseNotes,
    /// Inferred from reading RabbitMQ's source, not run on a broker (`[code]`).
    Code,
    /// Read in the source, and the queue's state machine (`rabbit_fifo`) of that source
    /// was compiled and driven through its commands directly, no broker (`[run]`,
    /// rabbitmq-versions.md §5.4: 4.4's branch).
    Run,
    /// Not written in the source: concluded from what the source does around it
    /// (`[inferred]`).
    Inferred,
    /// No source found, or the sources disagree (`[unconfirmed]`).
    Unconfirmed,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::LiveChecked => "live-checked",
            Confidence::ReleaseNotes => "release notes",
            Confidence::Code => "code",
            Confidence::Run => "run on the state machine",
            Confidence::Inferred => "inferred",
            Confidence::Unconfirmed => "unconfirmed",
        }
    }
}

/// One difference, as the playground shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Note {
    /// `D1` .. `D33` (rabbitmq-versions.md §1), or `base` for the 3.10 baseline.
    pub row: &'static str,
    pub text: &'static str,
    /// Where it comes from: tag and file, release note, docs page.
    pub source: &'static str,
    /// [`Confidence::LiveChecked`] on a version whose live broker showed it, else how the
    /// source states it.
    pub confidence: Confidence,
    /// The conformance cases that show it live (`tests/conformance/<case>.json`), empty
    /// when it was not seen live on this version.
    pub checked_by: &'static str,
    /// False: known, but not part of what delaylab simulates (the text says why).
    pub simulated: bool,
}

impl Note {
    /// Seen on a live broker of this version (else read in the source and notes).
    pub fn seen_live(&self) -> bool {
        self.confidence == Confidence::LiveChecked
    }
}

struct Row {
    note: Note,
    /// The first version it applies to, and the last (inclusive).
    from: BrokerVersion,
    to: BrokerVersion,
    /// The versions among them a conformance case shows it on, live.
    live: &'static [BrokerVersion],
}

#[allow(clippy::too_many_arguments)] // one table row: every field is named where it is read
const fn row(
    row: &'static str,
    from: BrokerVersion,
    to: BrokerVersion,
    confidence: Confidence,
    simulated: bool,
    live: &'static [BrokerVersion],
    checked_by: &'static str,
    text: &'static str,
    source: &'static str,
) -> Row {
    Row {
        note: Note {
            row,
            text,
            source,
            confidence,
            checked_by,
            simulated,
        },
        from,
        to,
        live,
    }
}

use Confidence::{Code, Inferred, ReleaseNotes, Run, Unconfirmed};

/// Seen live on both 4.x brokers of the suite, on 4.3.6 only, on 4.0.5 only, or not at all.
const LIVE_4: &[BrokerVersion] = &[V4_0, V4_3];
const LIVE_4_3: &[BrokerVersion] = &[V4_3];
const LIVE_4_0: &[BrokerVersion] = &[V4_0];
const NOT_LIVE: &[BrokerVersion] = &[];

const ROWS: &[Row] = &[
    row("D1", V4_0, V4_4, ReleaseNotes, true, LIVE_4, "v01-client-x-death",
        "A client-supplied x-death header is no longer merged: the next dead-lettering replaces it (count starts at 1 again).",
        "RN 4.0.1; S@v4.0.9 mc.erl record_death/4"),
    row("D2", V3_13, V4_4, ReleaseNotes, true, LIVE_4, "v02-last-death-and-cc-with-dlrk, r07a, r07b",
        "Dead-lettered messages also carry x-last-death-reason, x-last-death-queue and x-last-death-exchange.",
        "S@v3.13.0 mc.erl record_death/3, mc_amqpl.erl deaths_to_headers/2"),
    row("D4", V3_13, V4_4, Code, true, LIVE_4, "v02-last-death-and-cc-with-dlrk",
        "x-death routing-keys are the keys recorded at publish (publish key and CC), not the first key plus the current CC header.",
        "S@v3.13.7 mc.erl record_death, commit f8ddfe6015"),
    row("D5", V3_13, V4_4, ReleaseNotes, true, LIVE_4, "v02-last-death-and-cc-with-dlrk, r08b",
        "The CC header stays on a dead-lettered copy even when x-dead-letter-routing-key is set.",
        "S@v3.13.0 test dead_letter_headers_CC_with_routing_key"),
    row("D6", V3_13, V4_4, Code, true, LIVE_4, "r06a",
        "expiration is shown re-rendered as an integer (\"+5\" becomes \"5\"), also in original-expiration.",
        "S@v3.13.7 mc_amqpl.erl protocol_state/2"),
    row("D7", V3_13, V4_4, ReleaseNotes, true, LIVE_4, "x04, v27-delayed-exchange-without-plugin",
        "Declaring an unknown exchange type closes the channel with 406 PRECONDITION_FAILED (3.10: connection closed with 503).",
        "RN 3.13.3 #11215, commit 312b3e0054"),
    row("D8", V4_0, V4_4, ReleaseNotes, true, LIVE_4, "v08a, v08b",
        "Quorum queues have a delivery limit of 20 by default: the 21st return dead-letters the message (delivery_limit).",
        "RN 4.0.1; S@v4.0.9 rabbit_quorum_queue.erl ?DEFAULT_DELIVERY_LIMIT"),
    row("D9", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v08a, v08b",
        "The quorum delivery limit counts only failed deliveries (basic.reject requeue, channel or connection loss), not basic.nack requeue.",
        "S@v4.3.5 rabbit_channel.erl, commit 84432522bf #15387; docs quorum-queues \"When is delivery count incremented?\""),
    row("D10", V4_0, V4_4, ReleaseNotes, true, LIVE_4, "v12-quorum-requeue-position",
        "x-delivery-limit -1 means unlimited (3.x: dead-lettered at the first return, seen live on 3.10.8).",
        "S@v4.0.9 rabbit_fifo.erl update_config/2; 3.x side S@v3.10.8 rabbit_fifo.erl return_one"),
    row("D11", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v08a, v08b, v16a",
        "Redelivered quorum messages carry x-acquired-count (every return) and x-delivery-count (failed deliveries only).",
        "S@v4.3.5 rabbit_fifo_client.erl; blog 2026-04-23 RabbitMQ 4.3 release"),
    row("D12", V4_0, V4_2, Code, true, LIVE_4_0, "v12-quorum-requeue-position",
        "A quorum queue serves a requeued message first (the default limit makes every queue limited); with x-delivery-limit -1 it goes to the back.",
        "S@v4.2.9 rabbit_fifo_client.erl send_command/5"),
    row("D12", V4_3, V4_4, Code, true, LIVE_4_3, "v12-quorum-requeue-position",
        "A quorum queue always serves a requeued message first, even with x-delivery-limit -1.",
        "S@v4.3.5 rabbit_fifo_client.erl send_command/5, commit d56a4e676d"),
    row("D14", V4_0, V4_4, ReleaseNotes, false, NOT_LIVE, "",
        "Quorum queues support message priorities (not simulated: delaylab has no priorities).",
        "S@v4.0.9 rabbit_fifo_q.erl; S@v4.3.5 rabbit_fifo_pq.erl"),
    row("D15", V4_3, V4_4, ReleaseNotes, true, NOT_LIVE, "",
        "Quorum expiry checks the head of the returned messages and the head of the queue, so an expired head is not held up by a live returned message.",
        "S@v4.3.5 rabbit_fifo.erl expire_batch/3, PR #15846"),
    row("D16", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v16a, v16b, v16c",
        "Quorum delayed retry: x-delayed-retry-type (all, failed, returned), -min and -max set a returned message aside for min x delivery-count (at most max).",
        "S@v4.3.5 rabbit_fifo.erl return_one/8, calculate_ready_at/4; docs quorum-queues #delayed-retry"),
    row("D17", V4_0, V4_4, ReleaseNotes, false, NOT_LIVE, "",
        "Quorum x-expires and an expires policy: the minimum wins (not simulated: no policies).",
        "commit e8c5d22e9b"),
    row("D19", V4_2, V4_4, ReleaseNotes, false, NOT_LIVE, "",
        "Several heads dropped at once by drop-head are dead-lettered oldest first (delaylab drops them one at a time, oldest first, in every version).",
        "RN 4.2.1 #14926"),
    row("D20", V4_3, V4_4, ReleaseNotes, true, NOT_LIVE, "",
        "Purging a quorum queue also removes the dead letters waiting in it for at-least-once dead-lettering (before 4.3 they stay and are retried).",
        "RN 4.3.0 #13885"),
    row("D21", V3_13, V4_2, Code, true, NOT_LIVE, "",
        "A queue's x-consumer-timeout argument replaces consumer_timeout for deliveries from it (still checked on the channel's one-minute tick); a value that is not an integer means no timeout for that queue. 3.10 ignores the argument.",
        "S@v3.13.7 rabbit_channel.erl get_queue_consumer_timeout/2 (args_policy_lookup consumer-timeout, since 3.12)"),
    row("D21", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v21-consumer-timeout",
        "The consumer ack timeout (consumer_timeout, 30 min by default) applies to quorum queues only, exactly at delivery + timeout: only the timed-out message goes back (a return, not a failed delivery) and the consumer is cancelled with basic.cancel; classic queues never time out. A consumer's own x-consumer-timeout argument wins over the queue's, which wins over consumer_timeout; consumer_timeout turned off means 24 hours there. Up to 4.2 the channel's one-minute tick closes the channel with 406 for every queue type and all its unacked messages go back.",
        "RN 4.3.0; S@v4.3.5 rabbit_queue_type.erl consume/3, get_consumer_timeout/2, rabbit_channel.erl handle_queue_actions/2; S@v4.2.9 rabbit_channel.erl evaluate_consumer_timeout/1"),
    row("4.3.7", V4_3, V4_4, ReleaseNotes, true, NOT_LIVE, "",
        "consumer_timeout_response (RabbitMQ 4.3.7, named in a scenario): notify_consumer, the default, cancels the consumer with basic.cancel as 4.3.0 to 4.3.6 do; close_channel closes its channel with 406 at the same moment (quorum queues only, exactly on time), everything else it held going back as at any channel close. From the release page only: 4.3.7's code was not read, and the 4.3 profile stands for 4.3.6, which has no such setting. An open report (discussion #18207) says that with notify_consumer a later timeout on the same channel still closes it with 406: unconfirmed, not simulated.",
        "RN 4.3.7 (release page); S@v4.3.5 rabbit_channel.erl handle_consumer_timed_out/5 (the fallback that closes the channel)"),
    row("D22", V4_3, V4_3, ReleaseNotes, true, LIVE_4_3, "v22-transient-non-exclusive",
        "A non-durable, non-exclusive queue is still accepted by 4.3.6 (only a warning in the broker's log: transient_nonexcl_queues is deprecated but permitted by default). 4.3.0 to 4.3.5 refuse it: connection closed with 541.",
        "live 4.3.6; S@v4.3.5 rabbit_amqqueue.erl declare/7 (denied_by_default), test when_transient_nonexcl_is_not_permitted"),
    row("D22", V4_4, V4_4, Unconfirmed, true, NOT_LIVE, "",
        "A non-durable, non-exclusive queue is accepted, as the live 4.3.6 accepts it (assumed: the source 4.4.0 was released from still marks transient_nonexcl_queues denied_by_default, as 4.3.5's did before 4.3.6 accepted it live).",
        "qq-vNext c6ab3c91aec6 rabbit_amqqueue.erl -rabbit_deprecated_feature transient_nonexcl_queues; live 4.3.6"),
    row("D23", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v23-queue-arguments-4-3",
        "x-queue-version 1 is refused with 406 (only version 2 exists).",
        "commit a67de22527"),
    row("D24", V4_3, V4_4, Unconfirmed, true, LIVE_4_3, "v23-queue-arguments-4-3",
        "x-queue-mode on a classic queue is accepted and ignored (the 4.3.0 release notes say it errors out; live 4.3.6 accepts it).",
        "live 4.3.6; RN 4.3.0 vs S@v4.3.5 rabbit_classic_queue:capabilities/0"),
    row("D25", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v25-global-qos",
        "basic.qos global=true is treated as global=false: a quorum queue accepts the consumer (3.10 to 4.2 close the connection with 540 NOT_IMPLEMENTED, does not support global qos).",
        "commit c916eeb893; test when_global_qos_is_not_permitted; 3.10 to 4.2 rabbit_quorum_queue:consume/3"),
    row("D26", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v26-topic-hash-cap",
        "A topic binding key with more than two '#' words is refused with 406 (4.3.5 and later; 4.3.0 to 4.3.4 accept it).",
        "RN 4.3.5 #17039, commit c5ed7c4e97"),
    row("D27", V4_3, V4_4, ReleaseNotes, true, LIVE_4_3, "v27-delayed-exchange-without-plugin",
        "No delayed-message plugin: x-delayed-message is an unknown exchange type; one carried over by an upgrade refuses every publish with 406 and its stored messages are lost.",
        "RN 4.3.0 (Mnesia removed); P@v4.2.0 Makefile broker_version_requirements [\"4.2.0\"]; plugin README"),
    row("D28", V3_13, V4_2, Code, true, NOT_LIVE, "",
        "A void (null) x-delay closes the connection with 541 (3.10: no delay). Also, per the code, a signed-byte x-delay gives no delay and a decimal one 541: scenario JSON has no such types.",
        "P@v3.13.0 rabbit_delayed_message_utils:get_delay/1"),
    row("D30", V4_0, V4_4, Code, true, LIVE_4, "v30-dead-letter-delivery-count",
        "A message dead-lettered out of a quorum queue carries its failed-delivery count (a basic.reject requeue=false adds one) into a quorum target: delivered from there as redelivered, with x-delivery-count (4.3: and x-acquired-count), counted toward that queue's delivery limit. (4.3 also carries it from classic sources, per the code: not simulated.)",
        "S@v4.0.9 rabbit_fifo.erl annotate_msg/2, maybe_set_msg_delivery_count/2; rabbit_fifo_client.erl add_delivery_count_header/2"),
    row("D31", V4_3, V4_4, Code, true, LIVE_4_3, "v23-queue-arguments-4-3",
        "A classic queue refuses x-consumer-timeout, x-consumer-disconnected-timeout and x-delayed-retry-* with 406.",
        "S@v4.3.5 rabbit_amqqueue.erl check_arguments_key/4"),
    row("D32", V3_13, V4_4, Code, true, LIVE_4, "v32-headers-exact-match",
        "A headers exchange compares values exactly: 1 no longer matches 1.0.",
        "S@v3.13.0 rabbit_exchange_type_headers.erl"),
    // 4.4.0: read on qq-vNext c6ab3c91aec6 (rabbitmq-versions.md §5.4). "F" below is
    // deps/rabbit/src/rabbit_fifo.erl, "QQ" rabbit_quorum_queue.erl on that branch.
    row("D34", V4_4, V4_4, Run, true, NOT_LIVE, "",
        "A quorum queue holds a message published with x-opt-delivery-time (Unix time in ms) later than now until that time: confirmed and in the queue, but not ready and not delivered; then an exact timer releases it to the back of the returned messages, ahead of the ready backlog. Held messages go in order of their own time (ties in publish order): no head-of-line blocking between them; priorities do not apply to them. A time now or past, a classic queue, and every version before 4.4 deliver at once, the header unchanged.",
        "qq-vNext c6ab3c91aec6 QQ deliver/3, annotate_delivery_time/1; F maybe_enqueue/8, get_delivery_time/2, delayed_in/5, expire_shallow/2, timer_effect/2, take_next_msg/1; 4.4.0 release; the plugin's README"),
    row("D35", V4_4, V4_4, Code, true, NOT_LIVE, "",
        "x-opt-delivery-time types: every AMQP 0-9-1 integer type is milliseconds; a timestamp is seconds (x 1000); a string (even \"1800000\"), float, double, bool or void is ignored; no upper limit.",
        "qq-vNext c6ab3c91aec6 mc_amqpl.erl from_091/2 (timestamp -> V * 1000), QQ annotate_delivery_time/1 (is_integer)"),
    row("D36", V4_4, V4_4, Inferred, true, NOT_LIVE, "",
        "A decimal x-opt-delivery-time on a message routed to a quorum queue crashes the publishing channel: the connection is closed with 541 INTERNAL_ERROR (mc_amqpl has no conversion for decimal). delaylab refuses the whole publish; a classic queue also routed to may have got it first.",
        "qq-vNext c6ab3c91aec6 mc_amqpl.erl from_091/2 (no decimal clause), x_header/2; rabbit_queue_type.erl deliver0/4"),
    row("D37", V4_4, V4_4, Run, true, NOT_LIVE, "",
        "A held message's TTL (x-message-ttl, expiration) runs from publish and is not checked while it is held; released after its TTL, it expires at once (dead-lettered as expired).",
        "qq-vNext c6ab3c91aec6 F maybe_set_msg_ttl/4, expire_shallow/2, expire_batch/3"),
    row("D38", V4_3, V4_3, Code, true, NOT_LIVE, "",
        "Messages held by delayed retry count toward x-max-length and x-max-length-bytes; reject-publish refuses while they fill the queue; drop-head drops ready messages only.",
        "S@v4.3.5 rabbit_fifo.erl messages_ready_plus_delayed/1, is_over_limit/1, drop_head/2"),
    row("D38", V4_4, V4_4, Run, true, NOT_LIVE, "",
        "Held messages (delayed retry, x-opt-delivery-time) count toward x-max-length and x-max-length-bytes; reject-publish refuses while they fill the queue; drop-head drops ready messages only.",
        "qq-vNext c6ab3c91aec6 F messages_ready_plus_delayed/1, is_over_limit/1, drop_head/2"),
    row("D39", V4_3, V4_3, Code, true, NOT_LIVE, "",
        "Held messages alone over a drop-head limit: the queue's state machine loops forever looking for a ready message to drop (the queue hangs); delaylab stops the run there and says so.",
        "S@v4.3.5 rabbit_fifo.erl evaluate_limit0/4 with drop_head/2 returning the state unchanged"),
    row("D39", V4_4, V4_4, Unconfirmed, true, NOT_LIVE, "",
        "Held messages alone over a drop-head limit: the queue's state machine loops forever looking for a ready message to drop (the queue hangs; run on the branch); delaylab stops the run there and says so. Whether 4.4.0 fixed it is not known.",
        "qq-vNext c6ab3c91aec6 F evaluate_limit0/4, drop_head/2 [run]"),
    row("D40", V4_4, V4_4, Unconfirmed, true, NOT_LIVE, "",
        "Dead-lettered into a quorum queue with x-opt-delivery-time still ahead: at-most-once dead-lettering (the default) enqueues it ready at once (run on the branch); at-least-once holds it again (inferred). PR #17288, which parks it on the at-most-once path too, was closed without being merged; what 4.4.0 does is not confirmed.",
        "qq-vNext c6ab3c91aec6 F maybe_enqueue/8 (untracked clause), rabbit_dead_letter.erl publish/5 (stateless); rabbit_fifo_dlx_worker.erl; PR #17288"),
    row("D41", V4_4, V4_4, Code, true, NOT_LIVE, "",
        "The delivery limit counts returns only: a held message is not affected, and a message returned (nack or reject requeue) after its release is not held again.",
        "qq-vNext c6ab3c91aec6 F return_one/8, should_delay/5 (the return's own annotations, none from AMQP 0-9-1)"),
    row("D42", V4_4, V4_4, Code, true, NOT_LIVE, "",
        "queue.purge removes held messages and counts them; basic.get and message_count (queue.declare-ok, basic.get-ok) leave them out: basic.get is empty while only held messages are in the queue. Consumers cancelling do not touch them.",
        "qq-vNext c6ab3c91aec6 F apply_/3 #purge{} and {dequeue, _}, messages_ready/1 (overview/1 num_ready_messages, read by rabbit_fifo_client:stat/2)"),
    row("D43", V4_4, V4_4, Inferred, true, NOT_LIVE, "",
        "Held messages are replicated queue state with absolute times: they survive a node restart and the loss of a node as the rest of the quorum queue does; the timer is armed again on the new leader and what fell due meanwhile is released at once.",
        "qq-vNext c6ab3c91aec6 F state #delayed{} (in the Raft log and snapshots), timer_effect/2 on recovery"),
    row("D44", V4_4, V4_4, ReleaseNotes, false, NOT_LIVE, "",
        "The x-amqp-1.0-* AMQP 0-9-1 headers and x-basic-* annotations are no longer parsed (not simulated: nothing delaylab publishes carries them).",
        "RN 4.4.0 Breaking Changes"),
];

const BASELINE: Note = Note {
    row: "base",
    text: "RabbitMQ 3.10.8 with the delayed-message plugin 3.10.2, checked against a live broker (the plugin's rules from rabbitmq-semantics.md Part A: Debian does not ship it).",
    source: "rabbitmq-semantics.md Part A; tests/conformance/",
    confidence: Confidence::LiveChecked,
    checked_by: "tests/conformance/*.json",
    simulated: true,
};

/// The notes of `version`: for 3.10 the live-checked baseline; for the others, every
/// difference from 3.10 that applies to it, in row order, marked seen live where a
/// conformance case shows it on a live broker of that version.
pub fn notes(version: BrokerVersion) -> Vec<Note> {
    if version == V3_10 {
        return vec![BASELINE];
    }
    ROWS.iter()
        .filter(|r| r.from <= version && version <= r.to)
        .map(|r| {
            let live = r.live.contains(&version);
            debug_assert!(
                !live || version.live_checked(),
                "{} seen on a live {version}?",
                r.note.row
            );
            Note {
                confidence: if live {
                    Confidence::LiveChecked
                } else {
                    r.note.confidence
                },
                checked_by: if live { r.note.checked_by } else { "" },
                ..r.note
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_follow_the_table() {
        assert_eq!(notes(V3_10), vec![BASELINE]);
        let rows = |v| notes(v).iter().map(|n| n.row).collect::<Vec<_>>();
        assert!(rows(V3_13).contains(&"D2") && !rows(V3_13).contains(&"D8"));
        assert!(rows(V4_0).contains(&"D8") && !rows(V4_0).contains(&"D27"));
        assert!(rows(V4_3).contains(&"D27") && rows(V4_3).contains(&"D16"));
        assert!(!rows(V4_3).contains(&"D28"));
        for v in BrokerVersion::ALL {
            // Only a version checked against a live broker has notes seen live, and each
            // names the case that shows it.
            for n in notes(v) {
                assert!(!n.seen_live() || v.live_checked(), "{v} {}", n.row);
                assert_eq!(n.seen_live(), !n.checked_by.is_empty(), "{v} {}", n.row);
            }
        }
        let seen = |v, row| notes(v).iter().any(|n| n.row == row && n.seen_live());
        assert!(seen(V4_3, "D16") && seen(V4_3, "D22") && seen(V4_0, "D8"));
        assert!(!seen(V4_2, "D8"), "4.2 is read in the source only");
        assert!(!seen(V4_3, "D14"), "priorities are not simulated");
    }

    #[test]
    fn every_case_a_note_names_exists() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/conformance");
        for r in ROWS {
            for case in r.note.checked_by.split(", ").filter(|c| !c.is_empty()) {
                let found = std::fs::read_dir(dir)
                    .expect("tests/conformance")
                    .filter_map(Result::ok)
                    .any(|e| e.file_name().to_string_lossy().starts_with(case));
                assert!(found, "{}: no tests/conformance/{case}*.json", r.note.row);
            }
        }
    }
}
