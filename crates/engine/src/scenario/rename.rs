//! A scenario's names on a shared broker, in one place: `delaylab replay` and the
//! exported programs (`crates/export`, `plan.rs`) declare every exchange and queue of the
//! scenario as `PREFIX` + name (`dl-<random>-`), so a run never touches what already
//! lives on the broker and two runs can share one. This module says which strings are
//! names and how they are renamed; it is pure (the prefix is given).
//!
//! ## The rule
//!
//! - Exchange and queue names get the prefix, except the ones the broker reserves: `""`
//!   (the default exchange; a server-named queue) and `amq.*` (refusing a declaration of
//!   `amq.x` is part of what a run checks).
//! - A routing or binding key is renamed exactly when it could be a queue name to the
//!   broker's routing, so that the queue's implicit binding on the default exchange
//!   (RabbitMQ: every queue is bound to `""` with its own name as the key,
//!   `rabbit_exchange_type_direct` + `rabbit_binding:default_exchange`) and every
//!   explicit binding that uses the queue's name stay what they were:
//!   - on the default exchange every key is a queue name and is renamed (a key that
//!     names no scenario queue gets the prefix too, so it reaches nothing live, as in
//!     the simulation, and never a queue that already lives on the broker);
//!   - on any other exchange a key is renamed when it equals the name of a scenario
//!     queue (topology or `declare` action), and kept as written otherwise.
//! - The same key rule everywhere a message's key is given: a publish's routing key,
//!   `CC`/`BCC` entries (routing keys on the exchange published to) and
//!   `x-dead-letter-routing-key` (a key on `x-dead-letter-exchange`). A key a message
//!   carries is matched on every exchange it passes (the one published to, exchange
//!   bindings, the DLX), so it is renamed once, by name, whatever the exchange.
//! - A binding's key (bind and unbind, queue and exchange bindings, on its source) is
//!   renamed by the same rule, except on a topic exchange, where it is a pattern: there
//!   the pattern is kept as written and, for each scenario queue name `q` it matches
//!   but whose renamed form `PREFIX` + `q` it does not (`work.#` and `#.work` match the
//!   key `work`, not `dl-1-work`), one more binding with the literal key `PREFIX` + `q`
//!   to the same destination is made ([`ScenarioNames::binding_keys`]).
//!   `x-dead-letter-exchange` and `alternate-exchange` are exchange names.
//! - Everything the broker hands back loses the prefix wherever it occurs ([`Rename::unmap`]).
//!
//! Worked timeline (the blind spot this rule closes): queue `work` has
//! `x-dead-letter-exchange: "dlx"` (direct, no DLRK), `dlx` binds `parked` with key
//! `work`; a message is published through `""` with key `work`.
//!
//! ```text
//! scenario           broker, before                 broker, with this rule
//! publish "" "work"  "" "dl-1-work" -> dl-1-work     "" "dl-1-work" -> dl-1-work
//! work expires it    DL keys ["dl-1-work"]           DL keys ["dl-1-work"]
//! dlx binding "work" "work" != "dl-1-work": dropped  "dl-1-work" == key -> dl-1-parked
//! ```
//!
//! ## Why it cannot change a routing decision (and where it could)
//!
//! The key map `f` is injective (a key that names a queue becomes `PREFIX` + key; no
//! scenario key starts with a fresh random prefix) and one map serves both sides, so:
//! - direct exchanges (and the default one) compare keys for equality, and
//!   `f(a) == f(b)` exactly when `a == b`;
//! - fanout and headers exchanges do not read the key (headers match header values,
//!   which are never renamed);
//! - topic exchanges match patterns word by word. The prefix has no `.`, so it only
//!   joins the first word of a renamed key, and a pattern (kept as written, with no
//!   literal word starting with the prefix) that matches `PREFIX` + `q` also matches
//!   `q` (its first word is met by `*`, by `#`, or by a literal it cannot equal). So
//!   live the pattern decides every plain key as before, matches a subset of the
//!   renamed ones, and the extra literal bindings add back exactly the renamed keys
//!   it matched before; a destination reached twice still gets one copy. Where it
//!   could still differ: a queue whose name is itself a pattern (`a.*`: its renamed
//!   literal `dl-1-a.*` is a pattern again), and unbinding one of two bindings that
//!   share an extra key. [`Rename::caveats`] names the first;
//! - a publish to `""` whose key names no scenario queue can only reach a queue through
//!   `CC`/`BCC`; if it is later dead-lettered without a DLRK its own key is the
//!   prefixed one, which no binding written as the plain key matches. Also a caveat.
//! - Exchange types that hash the key (the consistent-hash plugin) would pick other
//!   queues; the stock broker a replay runs on has no such plugin enabled.

