//! Shards: the K-th of N parts of one uncompressed PGN file, so that N
//! independent processes (on N machines) cover every game exactly once.
//!
//! The file is cut into N equal byte ranges; every cut then moves forward to
//! the next hard game start ([`crate::game_starts_near`]), the same way
//! for every K, so shard K holds exactly the games whose first byte lies in
//! its range, and the N shards together hold every game once.
//!
//! So that the N outputs concatenated in K order are the unsharded output,
//! a shard also knows its [`Origin`]: how many games and line breaks come
//! before its first byte. Games are counted by lexing the prefix with
//! [`crate::Reader`] (no replay: several hundred MB/s), in parallel
//! pieces cut at hard game starts; line breaks with
//! [`crate::location::count_lines`].

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use crate::{Game, Reader};

/// `--shard K/N`: the K-th (1-based) of N shards.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1..=n.
    pub k: u64,
    /// How many shards.
    pub n: u64,
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let usage = || format!("`{s}` is no shard: write K/N with 1 <= K <= N, e.g. 3/8");
        let (k, n) = s.trim().split_once('/').ok_or_else(usage)?;
        let k: u64 = k.trim().parse().map_err(|_| usage())?;
        let n: u64 = n.trim().parse().map_err(|_| usage())?;
        if n == 0 || k == 0 || k > n {
            return Err(usage());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

impl Shard {
    /// The byte range of this shard in `data` (a whole uncompressed file).
    ///
    /// Cut `i` (for `0 < i < n`) is the first game start at or after
    /// `i * len / n`; cut 0 is 0 and cut `n` is `len`. Shard K is
    /// `cut(K-1)..cut(K)`, possibly empty (when N exceeds the number of
    /// games, most shards are).
    pub fn range(&self, data: &[u8]) -> Range<usize> {
        self.cut(data, self.k.saturating_sub(1))..self.cut(data, self.k)
    }

    /// Cut `i` of `n` (see [`Shard::range`]).
    fn cut(&self, data: &[u8], i: u64) -> usize {
        let len = data.len();
        if i == 0 {
            return 0;
        }
        if i >= self.n {
            return len;
        }
        // i * len / n without overflow, whatever n is.
        let approx = (u128::from(i) * len as u128 / u128::from(self.n)) as usize;
        crate::game_starts_near(data, approx).map_or(len, |c| c.min(len))
    }
}

/// What lies before the first byte a run reads: added to game and line
/// numbers so that they stay file-global.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// Games before (plus any `--game-offset`).
    pub games: u64,
    /// Line breaks before.
    pub lines: usize,
}

impl Origin {
    /// Counts the games and line breaks of `data[..start]`, where `start` is
    /// a game start (offset 0 or a hard boundary), with up to `threads`
    /// threads.
    pub fn of_prefix(data: &[u8], start: usize, threads: usize) -> Origin {
        Origin::in_pieces(data, start, threads, 4 << 20)
    }

    /// [`Origin::of_prefix`] with pieces of at least `piece` bytes.
    fn in_pieces(data: &[u8], start: usize, threads: usize, piece: usize) -> Origin {
        let start = start.min(data.len());
        if start == 0 {
            return Origin::default();
        }
        let prefix = &data[..start];
        let threads = threads.max(1);
        // Pieces cut at hard game starts, so lexing them apart gives exactly
        // the games of the whole prefix.
        let pieces = (start / piece.max(1)).clamp(1, threads * 4);
        let ranges = crate::split_at_games(prefix, pieces);
        let count = |r: &Range<usize>| -> (u64, usize) {
            let mut reader = Reader::with_range(prefix, r.clone());
            let mut game = Game::default();
            let mut games = 0u64;
            while reader.read_game(&mut game) {
                // Counted as `check` counts: runs of comments are no games.
                games += u64::from(!game.is_comment_only());
            }
            (games, crate::location::count_lines(&prefix[r.clone()]))
        };
        let totals: Vec<(u64, usize)> =
            match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                Ok(pool) if threads > 1 && ranges.len() > 1 => {
                    use rayon::prelude::*;
                    pool.install(|| ranges.par_iter().map(count).collect())
                }
                _ => ranges.iter().map(count).collect(),
            };
        let (games, lines) = totals.iter().fold((0u64, 0usize), |(g, l), &(a, b)| {
            (g.saturating_add(a), l.saturating_add(b))
        });
        Origin { games, lines }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAMES: &str = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 d5 0-1\n\n[Event \"c\"]\n\n1. c4 *\n";

    #[test]
    fn parses_k_of_n() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { k: 3, n: 8 }));
        assert_eq!(Shard { k: 3, n: 8 }.to_string(), "3/8");
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "-1/3", "1/"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_cover_the_file_once_at_game_starts() {
        let data = GAMES.as_bytes();
        for n in 1..=40u64 {
            let mut end = 0;
            for k in 1..=n {
                let r = Shard { k, n }.range(data);
                assert_eq!(r.start, end, "{k}/{n} starts where {}/{n} ended", k - 1);
                assert!(r.start == 0 || r.start == data.len() || data[r.start] == b'[');
                end = r.end;
            }
            assert_eq!(end, data.len(), "n = {n}");
        }
    }

    #[test]
    fn origin_counted_in_parallel_pieces_is_the_same() {
        let data: &[u8] = include_bytes!("../../../testdata/scale/gotd.pgn");
        let mut reader = Reader::new(data);
        let mut game = Game::default();
        let mut starts = Vec::new();
        while reader.read_game(&mut game) {
            starts.push(game.span.start);
        }
        assert_eq!(starts.len(), 171);
        for n in [2u64, 5, 9] {
            for k in 1..=n {
                let start = Shard { k, n }.range(data).start;
                let before = starts.iter().filter(|&&s| s < start).count() as u64;
                let lines = crate::location::count_lines(&data[..start]);
                let want = Origin {
                    games: before,
                    lines,
                };
                assert_eq!(Origin::of_prefix(data, start, 2), want, "{k}/{n}");
                for piece in [1, 700, 5000] {
                    for threads in [1, 3] {
                        assert_eq!(Origin::in_pieces(data, start, threads, piece), want);
                    }
                }
            }
        }
    }

    #[test]
    fn origin_counts_games_and_lines_before() {
        let data = GAMES.as_bytes();
        let second = GAMES.find("[Event \"b\"]").unwrap_or(0);
        let third = GAMES.find("[Event \"c\"]").unwrap_or(0);
        for threads in [1, 2, 3] {
            assert_eq!(Origin::of_prefix(data, 0, threads), Origin::default());
            assert_eq!(
                Origin::of_prefix(data, second, threads),
                Origin { games: 1, lines: 4 }
            );
            assert_eq!(
                Origin::of_prefix(data, third, threads),
                Origin { games: 2, lines: 8 }
            );
        }
    }
}
