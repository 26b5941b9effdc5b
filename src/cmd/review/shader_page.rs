//! The page of one shader output: the Cg files it was read from (the .cg and every
//! include, as written) beside the slang text, both coloured, tied by the line map.
//!
//! Every slang line with an origin is `<span id="sN" data-o="cF-L ...">` naming the Cg
//! lines (`cF-L`: file F of the translation, line L) it came from; the script highlights
//! both ways. Diagnostics are shown under the Cg line they point at (the rest, without
//! a line in a shown file, above the panes). With a baseline, the unified diff of the
//! new text against it follows. Only templates make markup, so source text (comments,
//! `#pragma parameter` descriptions) can never become markup.

use super::highlight::{Highlighter, Line};
use super::layout::{diff, page, segments, status};
use super::model::{link, preset_page, shader_page, validation, Baseline};
use cg2slang::migrate::{Plan, ReportDiagnostic, ShaderOut};
use maud::{html, Markup};
use std::collections::HashMap;

/// The most Cg lines one slang line names (a statement spanning a whole function
/// would otherwise light up pages of text).
const MAX_LINES_PER_ORIGIN: usize = 40;

/// Coloured Cg files, shared between the shaders that include them: name -> lines.
pub type CgCache = HashMap<String, Vec<Line>>;

fn diag_class(d: &ReportDiagnostic) -> &'static str {
    match d.severity {
        grammar::Severity::Error => "diag-error",
        grammar::Severity::Warning => "diag-warning",
        _ => "diag-note",
    }
}

fn diag_text(d: &ReportDiagnostic) -> String {
    format!("{}[{}]: {}", d.severity.as_str(), d.code, d.message)
}

pub fn render(plan: &Plan, index: usize, baseline: &Baseline, highlighter: &Highlighter, cg: &CgCache) -> String {
    let s: &ShaderOut = &plan.shaders[index];
    let here = shader_page(s);
    let files = &s.origins.files;
    // Diagnostics at a line of a shown file, by (file, line); the others go on top.
    let mut at: HashMap<(usize, usize), Vec<&ReportDiagnostic>> = HashMap::new();
    let mut loose: Vec<&ReportDiagnostic> = Vec::new();
    for d in &s.diagnostics {
        match files.iter().position(|f| f.name == d.file) {
            Some(f) if d.line > 0 => at.entry((f, d.line)).or_default().push(d),
            _ => loose.push(d),
        }
    }
    let slang_lines = s.text.as_deref().map(|t| highlighter.lines(t)).unwrap_or_default();
    let origin_ids = |n: usize| -> Option<String> {
        let o = (*s.origins.lines.get(n)?)?;
        let last = o.last.min(o.first + MAX_LINES_PER_ORIGIN - 1);
        Some((o.first..=last).map(|l| format!("c{}-{l}", o.file)).collect::<Vec<_>>().join(" "))
    };
    let presets: Vec<(usize, &str)> = plan
        .presets
        .iter()
        .enumerate()
        .filter(|(_, p)| p.pass_shaders.contains(&Some(index)))
        .map(|(i, p)| (i, p.source.to_str().unwrap_or_default()))
        .collect();
    let body = html! {
        table {
            tr { th { "source" } td { (s.source.display()) } }
            tr { th { "output" } td { (s.output.display()) @if s.variant > 1 { " (variant " (s.variant) ")" } } }
            tr { th { "status" } td { (status(s.status.as_str())) } }
            tr { th { "validation" } td { (validation(s)) } }
            tr { th { "used by" } td {
                @for u in &s.used_by { (u) br; }
                @for (i, name) in &presets { a href=(link(&here, &preset_page(&plan.presets[*i]))) { "preset page: " (name) } br; }
            } }
            @if !matches!(baseline, Baseline::NotCompared) {
                tr { th { "baseline" } td { span class=(format!("b-{}", baseline.label())) { (baseline.label()) } } }
            }
        }
        @if !s.diagnostics.is_empty() {
            h2 { "Diagnostics" }
            ul.diags {
                @for d in &s.diagnostics {
                    li class=(diag_class(d)) {
                        @match files.iter().position(|f| f.name == d.file) {
                            Some(f) if d.line > 0 => { a href=(format!("#c{f}-{}", d.line)) { (d.file) ":" (d.line) ":" (d.column) } }
                            _ => { (d.file) ":" (d.line) ":" (d.column) }
                        }
                        ": " (diag_text(d))
                    }
                }
            }
            @if !loose.is_empty() { p.note { (loose.len()) " diagnostics point outside the files shown below." } }
        }
        @if let Baseline::Unreadable(why) = baseline { p.bad { (why) } }
        h2 { "Cg and slang" }
        p.note { "Hover or click a line: the lines it came from (or gave) light up on the other side." }
        div.panes {
            div.pane.cg {
                @for (f, file) in files.iter().enumerate() {
                    h3 { (file.name) }
                    pre.code {
                        @if let Some(lines) = cg.get(&file.name) {
                            @for (i, line) in lines.iter().enumerate() {
                                span.ln id=(format!("c{f}-{}", i + 1)) data-n=(i + 1) { (segments(line)) "\n" }
                                @if let Some(ds) = at.get(&(f, i + 1)) {
                                    @for d in ds { span class=(format!("dmsg {}", diag_class(d))) { (diag_text(d)) } }
                                }
                            }
                        }
                    }
                }
                @if files.is_empty() { p.note { "No Cg file could be read." } }
            }
            div.pane.slang {
                h3 { (s.output.display()) }
                @if s.text.is_none() { p.bad { "The translation failed: no slang text (see the diagnostics at the Cg lines)." } }
                pre.code {
                    @for (i, line) in slang_lines.iter().enumerate() {
                        (slang_line(i, line, origin_ids(i)))
                    }
                }
            }
        }
        @if let Baseline::Changed(d) = baseline {
            h2 { "Changes against the baseline" }
            (diff(d))
        }
        @if let Baseline::New = baseline { p.note { "The baseline has no such file: this output is new." } }
    };
    page(&here, &s.output.display().to_string(), body)
}

