//! The topology diagram (SVG): nodes laid out left to right, draggable with the pointer
//! (or moved with the arrow keys), zoom and fit, and message chips flying along edges.

use std::collections::HashMap;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::runner::MoveKind;
use super::topo::{self, EdgeKind, NodeKind, TNode};
use super::topo_info::{squeeze, trunc};
use super::Ctx;
use delaylab_playground::per_load::PerLoad;
use delaylab_playground::{topo_fit, topo_route};

type Pos = HashMap<String, (f64, f64)>;
/// What a layout belongs to: the scenario load and the number of ranks side by side.
type LayoutKey = (u64, usize);
/// What a held frame or a zoom belongs to: the layout and the boxes in it.
type ViewKey = (u64, usize, Vec<String>);
/// An SVG viewBox: x, y, width, height.
type ViewBox = (f64, f64, f64, f64);
/// The frame before the first layout.
const DEFAULT_VIEW_BOX: ViewBox = (0.0, 0.0, 900.0, 400.0);

#[derive(Clone, Copy, Debug)]
struct Drag {
    cx: f64,
    cy: f64,
    x: f64,
    y: f64,
    scale: f64,
}

/// Frames the first measure waits at most for the frame to be in the page and laid out:
/// a view drawn from a chunk (embed mode, deferred.rs) is put in the page a moment after
/// it is built. Two seconds at 60 Hz; a resize measures again in any case.
const FIRST_MEASURE_FRAMES: u32 = 120;

/// Measures on the next animation frame, and again on the following ones until `measure`
/// says it could (at most `frames_left` more).
fn measure_when_laid_out(measure: impl Fn() -> bool + Copy + 'static, frames_left: u32) {
    request_animation_frame(move || {
        if !measure() && frames_left > 0 {
            measure_when_laid_out(measure, frames_left - 1);
        }
    });
}

