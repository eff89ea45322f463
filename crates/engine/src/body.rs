//! A message body, kept inside the message when it is short.
//!
//! A million waiting messages each have a body, most a few bytes ("order-123456"). In a
//! `Box<str>` of its own, each is one allocation more at publish, one more cache miss
//! when the message is released in due order (not the order it was allocated in) and
//! one more free. Up to `INLINE_MAX` bytes live in the message itself: `Body` is 24
//! bytes against the box's 16, which leaves `Rc<Message>` in the same 128-byte size
//! class, so a short body costs no memory at all.
//!
//! ```text
//! "order-123456"   Inline { len: 12, bytes: "order-123456\0\0..." }   no allocation
//! 40 bytes of JSON Heap(Box<str>)                                     as before
//! ```

use std::fmt;
use std::ops::Deref;

/// The longest body kept inline (24 bytes less the variant's tag and the length).
pub const INLINE_MAX: usize = 22;

#[derive(Clone, PartialEq, Eq)]
pub struct Body(Repr);

#[derive(Clone, PartialEq, Eq)]
enum Repr {
    /// `bytes[..len]` is the body, valid UTF-8 (copied from a `str`); the rest is zero.
    Inline {
        len: u8,
        bytes: [u8; INLINE_MAX],
    },
    Heap(Box<str>),
}

impl Body {
    pub fn new(text: &str) -> Body {
        if text.len() > INLINE_MAX {
            return Body(Repr::Heap(text.into()));
        }
        let mut bytes = [0; INLINE_MAX];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Body(Repr::Inline {
            len: text.len() as u8,
            bytes,
        })
    }

    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                let text = &bytes[..usize::from(*len)];
                debug_assert!(std::str::from_utf8(text).is_ok());
                // SAFETY: `Body::new` copied these bytes whole from a `str` and nothing
                // changes them after. Checked again on every read, this was 660
                // instructions a message in `delaylab bench` (queues read `len` often).
                unsafe { std::str::from_utf8_unchecked(text) }
            }
            Repr::Heap(text) => text,
        }
    }

    /// The length in bytes (what `x-max-length-bytes` counts), without making a `str`.
    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Inline { len, .. } => usize::from(*len),
            Repr::Heap(text) => text.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the body lives in a separate allocation (for the memory figures).
    pub fn on_heap(&self) -> bool {
        matches!(self.0, Repr::Heap(_))
    }
}

impl Default for Body {
    fn default() -> Body {
        Body::new("")
    }
}

impl From<String> for Body {
    /// A long `String` keeps its buffer (shrunk to fit), as `into_boxed_str` did.
    fn from(text: String) -> Body {
        if text.len() > INLINE_MAX {
            return Body(Repr::Heap(text.into_boxed_str()));
        }
        Body::new(&text)
    }
}

impl From<&str> for Body {
    fn from(text: &str) -> Body {
        Body::new(text)
    }
}

impl Deref for Body {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Body {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_bodies_are_inline_and_read_back_the_same() {
        for text in ["", "B", "order-123456", "订单-42", &"x".repeat(INLINE_MAX)] {
            let b = Body::from(text.to_string());
            assert!(!b.on_heap(), "{text}");
            assert_eq!(&*b, text);
            assert_eq!(b.len(), text.len());
            assert_eq!(format!("{b:?}"), format!("{text:?}"));
        }
        let long = "y".repeat(INLINE_MAX + 1);
        let b = Body::from(long.as_str());
        assert!(b.on_heap());
        assert_eq!(&*b, long);
        assert_eq!(Body::from("a"), Body::new("a"));
        assert_ne!(Body::from("a"), Body::new("ab"));
    }

    #[test]
    fn a_body_is_24_bytes() {
        assert_eq!(std::mem::size_of::<Body>(), 24);
    }
}
