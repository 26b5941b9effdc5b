//! Integration tests of `cg2slang parse`: exit codes, `-D`/`-I` plumbing, diagnostics.
//!
//! Each test writes its Cg inputs into a fresh temporary directory and runs the real
//! binary with `std::process::Command`, asserting on the exit status, stdout and stderr.
//! Exit codes under test: 0 clean (warnings allowed), 1 error diagnostics, 2 usage or
//! I/O errors.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use tempfile::TempDir;

/// What one run of the binary produced.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn assert_code(&self, expected: i32) -> &Run {
        assert_eq!(
            self.code,
            Some(expected),
            "exit status\n--- stdout:\n{}\n--- stderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }
}

fn cg2slang<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    cg2slang_env(args, &[])
}

fn cg2slang_env<I, S>(args: I, env: &[(&str, &str)]) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cg2slang"));
    cmd.args(args).env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("the cg2slang binary runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn temp() -> TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

fn write(dir: &Path, name: &str, text: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("create the fixture's directory");
    }
    std::fs::write(&path, text).expect("write the fixture");
    path
}

const CLEAN: &str = "\
struct input { float2 video_size; float2 texture_size; float frame_count; };

float4 main_fragment(float2 tex : TEXCOORD0, uniform sampler2D s0 : TEXUNIT0, uniform input IN) : COLOR
{
    return tex2D(s0, tex);
}
";

/// `file:line:col` as the diagnostics render it.
fn at(path: &Path, line: usize, col: usize) -> String {
    format!("{}:{line}:{col}", path.display())
}

#[test]
fn clean_file_exits_0_and_prints_nothing() {
    let dir = temp();
    let file = write(dir.path(), "clean.cg", CLEAN);
    let run = cg2slang([OsStr::new("parse"), file.as_os_str()]);
    run.assert_code(0);
    assert_eq!(run.stderr, "", "no diagnostics expected");
    assert_eq!(run.stdout, "", "nothing on stdout without --dump-ast");
}

#[test]
fn dump_ast_prints_the_tree_to_stdout() {
    let dir = temp();
    let file = write(dir.path(), "clean.cg", CLEAN);
    let run = cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("--dump-ast")]);
    run.assert_code(0);
    assert!(run.stdout.contains("main_fragment"), "the dump names the function:\n{}", run.stdout);
    assert!(run.stdout.contains("video_size"), "the dump names the struct field:\n{}", run.stdout);
    assert_eq!(run.stderr, "");
}

#[test]
fn syntax_error_exits_1_with_location_and_code() {
    let dir = temp();
    let file = write(dir.path(), "broken.cg", "float a = 1.0;\nfloat b = 2.0;\nfloat y = );\n");
    let run = cg2slang([OsStr::new("parse"), OsStr::new("--color"), OsStr::new("never"), file.as_os_str()]);
    run.assert_code(1);
    assert!(run.stderr.contains("error[E0201]"), "{}", run.stderr);
    assert!(run.stderr.contains(&at(&file, 3, 11)), "points at the `)`:\n{}", run.stderr);
    assert!(run.stderr.contains("emitted"), "a summary line ends the report:\n{}", run.stderr);
}

#[test]
fn errors_still_dump_the_recovered_ast() {
    let dir = temp();
    let file = write(dir.path(), "broken.cg", "float y = );\nfloat4 after_the_error() { return 1.0.xxxx; }\n");
    let run = cg2slang([OsStr::new("parse"), OsStr::new("--dump-ast"), file.as_os_str()]);
    run.assert_code(1);
    assert!(run.stdout.contains("after_the_error"), "recovery keeps the later function:\n{}", run.stdout);
}

#[test]
fn warnings_alone_exit_0() {
    let dir = temp();
    // A Latin-1 byte in a comment: the W0101 warning, not an error.
    let mut bytes = b"// caf\xe9\n".to_vec();
    bytes.extend_from_slice(CLEAN.as_bytes());
    let file = write(dir.path(), "latin1.cg", bytes);
    let run = cg2slang([OsStr::new("parse"), file.as_os_str()]);
    run.assert_code(0);
    assert!(run.stderr.contains("warning[W0101]"), "{}", run.stderr);
    assert!(run.stderr.contains(&at(&file, 1, 7)), "{}", run.stderr);
}

