//! The JSON record of a game, as `pgnkit convert --format json` writes it:
//! its tags, its moves (written form and UCI) with their NAGs, comments and
//! variations, its result, status, plies, language and number of errors.
//!
//! The moves are those a [`MoveWriter`](pgnkit_replay::MoveWriter) wrote while the
//! game was replayed; everything else comes from the game's tokens, walked
//! once as the [PGN writer](pgnkit_pgn::write) walks them (the same rules
//! for NAGs, draw offers, null moves and text that is not converted).
//!
//! ```
//! use pgnkit_notation::{Language, Notation, Style};
//! use pgnkit_pgn::write::Moves;
//! use pgnkit_pgn::{Game, Reader};
//! use pgnkit_replay::{MoveWriter, Options, replay_game_with};
//! use pgnkit_report::json;
//!
//! let pgn = b"[White \"Anna\"]\n\n1. e4 $1 {best by test} (1. d4) e5 *\n";
//! let mut game = Game::default();
//! assert!(Reader::new(pgn).read_game(&mut game));
//! let mut moves = Moves::new(true);
//! let mut writer = MoveWriter::new(Style::new(Notation::Lan, Language::En), true, &mut moves);
//! let report = replay_game_with(pgn, &game, &Options::default(), &mut writer);
//!
//! let mut out = Vec::new();
//! json::write_game(&mut out, pgn, &game, &report, &moves)?;
//! assert_eq!(
//!     String::from_utf8(out)?,
//!     concat!(
//!         r#"{"tags":{"White":"Anna"},"moves":["#,
//!         r#"{"number":1,"side":"white","move":"e2-e4","uci":"e2e4","nags":[1],"comments":["best by test"],"#,
//!         r#""variations":[[{"number":1,"side":"white","move":"d2-d4","uci":"d2d4"}]]},"#,
//!         r#"{"number":1,"side":"black","move":"e7-e5","uci":"e7e5"}],"#,
//!         r#""result":"*","status":"ongoing","plies":2,"language":"en","errors":0}"#
//!     )
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;
use std::io::{self, Write};

use pgnkit_pgn::text::GameText;
use pgnkit_pgn::write::{self as export, Moves, NULL_MOVE, NullPlaces, VerbatimPiece, Word};
use pgnkit_pgn::{Game, TokenKind};

use pgnkit_replay::GameReport;

/// Writes the JSON record of `game` (read from `input`, replayed into
/// `report`, its moves written in `moves`) to `out`, on one line without
/// its line break:
/// `{"tags":{…},"comments":[…],"moves":[…],"result":…,"status":…,"plies":…,"language":…,"errors":…}`
/// (`comments`, the comments outside any move, only when there are some).
/// Each move is
/// `{"comments_before":[…],"number":…,"side":…,"move":…,"uci":…,"nags":[…],"comments":[…],"variations":[[…],…]}`
/// (the lists only when not empty), text not converted
/// `{"unconverted":…}`. Tags are in export order, the first of each name.
///
/// The record goes to `out` in pieces of about 64 KiB as it is written (a
/// game of millions of moves is never held whole as text); the only errors
/// are `out`'s.
pub fn write_game<W: Write + ?Sized>(
    out: &mut W,
    input: &[u8],
    game: &Game<'_>,
    report: &GameReport,
    moves: &Moves,
) -> io::Result<()> {
    let source = GameText::new(input, game.span.clone());
    let record = json_game(input, game, &source, report, moves, report.errors());
    let mut buf = Vec::with_capacity(FLUSH_AT + 4096);
    write_json_game(
        &mut Flushing { buf: &mut buf, out },
        game,
        &source,
        &record,
        moves,
    )?;
    out.write_all(&buf)
}

/// The record is written to a buffer handed on to the writer every
/// `FLUSH_AT` bytes: a game of millions of moves is never held whole.
const FLUSH_AT: usize = 64 << 10;

