//! Hostile and odd inputs for the gate tests, made on demand (no megabytes in git).
//!
//! Each [`Class`] makes about `size` bytes of one kind of input that a PGN tool run unattended must
//! survive in linear time and bounded memory. Used by `cli/tests/hostile.rs` (small sizes) and by
//! `cli/examples/hostile.rs` (`benches/hostile.sh` writes 10 MB of each and measures every command).

/// One kind of hostile input.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Class {
    /// One game of knight moves back and forth: millions of plies, every position repeated.
    Repetition,
    /// The same, inside a variation of a one-move game.
    RepetitionInVariation,
    /// One move, then `(` without end.
    OpenParens,
    /// One move, then `)` without end.
    CloseParens,
    /// One descriptive word with parentheses attached without end
    /// (`P(Q)(Q)(Q)…` on one line): each belongs to the word.
    AttachedParentheses,
    /// One move, then NAGs without end.
    Nags,
    /// One game of bare move numbers.
    MoveNumbers,
    /// One game of words that are no move in any notation.
    UnparsableWords,
    /// Empty games: `*` alone, tag sections without movetext, `[Event "?"] *`.
    EmptyGames,
    /// One game with a huge tag section.
    ManyTags,
    /// One game with one comment of the whole size.
    HugeComment,
    /// One game whose Event tag value is the whole size.
    HugeTagValue,
    /// Variations nested inside each other.
    NestedVariations,
    /// Random bytes (a fixed pseudo-random sequence).
    RandomBytes,
    /// Real games with NUL bytes inside tags and movetext.
    NulBytes,
    /// Real games with carriage returns as the only line ends.
    CrOnly,
    /// Real games with invalid UTF-8 in tags, comments and moves.
    InvalidUtf8,
    /// Null moves in a row in the main line.
    NullMoves,
    /// Files that each start with a byte order mark, concatenated.
    BomConcatenation,
    /// Real games whose Site, White and Black are new in every game (as in
    /// a lichess dump: one Site URL per game, millions of players).
    UniqueNames,
}

impl Class {
    /// Every class.
    pub const ALL: [Class; 20] = [
        Class::Repetition,
        Class::RepetitionInVariation,
        Class::OpenParens,
        Class::CloseParens,
        Class::AttachedParentheses,
        Class::Nags,
        Class::MoveNumbers,
        Class::UnparsableWords,
        Class::EmptyGames,
        Class::ManyTags,
        Class::HugeComment,
        Class::HugeTagValue,
        Class::NestedVariations,
        Class::RandomBytes,
        Class::NulBytes,
        Class::CrOnly,
        Class::InvalidUtf8,
        Class::NullMoves,
        Class::BomConcatenation,
        Class::UniqueNames,
    ];