#[test]
fn missing_input_file_exits_2_with_a_clear_message() {
    let dir = temp();
    let missing = dir.path().join("nope.cg");
    let run = cg2slang([OsStr::new("parse"), missing.as_os_str()]);
    run.assert_code(2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
    assert!(run.stderr.contains(&missing.display().to_string()), "names the file:\n{}", run.stderr);
    assert_eq!(run.stdout, "");
}

#[test]
fn a_directory_as_input_exits_2() {
    let dir = temp();
    let run = cg2slang([OsStr::new("parse"), dir.path().as_os_str()]);
    run.assert_code(2);
    assert!(run.stderr.contains("cannot read"), "{}", run.stderr);
}

#[test]
fn usage_errors_exit_2() {
    cg2slang(["parse"]).assert_code(2);
    cg2slang(["parse", "a.cg", "--no-such-flag"]).assert_code(2);
    cg2slang(["no-such-command"]).assert_code(2);
    cg2slang(Vec::<&str>::new()).assert_code(2);
    cg2slang(["parse", "a.cg", "--color", "sometimes"]).assert_code(2);
}

#[test]
fn help_and_version_exit_0() {
    let help = cg2slang(["--help"]);
    help.assert_code(0);
    assert!(help.stdout.contains("parse"), "{}", help.stdout);
    let parse_help = cg2slang(["parse", "--help"]);
    parse_help.assert_code(0);
    assert!(parse_help.stdout.contains("--dump-ast"), "{}", parse_help.stdout);
    cg2slang(["--version"]).assert_code(0);
}

#[test]
fn bad_define_name_is_a_usage_error() {
    let dir = temp();
    let file = write(dir.path(), "clean.cg", CLEAN);
    for bad in ["=1", "1ABC", "A-B"] {
        let run = cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-D"), OsStr::new(bad)]);
        run.assert_code(2);
        assert!(run.stderr.contains("not a macro name"), "{bad}: {}", run.stderr);
    }
}

const NEEDS_FEATURE: &str = "\
#ifndef FEATURE
#error \"FEATURE must be defined\"
#endif
#if FEATURE != 2
float wrong_value;
float also = );
#endif
float ok;
";

#[test]
fn define_reaches_the_preprocessor() {
    let dir = temp();
    let file = write(dir.path(), "feature.cg", NEEDS_FEATURE);

    let without = cg2slang([OsStr::new("parse"), file.as_os_str()]);
    without.assert_code(1);
    assert!(without.stderr.contains("error[E0113]"), "the #error fires:\n{}", without.stderr);
    assert!(without.stderr.contains(&format!("{}:2:", file.display())), "{}", without.stderr);

    // Separate and attached forms, with a value.
    cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-D"), OsStr::new("FEATURE=2")]).assert_code(0);
    cg2slang([OsStr::new("parse"), OsStr::new("-DFEATURE=2"), file.as_os_str()]).assert_code(0);
    cg2slang([OsStr::new("parse"), OsStr::new("--define"), OsStr::new("FEATURE=2"), file.as_os_str()]).assert_code(0);

    // Without a value the macro is 1, so the `#if FEATURE != 2` group is compiled.
    let bare = cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-D"), OsStr::new("FEATURE")]);
    bare.assert_code(1);
    assert!(bare.stderr.contains("error[E0201]"), "{}", bare.stderr);
    assert!(!bare.stderr.contains("E0113"), "{}", bare.stderr);
}

#[test]
fn several_defines_all_apply() {
    let dir = temp();
    let file = write(dir.path(), "two.cg", "#if !defined(A) || B != 7\n#error \"need A and B=7\"\n#endif\nfloat x;\n");
    cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-DA"), OsStr::new("-D"), OsStr::new("B=7")])
        .assert_code(0);
    cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-DA")]).assert_code(1);
    cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-DB=7")]).assert_code(1);
}

#[test]
fn include_dir_reaches_the_preprocessor() {
    let dir = temp();
    let file = write(dir.path(), "src/main.cg", "#include \"helper.inc\"\nfloat4 f() { return HELPER_VALUE.xxxx; }\n");
    let inc = dir.path().join("lib");
    write(&inc, "helper.inc", "#define HELPER_VALUE 0.5\nfloat helper() { return HELPER_VALUE; }\n");

    let without = cg2slang([OsStr::new("parse"), file.as_os_str()]);
    without.assert_code(1);
    assert!(without.stderr.contains("error[E0104]"), "{}", without.stderr);
    assert!(without.stderr.contains(&format!("{}:1:", file.display())), "{}", without.stderr);

    cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-I"), inc.as_os_str()]).assert_code(0);
    let mut attached = OsStr::new("-I").to_os_string();
    attached.push(inc.as_os_str());
    cg2slang([OsStr::new("parse"), attached.as_os_str(), file.as_os_str()]).assert_code(0);
}

