//! The page of one preset: status and diagnostics; the old/new comparison (verdict,
//! metrics, or why it could not be compared) with the input, old, new and difference
//! images and a slider that reveals old over new, then each pass's output on both sides
//! as previews with the first divergent pass marked; its passes linking to their shader
//! pages; its keys side by side (`.cgp` key and value against the `.slangp` one, per
//! pass, LUTs included); and its parameters as the Cg declared them against what the
//! slang declares, a mismatch shown as an error.
//!
//! Reads the `.cgp` again for its keys (the planner's parameters are in the plan); a file
//! that cannot be read again is a note on the page, never a failure.

use super::layout::{diff, page, status};
use super::model::{link, pass_preview, preset_image, preset_page, shader_page, Baseline, Review, Verdict};
use cg2slang::migrate::PresetOut;
use grammar::FileId;
use maud::{html, Markup};
use runtime_check::validate::stages::{parse_parameter, Origin};
use runtime_check::validate::Parameter;
use translator::preset::token::{tokenize, Item};

/// The images a compared preset has, in the order shown.
pub const IMAGES: [&str; 4] = ["input", "old", "new", "diff"];

/// `key = value` entries of a preset text, in file order (`#reference` as a key too).
fn entries(text: &str) -> Vec<(String, String)> {
    tokenize(FileId(0), text)
        .items
        .into_iter()
        .map(|item| match item {
            Item::Entry { key, value } => (key.text, value.text),
            Item::Reference { path, .. } => ("#reference".into(), path.text),
            Item::Include { path, .. } => ("#include".into(), path.text),
        })
        .collect()
}

/// The pass a key belongs to (`shader3` -> 3), if any.
fn pass_of(key: &str) -> Option<usize> {
    let digits = key.len() - key.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    (digits > 0 && digits < key.len()).then(|| key[key.len() - digits..].parse().ok()).flatten()
}

/// One row of the keys table: pass, key, .cgp value, .slangp value.
type KeyRow = (Option<usize>, String, Option<String>, Option<String>);

fn key_rows(cgp: &[(String, String)], slangp: &[(String, String)]) -> Vec<KeyRow> {
    let find = |list: &[(String, String)], k: &str| list.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
    let mut rows: Vec<KeyRow> =
        cgp.iter().map(|(k, v)| (pass_of(k), k.clone(), Some(v.clone()), find(slangp, k))).collect();
    for (k, v) in slangp {
        if !cgp.iter().any(|(key, _)| key == k) {
            rows.push((pass_of(k), k.clone(), None, Some(v.clone())));
        }
    }
    // Preset-wide keys first, then per pass, each group in file order.
    rows.sort_by_key(|r| r.0.map_or(0, |p| p + 1));
    rows
}

/// `#pragma parameter` lines parsed as RetroArch does; the first of each id wins.
fn parameters<'a>(lines: impl Iterator<Item = &'a str>) -> Vec<Result<Parameter, String>> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for line in lines {
        let rest = line.trim_start().trim_start_matches('#').trim_start();
        let Some(rest) = rest.strip_prefix("pragma").map(str::trim_start) else { continue };
        let Some(rest) = rest.strip_prefix("parameter").map(str::trim_start) else { continue };
        let id = rest.split_whitespace().next().unwrap_or_default().to_owned();
        if seen.contains(&id) {
            continue;
        }
        seen.push(id);
        out.push(
            parse_parameter(&format!("#pragma parameter {rest}"), Origin { file: 0, line: 0 })
                .map_err(|e| format!("{line}: {e}")),
        );
    }
    out
}

fn same(a: &Parameter, b: &Parameter) -> bool {
    a.description == b.description
        && a.initial == b.initial
        && a.minimum == b.minimum
        && a.maximum == b.maximum
        && a.step == b.step
}

fn param_cells(p: Option<&Parameter>) -> Markup {
    html! {
        @match p {
            Some(p) => { td { (p.description) } td { (p.initial) } td { (p.minimum) } td { (p.maximum) } td { (p.step) } }
            None => { td colspan="5" { "not declared" } }
        }
    }
}

