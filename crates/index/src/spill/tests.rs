//! The spool and the entries' encoding, property-tested.

use std::sync::Arc;

use super::entries::*;
use super::spool::*;
use super::*;

/// The tests' random numbers (xorshift64).
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A table of a few random batches, whose games are numbered from
/// `*first_game` on (raised past them and a random gap), and its
/// entries by partition, with their global game numbers, in order.
fn random_table(next: &mut impl FnMut() -> u64, first_game: &mut u32) -> (Table, Vec<Vec<Entry>>) {
    let mut table = Table::default();
    let mut expected = vec![Vec::new(); PARTITIONS];
    for _ in 0..1 + next() % 6 {
        let (mut keys, mut ends) = (Vec::new(), Vec::new());
        let games = next() as u32 % 300;
        for game in 0..games {
            // Some games without positions; some keys in many games.
            for _ in 0..next() % 90 {
                let key = match next() % 8 {
                    0 => 0x1234,
                    1 => u64::MAX,
                    _ => next(),
                };
                keys.push(key);
                expected[partition(key)].push(Entry::new(key, *first_game + game));
            }
            ends.push(keys.len());
        }
        let mut entries = BatchEntries::default();
        // Memory used before is reused as it is.
        entries.encode(&[next(), next()], &[2]);
        entries.encode(&keys, &ends);
        for (p, part) in expected.iter().enumerate() {
            let pieces: u64 = table.entries(p) + entries.entries(p);
            assert_eq!(pieces, part.len() as u64);
        }
        table.push(&Arc::new(entries), *first_game, 0..PARTITIONS);
        *first_game += games + (next() % 20_000_000) as u32;
    }
    (table, expected)
}

/// Property: the partitions of a table (batches numbered from 0, each
/// with the number of its first game) decode, piece after piece, as
/// the entries pushed with their global numbers.
#[test]
fn a_table_holds_its_batches_entries_renumbered() {
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    for _ in 0..20 {
        let mut first_game = (next() % 100_000) as u32;
        let (table, expected) = random_table(&mut next, &mut first_game);
        for (p, want) in expected.iter().enumerate() {
            let mut got = Vec::new();
            for piece in table.pieces(p) {
                decode_partition(p, piece.bytes, piece.first_game, &mut got).unwrap();
            }
            assert_eq!(&got, want, "partition {p}");
        }
        let mut free = Vec::new();
        let mut drained = table;
        drained.drain_into(&mut free);
        assert_eq!((drained.bytes(), drained.memory()), (0, 0));
        assert!(free.iter().all(|b| b.bytes() == 0));
    }
}

