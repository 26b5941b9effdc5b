#!/usr/bin/env python3
"""Generate the deterministic test images and LUTs of corpus/retroarch/.

Standard library only: PNGs are written by hand with zlib + struct (8-bit RGB,
filter 0 on every row, zlib level 9), so the bytes depend only on this script.

    python3 corpus/tools/gen_images.py            # writes into corpus/retroarch/
    python3 corpus/tools/gen_images.py OUT_DIR    # writes OUT_DIR/images, OUT_DIR/luts

Images (corpus/retroarch/images/):
  testcard_64x48.png  pixel-art test card: colour bars, a checkerboard, a
                      1-pixel grid, a grey ramp and hard diagonal/box edges
  testcard_moved_64x48.png  the test card moved 3 right and 2 down (wrapping):
                      the next frame of a sequence, for history and feedback
  testcard_256x224.png  the test card at SNES size: the 64x48 card at 4x (256x192),
                      then 16 rows of red, green, blue and grey ramps (4 rows
                      each) and 16 rows of 1-pixel white diagonals on dark blue
  gradient_32x32.png  smooth two-axis gradient (R = x, G = y, B = inverse)
  edges_16x16.png     hard edges only: a diagonal staircase and a box
LUTs (corpus/retroarch/luts/):
  grade_256x16.png    16x16x16 colour-grade cube laid out as 16 slices of 16x16
                      (slice = blue, x in slice = red, y = green), warm S-curve grade
  ramp_64x1.png       1D ramp: black -> deep blue -> orange -> white
Written for the cg2slang corpus.
"""
import os
import struct
import sys
import zlib


def png_bytes(width, height, pixel):
    """pixel(x, y) -> (r, g, b) with 0..255 ints. Returns the PNG file bytes."""
    raw = bytearray()
    for y in range(height):
        raw.append(0)  # filter type 0 (None)
        for x in range(width):
            r, g, b = pixel(x, y)
            raw += bytes((r, g, b))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit, RGB
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def clamp8(v):
    return max(0, min(255, int(round(v))))


# --- 64x48 test card --------------------------------------------------------

BARS = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0),
        (255, 0, 255), (255, 0, 0), (0, 0, 255), (0, 0, 0)]


def testcard(x, y):
    if y < 16:                       # 8 colour bars, 8 px wide
        return BARS[x // 8]
    if y < 32:
        if x < 32:                   # checkerboard, 4x4 cells
            return (255, 255, 255) if ((x // 4) + (y // 4)) % 2 == 0 else (32, 32, 32)
        # 1-pixel grid, a line every 4 px, on mid grey
        if x % 4 == 0 or y % 4 == 0:
            return (240, 240, 240)
        return (96, 96, 96)
    if y < 40:                       # grey ramp 0..255 across the width
        v = clamp8(x * 255 / 63)
        return (v, v, v)
    # hard edges: a diagonal staircase (left) and an outlined box (right)
    if x < 32:
        return (255, 255, 255) if (x // 2) >= (y - 40) * 2 else (0, 0, 0)
    if 36 <= x <= 59 and y in (41, 46) or x in (36, 59) and 41 <= y <= 46:
        return (255, 255, 255)
    if 37 <= x <= 58 and 42 <= y <= 45:
        return (200, 40, 40)
    return (0, 0, 64)


def testcard_moved(x, y):
    # The test card one frame later: moved 3 pixels right and 2 down (wrapping),
    # so history and feedback presets see motion between frames.
    return testcard((x - 3) % 64, (y - 2) % 48)


def testcard_snes(x, y):
    # The test card at the size of a SNES frame, for library-wide old/new runs at 2x.
    if y < 192:
        return testcard(x // 4, y // 4)
    if y < 208:
        v = clamp8(x * 255 / 255)
        band = (y - 192) // 4
        return [(v, 0, 0), (0, v, 0), (0, 0, v), (v, v, v)][band]
    return (255, 255, 255) if (x + y) % 8 == 0 else (0, 0, 64)


def gradient(x, y):
    return (clamp8(x * 255 / 31), clamp8(y * 255 / 31), clamp8(255 - (x + y) * 255 / 62))


def edges(x, y):
    if x >= y:                       # staircase with 1-pixel steps
        if 9 <= x <= 14 and 2 <= y <= 6:
            return (255, 0, 0)
        return (255, 255, 255)
    if 2 <= x <= 6 and 9 <= y <= 13:
        return (0, 0, 255)
    return (0, 0, 0)


# --- LUTs -------------------------------------------------------------------

def grade_curve(v):
    """A gentle S-curve on 0..1."""
    return v * v * (3.0 - 2.0 * v) * 0.6 + v * 0.4


def grade(x, y):
    slice_b, r = divmod(x, 16)
    g = y
    rf, gf, bf = r / 15.0, g / 15.0, slice_b / 15.0
    # warm grade: lift red, compress blue, S-curve every channel
    rf = grade_curve(min(1.0, rf * 1.06 + 0.02))
    gf = grade_curve(gf)
    bf = grade_curve(bf * 0.88)
    return (clamp8(rf * 255), clamp8(gf * 255), clamp8(bf * 255))


RAMP_KEYS = [(0.0, (0, 0, 0)), (0.35, (20, 30, 140)), (0.7, (240, 140, 30)), (1.0, (255, 255, 255))]


def ramp(x, y):
    t = x / 63.0
    for (t0, c0), (t1, c1) in zip(RAMP_KEYS, RAMP_KEYS[1:]):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            return tuple(clamp8(a + (b - a) * f) for a, b in zip(c0, c1))
    return RAMP_KEYS[-1][1]


OUTPUTS = [
    ("images/testcard_64x48.png", 64, 48, testcard),
    ("images/testcard_moved_64x48.png", 64, 48, testcard_moved),
    ("images/testcard_256x224.png", 256, 224, testcard_snes),
    ("images/gradient_32x32.png", 32, 32, gradient),
    ("images/edges_16x16.png", 16, 16, edges),
    ("luts/grade_256x16.png", 256, 16, grade),
    ("luts/ramp_64x1.png", 64, 1, ramp),
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "retroarch")
    for rel, w, h, fn in OUTPUTS:
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = png_bytes(w, h, fn)
        with open(path, "wb") as f:
            f.write(data)
        print("%-28s %3dx%-3d %5d bytes" % (rel, w, h, len(data)))


if __name__ == "__main__":
    main()