use std::collections::{BTreeMap, BTreeSet};

use super::model::{ActionKind, BindingDef, Declare, Scenario};
use crate::routing::topic::topic_matches;
use crate::value::{FieldValue, Table};

/// Names starting with this are the broker's own (`amq.direct`, `amq.gen-...`).
pub const RESERVED_PREFIX: &str = "amq.";
/// The argument naming a queue's dead-letter exchange.
pub const DLX_ARG: &str = "x-dead-letter-exchange";
/// The argument naming the routing key a queue dead-letters with.
pub const DLRK_ARG: &str = "x-dead-letter-routing-key";
/// The exchange argument naming its alternate exchange.
pub const ALTERNATE_EXCHANGE_ARG: &str = "alternate-exchange";
/// The headers whose string entries are extra routing keys (sender-selected
/// distribution; the broker strips `BCC` before delivery).
pub const ROUTING_KEY_HEADERS: [&str; 2] = ["CC", "BCC"];
/// The dead-letter history header, whose entries name queues and exchanges.
const X_DEATH_HEADER: &str = "x-death";
/// The exchange types that read the key as a pattern.
const TOPIC_KIND: &str = "topic";
/// The built-in topic exchange every vhost has.
const BUILTIN_TOPIC: &str = "amq.topic";

/// True for names the broker reserves (kept as they are).
pub fn is_reserved(name: &str) -> bool {
    name.is_empty() || name.starts_with(RESERVED_PREFIX)
}

/// Every exchange and queue a scenario may create (its topology and its `declare`
/// actions), in name order, and which keys are names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScenarioNames {
    pub exchanges: BTreeSet<String>,
    pub queues: BTreeSet<String>,
    /// Each exchange's type as first declared (topology, then `declare` actions).
    kinds: BTreeMap<String, String>,
}

