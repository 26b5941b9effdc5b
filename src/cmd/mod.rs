//! Subcommands of the `cg2slang` CLI and the pieces they share.
//!
//! [`Cli`] is the clap definition of the whole command line; every subcommand lives in
//! its own module (`parse` today; `analyze`, `translate`, `migrate`, `check`, `render`
//! and `compare` will slot in beside it) and exposes an `Args` struct plus a `run`
//! function that returns an [`Exit`]. Options every front-end command needs (`-I`, `-D`)
//! are grouped in [`FrontendArgs`]; diagnostic rendering and colour choice live in
//! [`Reporter`]. Nothing here panics on user input: bad arguments become clap usage
//! errors (exit 2) and unreadable files become I/O errors (exit 2).

mod analyze;
mod check;
mod compare;
mod migrate;
mod parse;
mod render;
mod review;
mod translate;

use clap::{Args, Parser, Subcommand, ValueEnum};
use grammar::diagnostic::{render_ansi, render_plain};
use grammar::{Diagnostic, PpOptions, Severity, SourceMap};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Port legacy NVIDIA Cg 3.1 shaders to Vulkan GLSL (RetroArch slang).
#[derive(Debug, Parser)]
#[command(name = "cg2slang", version, about, propagate_version = true)]
pub struct Cli {
    /// When to colour diagnostics: `auto` colours only a terminal and honours NO_COLOR.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Preprocess and parse one Cg file; report diagnostics, optionally dump the AST.
    Parse(parse::ParseArgs),
    /// Analyse one Cg file under its profiles; report diagnostics, optionally dump the IR.
    Analyze(analyze::AnalyzeArgs),
    /// Translate one Cg file to slang.
    Translate(translate::TranslateArgs),
    /// Migrate a Cg library (.cgp presets, .cg files, directories) to slang.
    Migrate(migrate::MigrateArgs),
    /// Re-translate a Cg library and diff it against a committed slang tree (for CI).
    Check(check::CheckArgs),
    /// Migrate a Cg library and write a static review site (pages per preset and shader).
    Review(review::ReviewArgs),
    /// Render a slang preset headlessly (wgpu) to a PNG.
    Render(render::RenderArgs),
    /// Render a Cg preset's original (CPU reference) and translation (GPU) and compare.
    Compare(compare::CompareArgs),
}

impl Command {
    /// Whether the command may run work on rayon's global pool, which `main` then builds
    /// with [`STACK_BYTES`] stacks before it starts. Every command that reads Cg may
    /// (`migrate`, `check`, `review` and `compare` run presets and passes in parallel).
    /// `render` reads slang and renders on one thread: building the pool, a thread per
    /// core started at once, was 1.7 ms of its start-up on a 16-core machine.
    fn uses_thread_pool(&self) -> bool {
        !matches!(self, Command::Render(_))
    }
}

/// The `--color` choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

/// Preprocessor options shared by every command that reads Cg.
#[derive(Debug, Args)]
pub struct FrontendArgs {
    /// Add a directory to the `#include` search path (searched after the including
    /// file's own directory, in the order given).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,

    /// Define a macro as `NAME` (value 1) or `NAME=VALUE`, as the C compiler flag does.
    #[arg(short = 'D', long = "define", value_name = "NAME[=VALUE]", value_parser = parse_define)]
    pub defines: Vec<(String, Option<String>)>,
}

impl FrontendArgs {
    pub fn pp_options(&self) -> PpOptions {
        PpOptions { include_dirs: self.include_dirs.clone(), defines: self.defines.clone(), ..PpOptions::default() }
    }
}

/// Parses one `-D` argument: `NAME` or `NAME=VALUE`, `NAME` a C identifier.
fn parse_define(arg: &str) -> Result<(String, Option<String>), String> {
    let (name, value) = match arg.split_once('=') {
        Some((name, value)) => (name, Some(value.to_owned())),
        None => (arg, None),
    };
    let mut chars = name.chars();
    let valid = matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric());
    if valid {
        Ok((name.to_owned(), value))
    } else {
        Err(format!("`{name}` is not a macro name (expected NAME or NAME=VALUE, NAME a C identifier)"))
    }
}

/// How a command ended; mapped to the process exit code in one place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Success; warnings may have been printed.
    Clean,
    /// At least one error diagnostic was reported.
    Errors,
    /// A usage error or an input/output failure.
    Failure,
}

impl Exit {
    pub fn code(self) -> u8 {
        match self {
            Exit::Clean => 0,
            Exit::Errors => 1,
            Exit::Failure => 2,
        }
    }
}

/// Renders diagnostics to stderr, in colour or not.
pub struct Reporter {
    color: bool,
}

