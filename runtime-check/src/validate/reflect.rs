//! Reflection of one stage's SPIR-V: what RetroArch asks SPIRV-Cross for.
//!
//! Built on `rspirv`'s data representation (gfx-rs' SPIR-V parser): a small, exact
//! reader of the module's types, decorations, names, interface variables and the
//! instructions reachable from the entry point. We need one thing the ready-made
//! reflectors (spirq, glslang's reflection, which the Rust bindings do not expose) do not
//! give: which *members* of a block are used, as SPIRV-Cross's
//! `get_active_buffer_ranges` computes it and RetroArch checks it. Everything else
//! follows SPIRV-Cross's `get_shader_resources()` with no filter: every declared
//! uniform resource counts, used or not; inputs and outputs are those of the entry
//! point's interface, built-ins excluded.
//!
//! Never panics on any word stream: malformed SPIR-V is an `Err`.

use super::memo::StageMemo;
use super::Stage;
use rspirv::dr::{self, Instruction, Operand};
use rspirv::spirv::{Decoration, Dim, Op, StorageClass};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::LazyLock;

/// A stage input or output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoVar {
    pub name: String,
    pub location: Option<u32>,
}

/// A uniform buffer or push-constant block.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Instance name (`global` in `uniform UBO { ... } global;`), may be empty.
    pub instance: String,
    /// Block type name (`UBO`).
    pub type_name: String,
    pub set: Option<u32>,
    pub binding: Option<u32>,
    /// Declared size as SPIRV-Cross computes it: end of the last member.
    pub size: u32,
    pub members: Vec<Member>,
}

/// One member of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub name: String,
    pub offset: u32,
    pub ty: ValueType,
    /// Read by code reachable from the entry point.
    pub active: bool,
}

/// The shape of a member's type, as much as the semantic rules need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueType {
    pub base: Base,
    /// Bit width of the scalar.
    pub width: u32,
    pub vecsize: u32,
    pub columns: u32,
    pub array: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    Float,
    Int,
    UInt,
    Bool,
    Struct,
    Other,
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let scalar = match (self.base, self.width) {
            (Base::Float, 32) => "float",
            (Base::Float, 64) => "double",
            (Base::Float, 16) => "float16_t",
            (Base::Int, 32) => "int",
            (Base::UInt, 32) => "uint",
            (Base::Bool, _) => "bool",
            (Base::Struct, _) => "struct",
            (Base::Int | Base::UInt | Base::Float, _) => "sized scalar",
            (Base::Other, _) => "opaque",
        };
        let prefix = match self.base {
            Base::Float if self.width == 32 => "",
            Base::Float => "d",
            Base::Int => "i",
            Base::UInt => "u",
            Base::Bool => "b",
            _ => "",
        };
        match (self.columns, self.vecsize) {
            (c, r) if c > 1 && c == r && self.base == Base::Float => write!(f, "{prefix}mat{c}")?,
            (c, r) if c > 1 => write!(f, "{prefix}mat{c}x{r}")?,
            (_, n) if n > 1 => write!(f, "{prefix}vec{n}")?,
            _ => f.write_str(scalar)?,
        }
        if self.array {
            f.write_str("[]")?;
        }
        Ok(())
    }
}

/// What kind of uniform resource a variable is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResourceKind {
    /// `sampler2D` and friends: the only texture kind RetroArch binds.
    SampledImage,
    /// A separate `texture2D`.
    SeparateImage,
    /// A separate `sampler`.
    SeparateSampler,
    StorageImage,
    SubpassInput,
    StorageBuffer,
    AtomicCounter,
    Other,
}

impl ResourceKind {
    pub fn describe(self) -> &'static str {
        match self {
            ResourceKind::SampledImage => "combined image sampler",
            ResourceKind::SeparateImage => "separate texture object",
            ResourceKind::SeparateSampler => "separate sampler object",
            ResourceKind::StorageImage => "storage image",
            ResourceKind::SubpassInput => "subpass input",
            ResourceKind::StorageBuffer => "storage buffer",
            ResourceKind::AtomicCounter => "atomic counter",
            ResourceKind::Other => "unsupported uniform",
        }
    }
}

/// A non-block uniform resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    pub name: String,
    pub kind: ResourceKind,
    pub set: Option<u32>,
    pub binding: Option<u32>,
}