/// A buffer in front of a writer.
struct Flushing<'a, W: Write + ?Sized> {
    buf: &'a mut Vec<u8>,
    out: &'a mut W,
}

impl<W: Write + ?Sized> Flushing<'_, W> {
    /// Hands the buffer on once it is full.
    fn flush_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// The place `k` plies after the place (`number`, `white`), the number
/// saturating.
fn place_after((number, white): (u32, bool), k: u32) -> (u32, bool) {
    let ply = u64::from(number) * 2 + u64::from(!white) + u64::from(k);
    (u32::try_from(ply / 2).unwrap_or(u32::MAX), ply % 2 == 0)
}

/// "No index" in the record's links.
const NONE: u32 = u32::MAX;

/// An index as a link of the record (the record of one game never has
/// `u32::MAX` nodes: its game would have more tokens than memory holds).
fn link(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(NONE)
}

/// What a node of the JSON record is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NodeKind {
    /// A converted move: `value` is its slot in the [`Moves`].
    Move,
    /// Converted moves of consecutive slots, none with comments, NAGs or
    /// variations: `value` is the first slot, `extra` the last (a line of
    /// millions of plain moves is one node).
    Run,
    /// Null moves one after the other, none with comments, NAGs or
    /// variations: `value` is the full-move number of the first, played by
    /// White when `white`; `extra` is how many follow it.
    NullRun { white: bool },
    /// A null move: `value` is its full-move number.
    Null { white: bool },
    /// Text not converted: `value` is its index in [`JsonGame::texts`].
    Unconverted,
}

/// One item of a line of the JSON record: a move, a null move or
/// unconverted text, 16 bytes. The written forms stay in the game's
/// [`Moves`]; comments, NAGs and variations, rare, are apart.
struct Node {
    kind: NodeKind,
    value: u32,
    /// The next item of the same line (`NONE`: the last).
    next: u32,
    /// Index in [`JsonGame::extras`] (`NONE`: no comments, NAGs nor
    /// variations).
    extra: u32,
}

/// The comments, NAGs and variations of a move.
#[derive(Default)]
struct Extras {
    comments_before: Vec<String>,
    nags: Vec<u8>,
    comments: Vec<String>,
    /// Indices in [`JsonGame::lines`].
    variations: Vec<u32>,
}

/// A line of the record: its first and last items (`NONE` when empty).
#[derive(Clone, Copy)]
struct JsonLine {
    first: u32,
    last: u32,
}

/// One game's JSON record, flat: every item of every line (the main line
/// and each variation) in one vector, linked by index. Building, writing
/// and dropping it never recurse on the depth of the variations, and it
/// costs 16 bytes a move plus 8 a line (the moves' written forms are those
/// of the [`Moves`]).
///
/// [`write_json_game`] writes it as
/// `{"tags":{…},"comments":[…],"moves":[…],"result":…,"status":…,"plies":…,"language":…,"errors":…}`
/// (`comments` only when there are some), each move as
/// `{"comments_before":[…],"number":…,"side":…,"move":…,"uci":…,"nags":[…],"comments":[…],"variations":[[…],…]}`
/// (the lists only when not empty) and unconverted text as
/// `{"unconverted":…}`.
#[derive(Default)]
struct JsonGame {
    /// Tags in export order (the first tag of each name), as indices in
    /// [`Game::tags`].
    tags: Vec<usize>,
    comments: Vec<String>,
    nodes: Vec<Node>,
    extras: Vec<Extras>,
    texts: Vec<String>,
    lines: Vec<JsonLine>,
    /// The main line's index in `lines`.
    main: u32,
    result: &'static str,
    status: &'static str,
    plies: u32,
    language: &'static str,
    errors: usize,
}

/// What waits in a line being built for its next move: comments, and
/// variations that came before any move.
#[derive(Default)]
struct Waiting {
    before: Vec<String>,
    variations: Vec<u32>,
}

