//! Literals and comments in the generated languages.

/// A double-quoted string literal. `rust` uses `\u{..}` escapes; `java` avoids `\u`
/// (javac reads unicode escapes before it lexes, so `\u000a` would end the line) and uses
/// octal for control characters. Non-ASCII text is kept as it is (the files are UTF-8).
pub fn quote(s: &str, style: Style) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => match style {
                Style::Rust => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                Style::Java => out.push_str(&format!("\\{:03o}", c as u32)),
                _ => out.push_str(&format!("\\u{:04x}", c as u32)),
            },
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Python, JavaScript, Go: `\uXXXX`.
    C,
    Java,
    Rust,
}

/// Line width the comments are wrapped to (indentation included).
pub const WIDTH: usize = 92;

/// `text` as comment lines starting with `indent` + `marker` + space, wrapped at words
/// (text without spaces, such as Chinese, is wrapped by characters).
pub fn comment(indent: &str, marker: &str, text: &str) -> String {
    let room = WIDTH
        .saturating_sub(indent.len() + marker.len() + 1)
        .max(20);
    let mut out = String::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut width = 0usize;
        for word in words(para) {
            let w = word.chars().count();
            if width > 0 && width + w > room {
                push_line(&mut out, indent, marker, line.trim_end());
                line.clear();
                width = 0;
            }
            if width == 0 && word == " " {
                continue;
            }
            line.push_str(&word);
            width += w;
        }
        push_line(&mut out, indent, marker, line.trim_end());
    }
    out
}

fn push_line(out: &mut String, indent: &str, marker: &str, line: &str) {
    out.push_str(indent);
    out.push_str(marker);
    if !line.is_empty() {
        out.push(' ');
        out.push_str(line);
    }
    out.push('\n');
}

/// Words with the spaces kept as their own items; a wide (CJK) character is a word.
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        if c == ' ' {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            out.push(" ".into());
        } else if (c as u32) >= 0x2E80 {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            out.push(c.to_string());
        } else {
            cur.push(c);
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A name usable as an identifier (letters, digits and `_`), for consumers and queues.
pub fn ident(s: &str) -> String {
    let mut out: String = s
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_escape_per_language() {
        assert_eq!(quote("a\"b\\c\n", Style::C), "\"a\\\"b\\\\c\\n\"");
        assert_eq!(quote("\u{1}", Style::Rust), "\"\\u{1}\"");
        assert_eq!(quote("\u{1}", Style::Java), "\"\\001\"");
        assert_eq!(quote("\u{1}", Style::C), "\"\\u0001\"");
        assert_eq!(quote("订单", Style::C), "\"订单\"");
    }

    #[test]
    fn comments_wrap() {
        let c = comment("    ", "#", &"word ".repeat(40));
        assert!(c.lines().all(|l| l.chars().count() <= WIDTH), "{c}");
        assert!(c.lines().all(|l| l.starts_with("    # ")));
        let zh = comment("", "//", &"队".repeat(100));
        assert!(zh.lines().count() > 1);
    }
}
