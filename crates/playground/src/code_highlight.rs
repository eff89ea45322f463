//! Syntax highlighting of an exported program: the text cut into spans of comments,
//! strings, keywords, numbers and the rest, for the export menu's code view.
//!
//! A lexer of the few token kinds a reader's eye needs, per language of the export
//! (`delaylab_export` writes quotes and comments through `syntax::quote`/`comment`, but
//! offers no tokenizer; this is the only one). It never fails: an unclosed string or
//! comment runs to the end of the text. The spans cover the text exactly, in order.

use std::ops::Range;

/// The lexical rules of one kind of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Python,
    Java,
    JavaScript,
    Go,
    Rust,
    Shell,
    /// TOML, YAML and properties files: `#` comments, strings, numbers.
    Toml,
    /// Maven's pom.xml: `<!-- -->` comments and attribute strings.
    Xml,
    /// Anything else (README.md): numbers only; a stray quote in prose colours nothing.
    Plain,
}

impl Syntax {
    /// The syntax of a generated file, by its name.
    pub fn of_path(path: &str) -> Syntax {
        let name = path.rsplit('/').next().unwrap_or(path);
        match name.rsplit_once('.').map(|(_, e)| e) {
            Some("py") => Syntax::Python,
            Some("java") | Some("kt") | Some("gradle") => Syntax::Java,
            Some("js") | Some("mjs") | Some("cjs") => Syntax::JavaScript,
            Some("go") => Syntax::Go,
            Some("rs") => Syntax::Rust,
            Some("sh") => Syntax::Shell,
            Some("toml") | Some("properties") | Some("yml") | Some("yaml") => Syntax::Toml,
            Some("xml") => Syntax::Xml,
            _ => Syntax::Plain,
        }
    }

    fn line_comment(self) -> Option<&'static str> {
        match self {
            Syntax::Python | Syntax::Shell | Syntax::Toml => Some("#"),
            Syntax::Java | Syntax::JavaScript | Syntax::Go | Syntax::Rust => Some("//"),
            Syntax::Xml | Syntax::Plain => None,
        }
    }

    /// The delimiters of a block comment.
    fn block_comment(self) -> Option<(&'static str, &'static str)> {
        match self {
            Syntax::Java | Syntax::JavaScript | Syntax::Go | Syntax::Rust => Some(("/*", "*/")),
            Syntax::Xml => Some(("<!--", "-->")),
            Syntax::Python | Syntax::Shell | Syntax::Toml | Syntax::Plain => None,
        }
    }

    fn keywords(self) -> &'static [&'static str] {
        match self {
            Syntax::Python => &[
                "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
                "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
                "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
                "raise", "return", "try", "while", "with", "yield",
            ],
            Syntax::Java => &[
                "abstract",
                "boolean",
                "break",
                "byte",
                "case",
                "catch",
                "char",
                "class",
                "continue",
                "default",
                "do",
                "double",
                "else",
                "enum",
                "extends",
                "false",
                "final",
                "finally",
                "float",
                "for",
                "if",
                "implements",
                "import",
                "instanceof",
                "int",
                "interface",
                "long",
                "new",
                "null",
                "package",
                "private",
                "protected",
                "public",
                "record",
                "return",
                "short",
                "static",
                "super",
                "switch",
                "synchronized",
                "this",
                "throw",
                "throws",
                "true",
                "try",
                "var",
                "void",
                "volatile",
                "while",
            ],
            Syntax::JavaScript => &[
                "async",
                "await",
                "break",
                "case",
                "catch",
                "class",
                "const",
                "continue",
                "default",
                "delete",
                "do",
                "else",
                "export",
                "extends",
                "false",
                "finally",
                "for",
                "function",
                "if",
                "import",
                "in",
                "instanceof",
                "let",
                "new",
                "null",
                "of",
                "return",
                "static",
                "super",
                "switch",
                "this",
                "throw",
                "true",
                "try",
                "typeof",
                "undefined",
                "var",
                "void",
                "while",
                "yield",
            ],
            Syntax::Go => &[
                "break",
                "case",
                "chan",
                "const",
                "continue",
                "default",
                "defer",
                "else",
                "fallthrough",
                "false",
                "for",
                "func",
                "go",
                "goto",
                "if",
                "import",
                "interface",
                "map",
                "nil",
                "package",
                "range",
                "return",
                "select",
                "struct",
                "switch",
                "true",
                "type",
                "var",
            ],
            Syntax::Rust => &[
                "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else",
                "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let", "loop", "match",
                "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct",
                "super", "trait", "true", "type", "unsafe", "use", "where", "while",
            ],
            Syntax::Shell => &[
                "case", "cd", "do", "done", "elif", "else", "esac", "exec", "exit", "export", "fi",
                "for", "function", "if", "in", "local", "return", "set", "then", "trap", "until",
                "while",
            ],
            Syntax::Toml => &["false", "true"],
            Syntax::Xml | Syntax::Plain => &[],
        }
    }

    /// The quotes that open a string: (quote, may span lines, backslash escapes).
    fn quotes(self) -> &'static [(char, bool, bool)] {
        match self {
            Syntax::Python | Syntax::Toml => &[('"', false, true), ('\'', false, true)],
            Syntax::JavaScript => &[('"', false, true), ('\'', false, true), ('`', true, true)],
            Syntax::Go => &[('"', false, true), ('`', true, false)],
            Syntax::Shell => &[('"', true, true), ('\'', true, false)],
            Syntax::Java | Syntax::Rust => &[('"', true, true)],
            Syntax::Xml => &[('"', false, false)],
            Syntax::Plain => &[],
        }
    }

    /// Languages where `'` is a character literal (`'x'`, `'\n'`), not a string.
    fn char_literals(self) -> bool {
        matches!(self, Syntax::Java | Syntax::Go | Syntax::Rust)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Plain,
    Comment,
    Str,
    Keyword,
    Number,
}

