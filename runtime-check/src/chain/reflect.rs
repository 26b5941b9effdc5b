//! What a pass's naga modules declare, by name: the uniform block, the push-constant
//! block (naga's "immediates"), textures and samplers, with bindings, member offsets
//! and member types. The chain binds by these names, as RetroArch binds by slang
//! semantics.
//!
//! **Invariant:** reads the module only; never panics on any module.

use crate::codes;
use grammar::Diagnostic;
use naga::{AddressSpace, ImageClass, Module, ScalarKind, TypeInner};

/// The type of a block member, as far as binding cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberType {
    /// A scalar or vector of `n` components.
    Vector {
        kind: ScalarKind,
        n: u32,
    },
    /// A `columns`×`rows` float matrix with column stride `stride`.
    Matrix {
        columns: u32,
        rows: u32,
        stride: u32,
    },
    Other,
}

/// One member of a uniform or push-constant block.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub name: String,
    pub offset: u32,
    pub ty: MemberType,
}

/// A uniform or push-constant block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The binding (uniform blocks only).
    pub binding: Option<u32>,
    /// Size in bytes.
    pub size: u32,
    pub members: Vec<Member>,
}

/// A texture (`texture2D`) global.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureGlobal {
    pub name: String,
    pub binding: u32,
    pub kind: ScalarKind,
}

/// A sampler global.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplerGlobal {
    pub name: String,
    pub binding: u32,
}

/// What one stage declares.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StageReflection {
    pub ubo: Option<Block>,
    pub push: Option<Block>,
    pub textures: Vec<TextureGlobal>,
    pub samplers: Vec<SamplerGlobal>,
}

fn member_type(module: &Module, ty: naga::Handle<naga::Type>) -> MemberType {
    match module.types[ty].inner {
        TypeInner::Scalar(s) => MemberType::Vector { kind: s.kind, n: 1 },
        TypeInner::Vector { size, scalar } => MemberType::Vector { kind: scalar.kind, n: size as u32 },
        TypeInner::Matrix { columns, rows, scalar } if scalar.kind == ScalarKind::Float => {
            // std140 / std430: columns of vec3 and vec4 take 16 bytes, of vec2 8.
            let stride = if rows == naga::VectorSize::Bi { 8 } else { 16 };
            MemberType::Matrix { columns: columns as u32, rows: rows as u32, stride }
        }
        _ => MemberType::Other,
    }
}

fn block(module: &Module, ty: naga::Handle<naga::Type>, binding: Option<u32>) -> Option<Block> {
    match &module.types[ty].inner {
        TypeInner::Struct { members, span } => Some(Block {
            binding,
            size: *span,
            members: members
                .iter()
                .map(|m| Member {
                    name: m.name.clone().unwrap_or_default(),
                    offset: m.offset,
                    ty: member_type(module, m.ty),
                })
                .collect(),
        }),
        _ => None,
    }
}

/// Reflects one stage's module; `stage` names it in errors.
pub fn reflect(module: &Module, stage: &str) -> Result<StageReflection, Vec<Diagnostic>> {
    let mut out = StageReflection::default();
    let mut errors = Vec::new();
    for (_, g) in module.global_variables.iter() {
        let name = g.name.clone().unwrap_or_default();
        let binding = g.binding.as_ref().map(|b| (b.group, b.binding));
        let bad = |what: &str| {
            Diagnostic::error(codes::E_CHAIN_BINDING, format!("{stage} stage: {what} `{name}` cannot be bound"))
        };
        match g.space {
            AddressSpace::Uniform => match (binding, block(module, g.ty, binding.map(|b| b.1))) {
                (Some((0, _)), Some(b)) if out.ubo.is_none() => out.ubo = Some(b),
                (Some((0, _)), Some(_)) => errors.push(bad("a second uniform block")),
                _ => errors.push(bad("uniform block outside descriptor set 0, or not a block,")),
            },
            AddressSpace::Immediate => match block(module, g.ty, None) {
                Some(b) if out.push.is_none() => out.push = Some(b),
                _ => errors.push(bad("push-constant block")),
            },
            AddressSpace::Handle => {
                let Some((0, binding)) = binding else {
                    errors.push(bad("resource outside descriptor set 0"));
                    continue;
                };
                match module.types[g.ty].inner {
                    TypeInner::Image { dim: naga::ImageDimension::D2, arrayed: false, class } => {
                        let kind = match class {
                            ImageClass::Sampled { kind, multi: false } => kind,
                            _ => {
                                errors.push(bad("texture (not a sampled 2D texture)"));
                                continue;
                            }
                        };
                        out.textures.push(TextureGlobal { name, binding, kind });
                    }
                    TypeInner::Sampler { comparison: false } => out.samplers.push(SamplerGlobal { name, binding }),
                    _ => errors.push(bad("resource (only 2D textures and samplers are bound)")),
                }
            }
            AddressSpace::Private | AddressSpace::WorkGroup | AddressSpace::Function => {}
            _ => errors.push(bad("storage resource")),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