/// The reflected interface of one stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Reflection {
    pub stage: Stage,
    pub inputs: Vec<IoVar>,
    pub outputs: Vec<IoVar>,
    pub ubos: Vec<Block>,
    pub push: Vec<Block>,
    /// Every other uniform resource (samplers first of all).
    pub resources: Vec<Resource>,
}

/// A type of the module.
#[derive(Clone, Debug)]
enum Ty {
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32 },
    Vector { component: u32, count: u32 },
    Matrix { column: u32, count: u32 },
    Image { dim: Dim, sampled: u32 },
    Sampler,
    SampledImage,
    Array { element: u32, length: u32 },
    RuntimeArray { element: u32 },
    Struct { members: Vec<u32> },
    Pointer { pointee: u32 },
}

/// Reads a module and reflects its (single) entry point.
pub fn reflect(words: &[u32], stage: Stage) -> Result<Reflection, String> {
    let module = dr::load_words(words).map_err(|e| format!("{e:?}"))?;
    Reader::new(&module).reflect(stage)
}

/// [`reflect`], each distinct (stage, module) once per process ([`super::memo`]): texts
/// that differ only in what glslang drops give the same words.
pub fn reflect_memoized(words: &[u32], stage: Stage) -> Result<Reflection, String> {
    REFLECTIONS.get_or_compute(stage, words, || reflect(words, stage), |_| words.len() * 4 + 1024)
}

/// Reflections of earlier modules by (stage, words): up to 32 MiB of SPIR-V.
static REFLECTIONS: LazyLock<StageMemo<Vec<u32>, Result<Reflection, String>>> =
    LazyLock::new(|| StageMemo::new(32 << 20));

/// Decorations of one target: each kind with its literal operands.
type Decorations = Vec<(Decoration, Vec<u32>)>;

struct Reader<'m> {
    module: &'m dr::Module,
    types: HashMap<u32, Ty>,
    constants: HashMap<u32, u64>,
    names: HashMap<u32, String>,
    member_names: HashMap<(u32, u32), String>,
    decorations: HashMap<u32, Decorations>,
    member_decorations: HashMap<(u32, u32), Decorations>,
}

fn id(op: Option<&Operand>) -> Option<u32> {
    match op {
        Some(Operand::IdRef(w)) => Some(*w),
        _ => None,
    }
}

fn lit(op: Option<&Operand>) -> Option<u32> {
    match op {
        Some(Operand::LiteralBit32(w)) => Some(*w),
        _ => None,
    }
}

fn string(op: Option<&Operand>) -> Option<&str> {
    match op {
        Some(Operand::LiteralString(s)) => Some(s),
        _ => None,
    }
}

/// The literal operands of a decoration (built-ins count as present, value irrelevant).
fn literals(ops: &[Operand]) -> Vec<u32> {
    ops.iter()
        .filter_map(|o| match o {
            Operand::LiteralBit32(w) => Some(*w),
            Operand::BuiltIn(b) => Some(*b as u32),
            _ => None,
        })
        .collect()
}