    /// A file name for the class.
    pub fn name(self) -> &'static str {
        match self {
            Class::Repetition => "repetition",
            Class::RepetitionInVariation => "repetition-in-variation",
            Class::OpenParens => "open-parens",
            Class::CloseParens => "close-parens",
            Class::AttachedParentheses => "attached-parentheses",
            Class::Nags => "nags",
            Class::MoveNumbers => "move-numbers",
            Class::UnparsableWords => "unparsable-words",
            Class::EmptyGames => "empty-games",
            Class::ManyTags => "many-tags",
            Class::HugeComment => "huge-comment",
            Class::HugeTagValue => "huge-tag-value",
            Class::NestedVariations => "nested-variations",
            Class::RandomBytes => "random-bytes",
            Class::NulBytes => "nul-bytes",
            Class::CrOnly => "cr-only",
            Class::InvalidUtf8 => "invalid-utf8",
            Class::NullMoves => "null-moves",
            Class::BomConcatenation => "bom-concatenation",
            Class::UniqueNames => "unique-names",
        }
    }

    /// Whether the input is binary data (not text): commands refuse it with exit status 2.
    pub fn is_binary(self) -> bool {
        self == Class::RandomBytes
    }

    /// About `size` bytes of this class, and the number of games in them. `sample` is a file of real
    /// games (used by the classes made from real games).
    pub fn make(self, size: usize, sample: &[u8]) -> (Vec<u8>, u64) {
        let mut out = Vec::with_capacity(size + 64);
        let mut games = 1;
        match self {
            Class::Repetition => {
                out.extend_from_slice(b"[Event \"repetition\"]\n\n");
                knight_dance(&mut out, size, 1);
                out.extend_from_slice(b" 1/2-1/2\n");
            }
            Class::RepetitionInVariation => {
                out.extend_from_slice(b"[Event \"repetition in a variation\"]\n\n1. e4 (");
                knight_dance(&mut out, size, 1);
                out.extend_from_slice(b") 1... e5 *\n");
            }
            Class::OpenParens => repeat_after_move(&mut out, size, b"("),
            Class::CloseParens => repeat_after_move(&mut out, size, b")"),
            Class::AttachedParentheses => {
                out.extend_from_slice(b"[Event \"attached parentheses\"]\n\n1. P");
                while out.len() < size {
                    out.extend_from_slice(b"(Q)");
                }
                out.extend_from_slice(b" *\n");
            }
            Class::Nags => repeat_after_move(&mut out, size, b" $1"),
            Class::MoveNumbers => {
                out.extend_from_slice(b"[Event \"move numbers\"]\n\n");
                let mut n = 1u64;
                while out.len() < size {
                    out.extend_from_slice(n.to_string().as_bytes());
                    out.push(if n.is_multiple_of(12) { b'\n' } else { b' ' });
                    n += 1;
                }
                out.extend_from_slice(b"*\n");
            }
            Class::UnparsableWords => repeat_after_move(&mut out, size, b" xyzzy"),
            Class::EmptyGames => (out, games) = empty_games(size),
            Class::ManyTags => {
                let mut n = 0u64;
                while out.len() < size {
                    out.extend_from_slice(format!("[Tag{n} \"value {n}\"]\n").as_bytes());
                    n += 1;
                }
                out.extend_from_slice(b"\n1. e4 e5 *\n");
            }
            Class::HugeComment => {
                out.extend_from_slice(b"[Event \"huge comment\"]\n\n1. e4 {");
                fill_text(&mut out, size);
                out.extend_from_slice(b"} e5 *\n");
            }
            Class::HugeTagValue => {
                out.extend_from_slice(b"[Event \"");
                while out.len() < size {
                    out.extend_from_slice(b"a very long event name ");
                }
                out.extend_from_slice(b"\"]\n\n1. e4 e5 *\n");
            }
            Class::NestedVariations => {
                out.extend_from_slice(b"[Event \"nested variations\"]\n\n1. e4 e5 ");
                let mut depth = 0usize;
                while out.len() + 2 * depth < size {
                    out.extend_from_slice(b"(1... d5 ");
                    depth += 1;
                }
                out.extend(std::iter::repeat_n(b')', depth));
                out.extend_from_slice(b" 2. Nf3 *\n");
            }
            Class::RandomBytes => {
                games = 0;
                let mut seed = 0x2545_f491_4f6c_dd1du64;
                while out.len() < size {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    out.extend_from_slice(&seed.to_le_bytes());
                }
            }
            Class::NulBytes => {
                games = from_sample(&mut out, size, sample, |game, i| {
                    // A NUL inside a tag value, one after a move, one alone.
                    let mut g = game.to_vec();
                    if let Some(q) = g.iter().position(|&b| b == b'"') {
                        g.insert(q + 1, 0);
                    }
                    if let Some(p) = g.windows(3).position(|w| w == b"\n\n1") {
                        let at = (p + 3 + i % 40).min(g.len());
                        g.insert(at, 0);
                    }
                    g
                })
            }
            Class::UniqueNames => {
                games = from_sample(&mut out, size, sample, |game, i| {
                    let mut g = Vec::with_capacity(game.len() + 64);
                    for line in game.split_inclusive(|&b| b == b'\n') {
                        let value = |tag: &str| format!("[{tag} \"{tag} {i:09}\"]\n");
                        if line.starts_with(b"[Site ") {
                            g.extend_from_slice(
                                format!("[Site \"https://lichess.org/{i:09}\"]\n").as_bytes(),
                            );
                        } else if line.starts_with(b"[White ") {
                            g.extend_from_slice(value("White").as_bytes());
                        } else if line.starts_with(b"[Black ") {
                            g.extend_from_slice(value("Black").as_bytes());
                        } else {
                            g.extend_from_slice(line);
                        }
                    }
                    g
                })
            }
            Class::CrOnly => {
                games = from_sample(&mut out, size, sample, |game, _| {
                    game.iter()
                        .filter(|&&b| b != b'\r')
                        .map(|&b| if b == b'\n' { b'\r' } else { b })
                        .collect()
                })
            }
            Class::InvalidUtf8 => {
                games = from_sample(&mut out, size, sample, |game, i| {
                    let mut g = game.to_vec();
                    if let Some(q) = g.iter().position(|&b| b == b'"') {
                        g.insert(q + 1, 0xFF);
                    }
                    if let Some(p) = g.windows(3).position(|w| w == b"\n\n1") {
                        let at = (p + 3 + i % 40).min(g.len());
                        g.splice(at..at, [0xC3, 0x28, b' ']);
                    }
                    g
                })
            }
            Class::NullMoves => {
                out.extend_from_slice(b"[Event \"null moves\"]\n\n");
                let mut n = 1u64;
                while out.len() < size {
                    out.extend_from_slice(format!("{n}. -- -- ").as_bytes());
                    if n.is_multiple_of(8) {
                        out.push(b'\n');
                    }
                    n += 1;
                }
                out.extend_from_slice(b"*\n");
            }
            Class::BomConcatenation => {
                let real = split_games(sample);
                let per_file = real.len().clamp(1, 3);
                let mut i = 0;
                while out.len() < size && !real.is_empty() {
                    out.extend_from_slice(b"\xEF\xBB\xBF");
                    for _ in 0..per_file {
                        out.extend_from_slice(real[i % real.len()]);
                        out.extend_from_slice(b"\n\n");
                        i += 1;
                    }
                }
                games = i as u64;
            }
        }
        (out, games)
    }
}

