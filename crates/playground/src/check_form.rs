//! The form that adds a check without writing JSON: the four common kinds (a message
//! delivered by a time, nothing dropped, deliveries in an order, how many times
//! something happens), as the scenario format writes them (docs/checks.md). The form
//! checks only its own boxes (a time, a count, two bodies or more); what the scenario
//! must agree with (a queue that exists, a time within `until`) is the engine loader's,
//! whose error names the JSON path: [`field_of`] says which box it concerns.
//!
//! ```text
//! kind "delivered by", body B, by 6:00, queue ""   →  {"label": "B is delivered by 0:06:00",
//!                                                       "delivered": {"body": "B", "by": "6m"}}
//! ```

use delaylab_engine::report::text::clock;
use delaylab_engine::scenario::duration::format_duration;
use serde_json::{json, Map, Value};

use crate::clock::{parse_clock, TimeError};
use crate::i18n::Lang;

/// The kinds the form writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    DeliveredBy,
    NeverDropped,
    Order,
    Count,
}

impl Kind {
    pub const ALL: [Kind; 4] = [
        Kind::DeliveredBy,
        Kind::NeverDropped,
        Kind::Order,
        Kind::Count,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::DeliveredBy => "delivered_by",
            Kind::NeverDropped => "never_dropped",
            Kind::Order => "order",
            Kind::Count => "count",
        }
    }

    pub fn of(s: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Which boxes the kind uses.
    pub fn uses(self, field: Field) -> bool {
        use Field::*;
        match self {
            Kind::DeliveredBy => matches!(field, Label | Body | Queue | By),
            Kind::NeverDropped => matches!(field, Label | Body | Queue),
            Kind::Order => matches!(field, Label | Bodies | Queue),
            Kind::Count => matches!(field, Label | Body | Queue | Of | Bound | Count),
        }
    }
}

/// A box of the form (what an error is shown under).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Label,
    Body,
    Queue,
    By,
    Bodies,
    Of,
    Bound,
    Count,
}

/// What `count` counts (docs/checks.md: the six happenings).
pub const COUNT_OF: [&str; 6] = [
    "delivered",
    "enqueued",
    "dead_lettered",
    "dropped",
    "returned",
    "error",
];
/// The count's bound.
pub const BOUNDS: [&str; 3] = ["equals", "at_least", "at_most"];

/// The form's boxes as typed.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckForm {
    pub kind: Kind,
    pub label: String,
    pub body: String,
    pub queue: String,
    pub by: String,
    /// Bodies in order, separated by commas or spaces.
    pub bodies: String,
    pub of: String,
    pub bound: String,
    pub count: String,
}

impl Default for CheckForm {
    fn default() -> CheckForm {
        CheckForm {
            kind: Kind::DeliveredBy,
            label: String::new(),
            body: String::new(),
            queue: String::new(),
            by: String::new(),
            bodies: String::new(),
            of: COUNT_OF[0].into(),
            bound: BOUNDS[0].into(),
            count: String::new(),
        }
    }
}

/// A box that is wrong, and why (words in the page's language).
#[derive(Clone, Debug, PartialEq)]
pub struct FormError {
    pub field: Field,
    pub text: String,
}

fn err(field: Field, text: impl Into<String>) -> FormError {
    FormError {
        field,
        text: text.into(),
    }
}

impl CheckForm {
    fn bodies_list(&self) -> Vec<String> {
        self.bodies
            .split([',', ' ', '\n'])
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .map(String::from)
            .collect()
    }

