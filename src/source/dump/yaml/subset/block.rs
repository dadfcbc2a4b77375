//! Block scalars of the subset (`|`, `|-`, `|+`, `>`, `>-`, `>+`): their lines are gathered as they
//! are and the scalar alone is read by serde-saphyr (chomping, folding and indentation are its
//! rules), then written as a JSON string. An indentation indicator (`|2`), or a scalar longer
//! than [`MAX_BLOCK`], is left to the parser with the whole text.

use super::{Fast, Transcoder, Unsupported};

/// Longest block scalar gathered: an annotation holds at most 256 KiB, a ConfigMap 1 MiB.
const MAX_BLOCK: usize = 4 << 20;

/// A block scalar being gathered.
pub(super) struct Block {
    /// Its lines are indented deeper than this.
    parent: usize,
    /// Its header and its lines, as a YAML document of the scalar alone.
    text: String,
}

impl Transcoder {
    pub(super) fn start_block(&mut self, header: &str, parent: usize) -> Fast<()> {
        if !matches!(&header[1..], "" | "-" | "+") {
            return Err(Unsupported);
        }
        self.block = Some(Block { parent, text: format!("{header}\n") });
        Ok(())
    }

    /// Takes a line (`indent` spaces, then text) into the open block scalar when it is blank or
    /// deeper than the scalar's parent; false when it ends the scalar (which is then written, and
    /// the line read as usual).
    pub(super) fn block_line(&mut self, indent: usize, line: &str) -> Fast<bool> {
        let Some(block) = self.block.as_mut() else { return Ok(false) };
        if line.len() > indent && indent <= block.parent {
            self.end_block()?;
            return Ok(false);
        }
        if block.text.len() + line.len() > MAX_BLOCK {
            return Err(Unsupported);
        }
        block.text.push_str(line);
        // The last line of an input may end without a line break, which chomping sees.
        if !self.unended {
            block.text.push('\n');
        }
        Ok(true)
    }

    /// Writes the open block scalar, as serde-saphyr reads it.
    pub(super) fn end_block(&mut self) -> Fast<()> {
        let Some(block) = self.block.take() else { return Ok(()) };
        let text = match literal(&block.text) {
            Some(text) => text,
            None => {
                let options = super::super::options(&block.text);
                serde_saphyr::from_str_with_options(&block.text, options).map_err(|_| Unsupported)?
            }
        };
        serde_json::to_writer(&mut self.out, &text).map_err(|_| Unsupported)
    }
}

/// The common cases without the parser: `|`, `|-`, `>` or `>-` whose lines all stand at one
/// indentation, none blank (an annotation's JSON as kubectl writes `last-applied-configuration`, a
/// long image name of a Node), read as its lines: kept apart (`|`), or folded into one with
/// spaces (`>`; a line ending in a space is left to the parser).
pub(super) fn literal(block: &str) -> Option<String> {
    let (header, body) = block.split_once('\n')?;
    let (join, chomp) = match header {
        "|" => ("\n", "\n"),
        "|-" => ("\n", ""),
        ">" => (" ", "\n"),
        ">-" => (" ", ""),
        _ => return None,
    };
    let indent = body.len() - body.trim_start_matches(' ').len();
    let at_indent = |line: &&str| {
        line.len() > indent
            && line.len() - line.trim_start_matches(' ').len() == indent
            && (join == "\n" || !line.ends_with(' '))
    };
    let mut lines = body.strip_suffix('\n')?.split('\n');
    (indent > 0 && lines.clone().all(|line| at_indent(&line))).then(|| {
        let mut text = lines.next().map_or("", |line| &line[indent..]).to_string();
        lines.for_each(|line| text.extend([join, &line[indent..]]));
        text + chomp
    })
}