impl<'m> Reader<'m> {
    fn new(module: &'m dr::Module) -> Reader<'m> {
        let mut r = Reader {
            module,
            types: HashMap::new(),
            constants: HashMap::new(),
            names: HashMap::new(),
            member_names: HashMap::new(),
            decorations: HashMap::new(),
            member_decorations: HashMap::new(),
        };
        for inst in &module.debug_names {
            match inst.class.opcode {
                Op::Name => {
                    if let (Some(target), Some(name)) = (id(inst.operands.first()), string(inst.operands.get(1))) {
                        r.names.insert(target, name.to_owned());
                    }
                }
                Op::MemberName => {
                    if let (Some(target), Some(m), Some(name)) =
                        (id(inst.operands.first()), lit(inst.operands.get(1)), string(inst.operands.get(2)))
                    {
                        r.member_names.insert((target, m), name.to_owned());
                    }
                }
                _ => {}
            }
        }
        for inst in &module.annotations {
            match inst.class.opcode {
                Op::Decorate => {
                    if let (Some(target), Some(Operand::Decoration(d))) =
                        (id(inst.operands.first()), inst.operands.get(1))
                    {
                        r.decorations.entry(target).or_default().push((*d, literals(&inst.operands[2..])));
                    }
                }
                Op::MemberDecorate => {
                    if let (Some(target), Some(m), Some(Operand::Decoration(d))) =
                        (id(inst.operands.first()), lit(inst.operands.get(1)), inst.operands.get(2))
                    {
                        r.member_decorations.entry((target, m)).or_default().push((*d, literals(&inst.operands[3..])));
                    }
                }
                _ => {}
            }
        }
        for inst in &module.types_global_values {
            r.read_type_or_constant(inst);
        }
        r
    }

    fn read_type_or_constant(&mut self, inst: &Instruction) {
        let Some(result) = inst.result_id else { return };
        let ops = &inst.operands;
        let ty = match inst.class.opcode {
            Op::TypeBool => Ty::Bool,
            Op::TypeInt => Ty::Int { width: lit(ops.first()).unwrap_or(32), signed: lit(ops.get(1)) == Some(1) },
            Op::TypeFloat => Ty::Float { width: lit(ops.first()).unwrap_or(32) },
            Op::TypeVector => {
                Ty::Vector { component: id(ops.first()).unwrap_or(0), count: lit(ops.get(1)).unwrap_or(0) }
            }
            Op::TypeMatrix => Ty::Matrix { column: id(ops.first()).unwrap_or(0), count: lit(ops.get(1)).unwrap_or(0) },
            Op::TypeImage => {
                let dim = match ops.get(1) {
                    Some(Operand::Dim(d)) => *d,
                    _ => Dim::Dim2D,
                };
                Ty::Image { dim, sampled: lit(ops.get(5)).unwrap_or(1) }
            }
            Op::TypeSampler => Ty::Sampler,
            Op::TypeSampledImage => Ty::SampledImage,
            Op::TypeArray => {
                let length = id(ops.get(1)).and_then(|c| self.constants.get(&c)).copied().unwrap_or(0);
                Ty::Array { element: id(ops.first()).unwrap_or(0), length: length.min(u64::from(u32::MAX)) as u32 }
            }
            Op::TypeRuntimeArray => Ty::RuntimeArray { element: id(ops.first()).unwrap_or(0) },
            Op::TypeStruct => Ty::Struct { members: ops.iter().filter_map(|o| id(Some(o))).collect() },
            Op::TypePointer => Ty::Pointer { pointee: id(ops.get(1)).unwrap_or(0) },
            Op::Constant => {
                let value = match ops.first() {
                    Some(Operand::LiteralBit32(v)) => u64::from(*v),
                    Some(Operand::LiteralBit64(v)) => *v,
                    _ => return,
                };
                self.constants.insert(result, value);
                return;
            }
            _ => return,
        };
        self.types.insert(result, ty);
    }

    fn decoration(&self, target: u32, d: Decoration) -> Option<u32> {
        self.decorations.get(&target)?.iter().find(|(x, _)| *x == d).map(|(_, v)| v.first().copied().unwrap_or(0))
    }

    fn has_decoration(&self, target: u32, d: Decoration) -> bool {
        self.decorations.get(&target).is_some_and(|v| v.iter().any(|(x, _)| *x == d))
    }

    fn member_decoration(&self, target: u32, member: u32, d: Decoration) -> Option<u32> {
        self.member_decorations
            .get(&(target, member))?
            .iter()
            .find(|(x, _)| *x == d)
            .map(|(_, v)| v.first().copied().unwrap_or(0))
    }

    fn name(&self, target: u32) -> String {
        self.names.get(&target).cloned().unwrap_or_default()
    }

    /// Strips arrays (of resources) down to the element type.
    fn element(&self, mut ty: u32) -> u32 {
        for _ in 0..64 {
            match self.types.get(&ty) {
                Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => ty = *element,
                _ => break,
            }
        }
        ty
    }

    fn value_type(&self, ty: u32) -> ValueType {
        let mut array = false;
        let mut t = ty;
        for _ in 0..64 {
            match self.types.get(&t) {
                Some(Ty::Array { element, .. } | Ty::RuntimeArray { element }) => {
                    array = true;
                    t = *element;
                }
                _ => break,
            }
        }
        let mut vt = ValueType { base: Base::Other, width: 0, vecsize: 1, columns: 1, array };
        let scalar = |r: &Reader<'_>, s: u32, vt: &mut ValueType| match r.types.get(&s) {
            Some(Ty::Float { width }) => {
                vt.base = Base::Float;
                vt.width = *width;
            }
            Some(Ty::Int { width, signed }) => {
                vt.base = if *signed { Base::Int } else { Base::UInt };
                vt.width = *width;
            }
            Some(Ty::Bool) => {
                vt.base = Base::Bool;
                vt.width = 32;
            }
            _ => {}
        };
        match self.types.get(&t) {
            Some(Ty::Matrix { column, count }) => {
                vt.columns = *count;
                if let Some(Ty::Vector { component, count }) = self.types.get(column) {
                    vt.vecsize = *count;
                    scalar(self, *component, &mut vt);
                }
            }
            Some(Ty::Vector { component, count }) => {
                vt.vecsize = *count;
                scalar(self, *component, &mut vt);
            }
            Some(Ty::Struct { .. }) => vt.base = Base::Struct,
            _ => scalar(self, t, &mut vt),
        }
        vt
    }

