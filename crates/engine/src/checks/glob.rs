//! A check's body pattern (`body_matches`): `*` stands for any run of characters (none
//! included), `?` for exactly one, any other character for itself; case counts. What the
//! `wildmatch` crate did for it, without its case-insensitive path, which linked
//! Unicode's lowercase tables (12 KB) into every page that runs the engine.
//!
//! ```text
//! "order-?-*"  matches "order-1-paid", "order-7-"     not "order-12-paid", "Order-1-x"
//! ```

/// A compiled pattern.
pub struct Glob(Vec<char>);

impl Glob {
    pub fn new(pattern: &str) -> Glob {
        Glob(pattern.chars().collect())
    }

    /// Whether the whole of `text` matches. Greedy with one back-track point, the last
    /// `*` seen: a later `*` makes every earlier choice final, so one point is enough.
    pub fn matches(&self, text: &str) -> bool {
        let p = &self.0;
        let (mut pi, mut ti) = (0, 0);
        // After the last `*`: the pattern index past it, and the text index it was tried at.
        let mut star: Option<(usize, usize)> = None;
        while let Some(c) = text[ti..].chars().next() {
            match p.get(pi) {
                Some('*') => {
                    pi += 1;
                    star = Some((pi, ti));
                }
                Some(&q) if q == '?' || q == c => {
                    pi += 1;
                    ti += c.len_utf8();
                }
                _ => match star {
                    // The `*` takes one more character, the rest is tried again after it.
                    Some((after, at)) => {
                        let skipped = text[at..].chars().next().map_or(1, char::len_utf8);
                        pi = after;
                        ti = at + skipped;
                        star = Some((after, ti));
                    }
                    None => return false,
                },
            }
        }
        p[pi..].iter().all(|&c| c == '*')
    }
}

#[cfg(test)]
mod tests {
    use super::Glob;

    /// The definition, by recursion (exponential; for short strings).
    fn reference(p: &[char], t: &[char]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some(('*', rest)) => (0..=t.len()).any(|i| reference(rest, &t[i..])),
            Some((&c, rest)) => {
                t.first().is_some_and(|&x| c == '?' || c == x) && reference(rest, &t[1..])
            }
        }
    }

    /// Every string of `alphabet` up to `max` characters.
    fn all(alphabet: &[char], max: usize) -> Vec<String> {
        let mut out = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            out.extend(last.iter().cloned());
        }
        out
    }

    #[test]
    fn agrees_with_the_definition_on_every_short_pattern_and_text() {
        let patterns = all(&['a', 'b', '*', '?'], 5);
        let texts = all(&['a', 'b', 'é'], 5);
        for p in &patterns {
            let g = Glob::new(p);
            let pc: Vec<char> = p.chars().collect();
            for t in &texts {
                let tc: Vec<char> = t.chars().collect();
                assert_eq!(g.matches(t), reference(&pc, &tc), "{p:?} on {t:?}");
            }
        }
    }

    #[test]
    fn a_question_mark_is_one_character_not_one_byte_and_case_counts() {
        assert!(Glob::new("order-?-*").matches("order-1-paid"));
        assert!(Glob::new("order-?-*").matches("order-é-"));
        assert!(!Glob::new("order-?-*").matches("order-12-paid"));
        assert!(!Glob::new("order-*").matches("Order-1"));
        assert!(Glob::new("").matches(""));
        assert!(!Glob::new("").matches("a"));
    }
}
