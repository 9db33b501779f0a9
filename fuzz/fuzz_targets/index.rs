//! Opening a corrupted or truncated index: an index of a small PGN file is
//! written once to a temporary folder; each input then overwrites bytes of
//! a copy of it (or cuts it short, or replaces it whole), optionally
//! recomputes every checksum and the recorded size so that the damage gets
//! past them, writes it over the index file, opens it and runs searches by
//! tag and by position, reading every game found. Opening may fail; nothing
//! may panic, and a search may not take over the time limit.
//!
//! Input: byte 0 = flags (bit 0: cut the file at the length in bytes 1-2;
//! bit 1: fix the checksums and size; bit 2: the file is the rest of the
//! input after the index's magic and version); then edits of three bytes
//! (offset high, offset low, new value).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pgnkit_index::layout::{self, HEADER_SIZE, MAGIC, VERSION, crc, header, u64_at};
use pgnkit_index::{
    Batch, Builder, Date, Eco, Filter, Fingerprint, GameFacts, Index, Needle, Outcome, TextTag,
    fen_key, index_path,
};
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};

struct Setup {
    _dir: tempfile::TempDir,
    pgn: PathBuf,
    index: PathBuf,
    fingerprint: Fingerprint,
    original: Vec<u8>,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary folder");
        let pgn_path = dir.path().join("games.pgn");
        let mut pgn = include_bytes!("../../testdata/repair/white.pgn").to_vec();
        pgn.extend_from_slice(b"\n");
        pgn.extend_from_slice(include_bytes!("../../testdata/convert/chess960wch06.pgn"));
        std::fs::write(&pgn_path, &pgn).expect("write the PGN");
        let mut batch = Batch::new();
        let mut reader = Reader::new(&pgn);
        let mut game = Game::default();
        let options = Options {
            language: None,
            suggestions: false,
            ..Options::default()
        };
        while reader.read_game(&mut game) {
            let report = replay_game(&pgn, &game, &options);
            batch.push(&GameFacts::new(&pgn, 0, &game, Some(&report)), &report.keys);
        }
        let mut builder = Builder::new();
        builder.add(batch).expect("add the games");
        let fingerprint = Fingerprint::of(&pgn_path).expect("fingerprint");
        let index = index_path(&pgn_path);
        builder
            .write(&index, &fingerprint)
            .expect("write the index");
        let original = std::fs::read(&index).expect("read the index");
        Setup {
            _dir: dir,
            pgn: pgn_path,
            index,
            fingerprint,
            original,
        }
    })
}

fn put_u32(b: &mut [u8], at: usize, v: u32) {
    if let Some(s) = at.checked_add(4).and_then(|end| b.get_mut(at..end)) {
        s.copy_from_slice(&v.to_le_bytes());
    }
}

fn put_u64(b: &mut [u8], at: usize, v: u64) {
    if let Some(s) = at.checked_add(8).and_then(|end| b.get_mut(at..end)) {
        s.copy_from_slice(&v.to_le_bytes());
    }
}

fn field(b: &[u8], at: usize) -> usize {
    usize::try_from(u64_at(b, at)).unwrap_or(usize::MAX)
}

fn crc_of(b: &[u8], range: std::ops::Range<usize>) -> Option<u32> {
    b.get(range).map(crc)
}

