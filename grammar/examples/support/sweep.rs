//! What the sweep examples of every crate share; each includes this file with `#[path]`
//! (grammar's pp/parse sweeps, translator's cgp/sema/translate/migrate sweeps and fuzzer,
//! runtime-check's validate sweep): the sorted list of files under a directory, the shape
//! of a message for grouping, and the "most common first" listing of counts.
//!
//! Examples only: it reads directory listings and prints, never writes, and is no
//! substitute for the CLI's walk (src/migrate/discover.rs), which also follows symlinks
//! safely and honours `.cg2slangignore`.

// Each example uses only part of it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fmt::Display;
use std::path::{Path, PathBuf};

/// Every file under `dir` whose extension is one of `extensions`, depth first in sorted
/// order. Hidden directories (`.git`) and unreadable ones are skipped.
pub fn files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, extensions, &mut out);
    out
}

fn walk(dir: &Path, extensions: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                walk(&p, extensions, out);
            }
        } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| extensions.contains(&e)) {
            out.push(p);
        }
    }
}

/// A message with its backquoted names blanked to `` `_` ``, so that messages differing
/// only in the names they quote group together.
pub fn shape(message: &str) -> String {
    let mut out = String::new();
    let mut in_tick = false;
    for c in message.chars() {
        if c == '`' {
            in_tick = !in_tick;
            out.push_str(if in_tick { "`_" } else { "`" });
        } else if !in_tick {
            out.push(c);
        }
    }
    out
}

/// Prints at most `n` of `counts`, most common first (ties in key order), one
/// `count  key` line each.
pub fn print_top<K: Display>(counts: &BTreeMap<K, usize>, n: usize) {
    let mut top: Vec<(&K, &usize)> = counts.iter().collect();
    top.sort_by_key(|(_, count)| std::cmp::Reverse(**count));
    for (key, count) in top.into_iter().take(n) {
        println!("{count:5}  {key}");
    }
}