#[component]
pub fn Topology() -> impl IntoView {
    let c = expect_context::<Ctx>();
    let model = Memo::new(move |_| c.snap.with(|s| c.targets.with(|t| topo::model(s, t))));
    let drag = StoredValue::new(None::<Drag>);
    let svg_ref = NodeRef::<leptos::svg::Svg>::new();

    // The drawing is sized to its frame's width (topo_fit: readable at 1440 px and at
    // 390 px, the frame scrolling sideways when it must); zoom scales that size and the
    // frame pans. `frame_w` is measured on a fit and on every resize.
    let frame_ref = NodeRef::<leptos::html::Div>::new();
    let frame_w = RwSignal::new(0.0f64);
    // Whether the frame is laid out (a width to measure).
    let measure = move || {
        let Some(el) = frame_ref.get_untracked() else {
            return false;
        };
        let w = f64::from(el.client_width());
        if w > 0.0 && (w - frame_w.get_untracked()).abs() >= 1.0 {
            frame_w.set(w);
        }
        w > 0.0
    };
    let _ = window_event_listener(leptos::ev::resize, move |_| {
        measure();
    });
    measure_when_laid_out(measure, FIRST_MEASURE_FRAMES);
    // Phones lay the graph out top to bottom (topo::layout) and draw it at its own size,
    // centred, rather than scaled to the width (zoom still widens it).
    let narrow = || {
        web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|w| w.as_f64())
            .is_some_and(|w| w <= 760.0)
    };
    // Ranks side by side that stay readable in the frame; more wrap into bands below.
    // On a phone: boxes side by side in one line of the top-to-bottom layout.
    let cols = Memo::new(move |_| {
        let widest = model.with(|m| m.nodes.iter().map(|n| n.w).fold(0.0, f64::max));
        if narrow() {
            topo_fit::per_line_for(frame_w.get(), widest)
        } else {
            topo_fit::columns_for(frame_w.get(), widest)
        }
    });
    let layout_key = Memo::new(move |_| (c.load_rev.get(), cols.get()));
    let ids = Memo::new(move |_| {
        model.with(|m| m.nodes.iter().map(|n| n.id.clone()).collect::<Vec<_>>())
    });
    let view_key = Memo::new(move |_| {
        let (load, cols) = layout_key.get();
        (load, cols, ids.get())
    });

    // The drawing's own layout: from scratch for a new scenario (or a frame that fits
    // another number of ranks); new boxes later are placed, the others stay (the memo's
    // previous value is its memory, no effect writes it).
    let base = Memo::new(move |prev: Option<&(LayoutKey, bool, Pos)>| {
        let key = layout_key.get();
        ids.track();
        let vertical = narrow();
        let fresh = model.with_untracked(|m| topo::layout_wrapped(m, vertical, key.1));
        match prev {
            Some((k, _, old)) if *k == key => {
                let kept = fresh
                    .into_iter()
                    .map(|(id, xy)| {
                        let xy = old.get(&id).copied().unwrap_or(xy);
                        (id, xy)
                    })
                    .collect();
                (key, vertical, kept)
            }
            _ => (key, vertical, fresh),
        }
    });
    // Where the user dragged boxes, for this layout (a restart keeps it, a new scenario
    // does not see it).
    let arranged = RwSignal::new(PerLoad::<Pos, LayoutKey>::default());
    let pos = Memo::new(move |_| {
        let key = layout_key.get();
        base.with(|(_, _, b)| {
            arranged.with(|a| match a.get(&key) {
                None => b.clone(),
                Some(moved) => b
                    .iter()
                    .map(|(id, xy)| (id.clone(), moved.get(id).copied().unwrap_or(*xy)))
                    .collect(),
            })
        })
    });
    let move_box = move |id: &str, f: &dyn Fn((f64, f64)) -> (f64, f64)| {
        let key = layout_key.get_untracked();
        let Some(at) = pos.with_untracked(|p| p.get(id).copied()) else {
            return;
        };
        arranged.update(|a| {
            let mut moved = a.get(&key).cloned().unwrap_or_default();
            moved.insert(id.to_string(), f(at));
            a.set(key, moved);
        });
    };

    let rect_of = move |p: &Pos, n: &TNode| p.get(&n.id).map(|&(x, y)| (x, y, n.w, n.h));
    // An edge's route between its boxes, clear of the other boxes (topo_route).
    let route_of = move |m: &topo::Model, p: &Pos, from: &str, to: &str| {
        let a = m.nodes.iter().find(|n| n.id == from)?;
        let b = m.nodes.iter().find(|n| n.id == to)?;
        let others: Vec<topo_route::Rect> = m
            .nodes
            .iter()
            .filter(|n| n.id != from && n.id != to)
            .filter_map(|n| rect_of(p, n))
            .collect();
        let vertical = base.with_untracked(|b| b.1);
        Some(topo_route::route(
            rect_of(p, a)?,
            rect_of(p, b)?,
            vertical,
            &others,
        ))
    };
    // The frame shows the boxes' bounds; a drag holds it where it was (until Fit, or a
    // new box or scenario refits), as a zoom holds until then.
    let bounds = Memo::new(move |_| {
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        model.with_untracked(|m| {
            pos.with(|p| {
                for n in &m.nodes {
                    if let Some(&(x, y)) = p.get(&n.id) {
                        x0 = x0.min(x);
                        y0 = y0.min(y);
                        x1 = x1.max(x + n.w);
                        y1 = y1.max(y + n.h + 14.0);
                    }
                }
                // A route through the gaps beside the boxes, and its label, are drawn too.
                for e in &m.edges {
                    let Some(r) = route_of(m, p, &e.from, &e.to) else {
                        continue;
                    };
                    if let topo_route::Route::Lines(pts, _) = &r {
                        for &(x, y) in pts {
                            x1 = x1.max(x);
                            y1 = y1.max(y);
                        }
                        let l = r.label();
                        if l.anchor == "start" {
                            x1 = x1.max(l.x + trunc(&e.label, 16).chars().count() as f64 * 6.1);
                        }
                    }
                }
            })
        });
        let m = topo::MARGIN;
        (x0 < x1).then_some((x0 - m, y0 - m, (x1 - x0) + 2.0 * m, (y1 - y0) + 2.0 * m))
    });
    let held = RwSignal::new(PerLoad::<ViewBox, ViewKey>::default());
    let vb = Memo::new(move |_| {
        let key = view_key.get();
        held.with(|h| h.get(&key).copied())
            .or_else(|| bounds.get())
            .unwrap_or(DEFAULT_VIEW_BOX)
    });
    let hold = move || {
        let key = view_key.get_untracked();
        if held.with_untracked(|h| h.get(&key).is_none()) {
            let v = vb.get_untracked();
            held.update(|h| h.set(key, v));
        }
    };
    let zoomed = RwSignal::new(PerLoad::<f64, ViewKey>::default());
    let zoom_k = Memo::new(move |_| {
        let key = view_key.get();
        zoomed.with(|z| z.get(&key).copied()).unwrap_or(1.0)
    });
    let size = Memo::new(move |_| {
        let v = vb.get();
        topo_fit::fit(v.2, v.3, frame_w.get(), zoom_k.get())
    });
    let fit = move || {
        held.update(PerLoad::clear);
        zoomed.update(PerLoad::clear);
        measure();
    };
    // In (`by` > 1) or out: the drawn size changes, the frame pans over it.
    let zoom = move |by: f64| {
        let k = (zoom_k.get_untracked() * by).clamp(topo_fit::MIN_ZOOM, topo_fit::MAX_ZOOM);
        zoomed.update(|z| z.set(view_key.get_untracked(), k));
    };

    let edges = move |labels: bool| {
        model.with(|m| {
            pos.with(|p| {
                m.edges
                    .iter()
                    .filter_map(|e| {
                        let r = route_of(m, p, &e.from, &e.to)?;
                        let d = r.d();
                        let topo_route::Label { x: lx, y: ly, anchor } = r.label();
                        let cls = match e.kind {
                            EdgeKind::Publish => "edge publish",
                            EdgeKind::Bind => "edge bind",
                            EdgeKind::DeadLetter => "edge dlx",
                            EdgeKind::Consume => "edge consume",
                            EdgeKind::Alternate => "edge alt",
                        };
                        let label = trunc(&e.label, 16);
                        Some(if labels {
                            view! {
                                <g class=cls>
                                    <text x=format!("{:.1}", lx) y=format!("{:.1}", ly) text-anchor=anchor class="edge-label">
                                        {label}
                                    </text>
                                </g>
                            }
                            .into_any()
                        } else {
                            view! {
                                <g class=cls>
                                    <path d=d marker-end="url(#arrow)" />
                                </g>
                            }
                            .into_any()
                        })
                    })
                    .collect_view()
            })
        })
    };

    let node_view = move |n: TNode| {
        let id = n.id.clone();
        let id_move = n.id.clone();
        let id_key = n.id.clone();
        let name = n.name.clone();
        let kind = n.kind;
        let (w, h) = (n.w, n.h);
        let cls = match (n.kind, n.delayed) {
            (NodeKind::Publisher, _) => "node publisher",
            (NodeKind::Exchange, true) => "node exchange delayed-x",
            (NodeKind::Exchange, false) => "node exchange",
            (NodeKind::Queue, _) => "node queue",
            (NodeKind::Consumer, _) => "node consumer",
        };
        let kind_key = match n.kind {
            NodeKind::Publisher => "k_publisher",
            NodeKind::Exchange => "k_exchange",
            NodeKind::Queue => "k_queue",
            NodeKind::Consumer => "k_consumer",
        };
        // The consumer's sub line is built in topo.rs from the spec ("manual ack · ack"):
        // its one English phrase is swapped here, where the language is known.
        let sub_of = {
            let sub = n.sub.clone();
            move || {
                if kind == NodeKind::Consumer {
                    sub.replacen("manual ack", c.tr("manual_ack"), 1)
                } else {
                    sub.clone()
                }
            }
        };
        // Why every publish through it is refused, if it is (RabbitMQ's text).
        let refusing = {
            let nm = n.name.clone();
            move || {
                c.snap.with(|s| {
                    s.exchange(&nm).and_then(|x| {
                        x.refusing
                            .as_ref()
                            .map(|(code, text)| format!("{code} {text}"))
                    })
                })
            }
        };
        let label = {
            let (sub_of, nm, badges) = (sub_of.clone(), n.name.clone(), n.badges.join(", "));
            let publisher = kind == NodeKind::Publisher;
            let refusing = refusing.clone();
            move || {
                let name = if publisher { String::new() } else { nm.clone() };
                let mut l = format!("{} {} {} {}", c.tr(kind_key), name, sub_of(), badges);
                if let Some(r) = refusing() {
                    l.push_str(&format!(" · {}: {r}", c.tr("x_refusing_label")));
                }
                l
            }
        };
        let transform = move || {
            pos.with(|p| {
                p.get(&id)
                    .map(|(x, y)| format!("translate({x:.1},{y:.1})"))
                    .unwrap_or_default()
            })
        };
        // A long name takes more lines (topo::name_lines): what is below it moves down.
        let name_extra = topo::NAME_LINE_H * n.name_lines.len().saturating_sub(1) as f64;
        let name_lines = n.name_lines.clone();
        let sub_y = if n.badges.is_empty() { 38.0 } else { 58.0 } + name_extra;
        let mut bx = 8.0;
        let mut by = 28.0 + name_extra;
        let badges = n
            .badges
            .iter()
            .map(|b| {
                let bw = topo::badge_width(b);
                if bx > 8.0 && bx + bw > w - 4.0 {
                    bx = 8.0;
                    by += 18.0;
                }
                let (x, y) = (bx, by);
                bx += bw + 4.0;
                let warn = b.starts_with("DLX") || b.starts_with("TTL");
                view! {
                    <g class={if warn { "badge key" } else { "badge" }}>
                        <rect x=x y=y width=bw height="16" rx="8" />
                        <text x=x + bw / 2.0 y=y + 12.0 text-anchor="middle">{b.clone()}</text>
                    </g>
                }
            })
            .collect_view();
        let nm = name.clone();
        let info = Memo::new(move |_| -> String {
            c.snap
                .with(|s| super::topo_info::info_line(&c, s, kind, &nm, w))
        });
        // A long line ("ready 2 · unacked 0 · ⚠ overdue 1") is squeezed into its box
        // rather than spilling over the border or being cut where the drawing ends.
        let info_len = move || squeeze(info.with(|t| t.chars().count()), w);
        let has_overdue = {
            let nm = name.clone();
            move || {
                kind == NodeKind::Queue
                    && c.snap.with(|s| s.queue(&nm).is_some_and(|q| q.overdue > 0))
            }
        };
        let maxc = topo::name_chars(w);
        let publisher = kind == NodeKind::Publisher;
        view! {
            <g
                class=cls
                class:has-overdue=has_overdue
                class:refusing={
                    let r = refusing.clone();
                    move || r().is_some()
                }
                data-refusing=refusing
                transform=transform
                tabindex="0"
                role="img"
                aria-label=label
                data-testid=format!("node-{}", n.id)
                on:pointerdown=move |ev: web_sys::PointerEvent| {
                    if ev.button() != 0 {
                        return;
                    }
                    ev.prevent_default();
                    if let Some(t) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                        let _ = t.set_pointer_capture(ev.pointer_id());
                    }
                    hold();
                    let (x, y) = pos.with_untracked(|p| p.get(&id_move).copied().unwrap_or((0.0, 0.0)));
                    let scale = svg_ref
                        .get_untracked()
                        .map(|s| {
                            let r = s.get_bounding_client_rect();
                            let v = vb.get_untracked();
                            (v.2 / r.width().max(1.0)).max(v.3 / r.height().max(1.0))
                        })
                        .unwrap_or(1.0);
                    drag.set_value(Some(Drag { cx: ev.client_x() as f64, cy: ev.client_y() as f64, x, y, scale }));
                }
                on:pointermove={
                    let id = n.id.clone();
                    move |ev: web_sys::PointerEvent| {
                        if let Some(d) = drag.get_value() {
                            let nx = d.x + (ev.client_x() as f64 - d.cx) * d.scale;
                            let ny = d.y + (ev.client_y() as f64 - d.cy) * d.scale;
                            move_box(&id, &|_| (nx, ny));
                        }
                    }
                }
                on:pointerup=move |_| drag.set_value(None)
                on:pointercancel=move |_| drag.set_value(None)
                on:keydown=move |ev: web_sys::KeyboardEvent| {
                    let (dx, dy) = match ev.key().as_str() {
                        "ArrowLeft" => (-20.0, 0.0),
                        "ArrowRight" => (20.0, 0.0),
                        "ArrowUp" => (0.0, -20.0),
                        "ArrowDown" => (0.0, 20.0),
                        _ => return,
                    };
                    ev.prevent_default();
                    hold();
                    move_box(&id_key, &|(x, y)| (x + dx, y + dy));
                }
            >
                <rect class="box" width=w height=h rx={if kind == NodeKind::Exchange { "4" } else { "10" }} />
                {(kind == NodeKind::Exchange && n.delayed).then(|| view! { <rect class="box-inner" x="4" y="4" width=w - 8.0 height=h - 8.0 rx="3" /> })}
                <text x={if publisher { w / 2.0 } else { 10.0 }} y={if publisher { h / 2.0 + 5.0 } else { 19.0 }} class="name" text-anchor={if publisher { "middle" } else { "start" }}>
                    {match kind {
                        NodeKind::Exchange => "⇄ ",
                        NodeKind::Queue => "☰ ",
                        NodeKind::Consumer => "⚙ ",
                        NodeKind::Publisher => "✉ ",
                    }}
                    {move || if publisher { c.tr("k_publisher").to_string() } else { name_lines.first().cloned().unwrap_or_default() }}
                </text>
                {n.name_lines.iter().enumerate().skip(1).map(|(i, line)| view! {
                    <text x="25" y=19.0 + topo::NAME_LINE_H * i as f64 class="name name-more">{line.clone()}</text>
                }).collect_view()}
                {(kind == NodeKind::Exchange || kind == NodeKind::Consumer)
                    .then(|| view! { <text x="10" y=sub_y class="sub">{move || trunc(&sub_of(), maxc + 4)}</text> })}
                {badges}
                <text x="10" y=h - 10.0 class="info" textLength=info_len lengthAdjust="spacingAndGlyphs">{info}</text>
            </g>
        }
    };

    // A flying chip: its curve is fixed when it starts; each frame only moves it.
    let flight_view = move |fl: super::Flight| {
        let cv = model
            .with_untracked(|m| pos.with_untracked(|p| route_of(m, p, &fl.mv.from, &fl.mv.to)));
        let label = if fl.mv.count > 1 {
            format!("+{}", fl.mv.count)
        } else {
            trunc(&fl.mv.body, 10)
        };
        let w = label.chars().count() as f64 * 6.6 + 14.0;
        let cls = match fl.mv.kind {
            MoveKind::Publish => "flight publish",
            MoveKind::Route => "flight route",
            MoveKind::DeadLetter => "flight dlx",
            MoveKind::Deliver => "flight deliver",
        };
        let msg = fl.mv.msg;
        let start = fl.start;
        cv.map(|cv| {
            let transform = move || {
                let t = ((c.wall.get() - start) / 800.0).clamp(0.0, 1.0);
                let t = t * t * (3.0 - 2.0 * t);
                let (x, y) = cv.at(t);
                format!("translate({:.1},{:.1})", x - w / 2.0, y - 9.0)
            };
            view! {
                <g class=cls transform=transform on:click=move |_| c.selected.set(Some(msg))>
                    <rect width=w height="18" rx="9" />
                    <text x=w / 2.0 y="13" text-anchor="middle">{label}</text>
                </g>
            }
        })
    };

    view! {
        <section class="panel topo" aria-labelledby="topo-h">
            <div class="topo-head">
                <h2 id="topo-h">{move || c.tr("topology")}</h2>
                <div class="topo-tools" role="group" aria-label=move || c.tr("zoom")>
                    <button class="small" data-testid="zoom-in" aria-label=move || c.tr("zoom_in") on:click=move |_| zoom(topo_fit::ZOOM_STEP)>"+"</button>
                    <button class="small" data-testid="zoom-out" aria-label=move || c.tr("zoom_out") on:click=move |_| zoom(1.0 / topo_fit::ZOOM_STEP)>"−"</button>
                    <button class="small" data-testid="fit" on:click=move |_| fit()>{move || c.tr("fit")}</button>
                </div>
            </div>
            <p class="hint">{move || c.tr("topo_hint")}</p>
            <div class="legend" aria-hidden="true">
                <span class="lg bind">"── " {move || c.tr("lg_binding")}</span>
                <span class="lg dlx">"- - " {move || c.tr("lg_dlx")}</span>
                <span class="lg consume">"··· " {move || c.tr("lg_consume")}</span>
                <span class="lg">"▭ " {move || c.tr("lg_delayed")}</span>
            </div>
            <div class="topo-scroll" node_ref=frame_ref>
            <svg
                class="topo-svg"
                style:width=move || format!("{:.0}px", size.get().width_px)
                style:height=move || format!("{:.0}px", size.get().height_px)
                style:min-width="0"
                style:max-width="none"
                style:max-height="none"
                style:margin="0 auto"
                class:vertical=move || base.with(|b| b.1)
                class:zoomed=move || { zoom_k.get() > 1.0 }
                data-testid="topology"
                node_ref=svg_ref
                role="group"
                aria-label=move || c.tr("topology")
                viewBox=move || { let v = vb.get(); format!("{:.1} {:.1} {:.1} {:.1}", v.0, v.1, v.2, v.3) }
            >
                <defs>
                    <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                        <path d="M0,0 L10,5 L0,10 z" class="arrowhead" />
                    </marker>
                </defs>
                <g class="edges">{move || edges(false)}</g>
                <g class="nodes">
                    <For each=move || model.get().nodes key=|n| n.key() children=node_view />
                </g>
                <g class="flights">
                    <For each=move || c.flights.get() key=|f| f.id children=flight_view />
                </g>
                // Over the chips: a chip passes under its edge's routing key.
                <g class="edge-labels">{move || edges(true)}</g>
            </svg>
            </div>
        </section>
    }
}
