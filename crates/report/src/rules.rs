//! `pgnkit rules`: every diagnostic code with its severity and what it
//! means, and for one code a paragraph and a worked example, replayed as
//! the example is shown (so the example cannot go stale: what is printed
//! under it is what `check` says of it).

use std::io::{self, Write};

use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Code, Options, replay_game};

use crate::locate::Locator;
use crate::{Format, render};

/// A paragraph on `code`: when it is raised, what it means for the game,
/// what to do about it.
pub fn explanation(code: Code) -> &'static str {
    match code {
        Code::UnparsableMove => {
            "A word in the movetext is no move in any notation pgnkit reads (SAN, long algebraic, UCI, figurines, the piece letters of every language it knows, Russian scoresheet style) and no annotation it knows. The line is not replayed past it. pgnkit suggests what was probably meant (a look-alike letter, a stray character, a word to strike out) in the writer's own notation."
        }
        Code::IllegalMove => {
            "The move is written correctly but no piece of the side to move can make it in the position the game has reached (Law 3). Usually a slip of the pen: a wrong file or rank, a wrong piece letter, or a move left out earlier. The line is not replayed past it; pgnkit suggests the moves that were probably meant and says which of them replay the rest of the game."
        }
        Code::AmbiguousMove => {
            "Two or more pieces of the kind named can make the move, and the move does not say which (SAN wants the file or rank of the piece that moves). The moves that fit are listed; a scoresheet writer who left out the disambiguation usually meant the one that replays the rest of the game."
        }
        Code::MissingMove => {
            "The game reads as if a ply was left out: the move numbers or the moves that follow fit only with one more move in between. pgnkit names the move that was probably left out and where it goes."
        }
        Code::MovesAfterEnd => {
            "Moves follow a checkmate or a stalemate, which end the game at once (Laws 5.1.1 and 5.2.1): whatever is written after them was not played under the Laws, or an earlier move is wrong. (Moves after a dead position are `moves-after-draw`; see `pgnkit rules dead-position`.)"
        }
        Code::ResultMismatch => {
            "The Result tag contradicts the final position: a checkmate, stalemate or dead position gives one result and the tag says another. `check --fix` sets the tag to the result the Laws give, with a comment saying why."
        }
        Code::BadFen => {
            "The FEN tag (with SetUp \"1\") is not a valid FEN or describes a position that cannot occur (no king, pawns on the first rank, the side not to move in check). The game's moves cannot be replayed without its start. A position with more material than promotions can give (nine queens, three light-squared bishops beside eight pawns) cannot occur in a game either, but composed positions (studies, test sets) have them: it is set up all the same, its moves replayed, and the FEN gets a warning."
        }
        Code::Syntax => {
            "The PGN structure is broken: an unterminated comment, tag or variation, a stray bracket, a tag section without moves or result, a tag given twice. Problems that lose nothing (a repeated tag) are warnings; the others are errors, since a reader may lose moves or merge games there."
        }
        Code::CheckMark => {
            "A check or mate mark is missing or wrong: `+` on a move that gives no check, no `+` on one that does, `+` instead of `#` on a mate. The move itself is fine; PGN export format wants the marks right, and so do readers that search for mates. A warning (`--strict` or `--error check-mark` makes it fail)."
        }
        Code::MoveNumber => {
            "A move number does not match the ply it stands before (a numbering slip, a number repeated or skipped). The moves themselves are read as written; a warning."
        }
        Code::Encoding => {
            "The game is not valid UTF-8 (PGN's encoding) and was read as Latin-1 (Windows-1252), as older databases were written. Names with accents are right only if that guess is; `convert` writes UTF-8."
        }
        Code::MovesAfterDraw => {
            "The game went on after the rules drew it automatically: the same position for the fifth time or 75 moves without a capture or pawn move (Law 9.6), or a dead position (Law 5.2.2). Games played before these Laws, or under other rules, went on legally; a warning."
        }
        Code::NullMove => {
            "A null move (`--`, `Z0`) stands in the main line of the game: normal in analysis variations, no move of chess in the game itself. A warning (an error under `--strict`)."
        }
        Code::EcoMismatch => {
            "The ECO tag names another code than the opening the game's moves reach: the last named position of the lichess opening table (3,807 positions, matched by position, so transpositions count) on the main line. Raised by `convert --add-opening`, which keeps the tag as it is unless `--replace-eco`; a warning. Usually the tag was guessed from the first moves, or copied from another game."
        }
        Code::UnsupportedVariant => {
            "The Variant tag names a game pgnkit does not replay (crazyhouse, atomic, …): the game is counted, its moves are not checked. Chess960 (Fischer random) is replayed."
        }
        Code::TimeControl => {
            "The TimeControl tag is none of the forms of the PGN standard (9.6.1): `40/7200` (moves in seconds), `300` (seconds to the end), `300+2` (seconds and an increment after each move), periods joined by `:` (`40/5400+30:1800+30`), `*180` (a sandclock), `?` (unknown) or `-` (no clock). Seconds may have a fraction, as engine tournaments write them (`10.931+0.109`). The game's clocks are then not checked against a control; a warning."
        }
        Code::ClockUnreadable => {
            "A clock command in a comment, `[%clk …]` (the time left after the move) or `[%emt …]` (the time the move took), has no time pgnkit can read: clocks write `h:mm:ss`, with a fraction of a second if any (`0:02:58.9`), under 24 hours, minutes and seconds up to 59. The move is left without that clock; a warning."
        }
        Code::ClockMissing => {
            "A move of the main line has no `[%clk …]` after it while the game's other moves have one: a clock the recorder lost, or a comment that replaced it. The times used around it cannot be told apart; a warning."
        }
        Code::ClockRise => {
            "A player's clock after a move shows more than their clock after their previous move plus what the time control adds in between: the increment of each move, and the time of the next period at the move that completes a period (Law 6.2). A clock set wrong, a time copied to the wrong move, or clocks of the two players swapped."
        }
        Code::ClockStart => {
            "A player's first clock shows more than the time control starts with, plus what it adds by that move (the increment of the first move): the TimeControl tag is not the control the game was played under, or the clock was set wrong."
        }
        Code::ClockFlag => {
            "Under a control with an increment, the clock after a move shows less than the increment: the player's time ran out before the move was completed, so the flag fell (Law 6.1) and the game ended there. Under Law 6.9 the player loses, unless the opponent cannot checkmate by any series of legal moves from that position, when it is drawn; the status is `flag-fell` and a Result tag that says otherwise is a `result-mismatch` error. A warning: in rapid and blitz a flag counts only when claimed, and play may go on."
        }
        Code::ClockZero => {
            "A clock shows 0:00:00 after a move under a control without increment: the flag may have fallen, or the clock shows only whole seconds and the player had a fraction left. Nothing is decided from it; a warning."
        }
        Code::ClockPeriod => {
            "A move completes a period of a control of several (`40/7200:3600`: the fortieth move), and neither the clock after it nor the player's next clock shows the time of the next period, which Law 6.2 adds then. The clocks count down to a control that was not kept: a recorder that does not add the period's time, or a TimeControl tag that is not the game's."
        }
        Code::RepeatedMove => {
            "With `--illegal-moves stand` (board-fed broadcasts): a main-line word that is the move just played written again, where it cannot be played. A DGT board sends a move each time a piece lands; a move taken back and played again reaches the broadcast twice. The second copy is passed over and the game goes on; a warning."
        }
        Code::ResultSignal => {
            "With `--illegal-moves stand` (board-fed broadcasts): in the last two words of the main line, a king put on a centre square (d4, e4, d5, e5) where no move takes it. Arbiters signal a game's result to a DGT board by putting both kings on the four centre squares; the broadcast records the signal as moves. They are passed over: the game ended before them; a warning."
        }
        Code::ResentGame => {
            "With `--illegal-moves stand` (board-fed broadcasts): the game before has the same Event, Site, Date, Round, White and Black, and its moves are the start of this game's, up to four plies shorter. A broadcast sends a game again as it goes on; a file that collects the copies holds the same game twice. Keep the last copy; `pgnkit dedup` finds such copies across files. The game before is looked for in the same part of the file as the game (a file is read in parts of several megabytes, in parallel). A warning."
        }
    }
}

