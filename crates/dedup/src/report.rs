//! The report of a run: one record per cluster (human or JSON lines) and
//! the counts.

use std::io::{self, Write};

use crate::bounded::Found;
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

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// Writes the clusters of `found`, the kept game of each first: in JSON,
/// one line a cluster, `{"type":"cluster","games":[…]}`, each game with its
/// file, game number, byte offset, kind (`kept` for the kept one), whether
/// it is known (`--against`), incomplete, and the tags that differ from
/// the kept game's; for a reader, a line for the kept game, then one per
/// duplicate with its kind and the tags that differ, and a blank line.
/// `names`: the inputs' names, by their number.
pub fn write_clusters(
    out: &mut impl Write,
    names: &[String],
    json: bool,
    found: &Found,
) -> io::Result<()> {
    let mut reader = found.clusters.reader()?;
    let mut open = false;
    while let Some(item) = reader.next()? {
        let file = names
            .get(item.source.file as usize)
            .map_or("", String::as_str);
        let kind = item.kind().map_or("kept", Kind::as_str);
        if json {
            let tags: Vec<String> = item.differing().iter().map(|t| json_str(t)).collect();
            let game = format!(
                "{{\"byte\":{},\"differing_tags\":[{}],\"file\":{},\"game\":{},\"incomplete\":{},\"kind\":\"{kind}\",\"known\":{},\"plies\":{}}}",
                item.source.byte,
                tags.join(","),
                json_str(file),
                item.source.game,
                item.incomplete(),
                item.known(),
                item.plies
            );
            if item.is_kept() {
                if open {
                    writeln!(out, "]}}")?;
                }
                write!(out, "{{\"type\":\"cluster\",\"games\":[{game}")?;
                open = true;
            } else {
                write!(out, ",{game}")?;
            }
            continue;
        }
        let known = if item.known() { " (known)" } else { "" };
        let incomplete = if item.incomplete() {
            " (has errors)"
        } else {
            ""
        };
        let place = format!(
            "{file} game {} (byte {}, {} plies){known}{incomplete}",
            item.source.game, item.source.byte, item.plies
        );
        if item.is_kept() {
            if open {
                writeln!(out)?;
            }
            writeln!(out, "{:<19} {place}", "kept")?;
            open = true;
        } else {
            let differing = item.differing();
            let differ = if differing.is_empty() {
                String::new()
            } else {
                format!(": {} differ", differing.join(", "))
            };
            writeln!(out, "  {kind:<17} {place}{differ}")?;
        }
    }
    if open {
        if json {
            writeln!(out, "]}}")?;
        } else {
            writeln!(out)?;
        }
    }
    Ok(())
}
