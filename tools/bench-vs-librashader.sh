#!/usr/bin/env bash
# Times cg2slang's filter chain against librashader's Vulkan runtime on the same .slangp
# files, and prints per-frame cost, start-up and their ratios.
#
#   tools/bench-vs-librashader.sh MIGRATED_TREE IMAGE [FRAMES]
#
# MIGRATED_TREE is the output of `cg2slang migrate` over libretro/common-shaders (e.g.
#   cg2slang migrate ../common-shaders --out /tmp/cs-slang --no-validate);
# IMAGE the input frame (PNG; the 256x224 test card is corpus/tools/gen_images.py's);
# FRAMES (default 601) the longer run. Binaries: $CG2SLANG (default
# target/release/cg2slang) and $LIBRASHADER_CLI (default: `librashader-cli` on PATH,
# else in $CARGO_HOME/bin; install it with `cargo install librashader-cli
# --no-default-features --features vulkan,wgpu`, or `--root DIR` and point
# LIBRASHADER_CLI at DIR/bin/librashader-cli). $PRESETS overrides the preset list
# (paths relative to the tree).
#
# Both sides render at the input image's size: librashader-cli 0.12's Vulkan runtime
# takes its viewport from the input image whatever `--dimensions` says (it only sizes
# the output image), so a larger `--viewport` on our side would time a different amount
# of work. To time a 1920x1080 viewport, give a 1920x1080 IMAGE.
#
# The two runtimes do not always do the same work. librashader samples a pass output
# read by name (an alias, PassOutputN) with the filter of the pass that wrote it;
# RetroArch, and cg2slang after it, with the filter of the pass after that one. Where
# the two filters differ (crt-royale's ORIG_LINEARIZED: nearest against linear), the
# ratio compares different work. With EQUAL_FILTERS=1 the script finds those passes
# (a later pass's file names the output's alias or PassOutputN), and also times a
# copy of such a preset (written under a temporary directory, its shader and LUT paths
# made absolute) where each such pass's filter_linearN is the next pass's: both
# runtimes then sample alike. The copy's row is named "PRESET (equal filters)" and says
# which passes changed. librashader also draws the last pass straight to the viewport
# whatever its scale type, where RetroArch renders a last pass with a scale type into a
# framebuffer and stretches that to the viewport: the chain does as RetroArch, except
# where the stretch would copy texel for texel (a last pass scaled to exactly the
# viewport, as crt-royale's), which it draws straight in too. A last pass scaled to
# another size is more work for the chain (and another image).
#
# start-up = wall time of a 1-frame run (process start, device, shader compilation,
# pipelines, one frame, read-back, PNG); per frame = (t(FRAMES) - t(1)) / (FRAMES - 1);
# each figure is the best of $REPEAT (default 3) runs. librashader keeps compiled
# shaders in an on-disk cache ($XDG_CACHE_HOME/librashader): its start-up is given
# both warm (that cache, as a user runs it; the per-frame runs use it too) and cold (an
# empty private cache per run; the driver's own caches stay as they are for both
# sides). cg2slang keeps glslang's SPIR-V and a Vulkan pipeline cache in its own cache
# ($XDG_CACHE_HOME/cg2slang): its start-up is likewise given warm (the best of the runs,
# after the first filled that cache) and cold (CG2SLANG_NO_CACHE=1: glslang runs every
# time and no pipeline cache is read). CI does not run this
# script.
#
# librashader-cli renders with its Vulkan runtime (glslang's SPIR-V, combined image
# samplers, straight to the driver, as RetroArch does); LR_RUNTIME=wgpu times its wgpu
# runtime instead, which goes through naga and binds textures and samplers apart, as
# wgpu (and so this chain) must.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
tree="${1:?usage: $0 MIGRATED_TREE IMAGE [FRAMES]}"
image="${2:?usage: $0 MIGRATED_TREE IMAGE [FRAMES]}"
frames="${3:-601}"
ours="${CG2SLANG:-target/release/cg2slang}"
theirs="${LIBRASHADER_CLI:-}"
if [ -z "$theirs" ]; then
    if command -v librashader-cli > /dev/null 2>&1; then
        theirs=librashader-cli
    else
        theirs="${CARGO_HOME:-$HOME/.cargo}/bin/librashader-cli"
    fi