/// A short game that raises `code` (a complete PGN game, bytes: the
/// `encoding` example is not UTF-8).
pub fn example(code: Code) -> &'static [u8] {
    match code {
        Code::UnparsableMove => b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Xf6 *\n",
        Code::IllegalMove => b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bb4 Nf6 *\n",
        Code::AmbiguousMove => b"1. Nf3 Nf6 2. d3 d6 3. Nd2 e5 *\n",
        Code::MissingMove => b"1. e4 e5 2. Nf3 Nc6 3. Bb5 4. Ba4 Nf6 *\n",
        Code::MovesAfterEnd => b"1. f3 e5 2. g4 Qh4# 3. a3 0-1\n",
        Code::ResultMismatch => b"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n",
        Code::BadFen => b"[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n",
        Code::Syntax => b"1. e4 e5 2. Nf3 { a comment never closed 2... Nc6 *\n",
        Code::CheckMark => b"1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7 1-0\n",
        Code::MoveNumber => b"1. e4 e5 3. Nf3 Nc6 *\n",
        Code::Encoding => b"[White \"M\xfcller\"]\n\n1. e4 e5 *\n",
        Code::MovesAfterDraw => {
            b"1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4 *\n"
        }
        Code::NullMove => b"1. e4 e5 2. -- Nc6 *\n",
        Code::UnsupportedVariant => b"[Variant \"atomic\"]\n\n1. e4 e5 *\n",
        Code::EcoMismatch => b"[ECO \"C20\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 *\n",
        Code::TimeControl => b"[TimeControl \"3 min\"]\n\n1. e4 e5 *\n",
        Code::ClockUnreadable => b"1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:xx] } *\n",
        Code::ClockMissing => {
            b"1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:00] } 2. Nf3 Nc6 { [%clk 0:02:55] } *\n"
        }
        Code::ClockRise => {
            b"[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:00] } 2. Nf3 { [%clk 0:03:10] } Nc6 { [%clk 0:02:58] } *\n"
        }
        Code::ClockStart => {
            b"[TimeControl \"180+2\"]\n\n1. e4 { [%clk 0:05:00] } e5 { [%clk 0:03:00] } *\n"
        }
        Code::ClockFlag => {
            b"[TimeControl \"180+2\"]\n[Result \"0-1\"]\n\n1. e4 { [%clk 0:03:00] } e5 { [%clk 0:03:01] } 2. Nf3 { [%clk 0:02:40] } Nc6 { [%clk 0:00:01] } 0-1\n"
        }
        Code::ClockZero => {
            b"[TimeControl \"60\"]\n\n1. e4 { [%clk 0:01:00] } e5 { [%clk 0:01:00] } 2. Nf3 { [%clk 0:00:00] } *\n"
        }
        Code::ClockPeriod => {
            b"[TimeControl \"2/60:60\"]\n\n1. e4 { [%clk 0:00:59] } e5 { [%clk 0:00:59] } 2. Nf3 { [%clk 0:00:50] } Nc6 { [%clk 0:01:50] } 3. Bc4 { [%clk 0:00:40] } *\n"
        }
        Code::RepeatedMove => b"1. e4 e5 2. Nf3 Nf3 Nc6 3. Bb5 a6 *\n",
        Code::ResultSignal => b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ke4 Kd5 1/2-1/2\n",
        Code::ResentGame => {
            b"[Round \"4.2\"]\n[White \"Lindqvist\"]\n[Black \"Moreau\"]\n\n1. e4 c5 2. Nf3 *\n\n[Round \"4.2\"]\n[White \"Lindqvist\"]\n[Black \"Moreau\"]\n\n1. e4 c5 2. Nf3 d6 *\n"
        }
    }
}

