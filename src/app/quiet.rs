//! `--quiet`: stderr without the `note:` lines (the version-inference note on every command of a
//! `kubectl get` dump, skipped objects, …); errors and their hints are printed after the run by
//! `entry` and never pass here.

use std::io::Write;

/// A writer that drops the lines starting with `note:` when `quiet`, line by line.
pub(super) struct Quiet<'a> {
    inner: &'a mut dyn Write,
    quiet: bool,
    /// The start of a line not ended yet.
    line: Vec<u8>,
}

impl<'a> Quiet<'a> {
    pub(super) fn new(inner: &'a mut dyn Write, quiet: bool) -> Self {
        Quiet { inner, quiet, line: Vec::new() }
    }

    fn emit(&mut self, line: &[u8]) -> std::io::Result<()> {
        if line.starts_with(b"note:") { Ok(()) } else { self.inner.write_all(line) }
    }
}

impl Write for Quiet<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.quiet {
            return self.inner.write(buf);
        }
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|b| *b == b'\n') {
            let mut line = std::mem::take(&mut self.line);
            line.extend_from_slice(&rest[..=end]);
            self.emit(&line)?;
            rest = &rest[end + 1..];
        }
        self.line.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.emit(&line)?;
        }
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_dropped_whole_and_the_rest_kept() {
        let mut out = Vec::new();
        let mut quiet = Quiet::new(&mut out, true);
        quiet.write_all(b"note: a\nwarn").unwrap();
        quiet.write_all(b"ing: b\nno").unwrap();
        quiet.write_all(b"te: c").unwrap();
        quiet.flush().unwrap();
        assert_eq!(out, b"warning: b\n");
        let mut out = Vec::new();
        Quiet::new(&mut out, false).write_all(b"note: a\n").unwrap();
        assert_eq!(out, b"note: a\n");
    }
}
