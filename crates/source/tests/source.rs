//! `pgnkit-source` on real games (`testdata/index/london1851.pgn`, see its
//! README): plain files, compressed files and streams give the file's bytes
//! exactly, cut into chunks at game boundaries; binary data, directories and
//! shards of streams are refused; directories are walked as ripgrep walks
//! them.

use std::io::{Cursor, Write};
use std::path::Path;

use pgnkit_pgn::shard::Shard;
use pgnkit_pgn::{Game, Reader};
use pgnkit_source::walk::{Globs, Walk};
use pgnkit_source::{Compression, Error, Input, binary_at};

/// Games of the fixture (London 1851, 251 games).
const GAMES: usize = 251;

/// A chunk size that cuts the fixture (160 KB) into a dozen chunks.
const SMALL: usize = 12 << 10;

fn fixture() -> Vec<u8> {
    let path = format!(
        "{}/../../testdata/index/london1851.pgn",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The games of `bytes` (comment-only pieces, such as trailing whitespace, aside).
fn count_games(bytes: &[u8]) -> usize {
    Reader::new(bytes)
        .filter(|game: &Game<'_>| !game.is_comment_only())
        .count()
}

/// What the chunks of `input` hold, chunk by chunk.
fn chunks(input: Input, size: usize) -> Vec<Vec<u8>> {
    placed(input, size).1
}

/// The offset in the whole (decompressed) input of the first chunk of
/// `input`, and what its chunks hold, checking that each chunk begins where
/// the one before ended.
fn placed(input: Input, size: usize) -> (Option<usize>, Vec<Vec<u8>>) {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let mut start = None;
    let mut offset = None;
    for chunk in input.chunks(size) {
        let chunk = chunk.expect("chunk");
        let at = chunk.base + chunk.range.start;
        if let Some(offset) = offset {
            assert_eq!(at, offset, "a chunk begins where the one before ended");
        }
        start.get_or_insert(at);
        offset = Some(at + chunk.range.len());
        out.push(chunk.bytes().to_vec());
    }
    (start, out)
}

/// Checks that `pieces` are the fixture cut at game starts, each piece
/// holding whole games.
fn assert_cut_at_games(pieces: &[Vec<u8>], whole: &[u8]) {
    assert!(
        pieces.len() > 1,
        "the input was cut: {} chunk(s)",
        pieces.len()
    );
    assert_eq!(pieces.concat(), whole, "the chunks are the input, in order");
    for piece in &pieces[1..] {
        assert!(piece.starts_with(b"[Event "), "a chunk starts at a game");
    }
    let games: usize = pieces.iter().map(|p| count_games(p)).sum();
    assert_eq!(games, GAMES, "no game is cut in two");
}

/// The fixture, written as `london.pgn` in a temporary folder (kept alive
/// by the returned guard): its bytes, the guard and the file's path.
fn on_disk() -> (Vec<u8>, tempfile::TempDir, String) {
    let pgn = fixture();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "london.pgn", &pgn);
    (pgn, dir, path)
}

/// Checks that `input` gives the fixture from its first byte, cut at games.
fn assert_whole(input: Input, pgn: &[u8]) {
    let (start, pieces) = placed(input, SMALL);
    assert_eq!(start, Some(0));
    assert_cut_at_games(&pieces, pgn);
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.display().to_string()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}

fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::stream::encode_all(bytes, 3).expect("zstd")
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    encoder.write_all(bytes).expect("bzip2");
    encoder.finish().expect("bzip2")
}

/// Bytes that are not text: a PGN game followed by control bytes.
fn binary() -> Vec<u8> {
    let mut bytes = b"[Event \"x\"]\n\n1. e4 *\n".to_vec();
    bytes.extend((0u8..=8).cycle().take(300));
    bytes
}

#[test]
fn a_plain_file_is_mapped_and_cut_at_game_starts() {
    let (pgn, _dir, path) = on_disk();
    let input = Input::open(&path).expect("open");
    assert_eq!(input.name, path);
    assert_eq!(input.len, Some(pgn.len() as u64));
    assert_eq!(input.compression, Compression::None);
    assert_eq!(input.shard, None);
    assert_whole(input, &pgn);
}

#[test]
fn a_released_chunk_still_reads_its_bytes() {
    let (pgn, _dir, path) = on_disk();
    let mut read = Vec::new();
    for chunk in Input::open(&path).expect("open").chunks(SMALL) {
        let chunk = chunk.expect("chunk");
        chunk.release();
        read.extend_from_slice(chunk.bytes());
    }
    assert_eq!(read, pgn);
}

#[test]
fn compressed_files_are_known_by_their_magic_bytes_not_their_names() {
    let pgn = fixture();
    let dir = tempfile::tempdir().expect("tempdir");
    for (compression, bytes) in [
        (Compression::Gzip, gzip(&pgn)),
        (Compression::Zstd, zstd(&pgn)),
        (Compression::Bzip2, bzip2(&pgn)),
    ] {
        // No suffix says what it is.
        let path = write(dir.path(), &format!("games-{}", compression.name()), &bytes);
        let input = Input::open(&path).expect("open");
        assert_eq!(input.compression, compression);
        assert_eq!(input.len, Some(bytes.len() as u64), "the compressed size");
        assert_whole(input, &pgn);
    }
}

#[test]
fn a_multi_member_file_is_read_to_its_end() {
    let pgn = fixture();
    let half = pgnkit_pgn::game_starts_near(&pgn, pgn.len() / 2).expect("a game start");
    let (first, second) = pgn.split_at(half);
    let dir = tempfile::tempdir().expect("tempdir");
    for (compression, bytes) in [
        (Compression::Gzip, [gzip(first), gzip(second)].concat()),
        (Compression::Zstd, [zstd(first), zstd(second)].concat()),
        (Compression::Bzip2, [bzip2(first), bzip2(second)].concat()),
    ] {
        let path = write(dir.path(), "two-members.pgn.x", &bytes);
        let input = Input::open(&path).expect("open");
        assert_eq!(input.compression, compression);
        assert_eq!(chunks(input, SMALL).concat(), pgn, "{}", compression.name());
    }
}

#[test]
fn a_truncated_compressed_file_gives_what_it_holds_then_an_error() {
    let pgn = fixture();
    let packed = gzip(&pgn);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "cut.pgn.gz", &packed[..packed.len() / 2]);
    let mut read = Vec::new();
    let mut error = None;
    for chunk in Input::open(&path).expect("open").chunks(SMALL) {
        match chunk {
            Ok(chunk) => read.extend_from_slice(chunk.bytes()),
            Err(e) => {
                error = Some(e.to_string());
                break;
            }
        }
    }
    let error = error.expect("the damage is an error");
    assert!(error.starts_with("cannot decompress `"), "{error}");
    assert!(error.contains("(gzip)"), "{error}");
    assert!(!read.is_empty(), "the games before the damage are read");
    assert!(
        pgn.starts_with(&read),
        "and they are the file's first bytes"
    );
}

