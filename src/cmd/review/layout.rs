//! The frame every review page shares: doctype, title, the stylesheet and script from
//! `assets/` by relative link, and a header linking back to the index.
//!
//! Markup comes only from maud templates, which escape every interpolated string; this
//! module never concatenates markup from text.

use super::assets::{CSS_PATH, JS_PATH};
use super::highlight::Line;
use super::model::{link, INDEX};
use maud::{html, Markup, DOCTYPE};
use std::path::Path;

/// A whole page at `path` (relative to the site root).
pub fn page(path: &Path, title: &str, body: Markup) -> String {
    let index = link(path, Path::new(INDEX));
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) " — cg2slang review" }
                link rel="stylesheet" href=(link(path, Path::new(CSS_PATH)));
            }
            body {
                header {
                    @if path != Path::new(INDEX) { a href=(index) { "← index" } }
                    h1 { (title) }
                }
                main { (body) }
                script src=(link(path, Path::new(JS_PATH))) {}
            }
        }
    }
    .into_string()
}

/// The status word with its colour class.
pub fn status(word: &str) -> Markup {
    html! { span class=(format!("st-{word}")) { (word) } }
}

/// One coloured line's segments.
pub fn segments(line: &Line) -> Markup {
    html! {
        @for (class, text) in line {
            @match class {
                Some(c) => { span class=(c) { (text) } }
                None => { (text) }
            }
        }
    }
}

/// A unified diff with added, removed and hunk lines marked.
pub fn diff(text: &str) -> Markup {
    html! {
        pre.code.diff {
            @for line in text.lines() {
                @let class = if line.starts_with("+++") || line.starts_with("---") {
                    "file"
                } else if line.starts_with('+') {
                    "add"
                } else if line.starts_with('-') {
                    "del"
                } else if line.starts_with("@@") {
                    "hunk"
                } else {
                    "ctx"
                };
                span class=(format!("ln {class}")) { (line) }
            }
        }
    }
}
