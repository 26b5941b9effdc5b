//! The CPU reference runs the fragment program on batches of quads (every compiled
//! closure call covers several 2x2 quads of a quad row): known-answer tests that every
//! quad of a batch still computes what it computes alone — derivatives within each quad,
//! divergent control flow between the quads of one batch, a loop cap hit by one quad
//! only, and the tail batch of a row padded with quads that are never stored.

mod support;

use runtime_check::reference::{render_pass, PassInputs, Rendered, SamplerState};
use support::{cg_program, source4};

const HEADER: &str = "void main_vertex(float4 position : POSITION, float2 tex : TEXCOORD0, uniform float4x4 modelViewProj, out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n\
{ oPosition = mul(modelViewProj, position); oTex = tex; }\n";

/// Renders `body` as `main_fragment(float4 wpos : WPOS)` (`wpos.xy` = pixel centre).
fn render(body: &str, size: (u32, u32)) -> Result<Rendered, Vec<grammar::Diagnostic>> {
    let src = format!("{HEADER}float4 main_fragment(float4 wpos : WPOS) : COLOR\n{{\n{body}\n}}\n");
    render_pass(&cg_program(&src), &PassInputs::single(source4(), SamplerState::default(), size))
}

fn pixels(body: &str, size: (u32, u32)) -> Vec<[f32; 4]> {
    match render(body, size) {
        Ok(r) => r.image.pixels,
        Err(d) => panic!("render failed: {d:#?}"),
    }
}

#[test]
fn derivatives_are_taken_within_each_quad_of_a_batch() {
    // 44 pixels: 22 quads per row, batches of 8, 8 and 6 (padded). With x and y the
    // pixel's integer coordinates, ddx(x^2) = (x0 + 1)^2 - x0^2 for the quad's left
    // column x0, and ddy(x y) = x (the fine derivative keeps each lane's column).
    let (w, h) = (44, 4);
    let img = pixels(
        "float x = wpos.x - 0.5; float y = wpos.y - 0.5; return float4(ddx(x * x), ddy(x * y), fwidth(y), 1);",
        (w, h),
    );
    for y in 0..h {
        for x in 0..w {
            let x0 = (x & !1) as f32;
            let want = [2.0 * x0 + 1.0, x as f32, 1.0, 1.0];
            assert_eq!(img[(y * w + x) as usize], want, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn quads_of_one_batch_take_different_paths() {
    // Per quad q = floor(x / 2): some discard, some break out of the loop early, some
    // return early; the loop's trip count is the pixel's own.
    let body = "float x = wpos.x - 0.5; int q = int(x) / 2;\n\
        if (q % 3 == 1) discard;\n\
        float s = 0;\n\
        for (int i = 0; i < int(x); i++) { if (i == 7 && q % 5 == 0) break; s += 1; }\n\
        if (q % 4 == 2) return float4(-1, s, 0, 1);\n\
        return float4(s, x, 0, 1);";
    let (w, h) = (40, 2);
    let img = pixels(body, (w, h));
    for y in 0..h {
        for x in 0..w {
            let q = x / 2;
            let s = if q % 5 == 0 { x.min(7) } else { x } as f32;
            let want = if q % 3 == 1 {
                [0.0; 4]
            } else if q % 4 == 2 {
                [-1.0, s, 0.0, 1.0]
            } else {
                [s, x as f32, 0.0, 1.0]
            };
            assert_eq!(img[(y * w + x) as usize], want, "pixel ({x}, {y})");
        }
    }
}

#[test]
fn a_loop_cap_hit_by_one_quad_is_the_diagnostic() {
    // Only the quad at x = 26..28 of row 0 (quad 13, in the middle of the second batch)
    // never leaves the loop.
    let body = "float s = 0; while (wpos.x > 26.0 && wpos.x < 28.0 && wpos.y < 2.0) s += 1; return float4(s, 0, 0, 1);";
    let err = render(body, (40, 4)).err().expect("capped");
    assert_eq!(err.len(), 1);
    assert_eq!(err[0].code, "E0804");
    // The same loop, ending everywhere after a long run in that quad only: no error,
    // and the quads beside it in the batch are unaffected.
    let body = "float s = 0; while (wpos.x > 26.0 && wpos.x < 28.0 && s < 60000.0) s += 1; return float4(s, 0, 0, 1);";
    let img = pixels(body, (40, 1));
    let r: Vec<f32> = img.iter().map(|p| p[0]).collect();
    let want: Vec<f32> = (0..40).map(|x| if x == 26 || x == 27 { 60000.0 } else { 0.0 }).collect();
    assert_eq!(r, want);
}

#[test]
fn the_tail_batch_is_padded_and_never_stored() {
    // 5 quads per row (one batch of 8, three of them padding) and an odd height (the
    // last quad row's lower lanes are helpers outside the target): every stored pixel
    // is its own, the hazard map has one flag per pixel.
    for (w, h) in [(10, 3), (2, 1), (34, 5)] {
        let r = render("return float4(wpos.x - 0.5, wpos.y - 0.5, 7, 1);", (w, h)).expect("renders");
        assert_eq!(r.image.pixels.len(), (w * h) as usize);
        assert_eq!(r.hazard.len(), (w * h) as usize);
        for y in 0..h {
            for x in 0..w {
                assert_eq!(r.image.pixels[(y * w + x) as usize], [x as f32, y as f32, 7.0, 1.0]);
            }
        }
    }
}

#[test]
fn dot_and_length_round_each_lane_as_binary32_does() {
    // Operands that differ in every lane (so no lane computes for the others): each
    // pixel's dot and length are binary32 products and sums in order, then the root.
    let body = "float3 a = float3(wpos.x * 0.1, wpos.y * 0.37, 0.3); float3 b = float3(0.7, wpos.x * 1.3, wpos.y);\n\
        return float4(dot(a, b), length(a), length(wpos.x * -0.3), length(float2(a.x, b.y)));";
    let (w, h) = (36, 4);
    let img = pixels(body, (w, h));
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let a = [px * 0.1, py * 0.37, 0.3f32];
            let b = [0.7f32, px * 1.3, py];
            let dot = |u: &[f32], v: &[f32]| u.iter().zip(v).skip(1).fold(u[0] * v[0], |acc, (p, q)| acc + p * q);
            let want = [dot(&a, &b), dot(&a, &a).sqrt(), (px * -0.3).abs(), dot(&[a[0], b[1]], &[a[0], b[1]]).sqrt()];
            assert_eq!(img[(y * w + x) as usize], want, "pixel ({x}, {y})");
        }
    }
}
