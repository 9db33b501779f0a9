//! The address ranges of the mapped inputs, each with the message to print
//! when it is cut short: a fixed table of atomics, the only thing a SIGBUS
//! handler ([`crate::signals`]) may read. [`crate::mapped`] fills it.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

use memmap2::Mmap;

/// One registered mapping.
struct Slot {
    /// Taken by a mapping.
    used: AtomicBool,
    /// The first address, 0 while not published.
    start: AtomicUsize,
    len: AtomicUsize,
    message: AtomicPtr<u8>,
    message_len: AtomicUsize,
}

const SLOTS: usize = 64;

static TABLE: [Slot; SLOTS] = [const {
    Slot {
        used: AtomicBool::new(false),
        start: AtomicUsize::new(0),
        len: AtomicUsize::new(0),
        message: AtomicPtr::new(std::ptr::null_mut()),
        message_len: AtomicUsize::new(0),
    }
}; SLOTS];

/// A SIGBUS handler reads the table: messages are not freed after it.
static HANDLING: AtomicBool = AtomicBool::new(false);

/// Publishes `map` with `message` in a free slot.
pub(crate) fn register(map: &Mmap, message: &[u8]) -> Option<usize> {
    if map.is_empty() {
        return None;
    }
    let i = TABLE.iter().position(|s| {
        s.used
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    })?;
    let slot = &TABLE[i];
    slot.len.store(map.len(), Ordering::SeqCst);
    slot.message
        .store(message.as_ptr().cast_mut(), Ordering::SeqCst);
    slot.message_len.store(message.len(), Ordering::SeqCst);
    slot.start.store(map.as_ptr() as usize, Ordering::SeqCst);
    Some(i)
}

/// The message of the mapping that holds `address`, for the SIGBUS
/// handler: its pointer and length (valid while that mapping lives, which
/// it does while it is being read).
pub(crate) fn message_at(address: usize) -> Option<(*const u8, usize)> {
    HANDLING.store(true, Ordering::SeqCst);
    TABLE.iter().find_map(|s| {
        let start = s.start.load(Ordering::SeqCst);
        let len = s.len.load(Ordering::SeqCst);
        (start != 0 && address >= start && address - start < len).then(|| {
            (
                s.message.load(Ordering::SeqCst).cast_const(),
                s.message_len.load(Ordering::SeqCst),
            )
        })
    })
}

/// Takes the mapping of slot `i` out of the table; `true` when a handler
/// may have read its message meanwhile (the message must then be kept).
pub(crate) fn unregister(i: usize) -> bool {
    let Some(slot) = TABLE.get(i) else {
        return false;
    };
    slot.start.store(0, Ordering::SeqCst);
    slot.message.store(std::ptr::null_mut(), Ordering::SeqCst);
    slot.used.store(false, Ordering::SeqCst);
    HANDLING.load(Ordering::SeqCst)
}

/// Forgets that a handler looked at the table (tests only).
#[cfg(test)]
pub(crate) fn handled() {
    HANDLING.store(false, Ordering::SeqCst);
}
