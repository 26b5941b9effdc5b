//! Resolving written types: built-in names, typedefs, struct definitions (with member
//! functions and interface bases), generic `vector<T,N>`/`matrix<T,R,C>`, array
//! dimensions. Struct definitions found in declaration specifiers are declared here.
//!
//! Errors are E0302 (unknown type) and E0311 (array size not constant).

use super::{Lowerer, Symbol};
use crate::codes;
use crate::ir::{self, types::builtin_type, Field, Scalar, StructDef, Type};
use grammar::ast;

/// The most scalar components one array may hold (64 Ki). Cg's largest profiles had a
/// few thousand constant registers; the common-shaders library's largest array holds
/// under a hundred. Beyond this the zero initialiser alone would be megabytes of text.
pub const MAX_ARRAY_COMPONENTS: u64 = 1 << 16;

impl<'a> Lowerer<'a> {
    /// The type of a declaration's specifiers (`packed`, `row_major` and the like are
    /// accepted and have no effect on meaning).
    pub(super) fn decl_base_type(&mut self, specs: &'a ast::DeclSpecifiers) -> Option<Type> {
        self.resolve_type(&specs.ty)
    }

    pub(super) fn resolve_type(&mut self, ty: &'a ast::TypeSpec) -> Option<Type> {
        match ty {
            ast::TypeSpec::Named(id) => self.named_type(id),
            ast::TypeSpec::Struct(def) => self.struct_def(def),
            ast::TypeSpec::Generic { name, args, span } if name.name == "AttribArray" => self.attrib_array(args, *span),
            ast::TypeSpec::Generic { name, args, span } => self.generic_type(name, args, *span),
        }
    }

    fn named_type(&mut self, id: &ast::Ident) -> Option<Type> {
        if let Some(Symbol::Type(t)) = self.lookup(&id.name) {
            return Some(t);
        }
        if let Some(t) = builtin_type(&id.name) {
            if t.scalar().is_some_and(Scalar::is_compile_time) {
                self.error(
                    codes::E_UNKNOWN_TYPE,
                    id.span,
                    format!("`{}` is a compile-time type; no object can have it", id.name),
                );
                return None;
            }
            return Some(t);
        }
        if super::effects::state_object_domain(&id.name).is_some() {
            self.error(
                codes::E_EFFECT,
                id.span,
                format!("`{}` is a CgFX state-object type: only file-scope effect declarations have it", id.name),
            );
            return None;
        }
        self.error(codes::E_UNKNOWN_TYPE, id.span, format!("unknown type `{}`", id.name));
        None
    }

    fn generic_type(&mut self, name: &ast::Ident, args: &'a [ast::GenericArg], span: grammar::Span) -> Option<Type> {
        let mut numbers = Vec::new();
        let mut elem = None;
        for a in args {
            match a {
                ast::GenericArg::Type(t) => elem = self.resolve_type(t),
                ast::GenericArg::Expr(e) => numbers.push(self.constant_u32(e)?),
            }
        }
        let scalar = elem.and_then(|t| if let Type::Scalar(s) = t { Some(s) } else { None });
        let ok = |n: u32| (1..=4).contains(&n);
        match (name.name.as_str(), scalar, numbers.as_slice()) {
            ("vector", Some(s), [n]) if ok(*n) => Some(Type::vec(s, *n as u8)),
            ("matrix", Some(s), [r, c]) if ok(*r) && ok(*c) => Some(Type::mat(s, *r as u8, *c as u8)),
            _ => {
                self.error(codes::E_UNKNOWN_TYPE, span, format!("malformed `{}<...>` type", name.name));
                None
            }
        }
    }

    /// Wraps `base` in the declarator's array dimensions (outermost first); an array of
    /// more than [`MAX_ARRAY_COMPONENTS`] scalars is an error (E0320).
    pub(super) fn array_type(&mut self, base: Type, dims: &'a [ast::ArraySize]) -> Option<Type> {
        let mut sizes = Vec::with_capacity(dims.len());
        for d in dims {
            sizes.push(match d {
                ast::ArraySize::Sized(e) => Some(self.constant_u32(e)?),
                ast::ArraySize::Unsized(_) => None,
            });
        }
        let mut ty = base;
        for len in sizes.into_iter().rev() {
            ty = self.module.array(ty, len);
        }
        let count = self.module.scalar_count(ty);
        if count > MAX_ARRAY_COMPONENTS {
            let span = dims.iter().map(array_size_span).reduce(|a, b| a.to(b));
            if let Some(span) = span {
                self.error(
                    codes::E_ARRAY_TOO_LARGE,
                    span,
                    format!(
                        "this array holds {count} scalar components; the limit is {MAX_ARRAY_COMPONENTS} (no Cg profile allowed anywhere near this many)"
                    ),
                );
            }
            return None;
        }
        Some(ty)
    }