impl Tok {
    /// The CSS class of the span (style.css `.code .tk-*`); None for plain text.
    pub fn class(self) -> Option<&'static str> {
        match self {
            Tok::Plain => None,
            Tok::Comment => Some("tk-com"),
            Tok::Str => Some("tk-str"),
            Tok::Keyword => Some("tk-kw"),
            Tok::Number => Some("tk-num"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub tok: Tok,
    /// Byte range in the text (on char boundaries).
    pub range: Range<usize>,
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The end of a string opened at `start` by `quote` (the index after its closing quote,
/// or where the line or the text ends when it is not closed).
fn string_end(src: &str, start: usize, quote: char, multiline: bool, escapes: bool) -> usize {
    let mut it = src[start + quote.len_utf8()..].char_indices();
    while let Some((i, c)) = it.next() {
        let at = start + quote.len_utf8() + i;
        if escapes && c == '\\' {
            it.next();
        } else if c == quote {
            return at + c.len_utf8();
        } else if c == '\n' && !multiline {
            return at;
        }
    }
    src.len()
}

/// The end of a character literal at `start` (`'x'` or `'\..'` closed on the line within
/// a few characters), or None when the quote is a Rust lifetime or a stray one.
fn char_end(src: &str, start: usize) -> Option<usize> {
    const LONGEST_ESCAPE: usize = 12; // '\u{10FFFF}'
    let rest = &src[start + 1..];
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    if first == '\\' {
        let close = rest
            .char_indices()
            .skip(2)
            .take(LONGEST_ESCAPE)
            .find(|(_, c)| *c == '\'' || *c == '\n')?;
        return (close.1 == '\'').then_some(start + 1 + close.0 + 1);
    }
    let (i, second) = chars.next()?;
    (second == '\'' && first != '\n').then_some(start + 1 + i + 1)
}

/// `src` cut into spans; adjacent plain text is one span.
pub fn spans(src: &str, syntax: Syntax) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut push = |tok: Tok, range: Range<usize>| {
        if range.is_empty() {
            return;
        }
        match out.last_mut() {
            Some(last) if last.tok == tok && tok == Tok::Plain && last.range.end == range.start => {
                last.range.end = range.end;
            }
            _ => out.push(Span { tok, range }),
        }
    };
    let line_comment = syntax.line_comment();
    let keywords = syntax.keywords();
    let mut i = 0;
    while i < src.len() {
        let rest = &src[i..];
        let c = rest.chars().next().unwrap_or('\0');
        let prev = src[..i].chars().next_back();
        // A shell `#` starts a comment only at the start of a word (`$#` is a variable).
        let comment_here = line_comment.is_some_and(|m| rest.starts_with(m))
            && (syntax != Syntax::Shell || prev.is_none_or(char::is_whitespace));
        let end = if comment_here {
            push(Tok::Comment, i..i + rest.find('\n').unwrap_or(rest.len()));
            i + rest.find('\n').unwrap_or(rest.len())
        } else if let Some((open, close)) =
            syntax.block_comment().filter(|(o, _)| rest.starts_with(o))
        {
            let e = rest[open.len()..]
                .find(close)
                .map_or(src.len(), |e| i + open.len() + e + close.len());
            push(Tok::Comment, i..e);
            e
        } else if syntax == Syntax::Python
            && (rest.starts_with("\"\"\"") || rest.starts_with("'''"))
        {
            let e = rest[3..]
                .find(&rest[..3])
                .map_or(src.len(), |e| i + 3 + e + 3);
            push(Tok::Str, i..e);
            e
        } else if c == '\'' && syntax.char_literals() {
            match char_end(src, i) {
                Some(e) => {
                    push(Tok::Str, i..e);
                    e
                }
                None => {
                    push(Tok::Plain, i..i + 1);
                    i + 1
                }
            }
        } else if let Some(&(q, multi, esc)) = syntax.quotes().iter().find(|(q, ..)| *q == c) {
            let e = string_end(src, i, q, multi, esc);
            push(Tok::Str, i..e);
            e
        } else if c.is_ascii_digit() && !prev.is_some_and(is_ident) {
            let e = rest
                .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_' || ch == '.'))
                .map_or(src.len(), |e| i + e);
            push(Tok::Number, i..e);
            e
        } else if is_ident(c) {
            let e = rest
                .find(|ch: char| !is_ident(ch))
                .map_or(src.len(), |e| i + e);
            let word = &src[i..e];
            let kw = keywords.contains(&word) && prev != Some('.');
            push(if kw { Tok::Keyword } else { Tok::Plain }, i..e);
            e
        } else {
            push(Tok::Plain, i..i + c.len_utf8());
            i + c.len_utf8()
        };
        debug_assert!(end > i, "the lexer moves forward");
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str, s: Syntax) -> Vec<(Tok, &str)> {
        let sp = spans(src, s);
        // Invariant: the spans tile the text.
        let mut at = 0;
        for x in &sp {
            assert_eq!(x.range.start, at, "{sp:?}");
            at = x.range.end;
        }
        assert_eq!(at, src.len());
        sp.iter().map(|x| (x.tok, &src[x.range.clone()])).collect()
    }

    fn of(src: &str, s: Syntax, tok: Tok) -> Vec<&str> {
        toks(src, s)
            .into_iter()
            .filter(|(t, _)| *t == tok)
            .map(|(_, x)| x)
            .collect()
    }

    #[test]
    fn python_comments_strings_keywords_numbers() {
        let src = "# 等待队列没有消费者\ndef f(x):\n    return {\"x-message-ttl\": 5000, 'a\\'b': None}  # why\n";
        assert_eq!(
            of(src, Syntax::Python, Tok::Comment),
            ["# 等待队列没有消费者", "# why"]
        );
        assert_eq!(
            of(src, Syntax::Python, Tok::Str),
            ["\"x-message-ttl\"", "'a\\'b'"]
        );
        assert_eq!(
            of(src, Syntax::Python, Tok::Keyword),
            ["def", "return", "None"]
        );
        assert_eq!(of(src, Syntax::Python, Tok::Number), ["5000"]);
        let doc = "\"\"\"a \"quoted\"\nline\"\"\" x";
        assert_eq!(
            of(doc, Syntax::Python, Tok::Str),
            ["\"\"\"a \"quoted\"\nline\"\"\""]
        );
    }

    #[test]
    fn java_block_comments_chars_and_members() {
        let src = "/* a\n * b */ final char c = '\\n'; args.put(\"x-delay\", 5000L); x.new_y(); int v2 = 3;";
        assert_eq!(of(src, Syntax::Java, Tok::Comment), ["/* a\n * b */"]);
        assert_eq!(of(src, Syntax::Java, Tok::Str), ["'\\n'", "\"x-delay\""]);
        assert_eq!(
            of(src, Syntax::Java, Tok::Keyword),
            ["final", "char", "int"]
        );
        assert_eq!(of(src, Syntax::Java, Tok::Number), ["5000L", "3"]);
    }

    #[test]
    fn rust_lifetimes_are_not_strings_and_go_raw_strings_span_lines() {
        let src = "fn f<'a>(x: &'a str) -> char { 'x' }";
        assert_eq!(of(src, Syntax::Rust, Tok::Str), ["'x'"]);
        let go = "s := `a\n\"b` // c";
        assert_eq!(of(go, Syntax::Go, Tok::Str), ["`a\n\"b`"]);
        assert_eq!(of(go, Syntax::Go, Tok::Comment), ["// c"]);
    }

    #[test]
    fn xml_comments_and_attributes_and_prose_without_strings() {
        let src = "<?xml version=\"1.0\"?>\n<!-- Spring's\n jars -->\n<a x=\"y\">it's</a>";
        assert_eq!(
            of(src, Syntax::Xml, Tok::Comment),
            ["<!-- Spring's\n jars -->"]
        );
        assert_eq!(of(src, Syntax::Xml, Tok::Str), ["\"1.0\"", "\"y\""]);
        assert!(of("Say \"hi\" to Spring's run.sh", Syntax::Plain, Tok::Str).is_empty());
    }

    #[test]
    fn shell_hash_starts_a_comment_only_at_a_word() {
        let src = "#!/bin/sh\nset -eu\necho \"$#\" ${x#y} # done\n";
        assert_eq!(
            of(src, Syntax::Shell, Tok::Comment),
            ["#!/bin/sh", "# done"]
        );
        assert_eq!(of(src, Syntax::Shell, Tok::Keyword), ["set"]);
    }

    #[test]
    fn unclosed_things_run_to_the_end_and_never_panic() {
        for s in [
            Syntax::Python,
            Syntax::Java,
            Syntax::JavaScript,
            Syntax::Go,
            Syntax::Rust,
            Syntax::Shell,
            Syntax::Toml,
            Syntax::Xml,
            Syntax::Plain,
        ] {
            for src in [
                "\"abc",
                "/* x",
                "'",
                "'\\",
                "`x",
                "\"\"\"x",
                "é'",
                "x = 1.5e3 # é\n",
            ] {
                toks(src, s);
            }
        }
        assert_eq!(of("/* x", Syntax::Java, Tok::Comment), ["/* x"]);
        assert_eq!(of("x = \"ab\ny", Syntax::Python, Tok::Str), ["\"ab"]);
    }

    #[test]
    fn files_are_lexed_by_their_name() {
        assert_eq!(Syntax::of_path("Scenario.java"), Syntax::Java);
        assert_eq!(Syntax::of_path("p/scenario.py"), Syntax::Python);
        assert_eq!(Syntax::of_path("run.sh"), Syntax::Shell);
        assert_eq!(Syntax::of_path("main.go"), Syntax::Go);
        assert_eq!(Syntax::of_path("src/main.rs"), Syntax::Rust);
        assert_eq!(Syntax::of_path("Cargo.toml"), Syntax::Toml);
        assert_eq!(Syntax::of_path("pom.xml"), Syntax::Xml);
        assert_eq!(Syntax::of_path("README.md"), Syntax::Plain);
        assert_eq!(Syntax::of_path("scenario.mjs"), Syntax::JavaScript);
    }
}
