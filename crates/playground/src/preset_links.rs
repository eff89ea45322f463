//! A preset's texts name other presets ("see Head-of-line blocking"); the page makes
//! each name a link that loads that preset. This splits a text at the names of the
//! other presets (in the page's language) that a sentence refers to ("see", "见"),
//! earliest first, the longest name where two start at the same place; the view draws
//! the parts.
//!
//! ```text
//! "... waits behind the 30 min one: see Head-of-line blocking."
//!   -> Text("... waits behind the 30 min one: see "), Preset(head-of-line-blocking), Text(".")
//! ```

/// One piece of a text: words, or a preset's name to link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    Text(String),
    Preset { id: String, name: String },
}

/// A name is a reference where its sentence says so before it: "see ..." or "见...".
const MARKERS: [&str; 2] = ["see ", "见"];

/// Whether the sentence `before` ends in (the text before a name) refers to something.
fn referred(before: &str) -> bool {
    // A sentence ends at ". " (not the dot of "4.3"), "; " or "。".
    let end = [". ", "; ", "。", ";"]
        .iter()
        .filter_map(|e| before.rfind(e))
        .max();
    let sentence = end.map_or(before, |i| &before[i..]);
    MARKERS.iter().any(|m| sentence.contains(m))
}

/// `text` split at the names of `presets` ((id, name) in the page's language), leaving
/// out `own` (the preset the text belongs to).
pub fn split(text: &str, presets: &[(String, String)], own: &str) -> Vec<Part> {
    let names: Vec<&(String, String)> = presets
        .iter()
        .filter(|(id, name)| id != own && !name.is_empty())
        .collect();
    let mut parts = Vec::new();
    // `done`: where the text not yet split starts; `from`: where to look for names.
    let (mut done, mut from) = (0, 0);
    loop {
        let next = names
            .iter()
            .filter_map(|(id, name)| {
                text[from..]
                    .find(name.as_str())
                    .map(|at| (from + at, name.len(), id, name))
            })
            .min_by_key(|(at, len, _, _)| (*at, usize::MAX - len));
        let Some((at, len, id, name)) = next else {
            break;
        };
        if !referred(&text[..at]) {
            from = at + len;
            continue;
        }
        if at > done {
            parts.push(Part::Text(text[done..at].to_string()));
        }
        parts.push(Part::Preset {
            id: id.to_string(),
            name: name.to_string(),
        });
        done = at + len;
        from = done;
    }
    if done < text.len() {
        parts.push(Part::Text(text[done..].to_string()));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn presets() -> Vec<(String, String)> {
        [
            ("head-of-line-blocking", "Head-of-line blocking"),
            (
                "after-plugin-delays-on-4-3",
                "After the plugin: delays on 4.3",
            ),
            (
                "upgrade",
                "Upgrading to 4.3 with orders waiting in the delayed exchange",
            ),
            ("short", "Short"),
        ]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
    }

    #[test]
    fn names_of_other_presets_become_links() {
        let p = split("waits: see Head-of-line blocking.", &presets(), "sandbox");
        assert_eq!(
            p,
            vec![
                Part::Text("waits: see ".into()),
                Part::Preset {
                    id: "head-of-line-blocking".into(),
                    name: "Head-of-line blocking".into()
                },
                Part::Text(".".into()),
            ]
        );
        let two = split(
            "see the presets Upgrading to 4.3 with orders waiting in the delayed exchange and After the plugin: delays on 4.3.",
            &presets(),
            "x",
        );
        assert_eq!(
            two.iter()
                .filter(|p| matches!(p, Part::Preset { .. }))
                .count(),
            2
        );
        // Its own name, and a name no "see" refers to, are words.
        assert_eq!(
            split(
                "see Head-of-line blocking. Short.",
                &presets(),
                "head-of-line-blocking"
            ),
            vec![Part::Text("see Head-of-line blocking. Short.".into())]
        );
        assert_eq!(
            split("Head-of-line blocking hurts. See: Short.", &presets(), "x"),
            vec![Part::Text(
                "Head-of-line blocking hurts. See: Short.".into()
            )]
        );
        let zh = vec![("hol".to_string(), "队头阻塞".to_string())];
        assert_eq!(split("队头阻塞很常见。见“队头阻塞”。", &zh, "x").len(), 3);
        assert_eq!(split("", &presets(), "x"), vec![]);
    }
}
