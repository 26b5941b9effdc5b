//! Calls: user functions, methods, the standard library and the GLSL built-ins NVIDIA's
//! compiler accepted, through overload resolution ([`crate::sema::overload`]).
//!
//! Candidates are the user's overloads and the library's (those the user did not
//! redeclare); the GLSL names only where nothing else has the name (W0306). Arguments
//! are converted to the chosen formals; `out`/`inout` arguments must be places of the
//! formal's exact type; missing arguments take their defaults; interface parameters
//! call the specialised version. W0308 tells where the profile families disagreed.
//!
//! It never picks among ambiguous overloads (E0306) and never calls a library function
//! its stage does not have without a profile error.

use super::H;
use crate::codes;
use crate::ir::{self, ExprKind, Handle, ParamDir, Stage, Type, Var};
use crate::sema::families;
use crate::sema::intrinsics;
use crate::sema::overload::{self, Candidate, Resolution};
use crate::sema::{Lowerer, Symbol};
use grammar::ast;
use grammar::{Diagnostic, Span};

/// A user function as overload resolution sees it: handle, parameter types, required
/// parameter count, profiles.
type UserCandidate = (Handle<ir::Function>, Vec<Type>, usize, Vec<String>);

impl<'a> Lowerer<'a> {
    pub(super) fn call(&mut self, callee: &'a ast::Expr, args: &'a [ast::Expr], span: Span) -> Option<H> {
        match &callee.kind {
            ast::ExprKind::Ident(id)
                if crate::sema::programs::is_geometry_call(&id.name)
                    && !self.functions.contains_key(&id.name)
                    && self.lookup(&id.name).is_none() =>
            {
                self.geometry_call_as_value(id)
            }
            ast::ExprKind::Ident(id) => {
                let mut lowered = Vec::with_capacity(args.len());
                for a in args {
                    lowered.push(self.expr(a));
                }
                let lowered: Vec<H> = lowered.into_iter().collect::<Option<_>>()?;
                // Inside a member function, a sibling method is called on `this`.
                if let Some(s) = self.stack.last().and_then(|c| c.method_of) {
                    let key = crate::sema::qualified_name(&self.module, Some(s), &id.name);
                    if self.functions.contains_key(&key) {
                        let this = self.add(ExprKind::Var(Var::Param(0)), Type::Struct(s), id.span);
                        let mut all = vec![this];
                        all.extend(lowered);
                        return self.resolve_call(&key, &id.name, all, span, false);
                    }
                }
                if let Some(Symbol::Type(t)) = self.lookup(&id.name) {
                    return self.construct(t, lowered, span);
                }
                self.resolve_call(&id.name.clone(), &id.name, lowered, span, true)
            }
            ast::ExprKind::Member { base, member } => {
                let b = self.expr(base)?;
                let bt = self.ty(b);
                let Type::Struct(s) = bt else {
                    let t = self.type_name(bt);
                    let msg = match bt {
                        Type::Interface(_) => {
                            format!("method `{}` of interface {t} cannot be resolved statically here", member.name)
                        }
                        _ => format!("{t} has no method `{}`", member.name),
                    };
                    self.error(codes::E_BAD_CALL, member.span, msg);
                    return None;
                };
                let key = crate::sema::qualified_name(&self.module, Some(s), &member.name);
                if !self.functions.contains_key(&key) {
                    let t = self.type_name(bt);
                    self.error(
                        codes::E_BAD_MEMBER,
                        member.span,
                        format!("struct `{t}` has no method `{}`", member.name),
                    );
                    return None;
                }
                let mut all = vec![b];
                for a in args {
                    all.push(self.expr(a)?);
                }
                self.resolve_call(&key, &member.name, all, span, false)
            }
            _ => {
                self.error(codes::E_BAD_CALL, callee.span, "only functions can be called");
                None
            }
        }
    }

