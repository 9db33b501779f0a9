//! `pgnkit.Game`: one game as `pgnkit.read` gives it, and
//! `pgnkit.Diagnostic`, one problem found in it. Everything is computed in
//! Rust while the chunk is replayed ([`GameData::of`]); the Python objects
//! (lists, dicts) are made when a property is read.

use std::ops::Range;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use pgnkit_replay::{Detail, GameReport, Options, Severity, replay_game};
use pgnkit_report::Located;
use pgnkit_report::games::{GameFacts, write_game};
use pgnkit_report::render::{self, Suggestions};
use pgnkit_source::Data;
use pgnkit_work::check::game_facts;

use crate::replay::{self, Replayed};

/// Words (moves) kept end to end in one string: one allocation per game,
/// not one per move.
#[derive(Default)]
pub struct Words {
    text: String,
    ends: Vec<u32>,
}

impl Words {
    /// Adds a word.
    pub fn push(&mut self, word: &str) {
        self.text.push_str(word);
        self.ends
            .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
    }

    /// The words in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let mut start = 0usize;
        self.ends.iter().map(move |&end| {
            let end = end as usize;
            let word = self.text.get(start..end).unwrap_or_default();
            start = end;
            word
        })
    }

    /// How many words.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// The words as a Python list of `str`.
    fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.iter().map(|w| PyString::new(py, w)))
    }
}

/// Everything a [`Game`] says, made on the worker threads.
pub struct GameData {
    /// The input's name (the path as given, or `<bytes>`).
    pub file: Arc<str>,
    /// 1-based number of the game in its input (fixed by [`GameData::place`]).
    pub number: u64,
    /// 0-based index of the game in its chunk.
    pub index: u64,
    /// Byte offset of the game in its (decompressed) input.
    pub byte: usize,
    san: Words,
    uci: Words,
    /// How the game was replayed.
    options: Options,
    /// The main line's moves (`None`: a pass).
    line: Vec<Option<shakmaty::Move>>,
    /// The replay's report (its diagnostics moved to `located`).
    report: GameReport,
    located: Vec<Located>,
    /// The bytes the game was read from and its span in them (a game keeps
    /// its chunk alive while it is referenced).
    data: Data,
    span: Range<usize>,
}

impl GameData {
    /// What `game` (of a chunk of `data`, in input `file`) says.
    pub fn of(
        file: &Arc<str>,
        data: &Data,
        options: &Options,
        mut r: Replayed<'_, '_>,
    ) -> GameData {
        let (mut san, mut uci) = (Words::default(), Words::default());
        let main_line = r.main_line();
        for ply in &main_line {
            san.push(ply.san());
            uci.push(ply.uci());
        }
        let line = main_line.iter().map(|p| p.played()).collect();
        r.report.diagnostics = Vec::new();
        GameData {
            file: file.clone(),
            number: r.index + 1,
            index: r.index,
            byte: r.byte,
            san,
            uci,
            options: options.clone(),
            line,
            report: r.report,
            located: r.located,
            data: data.clone(),
            span: r.game.span.clone(),
        }
    }

    /// Places the game in its input: `games` games and `lines` line breaks
    /// come before its chunk.
    pub fn place(&mut self, games: u64, lines: usize) {
        self.number = games.saturating_add(self.index).saturating_add(1);
        let number = self.number;
        for l in &mut self.located {
            l.place(number, |n| n.saturating_add(lines).saturating_add(1));
        }
    }
}

impl GameData {
    /// Shows `f` the game as read again from its text (for what is made
    /// only when asked: tags, the game record).
    fn with_game<R>(&self, f: impl FnOnce(&pgnkit_pgn::Game<'_>) -> R) -> R {
        let data: &[u8] = &self.data;
        let mut reader = pgnkit_pgn::Reader::with_range(data, self.span.clone());
        let mut game = pgnkit_pgn::Game::default();
        reader.read_game(&mut game);
        f(&game)
    }

    /// The tags, decoded.
    fn tags(&self) -> Vec<(String, String)> {
        self.with_game(|game| replay::tags(game, self.report.encoding).collect())
    }

    /// The `check --games` facts and the game's name.
    ///
    /// The game was read with [`Detail::Diagnostics`] (no claims, no
    /// position keys): it is replayed again in full for its record, as
    /// `check --games` replays it.
    fn facts(&self) -> (GameFacts, Option<String>) {
        let options = Options {
            detail: Detail::Full,
            ..self.options.clone()
        };
        let data: &[u8] = &self.data;
        self.with_game(|game| {
            let report = replay_game(data, game, &options);
            (
                game_facts(game, &report, report.errors(), report.warnings()),
                pgnkit_report::game_name(game, &report),
            )
        })
    }

    /// Errors and warnings, kept and omitted.
    fn counts(&self) -> (usize, usize) {
        let errors = self
            .located
            .iter()
            .filter(|l| l.diagnostic.severity == Severity::Error)
            .count();
        let omitted = &self.report.omitted;
        let more = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        (
            errors.saturating_add(more(omitted.errors)),
            (self.located.len() - errors).saturating_add(more(omitted.warnings)),
        )
    }
}

/// The JSON record of `l` (`pgnkit check --format json`'s) as a Python dict.
fn diagnostic_record<'py>(py: Python<'py>, file: &str, l: &Located) -> PyResult<Bound<'py, PyAny>> {
    let mut out = Vec::new();
    render::diagnostic(
        &mut out,
        pgnkit_report::Format::Json,
        false,
        Suggestions::Best,
        file,
        l,
    )
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    json_loads(py, &out)
}