#[test]
fn a_stream_is_decompressed_as_its_first_bytes_say() {
    let pgn = fixture();
    for (compression, bytes) in [
        (Compression::None, pgn.clone()),
        (Compression::Gzip, gzip(&pgn)),
        (Compression::Zstd, zstd(&pgn)),
        (Compression::Bzip2, bzip2(&pgn)),
    ] {
        let input = Input::stream("<stdin>".to_owned(), None, Cursor::new(bytes)).expect("stream");
        assert_eq!(input.name, "<stdin>");
        assert_eq!(input.len, None);
        assert_eq!(input.compression, compression);
        assert_whole(input, &pgn);
    }
}

#[test]
fn a_game_longer_than_a_chunk_stays_whole() {
    let (pgn, _dir, path) = on_disk();
    // Chunks far smaller than one game: each still ends at a game start.
    let mapped = chunks(Input::open(&path).expect("open"), 64);
    let streamed = chunks(
        Input::stream("s".to_owned(), None, Cursor::new(pgn.clone())).expect("stream"),
        64,
    );
    for pieces in [mapped, streamed] {
        assert_cut_at_games(&pieces, &pgn);
        assert!(pieces.iter().all(|p| count_games(p) >= 1));
    }
}

#[test]
fn an_empty_input_has_no_chunks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "empty.pgn", b"");
    let input = Input::open(&path).expect("open");
    assert_eq!(input.len, Some(0));
    assert!(chunks(input, SMALL).is_empty());
    let input = Input::stream("e".to_owned(), None, Cursor::new(Vec::new())).expect("stream");
    assert_eq!(input.compression, Compression::None);
    assert!(chunks(input, SMALL).is_empty());
}

