//! Validation cost per shader: the whole of `validate` (split, glslang on both stages,
//! reflection, interface rules), glslang alone, and naga on a naga-dialect pair.
//!
//! Inputs: every corpus `.cg` (outside `corpus/bad/`) the translator accepts, as a lone
//! pass; set `VALIDATE_BENCH_DIR=/some/dir` to use every `.slang` under that directory
//! instead (e.g. the output of the translator's `translate_sweep`). Throughput is in
//! shaders per second; criterion's time per iteration divided by the element count is
//! the cost per shader.
//!
//! Run with `cargo bench -p runtime-check --bench validate` (add
//! `-- --warm-up-time 1 --measurement-time 3` for a quick figure).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use grammar::{PpOptions, RealFs, SourceMap};
use runtime_check::validate::{glslang, split_stages, validate, validate_naga, Stage, ValidationContext};
use std::hint::black_box;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, ext: &str, skip: Option<&Path>, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            if Some(p.as_path()) != skip {
                walk(&p, ext, skip, out);
            }
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

/// The slang texts to validate.
fn inputs() -> Vec<String> {
    if let Ok(dir) = std::env::var("VALIDATE_BENCH_DIR") {
        let mut files = Vec::new();
        walk(Path::new(&dir), "slang", None, &mut files);
        return files.iter().filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut files = Vec::new();
    walk(&corpus, "cg", Some(&corpus.join("bad")), &mut files);
    let options = PpOptions { defines: vec![("PARAMETER_UNIFORM".into(), None)], ..PpOptions::default() };
    files
        .iter()
        .filter_map(|f| {
            let mut sources = SourceMap::new();
            let parsed = grammar::parse_file(&mut sources, f, &options, &RealFs);
            translator::translate::translate(&sources, &parsed, &translator::translate::TranslateOptions::default())
                .text
        })
        .collect()
}

const NAGA_VS: &str = "#version 450
layout(push_constant) uniform Push { vec4 SourceSize; vec4 OutputSize; } params;
layout(set = 0, binding = 0, std140) uniform UBO { mat4 MVP; } global;
layout(location = 0) in vec4 Position;
layout(location = 1) in vec2 TexCoord;
layout(location = 0) out vec2 vTexCoord;
void main() { gl_Position = global.MVP * Position; vTexCoord = TexCoord; }
";

const NAGA_FS: &str = "#version 450
layout(push_constant) uniform Push { vec4 SourceSize; vec4 OutputSize; } params;
layout(set = 0, binding = 1) uniform texture2D Source;
layout(set = 0, binding = 2) uniform sampler Source_sampler;
layout(location = 0) in vec2 vTexCoord;
layout(location = 0) out vec4 FragColor;
void main()
{
    vec2 px = params.SourceSize.zw;
    vec4 sum = vec4(0.0);
    for (int i = -4; i <= 4; i++)
        sum += texture(sampler2D(Source, Source_sampler), vTexCoord + vec2(float(i) * px.x, 0.0));
    FragColor = sum / 9.0;
}
";

fn benches(c: &mut Criterion) {
    let texts = inputs();
    assert!(!texts.is_empty(), "no inputs");
    let ctx = ValidationContext::default();
    let mut group = c.benchmark_group("validate");
    group.throughput(Throughput::Elements(texts.len() as u64));
    group.bench_function("full", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(validate(black_box(t), &[], &ctx));
            }
        });
    });
    let stages: Vec<_> = texts.iter().map(|t| split_stages(t)).collect();
    group.bench_function("glslang_only", |b| {
        b.iter(|| {
            for s in &stages {
                for stage in Stage::BOTH {
                    let _ = black_box(glslang::compile(&s.stage(stage).text, stage));
                }
            }
        });
    });
    group.finish();

    let mut group = c.benchmark_group("naga");
    group.throughput(Throughput::Elements(1));
    group.bench_function("vertex_and_fragment", |b| {
        b.iter(|| {
            let _ = black_box(validate_naga(NAGA_VS, Stage::Vertex));
            let _ = black_box(validate_naga(NAGA_FS, Stage::Fragment));
        });
    });
    group.finish();
}

criterion_group!(validation, benches);
criterion_main!(validation);
