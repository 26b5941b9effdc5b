//! Prints the fragment IR of a Cg file as the reference renderer receives it (debugging aid).
use grammar::{PpOptions, RealFs, SourceMap};
use translator::translate::{analyze_pass, TranslateOptions};

fn main() {
    let Some(path) = std::env::args().nth(1) else { return };
    let mut sources = SourceMap::new();
    let pp = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    let parsed = grammar::parse_file(&mut sources, std::path::Path::new(&path), &pp, &RealFs);
    let a = analyze_pass(&sources, &parsed, &TranslateOptions::default());
    if let Some(f) = &a.fragment {
        println!("{}", translator::ir::pretty::module(f));
    }
    for d in &a.diagnostics {
        println!("{}: {}", d.code, d.message);
    }
}