    /// The label to write: the one typed, else one said from the boxes.
    pub fn label_or_default(&self, lang: Lang) -> String {
        let typed = self.label.trim();
        if !typed.is_empty() {
            return typed.to_string();
        }
        let zh = lang == Lang::Zh;
        let who = if self.body.trim().is_empty() {
            if zh {
                "任何消息".to_string()
            } else {
                "Any message".to_string()
            }
        } else {
            self.body.trim().to_string()
        };
        match self.kind {
            Kind::DeliveredBy => {
                let by = parse_clock(&self.by).map(clock).unwrap_or_default();
                if zh {
                    format!("{who} 在 {by} 前被投递")
                } else {
                    format!("{who} is delivered by {by}")
                }
            }
            Kind::NeverDropped => {
                if zh {
                    format!("{who} 从不被丢弃")
                } else if self.body.trim().is_empty() {
                    "Nothing is dropped".to_string()
                } else {
                    format!("{who} is never dropped")
                }
            }
            Kind::Order => {
                let list = self.bodies_list().join(", ");
                if zh {
                    format!("按此顺序投递:{list}")
                } else {
                    format!("Delivered in this order: {list}")
                }
            }
            Kind::Count => {
                let bound = match (self.bound.as_str(), zh) {
                    ("at_least", false) => "at least ",
                    ("at_most", false) => "at most ",
                    ("at_least", true) => "至少 ",
                    ("at_most", true) => "至多 ",
                    _ => "",
                };
                if zh {
                    format!("{who} {} {bound}{} 次", self.of, self.count.trim())
                } else {
                    format!("{who}: {} {bound}{} times", self.of, self.count.trim())
                }
            }
        }
    }

    /// The check as the scenario format writes it, or the box that is wrong.
    pub fn spec(&self, lang: Lang) -> Result<Value, FormError> {
        let zh = lang == Lang::Zh;
        let mut what = Map::new();
        let body = self.body.trim();
        let queue = self.queue.trim();
        if self.kind.uses(Field::Body) && !body.is_empty() {
            what.insert("body".into(), json!(body));
        }
        if self.kind.uses(Field::Queue) && !queue.is_empty() {
            what.insert("queue".into(), json!(queue));
        }
        let key = match self.kind {
            Kind::DeliveredBy => {
                if body.is_empty() {
                    return Err(err(
                        Field::Body,
                        if zh {
                            "请填写消息体"
                        } else {
                            "Name the message (its body)."
                        },
                    ));
                }
                let ms = parse_clock(&self.by).map_err(|e| err(Field::By, e.text(lang)))?;
                what.insert("by".into(), json!(format_duration(ms)));
                "delivered"
            }
            Kind::NeverDropped => {
                what.insert("never".into(), json!(true));
                "dropped"
            }
            Kind::Order => {
                let list = self.bodies_list();
                if list.len() < 2 {
                    return Err(err(
                        Field::Bodies,
                        if zh {
                            "至少写两个消息体,用逗号分隔"
                        } else {
                            "Write two bodies or more, separated by commas."
                        },
                    ));
                }
                what.remove("body");
                what.insert("bodies".into(), json!(list));
                "order"
            }
            Kind::Count => {
                if !COUNT_OF.contains(&self.of.as_str()) {
                    return Err(err(
                        Field::Of,
                        format!("{}: {}", self.of, COUNT_OF.join(", ")),
                    ));
                }
                if !BOUNDS.contains(&self.bound.as_str()) {
                    return Err(err(
                        Field::Bound,
                        format!("{}: {}", self.bound, BOUNDS.join(", ")),
                    ));
                }
                let n: u64 = self.count.trim().parse().map_err(|_| {
                    err(
                        Field::Count,
                        if zh {
                            "请填写一个整数,例如 3"
                        } else {
                            "Write a whole number, like 3."
                        },
                    )
                })?;
                what.insert("of".into(), json!(self.of));
                what.insert(self.bound.clone(), json!(n));
                "count"
            }
        };
        let mut check = Map::new();
        check.insert("label".into(), json!(self.label_or_default(lang)));
        check.insert(key.into(), Value::Object(what));
        Ok(Value::Object(check))
    }
}

/// The scenario (as JSON) with `check` added at the end of its `checks`.
pub fn with_check(mut scenario: Value, check: Value) -> Value {
    if let Value::Object(m) = &mut scenario {
        match m.get_mut("checks") {
            Some(Value::Array(a)) => a.push(check),
            _ => {
                m.insert("checks".into(), Value::Array(vec![check]));
            }
        }
    }
    scenario
}

/// The box a loader error about the new check concerns (its JSON path's last key).
pub fn field_of(path: &str) -> Field {
    let last = path.rsplit(['.', '[']).next().unwrap_or("");
    match last {
        "label" => Field::Label,
        "body" => Field::Body,
        "queue" => Field::Queue,
        "by" => Field::By,
        "bodies" => Field::Bodies,
        "of" => Field::Of,
        "equals" | "at_least" | "at_most" => Field::Count,
        _ => Field::Label,
    }
}

