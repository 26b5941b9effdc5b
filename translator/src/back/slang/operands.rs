//! Which expressions print as a plain path (a name, its members and swizzles, a
//! non-negative literal): those may be repeated in the output (`c.xy`, `c.w` of one
//! coordinate) where anything else is evaluated once, through a temporary or a helper.
//! Decided from the IR and the stage's bindings, never from printed text. A uniform
//! read is never a plain path: it stays one read, where the writer puts it.
//!
//! Must agree with what [`super::expressions`] prints for each kind; it asks only
//! questions the writer itself asks (bindings, the connector slot, the sampler aliases).

use super::StageWriter;
use crate::ir::{Attribute, Builtin, Expr, ExprKind, Exprs, Handle, Literal, Ported, RuntimeValue, Type, Var};
use crate::port::connectors::{Place, SlotKind};
use crate::port::semantics::Binding;
use crate::port::stdlib::{self, glsl_type};

/// A plain path: its trailing swizzle, if it ends in one (`v.xy` ends in `xy`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Path {
    pub(super) swizzle: Option<String>,
}

impl Path {
    fn name() -> Option<Path> {
        Some(Path { swizzle: None })
    }

    fn ending(letters: &str) -> Option<Path> {
        let swizzle = !letters.is_empty() && letters.len() <= 4 && letters.chars().all(|c| "xyzw".contains(c));
        Some(Path { swizzle: swizzle.then(|| letters.to_owned()) })
    }
}

/// How a value of `have` components reshaped to `ty` prints, given how the value
/// prints (`base`): the same path, a truncating swizzle of it, or a constructor.
fn reshaped(base: Option<Path>, have: u32, ty: Type) -> Option<Path> {
    let want = match ty {
        Type::Scalar(_) => 1,
        Type::Vector(_, n) => u32::from(n),
        _ => return base,
    };
    match want.cmp(&have) {
        std::cmp::Ordering::Equal => base,
        std::cmp::Ordering::Less => base.and_then(|_| Path::ending(&"xyzw"[..want as usize])),
        std::cmp::Ordering::Greater => None,
    }
}

/// Whether the zero of `ty` prints as one literal (`0.0`, `0`, `false`).
fn zero_is_literal(ty: Type) -> bool {
    match ty {
        Type::Struct(_) | Type::Array(_) => false,
        t => {
            t.scalar() == Some(crate::ir::Scalar::Bool) && !matches!(t, Type::Vector(_, n) if n > 1)
                || matches!(glsl_type(t).as_deref().unwrap_or("float"), "float" | "int" | "uint")
        }
    }
}

fn literal(l: Literal, ty: Type) -> bool {
    match l {
        Literal::Bool(_) | Literal::UInt(_) => true,
        Literal::Int(i) => ty.scalar().is_some_and(|s| s.is_unsigned()) || i as i32 >= 0,
        Literal::Float(f) => (f as f32).is_finite() && !(f as f32).is_sign_negative(),
    }
}

/// How a runtime value prints ([`StageWriter::runtime_value`]): a uniform read is never
/// a plain path; a texture, an attribute and a literal zero are.
fn runtime_path(v: &RuntimeValue, ty: Type) -> Option<Path> {
    match v {
        RuntimeValue::Uniform(_) => None,
        RuntimeValue::Texture(_) => Path::name(),
        RuntimeValue::Attribute(Attribute::Position) => reshaped(Path::name(), 4, ty),
        RuntimeValue::Attribute(Attribute::TexCoord) => reshaped(Path::name(), 2, ty),
        RuntimeValue::Zero => zero_is_literal(ty).then_some(Path { swizzle: None }),
    }
}

