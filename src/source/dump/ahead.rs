//! Reading ahead on a second thread: a producer (the YAML transcoder, the JSON unindenter) writes
//! chunks on its own thread while the JSON reader decodes what came before. Chunks go through a
//! bounded channel ([`DEPTH`] in flight) and spent ones go back to be written again (freed on the
//! other thread, they were not reused soon: peak memory rose by 40 MB). When the consumer stops
//! early, the producer's next send fails and its thread ends; a panic in it is the caller's.

use std::io::{self, Cursor, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Chunks waiting for the consumer at most (one more is being made, one read).
const DEPTH: usize = 2;

/// Runs `consume` on the bytes of the chunks `next` makes on a second thread (each written into
/// the spent chunk it is given, until `None`), and returns what it returns; an `Err` chunk is the
/// input's error, after the bytes before it. The producer has ended when this returns.
pub(super) fn read_ahead<T>(
    mut next: impl FnMut(Vec<u8>) -> Option<io::Result<Vec<u8>>> + Send,
    consume: impl FnOnce(&mut Ahead) -> T,
) -> T {
    let (pieces, received) = sync_channel(DEPTH);
    let (spent, reuse) = sync_channel(DEPTH + 2);
    std::thread::scope(|scope| {
        let producer = scope.spawn(move || {
            while let Some(chunk) = next(reuse.try_recv().unwrap_or_default()) {
                let failed = chunk.is_err();
                if pieces.send(chunk).is_err() || failed {
                    return;
                }
            }
        });
        let mut ahead = Ahead { pieces: received, spent, chunk: Cursor::default(), failed: false };
        let result = consume(&mut ahead);
        // The producer's next send fails once the consumer's end is gone.
        drop(ahead);
        if let Err(panic) = producer.join() {
            std::panic::resume_unwind(panic);
        }
        result
    })
}

/// The consumer's end: a [`Read`] over the chunks the producer sends.
pub(super) struct Ahead {
    pieces: Receiver<io::Result<Vec<u8>>>,
    spent: SyncSender<Vec<u8>>,
    chunk: Cursor<Vec<u8>>,
    /// The input failed: it stays failed for a caller that reads on.
    failed: bool,
}

impl Read for Ahead {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let read = self.chunk.read(buf)?;
            if read > 0 || buf.is_empty() {
                return Ok(read);
            }
            match self.pieces.recv() {
                Ok(Ok(chunk)) => {
                    let spent = std::mem::replace(&mut self.chunk, Cursor::new(chunk)).into_inner();
                    // When none is back, the producer writes into a new one.
                    let _ = self.spent.try_send(spent);
                }
                Ok(Err(err)) => {
                    self.failed = true;
                    return Err(err);
                }
                // The producer is gone: at the end of the input, or it panicked (re-raised by
                // `read_ahead`).
                Err(_) if self.failed => return Err(io::Error::other("the input failed")),
                Err(_) => return Ok(0),
            }
        }
    }
}

#[cfg(test)]
mod tests;