/// What `pgnkit rules` explains: a diagnostic code, or a rule of chess that
/// decides a game's status without a diagnostic of its own.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Topic {
    /// A diagnostic code.
    Code(Code),
    /// Dead positions (Law 5.2.2) and the loss on time against a player
    /// who cannot checkmate (Law 6.9): the `dead-position` status.
    DeadPosition,
}

impl Topic {
    /// The topic named `name`: a code (`illegal-move`) or a rule
    /// (`dead-position`).
    pub fn from_name(name: &str) -> Option<Topic> {
        match name {
            "dead-position" => Some(Topic::DeadPosition),
            _ => Code::from_name(name).map(Topic::Code),
        }
    }

    /// The names of the topics that are no code.
    pub const RULES: [&str; 1] = ["dead-position"];
}

/// The paragraph on dead positions.
const DEAD_POSITION: &str = "A position is dead when neither player can checkmate the other by any series of legal moves: the game ends there, drawn (Law 5.2.2), and moves after it are reported as `moves-after-draw`. A player who runs out of time still draws if the opponent cannot checkmate by any series of legal moves (Law 6.9): a game lost on time (`Termination` tag) in such a position is drawn, and a Result tag giving the win is a `result-mismatch`. Beyond insufficient material, pgnkit proves positions dead the way the Chess Unwinnability Analyzer does: where each piece could ever go behind locked pawns (no king crosses the wall, each bishop is confined to its own pawns' colour and never attacks an enemy pawn; a king that can only step between two squares, with nothing else of its side able to move, keeps the other king away, since stepping next to it stalemates it), then, where that does not settle it, a search of the positions that can follow. A position is called dead only with a proof; one the search cannot settle in its budget is counted as `dead_undecided` in the summary. Every position of a game after a capture or a pawn move is looked at; a game of no moves from a set-up position gets the full analysis.";