impl StageWriter<'_> {
    /// Whether expression `h` prints as a plain path.
    pub(super) fn is_plain(&self, exprs: &Exprs, h: Handle<Expr>) -> bool {
        self.path(exprs, h).is_some()
    }

    /// Expression `h` as a plain path, or `None` when it prints as anything else.
    pub(super) fn path(&self, exprs: &Exprs, h: Handle<Expr>) -> Option<Path> {
        let e = &exprs[h];
        match &e.kind {
            ExprKind::Literal(l) => literal(*l, e.ty).then_some(Path { swizzle: None }),
            ExprKind::Var(v) => self.var_path(*v, e.ty),
            ExprKind::Ported(Ported::Runtime(v)) => runtime_path(v, e.ty),
            ExprKind::Member { base, field } => self.member_path(exprs, *base, *field, e.ty),
            ExprKind::Index { base, .. } if matches!(exprs[*base].ty, Type::Vector(_, 1)) => self.path(exprs, *base),
            ExprKind::Swizzle { base, components } => {
                if matches!(exprs[*base].ty, Type::Scalar(_) | Type::Vector(_, 1)) {
                    return if components.len() == 1 { self.path(exprs, *base) } else { None };
                }
                let base = self.path(exprs, *base)?;
                let own: String = components.iter().map(|&c| ['x', 'y', 'z', 'w'][c as usize & 3]).collect();
                // A swizzle of a swizzled path composes (`v.xy.x` prints `v.x`).
                let composed = base.swizzle.and_then(|prev| {
                    let prev: Vec<char> = prev.chars().collect();
                    components.iter().map(|&c| prev.get(c as usize).copied()).collect::<Option<String>>()
                });
                Path::ending(&composed.unwrap_or(own))
            }
            ExprKind::Select { cond, accept, reject } if matches!(exprs[*cond].ty, Type::Vector(_, n) if n > 1) => {
                let constants = (exprs.bool_constant(*accept), exprs.bool_constant(*reject));
                if constants == (Some(true), Some(false)) {
                    self.path(exprs, *cond)
                } else {
                    None
                }
            }
            ExprKind::Convert { value } if glsl_type(exprs[*value].ty) == glsl_type(e.ty) => self.path(exprs, *value),
            ExprKind::Splat { value } if matches!(e.ty, Type::Vector(_, 1)) => self.path(exprs, *value),
            ExprKind::Truncate { value } => match (exprs[*value].ty, e.ty) {
                (Type::Vector(_, 1), _) => self.path(exprs, *value),
                (Type::Vector(..), Type::Scalar(_)) => self.path(exprs, *value).and_then(|_| Path::ending("x")),
                (Type::Vector(..), Type::Vector(_, m)) => {
                    self.path(exprs, *value).and_then(|_| Path::ending(&"xyzw"[..usize::from(m.max(1))]))
                }
                _ => None,
            },
            ExprKind::Builtin { builtin, args } => self.builtin_path(exprs, *builtin, args),
            ExprKind::Sequence { exprs: list } if list.len() == 1 => self.path(exprs, list[0]),
            _ => None,
        }
    }

    fn var_path(&self, v: Var, ty: Type) -> Option<Path> {
        if let Some((_, plain)) = self.sampler_alias.get(&v) {
            return plain.then_some(Path { swizzle: None });
        }
        let binding = match v {
            Var::Param(_) if self.in_entry => self.b.of(v),
            Var::Global(_) => self.b.of(v),
            Var::Param(_) | Var::Local(_) => None,
        };
        match (binding, v) {
            (Some(Binding::Parameter(_)), _) => None,
            (Some(Binding::Varying), Var::Param(i)) if !self.plan.copied_params.contains(&i) => {
                let input =
                    self.cur.is_some_and(|f| self.m.functions[f].params[i as usize].dir == crate::ir::ParamDir::In);
                if input {
                    self.slot_path(Place::Param(i), ty)
                } else {
                    Path::name()
                }
            }
            _ => Path::name(),
        }
    }

    fn member_path(&self, exprs: &Exprs, base: Handle<Expr>, field: u32, ty: Type) -> Option<Path> {
        let Type::Struct(s) = exprs[base].ty else { return Path::name() };
        if let ExprKind::Var(v) = exprs[base].kind {
            let entry_or_global = matches!(v, Var::Global(_)) || (self.in_entry && matches!(v, Var::Param(_)));
            if entry_or_global {
                match self.b.of(v) {
                    Some(Binding::Invalid | Binding::Unbound) => {
                        return zero_is_literal(ty).then_some(Path { swizzle: None })
                    }
                    Some(Binding::Varying) if matches!(v, Var::Param(i) if !self.plan.copied_params.contains(&i)) => {
                        let Var::Param(i) = v else { return None };
                        return self.slot_path(Place::ParamField(i, field), ty);
                    }
                    _ => {}
                }
            }
        }
        self.path(exprs, base)?;
        Path::ending(&self.field_name(s, field))
    }

    /// How an input slot reads ([`Self::slot_value`]).
    fn slot_path(&self, place: Place, ty: Type) -> Option<Path> {
        let zero = || zero_is_literal(ty).then_some(Path { swizzle: None });
        let Some(slot) = self.conn.slot(self.vertex(), place) else { return zero() };
        match slot.kind {
            SlotKind::Position | SlotKind::FragCoord => reshaped(Path::name(), 4, ty),
            SlotKind::TexCoord => reshaped(Path::name(), 2, ty),
            SlotKind::White => None,
            SlotKind::Varying(_) => reshaped(Path::name(), slot.ty.components().unwrap_or(4), ty),
            _ => zero(),
        }
    }

    fn builtin_path(&self, exprs: &Exprs, b: Builtin, args: &[Handle<Expr>]) -> Option<Path> {
        let types: Vec<Type> = args.iter().map(|&a| exprs[a].ty).collect();
        let i = stdlib::identity_argument(b, &types)?;
        self.path(exprs, *args.get(i)?)
    }
}
