//! The write step of the migration: the output tree of a [`Plan`] under the output
//! directory. [`check_overwrite`] refuses, before anything is written, when any output
//! (or the report) exists without `--force`; [`write_all`] writes every file atomically
//! in parallel (each one is synced, so the waits overlap) and copies the LUT images.
//!
//! Writes only the plan's outputs, only under the output directory, only through
//! [`crate::output::write_atomic`]; a file that cannot be written is an error message
//! for the caller, never a panic, and does not stop the others.

use super::plan::Plan;
use crate::output::{clean_debris, first_existing, write_atomic, WriteError};
use rayon::prelude::*;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// What one output file holds.
enum Content<'a> {
    Text(&'a str),
    /// A LUT image copied from this file.
    Copy(&'a Path),
}

/// One output file.
struct OutputFile<'a> {
    path: PathBuf,
    content: Content<'a>,
}

/// Every file `plan` writes under `out`: shaders, presets, then LUT copies.
fn files<'a>(plan: &'a Plan, out: &Path) -> Vec<OutputFile<'a>> {
    let text = |output: &Path, text: &'a str| OutputFile { path: out.join(output), content: Content::Text(text) };
    plan.shaders
        .iter()
        .filter_map(|s| Some(text(&s.output, s.text.as_deref()?)))
        .chain(plan.presets.iter().filter_map(|p| Some(text(&p.output, p.text.as_deref()?))))
        .chain(plan.copies.iter().map(|c| OutputFile { path: out.join(&c.output), content: Content::Copy(&c.source) }))
        .collect()
}

/// Refuses (with the message to show) when an output of `plan` under `out`, or
/// `report`, already exists and `force` is not set. Nothing is written either way.
pub fn check_overwrite(plan: &Plan, out: &Path, report: Option<&Path>, force: bool) -> Result<(), String> {
    let files = files(plan, out);
    let every_output = files.iter().map(|f| f.path.as_path()).chain(report);
    match first_existing(every_output, force) {
        Some((count, first)) => Err(format!(
            "{count} output files already exist (first: {}); nothing was written. Use --force to overwrite.",
            first.display()
        )),
        None => Ok(()),
    }
}

/// What [`write_all`] did.
#[derive(Debug, Default)]
pub struct Written {
    pub luts_copied: usize,
    /// Why each file that could not be written was not, in output order.
    pub errors: Vec<String>,
}

/// Removes the debris of killed runs under `out`, then writes every output of `plan`
/// (in the current rayon pool).
pub fn write_all(plan: &Plan, out: &Path) -> Written {
    clean_debris(out);
    let outcomes: Vec<Result<bool, String>> = files(plan, out).par_iter().map(write_one).collect();
    let mut written = Written::default();
    for outcome in outcomes {
        match outcome {
            Ok(true) => written.luts_copied += 1,
            Ok(false) => {}
            Err(message) => written.errors.push(message),
        }
    }
    written
}

/// Ok(whether it copied a LUT), or Err(why the output could not be written).
fn write_one(file: &OutputFile) -> Result<bool, String> {
    let (bytes, copied) = match file.content {
        Content::Text(t) => (Cow::Borrowed(t.as_bytes()), false),
        Content::Copy(source) => {
            match grammar::source::read_regular(source, translator::preset::files::MAX_IMAGE_BYTES) {
                Ok(b) => (Cow::Owned(b), true),
                // A LUT that cannot be copied leaves a .slangp naming a missing file.
                Err(e) => return Err(format!("cannot read LUT {}: {e}", source.display())),
            }
        }
    };
    let path = &file.path;
    match write_atomic(path, &bytes, true) {
        Ok(()) => Ok(copied),
        Err(WriteError::Exists) => Err(format!("cannot write {}: exists", path.display())),
        Err(WriteError::Io(e)) => Err(format!("cannot write {}: {e}", path.display())),
    }
}
