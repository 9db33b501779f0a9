//! `pgnkit-config`: the settings file `pgnkit.toml`.
//!
//! A project keeps its choices for `pgnkit check` in `pgnkit.toml`, found
//! from the current directory upwards (or named with `--config`): which
//! diagnostic codes are reported and at which severity, per path too, and
//! the defaults of `check`'s flags. Flags given on the command line win
//! over the file.
//!
//! ```toml
//! # pgnkit.toml
//! ignore = ["encoding"]            # codes not reported
//! warn = ["syntax"]                # reported as warnings
//! error = ["check-mark"]           # reported as errors
//! # select = ["illegal-move"]      # only these codes
//! input-lang = "auto"              # or a language: "de", "ru", …
//! strict = false                   # warnings fail too
//! format = "human"                 # human, json, github, sarif, junit, gitlab
//! max-annotations = 50
//! baseline = "pgnkit-baseline.json"
//! illegal-moves = "stop"           # or "stand": illegal moves that stood
//!
//! [[overrides]]
//! paths = ["archive/**"]           # globs, relative to this file's folder
//! ignore = ["check-mark", "move-number"]
//! ```
//!
//! An unknown key, a code that does not exist or a value of the wrong kind
//! is an error naming the file, the line and the key.
//!
//! ```
//! use pgnkit_config::Config;
//! use pgnkit_replay::Code;
//!
//! let config = Config::parse(
//!     "ignore = [\"check-mark\"]\n[[overrides]]\npaths = [\"old/**\"]\nignore = [\"syntax\"]\n",
//!     "pgnkit.toml".as_ref(),
//! )
//! .unwrap();
//! let here = config.selection_for("games/a.pgn".as_ref(), &Default::default());
//! assert!(!here.reports(Code::CheckMark) && here.reports(Code::Syntax));
//! let old = config.selection_for("old/1990.pgn".as_ref(), &Default::default());
//! assert!(!old.reports(Code::Syntax));
//! assert!(Config::parse("ignor = []", "pgnkit.toml".as_ref()).is_err());
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use pgnkit_notation::Language;
use pgnkit_replay::{Code, IllegalMoves, Selection, Severity};
use serde::Deserialize;
use serde::de::{self, Deserializer};

/// The name of the settings file.
pub const FILE_NAME: &str = "pgnkit.toml";

/// The names `format` takes: those of `check --format`'s report formats
/// (`pgnkit_report::printer::ReportFormat::from_name` reads them). The
/// file stores the format by name, so that the settings know nothing of
/// the printers.
pub const FORMATS: [&str; 6] = ["human", "json", "github", "sarif", "junit", "gitlab"];

/// A diagnostic code named in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeName(pub Code);

impl<'de> Deserialize<'de> for CodeName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CodeName, D::Error> {
        let s = String::deserialize(d)?;
        Code::from_name(&s).map(CodeName).ok_or_else(|| {
            let names: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
            de::Error::custom(format!(
                "unknown code `{s}`; the codes are: {}",
                names.join(", ")
            ))
        })
    }
}

/// Which codes are reported and how: the four lists of a selection.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// Only these codes (`--select`).
    pub select: Option<Vec<CodeName>>,
    /// Not these (`--ignore`).
    pub ignore: Option<Vec<CodeName>>,
    /// These as warnings (`--warn`).
    pub warn: Option<Vec<CodeName>>,
    /// These as errors (`--error`).
    pub error: Option<Vec<CodeName>>,
}

impl Rules {
    /// Rules from the four flags (an empty list: the flag was not given).
    pub fn from_flags(select: &[Code], ignore: &[Code], warn: &[Code], error: &[Code]) -> Rules {
        let list = |codes: &[Code]| {
            (!codes.is_empty()).then(|| codes.iter().copied().map(CodeName).collect())
        };
        Rules {
            select: list(select),
            ignore: list(ignore),
            warn: list(warn),
            error: list(error),
        }
    }

