//! A canonical `.slang` file on disk to the two naga modules the chain draws with.
//!
//! As RetroArch loads it: the stages are split ([`crate::validate::stages`], includes
//! resolved), each is compiled to SPIR-V by glslang ([`crate::validate::glslang`]).
//! naga's SPIR-V front end does not accept combined image samplers (`sampler2D`), and
//! wgpu cannot bind them, so [`split_combined_samplers`] rewrites the SPIR-V first: every
//! `sampler2D` global becomes a `texture2D` at its binding plus a `sampler` at binding
//! n + 16 named `<name>_sampler`; function parameters of combined type are split into a
//! texture and a sampler parameter, calls pass both; every load of a combined object
//! becomes a load of each half and an `OpSampledImage`. librashader does the same before
//! handing SPIR-V to naga. Then naga parses the SPIR-V, keeping Vulkan's coordinate space
//! (the chain's quad accounts for it), two gaps of naga's front end are closed
//! (pre-emitted expressions taken out of `Emit`s, [`super::pre_emitted`]; the result
//! types of `modf`/`frexp` registered, [`super::predeclared`]), the locals
//! glslang fills with a constant array become private globals
//! ([`super::constant_locals`]), early returns at a function's tail become `else`
//! branches ([`super::tail_returns`]), and naga validates the module.
//!
//! **Invariant:** never panics (glslang and naga run isolated), never writes (but for
//! glslang's SPIR-V cache, [`crate::validate::spirv_cache`]); reads files
//! only through the [`grammar::FileSystem`] given.

use crate::codes;
use crate::validate::stages::{split_stages_with, Includes, Meta};
use crate::validate::{glslang, naga as vnaga, Stage};
use grammar::{Diagnostic, FileSystem};
use rspirv::dr::{Instruction, Module as SpvModule, Operand};
use rspirv::spirv::{Decoration, Op, StorageClass, Word};
use std::collections::HashMap;
use std::path::Path;

/// One pass loaded from a `.slang` file.
#[derive(Clone)]
pub struct SlangPass {
    pub vertex: naga::Module,
    pub fragment: naga::Module,
    pub meta: Meta,
}

fn shader_error(path: &Path, msg: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::E_CHAIN_SHADER, format!("{}: {msg}", path.display()))
}

/// Loads and compiles `path`.
pub fn load_slang(path: &Path, fs: &dyn FileSystem) -> Result<SlangPass, Vec<Diagnostic>> {
    let bytes = fs.read(path).map_err(|e| {
        let code = grammar::source::read_error_code(&e, codes::E_CHAIN_SHADER);
        vec![Diagnostic::error(code, format!("{}: cannot read the shader: {e}", path.display()))]
    })?;
    let (text, _) = grammar::source::decode(bytes);
    compile_slang(path, &text, Some(Includes { path, fs }))
}

