//! A [`Batch`]: the games of one chunk of the PGN file, gathered on the
//! thread that read them, with names and game numbers of their own.

use pgnkit_facts::{Eco, GameFacts};
use pgnkit_pgn::GameResult;

use super::builder::BuildError;
use super::names::Names;
use crate::layout::{self, GAME_SIZE, status_code};
use crate::spill::BatchEntries;

/// A game record waiting for its string ids to become global.
#[derive(Clone, Debug)]
pub(super) struct Pending {
    pub(super) record: [u8; GAME_SIZE],
    pub(super) texts: [u32; 6],
}

/// The games of one chunk of the PGN file, with chunk-local string ids and
/// game numbers.
#[derive(Debug, Default)]
pub struct Batch {
    pub(super) names: Names,
    pub(super) games: Vec<Pending>,
    /// The keys of the games' main-line positions, game after game, not
    /// encoded yet ([`Batch::seal`]).
    pub(super) keys: Vec<u64>,
    /// Where the keys of each game end in `keys`.
    pub(super) ends: Vec<usize>,
    /// The position entries, encoded by key partition once sealed: the
    /// builder keeps them as they are until they are spilled or written.
    pub(super) entries: BatchEntries,
    /// Whether `entries` holds the entries of every game pushed.
    pub(super) sealed: bool,
    /// Position entries in the batch.
    pub(super) positions: usize,
    /// Why the batch cannot be indexed, found while it was filled (the
    /// error is returned when it is added to a [`Builder`]).
    pub(super) overflow: Option<BuildError>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Number of games in the batch.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the batch has no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    fn intern(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return u32::MAX;
        }
        match self.names.intern(s) {
            Some(id) => id,
            None => {
                self.overflow.get_or_insert(BuildError::TooManyStrings);
                u32::MAX
            }
        }
    }

    /// Adds a game: its facts, and the keys of its main-line positions
    /// (the start position included; repeats are stored once in the index).
    ///
    /// A batch of more than 4,294,967,295 games, or a game of 4 GiB or more
    /// (its length is not stored exactly), makes [`Builder::add`](super::Builder::add) fail.
    pub fn push(&mut self, facts: &GameFacts<'_>, keys: &[u64]) {
        // Games are numbered in 32 bits.
        if u32::try_from(self.games.len()).is_err() {
            self.overflow.get_or_insert(BuildError::TooManyGames);
            return;
        }
        if facts.length == u32::MAX {
            self.overflow.get_or_insert(BuildError::GameTooLong {
                offset: facts.offset,
            });
            return;
        }
        let mut texts = [u32::MAX; 6];
        for (slot, t) in texts.iter_mut().zip(facts.texts.iter()) {
            *slot = self.intern(t);
        }
        let mut r = [0u8; GAME_SIZE];
        use layout::game as g;
        r[g::OFFSET..g::OFFSET + 8].copy_from_slice(&facts.offset.to_le_bytes());
        r[g::LENGTH..g::LENGTH + 4].copy_from_slice(&facts.length.to_le_bytes());
        r[g::PLIES..g::PLIES + 4].copy_from_slice(&facts.plies.to_le_bytes());
        r[g::DATE..g::DATE + 4].copy_from_slice(&facts.date.0.to_le_bytes());
        r[g::WHITE_ELO..g::WHITE_ELO + 2].copy_from_slice(&facts.white_elo.to_le_bytes());
        r[g::BLACK_ELO..g::BLACK_ELO + 2].copy_from_slice(&facts.black_elo.to_le_bytes());
        let eco = facts.eco.map_or(Eco::NONE, |e| e.0);
        r[g::ECO..g::ECO + 2].copy_from_slice(&eco.to_le_bytes());
        r[g::RESULT] = GameResult::code_of(facts.outcome);
        r[g::STATUS] = status_code(facts.status);
        let errors = u16::try_from(facts.errors).unwrap_or(u16::MAX);
        r[g::ERRORS..g::ERRORS + 2].copy_from_slice(&errors.to_le_bytes());
        let opening = facts.opening.map_or(0, |o| o.id().saturating_add(1));
        r[g::OPENING..g::OPENING + 2].copy_from_slice(&opening.to_le_bytes());
        r[g::LINE..g::LINE + 16].copy_from_slice(&facts.line.to_le_bytes());
        r[g::TAGGED..g::TAGGED + 4].copy_from_slice(&facts.tagged.to_le_bytes());
        r[g::ANNOTATION..g::ANNOTATION + 4].copy_from_slice(&facts.annotation.to_le_bytes());
        self.games.push(Pending { record: r, texts });

        // Repeats within a game are dropped when the sorted table is written.
        self.keys.extend_from_slice(keys);
        self.ends.push(self.keys.len());
        self.positions += keys.len();
        self.sealed = false;
    }

    /// Encodes the position entries of the games pushed, by key
    /// partition, as the builder keeps them.
    /// [`Builder::take`](super::Builder::take) seals a batch that is not sealed, but the thread
    /// that filled the batch had better do it: the encoding is then spread
    /// over the threads that fill batches, and the batch's keys are still
    /// in that thread's cache.
    ///
    /// ```
    /// use pgnkit_index::{Batch, Builder};
    /// let mut batch = Batch::new();
    /// // ... games pushed ...
    /// batch.seal();
    /// let mut builder = Builder::new();
    /// builder.take(&mut batch).unwrap();
    /// ```
    pub fn seal(&mut self) {
        if !self.sealed {
            self.entries.encode(&self.keys, &self.ends);
            self.sealed = true;
        }
    }

    /// Empties the batch and keeps its memory, for the games of another
    /// chunk.
    pub fn clear(&mut self) {
        self.names.clear();
        self.games.clear();
        self.keys.clear();
        self.ends.clear();
        self.entries.clear();
        self.sealed = false;
        self.positions = 0;
        self.overflow = None;
    }
}
