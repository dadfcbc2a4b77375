use std::io::{self, ErrorKind, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{read_ahead, read_ahead_in};

/// Hands out one byte per read.
struct OneByte<R>(R);

impl<R: Read> Read for OneByte<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let end = buf.len().min(1);
        self.0.read(&mut buf[..end])
    }
}

/// `bytes`, then `error` (after one `Interrupted`, which is read again).
struct Failing {
    bytes: Vec<u8>,
    pos: usize,
    interrupted: bool,
    error: Option<io::Error>,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos < self.bytes.len() {
            let n = buf.len().min(self.bytes.len() - self.pos).min(3);
            buf[..n].copy_from_slice(&self.bytes[self.pos..self.pos + n]);
            self.pos += n;
            return Ok(n);
        }
        if !std::mem::replace(&mut self.interrupted, true) {
            return Err(io::Error::from(ErrorKind::Interrupted));
        }
        Err(self.error.take().unwrap_or_else(|| io::Error::other("read after the error")))
    }
}

/// Endless bytes, counting the reads made.
struct Endless(Arc<AtomicUsize>);

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.fetch_add(1, Ordering::SeqCst);
        buf.fill(b'x');
        Ok(buf.len())
    }
}

fn text(len: usize) -> Vec<u8> {
    (0..len).map(|i| b"{\"items\": [1, 2, 3]}\n"[i % 21]).collect()
}

#[test]
fn hands_over_the_input_whole_and_in_order() {
    for (len, chunk) in [(0, 8), (1, 8), (8, 8), (9, 8), (1000, 7), (3 << 20, 1 << 20)] {
        let input = text(len);
        let mut out = Vec::new();
        read_ahead_in(&input[..], chunk, |ahead| ahead.read_to_end(&mut out)).expect("no error");
        assert_eq!(out, input, "{len} bytes in chunks of {chunk}");
    }
}

#[test]
fn takes_an_input_that_hands_out_one_byte_at_a_time() {
    let input = text(5000);
    let mut out = Vec::new();
    read_ahead_in(OneByte(&input[..]), 64, |ahead| ahead.read_to_end(&mut out)).expect("no error");
    assert_eq!(out, input);
}

#[test]
fn small_reads_of_the_consumer_see_every_byte() {
    let input = text(1000);
    let out = read_ahead_in(&input[..], 16, |ahead| {
        let mut out = Vec::new();
        OneByte(ahead).read_to_end(&mut out).expect("no error");
        out
    });
    assert_eq!(out, input);
}

#[test]
fn the_inputs_error_comes_after_its_bytes_and_again_after() {
    let error = io::Error::new(ErrorKind::PermissionDenied, "Permission denied (os error 13)");
    let failing = Failing { bytes: text(100), pos: 0, interrupted: false, error: Some(error) };
    let (out, first, again) = read_ahead_in(failing, 8, |ahead| {
        let mut out = Vec::new();
        let first = ahead.read_to_end(&mut out).expect_err("the input fails");
        let again = ahead.read(&mut [0; 4]).expect_err("still failed");
        (out, first, again)
    });
    assert_eq!(out, text(100), "the bytes before the error");
    for err in [first, again] {
        assert_eq!(err.kind(), ErrorKind::PermissionDenied);
        assert_eq!(err.to_string(), "Permission denied (os error 13)");
    }
}

#[test]
fn a_consumer_that_stops_early_ends_the_producer() {
    let reads = Arc::new(AtomicUsize::new(0));
    let first = read_ahead_in(Endless(reads.clone()), 1024, |ahead| {
        let mut first = [0; 10];
        ahead.read_exact(&mut first).expect("bytes");
        first
    });
    // `read_ahead` returned, so the producer has ended; it read a few chunks at most.
    assert_eq!(&first, b"xxxxxxxxxx");
    let reads = reads.load(Ordering::SeqCst);
    assert!(reads <= 8, "{reads} reads of an endless input");
}

#[test]
fn a_consumer_that_reads_nothing_ends_the_producer() {
    let reads = Arc::new(AtomicUsize::new(0));
    read_ahead(Endless(reads), |_| ());
}

#[test]
#[should_panic(expected = "the input panicked")]
fn a_panic_in_the_producer_is_the_callers() {
    struct Panicking;
    impl Read for Panicking {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            panic!("the input panicked")
        }
    }
    let mut out = Vec::new();
    let read = read_ahead(Panicking, |ahead| ahead.read_to_end(&mut out));
    assert!(read.is_err(), "the consumer sees the input end with an error");
}
