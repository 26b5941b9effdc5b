//! Member access and indexing: struct fields, vector and matrix swizzles, an array's
//! `.length`, and `[]` on arrays, vectors and matrices.
//!
//! It never guesses a component: a swizzle that reads past its value's size, or a
//! member that does not exist, is an error (E0308) with no expression.

use super::H;
use crate::codes;
use crate::ir::{ExprKind, Literal, Scalar, Type};
use crate::sema::swizzle;
use crate::sema::Lowerer;
use grammar::ast;
use grammar::Span;

impl<'a> Lowerer<'a> {
    pub(super) fn member(&mut self, b: H, member: &ast::Ident, span: Span) -> Option<H> {
        let ty = self.ty(b);
        let name = member.name.as_str();
        match ty {
            Type::Struct(s) => {
                let def = self.module.struct_def(s);
                if let Some((i, f)) = def.fields.iter().enumerate().find(|(_, f)| f.name == name) {
                    let fty = f.ty;
                    return Some(self.add(ExprKind::Member { base: b, field: i as u32 }, fty, span));
                }
                let sname = self.type_name(ty);
                self.error(codes::E_BAD_MEMBER, member.span, format!("struct `{sname}` has no field `{name}`"));
                None
            }
            Type::Scalar(s) | Type::Vector(s, _) => {
                let size = if let Type::Vector(_, n) = ty { n } else { 1 };
                match swizzle::vector_swizzle(name) {
                    Some(c) if c.iter().all(|&i| i < size) => {
                        let rty = if c.len() == 1 { Type::Scalar(s) } else { Type::vec(s, c.len() as u8) };
                        Some(self.add(ExprKind::Swizzle { base: b, components: c }, rty, span))
                    }
                    Some(_) => {
                        let t = self.type_name(ty);
                        self.error(
                            codes::E_BAD_MEMBER,
                            member.span,
                            format!("swizzle `.{name}` reads a component that {t} does not have"),
                        );
                        None
                    }
                    None => {
                        let t = self.type_name(ty);
                        self.error(
                            codes::E_BAD_MEMBER,
                            member.span,
                            format!(
                                "`.{name}` is not a valid swizzle of {t} (use one of xyzw, rgba or stpq, up to four)"
                            ),
                        );
                        None
                    }
                }
            }
            Type::Matrix { scalar, rows, cols } => match swizzle::matrix_swizzle(name) {
                Some(e) if e.iter().all(|&(r, c)| r < rows && c < cols) => {
                    let rty = if e.len() == 1 { Type::Scalar(scalar) } else { Type::vec(scalar, e.len() as u8) };
                    Some(self.add(ExprKind::MatrixElements { base: b, elements: e }, rty, span))
                }
                _ => {
                    let t = self.type_name(ty);
                    self.error(
                        codes::E_BAD_MEMBER,
                        member.span,
                        format!("`.{name}` is not a valid matrix swizzle of {t} (`_m00`..`_m33` or `_11`..`_44`)"),
                    );
                    None
                }
            },
            Type::Array(a) if name == "length" => {
                let a = self.module.array_type(a);
                match a.len {
                    Some(n) => {
                        Some(self.add(ExprKind::Literal(Literal::Int(n as i64)), Type::Scalar(Scalar::CInt), span))
                    }
                    None => {
                        self.error(
                            codes::E_BAD_MEMBER,
                            member.span,
                            "an unsized array has no `.length` until it is given a size",
                        );
                        None
                    }
                }
            }
            _ => {
                let t = self.type_name(ty);
                self.error(codes::E_BAD_MEMBER, member.span, format!("{t} has no member `{name}`"));
                None
            }
        }
    }

    pub(super) fn index(&mut self, b: H, i: H, span: Span) -> Option<H> {
        let ty = self.ty(b);
        let elem = match ty {
            Type::Array(a) => self.module.array_type(a).elem,
            Type::Vector(s, _) => Type::Scalar(s),
            Type::Matrix { scalar, cols, .. } => Type::vec(scalar, cols),
            _ => {
                let t = self.type_name(ty);
                self.error(codes::E_BAD_OPERANDS, span, format!("{t} cannot be indexed"));
                return None;
            }
        };
        let it = self.ty(i);
        if !matches!(it, Type::Scalar(s) if s.is_numeric()) {
            let t = self.type_name(it);
            self.error(codes::E_TYPE_MISMATCH, self.span_of(i), format!("an index must be an integer scalar, not {t}"));
            return None;
        }
        let i = self.build_conversion(i, Type::INT, span)?;
        Some(self.add(ExprKind::Index { base: b, index: i }, elem, span))
    }
}
