//! Upgrading the node to another RabbitMQ version inside a scenario
//! (`{"upgrade": {"to": "4.3", "downtime": "30s"}}`).
//!
//! An upgrade is a restart (`sim/node.rs`: consumers disconnected, non-durable queues
//! and exchanges gone, transient messages of classic queues lost, durable queues and
//! their persistent messages kept) after which the node runs the new version's
//! [`Profile`](crate::version::Profile):
//!
//! - quorum queues read their configuration again: from 4.0 a queue without
//!   `x-delivery-limit` gets the default limit 20 (for queues carried over from 3.13
//!   this is [unconfirmed], rabbitmq-versions.md §2.3), `-1` becomes unlimited;
//! - to 4.3 from a version with the delayed-message plugin: the plugin cannot run (D27).
//!   Every message it held is lost, never delivered (plugin README: "ALL DELAYED
//!   MESSAGES THAT HAVEN'T BEEN DELIVERED WILL BE LOST"; nothing in 4.3 reads its
//!   node-local tables) — `dropped` with reason `plugin_removed`. Its exchanges stay in
//!   the metadata store: a publish through one gets 406 `Cannot route message through
//!   exchange ...`, re-declaring one 406 `invalid exchange type` [code];
//! - what the new version refuses (D22, D23, D26, D31) fails when it is declared again.
//!
//! RabbitMQ cannot be downgraded: an `upgrade` to an older version restarts the node on
//! its own version and says so. An `upgrade` to the version the node already runs (a
//! preset written for 4.2 loaded on 4.3) is what a package reinstall of the same release
//! is: a restart, nothing else; the event says so (`from` = `to`), never "4.3 → 4.3".
//!
//! ```text
//! 4.2, 3 orders in the delayed exchange
//! t=20m  upgrade to 4.3, downtime 30s: node_down
//! t=20m30s broker_upgraded (text: 3 messages lost), dropped x3 (plugin_removed), node_up
//! t=21m  publish to the delayed exchange: error 406 Cannot route message through ...
//! ```

use std::rc::Rc;

use super::Sim;
use crate::amqp::queue_args;
use crate::cause::DropCause;
use crate::event::{DropReason, EventKind};
use crate::ids::QueueId;
use crate::version::BrokerVersion;

impl Sim {
    pub(crate) fn upgrade(&mut self, to: BrokerVersion, downtime_ms: u64) {
        if !self.node_up {
            return; // already down: as restart_node
        }
        self.restart_node(downtime_ms);
        if let Some(down) = self.downtime.as_mut() {
            down.upgrade_to = Some(to);
        }
    }

    /// At the end of an upgrade's downtime, before the node is up again.
    pub(crate) fn come_back_as(&mut self, to: BrokerVersion) {
        let from = self.profile.version;
        if to < from {
            let text = format!(
                "RabbitMQ cannot be downgraded: the node restarted on {from} instead of {to}."
            );
            return self.emit(EventKind::BrokerUpgraded {
                from,
                to: from,
                text: Rc::from(text),
            });
        }
        if to == from {
            let text = format!(
                "The node restarted on RabbitMQ {}, the version it already runs: an upgrade to the same version is only a restart (durable queues and their persistent messages are back; nothing else changes).",
                to.patch_release()
            );
            return self.emit(EventKind::BrokerUpgraded {
                from,
                to,
                text: Rc::from(text),
            });
        }
        let old = self.profile;
        self.profile = to.profile();
        for x in self.exchanges.values_mut() {
            x.headers_exact = self.profile.headers_exact_match;
        }
        let mut lines = vec![format!(
            "The node came back as RabbitMQ {} (was {from}). Durable queues and their persistent messages are back, as after any restart.",
            to.patch_release()
        )];
        let steps = BrokerVersion::ALL
            .iter()
            .filter(|v| from < **v && **v <= to)
            .count();
        if steps > 1 {
            lines.push(
                "A real upgrade goes one minor version at a time (3.13, 4.0, 4.1, 4.2, 4.3), with all feature flags enabled in between."
                    .into(),
            );
        }
        let quorum_changed = self.reconfigure_quorum_queues();
        if old.quorum_default_delivery_limit.is_none() && quorum_changed > 0 {
            if let Some(limit) = self.profile.quorum_default_delivery_limit {
                lines.push(format!(
                    "{quorum_changed} quorum queue(s) without x-delivery-limit now dead-letter a message after {limit} returns (the default since 4.0)."
                ));
            }
        }
        let mut lost = Vec::new();
        if old.delayed_plugin && !self.profile.delayed_plugin {
            lost = self.delayed.take_all();
            let exchanges: Vec<String> = self
                .exchanges
                .values()
                .filter(|x| x.delayed)
                .map(|x| format!("'{}'", self.syms.str(x.name)))
                .collect();
            lines.push(format!(
                "RabbitMQ {to} cannot run the delayed-message plugin (Mnesia is gone; the plugin is archived): the {} message(s) it was holding are lost and will never be delivered.",
                lost.len()
            ));
            if !exchanges.is_empty() {
                lines.push(format!(
                    "The delayed exchange {} is still declared, but every publish to it now fails with 406 and closes the channel.",
                    exchanges.join(", ")
                ));
            }
        }
        self.emit(EventKind::BrokerUpgraded {
            from,
            to,
            text: Rc::from(lines.join(" ")),
        });
        for (_, copy, stored) in lost {
            self.emit(EventKind::Dropped {
                msg: stored.msg.id,
                copy: Some(copy),
                queue: None,
                reason: DropReason::PluginRemoved,
                why: DropCause::Plain,
            });
            self.end_copy();
        }
    }

    /// Quorum queues read their delivery limit and delayed retry again under the new
    /// profile; returns how many of those without `x-delivery-limit` changed limit.
    fn reconfigure_quorum_queues(&mut self) -> usize {
        let profile = self.profile;
        let ids: Vec<QueueId> = self
            .queues()
            .filter(|q| q.is_quorum())
            .map(|q| q.id)
            .collect();
        let mut defaulted = 0;
        for qid in ids {
            let name = self
                .syms
                .str(self.queue(qid).expect("queue").name)
                .to_string();
            let q = self.queue_mut(qid).expect("queue");
            let declared = queue_args::validate_queue_declare(
                &name,
                q.durable,
                q.exclusive,
                q.auto_delete,
                &q.arguments,
            )
            .ok()
            .and_then(|cfg| cfg.delivery_limit);
            let limit = profile.effective_delivery_limit(declared);
            if declared.is_none() && limit != q.rules.delivery_limit {
                defaulted += 1;
            }
            q.rules.delivery_limit = limit;
            q.rules.delayed_retry = profile.delayed_retry_config(&q.arguments);
        }
        defaulted
    }
}
