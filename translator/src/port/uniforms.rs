//! Porting pass: parameters and semantics into one push-constant block and one UBO.
//!
//! The members are what the shader uses (only those). The push block holds the most
//! used ones within 128 bytes (vec4s first, then 4-byte scalars, std430 packing); the
//! rest spill into one std140 UBO at binding 0, `MVP` always first there. Both stages
//! share the blocks (they are declared before `#pragma stage vertex`), so layouts match.

use crate::retro::Uniform;
use std::collections::BTreeMap;

/// The push constant limit RetroArch guarantees.
pub const PUSH_LIMIT: u32 = 128;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Push-constant members in order.
    pub push: Vec<Uniform>,
    /// UBO members in order.
    pub ubo: Vec<Uniform>,
}

impl Layout {
    /// `params` or `global`: the instance name of the block holding `u`.
    pub fn block_of(&self, u: &Uniform) -> &'static str {
        if self.push.contains(u) {
            "params"
        } else {
            "global"
        }
    }
}

/// Lays out the used uniforms; `uses` counts how often each is referenced.
pub fn layout(uses: &BTreeMap<Uniform, usize>) -> Layout {
    let mut candidates: Vec<(&Uniform, usize)> =
        uses.iter().filter(|(u, _)| **u != Uniform::Mvp).map(|(u, n)| (u, *n)).collect();
    // Most used first; ties keep the BTreeMap's (deterministic) order.
    candidates.sort_by_key(|c| std::cmp::Reverse(c.1));
    let mut push = Vec::new();
    let mut ubo = Vec::new();
    let mut used = 0u32;
    for (u, _) in candidates {
        let (_, size) = u.glsl_type();
        if used + size <= PUSH_LIMIT {
            used += size;
            push.push(u.clone());
        } else {
            ubo.push(u.clone());
        }
    }
    // vec4s before scalars keeps std430 packing free of holes.
    push.sort_by_key(|u| std::cmp::Reverse(u.glsl_type().1));
    ubo.sort_by_key(|u| std::cmp::Reverse(u.glsl_type().1));
    if uses.contains_key(&Uniform::Mvp) || !push.is_empty() || !ubo.is_empty() {
        ubo.insert(0, Uniform::Mvp);
    }
    Layout { push, ubo }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::retro::Texture;

    #[test]
    fn push_block_stays_within_128_bytes_and_spills_the_rest() {
        let mut uses = BTreeMap::new();
        uses.insert(Uniform::Mvp, 1);
        uses.insert(Uniform::Size(Texture::Source), 9);
        uses.insert(Uniform::OutputSize, 5);
        for i in 0..30 {
            uses.insert(Uniform::Parameter(format!("P{i:02}")), 1);
        }
        let l = layout(&uses);
        let push_bytes: u32 = l.push.iter().map(|u| u.glsl_type().1).sum();
        assert!(push_bytes <= PUSH_LIMIT);
        assert_eq!(l.push[0], Uniform::Size(Texture::Source), "most used first");
        assert_eq!(l.ubo[0], Uniform::Mvp, "MVP leads the UBO");
        assert_eq!(l.push.len() + l.ubo.len(), 33);
        assert_eq!(l.block_of(&Uniform::Parameter("P29".into())), "global");
    }
}
