//! Folds the offset of every SPIR-V texel fetch into its coordinate before naga reads the
//! module. naga's IR has no offset on an image load, and its SPIR-V front end drops the
//! `ConstOffset`/`Offset` operand of `OpImageFetch` (as its GLSL front end drops the last
//! argument of `texelFetchOffset`), so without this `texelFetchOffset(s, p, lod, o)` reads
//! texel `p` on the chain, while RetroArch (glslang's SPIR-V straight to the driver) reads
//! `p + o`. The offset of a fetch is in texels of the level read and the bounds apply to
//! the sum, so `OpImageFetch %t %r %img %p ... ConstOffset %o` becomes
//! `%q = OpIAdd %pt %p %o` followed by `OpImageFetch %t %r %img %q ...` without the offset:
//! the same texel.
//!
//! **Invariant:** changes nothing but fetches that carry an offset; never panics; a fetch
//! it cannot fold (an arrayed coordinate, whose offset has one component fewer) is an
//! error, never silently left to lose its offset.

use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{ImageOperands, Op, Word};
use std::collections::HashMap;

/// `words` with every fetch offset folded into its coordinate (the words unchanged when no
/// fetch has one).
pub fn fold_fetch_offsets(words: &[u32]) -> Result<Vec<u32>, String> {
    use rspirv::binary::Assemble;
    let mut module = rspirv::dr::load_words(words).map_err(|e| format!("cannot read the SPIR-V: {e}"))?;
    let has_offset = |i: &Instruction| i.class.opcode == Op::ImageFetch && fetch_offset(i).is_some();
    if !module.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.instructions).any(has_offset) {
        return Ok(words.to_vec());
    }
    // The type of every id that has one (constants and function-local results).
    let mut type_of: HashMap<Word, Word> = HashMap::new();
    let globals = module.types_global_values.iter();
    let locals = module.functions.iter().flat_map(|f| f.blocks.iter().flat_map(|b| &b.instructions));
    for i in globals.chain(locals) {
        if let (Some(id), Some(ty)) = (i.result_id, i.result_type) {
            type_of.insert(id, ty);
        }
    }
    let mut bound = module.header.as_ref().map_or(0, |h| h.bound);
    for block in module.functions.iter_mut().flat_map(|f| f.blocks.iter_mut()) {
        let mut out = Vec::with_capacity(block.instructions.len());
        for mut inst in std::mem::take(&mut block.instructions) {
            if inst.class.opcode == Op::ImageFetch {
                if let Some((mask_at, operand_at, offset)) = fetch_offset(&inst) {
                    let coord = inst.operands.get(1).and_then(id_ref).ok_or("a texel fetch without a coordinate")?;
                    let coord_ty = type_of.get(&coord).copied().ok_or("a texel fetch coordinate of unknown type")?;
                    if type_of.get(&offset) != Some(&coord_ty) {
                        return Err(
                            "a texel fetch with an offset on an arrayed texture: the chain cannot keep its offset \
                                    (naga drops it)"
                                .to_owned(),
                        );
                    }
                    let sum = bound;
                    bound += 1;
                    out.push(Instruction::new(
                        Op::IAdd,
                        Some(coord_ty),
                        Some(sum),
                        vec![Operand::IdRef(coord), Operand::IdRef(offset)],
                    ));
                    inst.operands[1] = Operand::IdRef(sum);
                    remove_offset(&mut inst, mask_at, operand_at);
                }
            }
            out.push(inst);
        }
        block.instructions = out;
    }
    if let Some(h) = module.header.as_mut() {
        h.bound = bound;
    }
    Ok(module.assemble())
}

fn id_ref(op: &Operand) -> Option<Word> {
    match op {
        Operand::IdRef(id) => Some(*id),
        _ => None,
    }
}

/// The number of operands each image-operand bit takes, in bit order.
fn operand_count(bit: ImageOperands) -> usize {
    if bit == ImageOperands::GRAD {
        2
    } else if [
        ImageOperands::NON_PRIVATE_TEXEL,
        ImageOperands::VOLATILE_TEXEL,
        ImageOperands::SIGN_EXTEND,
        ImageOperands::ZERO_EXTEND,
        ImageOperands::NONTEMPORAL,
    ]
    .contains(&bit)
    {
        0
    } else {
        1
    }
}

