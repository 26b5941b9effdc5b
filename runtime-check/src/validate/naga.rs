//! naga on one stage text: its GLSL front end, then its validator.
//!
//! The texts are the *naga dialect* of the writer: one text per stage, `#version 450`,
//! separate `texture2D` and `sampler` objects (naga's GLSL front end does not accept
//! combined `sampler2D`, gfx-rs/wgpu#4342), no `#pragma`. The validator runs with every
//! [`ValidationFlags`] and the capabilities a slang pass needs: push constants (naga's
//! "immediates").
//!
//! naga's GLSL front end panics on some inputs. Every naga call therefore runs under
//! [`isolate`]: `catch_unwind` plus a silenced panic hook, so a panic becomes an
//! `E0628` diagnostic and never a crash. The panic hook is **process-global**: while an
//! isolated call is running (on any thread), panics on threads that are *not* inside
//! `isolate` still reach the previous hook, but a hook installed by someone else during
//! that window is replaced when the last isolated call ends. Isolation needs
//! `panic = "unwind"` (the default); with `panic = "abort"` a naga panic aborts.

use super::locate::Locator;
use super::memo::StageMemo;
use super::{Issue, Place, Stage};
use crate::codes;
use grammar::Diagnostic;
use naga::valid::{Capabilities, ValidationFlags, Validator};
use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

type Hook = Arc<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;

/// The hook that was installed before the first active isolation, and how many
/// isolations are active.
static HOOK: Mutex<(usize, Option<Hook>)> = Mutex::new((0, None));

thread_local! {
    /// Depth of `isolate` calls on this thread.
    static SILENCED: Cell<usize> = const { Cell::new(0) };
    /// Where the last silenced panic on this thread happened.
    static LAST_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// An error and its sources, outermost first, joined by `: ` (naga's validation errors
/// name the function at the top and the offending expression only in a source).
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    message
}

/// Runs `f`, turning a panic into `Err(message)`. While `f` runs, panics on this
/// thread are not printed. See the module docs for the process-global hook.
pub fn isolate<R>(f: impl FnOnce() -> R) -> Result<R, String> {
    enter();
    SILENCED.with(|s| s.set(s.get() + 1));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    SILENCED.with(|s| s.set(s.get().saturating_sub(1)));
    leave();
    result.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic payload".to_owned());
        match LAST_LOCATION.with(|l| l.borrow_mut().take()) {
            Some(at) => format!("{message} (at {at})"),
            None => message,
        }
    })
}

