//! What the CLI integration tests share: running the built `cg2slang` binary in a
//! directory and checking its exit status with its output shown on failure.

use std::path::Path;
use std::process::Command;

/// One finished run of the binary.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `cg2slang --color never ARGS...` in `cwd`.
pub fn cg2slang(args: &[&str], cwd: &Path) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_cg2slang"))
        .current_dir(cwd)
        .arg("--color")
        .arg("never")
        .args(args)
        .output()
        .expect("the cg2slang binary runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Asserts the exit status, printing both streams when it differs.
pub fn expect(run: &Run, code: i32) {
    assert_eq!(run.code, Some(code), "exit status\n--- stdout:\n{}\n--- stderr:\n{}", run.stdout, run.stderr);
}