/// For a fetch with a `ConstOffset` or `Offset` operand: the index of the image-operands
/// mask, the index of the offset operand and the offset's id.
fn fetch_offset(inst: &Instruction) -> Option<(usize, usize, Word)> {
    let Some(Operand::ImageOperands(mask)) = inst.operands.get(2) else { return None };
    let mut at = 3;
    for shift in 0..32 {
        let bit = ImageOperands::from_bits_retain(1 << shift);
        if !mask.contains(bit) {
            continue;
        }
        if bit == ImageOperands::CONST_OFFSET || bit == ImageOperands::OFFSET {
            return Some((2, at, id_ref(inst.operands.get(at)?)?));
        }
        at += operand_count(bit);
    }
    None
}

/// Removes the offset operand at `operand_at` and its bit from the mask at `mask_at`
/// (the mask itself when no bit is left).
fn remove_offset(inst: &mut Instruction, mask_at: usize, operand_at: usize) {
    inst.operands.remove(operand_at);
    if let Some(Operand::ImageOperands(mask)) = inst.operands.get_mut(mask_at) {
        mask.remove(ImageOperands::CONST_OFFSET | ImageOperands::OFFSET);
        if mask.is_empty() {
            inst.operands.truncate(mask_at);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{glslang, Stage};

    fn fragment(body: &str) -> Vec<u32> {
        let src = format!(
            "#version 450\nlayout(set = 0, binding = 0) uniform sampler2D s;\nlayout(location = 0) out vec4 o;\n\
             void main() {{ {body} }}\n"
        );
        glslang::compile(&src, Stage::Fragment).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn fetches(words: &[u32]) -> Vec<Instruction> {
        let m = rspirv::dr::load_words(words).unwrap_or_else(|e| panic!("{e}"));
        m.functions
            .iter()
            .flat_map(|f| f.blocks.iter().flat_map(|b| b.instructions.iter()))
            .filter(|i| i.class.opcode == Op::ImageFetch)
            .cloned()
            .collect()
    }

    #[test]
    fn a_fetch_offset_becomes_part_of_the_coordinate() {
        let words = fragment("o = texelFetchOffset(s, ivec2(gl_FragCoord.xy), 0, ivec2(1, -1));");
        assert!(fetches(&words).iter().any(|i| fetch_offset(i).is_some()), "glslang emits the offset");
        let folded = fold_fetch_offsets(&words).unwrap_or_else(|e| panic!("{e}"));
        let after = fetches(&folded);
        assert_eq!(after.len(), 1);
        assert!(fetch_offset(&after[0]).is_none(), "{after:?}");
        let m = rspirv::dr::load_words(&folded).unwrap_or_else(|e| panic!("{e}"));
        let add = m
            .functions
            .iter()
            .flat_map(|f| f.blocks.iter().flat_map(|b| b.instructions.iter()))
            .find(|i| i.class.opcode == Op::IAdd)
            .unwrap_or_else(|| panic!("no IAdd"));
        assert_eq!(after[0].operands[1], Operand::IdRef(add.result_id.unwrap_or_default()));
        // naga reads the result, and its load is of the summed coordinate.
        let module = super::super::slang::spirv_to_naga(&folded, Stage::Fragment).unwrap_or_else(|e| panic!("{e}"));
        assert!(!module.entry_points.is_empty());
    }

    #[test]
    fn a_fetch_with_a_level_keeps_it_and_other_code_is_untouched() {
        let plain = fragment("o = texelFetch(s, ivec2(gl_FragCoord.xy), 0);");
        assert_eq!(fold_fetch_offsets(&plain).unwrap_or_else(|e| panic!("{e}")), plain);
        let words = fragment("o = texelFetchOffset(s, ivec2(3, 4), 1, ivec2(2, 0));");
        let after = fetches(&fold_fetch_offsets(&words).unwrap_or_else(|e| panic!("{e}")));
        assert_eq!(after[0].operands.get(2), Some(&Operand::ImageOperands(ImageOperands::LOD)), "{after:?}");
        assert_eq!(after[0].operands.len(), 4);
    }
}
