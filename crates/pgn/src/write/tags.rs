//! The tag section in export order (PGN §8.1.1): the seven-tag roster
//! first, then the other tags in ASCII order of their names, values
//! escaped.

use crate::Game;
use crate::scan::find_quote_backslash_or_eol;
use crate::text::{Encoding, GameText};

/// The tags every exported game starts with, in this order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Which tags a [`Writer`](super::Writer) writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum TagSection {
    /// Every tag (the default).
    #[default]
    All,
    /// The seven-tag roster only (those of its tags the game has).
    Roster,
    /// None: movetext only.
    None,
}

/// Appends `value` to `out` with `\` and `"` escaped.
pub fn escape_tag_value(value: &str, out: &mut Vec<u8>) {
    let mut rest = value.as_bytes();
    while let Some(i) = memchr::memchr2(b'\\', b'"', rest) {
        out.extend_from_slice(&rest[..i]);
        out.push(b'\\');
        out.push(rest[i]);
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

/// The tags of `game` in export order: the seven-tag roster first (the
/// first tag of each name), then the others in ASCII order of their names
/// (a stable sort: duplicates keep their input order).
pub fn tag_order(game: &Game<'_>, order: &mut Vec<usize>) {
    roster_first(game, order);
}

/// The place of the tag named `name` in the seven-tag roster.
#[inline]
fn roster_place(name: &[u8]) -> Option<usize> {
    Some(match name {
        b"Event" => 0,
        b"Site" => 1,
        b"Date" => 2,
        b"Round" => 3,
        b"White" => 4,
        b"Black" => 5,
        b"Result" => 6,
        _ => return None,
    })
}

/// [`tag_order`], and how many of the tags in `order` are the roster's
/// (those of its names the game has).
fn roster_first(game: &Game<'_>, order: &mut Vec<usize>) -> usize {
    order.clear();
    // The first tag of each roster name, by roster place; the others in
    // input order.
    let mut first = [usize::MAX; SEVEN_TAG_ROSTER.len()];
    for (i, tag) in game.tags.iter().enumerate() {
        match roster_place(tag.name).and_then(|place| first.get_mut(place)) {
            Some(slot) if *slot == usize::MAX => *slot = i,
            _ => order.push(i),
        }
    }
    let others = order.len();
    order.extend(first.iter().copied().filter(|&i| i != usize::MAX));
    let roster = order.len() - others;
    order.rotate_right(roster);
    if let Some(rest) = order.get_mut(roster..) {
        // Insertion sort (what `sort_by` does for so few): a game's other
        // tags are most often in order already.
        rest.sort_by(|&a, &b| {
            let name = |i: usize| game.tags.get(i).map_or(&[][..], |t| t.name);
            name(a).cmp(name(b))
        });
    }
    roster
}

/// Whether `value` has nothing to escape: no `\\` and no `"`, found by the
/// lexer's own scan for a tag value's end, eight bytes at a time (a value
/// holds no line break; one that did would only take the escaping path).
#[inline]
fn nothing_to_escape(value: &[u8]) -> bool {
    find_quote_backslash_or_eol(value, 0) == value.len()
}

/// Writes the tag section in export order, and the empty line after it.
#[inline(never)]
pub(super) fn write_tags(
    out: &mut Vec<u8>,
    game: &Game<'_>,
    source: &GameText<'_>,
    order: &mut Vec<usize>,
    set: &[(String, Option<String>)],
    section: TagSection,
) {
    if section == TagSection::None {
        return;
    }
    // The tags set are written among the others in ASCII order of their
    // names, after the roster (the game's tags of their names are not).
    let roster = roster_first(game, order);
    let in_section = |name: &str| section == TagSection::All || SEVEN_TAG_ROSTER.contains(&name);
    if section == TagSection::Roster {
        order.truncate(roster);
    }
    let mut pending = set
        .iter()
        .filter(|(n, v)| v.is_some() && in_section(n))
        .peekable();
    let mut wrote = false;
    let write_set = |out: &mut Vec<u8>, name: &str, value: &str| {
        out.push(b'[');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b" \"");
        escape_tag_value(value, out);
        out.extend_from_slice(b"\"]\n");
    };
    for (place, &i) in order.iter().enumerate() {
        let Some(tag) = game.tags.get(i) else {
            continue;
        };
        if place >= roster {
            while let Some((name, Some(value))) =
                pending.next_if(|(name, _)| name.as_bytes() < tag.name)
            {
                write_set(out, name, value);
                wrote = true;
            }
        }
        if set.iter().any(|(name, _)| name.as_bytes() == tag.name) {
            continue;
        }
        wrote = true;
        let raw = tag.raw_value;
        // Nothing to resolve, nothing to escape: the value as it is (the
        // game's text is UTF-8).
        let as_it_is = source.encoding() == Encoding::Utf8 && nothing_to_escape(raw);
        if as_it_is {
            // The whole tag as it is when it is written `[Name "value"]`
            // already.
            let text = source.slice(tag.span.clone(), &[]);
            let text = text.as_bytes();
            if text.len() == tag.name.len() + raw.len() + 5
                && text.get(1).is_some_and(|&b| b != b' ' && b != b'\t')
                && text.get(tag.name.len() + 1) == Some(&b' ')
            {
                out.extend_from_slice(text);
                out.push(b'\n');
                continue;
            }
        }
        out.push(b'[');
        out.extend_from_slice(source.decode(tag.name).as_bytes());
        out.extend_from_slice(b" \"");
        if as_it_is {
            out.extend_from_slice(raw);
        } else {
            escape_tag_value(&source.decode(&tag.value()), out);
        }
        out.extend_from_slice(b"\"]\n");
    }
    for (name, value) in pending {
        if let Some(value) = value {
            write_set(out, name, value);
            wrote = true;
        }
    }
    if wrote {
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_roster_places_are_those_of_the_roster() {
        for (place, name) in SEVEN_TAG_ROSTER.iter().enumerate() {
            assert_eq!(roster_place(name.as_bytes()), Some(place), "{name}");
        }
        for other in ["event", "Eventt", "WhiteElo", "", "ECO"] {
            assert_eq!(roster_place(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn a_quote_or_backslash_is_found_wherever_it_stands() {
        for len in 0..24 {
            let plain = vec![b'a'; len];
            assert!(nothing_to_escape(&plain), "{len}");
            for at in 0..len {
                for c in [b'"', b'\\'] {
                    let mut value = plain.clone();
                    value[at] = c;
                    assert!(!nothing_to_escape(&value), "{len} {at} {c}");
                }
            }
        }
        // Bytes one away from each (`!`, `#`, `[`, `]`) are nothing to escape.
        assert!(nothing_to_escape(b"!#[]!#[]!#[]"));
    }

    #[test]
    fn tag_values_are_escaped() {
        let mut out = Vec::new();
        escape_tag_value(r#"The "Immortal" \ game"#, &mut out);
        assert_eq!(out, br#"The \"Immortal\" \\ game"#);
    }
}
