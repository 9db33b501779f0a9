//! The report of a run: one record per cluster (human or JSON lines) and
//! the counts.

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
            for m in cl.members.iter().filter(|m| !records[m.index].known) {
                c.duplicates += 1;
                match m.kind {
                    Kind::Exact => c.exact += 1,
                    Kind::ContradictingTags => c.contradicting_tags += 1,
                    Kind::Prefix => c.prefix += 1,
                    Kind::Fuzzy => c.fuzzy += 1,
                }
            }
        }
        c
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

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Writes one cluster as a JSON line: `{"type":"cluster","games":[…]}`, the
/// kept game first, each game with its file, game number, byte offset,
/// kind (`kept` for the kept one), whether it is known (`--against`),
/// incomplete, and the tags that differ from the kept game's.
pub fn write_json(
    out: &mut impl Write,
    names: &[String],
    records: &[GameRecord],
    cluster: &Cluster,
) -> io::Result<()> {
    let game = |index: usize, kind: &str, differing: &[&str]| -> String {
        let r = &records[index];
        let file = names.get(r.source.file as usize).map_or("", String::as_str);
        let tags: Vec<String> = differing.iter().map(|t| json_str(t)).collect();
        format!(
            "{{\"byte\":{},\"differing_tags\":[{}],\"file\":{},\"game\":{},\"incomplete\":{},\"kind\":\"{kind}\",\"known\":{},\"plies\":{}}}",
            r.source.byte,
            tags.join(","),
            json_str(file),
            r.source.game,
            r.incomplete,
            r.known,
            r.plies
        )
    };
    let mut games = vec![game(cluster.kept, "kept", &[])];
    for m in &cluster.members {
        games.push(game(m.index, m.kind.as_str(), &m.differing));
    }
    writeln!(
        out,
        "{{\"type\":\"cluster\",\"games\":[{}]}}",
        games.join(",")
    )
}

/// Writes one cluster for a reader: a line for the kept game, then one per
/// duplicate with its kind and the tags that differ.
pub fn write_human(
    out: &mut impl Write,
    names: &[String],
    records: &[GameRecord],
    cluster: &Cluster,
) -> io::Result<()> {
    let place = |index: usize| -> String {
        let r = &records[index];
        let file = names.get(r.source.file as usize).map_or("", String::as_str);
        let known = if r.known { " (known)" } else { "" };
        let incomplete = if r.incomplete { " (has errors)" } else { "" };
        format!(
            "{file} game {} (byte {}, {} plies){known}{incomplete}",
            r.source.game, r.source.byte, r.plies
        )
    };
    writeln!(out, "{:<19} {}", "kept", place(cluster.kept))?;
    for m in &cluster.members {
        let differ = if m.differing.is_empty() {
            String::new()
        } else {
            format!(": {} differ", m.differing.join(", "))
        };
        writeln!(out, "  {:<17} {}{differ}", m.kind.as_str(), place(m.index))?;
    }
    writeln!(out)
}
