//! Reading ahead on a second thread. A YAML dump is transcoded (the [`super::yaml`] fast path) on its
//! own thread while the JSON reader decodes what came before, so the two overlap instead of taking
//! turns on one core. (A JSON file read this way gained nothing measurable: the page cache makes its
//! reads cheap.)
//!
//! The producer hands over chunks of about a megabyte through a bounded channel ([`DEPTH`] in
//! flight), so memory stays a few chunks whatever the input's size; spent chunks go back to it to
//! be filled again. What the input does is passed through unchanged: its bytes in order, its I/O
//! error (the same `io::Error`, so the same message) after the bytes read before it, its end. When
//! the consumer stops early (a syntax error) it drops its end: the producer's next send fails and
//! its thread ends, so nothing hangs and nothing leaks. A panic in the producer is the caller's.

use std::io::{self, ErrorKind, Read};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Bytes handed over at a time.
const CHUNK: usize = 1 << 20;
/// Chunks waiting for the consumer at most (one more is being filled, one read).
const DEPTH: usize = 2;

/// What the producer sends: a chunk of bytes (empty at the end of the input), or the input's error.
type Piece = io::Result<Vec<u8>>;

/// Runs `consume` on `input` read ahead on a second thread, and returns what it returns. The
/// producer has ended when this returns.
pub(super) fn read_ahead<R: Read + Send, T>(input: R, consume: impl FnOnce(&mut Ahead) -> T) -> T {
    read_ahead_in(input, CHUNK, consume)
}

/// [`read_ahead`] with chunks of `chunk` bytes (tests cut the input finely).
fn read_ahead_in<R: Read + Send, T>(input: R, chunk: usize, consume: impl FnOnce(&mut Ahead) -> T) -> T {
    let (pieces, received) = sync_channel(DEPTH);
    let (spent, reuse) = sync_channel(DEPTH + 2);
    std::thread::scope(|scope| {
        let producer = scope.spawn(move || produce(input, chunk, &pieces, &reuse));
        let mut ahead =
            Ahead { pieces: received, spent, chunk: Vec::new(), pos: 0, ended: false, error: None };
        let result = consume(&mut ahead);
        // The producer's next send fails once the consumer's end is gone.
        drop(ahead);
        if let Err(panic) = producer.join() {
            std::panic::resume_unwind(panic);
        }
        result
    })
}

/// Fills chunks from `input` and sends them until the input ends, fails, or the consumer is gone.
fn produce(mut input: impl Read, chunk: usize, pieces: &SyncSender<Piece>, reuse: &Receiver<Vec<u8>>) {
    loop {
        let mut buf = reuse.try_recv().unwrap_or_else(|_| Vec::with_capacity(chunk));
        let filled = fill(&mut input, &mut buf, chunk);
        if !buf.is_empty() && pieces.send(Ok(buf)).is_err() {
            return;
        }
        match filled {
            Ok(true) => {}
            Ok(false) => return drop(pieces.send(Ok(Vec::new()))),
            Err(err) => return drop(pieces.send(Err(err))),
        }
    }
}

/// Reads into `buf` until it holds `chunk` bytes (true) or the input ends (false); the input's
/// error, if it fails, with the bytes read before it in `buf`.
fn fill(input: &mut impl Read, buf: &mut Vec<u8>, chunk: usize) -> io::Result<bool> {
    buf.resize(chunk, 0);
    let mut filled = 0;
    let more = loop {
        if filled == chunk {
            break Ok(true);
        }
        match input.read(&mut buf[filled..]) {
            Ok(0) => break Ok(false),
            Ok(read) => filled += read,
            Err(err) if err.kind() == ErrorKind::Interrupted => {}
            Err(err) => break Err(err),
        }
    };
    buf.truncate(filled);
    more
}

/// The consumer's end: a [`Read`] over the chunks the producer sends.
pub(super) struct Ahead {
    pieces: Receiver<Piece>,
    spent: SyncSender<Vec<u8>>,
    chunk: Vec<u8>,
    pos: usize,
    /// The input has ended (at its end or with an error).
    ended: bool,
    /// The input's error, once met: given after the bytes before it, then again (as its kind and
    /// text) to a caller that reads on.
    error: Option<io::Error>,
}

impl Ahead {
    /// Takes the next chunk when the one at hand is spent; false once the input has ended.
    fn next_chunk(&mut self) -> bool {
        if self.ended {
            return false;
        }
        let piece = self.pieces.recv().unwrap_or_else(|_| {
            // Only a panic ends the producer without a last piece: `read_ahead` re-raises it.
            Err(io::Error::other("the thread reading ahead stopped"))
        });
        match piece {
            Ok(chunk) if !chunk.is_empty() => {
                let spent = std::mem::replace(&mut self.chunk, chunk);
                if spent.capacity() > 0 {
                    // The producer allocates anew when no spent chunk is back.
                    let _ = self.spent.try_send(spent);
                }
                self.pos = 0;
                return true;
            }
            Ok(_) => {}
            Err(err) => self.error = Some(err),
        }
        self.ended = true;
        false
    }
}

impl Read for Ahead {
    /// Fills `buf` as far as the input goes (waiting for the producer as needed), so the reader's
    /// window sees whole chunks as it would from the file; an error comes after the bytes before it.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut copied = 0;
        while copied < buf.len() {
            if self.pos == self.chunk.len() && !self.next_chunk() {
                break;
            }
            let n = (buf.len() - copied).min(self.chunk.len() - self.pos);
            buf[copied..copied + n].copy_from_slice(&self.chunk[self.pos..self.pos + n]);
            (copied, self.pos) = (copied + n, self.pos + n);
        }
        match self.error.take() {
            Some(err) if copied == 0 => {
                self.error = Some(io::Error::new(err.kind(), err.to_string()));
                Err(err)
            }
            error => {
                self.error = error;
                Ok(copied)
            }
        }
    }
}

#[cfg(test)]
mod tests;
