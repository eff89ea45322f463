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
//! push x5            chunks [4/4] [1/8]
//! take (swap-remove) the last item of the last chunk fills the hole; an emptied chunk goes
//! into_vec           [a b c d] [e] -> [a b c d e] (one chunk: its Vec, no copy)
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
    /// In push order; every chunk but the last is full, and none is empty.
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Bucket<T> {
    fn default() -> Self {
        Bucket {
            earliest_ms: 0,
            chunks: Vec::new(),
            len: 0,
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
        let full = self.chunks.last().is_none_or(|c| c.len() == c.capacity());
        if full {
            let size = self
                .chunks
                .last()
                .map_or(CHUNK_FIRST, |c| (c.capacity() * 2).min(CHUNK_MAX));
            self.chunks.push(Vec::with_capacity(size));
        }
        self.chunks
            .last_mut()
            .expect("a chunk with room")
            .push(item);
        self.len += 1;
    }

    /// Takes out the first item `is` picks (swap-remove: the bucket is unsorted).
    pub(super) fn take(&mut self, mut is: impl FnMut(&T) -> bool) -> Option<T> {
        let (c, i) = self
            .chunks
            .iter()
            .enumerate()
            .find_map(|(c, chunk)| chunk.iter().position(&mut is).map(|i| (c, i)))?;
        let last = self.chunks.last_mut().expect("the item's chunk");
        let moved = last.pop().expect("chunks are never empty");
        if last.is_empty() {
            self.chunks.pop();
        }
        let item = match self.chunks.get_mut(c).and_then(|chunk| chunk.get_mut(i)) {
            Some(hole) => std::mem::replace(hole, moved),
            None => moved, // it was the last item
        };
        self.len -= 1;
        self.earliest_ms = self.iter().map(T::due_ms).min().unwrap_or(0);
        Some(item)
    }

    /// Every item, in push order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }

    /// Empties the bucket into one `Vec`, in push order.
    pub(super) fn take_vec(&mut self) -> Vec<T> {
        let mut chunks = std::mem::take(&mut self.chunks);
        self.len = 0;
        if chunks.len() <= 1 {
            return chunks.pop().unwrap_or_default();
        }
        let mut all = Vec::with_capacity(chunks.iter().map(Vec::len).sum());
        for mut chunk in chunks {
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
        let sizes: Vec<usize> = b.chunks.iter().map(Vec::capacity).collect();
        assert_eq!(sizes[..4], [4, 8, 16, 32]);
        assert!(sizes[3..].iter().all(|s| *s == CHUNK_MAX));
        assert!(b.chunks[..b.chunks.len() - 1]
            .iter()
            .all(|c| c.len() == c.capacity()));
        assert_eq!((b.len(), b.earliest_ms), (200, 801));
        let all = b.take_vec();
        assert_eq!(all, (0..200).map(|i| Item(1000 - i)).collect::<Vec<_>>());
        assert!(b.is_empty() && b.chunks.is_empty());
    }

    #[test]
    fn take_fills_the_hole_with_the_last_item() {
        let mut b = Bucket::default();
        for i in 0..6 {
            b.push(Item(10 + i)); // chunks [10 11 12 13] [14 15]
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
        assert!(b.is_empty() && b.chunks.is_empty());
        assert_eq!(b.take_vec(), vec![]);
    }
}