    /// Resolves and builds a call of `key` (a free function name or `S::method`).
    fn resolve_call(&mut self, key: &str, display: &str, args: Vec<H>, span: Span, with_stdlib: bool) -> Option<H> {
        let arg_types: Vec<Type> = args.iter().map(|&a| self.ty(a)).collect();
        let user: Vec<UserCandidate> = self
            .functions
            .get(key)
            .map(|l| l.iter().map(|e| (e.handle, e.param_types.clone(), e.required, e.profiles.clone())).collect())
            .unwrap_or_default();
        let stdlib: Vec<&'static intrinsics::Overload> = if with_stdlib {
            intrinsics::overloads(key)
                .map(|o| o.iter().filter(|o| !user.iter().any(|u| u.1 == o.param_types)).collect())
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        // GLSL built-ins NVIDIA's compiler accepted: only when nothing else has the name.
        let glsl = with_stdlib && user.is_empty() && stdlib.is_empty();
        let stdlib = match intrinsics::glsl_overloads(key) {
            Some(list) if glsl => list.iter().collect(),
            _ => stdlib,
        };
        let glsl = glsl && !stdlib.is_empty();
        if user.is_empty() && stdlib.is_empty() {
            self.error(codes::E_UNDECLARED, span, format!("function `{display}` is not declared"));
            return None;
        }
        let no_profiles: Vec<String> = Vec::new();
        let mut candidates: Vec<Candidate> =
            user.iter().map(|(_, p, r, pr)| Candidate { params: p, required: *r, profiles: pr }).collect();
        candidates.extend(stdlib.iter().map(|o| Candidate {
            params: &o.param_types,
            required: o.param_types.len(),
            profiles: &no_profiles,
        }));
        // Arguments written as `sampler` match any specific sampler formal.
        let resolution_args = sampler_args(&arg_types, &candidates);
        let resolved = overload::resolve(&self.module, &candidates, &resolution_args, &self.profile);
        let chosen = match resolved {
            Resolution::Unique(i) => i,
            Resolution::NoMatch(why) => {
                let sig = self.signature_list(&arg_types);
                let mut d = Diagnostic::error(
                    codes::E_NO_OVERLOAD,
                    format!("no overload of `{display}` matches ({sig}): {why}"),
                )
                .with_primary(span, "");
                for c in candidates.iter().take(6) {
                    d = d.with_note(format!("candidate: {display}({})", self.signature_list(c.params)));
                }
                if candidates.len() > 6 {
                    d = d.with_note(format!("... and {} more candidates", candidates.len() - 6));
                }
                self.push(d);
                return None;
            }
            Resolution::Ambiguous(set) => {
                let sig = self.signature_list(&arg_types);
                let mut d = Diagnostic::error(
                    codes::E_AMBIGUOUS_OVERLOAD,
                    format!("call of `{display}` with ({sig}) is ambiguous"),
                )
                .with_primary(span, "");
                for &i in set.iter().take(6) {
                    d = d.with_note(format!("candidate: {display}({})", self.signature_list(candidates[i].params)));
                }
                self.push(d);
                return None;
            }
        };
        if chosen < user.len() {
            let (handle, params, _, _) = user[chosen].clone();
            self.build_user_call(handle, &params, args, span)
        } else {
            let o = stdlib[chosen - user.len()];
            if user.is_empty() {
                self.warn_family_difference(display, &stdlib, chosen, &resolution_args, span);
            }
            if glsl {
                let cg = match o.builtin.name() {
                    "frac" => "; Cg spells it `frac`",
                    "lerp" => "; Cg spells it `lerp`",
                    "mod" => "; Cg's `fmod` truncates where `mod` floors",
                    _ => "",
                };
                self.warn(
                    codes::W_GLSL_BUILTIN,
                    span,
                    format!(
                        "`{display}` is a GLSL function, not in Cg 3.1's standard library{cg}; NVIDIA's Cg \
                         compiler accepted it, so it keeps its GLSL meaning"
                    ),
                );
            }
            self.build_builtin_call(o, args, span)
        }
    }