#[test]
fn binary_data_is_refused_from_files_compressed_files_and_streams() {
    let data = binary();
    let at = b"[Event \"x\"]\n\n1. e4 *\n".len();
    assert_eq!(binary_at(&data), Some(at));
    let dir = tempfile::tempdir().expect("tempdir");

    let path = write(dir.path(), "data.pgn", &data);
    let Err(Error::NotPgn(message)) = Input::open(&path) else {
        panic!("binary data opened as PGN");
    };
    assert_eq!(
        message,
        format!("`{path}` is not a PGN file: binary data at byte {at}")
    );

    for bytes in [data.clone(), gzip(&data)] {
        let input = Input::stream("pipe".to_owned(), None, Cursor::new(bytes)).expect("stream");
        let first = input.chunks(SMALL).next().expect("an answer");
        let e = first.err().expect("binary data refused");
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            format!("`pipe` is not a PGN file: binary data at byte {at}")
        );
    }
}

#[test]
fn utf16_text_is_named_with_the_command_that_converts_it() {
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(
            "[Event \"x\"]\n\n1. e4 *\n"
                .encode_utf16()
                .flat_map(u16::to_le_bytes),
        )
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "utf16.pgn", &utf16);
    let Err(Error::NotPgn(message)) = Input::open(&path) else {
        panic!("UTF-16 opened as PGN");
    };
    assert!(message.contains("it is UTF-16 text"), "{message}");
    assert!(message.contains("iconv -f UTF-16 -t UTF-8"), "{message}");
}

#[test]
fn a_few_stray_control_bytes_are_still_text() {
    let mut pgn = fixture();
    // Eight NUL bytes in real games: reported where they stand, not refused.
    for i in 1..=8 {
        pgn[i * 1000] = 0;
    }
    assert_eq!(binary_at(&pgn), None);
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "nul.pgn", &pgn);
    assert_eq!(
        chunks(Input::open(&path).expect("open"), SMALL).concat(),
        pgn
    );
    // In a short input, eight are still text and nine binary data...
    let mut eight = pgn[..400].to_vec();
    eight.extend([0; 8]);
    assert_eq!(binary_at(&eight), None);
    let mut short = pgn[..800].to_vec();
    short.extend([0; 9]);
    assert_eq!(binary_at(&short), Some(800));
    // ...but not when they are fewer than 1 in 100 bytes.
    let mut long = pgn[..1000].to_vec();
    long.extend([0; 9]);
    assert_eq!(binary_at(&long), None);
}

#[test]
fn every_control_byte_is_seen_wherever_it_stands_in_a_word() {
    // The test of binary_at reads eight bytes at a time: every byte value,
    // at every place in a word, is judged as one byte at a time would be.
    let is_control = |b: u8| matches!(b, 0..=8 | 0x0E..=0x1A | 0x1C..=0x1F | 0x7F);
    for b in 0..=u8::MAX {
        for start in 0..8 {
            let mut data = vec![b'a'; start];
            data.extend([b; 9]);
            data.extend([b'a'; 7]);
            let expected = is_control(b).then_some(start);
            assert_eq!(binary_at(&data), expected, "byte {b:#04x} at {start}");
        }
    }
}

#[test]
fn the_magic_bytes_of_each_compression() {
    assert_eq!(Compression::sniff(&zstd(b"x")), Compression::Zstd);
    assert_eq!(Compression::sniff(&gzip(b"x")), Compression::Gzip);
    assert_eq!(Compression::sniff(&bzip2(b"x")), Compression::Bzip2);
    assert_eq!(Compression::sniff(b"BZh9"), Compression::Bzip2);
    // `BZh` needs a block size digit: a tag-less game starting so is text.
    assert_eq!(Compression::sniff(b"BZhx"), Compression::None);
    assert_eq!(Compression::sniff(b"[Event"), Compression::None);
    assert_eq!(Compression::sniff(b""), Compression::None);
}