/// A line being built.
struct OpenLine {
    id: u32,
    waiting: Option<Box<Waiting>>,
}

impl OpenLine {
    fn has_before(&self) -> bool {
        self.waiting.as_ref().is_some_and(|w| !w.before.is_empty())
    }

    fn waiting(&mut self) -> &mut Waiting {
        self.waiting.get_or_insert_with(Box::default)
    }
}

impl JsonGame {
    /// A new empty line.
    fn open(&mut self) -> OpenLine {
        self.lines.push(JsonLine {
            first: NONE,
            last: NONE,
        });
        OpenLine {
            id: link(self.lines.len() - 1),
            waiting: None,
        }
    }

    /// The last item of line `id` if it is a move (or null move), to
    /// give it extras: a run of moves gives up its last move for that.
    fn last_move(&mut self, id: u32) -> Option<u32> {
        let last = self.lines.get(id as usize)?.last;
        let node = self.nodes.get_mut(last as usize)?;
        match node.kind {
            NodeKind::Unconverted => None,
            NodeKind::Run => {
                let end = node.extra;
                node.extra = end.saturating_sub(1);
                if node.extra <= node.value {
                    node.kind = NodeKind::Move;
                    node.extra = NONE;
                }
                Some(self.append(
                    id,
                    Node {
                        kind: NodeKind::Move,
                        value: end,
                        next: NONE,
                        extra: NONE,
                    },
                ))
            }
            NodeKind::NullRun { white } => {
                let count = node.extra;
                let (number, white_last) = place_after((node.value, white), count);
                node.extra = count.saturating_sub(1);
                if node.extra == 0 {
                    node.kind = NodeKind::Null { white };
                    node.extra = NONE;
                }
                Some(self.append(
                    id,
                    Node {
                        kind: NodeKind::Null { white: white_last },
                        value: number,
                        next: NONE,
                        extra: NONE,
                    },
                ))
            }
            NodeKind::Move | NodeKind::Null { .. } => Some(last),
        }
    }

    /// Extends the run of null moves that ends line `id` with a null move
    /// at (`number`, `white`) if it is the next place; whether it did.
    fn extend_null_run(&mut self, id: u32, number: u32, white: bool) -> bool {
        let Some(line) = self.lines.get(id as usize) else {
            return false;
        };
        let Some(node) = self.nodes.get_mut(line.last as usize) else {
            return false;
        };
        match node.kind {
            NodeKind::NullRun { white: first }
                if node.extra < NONE - 1
                    && place_after((node.value, first), node.extra.saturating_add(1))
                        == (number, white) =>
            {
                node.extra += 1;
                true
            }
            NodeKind::Null { white: first }
                if node.extra == NONE && place_after((node.value, first), 1) == (number, white) =>
            {
                node.kind = NodeKind::NullRun { white: first };
                node.extra = 1;
                true
            }
            _ => false,
        }
    }

    /// Extends the run of moves that ends line `id` with the move of slot
    /// `slot` if it is the next slot; whether it did.
    fn extend_run(&mut self, id: u32, slot: u32) -> bool {
        let Some(line) = self.lines.get(id as usize) else {
            return false;
        };
        let Some(node) = self.nodes.get_mut(line.last as usize) else {
            return false;
        };
        match node.kind {
            NodeKind::Run if node.extra.checked_add(1) == Some(slot) => {
                node.extra = slot;
                true
            }
            NodeKind::Move if node.extra == NONE && node.value.checked_add(1) == Some(slot) => {
                node.kind = NodeKind::Run;
                node.extra = slot;
                true
            }
            _ => false,
        }
    }

    /// The extras of node `k`, made when it has none.
    fn extras(&mut self, k: u32) -> Option<&mut Extras> {
        let node = self.nodes.get_mut(k as usize)?;
        if matches!(node.kind, NodeKind::Run | NodeKind::NullRun { .. }) {
            // `extra` is the run's length ([`JsonGame::last_move`] splits runs).
            return None;
        }
        if node.extra == NONE {
            node.extra = link(self.extras.len());
            self.extras.push(Extras::default());
        }
        self.extras.get_mut(node.extra as usize)
    }

