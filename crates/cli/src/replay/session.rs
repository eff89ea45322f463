//! The replay's connections to the broker: the actions' connection and its channel in
//! confirm mode, reopened after the broker closes it (a channel error such as a 406 for
//! a bad `expiration` or a 404; a connection error such as a 503), and the clean-up that
//! deletes everything the scenario could have declared.

use std::time::Duration;

use lapin::options::{ConfirmSelectOptions, ExchangeDeleteOptions, QueueDeleteOptions};
use lapin::{Channel, Connection, ConnectionProperties};

use delaylab_engine::scenario::rename::{is_reserved, Rename};

use super::recording::Shared;

/// AMQP's reply code for a normal close (`connection.close` / `channel.close`).
pub const REPLY_SUCCESS: u16 = 200;
/// How long [`Actions::settle`] waits for a closing channel or connection to be gone:
/// up to `SETTLE_POLLS` checks `SETTLE_POLL` apart (about 200 ms).
const SETTLE_POLLS: u32 = 200;
const SETTLE_POLL: Duration = Duration::from_millis(1);

/// One AMQP connection named "delaylab replay" (the password is kept out of errors).
pub async fn connect(url: &str) -> Result<Connection, String> {
    Connection::connect(
        url,
        ConnectionProperties::default().with_connection_name("delaylab replay".into()),
    )
    .await
    .map_err(|e| format!("cannot connect to {}: {e}", redact(url)))
}

/// The URL without its password, for messages and the output.
pub fn redact(url: &str) -> String {
    // amqp://user:pass@host -> amqp://user:***@host
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let cred = &url[s + 3..at];
            match cred.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &cred[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The actions' connection and channel (confirm mode), reopened after errors.
pub struct Actions {
    url: String,
    pub conn: Connection,
    ch: Channel,
    /// Publishes whose confirm has not been awaited yet (body, confirm).
    pub pending: Vec<(String, lapin::PublisherConfirm)>,
}

impl Actions {
    pub async fn open(url: &str) -> Result<Actions, String> {
        let conn = connect(url).await?;
        let ch = Actions::new_channel(&conn).await?;
        Ok(Actions {
            url: url.to_string(),
            conn,
            ch,
            pending: Vec::new(),
        })
    }

    async fn new_channel(conn: &Connection) -> Result<Channel, String> {
        let ch = conn
            .create_channel()
            .await
            .map_err(|e| format!("cannot open a channel: {e}"))?;
        ch.confirm_select(ConfirmSelectOptions::default())
            .await
            .map_err(|e| format!("confirm.select: {e}"))?;
        Ok(ch)
    }

    /// A usable channel: a new one after a channel error, a new connection after a
    /// connection error.
    pub async fn channel(&mut self) -> Result<Channel, String> {
        if !self.conn.status().connected() {
            self.conn = connect(&self.url).await?;
            self.ch = Actions::new_channel(&self.conn).await?;
        } else if !self.ch.status().connected() {
            self.ch = Actions::new_channel(&self.conn).await?;
        }
        Ok(self.ch.clone())
    }

    /// Waits until a closing channel/connection is really gone, so the next action
    /// opens a fresh one.
    pub async fn settle(&mut self) {
        for _ in 0..SETTLE_POLLS {
            if !self.ch.status().closing() && !self.conn.status().closing() {
                return;
            }
            tokio::time::sleep(SETTLE_POLL).await;
        }
    }
}

/// Records a broker error (and lets the channel be reopened); Ok for success.
pub async fn check(
    shared: &Shared,
    actions: &mut Actions,
    r: lapin::Result<()>,
    body: Option<&str>,
) -> Result<(), String> {
    if let Err(e) = r {
        shared.error(&e, body);
        actions.settle().await;
    }
    Ok(())
}

/// Deletes every prefixed queue and exchange the scenario could have created.
pub async fn cleanup(url: &str, names: &Rename) -> Result<(), String> {
    let conn = connect(url).await?;
    let mut ch = conn.create_channel().await.map_err(|e| e.to_string())?;
    for q in names.names().queues.iter().filter(|q| !is_reserved(q)) {
        if !ch.status().connected() {
            ch = conn.create_channel().await.map_err(|e| e.to_string())?;
        }
        let _ = ch
            .queue_delete(names.name(q).as_str().into(), QueueDeleteOptions::default())
            .await;
    }
    for x in names.names().exchanges.iter().filter(|x| !is_reserved(x)) {
        if !ch.status().connected() {
            ch = conn.create_channel().await.map_err(|e| e.to_string())?;
        }
        let _ = ch
            .exchange_delete(
                names.name(x).as_str().into(),
                ExchangeDeleteOptions::default(),
            )
            .await;
    }
    let _ = conn.close(REPLY_SUCCESS, "OK".into()).await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacts_the_password() {
        assert_eq!(
            redact("amqp://guest:secret@127.0.0.1:5672/%2F"),
            "amqp://guest:***@127.0.0.1:5672/%2F"
        );
        assert_eq!(redact("amqp://127.0.0.1"), "amqp://127.0.0.1");
    }
}
