//! The commands that document pgnkit: `pgnkit completions SHELL` and
//! `pgnkit man [COMMAND]`, shell completions (clap_complete) and man pages
//! (clap_mangen) written to standard output from the one definition of the
//! flags ([`crate::flags::Cli`]), so they never disagree with `--help`; and
//! `pgnkit rules [CODE]`, every diagnostic code or one explained.

use std::io::{self, IsTerminal, Write};

use anyhow::bail;
use clap::CommandFactory;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, roman};

use crate::exit::EXIT_OK;
use crate::flags::{Cli, CompletionsArgs, ManArgs, RulesArgs};

/// Runs `pgnkit rules`: every code, or one explained with its example.
pub fn rules(args: &RulesArgs) -> anyhow::Result<u8> {
    let stdout = io::stdout();
    let color = stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let mut out = stdout.lock();
    match args.code {
        Some(topic) => pgnkit_report::rules::write_topic(&mut out, topic, color)?,
        None => pgnkit_report::rules::write_list(&mut out)?,
    }
    out.flush()?;
    Ok(EXIT_OK)
}

/// Writes the completion script of `args.shell` to standard output.
///
/// # Errors
/// Those of writing.
pub fn completions(args: &CompletionsArgs) -> anyhow::Result<u8> {
    // Generated in memory: clap_complete panics when its writer fails (a
    // closed pipe), and pgnkit never panics on a write.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "pgnkit", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(EXIT_OK)
}

/// Writes the man page of `pgnkit` or of one of its commands (roff) to
/// standard output.
///
/// # Errors
/// An unknown command, and those of writing.
pub fn man(args: &ManArgs) -> anyhow::Result<u8> {
    let mut out = io::stdout().lock();
    page(args.command.as_deref(), &mut out)?;
    out.flush()?;
    Ok(EXIT_OK)
}

/// Writes the man page of `command` (none: `pgnkit` itself) to `out`: the
/// sections clap_mangen renders from the flags, and EXIT STATUS.
///
/// # Errors
/// An unknown command, and those of writing.
fn page(command: Option<&str>, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let cmd = match command {
        None => cli,
        Some(name) => match cli.find_subcommand(name) {
            Some(cmd) => cmd.clone(),
            None => {
                let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
                bail!("no command `{name}`; the commands: {}", names.join(" "));
            }
        },
    };
    let man = Man::new(cmd)
        .manual("pgnkit manual")
        .source(concat!("pgnkit ", env!("CARGO_PKG_VERSION")));
    man.render(out)?;
    let mut exit = Roff::default();
    exit.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in [
        ("0", "nothing wrong"),
        (
            "1",
            "problems found in the games (errors, or warnings under --strict)",
        ),
        (
            "2",
            "the command could not do its job (usage, an unreadable file or directory, \
             a directory without PGN files, an I/O error); the other inputs are still read",
        ),
    ] {
        exit.control("TP", []);
        exit.text([roman(code)]);
        exit.text([roman(meaning)]);
    }
    exit.control("SH", ["SEE ALSO"]);
    exit.text([roman(
        "docs/contract.md in pgnkit's repository: every command, JSON record, \
         diagnostic code and exit status",
    )]);
    exit.to_writer(out)?;
    Ok(())
}
