//! One calendar bucket: the items due within the same 2^`BUCKET_SHIFT` ms, unsorted, in
//! chunks that are never moved once allocated.
//!
//! A bucket fills over the whole publish window (a million random delays put ~140 items
//! in each of ~7,000 buckets, all filling at once). As one `Vec`, growing by half again,
//! each item was copied about three times before its bucket fell due (9 reallocations a
//! bucket: `delaylab bench --topology qq-delivery-time` copied 93 MB, a quarter of its
//! cache misses, in `memcpy`). In chunks, an item is moved once more, when its bucket is
//! gathered for sorting. Chunks grow 4, 8, 16, then `CHUNK_MAX` items: a page's small
//! buckets stay small, and a large one leaves less than one chunk unused.
//!
//! ```text
//! push x5            full [a b c d]  tail [e . . . . . . .]  (the tail is in the ring slot)
//! take(a)            full [e b c d]  tail [] -> the last full chunk becomes the tail
//! take_vec           [a b c d] [e] -> [a b c d e] (the tail alone: its Vec, no copy)
//! ```

use super::Timed;

/// The most items a chunk holds.
const CHUNK_MAX: usize = 32;
/// The first chunk's size.
const CHUNK_FIRST: usize = 4;

#[derive(Debug)]
pub(super) struct Bucket<T> {
    /// The earliest due time held (meaningless while empty).
    pub(super) earliest_ms: u64,
    len: usize,
    /// The chunk being filled, in the bucket itself, so that where the next push writes
    /// is read from the ring's slot alone (`next_slot`). Empty only when the bucket is.
    tail: Vec<T>,
    /// The chunks filled before it, in push order: each full.
    full: Vec<Vec<T>>,
}

impl<T> Default for Bucket<T> {
    fn default() -> Self {
        Bucket {
            earliest_ms: 0,
            len: 0,
            tail: Vec::new(),
            full: Vec::new(),
        }
    }
}

impl<T: Timed> Bucket<T> {
    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(super) fn push(&mut self, item: T) {
        let due_ms = item.due_ms();
        if self.len == 0 || due_ms < self.earliest_ms {
            self.earliest_ms = due_ms;
        }
        if self.tail.len() == self.tail.capacity() {
            let size = match self.tail.capacity() {
                0 => CHUNK_FIRST,
                c => (c * 2).min(CHUNK_MAX),
            };
            let filled = std::mem::replace(&mut self.tail, Vec::with_capacity(size));
            if !filled.is_empty() {
                self.full.push(filled);
            }
        }
        self.tail.push(item);
        self.len += 1;
    }

    /// Where the next push writes, when the chunk being filled has room (to prefetch).
    pub(super) fn next_slot(&self) -> Option<*const T> {
        (self.tail.len() < self.tail.capacity())
            .then(|| self.tail.as_ptr().wrapping_add(self.tail.len()))
    }

    /// Takes out the first item `is` picks (swap-remove: the bucket is unsorted).
    pub(super) fn take(&mut self, mut is: impl FnMut(&T) -> bool) -> Option<T> {
        let in_full = self
            .full
            .iter()
            .enumerate()
            .find_map(|(c, chunk)| chunk.iter().position(&mut is).map(|i| (c, i)));
        let last = self.tail.len().checked_sub(1)?;
        match in_full {
            Some((c, i)) => std::mem::swap(&mut self.full[c][i], &mut self.tail[last]),
            None => {
                let i = self.tail.iter().position(is)?;
                self.tail.swap(i, last);
            }
        }
        let item = self.tail.pop().expect("the tail holds the last item");
        if self.tail.is_empty() {
            self.tail = self.full.pop().unwrap_or_default();
        }
        self.len -= 1;
        self.earliest_ms = self.iter().map(T::due_ms).min().unwrap_or(0);
        Some(item)
    }

    /// Every item, in push order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &T> {
        self.full.iter().flatten().chain(&self.tail)
    }

    /// Empties the bucket into one `Vec`, in push order.
    pub(super) fn take_vec(&mut self) -> Vec<T> {
        let tail = std::mem::take(&mut self.tail);
        let full = std::mem::take(&mut self.full);
        self.len = 0;
        if full.is_empty() {
            return tail;
        }
        let mut all = Vec::with_capacity(full.iter().map(Vec::len).sum::<usize>() + tail.len());
        for mut chunk in full.into_iter().chain([tail]) {
            all.append(&mut chunk);
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    struct Item(u64);

    impl Timed for Item {
        fn due_ms(&self) -> u64 {
            self.0
        }
        fn release_order(a: &Self, b: &Self) -> Ordering {
            a.0.cmp(&b.0)
        }
    }

    #[test]
    fn chunks_grow_then_stay_at_their_most() {
        let mut b = Bucket::default();
        for i in 0..200 {
            b.push(Item(1000 - i));
        }
        let sizes: Vec<usize> = b.full.iter().map(Vec::capacity).collect();
        assert_eq!(sizes[..4], [4, 8, 16, 32]);
        assert!(sizes[3..].iter().all(|s| *s == CHUNK_MAX));
        assert!(b.full.iter().all(|c| c.len() == c.capacity()));
        // 188 in the full chunks, 12 in the one being filled; the next goes after them.
        assert_eq!((b.tail.len(), b.tail.capacity()), (12, CHUNK_MAX));
        assert_eq!(b.next_slot(), Some(b.tail.as_ptr().wrapping_add(12)));
        assert_eq!((b.len(), b.earliest_ms), (200, 801));
        let all = b.take_vec();
        assert_eq!(all, (0..200).map(|i| Item(1000 - i)).collect::<Vec<_>>());
        assert!(b.is_empty() && b.full.is_empty() && b.tail.is_empty());
    }

    #[test]
    fn take_fills_the_hole_with_the_last_item() {
        let mut b = Bucket::default();
        for i in 0..6 {
            b.push(Item(10 + i)); // full [10 11 12 13], tail [14 15]
        }
        assert_eq!(b.take(|x| x.0 == 10), Some(Item(10)));
        assert_eq!(b.earliest_ms, 11);
        assert_eq!(
            b.iter().copied().collect::<Vec<_>>(),
            [15, 11, 12, 13, 14].map(Item)
        );
        assert_eq!(
            b.take(|x| x.0 == 14),
            Some(Item(14)),
            "the last item itself"
        );
        assert_eq!(b.take(|x| x.0 == 99), None);
        for x in [15, 11, 12, 13] {
            assert_eq!(b.take(|i| i.0 == x), Some(Item(x)));
        }
        assert!(b.is_empty() && b.full.is_empty() && b.tail.is_empty());
        assert_eq!(b.take_vec(), vec![]);
    }
}