pub fn render(review: &Review, index: usize) -> String {
    let plan = review.plan;
    let p = &plan.presets[index];
    let here = preset_page(p);
    let verdict = Verdict::of(review.comparisons.get(index).and_then(Option::as_ref));
    let comparison = review.comparisons.get(index).and_then(Option::as_ref);
    let baseline = review.preset_baselines.get(index).cloned().unwrap_or(Baseline::NotCompared);

    let cgp_text = std::fs::read(&p.source).map(|b| String::from_utf8_lossy(&b).into_owned());
    let cgp_entries = cgp_text.as_deref().map(entries).unwrap_or_default();
    let slangp_entries = p.text.as_deref().map(entries).unwrap_or_default();
    let keys = key_rows(&cgp_entries, &slangp_entries);

    // Parameters: the Cg side as the planner read them, the slang side from the passes' text.
    let cg_params = parameters(p.parameters.iter().map(String::as_str));
    let slang_params = parameters(
        p.pass_shaders.iter().flatten().filter_map(|&k| plan.shaders[k].text.as_deref()).flat_map(str::lines),
    );
    let cg_ok: Vec<&Parameter> = cg_params.iter().filter_map(|r| r.as_ref().ok()).collect();
    let slang_ok: Vec<&Parameter> = slang_params.iter().filter_map(|r| r.as_ref().ok()).collect();
    let mut ids: Vec<&str> = cg_ok.iter().map(|x| x.id.as_str()).collect();
    ids.extend(slang_ok.iter().map(|x| x.id.as_str()).filter(|id| !cg_ok.iter().any(|c| c.id == *id)));
    let param_errors: Vec<&String> = cg_params.iter().chain(&slang_params).filter_map(|r| r.as_ref().err()).collect();

    let body = html! {
        table {
            tr { th { "source" } td { (p.source.display()) } }
            tr { th { "output" } td { (p.output.display()) } }
            tr { th { "status" } td { (status(p.status.as_str())) " (" (p.passes_ok) " of " (p.passes) " passes translated)" } }
            tr { th { "verdict" } td { span class=(format!("v-{}", verdict.label())) { (verdict.label()) } @if !verdict.cause.is_empty() { " — " (verdict.cause) } } }
            @if !matches!(baseline, Baseline::NotCompared) {
                tr { th { "baseline" } td { span class=(format!("b-{}", baseline.label())) { (baseline.label()) } } }
            }
        }
        @if !p.diagnostics.is_empty() {
            h2 { "Diagnostics" }
            ul.diags {
                @for d in &p.diagnostics {
                    li class=(if d.severity == grammar::Severity::Error { "diag-error" } else { "diag-warning" }) {
                        (d.file) ":" (d.line) ":" (d.column) ": " (d.severity.as_str()) "[" (d.code) "]: " (d.message)
                    }
                }
            }
        }
        h2 { "Old and new" }
        @match comparison {
            None => { p.note { "Not compared (run review with --compare-image IN.png to render old and new)." } }
            Some(c) => {
                @if let Some(e) = &c.error { p.bad { "Could not be compared: " (e) } }
                @else {
                    p { "PSNR " (verdict.psnr_text()) " dB, max error " (format!("{:.1}", c.max_abs_error_255.unwrap_or(0.0))) "/255, "
                        (format!("{:.3}", c.within_2_255.unwrap_or(0.0))) "% of pixels within 2/255" }
                }
            }
        }
        @if review.images.get(index).copied().unwrap_or(false) {
            @let img = |what: &str| link(&here, &preset_image(p, what));
            div {
                div.slider {
                    img.new src=(img("new")) alt="new (slang on the GPU chain)";
                    img.old src=(img("old")) alt="old (Cg on the reference renderer)";
                }
                div { "old ◀ " input type="range" min="0" max="100" value="50" aria-label="old/new split"; " ▶ new " button.flip type="button" { "flip" } }
            }
            div.images {
                @for what in IMAGES {
                    figure { img src=(img(what)) alt=(what); figcaption { (what) } }
                }
            }
        }
        @let previews = review.pass_previews.get(index).copied().unwrap_or(0);
        @let divergent = comparison.and_then(|c| c.divergent_pass.as_ref()).map(|d| d.index);
        (pass_previews(p, previews, divergent))
        h2 { "Passes" }
        table {
            tr { th { "pass" } th { "Cg" } th { "slang" } th { "status" } th { "validation" } }
            @for (i, k) in p.pass_shaders.iter().enumerate() {
                tr {
                    td { (i) }
                    @match k.map(|k| &plan.shaders[k]) {
                        Some(s) => {
                            td { (s.source.display()) }
                            td { a href=(link(&here, &shader_page(s))) { (s.output.display()) } }
                            td { (status(s.status.as_str())) }
                            td { (super::model::validation(s)) }
                        }
                        None => { td colspan="4" { "not planned" } }
                    }
                }
            }
        }
        h2 { "Keys: .cgp → .slangp" }
        @if let Err(e) = &cgp_text { p.bad { "cannot read " (p.source.display()) ": " (e) } }
        table {
            tr { th { "pass" } th { "key" } th { ".cgp value" } th { ".slangp value" } }
            @for (pass, key, old, new) in &keys {
                tr class=[(old != new).then_some("differs")] {
                    td { @if let Some(n) = pass { (n) } @else { "-" } }
                    td { code { (key) } }
                    td { @if let Some(v) = old { code { (v) } } }
                    td.new { @if let Some(v) = new { code { (v) } } }
                }
            }
        }
        h2 { "Parameters" }
        @if ids.is_empty() { p.note { "No #pragma parameter in this preset's passes." } }
        @else {
            table {
                tr { th rowspan="2" { "name" } th colspan="5" { "Cg" } th colspan="5" { "slang" } }
                tr { @for _ in 0..2 { th { "description" } th { "default" } th { "min" } th { "max" } th { "step" } } }
                @for id in &ids {
                    @let cg = cg_ok.iter().find(|x| x.id == *id).copied();
                    @let sl = slang_ok.iter().find(|x| x.id == *id).copied();
                    @let ok = matches!((cg, sl), (Some(a), Some(b)) if same(a, b));
                    tr class=[(!ok).then_some("mismatch")] {
                        td { code { (id) } @if !ok { " " span.bad { "mismatch" } } }
                        (param_cells(cg))
                        (param_cells(sl))
                    }
                }
            }
        }
        @for e in &param_errors { p.bad { (e) } }
        @if let Baseline::Changed(d) = &baseline { h2 { "Changes against the baseline" } (diff(d)) }
        @if let Baseline::Unreadable(why) = &baseline { p.bad { (why) } }
    };
    page(&here, &p.source.display().to_string(), body)
}