/// `1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 …` until about `size` bytes.
fn knight_dance(out: &mut Vec<u8>, size: usize, first: u64) {
    let mut n = first;
    while out.len() < size {
        let moves: &[u8] = if !n.is_multiple_of(2) {
            b"Nf3 Nf6"
        } else {
            b"Ng1 Ng8"
        };
        out.extend_from_slice(n.to_string().as_bytes());
        out.extend_from_slice(b". ");
        out.extend_from_slice(moves);
        out.push(if n.is_multiple_of(8) { b'\n' } else { b' ' });
        n += 1;
    }
}

/// One move, then `unit` until about `size` bytes, then a result.
fn repeat_after_move(out: &mut Vec<u8>, size: usize, unit: &[u8]) {
    out.extend_from_slice(b"[Event \"hostile\"]\n\n1. e4 ");
    let mut col = 0;
    while out.len() < size {
        out.extend_from_slice(unit);
        col += unit.len();
        if col > 78 {
            out.push(b'\n');
            col = 0;
        }
    }
    out.extend_from_slice(b" *\n");
}

/// Prose-like text without braces.
fn fill_text(out: &mut Vec<u8>, size: usize) {
    while out.len() < size {
        out.extend_from_slice(b"the knight on f3 looks at e5 and g5; (a long comment) [no tag]\n");
    }
}

/// Empty games cycling through three shapes; returns the bytes and the number of games.
fn empty_games(size: usize) -> (Vec<u8>, u64) {
    let mut out = Vec::with_capacity(size + 64);
    let mut games = 0u64;
    while out.len() < size {
        let shape: &[u8] = match games % 3 {
            0 => b"*\n\n",
            1 => b"[Event \"tags only\"]\n[Result \"*\"]\n\n",
            _ => b"[Event \"?\"]\n\n*\n\n",
        };
        out.extend_from_slice(shape);
        games += 1;
    }
    (out, games)
}

/// The games of `sample`, cut before each `[Event ` that starts a line.
fn split_games(sample: &[u8]) -> Vec<&[u8]> {
    let mut starts: Vec<usize> = (0..sample.len())
        .filter(|&i| sample[i..].starts_with(b"[Event ") && (i == 0 || sample[i - 1] == b'\n'))
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    let mut games = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(sample.len());
        let g = trim(&sample[s..e]);
        if !g.is_empty() {
            games.push(g);
        }
    }
    games
}

fn trim(s: &[u8]) -> &[u8] {
    let a = s
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    let b = s
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(a, |b| b + 1);
    &s[a..b]
}

/// Real games from `sample`, each changed by `change`, until about `size` bytes; returns how many.
fn from_sample(
    out: &mut Vec<u8>,
    size: usize,
    sample: &[u8],
    change: impl Fn(&[u8], usize) -> Vec<u8>,
) -> u64 {
    let games = split_games(sample);
    let mut i = 0;
    while out.len() < size && !games.is_empty() {
        out.extend_from_slice(&change(games[i % games.len()], i));
        out.extend_from_slice(b"\n\n");
        i += 1;
    }
    i as u64
}
