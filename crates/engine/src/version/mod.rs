//! Which RabbitMQ the simulation is: the scenario's `broker` field.
//!
//! Each [`BrokerVersion`] stands for one patch release ([`BrokerVersion::patch_release`]).
//! Three are checked against a live broker, the Debian packages this machine runs
//! (`scripts/lib/broker.sh`, `scripts/conformance.sh`): 3.10 is 3.10.8 with the
//! delayed-message plugin 3.10.2 (plugin rules from `rabbitmq-semantics.md` Part A), 4.0 is
//! 4.0.5 and 4.3 is 4.3.6 (no plugin: it cannot run there). The others follow the source and
//! release notes of one release (`shared/docs/rabbitmq-versions.md` §0): 3.13 is 3.13.7,
//! 4.1 4.1.8, 4.2 4.2.9, each with the plugin build for it; the 4.0 rules were read in
//! 4.0.9's source and 4.3's in 4.3.5's, then checked live on 4.0.5 and 4.3.6 (where the
//! two differ, the live broker is followed and the notes say so). 4.4 is 4.4.0, read in
//! the source of the branch it was released from ([`SOURCE_4_4`], rabbitmq-versions.md
//! §5.4): no 4.4 broker runs here, so nothing of it is live-checked and a first visit
//! keeps opening on 4.3. A fresh single node, all feature flags on, default
//! configuration, AMQP 0-9-1 clients.
//!
//! What differs lives in one place: [`Profile`] (`profile.rs`), a set of named rules the
//! simulation asks (`sim/*` never compares versions). [`notes`] lists, per version, the
//! differences from 3.10 with their row id (D1..D40), source and confidence, for the
//! playground's badge.
//!
//! ```text
//! "broker" absent        -> 3.10, and a saved scenario keeps it absent
//! "broker": "4.3"        -> Profile::of(V4_3): no plugin, delivery limit 20 on quorum
//!                           queues counting failed deliveries only, ...
//! delaylab run --broker 4.0 f.json  -> the file's field is overridden
//! ```

mod checks;
pub mod impact;
mod notes;
mod profile;

pub use notes::{notes, Confidence, Note};
pub use profile::*;

/// Where 4.4's rules were read: rabbitmq-server branch `qq-vNext` at `c6ab3c91aec6`
/// (2026-08-21, the head of PR #16583 "QQ: v9", which became 4.4.0's quorum queues), with
/// `qq-vNext-claim-deferred` (`cee5142351`, hours newer, deferral tokens only).
pub const SOURCE_4_4: &str = "qq-vNext c6ab3c91aec6";

/// A version profile (see the module docs for the patch release each stands for).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BrokerVersion {
    #[default]
    V3_10,
    V3_13,
    V4_0,
    V4_1,
    V4_2,
    V4_3,
    V4_4,
}

impl BrokerVersion {
    /// Every profile, oldest first.
    pub const ALL: [BrokerVersion; 7] = [
        BrokerVersion::V3_10,
        BrokerVersion::V3_13,
        BrokerVersion::V4_0,
        BrokerVersion::V4_1,
        BrokerVersion::V4_2,
        BrokerVersion::V4_3,
        BrokerVersion::V4_4,
    ];

