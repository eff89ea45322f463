//! Where a JSON path points in a JSON text: the loader names a problem by its path
//! (`checks[1].depth.queue`); an editor shows it at its line and column.
//!
//! ```text
//! [                                   locate(text, "[1].depth.queue")
//!   {"label": "a", "count": {...}},     → line 3, column 31: the value of "queue"
//!   {"label": "b", "depth": {"queue": "ordr", "of": "ready"}}
//! ]
//! ```
//!
//! A scanner over the text, not a second parser of meaning: it follows objects by key and
//! arrays by index and stops at the value the path names (or the deepest part of it that
//! exists: a missing key points at its object). A text that is not JSON gives what it
//! found before the fault.

/// One step of a path: a key or an index.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

/// `a.b[2].c` or `[1].depth.queue` as steps; `$` (the whole document) is none.
fn steps(path: &str) -> Vec<Step> {
    let mut out = Vec::new();
    let mut key = String::new();
    let mut chars = path.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            '$' if out.is_empty() && key.is_empty() => {}
            '.' => {
                if !key.is_empty() {
                    out.push(Step::Key(std::mem::take(&mut key)));
                }
            }
            '[' => {
                if !key.is_empty() {
                    out.push(Step::Key(std::mem::take(&mut key)));
                }
                let mut n = String::new();
                for d in chars.by_ref() {
                    if d == ']' {
                        break;
                    }
                    n.push(d);
                }
                if let Ok(i) = n.parse() {
                    out.push(Step::Index(i));
                }
            }
            c => key.push(c),
        }
    }
    if !key.is_empty() {
        out.push(Step::Key(key));
    }
    out
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scan<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    /// A string at the cursor (its raw text between the quotes, escapes resolved only as
    /// far as `\"` and `\\`: enough to compare keys).
    fn string(&mut self) -> Option<String> {
        if self.peek()? != b'"' {
            return None;
        }
        self.i += 1;
        let start = self.i;
        let mut out = Vec::new();
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'"' => {
                    self.i += 1;
                    let _ = start;
                    return String::from_utf8(out).ok();
                }
                b'\\' if self.i + 1 < self.b.len() => {
                    out.push(self.b[self.i + 1]);
                    self.i += 2;
                }
                c => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
        None
    }

    /// Skips the value at the cursor.
    fn skip(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(|_| ()),
            b'{' | b'[' => {
                let mut depth = 0usize;
                while self.i < self.b.len() {
                    match self.b[self.i] {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
                None
            }
            _ => {
                while self.i < self.b.len() && !matches!(self.b[self.i], b',' | b'}' | b']') {
                    self.i += 1;
                }
                Some(())
            }
        }
    }

    /// Moves to the value of `key` in the object at the cursor; false when it has none
    /// (the cursor stays at the object).
    fn key(&mut self, key: &str) -> bool {
        let at = self.i;
        if self.peek() != Some(b'{') {
            return false;
        }
        self.i += 1;
        loop {
            if self.peek() == Some(b'}') {
                break;
            }
            let Some(k) = self.string() else { break };
            if self.peek() != Some(b':') {
                break;
            }
            self.i += 1;
            self.ws();
            if k == key {
                return true;
            }
            if self.skip().is_none() {
                break;
            }
            if self.peek() == Some(b',') {
                self.i += 1;
            }
        }
        self.i = at;
        false
    }

    /// Moves to item `n` of the array at the cursor; false when it has none.
    fn index(&mut self, n: usize) -> bool {
        let at = self.i;
        if self.peek() != Some(b'[') {
            return false;
        }
        self.i += 1;
        for _ in 0..n {
            if self.peek() == Some(b']') || self.skip().is_none() {
                self.i = at;
                return false;
            }
            if self.peek() == Some(b',') {
                self.i += 1;
            }
        }
        if self.peek() == Some(b']') || self.peek().is_none() {
            self.i = at;
            return false;
        }
        true
    }
}

/// The byte offset of what `path` names in `text` (the deepest part of it found).
pub fn offset(text: &str, path: &str) -> usize {
    let mut s = Scan {
        b: text.as_bytes(),
        i: 0,
    };
    for step in steps(path) {
        let found = match &step {
            Step::Key(k) => s.key(k),
            Step::Index(n) => s.index(*n),
        };
        if !found {
            break;
        }
    }
    s.ws();
    s.i.min(text.len())
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// The byte offset of a 1-based line and column (in characters): where a caret goes.
pub fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut off = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return off
                + l.char_indices()
                    .nth(col.saturating_sub(1))
                    .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
        }
        off += l.len();
    }
    text.len()
}

/// Line and column of what `path` names in `text`.
pub fn locate(text: &str, path: &str) -> (usize, usize) {
    line_col(text, offset(text, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHECKS: &str = r#"[
  {"label": "a", "count": {"of": "delivered", "equals": 2}},
  {"label": "b \"q\"", "depth": {"queue": "ordr", "of": "ready"}}
]"#;

    #[test]
    fn a_path_is_found_at_its_value() {
        assert_eq!(locate(CHECKS, "[1].depth.queue"), (3, 43));
        assert_eq!(locate(CHECKS, "[0].count.equals"), (2, 57));
        assert_eq!(locate(CHECKS, "[1]"), (3, 3));
        assert_eq!(locate(CHECKS, "$"), (1, 1));
    }

    #[test]
    fn a_missing_part_points_at_the_deepest_part_found() {
        assert_eq!(
            locate(CHECKS, "[1].depth.nope"),
            (3, 33),
            "the depth object"
        );
        assert_eq!(locate(CHECKS, "[7].label"), (1, 1), "the array");
        // Not JSON after a point: what was found before it.
        assert_eq!(locate("{\"a\": {\"b\": ", "a.b"), (1, 13));
    }

    #[test]
    fn a_whole_scenario_path() {
        let text = "{\n  \"checks\": [\n    {\"label\": \"x\", \"delivered\": {\"body\": \"B\", \"by\": \"99h\"}}\n  ]\n}";
        assert_eq!(locate(text, "checks[0].delivered.by"), (3, 53));
    }

    #[test]
    fn line_and_column_round_trip_in_characters() {
        let text = "ab\n中文x\n";
        assert_eq!(line_col(text, offset_of(text, 2, 3)), (2, 3));
        assert_eq!(&text[offset_of(text, 2, 3)..], "x\n");
        assert_eq!(offset_of(text, 9, 1), text.len());
    }
}