    /// Appends an item to line `id`.
    fn append(&mut self, id: u32, node: Node) -> u32 {
        let k = link(self.nodes.len());
        self.nodes.push(node);
        if let Some(line) = self.lines.get_mut(id as usize) {
            match self.nodes.get_mut(line.last as usize) {
                Some(last) => last.next = k,
                None => line.first = k,
            }
            line.last = k;
        }
        k
    }

    /// Appends a move to `line`, with the comments and variations waiting.
    fn push_move(&mut self, line: &mut OpenLine, kind: NodeKind, value: u32) {
        if line.waiting.is_none() {
            let extended = match kind {
                NodeKind::Move => self.extend_run(line.id, value),
                NodeKind::Null { white } => self.extend_null_run(line.id, value, white),
                _ => false,
            };
            if extended {
                return;
            }
        }
        let k = self.append(
            line.id,
            Node {
                kind,
                value,
                next: NONE,
                extra: NONE,
            },
        );
        if let Some(w) = line.waiting.take()
            && let Some(e) = self.extras(k)
        {
            e.comments_before = w.before;
            e.variations = w.variations;
        }
    }

    /// Appends unconverted text to `line`.
    fn push_text(&mut self, line: &OpenLine, text: String) {
        let value = link(self.texts.len());
        self.texts.push(text);
        self.append(
            line.id,
            Node {
                kind: NodeKind::Unconverted,
                value,
                next: NONE,
                extra: NONE,
            },
        );
    }

    /// A NAG of the line's last move (dropped where there is none).
    fn nag(&mut self, line: &OpenLine, n: u8) {
        if let Some(k) = self.last_move(line.id)
            && let Some(e) = self.extras(k)
        {
            e.nags.push(n);
        }
    }

    /// A comment: the last move's, or waiting for the next one.
    fn comment(&mut self, line: &mut OpenLine, text: String) {
        if !line.has_before()
            && let Some(k) = self.last_move(line.id)
            && let Some(e) = self.extras(k)
        {
            e.comments.push(text);
        } else {
            line.waiting().before.push(text);
        }
    }

    /// Ends `line`: comments left at its end go to its last move (or, in a
    /// line without moves, to `leftover`). Variations still waiting are
    /// dropped. Gives the line's index.
    fn finish(&mut self, line: OpenLine, leftover: &mut Vec<String>) -> u32 {
        let before = line.waiting.map(|w| w.before).unwrap_or_default();
        if !before.is_empty() {
            match self.last_move(line.id) {
                Some(k) => {
                    if let Some(e) = self.extras(k) {
                        e.comments.extend(before);
                    }
                }
                None => leftover.extend(before),
            }
        }
        line.id
    }

    fn is_empty_line(&self, id: u32) -> bool {
        self.lines.get(id as usize).is_none_or(|l| l.first == NONE)
    }

    /// Appends the items of line `from` to line `to`.
    fn splice(&mut self, to: u32, from: u32) {
        let Some(&JsonLine { first, last }) = self.lines.get(from as usize) else {
            return;
        };
        if first == NONE {
            return;
        }
        let Some(line) = self.lines.get_mut(to as usize) else {
            return;
        };
        match self.nodes.get_mut(line.last as usize) {
            Some(tail) => tail.next = first,
            None => line.first = first,
        }
        line.last = last;
        if let Some(emptied) = self.lines.get_mut(from as usize) {
            *emptied = JsonLine {
                first: NONE,
                last: NONE,
            };
        }
    }
}

