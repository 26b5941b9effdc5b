//! The `cg2slang` command line: ports legacy Cg 3.1 shaders to RetroArch slang.
//!
//! This binary is a thin shell over the library crates. It parses arguments with clap,
//! hands them to one module per subcommand in [`cmd`], and is the only place in the
//! workspace that prints to the terminal or chooses a process exit code:
//! 0 for success (warnings allowed), 1 when any error diagnostic was reported, 2 for
//! usage and I/O errors.

mod cmd;

use std::process::ExitCode;

/// mimalloc for the whole process: the front end, the writer, glslang and naga make
/// many short-lived allocations, which glibc's allocator served slowly.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cmd::main()
}
