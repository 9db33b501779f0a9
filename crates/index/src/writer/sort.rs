//! Sorting the entries of one key partition by (key, game), stably: a
//! counting sort by the key bits below the partition's, then each of its
//! (small) groups.

use rayon::prelude::*;

use crate::spill::{Entry, PARTITION_BITS};

/// Sorts the entries of one partition (keys with the same top
/// [`PARTITION_BITS`] bits) by (key, game); repeats stay.
///
/// The sort is a counting sort by the key bits below the partition's
/// (stable), then a stable sort by the whole key of each group of the
/// counting sort (about one entry each, see [`sort_groups`]): entries of one key
/// keep the order they arrive in, which is game order (entries come in game
/// order, from the tables or from the spool's spills read in order). A
/// large partition is first spread by the next 8 key bits into
/// `scratch.spread`, and each of those groups sorted so, back into
/// `entries`: the table of the counting sort and the groups being filled
/// stay in the cache at any size. The sorted entries are in `entries` or
/// in `scratch.spread`: the slice returned.
pub(super) fn sort_partition<'s>(
    entries: &'s mut [Entry],
    scratch: &'s mut Sorting,
) -> &'s [Entry] {
    let Sorting { spread, next } = scratch;
    let n = entries.len();
    // Every entry is written over: the memory is only cleared as it grows.
    if spread.len() < n {
        spread.resize(n, Entry::default());
    }
    let spread = &mut spread[..n];
    if n <= SPREAD {
        sort_groups(entries, spread, next, BELOW_PARTITION);
        return spread;
    }
    // Spread, then sorted back into `entries`: two tables, not three.
    let Ok(()) = scatter(&*entries, spread, next, SPREAD_SHIFT, 0xff);
    sort_spread(spread, entries, next);
    entries
}

/// The key bits a large partition is spread by: the 8 below the
/// partition's.
pub(super) const SPREAD_SHIFT: u32 = BELOW_PARTITION - 8;

/// Sorts each group of `spread` (group `g` ending at `ends[g]`) into its
/// place in `sorted` (as long), the groups on any core.
pub(super) fn sort_spread(spread: &[Entry], sorted: &mut [Entry], ends: &[usize]) {
    let mut groups = Vec::with_capacity(ends.len());
    let (mut from, mut to): (&[Entry], &mut [Entry]) = (spread, sorted);
    let mut start = 0;
    for &end in ends {
        let (group_from, rest_from) = from.split_at(end - start);
        let (group_to, rest_to) = to.split_at_mut(end - start);
        groups.push((group_from, group_to));
        (from, to) = (rest_from, rest_to);
        start = end;
    }
    groups
        .into_par_iter()
        .for_each_init(Vec::new, |next, (from, to)| {
            sort_groups(from, to, next, SPREAD_SHIFT);
        });
}

/// The key bits below a partition's.
pub(super) const BELOW_PARTITION: u32 = 64 - PARTITION_BITS;

/// Partitions of more entries than this are spread by 8 more key bits
/// before they are sorted (see [`sort_partition`]).
pub(super) const SPREAD: usize = 32 << 10;

/// Moves `entries` into `out` (of the same length) by their key bits
/// `shift..` under `mask`, stably; `next[g]` is then the end of group `g`.
pub(super) fn scatter<S: EntrySource + ?Sized>(
    entries: &S,
    out: &mut [Entry],
    next: &mut Vec<usize>,
    shift: u32,
    mask: usize,
) -> Result<(), S::Error> {
    let group = |e: &Entry| (e.key() >> shift) as usize & mask;
    next.clear();
    next.resize(mask + 1, 0);
    entries.for_each(|e| next[group(&e)] += 1)?;
    let mut sum = 0;
    for n in next.iter_mut() {
        let c = *n;
        *n = sum;
        sum += c;
    }
    entries.for_each(|e| {
        let at = &mut next[group(&e)];
        if let Some(slot) = out.get_mut(*at) {
            *slot = e;
        }
        *at += 1;
    })
}

/// Entries in one order, handed out as often as asked: a counting sort
/// ([`scatter`]) goes over them twice.
pub(super) trait EntrySource {
    /// Why the entries could not be handed out.
    type Error;

    /// Hands each entry to `each`, in order.
    fn for_each(&self, each: impl FnMut(Entry)) -> Result<(), Self::Error>;
}

impl EntrySource for [Entry] {
    type Error = std::convert::Infallible;

