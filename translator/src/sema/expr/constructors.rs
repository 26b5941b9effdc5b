//! Constructors and initialisers: `T(args)` for vectors, matrices, scalars, structs and
//! arrays, and `= expr` / `= { ... }` initialisers (with brace elision for arrays).
//!
//! It never accepts a component count that does not match its type (E0312): it does
//! not pad or truncate what the user wrote.

use super::H;
use crate::codes;
use crate::ir::{self, ExprKind, Type};
use crate::sema::Lowerer;
use grammar::ast;
use grammar::Span;

impl<'a> Lowerer<'a> {
    pub(super) fn constructor(&mut self, t: &'a ast::TypeName, args: &'a [ast::Expr], span: Span) -> Option<H> {
        let target = self.type_name_type(t)?;
        let mut lowered = Vec::with_capacity(args.len());
        for a in args {
            lowered.push(self.expr(a));
        }
        let lowered: Vec<H> = lowered.into_iter().collect::<Option<_>>()?;
        self.construct(target, lowered, span)
    }

    /// `T(args)`: a vector, matrix or scalar from components; one argument is a cast.
    pub(super) fn construct(&mut self, target: Type, args: Vec<H>, span: Span) -> Option<H> {
        if let Type::Struct(s) = target {
            return self.struct_constructor(s, args, span);
        }
        if let Type::Array(a) = target {
            return self.array_constructor(a, args, span);
        }
        if !target.is_numeric_shape() {
            let t = self.type_name(target);
            self.error(codes::E_BAD_CONSTRUCTOR, span, format!("{t} has no constructor; use an initializer list"));
            return None;
        }
        if let [one] = args[..] {
            let ot = self.ty(one);
            if ot.is_scalar() || ot.components() >= target.components() || !ot.is_numeric_shape() {
                return self.convert(one, target, true, span);
            }
        }
        let want = target.components()?;
        let mut have = 0;
        let elem = target.scalar()?;
        let mut parts = Vec::with_capacity(args.len());
        for a in args {
            let at = self.ty(a);
            if !at.is_numeric_shape() {
                let t = self.type_name(at);
                self.error(codes::E_BAD_CONSTRUCTOR, self.span_of(a), format!("{t} cannot be a constructor argument"));
                return None;
            }
            have += at.components()?;
            let s = self.span_of(a);
            parts.push(self.build_conversion(a, at.with_scalar(elem), s)?);
        }
        if have != want {
            let t = self.type_name(target);
            self.error(
                codes::E_BAD_CONSTRUCTOR,
                span,
                format!("{t} needs {want} components, but the arguments give {have}"),
            );
            return None;
        }
        Some(self.add(ExprKind::Construct { args: parts }, target, span))
    }

    /// `S(a, b, ...)`: one argument per field, each converted implicitly (NVIDIA's
    /// compiler accepted struct constructors; phosphor-trails.cg uses one).
    fn struct_constructor(&mut self, s: ir::StructId, args: Vec<H>, span: Span) -> Option<H> {
        let fields: Vec<Type> = self.module.struct_def(s).fields.iter().map(|f| f.ty).collect();
        if fields.len() != args.len() {
            let t = self.type_name(Type::Struct(s));
            self.error(
                codes::E_BAD_CONSTRUCTOR,
                span,
                format!("{t} has {} fields, the constructor gives {}", fields.len(), args.len()),
            );
            return None;
        }
        let mut out = Vec::with_capacity(args.len());
        for (a, f) in args.into_iter().zip(fields) {
            let s = self.span_of(a);
            out.push(self.convert(a, f, false, s)?);
        }
        Some(self.add(ExprKind::Construct { args: out }, Type::Struct(s), span))
    }

    /// `float[](a, b, c)` / `float[3](...)`: GLSL-style array constructors, which
    /// NVIDIA's compiler accepted (gb-pass-2.cg). An unsized type takes the count.
    fn array_constructor(&mut self, a: ir::ArrayId, args: Vec<H>, span: Span) -> Option<H> {
        let at = self.module.array_type(a);
        if at.len.is_some_and(|n| n as usize != args.len()) {
            let t = self.type_name(Type::Array(a));
            self.error(
                codes::E_BAD_CONSTRUCTOR,
                span,
                format!("{t} has {} elements, the constructor gives {}", at.len.unwrap_or(0), args.len()),
            );
            return None;
        }
        let mut out = Vec::with_capacity(args.len());
        for x in args {
            let s = self.span_of(x);
            out.push(self.convert(x, at.elem, false, s)?);
        }
        let ty = self.module.array(at.elem, Some(out.len() as u32));
        Some(self.add(ExprKind::Construct { args: out }, ty, span))
    }