    /// SPIRV-Cross `get_declared_struct_size`: offset plus size of the last member.
    fn struct_size(&self, ty: u32, depth: u32) -> u32 {
        let Some(Ty::Struct { members }) = self.types.get(&ty) else {
            return 0;
        };
        let Some(last) = members.len().checked_sub(1) else {
            return 0;
        };
        let offset = self.member_decoration(ty, last as u32, Decoration::Offset).unwrap_or(0);
        offset.saturating_add(self.member_size(ty, last as u32, members[last], depth))
    }

    /// SPIRV-Cross `get_declared_struct_member_size`.
    fn member_size(&self, parent: u32, index: u32, ty: u32, depth: u32) -> u32 {
        if depth > 32 {
            return 0;
        }
        match self.types.get(&ty) {
            Some(Ty::Array { length, .. }) => {
                let stride = self.decoration(ty, Decoration::ArrayStride).unwrap_or(0);
                stride.saturating_mul(*length)
            }
            Some(Ty::RuntimeArray { .. }) => 0,
            Some(Ty::Struct { .. }) => self.struct_size(ty, depth + 1),
            Some(Ty::Matrix { column, count }) => {
                let stride = self.member_decoration(parent, index, Decoration::MatrixStride).unwrap_or(16);
                let rows = match self.types.get(column) {
                    Some(Ty::Vector { count, .. }) => *count,
                    _ => 1,
                };
                let row_major = self
                    .member_decorations
                    .get(&(parent, index))
                    .is_some_and(|v| v.iter().any(|(d, _)| *d == Decoration::RowMajor));
                stride.saturating_mul(if row_major { rows } else { *count })
            }
            _ => {
                let vt = self.value_type(ty);
                vt.width / 8 * vt.vecsize
            }
        }
    }

    fn block(&self, var: u32, ty: u32) -> Block {
        let members = match self.types.get(&ty) {
            Some(Ty::Struct { members }) => members.clone(),
            _ => Vec::new(),
        };
        Block {
            instance: self.name(var),
            type_name: self.name(ty),
            set: self.decoration(var, Decoration::DescriptorSet),
            binding: self.decoration(var, Decoration::Binding),
            size: self.struct_size(ty, 0),
            members: members
                .iter()
                .enumerate()
                .map(|(i, m)| Member {
                    name: self.member_names.get(&(ty, i as u32)).cloned().unwrap_or_default(),
                    offset: self.member_decoration(ty, i as u32, Decoration::Offset).unwrap_or(0),
                    ty: self.value_type(*m),
                    active: false,
                })
                .collect(),
        }
    }

    fn is_builtin(&self, var: u32, pointee: u32) -> bool {
        if self.has_decoration(var, Decoration::BuiltIn) {
            return true;
        }
        let ty = self.element(pointee);
        match self.types.get(&ty) {
            Some(Ty::Struct { members }) => (0..members.len() as u32).any(|m| {
                self.member_decorations.get(&(ty, m)).is_some_and(|v| v.iter().any(|(d, _)| *d == Decoration::BuiltIn))
            }),
            _ => false,
        }
    }

