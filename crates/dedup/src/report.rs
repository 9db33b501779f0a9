//! The report of a run: one record per cluster (human or JSON lines) and
//! the counts.

use std::io::{self, Write};

use crate::bounded::Found;
use crate::cluster::Kind;
pub use crate::counts::Counts;

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