/// Recomputes the size, the section checksums (position buckets, directory,
/// games, names) and the header checksum, where the header's fields allow.
fn fix_checksums(b: &mut [u8]) {
    if b.len() < HEADER_SIZE {
        return;
    }
    put_u64(b, header::FILE_SIZE, b.len() as u64);
    let bits = layout::u32_at(b, header::BUCKET_BITS).min(layout::MAX_BUCKET_BITS);
    let buckets = 1usize << bits;
    let positions_at = field(b, header::POSITIONS_AT);
    let directory_at = field(b, header::DIRECTORY_AT);
    let crcs_at = directory_at.saturating_add((buckets + 1) * 8);
    if buckets <= 1 << 12 {
        for bucket in 0..buckets {
            let dir = |i: usize| field(b, directory_at.saturating_add(i * 8));
            let (s, e) = (dir(bucket), dir(bucket + 1));
            let range = positions_at.saturating_add(s.saturating_mul(8))
                ..positions_at.saturating_add(e.saturating_mul(8));
            if let Some(c) = crc_of(b, range) {
                put_u32(b, crcs_at.saturating_add(bucket * 4), c);
            }
        }
    }
    let dir_end = crcs_at.saturating_add(buckets * 4);
    if let Some(c) = crc_of(b, directory_at..dir_end) {
        put_u32(b, header::DIRECTORY_CRC, c);
    }
    let games_at = field(b, header::GAMES_AT);
    let games = field(b, header::GAMES);
    if let Some(c) = crc_of(
        b,
        games_at..games_at.saturating_add(games.saturating_mul(56)),
    ) {
        put_u32(b, header::GAMES_CRC, c);
    }
    let strings_at = field(b, header::STRINGS_AT);
    let strings = field(b, header::STRINGS);
    let data_at = field(b, header::STRING_DATA_AT);
    let end = data_at.saturating_add(field(
        b,
        strings_at.saturating_add(strings.saturating_mul(8)),
    ));
    if let Some(c) = crc_of(b, strings_at..end) {
        put_u32(b, header::STRINGS_CRC, c);
    }
    let c = crc(&b[..header::HEADER_CRC]);
    put_u32(b, header::HEADER_CRC, c);
}

fn filters() -> Vec<Filter> {
    let e4 = fen_key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").ok();
    let start = fen_key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok();
    vec![
        Filter::default(),
        Filter {
            player: Some(Needle::new("capa")),
            ..Filter::default()
        },
        Filter {
            white: Some(Needle::new("Corzo")),
            black: Some(Needle::new("é")),
            ..Filter::default()
        },
        Filter {
            event: Some(Needle::new("havana")),
            site: Some(Needle::new("")),
            outcome: Some(Outcome::WhiteWins),
            ..Filter::default()
        },
        Filter {
            eco: Eco::parse("C40").zip(Eco::parse("C99")),
            opening: Some(Needle::new("gambit")),
            date_from: Some(Date::parse("1900")),
            date_to: Some(Date::parse("2010.12.31")),
            min_elo: Some(2000),
            ..Filter::default()
        },
        Filter {
            position: e4,
            ..Filter::default()
        },
        Filter {
            position: start,
            player: Some(Needle::new("a")),
            ..Filter::default()
        },
        Filter {
            position: Some(0x1234_5678_9abc_def0),
            ..Filter::default()
        },
    ]
}

fuzz_target!(|data: &[u8]| {
    let s = setup();
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = if flags & 4 != 0 {
        let mut b = MAGIC.to_vec();
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(rest);
        b
    } else {
        let mut b = s.original.clone();
        let mut edits = rest;
        if flags & 1 != 0 && rest.len() >= 2 {
            let len = usize::from(u16::from_be_bytes([rest[0], rest[1]]));
            b.truncate(len);
            edits = &rest[2..];
        }
        for e in edits.chunks_exact(3) {
            if b.is_empty() {
                break;
            }
            let at = usize::from(u16::from_be_bytes([e[0], e[1]])) % b.len();
            b[at] = e[2];
        }
        b
    };
    if flags & 2 != 0 {
        fix_checksums(&mut bytes);
    }
    std::fs::write(&s.index, &bytes).expect("write the index");
    let Ok(index) = Index::open(&s.index, &s.pgn, &s.fingerprint) else {
        return;
    };
    let _ = (index.games(), index.strings(), index.positions());
    let _ = index.verify_games();
    let _ = index.verify_strings();
    let _ = index.verify_directory();
    for filter in filters() {
        for limit in [None, Some(1)] {
            let Ok(found) = index.search(&filter, limit) else {
                continue;
            };
            for n in found {
                let g = index.game(n);
                let _ = (g.offset(), g.length(), g.plies(), g.date(), g.eco(), g.opening());
                let _ = (g.white_elo(), g.black_elo(), g.outcome(), g.status());
                let _ = g.errors();
                for tag in TextTag::ALL {
                    let _ = g.text(tag);
                }
            }
        }
    }
    for n in [0, 1, u32::MAX] {
        let _ = index.game(n).text(TextTag::White);
        let _ = index.string(n);
    }
});