    /// A positive compile-time integer (array sizes, generic arguments).
    pub(super) fn constant_u32(&mut self, e: &'a ast::Expr) -> Option<u32> {
        let value = self.expr(e).and_then(|h| self.fold(h));
        match value.and_then(super::const_eval::as_i64).and_then(|v| u32::try_from(v).ok()) {
            Some(v) if v > 0 => Some(v),
            _ => {
                self.error(codes::E_NOT_CONSTANT, e.span, "an array size must be a positive integer constant");
                None
            }
        }
    }

    fn struct_def(&mut self, def: &'a ast::StructDef) -> Option<Type> {
        // `struct S;` or a use of an already defined `struct S` without a body.
        let id = ir::StructId(self.module.structs.len() as u32);
        let implements = match def.bases.first() {
            Some(b) => match self.lookup(&b.name) {
                Some(Symbol::Type(Type::Interface(i))) => Some(i),
                _ => {
                    self.error(codes::E_BAD_INTERFACE, b.span, format!("`{}` is not an interface", b.name));
                    None
                }
            },
            None => None,
        };
        self.module.structs.push(StructDef {
            name: def.name.as_ref().map(|n| n.name.clone()),
            fields: Vec::new(),
            methods: Vec::new(),
            implements,
            span: def.span,
        });
        let ty = Type::Struct(id);
        if let Some(name) = &def.name {
            // The name is visible inside the body (for methods returning the struct).
            if let Some(scope) = self.scopes.last_mut() {
                scope.insert(name.name.clone(), Symbol::Type(ty));
            }
        }
        let mut fields = Vec::new();
        for m in &def.members {
            if let ast::StructMember::Field(d) = m {
                let Some(base) = self.decl_base_type(&d.specifiers) else { continue };
                for decl in &d.declarators {
                    if fields.iter().any(|f: &Field| f.name == decl.name.name) {
                        self.error(
                            codes::E_REDECLARED,
                            decl.name.span,
                            format!("field `{}` declared twice", decl.name.name),
                        );
                        continue;
                    }
                    if let Some(t) = self.array_type(base, &decl.array) {
                        fields.push(Field {
                            name: decl.name.name.clone(),
                            ty: t,
                            semantic: decl.semantic.as_ref().map(super::semantic),
                            span: decl.name.span,
                        });
                    }
                }
            }
        }
        // An identical redefinition (same name, same fields, no methods) is the same
        // type: headers included twice without guards do this.
        let has_methods = def.members.iter().any(|m| matches!(m, ast::StructMember::Method(_)));
        if let Some(name) = &def.name {
            let key = |f: &Field| (f.name.clone(), f.ty, f.semantic.as_ref().map(|s| s.text.clone()));
            let wanted: Vec<_> = fields.iter().map(key).collect();
            let same = self.module.structs[..id.0 as usize].iter().position(|s| {
                s.name.as_deref() == Some(name.name.as_str())
                    && s.methods.is_empty()
                    && s.fields.iter().map(key).collect::<Vec<_>>() == wanted
            });
            if let (Some(existing), false) = (same, has_methods) {
                self.module.structs.truncate(id.0 as usize);
                let ty = Type::Struct(ir::StructId(existing as u32));
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(name.name.clone(), Symbol::Type(ty));
                }
                return Some(ty);
            }
        }
        self.module.structs[id.0 as usize].fields = fields;
        for m in &def.members {
            if let ast::StructMember::Method(f) = m {
                self.function(f, Some(id));
            }
        }
        if let Some(i) = implements {
            self.check_implements(id, i, def.span);
        }
        Some(ty)
    }

    fn check_implements(&mut self, s: ir::StructId, i: ir::InterfaceId, span: grammar::Span) {
        let mut required = Vec::new();
        let mut next = Some(i);
        while let Some(x) = next {
            let iface = self.module.interface(x);
            required.extend(iface.methods.iter().map(|m| (m.name.clone(), m.params.clone(), m.ret)));
            next = iface.base;
            if required.len() > 10_000 {
                break;
            }
        }
        let sdef = self.module.struct_def(s);
        for (name, params, ret) in required {
            let found = sdef.methods.iter().any(|&h| {
                let f = &self.module.functions[h];
                f.name == name
                    && f.ret == ret
                    && f.params.len() == params.len() + 1
                    && f.params[1..].iter().zip(&params).all(|(p, (t, d))| p.ty == *t && p.dir == *d)
            });
            if !found {
                let sname = self.type_name(Type::Struct(s));
                let iname = self.module.interface(i).name.clone();
                self.error(
                    codes::E_BAD_INTERFACE,
                    span,
                    format!("struct `{sname}` does not implement method `{name}` of interface `{iname}`"),
                );
                return;
            }
        }
    }
}

fn array_size_span(d: &ast::ArraySize) -> grammar::Span {
    match d {
        ast::ArraySize::Sized(e) => e.span,
        ast::ArraySize::Unsized(s) => *s,
    }
}