    /// As written in a scenario's `broker` field: `"3.10"`, ..., `"4.4"`.
    pub fn as_str(self) -> &'static str {
        match self {
            BrokerVersion::V3_10 => "3.10",
            BrokerVersion::V3_13 => "3.13",
            BrokerVersion::V4_0 => "4.0",
            BrokerVersion::V4_1 => "4.1",
            BrokerVersion::V4_2 => "4.2",
            BrokerVersion::V4_3 => "4.3",
            BrokerVersion::V4_4 => "4.4",
        }
    }

    /// The patch release the profile stands for: the one it was checked against on a live
    /// broker ([`BrokerVersion::live_checked`]: Debian's 3.10.8, 4.0.5 and 4.3.6, the
    /// releases `scripts/lib/broker.sh` expects), else the one whose source it follows
    /// (rabbitmq-versions.md §0).
    pub fn patch_release(self) -> &'static str {
        match self {
            BrokerVersion::V3_10 => "3.10.8",
            BrokerVersion::V3_13 => "3.13.7",
            BrokerVersion::V4_0 => "4.0.5",
            BrokerVersion::V4_1 => "4.1.8",
            BrokerVersion::V4_2 => "4.2.9",
            BrokerVersion::V4_3 => "4.3.6",
            BrokerVersion::V4_4 => "4.4.0",
        }
    }

    /// The release whose source the rules were read in, when it is not
    /// [`BrokerVersion::patch_release`] (rabbitmq-versions.md §0: 4.0 from 4.0.9, 4.3 from
    /// 4.3.5; the live broker decides where they differ, see the version notes). 4.4's
    /// rules were read on the branch that became 4.4.0 (no v4.4.0 tag was in any stored
    /// snapshot): [`SOURCE_4_4`].
    pub fn source_release(self) -> &'static str {
        match self {
            BrokerVersion::V4_0 => "4.0.9",
            BrokerVersion::V4_3 => "4.3.5",
            BrokerVersion::V4_4 => SOURCE_4_4,
            other => other.patch_release(),
        }
    }

    /// The delayed-message plugin build the profile runs, if any (D27).
    pub fn plugin_release(self) -> Option<&'static str> {
        match self {
            BrokerVersion::V3_10 => Some("3.10.2"),
            BrokerVersion::V3_13 => Some("v3.13.0"),
            BrokerVersion::V4_0 => Some("v4.0.7"),
            BrokerVersion::V4_1 => Some("v4.1.0"),
            BrokerVersion::V4_2 => Some("v4.2.0"),
            BrokerVersion::V4_3 | BrokerVersion::V4_4 => None,
        }
    }

    /// A label for a selector: `RabbitMQ 4.3 (4.3.6)`.
    pub fn label(self) -> String {
        format!("RabbitMQ {} ({})", self.as_str(), self.patch_release())
    }

    /// Whether this profile is checked against a live broker of its patch release (the
    /// conformance suite, `scripts/conformance.sh`, runs on 3.10.8, 4.0.5 and 4.3.6).
    pub fn live_checked(self) -> bool {
        matches!(
            self,
            BrokerVersion::V3_10 | BrokerVersion::V4_0 | BrokerVersion::V4_3
        )
    }

    /// The newest version checked against a live broker: what a fresh visit of the
    /// playground opens on (a learner who runs RabbitMQ today starts where the facts were
    /// seen on a broker). Follows [`BrokerVersion::live_checked`]; never a hard-coded one.
    pub fn newest_live_checked() -> BrokerVersion {
        BrokerVersion::ALL
            .into_iter()
            .rev()
            .find(|v| v.live_checked())
            .unwrap_or_default()
    }

    /// Reads a `broker` value; `None` if it is not one of [`BrokerVersion::ALL`].
    pub fn parse(s: &str) -> Option<BrokerVersion> {
        BrokerVersion::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// `"3.10", "3.13", "4.0", "4.1", "4.2", "4.3" or "4.4"`, for error messages.
    pub fn allowed_list() -> String {
        let quoted: Vec<String> = BrokerVersion::ALL
            .iter()
            .map(|v| format!("\"{}\"", v.as_str()))
            .collect();
        let (last, rest) = quoted.split_last().expect("several versions");
        format!("{} or {last}", rest.join(", "))
    }

    /// The rules this version follows.
    pub fn profile(self) -> Profile {
        Profile::of(self)
    }
}

impl std::fmt::Display for BrokerVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_round_trips_every_version_and_refuses_others() {
        for v in BrokerVersion::ALL {
            assert_eq!(BrokerVersion::parse(v.as_str()), Some(v));
        }
        for bad in ["3.11", "4", "4.3.5", "", "v4.3"] {
            assert_eq!(BrokerVersion::parse(bad), None, "{bad}");
        }
        assert_eq!(
            BrokerVersion::allowed_list(),
            "\"3.10\", \"3.13\", \"4.0\", \"4.1\", \"4.2\", \"4.3\" or \"4.4\""
        );
        assert_eq!(BrokerVersion::V4_4.label(), "RabbitMQ 4.4 (4.4.0)");
        assert_eq!(BrokerVersion::V4_4.source_release(), SOURCE_4_4);
        assert_eq!(BrokerVersion::V4_4.plugin_release(), None);
        assert_eq!(BrokerVersion::default(), BrokerVersion::V3_10);
        assert_eq!(BrokerVersion::V4_3.label(), "RabbitMQ 4.3 (4.3.6)");
        assert_eq!(BrokerVersion::V4_0.label(), "RabbitMQ 4.0 (4.0.5)");
        assert_eq!(BrokerVersion::V4_2.label(), "RabbitMQ 4.2 (4.2.9)");
        let live: Vec<_> = BrokerVersion::ALL
            .into_iter()
            .filter(|v| v.live_checked())
            .collect();
        assert_eq!(
            live,
            [
                BrokerVersion::V3_10,
                BrokerVersion::V4_0,
                BrokerVersion::V4_3
            ]
        );
        assert_eq!(BrokerVersion::V4_3.source_release(), "4.3.5");
        assert_eq!(BrokerVersion::V4_1.source_release(), "4.1.8");
    }

    #[test]
    fn the_newest_live_checked_version_is_live_checked_and_none_newer_is() {
        let v = BrokerVersion::newest_live_checked();
        assert!(v.live_checked());
        assert!(BrokerVersion::ALL
            .iter()
            .filter(|w| **w > v)
            .all(|w| !w.live_checked()));
        // 4.4 is read in the source only: a first visit keeps opening on 4.3.
        assert_eq!(v, BrokerVersion::V4_3);
        assert!(!BrokerVersion::V4_4.live_checked());
    }
}
