//! Statements under lane masks: `if` splits the active lanes, loops run until no lane
//! is left (capped at [`Machine::loop_cap`] iterations per quad, counted as if the quad
//! ran alone; the quad that passes the cap stops with `E0804`, the others of its batch
//! run on), `break`,
//! `continue`, `return` and `discard` retire lanes into their masks, `switch` falls
//! through like C. Never loops forever and never panics.
//!
//! Hazards ([`crate::reference::hazard`]): a branch on a hazardous condition runs both
//! arms under [`Machine::ctl`] (even an arm no lane takes, so that what it would have
//! written is marked for the lanes that might have taken it); a lane that could leave
//! the function, loop or invocation on such a decision, or whose loop condition or
//! `switch` selector is hazardous, becomes [`Machine::sticky`].

use super::expr::{self, value, write_code, Place};
use super::{chain, Compiler, Frame};
use crate::codes;
use crate::reference::hazard::HAZARD;
use crate::reference::machine::{quad_lanes, Bits, Code, Machine, QUADS};
use grammar::{Diagnostic, Span};
use translator::ir::{Block, Stmt};

pub(crate) fn block(c: &mut Compiler, f: &mut Frame, b: &Block) -> Option<Code> {
    let mut codes: Vec<Code> = Vec::new();
    for (s, span) in &b.stmts {
        if let Some(code) = stmt(c, f, s, *span) {
            codes.push(code);
        }
    }
    match codes.len() {
        0 => None,
        1 => codes.pop(),
        _ => {
            let v = codes.into_boxed_slice();
            Some(Box::new(move |m: &mut Machine| {
                for s in v.iter() {
                    if m.active == 0 && m.ctl == 0 {
                        return;
                    }
                    s(m);
                }
            }))
        }
    }
}

fn cond_cell(
    c: &mut Compiler,
    f: &mut Frame,
    e: translator::ir::Handle<translator::ir::Expr>,
) -> (Option<Code>, usize) {
    let v = value(c, f, e);
    let cell = v.loc.first().copied().unwrap_or_else(|| c.constant(0.0));
    (v.code, cell)
}

/// Whether a block may leave its enclosing scope (`return`, `break`, `continue`,
/// `discard`), conservatively.
fn exits(b: &Block) -> bool {
    b.stmts.iter().any(|(s, _)| match s {
        Stmt::Return(_) | Stmt::Break | Stmt::Continue | Stmt::Discard => true,
        Stmt::Block(b) => exits(b),
        Stmt::If { accept, reject, .. } => exits(accept) || reject.as_ref().is_some_and(exits),
        Stmt::For { body, .. } | Stmt::While { body, .. } | Stmt::DoWhile { body, .. } => exits(body),
        Stmt::Switch { cases, .. } => cases.iter().any(|k| exits(&k.body)),
        Stmt::Expr(_) | Stmt::Local { .. } | Stmt::EmitVertex(_) | Stmt::RestartStrip => false,
    })
}

fn loop_cap_error(cap: u64, span: Span) -> Diagnostic {
    Diagnostic::error(
        codes::E_REF_LOOP_CAP,
        format!("this loop ran more than {cap} iterations for one pixel (the reference renderer's cap)"),
    )
    .with_primary(span, "still looping here")
}

