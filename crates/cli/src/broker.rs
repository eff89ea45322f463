//! `--broker V` (run, compare, replay): the RabbitMQ version profile to use, overriding
//! the scenario's `broker` field. A bad value is one line naming the option and the
//! allowed values (exit status 2), as a bad field in the file would be.

use delaylab_engine::version::BrokerVersion;

/// Reads the option's value, if given.
pub fn parse(value: Option<&str>) -> Result<Option<BrokerVersion>, String> {
    let Some(v) = value else { return Ok(None) };
    BrokerVersion::parse(v).map(Some).ok_or_else(|| {
        format!(
            "--broker: unknown RabbitMQ version {v:?}; expected {}",
            BrokerVersion::allowed_list()
        )
    })
}
