//! Topic exchange matching (`rabbit_exchange_type_topic`, RabbitMQ 3.10).
//!
//! A key is split into words on `.`, except that the empty key `""` has **zero** words;
//! so `"a..b"` is `["a", "", "b"]`, `"."` is `["", ""]` and `"a."` is `["a", ""]`. Empty
//! words are ordinary words. In a binding key the word `#` matches zero or more words and
//! the word `*` exactly one word (which may be empty); `*` or `#` inside a longer word
//! (`a*`, `#b`) is a literal. Every other word must equal the routing-key word byte for
//! byte. RabbitMQ 3.10 puts no limit on the number of `#` words (4.3.5 caps it at two).
//!
//! The matcher is the classic greedy wildcard algorithm, applied to words instead of
//! characters: `#` plays the role of a glob `*`, `*` the role of `?`. Only the most
//! recent `#` needs to be remembered for backtracking, which bounds the work by
//! O(binding words × routing words) word comparisons, with no recursion and no
//! allocation: positions are byte offsets into the two keys.

/// A position in the word sequence of a key: the byte offset where the next word
/// starts, or `None` once every word has been read.
type Cursor = Option<usize>;

/// The cursor of the first word of `key` (`""` has no words).
fn first(key: &str) -> Cursor {
    if key.is_empty() {
        None
    } else {
        Some(0)
    }
}

/// The word at `at` and the cursor after it.
fn word_at(key: &str, at: usize) -> (&str, Cursor) {
    let rest = &key[at..];
    match rest.find('.') {
        Some(dot) => (&rest[..dot], Some(at + dot + 1)),
        None => (rest, None),
    }
}

