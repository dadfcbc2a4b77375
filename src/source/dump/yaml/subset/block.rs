//! Block scalars of the subset: literal (`|`) and folded (`>`), with their chomping, read line by
//! line into a JSON string. Indentation indicators, spaces-only lines, and folded text with blank
//! or more indented lines are left to the parser.

use std::io::BufRead;

use super::{Fast, Transcoder, Unsupported, scalar};

/// A literal (`|`, `|-`, `|+`) or folded (`>`, `>-`, `>+`) block scalar being read.
pub(super) struct Block {
    /// Its lines are indented deeper than this.
    parent: usize,
    /// Set by the first line with content.
    indent: Option<usize>,
    /// Line breaks read but not written yet.
    breaks: usize,
    chomp: Chomp,
    /// `>`: folded.
    folded: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Chomp {
    Clip,
    Strip,
    Keep,
}

impl<R: BufRead> Transcoder<R> {
    pub(super) fn start_block(&mut self, header: &str, parent: usize) -> Fast<()> {
        let (folded, chomp) = header.split_at(1);
        let chomp = match chomp {
            "" => Chomp::Clip,
            "-" => Chomp::Strip,
            "+" => Chomp::Keep,
            _ => return Err(Unsupported),
        };
        self.out.push(b'"');
        self.block = Some(Block { parent, indent: None, breaks: 0, chomp, folded: folded == ">" });
        Ok(())
    }

    /// Takes a line into the open block scalar; false when the line ends it (the block is
    /// closed, and the line is then read as usual).
    pub(super) fn block_line(&mut self, indent: usize, rest: &str) -> Fast<bool> {
        let Some(block) = self.block.as_mut() else { return Ok(false) };
        if rest.is_empty() {
            // A blank line; one with spaces only could hold content spaces: the parser's.
            if indent > 0 {
                return Err(Unsupported);
            }
            block.breaks += 1;
            return Ok(true);
        }
        let first = block.indent.is_none();
        let content = match block.indent {
            None if indent > block.parent => *block.indent.insert(indent),
            Some(content) if indent >= content => content,
            Some(content) if indent > block.parent && indent < content => return Err(Unsupported),
            _ => {
                self.end_block()?;
                return Ok(false);
            }
        };
        if block.folded {
            // Lines folded into one: each line break between two lines of the same indentation is
            // a space. Blank or more indented lines fold by rules left to the parser.
            match (indent == content, block.breaks, first) {
                (true, 0, true) => {}
                (true, 1, false) => self.out.push(b' '),
                _ => return Err(Unsupported),
            }
        } else {
            for _ in 0..block.breaks {
                self.out.extend_from_slice(b"\\n");
            }
            self.out.extend(std::iter::repeat_n(b' ', indent - content));
        }
        block.breaks = 1;
        scalar::block_line(rest, &mut self.out);
        Ok(true)
    }

    /// Closes the open block scalar, its trailing line breaks chomped.
    pub(super) fn end_block(&mut self) -> Fast<()> {
        let Some(block) = self.block.take() else { return Ok(()) };
        let breaks = match (block.chomp, block.indent) {
            // Keep with no content: only line breaks, by rules left to the parser.
            (Chomp::Keep, None) if block.breaks > 0 => return Err(Unsupported),
            (_, None) | (Chomp::Strip, _) => 0,
            (Chomp::Clip, Some(_)) => 1,
            (Chomp::Keep, Some(_)) => block.breaks,
        };
        for _ in 0..breaks {
            self.out.extend_from_slice(b"\\n");
        }
        self.out.push(b'"');
        Ok(())
    }
}
