//! Hostile input through the command line, one test per class of issue #20: output
//! paths that name the user's files, paths that are not regular files, directory
//! loops, a missing LUT, debris of a killed run, a byte-order mark. Each must end
//! quickly with a coded diagnostic and exit 1 or 2, and leave the user's files alone.

use std::path::Path;
use tempfile::TempDir;

mod support;

use support::{cg2slang, expect};

/// A tiny library: one shader, one preset using it with a LUT.
fn library() -> TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/retroarch");
    let lib = dir.path().join("lib");
    for f in ["lut-grade.cgp", "lut_grade.cg", "lut_ramp.cg", "luts/grade_256x16.png", "luts/ramp_64x1.png"] {
        let to = lib.join(f);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(corpus.join(f), &to).unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

const SHADER: &str = "void main_vertex(float4 p : POSITION, float2 t : TEXCOORD0, uniform float4x4 modelViewProj,
    out float4 oP : POSITION, out float2 oT : TEXCOORD0) { oP = mul(modelViewProj, p); oT = t; }
float4 main_fragment(float2 uv : TEXCOORD0) : COLOR { return float4(uv, 0.0, 1.0); }\n";

#[test]
fn no_output_path_replaces_a_users_file_without_force() {
    let dir = library();
    let d = dir.path();
    // --report naming a source file.
    let source = d.join("lib/lut_ramp.cg");
    let before = std::fs::read(&source).expect("read");
    let run = cg2slang(&["migrate", "lib", "--out", "out", "--no-validate", "--report", "lib/lut_ramp.cg"], d);
    expect(&run, 2);
    assert!(run.stderr.contains("already exist") && run.stderr.contains("lut_ramp.cg"), "{}", run.stderr);
    assert_eq!(std::fs::read(&source).expect("read"), before, "the user's shader is untouched");
    assert!(!d.join("out").exists(), "nothing written");
    // With --force the report is written.
    write(&d.join("r.json"), "mine");
    expect(&cg2slang(&["migrate", "lib", "--out", "out", "--no-validate", "--report", "r.json", "--force"], d), 0);
    assert!(std::fs::read_to_string(d.join("r.json")).expect("read").contains("\"summary\""));
    // translate --dialect naga -o: two files, and the second exists: neither is written.
    write(&d.join("s.cg"), SHADER);
    write(&d.join("o.frag"), "mine");
    let run = cg2slang(&["translate", "s.cg", "--dialect", "naga", "--no-validate", "-o", "o.slang"], d);
    expect(&run, 2);
    assert!(!d.join("o.vert").exists(), "no half of the pair is written");
    assert_eq!(std::fs::read_to_string(d.join("o.frag")).expect("read"), "mine");
}

#[test]
fn paths_that_are_not_regular_files_are_named_and_refused() {
    let dir = library();
    let d = dir.path();
    // A directory given to parse.
    std::fs::create_dir_all(d.join("adir.cg")).expect("mkdir");
    let run = cg2slang(&["parse", "adir.cg"], d);
    expect(&run, 2);
    assert!(run.stderr.contains("E0121") && run.stderr.contains("a directory"), "{}", run.stderr);
    // A FIFO: refused without opening it (opening would block for ever).
    let fifo = d.join("pipe.cg");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    if made {
        let run = cg2slang(&["parse", "pipe.cg"], d);
        expect(&run, 2);
        assert!(run.stderr.contains("E0121") && run.stderr.contains("FIFO"), "{}", run.stderr);
    }
    // A character device as a preset's shader (through a link named like a shader, and
    // as itself: not a .cg file, not read), an include and an image.
    std::os::unix::fs::symlink("/dev/zero", d.join("zero.cg")).expect("symlink");
    write(&d.join("dev.cgp"), "shaders = 1\nshader0 = zero.cg\n");
    let run = cg2slang(&["migrate", "dev.cgp", "--out", "out1", "--no-validate"], d);
    expect(&run, 1);
    assert!(run.stdout.contains("dev.cgp:2:11: E0121"), "{}\n{}", run.stdout, run.stderr);
    write(&d.join("dev2.cgp"), "shaders = 1\nshader0 = /dev/zero\n");
    let run = cg2slang(&["migrate", "dev2.cgp", "--out", "out2", "--no-validate"], d);
    expect(&run, 1);
    assert!(run.stdout.contains("dev2.cgp:2:11: E0513"), "{}\n{}", run.stdout, run.stderr);
    let run = cg2slang(&["render", "dev.cgp", "--image", "/dev/zero", "--out", "o.png"], d);
    expect(&run, 2);
    assert!(run.stderr.contains("E0121") && run.stderr.contains("character device"), "{}", run.stderr);
    write(&d.join("inc.cg"), "#include \"/dev/zero\"\n");
    let run = cg2slang(&["parse", "inc.cg"], d);
    expect(&run, 1);
    assert!(run.stderr.contains("E0121") && run.stderr.contains("character device"), "{}", run.stderr);
    write(&d.join("incdir.cg"), "#include \"lib\"\n");
    let run = cg2slang(&["parse", "incdir.cg"], d);
    expect(&run, 1);
    assert!(run.stderr.contains("E0121") && run.stderr.contains("a directory"), "{}", run.stderr);
    // A file over the size limit.
    let big = std::fs::File::create(d.join("big.cg")).expect("create");
    big.set_len(grammar::source::MAX_SOURCE_BYTES + 1).expect("a sparse file");
    let run = cg2slang(&["parse", "big.cg"], d);
    expect(&run, 2);
    assert!(run.stderr.contains("E0122"), "{}", run.stderr);
}

