//! The three stages of writing the position table side by side: read,
//! sort, write.

use std::io;
use std::ops::Range;

use super::buckets::Encoded;
use crate::spill::Prefetched;

/// The three stages of writing the position table, side by side: groups
/// are read from the spool (`read`) on a thread of their own, sorted
/// (`compute`, on every core) and written (`write`) on another thread, in
/// order, each stage going on as soon as a buffer is free: two read
/// buffers and two encoded ones go round, so that while a group is
/// sorted the next is read and the one before written, without a stage
/// waiting for the slowest of the three at every group.
///
/// An empty group (after a large partition, see [`groups_of`]) is sorted
/// (its memory given back) and then waits until every group before it is
/// written: while the large partition is written, nothing is sorted and
/// only the next group is read.
pub(super) struct Pipeline<'g, R, C, W> {
    pub(super) groups: &'g [Range<usize>],
    pub(super) read: R,
    pub(super) compute: C,
    pub(super) write: W,
}

impl<R, C, W> Pipeline<'_, R, C, W>
where
    R: FnMut(usize, &mut Prefetched) -> io::Result<()> + Send,
    C: FnMut(usize, &Prefetched, &mut Vec<Encoded>) -> io::Result<()>,
    W: FnMut(&mut Vec<Encoded>) -> io::Result<()> + Send,
{
    pub(super) fn run(self) -> io::Result<()> {
        use std::sync::mpsc::sync_channel;
        let Pipeline {
            groups,
            mut read,
            mut compute,
            mut write,
        } = self;
        let n = groups.len();
        // Buffers go round: free ones to the reader, read ones to the
        // sort, encoded ones to the writer, and written ones back.
        let (free_read, free_reads) = sync_channel::<Prefetched>(2);
        let (to_sort, reads) = sync_channel::<(usize, Prefetched)>(2);
        let (to_writer, encoded) = sync_channel::<Vec<Encoded>>(2);
        let (written_back, free_outs) = sync_channel::<Vec<Encoded>>(2);
        for _ in 0..2 {
            free_read
                .send(Prefetched::default())
                .map_err(|_| io::Error::other("the index writer's pipeline stopped"))?;
        }
        let stopped = || io::Error::other("the index writer's pipeline stopped");
        std::thread::scope(|scope| -> io::Result<()> {
            let reader = scope.spawn(move || -> io::Result<()> {
                for g in 0..n {
                    // The sort stopped (an error): so does the reader.
                    let Ok(mut buffer) = free_reads.recv() else {
                        return Ok(());
                    };
                    read(g, &mut buffer)?;
                    if to_sort.send((g, buffer)).is_err() {
                        return Ok(());
                    }
                }
                Ok(())
            });
            let writer = scope.spawn(move || -> io::Result<()> {
                for mut out in encoded {
                    write(&mut out)?;
                    // The sort may have ended: nothing more to write.
                    let _ = written_back.send(out);
                }
                Ok(())
            });
            let mut spare: Vec<Vec<Encoded>> = vec![Vec::new(), Vec::new()];
            let sorted = (|| -> io::Result<()> {
                for (g, mut buffer) in reads {
                    let mut out = match spare.pop() {
                        Some(out) => out,
                        None => free_outs.recv().map_err(|_| stopped())?,
                    };
                    if groups[g].is_empty() {
                        // After a large partition: its memory is the large
                        // one's, written meanwhile (see `groups_of`).
                        buffer = Prefetched::default();
                    }
                    compute(g, &buffer, &mut out)?;
                    if groups[g].is_empty() {
                        // Every group before it written: the other buffer
                        // back (the one the large partition was written
                        // from; `spare` is empty after the first groups).
                        if spare.is_empty() {
                            spare.push(free_outs.recv().map_err(|_| stopped())?);
                        }
                    }
                    let _ = free_read.send(buffer);
                    to_writer.send(out).map_err(|_| stopped())?;
                }
                Ok(())
            })();
            drop(to_writer);
            drop(free_read);
            let joined = |h: std::thread::ScopedJoinHandle<'_, io::Result<()>>| {
                h.join().unwrap_or_else(|_| {
                    Err(io::Error::other("a thread of the index writer panicked"))
                })
            };
            let (read, written) = (joined(reader), joined(writer));
            // The stage that failed first says why; "stopped" only follows.
            read.and(written).and(sorted)
        })
    }
}
