//! What a connection has moved and when: the stream wrapper that notes every byte, and the note
//! shared with the connection's watchdog.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::Instant;

/// When a connection last moved a byte (milliseconds since `base`) and whether its request waits
/// for a place to answer from, shared with its watchdog.
#[derive(Clone)]
pub(super) struct Moved {
    base: Instant,
    millis: Arc<AtomicU64>,
    waiting: Arc<AtomicBool>,
}

impl Moved {
    pub(super) fn new() -> Self {
        Moved { base: Instant::now(), millis: Arc::new(AtomicU64::new(0)), waiting: Arc::default() }
    }

    pub(super) fn wait(&self, waiting: bool) {
        self.waiting.store(waiting, Ordering::Relaxed);
        self.touch();
    }

    pub(super) fn waiting(&self) -> bool {
        self.waiting.load(Ordering::Relaxed)
    }

    pub(super) fn touch(&self) {
        let millis = u64::try_from(self.base.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.millis.store(millis, Ordering::Relaxed);
    }

    pub(super) fn last(&self) -> Instant {
        self.base + Duration::from_millis(self.millis.load(Ordering::Relaxed))
    }
}

/// A stream that records every byte it moves.
pub(super) struct Tracked {
    pub(super) inner: TcpStream,
    pub(super) moved: Moved,
}

impl AsyncRead for Tracked {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.moved.touch();
        }
        polled
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.moved.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.moved.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
