//! What identifies the PGN file an index was built from: its size, its
//! modification time, and CRC-32s of its first and last 64 KiB. An index
//! whose fingerprint differs from the file's is stale.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::time::UNIX_EPOCH;

use crate::layout::{PGN_SAMPLE, crc};

/// The identity of a PGN file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    /// Size in bytes.
    pub size: u64,
    /// Modification time: seconds since 1970 (negative before).
    pub mtime_secs: i64,
    /// Modification time: nanoseconds within the second.
    pub mtime_nanos: u32,
    /// CRC-32 of the first `min(size, 64 KiB)` bytes.
    pub head_crc: u32,
    /// CRC-32 of the last `min(size, 64 KiB)` bytes.
    pub tail_crc: u32,
}

impl Fingerprint {
    /// The fingerprint of the file at `path` as it is now.
    pub fn of(path: &Path) -> io::Result<Fingerprint> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        let size = meta.len();
        let (mtime_secs, mtime_nanos) = match meta.modified() {
            Ok(t) => match t.duration_since(UNIX_EPOCH) {
                Ok(d) => (
                    i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                    d.subsec_nanos(),
                ),
                Err(e) => {
                    let d = e.duration();
                    (
                        -i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                        d.subsec_nanos(),
                    )
                }
            },
            Err(_) => (0, 0),
        };
        let sample = size.min(PGN_SAMPLE);
        let mut buf = vec![0u8; sample as usize];
        file.read_exact(&mut buf)?;
        let head_crc = crc(&buf);
        file.seek(SeekFrom::Start(size - sample))?;
        file.read_exact(&mut buf)?;
        let tail_crc = crc(&buf);
        Ok(Fingerprint {
            size,
            mtime_secs,
            mtime_nanos,
            head_crc,
            tail_crc,
        })
    }

    /// How `self` (the file now) differs from `indexed` (the file when it
    /// was indexed), in words; `None` when they are the same.
    pub fn difference(&self, indexed: &Fingerprint) -> Option<String> {
        if self.size != indexed.size {
            return Some(format!(
                "its size changed from {} to {} bytes",
                indexed.size, self.size
            ));
        }
        if self.head_crc != indexed.head_crc || self.tail_crc != indexed.tail_crc {
            return Some("its content changed".to_owned());
        }
        if (self.mtime_secs, self.mtime_nanos) != (indexed.mtime_secs, indexed.mtime_nanos) {
            return Some("its modification time changed".to_owned());
        }
        None
    }
}
