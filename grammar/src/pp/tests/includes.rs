//! `#include`: search order, cycles, guards, depth, reading.

use super::run_with;
use crate::pp::PpOptions;
use crate::source::MemoryFs;

fn with_dirs(dirs: &[&str]) -> PpOptions {
    PpOptions { include_dirs: dirs.iter().map(Into::into).collect(), ..PpOptions::default() }
}

#[test]
fn relative_to_includer_then_include_dirs_in_order() {
    let fs = MemoryFs::new()
        .with("src/main.cg", "#include \"a.inc\"\n#include \"b.inc\"\n#include <sub/d.inc>\n")
        .with("src/a.inc", "a_beside_main\n")
        .with("inc1/a.inc", "a_in_inc1\n")
        .with("inc1/b.inc", "b_in_inc1\n#include \"c.inc\"\n")
        .with("inc2/b.inc", "b_in_inc2\n")
        .with("inc1/c.inc", "c_beside_b\n")
        .with("src/c.inc", "c_beside_main\n")
        .with("inc2/sub/d.inc", "d_in_inc2\n#include \"../e.inc\"\n")
        .with("inc2/e.inc", "e_in_inc2\n");
    let r = run_with(&fs, "src/main.cg", &with_dirs(&["inc1", "inc2"]));
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "a_beside_main b_in_inc1 c_beside_b d_in_inc2 e_in_inc2");
    let names: Vec<&str> = r.out.files.iter().map(|f| r.sources.file(*f).name.as_str()).collect();
    assert_eq!(names, ["src/main.cg", "src/a.inc", "inc1/b.inc", "inc1/c.inc", "inc2/sub/d.inc", "inc2/e.inc"]);
}

#[test]
fn missing_include_lists_the_searched_directories() {
    let fs = MemoryFs::new().with("src/main.cg", "a\n#include \"nope.h\"\nb\n");
    let r = run_with(&fs, "src/main.cg", &with_dirs(&["inc1", "inc2"]));
    let d = r.single();
    assert_eq!(d.code, "E0104");
    assert!(d.message.contains("nope.h"));
    assert_eq!(d.notes, ["searched: src, inc1, inc2"]);
    assert_eq!(r.place(d), "src/main.cg:2:10");
    assert_eq!(r.text(), "a b");
}

#[test]
fn include_cycle_shows_the_chain() {
    let fs = MemoryFs::new().with("a.cg", "a1\n#include \"b.inc\"\na2\n").with("b.inc", "b1\n#include \"a.cg\"\nb2\n");
    let r = run_with(&fs, "a.cg", &PpOptions::default());
    let d = r.single();
    assert_eq!(d.code, "E0105");
    assert!(d.notes.iter().any(|n| n == "include cycle: a.cg -> b.inc -> a.cg"), "{:?}", d.notes);
    assert_eq!(r.place(d), "b.inc:2:10");
    assert_eq!(r.text(), "a1 b1 b2 a2");
}

#[test]
fn self_inclusion_is_a_cycle() {
    let fs = MemoryFs::new().with("a.cg", "#include \"a.cg\"\n");
    let r = run_with(&fs, "a.cg", &PpOptions::default());
    assert_eq!(r.codes(), ["E0105"]);
}

#[test]
fn guarded_headers_may_include_each_other() {
    let fs = MemoryFs::new()
        .with("main.cg", "#include \"a.h\"\n#include \"b.h\"\nmain\n")
        .with("a.h", "// guard\n#ifndef A_H\n#define A_H\n#include \"b.h\"\na\n#endif // A_H\n\n")
        .with("b.h", "#if !defined(B_H)\n#define B_H\n#include \"a.h\"\nb\n#endif\n");
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "b a main");
}

#[test]
fn pragma_once_and_repeated_inclusion() {
    let fs = MemoryFs::new()
        .with("main.cg", "#include \"once.h\"\n#include \"once.h\"\n#include \"twice.h\"\n#include \"twice.h\"\n")
        .with("once.h", "#pragma once\nonce\n#include \"once.h\"\n")
        .with("twice.h", "twice\n");
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "once twice twice");
    assert!(r.out.pragmas.is_empty());
    assert_eq!(r.out.files.len(), 3);
}

#[test]
fn include_depth_is_limited() {
    let mut fs = MemoryFs::new();
    for i in 0..100 {
        fs.insert(format!("f{i}.h"), format!("#include \"f{}.h\"\n", i + 1));
    }
    let r = run_with(&fs, "f0.h", &PpOptions::default());
    let d = r.single();
    assert_eq!(d.code, "E0106");
    assert_eq!(r.place(d), "f63.h:1:10");
}

#[test]
fn header_name_from_a_macro_and_angle_brackets() {
    let fs = MemoryFs::new()
        .with("main.cg", "#define H \"x.h\"\n#define ANGLE <y.h>\n#include H\n#include <y.h>\n#include ANGLE\n")
        .with("x.h", "x\n")
        .with("y.h", "y\n");
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert!(r.diags.is_empty(), "{}", r.short());
    assert_eq!(r.text(), "x y y");
}

#[test]
fn unterminated_conditional_in_an_included_file_is_reported_there() {
    let fs = MemoryFs::new().with("main.cg", "#include \"h.h\"\nafter\n#endif\n").with("h.h", "#if 1\ninside\n");
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert_eq!(r.codes(), ["E0107", "E0108"], "{}", r.short());
    assert_eq!(r.place(&r.diags[0]), "h.h:1:1");
    assert_eq!(r.text(), "inside after");
}

#[test]
fn not_utf8_is_a_warning() {
    let fs = MemoryFs::new().with("main.cg", "#include \"l1.h\"\n").with("l1.h", b"// caf\xe9\nok\n".to_vec());
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert_eq!(r.codes(), ["W0101"]);
    assert_eq!(r.text(), "ok");
}

#[test]
fn include_inside_macro_arguments_is_refused() {
    let fs = MemoryFs::new().with("main.cg", "#define f(x) x\nf(1\n#include \"x.h\"\n)\n").with("x.h", "x\n");
    let r = run_with(&fs, "main.cg", &PpOptions::default());
    assert_eq!(r.codes(), ["E0114"]);
    assert_eq!(r.text(), "1");
}

/// A file system on which every file exists but none can be read.
struct Unreadable;

impl crate::source::FileSystem for Unreadable {
    fn read(&self, _: &std::path::Path) -> std::io::Result<Vec<u8>> {
        Err(std::io::Error::new(std::io::ErrorKind::PermissionDenied, "permission denied"))
    }
    fn exists(&self, _: &std::path::Path) -> bool {
        true
    }
}

#[test]
fn unreadable_include_is_an_io_error() {
    let mut sources = crate::source::SourceMap::new();
    let root = sources.add_file("main.cg", Some("main.cg".into()), "a\n#include \"locked.h\"\nb\n".to_owned());
    let (out, diags) = crate::pp::preprocess(&mut sources, root, &PpOptions::default(), &Unreadable);
    let codes: Vec<_> = diags.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["E0118"]);
    assert!(diags[0].message.contains("locked.h") && diags[0].message.contains("permission denied"));
    assert_eq!(out.tokens.len(), 2);
}