#[test]
fn directory_loops_are_walked_once_with_a_warning() {
    let dir = library();
    let d = dir.path();
    std::os::unix::fs::symlink("..", d.join("lib/luts/up")).expect("symlink");
    std::os::unix::fs::symlink("../lib", d.join("lib/again")).expect("symlink");
    let run = cg2slang(&["migrate", "lib", "--out", "out", "--no-validate"], d);
    expect(&run, 0);
    assert!(run.stderr.contains("warning") && run.stderr.contains("already walked"), "{}", run.stderr);
    let mut count = 0;
    let mut stack = vec![d.join("out")];
    while let Some(p) = stack.pop() {
        for e in std::fs::read_dir(&p).into_iter().flatten().flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "slang") {
                count += 1;
            }
        }
    }
    assert_eq!(count, 2, "each shader translated once");
    let run = cg2slang(&["check", "lib", "--against", "out"], d);
    expect(&run, 0);
}

#[test]
fn a_missing_or_directory_lut_is_an_error_at_the_preset_line() {
    let dir = library();
    let d = dir.path();
    std::fs::remove_file(d.join("lib/luts/grade_256x16.png")).expect("rm");
    let run = cg2slang(&["migrate", "lib", "--out", "out", "--no-validate", "--report", "r.json"], d);
    expect(&run, 1);
    let report = std::fs::read_to_string(d.join("r.json")).expect("read");
    assert!(report.contains("E0511") && report.contains("lut-grade.cgp"), "{report}");
    assert!(!d.join("out/lut-grade.slangp").exists(), "no preset naming a missing file");
    std::fs::create_dir_all(d.join("lib/luts/grade_256x16.png")).expect("mkdir");
    let run = cg2slang(&["migrate", "lib", "--out", "out2", "--no-validate", "--report", "r2.json"], d);
    expect(&run, 1);
    let report = std::fs::read_to_string(d.join("r2.json")).expect("read");
    assert!(report.contains("E0121"), "{report}");
    // translate --preset agrees: an error in the input, exit 1.
    let run = cg2slang(&["translate", "lib/lut_grade.cg", "--preset", "lib/lut-grade.cgp", "--pass", "0"], d);
    expect(&run, 1);
}

#[test]
fn a_killed_runs_temporary_files_are_removed_by_the_next_run() {
    let dir = library();
    let d = dir.path();
    let debris = d.join("out/.lut_ramp.slang.999999999.cg2slang-tmp");
    write(&debris, "half a file");
    let mine = d.join("out/.notes.txt");
    write(&mine, "mine");
    expect(&cg2slang(&["migrate", "lib", "--out", "out", "--no-validate"], d), 0);
    assert!(!debris.exists(), "debris of a dead process is removed");
    assert!(mine.exists(), "other files are kept");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let dir = tempfile::tempdir().expect("tmp");
    write(&dir.path().join("bom.cg"), &format!("\u{feff}{SHADER}"));
    let run = cg2slang(&["parse", "bom.cg"], dir.path());
    expect(&run, 0);
}