/// The example of a dead position: a locked wall, each bishop on its own
/// pawns' colour, a Result tag that gives a win.
const DEAD_POSITION_EXAMPLE: &[u8] = b"[SetUp \"1\"]\n[FEN \"2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1\"]\n[Result \"1-0\"]\n\n1-0\n";

/// Writes `topic` explained: a code as [`write_rule`] does, or a rule
/// with its paragraph, its example and what `check` says of it.
///
/// # Errors
/// Those of writing.
pub fn write_topic(out: &mut dyn Write, topic: Topic, color: bool) -> io::Result<()> {
    let Topic::DeadPosition = topic else {
        let Topic::Code(code) = topic else {
            return Ok(());
        };
        return write_rule(out, code, color);
    };
    writeln!(out, "dead-position (a status: Laws 5.2.2 and 6.9)\n")?;
    writeln!(out, "{}\n", wrap(DEAD_POSITION, 78))?;
    write_example(
        out,
        DEAD_POSITION_EXAMPLE,
        Code::ResultMismatch,
        true,
        color,
    )
}

/// Writes the example game `pgn`, indented, and what `check` says of it:
/// its status where `status`, and its diagnostics with `code`.
fn write_example(
    out: &mut dyn Write,
    pgn: &[u8],
    code: Code,
    status: bool,
    color: bool,
) -> io::Result<()> {
    writeln!(out, "Example:\n")?;
    for line in String::from_utf8_lossy(pgn).lines() {
        writeln!(out, "    {line}")?;
    }
    writeln!(out)?;
    let mut game = Game::default();
    if status && Reader::new(pgn).read_game(&mut game) {
        let report = replay_game(pgn, &game, &Options::default());
        writeln!(out, "status: {}\n", report.status.as_str())?;
    }
    for l in diagnostics_of(pgn, code) {
        render::diagnostic(
            out,
            Format::Human,
            color,
            render::Suggestions::Best,
            "example.pgn",
            &l,
        )?;
    }
    Ok(())
}

