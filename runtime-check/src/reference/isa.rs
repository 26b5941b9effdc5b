//! Which x86-64 feature level the reference's compiled closures run at: the functions
//! that build them carry `#[versioned]` (the `versioned` crate), which compiles each
//! once per level and asks [`level`] which copy to run when a program is compiled. A
//! lane loop over a [`super::machine::Cell`] then handles 8 (AVX-512) or 4 (AVX2) lanes
//! per instruction instead of the baseline's 2.
//!
//! Every level computes the same bits: Rust never contracts `a * b + c` into a fused
//! multiply-add, every IEEE operation the reference computes itself has one correctly
//! rounded result whatever the instruction set, and the library functions it calls
//! (`pow`, `exp`, the trigonometric ones) are the same calls at every level
//! (`tests/reference_levels.rs` renders at every level the processor has and compares). This module must never answer a level whose
//! features the processor lacks: the generated `unsafe` calls rest on it.

use std::cell::Cell as StdCell;
use std::sync::OnceLock;

/// The instruction sets a compiled closure can run with, lowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The build's own target (x86-64: SSE2).
    Baseline,
    /// x86-64-v3: AVX2, FMA, BMI1/2, LZCNT, MOVBE, F16C.
    V3,
    /// x86-64-v4: v3 with AVX-512 F, BW, CD, DQ, VL.
    V4,
}

thread_local! {
    /// A lower level for programs compiled on this thread ([`capped`]).
    static CAP: StdCell<Level> = const { StdCell::new(Level::V4) };
}

/// The level programs compiled now run at: the processor's ([`detected`]), lowered by
/// `CG2SLANG_REFERENCE_ISA=baseline|v3` in the environment (read once; any other value
/// changes nothing) and by [`capped`] on this thread.
pub fn level() -> Level {
    static PROCESS: OnceLock<Level> = OnceLock::new();
    let process = *PROCESS.get_or_init(|| {
        let cap = match std::env::var("CG2SLANG_REFERENCE_ISA").as_deref() {
            Ok("baseline") => Level::Baseline,
            Ok("v3") => Level::V3,
            _ => Level::V4,
        };
        detected().min(cap)
    });
    process.min(CAP.with(StdCell::get))
}

/// Runs `f` with programs compiled on this thread at most at `cap` (tests compare the
/// levels' results).
pub fn capped<R>(cap: Level, f: impl FnOnce() -> R) -> R {
    let before = CAP.with(|c| c.replace(cap));
    let r = f();
    CAP.with(|c| c.set(before));
    r
}

/// The highest level whose every feature this processor has.
pub fn detected() -> Level {
    static DETECTED: OnceLock<Level> = OnceLock::new();
    *DETECTED.get_or_init(probe)
}

#[cfg(target_arch = "x86_64")]
fn probe() -> Level {
    use std::arch::is_x86_feature_detected as has;
    let v3 = has!("avx2")
        && has!("fma")
        && has!("bmi1")
        && has!("bmi2")
        && has!("lzcnt")
        && has!("movbe")
        && has!("f16c")
        && has!("popcnt");
    let v4 = v3 && has!("avx512f") && has!("avx512bw") && has!("avx512cd") && has!("avx512dq") && has!("avx512vl");
    match (v4, v3) {
        (true, _) => Level::V4,
        (false, true) => Level::V3,
        _ => Level::Baseline,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn probe() -> Level {
    Level::Baseline
}
