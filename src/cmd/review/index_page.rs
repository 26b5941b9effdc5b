//! The index page: the migration's counts (as `migrate` prints them), then one row per
//! preset and per shader output with status, validation, comparison verdict and cause,
//! PSNR, warning count and the change against the baseline, each linking to its page.
//! The table sorts by any column and filters by kind, status, verdict, change and text
//! (in the page's script; the rows carry what the filters read as `data-` attributes).
//!
//! Holds no timing or other run-dependent text: the same inputs give the same bytes.

use super::layout::{page, status};
use super::model::{link, Kind, Review, Row, INDEX};
use cg2slang::migrate::Status;
use maud::html;
use runtime_check::compare::Status as CompareStatus;
use std::path::Path;

pub fn render(review: &Review) -> String {
    let plan = review.plan;
    let rows = review.rows();
    let here = Path::new(INDEX);
    let count = |kind: Kind, f: &dyn Fn(&Row) -> bool| rows.iter().filter(|r| r.kind == kind && f(r)).count();
    let validated = plan.shaders.iter().filter(|s| s.checks.passed()).count();
    let translated = |kind| count(kind, &|r: &Row| r.status != Status::Error);
    let compared: Vec<&Row> = rows.iter().filter(|r| r.verdict.status.is_some()).collect();
    let changed = rows.iter().filter(|r| matches!(r.baseline, "changed" | "new" | "unreadable")).count();
    let body = html! {
        table.counts {
            tr { th {} th { "total" } th { "translated" } th { "warnings" } th { "errors" } th { "validated" } }
            tr {
                th { "shaders" }
                td { (plan.shaders.len()) }
                td { (translated(Kind::Shader)) }
                td { (count(Kind::Shader, &|r: &Row| r.status == Status::Warning)) }
                td { (count(Kind::Shader, &|r: &Row| r.status == Status::Error)) }
                td { (validated) }
            }
            tr {
                th { "presets" }
                td { (plan.presets.len()) }
                td { (translated(Kind::Preset)) }
                td { (count(Kind::Preset, &|r: &Row| r.status == Status::Warning)) }
                td { (count(Kind::Preset, &|r: &Row| r.status == Status::Error)) }
                td { "-" }
            }
        }
        @if !compared.is_empty() {
            p {
                "old/new comparison: " (compared.len()) " presets, "
                (compared.iter().filter(|r| r.verdict.status == Some(CompareStatus::Pass)).count()) " pass, "
                (compared.iter().filter(|r| r.verdict.status == Some(CompareStatus::Fail)).count()) " below the thresholds, "
                (compared.iter().filter(|r| r.verdict.status == Some(CompareStatus::Error)).count()) " could not be compared"
            }
        }
        @if let Some(dir) = &review.against {
            p { "against " code { (dir.display()) } ": " (changed) " outputs changed, new or unreadable" }
        }
        div.filters {
            label { "kind " select data-filter="kind" { option value="" { "all" } option { "preset" } option { "shader" } } }
            label { "status " select data-filter="status" { option value="" { "all" } option { "ok" } option { "warning" } option { "error" } } }
            label { "verdict " select data-filter="verdict" { option value="" { "all" } option { "pass" } option { "fail" } option { "error" } option value="-" { "not compared" } } }
            label { "baseline " select data-filter="baseline" { option value="" { "all" } option { "same" } option { "changed" } option { "new" } option { "unreadable" } } }
            label { "cause " input type="search" data-filter="cause" placeholder="text in the cause"; }
            label { "name " input type="search" data-filter="name" placeholder="text in the path"; }
            span.note { span #shown { (rows.len()) } " of " (rows.len()) " rows shown" }
        }
        table #rows {
            thead {
                tr {
                    th data-col="kind" { "kind" }
                    th data-col="name" { "name" }
                    th data-col="status" { "status" }
                    th data-col="validation" { "validation" }
                    th data-col="verdict" { "verdict" }
                    th data-col="cause" { "cause" }
                    th data-col="psnr" data-type="num" { "PSNR (dB)" }
                    th data-col="warnings" data-type="num" { "warnings" }
                    th data-col="errors" data-type="num" { "errors" }
                    th data-col="baseline" { "baseline" }
                }
            }
            tbody {
                @for r in &rows {
                    @let kind = if r.kind == Kind::Preset { "preset" } else { "shader" };
                    tr data-kind=(kind) data-status=(r.status.as_str()) data-verdict=(r.verdict.label())
                        data-baseline=(r.baseline) data-cause=(r.verdict.cause) data-name=(r.name) {
                        td { (kind) }
                        td { a href=(link(here, &r.page)) { (r.name) } }
                        td { (status(r.status.as_str())) }
                        td { (r.validation) }
                        td { span class=(format!("v-{}", r.verdict.label())) { (r.verdict.label()) } }
                        td { (r.verdict.cause) }
                        td data-sort=(r.verdict.psnr_key()) { (r.verdict.psnr_text()) }
                        td { (r.warnings) }
                        td { (r.errors) }
                        td { span class=(format!("b-{}", r.baseline)) { (r.baseline) } }
                    }
                }
            }
        }
    };
    page(here, "Migration review", body)
}
