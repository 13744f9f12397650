#!/usr/bin/python3
"""Writes the protovar-distillation example set (IDX pairs) and the PNG test fixtures.

glyphs-idx/: ten hand-drawn 16x16 glyph classes (numpy strokes, not the engine's renderer: other
shapes' proportions, no rotation), 40 training and 20 test images per class, MNIST-style IDX
(images 00 00 08 03, labels 00 00 08 01). tests/data/protovar/: PNG class folders written with a
pure-stdlib PNG encoder (zlib): a good grey/RGB mix, mixed sizes, a corrupt file, a small class.
Run from the repository root: /usr/bin/python3 resources/examples/protovar-distillation/make_examples.py
"""
import os, struct, zlib
import numpy as np

ROOT = os.getcwd()


def glyph(cls, rng):
    img = np.zeros((16, 16))
    cy, cx = 7.5 + rng.integers(-2, 3), 7.5 + rng.integers(-2, 3)
    r = rng.uniform(3.5, 5.5)
    w = rng.uniform(0.8, 1.6)
    yy, xx = np.mgrid[0:16, 0:16]
    dy, dx = yy - cy, xx - cx
    d = np.hypot(dy, dx)
    shapes = [
        d <= r,                                            # circle
        np.abs(d - r) <= w,                                # ring
        np.maximum(np.abs(dy), np.abs(dx)) <= r * 0.8,      # square
        (dy <= r * 0.8) & (dy >= -r) & (np.abs(dx) <= (dy + r) * 0.55) & ~((dy <= r * 0.8 - w) & (np.abs(dx) <= (dy + r) * 0.55 - w * 1.5)),  # triangle
        ((np.abs(dy) <= w) & (np.abs(dx) <= r)) | ((np.abs(dx) <= w) & (np.abs(dy) <= r)),  # cross
        ((np.abs(dy - dx) <= w * 1.2) | (np.abs(dy + dx) <= w * 1.2)) & (d <= r * 1.2),    # X
        (np.abs(dy) <= w) & (np.abs(dx) <= r),             # h-bar
        (np.abs(dx) <= w) & (np.abs(dy) <= r),             # v-bar
        np.abs(np.abs(dy) + np.abs(dx) - r) <= w,          # diamond
        ((np.abs(dx + r * 0.6) <= w) & (np.abs(dy) <= r)) | ((np.abs(dy - r) <= w) & (dx >= -r * 0.6) & (dx <= r * 0.8)),  # L
    ]
    img[shapes[cls]] = rng.uniform(0.75, 1.0)
    img += 0.05 * rng.standard_normal(img.shape) + rng.uniform(0, 0.15)
    return np.clip(img, 0, 1)


def write_idx(path, arr, labels=False):
    with open(path, 'wb') as f:
        if labels:
            f.write(bytes([0, 0, 8, 1]) + struct.pack('>I', len(arr)))
        else:
            f.write(bytes([0, 0, 8, 3]) + struct.pack('>III', *arr.shape))
        f.write(np.asarray(arr, dtype=np.uint8).tobytes())


def png_bytes(img, rgb=False):
    h, w = img.shape[0], img.shape[1] // (3 if rgb else 1)
    raw = b''.join(b'\x00' + np.asarray(row, dtype=np.uint8).tobytes() for row in img)
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    ihdr = struct.pack('>IIBBBBB', w, h, 8, 2 if rgb else 0, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b'')


def write_png(path, img01, rgb=False):
    g = np.round(img01 * 255).astype(np.uint8)
    if rgb:
        g = np.stack([g, g, g], axis=-1).reshape(g.shape[0], -1)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(png_bytes(g, rgb))


def main():
    rng = np.random.default_rng(30)
    out = os.path.join(ROOT, 'resources/examples/protovar-distillation/glyphs-idx')
    os.makedirs(out, exist_ok=True)
    for split, n, stem in (('train', 40, ('1-train-images.idx3-ubyte', '2-train-labels.idx1-ubyte')),
                           ('test', 20, ('3-test-images.idx3-ubyte', '4-test-labels.idx1-ubyte'))):
        X = np.stack([glyph(c, rng) for c in range(10) for _ in range(n)])
        y = np.repeat(np.arange(10), n)
        write_idx(os.path.join(out, stem[0]), np.round(X * 255))
        write_idx(os.path.join(out, stem[1]), y, labels=True)
    fx = os.path.join(ROOT, 'tests/data/protovar')
    for cls, name in ((0, 'Ring'), (1, 'bar'), (6, 'circle')):  # byte-wise order: Ring < bar < circle
        for i in range(12):
            write_png(os.path.join(fx, 'good', name, f'{i:02d}.png'), glyph(cls, rng), rgb=(i % 3 == 0))
    for name in ('a', 'b'):
        for i in range(3):
            write_png(os.path.join(fx, 'mixed_sizes', name, f'{i}.png'), glyph(i, rng))
    write_png(os.path.join(fx, 'mixed_sizes', 'b', '9_big.png'), np.zeros((20, 20)))
    for name in ('a', 'b'):
        for i in range(3):
            write_png(os.path.join(fx, 'corrupt', name, f'{i}.png'), glyph(i, rng))
    with open(os.path.join(fx, 'corrupt', 'b', '1.png'), 'r+b') as f:  # damage the IDAT payload
        f.seek(45)
        f.write(b'\xff\xff\xff\xff\xff\xff\xff\xff')
    with open(os.path.join(fx, 'corrupt', 'a', '7_text.png'), 'w') as f:
        f.write('not a png\n')


if __name__ == '__main__':
    main()