/// `json.loads(bytes)`.
pub fn json_loads<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (pyo3::types::PyBytes::new(py, bytes),))
}

/// One game read by `pgnkit.read`: its tags, its main line in SAN and UCI,
/// its status and result under the Laws, and every problem found in it.
#[pyclass(module = "pgnkit", frozen)]
pub struct Game {
    data: GameData,
}

impl Game {
    /// The game of `data`.
    pub fn new(data: GameData) -> Game {
        Game { data }
    }

    fn diagnostics_where<'py>(
        &self,
        py: Python<'py>,
        keep: impl Fn(&Located) -> bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for l in self.data.located.iter().filter(|l| keep(l)) {
            list.append(Diagnostic::of(py, &self.data.file, l)?)?;
        }
        Ok(list)
    }
}

#[pymethods]
impl Game {
    /// The input's name: the path as given, or `<bytes>`.
    #[getter]
    fn file(&self) -> &str {
        &self.data.file
    }

    /// 1-based number of the game in its input (as `pgnkit check` numbers it).
    #[getter]
    fn number(&self) -> u64 {
        self.data.number
    }

    /// Byte offset of the game in its (decompressed) input.
    #[getter]
    fn byte(&self) -> usize {
        self.data.byte
    }

    /// The tags, in order: `{"Event": "...", "White": "...", ...}`.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.data.tags() {
            dict.set_item(name, value)?;
        }
        Ok(dict)
    }

    /// The main-line moves in SAN (English piece letters, `+` and `#` as
    /// the rules give them), up to the first move that cannot be played.
    #[getter]
    fn moves<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.data.san.to_list(py)
    }

    /// The same moves in UCI (`e2e4`, `e7e8q`, castling `e1g1`).
    #[getter]
    fn uci<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.data.uci.to_list(py)
    }

    /// Main-line plies replayed.
    #[getter]
    fn plies(&self) -> u32 {
        self.data.report.plies
    }

    /// The status under the Laws: `checkmate`, `stalemate`, `ongoing`,
    /// `invalid`, `fivefold-repetition`, … (as `pgnkit check --games`).
    #[getter]
    fn status(&self) -> &'static str {
        self.data.report.status.as_str()
    }

    /// The result the rules give (`1-0`, `0-1`, `1/2-1/2`), `None` where
    /// they give none.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.data.report.result.map(|r| r.as_str())
    }

    /// The Result tag as written.
    #[getter]
    fn result_tag(&self) -> Option<&str> {
        self.data.report.result_tag.as_deref()
    }

    /// The piece-letter language the moves were read in (`en`, `de`, …).
    #[getter]
    fn language(&self) -> &'static str {
        self.data.report.language.code()
    }

    /// Whether the game was played under Chess960 castling rules.
    #[getter]
    fn chess960(&self) -> bool {
        self.data.report.chess960
    }

    /// The FEN of the last position of the main line replayed.
    #[getter]
    fn fen(&self) -> Option<String> {
        replay::final_fen(&self.data.report)
    }

    /// The draws that became claimable (threefold repetition, 50-move
    /// rule), as the `claims` of the `check --games` record.
    #[getter]
    fn claims<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.record(py)?.get_item("claims")
    }

    /// The clock after each main-line ply in seconds (`[%clk]`), `None`
    /// where a ply has none; empty when the game has no clock command.
    #[getter]
    fn clocks(&self) -> Vec<Option<f64>> {
        let c = &self.data.report.clocks;
        if c.clk().is_empty() {
            return Vec::new();
        }
        (1..=self.data.report.plies)
            .map(|p| c.clk_at(p).map(|t| t.seconds()))
            .collect()
    }

    /// Every problem found (errors and warnings), in the order of the text.
    #[getter]
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.diagnostics_where(py, |_| true)
    }

    /// The errors (problems of severity `error`).
    #[getter]
    fn errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.diagnostics_where(py, |l| l.diagnostic.severity == Severity::Error)
    }

    /// The warnings.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.diagnostics_where(py, |l| l.diagnostic.severity == Severity::Warning)
    }

    /// The game's `pgnkit check --games --format json` record as a dict.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let d = &self.data;
        let (facts, name) = d.facts();
        let mut out = Vec::new();
        write_game(
            &mut out,
            pgnkit_report::Format::Json,
            &d.file,
            d.number,
            d.byte,
            name.as_deref(),
            &facts,
        )
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        json_loads(py, &out)
    }

    /// The FEN of the main-line position after `ply` plies (0: the start;
    /// none: the last replayed). `ValueError` beyond the last ply replayed.
    #[pyo3(signature = (ply=None))]
    fn fen_at(&self, ply: Option<u32>) -> PyResult<String> {
        if let (None, Some(fen)) = (ply, replay::final_fen(&self.data.report)) {
            return Ok(fen);
        }
        let plies = ply.map_or(self.data.line.len(), |p| p as usize);
        replay::position_after(&self.data.report.start, &self.data.line, plies)
            .map(|p| replay::fen(&p))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "ply {} is beyond the {} plies replayed",
                    ply.unwrap_or_default(),
                    self.data.san.len()
                ))
            })
    }

    /// The game written back in PGN export format, moves in SAN (as
    /// `pgnkit convert --to san` writes it).
    fn pgn(&self) -> PyResult<String> {
        let bytes = self
            .data
            .data
            .get(self.data.span.clone())
            .unwrap_or_default();
        crate::convert::to_text(bytes, "san", self.data.options.illegal_moves.as_str())
    }

    /// The game's original text, as it stands in its input.
    fn text(&self) -> String {
        let bytes = self
            .data
            .data
            .get(self.data.span.clone())
            .unwrap_or_default();
        self.data.report.encoding.decode(bytes).into_owned()
    }

    /// The game as a `chess.pgn.Game` of python-chess (its tags and its
    /// main line as replayed, with the clocks).
    fn to_python_chess<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        python_chess(slf, "to_python_chess", None)
    }

    /// The main-line position after `ply` plies (none: the last replayed)
    /// as a `chess.Board` of python-chess.
    #[pyo3(signature = (ply=None))]
    fn board<'py>(slf: &Bound<'py, Self>, ply: Option<u32>) -> PyResult<Bound<'py, PyAny>> {
        python_chess(slf, "board", ply)
    }

    fn __len__(&self) -> usize {
        self.data.san.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<pgnkit.Game {} of {:?}: {}, {} plies, {} errors>",
            self.data.number,
            &*self.data.file,
            self.data.report.status.as_str(),
            self.data.report.plies,
            self.data.counts().0
        )
    }
}

