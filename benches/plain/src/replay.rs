//! Replaying the main line of every game on shakmaty positions, streamed or
//! in parallel over pieces of a memory-mapped file.

use std::{
    io::{self, Read, Write},
    ops::ControlFlow,
};

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use rayon::prelude::*;
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

use crate::{boundary, notation::Notation};

/// Counts over a file or a piece of one.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Games read.
    pub games: u64,
    /// Main-line plies replayed legally.
    pub plies: u64,
    /// Games stopped by an illegal (or ambiguous) move.
    pub illegal: u64,
    /// Games whose FEN tag is not a legal position.
    pub bad_fen: u64,
}

impl Tally {
    fn add(&mut self, game: GameOutcome) {
        self.games += 1;
        self.plies += game.plies;
        self.illegal += u64::from(game.illegal);
        self.bad_fen += u64::from(game.bad_fen);
    }

    fn merge(mut self, other: Tally) -> Tally {
        self.games += other.games;
        self.plies += other.plies;
        self.illegal += other.illegal;
        self.bad_fen += other.bad_fen;
        self
    }
}

/// What replaying one game gave.
#[derive(Debug, Default, Clone, Copy)]
struct GameOutcome {
    plies: u64,
    illegal: bool,
    bad_fen: bool,
}

/// The start position from the tags, if the FEN tag was readable.
struct Setup {
    start: Chess,
    bad_fen: bool,
}

/// The position while the main line is replayed.
struct Line {
    pos: Chess,
    plies: u64,
}

/// A pgn-reader visitor that replays the main line and optionally writes it.
struct Validator {
    convert: Option<Notation>,
    out: Vec<u8>,
}

impl Validator {
    fn new(convert: Option<Notation>) -> Validator {
        Validator {
            convert,
            out: Vec::new(),
        }
    }

    fn end_line(&mut self, outcome: GameOutcome) -> GameOutcome {
        if self.convert.is_some() {
            self.out.push(b'\n');
        }
        outcome
    }
}

impl Visitor for Validator {
    type Tags = Setup;
    type Movetext = Line;
    type Output = GameOutcome;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(Setup {
            start: Chess::default(),
            bad_fen: false,
        })
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        if name == b"FEN" {
            match Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|fen| fen.into_position(CastlingMode::Chess960).ok())
            {
                Some(pos) => tags.start = pos,
                None => tags.bad_fen = true,
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if tags.bad_fen {
            return ControlFlow::Break(self.end_line(GameOutcome {
                bad_fen: true,
                ..GameOutcome::default()
            }));
        }
        ControlFlow::Continue(Line {
            pos: tags.start,
            plies: 0,
        })
    }

    fn san(&mut self, line: &mut Self::Movetext, san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&line.pos) {
            Ok(m) => {
                if let Some(notation) = self.convert {
                    if line.plies > 0 {
                        self.out.push(b' ');
                    }
                    // Writing into a Vec cannot fail.
                    let _ = notation.write(m, &mut self.out);
                }
                line.pos.play_unchecked(m);
                line.plies += 1;
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(self.end_line(GameOutcome {
                plies: line.plies,
                illegal: true,
                bad_fen: false,
            })),
        }
    }

    fn end_game(&mut self, line: Self::Movetext) -> Self::Output {
        self.end_line(GameOutcome {
            plies: line.plies,
            ..GameOutcome::default()
        })
    }
}

/// Replays every game read from `input` in one thread, writing converted
/// moves (if any) to `out`.
pub fn stream(
    input: impl Read,
    convert: Option<Notation>,
    out: &mut impl Write,
) -> io::Result<Tally> {
    let mut reader = Reader::new(input);
    let mut validator = Validator::new(convert);
    let mut tally = Tally::default();
    while let Some(game) = reader.read_game(&mut validator)? {
        tally.add(game);
        if validator.out.len() >= 1 << 16 {
            out.write_all(&validator.out)?;
            validator.out.clear();
        }
    }
    out.write_all(&validator.out)?;
    Ok(tally)
}

/// Replays one piece of whole games, returning its counts and output.
fn piece(data: &[u8], convert: Option<Notation>) -> io::Result<(Tally, Vec<u8>)> {
    let mut out = Vec::new();
    let tally = stream(data, convert, &mut out)?;
    Ok((tally, out))
}

