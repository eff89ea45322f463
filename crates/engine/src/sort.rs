//! One compiled sort for the sorts off the simulation's hot paths (issue 29 item 10:
//! the playground's start-up wasm).
//!
//! The standard library's sorts are generic: each `sort_by` call site with its own
//! element type or comparator compiles its own copy of driftsort or ipnsort, some 3.5 KB
//! of wasm apiece; the start-up module held 16 of them (58 KB before gzip). Here the
//! comparator is erased behind `dyn` and only indices are sorted, so every caller shares
//! one copy of the standard sort; what stays per element type is the permutation below,
//! a few hundred bytes. The cost is an index vector and an indirect call per comparison,
//! which is why the calendar's and the delayed store's bucket sorts (the engine's hot
//! paths) keep the standard library's.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably (equal elements keep their order), like `slice::sort_by`.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut order: Vec<usize> = (0..v.len()).collect();
    sort_indices(&mut order, &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, &mut order);
}

/// Sorts `v` by the key `f` gives, stably, like `slice::sort_by_key`.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut f: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| f(a).cmp(&f(b)));
}

/// Sorts `v` in its natural order, stably, like `slice::sort`.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// The one monomorphic sort: `order` (indices) by `cmp` (comparing the elements at two
/// indices).
#[inline(never)]
fn sort_indices(order: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| cmp(a, b));
}

/// Rearranges `v` so that `v[i]` becomes the old `v[order[i]]`, one cycle at a time by
/// swaps; `order` is spent (each visited index is marked as its own).
fn permute<T>(v: &mut [T], order: &mut [usize]) {
    for start in 0..order.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn sorts_as_the_standard_stable_sort_does() {
        let mut rng = Rng::new(11);
        for len in [0, 1, 2, 3, 7, 20, 64, 500] {
            // Keys with many ties, tagged with their first position: stability shows.
            let v: Vec<(u64, usize)> = (0..len).map(|i| (rng.range_u64(0, 8), i)).collect();
            let mut want = v.clone();
            want.sort_by_key(|x| x.0);
            let mut got = v.clone();
            sort_by_key(&mut got, |x| x.0);
            assert_eq!(got, want, "len {len}");
            let mut got = v.clone();
            sort_by(&mut got, |a, b| b.0.cmp(&a.0));
            let mut want = v.clone();
            want.sort_by_key(|x| std::cmp::Reverse(x.0));
            assert_eq!(got, want, "len {len}, reversed");
            let mut got = v.clone();
            sort(&mut got);
            let mut want = v;
            want.sort();
            assert_eq!(got, want, "len {len}, natural");
        }
    }
}