    /// Applies the rules to `s`: `select` first, then `warn` and `error`
    /// (which turn a code on), then `ignore` (an ignored code is off
    /// whatever else says).
    pub fn apply(&self, s: &mut Selection) {
        let codes =
            |l: &Option<Vec<CodeName>>| -> Vec<Code> { l.iter().flatten().map(|c| c.0).collect() };
        if let Some(select) = &self.select {
            let select: Vec<Code> = select.iter().map(|c| c.0).collect();
            s.select_only(&select);
        }
        for c in codes(&self.warn) {
            s.set_severity(c, Severity::Warning);
        }
        for c in codes(&self.error) {
            s.set_severity(c, Severity::Error);
        }
        for c in codes(&self.ignore) {
            s.ignore(c);
        }
    }

    /// The selection these rules make of the default one.
    pub fn selection(&self) -> Selection {
        let mut s = Selection::default();
        self.apply(&mut s);
        s
    }
}

/// The file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct File {
    select: Option<Vec<CodeName>>,
    ignore: Option<Vec<CodeName>>,
    warn: Option<Vec<CodeName>>,
    error: Option<Vec<CodeName>>,
    input_lang: Option<LanguageName>,
    strict: Option<bool>,
    format: Option<FormatName>,
    max_annotations: Option<u64>,
    baseline: Option<PathBuf>,
    illegal_moves: Option<IllegalMovesName>,
    #[serde(default)]
    overrides: Vec<FileOverride>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileOverride {
    paths: Vec<String>,
    select: Option<Vec<CodeName>>,
    ignore: Option<Vec<CodeName>>,
    warn: Option<Vec<CodeName>>,
    error: Option<Vec<CodeName>>,
}

#[derive(Debug)]
struct LanguageName(Option<Language>);

impl<'de> Deserialize<'de> for LanguageName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<LanguageName, D::Error> {
        let s = String::deserialize(d)?;
        Language::parse_or_auto(&s)
            .map(LanguageName)
            .map_err(|e| de::Error::custom(e.to_string()))
    }
}

#[derive(Debug)]
struct IllegalMovesName(IllegalMoves);

impl<'de> Deserialize<'de> for IllegalMovesName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<IllegalMovesName, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map(IllegalMovesName)
            .map_err(|e: String| de::Error::custom(e))
    }
}