fn enter() {
    let mut state = HOOK.lock().unwrap_or_else(PoisonError::into_inner);
    if state.0 == 0 {
        let previous: Hook = Arc::from(panic::take_hook());
        state.1 = Some(previous.clone());
        panic::set_hook(Box::new(move |info| {
            if SILENCED.with(Cell::get) > 0 {
                let at = info.location().map(|l| format!("{}:{}", l.file(), l.line()));
                LAST_LOCATION.with(|l| *l.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    }
    state.0 += 1;
}

fn leave() {
    let mut state = HOOK.lock().unwrap_or_else(PoisonError::into_inner);
    state.0 = state.0.saturating_sub(1);
    if state.0 == 0 {
        if let Some(previous) = state.1.take() {
            let _ours = panic::take_hook();
            panic::set_hook(Box::new(move |info| previous(info)));
        }
    }
}

fn naga_stage(stage: Stage) -> naga::ShaderStage {
    match stage {
        Stage::Vertex => naga::ShaderStage::Vertex,
        Stage::Fragment => naga::ShaderStage::Fragment,
    }
}

/// 1-based line of byte offset `at` in `text`.
fn line_of(text: &str, at: usize) -> u32 {
    let at = at.min(text.len());
    text.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() as u32 + 1
}

fn place_of(text: &str, stage: Stage, span: naga::Span) -> Option<Place> {
    span.to_range().map(|r| Place::Naga { stage, line: line_of(text, r.start) })
}

/// The capabilities a slang pass may use.
pub fn capabilities() -> Capabilities {
    Capabilities::IMMEDIATES
}

/// What naga says of one naga-dialect stage text, without the module: `Ok` when its
/// front end and validator accept it, its findings otherwise. Each distinct (stage,
/// text) is parsed once per process ([`super::memo`]): most of a library's naga-dialect
/// stages repeat (2,762 checks of 831 distinct texts in common-shaders).
pub fn naga_verdict(text: &str, stage: Stage) -> Result<(), Vec<Issue>> {
    VERDICTS.get_or_compute(
        stage,
        text,
        || naga_issues(text, stage).map(drop),
        |verdict| text.len() + verdict.as_ref().err().map_or(0, |issues| issues.len() * 256),
    )
}

/// Verdicts of earlier checks by (stage, text): up to 32 MiB of text.
static VERDICTS: LazyLock<StageMemo<String, Result<(), Vec<Issue>>>> = LazyLock::new(|| StageMemo::new(32 << 20));

/// Parses and validates one naga-dialect stage text; findings carry [`Place::Naga`].
pub fn naga_issues(text: &str, stage: Stage) -> Result<naga::Module, Vec<Issue>> {
    isolate(|| parse_and_validate(text, stage)).unwrap_or_else(|panic| {
        Err(vec![Issue::error(codes::E_NAGA_PANIC, format!("naga panicked on the {stage} stage: {panic}"), None, "")
            .with_note("this is a naga bug; the text may still be valid GLSL")])
    })
}

fn parse_and_validate(text: &str, stage: Stage) -> Result<naga::Module, Vec<Issue>> {
    let mut frontend = naga::front::glsl::Frontend::default();
    let options = naga::front::glsl::Options::from(naga_stage(stage));
    let module = frontend.parse(&options, text).map_err(|errors| {
        errors
            .errors
            .iter()
            .map(|e| {
                Issue::error(
                    codes::E_NAGA_PARSE,
                    format!("naga GLSL front end ({stage} stage): {}", e.kind),
                    place_of(text, stage, e.meta),
                    "",
                )
            })
            .collect::<Vec<_>>()
    })?;
    let mut validator = Validator::new(ValidationFlags::all(), capabilities());
    match validator.validate(&module) {
        Ok(_) => Ok(module),
        Err(e) => {
            let message = format!("naga validation ({stage} stage): {}", error_chain(e.as_inner()));
            // Spans go from the outermost (the function) to the innermost (the
            // offending expression): place the issue on the innermost.
            let place = e.spans().filter_map(|(span, _)| place_of(text, stage, *span)).last();
            let mut issue = Issue::error(codes::E_NAGA_VALIDATION, message, place, "");
            for (span, what) in e.spans() {
                if let Some(r) = span.to_range() {
                    issue = issue.with_note(format!("line {}: {what}", line_of(text, r.start)));
                }
            }
            Err(vec![issue])
        }
    }
}

/// naga's GLSL front end and validator on one naga-dialect stage text. Errors are
/// diagnostics without labels (the text has no line map): each names its line in a note.
pub fn validate_naga(stage_text: &str, stage: Stage) -> Result<naga::Module, Vec<Diagnostic>> {
    naga_issues(stage_text, stage).map_err(|issues| {
        let locator = Locator::naga_only(stage, stage_text);
        issues.iter().map(|i| locator.diagnostic(i)).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isolate_catches_panics_and_restores_the_hook() {
        let r: Result<(), String> = isolate(|| panic!("boom {}", 42));
        let msg = r.expect_err("panicked");
        assert!(msg.starts_with("boom 42"), "{msg}");
        assert!(msg.contains("naga.rs"), "{msg}");
        assert_eq!(isolate(|| 7), Ok(7));
        let nested = isolate(|| isolate(|| -> u8 { panic!("inner") }).is_err());
        assert_eq!(nested, Ok(true));
    }

    #[test]
    fn isolate_is_safe_across_threads() {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                std::thread::spawn(move || {
                    (0..50).filter(|j| isolate(|| if (i + j) % 2 == 0 { panic!("x") } else { 1 }).is_err()).count()
                })
            })
            .collect();
        let panics: usize = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        assert_eq!(panics, 200);
    }
}
