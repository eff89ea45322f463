//! The height an embed's iframe needs to show its panels: the Embed button's snippet
//! proposes it, so the panels a snippet lists are in the frame, not below its fold (at
//! the old fixed 560 px only the topology fitted; the Queues panel, where OVERDUE shows,
//! was below it).
//!
//! Heights are CSS px at the embed's usual widths (600 to 1000 px), measured on the
//! presets (tests/browser/page-embed.test.mjs checks that the snippet's frame shows
//! every panel it lists). A panel with a scrolling body (the log, the inspector) gets
//! the height its box is capped at (embed.css).
//!
//! ```text
//! clock,topology,queues:  frame 62 + clock 90 + topology 430 + queues 280 + gaps 16 = 878
//! (the topology's frame and the queue list are capped in embed.css; they scroll inside)
//! ```

/// The embed's own header (name, clock, "Open in delaylab") and its panels' padding.
const FRAME_PX: u32 = 62;
/// The gap between two panels.
const GAP_PX: u32 = 8;
/// The most a snippet proposes (a long list of panels scrolls inside the frame).
pub const MAX_HEIGHT_PX: u32 = 2_400;

/// One panel's height (px); an unknown name counts as a small panel.
pub fn panel_px(name: &str) -> u32 {
    match name {
        // Two rows at 600 px (the speed presets wrap).
        "clock" => 90,
        "topology" => 430,
        "queues" => 280,
        "watch" => 130,
        "log" => 330,
        "charts" => 420,
        "inspector" => 320,
        "publish" => 560,
        "consumers" => 230,
        _ => 120,
    }
}

/// The iframe height that shows `panels` (in their order, one column).
pub fn height_px(panels: &[&str]) -> u32 {
    let body: u32 = panels.iter().map(|p| panel_px(p)).sum();
    let gaps = GAP_PX * panels.len().saturating_sub(1) as u32;
    (FRAME_PX + body + gaps).min(MAX_HEIGHT_PX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_panels_get_more_than_the_old_560_px() {
        let h = height_px(&["clock", "topology", "queues"]);
        assert!(h > 560, "{h}");
        assert_eq!(h, 878);
        assert!(height_px(&["clock"]) < h);
        assert_eq!(height_px(&["publish"; 10]), MAX_HEIGHT_PX);
    }
}