impl Reporter {
    pub fn new(choice: ColorChoice) -> Reporter {
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
                !no_color && std::io::stderr().is_terminal()
            }
        };
        Reporter { color }
    }

    /// Prints diagnostics (with source snippets) followed by a one-line summary.
    pub fn diagnostics(&self, sources: &SourceMap, diagnostics: &[Diagnostic]) {
        if diagnostics.is_empty() {
            return;
        }
        let errors = diagnostics.iter().filter(|d| d.severity == Severity::Error).count();
        let warnings = diagnostics.iter().filter(|d| d.severity == Severity::Warning).count();
        let mut capped = diagnostics.to_vec();
        grammar::cap_per_code(&mut capped, grammar::diagnostic::MAX_PER_CODE);
        let diagnostics = &capped[..];
        let text = if self.color { render_ansi(sources, diagnostics) } else { render_plain(sources, diagnostics) };
        let mut stderr = std::io::stderr().lock();
        // A closed stderr leaves nothing useful to do; the exit code still tells.
        let _ = stderr.write_all(text.as_bytes());
        let _ = writeln!(stderr, "{}", summary(errors, warnings));
    }

    /// Prints a warning that is not tied to a source location (a skipped directory).
    pub fn warning(&self, message: &str) {
        let mut stderr = std::io::stderr().lock();
        let _ = if self.color {
            writeln!(stderr, "\x1b[1;33mwarning\x1b[0m\x1b[1m: {message}\x1b[0m")
        } else {
            writeln!(stderr, "warning: {message}")
        };
    }

    /// Prints a message that is not tied to a source location (usage, I/O).
    pub fn error(&self, message: &str) {
        let mut stderr = std::io::stderr().lock();
        let _ = if self.color {
            writeln!(stderr, "\x1b[1;31merror\x1b[0m\x1b[1m: {message}\x1b[0m")
        } else {
            writeln!(stderr, "error: {message}")
        };
    }
}

fn summary(errors: usize, warnings: usize) -> String {
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    format!("{}, {} emitted", plural(errors, "error"), plural(warnings, "warning"))
}

/// Writes command output to stdout. A closed pipe (`cg2slang parse --dump-ast x | head`)
/// is not an error; any other write failure is.
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Entry point: parses the command line, runs the subcommand, picks the exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints usage errors to stderr and --help/--version to stdout.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { Exit::Failure.code() } else { Exit::Clean.code() });
        }
    };
    let reporter = Reporter::new(cli.color);
    // The deepest trees the parser accepts (grammar::parser::actions) are walked
    // recursively by later passes: every thread that runs them gets this stack.
    if cli.command.uses_thread_pool() {
        let _ = rayon::ThreadPoolBuilder::new().stack_size(STACK_BYTES).build_global();
    }
    let run = move || match &cli.command {
        Command::Parse(args) => parse::run(args, &reporter),
        Command::Analyze(args) => analyze::run(args, &reporter),
        Command::Translate(args) => translate::run(args, &reporter),
        Command::Migrate(args) => migrate::run(args, &reporter),
        Command::Check(args) => check::run(args, &reporter),
        Command::Review(args) => review::run(args, &reporter),
        Command::Render(args) => render::run(args, &reporter),
        Command::Compare(args) => compare::run(args, &reporter),
    };
    let exit = match std::thread::Builder::new().stack_size(STACK_BYTES).spawn(run) {
        Ok(handle) => handle.join().unwrap_or(Exit::Failure),
        Err(e) => {
            eprintln!("error: cannot start the main thread: {e}");
            Exit::Failure
        }
    };
    ExitCode::from(exit.code())
}

/// Stack of every thread that walks syntax trees (address space, touched only as used).
pub const STACK_BYTES: usize = 256 << 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn define_accepts_name_and_name_value() {
        assert_eq!(parse_define("FOO"), Ok(("FOO".to_owned(), None)));
        assert_eq!(parse_define("_X1=2.0"), Ok(("_X1".to_owned(), Some("2.0".to_owned()))));
        assert_eq!(parse_define("A=B=C"), Ok(("A".to_owned(), Some("B=C".to_owned()))));
        assert_eq!(parse_define("EMPTY="), Ok(("EMPTY".to_owned(), Some(String::new()))));
    }

    #[test]
    fn define_rejects_non_identifiers() {
        for bad in ["", "=1", "1X", "A-B", "A B=1"] {
            assert!(parse_define(bad).is_err(), "{bad:?} should be rejected");
        }
    }

    #[test]
    fn summary_pluralises() {
        assert_eq!(summary(1, 0), "1 error, 0 warnings emitted");
        assert_eq!(summary(2, 1), "2 errors, 1 warning emitted");
    }

    #[test]
    fn exit_codes_are_stable() {
        assert_eq!([Exit::Clean.code(), Exit::Errors.code(), Exit::Failure.code()], [0, 1, 2]);
    }

    /// `render` starts no thread pool; every command that reads Cg gets it with its
    /// deep-tree stacks.
    #[test]
    fn only_commands_that_read_cg_build_the_thread_pool() {
        let parse = |args: &[&str]| Cli::try_parse_from(args).expect("valid command line").command;
        let render = parse(&["cg2slang", "render", "p.slangp", "--image", "in.png", "--out", "o.png"]);
        assert!(!render.uses_thread_pool());
        for cg in [
            &["cg2slang", "migrate", "lib", "--out", "out"][..],
            &["cg2slang", "check", "lib", "--against", "out"],
            &["cg2slang", "review", "lib", "--out", "site"],
            &["cg2slang", "compare", "p.cgp", "--image", "in.png", "--out-dir", "d"],
            &["cg2slang", "translate", "a.cg"],
        ] {
            assert!(parse(cg).uses_thread_pool(), "{cg:?}");
        }
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