fi
repeat="${REPEAT:-3}"
lr_runtime="${LR_RUNTIME:-vulkan}"
case "$lr_runtime" in vulkan | wgpu) ;; *) echo "LR_RUNTIME must be vulkan or wgpu, not $lr_runtime" >&2; exit 2 ;; esac
presets="${PRESETS:-crt/crt-geom crt/crt-royale xbr/super-xbr-6p-adaptive crt/crt-easymode-halation ntsc/ntsc-320px-svideo-gauss-scanline}"

if ! command -v "$theirs" > /dev/null 2>&1; then
    echo "librashader-cli not found ($theirs). Install it with:" >&2
    echo "  cargo install librashader-cli --no-default-features --features vulkan,wgpu" >&2
    echo "or point LIBRASHADER_CLI at the binary." >&2
    exit 2
fi
if [ ! -x "$ours" ]; then
    echo "$ours not found: build it (cargo build --release) or set CG2SLANG" >&2
    exit 2
fi
# A PNG's width and height: big-endian 32-bit words at bytes 16 and 20 (no Python needed).
size="$(od -An -tu1 -j16 -N8 "$image" | awk '{ printf "%dx%d", (($1 * 256 + $2) * 256 + $3) * 256 + $4, (($5 * 256 + $6) * 256 + $7) * 256 + $8 }')"
# wgpu and librashader print XDG warnings without a session; give them a private dir.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# best wall time in seconds of "$@" over $repeat runs; fails when the command fails.
best() {
    local b="" t s e
    for _ in $(seq "$repeat"); do
        s=$(date +%s.%N)
        "$@" > /dev/null 2>&1 || return 1
        e=$(date +%s.%N)
        t=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.4f", e - s }')
        if [ -z "$b" ] || awk -v t="$t" -v b="$b" 'BEGIN { exit !(t < b) }'; then b=$t; fi
    done
    echo "$b"
}
run_ours() { "$ours" render "$1" --image "$image" --viewport "$size" --frames "$2" --out "$out/ours.png" --force; }
run_ours_cold() { CG2SLANG_NO_CACHE=1 run_ours "$1" 1; }
run_theirs() { "$theirs" render -p "$1" -i "$image" -f "$(($2 - 1))" -o "$out/theirs.png" -r "$lr_runtime"; }
# a 1-frame run with an empty librashader cache of its own; the driver's caches (Mesa's
# mesa_shader_cache, NVIDIA's) stay warm, as they are for our runs
user_cache="${XDG_CACHE_HOME:-$HOME/.cache}"
run_theirs_cold() {
    local cache entry
    cache="$(mktemp -d "$out/cache.XXXXXX")"
    for entry in "$user_cache"/*; do
        [ -e "$entry" ] && [ "$(basename "$entry")" != librashader ] && ln -s "$entry" "$cache/"
    done
    XDG_CACHE_HOME="$cache" run_theirs "$1" 1
    local rc=$?
    rm -rf "$cache"
    return $rc
}

if command -v vulkaninfo > /dev/null 2>&1; then
    echo "Vulkan devices: $(vulkaninfo --summary 2>/dev/null | grep deviceName | sed 's/.*= //' | paste -sd ', ')"
fi
echo "image $image ($size), viewport $size, $frames frames, best of $repeat, librashader's $lr_runtime runtime"
printf '%-40s %11s %11s %6s %11s %11s %6s %11s %11s %6s\n' preset "ours ms/fr" "lr ms/fr" ratio "ours warm" "lr warm" ratio "ours cold" "lr cold" ratio
# One row: the preset file $2 timed on both sides under the name $1.
bench_row() {
    local name="$1" file="$2" o1 on oc t1 tn tc
    if ! o1=$(best run_ours "$file" 1) || ! on=$(best run_ours "$file" "$frames") || ! oc=$(best run_ours_cold "$file"); then
        printf '%-40s cg2slang render failed\n' "$name"
        return
    fi
    if ! t1=$(best run_theirs "$file" 1) || ! tn=$(best run_theirs "$file" "$frames") || ! tc=$(best run_theirs_cold "$file"); then
        printf '%-40s librashader-cli render failed\n' "$name"
        return
    fi
    awk -v p="$name" -v o1="$o1" -v on="$on" -v oc="$oc" -v t1="$t1" -v tn="$tn" -v tc="$tc" -v n="$frames" 'BEGIN {
        of = (on - o1) / (n - 1) * 1000; tf = (tn - t1) / (n - 1) * 1000;
        if (of < 0) of = 0; if (tf < 0) tf = 0;
        fr = (tf > 0) ? sprintf("%.2f", of / tf) : "-";
        printf "%-40s %11.3f %11.3f %6s %10.3fs %10.3fs %6.2f %10.3fs %10.3fs %6.2f\n", p, of, tf, fr, o1, t1, o1 / t1, oc, tc, oc / tc }'
}

# Writes to $2 a copy of the .slangp $1 in which every pass N whose output a later pass
# reads by name (its alias or PassOutputN in that pass's source) gets the next pass's
# filter_linear, with shader and LUT paths made absolute; prints the passes changed
# (nothing when none). Handles the presets `cg2slang migrate` writes (no #reference).
equal_filters() {
    awk -v dir="$(cd "$(dirname "$1")" && pwd)" -v dst="$2" '
        function unquote(v) { sub(/^[ \t]*"/, "", v); sub(/"[ \t]*$/, "", v); sub(/^[ \t]+/, "", v); sub(/[ \t]+$/, "", v); return v }
        function absolute(v) { return (v ~ /^\//) ? v : dir "/" v }
        function truthy(v) { return v == "true" || v == "1" }
        function reads(m, name,    file, line, found) {
            file = absolute(val["shader" m]); found = 0
            while ((getline line < file) > 0) {
                if (match(line, "(^|[^A-Za-z0-9_])" name "([^A-Za-z0-9_]|$)")) { found = 1; break }
            }
            close(file)
            return found
        }
        { lines[NR] = $0 }
        /^[ \t]*[A-Za-z0-9_]+[ \t]*=/ {
            k = $0; sub(/[ \t]*=.*/, "", k); gsub(/[ \t]/, "", k)
            v = $0; sub(/^[^=]*=/, "", v)
            if (!(k in val)) { val[k] = unquote(v); at[k] = NR }
        }
        END {
            n = val["shaders"] + 0
            split(val["textures"], luts, ";")
            changed = ""
            for (i = 0; i + 1 < n; i++) {
                a = truthy(val["filter_linear" i]); b = truthy(val["filter_linear" (i + 1)])
                if (a == b) continue
                named = 0
                for (m = i + 1; m < n && !named; m++) {
                    if (reads(m, "PassOutput" i)) named = 1
                    if (val["alias" i] != "" && reads(m, val["alias" i])) named = 1
                }
                if (!named) continue
                want[i] = b ? "true" : "false"
                changed = changed (changed == "" ? "" : ",") i
            }
            for (r = 1; r <= NR; r++) {
                line = lines[r]
                for (k in at) if (at[k] == r) {
                    if (k ~ /^shader[0-9]+$/) line = k " = \"" absolute(val[k]) "\""
                    for (t in luts) if (k == luts[t]) line = k " = \"" absolute(val[k]) "\""
                    if (k ~ /^filter_linear[0-9]+$/) { i = substr(k, 14) + 0; if (i in want) { line = k " = " want[i]; delete want[i] } }
                }
                print line > dst
            }
            for (i in want) print "filter_linear" i " = " want[i] > dst
            close(dst)
            print changed
        }' "$1"
}

for p in $presets; do
    bench_row "$p" "$tree/$p.slangp"
    if [ "${EQUAL_FILTERS:-0}" = 1 ]; then
        copy="$out/equal-$(echo "$p" | tr '/' '_').slangp"
        changed="$(equal_filters "$tree/$p.slangp" "$copy")"
        if [ -n "$changed" ]; then
            bench_row "$p (equal filters)" "$copy"
            echo "    (equal filters: filter_linear of pass $changed set to the next pass's)"
        fi
    fi
done
