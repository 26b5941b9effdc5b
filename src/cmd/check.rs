//! `cg2slang check SRC... --against DIR`: the snapshot test for users' CI.
//!
//! Re-translates SRC exactly as `migrate` would (same discovery, same planner, no
//! validation: only the text matters here) and compares every output with the file of
//! the same relative path under DIR. Prints a unified diff (the `similar` crate) for
//! each file that differs, and names files that are missing from DIR. It never writes,
//! except with `--accept`: then the outputs that differ or are missing are written over
//! DIR (atomically, only those files) and a summary of what was accepted is printed,
//! as `cargo insta accept` does for snapshots.
//! Exit 0 when every output is identical (or was accepted), 1 when anything differs or
//! is missing, or did not translate, 2 on usage or I/O errors.

use super::{write_stdout, Exit, Reporter};
use cg2slang::migrate::{self, discover::discover};
use cg2slang::output::write_atomic;
use clap::Args;
use grammar::RealFs;
use similar::TextDiff;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// .cgp presets, .cg files, or directories walked for both (as for migrate).
    #[arg(value_name = "SRC", required = true)]
    pub sources: Vec<PathBuf>,

    /// The committed slang tree (an earlier `migrate --out DIR`).
    #[arg(long = "against", value_name = "DIR")]
    pub against: PathBuf,

    /// Lines of context around each change.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub context: usize,

    /// Write the current translations over DIR where they differ or are missing (the
    /// new baseline), instead of failing.
    #[arg(long)]
    pub accept: bool,
}

pub fn run(args: &CheckArgs, reporter: &Reporter) -> Exit {
    if !args.against.is_dir() {
        reporter.error(&format!("--against {}: not a directory", args.against.display()));
        return Exit::Failure;
    }
    let found = match discover(&args.sources, &args.against, false) {
        Ok(found) => found,
        Err(message) => {
            reporter.error(&message);
            return Exit::Failure;
        }
    };
    for w in &found.warnings {
        reporter.warning(w);
    }
    let roots = found.roots;
    let plan = migrate::plan(&roots, &grammar::CachedFs::new(&RealFs), false, &|_, _| {});
    let outputs = plan
        .shaders
        .iter()
        .filter_map(|s| Some((&s.output, s.text.as_ref()?)))
        .chain(plan.presets.iter().filter_map(|p| Some((&p.output, p.text.as_ref()?))));
    let (mut same, mut changed, mut missing) = (0, 0, 0);
    let mut accepted: Vec<(&std::path::Path, &str, &str)> = Vec::new(); // output, text, why
    let mut out = String::new();
    for (output, text) in outputs {
        let committed_path = args.against.join(output);
        let committed = match grammar::source::read_regular(&committed_path, grammar::source::MAX_SOURCE_BYTES) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                missing += 1;
                out.push_str(&format!("missing: {} (the translation produces it)\n", committed_path.display()));
                accepted.push((output, text, "new"));
                continue;
            }
            Err(e) => {
                reporter.error(&format!("cannot read {}: {e}", committed_path.display()));
                return Exit::Failure;
            }
        };
        if committed == *text {
            same += 1;
            continue;
        }
        changed += 1;
        accepted.push((output, text, "changed"));
        let old_name = format!("a/{}", output.display());
        let new_name = format!("b/{}", output.display());
        let diff = TextDiff::from_lines(committed.as_str(), text.as_str());
        out.push_str(&diff.unified_diff().context_radius(args.context).header(&old_name, &new_name).to_string());
    }
    if args.accept {
        for (output, text, _) in &accepted {
            let path = args.against.join(output);
            if let Err(e) = write_atomic(&path, text.as_bytes(), true) {
                reporter.error(&format!("cannot write {}: {e}", path.display()));
                return Exit::Failure;
            }
        }
        for (output, _, why) in &accepted {
            out.push_str(&format!("accepted ({why}): {}\n", args.against.join(output).display()));
        }
        out.push_str(&format!(
            "accepted {} files ({changed} changed, {missing} new) into {}\n",
            accepted.len(),
            args.against.display()
        ));
    }
    let failed = plan.shaders.iter().filter(|s| s.text.is_none()).count()
        + plan.presets.iter().filter(|p| p.text.is_none()).count();
    out.push_str(&format!(
        "{same} identical, {changed} changed, {missing} missing{}\n",
        if failed > 0 {
            format!(", {failed} inputs did not translate (run migrate to see why)")
        } else {
            String::new()
        }
    ));
    if let Err(e) = write_stdout(&out) {
        reporter.error(&format!("cannot write to stdout: {e}"));
        return Exit::Failure;
    }
    let pending = if args.accept { 0 } else { changed + missing };
    if pending + failed > 0 {
        Exit::Errors
    } else {
        Exit::Clean
    }
}