#[test]
fn include_dirs_are_searched_in_order() {
    let dir = temp();
    let file =
        write(dir.path(), "main.cg", "#include \"pick.inc\"\n#if PICKED != 1\n#error \"wrong directory\"\n#endif\n");
    let first = dir.path().join("first");
    let second = dir.path().join("second");
    write(&first, "pick.inc", "#define PICKED 1\n");
    write(&second, "pick.inc", "#define PICKED 2\n");
    let ok = cg2slang([
        OsStr::new("parse"),
        file.as_os_str(),
        OsStr::new("-I"),
        first.as_os_str(),
        OsStr::new("-I"),
        second.as_os_str(),
    ]);
    ok.assert_code(0);
    let swapped = cg2slang([
        OsStr::new("parse"),
        file.as_os_str(),
        OsStr::new("-I"),
        second.as_os_str(),
        OsStr::new("-I"),
        first.as_os_str(),
    ]);
    swapped.assert_code(1);
    assert!(swapped.stderr.contains("error[E0113]"), "{}", swapped.stderr);
}

#[test]
fn missing_include_dir_is_an_io_error() {
    let dir = temp();
    let file = write(dir.path(), "clean.cg", CLEAN);
    let missing = dir.path().join("no-such-dir");
    let run = cg2slang([OsStr::new("parse"), file.as_os_str(), OsStr::new("-I"), missing.as_os_str()]);
    run.assert_code(2);
    assert!(run.stderr.contains(&missing.display().to_string()), "{}", run.stderr);
}

#[test]
fn errors_inside_an_included_file_point_into_that_file() {
    let dir = temp();
    let file = write(dir.path(), "main.cg", "#include \"inc/bad.inc\"\nfloat fine;\n");
    write(dir.path(), "inc/bad.inc", "float ok;\nfloat broken = );\n");
    let run = cg2slang([OsStr::new("parse"), file.as_os_str()]);
    run.assert_code(1);
    assert!(run.stderr.contains("error[E0201]"), "{}", run.stderr);
    assert!(run.stderr.contains("bad.inc:2:16"), "points into the included file:\n{}", run.stderr);
}

#[test]
fn errors_inside_macros_point_at_the_use_and_name_the_macro() {
    let dir = temp();
    let file = write(dir.path(), "macro.cg", "#define BROKEN )\n\nfloat x = BROKEN;\n");
    let run = cg2slang([OsStr::new("parse"), file.as_os_str()]);
    run.assert_code(1);
    assert!(run.stderr.contains("error[E0201]"), "{}", run.stderr);
    assert!(run.stderr.contains(&at(&file, 3, 11)), "points at the macro's use:\n{}", run.stderr);
    assert!(run.stderr.contains("in expansion of macro `BROKEN`"), "{}", run.stderr);
}

#[test]
fn color_follows_the_flag() {
    let dir = temp();
    let file = write(dir.path(), "broken.cg", "float y = );\n");
    let always = cg2slang_env(
        [OsStr::new("parse"), OsStr::new("--color"), OsStr::new("always"), file.as_os_str()],
        &[("NO_COLOR", "1")],
    );
    always.assert_code(1);
    assert!(always.stderr.contains('\x1b'), "--color always wins over NO_COLOR:\n{}", always.stderr);

    let never = cg2slang([OsStr::new("parse"), OsStr::new("--color=never"), file.as_os_str()]);
    never.assert_code(1);
    assert!(!never.stderr.contains('\x1b'), "{}", never.stderr);

    // stderr is a pipe here, so `auto` (the default) must not colour.
    let auto = cg2slang([OsStr::new("parse"), file.as_os_str()]);
    auto.assert_code(1);
    assert!(!auto.stderr.contains('\x1b'), "{}", auto.stderr);
    assert!(auto.stderr.contains("error[E0201]"), "{}", auto.stderr);
}
