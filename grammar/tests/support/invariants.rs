//! Invariants every front-end result must satisfy, whatever the input.
//!
//! Shared by the property tests (`tests/fuzz_props.rs`) and the long-running fuzz
//! driver (`translator/examples/fuzz.rs`, which includes this file with `#[path]`). The checks:
//! every label of every diagnostic names a file of the source map, is a non-inverted
//! byte range inside that file's text and on character boundaries, and stays so after
//! mapping through macro expansions to the user's own text; locations and rendering
//! work for every diagnostic. A violation is returned as a message; a panic inside the
//! front end is caught by the caller.

use grammar::diagnostic::{render_plain, render_short};
use grammar::{Diagnostic, SourceMap, Span};

/// Checks one span against the source map.
fn check_span(sources: &SourceMap, span: Span, what: &str, d: &Diagnostic) -> Result<(), String> {
    let files = sources.files().count();
    if span.file.0 as usize >= files {
        return Err(format!("{what} of {} names file {} but the map holds {files}", d.code, span.file.0));
    }
    let text = &sources.file(span.file).text;
    let (start, end) = (span.start as usize, span.end as usize);
    if start > end {
        return Err(format!("{what} of {} is inverted: {start}..{end}", d.code));
    }
    if end > text.len() {
        return Err(format!("{what} of {} ends at {end}, past the file's {} bytes", d.code, text.len()));
    }
    if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return Err(format!("{what} of {} ({start}..{end}) splits a UTF-8 character", d.code));
    }
    Ok(())
}

/// Checks every diagnostic's labels and that all of them render.
pub fn check(sources: &SourceMap, diagnostics: &[Diagnostic]) -> Result<(), String> {
    for d in diagnostics {
        if d.code.is_empty() {
            return Err(format!("diagnostic without a code: {}", d.message));
        }
        for label in &d.labels {
            check_span(sources, label.span, "label", d)?;
            check_span(sources, sources.user_span(label.span), "user span of a label", d)?;
            for e in sources.expansion_chain(label.span) {
                check_span(sources, e.definition, "macro definition in the expansion chain", d)?;
                check_span(sources, e.call_site, "macro call site in the expansion chain", d)?;
            }
        }
        let _ = d.location(sources);
    }
    let _ = render_plain(sources, diagnostics);
    let _ = render_short(sources, diagnostics);
    Ok(())
}
