//! Uniform values by slang semantic name, written into the bytes of a uniform or
//! push-constant block at the offsets naga reflected.
//!
//! `MVP`, `OutputSize`, `FinalViewportSize`, `FrameCount`, `FrameDirection`, every
//! texture size (`SourceSize`, `OriginalSize`, `OriginalHistorySize#`,
//! `PassOutputSize#`, `PassFeedbackSize#`, `UserSize#`, `<alias>Size`,
//! `<alias>FeedbackSize`, `<lut>Size`) as (w, h, 1/w, 1/h), parameters by id; the
//! remaining RetroArch semantics get fixed neutral values (60 fps, no rotation, one
//! sub-frame, no HDR, no sensors). Names are read with the translator's
//! `retro::semantics` vocabulary, whose every built-in uniform gets a value here (the
//! match is exhaustive). A value is converted to the member's declared scalar
//! type, as a shader declaring `uint FrameDirection` would see it.
//!
//! **Invariant:** never panics: members that do not fit the block are skipped.

use super::reflect::{Member, MemberType};
use crate::plan::{self, PassPlan, Resource};
use naga::ScalarKind;
use std::collections::BTreeMap;
use translator::retro::semantics::BuiltinUniform;

/// A uniform value before conversion to the member's type.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Floats(Vec<f32>),
    Uint(u32),
    Int(i32),
}

/// What a pass's uniforms are computed from.
pub struct Semantics<'a> {
    pub pass: &'a PassPlan,
    pub aliases: &'a [Option<String>],
    pub luts: &'a [String],
    pub parameters: &'a BTreeMap<String, f32>,
}

impl Semantics<'_> {
    /// The value of the uniform `name`, or `None` when it is no semantic or parameter.
    pub fn value(&self, name: &str) -> Option<Value> {
        let p = self.pass;
        if let Some(b) = BuiltinUniform::parse(name) {
            return Some(self.builtin(b));
        }
        if let Some(v) = self.parameters.get(name) {
            return Some(Value::Floats(vec![*v]));
        }
        let r = plan::slang_size(name, p.index, self.aliases, self.luts)?;
        // A size of a texture this pass cannot read (an unused member) is 0.
        Some(Value::Floats(p.read(r).map_or_else(|| vec![0.0; 4], |t| t.size.vec4().to_vec())))
    }

    /// The value of a built-in uniform in this pass.
    fn builtin(&self, b: BuiltinUniform) -> Value {
        let p = self.pass;
        match b {
            BuiltinUniform::Mvp => Value::Floats(p.mvp.to_vec()),
            BuiltinUniform::OutputSize => Value::Floats(p.output_size.vec4().to_vec()),
            BuiltinUniform::FinalViewportSize => Value::Floats(p.final_viewport.vec4().to_vec()),
            BuiltinUniform::FrameCount => Value::Uint(p.frame_count),
            BuiltinUniform::FrameDirection => Value::Int(p.frame_direction),
            BuiltinUniform::FrameTimeDelta => Value::Uint(16_667),
            BuiltinUniform::OriginalFps => Value::Floats(vec![60.0]),
            BuiltinUniform::OriginalAspect | BuiltinUniform::OriginalAspectRotated => {
                let o = p.read(Resource::Original).map_or(plan::Size::new(1, 1), |t| t.size);
                Value::Floats(vec![o.width as f32 / o.height.max(1) as f32])
            }
            BuiltinUniform::Rotation
            | BuiltinUniform::HdrMode
            | BuiltinUniform::SubpixelLayout
            | BuiltinUniform::ExpandGamut => Value::Uint(0),
            BuiltinUniform::TotalSubFrames | BuiltinUniform::CurrentSubFrame => Value::Uint(1),
            BuiltinUniform::BrightnessNits
            | BuiltinUniform::Scanlines
            | BuiltinUniform::InverseTonemap
            | BuiltinUniform::Hdr10 => Value::Floats(vec![0.0]),
            BuiltinUniform::Gyroscope | BuiltinUniform::Accelerometer | BuiltinUniform::AccelerometerRest => {
                Value::Floats(vec![0.0; 3])
            }
        }
    }

    /// Writes every member it knows into `bytes`; returns the names it does not know.
    pub fn fill(&self, members: &[Member], bytes: &mut [u8]) -> Vec<String> {
        let mut unknown = Vec::new();
        for m in members {
            match self.value(&m.name) {
                Some(v) => write_member(m, &v, bytes),
                None => unknown.push(m.name.clone()),
            }
        }
        unknown
    }
}

fn put(bytes: &mut [u8], at: usize, word: [u8; 4]) {
    if let Some(slot) = bytes.get_mut(at..at + 4) {
        slot.copy_from_slice(&word);
    }
}

fn scalar(kind: ScalarKind, v: f64) -> [u8; 4] {
    match kind {
        ScalarKind::Uint => (v as i64 as u32).to_le_bytes(),
        ScalarKind::Sint => (v as i32).to_le_bytes(),
        ScalarKind::Bool => u32::from(v != 0.0).to_le_bytes(),
        _ => (v as f32).to_le_bytes(),
    }
}

/// Writes `v` at the member's offset, converted to its type.
pub fn write_member(m: &Member, v: &Value, bytes: &mut [u8]) {
    let values: Vec<f64> = match v {
        Value::Floats(f) => f.iter().map(|x| f64::from(*x)).collect(),
        Value::Uint(u) => vec![f64::from(*u)],
        Value::Int(i) => vec![f64::from(*i)],
    };
    let base = m.offset as usize;
    match m.ty {
        MemberType::Vector { kind, n } => {
            for (i, x) in values.iter().take(n as usize).enumerate() {
                let word = match (kind, v) {
                    // Keep integer bit patterns exact (FrameCount beyond 2^24, -1 as uint).
                    (ScalarKind::Uint, Value::Uint(u)) => u.to_le_bytes(),
                    (ScalarKind::Uint, Value::Int(s)) => (*s as u32).to_le_bytes(),
                    (ScalarKind::Sint, Value::Int(s)) => s.to_le_bytes(),
                    (ScalarKind::Sint, Value::Uint(u)) => (*u as i32).to_le_bytes(),
                    _ => scalar(kind, *x),
                };
                put(bytes, base + i * 4, word);
            }
        }
        MemberType::Matrix { columns, rows, stride } => {
            // `values` is a column-major 4x4; take the top-left columns x rows.
            for c in 0..columns as usize {
                for r in 0..rows as usize {
                    let x = values.get(c * 4 + r).copied().unwrap_or(0.0);
                    put(bytes, base + c * stride as usize + r * 4, (x as f32).to_le_bytes());
                }
            }
        }
        MemberType::Other => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_keep_integer_bits() {
        let mut bytes = vec![0u8; 8];
        let m = Member {
            name: "FrameDirection".into(),
            offset: 4,
            ty: MemberType::Vector { kind: ScalarKind::Uint, n: 1 },
        };
        write_member(&m, &Value::Int(-1), &mut bytes);
        assert_eq!(&bytes[4..8], &u32::MAX.to_le_bytes());
        let f =
            Member { name: "FrameCount".into(), offset: 0, ty: MemberType::Vector { kind: ScalarKind::Float, n: 1 } };
        write_member(&f, &Value::Uint(7), &mut bytes);
        assert_eq!(&bytes[0..4], &7.0f32.to_le_bytes());
        // Out of range: skipped, no panic.
        let far = Member { name: "x".into(), offset: 100, ty: MemberType::Vector { kind: ScalarKind::Float, n: 4 } };
        write_member(&far, &Value::Floats(vec![1.0; 4]), &mut bytes);
    }
}
