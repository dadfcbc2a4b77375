//! A progress indicator on stderr for listings that take more than a moment. It appears only when
//! `Settings::progress` is true (stderr is a terminal and `TERM` is not `dumb`), only after
//! [`Progress::DELAY`], and erases its line when dropped, so quick runs, pipes, CI logs and
//! `-o json` consumers never see it. stdout is never touched.

use std::io::Write;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

const FRAMES: &[char] = &['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/// The spinner when the locale is not UTF-8.
const ASCII_FRAMES: &[char] = &['|', '/', '-', '\\'];

/// A running indicator; stops and erases its line when dropped.
#[derive(Debug)]
pub(crate) struct Progress {
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// How long a step may take before the indicator appears.
    pub(crate) const DELAY: Duration = Duration::from_millis(300);
    /// Time between frames.
    pub(crate) const INTERVAL: Duration = Duration::from_millis(100);

    /// Show `message` on stderr after [`Self::DELAY`] when `enabled` (an ASCII spinner and message
    /// when the locale is not UTF-8, `unicode` false); otherwise do nothing.
    pub(crate) fn start(enabled: bool, unicode: bool, message: &str) -> Progress {
        if !enabled {
            return Progress { stop: None, thread: None };
        }
        let (frames, message) = if unicode {
            (FRAMES, message.to_string())
        } else {
            (ASCII_FRAMES, crate::render::ascii::to_ascii(message))
        };
        Progress::spin(std::io::stderr(), &message, frames, Progress::DELAY, Progress::INTERVAL)
    }

    fn spin<W: Write + Send + 'static>(
        mut writer: W,
        message: &str,
        frames: &'static [char],
        delay: Duration,
        interval: Duration,
    ) -> Progress {
        let (stop, stopped) = mpsc::channel::<()>();
        let message = crate::escape::escape(message).into_owned();
        let thread = std::thread::spawn(move || {
            if stopped.recv_timeout(delay) != Err(RecvTimeoutError::Timeout) {
                return; // done before anyone would notice
            }
            for frame in frames.iter().cycle() {
                let _ = write!(writer, "\r{frame} {message}");
                let _ = writer.flush();
                if stopped.recv_timeout(interval) != Err(RecvTimeoutError::Timeout) {
                    break;
                }
            }
            // Erase the line so what follows starts on a clean one.
            let _ = write!(writer, "\r\x1b[2K");
            let _ = writer.flush();
        });
        Progress { stop: Some(stop), thread: Some(thread) }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// A writer the test can read after the thread is done.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }

        /// Wait (up to 10 s, the machine may be busy) until something was written.
        fn wait_for_output(&self) {
            for _ in 0..1000 {
                if !self.0.lock().unwrap().is_empty() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }

    #[test]
    fn a_slow_step_shows_frames_then_erases_its_line() {
        let out = Shared::default();
        let progress =
            Progress::spin(out.clone(), "listing", FRAMES, Duration::ZERO, Duration::from_millis(5));
        out.wait_for_output();
        drop(progress);
        let text = out.text();
        assert!(text.starts_with("\r⠋ listing"), "{text:?}");
        assert!(text.ends_with("\r\x1b[2K"), "{text:?}");
    }

    #[test]
    fn a_quick_step_writes_nothing() {
        let out = Shared::default();
        drop(Progress::spin(out.clone(), "listing", FRAMES, Duration::from_secs(60), Progress::INTERVAL));
        assert_eq!(out.text(), "");
    }

    #[test]
    fn messages_are_escaped() {
        let out = Shared::default();
        let progress =
            Progress::spin(out.clone(), "a\u{1b}[2Jb", FRAMES, Duration::ZERO, Duration::from_secs(60));
        out.wait_for_output();
        drop(progress);
        assert!(out.text().contains("a\\u{1b}[2Jb"), "{:?}", out.text());
    }
}
