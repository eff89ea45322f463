//! Scenario values by the names the scenario format spells them with, for readers other
//! than the loader (the playground's consumer form offers the same words).

use super::model::Outcome;

impl Outcome {
    /// Every outcome, in the order a form lists them.
    pub const ALL: [Outcome; 6] = [
        Outcome::Ack,
        Outcome::Reject,
        Outcome::Requeue,
        Outcome::RejectRequeue,
        Outcome::NackMultiple,
        Outcome::Republish,
    ];

    /// `"ack"`, `"reject"`, `"requeue"` (basic.nack requeue=true), `"reject_requeue"`
    /// (basic.reject requeue=true), `"nack_multiple"` (basic.nack multiple=true
    /// requeue=true) or `"republish"` (ack and publish a copy), as in a consumer's
    /// `outcome`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ack => "ack",
            Outcome::Reject => "reject",
            Outcome::Requeue => "requeue",
            Outcome::RejectRequeue => "reject_requeue",
            Outcome::NackMultiple => "nack_multiple",
            Outcome::Republish => "republish",
        }
    }

    /// The outcome a name spells, if any.
    pub fn from_name(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::from_name(o.name()), Some(o));
        }
        assert_eq!(Outcome::from_name("nack"), None);
    }
}