fn stmt(c: &mut Compiler, f: &mut Frame, s: &Stmt, span: Span) -> Option<Code> {
    match s {
        Stmt::Block(b) => block(c, f, b),
        Stmt::Expr(e) => value(c, f, *e).code,
        Stmt::Local { local, init } => {
            let cells = f.locals.get(local.index()).cloned().unwrap_or_default();
            let place = Place::Static(cells.clone());
            match init {
                Some(e) => {
                    let v = value(c, f, *e);
                    let w = write_code(c, &place, &v.loc);
                    chain(v.code.into_iter().chain(std::iter::once(w)).collect())
                }
                None => {
                    let zero = c.constant(0.0);
                    let src = vec![zero; cells.len()];
                    Some(write_code(c, &place, &src))
                }
            }
        }
        Stmt::If { cond, accept, reject } => {
            let (cc, cell) = cond_cell(c, f, *cond);
            let leaves = exits(accept) || reject.as_ref().is_some_and(exits);
            let a = block(c, f, accept);
            let r = reject.as_ref().and_then(|r| block(c, f, r));
            Some(Box::new(move |m: &mut Machine| {
                if let Some(cc) = &cc {
                    cc(m);
                }
                let t = m.truth(cell);
                let saved = m.active;
                let tainted = m.hz(cell) & HAZARD & saved;
                let saved_ctl = m.ctl;
                m.ctl |= tainted;
                if leaves {
                    m.sticky |= tainted;
                }
                m.active = saved & t;
                if m.active != 0 || m.ctl != 0 {
                    if let Some(a) = &a {
                        a(m);
                    }
                }
                m.active = saved & !t & m.alive();
                if m.active != 0 || m.ctl != 0 {
                    if let Some(r) = &r {
                        r(m);
                    }
                }
                m.ctl = saved_ctl;
                m.active = saved & m.alive();
            }))
        }
        Stmt::For { init, cond, step, body } => {
            let init = block(c, f, init);
            let cond = cond.map(|e| cond_cell(c, f, e));
            let step = step.and_then(|e| value(c, f, e).code);
            let body = block(c, f, body);
            Some(looped(init, cond, body, step, false, span))
        }
        Stmt::While { cond, body } => {
            let cond = Some(cond_cell(c, f, *cond));
            let body = block(c, f, body);
            Some(looped(None, cond, body, None, false, span))
        }
        Stmt::DoWhile { body, cond } => {
            let cond = Some(cond_cell(c, f, *cond));
            let body = block(c, f, body);
            Some(looped(None, cond, body, None, true, span))
        }
        Stmt::Switch { selector, cases } => {
            let sel = value(c, f, *selector);
            let cell = sel.loc.first().copied().unwrap_or_else(|| c.constant(0.0));
            let all_values: Vec<f64> = cases.iter().flat_map(|k| k.values.iter().map(|&v| v as f64)).collect();
            let groups: Vec<(Vec<f64>, bool, Option<Code>)> = cases
                .iter()
                .map(|k| (k.values.iter().map(|&v| v as f64).collect(), k.is_default, block(c, f, &k.body)))
                .collect();
            let sc = sel.code;
            Some(Box::new(move |m: &mut Machine| {
                if let Some(sc) = &sc {
                    sc(m);
                }
                let s = m.get(cell);
                let entry = m.active;
                m.sticky |= m.hz(cell) & HAZARD & entry;
                let saved_brk = m.brk;
                m.brk = 0;
                let mut falling: Bits = 0;
                for (values, is_default, body) in &groups {
                    let mut hit: Bits = 0;
                    for (l, v) in s.iter().enumerate() {
                        let matches = values.contains(v) || (*is_default && !all_values.contains(v));
                        if matches {
                            hit |= 1 << l;
                        }
                    }
                    m.active = entry & m.alive() & (falling | hit);
                    if m.active != 0 {
                        if let Some(b) = body {
                            b(m);
                        }
                    }
                    falling = m.active & m.alive();
                }
                m.brk = saved_brk;
                m.active = entry & m.alive();
            }))
        }
        Stmt::Break => Some(Box::new(|m: &mut Machine| {
            m.brk |= m.active;
            m.active = 0;
        })),
        Stmt::Continue => Some(Box::new(|m: &mut Machine| {
            m.cont |= m.active;
            m.active = 0;
        })),
        // Geometry programs are never rendered (the chain has vertex and fragment stages).
        Stmt::EmitVertex(_) | Stmt::RestartStrip => {
            c.unsupported("a geometry program's `emitVertex`/`restartStrip`", span);
            None
        }
        Stmt::Discard => Some(Box::new(|m: &mut Machine| {
            m.disc |= m.active;
            m.active = 0;
        })),
        Stmt::Return(v) => {
            let ret = f.ret.clone();
            let w = match v {
                Some(e) => {
                    let v = value(c, f, *e);
                    let w = expr::masked_copy_code(&v.loc, &ret);
                    chain(v.code.into_iter().chain(std::iter::once(w)).collect())
                }
                None => None,
            };
            Some(Box::new(move |m: &mut Machine| {
                if let Some(w) = &w {
                    w(m);
                }
                m.ret |= m.active;
                m.active = 0;
            }))
        }
    }
}

/// Counts one iteration for every quad with an active lane, and stops the quads that
/// passed the cap with the loop-cap error; whether no lane is left.
fn count_iterations(m: &mut Machine, iterations: &mut [u64; QUADS], span: Span) -> bool {
    let cap = m.loop_cap;
    for (q, n) in iterations.iter_mut().enumerate() {
        if m.active & quad_lanes(q) != 0 {
            *n += 1;
            if *n > cap {
                m.fail(q, loop_cap_error(cap, span));
            }
        }
    }
    m.active == 0
}

/// A loop: `init; while (cond) { body; step }`, or body first for `do`.
fn looped(
    init: Option<Code>,
    cond: Option<(Option<Code>, usize)>,
    body: Option<Code>,
    step: Option<Code>,
    body_first: bool,
    span: Span,
) -> Code {
    Box::new(move |m: &mut Machine| {
        if let Some(i) = &init {
            i(m);
        }
        let entry = m.active;
        let (saved_brk, saved_cont) = (m.brk, m.cont);
        m.brk = 0;
        // Per quad, the iterations in which it had a lane left (what a quad running
        // alone counts).
        let mut iterations = [0u64; QUADS];
        let mut first = true;
        loop {
            m.cont = 0;
            m.active = entry & m.alive();
            if m.active == 0 {
                break;
            }
            if !(body_first && first) {
                if let Some((cc, cell)) = &cond {
                    if let Some(cc) = cc {
                        cc(m);
                    }
                    let t = m.truth(*cell);
                    m.sticky |= m.hz(*cell) & HAZARD & m.active;
                    m.brk |= m.active & !t;
                    m.active &= t;
                    if m.active == 0 {
                        break;
                    }
                }
            }
            first = false;
            if let Some(b) = &body {
                b(m);
            }
            m.cont = 0;
            m.active = entry & m.alive();
            if m.active == 0 {
                break;
            }
            if let Some(s) = &step {
                s(m);
            }
            if count_iterations(m, &mut iterations, span) {
                break;
            }
        }
        m.brk = saved_brk;
        m.cont = saved_cont;
        m.active = entry & m.alive();
    })
}
