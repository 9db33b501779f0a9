//! What a run of dedup counted: games, clusters, duplicates by kind.

use std::io::{self, Write};

use crate::cluster::{Cluster, Kind};
use crate::record::GameRecord;

/// Counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read from the inputs (the known games not counted).
    pub games: u64,
    /// Clusters with a game of the inputs.
    pub clusters: u64,
    /// Games of the inputs that are duplicates (not kept).
    pub duplicates: u64,
    /// Of them, exact.
    pub exact: u64,
    /// Of them, with contradicting tags.
    pub contradicting_tags: u64,
    /// Of them, prefixes.
    pub prefix: u64,
    /// Of them, fuzzy.
    pub fuzzy: u64,
    /// Games whose replay found an error (their line ends before it).
    pub incomplete: u64,
}

impl Counts {
    /// Counts `clusters` of `records`.
    pub fn of(records: &[GameRecord], clusters: &[Cluster]) -> Counts {
        let mut c = Counts {
            games: records.iter().filter(|r| !r.known).count() as u64,
            incomplete: records.iter().filter(|r| !r.known && r.incomplete).count() as u64,
            ..Counts::default()
        };
        for cl in clusters {
            c.clusters += 1;
            for m in &cl.members {
                c.add(m.kind, records[m.index].known);
            }
        }
        c
    }

    /// Counts a duplicate of kind `kind` (none when it is `known`: a game
    /// of a known database is not of the inputs).
    pub fn add(&mut self, kind: Kind, known: bool) {
        if known {
            return;
        }
        self.duplicates += 1;
        match kind {
            Kind::Exact => self.exact += 1,
            Kind::ContradictingTags => self.contradicting_tags += 1,
            Kind::Prefix => self.prefix += 1,
            Kind::Fuzzy => self.fuzzy += 1,
        }
    }

    /// The summary line.
    pub fn line(&self) -> String {
        format!(
            "{} games, {} clusters, {} duplicates ({} exact, {} contradicting-tags, {} prefix, {} fuzzy); {} games with errors compared up to their first error",
            self.games,
            self.clusters,
            self.duplicates,
            self.exact,
            self.contradicting_tags,
            self.prefix,
            self.fuzzy,
            self.incomplete
        )
    }

    /// The JSON summary record.
    pub fn write_json(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(
            out,
            "{{\"type\":\"summary\",\"clusters\":{},\"contradicting_tags\":{},\"duplicates\":{},\"exact\":{},\"fuzzy\":{},\"games\":{},\"incomplete\":{},\"prefix\":{}}}",
            self.clusters,
            self.contradicting_tags,
            self.duplicates,
            self.exact,
            self.fuzzy,
            self.games,
            self.incomplete,
            self.prefix
        )
    }
}