#[derive(Debug)]
struct FormatName(&'static str);

impl<'de> Deserialize<'de> for FormatName {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FormatName, D::Error> {
        let s = String::deserialize(d)?;
        FORMATS
            .into_iter()
            .find(|name| *name == s)
            .map(FormatName)
            .ok_or_else(|| {
                de::Error::custom(format!(
                    "unknown format `{s}`; the formats are: {}",
                    FORMATS.join(", ")
                ))
            })
    }
}

/// Rules for the paths that match some globs.
#[derive(Debug)]
pub struct Override {
    /// The globs as written.
    pub paths: Vec<String>,
    matcher: GlobSet,
    /// The rules there (each list given replaces the file's).
    pub rules: Rules,
}

/// The settings of a `pgnkit.toml`.
#[derive(Debug, Default)]
pub struct Config {
    /// Where the file is (`None`: no file, the defaults).
    pub path: Option<PathBuf>,
    /// The rules for every path.
    pub rules: Rules,
    /// `--input-lang`: `Some(None)` is `auto`.
    pub input_lang: Option<Option<Language>>,
    /// `--strict`.
    pub strict: Option<bool>,
    /// `--format`, by name: one of [`FORMATS`].
    pub format: Option<&'static str>,
    /// `--max-annotations`.
    pub max_annotations: Option<u64>,
    /// `--baseline`, relative to the file's folder.
    pub baseline: Option<PathBuf>,
    /// `--illegal-moves`: `stop` or `stand`.
    pub illegal_moves: Option<IllegalMoves>,
    /// Per-path rules, in the file's order (a later match wins).
    pub overrides: Vec<Override>,
}

/// Why a settings file cannot be used.
#[derive(Debug)]
pub struct ConfigError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong, with the line, the column and the key.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Parses the text of the settings file at `path`.
    ///
    /// # Errors
    /// An unknown key, an unknown code, format or language, a value of the
    /// wrong kind, a bad glob: the message names the line and the key.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let error = |message: String| ConfigError {
            path: path.to_owned(),
            message,
        };
        let file: File = toml::from_str(text).map_err(|e| {
            let place = e.span().map(|span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                format!("line {line}, column {column}: ")
            });
            error(format!(
                "{}{}",
                place.unwrap_or_default(),
                e.message().trim_end()
            ))
        })?;
        let mut overrides = Vec::new();
        for o in file.overrides {
            let mut builder = GlobSetBuilder::new();
            for p in &o.paths {
                let glob = Glob::new(p)
                    .map_err(|e| error(format!("overrides: paths: `{p}` is not a glob: {e}")))?;
                builder.add(glob);
            }
            let matcher = builder
                .build()
                .map_err(|e| error(format!("overrides: paths: {e}")))?;
            overrides.push(Override {
                paths: o.paths,
                matcher,
                rules: Rules {
                    select: o.select,
                    ignore: o.ignore,
                    warn: o.warn,
                    error: o.error,
                },
            });
        }
        Ok(Config {
            path: Some(path.to_owned()),
            rules: Rules {
                select: file.select,
                ignore: file.ignore,
                warn: file.warn,
                error: file.error,
            },
            input_lang: file.input_lang.map(|l| l.0),
            illegal_moves: file.illegal_moves.map(|i| i.0),
            strict: file.strict,
            format: file.format.map(|f| f.0),
            max_annotations: file.max_annotations,
            baseline: file.baseline,
            overrides,
        })
    }

    /// Reads the settings file at `path`.
    ///
    /// # Errors
    /// The file cannot be read, or [`Config::parse`]'s.
    pub fn read(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            path: path.to_owned(),
            message: format!("cannot read it: {e}"),
        })?;
        Config::parse(&text, path)
    }

    /// The settings for a run in `dir`: the first `pgnkit.toml` in `dir`
    /// or a folder above it, or the defaults when there is none.
    ///
    /// # Errors
    /// Those of reading the file found.
    pub fn find(dir: &Path) -> Result<Config, ConfigError> {
        for d in dir.ancestors() {
            let candidate = d.join(FILE_NAME);
            if candidate.is_file() {
                return Config::read(&candidate);
            }
        }
        Ok(Config::default())
    }

    /// The folder the file's relative paths start from.
    pub fn root(&self) -> &Path {
        self.path
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(Path::new(""))
    }

    /// The selection for the input at `path` (as given on the command
    /// line, relative to the current folder or absolute): the file's rules,
    /// then the `flags` on top of them (a flag wins over the file), then
    /// the overrides whose globs match the path relative to the file's
    /// folder, in the file's order.
    pub fn selection_for(&self, path: &Path, flags: &Rules) -> Selection {
        let mut s = self.rules.selection();
        flags.apply(&mut s);
        if self.overrides.is_empty() {
            return s;
        }
        let relative = self.relative(path);
        for o in &self.overrides {
            if o.matcher.is_match(&relative) {
                o.rules.apply(&mut s);
            }
        }
        s
    }

    /// `path` relative to the file's folder, when it lies under it.
    fn relative(&self, path: &Path) -> PathBuf {
        let root = self.root();
        // Absolute, with `.` and `..` resolved by their names (not by the
        // file system: a path may name no file yet).
        let absolute = |p: &Path| {
            let joined = if p.is_absolute() {
                p.to_owned()
            } else {
                std::env::current_dir()
                    .map(|d| d.join(p))
                    .unwrap_or_else(|_| p.to_owned())
            };
            let mut clean = PathBuf::new();
            for c in joined.components() {
                match c {
                    std::path::Component::CurDir => {}
                    std::path::Component::ParentDir => {
                        clean.pop();
                    }
                    c => clean.push(c),
                }
            }
            clean
        };
        let (path_abs, root_abs) = (absolute(path), absolute(root));
        path_abs
            .strip_prefix(&root_abs)
            .map(Path::to_owned)
            .unwrap_or_else(|_| path.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, Path::new("pgnkit.toml"))
    }

    #[test]
    fn every_key_is_read() {
        let c = parse(
            "select = [\"illegal-move\", \"check-mark\"]\nwarn = [\"illegal-move\"]\ninput-lang = \"de\"\nstrict = true\nformat = \"sarif\"\nmax-annotations = 7\nbaseline = \"b.json\"\n",
        )
        .unwrap();
        let s = c.selection_for(Path::new("a.pgn"), &Rules::default());
        assert!(s.reports(Code::CheckMark) && !s.reports(Code::Syntax));
        assert_eq!(
            s.severity(Code::IllegalMove, Severity::Error),
            Severity::Warning
        );
        assert_eq!(c.input_lang, Some(Some(Language::De)));
        assert_eq!(
            (c.strict, c.format, c.max_annotations),
            (Some(true), Some("sarif"), Some(7))
        );
        assert_eq!(c.baseline, Some(PathBuf::from("b.json")));
    }

    #[test]
    fn mistakes_name_the_line_and_the_key() {
        let e = parse("strict = true\nignore = [\"check-mark\", \"chekmark\"]\n").unwrap_err();
        assert!(e.message.starts_with("line 2"), "{e}");
        assert!(e.message.contains("unknown code `chekmark`"), "{e}");
        let e = parse("strict = true\n\nsevere = true\n").unwrap_err();
        assert!(e.message.starts_with("line 3"), "{e}");
        assert!(e.message.contains("severe"), "{e}");
        let e = parse("strict = \"yes\"\n").unwrap_err();
        assert!(e.message.starts_with("line 1"), "{e}");
        let e = parse("[[overrides]]\npaths = [\"a/**\"]\nignor = []\n").unwrap_err();
        assert!(e.message.contains("ignor"), "{e}");
        let e = parse("format = \"xml\"\n").unwrap_err();
        assert!(e.message.contains("unknown format `xml`"), "{e}");
    }

    /// The names the file takes are the report formats' names, each once
    /// (the match is exhaustive: a format added to the printers is named
    /// here, and then in [`FORMATS`]).
    #[test]
    fn format_names_are_the_report_formats() {
        use pgnkit_report::printer::ReportFormat;
        let names: Vec<&str> = FORMATS
            .iter()
            .map(|name| match ReportFormat::from_name(name) {
                Some(ReportFormat::Human) => "human",
                Some(ReportFormat::Json) => "json",
                Some(ReportFormat::Github) => "github",
                Some(ReportFormat::Sarif) => "sarif",
                Some(ReportFormat::Junit) => "junit",
                Some(ReportFormat::Gitlab) => "gitlab",
                None => panic!("`{name}` is no report format"),
            })
            .collect();
        assert_eq!(names, FORMATS);
        for name in FORMATS {
            let c = parse(&format!("format = \"{name}\"\n")).unwrap();
            assert_eq!(c.format, Some(name));
        }
    }

    #[test]
    fn flags_win_over_the_file_and_overrides_apply_last() {
        let c = parse(
            "error = [\"check-mark\"]\nignore = [\"move-number\"]\n[[overrides]]\npaths = [\"archive/**\"]\nignore = [\"check-mark\"]\n",
        )
        .unwrap();
        let none = c.selection_for(Path::new("games/a.pgn"), &Rules::default());
        assert_eq!(
            none.severity(Code::CheckMark, Severity::Warning),
            Severity::Error
        );
        assert!(!none.reports(Code::MoveNumber));
        let flags = Rules::from_flags(&[], &[], &[Code::CheckMark], &[Code::MoveNumber]);
        let s = c.selection_for(Path::new("games/a.pgn"), &flags);
        assert_eq!(
            s.severity(Code::CheckMark, Severity::Warning),
            Severity::Warning
        );
        assert!(
            s.reports(Code::MoveNumber),
            "--error turns an ignored code on"
        );
        let s = c.selection_for(Path::new("archive/1990/b.pgn"), &flags);
        assert!(!s.reports(Code::CheckMark) && s.reports(Code::MoveNumber));
    }

    #[test]
    fn the_file_is_found_upwards() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::write(dir.path().join(FILE_NAME), "strict = true\n").unwrap();
        let c = Config::find(&deep).unwrap();
        assert_eq!(c.strict, Some(true));
        assert_eq!(c.root(), dir.path());
    }
}