/// Writes the table of every code: name, severity, one sentence.
///
/// # Errors
/// Those of writing.
pub fn write_list(out: &mut dyn Write) -> io::Result<()> {
    let width = Code::ALL
        .iter()
        .map(|c| c.as_str().len())
        .max()
        .unwrap_or(0);
    for code in Code::ALL {
        writeln!(
            out,
            "{:width$}  {:7}  {}",
            code.as_str(),
            code.severity().as_str(),
            code.summary()
        )?;
    }
    writeln!(
        out,
        "\n`pgnkit rules CODE` explains one, with an example; `check --select`, `--ignore`, `--warn` and `--error` choose them. `pgnkit rules dead-position` explains dead positions (Laws 5.2.2 and 6.9)."
    )
}

/// Writes `code` explained: its name and severity, the paragraph, the
/// example and what `check` says of it (human output, colours if `color`).
///
/// # Errors
/// Those of writing.
pub fn write_rule(out: &mut dyn Write, code: Code, color: bool) -> io::Result<()> {
    writeln!(
        out,
        "{} ({} by default)\n",
        code.as_str(),
        code.severity().as_str()
    )?;
    writeln!(out, "{}\n", wrap(explanation(code), 78))?;
    write_example(out, example(code), code, false, color)
}

/// The diagnostics with `code` that `check` finds in the game `pgn` (and,
/// for `eco-mismatch`, that `convert --add-opening` finds).
pub fn diagnostics_of(pgn: &[u8], code: Code) -> Vec<render::Located> {
    let mut game = Game::default();
    let mut reader = Reader::new(pgn);
    let mut found = Vec::new();
    let mut index = 0;
    let mut locator = Locator::new(pgn, 0, 0, Format::Human);
    let mut resent = pgnkit_replay::broadcast::Resent::default();
    while reader.read_game(&mut game) {
        // The broadcasts' codes are told with illegal moves that stand.
        let options = Options {
            illegal_moves: if matches!(
                code,
                Code::RepeatedMove | Code::ResultSignal | Code::ResentGame
            ) {
                pgnkit_replay::IllegalMoves::Stand
            } else {
                pgnkit_replay::IllegalMoves::Stop
            },
            ..Options::default()
        };
        let mut report = replay_game(pgn, &game, &options);
        if code == Code::ResentGame
            && let Some(d) = resent.see(&game, report.moves.iter().map(|m| m.played))
        {
            report.diagnostics.push(d);
        }
        if code == Code::EcoMismatch
            && let Some(d) = pgnkit_opening::classify(&game, &report)
                .and_then(|o| pgnkit_opening::eco_mismatch(&game, &o))
        {
            report.diagnostics.push(d);
        }
        for mut l in locator.locate(&game, &report, index, |d| d.code == code) {
            l.place(index + 1, |n| n + 1);
            found.push(l);
        }
        index += 1;
    }
    found
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        let n = word.chars().count();
        if line > 0 && line + 1 + n > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_raises_its_code() {
        for code in Code::ALL {
            let found = diagnostics_of(example(code), code);
            assert!(!found.is_empty(), "the example of {code} does not raise it");
            let mut out = Vec::new();
            write_rule(&mut out, code, false).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.contains(&format!("[{code}]")), "{text}");
        }
    }

    #[test]
    fn dead_position_is_explained_with_the_wall() {
        let mut out = Vec::new();
        write_topic(&mut out, Topic::DeadPosition, false).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3"),
            "{text}"
        );
        assert!(text.contains("status: dead-position"), "{text}");
        assert!(text.contains("[result-mismatch]"), "{text}");
        assert_eq!(Topic::from_name("dead-position"), Some(Topic::DeadPosition));
        assert_eq!(
            Topic::from_name("illegal-move"),
            Some(Topic::Code(Code::IllegalMove))
        );
    }

    #[test]
    fn the_list_names_every_code_once() {
        let mut out = Vec::new();
        write_list(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for code in Code::ALL {
            let row = format!("{}  ", code.as_str());
            assert_eq!(
                text.lines().filter(|l| l.starts_with(&row)).count(),
                1,
                "{code}"
            );
        }
    }
}
