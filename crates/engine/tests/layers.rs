//! The engine's stairs: no module's library code uses a module of a higher layer.
//!
//! The layers are the list in `src/lib.rs`'s docs (one line per top-level module:
//! `//! - <layer> `<module>`: why`, lowest layer first). This test reads every file under
//! `src/`, finds each path into another top-level module (`crate::x`, the groups of
//! `use crate::{a, b::c}`, `super::` paths that leave their module, the crate root's
//! re-exports such as `crate::Sim`) outside `#[cfg(test)]` items, comments and string
//! literals, and fails naming the file, the line and the two layers of each path that
//! goes up.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One token of Rust source: what the walk needs (identifiers, `::`, brackets, `;`,
/// `,`, `#`, `$`), everything else as `Other`; comments and literals are dropped.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Open(char),
    Close(char),
    Semi,
    Comma,
    Hash,
    Dollar,
    Other,
}

/// Tokens with their 1-based line numbers.
fn lex(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Advances over `c[i..j]`, counting the lines it spans.
    let skip = |from: usize, to: usize, line: &mut usize| {
        *line += c[from..to.min(c.len())]
            .iter()
            .filter(|&&x| x == '\n')
            .count();
        to
    };
    while i < c.len() {
        let ch = c[i];
        let next = c.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == Some('*') {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (0, i);
            while j < c.len() {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            i = skip(i, j, &mut line);
        } else if ch == '"' {
            i = skip(i, string_end(&c, i + 1), &mut line);
        } else if ch == '\'' {
            // A char literal ('x', '\n', '{') or a lifetime ('a).
            if next == Some('\\') {
                let mut j = i + 2;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                out.push((Tok::Other, line));
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let at = c.get(i).copied();
            if (word == "r" || word == "br") && (at == Some('"') || at == Some('#')) {
                // A raw string: r"...", r#"..."#, br##"..."##.
                let mut hashes = 0;
                while c.get(i) == Some(&'#') {
                    hashes += 1;
                    i += 1;
                }
                if c.get(i) == Some(&'"') {
                    let mut j = i + 1;
                    loop {
                        if j >= c.len() {
                            break;
                        }
                        if c[j] == '"' && (1..=hashes).all(|h| c.get(j + h) == Some(&'#')) {
                            j += 1 + hashes;
                            break;
                        }
                        j += 1;
                    }
                    i = skip(i, j, &mut line);
                    continue;
                }
                // `r#ident`: a raw identifier.
                let start = i;
                while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
                out.push((Tok::Ident(c[start..i].iter().collect()), line));
            } else if word == "b" && at == Some('"') {
                i = skip(i, string_end(&c, i + 1), &mut line);
            } else if word == "b" && at == Some('\'') {
                let mut j = i + 1;
                if c.get(j + 1) == Some(&'\\') {
                    j += 2;
                }
                j += 1;
                while j < c.len() && c[j] != '\'' {
                    j += 1;
                }
                i = j + 1;
            } else {
                out.push((Tok::Ident(word), line));
            }
        } else {
            let tok = match ch {
                ':' if next == Some(':') => {
                    i += 1;
                    Tok::PathSep
                }
                '{' | '(' | '[' => Tok::Open(ch),
                '}' | ')' | ']' => Tok::Close(ch),
                ';' => Tok::Semi,
                ',' => Tok::Comma,
                '#' => Tok::Hash,
                '$' => Tok::Dollar,
                '\n' => {
                    line += 1;
                    i += 1;
                    continue;
                }
                c if c.is_whitespace() => {
                    i += 1;
                    continue;
                }
                _ => Tok::Other,
            };
            out.push((tok, line));
            i += 1;
        }
    }
    out
}

/// The index just past the closing quote of a string whose body starts at `i`.
fn string_end(c: &[char], mut i: usize) -> usize {
    while i < c.len() {
        match c[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// Drops every item under `#[cfg(test)]` (attribute included): from the attribute to
/// the `;` or the closing bracket that ends the item.
fn without_test_items(toks: &[(Tok, usize)]) -> Vec<(Tok, usize)> {
    let is = |i: usize, t: &Tok| toks.get(i).map(|x| &x.0) == Some(t);
    let ident = |i: usize, s: &str| matches!(toks.get(i), Some((Tok::Ident(w), _)) if w == s);
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let cfg_test = is(i, &Tok::Hash)
            && is(i + 1, &Tok::Open('['))
            && ident(i + 2, "cfg")
            && is(i + 3, &Tok::Open('('))
            && ident(i + 4, "test")
            && is(i + 5, &Tok::Close(')'))
            && is(i + 6, &Tok::Close(']'));
        if !cfg_test {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        let mut depth = 0usize;
        while i < toks.len() {
            match toks[i].0 {
                Tok::Open(_) => depth += 1,
                Tok::Close(b) => {
                    depth = depth.saturating_sub(1);
                    // The item's body closed (not an attribute's `]` before it).
                    if depth == 0 && b != ']' {
                        i += 1;
                        break;
                    }
                }
                Tok::Semi if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// A path into a top-level module: the module's name and the line it is written on.
#[derive(Debug, PartialEq)]
struct Use {
    module: String,
    line: usize,
}

/// The first segments of the paths after a `crate::` or `super::` at `toks[i]`: one
/// identifier, or each item of a `{...}` group (nested groups belong to their item).
fn first_segments(toks: &[(Tok, usize)], i: usize) -> Vec<(String, usize)> {
    match toks.get(i) {
        Some((Tok::Ident(w), line)) => vec![(w.clone(), *line)],
        Some((Tok::Open('{'), _)) => {
            let mut out = Vec::new();
            let (mut depth, mut j, mut item_start) = (1, i + 1, true);
            while j < toks.len() && depth > 0 {
                match &toks[j].0 {
                    Tok::Open(_) => depth += 1,
                    Tok::Close(_) => depth -= 1,
                    Tok::Comma if depth == 1 => {
                        item_start = true;
                        j += 1;
                        continue;
                    }
                    Tok::Ident(w) if depth == 1 && item_start => out.push((w.clone(), toks[j].1)),
                    _ => {}
                }
                item_start = false;
                j += 1;
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Every path of `src` (a file of module `module`, e.g. `["sim", "consume"]`) into a
/// top-level module other than its own, outside test items.
fn paths_out(src: &str, module: &[String]) -> Vec<Use> {
    let toks = without_test_items(&lex(src));
    let own = module[0].as_str();
    let ident = |i: usize, s: &str| matches!(toks.get(i), Some((Tok::Ident(w), _)) if w == s);
    let sep = |i: usize| toks.get(i).map(|t| &t.0) == Some(&Tok::PathSep);
    // Inline modules (`mod name { ... }`) open at a brace depth; `super` counts from
    // the innermost one.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Open('{') => depth += 1,
            Tok::Close('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let (Some((Tok::Ident(name), _)), Some((Tok::Open('{'), _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    inline.push((name.clone(), depth));
                }
            }
            Tok::Ident(w) if w == "crate" && sep(i + 1) => {
                // `$crate::` is a macro's own crate; `pub(in crate::x)` is a visibility.
                let before = i.checked_sub(1).map(|p| &toks[p].0);
                let in_vis = i > 0 && ident(i - 1, "in");
                if before != Some(&Tok::Dollar) && !in_vis {
                    for (m, line) in first_segments(&toks, i + 2) {
                        if m != own && m != "self" {
                            out.push(Use { module: m, line });
                        }
                    }
                }
            }
            Tok::Ident(w) if w == "super" && sep(i + 1) => {
                // `super::super::x`: climb one module per `super`.
                let mut here: Vec<String> = module.to_vec();
                here.extend(inline.iter().map(|(n, _)| n.clone()));
                let mut j = i;
                while ident(j, "super") && sep(j + 1) {
                    here.pop();
                    j += 2;
                }
                if here.is_empty() {
                    for (m, line) in first_segments(&toks, j) {
                        if m != own && m != "self" {
                            out.push(Use { module: m, line });
                        }
                    }
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The layer list of lib.rs's docs: (module, layer) in order, lowest layer first.
fn layer_lines(lib: &str) -> Vec<(String, String)> {
    lib.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("//! - ")?;
            let (layer, rest) = rest.split_once(' ')?;
            let module = rest.strip_prefix('`')?.split_once("`:")?.0;
            Some((module.to_string(), layer.to_string()))
        })
        .collect()
}

/// The modules lib.rs declares, and the names its `pub use` re-exports with the module
/// each comes from (`Sim` -> `sim`).
fn lib_items(lib: &str) -> (Vec<String>, BTreeMap<String, String>) {
    let toks = lex(lib);
    let ident = |i: usize| match toks.get(i) {
        Some((Tok::Ident(w), _)) => Some(w.clone()),
        _ => None,
    };
    let (mut mods, mut reexports) = (Vec::new(), BTreeMap::new());
    for i in 0..toks.len() {
        match ident(i).as_deref() {
            Some("mod") if toks.get(i + 2).map(|t| &t.0) == Some(&Tok::Semi) => {
                mods.extend(ident(i + 1));
            }
            Some("use") => {
                let Some(from) = ident(i + 1) else { continue };
                let mut j = i + 2;
                while j < toks.len() && toks[j].0 != Tok::Semi {
                    if let Some(name) = ident(j) {
                        reexports.insert(name, from.clone());
                    }
                    j += 1;
                }
            }
            _ => {}
        }
    }
    (mods, reexports)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("reads src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `sim/consume.rs` -> `["sim", "consume"]`, `sim/mod.rs` -> `["sim"]`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// Every path that goes up a layer, as a message per path, for the sources under `src`.
fn upward_paths(src: &Path) -> Result<Vec<String>, String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).map_err(|e| e.to_string())?;
    let lines = layer_lines(&lib);
    let mut order: Vec<&str> = Vec::new();
    for (_, layer) in &lines {
        if order.last() != Some(&layer.as_str()) {
            if order.contains(&layer.as_str()) {
                return Err(format!("lib.rs: layer {layer} is listed in two places"));
            }
            order.push(layer);
        }
    }
    let rank = |layer: &str| {
        order
            .iter()
            .position(|l| *l == layer)
            .expect("a listed layer")
    };
    let layer_of: BTreeMap<&str, &str> = lines
        .iter()
        .map(|(m, l)| (m.as_str(), l.as_str()))
        .collect();
    let (mods, reexports) = lib_items(&lib);
    let mut listed: Vec<&str> = layer_of.keys().copied().collect();
    let mut declared: Vec<&str> = mods.iter().map(String::as_str).collect();
    listed.sort_unstable();
    declared.sort_unstable();
    if listed != declared {
        return Err(format!(
            "lib.rs's layer list names {listed:?} but lib.rs declares {declared:?}: \
             give every module one line `//! - <layer> `<module>`: why`"
        ));
    }
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let mut up = Vec::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        if rel == Path::new("lib.rs") {
            continue;
        }
        let module = module_of(rel);
        let from = module[0].as_str();
        let Some(from_layer) = layer_of.get(from) else {
            return Err(format!(
                "src/{}: module {from} is not in lib.rs's list",
                rel.display()
            ));
        };
        let text = std::fs::read_to_string(&file).map_err(|e| e.to_string())?;
        for u in paths_out(&text, &module) {
            let to = reexports.get(&u.module).unwrap_or(&u.module);
            let Some(to_layer) = layer_of.get(to.as_str()) else {
                return Err(format!(
                    "src/{}:{}: crate::{} is neither a module in lib.rs's layer list nor \
                     one of lib.rs's re-exports",
                    rel.display(),
                    u.line,
                    u.module
                ));
            };
            if rank(to_layer) > rank(from_layer) {
                up.push(format!(
                    "src/{}:{}: `{from}` (layer {from_layer}) uses `{to}` (layer {to_layer}, \
                     above it)",
                    rel.display(),
                    u.line
                ));
            }
        }
    }
    Ok(up)
}

#[test]
fn no_module_uses_a_higher_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let up = upward_paths(&src).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        up.is_empty(),
        "{} paths go up a layer (move what the lower layer needs down, see lib.rs):\n{}",
        up.len(),
        up.join("\n")
    );
}

#[test]
fn the_walk_sees_the_real_imports() {
    // A walk that found nothing would pass the test above without checking anything.
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let text = std::fs::read_to_string(src.join("sim/mod.rs")).unwrap();
    let found: Vec<String> = paths_out(&text, &["sim".into()])
        .into_iter()
        .map(|u| u.module)
        .collect();
    for m in ["queue", "scenario", "timers", "event"] {
        assert!(
            found.iter().any(|f| f == m),
            "sim/mod.rs uses {m}: {found:?}"
        );
    }
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(layer_lines(&lib).len() >= 20, "the layer list is read");
    assert_eq!(
        lib_items(&lib).1.get("Sim").map(String::as_str),
        Some("sim")
    );
}

#[test]
fn paths_in_every_form_are_found() {
    let src = r##"
        use crate::{value::Table, sym::{Sym, Symbols},
            ids};
        use super::queue::Entry;
        pub(crate) fn f() { crate::report::run(x); }
        pub(in crate::sim) struct V;
        // use crate::comment;
        /* crate::block /* nested */ crate::still_comment */
        const S: &str = "crate::string \" crate::escaped";
        const R: &str = r#"crate::raw " crate::still_raw"#;
        const C: char = '{';
        fn g<'a>(x: &'a u8) { super::super::outside::h(); }
        macro_rules! m { () => { $crate::macro_path }; }
        mod inner { use super::own_sibling; }
        #[cfg(test)]
        mod tests { use crate::report::tested; }
        #[cfg(test)]
        use crate::report::test_only;
        fn after_tests() { crate::Sim::new(); }
    "##;
    let module = ["sim".to_string(), "consume".to_string()];
    let found: Vec<(String, usize)> = paths_out(src, &module)
        .into_iter()
        .map(|u| (u.module, u.line))
        .collect();
    let want: Vec<(String, usize)> = [
        ("value", 2),
        ("sym", 2),
        ("ids", 3),
        ("report", 5),
        ("outside", 12),
        ("Sim", 19),
    ]
    .iter()
    .map(|(m, l)| (m.to_string(), *l))
    .collect();
    assert_eq!(found, want);
    // From a top-level file, `super::` is the crate root.
    let top = paths_out("use super::queue::Queue;", &["snapshot".into()]);
    assert_eq!(
        top,
        vec![Use {
            module: "queue".into(),
            line: 1
        }]
    );
}

#[test]
fn an_upward_path_is_reported_with_its_file_line_and_layers() {
    let dir = std::env::temp_dir().join(format!("delaylab-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sim")).unwrap();
    std::fs::write(
        dir.join("lib.rs"),
        "//! - values `value`: v.\n//! - sim `sim`: s.\n//! - report `report`: r.\n\
         pub mod report;\npub mod sim;\npub mod value;\npub use sim::Sim;\n",
    )
    .unwrap();
    std::fs::write(dir.join("value.rs"), "use crate::Sim;\n").unwrap();
    std::fs::write(
        dir.join("sim/mod.rs"),
        "use crate::value::V;\n\nuse crate::{report::text};\n",
    )
    .unwrap();
    std::fs::write(dir.join("report.rs"), "use crate::sim::Sim;\n").unwrap();
    let up = upward_paths(&dir).unwrap();
    assert_eq!(
        up,
        [
            "src/sim/mod.rs:3: `sim` (layer sim) uses `report` (layer report, above it)",
            "src/value.rs:1: `value` (layer values) uses `sim` (layer sim, above it)",
        ]
    );
    std::fs::write(dir.join("value.rs"), "use crate::nowhere::X;\n").unwrap();
    assert!(upward_paths(&dir)
        .unwrap_err()
        .contains("src/value.rs:1: crate::nowhere"));
    std::fs::write(
        dir.join("lib.rs"),
        "//! - values `value`: v.\npub mod value;\npub mod sim;\n",
    )
    .unwrap();
    assert!(upward_paths(&dir).unwrap_err().contains("layer list"));
    std::fs::remove_dir_all(&dir).unwrap();
}