#[test]
fn a_missing_file_and_a_directory_are_errors_about_their_path() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.pgn").display().to_string();
    let e = Input::open(&missing).err().expect("a missing file");
    assert!(matches!(e, Error::Read { .. }), "{e:?}");
    assert_eq!(e.path(), Some(missing.as_str()));
    assert_eq!(e.to_string(), format!("cannot read `{missing}`"));

    let root = dir.path().display().to_string();
    let e = Input::open(&root).err().expect("a directory");
    assert!(matches!(e, Error::Directory(_)), "{e:?}");
    assert_eq!(e.path(), Some(root.as_str()));
}

#[test]
fn the_shards_of_a_file_are_the_file_with_game_numbers_kept() {
    let (pgn, _dir, path) = on_disk();
    let n = 5;
    let mut whole = Vec::new();
    let mut games_before = 0;
    for k in 1..=n {
        let shard = Shard { k, n };
        let input = Input::open_with(&path, Some(shard), Some(1), 1000).expect("shard");
        assert_eq!(input.shard, Some(shard));
        assert_eq!(
            input.origin.games,
            1000 + games_before,
            "the games before shard {shard}, plus the offset"
        );
        let (start, pieces) = placed(input, SMALL);
        let piece = pieces.concat();
        if !piece.is_empty() {
            assert_eq!(start, Some(whole.len()), "spans stay those of the file");
        }
        let text = std::str::from_utf8(&whole).expect("UTF-8");
        let lines_before = text.matches('\n').count();
        let reopened = Input::open_with(&path, Some(shard), Some(2), 0).expect("shard");
        assert_eq!(reopened.origin.lines, lines_before, "lines before {shard}");
        assert_eq!(reopened.origin.games, games_before);
        assert!(piece.is_empty() || piece.starts_with(b"[Event "));
        games_before += count_games(&piece) as u64;
        whole.extend(piece);
    }
    assert_eq!(whole, pgn, "the shards in order are the file");
    assert_eq!(games_before, GAMES as u64);
}

