//! `cg2slang parse`: preprocess and parse one Cg file.
//!
//! Runs the grammar crate's front end ([`grammar::parse_file`] on the real file system)
//! and reports every diagnostic it returns, rendered with source snippets that point
//! into the user's own files through `#include`s and macro expansions. With
//! `--dump-ast` the spanned AST is printed to stdout in the stable text form of
//! [`grammar::ast::dump`], also when there were errors (the tree then holds `Error`
//! nodes where the parser recovered). Exit status: 0 clean (warnings allowed), 1 when
//! any error diagnostic, 2 when the input file or an `-I` directory cannot be used.

use super::{write_stdout, Exit, FrontendArgs, Reporter};
use clap::Args;
use grammar::{RealFs, SourceMap};
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ParseArgs {
    /// The Cg file to parse (`.cg`, `.inc`, `.fx`, ...).
    #[arg(value_name = "FILE.cg")]
    pub file: PathBuf,

    #[command(flatten)]
    pub frontend: FrontendArgs,

    /// Print the AST to stdout.
    #[arg(long)]
    pub dump_ast: bool,
}

pub fn run(args: &ParseArgs, reporter: &Reporter) -> Exit {
    for dir in &args.frontend.include_dirs {
        if !dir.is_dir() {
            reporter.error(&format!("include directory `{}` does not exist or is not a directory", dir.display()));
            return Exit::Failure;
        }
    }
    let mut sources = SourceMap::new();
    let result = grammar::parse_file(&mut sources, &args.file, &args.frontend.pp_options(), &RealFs);
    if result.root.is_none() {
        // The input itself could not be read: an I/O failure, not a problem in Cg source.
        reporter.diagnostics(&sources, &result.diagnostics);
        return Exit::Failure;
    }
    reporter.diagnostics(&sources, &result.diagnostics);
    if args.dump_ast {
        let text = grammar::ast::dump::dump(&sources, &result.unit);
        if let Err(e) = write_stdout(&text) {
            reporter.error(&format!("cannot write the AST to stdout: {e}"));
            return Exit::Failure;
        }
    }
    if result.has_errors() {
        Exit::Errors
    } else {
        Exit::Clean
    }
}
