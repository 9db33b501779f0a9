//! `pgnkit show`: one position of one game in the terminal, the moves
//! written around it and the problems found there
//! ([`pgnkit_report::position`]).

use std::io::{self, IsTerminal, Write};

use anyhow::Context;

use pgnkit_board::Glyphs;
use pgnkit_pgn::{Game, Reader};
use pgnkit_replay::{Options, replay_game};
use pgnkit_report::position::{Scene, moves_around};
use pgnkit_report::render::{self, Suggestions};
use pgnkit_report::{Format, Locator};
use pgnkit_source::Input;

use crate::exit::EXIT_OK;
use crate::flags::{ColorWhen, ShowArgs};

/// Runs `pgnkit show`.
pub fn run(args: &ShowArgs) -> anyhow::Result<u8> {
    let stdout = io::stdout();
    let color = match args.color {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let input = Input::open(&args.file)?;
    let name = input.name.clone();
    let options = Options {
        language: args.lang.forced(),
        illegal_moves: args.illegal.given(),
        ..Options::default()
    };
    let wanted = args
        .game
        .checked_sub(1)
        .context("games are numbered from 1")?;
    let (mut games, mut lines) = (0u64, 0usize);
    for chunk in input.chunks(1 << 22) {
        let chunk = chunk?;
        let data: &[u8] = &chunk.data;
        let mut reader = Reader::with_range(data, chunk.range.clone());
        let mut game = Game::default();
        let mut locator = Locator::new(data, chunk.range.start, chunk.base, Format::Human);
        let mut index = 0u64;
        while reader.read_game(&mut game) {
            if game.is_comment_only() {
                continue;
            }
            if games.saturating_add(index) == wanted {
                let report = replay_game(data, &game, &options);
                let mut located = locator.locate(&game, &report, index, |_| true);
                for l in &mut located {
                    l.place(args.game, |n| n.saturating_add(lines).saturating_add(1));
                }
                let mut out = io::BufWriter::new(stdout.lock());
                show(&mut out, args, &name, &game, &report, &located, color)?;
                out.flush()?;
                return Ok(EXIT_OK);
            }
            locator.pass(game.span.end);
            index += 1;
        }
        games = games.saturating_add(index);
        lines = lines.saturating_add(locator.lines_to(chunk.range.end));
    }
    anyhow::bail!("{name} has {games} games: there is no game {}", args.game)
}

/// Prints the scene `args` ask for.
fn show(
    out: &mut dyn Write,
    args: &ShowArgs,
    file: &str,
    game: &Game<'_>,
    report: &pgnkit_replay::GameReport,
    located: &[pgnkit_report::Located],
    color: bool,
) -> anyhow::Result<()> {
    let end = u32::try_from(report.moves.len())
        .unwrap_or(u32::MAX)
        .saturating_add(1);
    let scene = match args.ply {
        Some(ply) => {
            let mut scene = Scene::before(report, ply).with_context(|| {
                format!(
                    "game {} of {file} was replayed to ply {}: --ply goes from 1 to {end}",
                    args.game,
                    end - 1
                )
            })?;
            if let Some(l) = located.iter().find(|l| {
                let d = &l.diagnostic;
                d.ply == Some(ply) && !d.variation && !d.stood
            }) {
                scene =
                    Scene::of_problem(report, &l.diagnostic, Suggestions::Best).unwrap_or(scene);
            }
            scene
        }
        None => Scene::of_game(report, Suggestions::Best).0,
    };
    // The problems of the move about to be played, or of a move that stood
    // just before (its board is the one after it).
    let here: Vec<&pgnkit_report::Located> = located
        .iter()
        .filter(|l| {
            let d = &l.diagnostic;
            let ply = d.ply.map(|p| if d.stood { p.saturating_add(1) } else { p });
            ply == Some(scene.ply) && !d.variation
        })
        .collect();
    let name = pgnkit_report::game_name(game, report).unwrap_or_else(|| "? - ?".to_owned());
    writeln!(out, "{file}, game {}: {name}", args.game)?;
    writeln!(out, "{}\n", scene.caption())?;
    let glyphs = if args.ascii {
        Glyphs::Ascii
    } else {
        Glyphs::Unicode
    };
    out.write_all(scene.text(glyphs, color).as_bytes())?;
    let token = here.first().and_then(|l| l.diagnostic.token.as_deref());
    writeln!(
        out,
        "\nmoves: {}",
        moves_around(game, report, scene.ply, 6, token)
    )?;
    if !report.clocks.clk().is_empty() {
        // The clocks as they stand at the position shown (after the ply
        // before it), each the last written after one of that player's moves.
        let first = pgnkit_replay::clock::Start::of(&report.start).first;
        let [white, black] = report.clocks.both_at(scene.ply.saturating_sub(1), first);
        let shown = |t: Option<pgnkit_replay::clock::Time>| {
            t.map_or_else(|| "not yet written".to_owned(), |t| t.to_string())
        };
        writeln!(
            out,
            "clocks: White {}, Black {}",
            shown(white),
            shown(black)
        )?;
    }
    if here.is_empty() {
        writeln!(out, "no problem at ply {}", scene.ply)?;
    }
    for l in here {
        writeln!(out)?;
        render::diagnostic(out, Format::Human, color, Suggestions::Best, file, l)?;
    }
    if let Some(path) = &args.svg {
        let mut f = pgnkit_driver::output::OutputFile::create(path)?;
        f.write_all(scene.svg().as_bytes())?;
        f.commit()?;
    }
    Ok(())
}
