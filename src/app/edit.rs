//! The "Edit the topology" panel: forms to add an exchange, a queue or a binding, and
//! the topology's objects listed with a delete button each.
//!
//! An edit changes the scenario's input (its `topology`) and reloads it from 0:00, so the
//! JSON editor (and a share link or autosave) holds the edited scenario; the panel says
//! so. Every declaration is first judged by the engine's own declare path
//! (`edit_rules::check`): a refusal is shown next to the field it concerns, in plain
//! words and with RabbitMQ's reply code and text, and changes nothing.
//!
//! The three forms live in `edit_exchange.rs`, `edit_queue.rs` and `edit_binding.rs`;
//! this file holds the panel, the list, and the widgets the forms share.

use delaylab_engine::scenario::{DestinationKind, Scenario};
use leptos::prelude::*;

use super::edit_rules::{self, ArgType, ExtraArg, Refusal, Verdict};
use super::for_load::ForLoad;
use super::i18n::Lang;
use super::Ctx;

/// The panel's own texts (en, zh); RabbitMQ's names and texts stay untranslated. Only
/// its forms read them (the edit_forms chunk): the folded panel's title, on the first
/// screen, is `i18n.rs`'s (`edit_topology`), so this table is not start-up data.
pub fn tx(lang: Lang, key: &'static str) -> &'static str {
    let (en, zh) = match key {
        "edit_note" => ("An edit changes the scenario's topology and restarts it from 0:00; the JSON editor shows the result. RabbitMQ refuses to change an existing queue or exchange by declaring it again (406 inequivalent arg): delete it, then add it again.", "每次编辑都会修改场景的拓扑,并从 0:00 重新开始;JSON 编辑器会显示结果。RabbitMQ 不允许通过再次声明来修改已有的队列或交换机(406 inequivalent arg):请先删除,再重新添加。"),
        "add_exchange" => ("Add an exchange", "添加交换机"),
        "add_queue" => ("Add a queue", "添加队列"),
        "add_binding" => ("Add a binding", "添加绑定"),
        "objects" => ("Exchanges, queues and bindings", "交换机、队列和绑定"),
        "name" => ("Name", "名称"),
        "type" => ("Type", "类型"),
        "add" => ("Declare", "声明"),
        "delete" => ("Delete", "删除"),
        "extra" => ("Other arguments", "其他参数"),
        "add_arg" => ("+ argument", "+ 参数"),
        "remove_arg" => ("Remove this argument", "删除此参数"),
        "key" => ("key", "键"),
        "value" => ("value", "值"),
        "source" => ("Source exchange", "源交换机"),
        "destination" => ("Destination", "目标"),
        "dest_queue" => ("queue", "队列"),
        "dest_exchange" => ("exchange", "交换机"),
        "routing_key" => ("Routing key", "路由键"),
        "x_match_none" => ("(none: all)", "(不设置:all)"),
        "ms" => ("ms, integer", "毫秒,整数"),
        "added" => ("Declared; the scenario restarted from 0:00 with it.", "已声明;场景已带着它从 0:00 重新开始。"),
        "unchanged" => ("Already there with the same properties: RabbitMQ's re-declare changes nothing.", "已存在且属性相同:RabbitMQ 的重复声明不做任何改变。"),
        "deleted" => ("Deleted; the scenario restarted from 0:00 without it.", "已删除;场景已从 0:00 重新开始。"),
        "none" => ("(none)", "(无)"),
        "not_sent" => ("checked by the form, not sent to the broker", "由表单检查,未发送给 Broker"),
        "ex_form" => ("This value cannot be sent with the type you chose.", "这个值无法按你选择的类型发送。"),
        "ex_inequivalent" => ("It already exists with other properties, and RabbitMQ does not change an existing object when it is declared again. Delete it first, then add it again.", "它已经存在且属性不同,RabbitMQ 不会因为再次声明而修改已有对象。请先删除,再重新添加。"),
        "ex_wrong_qtype" => ("This argument does not exist for this queue type (x-delivery-limit is for quorum queues; x-max-priority for classic ones).", "这种队列类型没有这个参数(x-delivery-limit 只属于仲裁队列;x-max-priority 只属于经典队列)。"),
        "ex_ttl" => ("x-message-ttl is how long a message may wait in this queue: a whole number of milliseconds, from 0 to 315360000000 (10 years), sent as an integer (not a string).", "x-message-ttl 是消息在此队列中最多等待的时间:整数毫秒,0 到 315360000000(10 年),必须以整数而不是字符串发送。"),
        "ex_expires" => ("x-expires deletes the queue after it has been unused that long: a whole number of milliseconds above 0, at most 10 years.", "x-expires 在队列闲置这么久后删除它:大于 0 的整数毫秒,最多 10 年。"),
        "ex_maxlen" => ("A length limit is a whole number, 0 or more, sent as an integer.", "长度上限是 0 或更大的整数,必须以整数发送。"),
        "ex_overflow" => ("x-overflow says what happens when the queue is full: drop-head, reject-publish or reject-publish-dlx.", "x-overflow 决定队列满时怎么办:drop-head、reject-publish 或 reject-publish-dlx。"),
        "ex_string" => ("This argument is a name, sent as a string.", "这个参数是一个名称,必须以字符串发送。"),
        "ex_delivery_limit" => ("x-delivery-limit (quorum queues) is a whole number of deliveries.", "x-delivery-limit(仲裁队列)是投递次数,必须是整数。"),
        "ex_quorum_props" => ("A quorum queue is replicated to outlive any one connection: it cannot be exclusive or auto-delete, and it must be durable.", "仲裁队列有多个副本,要比任何一个连接活得更久:它不能是 exclusive 或 auto-delete,而且必须是 durable。"),
        "ex_delayed_type" => ("An x-delayed-message exchange needs x-delayed-type: the routing it wraps (direct, fanout, topic or headers).", "x-delayed-message 交换机需要 x-delayed-type:它包装的路由类型(direct、fanout、topic 或 headers)。"),
        "ex_x_match" => ("x-match must be all, any, all-with-x or any-with-x.", "x-match 必须是 all、any、all-with-x 或 any-with-x。"),
        "ex_reserved" => ("Names starting with amq. (and the default exchange \"\") belong to RabbitMQ itself.", "以 amq. 开头的名称(以及默认交换机 \"\")属于 RabbitMQ 自己。"),
        "ex_type" => ("There is no exchange type of that name.", "没有这个名称的交换机类型。"),
        "ex_missing" => ("A binding joins two things that exist: add the missing exchange or queue first.", "绑定只能连接已存在的对象:请先添加缺少的交换机或队列。"),
        "ex_other" => ("The broker refused this declaration.", "Broker 拒绝了这次声明。"),
        _ => (key, key),
    };
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// The result of a form: a refusal (shown at its field) or a note.
pub type Outcome = RwSignal<Option<Result<&'static str, Refusal>>>;

/// Runs an edit on a copy of the loaded scenario; reloads it (from 0:00) if it changed.
pub fn apply(c: Ctx, out: Outcome, edit: impl FnOnce(&mut Scenario) -> Result<Verdict, Refusal>) {
    let mut s = c.runner.with_value(|r| r.scenario.clone());
    let r = edit(&mut s);
    if r == Ok(Verdict::Added) {
        c.load_scenario("custom", s);
    }
    out.set(Some(r.map(|v| {
        if v == Verdict::Added {
            "added"
        } else {
            "unchanged"
        }
    })));
}

/// The refusal of `out`, shown right under the field it concerns.
#[component]
pub fn FieldError(out: Outcome, field: &'static str) -> impl IntoView {
    let c = expect_context::<Ctx>();
    let mine = move || {
        out.with(|o| {
            o.as_ref()
                .and_then(|r| r.as_ref().err())
                .filter(|r| r.field == field)
                .cloned()
        })
    };
    move || {
        mine().map(|r| {
            let key = edit_rules::explain(&r);
            let raw = if r.code == 0 { format!("{} ({})", r.text, tx(c.lang.get(), "not_sent")) } else { format!("{} {}", r.code, r.text) };
            view! {
                <div class="field-error" role="alert" data-testid="edit-error" data-field=field data-code=r.code.to_string()>
                    <p class="alert-explain">
                        <span aria-hidden="true">"✗ "</span>
                        {move || tx(c.lang.get(), key)}
                    </p>
                    <p class="alert-raw">
                        <span class="muted">{if r.code == 0 { "" } else { "RabbitMQ: " }}</span>
                        <code>{raw}</code>
                    </p>
                </div>
            }
        })
    }
}

/// The note of a form that succeeded.
#[component]
pub fn FormOk(out: Outcome) -> impl IntoView {
    let c = expect_context::<Ctx>();
    view! {
        <p class="form-ok" role="status" data-testid="edit-ok">
            {move || out.with(|o| o.as_ref().and_then(|r| r.as_ref().ok().copied())).map(|k| tx(c.lang.get(), k))}
        </p>
    }
}

/// What a text box shows and where its input goes: a plain signal, or a value kept for
/// the current scenario load with a suggestion shown until the user types (no effect
/// rewrites the box when the scenario changes).
#[derive(Clone, Copy)]
pub struct TextValue {
    get: Signal<String>,
    set: Callback<String>,
}

impl From<RwSignal<String>> for TextValue {
    fn from(s: RwSignal<String>) -> TextValue {
        TextValue {
            get: s.into(),
            set: Callback::new(move |v| s.set(v)),
        }
    }
}

impl From<ForLoad<String>> for TextValue {
    fn from(v: ForLoad<String>) -> TextValue {
        TextValue {
            get: Signal::derive(move || v.get()),
            set: Callback::new(move |s| v.set(s)),
        }
    }
}

impl TextValue {
    pub fn get_untracked(&self) -> String {
        self.get.get_untracked()
    }
}

/// A text box with its label and its field's error.
#[component]
pub fn TextField(
    /// The form's prefix for test ids (`q` gives `q-x-message-ttl`).
    form: &'static str,
    label: &'static str,
    field: &'static str,
    #[prop(into)] value: TextValue,
    out: Outcome,
    #[prop(optional)] hint: &'static str,
    #[prop(optional)] list: &'static str,
) -> impl IntoView {
    let c = expect_context::<Ctx>();
    // A key of the panel's table, or an AMQP name (`x-message-ttl`), shown as it is.
    let shown = move || tx(c.lang.get(), label);
    view! {
        <label>
            <span>
                {shown}
                {(!hint.is_empty()).then(|| view! { " " <small>"(" {move || tx(c.lang.get(), hint)} ")"</small> })}
            </span>
            <input
                data-testid=format!("{form}-{field}")
                list=(!list.is_empty()).then_some(list)
                aria-invalid=move || out.with(|o| o.as_ref().is_some_and(|r| r.as_ref().is_err_and(|e| e.field == field))).to_string()
                prop:value=move || value.get.get()
                on:input=move |ev| value.set.run(event_target_value(&ev))
            />
        </label>
        <FieldError out field />
    }
}

/// A checkbox with its (untranslated, AMQP) label.
#[component]
pub fn CheckField(
    form: &'static str,
    label: &'static str,
    field: &'static str,
    value: RwSignal<bool>,
) -> impl IntoView {
    view! {
        <label class="check">
            <input
                type="checkbox"
                data-testid=format!("{form}-{field}")
                prop:checked=move || value.get()
                on:change=move |ev| value.set(event_target_checked(&ev))
            />
            <span>{label}</span>
        </label>
    }
}

/// The declare flags: durable, auto-delete and a third (`internal` for an exchange,
/// `exclusive` for a queue), each with its field's error under the row.
#[component]
pub fn Flags(
    form: &'static str,
    durable: RwSignal<bool>,
    auto_delete: RwSignal<bool>,
    third: &'static str,
    third_value: RwSignal<bool>,
    out: Outcome,
) -> impl IntoView {
    view! {
        <div class="checks">
            <CheckField form label="durable" field="durable" value=durable />
            <CheckField form label="auto-delete" field="auto_delete" value=auto_delete />
            <CheckField form label=third field=third value=third_value />
        </div>
        {["durable", "auto_delete", third].map(|field| view! { <FieldError out field /> })}
    }
}

/// One free argument row, each part its own signal (typing does not re-render the list).
#[derive(Clone, Copy)]
pub struct Row {
    id: u32,
    key: RwSignal<String>,
    ty: RwSignal<String>,
    value: RwSignal<String>,
}

/// The rows' values, for a form's `extra`.
pub fn extra_args(rows: RwSignal<Vec<Row>>) -> Vec<ExtraArg> {
    rows.with_untracked(|rs| {
        rs.iter()
            .map(|r| ExtraArg {
                key: r.key.get_untracked(),
                ty: ArgType::parse(&r.ty.get_untracked()),
                value: r.value.get_untracked(),
            })
            .collect()
    })
}

/// Free arguments: key, type, value rows, added and removed one by one.
#[component]
pub fn ExtraArgs(rows: RwSignal<Vec<Row>>, prefix: &'static str, out: Outcome) -> impl IntoView {
    let c = expect_context::<Ctx>();
    let next = StoredValue::new(0u32);
    let add_row = move |_| {
        if rows.with_untracked(Vec::len) >= edit_rules::MAX_EXTRA_ARGS {
            return;
        }
        next.update_value(|n| *n += 1);
        let id = next.get_value();
        rows.update(|r| {
            r.push(Row {
                id,
                key: RwSignal::new(String::new()),
                ty: RwSignal::new("string".into()),
                value: RwSignal::new(String::new()),
            })
        });
    };
    view! {
        <fieldset class="extra-args">
            <legend>{move || tx(c.lang.get(), "extra")}</legend>
            <For
                each=move || rows.get()
                key=|r| r.id
                children=move |r| {
                    let n = rows.with_untracked(|rs| rs.iter().position(|x| x.id == r.id).unwrap_or(0));
                    view! {
                        <div class="arg-row">
                            <input
                                data-testid=format!("{prefix}-arg-key-{n}")
                                aria-label=move || tx(c.lang.get(), "key")
                                placeholder="x-..."
                                prop:value=move || r.key.get()
                                on:input=move |ev| r.key.set(event_target_value(&ev))
                            />
                            <select
                                data-testid=format!("{prefix}-arg-type-{n}")
                                aria-label=move || tx(c.lang.get(), "type")
                                prop:value=move || r.ty.get()
                                on:change=move |ev| r.ty.set(event_target_value(&ev))
                            >
                                {ArgType::ALL.into_iter().map(|t| view! { <option value=t.as_str()>{t.as_str()}</option> }).collect_view()}
                            </select>
                            <input
                                data-testid=format!("{prefix}-arg-value-{n}")
                                aria-label=move || tx(c.lang.get(), "value")
                                prop:value=move || r.value.get()
                                on:input=move |ev| r.value.set(event_target_value(&ev))
                            />
                            <button
                                type="button"
                                class="small"
                                aria-label=move || tx(c.lang.get(), "remove_arg")
                                on:click=move |_| rows.update(|rs| rs.retain(|x| x.id != r.id))
                            >
                                "×"
                            </button>
                        </div>
                    }
                }
            />
            <button type="button" class="small" data-testid=format!("{prefix}-add-arg") on:click=add_row>
                {move || tx(c.lang.get(), "add_arg")}
            </button>
            <FieldError out field="extra" />
        </fieldset>
    }
}

#[derive(Clone)]
enum Del {
    Exchange(String),
    Queue(String),
    Binding(usize),
}

/// The topology's exchanges, queues and bindings, each with a delete button.
#[component]
fn Objects() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let out: Outcome = RwSignal::new(None);
    let del = move |what: Del| {
        let mut s = c.runner.with_value(|r| r.scenario.clone());
        let done = match what {
            Del::Exchange(name) => edit_rules::delete_exchange(&mut s, &name),
            Del::Queue(name) => {
                edit_rules::delete_queue(&mut s, &name);
                Ok(())
            }
            Del::Binding(i) => {
                edit_rules::delete_binding(&mut s, i);
                Ok(())
            }
        };
        match done {
            Ok(()) => {
                c.load_scenario("custom", s);
                out.set(Some(Ok("deleted")));
            }
            Err(e) => out.set(Some(Err(e))),
        }
    };
    let delete_btn = move |label: String, tid: String, what: Del| {
        view! {
            <button
                type="button"
                class="small danger"
                data-testid=tid
                aria-label=move || format!("{} {label}", tx(c.lang.get(), "delete"))
                on:click=move |_| del(what.clone())
            >
                {move || tx(c.lang.get(), "delete")}
            </button>
        }
    };
    view! {
        <details class="edit-part" open>
            <summary>{move || tx(c.lang.get(), "objects")}</summary>
            <FormOk out />
            <FieldError out field="name" />
            {move || {
                let _ = c.preset.get();
                let t = c.runner.with_value(|r| r.scenario.topology.clone());
                let none = move || view! { <li class="muted">{move || tx(c.lang.get(), "none")}</li> };
                view! {
                    <h3>{move || c.tr("h_exchanges")}</h3>
                    <ul class="obj-list" data-testid="edit-exchanges">
                        {t.exchanges.is_empty().then(none)}
                        {t.exchanges.iter().map(|x| {
                            let n = x.name.clone();
                            let n2 = n.clone();
                            let label = format!("{} ({})", x.name, x.kind);
                            view! {
                                <li>
                                    <span class="obj-name">{label.clone()}</span>
                                    {delete_btn(label, format!("del-x-{n}"), Del::Exchange(n2))}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    <h3>{move || c.tr("h_queues")}</h3>
                    <ul class="obj-list" data-testid="edit-queues">
                        {t.queues.is_empty().then(none)}
                        {t.queues.iter().map(|q| {
                            let n = q.name.clone();
                            let n2 = n.clone();
                            let args: Vec<String> = q.arguments.iter().map(|(k, v)| format!("{k}={}", v.to_json())).collect();
                            view! {
                                <li>
                                    <span class="obj-name">{n.clone()}</span>
                                    <small class="muted obj-args">{args.join(" ")}</small>
                                    {delete_btn(n.clone(), format!("del-q-{n}"), Del::Queue(n2))}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                    <h3>{move || c.tr("h_bindings")}</h3>
                    <ul class="obj-list" data-testid="edit-bindings">
                        {t.bindings.is_empty().then(none)}
                        {t.bindings.iter().enumerate().map(|(i, b)| {
                            let arrow = if b.destination_type == DestinationKind::Exchange { "⇒ x:" } else { "→" };
                            let label = format!("{} {arrow} {} [{}]", b.source, b.destination, b.routing_key);
                            view! {
                                <li data-testid="edit-binding">
                                    <span class="obj-name">{label.clone()}</span>
                                    {delete_btn(label, format!("del-b-{i}"), Del::Binding(i))}
                                </li>
                            }
                        }).collect_view()}
                    </ul>
                }
            }}
        </details>
    }
}

/// The opened panel's body: the note, the three forms and the object list.
#[component]
pub fn EditForms() -> impl IntoView {
    let c = expect_context::<Ctx>();
    view! {
        <p class="hint">{move || tx(c.lang.get(), "edit_note")}</p>
        <super::edit_exchange::ExchangeForm />
        <super::edit_queue::QueueForm />
        <super::edit_binding::BindingForm />
        <Objects />
    }
}

#[component]
pub fn EditTopology() -> impl IntoView {
    let c = expect_context::<Ctx>();
    // The forms and the object list are built when the panel is first opened, not at the
    // page's start (they were a tenth of the mount while folded away), and kept from then
    // on (a form's input survives closing the panel). The summary's click (mouse, or
    // Enter / Space on it) comes before the details open, so they are there when it does.
    let opened = RwSignal::new(false);
    view! {
        <section class="panel edit-topology" aria-labelledby="edit-h" data-testid="edit-panel">
            <details>
                <summary id="edit-h" data-testid="edit-open" on:click=move |_| opened.set(true)>{move || c.tr("edit_topology")}</summary>
                <Show when=move || opened.get()>
                    // The forms are a chunk of their own (chunks.rs), fetched on the first open.
                    <super::deferred::Deferred load=super::chunks::edit_forms />
                </Show>
            </details>
        </section>
    }
}