/// Replays `data` on `threads` rayon threads, cut at game boundaries; output
/// keeps the input order.
pub fn parallel(
    data: &[u8],
    threads: usize,
    convert: Option<Notation>,
    out: &mut impl Write,
) -> io::Result<Tally> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(io::Error::other)?;
    // Enough pieces to balance long engine games against short ones.
    let target = (data.len() / (threads * 32)).clamp(64 << 10, 4 << 20);
    let pieces = boundary::split(data, target);
    if convert.is_none() {
        return pool.install(|| {
            pieces
                .par_iter()
                .map(|p| piece(p, None).map(|(tally, _)| tally))
                .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))
        });
    }
    // Converting: a window of pieces at a time, written in input order, so
    // memory stays bounded whatever the file size.
    let mut tally = Tally::default();
    for window in pieces.chunks(threads * 4) {
        let done: Vec<io::Result<(Tally, Vec<u8>)>> =
            pool.install(|| window.par_iter().map(|p| piece(p, convert)).collect());
        for result in done {
            let (part, bytes) = result?;
            tally = tally.merge(part);
            out.write_all(&bytes)?;
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// The first game of TWIC 944 (hauva69/pgn4web, twic944.pgn; GPL-2.0),
    /// verbatim, followed by a constructed game with an illegal move.
    const TWIC: &str = concat!(
        "[Event \"4th London Chess Classic\"]\n[Site \"London ENG\"]\n[Date \"2012.12.04\"]\n[Round \"4.1\"]\n[White \"Carlsen,M\"]\n[Black \"Jones,G\"]\n[Result \"1-0\"]\n[WhiteTitle \"GM\"]\n[BlackTitle \"GM\"]\n[WhiteElo \"2848\"]\n[BlackElo \"2644\"]\n[ECO \"B53\"]\n[Opening \"Sicilian, Chekhover variation\"]\n[WhiteFideId \"1503014\"]\n[BlackFideId \"409561\"]\n[EventDate \"2012.12.01\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Qxd4 a6 5. h3 Nc6 6. Qe3 g6 7. c4 Bg7 8. Be2\nNf6 9. Nc3 O-O 10. O-O Nd7 11. Rb1 a5 12. b3 Nc5 13. Bb2 f5 14. exf5 Bxf5 15.\nRbd1 a4 16. Ba3 Qa5 17. Nb5 axb3 18. axb3 Qxa3 19. Nxa3 Rxa3 20. Nd2 Bd4 21. Qg3\nBe5 22. f4 Bf6 23. Bg4 Nd4 24. Kh1 Bc2 25. Rde1 Kh8 26. Re3 h5 27. b4 h4 28. Qf2\nNd3 29. Qg1 Nf5 30. Bxf5 gxf5 31. Nf3 Rc3 32. c5 Bb3 33. Ne1 Bd4 34. Nxd3 dxc5\n35. Qf2 Rf7 36. Rc1 cxb4 37. Rxc3 bxc3 38. Qe1 1-0\n\n",
        "[Event \"constructed\"]\n[Result \"*\"]\n\n1. e4 e5 2. Ke2 Ke7 3. Kd3 Qxh2 *\n"
    );

    #[test]
    fn counts_games_plies_and_illegal_moves() {
        let mut out = Vec::new();
        let tally = stream(TWIC.as_bytes(), None, &mut out);
        assert!(out.is_empty());
        // Game 2 stops at 3... Qxh2 (the queen cannot reach h2): 5 legal plies.
        assert_eq!(
            tally.ok(),
            Some(Tally {
                games: 2,
                plies: 75 + 5,
                illegal: 1,
                bad_fen: 0
            })
        );
    }

    #[test]
    fn converts_one_game_a_line() {
        let mut out = Vec::new();
        assert!(stream(TWIC.as_bytes(), Some(Notation::Uci), &mut out).is_ok());
        let text = String::from_utf8_lossy(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 d1d4 a7a6"));
        assert!(lines[0].ends_with("c1c3 b4c3 f2e1"));
        assert_eq!(lines[1], "e2e4 e7e5 e1e2 e8e7 e2d3");
    }

    #[test]
    fn reads_fen_tag_and_counts_bad_fen() {
        let pgn = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Kd7 *\n\n[FEN \"not a fen\"]\n\n1. e4 *\n";
        let tally = stream(pgn.as_bytes(), None, &mut io::sink()).ok();
        assert_eq!(
            tally,
            Some(Tally {
                games: 2,
                plies: 2,
                illegal: 0,
                bad_fen: 1
            })
        );
    }

    fn corpus() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
    }

    /// Real games: the parallel path must give the same counts and the same
    /// converted text as the streaming path, for any thread count.
    #[test]
    fn parallel_matches_stream_on_real_games() {
        let path = corpus().join("hauva69__pgn4web/twic944.pgn");
        let Ok(data) = std::fs::read(&path) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "corpus missing in CI: {}",
                path.display()
            );
            return;
        };
        let mut serial_out = Vec::new();
        let serial = stream(&data[..], Some(Notation::Lan), &mut serial_out).ok();
        let serial_tally = serial.unwrap_or_default();
        assert!(serial_tally.games > 1000, "{serial_tally:?}");
        assert!(serial_tally.plies > 50 * serial_tally.games);
        for threads in [2, 3] {
            let mut out = Vec::new();
            let tally = parallel(&data, threads, Some(Notation::Lan), &mut out).ok();
            assert_eq!(tally, serial);
            assert!(
                out == serial_out,
                "converted text differs with {threads} threads"
            );
            let plain = parallel(&data, threads, None, &mut io::sink()).ok();
            assert_eq!(plain, serial);
        }
    }
}