    /// W0308 where the standard-library overload chosen for a call is declared in one
    /// profile family only and the other family read the call differently.
    fn warn_family_difference(
        &mut self,
        display: &str,
        stdlib: &[&'static intrinsics::Overload],
        chosen: usize,
        args: &[Type],
        span: Span,
    ) {
        let Some(d) = families::family_difference(&self.module, display, stdlib, chosen, args, &self.profile) else {
            return;
        };
        let o = stdlib[chosen];
        let form = format!("{display}({})", self.signature_list(&o.param_types));
        let (gpus, ret) = (if d.declared.starts_with("glsl") { "most GPUs" } else { "NVIDIA GPUs" }, o.ret);
        let ret = self.type_name(ret);
        let there = match d.elsewhere {
            families::Elsewhere::Resolved(j) => {
                let alt = stdlib[j];
                let (sig, alt_ret) = (self.signature_list(&alt.param_types), self.type_name(alt.ret));
                format!(
                    "{} chose `{display}({sig})` (returning {alt_ret}), so the result differed between GPUs",
                    d.other
                )
            }
            families::Elsewhere::Rejected => format!("{} rejected the call, so the shader ran only on {gpus}", d.other),
        };
        self.warn(
            codes::W_PROFILE_FAMILY,
            span,
            format!(
                "`{form}` is declared only in the {} profiles ({gpus} in RetroArch); NVIDIA's compiler under {there}; \
                 translated with the {} form (returning {ret})",
                d.declared, d.declared
            ),
        );
    }

    fn signature_list(&self, types: &[Type]) -> String {
        types.iter().map(|&t| self.type_name(t)).collect::<Vec<_>>().join(", ")
    }

    fn build_user_call(
        &mut self,
        handle: Handle<ir::Function>,
        params: &[Type],
        args: Vec<H>,
        span: Span,
    ) -> Option<H> {
        let decl = self.module.functions[handle].params.clone();
        let mut handle = handle;
        // Interface parameters: call the version specialised for these structs.
        if decl.iter().any(|p| matches!(p.ty, Type::Interface(_))) {
            let concrete: Vec<Type> = decl
                .iter()
                .enumerate()
                .map(|(i, p)| match p.ty {
                    Type::Interface(_) => args.get(i).map_or(p.ty, |&a| self.ty(a)),
                    t => t,
                })
                .collect();
            handle = self.specialise(handle, &concrete)?;
        }
        let decl = self.module.functions[handle].params.clone();
        let mut out = Vec::with_capacity(decl.len());
        for (i, p) in decl.iter().enumerate() {
            match args.get(i) {
                Some(&a) => {
                    let s = self.span_of(a);
                    let a = if p.dir == ParamDir::In {
                        self.convert(a, p.ty, false, s)?
                    } else {
                        if !self.is_place(a) {
                            self.error(
                                codes::E_BAD_CALL,
                                s,
                                format!("argument for `{}` parameter `{}` must be assignable", dir_name(p.dir), p.name),
                            );
                            return None;
                        }
                        if self.ty(a) != p.ty && !(matches!(params.get(i), Some(Type::Interface(_)))) {
                            let (x, y) = (self.type_name(self.ty(a)), self.type_name(p.ty));
                            self.error(
                                codes::E_BAD_CALL,
                                s,
                                format!(
                                    "argument of type {x} cannot bind to `{}` parameter of type {y}",
                                    dir_name(p.dir)
                                ),
                            );
                            return None;
                        }
                        a
                    };
                    out.push(a);
                }
                None => {
                    let d = p.default?;
                    out.push(self.import_global_expr(d)?);
                }
            }
        }
        let caller = self.stack.last().map(|c| c.handle);
        self.calls.push((caller, handle, span));
        let ret = self.module.functions[handle].ret;
        Some(self.add(ExprKind::Call { function: handle, args: out }, ret, span))
    }

    fn build_builtin_call(&mut self, o: &'static intrinsics::Overload, args: Vec<H>, span: Span) -> Option<H> {
        let stage = self.profile.stage;
        let allowed = match stage {
            Stage::Vertex => o.stages.vertex,
            Stage::Fragment => o.stages.fragment,
        };
        if !allowed {
            let where_ = if o.stages.fragment { "fragment" } else { "vertex" };
            self.profile_error(span, format!("`{}` is only available in {where_} programs", o.builtin.name()));
        }
        let mut out = Vec::with_capacity(args.len());
        for (a, p) in args.into_iter().zip(&o.params) {
            let s = self.span_of(a);
            if p.dir == ParamDir::In {
                out.push(self.convert(a, p.ty, false, s)?);
            } else {
                if !self.is_place(a) || self.ty(a) != p.ty {
                    let y = self.type_name(p.ty);
                    self.error(
                        codes::E_BAD_CALL,
                        s,
                        format!("`out` argument of `{}` must be an assignable {y}", o.builtin.name()),
                    );
                    return None;
                }
                out.push(a);
            }
        }
        Some(self.add(ExprKind::Builtin { builtin: o.builtin, args: out }, o.ret, span))
    }
}

/// Arguments of the generic `sampler` type take the type of the formal they meet, so
/// that `tex2D(s, uv)` resolves for `sampler s` (the spec allows `sampler` wherever a
/// specific sampler type is valid).
fn sampler_args(args: &[Type], candidates: &[Candidate<'_>]) -> Vec<Type> {
    args.iter()
        .enumerate()
        .map(|(i, &t)| match t {
            Type::Sampler(ir::SamplerDim::Any) => {
                candidates.iter().find_map(|c| c.params.get(i).copied().filter(|p| p.is_sampler())).unwrap_or(t)
            }
            t => t,
        })
        .collect()
}

fn dir_name(d: ParamDir) -> &'static str {
    match d {
        ParamDir::In => "in",
        ParamDir::Out => "out",
        ParamDir::InOut => "inout",
    }
}