fn slang_line(i: usize, line: &Line, origin: Option<String>) -> Markup {
    html! {
        span.ln id=(format!("s{}", i + 1)) data-n=(i + 1) data-o=[origin] { (segments(line)) "\n" }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cg2slang::migrate::{CgFile, Checks, LineOrigin, Origins, Status};
    use runtime_check::validate::Status as Check;
    use std::sync::Arc;

    #[test]
    fn hostile_source_text_is_escaped_and_lines_are_mapped() {
        let cg_text = "// </script><script>document.body.dataset.pwned=1</script>\nfloat4 f() : COLOR { return 1; }\n";
        let shader = ShaderOut {
            source: "a.cg".into(),
            output: "a.slang".into(),
            text: Some("#version 450\n// <img src=x onerror=alert(1)>\nvoid main() {}\n".into()),
            status: Status::Warning,
            diagnostics: vec![ReportDiagnostic {
                code: "W0001".into(),
                severity: grammar::Severity::Warning,
                message: "<b>bold</b>".into(),
                file: "a.cg".into(),
                line: 2,
                column: 1,
            }],
            used_by: vec!["standalone".into()],
            variant: 1,
            checks: Checks { naga: Check::Ok, glslang: Check::Ok },
            origins: Arc::new(Origins {
                files: vec![CgFile { name: "a.cg".into(), text: cg_text.into() }],
                lines: vec![
                    None,
                    Some(LineOrigin { file: 0, first: 1, last: 1 }),
                    Some(LineOrigin { file: 0, first: 2, last: 2 }),
                ],
            }),
        };
        let plan = Plan { shaders: vec![shader], ..Plan::default() };
        let h = Highlighter::new();
        let cache: CgCache = [("a.cg".to_owned(), h.lines(cg_text))].into_iter().collect();
        let html = render(&plan, 0, &Baseline::NotCompared, &h, &cache);
        assert!(!html.contains("<script>document"), "{html}");
        assert!(!html.contains("<img src=x"), "{html}");
        assert!(!html.contains("<b>bold"), "{html}");
        assert!(html.contains("&lt;/script&gt;&lt;script&gt;"), "{html}");
        assert!(html.contains(r#"id="s2" data-n="2" data-o="c0-1""#), "{html}");
        assert!(html.contains(r#"id="s3" data-n="3" data-o="c0-2""#), "{html}");
        assert!(html.contains(r#"id="c0-2""#), "{html}");
        assert!(html.contains("W0001"), "{html}");
    }
}