#[test]
fn a_stream_cannot_be_cut_to_a_shard() {
    let pgn = fixture();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = write(dir.path(), "london.pgn.zst", &zstd(&pgn));
    let shard = Shard { k: 1, n: 2 };
    let e = Input::open_with(&path, Some(shard), None, 0)
        .err()
        .expect("a compressed file is a stream");
    assert!(
        matches!(
            &e,
            Error::ShardOfStream {
                compression: Compression::Zstd,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.path(), None);
    assert!(e.to_string().contains("zstd-compressed"), "{e}");

    let stream = Input::stream("<stdin>".to_owned(), None, Cursor::new(pgn)).expect("stream");
    let e = stream.into_shard(shard, 1).err().expect("standard input");
    assert!(e.to_string().contains("give a regular file"), "{e}");
}

/// A temporary folder with `files` (names and texts) in it: its guard and
/// its path.
fn tree(files: &[(&str, &str)]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    let root = dir.path().display().to_string();
    (dir, root)
}

/// The walk of `paths` with `globs`: each path, or the error's message.
fn walk(paths: &[String], globs: &Globs) -> Vec<Result<String, String>> {
    Walk::new(paths, globs)
        .map(|r| r.map_err(|e| e.to_string()))
        .collect()
}

#[test]
fn a_directory_stands_for_its_pgn_files_sorted_depth_first() {
    let (_dir, root) = tree(&[
        ("b.pgn", ""),
        ("a/z.pgn.gz", ""),
        ("a/y/x.pgn", ""),
        ("a.pgn.bz2", ""),
        ("c.pgn.zst", ""),
        ("notes.txt", ""),
        ("games.PGN.txt", ""),
        (".hidden.pgn", ""),
        (".hidden/d.pgn", ""),
    ]);
    let found = walk(std::slice::from_ref(&root), &Globs::default());
    let expected: Vec<Result<String, String>> =
        ["a/y/x.pgn", "a/z.pgn.gz", "a.pgn.bz2", "b.pgn", "c.pgn.zst"]
            .iter()
            .map(|p| Ok(format!("{root}/{p}")))
            .collect();
    assert_eq!(found, expected);
}

#[test]
fn what_is_not_a_directory_passes_as_it_is() {
    let (_dir, root) = tree(&[("games.txt", "")]);
    let file = format!("{root}/games.txt");
    let missing = format!("{root}/missing.pgn");
    let paths = ["-".to_owned(), file.clone(), missing.clone()];
    assert_eq!(
        walk(&paths, &Globs::default()),
        [Ok("-".to_owned()), Ok(file), Ok(missing)]
    );
}

#[test]
fn gitignore_counts_inside_a_git_repository_and_ignore_everywhere() {
    let (dir, root) = tree(&[
        ("kept.pgn", ""),
        ("built.pgn", ""),
        ("old/a.pgn", ""),
        (".gitignore", "built.pgn\n"),
        (".ignore", "old/\n"),
    ]);
    let outside = walk(std::slice::from_ref(&root), &Globs::default());
    assert_eq!(
        outside,
        [
            Ok(format!("{root}/built.pgn")),
            Ok(format!("{root}/kept.pgn"))
        ],
        "outside a git repository .gitignore is not read; .ignore is"
    );
    std::fs::create_dir(dir.path().join(".git")).expect("mkdir .git");
    let inside = walk(std::slice::from_ref(&root), &Globs::default());
    assert_eq!(inside, [Ok(format!("{root}/kept.pgn"))]);
}

#[test]
fn globs_choose_other_names_and_leave_some_out() {
    let (_dir, root) = tree(&[
        ("a.pgn", ""),
        ("b.txt", ""),
        ("old/c.pgn", ""),
        ("old/d.txt", ""),
    ]);
    let paths = [root.clone()];
    let txt = Globs::new(["*.txt".to_owned()]).expect("glob");
    assert_eq!(
        walk(&paths, &txt),
        [Ok(format!("{root}/b.txt")), Ok(format!("{root}/old/d.txt"))]
    );
    let not_old = Globs::new(["!old/**".to_owned()]).expect("glob");
    assert_eq!(walk(&paths, &not_old), [Ok(format!("{root}/a.pgn"))]);
    let e = Globs::new(["[a".to_owned()]).expect_err("no glob");
    assert!(matches!(e, Error::Glob { .. }), "{e:?}");
}

#[test]
fn a_directory_without_pgn_files_is_an_error_and_the_walk_goes_on() {
    let (_dir, root) = tree(&[("empty/notes.txt", ""), ("full/a.pgn", "")]);
    let empty = format!("{root}/empty");
    let full = format!("{root}/full");
    let found: Vec<Result<String, Error>> =
        Walk::new(&[empty.clone(), full.clone()], &Globs::default()).collect();
    assert_eq!(found.len(), 2, "{found:?}");
    match &found[0] {
        Err(e @ Error::NoPgnFiles { dir, globs }) => {
            assert_eq!(dir, &empty);
            assert_eq!(globs, "*.pgn *.pgn.zst *.pgn.gz *.pgn.bz2");
            assert_eq!(e.path(), Some(empty.as_str()));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(found[1].as_ref().ok(), Some(&format!("{full}/a.pgn")));
}

#[test]
fn the_files_a_walk_finds_open_as_inputs() {
    let pgn = fixture();
    let dir = tempfile::tempdir().expect("tempdir");
    write(dir.path(), "plain.pgn", &pgn);
    write(dir.path(), "packed.pgn.gz", &gzip(&pgn));
    let root = dir.path().display().to_string();
    let mut compressions = Vec::new();
    for path in Walk::new(&[root], &Globs::default()) {
        let input = Input::open(&path.expect("path")).expect("open");
        compressions.push(input.compression);
        assert_eq!(count_games(&chunks(input, SMALL).concat()), GAMES);
    }
    assert_eq!(compressions, [Compression::Gzip, Compression::None]);
}