    /// An initialiser (`= expr` or `= { ... }`) for a value of type `ty`; for an unsized
    /// array the result's type carries the size.
    pub(in crate::sema) fn initializer(&mut self, init: &'a ast::Initializer, ty: Type) -> Option<H> {
        match init {
            ast::Initializer::Expr(e) => {
                let v = self.expr(e)?;
                let vt = self.ty(v);
                if let (Type::Array(t), Type::Array(_)) = (ty, vt) {
                    if self.module.array_type(t).len.is_none() {
                        return Some(v);
                    }
                }
                self.convert(v, ty, false, e.span)
            }
            ast::Initializer::List(items, span) => self.init_list(items, ty, *span),
        }
    }

    fn init_list(&mut self, items: &'a [ast::Initializer], ty: Type, span: Span) -> Option<H> {
        match ty {
            Type::Scalar(_) if items.len() == 1 => self.initializer(&items[0], ty),
            Type::Vector(..) | Type::Matrix { .. } => {
                let mut leaves = Vec::new();
                flatten(items, &mut leaves);
                let mut args = Vec::with_capacity(leaves.len());
                for e in leaves {
                    args.push(self.expr(e));
                }
                let args: Vec<H> = args.into_iter().collect::<Option<_>>()?;
                self.construct(ty, args, span)
            }
            Type::Struct(s) => {
                let fields: Vec<Type> = self.module.struct_def(s).fields.iter().map(|f| f.ty).collect();
                if items.len() != fields.len() {
                    let t = self.type_name(ty);
                    self.error(
                        codes::E_BAD_CONSTRUCTOR,
                        span,
                        format!("{t} has {} fields, the initializer gives {}", fields.len(), items.len()),
                    );
                    return None;
                }
                let mut args = Vec::new();
                for (item, f) in items.iter().zip(fields) {
                    args.push(self.initializer(item, f));
                }
                let args: Vec<H> = args.into_iter().collect::<Option<_>>()?;
                Some(self.add(ExprKind::Construct { args }, ty, span))
            }
            Type::Array(a) => {
                let at = self.module.array_type(a);
                let elem_components = at.elem.components();
                // Brace elision: `float2 a[2] = {1, 2, 3, 4}`.
                let all_exprs = items.iter().all(|i| matches!(i, ast::Initializer::Expr(_)));
                let n = at.len.unwrap_or(items.len() as u32) as usize;
                let mut args = Vec::new();
                if all_exprs && items.len() != n && elem_components.is_some_and(|c| c as usize * n == items.len()) {
                    let c = elem_components? as usize;
                    for chunk in items.chunks(c) {
                        args.push(self.init_list(chunk, at.elem, span));
                    }
                } else {
                    if items.len() != n {
                        let t = self.type_name(ty);
                        self.error(
                            codes::E_BAD_CONSTRUCTOR,
                            span,
                            format!("{t} has {n} elements, the initializer gives {}", items.len()),
                        );
                        return None;
                    }
                    for item in items {
                        args.push(self.initializer(item, at.elem));
                    }
                }
                let args: Vec<H> = args.into_iter().collect::<Option<_>>()?;
                let ty = self.module.array(at.elem, Some(args.len() as u32));
                Some(self.add(ExprKind::Construct { args }, ty, span))
            }
            _ => {
                let t = self.type_name(ty);
                self.error(codes::E_BAD_CONSTRUCTOR, span, format!("{t} cannot be initialised from a list"));
                None
            }
        }
    }
}

fn flatten<'a>(items: &'a [ast::Initializer], out: &mut Vec<&'a ast::Expr>) {
    for i in items {
        match i {
            ast::Initializer::Expr(e) => out.push(e),
            ast::Initializer::List(inner, _) => flatten(inner, out),
        }
    }
}