/// Whether the topic binding key `binding_key` matches the routing key `routing_key`,
/// exactly as RabbitMQ 3.10's topic exchange decides it (see the module docs).
pub fn topic_matches(binding_key: &str, routing_key: &str) -> bool {
    let mut p = first(binding_key);
    let mut r = first(routing_key);
    // After the most recent `#`: the binding cursor just past it, and the routing
    // cursor where the words it has not swallowed begin.
    let mut hash: Option<(Cursor, usize)> = None;

    while let Some(r_at) = r {
        if let Some(p_at) = p {
            let (pw, p_next) = word_at(binding_key, p_at);
            if pw == "#" {
                // Try `#` as zero words first; widen it on a later mismatch.
                hash = Some((p_next, r_at));
                p = p_next;
                continue;
            }
            let (rw, r_next) = word_at(routing_key, r_at);
            if pw == "*" || pw == rw {
                p = p_next;
                r = r_next;
                continue;
            }
        }
        // Mismatch, or binding words exhausted with routing words left: let the last
        // `#` swallow one more routing word and retry from just after it.
        match hash {
            Some((p_after, r_from)) => {
                let (_, r_next) = word_at(routing_key, r_from);
                p = p_after;
                r = r_next;
                match r_next {
                    Some(next) => hash = Some((p_after, next)),
                    // `#` swallowed everything: only `#` words may remain.
                    None => break,
                }
            }
            None => return false,
        }
    }

    // Routing words exhausted: what is left of the binding key must be all `#`.
    while let Some(p_at) = p {
        let (pw, p_next) = word_at(binding_key, p_at);
        if pw != "#" {
            return false;
        }
        p = p_next;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The matcher of section 7.5, written as the recursive definition.
    fn reference(binding_key: &str, routing_key: &str) -> bool {
        fn words(key: &str) -> Vec<&str> {
            if key.is_empty() {
                Vec::new()
            } else {
                key.split('.').collect()
            }
        }
        fn m(p: &[&str], r: &[&str]) -> bool {
            match p.split_first() {
                None => r.is_empty(),
                Some((&"#", rest)) => m(rest, r) || (!r.is_empty() && m(p, &r[1..])),
                Some((&"*", rest)) => !r.is_empty() && m(rest, &r[1..]),
                Some((w, rest)) => r.first() == Some(w) && m(rest, &r[1..]),
            }
        }
        m(&words(binding_key), &words(routing_key))
    }

    fn check(binding_key: &str, routing_key: &str, expected: bool) {
        assert_eq!(
            topic_matches(binding_key, routing_key),
            expected,
            "binding {binding_key:?} vs routing {routing_key:?}"
        );
        assert_eq!(
            reference(binding_key, routing_key),
            expected,
            "reference: binding {binding_key:?} vs routing {routing_key:?}"
        );
    }

    // The consequences listed in section 7.5, one test each.

    #[test]
    fn hash_matches_empty_key() {
        check("#", "", true);
    }

    #[test]
    fn trailing_hash_matches_zero_words() {
        check("a.#", "a", true);
    }

    #[test]
    fn leading_hash_matches_zero_words() {
        check("#.a", "a", true);
    }

    #[test]
    fn star_does_not_match_empty_key() {
        check("*", "", false);
    }

    #[test]
    fn star_matches_one_word() {
        check("*", "x", true);
    }

    #[test]
    fn star_star_matches_a_lone_dot() {
        check("*.*", ".", true);
    }

    #[test]
    fn empty_binding_key_matches_only_empty_routing_key() {
        check("", "", true);
        check("", ".", false);
        check("", "a", false);
        check("", "#", false);
        check("", "*", false);
    }

    #[test]
    fn wildcards_inside_a_word_are_literals() {
        check("a*", "a*", true);
        check("a*", "ab", false);
        check("a#", "a", false);
        check("a#", "a#", true);
        check("#a", "xa", false);
        check("*a.b", "xa.b", false);
    }

    #[test]
    fn empty_words_are_ordinary_words() {
        check("a..b", "a..b", true);
        check("a.*.b", "a..b", true);
        check("a.b", "a..b", false);
        check("a.", "a.", true);
        check("a.", "a", false);
        check(".", ".", true);
    }

    #[test]
    fn table() {
        #[rustfmt::skip]
        let cases: &[(&str, &str, bool)] = &[
            // Literals.
            ("a", "a", true),
            ("a", "b", false),
            ("a.b", "a.b", true),
            ("a.b", "a.b.c", false),
            ("a.b.c", "a.b", false),
            ("A", "a", false),
            ("a", "a.", false),
            ("a", ".a", false),
            // `*`: exactly one word, possibly empty.
            ("*", "a", true),
            ("*", "a.b", false),
            ("*", ".", false),
            ("*.a", ".a", true),
            ("a.*", "a.", true),
            ("a.*", "a", false),
            ("*.*", "a", false),
            ("*.*", "a.b", true),
            ("*.*.*", "..", true),
            ("a.*.c", "a.b.c", true),
            ("a.*.c", "a.b.b.c", false),
            // `#`: zero or more words.
            ("#", "a", true),
            ("#", ".", true),
            ("#", "a.b.c", true),
            ("#", "#", true),
            ("a.#", "a.b.c", true),
            ("a.#", "b.a", false),
            ("a.#", "", false),
            ("#.a", "b.c.a", true),
            ("#.a", "a.b", false),
            ("a.#.b", "a.b", true),
            ("a.#.b", "a.x.y.b", true),
            ("a.#.b", "a.x.y.c", false),
            ("#.#", "", true),
            ("#.#", "a.b", true),
            ("#.*", "", false),
            ("#.*", "a", true),
            ("*.#", "a.b.c", true),
            ("#.*.#", ".", true),
            ("a.#.#.b", "a.b", true),
            ("#.b.#.c.#", "x.b.y.b.c", true),
            ("#.b.#.c.#", "x.c.b", false),
            ("#.a.a", "a.a.a.a", true),
            ("#.a.b", "a.a.a.b", true),
            ("#.a.b", "a.b.a", false),
            // Routing-key words that look like wildcards are literals there.
            ("a", "*", false),
            ("*", "*", true),
            ("a.#", "a.#", true),
            ("#", "", true),
        ];
        for &(binding_key, routing_key, expected) in cases {
            check(binding_key, routing_key, expected);
        }
    }

    #[test]
    fn many_hashes_stay_fast() {
        // A pattern that is exponential for naive backtracking.
        let binding_key = ["#"; 100].join(".") + ".b";
        let routing_key = ["a"; 127].join(".");
        assert!(!topic_matches(&binding_key, &routing_key));
        assert!(topic_matches(&binding_key, &(routing_key.clone() + ".b")));
        let alternating = ["#.a"; 60].join(".") + ".c";
        assert!(!topic_matches(&alternating, &routing_key));
    }

    fn word() -> impl Strategy<Value = &'static str> {
        prop_oneof![Just("a"), Just("b"), Just(""), Just("*"), Just("#")]
    }

    fn key() -> impl Strategy<Value = String> {
        prop::collection::vec(word(), 0..7).prop_map(|words| words.join("."))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn agrees_with_reference_on_word_keys(binding_key in key(), routing_key in key()) {
            prop_assert_eq!(
                topic_matches(&binding_key, &routing_key),
                reference(&binding_key, &routing_key)
            );
        }

        #[test]
        fn agrees_with_reference_on_char_keys(
            binding_key in "[ab*#.]{0,10}",
            routing_key in "[ab*#.]{0,10}",
        ) {
            prop_assert_eq!(
                topic_matches(&binding_key, &routing_key),
                reference(&binding_key, &routing_key)
            );
        }
    }
}