/// Calls `pgnkit._chess.NAME(game[, ply])`, the python-chess interop.
fn python_chess<'py>(
    game: &Bound<'py, Game>,
    name: &str,
    ply: Option<u32>,
) -> PyResult<Bound<'py, PyAny>> {
    let module = game.py().import("pgnkit._chess")?;
    match name {
        "board" => module.call_method1(name, (game, ply)),
        _ => module.call_method1(name, (game,)),
    }
}

/// One problem found in a game: an error or a warning, with where it is
/// and what was probably meant.
#[pyclass(module = "pgnkit", frozen, get_all)]
pub struct Diagnostic {
    /// The stable code (`illegal-move`, `ambiguous-move`, `syntax`, …).
    code: &'static str,
    /// `error` or `warning`.
    severity: &'static str,
    /// 1-based ply in its line (main line or variation), when about a move.
    ply: Option<u32>,
    /// The move number.
    move_number: Option<u32>,
    /// `white` or `black`: whose move.
    side: Option<&'static str>,
    /// 1-based line in the input.
    line: usize,
    /// 1-based column (in characters for UTF-8 text).
    column: usize,
    /// 0-based byte offset in the input.
    byte: usize,
    /// 1-based number of the game in its input.
    game: u64,
    /// The token as written.
    token: Option<String>,
    /// One plain sentence.
    message: String,
    /// Whether the token is inside a variation.
    variation: bool,
    /// An illegal move that stood (`illegal_moves="stand"`).
    stood: bool,
    /// What was probably meant, best first (dicts, as in the JSON record).
    suggestions: Py<PyAny>,
    /// The `pgnkit check --format json` record.
    record: Py<PyAny>,
}

impl Diagnostic {
    fn of(py: Python<'_>, file: &str, l: &Located) -> PyResult<Diagnostic> {
        let d = &l.diagnostic;
        let record = diagnostic_record(py, file, l)?;
        Ok(Diagnostic {
            code: d.code.as_str(),
            severity: d.severity.as_str(),
            ply: d.ply,
            move_number: d.move_number,
            side: d.side.map(|s| if s.is_white() { "white" } else { "black" }),
            line: l.line,
            column: l.column,
            byte: l.byte,
            game: l.game,
            token: d.token.clone(),
            message: d.message.clone(),
            variation: d.variation,
            stood: d.stood,
            suggestions: record.get_item("suggestions")?.unbind(),
            record: record.unbind(),
        })
    }
}

#[pymethods]
impl Diagnostic {
    fn __repr__(&self) -> String {
        format!(
            "<pgnkit.Diagnostic {} {} at line {}, column {}: {}>",
            self.severity, self.code, self.line, self.column, self.message
        )
    }
}
