#!/usr/bin/env bash
# Times `cg2slang migrate --compare` (old/new of every preset: the CPU reference of the
# Cg original against the GPU chain of the translation) over a list of presets of a Cg
# library, and prints wall time, user and system CPU time and peak RSS. With a second
# binary, runs both on the same presets and checks that every preset's comparison
# (status, cause, detail, metrics, divergent pass) is identical in the two reports:
# a speed-up must not change a verdict or a metric. When they differ it says which
# presets and whether any verdict (status and cause) changed; $KEEP=DIR keeps both reports.
#
#   tools/bench-migrate-compare.sh LIBRARY IMAGE [BASELINE_BINARY]
#
# LIBRARY is libretro/common-shaders (or any tree of .cgp); IMAGE the input frame (the
# 256x224 test card is corpus/tools/gen_images.py's). Binary: $CG2SLANG (default
# target/release/cg2slang). $PRESETS overrides the preset list (paths relative to
# LIBRARY; default: a sample of 45 from ntsc, pal, mudlord, scalefx, crt, blurs, xbr,
# windowed, handheld, xsoft, with failures that exercise the precision rule);
# $FRAMES (default 3) and $VIEWPORT (default 512x448) as --compare-frames and
# --compare-viewport; $JOBS as --jobs.
#
# Targets (issue #19): the whole of common-shaders (602 presets, 3 frames, 512x448) in
# at most 60 s on the 16-core H100 machine and 10 min on 2 cores with lavapipe. CI does
# not run this script; no test is timed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"
library="${1:?usage: $0 LIBRARY IMAGE [BASELINE_BINARY]}"
image="$(realpath "${2:?usage: $0 LIBRARY IMAGE [BASELINE_BINARY]}")"
baseline="${3:-}"
ours="$(realpath "${CG2SLANG:-target/release/cg2slang}")"
frames="${FRAMES:-3}"
viewport="${VIEWPORT:-512x448}"
presets="${PRESETS:-ntsc/artifact-colors.cgp ntsc/ntsc-256px-gauss-scanline.cgp ntsc/ntsc-256px-svideo-gauss-scanline.cgp
ntsc/ntsc-256px-svideo.cgp ntsc/ntsc-256px.cgp ntsc/ntsc-320px-gauss-scanline.cgp ntsc/ntsc-320px-svideo-gauss-scanline.cgp
ntsc/ntsc-320px-svideo.cgp ntsc/ntsc-320px.cgp ntsc/ntsc-nes.cgp ntsc/ntsc-svideo.cgp ntsc/ntsc-vcr.cgp ntsc/ntsc.cgp
pal/pal-r57shell-moire-only.cgp pal/pal-r57shell-nes-svideo.cgp pal/pal-r57shell.cgp pal/pal-singlepass.cgp
mudlord/bloom.cgp mudlord/blur.cgp mudlord/emboss.cgp mudlord/mud-mudlord.cgp mudlord/noise-mudlord.cgp mudlord/oldtv.cgp
mudlord/sharpen.cgp mudlord/toon.cgp mudlord/waterpaint-mudlord.cgp scalefx/scalefx+rAA.cgp scalefx/scalefx-hybrid.cgp
scalefx/scalefx.cgp crt/crt-geom.cgp crt/crt-royale.cgp crt/crtglow_gauss_ntsc_3phase.cgp crt/crt-easymode-halation.cgp
crt/phosphorlut-shadowmask.cgp crt/crt-lottes.cgp crt/zfast-crt.cgp
blurs/benchmark-presets/benchmark-blur6x6shared-mipmap-srgb-six-times.cgp xbr/5xbr-retro.cgp xbr/super-2xbr-3d-2p.cgp
xbr/super-2xbr-3d-3p-smoother.cgp xbr/super-4xbr-3d-4p.cgp windowed/jinc2.cgp handheld/lcd-grid-v2.cgp xsoft/4xsoft.cgp
xsoft/4xsoftSdB.cgp}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

run() { # BINARY TAG
    local bin="$1" tag="$2"
    # shellcheck disable=SC2086
    (cd "$library" && /usr/bin/time -f "$tag: %e s wall, %U s user, %S s system, peak RSS %M KiB" \
        "$bin" migrate $presets --out "$work/out-$tag" --report "$work/$tag.json" ${JOBS:+--jobs "$JOBS"} \
        --compare --compare-image "$image" --compare-frames "$frames" --compare-viewport "$viewport" \
        > "$work/$tag.log" 2> "$work/$tag.time") || true
    grep -E "^$tag:" "$work/$tag.time"
}

if [ -n "$baseline" ]; then
    run "$(realpath "$baseline")" baseline
fi
run "$ours" ours
if [ -n "$baseline" ]; then
    # The per-stage timings (`comparison.seconds`) differ run to run: not a verdict.
    comparisons() { jq -S '[.presets[] | {source, comparison} | del(.comparison.seconds)]' "$1"; }
    if [ -n "${KEEP:-}" ]; then
        mkdir -p "$KEEP" && cp "$work/baseline.json" "$work/ours.json" "$KEEP/"
    fi
    if diff <(comparisons "$work/baseline.json") <(comparisons "$work/ours.json") > "$work/diff.txt"; then
        echo "comparisons identical ($(jq '.presets | length' "$work/ours.json") presets)"
    else
        # What differs: the verdicts (status and cause) or only the metrics.
        verdicts() { jq -S '[.presets[] | {source, status: .comparison.status, cause: .comparison.cause}]' "$1"; }
        changed() {
            jq -n -r --slurpfile a "$work/baseline.json" --slurpfile b "$work/ours.json" '
                ($a[0].presets | map({key: .source, value: (.comparison | del(.seconds))}) | from_entries) as $old
                | $b[0].presets[] | select((.comparison | del(.seconds)) != $old[.source]) | .source' 
        }
        changed > "$work/changed.txt"
        echo "comparisons DIFFER in $(wc -l < "$work/changed.txt") presets:" >&2
        sed -n 1,20p "$work/changed.txt" >&2
        if diff <(verdicts "$work/baseline.json") <(verdicts "$work/ours.json") > "$work/verdicts.txt"; then
            echo "verdicts (status and cause) identical; metrics differ" >&2
        else
            echo "verdicts DIFFER:" >&2
            sed -n 1,50p "$work/verdicts.txt" >&2
        fi
        exit 1
    fi
fi
cd "$root"