fn json_game(
    input: &[u8],
    game: &Game<'_>,
    source: &GameText<'_>,
    report: &GameReport,
    moves: &Moves,
    errors: usize,
) -> JsonGame {
    let mut order = Vec::new();
    export::tag_order(game, &mut order);
    let mut g = JsonGame::default();
    // The names taken (a set: a game may have very many tags). A name
    // decodes to one text, so two tags of one name have the same bytes.
    let mut seen: HashSet<&[u8]> = HashSet::with_capacity(order.len());
    g.tags = order
        .into_iter()
        .filter(|&i| game.tags.get(i).is_some_and(|t| seen.insert(t.name)))
        .collect();
    drop(seen);
    let main = g.open();
    let mut lines: Vec<OpenLine> = vec![main];
    let mut leftover: Vec<String> = Vec::new();
    // Computed at the first null move, for the whole game.
    let mut nulls: Option<NullPlaces> = None;
    let mut cursor = 0usize;
    let mut i = 0usize;
    while let Some(t) = game.tokens.get(i) {
        let depth = lines.len().saturating_sub(1);
        let Some(line) = lines.last_mut() else { break };
        match t.kind {
            TokenKind::Word => {
                let text = source.decode(t.text);
                if moves.get_next(i, &mut cursor).is_some() {
                    g.push_move(line, NodeKind::Move, link(cursor));
                    let (nag, draw) = export::attached_marks(t.text, &text);
                    if let Some(n) = nag {
                        g.nag(line, n);
                    }
                    if draw {
                        g.comment(line, "(=)".to_owned());
                    }
                } else if export::is_null_word(&text)
                    && let Some((number, white)) = nulls
                        .get_or_insert_with(|| NullPlaces::new(game, source, moves))
                        .get(i)
                {
                    g.push_move(line, NodeKind::Null { white }, number);
                } else {
                    match export::classify_word(&text) {
                        Word::Nag(n) => g.nag(line, n),
                        Word::DrawOffer => g.comment(line, "(=)".to_owned()),
                        Word::Mark => {}
                        Word::Dead => {
                            let end = export::line_end(game, i, depth);
                            let mut text = String::new();
                            export::verbatim_pieces(input, game, i, end, |p| {
                                if !text.is_empty() {
                                    text.push(' ');
                                }
                                match p {
                                    VerbatimPiece::Text(raw) => text.push_str(&source.decode(raw)),
                                    VerbatimPiece::Comment(c) => {
                                        text.push('{');
                                        text.push_str(&export::comment_text(&c, source));
                                        text.push('}');
                                    }
                                }
                            });
                            g.push_text(line, text);
                            i = end;
                            continue;
                        }
                    }
                }
            }
            TokenKind::Nag(n) => g.nag(line, n),
            TokenKind::Comment => {
                g.comment(line, export::comment_text(&t, source).into_owned());
            }
            TokenKind::OpenVariation if export::draw_offer_at(game, i) => {
                g.comment(line, "(=)".to_owned());
                i += 3;
                continue;
            }
            TokenKind::OpenVariation => {
                let child = g.open();
                lines.push(child);
            }
            TokenKind::CloseVariation => close_variation(&mut g, &mut lines, &mut leftover),
            // Read, never replayed: kept as the text it was.
            TokenKind::DeepVariation => g.push_text(line, source.decode(t.text).into_owned()),
            TokenKind::MoveNumber { .. } | TokenKind::Result(_) | TokenKind::Escape => {}
        }
        i += 1;
    }
    while lines.len() > 1 {
        close_variation(&mut g, &mut lines, &mut leftover);
    }
    let mut main = match lines.pop() {
        Some(line) => line,
        None => g.open(),
    };
    let variations = main
        .waiting
        .as_mut()
        .map(|w| std::mem::take(&mut w.variations))
        .unwrap_or_default();
    let main = g.finish(main, &mut leftover);
    // Variations after the last move (or in a game without moves).
    if !variations.is_empty() {
        if let Some(k) = g.last_move(main)
            && let Some(e) = g.extras(k)
        {
            e.variations.extend(variations);
        } else {
            for v in variations {
                g.splice(main, v);
            }
        }
    }
    g.main = main;
    g.comments = leftover;
    g.result = export::result_marker(game, source);
    g.status = report.status.as_str();
    g.plies = report.plies;
    g.language = report.language.code();
    g.errors = errors;
    g
}

