use std::io::Read;

use super::unindented;

/// `text` unindented, read `step` bytes at a time by the file (chunks cut anywhere).
fn unindent(text: &str, step: usize) -> String {
    let input = Steps { text: text.as_bytes(), step };
    unindented(input, |ahead| {
        let mut out = String::new();
        ahead.read_to_string(&mut out).map(|_| out)
    })
    .expect("read")
}

struct Steps<'t> {
    text: &'t [u8],
    step: usize,
}

impl Read for Steps<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.text.len());
        buf[..n].copy_from_slice(&self.text[..n]);
        self.text = &self.text[n..];
        Ok(n)
    }
}

#[test]
fn only_the_blanks_that_begin_a_line_go_and_every_newline_stays() {
    let text = "{\n    \"a\": \"x  y\",\n\t  \"b\": [\n        1,  2\n    ]\n}\n   ";
    let want = "{\n\"a\": \"x  y\",\n\"b\": [\n1,  2\n]\n}\n";
    for step in [1, 2, 3, 5, 7, 64, 1 << 20] {
        assert_eq!(unindent(text, step), want, "read {step} bytes at a time");
    }
    assert_eq!(unindent("  {}", 1), "  {}", "the first line is left as it is");
}

#[test]
fn a_read_error_is_the_callers() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let read = unindented(Failing, |ahead| ahead.read_to_end(&mut Vec::new()));
    assert_eq!(read.expect_err("fails").to_string(), "disk on fire");
}