/// Compiles the text of a `.slang` file as [`load_slang`] does; `path` names it in
/// diagnostics, `includes` resolves its `#include`s (none: an include is an error).
pub fn compile_slang(path: &Path, text: &str, includes: Option<Includes>) -> Result<SlangPass, Vec<Diagnostic>> {
    let stages = split_stages_with(text, includes);
    let located = |line: Option<u32>, msg: &str| match line {
        Some(l) => shader_error(path, format!("line {l}: {msg}")),
        None => shader_error(path, msg),
    };
    let mut errors: Vec<Diagnostic> = stages
        .issues
        .iter()
        .filter(|i| i.is_error())
        .map(|i| located(i.slang_line(), &format!("{} [{}]", i.message, i.code)))
        .collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    // The two stages are independent: the fragment stage compiles on a second thread
    // while this one compiles the vertex stage (start-up time of `render`).
    let compile_stage = |stage: Stage| -> Result<naga::Module, Vec<Diagnostic>> {
        let source = stages.stage(stage);
        let words = glslang::compile(&source.text, stage).map_err(|messages| {
            messages
                .into_iter()
                .map(|m| {
                    let line = m.line.and_then(|l| source.origin(l)).filter(|o| o.file == 0).map(|o| o.line);
                    located(line, &format!("glslang ({stage} stage): {}", m.text))
                })
                .collect::<Vec<_>>()
        })?;
        spirv_to_naga(&words, stage).map_err(|e| vec![shader_error(path, format!("{stage} stage: {e}"))])
    };
    let (vertex, fragment) = std::thread::scope(|s| {
        let fragment = s.spawn(|| compile_stage(Stage::Fragment));
        let vertex = compile_stage(Stage::Vertex);
        let fragment = fragment
            .join()
            .unwrap_or_else(|_| Err(vec![shader_error(path, "the fragment stage's compiler thread panicked")]));
        (vertex, fragment)
    });
    let mut modules = Vec::new();
    for result in [vertex, fragment] {
        match result {
            Ok(m) => modules.push(m),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let fragment = modules.pop();
    let vertex = modules.pop();
    match (vertex, fragment) {
        (Some(vertex), Some(fragment)) => Ok(SlangPass { vertex, fragment, meta: stages.meta }),
        _ => Err(vec![shader_error(path, "a stage is missing")]),
    }
}

/// Compiled passes by their text, shared by the comparisons of one run: the presets of
/// a library share most of their passes, and [`compile_slang`] of the same text (without
/// includes) gives the same modules whatever the file's path. glslang's part is already
/// remembered per process (`validate::glslang`); this keeps the rest, naga's SPIR-V
/// front end and validation. Only successes are kept, and at most
/// [`SlangCache::MAX_ENTRIES`] of them.
#[derive(Default)]
pub struct SlangCache {
    done: std::sync::Mutex<HashMap<String, std::sync::Arc<SlangPass>>>,
}

impl SlangCache {
    /// The most passes kept (a whole library of a few thousand passes fits).
    pub const MAX_ENTRIES: usize = 4096;

    /// [`compile_slang`] of `text` (no includes), from the cache when it was compiled
    /// before; `path` names the file in diagnostics.
    pub fn compile(&self, path: &Path, text: &str) -> Result<SlangPass, Vec<Diagnostic>> {
        let lock = || self.done.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let hit = lock().get(text).cloned();
        if let Some(hit) = hit {
            return Ok((*hit).clone());
        }
        let pass = compile_slang(path, text, None)?;
        let mut done = lock();
        if done.len() < Self::MAX_ENTRIES {
            done.insert(text.to_owned(), std::sync::Arc::new(pass.clone()));
        }
        Ok(pass)
    }

    /// How many passes it holds.
    pub fn len(&self) -> usize {
        self.done.lock().unwrap_or_else(std::sync::PoisonError::into_inner).len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// SPIR-V words from glslang to a validated naga module (constant-holding locals
/// hoisted, see [`super::constant_locals`]; early returns made `else` branches, see
/// [`super::tail_returns`]).
pub fn spirv_to_naga(words: &[u32], stage: Stage) -> Result<naga::Module, String> {
    let split = super::fetch_offset::fold_fetch_offsets(&split_combined_samplers(words)?)?;
    let result = vnaga::isolate(|| {
        let options = naga::front::spv::Options {
            adjust_coordinate_space: false,
            strict_capabilities: false,
            block_ctx_dump_prefix: None,
        };
        let mut module = naga::front::spv::Frontend::new(split.iter().copied(), &options)
            .parse()
            .map_err(|e| format!("naga's SPIR-V front end: {e}"))?;
        super::pre_emitted::drop_pre_emitted(&mut module);
        super::predeclared::register_math_results(&mut module);
        super::constant_locals::hoist_constant_locals(&mut module);
        super::tail_returns::fold_tail_returns(&mut module);
        let mut validator = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), vnaga::capabilities());
        validator
            .validate(&module)
            .map_err(|e| format!("naga validation: {}", crate::validate::naga::error_chain(e.as_inner())))?;
        Ok(module)
    });
    match result {
        Ok(r) => r,
        Err(panic) => Err(format!("naga panicked on the {stage} stage: {panic}")),
    }
}

fn id_of(op: &Operand) -> Option<Word> {
    match op {
        Operand::IdRef(id) => Some(*id),
        _ => None,
    }
}

struct Splitter {
    module: SpvModule,
    bound: Word,
}

impl Splitter {
    fn fresh(&mut self) -> Word {
        let id = self.bound;
        self.bound += 1;
        id
    }

    fn type_position(&self, id: Word) -> Option<usize> {
        self.module.types_global_values.iter().position(|i| i.result_id == Some(id))
    }

    /// An existing or new `OpTypePointer UniformConstant target`, placed after `target`.
    fn pointer_to(&mut self, target: Word) -> Word {
        let found = self.module.types_global_values.iter().find(|i| {
            i.class.opcode == Op::TypePointer
                && i.operands.first() == Some(&Operand::StorageClass(StorageClass::UniformConstant))
                && i.operands.get(1).and_then(id_of) == Some(target)
        });
        if let Some(id) = found.and_then(|i| i.result_id) {
            return id;
        }
        let id = self.fresh();
        let at = self.type_position(target).map_or(0, |p| p + 1);
        self.module.types_global_values.insert(
            at,
            Instruction::new(
                Op::TypePointer,
                None,
                Some(id),
                vec![Operand::StorageClass(StorageClass::UniformConstant), Operand::IdRef(target)],
            ),
        );
        id
    }

    fn sampler_type(&mut self) -> Word {
        if let Some(id) =
            self.module.types_global_values.iter().find(|i| i.class.opcode == Op::TypeSampler).and_then(|i| i.result_id)
        {
            return id;
        }
        let id = self.fresh();
        self.module.types_global_values.insert(0, Instruction::new(Op::TypeSampler, None, Some(id), vec![]));
        id
    }
}

/// Splits every combined image sampler of a SPIR-V module into an image and a sampler.
pub fn split_combined_samplers(words: &[u32]) -> Result<Vec<u32>, String> {
    use rspirv::binary::Assemble;
    let module = rspirv::dr::load_words(words).map_err(|e| format!("cannot read glslang's SPIR-V: {e}"))?;
    let bound = module.header.as_ref().map_or(0, |h| h.bound);
    let mut s = Splitter { module, bound };

    // Sampled-image types and the image type inside each.
    let sampled: HashMap<Word, Word> = s
        .module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::TypeSampledImage)
        .filter_map(|i| Some((i.result_id?, i.operands.first().and_then(id_of)?)))
        .collect();
    if sampled.is_empty() {
        return Ok(words.to_vec());
    }
    // Pointers (UniformConstant) to sampled images -> the sampled-image type.
    let combined_ptr: HashMap<Word, Word> = s
        .module
        .types_global_values
        .iter()
        .filter(|i| {
            i.class.opcode == Op::TypePointer
                && i.operands.first() == Some(&Operand::StorageClass(StorageClass::UniformConstant))
        })
        .filter_map(|i| {
            let target = i.operands.get(1).and_then(id_of)?;
            sampled.contains_key(&target).then_some((i.result_id?, target))
        })
        .collect();
    if combined_ptr.is_empty() {
        return Ok(words.to_vec());
    }
    let sampler_ty = s.sampler_type();
    let sampler_ptr = s.pointer_to(sampler_ty);
    // Pointer-to-image types for each combined pointer type.
    let mut image_ptr: HashMap<Word, Word> = HashMap::new();
    for (&ptr, &si) in &combined_ptr {
        let image = sampled[&si];
        let p = s.pointer_to(image);
        image_ptr.insert(ptr, p);
    }
    // combined object id (global variable or function parameter) -> (sampled type, sampler id)
    let mut companion: HashMap<Word, (Word, Word)> = HashMap::new();

    // Global variables.
    let globals: Vec<(Word, Word)> = s
        .module
        .types_global_values
        .iter()
        .filter(|i| i.class.opcode == Op::Variable)
        .filter_map(|i| {
            let ty = i.result_type?;
            combined_ptr.contains_key(&ty).then_some((i.result_id?, ty))
        })
        .collect();
    for (var, ty) in globals {
        let sampler_var = s.fresh();
        if let Some(pos) = s.module.types_global_values.iter().position(|i| i.result_id == Some(var)) {
            s.module.types_global_values[pos].result_type = Some(image_ptr[&ty]);
            s.module.types_global_values.insert(
                pos + 1,
                Instruction::new(
                    Op::Variable,
                    Some(sampler_ptr),
                    Some(sampler_var),
                    vec![Operand::StorageClass(StorageClass::UniformConstant)],
                ),
            );
        }
        let mut new_annotations = Vec::new();
        for a in &s.module.annotations {
            if a.class.opcode == Op::Decorate && a.operands.first().and_then(id_of) == Some(var) {
                let mut b = a.clone();
                b.operands[0] = Operand::IdRef(sampler_var);
                if let (Some(Operand::Decoration(Decoration::Binding)), Some(Operand::LiteralBit32(n))) =
                    (b.operands.get(1), b.operands.get(2))
                {
                    b.operands[2] = Operand::LiteralBit32(n + super::pipeline::SAMPLER_OFFSET);
                }
                new_annotations.push(b);
            }
        }
        s.module.annotations.extend(new_annotations);
        let name = s.module.debug_names.iter().find_map(|n| match (n.class.opcode, n.operands.as_slice()) {
            (Op::Name, [Operand::IdRef(id), Operand::LiteralString(name)]) if *id == var => Some(name.clone()),
            _ => None,
        });
        if let Some(name) = name {
            s.module.debug_names.push(Instruction::new(
                Op::Name,
                None,
                None,
                vec![Operand::IdRef(sampler_var), Operand::LiteralString(format!("{name}_sampler"))],
            ));
        }
        companion.insert(var, (combined_ptr[&ty], sampler_var));
    }

    // Function parameters: split, and note which parameter indices of which function.
    let mut split_params: HashMap<Word, Vec<usize>> = HashMap::new();
    let mut new_fn_types: Vec<(usize, Vec<Word>)> = Vec::new();
    for fi in 0..s.module.functions.len() {
        let params: Vec<(usize, Word, Word)> = s.module.functions[fi]
            .parameters
            .iter()
            .enumerate()
            .filter_map(|(k, p)| {
                let ty = p.result_type?;
                combined_ptr.contains_key(&ty).then_some((k, p.result_id?, ty))
            })
            .collect();
        if params.is_empty() {
            continue;
        }
        let fn_id = s.module.functions[fi].def.as_ref().and_then(|d| d.result_id).unwrap_or(0);
        let mut indices = Vec::new();
        for (inserted, (k, pid, ty)) in params.into_iter().enumerate() {
            let sid = s.fresh();
            let f = &mut s.module.functions[fi];
            let at = k + inserted;
            f.parameters[at].result_type = Some(image_ptr[&ty]);
            f.parameters.insert(at + 1, Instruction::new(Op::FunctionParameter, Some(sampler_ptr), Some(sid), vec![]));
            indices.push(k);
            companion.insert(pid, (combined_ptr[&ty], sid));
        }
        split_params.insert(fn_id, indices);
        let param_types: Vec<Word> =
            s.module.functions[fi].parameters.iter().map(|p| p.result_type.unwrap_or(0)).collect();
        new_fn_types.push((fi, param_types));
    }
    // New function types (appended: they only reference earlier types).
    for (fi, param_types) in new_fn_types {
        let Some(def) = s.module.functions[fi].def.clone() else { continue };
        let ret = def.result_type.unwrap_or(0);
        let id = s.fresh();
        let mut operands = vec![Operand::IdRef(ret)];
        operands.extend(param_types.iter().map(|t| Operand::IdRef(*t)));
        s.module.types_global_values.push(Instruction::new(Op::TypeFunction, None, Some(id), operands));
        if let Some(d) = s.module.functions[fi].def.as_mut() {
            if let Some(op) = d.operands.get_mut(1) {
                *op = Operand::IdRef(id);
            }
        }
    }

    // Calls and loads.
    let mut next = s.bound;
    let mut errors = Vec::new();
    for f in &mut s.module.functions {
        for block in &mut f.blocks {
            let mut out = Vec::with_capacity(block.instructions.len());
            for inst in block.instructions.drain(..) {
                match inst.class.opcode {
                    Op::FunctionCall => {
                        let callee = inst.operands.first().and_then(id_of).unwrap_or(0);
                        let Some(indices) = split_params.get(&callee) else {
                            out.push(inst);
                            continue;
                        };
                        let mut call = inst.clone();
                        let mut args: Vec<Operand> = inst.operands[1..].to_vec();
                        for &k in indices.iter().rev() {
                            let arg = args.get(k).and_then(id_of).unwrap_or(0);
                            match companion.get(&arg) {
                                Some((_, sid)) => args.insert(k + 1, Operand::IdRef(*sid)),
                                None => errors.push("a combined sampler argument that is not a variable or parameter"),
                            }
                        }
                        call.operands.truncate(1);
                        call.operands.extend(args);
                        out.push(call);
                    }
                    Op::Load => {
                        let ptr = inst.operands.first().and_then(id_of).unwrap_or(0);
                        let Some(&(sampled_ty, sid)) = companion.get(&ptr) else {
                            out.push(inst);
                            continue;
                        };
                        let image_ty = sampled[&sampled_ty];
                        let (img, smp) = (next, next + 1);
                        next += 2;
                        out.push(Instruction::new(Op::Load, Some(image_ty), Some(img), vec![Operand::IdRef(ptr)]));
                        out.push(Instruction::new(Op::Load, Some(sampler_ty), Some(smp), vec![Operand::IdRef(sid)]));
                        out.push(Instruction::new(
                            Op::SampledImage,
                            inst.result_type,
                            inst.result_id,
                            vec![Operand::IdRef(img), Operand::IdRef(smp)],
                        ));
                    }
                    _ => out.push(inst),
                }
            }
            block.instructions = out;
        }
    }
    if let Some(e) = errors.first() {
        return Err((*e).to_owned());
    }
    s.bound = next;
    if let Some(h) = s.module.header.as_mut() {
        h.bound = s.bound;
    }
    Ok(s.module.assemble())
}