    fn reflect(&self, stage: Stage) -> Result<Reflection, String> {
        let entry = self.module.entry_points.first().ok_or("the module has no entry point")?;
        let entry_fn = id(entry.operands.get(1)).ok_or("malformed OpEntryPoint")?;
        let interface: HashSet<u32> = entry.operands.iter().skip(3).filter_map(|o| id(Some(o))).collect();
        let active = self.active_members(entry_fn);

        let mut out = Reflection {
            stage,
            inputs: Vec::new(),
            outputs: Vec::new(),
            ubos: Vec::new(),
            push: Vec::new(),
            resources: Vec::new(),
        };
        for inst in &self.module.types_global_values {
            if inst.class.opcode != Op::Variable {
                continue;
            }
            let (Some(var), Some(ptr)) = (inst.result_id, inst.result_type) else {
                continue;
            };
            let Some(Operand::StorageClass(class)) = inst.operands.first() else {
                continue;
            };
            let pointee = match self.types.get(&ptr) {
                Some(Ty::Pointer { pointee }) => *pointee,
                _ => continue,
            };
            let element = self.element(pointee);
            match class {
                StorageClass::Input | StorageClass::Output => {
                    if !interface.contains(&var) || self.is_builtin(var, pointee) {
                        continue;
                    }
                    let io = IoVar { name: self.name(var), location: self.decoration(var, Decoration::Location) };
                    if *class == StorageClass::Input {
                        out.inputs.push(io);
                    } else {
                        out.outputs.push(io);
                    }
                }
                StorageClass::Uniform | StorageClass::PushConstant | StorageClass::StorageBuffer => {
                    let ssbo =
                        *class == StorageClass::StorageBuffer || self.has_decoration(element, Decoration::BufferBlock);
                    if ssbo {
                        out.resources.push(self.resource(var, ResourceKind::StorageBuffer));
                        continue;
                    }
                    let mut block = self.block(var, element);
                    if let Some(used) = active.get(&var) {
                        for (i, m) in block.members.iter_mut().enumerate() {
                            m.active = used.is_none() || used.as_ref().is_some_and(|s| s.contains(&(i as u32)));
                        }
                    }
                    if *class == StorageClass::PushConstant {
                        out.push.push(block);
                    } else {
                        out.ubos.push(block);
                    }
                }
                StorageClass::UniformConstant => {
                    let kind = match self.types.get(&element) {
                        Some(Ty::SampledImage) => ResourceKind::SampledImage,
                        Some(Ty::Sampler) => ResourceKind::SeparateSampler,
                        Some(Ty::Image { dim: Dim::DimSubpassData, .. }) => ResourceKind::SubpassInput,
                        Some(Ty::Image { sampled: 2, .. }) => ResourceKind::StorageImage,
                        Some(Ty::Image { .. }) => ResourceKind::SeparateImage,
                        _ => ResourceKind::Other,
                    };
                    out.resources.push(self.resource(var, kind));
                }
                StorageClass::AtomicCounter => out.resources.push(self.resource(var, ResourceKind::AtomicCounter)),
                _ => {}
            }
        }
        Ok(out)
    }

    fn resource(&self, var: u32, kind: ResourceKind) -> Resource {
        Resource {
            name: self.name(var),
            kind,
            set: self.decoration(var, Decoration::DescriptorSet),
            binding: self.decoration(var, Decoration::Binding),
        }
    }