/// Why a time box is not a time, in the page's language (the Jump box's words).
pub fn time_error(e: &TimeError, lang: Lang) -> String {
    e.text(lang)
}

#[cfg(test)]
mod tests {
    use super::*;
    use delaylab_engine::scenario::load::load_value;
    use delaylab_engine::scenario::save::to_value;

    const HEAD_OF_LINE: &str = include_str!("../../../scenarios/head-of-line-blocking.json");

    fn form(kind: Kind) -> CheckForm {
        CheckForm {
            kind,
            ..CheckForm::default()
        }
    }

    #[test]
    fn each_kind_writes_the_scenario_formats_check_and_the_engine_takes_it() {
        let base: Value = serde_json::from_str(HEAD_OF_LINE).unwrap();
        let mut f = form(Kind::DeliveredBy);
        f.body = "B".into();
        f.by = "6:00".into();
        let c = f.spec(Lang::En).unwrap();
        assert_eq!(
            c,
            json!({"label": "B is delivered by 0:06:00.000", "delivered": {"body": "B", "by": "6m"}})
        );
        let s = load_value(&with_check(base.clone(), c)).expect("loads");
        assert_eq!(s.checks.len(), 4);

        let mut f = form(Kind::NeverDropped);
        f.queue = "order.delay.queue".into();
        let c = f.spec(Lang::En).unwrap();
        assert_eq!(
            c["dropped"],
            json!({"queue": "order.delay.queue", "never": true})
        );
        assert_eq!(c["label"], "Nothing is dropped");
        load_value(&with_check(base.clone(), c)).expect("loads");

        let mut f = form(Kind::Order);
        f.bodies = "A, B".into();
        let c = f.spec(Lang::En).unwrap();
        assert_eq!(c["order"], json!({"bodies": ["A", "B"]}));
        load_value(&with_check(base.clone(), c)).expect("loads");

        let mut f = form(Kind::Count);
        f.body = "B".into();
        f.bound = "at_least".into();
        f.count = "1".into();
        let c = f.spec(Lang::Zh).unwrap();
        assert_eq!(
            c["count"],
            json!({"body": "B", "of": "delivered", "at_least": 1})
        );
        assert!(c["label"].as_str().unwrap().contains("至少 1 次"));
        let s = load_value(&with_check(base, c)).expect("loads");
        // Saved and loaded again: the same check (a share link, the autosave).
        let again = load_value(&to_value(&s)).unwrap();
        assert_eq!(again.checks.len(), s.checks.len());
    }

    #[test]
    fn a_wrong_box_is_named() {
        let mut f = form(Kind::DeliveredBy);
        f.by = "6:00".into();
        assert_eq!(f.spec(Lang::En).unwrap_err().field, Field::Body);
        f.body = "B".into();
        f.by = "soon".into();
        let e = f.spec(Lang::En).unwrap_err();
        assert_eq!(e.field, Field::By);
        assert!(e.text.contains("40:00"), "{}", e.text);
        let mut f = form(Kind::Order);
        f.bodies = "A".into();
        assert_eq!(f.spec(Lang::En).unwrap_err().field, Field::Bodies);
        let mut f = form(Kind::Count);
        f.count = "three".into();
        assert_eq!(f.spec(Lang::En).unwrap_err().field, Field::Count);
    }

    #[test]
    fn the_loaders_path_names_the_box() {
        let base: Value = serde_json::from_str(HEAD_OF_LINE).unwrap();
        let mut f = form(Kind::NeverDropped);
        f.queue = "ordr".into();
        let e = load_value(&with_check(base, f.spec(Lang::En).unwrap())).unwrap_err();
        assert_eq!(e.path, "checks[3].dropped.queue");
        assert_eq!(field_of(&e.path), Field::Queue);
        assert_eq!(field_of("checks[3].count.at_most"), Field::Count);
        assert_eq!(field_of("checks[3].delivered.by"), Field::By);
    }

    #[test]
    fn a_scenario_without_checks_gets_its_first() {
        let v = with_check(json!({"version": 1}), json!({"label": "x"}));
        assert_eq!(v["checks"], json!([{"label": "x"}]));
    }
}