/// Ends the innermost variation: it becomes a variation of its parent's
/// last move (or waits for the parent's next move).
fn close_variation(g: &mut JsonGame, lines: &mut Vec<OpenLine>, leftover: &mut Vec<String>) {
    if lines.len() < 2 {
        return;
    }
    let Some(line) = lines.pop() else { return };
    let mut lost = Vec::new();
    let id = g.finish(line, &mut lost);
    let Some(parent) = lines.last_mut() else {
        leftover.extend(lost);
        return;
    };
    // A variation with only comments: they stay comments of the parent.
    for c in lost {
        g.comment(parent, c);
    }
    if g.is_empty_line(id) {
        return;
    }
    if !parent.has_before()
        && let Some(k) = g.last_move(parent.id)
        && let Some(e) = g.extras(k)
    {
        e.variations.push(id);
    } else {
        parent.waiting().variations.push(id);
    }
}

/// Writes a JSON string.
fn json_str(out: &mut Vec<u8>, s: &str) -> io::Result<()> {
    serde_json::to_writer(&mut *out, s).map_err(io::Error::other)
}

/// Writes a JSON array of strings.
fn json_strs(out: &mut Vec<u8>, list: &[String]) -> io::Result<()> {
    serde_json::to_writer(&mut *out, list).map_err(io::Error::other)
}

/// Writes a number.
fn json_number(out: &mut Vec<u8>, n: impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, &n).map_err(io::Error::other)
}

/// Where [`write_json_game`] is in the tree of lines.
enum Frame {
    /// Writing a line: `node` is its next item (`NONE`: the line is done).
    Line { node: u32, first: bool },
    /// Writing the variations of the move whose extras are `extra`.
    Variations { extra: u32, next: u32 },
}

/// Writes one move (or null move) of `g` up to its variations, without the
/// closing `}`.
fn write_move_fields(
    out: &mut Vec<u8>,
    g: &JsonGame,
    moves: &Moves,
    kind: NodeKind,
    value: u32,
    extras: Option<&Extras>,
) -> io::Result<()> {
    let (number, white, text, uci) = match kind {
        NodeKind::Move | NodeKind::Run => match moves.at(value as usize) {
            Some(m) => (m.number, m.white, m.text, m.uci),
            None => (0, true, "", ""),
        },
        NodeKind::Null { white } | NodeKind::NullRun { white } => (value, white, NULL_MOVE, "0000"),
        NodeKind::Unconverted => {
            let text = g.texts.get(value as usize).map_or("", String::as_str);
            out.extend_from_slice(b"{\"unconverted\":");
            return json_str(out, text);
        }
    };
    out.push(b'{');
    if let Some(e) = extras.filter(|e| !e.comments_before.is_empty()) {
        out.extend_from_slice(b"\"comments_before\":");
        json_strs(out, &e.comments_before)?;
        out.push(b',');
    }
    out.extend_from_slice(b"\"number\":");
    json_number(out, number)?;
    out.extend_from_slice(if white {
        b",\"side\":\"white\",\"move\":"
    } else {
        b",\"side\":\"black\",\"move\":"
    });
    json_str(out, text)?;
    out.extend_from_slice(b",\"uci\":");
    json_str(out, uci)?;
    if let Some(e) = extras {
        if !e.nags.is_empty() {
            out.extend_from_slice(b",\"nags\":");
            json_number(out, &e.nags)?;
        }
        if !e.comments.is_empty() {
            out.extend_from_slice(b",\"comments\":");
            json_strs(out, &e.comments)?;
        }
    }
    Ok(())
}