/// A key as a program declares it: written as it is, or a queue name it renames.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key<'a> {
    Plain(&'a str),
    Name(&'a str),
}

impl ScenarioNames {
    pub fn of(s: &Scenario) -> ScenarioNames {
        let mut exchanges: BTreeSet<String> = s
            .topology
            .exchanges
            .iter()
            .map(|x| x.name.clone())
            .collect();
        let mut queues: BTreeSet<String> =
            s.topology.queues.iter().map(|q| q.name.clone()).collect();
        let mut kinds: BTreeMap<String, String> = BTreeMap::new();
        for x in &s.topology.exchanges {
            kinds
                .entry(x.name.clone())
                .or_insert_with(|| x.kind.clone());
        }
        for a in &s.actions {
            match &a.kind {
                ActionKind::Declare(Declare::Exchange(x)) => {
                    exchanges.insert(x.name.clone());
                    kinds
                        .entry(x.name.clone())
                        .or_insert_with(|| x.kind.clone());
                }
                ActionKind::Declare(Declare::Queue(q)) => {
                    queues.insert(q.name.clone());
                }
                _ => {}
            }
        }
        ScenarioNames {
            exchanges,
            queues,
            kinds,
        }
    }

    /// Whether `exchange` matches keys as topic patterns.
    pub fn is_topic(&self, exchange: &str) -> bool {
        exchange == BUILTIN_TOPIC || self.kinds.get(exchange).is_some_and(|k| k == TOPIC_KIND)
    }

    /// The keys to bind (or unbind) for binding `b`, in order: its key by the key rule;
    /// on a topic exchange the pattern as written, then one renamed queue name for each
    /// scenario queue the pattern matches only before renaming (the module's rule).
    pub fn binding_keys<'a>(&'a self, b: &'a BindingDef) -> Vec<Key<'a>> {
        let key = b.routing_key.as_str();
        if !self.is_topic(&b.source) {
            return vec![if self.key_is_name(&b.source, key) {
                Key::Name(key)
            } else {
                Key::Plain(key)
            }];
        }
        let stand_in = stand_in_prefix(key);
        let mut out = vec![Key::Plain(key)];
        for q in self.queues.iter().filter(|q| !is_reserved(q)) {
            if topic_matches(key, q) && !topic_matches(key, &format!("{stand_in}{q}")) {
                out.push(Key::Name(q));
            }
        }
        out
    }

    /// Whether a routing or binding key used on `exchange` names a queue, and so is
    /// renamed (the module's rule).
    pub fn key_is_name(&self, exchange: &str, key: &str) -> bool {
        if is_reserved(key) {
            return false;
        }
        exchange.is_empty() || self.queues.contains(key)
    }

    /// Whether the string value of queue argument `arg` (in the arguments `all`) is a
    /// name: the DLX always, the DLRK when it names a queue on that DLX.
    pub fn queue_arg_is_name(&self, arg: &str, value: &str, all: &Table) -> bool {
        match arg {
            DLX_ARG => true,
            DLRK_ARG => {
                let dlx = all.get(DLX_ARG).and_then(FieldValue::as_str);
                // Without a DLX there is no dead-lettering (the broker keeps the value).
                dlx.is_some_and(|x| self.key_is_name(x, value))
            }
            _ => false,
        }
    }
}

/// The renaming of one run: the scenario's names and the run's prefix.
#[derive(Clone, Debug)]
pub struct Rename {
    names: ScenarioNames,
    prefix: String,
}

impl Rename {
    pub fn new(s: &Scenario, prefix: &str) -> Rename {
        Rename {
            names: ScenarioNames::of(s),
            prefix: prefix.to_string(),
        }
    }

    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    pub fn names(&self) -> &ScenarioNames {
        &self.names
    }

    /// The broker-side name of a scenario exchange or queue.
    pub fn name(&self, name: &str) -> String {
        if is_reserved(name) {
            name.to_string()
        } else {
            format!("{}{name}", self.prefix)
        }
    }

    /// A routing or binding key used on `exchange`, as the broker sees it.
    pub fn key(&self, exchange: &str, key: &str) -> String {
        if self.names.key_is_name(exchange, key) {
            self.name(key)
        } else {
            key.to_string()
        }
    }

    /// The broker-side keys of binding `b` ([`ScenarioNames::binding_keys`]).
    pub fn binding_keys(&self, b: &BindingDef) -> Vec<String> {
        self.names
            .binding_keys(b)
            .into_iter()
            .map(|k| match k {
                Key::Plain(k) => k.to_string(),
                Key::Name(k) => self.name(k),
            })
            .collect()
    }

    /// A string the broker returned, with the prefix taken off wherever it occurs.
    pub fn unmap(&self, s: &str) -> String {
        if !self.prefix.is_empty() && s.contains(&self.prefix) {
            s.replace(&self.prefix, "")
        } else {
            s.to_string()
        }
    }

    /// Queue arguments with the DLX and a DLRK that names a queue renamed.
    pub fn queue_args(&self, args: &Table) -> Table {
        let mut out = Table::new();
        for (k, v) in args.iter() {
            let v = match v {
                FieldValue::Str(s) if k == DLX_ARG => FieldValue::str(&self.name(s)),
                FieldValue::Str(s) if self.names.queue_arg_is_name(k, s, args) => {
                    FieldValue::str(&self.name(s))
                }
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        out
    }

    /// Exchange arguments with `alternate-exchange` renamed.
    pub fn exchange_args(&self, args: &Table) -> Table {
        let mut out = Table::new();
        for (k, v) in args.iter() {
            let v = match v {
                FieldValue::Str(s) if k == ALTERNATE_EXCHANGE_ARG => FieldValue::str(&self.name(s)),
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        out
    }

    /// Message headers of a publish to `exchange`: `CC`/`BCC` entries are routing keys;
    /// an `x-death` history the client copied (a republish) names the queues and
    /// exchanges of its entries, renamed with them so that the broker recognises its own
    /// history (3.10 and 3.13.3+ continue its counts, D1).
    pub fn headers(&self, exchange: &str, headers: &Table) -> Table {
        let mut out = Table::new();
        for (k, v) in headers.iter() {
            let v = match v {
                FieldValue::Array(items) if ROUTING_KEY_HEADERS.contains(&k) => FieldValue::Array(
                    items
                        .iter()
                        .map(|i| match i {
                            FieldValue::Str(s) => FieldValue::str(&self.key(exchange, s)),
                            other => other.clone(),
                        })
                        .collect(),
                ),
                FieldValue::Array(items) if k == X_DEATH_HEADER => {
                    FieldValue::Array(items.iter().map(|i| self.death_entry(i)).collect())
                }
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        out
    }

    /// One entry of a client's `x-death`: its `queue` and `exchange` renamed, and its
    /// `routing-keys` as keys of that exchange.
    fn death_entry(&self, entry: &FieldValue) -> FieldValue {
        let FieldValue::Table(t) = entry else {
            return entry.clone();
        };
        let exchange = t.get("exchange").and_then(FieldValue::as_str).unwrap_or("");
        let mut out = Table::new();
        for (k, v) in t.iter() {
            let v = match (k, v) {
                ("queue" | "exchange", FieldValue::Str(s)) => FieldValue::str(&self.name(s)),
                ("routing-keys", FieldValue::Array(keys)) => FieldValue::Array(
                    keys.iter()
                        .map(|key| match key {
                            FieldValue::Str(s) => FieldValue::str(&self.key(exchange, s)),
                            other => other.clone(),
                        })
                        .collect(),
                ),
                _ => v.clone(),
            };
            out.insert(k, v);
        }
        FieldValue::Table(out)
    }

    /// Where this renaming could route differently from the simulation (see the
    /// module's "where it could"), one line each naming the binding or the action.
    pub fn caveats(&self, s: &Scenario) -> Vec<String> {
        let mut bindings: Vec<(String, &BindingDef)> = s
            .topology
            .bindings
            .iter()
            .enumerate()
            .map(|(i, b)| (format!("topology.bindings[{i}]"), b))
            .collect();
        for (i, a) in s.actions.iter().enumerate() {
            if let ActionKind::Declare(Declare::Binding(b)) = &a.kind {
                bindings.push((format!("actions[{i}].declare.binding"), b));
            }
        }
        let mut out = Vec::new();
        for (at, b) in bindings {
            let patterns: Vec<&str> = self
                .names
                .binding_keys(b)
                .into_iter()
                .filter_map(|k| match k {
                    Key::Name(q) if is_pattern(q) && self.names.is_topic(&b.source) => Some(q),
                    _ => None,
                })
                .collect();
            if !patterns.is_empty() {
                out.push(format!(
                    "{at}: topic pattern '{}' on '{}' matches the queue name(s) {}, which are patterns themselves: renamed, they may match other keys live",
                    b.routing_key,
                    b.source,
                    quoted(&patterns)
                ));
            }
        }
        for (i, a) in s.actions.iter().enumerate() {
            if let ActionKind::Publish(p) = &a.kind {
                let cc = ROUTING_KEY_HEADERS
                    .iter()
                    .any(|h| p.properties.headers.contains_key(h));
                if p.exchange.is_empty()
                    && cc
                    && !is_reserved(&p.routing_key)
                    && !self.names.queues.contains(&p.routing_key)
                {
                    out.push(format!(
                        "actions[{i}].publish: routing key '{}' names no queue on the default exchange and is renamed; if the message is dead-lettered without a DLRK, bindings written as '{}' do not match it live",
                        p.routing_key, p.routing_key
                    ));
                }
            }
        }
        out
    }
}

/// A word that equals no word of `pattern`, standing in for the run's prefix: whether a
/// pattern matches `PREFIX` + `q` does not depend on which prefix, as long as no literal
/// word of the pattern starts with it (a fresh random prefix; this stand-in by
/// construction, being longer than every word of the pattern).
fn stand_in_prefix(pattern: &str) -> String {
    const FILLER: char = '\u{1}';
    let longest = pattern.split('.').map(str::len).max().unwrap_or(0);
    FILLER.to_string().repeat(longest + 1)
}

/// A topic binding key with a wildcard word (`*` or `#`).
fn is_pattern(key: &str) -> bool {
    key.split('.').any(|w| w == "*" || w == "#")
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::load_str;

    const P: &str = "dl-1234abcd-";

    fn arr(items: Vec<FieldValue>) -> FieldValue {
        FieldValue::Array(items.into())
    }

    fn rename(json: &str) -> (Scenario, Rename) {
        let s = load_str(json).expect("loads");
        let r = Rename::new(&s, P);
        (s, r)
    }

    fn two_queues() -> (Scenario, Rename) {
        rename(
            r#"{"version": 1, "name": "t", "topology": {
                "exchanges": [{"name": "dlx", "type": "direct"}, {"name": "t", "type": "topic"}],
                "queues": [{"name": "work"}, {"name": "parked"}]},
              "actions": [{"at": 0, "declare": {"queue": {"name": "late"}}}]}"#,
        )
    }

    #[test]
    fn names_are_prefixed_except_reserved_ones() {
        let (_, r) = two_queues();
        assert_eq!(r.name("work"), "dl-1234abcd-work");
        assert_eq!(r.name(""), "");
        assert_eq!(r.name("amq.direct"), "amq.direct");
        assert_eq!(
            r.unmap("NOT_FOUND - no queue 'dl-1234abcd-q' in vhost '/'"),
            "NOT_FOUND - no queue 'q' in vhost '/'"
        );
        let names = r.names();
        assert_eq!(
            names.queues.iter().collect::<Vec<_>>(),
            ["late", "parked", "work"]
        );
        assert_eq!(names.exchanges.iter().collect::<Vec<_>>(), ["dlx", "t"]);
    }

    #[test]
    fn keys_that_name_a_queue_are_renamed_on_every_exchange() {
        let (_, r) = two_queues();
        // The default exchange: every key is a queue name.
        assert_eq!(r.key("", "work"), "dl-1234abcd-work");
        assert_eq!(r.key("", "no-such-queue"), "dl-1234abcd-no-such-queue");
        assert_eq!(r.key("", "amq.gen-x"), "amq.gen-x");
        // Elsewhere: only the names of scenario queues (a declared one too).
        assert_eq!(r.key("dlx", "work"), "dl-1234abcd-work");
        assert_eq!(r.key("dlx", "late"), "dl-1234abcd-late");
        assert_eq!(r.key("dlx", "orders.created"), "orders.created");
        assert_eq!(r.key("dlx", ""), "");
    }

    #[test]
    fn dead_letter_keys_follow_their_exchange() {
        let (_, r) = two_queues();
        let args = |dlx: &str, dlrk: &str| {
            let mut t = Table::new();
            t.insert(DLX_ARG, FieldValue::str(dlx));
            t.insert(DLRK_ARG, FieldValue::str(dlrk));
            t.insert("x-message-ttl", FieldValue::Int(10));
            t
        };
        let got = r.queue_args(&args("", "anything"));
        assert_eq!(got.get(DLX_ARG), Some(&FieldValue::str("")));
        assert_eq!(
            got.get(DLRK_ARG),
            Some(&FieldValue::str("dl-1234abcd-anything"))
        );
        let got = r.queue_args(&args("dlx", "parked"));
        assert_eq!(got.get(DLX_ARG), Some(&FieldValue::str("dl-1234abcd-dlx")));
        assert_eq!(
            got.get(DLRK_ARG),
            Some(&FieldValue::str("dl-1234abcd-parked"))
        );
        let got = r.queue_args(&args("dlx", "retry"));
        assert_eq!(got.get(DLRK_ARG), Some(&FieldValue::str("retry")));
        assert_eq!(got.get("x-message-ttl"), Some(&FieldValue::Int(10)));
        // A DLRK without a DLX is nobody's key.
        let mut lone = Table::new();
        lone.insert(DLRK_ARG, FieldValue::str("work"));
        assert_eq!(r.queue_args(&lone), lone);
        // A DLX that is not a string is kept as written (the broker refuses it).
        let mut bad = Table::new();
        bad.insert(DLX_ARG, FieldValue::Int(1));
        assert_eq!(r.queue_args(&bad), bad);
    }

    #[test]
    fn cc_entries_are_routing_keys() {
        let (_, r) = two_queues();
        let mut h = Table::new();
        h.insert(
            "CC",
            arr(vec![
                FieldValue::str("work"),
                FieldValue::str("other"),
                FieldValue::Int(3),
            ]),
        );
        h.insert("x-note", FieldValue::str("work"));
        let on_default = r.headers("", &h);
        assert_eq!(
            on_default.get("CC"),
            Some(&arr(vec![
                FieldValue::str("dl-1234abcd-work"),
                FieldValue::str("dl-1234abcd-other"),
                FieldValue::Int(3),
            ]))
        );
        assert_eq!(on_default.get("x-note"), Some(&FieldValue::str("work")));
        let on_dlx = r.headers("dlx", &h);
        assert_eq!(
            on_dlx.get("CC"),
            Some(&arr(vec![
                FieldValue::str("dl-1234abcd-work"),
                FieldValue::str("other"),
                FieldValue::Int(3),
            ]))
        );
        // A client's copy of x-death names queues and exchanges.
        let mut entry = Table::new();
        entry.insert("queue", FieldValue::str("work"));
        entry.insert("exchange", FieldValue::str("dlx"));
        entry.insert("routing-keys", arr(vec![FieldValue::str("parked")]));
        entry.insert("count", FieldValue::Int(5));
        let mut death = Table::new();
        death.insert("x-death", arr(vec![FieldValue::Table(entry)]));
        let FieldValue::Array(got) = r.headers("", &death).get("x-death").cloned().unwrap() else {
            panic!("an array")
        };
        let FieldValue::Table(got) = &got[0] else {
            panic!("a table")
        };
        assert_eq!(got.get("queue"), Some(&FieldValue::str("dl-1234abcd-work")));
        assert_eq!(
            got.get("exchange"),
            Some(&FieldValue::str("dl-1234abcd-dlx"))
        );
        assert_eq!(
            got.get("routing-keys"),
            Some(&arr(vec![FieldValue::str("dl-1234abcd-parked")]))
        );
        assert_eq!(got.get("count"), Some(&FieldValue::Int(5)));
        let mut x = Table::new();
        x.insert(ALTERNATE_EXCHANGE_ARG, FieldValue::str("ae"));
        assert_eq!(
            r.exchange_args(&x).get(ALTERNATE_EXCHANGE_ARG),
            Some(&FieldValue::str("dl-1234abcd-ae"))
        );
    }

    /// The invariant: a direct match (equality) decides the same before and after for
    /// every pair of keys a scenario could use.
    #[test]
    fn direct_routing_is_unchanged() {
        let (_, r) = two_queues();
        let keys = ["work", "parked", "late", "other", "", "amq.x", "work.x"];
        for exchange in ["", "dlx"] {
            for a in keys {
                for b in keys {
                    assert_eq!(
                        a == b,
                        r.key(exchange, a) == r.key(exchange, b),
                        "{exchange:?}: {a:?} vs {b:?}"
                    );
                }
            }
        }
    }

    /// The invariant on topic exchanges: for every key a message could carry (each
    /// queue name, renamed, and plain keys), some live binding matches it exactly when
    /// the scenario's pattern matches the key as written.
    #[test]
    fn topic_routing_is_unchanged_with_the_extra_bindings() {
        let (s, r) = rename(
            r##"{"version": 1, "name": "t", "topology": {
                "exchanges": [{"name": "t", "type": "topic"}, {"name": "d", "type": "direct"}],
                "queues": [{"name": "work"}, {"name": "vip"}, {"name": "x.y"}, {"name": "a.*"}],
                "bindings": [
                    {"source": "t", "destination": "work", "routing_key": "work"},
                    {"source": "t", "destination": "work", "routing_key": "*"},
                    {"source": "t", "destination": "work", "routing_key": "*.y"},
                    {"source": "t", "destination": "work", "routing_key": "work.#"},
                    {"source": "t", "destination": "work", "routing_key": "#.vip"},
                    {"source": "t", "destination": "work", "routing_key": "#"},
                    {"source": "t", "destination": "work", "routing_key": "x.*"},
                    {"source": "d", "destination": "work", "routing_key": "#.vip"},
                    {"source": "amq.topic", "destination": "work", "routing_key": "#.work"},
                    {"source": "t", "destination": "work", "routing_key": "a.#"}]},
              "actions": [{"at": 0, "publish": {"exchange": "", "routing_key": "nobody",
                           "properties": {"headers": {"CC": ["work"]}}}}]}"##,
        );
        let b = &s.topology.bindings;
        let keys = |i: usize| r.binding_keys(&b[i]);
        assert_eq!(keys(0), ["work", "dl-1234abcd-work"]);
        assert_eq!(keys(1), ["*"]);
        assert_eq!(keys(3), ["work.#", "dl-1234abcd-work"]);
        assert_eq!(keys(4), ["#.vip", "dl-1234abcd-vip"]);
        assert_eq!(keys(5), ["#"]);
        assert_eq!(keys(6), ["x.*", "dl-1234abcd-x.y"]);
        // Not a topic exchange: one key, by the key rule ("#.vip" names no queue).
        assert_eq!(keys(7), ["#.vip"]);
        assert_eq!(keys(8), ["#.work", "dl-1234abcd-work"]);
        let plain = ["order.created", "vip.x", "a.b", "y", "", "work.x.vip"];
        for (i, bd) in b.iter().enumerate().filter(|(_, bd)| bd.source != "d") {
            for k in s
                .topology
                .queues
                .iter()
                .map(|q| q.name.as_str())
                .chain(plain)
            {
                if k == "a.*" {
                    continue; // a queue named like a pattern: the caveat below
                }
                let live_key = r.key(&bd.source, k);
                let live = keys(i).iter().any(|p| topic_matches(p, &live_key));
                assert_eq!(
                    topic_matches(&bd.routing_key, k),
                    live,
                    "binding {i} vs {k:?}"
                );
            }
        }
        let c = r.caveats(&s);
        assert_eq!(c.len(), 2, "{c:#?}");
        assert!(
            c[0].starts_with(
                "topology.bindings[9]: topic pattern 'a.#' on 't' matches the queue name(s) 'a.*'"
            ),
            "{}",
            c[0]
        );
        assert!(
            c[1].starts_with("actions[0].publish: routing key 'nobody'"),
            "{}",
            c[1]
        );
        let (plain, r) = two_queues();
        assert!(r.caveats(&plain).is_empty());
    }
}
