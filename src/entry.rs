//! The whole command line, from arguments to exit status, with the writers and ambient facts
//! given: what `main` runs on the real process and the argv fuzz target runs in-process.
//!
//! Two policies live here, once for every command: stderr is escaped line by line
//! ([`EscapedLines`]), and output errors end the run the same way ([`after_output`]: a closed
//! pipe ends it without a word, with the exit status already computed — a finding stays exit 1 —
//! or 0 when none was; any other write error is one `error:` line, exit 2).

use std::ffi::OsString;
use std::io::Write;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::Cli;
use crate::cli::usage_error::{ParseOutcome, usage_error};
use crate::error::{Error, after_output};
use crate::escape::{EscapedLines, escape};
use crate::exit::ExitStatus;
use crate::render::FormatKind;
use crate::render::ascii::AsciiWriter;
use crate::render::wrap::WrappedNotes;
use crate::settings::{Ambient, Settings};

/// Run `argv0 args…`: data to `out`, notes and the error to `err`; the exit status.
pub fn run(
    argv0: &str,
    args: &[OsString],
    ambient: &Ambient,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> ExitStatus {
    let bin_name = crate::app::display_name(argv0);
    // `note:` and `hint:` lines wrap at stderr's width, last, so what is measured is what shows.
    let mut wrapped = WrappedNotes::new(err, ambient.stderr_width());
    // Not UTF-8: our typography in ASCII on stderr (and on stdout for tables, see `dispatch`).
    let mut ascii_err;
    let err: &mut dyn Write = if ambient.locale.is_utf8() {
        &mut wrapped
    } else {
        ascii_err = AsciiWriter::new(&mut wrapped);
        &mut ascii_err
    };
    let mut err = EscapedLines::new(err);
    let result = dispatch(argv0, &bin_name, args, ambient, out, &mut err);
    // What is still buffered can fail too (a full disk): it is output like the rest, and a closed
    // pipe keeps the status computed (`check -A | head` fails as `check -A` does).
    let result = result.and_then(|status| after_output(out.flush(), Ok(status)));
    match result {
        Ok(status) => status,
        // A closed pipe (`| head`) before any status was computed: a normal end, exit 0, nothing said.
        Err(error) if error.is_closed_pipe() => ExitStatus::Ok,
        Err(error) => {
            // The whole message escaped at once: a newline inside it cannot start a second line.
            let _ = writeln!(err, "error: {}", escape(&error.to_string()));
            let command = crate::cli::usage_error::command_name(&bin_name, args);
            if let Some(hint) = error.hint(&bin_name, &command) {
                let _ = writeln!(err, "hint: {}", escape(&hint));
            }
            error.exit_status()
        }
    }
}

fn dispatch(
    argv0: &str,
    bin_name: &str,
    args: &[OsString],
    ambient: &Ambient,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    if let Some(written) = crate::internal::run(args, out) {
        return written.map(|()| ExitStatus::Ok).map_err(Error::Write);
    }
    let args = crate::cli::usage_error::kubectl_args(args);
    let parsed = Cli::command()
        .bin_name(bin_name)
        .try_get_matches_from(std::iter::once(argv0.into()).chain(args.iter().cloned()))
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            return match usage_error(&e, bin_name, &args) {
                ParseOutcome::ClapText => clap_text(&e, ambient, out, err),
                ParseOutcome::Usage { error, hint } => Err(Error::Usage { message: error, hint }),
            };
        }
    };
    let settings = Settings::resolve(cli, ambient, bin_name)?;
    if settings.unicode || settings.output.kind() != FormatKind::Table {
        return crate::app::run(&settings, out, err);
    }
    let mut ascii = AsciiWriter::new(out);
    let status = crate::app::run(&settings, &mut ascii, err)?;
    after_output(ascii.flush(), Ok(status))
}

/// `--help`, `--version`, a bare command: clap's text and exit code, written to our writers (so
/// the output-error policy applies), styled only on a terminal.
fn clap_text(
    e: &clap::Error,
    ambient: &Ambient,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitStatus, Error> {
    let text = e.render();
    // A bare `kubectl topo` is a request for help, as kubectl's own: stdout, exit 0.
    let bare = e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand;
    if e.use_stderr() && !bare {
        let _ = write!(err, "{text}");
        return Ok(ExitStatus::Usage);
    }
    let written = if ambient.stdout_is_tty && !ambient.no_color && !ambient.term_dumb {
        write!(out, "{}", text.ansi())
    } else {
        write!(out, "{text}")
    };
    written.map_err(Error::Write)?;
    Ok(if e.exit_code() == 0 || bare { ExitStatus::Ok } else { ExitStatus::Usage })
}
