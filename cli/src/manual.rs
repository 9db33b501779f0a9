//! `pgnkit completions SHELL` and `pgnkit man [COMMAND]`: shell completions
//! (clap_complete) and man pages (clap_mangen), both written to standard
//! output from the one definition of the flags ([`crate::args::Cli`]), so
//! they never disagree with `--help`.

use std::io::{self, Write};

use anyhow::bail;
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, roman};

use crate::EXIT_OK;
use crate::args::Cli;

/// `pgnkit completions`.
#[derive(Args, Debug, Clone)]
pub struct CompletionsArgs {
    /// The shell to complete in. Install, e.g.: bash: `pgnkit completions
    /// bash > ~/.local/share/bash-completion/completions/pgnkit`; zsh:
    /// `pgnkit completions zsh > ~/.zfunc/_pgnkit` (with `fpath+=~/.zfunc`);
    /// fish: `pgnkit completions fish > ~/.config/fish/completions/pgnkit.fish`;
    /// PowerShell: `pgnkit completions powershell >> $PROFILE`.
    #[arg(value_enum, value_name = "SHELL")]
    pub shell: Shell,
}

/// `pgnkit man`.
#[derive(Args, Debug, Clone)]
pub struct ManArgs {
    /// The command whose page to write (`check` gives `pgnkit-check(1)`);
    /// none: `pgnkit(1)`. Read it with `pgnkit man | man -l -`, or install
    /// it: `pgnkit man > ~/.local/share/man/man1/pgnkit.1`.
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
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
pub fn page(command: Option<&str>, out: &mut dyn Write) -> anyhow::Result<()> {
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
