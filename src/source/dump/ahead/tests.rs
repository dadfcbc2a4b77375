use std::io::{self, ErrorKind, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{DEPTH, read_ahead};

/// Hands out one byte per read.
struct OneByte<R>(R);

impl<R: Read> Read for OneByte<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let end = buf.len().min(1);
        self.0.read(&mut buf[..end])
    }
}

fn text(len: usize) -> Vec<u8> {
    (0..len).map(|i| b"{\"items\": [1, 2, 3]}\n"[i % 21]).collect()
}

/// Chunks as `read_ahead` asks for them, from `pieces`: each written into the spent chunk given.
fn from(
    pieces: impl IntoIterator<Item = io::Result<Vec<u8>>, IntoIter: Send>,
) -> impl FnMut(Vec<u8>) -> Option<io::Result<Vec<u8>>> + Send {
    let mut pieces = pieces.into_iter();
    move |mut spare| {
        let piece = pieces.next()?;
        spare.clear();
        Some(piece.map(|piece| {
            spare.extend_from_slice(&piece);
            spare
        }))
    }
}

/// `text` in chunks of `chunk` bytes, with an empty chunk after each.
fn chunks(text: &[u8], chunk: usize) -> impl FnMut(Vec<u8>) -> Option<io::Result<Vec<u8>>> + Send + use<> {
    let pieces: Vec<Vec<u8>> = text.chunks(chunk).flat_map(|c| [c.to_vec(), Vec::new()]).collect();
    from(pieces.into_iter().map(Ok))
}

#[test]
fn hands_over_the_chunks_whole_and_in_order() {
    for (len, chunk) in [(0, 8), (1, 8), (8, 8), (9, 8), (1000, 7), (3 << 20, 1 << 20)] {
        let input = text(len);
        let mut out = Vec::new();
        read_ahead(chunks(&input, chunk), |ahead| ahead.read_to_end(&mut out)).expect("no error");
        assert_eq!(out, input, "{len} bytes in chunks of {chunk}");
    }
}

#[test]
fn small_reads_of_the_consumer_see_every_byte() {
    let input = text(1000);
    let out = read_ahead(chunks(&input, 16), |ahead| {
        let mut out = Vec::new();
        OneByte(ahead).read_to_end(&mut out).expect("no error");
        out
    });
    assert_eq!(out, input);
}

#[test]
fn the_inputs_error_comes_after_its_bytes_and_nothing_after_it() {
    let error = io::Error::new(ErrorKind::PermissionDenied, "Permission denied (os error 13)");
    let pieces: Vec<_> =
        text(100).chunks(8).map(|c| Ok(c.to_vec())).chain([Err(error), Ok(text(10))]).collect();
    let input = from(pieces);
    let (out, first, again) = read_ahead(input, |ahead| {
        let mut out = Vec::new();
        let first = ahead.read_to_end(&mut out).expect_err("the input fails");
        let again = ahead.read(&mut [0; 4]).expect_err("still failed");
        (out, first, again)
    });
    assert_eq!(out, text(100), "the bytes before the error");
    assert_eq!(first.kind(), ErrorKind::PermissionDenied);
    assert_eq!(first.to_string(), "Permission denied (os error 13)");
    assert_eq!(again.to_string(), "the input failed");
}

/// Endless chunks, counting those made.
fn endless(made: &Arc<AtomicUsize>) -> impl FnMut(Vec<u8>) -> Option<io::Result<Vec<u8>>> + Send + use<> {
    let made = made.clone();
    move |_| {
        made.fetch_add(1, Ordering::SeqCst);
        Some(Ok(vec![b'x'; 1024]))
    }
}

#[test]
fn a_consumer_that_stops_early_ends_the_producer() {
    let made = Arc::new(AtomicUsize::new(0));
    let first = read_ahead(endless(&made), |ahead| {
        let mut first = [0; 10];
        ahead.read_exact(&mut first).expect("bytes");
        first
    });
    // `read_ahead` returned, so the producer has ended; it made a few chunks at most.
    assert_eq!(&first, b"xxxxxxxxxx");
    let made = made.load(Ordering::SeqCst);
    assert!(made <= DEPTH + 3, "{made} chunks of an endless input");
}

#[test]
fn a_consumer_that_reads_nothing_ends_the_producer() {
    let made = Arc::new(AtomicUsize::new(0));
    read_ahead(endless(&made), |_| ());
    assert!(made.load(Ordering::SeqCst) <= DEPTH + 2);
}

#[test]
#[should_panic(expected = "the input panicked")]
fn a_panic_in_the_producer_is_the_callers() {
    let panicking = |_| -> Option<io::Result<Vec<u8>>> { panic!("the input panicked") };
    let mut out = Vec::new();
    read_ahead(panicking, |ahead| ahead.read_to_end(&mut out)).expect("the consumer sees the input end");
}

#[test]
fn spent_chunks_are_written_again() {
    let input = text(64 << 10);
    let fresh = Arc::new(AtomicUsize::new(0));
    let counted = fresh.clone();
    let mut pieces = input.chunks(1024).map(<[u8]>::to_vec);
    let next = move |mut spare: Vec<u8>| {
        counted.fetch_add(usize::from(spare.capacity() == 0), Ordering::SeqCst);
        let piece = pieces.next()?;
        spare.clear();
        spare.extend_from_slice(&piece);
        Some(Ok(spare))
    };
    let mut out = Vec::new();
    read_ahead(next, |ahead| ahead.read_to_end(&mut out)).expect("no error");
    assert_eq!(out, input);
    let fresh = fresh.load(Ordering::SeqCst);
    assert!(fresh < 64, "{fresh} of 64 chunks written into a new buffer");
}