    /// For each variable used by code reachable from `entry`: the member indices
    /// reached through access chains, or `None` when the whole variable is used.
    fn active_members(&self, entry: u32) -> HashMap<u32, Option<HashSet<u32>>> {
        let functions: HashMap<u32, &dr::Function> =
            self.module.functions.iter().filter_map(|f| Some((f.def.as_ref()?.result_id?, f))).collect();
        let mut seen = HashSet::new();
        let mut todo = vec![entry];
        let mut used: HashMap<u32, Option<HashSet<u32>>> = HashMap::new();
        while let Some(f) = todo.pop() {
            if !seen.insert(f) {
                continue;
            }
            let Some(func) = functions.get(&f) else {
                continue;
            };
            for inst in func.blocks.iter().flat_map(|b| b.instructions.iter()) {
                match inst.class.opcode {
                    Op::FunctionCall => {
                        if let Some(callee) = id(inst.operands.first()) {
                            todo.push(callee);
                        }
                        for arg in inst.operands.iter().skip(1).filter_map(|o| id(Some(o))) {
                            used.insert(arg, None);
                        }
                    }
                    Op::AccessChain | Op::InBoundsAccessChain | Op::PtrAccessChain | Op::InBoundsPtrAccessChain => {
                        let Some(base) = id(inst.operands.first()) else {
                            continue;
                        };
                        let skip = if matches!(inst.class.opcode, Op::PtrAccessChain | Op::InBoundsPtrAccessChain) {
                            2
                        } else {
                            1
                        };
                        let index = id(inst.operands.get(skip)).and_then(|c| self.constants.get(&c)).copied();
                        let entry = used.entry(base).or_insert_with(|| Some(HashSet::new()));
                        match (entry.as_mut(), index) {
                            (Some(set), Some(i)) => {
                                set.insert(i.min(u64::from(u32::MAX)) as u32);
                            }
                            (Some(_), None) => *entry = None,
                            (None, _) => {}
                        }
                        for other in inst.operands.iter().skip(1).filter_map(|o| id(Some(o))) {
                            used.entry(other).or_insert(None);
                        }
                    }
                    _ => {
                        for o in inst.operands.iter().filter_map(|o| id(Some(o))) {
                            used.insert(o, None);
                        }
                    }
                }
            }
        }
        used
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::glslang::compile;

    fn reflect_text(text: &str, stage: Stage) -> Reflection {
        let words = compile(text, stage).expect("compiles");
        reflect(&words, stage).expect("reflects")
    }

    #[test]
    fn reflects_inputs_blocks_samplers_and_active_members() {
        let text = r"#version 450
layout(push_constant) uniform Push { vec4 SourceSize; vec4 OutputSize; float unused_param; } params;
layout(std140, set = 0, binding = 0) uniform UBO { mat4 MVP; uint FrameCount; } global;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 FragColor;
layout(set = 0, binding = 2) uniform sampler2D Source;
layout(set = 0, binding = 3) uniform sampler2D Unused;
void main() { FragColor = texture(Source, uv * params.SourceSize.xy) * float(global.FrameCount); }
";
        let r = reflect_text(text, Stage::Fragment);
        assert_eq!(r.inputs, vec![IoVar { name: "uv".into(), location: Some(0) }]);
        assert_eq!(r.outputs, vec![IoVar { name: "FragColor".into(), location: Some(0) }]);
        assert_eq!(r.push.len(), 1);
        let push = &r.push[0];
        assert_eq!((push.instance.as_str(), push.type_name.as_str(), push.size), ("params", "Push", 36));
        let active: Vec<(&str, bool, u32)> =
            push.members.iter().map(|m| (m.name.as_str(), m.active, m.offset)).collect();
        assert_eq!(active, vec![("SourceSize", true, 0), ("OutputSize", false, 16), ("unused_param", false, 32)]);
        let ubo = &r.ubos[0];
        assert_eq!((ubo.set, ubo.binding, ubo.size), (Some(0), Some(0), 68));
        assert_eq!(ubo.members[0].ty.to_string(), "mat4");
        assert!(!ubo.members[0].active);
        assert_eq!(ubo.members[1].ty.to_string(), "uint");
        assert!(ubo.members[1].active);
        let samplers: Vec<(&str, Option<u32>)> = r.resources.iter().map(|s| (s.name.as_str(), s.binding)).collect();
        assert_eq!(samplers, vec![("Source", Some(2)), ("Unused", Some(3))]);
        assert!(r.resources.iter().all(|s| s.kind == ResourceKind::SampledImage));
    }

    #[test]
    fn vertex_builtins_are_not_outputs() {
        let text = "#version 450\nlayout(location = 0) in vec4 Position;\nlayout(location = 1) in vec2 TexCoord;\nlayout(location = 0) out vec2 uv;\nvoid main() { gl_Position = Position; uv = TexCoord; }\n";
        let r = reflect_text(text, Stage::Vertex);
        assert_eq!(r.inputs.len(), 2);
        assert_eq!(r.outputs, vec![IoVar { name: "uv".into(), location: Some(0) }]);
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        assert!(reflect(&[1, 2, 3], Stage::Vertex).is_err());
        assert!(reflect(&[], Stage::Vertex).is_err());
    }
}