    #[inline]
    fn for_each(&self, mut each: impl FnMut(Entry)) -> Result<(), Self::Error> {
        for e in self {
            each(*e);
        }
        Ok(())
    }
}

/// Sorts `entries`, whose keys agree above their `bits` low bits, into
/// `out` (of the same length), stably: a counting sort by the top bits of
/// those, then each of its groups sorted by the whole key.
///
/// The groups are about one entry each: the few groups of more than
/// [`SMALL_GROUP`] (the games of a common position, keys alike by chance)
/// are sorted on their own, then one pass of insertion over the whole
/// sorts the rest, no entry moving out of its group: about 20% faster
/// than a group at a time (fewer, larger groups, each sorted by
/// insertion), and in linear time whatever the keys.
fn sort_groups(entries: &[Entry], out: &mut [Entry], next: &mut Vec<usize>, bits: u32) {
    // At most 4,096 groups: the table of the counting sort and the groups
    // being filled stay in the cache.
    let group_bits = (usize::BITS - entries.len().leading_zeros()).clamp(1, 12);
    let Ok(()) = scatter(
        entries,
        out,
        next,
        bits - group_bits,
        (1usize << group_bits) - 1,
    );
    let mut start = 0;
    for &end in next.iter() {
        if end - start > SMALL_GROUP {
            out[start..end].sort_by_key(Entry::key);
        }
        start = end;
    }
    insertion_sort(out);
}

/// Groups of at most this many entries are sorted by insertion.
const SMALL_GROUP: usize = 16;

/// Sorts entries by key, stably, by insertion: in linear time when no
/// entry is more than a few places from its own (as in [`sort_groups`]).
fn insertion_sort(entries: &mut [Entry]) {
    for i in 1..entries.len() {
        let e = entries[i];
        let mut j = i;
        while j > 0 && entries[j - 1].key() > e.key() {
            entries[j] = entries[j - 1];
            j -= 1;
        }
        entries[j] = e;
    }
}

/// Memory of [`sort_partition`].
#[derive(Default)]
pub(super) struct Sorting {
    /// The entries sorted (a small partition), or spread by 8 more key
    /// bits (a large one, then sorted back into its own table).
    pub(super) spread: Vec<Entry>,
    /// The counting sort's counts.
    pub(super) next: Vec<usize>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_alike_in_their_top_bits_sort_as_a_stable_sort_by_key() {
        // 50,000 keys that agree in their top 40 bits (positions made to
        // share a bucket), distinct below and in falling order, each in
        // two games: one group of the counting sort holds them all. Sorted
        // by insertion alone that is 10^9 moves; in groups, n log n.
        let mut sorting = Sorting::default();
        for n in [50_000u64, SPREAD as u64 / 2] {
            let entries: Vec<Entry> = (0..2 * n)
                .map(|i| {
                    let key = (0xA5_5A5A_5A5Au64 << 24) | (n - i / 2);
                    Entry::new(key, u32::try_from(i % 2).unwrap())
                })
                .collect();
            let mut expected = entries.clone();
            expected.sort_by_key(Entry::key);
            let mut input = entries;
            assert_eq!(sort_partition(&mut input, &mut sorting), expected);
        }
    }

    #[test]
    fn a_large_partition_sorts_as_a_stable_sort_by_key() {
        // Keys of one partition (top bits equal), many repeated, games in
        // arrival order: spread, counted and sorted as a stable sort would,
        // also in memory left larger by a partition before.
        let mut sorting = Sorting::default();
        for n in [5 * SPREAD, 1, SPREAD + 1, 17, SPREAD, 5 * SPREAD] {
            let mut state = 0x9E37_79B9_7F4A_7C15u64;
            let entries: Vec<Entry> = (0..n)
                .map(|i| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    // One of n/3 keys, spread over the bits below.
                    let pick = state % (n as u64 / 3 + 1);
                    let low =
                        pick.wrapping_mul(0xBF58_476D_1CE4_E5B9).rotate_left(31) >> PARTITION_BITS;
                    let key = (0x5Au64 << BELOW_PARTITION) | low;
                    Entry::new(key, u32::try_from(i).unwrap())
                })
                .collect();
            let mut expected = entries.clone();
            expected.sort_by_key(Entry::key);
            let mut input = entries.clone();
            let sorted = sort_partition(&mut input, &mut sorting);
            assert_eq!(sorted, expected, "{n} entries");
        }
    }
}
