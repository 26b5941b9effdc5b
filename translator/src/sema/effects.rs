//! CgFX effect constructs: state objects (`VertexShader vs = compile vp40 f(m);`),
//! `compile` expressions and technique passes.
//!
//! An effect file lists, beside its functions, how a runtime (the CgFX API) assembles
//! them: shader objects compiled under a profile, and techniques whose passes set
//! render states and programs. None of it is part of a program's code, so nothing here
//! reaches the IR. What is checked is what the language fixes: a `compile` names a known
//! profile and a function with a body and binds no more arguments than it has
//! parameters; a program state (`VertexProgram`, `PixelShader`, ...) receives a program of
//! its own domain; a state object is initialised by `compile`. Other render states
//! (`DepthTestEnable = true;`) belong to the effect runtime's state registry, which this
//! module does not know: their values are not checked.
//!
//! This module never lowers expressions and never emits IR.

use super::profile::{Domain, Profile};
use super::Lowerer;
use crate::codes;
use grammar::ast;
use grammar::Span;

/// The program domain a pass state takes, for the program states CgFX defines (names
/// are case-insensitive, as CgFX read them).
pub fn program_state_domain(state: &str) -> Option<Domain> {
    let s = state.to_ascii_lowercase();
    Some(match s.as_str() {
        "vertexprogram" | "vertexshader" => Domain::Vertex,
        "fragmentprogram" | "pixelprogram" | "pixelshader" | "fragmentshader" => Domain::Fragment,
        "geometryprogram" | "geometryshader" => Domain::Geometry,
        "tessellationcontrolprogram" | "tessellationcontrolshader" | "hullshader" => Domain::TessControl,
        "tessellationevaluationprogram" | "tessellationevaluationshader" | "domainshader" => Domain::TessEval,
        _ => return None,
    })
}

/// The domain of a state-object type name (`VertexShader`, `pixelshader`), if it is one.
pub fn state_object_domain(type_name: &str) -> Option<Domain> {
    if !grammar::lexer::classify::is_state_object_type(type_name) {
        return None;
    }
    program_state_domain(type_name)
}

impl<'a> Lowerer<'a> {
    /// A file-scope declaration of state objects: each initialiser must be a `compile`
    /// of the object's domain. The names are remembered for pass states.
    pub(super) fn state_objects(&mut self, d: &'a ast::Declaration, domain: Domain) {
        for decl in &d.declarators {
            if let Some(init) = &decl.init {
                self.state_object_init(init, domain);
            }
            self.state_object_names.insert(decl.name.name.clone(), domain);
        }
    }

    fn state_object_init(&mut self, init: &'a ast::Initializer, domain: Domain) {
        match init {
            ast::Initializer::List(items, _) => {
                for i in items {
                    self.state_object_init(i, domain);
                }
            }
            ast::Initializer::Expr(e) => match &e.kind {
                ast::ExprKind::Compile { profile, function, args } => {
                    self.check_compile(profile, function, args.len(), Some(domain), "this object");
                }
                _ => self.error(
                    codes::E_EFFECT,
                    e.span,
                    format!("a {} state object is initialised with `compile PROFILE function(...)`", domain.name()),
                ),
            },
        }
    }

    /// The passes of a technique: program states get programs of their domain.
    pub(super) fn technique(&mut self, t: &'a ast::Technique) {
        for pass in &t.passes {
            for state in &pass.states {
                let expected = program_state_domain(&state.name.name);
                let what = format!("`{}`", state.name.name);
                match &state.value.kind {
                    ast::ExprKind::Compile { profile, function, args } => {
                        self.check_compile(profile, function, args.len(), expected, &what);
                    }
                    ast::ExprKind::Ident(id) if expected.is_some() => {
                        match self.state_object_names.get(&id.name).copied() {
                            Some(d) if Some(d) != expected => {
                                let want = expected.map_or("", Domain::name);
                                self.error(
                                    codes::E_EFFECT,
                                    id.span,
                                    format!(
                                        "`{}` is a {} state object; {what} takes a {want} program",
                                        id.name,
                                        d.name()
                                    ),
                                );
                            }
                            Some(_) => {}
                            None => self.error(
                                codes::E_EFFECT,
                                id.span,
                                format!("`{}` is not a state object declared before this technique", id.name),
                            ),
                        }
                    }
                    // Other states and values belong to the effect runtime's registry.
                    _ => {}
                }
            }
        }
    }

    /// `compile profile function(args)` for a place that wants `expected` (when known).
    fn check_compile(
        &mut self,
        profile: &ast::Ident,
        function: &ast::Ident,
        args: usize,
        expected: Option<Domain>,
        what: &str,
    ) {
        let Some(p) = Profile::named(&profile.name) else {
            self.error(codes::E_EFFECT, profile.span, format!("`{}` is not a Cg profile", profile.name));
            return;
        };
        if let Some(want) = expected {
            if p.domain != want {
                self.error(
                    codes::E_EFFECT,
                    profile.span,
                    format!(
                        "`{}` compiles {} programs; {what} takes a {} program ({})",
                        profile.name,
                        p.domain.name(),
                        want.name(),
                        want.example_profiles()
                    ),
                );
            }
        }
        let defined: Vec<usize> = self
            .functions
            .get(&function.name)
            .map(|list| {
                list.iter()
                    .filter(|e| self.module.functions[e.handle].body.is_some())
                    .map(|e| e.param_types.len())
                    .collect()
            })
            .unwrap_or_default();
        if defined.is_empty() {
            self.error(
                codes::E_EFFECT,
                function.span,
                format!("no function `{}` with a body to compile (declare it before its use)", function.name),
            );
        } else if !defined.iter().any(|&n| n >= args) {
            self.error(
                codes::E_EFFECT,
                function.span,
                format!(
                    "`compile` binds {args} argument(s), but `{}` has at most {} parameter(s)",
                    function.name,
                    defined.iter().max().copied().unwrap_or(0)
                ),
            );
        }
    }

    /// A `compile` expression where a value is expected.
    pub(super) fn misplaced_compile(&mut self, span: Span) -> Option<crate::ir::Handle<crate::ir::Expr>> {
        self.error(
            codes::E_EFFECT,
            span,
            "a `compile` expression is only the value of a technique pass's program state or a state object's \
             initialiser",
        );
        None
    }
}