/// Writes `g` as one JSON object (the shape [`JsonGame`] describes), with
/// an explicit stack: as deep as the variations go, no recursion.
fn write_json_game<W: Write + ?Sized>(
    w: &mut Flushing<'_, W>,
    game: &Game<'_>,
    source: &GameText<'_>,
    g: &JsonGame,
    moves: &Moves,
) -> io::Result<()> {
    w.buf.extend_from_slice(b"{\"tags\":{");
    for (k, tag) in g.tags.iter().filter_map(|&i| game.tags.get(i)).enumerate() {
        if k > 0 {
            w.buf.push(b',');
        }
        json_str(w.buf, &source.decode(tag.name))?;
        w.buf.push(b':');
        json_str(w.buf, &source.decode(&tag.value()))?;
        w.flush_full()?;
    }
    w.buf.push(b'}');
    if !g.comments.is_empty() {
        w.buf.extend_from_slice(b",\"comments\":");
        json_strs(w.buf, &g.comments)?;
    }
    w.buf.extend_from_slice(b",\"moves\":[");
    let first = g.lines.get(g.main as usize).map_or(NONE, |l| l.first);
    let mut stack = vec![Frame::Line {
        node: first,
        first: true,
    }];
    while let Some(frame) = stack.last_mut() {
        w.flush_full()?;
        match frame {
            Frame::Line { node, first } => {
                let Some(n) = g.nodes.get(*node as usize) else {
                    w.buf.push(b']');
                    stack.pop();
                    continue;
                };
                if !*first {
                    w.buf.push(b',');
                }
                *first = false;
                *node = n.next;
                match n.kind {
                    NodeKind::Run => {
                        for slot in n.value..=n.extra {
                            if slot > n.value {
                                w.buf.push(b',');
                            }
                            write_move_fields(w.buf, g, moves, NodeKind::Move, slot, None)?;
                            w.buf.push(b'}');
                            w.flush_full()?;
                        }
                        continue;
                    }
                    NodeKind::NullRun { white } => {
                        for k in 0..=n.extra {
                            if k > 0 {
                                w.buf.push(b',');
                            }
                            let (number, white) = place_after((n.value, white), k);
                            let kind = NodeKind::Null { white };
                            write_move_fields(w.buf, g, moves, kind, number, None)?;
                            w.buf.push(b'}');
                            w.flush_full()?;
                        }
                        continue;
                    }
                    _ => {}
                }
                let extras = g.extras.get(n.extra as usize);
                write_move_fields(w.buf, g, moves, n.kind, n.value, extras)?;
                match extras {
                    Some(e) if !e.variations.is_empty() && n.kind != NodeKind::Unconverted => {
                        w.buf.extend_from_slice(b",\"variations\":[");
                        stack.push(Frame::Variations {
                            extra: n.extra,
                            next: 0,
                        });
                    }
                    _ => w.buf.push(b'}'),
                }
            }
            Frame::Variations { extra, next } => {
                let Some(&line) = g
                    .extras
                    .get(*extra as usize)
                    .and_then(|e| e.variations.get(*next as usize))
                else {
                    w.buf.extend_from_slice(b"]}");
                    stack.pop();
                    continue;
                };
                if *next > 0 {
                    w.buf.push(b',');
                }
                *next += 1;
                w.buf.push(b'[');
                let first = g.lines.get(line as usize).map_or(NONE, |l| l.first);
                stack.push(Frame::Line {
                    node: first,
                    first: true,
                });
            }
        }
    }
    let out = &mut *w.buf;
    out.extend_from_slice(b",\"result\":");
    json_str(out, g.result)?;
    out.extend_from_slice(b",\"status\":");
    json_str(out, g.status)?;
    out.extend_from_slice(b",\"plies\":");
    json_number(out, g.plies)?;
    out.extend_from_slice(b",\"language\":");
    json_str(out, g.language)?;
    out.extend_from_slice(b",\"errors\":");
    json_number(out, g.errors)?;
    out.push(b'}');
    Ok(())
}