/// Each pass's previews, old over new, the first divergent pass marked (nothing for a
/// preset without previews).
fn pass_previews(p: &PresetOut, previews: usize, divergent: Option<usize>) -> Markup {
    let here = preset_page(p);
    let img = |k: usize, side: &str| link(&here, &preset_image(p, &pass_preview(k, side)));
    html! {
        @if previews > 0 {
            h3 { "Each pass, old over new" }
            div.passes {
                @for k in 0..previews {
                    figure class=(if divergent == Some(k) { "pass divergent" } else { "pass" }) data-pass=(k) {
                        img src=(img(k, "old")) alt=(format!("pass {k}, old"));
                        img src=(img(k, "new")) alt=(format!("pass {k}, new"));
                        figcaption {
                            "pass " (k)
                            @if divergent == Some(k) { " — first divergent pass" }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pass_previews_link_both_sides_and_mark_the_first_divergent_pass() {
        let p = PresetOut {
            source: "crt/x.cgp".into(),
            output: "crt/x.slangp".into(),
            text: None,
            status: cg2slang::migrate::Status::Ok,
            diagnostics: Vec::new(),
            passes_ok: 3,
            passes: 3,
            pass_shaders: vec![None; 3],
            parameters: Vec::new(),
        };
        let html = pass_previews(&p, 3, Some(1)).into_string();
        assert_eq!(html.matches("<figure").count(), 3);
        assert_eq!(html.matches("class=\"pass divergent\"").count(), 1);
        assert!(html.contains("data-pass=\"1\"><img src=\"x.slangp.pass1.old.png\""), "{html}");
        assert!(html.contains("x.slangp.pass2.new.png") && html.contains("first divergent pass"), "{html}");
        assert_eq!(pass_previews(&p, 0, None).into_string(), "");
    }

    #[test]
    fn keys_pair_up_by_name_and_group_by_pass() {
        let cgp = entries("shaders = 2\nshader0 = a.cg\nshader1 = b.cg\nfilter_linear1 = true\n");
        let slangp = entries("shaders = 2\nshader0 = a.slang\nshader1 = b.slang\nscale_type0 = source\n");
        let rows = key_rows(&cgp, &slangp);
        let keys: Vec<&str> = rows.iter().map(|r| r.1.as_str()).collect();
        assert_eq!(keys, ["shaders", "shader0", "scale_type0", "shader1", "filter_linear1"]);
        assert_eq!(rows[1], (Some(0), "shader0".into(), Some("a.cg".into()), Some("a.slang".into())));
        assert_eq!(rows[2].2, None);
        assert_eq!(rows[4].3, None);
    }

    #[test]
    fn parameters_parse_like_retroarch_first_wins() {
        let ps = parameters(
            [
                "#pragma parameter A \"Gain\" 1.0 0.0 2.0 0.5",
                "pragma parameter A \"Other\" 1 0 1",
                "#pragma parameter B \"x\"",
            ]
            .into_iter(),
        );
        assert_eq!(ps.len(), 2);
        let a = ps[0].as_ref().expect("A parses");
        assert_eq!((a.id.as_str(), a.description.as_str(), a.step), ("A", "Gain", 0.5));
        assert!(ps[1].is_err());
    }
}