/// Property: tables handed to the spiller (its thread writes each
/// while the next is filled, around the page cache where the system
/// allows it) read back, a partition at a time or a group of
/// partitions at once, as the entries spilled, in the order spilled,
/// renumbered from one batch to the next, also after the partitions
/// before them were released; each table comes back once written; no
/// file is left.
#[test]
fn spilled_partitions_read_back_as_spilled() {
    let dir = tempfile::tempdir().unwrap();
    let mut spiller = Spiller::create(dir.path()).unwrap();
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let mut spilled: Vec<Vec<Vec<Entry>>> = Vec::new();
    let mut first_game = 0;
    let mut back = 0;
    for _ in 0..5 {
        let (table, expected) = random_table(&mut next, &mut first_game);
        let bytes = table.bytes();
        if let Some(written) = spiller.spill(table).unwrap() {
            back += 1;
            assert!(written.bytes() > 0 && written.bytes() != bytes);
        }
        spilled.push(expected);
    }
    assert_eq!(back, 4);
    let spool = spiller.finish().unwrap();
    assert_eq!(spool.spills(), 5);
    let mut bytes = Aligned::default();
    let mut read = Prefetched::default();
    let mut first = 0;
    while first < PARTITIONS {
        let end = (first + 1 + next() as usize % 37).min(PARTITIONS);
        spool.read_group(first..end, &mut read).unwrap();
        for p in first..end {
            let expected: Vec<Entry> = spilled.iter().flat_map(|s| s[p].clone()).collect();
            let mut got = Vec::new();
            spool
                .read_partition(p, &mut bytes, |b| decode_partition(p, b, 0, &mut got))
                .unwrap();
            assert_eq!(got, expected, "partition {p}");
            let mut grouped = Vec::new();
            for piece in spool.pieces(p, &read) {
                decode_partition(p, piece, 0, &mut grouped).unwrap();
            }
            assert_eq!(grouped, expected, "partition {p} of {first}..{end}");
            assert_eq!(spool.entries(p), expected.len() as u64);
        }
        spool.release(first..end);
        first = end;
    }
    drop(spool);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A batch whose partitions are split between two tables (the first
/// was full midway) spills as the whole batch would, a partition in
/// one spill or the other; its memory is free again once both tables
/// are spilled, not before.
#[test]
fn a_batch_split_between_two_tables_spills_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut next = xorshift(0x1234_5678_9ABC_DEF1);
    let keys: Vec<u64> = (0..5_000).map(|_| next()).collect();
    let ends: Vec<usize> = (0..=5_000).step_by(10).skip(1).collect();
    let mut entries = BatchEntries::default();
    entries.encode(&keys, &ends);
    let entries = Arc::new(entries);
    let mut whole = Table::default();
    whole.push(&entries, 7, 0..PARTITIONS);
    let (mut first, mut second) = (Table::default(), Table::default());
    first.push(&entries, 7, 0..100);
    second.push(&entries, 7, 100..PARTITIONS);
    assert_eq!(first.bytes() + second.bytes(), whole.bytes());
    drop(entries);
    let (mut split_spool, mut whole_spool) = (
        Spool::create(dir.path()).unwrap(),
        Spool::create(dir.path()).unwrap(),
    );
    whole_spool.push_all(&whole).unwrap();
    split_spool.push_all(&first).unwrap();
    split_spool.push_all(&second).unwrap();
    whole_spool.finish().unwrap();
    split_spool.finish().unwrap();
    let mut bytes = Aligned::default();
    for p in 0..PARTITIONS {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let read = |spool: &Spool, into: &mut Vec<Entry>, bytes: &mut Aligned| {
            spool
                .read_partition(p, bytes, |piece| decode_partition(p, piece, 0, into))
                .unwrap();
        };
        read(&whole_spool, &mut a, &mut bytes);
        read(&split_spool, &mut b, &mut bytes);
        assert_eq!(a, b, "partition {p}");
        assert_eq!(whole_spool.entries(p), split_spool.entries(p));
    }
    let mut free = Vec::new();
    whole.drain_into(&mut free);
    first.drain_into(&mut free);
    assert!(free.is_empty());
    second.drain_into(&mut free);
    assert_eq!(free.len(), 1);
}

/// A table whose games would be numbered past `u32::MAX` is not
/// spilled: an error, not numbers wrapped.
#[test]
fn a_table_numbered_past_u32_max_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut spool = Spool::create(dir.path()).unwrap();
    let mut entries = BatchEntries::default();
    // Game 1's entry is the first of partition 0.
    entries.encode(&[1 << 60, 2], &[1, 2]);
    let mut table = Table::default();
    table.push(&Arc::new(entries), u32::MAX, 0..PARTITIONS);
    assert!(spool.push_all(&table).is_err());
}

#[test]
fn the_spool_keeps_its_space_while_the_disk_has_room() {
    let dir = tempfile::tempdir().unwrap();
    let mut spiller = Spiller::create(dir.path()).unwrap();
    let mut next = xorshift(0x2545_F491_4F6C_DD1D);
    let keys: Vec<u64> = (0..20_000).map(|_| next()).collect();
    let ends: Vec<usize> = (1..=20_000usize).step_by(7).chain([20_000]).collect();
    let mut entries = BatchEntries::default();
    entries.encode(&keys, &ends);
    let mut table = Table::default();
    table.push(&Arc::new(entries), 0, 0..PARTITIONS);
    drop(spiller.spill(table).unwrap());
    let mut spool = spiller.finish().unwrap();
    let read_all = |spool: &Spool| {
        let (mut bytes, mut all) = (Aligned::default(), Vec::new());
        for p in 0..PARTITIONS {
            spool
                .read_partition(p, &mut bytes, |b| decode_partition(p, b, 0, &mut all))
                .unwrap();
        }
        all
    };
    let before = read_all(&spool);
    assert_eq!(before.len(), 20_000);
    // Any disk the tests run on has room for a few hundred kilobytes
    // twice over: the partitions released keep their bytes.
    spool.release_only_if_short(1 << 20);
    spool.release(0..PARTITIONS);
    assert_eq!(read_all(&spool), before);
    // Short of room: the space goes back (as much as the file system
    // can give back at once).
    assert!(short_of_room(10 << 20, 8 << 20, 4 << 20));
    assert!(!short_of_room(20 << 20, 8 << 20, 4 << 20));
    assert!(short_of_room(u64::MAX, u64::MAX, 1));
}
